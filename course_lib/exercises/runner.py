"""Running a student's code inside a check: in a child process killed at its deadline, never raising, leaving nothing changed.

A :class:`Run` is one check. It forks the notebook's process once, and the student's code runs
only in that child; the checker runs in the notebook's own process and asks the child for
each call (:meth:`Run.call`), so the reference answers and every comparison stay out of the
student's reach:

- **time**: all of the student's code in one check shares ``TIME_LIMIT_S`` seconds. When they
  are up, the child is killed (``SIGKILL``: no ``except``, no C call and no regex outlasts it),
  and the verdict is ``timeout``. After that the check calls the student's code no more.
- **what comes back**: only plain values copied out of the child -- tensors of the class
  ``torch.Tensor`` (or parameters) with their values, dtype, shape and ``requires_grad``, and
  numbers, strings, lists, tuples and dicts of them. A tensor subclass, a tensor on the
  ``meta`` device or any other object comes back as a :class:`Foreign` that the verdict names.
  Objects that stay in the child (a built module) come back as a :class:`Handle`.
- **memory**: the child may grow by ``MEMORY_LIMIT_BYTES`` beyond the notebook's size, a hard
  limit the student's code cannot raise; a bigger allocation fails inside the child as a
  ``MemoryError``.
- **processes**: every process the student's code starts dies with the check, wherever it went
  (its own session, a parent that ended): the child, and while the check runs the notebook
  too, reap the orphans (``PR_SET_CHILD_SUBREAPER``), and closing the check stops the whole tree,
  then kills it.
- **the replies themselves**: bytes the student's code writes on the reply pipe are read as any
  reply, within the deadline, and refused when they would cost the notebook more than their size
  (memo references, deep nesting, a tensor whose shape its bytes do not fill): ``child_died``.
- **exits and odd exceptions**: ``sys.exit()`` is a verdict, and so is a child that dies (a
  crash in C code, ``os._exit``). Only ``KeyboardInterrupt`` (the student pressing stop)
  goes through.
- **output**: what the student's code prints (``print``, or C code writing to the file
  descriptors) is captured in the child and shown afterwards, at most ``MAX_OUTPUT_LINES``
  lines and ``MAX_OUTPUT_CHARS`` characters of it.
- **state**: nothing the student's code does in the child (a monkeypatch of the checker or of
  torch, print options, warnings filters, the recursion limit, the working directory, a
  thread) reaches the notebook. Patches the student made in the notebook itself, outside a
  check, are found by comparing with the functions remembered when the course was imported
  (:func:`remember_originals`): the check runs with the originals and its verdict names them.
  :func:`sandbox` gives the check a known state -- float32 default dtype, the CPU as default
  device, gradients on, no inference mode, no autocast -- whatever the notebook had set.

Without ``os.fork`` (Windows; macOS, where forking after CoreFoundation is unsafe) the student's
code runs in the notebook's process instead, bounded by a watchdog thread that only interrupts
Python code between two bytecodes: none of the limits above but the Python loops' holds there (a
long C call runs to its end, memory is not limited, a monkeypatch stays, ``os._exit`` ends the
kernel), and every verdict says so in the student's language (``no_fork``). A spawned child
cannot stand in for the fork: the student's function or class, defined in the notebook's
``__main__``, does not pickle into a fresh interpreter.
"""

import builtins
import contextlib
import inspect
import os
import sys
import time
import warnings

import torch
from torch import nn

from .. import i18n
from .checks import MESSAGES, Feedback, Foreign, Stop, feedback
from .child import (
    FORK,
    MEMORY_LIMIT_BYTES,
    Child,
    ErrorInfo,
    Handle,
    Local,
    code_safe,
    crash,
    decode,
    safe_str,
)

__all__ = [
    "TIME_LIMIT_S",
    "MAX_OUTPUT_LINES",
    "MAX_OUTPUT_CHARS",
    "MEMORY_LIMIT_BYTES",
    "ErrorInfo",
    "Handle",
    "Run",
    "sandbox",
    "code_safe",
    "safe_str",
    "remember_originals",
]

TIME_LIMIT_S = 5.0  # all of the student's code in one check; a right answer needs well under 1 s
MAX_OUTPUT_LINES = 20  # of what the student's code prints: the verdict must stay on screen
MAX_OUTPUT_CHARS = 4000  # the same for one endless line
# ----------------------------------------------------------------------------- the notebook's patches


_ORIGINALS: dict[tuple[str, str], object] = {}


def _watched_modules() -> dict[str, object]:
    """The namespaces a check relies on: torch's functions and tensor methods, builtins, the course."""
    watched = {
        "builtins": builtins,
        "math": sys.modules["math"],
        "torch": torch,
        "torch.Tensor": torch.Tensor,
        "torch.nn.Module": nn.Module,
        "torch.nn.functional": torch.nn.functional,
    }
    watched.update({name: module for name, module in sys.modules.items() if name.startswith("course_lib")})
    return watched


