"""Running a student's code inside a check: bounded in time and output, never raising, leaving nothing changed.

A :class:`Run` is one check. Every call into the student's code goes through it:

- **time**: all of the student's code in one check shares ``TIME_LIMIT_S`` seconds. When
  they are up, a watchdog thread raises :class:`TimeUp` inside the student's code (every
  0.2 s until it leaves), and the verdict is ``timeout``. After that the check calls the
  student's code no more, so a hanging class costs one time limit, not one per probe.
- **exits and odd exceptions**: ``sys.exit()`` is a verdict, not the end of the kernel; an
  exception whose ``__str__`` itself raises is still described. Only ``KeyboardInterrupt``
  (the student pressing stop) goes through.
- **output**: what the student's code prints is captured and shown afterwards, at most
  ``MAX_OUTPUT_LINES`` lines of it.
- **state**: :func:`sandbox` gives the check a known state -- float32 default dtype, the
  CPU as default device, gradients on, no inference mode, no autocast -- whatever the
  notebook had set, and puts back everything the student's code may change: the random
  streams, default dtype, grad mode, number of threads, deterministic-algorithms flag,
  anomaly mode and the course's language.
"""

import contextlib
import ctypes
import difflib
import io
import os
import threading
import time
import traceback

import torch
from torch import nn

from .. import i18n
from .core import MESSAGES, Feedback, Stop, feedback

__all__ = ["TIME_LIMIT_S", "MAX_OUTPUT_LINES", "TimeUp", "Run", "sandbox", "code_safe", "safe_str"]

TIME_LIMIT_S = 5.0  # all of the student's code in one check; a right answer needs well under 1 s
MAX_OUTPUT_LINES = 20  # of what the student's code prints: the verdict must stay on screen

# frames in these folders are never the student's line
_COURSE_LIB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_LIBRARY_DIRS = tuple(os.path.dirname(path) + os.sep for path in (torch.__file__, os.__file__)) + (
    _COURSE_LIB + os.sep,
)


class TimeUp(BaseException):
    """Raised inside the student's code when its time is up (a BaseException, so that the
    student's own ``except Exception`` does not swallow it)."""


class _Watchdog:
    """Raises :class:`TimeUp` in the calling thread after ``seconds``, then every 0.2 s, until stopped.

    ``PyThreadState_SetAsyncExc`` delivers the exception between two bytecodes of the
    target thread, in any thread and on every platform CPython runs on (signals would
    work only in the main thread, and not on Windows).
    """

    def __init__(self, seconds: float):
        self._target = threading.get_ident()
        self._done = threading.Event()
        self._lock = threading.Lock()
        self.fired = False
        self._thread = threading.Thread(target=self._watch, args=(max(seconds, 0.0),), daemon=True)
        self._thread.start()

    def _raise(self, exc) -> None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self._target), exc)

    def _watch(self, seconds: float) -> None:
        if self._done.wait(seconds):
            return
        while True:
            with self._lock:
                if self._done.is_set():
                    return
                self.fired = True
                self._raise(ctypes.py_object(TimeUp))
            if self._done.wait(0.2):
                return

    def stop(self) -> None:
        """No more TimeUp after this returns, not even one already scheduled."""
        while True:
            try:
                with self._lock:
                    self._done.set()
                    self._raise(None)  # cancels a TimeUp scheduled but not yet raised
                self._thread.join()
                return
            except TimeUp:  # raised between two lines above: go round again
                continue


@contextlib.contextmanager
def sandbox():
    """A known state for the check, and everything the student's code may change put back."""
    saved_dtype = torch.get_default_dtype()
    saved_threads = torch.get_num_threads()
    saved_deterministic = torch.are_deterministic_algorithms_enabled()
    saved_warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    saved_anomaly = torch.is_anomaly_enabled()
    saved_language = i18n.get_language()
    try:
        with contextlib.ExitStack() as stack:
            # the student's RNG stream is left as it was, and the check sees the same weights every run
            stack.enter_context(torch.random.fork_rng(devices=[]))
            torch.manual_seed(0)
            stack.enter_context(torch.device("cpu"))
            stack.enter_context(torch.inference_mode(False))
            stack.enter_context(torch.enable_grad())
            stack.enter_context(torch.autocast("cpu", enabled=False))
            torch.set_default_dtype(torch.float32)
            yield
    finally:
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


def safe_str(exc: BaseException) -> str:
    """``str(exc)``, or something close to it when ``__str__`` itself raises."""
    for describe in (str, repr):
        try:
            return describe(exc)
        except Exception:
            continue
    return type(exc).__name__


def code_safe(text: str, limit: int = 300) -> str:
    """One line, no backticks, so that it sits inside a Markdown code span."""
    lines = text.strip().splitlines() or [""]
    line = lines[0].replace("`", "'")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def student_line(exc: BaseException) -> str:
    """The last line of the traceback that is the student's own code, or ''."""
    try:
        frames = traceback.extract_tb(exc.__traceback__)
    except Exception:
        return ""
    for frame in reversed(frames):
        if frame.line and not frame.filename.startswith(_LIBRARY_DIRS):
            return code_safe(frame.line.strip())
    return ""


