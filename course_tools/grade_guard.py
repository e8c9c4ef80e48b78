"""The grader's guard inside a student's kernel: no file outside the submission's folder, no socket.

``course_tools.grade_run`` sends this file's source as the first cell of every graded notebook, then
calls ``install(...)``. It adds a Python audit hook (PEP 578) that refuses, with ``PermissionError``,
and records:

- opening or listing a path outside the folders the kernel needs (the submission's own temporary
  folder, the Python installation, ``course_lib``, the fonts), named ``grade.other_student`` when the
  path lies under the submissions folder and ``grade.outside_dir`` otherwise;
- creating an internet socket (``AF_INET``, ``AF_INET6``) or connecting one: ``grade.network``.

An audit hook sees only what Python itself does: a C extension or a subprocess can bypass it. It is
how the grader *names* a rule that a submission broke; the boundary, where there is one, is the
namespaces that ``course_tools.grade`` runs the kernel in (no network, the other submissions hidden).
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

    def __init__(self, read_roots, write_roots, submissions):
        self.read_roots = tuple(os.path.realpath(p) for p in read_roots) + DEVICES
        self.write_roots = tuple(os.path.realpath(p) for p in write_roots) + DEVICES
        self.submissions = os.path.realpath(submissions) if submissions else None
        self.violations: list[tuple[str, str]] = []

    def refuse(self, key: str, detail: str):
        if len(self.violations) < 20:
            self.violations.append((key, detail))
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


def install(read_roots, write_roots, submissions) -> Guard:
    """Add the guard to this interpreter (an audit hook stays until the process ends)."""
    guard = Guard(read_roots, write_roots, submissions)
    sys.addaudithook(guard)
    return guard