# the builtins a check uses (IPython and ipykernel replace others, such as input, in every cell)
_BUILTINS = set(
    "abs all any bool callable dict enumerate float getattr hasattr int isinstance issubclass iter len "
    "list max min next range repr round sorted str sum tuple type vars zip".split()
)


def _functions(where: str, namespace) -> dict[str, object]:
    return {
        name: value
        for name, value in vars(namespace).items()
        if (callable(value) or inspect.ismodule(value)) and (where != "builtins" or name in _BUILTINS)
    }


def remember_originals() -> None:
    """Remember the functions of torch, builtins and the course as they are now (at the course's import)."""
    for where, namespace in _watched_modules().items():
        for name, value in _functions(where, namespace).items():
            _ORIGINALS.setdefault((where, name), value)


def _patches() -> dict[tuple[str, str], object]:
    """What the notebook replaced since the import: (namespace, name) -> the notebook's value (or a missing mark)."""
    watched = _watched_modules()
    found = {}
    for (where, name), original in _ORIGINALS.items():
        namespace = watched.get(where)
        if namespace is None:
            continue
        now = vars(namespace).get(name, _MISSING)
        if now is not original and not _torch_wraps(now, original):
            found[(where, name)] = now
    return found


_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep


def _torch_wraps(value, original) -> bool:
    """``value`` is torch's own wrapper of ``original``: when torch._dynamo loads (``torch.compile``, or the
    first operation under a meta default device) it wraps ``torch.manual_seed`` and ``nn.Module.__init__``
    and ``__setstate__``; that is no patch of the notebook's. A wrapper the notebook wrote is still one."""
    code = getattr(getattr(value, "__func__", value), "__code__", None)
    if code is None or not code.co_filename.startswith(_TORCH_DIR):
        return False
    inner = getattr(value, "__func__", value)
    for _ in range(8):  # wrappers of wrappers: functools.wraps' __wrapped__, or the original in a closure
        cells = [cell.cell_contents for cell in inner.__closure__ or () if _filled(cell)]
        if any(c is original for c in cells) or getattr(inner, "__wrapped__", None) is original:
            return True
        inner = getattr(inner, "__wrapped__", None)
        if inner is None or not hasattr(inner, "__closure__"):
            return False
    return False


def _filled(cell) -> bool:
    try:
        cell.cell_contents  # noqa: B018 (an empty cell raises)
    except ValueError:
        return False
    return True


_MISSING = object()


@contextlib.contextmanager
def _originals_restored(patches: dict):
    """The originals put back for the check, and the notebook's own values again afterwards."""
    watched = _watched_modules()

    def put(values):
        for (where, name), value in values.items():
            with contextlib.suppress(Exception):
                if value is _MISSING:
                    delattr(watched[where], name)
                else:
                    setattr(watched[where], name, value)

    put({key: _ORIGINALS[key] for key in patches})
    try:
        yield
    finally:
        put(patches)


# ----------------------------------------------------------------------------- the known state of a check


@contextlib.contextmanager
def sandbox():
    """A known state for the check, and everything the check may change put back."""
    saved_dtype = torch.get_default_dtype()
    saved_threads = torch.get_num_threads()
    saved_deterministic = torch.are_deterministic_algorithms_enabled()
    saved_warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    saved_anomaly = torch.is_anomaly_enabled()
    saved_language = i18n.get_language()
    saved_recursion = sys.getrecursionlimit()
    try:
        with contextlib.ExitStack() as stack:
            # the student's RNG stream is left as it was, and the check sees the same weights every run
            stack.enter_context(torch.random.fork_rng(devices=[]))
            torch.manual_seed(0)
            stack.enter_context(torch.device("cpu"))
            stack.enter_context(torch.inference_mode(False))
            stack.enter_context(torch.enable_grad())
            stack.enter_context(torch.autocast("cpu", enabled=False))
            stack.enter_context(warnings.catch_warnings())
            torch.set_default_dtype(torch.float32)
            sys.setrecursionlimit(max(saved_recursion, 1000))
            yield
    finally:
        sys.setrecursionlimit(saved_recursion)
        torch.set_default_dtype(saved_dtype)
        torch.set_num_threads(saved_threads)
        # only when changed: the call imports torch._inductor's config, 2-4 s the first time
        now = (
            torch.are_deterministic_algorithms_enabled(),
            torch.is_deterministic_algorithms_warn_only_enabled(),
        )
        if now != (saved_deterministic, saved_warn_only):
            torch.use_deterministic_algorithms(saved_deterministic, warn_only=saved_warn_only)
        torch.set_anomaly_enabled(saved_anomaly)
        i18n.set_language(saved_language)


