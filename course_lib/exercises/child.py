"""The child process of a check, and what crosses between it and the notebook's process.

:class:`~course_lib.exercises.runner.Run` forks the notebook once per check (:class:`Child`); the
child answers the parent's calls on the student's objects, which never leave it, with plain
values only (:func:`encode`, read back by :func:`decode` through an unpickler that knows no other
classes). Without ``os.fork`` (Windows) :class:`Local` runs the same calls in the notebook's
process, bounded by a watchdog thread.
"""

import builtins
import contextlib
import ctypes
import difflib
import functools
import inspect
import io
import math
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
import traceback
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

import torch
from torch import nn

from .checks import MESSAGES, Feedback, Foreign, feedback

MEMORY_LIMIT_BYTES = 2 << 30  # the child's growth beyond the notebook's size: 2 GiB
_MAX_REPLY_BYTES = 256 << 20  # what one call may send back
_MAX_ITEMS = 1_000_000  # numbers and containers in one reply, tensors' elements aside
_MAX_DEPTH = 32
_MAX_OUTPUT_FILE = 64 << 20  # what the child may print in all (only the start is shown)


# frames in these folders are never the student's line
_COURSE_LIB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_LIBRARY_DIRS = tuple(os.path.dirname(path) + os.sep for path in (torch.__file__, os.__file__)) + (
    _COURSE_LIB + os.sep,
)
FORK = hasattr(os, "fork") and sys.platform != "darwin"  # macOS: fork after CoreFoundation is unsafe


# ----------------------------------------------------------------------------- what crosses between the processes


@dataclass(frozen=True)
class Handle:
    """An object that lives in the child (the student's class, a module built from it).

    ``facts`` are what the check needs to know of it without touching it: its name, whether
    it is a class, a module, a function, the course's own class, ...
    """

    index: int
    facts: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def __name__(self) -> str:  # getattr(student, "__name__", ...) reads the student's object's name
        return self.facts.get("name") or "?"


@dataclass(frozen=True)
class ErrorInfo:
    """An exception raised in the child, as the verdict needs it: names, text and the student's line."""

    type_name: str
    types: tuple  # the names of its class and of every base class
    text: str
    line: str = ""

    def is_a(self, *classes: type) -> bool:
        return any(c.__name__ in self.types for c in classes)


@dataclass(frozen=True, eq=False)
class _TensorData:
    dtype: str
    shape: tuple
    data: bytes
    requires_grad: bool


class _Counter:
    def __init__(self):
        self.items = 0
        self.bytes = 0


def encode(value, counter: _Counter, depth: int = 0):
    """A copy of ``value`` made of plain values only (in the child); anything else is a :class:`Foreign`."""
    counter.items += 1
    if counter.items > _MAX_ITEMS or depth > _MAX_DEPTH:
        return Foreign("too_large", "…")
    kind = type(value)
    if value is None or kind in (bool, int, float, complex):
        return value
    if kind in (str, bytes):
        return _text(value, counter)
    if kind is torch.Tensor or kind is nn.Parameter:
        return _encode_tensor(value, counter)
    if isinstance(value, torch.Tensor):
        return Foreign("subclass", kind.__name__)
    if isinstance(value, int):  # a subclass: its value, without the subclass's methods
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, str):
        return _text(str.__str__(value), counter)
    if kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool"):
        return bool(value)
    if isinstance(value, tuple):
        return tuple(encode(v, counter, depth + 1) for v in tuple.__iter__(value))
    if isinstance(value, list):
        return [encode(v, counter, depth + 1) for v in list.__iter__(value)]
    if isinstance(value, Mapping):
        return {encode(k, counter, depth + 1): encode(v, counter, depth + 1) for k, v in value.items()}
    return Foreign("object", kind.__name__)


def _text(value, counter: _Counter):
    counter.bytes += len(value) if isinstance(value, bytes) or value.isascii() else 4 * len(value)  # UTF-8
    return value if counter.bytes <= _MAX_REPLY_BYTES else Foreign("too_large", type(value).__name__)


