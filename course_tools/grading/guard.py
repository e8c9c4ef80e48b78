"""The grader's guard inside a submission's process: no file outside its folder, no socket, no program.

``course_tools.grading.run`` calls ``install(...)`` before the notebook's first cell. It adds a Python
audit hook (PEP 578) that refuses, with ``PermissionError``, and reports to the grader at once (so a
later cell cannot take it back):

- opening or listing a path outside the folders the kernel needs (the submission's own temporary
  folder, the Python installation, ``course_lib``, the fonts), named ``grade.other_student`` when the
  path lies under the submissions folder and ``grade.outside_dir`` otherwise;
- creating an internet socket (``AF_INET``, ``AF_INET6``) or connecting one: ``grade.network``;
- starting a program (``subprocess``, ``os.system``, ``os.exec*``, ``os.posix_spawn``): ``grade.process``.
  (``os.fork`` is allowed: the lessons' own checks fork.)

An audit hook sees only what Python itself does: C code (``ctypes``, an extension) bypasses it, and the
code can lie about anything it reports. It is how the grader *names* a rule that a submission broke;
the boundary is the sandbox (:mod:`course_tools.grading.sandbox`: another user, a read-only filesystem,
no network, the other submissions out of sight).
"""

import os
import socket
import sys

WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
# the character devices that ordinary code opens; everything else under /dev is refused
DEVICES = ("/dev/null", "/dev/urandom", "/dev/random", "/dev/shm")


def inside(path: str, roots) -> bool:
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


class Guard:
    """Records the rules a submission broke; ``violations`` holds (key, detail) pairs in order."""

    def __init__(self, read_roots, write_roots, hidden, report=None):
        self.read_roots = tuple(os.path.realpath(p) for p in read_roots) + DEVICES
        self.write_roots = tuple(os.path.realpath(p) for p in write_roots) + DEVICES
        self.submissions = os.path.realpath(hidden[0]) if hidden else None
        self.violations: list[tuple[str, str]] = []
        self.report = report

    def refuse(self, key: str, detail: str):
        if len(self.violations) < 20:
            self.violations.append((key, detail))
            if self.report is not None:
                self.report(key, detail[:300])
        raise PermissionError(f"the grader does not allow this: {detail}")

    def check_path(self, path, writing: bool) -> None:
        if isinstance(path, int) or path is None:
            return  # an open file descriptor: already allowed when it was opened
        real = os.path.realpath(os.fsdecode(path))
        own = (f"/proc/{os.getpid()}",)  # the process's own /proc entry (torch reads its memory map)
        if inside(real, (self.write_roots if writing else self.read_roots) + own):
            return
        if self.submissions and inside(real, (self.submissions,)):
            self.refuse("grade.other_student", os.path.basename(real))  # never the other student's name
        self.refuse("grade.outside_dir", real)

    def __call__(self, event: str, args: tuple) -> None:
        if event == "open":
            path, mode, flags = args
            writing = any(c in (mode or "") for c in "wax+") or bool(flags & WRITE_FLAGS)
            self.check_path(path, writing)
        elif event in ("os.listdir", "os.scandir"):
            self.check_path(args[0] if args[0] is not None else ".", writing=False)
        elif event in ("os.remove", "os.rmdir", "os.rename", "os.mkdir", "shutil.rmtree"):
            self.check_path(args[0], writing=True)
        elif event == "socket.__new__" and args[1] in (socket.AF_INET, socket.AF_INET6):
            self.refuse("grade.network", f"socket({socket.AddressFamily(args[1]).name})")
        elif event in ("socket.connect", "socket.bind", "socket.sendto") and isinstance(args[1], tuple):
            self.refuse("grade.network", f"{event}{args[1]!r}")
        elif event == "socket.getaddrinfo":
            self.refuse("grade.network", f"getaddrinfo({args[0]!r})")
        elif event in PROGRAMS:
            self.refuse("grade.process", f"{event}({_program(event, args)})")
        elif event == "ctypes.dlsym" and isinstance(args[1], str) and args[1].startswith(C_PROGRAMS):
            self.refuse("grade.process", f"ctypes: {args[1]}")


PROGRAMS = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn")
# the C library's ways to start a program, looked up through ctypes (``libc.system(...)``)
C_PROGRAMS = ("system", "exec", "posix_spawn", "popen", "fork", "vfork", "clone", "syscall")


def _program(event: str, args: tuple) -> str:
    """The program an audit event starts, as the message shows it."""
    first = (args[1] if event in ("subprocess.Popen", "os.spawn") else args[0]) if len(args) > 1 else ""
    if isinstance(first, (list, tuple)):
        first = " ".join(map(str, first[:4]))
    return repr(os.fsdecode(first) if isinstance(first, bytes) else str(first))[:200]


def install(read_roots, write_roots, hidden, report=None) -> Guard:
    """Add the guard to this interpreter (an audit hook stays until the process ends); ``report(key,
    detail)`` is called for each rule broken, as it is broken."""
    guard = Guard(read_roots, write_roots, hidden, report)
    sys.addaudithook(guard)
    return guard
