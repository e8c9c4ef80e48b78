"""Where a submission's code runs while it is graded: a sandbox on one machine, no Docker daemon.

:func:`start` runs :mod:`course_tools.grading.run` for one notebook and returns a :class:`Session`: the
process, the socket the grader talks to it over, and what is watched from outside (time, output,
memory, processes). Two modes, chosen by :func:`mode` and named in the report:

``"isolated"`` (Linux, root, util-linux's ``unshare``): the code runs

- as a user of its own (a uid no account uses, a different one for each notebook), never root, with
  no capabilities and ``no_new_privs``;
- in new mount, PID, network, IPC and UTS namespaces: no network at all, no other process in sight;
- on a filesystem that shows the system's own folders (``/usr``, ``/etc``, ...), the course and Python,
  read-only, and nothing else of the machine: every other top-level folder (``/home``, ``/root``,
  ``/srv``, ``/var``, ``/opt``, ...) is covered by an empty one, the paths it needs bound back; its
  ``/tmp`` is a private ``tmpfs`` holding only this notebook's working folder, ``/dev/shm`` its own; the
  submissions, the report, a hub's state and ``workspace/`` are covered even inside the course;
- with one memory limit and one process-count limit for its whole process tree: a cgroup (v2, or
  v1's memory and pids controllers) where this machine lets the grader make one, else the tree's
  summed memory (PSS) watched every 50 ms and ``RLIMIT_NPROC`` on its uid; the whole tree dies
  with the sandbox (its PID namespace ends when its first process does).

``"unprotected"`` (not root, no ``unshare``, not Linux): the code runs as the grader's own user,
with the network and every file that user may touch. Time, output, ``RLIMIT_AS`` per process and the
tree's summed memory are still limited, and the audit hook still *names* what it sees; nothing stops
a determined submission. The grader and its report say so.

In both modes the verdict is decided in the grader's process: the sandbox sends plain values only.
"""

import contextlib
import ctypes
import json
import os
import pickle
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from course_lib.exercises.child import receive_frame, send_frame

from ..core.config import CONFIG

__all__ = ["ISOLATED", "UNPROTECTED", "mode", "Cgroup", "Session", "start", "enter"]

ISOLATED, UNPROTECTED = "isolated", "unprotected"
CPU_PERIOD_US = 100_000  # cgroup v1's default period: a quota of one period is one core
NPROC = 128  # processes and threads of one notebook's tree (torch with one thread uses about 10)
TMP_BYTES = 512 << 20  # the private /tmp: the notebook's working folder and whatever it writes
FRAME_BYTES = 16 << 20  # one frame from a sandbox: a check's reply takes well under 1 MiB
UID_BASE = 2_100_000_000  # the sandbox's uids: far above any account's (useradd stops at 60 000)
RUNNER = "import sys; sys.path.insert(0, {root!r}); from course_tools.grading.run import main; main()"
ENTER = "import sys; sys.path.insert(0, {root!r}); from course_tools.grading.sandbox import enter; enter()"