def _encode_tensor(value: torch.Tensor, counter: _Counter):
    if value.is_meta:
        return Foreign("meta", "Tensor")
    t = value.detach()
    if t.layout != torch.strided:
        t = t.to_dense()
    if t.is_quantized or t.is_complex():
        return Foreign("object", f"Tensor ({t.dtype})")
    t = t.cpu().contiguous()
    counter.bytes += t.numel() * t.element_size()
    if counter.bytes > _MAX_REPLY_BYTES:
        return Foreign("too_large", "Tensor")
    data = t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b""
    return _TensorData(str(t.dtype).removeprefix("torch."), tuple(t.shape), data, bool(value.requires_grad))


def decode(value):
    """The parent's own objects for what the child sent: tensors rebuilt, everything else as it is."""
    if isinstance(value, _TensorData):
        dtype = getattr(torch, value.dtype, None)
        if not isinstance(dtype, torch.dtype):
            return Foreign("object", "Tensor")
        if value.data:
            t = torch.frombuffer(bytearray(value.data), dtype=torch.uint8).view(dtype).reshape(value.shape)
        else:
            t = torch.empty(value.shape, dtype=dtype)
        return t.requires_grad_() if value.requires_grad and (t.is_floating_point()) else t
    if isinstance(value, tuple):
        return tuple(decode(v) for v in value)
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        return {decode(k): decode(v) for k, v in value.items()}
    return value


class _Unpickler(pickle.Unpickler):
    """Reads the child's replies: plain values and this module's own records, nothing else.

    The bytes are the child's, so the student's: a reply written straight onto the pipe is read as
    much as one the child's loop wrote. Before anything is built, :func:`_scan` reads the stream
    within ``deadline`` and refuses what would cost the notebook more than the bytes themselves:
    memo references (a few bytes that nest the same list in itself, 2^60 items to walk),
    nesting deeper than ``_MAX_DEPTH``, more opcodes than ``_MAX_OPCODES``. After it, the records
    are checked (:func:`_plain`): a tensor's shape matches its bytes, so that no reply allocates
    more than it carried.
    """

    ALLOWED = {"Foreign", "ErrorInfo", "Handle", "_TensorData"}

    def __init__(self, file, *, deadline: float | None = None):
        self._data = file.read()
        super().__init__(io.BytesIO(self._data))
        self._deadline = deadline

    def find_class(self, module, name):
        if name in self.ALLOWED and module in (__name__, "course_lib.exercises.checks"):
            return getattr(sys.modules[module], name)
        raise pickle.UnpicklingError(f"not a plain value: {module}.{name}")

    def load(self):
        _scan(self._data, self._deadline)
        value = super().load()
        _plain(value)
        return value


