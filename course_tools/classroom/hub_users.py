"""One Unix user per student on the course's JupyterHub when it runs as root (``make hub``).

As The Littlest JupyterHub does, a student's first server start creates their system user,
``jupyter-<name>`` (:func:`system_user`), with ``useradd``: no password (nobody logs in as it),
the comment :data:`MARK` and the home ``STATE/homes/jupyter-<name>/``, mode 0700, owned by it.
Their server, and every kernel and subprocess it starts, runs as that user: the operating system
keeps one student out of another's home, processes and ``/proc/<pid>/environ`` (their API token).
Their kernels talk over Unix sockets in their own runtime folder (``/run/course-hub/<hash of the
state folder>/<uid>/``, 0700: a socket's path must stay under 108 bytes, which a home may not),
not over TCP ports on 127.0.0.1 where any user could listen to another's outputs.
A user of that name that this hub did not make (another comment or home) is never taken over,
and nobody is ever run as root (:func:`ensure_user` refuses).

The course itself (the repository, its ``.venv``) stays root's: students read it, never write it.
Where a folder above the course, its Python or the homes is closed to other users (a pyenv
Python in ``/root``, mode 0700), each server gets a mount namespace of its own in which that
folder is a small empty tmpfs, mode 0711, holding only what the server needs, bound back from
the real folder (:func:`reach_plan`, :func:`expose`): the student reaches the course and never
sees the rest of root's home.

Each server also gets, in that mount namespace (made for every server as root), a ``/tmp``, a
``/var/tmp`` and a ``/dev/shm`` of its own (:func:`private_tmp`: empty tmpfs, the student's alone):
what one student leaves there no other student sees. ``TMPDIR`` and ``TORCHINDUCTOR_CACHE_DIR``
point into the student's home in any case (:func:`student_env`).

:func:`spawner_class` builds the spawner, ``CourseSpawner``, and :func:`authenticator_class` the
login, ``ClassAuthenticator``: the class list's names, each with its own password (kept as
:func:`hash_password` makes it, checked by :func:`check_password`), no other name
(JupyterHub is imported there, not here: ``make unit`` imports every module of the course without
the ``hub`` extra).
"""

import asyncio
import contextlib
import ctypes
import functools
import hashlib
import hmac
import os
import pwd
import re
import secrets
import shutil
import stat
import subprocess
import sys
from pathlib import Path

__all__ = [
    "PREFIX",
    "MARK",
    "system_user",
    "ensure_user",
    "runtime_dir",
    "our_users",
    "remove_users",
    "reach_plan",
    "expose",
    "check_expose",
    "private_tmp",
    "PRIVATE_TMP",
    "student_env",
    "spawner_class",
    "authenticator_class",
    "hash_password",
    "check_password",
]

PREFIX = "jupyter-"
#: the comment (GECOS) of every user this course's hubs create: a user without it is not ours
MARK = "course hub student"
MAX_NAME = 32  # useradd's limit on Linux
SAFE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

_CLONE_NEWNS = 0x00020000
_MS_BIND, _MS_REC, _MS_PRIVATE, _MS_NOSUID, _MS_NODEV = 4096, 0x4000, 1 << 18, 2, 4
_libc = ctypes.CDLL(None, use_errno=True)  # loaded here, never in a forked child


def system_user(name: str) -> str:
    """The system user of hub user ``name``: ``jupyter-<name>``, or, for a name ``useradd``
    would refuse or one too long, ``jupyter-<what is left of it>_<8 hex of its SHA-256>`` (an
    underscore, which no name kept as it is contains, so the two forms never meet)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a hub user name must be a non-empty str, got {name!r}")
    if SAFE.fullmatch(name) and len(PREFIX) + len(name) <= MAX_NAME:
        return PREFIX + name
    stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:14]
    return f"{PREFIX}{stem}_{hashlib.sha256(name.encode()).hexdigest()[:8]}"


def _ours(entry: pwd.struct_passwd, home: Path) -> bool:
    return entry.pw_gecos == MARK and entry.pw_dir == str(home) and entry.pw_uid != 0


def _own_folder(path: Path, entry: pwd.struct_passwd, mode: int) -> None:
    """``path`` a real folder (made if missing) owned by ``entry``, of ``mode``; never through a link."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o700)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        raise PermissionError(f"refusing to use {str(path)!r} for {entry.pw_name!r}: it is not a folder")
    if (info.st_uid, info.st_gid) != (entry.pw_uid, entry.pw_gid):
        os.chown(path, entry.pw_uid, entry.pw_gid, follow_symlinks=False)
    os.chmod(path, mode, follow_symlinks=False)