@cache
def mode() -> str:
    """``"isolated"`` where a notebook can run in the sandbox described above, else ``"unprotected"``."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0 or shutil.which("unshare") is None:
        return UNPROTECTED
    probe = ["unshare", "--mount", "--pid", "--net", "--ipc", "--uts", "--fork", "--kill-child",
             "--mount-proc", "true"]  # fmt: skip
    return ISOLATED if subprocess.run(probe, capture_output=True).returncode == 0 else UNPROTECTED


# ----------------------------------------------------------------------------- one limit for the whole tree


class Cgroup:
    """A cgroup for one notebook's tree: memory and process count; ``None`` from :meth:`make` where there is none."""

    def __init__(self, dirs: dict[str, Path]):
        self.dirs = dirs  # controller -> folder ("unified" for v2)

    @classmethod
    def make(cls, memory_bytes: int, pids: int) -> "Cgroup | None":
        name = f"course-grade-{os.getpid()}-{secrets.token_hex(4)}"
        base = Path("/sys/fs/cgroup")
        made: dict[str, Path] = {}
        try:
            if (base / "cgroup.controllers").is_file():  # v2: a sibling of our own group is not ours to make
                wanted = {"memory", "pids"}
                if not wanted <= set((base / "cgroup.subtree_control").read_text().split()):
                    return None
                made["unified"] = base / name
                made["unified"].mkdir()
                (made["unified"] / "memory.max").write_text(str(memory_bytes))
                if (made["unified"] / "memory.swap.max").exists():
                    (made["unified"] / "memory.swap.max").write_text("0")
                (made["unified"] / "pids.max").write_text(str(pids))
                with contextlib.suppress(OSError):  # one core at most, where the cpu controller is enabled
                    (made["unified"] / "cpu.max").write_text("100000 100000")
            else:  # v1: beside our own group in the memory and pids hierarchies
                for controller in ("memory", "pids"):
                    own = _own_group(controller)
                    if own is None or not (base / controller).is_dir():
                        raise OSError(f"no {controller} hierarchy")
                    made[controller] = base / controller / own.lstrip("/") / name
                    made[controller].mkdir()
                (made["memory"] / "memory.limit_in_bytes").write_text(str(memory_bytes))
                with contextlib.suppress(OSError):  # without swap accounting there is no such file
                    (made["memory"] / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
                (made["pids"] / "pids.max").write_text(str(pids))
                own = _own_group("cpu")
                if own is not None and (base / "cpu" / "cpu.cfs_quota_us").exists():
                    with contextlib.suppress(OSError):  # one core at most: a busy loop slows no neighbour
                        made["cpu"] = base / "cpu" / own.lstrip("/") / name
                        made["cpu"].mkdir()
                        (made["cpu"] / "cpu.cfs_quota_us").write_text(str(CPU_PERIOD_US))
        except OSError:
            Cgroup(made).remove()
            return None
        return cls(made)

    @property
    def procs_files(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.dirs.values()]

    def events(self) -> dict[str, int]:
        """How often the tree hit its limits: ``{"oom_kill": n, "pids_max": n}``."""
        found = {"oom_kill": 0, "pids_max": 0}
        files = (("memory.events", "oom_kill", "oom_kill"), ("memory.oom_control", "oom_kill", "oom_kill"),
                 ("pids.events", "max", "pids_max"))  # fmt: skip
        for folder in self.dirs.values():
            for file, key, name in files:
                with contextlib.suppress(OSError, ValueError):
                    for line in (folder / file).read_text().splitlines():
                        words = line.split()
                        if len(words) == 2 and words[0] == key:
                            found[name] += int(words[1])
        return found

    def kill(self) -> None:
        for folder in self.dirs.values():
            with contextlib.suppress(OSError, ValueError):
                for pid in (folder / "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        os.kill(int(pid), signal.SIGKILL)

    def remove(self) -> None:
        for folder in self.dirs.values():
            for _ in range(100):  # the last processes of the tree may still be exiting
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    self.kill()
                    time.sleep(0.02)


def remove_stale_groups() -> None:
    """The cgroups a grader that was killed left behind (``course-grade-<pid>-...``, its pid gone)."""
    base = Path("/sys/fs/cgroup")
    for pattern in ("course-grade-*", "*/course-grade-*", "*/*/*/course-grade-*"):
        for folder in base.glob(pattern):
            pid = folder.name.split("-")[2]
            if pid.isdigit() and not Path(f"/proc/{pid}").exists():
                with contextlib.suppress(OSError):
                    folder.rmdir()


def _own_group(controller: str) -> str | None:
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if controller in controllers.split(","):
                return path
    return None


# ----------------------------------------------------------------------------- the watched process


@dataclass
class Session:
    """One notebook's sandbox, seen from the grader: the socket, and what was seen from outside."""

    process: subprocess.Popen
    channel: socket.socket
    uid: int | None
    cgroup: Cgroup | None
    limits: object
    output_bytes: int = 0
    output_tail: bytes = b""
    stopped_for: str = ""  # "output_too_large", "memory", "processes", "timeout": why the grader killed it
    dead: bool = False  # a call went unanswered: the sandbox answers no more
    violations: list = field(default_factory=list)
    tempdir: str | None = None  # the working folder outside a sandbox, removed at close
    _reader: threading.Thread | None = None
    _watcher: threading.Thread | None = None
    _done: threading.Event = field(default_factory=threading.Event)

    # --- frames -----------------------------------------------------------------------------

    def send(self, message) -> bool:
        try:
            send_frame(self.channel.fileno(), pickle.dumps(message))
            return True
        except OSError:
            return False

    def receive(self, deadline: float):
        """The next frame that is not a violation (those are kept), as plain values; None at the end.

        Raises ``TimeoutError`` past ``deadline`` and ``ValueError`` for a frame that is not plain data.
        """
        from course_lib.exercises.child import load_plain

        while True:
            data = receive_frame(self.channel.fileno(), deadline, FRAME_BYTES)
            if data is None:
                return None
            message = load_plain(data)
            if isinstance(message, tuple) and message[:1] == ("violation",):
                if len(message) == 3 and all(type(m) is str for m in message) and len(self.violations) < 20:
                    self.violations.append((message[1][:60], message[2][:300]))
                continue
            return message

    # --- what is watched from outside ---------------------------------------------------------

    def _read_output(self) -> None:
        stream = self.process.stdout
        while True:
            chunk = stream.read1(1 << 16) if hasattr(stream, "read1") else stream.read(1 << 16)
            if not chunk:
                return
            self.output_bytes += len(chunk)
            self.output_tail = (self.output_tail + chunk)[-2000:]
            if self.output_bytes > self.limits.output_bytes and not self.stopped_for:
                self.stop("output_too_large")

    def _watch(self) -> None:
        """The tree's memory and process count, where no cgroup keeps them; the cgroup's events where one does."""
        while not self._done.wait(0.05):
            if self.cgroup is not None:
                events = self.cgroup.events()
                if events["pids_max"]:
                    self.stop("processes")
                elif events["oom_kill"]:
                    self.stop("memory")
                continue
            rss, count = _tree_usage(self.uid, self.process.pid)
            if rss > self.limits.memory_bytes:
                self.stop("memory")
            elif count >= NPROC:
                self.stop("processes")

    def stop(self, why: str = "") -> None:
        """Kill the whole sandbox (its PID namespace dies with its first process)."""
        if why and not self.stopped_for:
            self.stopped_for = why
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGKILL)
        if self.cgroup is not None:
            self.cgroup.kill()
        if self.uid is not None and self.cgroup is None:
            _kill_uid(self.uid)

    def limits_hit(self) -> str:
        """``memory`` or ``processes`` if the tree hit a limit at any time, else ''."""
        if self.stopped_for in ("memory", "processes"):
            return self.stopped_for
        if self.cgroup is not None:
            events = self.cgroup.events()
            if events["oom_kill"]:
                return "memory"
            if events["pids_max"]:
                return "processes"
        return ""

    def close(self) -> None:
        self.stop()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        self._done.set()
        for thread in (self._reader, self._watcher):
            if thread is not None:
                thread.join(timeout=10)
        with contextlib.suppress(OSError):
            self.channel.close()
        if self.process.stdout:
            with contextlib.suppress(OSError):
                self.process.stdout.close()
        if self.cgroup is not None:
            self.cgroup.remove()
        if self.tempdir is not None:
            shutil.rmtree(self.tempdir, ignore_errors=True)


def _tree_usage(uid: int | None, root_pid: int) -> tuple[int, int]:
    """Summed proportional memory (PSS: a page shared by forked processes counted once in all) and task
    count: every process of ``uid``, or of ``root_pid``'s session."""
    memory = count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            if uid is not None:
                if int(fields["Uid"].split()[0]) != uid:
                    continue
            elif os.getsid(int(entry)) != root_pid:
                continue
            count += int(fields.get("Threads", "1"))
            rollup = Path(f"/proc/{entry}/smaps_rollup").read_text()
            memory += (
                next(int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:")) << 10
            )
        except (OSError, ValueError, KeyError, StopIteration):
            continue
    return memory, count


def _kill_uid(uid: int) -> None:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError):
                if Path(f"/proc/{entry}").stat().st_uid == uid:
                    os.kill(int(entry), signal.SIGKILL)


def start(job: dict, limits, hidden: list[Path], mpl_cache: dict[str, str]) -> Session:
    """Start the sandbox for one notebook; ``job`` is what :mod:`course_tools.grading.run` reads."""
    parent, child = socket.socketpair()
    sandboxed = mode() == ISOLATED
    uid = UID_BASE + secrets.randbelow(10**8) if sandboxed else None
    cgroup = Cgroup.make(limits.memory_bytes, NPROC) if sandboxed else None
    workdir = "/tmp/work" if sandboxed else None
    tempdir = None
    if not sandboxed:
        import tempfile

        tempdir = tempfile.mkdtemp(prefix="grade-")
        workdir = tempdir
    job = dict(job, workdir=workdir, channel=child.fileno(), mpl_cache=mpl_cache)
    python = sys.executable
    runner = RUNNER.format(root=str(CONFIG.root))
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": f"{workdir}/home", "TMPDIR": f"{workdir}/tmp",
           "MPLBACKEND": "Agg", "MPLCONFIGDIR": f"{workdir}/home/.matplotlib", "OMP_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}  # fmt: skip
    if sandboxed:
        setup = {"uid": uid, "procs": cgroup.procs_files if cgroup else [], "hidden": [str(p) for p in hidden],
                 "needed": needed_paths(), "memory": limits.memory_bytes,
                 # with a cgroup its pids.max comes first, and says so in pids.events
                 "nproc": NPROC + 32 if cgroup else NPROC,
                 "file_bytes": TMP_BYTES, "argv": [python, "-I", "-B", "-c", runner], "env": env}  # fmt: skip
        command = ["unshare", "--mount", "--pid", "--net", "--ipc", "--uts", "--fork", "--kill-child",
                   "--mount-proc", python, "-I", "-c", ENTER.format(root=str(CONFIG.root)), json.dumps(setup)]  # fmt: skip
        env_outer = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    else:
        command = [python, "-I", "-B", "-c", runner]
        env_outer = env
        os.makedirs(f"{workdir}/home", exist_ok=True)
        os.makedirs(f"{workdir}/tmp", exist_ok=True)

    def limit_unprotected():  # only where no sandbox sets the limits
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (max(limits.memory_bytes, 4 << 30),) * 2)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        die_with_parent()

    def die_with_parent():  # the grader killed: its sandboxes go too (unshare's --kill-child takes the rest)
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)

    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env_outer,
        cwd="/", pass_fds=(child.fileno(),), start_new_session=True,
        preexec_fn=die_with_parent if sandboxed else limit_unprotected,
    )  # fmt: skip
    child.close()
    session = Session(process, parent, uid, cgroup, limits, tempdir=tempdir)
    session._reader = threading.Thread(target=session._read_output, daemon=True)
    session._reader.start()
    session._watcher = threading.Thread(target=session._watch, daemon=True)
    session._watcher.start()

    def feed():
        with contextlib.suppress(OSError):
            process.stdin.write(json.dumps(job).encode())
            process.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    return session