def _dumps(value) -> bytes:
    """A reply as :class:`_Unpickler` accepts it: no memo (each value written where it is used)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=4)
    pickler.fast = True  # no memo: encode() builds a tree, a value shared by two branches is written twice
    pickler.dump(value)
    return out.getvalue()


_MAX_OPCODES = 4 * _MAX_ITEMS  # a value of _MAX_ITEMS items takes at most about 3 opcodes each
# pickle appends to a container in batches of 1000 items: each level of nesting holds at most one batch
_MAX_STACK = 1001 * (_MAX_DEPTH + 9)

# opcode -> (size of its argument: a number of bytes, or "1"/"4"/"8" for a length prefix, values it
# pops, values it pushes); "mark" pops down to the last MARK. Only what _dumps writes is here.
_FIXED, _PREFIXED = "fixed", "prefixed"
_OPCODES = {
    0x80: (_FIXED, 1, 0, 0),  # PROTO
    0x95: (_FIXED, 8, 0, 0),  # FRAME
    ord("N"): (_FIXED, 0, 0, 1),  # NONE
    0x88: (_FIXED, 0, 0, 1),  # NEWTRUE
    0x89: (_FIXED, 0, 0, 1),  # NEWFALSE
    ord("J"): (_FIXED, 4, 0, 1),  # BININT
    ord("K"): (_FIXED, 1, 0, 1),  # BININT1
    ord("M"): (_FIXED, 2, 0, 1),  # BININT2
    ord("G"): (_FIXED, 8, 0, 1),  # BINFLOAT
    0x8A: (_PREFIXED, 1, 0, 1),  # LONG1
    0x8B: (_PREFIXED, 4, 0, 1),  # LONG4
    0x8C: (_PREFIXED, 1, 0, 1),  # SHORT_BINUNICODE
    ord("X"): (_PREFIXED, 4, 0, 1),  # BINUNICODE
    0x8D: (_PREFIXED, 8, 0, 1),  # BINUNICODE8
    ord("C"): (_PREFIXED, 1, 0, 1),  # SHORT_BINBYTES
    ord("B"): (_PREFIXED, 4, 0, 1),  # BINBYTES
    0x8E: (_PREFIXED, 8, 0, 1),  # BINBYTES8
    ord("]"): (_FIXED, 0, 0, 1),  # EMPTY_LIST
    ord("}"): (_FIXED, 0, 0, 1),  # EMPTY_DICT
    ord(")"): (_FIXED, 0, 0, 1),  # EMPTY_TUPLE
    ord("("): (_FIXED, 0, 0, 0),  # MARK
    ord("a"): (_FIXED, 0, 1, 0),  # APPEND: into the list below
    ord("e"): (_FIXED, 0, "mark", 0),  # APPENDS
    ord("s"): (_FIXED, 0, 2, 0),  # SETITEM
    ord("u"): (_FIXED, 0, "mark", 0),  # SETITEMS
    ord("t"): (_FIXED, 0, "mark", 1),  # TUPLE
    0x85: (_FIXED, 0, 1, 1),  # TUPLE1
    0x86: (_FIXED, 0, 2, 1),  # TUPLE2
    0x87: (_FIXED, 0, 3, 1),  # TUPLE3
    0x93: (_FIXED, 0, 2, 1),  # STACK_GLOBAL: find_class then allows this module's records only
    0x81: (_FIXED, 0, 2, 1),  # NEWOBJ: a record from its class and ()
    ord("b"): (_FIXED, 0, 1, 0),  # BUILD: the record's fields, into the record below
    ord("."): (_FIXED, 0, 0, 0),  # STOP
}
_INTO_BELOW = {ord("a"), ord("e"), ord("s"), ord("u"), ord("b")}  # add to the container below


def _scan(data: bytes, deadline: float | None) -> None:
    """Read the opcodes of a reply, building nothing; raises pickle.UnpicklingError for what
    :class:`_Unpickler` must not build, TimeoutError past ``deadline``.

    The stack holds each value's depth (0 for a number, 1 for an empty list): a container takes
    one more than the deepest value put in it, so that a reply nested deeper than ``_MAX_DEPTH``
    (plus the reply's own few levels) is refused before :func:`decode` walks it.
    """
    stack: list = []
    marks: list[int] = []
    pos, count, end = 0, 0, len(data)
    while pos < end:
        op = data[pos]
        pos += 1
        count += 1
        if count & 0xFFFF == 0 and deadline is not None and time.monotonic() > deadline:
            raise TimeoutError
        if count > _MAX_OPCODES:
            raise pickle.UnpicklingError("too many opcodes")
        try:
            kind, size, pops, pushes = _OPCODES[op]
        except KeyError:
            raise pickle.UnpicklingError(f"opcode {op:#x}") from None
        if kind == _PREFIXED:
            length = int.from_bytes(data[pos : pos + size], "little")
            pos += size + length
        else:
            pos += size
        if op == 0x2E:  # STOP
            if pos != end or len(stack) != 1 or marks:
                raise pickle.UnpicklingError("bytes after the end")
            return
        if op == 0x28:  # MARK
            marks.append(len(stack))
            continue
        if pops == "mark":
            if not marks:
                raise pickle.UnpicklingError("no mark")
            at = marks.pop()
            popped, stack[at:] = stack[at:], []
        else:
            if len(stack) < pops or (marks and len(stack) - pops < marks[-1]):
                raise pickle.UnpicklingError("stack underflow")
            popped = stack[len(stack) - pops :] if pops else []
            del stack[len(stack) - pops :]
        inner = max(popped, default=0) + 1
        if op in _INTO_BELOW:
            if not stack:
                raise pickle.UnpicklingError("stack underflow")
            stack[-1] = max(stack[-1], inner)
            depth = stack[-1]
        elif pushes:
            depth = inner if popped or op in (0x5D, 0x7D, 0x29) else 0
            stack.append(depth)
        else:
            depth = 0
        if depth > _MAX_DEPTH + 8 or len(stack) > _MAX_STACK:  # + the reply's own tuples and records
            raise pickle.UnpicklingError("nested too deep")
    raise pickle.UnpicklingError("no end")


def _plain(value, depth: int = 0) -> None:
    """Raises pickle.UnpicklingError for a record that is not what the child writes."""
    if depth > _MAX_DEPTH + 8:
        raise pickle.UnpicklingError("nested too deep")
    if isinstance(value, _TensorData):
        if not (
            isinstance(value.dtype, str)
            and isinstance(getattr(torch, value.dtype, None), torch.dtype)
            and isinstance(value.shape, tuple)
            and len(value.shape) <= _MAX_DEPTH
            and all(type(n) is int and 0 <= n < 1 << 62 for n in value.shape)
            and type(value.data) is bytes
            and math.prod(value.shape) * getattr(torch, value.dtype).itemsize == len(value.data)
        ):
            raise pickle.UnpicklingError("a tensor's shape, dtype and bytes do not match")
    elif isinstance(value, Handle):
        if type(value.index) is not int or type(value.facts) is not dict:
            raise pickle.UnpicklingError("a handle")
        _plain(value.facts, depth + 1)
    elif isinstance(value, ErrorInfo):
        if not (
            all(type(v) is str for v in (value.type_name, value.text, value.line))
            and type(value.types) is tuple
            and all(type(v) is str for v in value.types)
        ):
            raise pickle.UnpicklingError("an error")
    elif isinstance(value, Foreign):
        if not (type(value.kind) is str and type(value.name) is str):
            raise pickle.UnpicklingError("a foreign value")
    elif type(value) in (tuple, list):
        for v in value:
            _plain(v, depth + 1)
    elif type(value) is dict:
        for k, v in value.items():
            _plain(k, depth + 1)
            _plain(v, depth + 1)


def _send(fd: int, payload: bytes) -> None:
    data = struct.pack("!Q", len(payload)) + payload
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exactly(fd: int, size: int, deadline: float | None) -> bytes | None:
    """``size`` bytes from ``fd``; None at end of file; raises TimeoutError past ``deadline``."""
    chunks, left = [], size
    while left:
        if deadline is not None:
            timeout = deadline - time.monotonic()
            if timeout <= 0 or not select.select([fd], [], [], timeout)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _receive(
    fd: int, deadline: float | None = None, limit: int = _MAX_REPLY_BYTES + (1 << 20)
) -> bytes | None:
    head = _read_exactly(fd, 8, deadline)
    if head is None:
        return None
    (size,) = struct.unpack("!Q", head)
    if size > limit:
        raise EOFError(f"a frame of {size} bytes, more than {limit}")
    return _read_exactly(fd, size, deadline)


# ----------------------------------------------------------------------------- what the student's code raised


def safe_str(exc) -> str:
    """``str(exc)``, or something close to it when ``__str__`` itself raises."""
    if isinstance(exc, ErrorInfo):
        return exc.text
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


def _error_info(exc: BaseException) -> ErrorInfo:
    kind = type(exc)
    text = code_safe(safe_str(exc) or safe_str(exc.__class__.__name__))
    return ErrorInfo(
        str.__str__(kind.__name__), tuple(str(c.__name__) for c in kind.__mro__), text, student_line(exc)
    )


def crash(key: str, exc, **values) -> Feedback:
    """The verdict for an exception in the student's code: its type, message and line."""
    info = exc if isinstance(exc, ErrorInfo) else _error_info(exc)
    values = dict(values, error=info.type_name, detail=info.text or info.type_name)
    if info.line:
        values["line"] = info.line
    suffix = " " + MESSAGES("error_line", line=info.line) if info.line else ""
    return feedback("incorrect", key, suffix, **values)


# ----------------------------------------------------------------------------- the child


def _facts(value) -> dict:
    """What a check needs to know of the student's object, found in the child."""
    target = value.func if isinstance(value, functools.partial) else value
    with contextlib.suppress(Exception):
        target = inspect.unwrap(target)
    is_class = isinstance(value, type)
    facts = {
        "name": str(getattr(value, "__name__", "") or ""),
        "type_name": type(value).__name__,
        "is_class": is_class,
        "is_module_class": is_class and issubclass(value, nn.Module),
        "is_module": isinstance(value, nn.Module),
        "callable": callable(value),
        "course": _course_original(target),
    }
    if facts["is_module_class"]:
        facts["missing_forward"] = _missing_forward(value)
    if facts["is_module"] and not facts["course"]:
        facts["course_parts"] = _course_parts(value)
    return facts


def _course_parts(module: nn.Module, limit: int = 16) -> list[tuple[str, str]]:
    """The course's own classes kept inside a module built from the student's class, as
    ("self.inner", "course_lib.TransformerEmbedding"): at most ``limit`` of them."""
    parts = []
    for name, sub in module.named_modules():
        if name and (original := _course_original(sub)):
            parts.append((f"self.{name}", original))
            if len(parts) == limit:
                break
    return parts


def _course_original(target) -> str | None:
    """``course_lib.X`` if ``target`` is one of the course's own classes or functions (an alias, an
    object built from it, a subclass that keeps its ``forward``), else None."""
    if not isinstance(target, type) and not inspect.isroutine(target):
        target = type(target)
    if isinstance(target, type) and issubclass(target, nn.Module) and not _from_course(target):
        target = next((c for c in target.__mro__ if "forward" in vars(c)), target)
    if not _from_course(target):
        return None
    name = target.__qualname__
    public = getattr(sys.modules["course_lib"], name, None) is target
    return f"course_lib.{name}" if public else f"{target.__module__}.{name}"


def _from_course(obj) -> bool:
    module = getattr(obj, "__module__", None) or ""
    return (module == "course_lib" or module.startswith("course_lib.")) and not module.startswith(
        "course_lib.exercises"
    )


def _missing_forward(student: type) -> str | None:
    """For a module class that never defines ``forward``: its method closest to the name (a typo
    such as ``foward``) or ''; None when ``forward`` is there."""
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
    return close[0] if close else ""


class _Writer(io.TextIOBase):
    """The child's ``sys.stdout`` and ``sys.stderr``: straight to the captured output's file."""

    def __init__(self, fd: int):
        self._fd = fd

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        text = str(text)
        with contextlib.suppress(OSError):  # past RLIMIT_FSIZE: the rest is not kept
            os.write(self._fd, text.encode("utf-8", "replace"))
        return len(text)

    def isatty(self) -> bool:
        return False


def _no_input(*args):
    raise EOFError("a check gives your code no input")


def _child(requests: int, replies: int, output: int, student) -> None:
    """The child's life: set up, then answer the parent's calls until it closes the pipe. Never returns."""
    try:
        os.setpgid(0, 0)  # a group of its own: the processes the student's code starts die with it
        # and the reaper of its descendants: a process that leaves the group (setsid) and whose
        # parent ends is still the child's, and Child.close finds it (_kill_tree)
        _prctl(_PR_SET_CHILD_SUBREAPER, 1)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        for fd in (1, 2):
            os.dup2(output, fd)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        sys.stdout = sys.stderr = sys.__stdout__ = sys.__stderr__ = _Writer(output)
        sys.stdin = io.StringIO("")
        builtins.input = _no_input
        torch.set_num_threads(1)  # OpenMP's pool belongs to the parent: the child must not enter it
        _limits()
        objects = [student]
        _send(replies, _dumps(_guarded(lambda: _facts(student))))
        while True:
            request = _receive(requests)
            if request is None:
                break
            _send(replies, _serve(pickle.loads(request), objects))
    except BaseException:
        pass
    finally:
        os._exit(0)


def _limits() -> None:
    """The child's memory: ``MEMORY_LIMIT_BYTES`` beyond the notebook's size, as a hard limit; its
    output: ``_MAX_OUTPUT_FILE``."""
    try:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (_MAX_OUTPUT_FILE, _MAX_OUTPUT_FILE))

        with open("/proc/self/statm") as f:
            size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = size + MEMORY_LIMIT_BYTES
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        # soft and hard: an unprivileged process lowers a hard limit for good, the student's code cannot
        # raise it back (a soft limit alone it raises to the hard one with one setrlimit)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, OSError, ValueError):
        pass