def runtime_dir(runtime: Path, entry: pwd.struct_passwd) -> Path:
    """The student's Jupyter runtime folder (their kernels' connection files and sockets)."""
    return runtime / str(entry.pw_uid)


def ensure_user(name: str, homes: Path, runtime: Path | None = None) -> pwd.struct_passwd:
    """The system user of hub user ``name`` with its home in ``homes`` (mode 0700, its own),
    created on first use; a user of that name that is not ours, or root, is refused. With
    ``runtime`` (root's, 0711), also their runtime folder there (:func:`runtime_dir`, 0700)."""
    user = system_user(name)
    home = homes / user
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        if shutil.which("useradd") is None:
            raise RuntimeError(
                "useradd is not installed (Debian: the passwd package): no user per student"
            ) from None
        done = subprocess.run(
            ["useradd", "--no-create-home", "--home-dir", str(home), "--shell", "/bin/bash"]
            + ["--comment", MARK, "--user-group", user],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"useradd {user!r} failed ({done.returncode}): {done.stderr.strip()}"
            ) from None
        entry = pwd.getpwnam(user)
    if entry.pw_uid == 0 or entry.pw_gid == 0:
        raise PermissionError(f"refusing to run hub user {name!r} as {user!r}: its uid or gid is 0 (root)")
    if not _ours(entry, home):
        raise PermissionError(
            f"refusing to run hub user {name!r} as the system user {user!r}: it exists and is not this "
            f"hub's (comment {entry.pw_gecos!r}, home {entry.pw_dir!r}; this hub's are {MARK!r}, {str(home)!r})"
        )
    _own_folder(home, entry, 0o700)
    _own_folder(home / ".tmp", entry, 0o700)  # TMPDIR (student_env)
    if runtime is not None:
        # /run/course-hub/ and its <hash>/: root's, crossed by every student (never listed), whatever
        # the umask of the hub that makes them (make hub's is 077)
        for folder in (runtime.parent, runtime):
            with contextlib.suppress(FileExistsError):
                os.mkdir(folder, 0o711)
            info = os.lstat(folder)
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != 0:
                raise PermissionError(f"refusing the runtime folder {str(folder)!r}: not a folder of root's")
            os.chmod(folder, 0o711)
        _own_folder(runtime_dir(runtime, entry), entry, 0o700)
    return entry


def our_users(homes: Path) -> list[pwd.struct_passwd]:
    """The system users this course made for the homes in ``homes``."""
    return [e for e in pwd.getpwall() if e.pw_gecos == MARK and Path(e.pw_dir).parent == homes]


def remove_users(homes: Path) -> list[str]:
    """``userdel`` every user of :func:`our_users` (their homes are left); the names removed.

    For tests and benchmarks, whose state folder goes with them; a class's hub keeps its users."""
    removed = []
    for entry in our_users(homes):
        subprocess.run(["userdel", entry.pw_name], capture_output=True, check=True)
        removed.append(entry.pw_name)
    return removed


# ----------------------------------------------------------------------------- reaching the course


def reach_plan(paths) -> list[tuple[str, list[str]]]:
    """The folders on the way to ``paths`` that other users cannot cross (no ``x`` for others),
    shallowest first, each with the names under it that lie on the way: what :func:`expose`
    opens. Empty where every folder is open (a course in ``/opt`` or ``/srv``)."""
    plan: dict[str, set[str]] = {}
    for path in paths:
        path = Path(os.path.realpath(path))
        for folder, child in zip(path.parents[::-1], path.parts[1:], strict=True):
            try:
                mode = os.stat(folder).st_mode
            except FileNotFoundError:  # made later, by root: nothing of it to open now
                break
            if not mode & stat.S_IXOTH:
                plan.setdefault(str(folder), set()).add(child)
    return sorted(((f, sorted(c)) for f, c in plan.items()), key=lambda item: item[0].count(os.sep))


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def expose(plan: list[tuple[str, list[str]]], fresh: bool = True) -> None:
    """In a new mount namespace of this process, put over each folder of ``plan`` an empty tmpfs
    (mode 0711: crossed, never listed) holding only its named children, bound back from the real
    ones. Run in the spawned child, as root, before it becomes the student; nothing where ``plan``
    is empty. ``fresh`` False: the mount namespace is already this process's own."""
    if not plan:
        return
    if fresh:
        _new_namespace()
    for folder, children in plan:
        held = {child: os.open(os.path.join(folder, child), os.O_PATH) for child in children}
        _check(
            _libc.mount(b"tmpfs", folder.encode(), b"tmpfs", _MS_NOSUID | _MS_NODEV, b"mode=0711,size=64k"),
            f"mount tmpfs on {folder}",
        )
        for child, fd in held.items():
            target = os.path.join(folder, child)
            os.mkdir(target, 0o700)
            source = f"/proc/self/fd/{fd}".encode()
            _check(_libc.mount(source, target.encode(), None, _MS_BIND | _MS_REC, None), f"bind {target}")
            os.close(fd)