def needed_paths() -> list[str]:
    """What the sandbox's user must read: the course, Python's installation and its packages."""
    import course_lib

    paths = {
        str(CONFIG.root),
        sys.prefix,
        sys.base_prefix,
        os.path.dirname(os.path.dirname(course_lib.__file__)),
    }
    return sorted(os.path.realpath(p) for p in paths)


# ----------------------------------------------------------------------------- inside the namespaces, as root


MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 32, 4096, 16384, 1 << 18
PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP, PR_SET_PDEATHSIG = 38, 24, 1


def _mount(libc, source: str, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    result = libc.mount(
        source.encode(), target.encode(), fstype.encode() if fstype else None, flags,
        data.encode() if data else None,
    )  # fmt: skip
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"mount {source} on {target}: {os.strerror(error)}")


def _mount_points() -> list[str]:
    points = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = line.split()[4]
        points.append(point.encode().decode("unicode_escape") if "\\" in point else point)
    return points


def enter() -> None:
    """The sandbox's first process: set up the filesystem, limits and user, then become the runner.

    Runs as root inside fresh namespaces (``unshare``), with the setup as JSON in ``sys.argv[1]``.
    Any failure here ends the process before any of the student's code has run.
    """
    import resource

    setup = json.loads(sys.argv[1])
    uid = setup["uid"]
    libc = ctypes.CDLL(None, use_errno=True)
    for procs in setup["procs"]:  # the tree's memory and process limits, before anything else starts
        Path(procs).write_text(str(os.getpid()))
    _mount(libc, "none", "/", None, MS_REC | MS_PRIVATE)
    # the folders the user needs, kept open while everything around them is covered
    kept = {p: os.open(p, os.O_PATH) for p in setup["needed"]}
    for point in sorted(set(_mount_points()), key=len):
        if point.startswith("/proc"):
            continue
        with contextlib.suppress(OSError):  # gone (covered by an earlier mount) or not remountable
            _mount(libc, "none", point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID)
    bound: list[str] = []
    for folder in covered_folders(list(kept)):
        private_tmp = folder == "/tmp"
        size = f"size={setup['file_bytes']}" if private_tmp else "size=1m"
        _mount(libc, "tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, f"{size},mode=0755")
        for path in sorted(
            kept
        ):  # the needed paths below it, bound back read-only (an outer one holds its inner)
            if _below(path, folder) and not any(_below(path, b) or path == b for b in bound):
                os.makedirs(path, exist_ok=True)
                _mount(libc, f"/proc/self/fd/{kept[path]}", path, None, MS_BIND | MS_REC)
                _mount(libc, "none", path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID)
                bound.append(path)
        if not private_tmp:
            _mount(
                libc, "none", folder, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, f"{size},mode=0755"
            )
    for entry in os.scandir("/"):  # the top-level files too (a container's description, an installer)
        if entry.is_file(follow_symlinks=False):
            with contextlib.suppress(OSError):
                _mount(libc, "/dev/null", entry.path, None, MS_BIND)
    for hidden in setup["hidden"]:  # inside a needed path (a hub's state in the course): covered too
        if os.path.isdir(hidden):
            _mount(libc, "tmpfs", hidden, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=4k,mode=0555")
    for folder, flags, data in (("/dev/shm", 0, "size=64m,mode=1777"), ("/dev/pts", MS_RDONLY, "size=4k,mode=0555"),
                                ("/dev/mqueue", MS_RDONLY, "size=4k,mode=0555")):  # fmt: skip
        if os.path.isdir(folder) and not os.path.islink(
            folder
        ):  # this namespace's own: no other notebook sees them
            _mount(libc, "tmpfs", folder, "tmpfs", flags | MS_NOSUID | MS_NODEV, data)
    env = setup["env"]
    for folder in ("/tmp/work", env["HOME"], env["TMPDIR"], env["MPLCONFIGDIR"]):
        os.makedirs(folder, mode=0o700, exist_ok=True)
        os.chown(folder, uid, uid)
    for fd in kept.values():
        os.close(fd)
    resource.setrlimit(resource.RLIMIT_AS, (max(setup["memory"], 4 << 30),) * 2)
    resource.setrlimit(resource.RLIMIT_NPROC, (setup["nproc"],) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (setup["file_bytes"],) * 2)
    for cap in range(64):  # no capability can come back, even through a program that has file capabilities
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "no_new_privs")
    os.chdir("/tmp/work")
    os.execve(setup["argv"][0], setup["argv"], env)


# the system's own top-level folders, seen read-only; every other one (/home, /root, /srv, /opt, /var,
# /mnt, /work, ...) is covered by an empty filesystem, the paths the sandbox needs bound back into it
SYSTEM = {"usr", "lib", "lib32", "lib64", "libx32", "bin", "sbin", "etc", "proc", "dev", "sys"}


def _below(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip("/") + "/")


def covered_folders(needed: list[str]) -> list[str]:
    """What the sandbox covers: every top-level folder that is not the system's (``/tmp`` becomes the
    notebook's own), and inside the system's, the folders closed to others above a needed path."""
    tops = sorted(e.path for e in os.scandir("/") if e.is_dir(follow_symlinks=False) and e.name not in SYSTEM)
    closed = [c for c in closed_parents(needed) if not any(c == t or _below(c, t) for t in tops)]
    return tops + closed


def closed_parents(paths: list[str]) -> list[str]:
    """The outermost folders above ``paths`` that others may not enter (mode without o+x)."""
    found: list[str] = []
    for path in paths:
        parts = Path(path).parts
        for i in range(1, len(parts)):
            folder = str(Path(*parts[: i + 1])) if i else "/"
            if folder == path:
                break
            with contextlib.suppress(OSError):
                if not os.stat(folder).st_mode & 0o001:
                    if not any(folder == f or folder.startswith(f.rstrip("/") + "/") for f in found):
                        found.append(folder)
                    break
    return found