def _resolve(value, objects):
    if isinstance(value, Handle):
        return objects[value.index]
    if isinstance(value, tuple):
        return tuple(_resolve(v, objects) for v in value)
    if isinstance(value, list):
        return [_resolve(v, objects) for v in value]
    return value


def _guarded(compute):
    """``("ok", value)`` or what stopped it: ``("raised", ErrorInfo)``, ``("not_implemented",)``, ``("exit", call)``."""
    try:
        return ("ok", compute())
    except NotImplementedError:
        return ("not_implemented",)
    except SystemExit as exc:
        try:
            code = exc.code
            return ("exit", "sys.exit()" if code is None else f"sys.exit({code!r})")
        except BaseException:
            return ("exit", "sys.exit(…)")
    except KeyboardInterrupt:
        return ("interrupted",)
    except BaseException as exc:
        try:
            return ("raised", _error_info(exc))
        except BaseException:
            return ("raised", ErrorInfo("Exception", ("Exception",), ""))


def _serve(request, objects: list) -> bytes:
    fn, args, keep, mirror = request
    fn, args = _resolve(fn, objects), list(_resolve(args, objects))

    def compute():
        result = fn(*args)
        if keep:
            objects.append(result)
            return Handle(len(objects) - 1, _facts(result)), []
        counter = _Counter()
        return encode(result, counter), [encode(args[i], counter) for i in mirror]

    reply = _guarded(compute)
    try:
        return _dumps(reply)
    except Exception as exc:
        return _dumps(("raised", _error_info(exc)))