#: the folders each student's server gets empty and its own (tmpfs, the student's alone), and their size
PRIVATE_TMP = {"/tmp": "1g", "/var/tmp": "1g", "/dev/shm": "1g"}


def private_tmp(entry: pwd.struct_passwd, folders: dict[str, str] = PRIVATE_TMP, keep=()) -> list[str]:
    """In this process's mount namespace (made by :func:`expose`, or here), an empty tmpfs owned by
    ``entry`` (mode 0700) over each existing folder of ``folders``: a ``/tmp`` no other student shares.
    The paths of ``keep`` that lie in such a folder (a course cloned under ``/tmp``) are bound back
    into it. Run in the spawned child as root, before it becomes the student; the folders it covered."""
    covered = []
    keep = [os.path.realpath(path) for path in keep]
    for folder, size in folders.items():
        if not os.path.isdir(folder):
            continue
        inside = [path for path in keep if path.startswith(folder + os.sep)]
        outer = [path for path in inside if not any(path.startswith(other + os.sep) for other in inside)]
        held = {path: os.open(path, os.O_PATH) for path in outer}  # before the folder is covered
        options = f"mode=0700,uid={entry.pw_uid},gid={entry.pw_gid},size={size}".encode()
        _check(
            _libc.mount(b"tmpfs", folder.encode(), b"tmpfs", _MS_NOSUID | _MS_NODEV, options),
            f"mount tmpfs on {folder}",
        )
        for path, fd in held.items():
            os.makedirs(path, mode=0o755, exist_ok=True)
            source = f"/proc/self/fd/{fd}".encode()
            _check(_libc.mount(source, path.encode(), None, _MS_BIND | _MS_REC, None), f"bind {path}")
            os.close(fd)
        covered.append(folder)
    return covered


def _new_namespace() -> None:
    _check(_libc.unshare(_CLONE_NEWNS), "unshare(CLONE_NEWNS)")
    _check(_libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None), "mount --make-rprivate /")


def student_env(entry: pwd.struct_passwd) -> dict[str, str]:
    """What each student's server gets in its environment besides JupyterHub's: their user, home,
    shell, and temporary and cache folders in their own home (made by :func:`ensure_user`)."""
    home = Path(entry.pw_dir)
    return {
        "USER": entry.pw_name,
        "HOME": str(home),
        "SHELL": entry.pw_shell,
        "TMPDIR": str(home / ".tmp"),
        "TORCHINDUCTOR_CACHE_DIR": str(home / ".cache" / "torchinductor"),
    }


def check_expose(plan: list[tuple[str, list[str]]]) -> str | None:
    """Whether :func:`expose` works here (mount namespaces allowed): None, or the reason it does not."""
    if not plan:
        return None
    done = subprocess.run(
        [sys.executable, "-c", "pass"], preexec_fn=lambda: expose(plan), capture_output=True
    )
    return None if done.returncode == 0 else f"exit {done.returncode}"


# ----------------------------------------------------------------------------- the spawner