def _mirrored(value) -> bool:
    return type(value) in (list, dict) or type(value) is torch.Tensor


def _mirror(given, after) -> None:
    """Make the parent's copy of an argument what the student's code left it (the in-place changes)."""
    if isinstance(given, list):
        given[:] = after if isinstance(after, list) else [after]
    elif isinstance(given, dict):
        given.clear()
        if isinstance(after, dict):
            given.update(after)
        else:
            given[Foreign("object", "changed")] = after
    elif isinstance(given, torch.Tensor):
        with torch.no_grad():
            if isinstance(after, torch.Tensor) and after.dtype == given.dtype:
                given.set_(after.detach().clone())
            elif given.is_floating_point():
                given.fill_(float("nan"))
            else:
                given.fill_(-1 if given.dtype != torch.bool else True)
                given.resize_(*given.shape, 1)


class Run:
    """One check of one student's code: its child process, its time budget, its captured output, its verdict."""

    def __init__(self, time_limit: float | None = None, child=None):
        self.time_limit = TIME_LIMIT_S if time_limit is None else time_limit  # read now: tests shorten it
        # where the student's code runs: a forked child of the notebook (or the notebook itself without
        # fork); the grader passes its own, a sandboxed process that ran the whole notebook
        self.make_child = child
        self.used = 0.0
        self.timed_out = False
        self.calls = 0
        self._child = None
        self._output = ""
        self.finished = ()  # the course's classes that answer the exercise (Exercise's finished), set by check

    # --- calling the student's code ---------------------------------------------------------

    def _timeout(self) -> Stop:
        self.timed_out = True
        return Stop(feedback("incorrect", "timeout", seconds=_seconds(self.time_limit)))

    def _ask(self, request):
        """The child's answer to ``request``, the time it took counted against the time limit."""
        if self.timed_out:
            raise self._timeout()
        start = time.monotonic()
        reply = self._child.ask(request, start + self.time_limit - self.used)
        self.used += time.monotonic() - start
        if reply[0] == "timeout":
            raise self._timeout()
        if reply[0] == "died":
            self.timed_out = True  # no more calls: the child is gone
            raise Stop(feedback("incorrect", "child_died", how=reply[1]))
        return reply

    def call(self, where: str, fn, *args, keep: bool = False, **values):
        """``fn(*args)`` in the child, bounded in time, with its output captured.

        ``fn`` is a :class:`Handle` (the student's function, a built module) or one of the
        course's functions (it runs in the child, on the student's objects given as handles).
        The result comes back as plain values (a new :class:`Handle` with ``keep``); a list,
        dict or tensor among ``args`` is changed here as the student's code changed it there.
        ``NotImplementedError`` means "not attempted"; any other exception, a time-out or an
        exit is a verdict (raised as :class:`Stop`).
        """
        self.calls += 1
        mirror = [i for i, a in enumerate(args) if _mirrored(a)]
        outcome, *rest = self._ask((fn, args, keep, mirror))
        if outcome == "ok":
            result, after = rest[0]
            for i, value in zip(mirror, after, strict=False):
                _mirror(args[i], decode(value))
            return decode(result)
        if outcome == "not_implemented":
            raise Stop(feedback("not_attempted", "not_attempted", where=where))
        if outcome == "exit":
            raise Stop(feedback("incorrect", "exited", call=code_safe(rest[0])))
        if (
            outcome == "interrupted"
        ):  # the student's own KeyboardInterrupt stops the cell, as the stop button does
            raise KeyboardInterrupt
        error = rest[0]
        key = {"__init__": "error_init", "forward": "error_forward"}.get(where, "error_call")
        raise Stop(crash(key, error, **values), error=error)

    def inspect(self, fn, *args):
        """``fn(*args)``, one of the course's functions, in the child on the student's objects."""
        name = fn.__name__.lstrip("_")
        return self.call(name, fn, *args, name=name)

    def build(self, student: Handle, *args) -> Handle:
        """The student's module built with ``args``, in eval mode (dropout off), as a handle."""
        try:
            module = self.call("__init__", student, *args, keep=True)
        except Stop as stop:
            if stop.error is not None and "before Module.__init__() call" in stop.error.text:
                raise Stop(feedback("incorrect", "missing_super_init", detail=stop.error.text)) from None
            raise
        for part, original in module.facts.get("course_parts") or ():
            if original in self.finished:  # the exercise's answer, kept inside: judged, it would pass
                raise Stop(
                    feedback(
                        "not_attempted",
                        "course_class_inside",
                        name=student.__name__,
                        part=part,
                        original=original,
                    )
                )
        missing = student.facts.get("missing_forward")
        if missing is not None:
            suggestion = MESSAGES("did_you_mean", found=missing) if missing else ""
            raise Stop(feedback("incorrect", "no_forward", name=student.__name__, suggestion=suggestion))
        self.call("eval", _eval, module, name="eval")
        return module

    def forward(self, module: Handle, inputs: torch.Tensor):
        """The module's output for a copy of ``inputs``, and whether it changed that copy in place."""
        given = inputs.clone()
        out = self.call("forward", module, given, shape=tuple(inputs.shape), dtype=inputs.dtype)
        return out, not (given.shape == inputs.shape and torch.equal(given, inputs))

    # --- one check, start to end --------------------------------------------------------------

    def check(self, checker, student) -> Feedback:
        """``checker(student, self)`` with the student's code in a child; whatever happens, a :class:`Feedback`."""
        patches = _patches()
        self.finished = tuple(getattr(checker, "finished", ()))
        try:
            with _originals_restored(patches), sandbox():
                try:
                    make = self.make_child or (Child if FORK else Local)
                    self._child = make(student)
                    warnings.simplefilter("ignore")  # the check's own computations print nothing on stderr
                    verdict = self._judge(checker)
                finally:
                    if self._child is not None:
                        self._child.close()  # a thread of the student's prints no more
                        self._output = self._child.printed()
                        self._child.release()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # a bug in the course must not reach the student as a traceback
            verdict = crash("check_failed", exc)
        if patches:
            verdict = _with_patches(verdict, patches)
        if not FORK:
            verdict = _without_fork(verdict)
        self.show_output()
        return verdict

    def _judge(self, checker) -> Feedback:
        try:
            facts = self._ask(None)
            if facts[0] == "interrupted":
                raise KeyboardInterrupt
            if facts[0] != "ok":
                raise Stop(feedback("incorrect", "child_died", how=MESSAGES("how.unknown")))
            handle = Handle(0, facts[1])
            if handle.facts["course"]:
                return feedback(
                    "not_attempted",
                    "course_class",
                    name=handle.facts["name"] or handle.facts["type_name"],
                    original=handle.facts["course"],
                )
            return checker(handle, self)
        except Stop as stop:
            return stop.feedback

    def show_output(self) -> None:
        """Print what the student's code printed: at most ``MAX_OUTPUT_LINES`` lines, ``MAX_OUTPUT_CHARS`` characters."""
        lines = self._output.splitlines()
        shown, left = [], MAX_OUTPUT_CHARS
        for line in lines[:MAX_OUTPUT_LINES]:
            if len(line) > left:
                shown.append(line[:left] + "…")
                break
            shown.append(line)
            left -= len(line)
        if not shown:
            return
        print("\n".join(shown))
        if shown[-1] is not lines[len(shown) - 1]:  # one line cut short: count in bytes, not lines
            print(MESSAGES("output_cut", size=_size(len(self._output.encode("utf-8", "replace")))))
        elif len(lines) > len(shown):
            print(MESSAGES("output_more", count=len(lines) - len(shown)))