# ----------------------------------------------------------------------------- the child's processes, all of them

_PR_SET_CHILD_SUBREAPER, _PR_GET_CHILD_SUBREAPER = 36, 37  # <linux/prctl.h>
_PROC = "/proc"


def _prctl(option: int, value: int) -> int | None:
    """``prctl(option, value)`` (Linux); for a GET option the value it reads; None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if option == _PR_GET_CHILD_SUBREAPER:
            out = ctypes.c_int(0)
            return out.value if libc.prctl(option, ctypes.byref(out), 0, 0, 0) == 0 else None
        return 0 if libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0) == 0 else None
    except (OSError, AttributeError):
        return None


def _main_children() -> set[int]:
    """The children of this process's main thread (a process orphaned under a subreaper goes to it)."""
    try:
        with open(f"{_PROC}/self/task/{os.getpid()}/children", encoding="ascii") as f:
            return {int(pid) for pid in f.read().split()}
    except (OSError, ValueError):
        return set()


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent, or None when it is gone."""
    try:
        with open(f"{_PROC}/{pid}/stat", "rb") as f:
            fields = f.read().rpartition(b")")[2].split()
        return fields[0].decode("ascii"), int(fields[1])
    except (OSError, ValueError, IndexError):
        return None


def _tree(roots: set[int]) -> set[int]:
    """``roots`` and every process that descends from them, read from /proc."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir(_PROC)
    except OSError:
        return set(roots)
    for name in entries:
        if name.isdigit() and (found := _stat(int(name))) is not None:
            children.setdefault(found[1], []).append(int(name))
    tree, todo = set(), list(roots)
    while todo:
        pid = todo.pop()
        if pid not in tree:
            tree.add(pid)
            todo.extend(children.get(pid, ()))
    return tree