def __getattr__(name: str):
    """``course_tools.classroom.hub_users.CourseSpawner``, the name the hub's configuration gives, built on
    first use (PEP 562): importing this module needs no JupyterHub."""
    if name == "CourseSpawner":
        return spawner_class()
    if name == "ClassAuthenticator":
        return authenticator_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def spawner_class():
    """JupyterHub's ``LocalProcessSpawner`` for the course as root: the student's own user
    (created on the first start), their home, the course reachable (:func:`expose`), umask 077."""
    from jupyterhub.spawner import LocalProcessSpawner, set_user_setuid
    from traitlets import Bool, List, Unicode

    class CourseSpawner(LocalProcessSpawner):
        homes = Unicode(help="the folder of the students' homes (0711, root's)").tag(config=True)
        reach = List(help="what each server must reach: the course, its Python, the homes").tag(config=True)
        runtime = Unicode(help="the students' runtime folders, short enough for sockets").tag(config=True)
        private_tmp = Bool(True, help="a /tmp, /var/tmp and /dev/shm of each server's own").tag(config=True)
        _creating = None  # one useradd at a time: it locks /etc/passwd

        @property
        def system_user(self) -> str:
            return system_user(self.user.name)

        async def start(self):
            if CourseSpawner._creating is None:
                CourseSpawner._creating = asyncio.Lock()
            async with CourseSpawner._creating:
                await asyncio.to_thread(ensure_user, self.user.name, Path(self.homes), Path(self.runtime))
            return await super().start()

        def make_preexec_fn(self, name):
            entry = pwd.getpwnam(self.system_user)
            if entry.pw_uid == 0:
                raise PermissionError(f"refusing to spawn hub user {name!r} as root")
            become = set_user_setuid(self.system_user)
            plan = reach_plan(self.reach)
            tmp = self.private_tmp
            # what the server must reach inside a covered folder (a course cloned under /tmp) is bound back
            reached = [os.path.realpath(path) for path in self.reach]

            def preexec():
                if tmp:
                    # a mount namespace of its own for every server: its own /tmp; without
                    # namespaces (refused here), TMPDIR in the home is what is left (student_env)
                    try:
                        _new_namespace()
                    except OSError:
                        if plan:  # the course could not be reached either: make hub checked it
                            raise
                    else:
                        expose(plan, fresh=False)
                        private_tmp(entry, PRIVATE_TMP, keep=reached)
                else:
                    expose(plan)
                become()
                os.umask(0o077)
                if 0 in os.getresuid() or 0 in os.getresgid():
                    raise PermissionError("the student's server would keep root's ids")

            return preexec

        def user_env(self, env):
            entry = pwd.getpwnam(self.system_user)
            env.update(student_env(entry))
            env["JUPYTER_RUNTIME_DIR"] = str(runtime_dir(Path(self.runtime), entry))
            return env

    CourseSpawner.__module__, CourseSpawner.__qualname__ = __name__, "CourseSpawner"
    return CourseSpawner


@functools.cache
def authenticator_class():
    """JupyterHub's ``Authenticator`` for a class list (``course_tools.classroom.hub.enroll``): a name of the
    class with its own password (scrypt, compared in constant time), nothing else; the hashes are
    read from ``class_file`` at each login."""
    import json

    from jupyterhub.auth import Authenticator
    from traitlets import Unicode

    unknown = hash_password(os.urandom(16).hex())  # an unknown name costs the same time as a known one

    class ClassAuthenticator(Authenticator):
        class_file = Unicode(help="STATE/class.json: each student's name and password hash").tag(config=True)

        def _hashes(self) -> dict:
            try:
                with open(self.class_file, encoding="utf-8") as f:
                    hashes = json.load(f)
            except (OSError, ValueError) as error:
                self.log.error("cannot read the class %r: %s", self.class_file, error)
                return {}
            return hashes if isinstance(hashes, dict) else {}

        async def authenticate(self, handler, data):
            name = self.normalize_username(str(data.get("username", "")))
            password = str(data.get("password", ""))
            stored = self._hashes().get(name)
            good = await asyncio.to_thread(
                check_password, password, stored if isinstance(stored, str) else unknown
            )
            if good and isinstance(stored, str):
                return name
            self.log.warning("refused a login as %r", name)
            return None

    ClassAuthenticator.__module__, ClassAuthenticator.__qualname__ = __name__, "ClassAuthenticator"
    return ClassAuthenticator


def hash_password(password: str, salt: bytes | None = None) -> str:
    """``scrypt$<salt hex>$<hash hex>``: what the hub keeps of a password."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
    return f"scrypt${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` (:func:`hash_password`) was made of; constant time."""
    try:
        kind, salt, _ = stored.split("$")
        salt_bytes = bytes.fromhex(salt)
    except ValueError:
        return False
    return kind == "scrypt" and hmac.compare_digest(hash_password(password, salt_bytes), stored)