def crash(key: str, exc: BaseException, **values) -> Feedback:
    """The verdict for an exception in the student's code: its type, message and line."""
    values = dict(values, error=type(exc).__name__, detail=code_safe(safe_str(exc) or repr(exc)))
    line = student_line(exc)
    if line:
        values["line"] = line
    suffix = " " + MESSAGES("error_line", line=line) if line else ""
    return feedback("incorrect", key, suffix, **values)


class Run:
    """One check of one student's code: its time budget, its captured output, its verdict."""

    def __init__(self, time_limit: float = TIME_LIMIT_S):
        self.time_limit = time_limit
        self.deadline = None
        self.timed_out = False
        self.calls = 0
        self._output = io.StringIO()

    # --- calling the student's code ---------------------------------------------------------

    def call(self, where: str, fn, *args, **values):
        """``fn(*args)``, bounded in time with its output captured.

        ``NotImplementedError`` means "not attempted"; any other exception, a time-out or an
        exit is a verdict (raised as :class:`Stop`).
        """
        if self.timed_out:
            raise Stop(feedback("incorrect", "timeout", seconds=_seconds(self.time_limit)))
        self.calls += 1
        watchdog = _Watchdog(self.deadline - time.monotonic())
        try:
            try:
                with contextlib.redirect_stdout(self._output), contextlib.redirect_stderr(self._output):
                    return fn(*args)
            finally:
                watchdog.stop()
        except TimeUp:
            self.timed_out = True
            raise Stop(feedback("incorrect", "timeout", seconds=_seconds(self.time_limit))) from None
        except NotImplementedError:
            raise Stop(feedback("not_attempted", "not_attempted", where=where)) from None
        except SystemExit as exc:
            call = "sys.exit()" if exc.code is None else f"sys.exit({exc.code!r})"
            raise Stop(feedback("incorrect", "exited", call=code_safe(call))) from None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            key = {"__init__": "error_init", "forward": "error_forward"}.get(where, "error_call")
            raise Stop(crash(key, exc, **values), error=exc) from None

    def build(self, student: type, *args):
        """The student's module built with ``args``, in eval mode (dropout off)."""
        try:
            module = self.call("__init__", student, *args)
        except Stop as stop:
            if stop.error is not None and "before Module.__init__() call" in safe_str(stop.error):
                detail = code_safe(safe_str(stop.error))
                raise Stop(feedback("incorrect", "missing_super_init", detail=detail)) from None
            raise
        missing = _missing_forward(student)
        if missing is not None:
            raise missing
        # nn.Module.train itself: a class may define a train() of its own with another meaning
        nn.Module.train(module, False)
        return module

    def forward(self, module, inputs: torch.Tensor):
        """The module's output for a copy of ``inputs``, and whether it changed that copy in place."""
        given = inputs.clone()
        out = self.call("forward", module, given, shape=tuple(inputs.shape), dtype=inputs.dtype)
        return out, not torch.equal(given, inputs)

    # --- one check, start to end --------------------------------------------------------------

    def check(self, checker, student) -> Feedback:
        """``checker(student, self)`` in a sandbox; whatever happens, a :class:`Feedback`."""
        self.deadline = time.monotonic() + self.time_limit
        try:
            with sandbox():
                verdict = checker(student, self)
        except Stop as stop:
            verdict = stop.feedback
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # a bug in a checker must not reach the student as a traceback
            verdict = crash("check_failed", exc)
        self.show_output()
        return verdict

    def show_output(self) -> None:
        """Print what the student's code printed: at most ``MAX_OUTPUT_LINES`` lines."""
        lines = self._output.getvalue().splitlines()
        if not lines:
            return
        print("\n".join(lines[:MAX_OUTPUT_LINES]))
        if len(lines) > MAX_OUTPUT_LINES:
            print(MESSAGES("output_more", count=len(lines) - MAX_OUTPUT_LINES))


def _missing_forward(student: type) -> Stop | None:
    """The verdict for a module class that never defines ``forward`` (a typo such as ``foward``)."""
    if getattr(student, "forward", None) is not nn.Module.forward:
        return None
    own = [
        name
        for cls in student.__mro__
        if cls not in (nn.Module, object) and not cls.__module__.startswith("torch.")
        for name, value in vars(cls).items()
        if callable(value) and not name.startswith("__")
    ]
    close = difflib.get_close_matches("forward", own, n=1, cutoff=0.6)
    suggestion = MESSAGES("did_you_mean", found=close[0]) if close else ""
    return Stop(feedback("incorrect", "no_forward", name=student.__name__, suggestion=suggestion))


def _seconds(value: float) -> str:
    """The time limit as the message writes it: 5, or 2.5 in English and 2,5 in Russian."""
    return i18n.format_decimal(value, len(f"{value:g}".partition(".")[2]))