def _kill_tree(roots: set[int], more=lambda: set()) -> None:
    """SIGKILL ``roots`` and all their descendants, with none escaping: every one is first stopped
    (SIGSTOP: it can start no other, and its parent cannot end and orphan them elsewhere), the tree
    read again until nothing in it runs and nothing new appears, then all are killed at once.
    ``more()`` gives further roots found meanwhile (the orphans a subreaper notebook took in)."""
    stopped: set[int] = set()
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        tree = _tree(roots | more())
        for pid in tree - stopped:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
        if tree <= stopped and all((_stat(pid) or ("X", 0))[0] in "TtZXx" for pid in tree):
            break
        stopped |= tree
        time.sleep(0.001)
    for pid in _tree(roots | more()) | stopped:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


# ----------------------------------------------------------------------------- the parent's side


class Child:
    """The forked child of one check, answering calls until it is closed or killed."""

    def __init__(self, student):
        self.output = os.memfd_create("course-check") if hasattr(os, "memfd_create") else _temp_fd()
        requests_r, self.requests = os.pipe()
        self.replies, replies_w = os.pipe()
        # the notebook, too, is a subreaper while the check runs (Linux, on the main thread, where
        # the notebook runs its cells): a process that escapes the child's own reaping (the student's
        # code may switch it off) comes to the notebook's main thread, where close() finds it
        self._orphans_seen = threading.current_thread() is threading.main_thread() and os.path.isdir(_PROC)
        self._reaper_set = False
        if self._orphans_seen and _prctl(_PR_GET_CHILD_SUBREAPER, 0) == 0:
            self._reaper_set = _prctl(_PR_SET_CHILD_SUBREAPER, 1) == 0
        self._before = _main_children() if self._orphans_seen else set()
        with warnings.catch_warnings():
            # Python 3.12+ warns that forking a process with threads (ipykernel's) may deadlock
            # the child: this child takes no lock those threads hold, and ends with os._exit
            warnings.simplefilter("ignore", DeprecationWarning)
            self.pid = os.fork()
        if self.pid == 0:  # the child: never returns into the kernel
            try:
                os.close(self.requests)
                os.close(self.replies)
                _child(requests_r, replies_w, self.output, student)
            finally:
                os._exit(0)
        with contextlib.suppress(OSError):  # also here: the child may not have run yet when it is killed
            os.setpgid(self.pid, self.pid)
        os.close(requests_r)
        os.close(replies_w)
        self.alive = True
        self.status = None

    def _orphans(self) -> set[int]:
        """Processes of the check that came to the notebook (its main thread) since the fork."""
        return _main_children() - self._before - {self.pid} if self._orphans_seen else set()

    def ask(self, request, deadline: float):
        """Send ``request`` (None: only read the first reply) and return the child's answer."""
        if request is not None:
            try:
                _send(self.requests, pickle.dumps(request))
            except OSError:
                return ("died", MESSAGES("how.unknown"))
        try:
            reply = _receive(self.replies, deadline)
        except TimeoutError:
            self.close()
            return ("timeout",)
        except EOFError:  # a reply too large to read: the child may still be writing it
            self.close()
            return ("died", MESSAGES("how.too_large", size=_MAX_REPLY_BYTES >> 20))
        except OSError:
            reply = None
        if reply is None:
            return self._ended(deadline)
        try:
            return _Unpickler(io.BytesIO(reply), deadline=deadline).load()
        except TimeoutError:
            self.close()
            return ("timeout",)
        except Exception:  # not what the child writes: the student's code wrote on its pipe
            self.close()
            return ("died", MESSAGES("how.malformed"))

    def _ended(self, deadline: float):
        """How the child ended ("signal 11", "exit 3"), once its reply pipe closed; a child that closed
        the pipe but lives on is killed at the deadline."""
        while True:
            try:
                if os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                    break
            except ChildProcessError:
                break
            if time.monotonic() >= deadline:
                self.close()
                return ("timeout",)
            time.sleep(0.01)
        self.close()
        if self.status is None:
            return ("died", MESSAGES("how.unknown"))
        if os.WIFSIGNALED(self.status):
            return ("died", MESSAGES("how.signal", n=os.WTERMSIG(self.status)))
        return ("died", MESSAGES("how.exit", n=os.WEXITSTATUS(self.status)))

    def printed(self) -> str:
        """What the child printed."""
        return os.pread(self.output, os.fstat(self.output).st_size, 0).decode("utf-8", "replace")

    def close(self) -> None:
        if self.alive:
            # the child and every process it started, wherever it went (its group, a session of its
            # own, an orphan taken in by the child or the notebook), before any of them is reaped
            with contextlib.suppress(OSError):
                os.killpg(self.pid, signal.SIGSTOP)
            _kill_tree({self.pid}, self._orphans)
            with contextlib.suppress(OSError):
                os.killpg(self.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                self.status = os.waitpid(self.pid, 0)[1]
            self._reap_orphans()
            self.alive = False
        for fd in (self.requests, self.replies):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.requests = self.replies = -1

    def _reap_orphans(self) -> None:
        """Wait for the killed processes that came to the notebook (they would stay zombies), then
        stop being a subreaper if the check made the notebook one."""
        deadline = time.monotonic() + 2.0
        while (orphans := self._orphans()) and time.monotonic() < deadline:
            for pid in orphans:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)
            time.sleep(0.001)
        if self._reaper_set:
            _prctl(_PR_SET_CHILD_SUBREAPER, 0)
            self._reaper_set = False

    def release(self) -> None:
        self.close()
        with contextlib.suppress(OSError):
            os.close(self.output)