def _without_fork(verdict: Feedback) -> Feedback:
    """The verdict with a line saying what a check without ``os.fork`` does not guarantee."""
    platform = {"darwin": "macOS", "win32": "Windows"}.get(sys.platform, sys.platform)
    note = " " + MESSAGES("no_fork", platform=platform)
    values = dict(verdict.values, no_fork=True)
    return Feedback(verdict.status, verdict.key, verdict.message + note, verdict.title, values)


def _eval(module) -> None:
    # nn.Module.train itself: a class may define a train() of its own with another meaning
    nn.Module.train(module, False)


def _with_patches(verdict: Feedback, patches: dict) -> Feedback:
    names = ", ".join(f"`{where}.{name}`" for where, name in sorted(patches))
    note = " " + MESSAGES("patched", names=names)
    values = dict(verdict.values, patched=sorted(f"{where}.{name}" for where, name in patches))
    return Feedback(verdict.status, verdict.key, verdict.message + note, verdict.title, values)


def _size(size: int) -> str:
    """A size as the messages write it: 5,2 MB in Russian, 5.2 MB in English."""
    for unit, scale in (("MB", 1 << 20), ("kB", 1 << 10)):
        if size >= scale:
            return f"{i18n.format_decimal(size / scale, 1)} {MESSAGES('unit.' + unit)}"
    return f"{size} {MESSAGES('unit.B')}"


def _seconds(value: float) -> str:
    """The time limit as the message writes it: 5, or 2.5 in English and 2,5 in Russian."""
    return i18n.format_decimal(value, len(f"{value:g}".partition(".")[2]))