def _temp_fd() -> int:
    import tempfile

    fd, path = tempfile.mkstemp(prefix="course-check-")
    os.unlink(path)
    return fd


class Local:
    """The student's code in the notebook's own process (no ``os.fork``), bounded by a watchdog."""

    def __init__(self, student):
        self.objects = [student]
        self.buffer = io.StringIO()

    def ask(self, request, deadline: float):
        watchdog = _Watchdog(deadline - time.monotonic())
        try:
            try:
                with contextlib.redirect_stdout(self.buffer), contextlib.redirect_stderr(self.buffer):
                    if request is None:
                        return _guarded(lambda: _facts(self.objects[0]))
                    reply = pickle.loads(_serve(request, self.objects))
            finally:
                watchdog.stop()
        except _TimeUp:
            return ("timeout",)
        return ("timeout",) if watchdog.fired else reply

    def printed(self) -> str:
        return self.buffer.getvalue()

    def close(self) -> None:
        pass

    def release(self) -> None:
        pass


class _TimeUp(BaseException):
    pass


class _Watchdog:
    """Raises :class:`_TimeUp` in the calling thread after ``seconds``, then every 0.2 s, until stopped."""

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
                self._raise(ctypes.py_object(_TimeUp))
            if self._done.wait(0.2):
                return

    def stop(self) -> None:
        while True:
            try:
                with self._lock:
                    self._done.set()
                    self._raise(None)
                self._thread.join()
                return
            except _TimeUp:
                continue


# ----------------------------------------------------------------------------- the protocol, for another kind of child


TensorData = _TensorData  # a tensor as it crosses: the grader counts their bytes before decoding
dumps_plain = _dumps  # a frame as load_plain reads it: pickle without memo


def send_frame(fd: int, payload: bytes) -> None:
    """One length-prefixed frame (what a check's child and the grader's sandbox speak)."""
    _send(fd, payload)


def receive_frame(fd: int, deadline: float | None = None, limit: int | None = None) -> bytes | None:
    """The next frame's bytes, None at the end; raises ``TimeoutError`` past ``deadline``, ``EOFError``
    when larger than ``limit`` bytes (a reply's own limit when None), before reading it."""
    return _receive(fd, deadline) if limit is None else _receive(fd, deadline, limit)


def load_plain(data: bytes):
    """A frame read back as plain values and this module's records only; ``ValueError`` for anything else."""
    try:
        return _Unpickler(io.BytesIO(data)).load()
    except Exception as exc:
        raise ValueError(f"not plain data: {type(exc).__name__}") from None
