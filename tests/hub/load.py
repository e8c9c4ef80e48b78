"""A class logs in to the course's JupyterHub at once, works, and the hub restarts under it.

    python -m tests.hub.load --students 20 [--seconds 900] [--json FILE]

Everything on 127.0.0.1, in a temporary state folder, on free ports: the real hub of ``make hub``
(:mod:`course_tools.hub`: configurable-http-proxy on its own, JupyterHub, each student's server
through ``course_tools.hub singleuser``). Each simulated student, all at once:

1. logs in through the hub's login form with their own password (the run's class list, enrolled
   by ``make hub``'s own ``start --class``; the passwords read, as root, from ``STATE/passwords.txt``),
   asks the hub's API for a token;
2. has their server spawned (the spawn time: from the request to the hub's ``ready``), in their
   language (the second student is Russian by the class list, the others take the class's English):
   where the server sends them first and the interface language its settings give are recorded;
3. opens lesson 0 through the server's contents API (their home has it: the workspace was made at
   the server's start), starts a kernel on it (a session, as JupyterLab does), and over the
   kernel's websocket runs the lesson's setup cell and then its check cell (the check latency);
4. saves an edit to the lesson, and leaves a value in the kernel.

The hub runs as ``make hub`` runs it (``python -m course_tools.hub start``, its own checks of the
ports included), and is stopped as an instructor stops it (Ctrl-C: SIGINT to its process group) and
started again, with the servers and the proxy left running. Each
student's edit must still be there, and over the very websocket opened before the restart their
kernel must still hold the value. Logging in as another student with one's own password, or with
a name not in the class, is refused. As root (one system user per student), the first student then
attacks the second and the hub from their kernel, in the kernel and in a subprocess of it
(:mod:`tests.hub.attack`: the other's home, lessons, kernels, pids, token, the hub's
secrets, the course's files, a file the second left in their /tmp, /var/tmp and /dev/shm, a
debugpy listener: the second's kernel was asked to start its debugger first, as JupyterLab asks),
and the second's kernel must still hold its value after it. Last, one student's server is stopped and started again through
the hub: the workspace update at the start must keep their edited lesson as it is and put the
course's version beside it. The memory of each student (the RSS and PSS of their server and kernel)
is read after the check.

The run stops by itself (``--seconds``, everything included) and always ends every process it
started: the servers through the hub, then whatever still carries its state folder in its
environment or runs as one of its students' users, the hub and the proxy; as root it then removes
(``userdel``) every system user the hub made for it. It prints, and returns, the numbers. Not as
root, the hub runs every student as this user (``make hub HUB_SHARED_USER=1``) and nothing is attacked.
"""

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

import httpx
import psutil
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

from course_tools.classroom import hub, hub_users

from . import attack

__all__ = ["Student", "Report", "free_port", "free_internal_port", "run", "main"]

LESSON = "en/00_start_here.ipynb"
EDIT = "# {name}'s own line, saved before the hub's restart\n"
MAX_STUDENTS = 60


@dataclass
class Student:
    name: str
    spawn_s: float = 0.0
    setup_s: float = 0.0
    check_s: float = 0.0
    server_rss: int = 0
    kernel_rss: int = 0
    pss: int = 0
    cpu_s: float = 0.0
    check_output: str = ""
    kept_work: bool = False
    kept_kernel: bool = False
    lang: str = "en"  # the class list's language for them (the second student's: Russian)
    first_page: str = ""  # where their server sends them (its default URL)
    locale: str = ""  # JupyterLab's interface language, as their server's settings give it


@dataclass
class Report:
    students: list[Student] = field(default_factory=list)
    restart_s: float = 0.0
    respawn_kept_edit: bool = False
    respawn_offered: str = ""
    total_s: float = 0.0
    leftover_processes: int = 0
    # as root: what the first student got from their kernel against the second and the hub
    # (tests.hub.attack), in the kernel and in a subprocess of it; None when not root
    attack: dict | None = None
    attack_subprocess: dict | None = None
    system_users: dict = field(default_factory=dict)  # hub name: {(system user, uid)} of its processes
    victim_kernel_transport: str = ""  # "ipc": the kernel's sockets are files in the other's runtime folder
    # the TCP ports the other's kernel still listens on: ipykernel's pipe for its forked children's
    # output (a PULL socket: nothing can be read from it, and it drops what lacks its random key)
    victim_kernel_tcp: list = field(default_factory=list)
    victim_kept_kernel: bool = False  # their kernel still answers after the attack
    users_removed: list = field(default_factory=list)
    users_left: list = field(default_factory=list)
    runtime_left: bool = False  # the students' runtime folders (/run/course-hub/<hash>/) still there
    # logins that must fail: the second student's name with the first's password, a name not in the
    # class, the right name with no password (each: the form's status, 302 when it let them in)
    refused_logins: dict = field(default_factory=dict)
    victim_kernel_info: dict = field(default_factory=dict)  # the second's kernel_info_reply
    victim_debug_reply: dict | None = None  # the second's answer to JupyterLab's debug "initialize"
    # as root, after `stop`: the processes still running as the class's users (a `setsid` left behind)
    left_after_stop: list = field(default_factory=list)
    setsid_started: bool = False  # a student's `setsid sleep` ran before the stop

    def summary(self) -> dict:
        def pct(values, q):
            values = sorted(values)
            return values[min(len(values) - 1, max(0, round(q / 100 * len(values) + 0.5) - 1))]

        spawn = [s.spawn_s for s in self.students]
        check = [s.check_s for s in self.students]
        rss = [(s.server_rss + s.kernel_rss) / 2**20 for s in self.students]
        pss = [s.pss / 2**20 for s in self.students]
        return {
            "students": len(self.students),
            "spawn_p50_s": round(statistics.median(spawn), 2),
            "spawn_p95_s": round(pct(spawn, 95), 2),
            "setup_cell_p95_s": round(pct([s.setup_s for s in self.students], 95), 2),
            "check_p50_s": round(statistics.median(check), 3),
            "check_p95_s": round(pct(check, 95), 3),
            "server_rss_mib_mean": round(statistics.mean(s.server_rss / 2**20 for s in self.students), 1),
            "kernel_rss_mib_mean": round(statistics.mean(s.kernel_rss / 2**20 for s in self.students), 1),
            "rss_per_student_mib_mean": round(statistics.mean(rss), 1),
            "rss_per_student_mib_max": round(max(rss), 1),
            "pss_per_student_mib_mean": round(statistics.mean(pss), 1),
            "cpu_s_per_student_mean": round(statistics.mean(s.cpu_s for s in self.students), 1),
            "hub_restart_s": round(self.restart_s, 2),
            "kept_work": sum(s.kept_work for s in self.students),
            "kept_kernel": sum(s.kept_kernel for s in self.students),
            "respawn_kept_edit": self.respawn_kept_edit,
            "total_s": round(self.total_s, 1),
            "leftover_processes": self.leftover_processes,
            "attacks_tried": None if self.attack is None else len(self.attack) + len(self.attack_subprocess),
            "attacks_not_denied": self.breaches(),
            "system_users_removed": len(self.users_removed),
        }

    def breaches(self) -> list[str]:
        """What the attacker got (anything not denied, any secret found in /proc); [] when isolated."""
        found = []
        for where, result in (("kernel", self.attack), ("subprocess", self.attack_subprocess)):
            for key, value in (result or {}).items():
                if isinstance(value, list):  # secrets found in /proc, debuggers that answered
                    found += [f"{where}: {key}: {item}" for item in value]
                elif key != "uid" and not str(value).startswith("denied "):
                    found.append(f"{where}: {key}: {value}")
        return found


def free_internal_port(low: int = 600, high: int = 1000) -> int:
    """As root: a port below 1024 whose next is free too (the hub's and the proxy's APIs)."""
    for port in range(low, high):
        try:
            for p in (port, port + 1):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
        except OSError:
            continue
        return port
    raise RuntimeError(f"no two free consecutive ports in [{low}, {high}) on 127.0.0.1")


def free_port() -> int:
    """A port whose next two are free too (the hub's three ports), on 127.0.0.1."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port > 65533:
            continue
        try:
            for p in (port, port + 1, port + 2):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
        except OSError:
            continue
        return port
    raise RuntimeError("no three free consecutive ports on 127.0.0.1")


# ----------------------------------------------------------------------------- one student


def _xsrf_headers(client: httpx.AsyncClient) -> dict:
    return {"X-XSRFToken": client.cookies.get("_xsrf", path="/hub/") or client.cookies.get("_xsrf") or ""}


async def post_login(client: httpx.AsyncClient, base: str, name: str, password: str) -> int:
    """Post the login form; its status (302: logged in)."""
    page = await client.get(f"{base}/hub/login")
    page.raise_for_status()
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page.text).group(1)
    reply = await client.post(
        f"{base}/hub/login",
        data={"username": name, "password": password, "_xsrf": xsrf},
        follow_redirects=False,
    )
    return reply.status_code


async def log_in(client: httpx.AsyncClient, base: str, name: str, password: str) -> str:
    """Log in through the form; a token of this student's from the hub's API."""
    status = await post_login(client, base, name, password)
    if status != 302:
        raise RuntimeError(f"{name}: login answered {status}")
    reply = await client.post(
        f"{base}/hub/api/users/{name}/tokens",
        json={"note": "load test", "expires_in": 3600},
        headers=_xsrf_headers(client),
    )
    reply.raise_for_status()
    return reply.json()["token"]


async def spawn(client: httpx.AsyncClient, base: str, name: str, auth: dict, seconds: float) -> float:
    """Ask the hub for the student's server; the seconds until the hub says it is ready."""
    start = time.monotonic()
    reply = await client.post(f"{base}/hub/api/users/{name}/server", headers=auth)
    if reply.status_code not in (201, 202):
        raise RuntimeError(f"{name}: spawn answered {reply.status_code}: {reply.text[:200]}")
    while True:
        model = (await client.get(f"{base}/hub/api/users/{name}", headers=auth)).json()
        server = model.get("servers", {}).get("")
        if server and server.get("ready"):
            return time.monotonic() - start
        if not server:
            raise RuntimeError(f"{name}: the server failed to start: {model}")
        if time.monotonic() - start > seconds:
            raise TimeoutError(f"{name}: the server was not ready within {seconds} s")
        await asyncio.sleep(0.25)


class Kernel:
    """A kernel's websocket, through the proxy, as JupyterLab opens it."""

    def __init__(self, conn, session: str):
        self.conn, self.session = conn, session

    @classmethod
    async def connect(cls, ws_url: str, auth: dict) -> "Kernel":
        session = uuid.uuid4().hex
        conn = await websocket_connect(HTTPRequest(f"{ws_url}?session_id={session}", headers=auth))
        return cls(conn, session)

    async def request(self, msg_type: str, content: dict, channel: str, seconds: float) -> dict:
        """Send a request (``kernel_info_request`` on shell, ``debug_request`` on control); its
        reply's content."""
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "username": "student", "session": self.session}
        header |= {"msg_type": msg_type, "version": "5.3", "date": ""}
        message = {"header": header, "parent_header": {}, "metadata": {}, "content": content}
        await self.conn.write_message(json.dumps(message | {"channel": channel, "buffers": []}))
        while True:
            raw = await asyncio.wait_for(self.conn.read_message(), seconds)
            if raw is None:
                raise ConnectionError("the kernel's websocket closed")
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") == msg_id and msg["header"]["msg_type"].endswith(
                "_reply"
            ):
                return msg["content"]

    async def execute(self, code: str, seconds: float) -> tuple[float, str]:
        """Run ``code``; its seconds (request to reply and idle) and its text outputs (error: raises)."""
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "username": "student", "session": self.session}
        header |= {"msg_type": "execute_request", "version": "5.3", "date": ""}
        content = {"code": code, "silent": False, "store_history": True, "user_expressions": {}}
        content |= {"allow_stdin": False, "stop_on_error": True}
        message = {"header": header, "parent_header": {}, "metadata": {}, "content": content}
        start = time.monotonic()
        await self.conn.write_message(json.dumps(message | {"channel": "shell", "buffers": []}))
        texts, replied, idle = [], False, False
        while not (replied and idle):
            raw = await asyncio.wait_for(self.conn.read_message(), seconds)
            if raw is None:
                raise ConnectionError("the kernel's websocket closed")
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, body = msg["header"]["msg_type"], msg["content"]
            if kind == "execute_reply":
                replied = True
                if body.get("status") != "ok":
                    raise RuntimeError(f"the cell failed: {body.get('ename')}: {body.get('evalue')}")
            elif kind == "status" and body.get("execution_state") == "idle":
                idle = True
            elif kind == "stream":
                texts.append(body["text"])
            elif kind in ("display_data", "execute_result"):
                data = body.get("data", {})
                texts.append(data.get("text/markdown") or data.get("text/plain") or "")
            elif kind == "error":
                raise RuntimeError(f"the cell failed: {body.get('ename')}: {body.get('evalue')}")
        return time.monotonic() - start, "".join(texts)

    def close(self):
        self.conn.close()


def lesson_cells(nb: dict) -> tuple[str, str]:
    """Lesson 0's setup cell (the first code cell) and its check cell (the first that calls a check)."""
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    source = [c["source"] if isinstance(c["source"], str) else "".join(c["source"]) for c in code]
    return source[0], next(s for s in source if re.search(r"exercises\.\w+\.check\(", s))


def memory(state_root: Path, name: str) -> tuple[int, int, int, float]:
    """RSS of the student's server, RSS of their kernels, PSS of both (bytes), and the CPU seconds
    both have used so far (starting, the workspace, importing torch, the check)."""
    server = kernel = pss = 0
    cpu = 0.0
    for proc in _processes(state_root):
        with contextlib.suppress(psutil.Error):
            if proc.environ().get("JUPYTERHUB_USER") != name:
                continue
            info = proc.memory_full_info()
            if _is_kernel(proc):
                kernel += info.rss
            else:
                server += info.rss
            pss += info.pss
            times = proc.cpu_times()
            cpu += times.user + times.system
    return server, kernel, pss, cpu


def _is_kernel(proc: psutil.Process) -> bool:
    """A kernel: the hub's (``course_tools.hub_kernel``, no debugger) or ipykernel's own launcher."""
    command = " ".join(proc.cmdline())
    return "course_tools.hub_kernel" in command or "ipykernel" in command


def _processes(state_root: Path) -> list[psutil.Process]:
    """Every process carrying this hub's state folder in its environment (the proxy, servers, kernels)."""
    found = []
    for proc in psutil.process_iter():
        with contextlib.suppress(psutil.Error):
            if proc.pid != os.getpid() and proc.environ().get(hub.STATE_ENV) == str(state_root):
                found.append(proc)
    return found


# ----------------------------------------------------------------------------- the class


async def _student_work(
    base: str, state_root: Path, student: Student, password: str, kernels: dict, seconds: float
):
    async with httpx.AsyncClient(timeout=seconds) as client:
        token = await log_in(client, base, student.name, password)
        auth = {"Authorization": f"token {token}"}
        student.spawn_s = await spawn(client, base, student.name, auth, seconds)
        # the student's language: where their server opens and the interface it is in
        reply = await client.get(f"{base}/user/{student.name}/", headers=auth)
        student.first_page = reply.headers.get("location", "").split("?", 1)[0]
        reply = await client.get(
            f"{base}/user/{student.name}/lab/api/settings/@jupyterlab/translation-extension:plugin",
            headers=auth,
        )
        reply.raise_for_status()
        student.locale = reply.json().get("settings", {}).get("locale", "")
        api = f"{base}/user/{student.name}/api"
        reply = await client.get(f"{api}/contents/{LESSON}", headers=auth)
        reply.raise_for_status()
        nb = reply.json()["content"]
        setup, check = lesson_cells(nb)
        reply = await client.post(
            f"{api}/sessions",
            headers=auth,
            json={"path": LESSON, "type": "notebook", "name": "", "kernel": {"name": "python3"}},
        )
        reply.raise_for_status()
        kernel_id = reply.json()["kernel"]["id"]
        ws = base.replace("http://", "ws://") + f"/user/{student.name}/api/kernels/{kernel_id}/channels"
        kernel = await Kernel.connect(ws, auth)
        student.setup_s, _ = await kernel.execute(setup, seconds)
        student.check_s, student.check_output = await kernel.execute(check, seconds)
        await kernel.execute(f"left_before_restart = {len(student.name)}", seconds)
        # the student's edit, saved as JupyterLab saves
        nb["cells"][0]["source"] = EDIT.format(name=student.name) + _text(nb["cells"][0]["source"])
        reply = await client.put(
            f"{api}/contents/{LESSON}",
            headers=auth,
            json={"type": "notebook", "format": "json", "content": nb},
        )
        reply.raise_for_status()
        student.server_rss, student.kernel_rss, student.pss, student.cpu_s = memory(state_root, student.name)
        kernels[student.name] = (kernel, auth, kernel_id)


def _text(source) -> str:
    return source if isinstance(source, str) else "".join(source)


async def _after_restart(
    base: str, student: Student, kernel: Kernel, auth: dict, kernel_id: str, seconds: float
):
    async with httpx.AsyncClient(timeout=seconds) as client:
        api = f"{base}/user/{student.name}/api"
        reply = await client.get(f"{api}/contents/{LESSON}", headers=auth)
        reply.raise_for_status()
        first = _text(reply.json()["content"]["cells"][0]["source"])
        student.kept_work = first.startswith(EDIT.format(name=student.name))
        running = await client.get(f"{api}/kernels/{kernel_id}", headers=auth)
        _, out = await kernel.execute("print(left_before_restart)", seconds)
        student.kept_kernel = running.status_code == 200 and out.strip() == str(len(student.name))


async def _respawn(base: str, student: Student, auth: dict, seconds: float) -> tuple[bool, str]:
    """Stop one student's server and start it again: their edit kept, the course's copy beside it."""
    async with httpx.AsyncClient(timeout=seconds) as client:
        reply = await client.delete(f"{base}/hub/api/users/{student.name}/server", headers=auth)
        if reply.status_code not in (202, 204):
            raise RuntimeError(f"{student.name}: stop answered {reply.status_code}")
        deadline = time.monotonic() + seconds
        while (await client.get(f"{base}/hub/api/users/{student.name}", headers=auth)).json()["servers"]:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{student.name}: the server did not stop within {seconds} s")
            await asyncio.sleep(0.25)
        await spawn(client, base, student.name, auth, seconds)
        api = f"{base}/user/{student.name}/api"
        reply = await client.get(f"{api}/contents/{LESSON}", headers=auth)
        kept = _text(reply.json()["content"]["cells"][0]["source"]).startswith(EDIT.format(name=student.name))
        listing = (await client.get(f"{api}/contents/en", headers=auth)).json()["content"]
        offered = sorted(item["name"] for item in listing if item["name"].startswith("00_start_here.new"))
        return kept, ",".join(offered)


def _start_hub(state: hub.State, log, class_list: Path | None = None) -> subprocess.Popen:
    """``make hub``: ``python -m course_tools.hub start`` (its checks of the ports, its class), in a
    process group of its own as a terminal's foreground job (Ctrl-C: :func:`_stop_hub`)."""
    command = [sys.executable, "-m", "course_tools.hub", "start", "--state", str(state.root)]
    command += ["--port", str(state.port)]
    if state.internal is not None:
        command += ["--internal-port", str(state.internal)]
    if class_list is not None:
        command += ["--class", str(class_list)]
    if os.geteuid() != 0:  # not root: the hub refuses unless one user for all is accepted
        command.append("--shared-user")
    return subprocess.Popen(
        command,
        cwd=hub.CONFIG.root,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )


async def _wait_hub(state: hub.State, proc: subprocess.Popen, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(timeout=5) as client:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the hub exited with {proc.returncode}: see its log")
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(f"{state.url}/hub/api")).status_code == 200:
                    return
            if time.monotonic() > deadline:
                raise TimeoutError(f"the hub did not answer within {seconds} s")
            await asyncio.sleep(0.2)


def _stop_hub(proc: subprocess.Popen, seconds: float = 30) -> None:
    """Ctrl-C on ``make hub``'s terminal: SIGINT to its process group (start and JupyterHub)."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(seconds)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def read_passwords(state: hub.State) -> dict[str, str]:
    """As root, as the instructor: the names and passwords ``make hub`` wrote (tab-separated)."""
    lines = state.passwords_file.read_text(encoding="utf-8").splitlines()
    return dict(line.split("\t", 1) for line in lines if line)


async def _class(state: hub.State, report: Report, n: int, seconds: float, log) -> None:
    # the second student Russian by the class list, the rest in the class's language (English)
    students = [Student(f"student{i:03d}", lang="ru" if i == 1 else "en") for i in range(n)]
    class_list = state.root.parent / "class.txt"
    class_list.write_text(
        "".join(f"{s.name} {s.lang}\n" if s.lang != "en" else f"{s.name}\n" for s in students),
        encoding="utf-8",
    )
    proc = _start_hub(state, log, class_list)
    try:
        await _wait_hub(state, proc, 120)
        passwords = read_passwords(state)
        kernels: dict = {}
        await asyncio.gather(
            *(_student_work(state.url, state.root, s, passwords[s.name], kernels, seconds) for s in students)
        )
        if n >= 2:
            first, second = students[0].name, students[1].name
            async with httpx.AsyncClient(timeout=seconds) as client:
                report.refused_logins = {
                    "another's name, one's own password": await post_login(
                        client, state.url, second, passwords[first]
                    ),
                    "a name not in the class": await post_login(
                        client, state.url, "intruder", passwords[first]
                    ),
                    "no password": await post_login(client, state.url, second, ""),
                }
        report.students = students
        # the hub restarts; the servers, kernels, proxy and open websockets stay
        start = time.monotonic()
        _stop_hub(proc)
        proc = _start_hub(state, log)  # no class list: the one kept from the first start
        await _wait_hub(state, proc, 120)
        report.restart_s = time.monotonic() - start
        await asyncio.gather(
            *(
                _after_restart(
                    state.url, s, kernels[s.name][0], kernels[s.name][1], kernels[s.name][2], seconds
                )
                for s in students
            )
        )
        if os.geteuid() == 0:
            await _attack(state, report, students, kernels, seconds)
        for kernel, _, _ in kernels.values():
            kernel.close()
        first = students[0]
        report.respawn_kept_edit, report.respawn_offered = await _respawn(
            state.url, first, kernels[first.name][1], seconds
        )
        # every server stopped through the hub, as an instructor would
        async with httpx.AsyncClient(timeout=seconds) as client:

            async def stop_server(s: Student):
                with contextlib.suppress(httpx.HTTPError):
                    await client.delete(
                        f"{state.url}/hub/api/users/{s.name}/server", headers=kernels[s.name][1]
                    )

            await asyncio.gather(*(stop_server(s) for s in students))
    finally:
        _stop_hub(proc)


def _cleanup(state: hub.State, report: Report) -> int:
    """End every process of this hub and remove the system users it made; how many processes were
    still there to end (0 when all stopped cleanly)."""
    hub.stop(state)
    if os.geteuid() == 0:  # what `stop` left of the students' own processes (setsid, nohup): nothing
        uids = {e.pw_uid for e in hub_users.our_users(state.homes)}
        report.left_after_stop = [p.pid for p in psutil.process_iter() if _uid(p) in uids]
    left = _processes(state.root)
    if os.geteuid() == 0:  # and whatever else runs as the students' users (a kernel's own children)
        uids = {e.pw_uid for e in hub_users.our_users(state.homes)}
        left += [p for p in psutil.process_iter() if _uid(p) in uids and p not in left]
    for proc in left:
        with contextlib.suppress(psutil.Error):
            proc.kill()
    psutil.wait_procs(left, timeout=10)
    if os.geteuid() == 0:
        report.users_removed = hub_users.remove_users(state.homes)
        report.users_left = [e.pw_name for e in hub_users.our_users(state.homes)]
        report.runtime_left = state.runtime.exists()
    return len(left)


def _uid(proc: psutil.Process) -> int | None:
    """The real uid of a running process; None when it is gone or a zombie (it has ended: killed
    and waiting for its parent to reap it: the container's init, or under `make test` the stage's reaper)."""
    with contextlib.suppress(psutil.Error):
        if proc.status() != psutil.STATUS_ZOMBIE:
            return proc.uids().real
    return None


# ----------------------------------------------------------------------------- as an attacker


def _targets(state: hub.State, base: str, victim: str, hub_pid: int) -> tuple[dict, dict]:
    """What the attacker tries against ``victim`` and the hub (tests.hub.attack), and what
    the test knows as root to check it: the victim's pids, token and kernel key, the ports."""
    home = state.homes / hub_users.system_user(victim)
    server = kernel = None
    for proc in _processes(state.root):
        with contextlib.suppress(psutil.Error):
            if proc.environ().get("JUPYTERHUB_USER") == victim:
                if _is_kernel(proc):
                    kernel = proc
                else:
                    server = server or proc
    cmdline = kernel.cmdline()
    connection_file = Path(cmdline[cmdline.index("-f") + 1])
    connection = json.loads(connection_file.read_text())
    ipc = [f"{connection['ip']}-{connection[k]}" for k in ("shell_port", "iopub_port", "control_port")]
    proxy_pid = int(state.proxy_pid_file.read_text())
    course = hub.CONFIG.root
    site = next(Path(sys.prefix, "lib").glob("python3*/site-packages"))
    targets = {
        "list": {
            "the other's home": str(home),
            "the other's lessons": str(home / "en"),
            "the other's runtime folder": str(connection_file.parent),
            "the hub's state folder": str(state.root),
            "the homes' folder": str(state.homes),
        },
        "read": {
            "the other's lesson": str(home / LESSON),
            "the other's kernel connection file": str(connection_file),
            "the cookie secret": str(state.root / "jupyterhub_cookie_secret"),
            "the proxy's token": str(state.root / "proxy-token"),
            "the hub's database": str(state.database),
            "the class's passwords": str(state.passwords_file),
            "the class's password hashes": str(state.class_file),
            "the proxy's log": str(state.root / "proxy.log"),
        },
        "append": {
            "the other's lesson": str(home / LESSON),
            "course_lib/__init__.py": str(course / "course_lib" / "__init__.py"),
            "course_tools/hub.py": str(course / "course_tools" / "hub.py"),
            "the Makefile": str(course / "Makefile"),
        },
        "create": {
            "the other's home": str(home),
            "the other's lessons": str(home / "en"),
            "the course": str(course),
            "the course's notebooks": str(course / "notebooks" / "en"),
            "the course's site-packages": str(site),
            "the hub's state folder": str(state.root),
            "the homes' folder": str(state.homes),
        },
        "connect": {f"the other's kernel socket {i}": path for i, path in enumerate(ipc)},
        "kill": {
            "the other's kernel": kernel.pid,
            "the other's server": server.pid,
            "the hub": hub_pid,
            "the proxy": proxy_pid,
        },
        "urls": {
            "the other's user model": f"{state.url}/hub/api/users/{victim}",
            "the other's lessons": f"{base}/user/{victim}/api/contents/en",
            "a token for the other": f"{state.url}/hub/api/users/{victim}/tokens",
        },
        "needles": {
            "the other's API token": server.environ()["JUPYTERHUB_API_TOKEN"],
            "the other's kernel key": connection["key"],
            "the cookie secret": (state.root / "jupyterhub_cookie_secret").read_text().strip(),
            "the proxy's token": (state.root / "proxy-token").read_text().strip(),
            "the other's password": read_passwords(state)[victim],
        },
    }
    known = {
        "kernel_pid": kernel.pid,
        "transport": connection["transport"],
        "tcp": sorted(c.laddr.port for c in kernel.net_connections("tcp") if c.status == psutil.CONN_LISTEN),
    }
    return targets, known


async def _attack(state: hub.State, report: Report, students: list, kernels: dict, seconds: float) -> None:
    """The first student, from their kernel, against the second and the hub; then the second's
    kernel must still hold its value (nothing of theirs was killed)."""
    attacker, victim = students[0].name, students[1].name
    for proc in _processes(state.root):
        with contextlib.suppress(psutil.Error):
            name = proc.environ().get("JUPYTERHUB_USER")
            if name is not None:  # a server or a kernel (the proxy has no user)
                report.system_users.setdefault(name, set()).add((proc.username(), proc.uids().real))
    victim_kernel = kernels[victim][0]
    # the victim as JupyterLab's debugger would: kernel_info, then "initialize" the debugger
    report.victim_kernel_info = await victim_kernel.request("kernel_info_request", {}, "shell", seconds)
    initialize = {"seq": 1, "type": "request", "command": "initialize"}
    initialize["arguments"] = {"clientID": "jupyterlab", "adapterID": "python", "pathFormat": "path"}
    with contextlib.suppress(asyncio.TimeoutError):
        report.victim_debug_reply = await victim_kernel.request("debug_request", initialize, "control", 20)
    # the victim leaves a file in each temporary folder; the attacker looks for them
    left = {folder: f"{folder}/left-by-{victim}-{uuid.uuid4().hex[:8]}" for folder in hub_users.PRIVATE_TMP}
    await victim_kernel.execute(
        "import os\n"
        f"for _path in {sorted(left.values())!r}:\n"
        "    if os.path.isdir(os.path.dirname(_path)):\n"
        "        open(_path, 'w').close()\n",
        seconds,
    )
    # a process the attacker leaves in a session of its own: `hub.stop` must end it too
    _, out = await kernels[attacker][0].execute(
        "import subprocess\n"
        "_p = subprocess.Popen(['setsid', 'sleep', '3600'], start_new_session=True)\n"
        "print(_p.pid)\n",
        seconds,
    )
    report.setsid_started = out.strip().isdigit()
    hub_pid = int((state.root / "jupyterhub.pid").read_text())
    targets, known = _targets(state, state.url, victim, hub_pid)
    targets["exists"] = {f"the other's file in {folder}": path for folder, path in left.items()}
    report.victim_kernel_transport, report.victim_kernel_tcp = known["transport"], known["tcp"]
    kernel = kernels[attacker][0]
    for in_subprocess in (False, True):
        code = attack.kernel_code(json.dumps(targets), in_subprocess)
        _, out = await kernel.execute(code, seconds)
        result = json.loads(out.strip().splitlines()[-1])
        if in_subprocess:
            report.attack_subprocess = result
        else:
            report.attack = result
    _, out = await kernels[victim][0].execute("print(left_before_restart)", seconds)
    report.victim_kept_kernel = out.strip() == str(len(victim))


def run(n: int, seconds: float = 900, keep_log: Path | None = None) -> Report:
    """Run the class of ``n`` students (at most ``MAX_STUDENTS``) within ``seconds``; the report."""
    if not isinstance(n, int) or not 1 <= n <= MAX_STUDENTS:
        raise ValueError(f"the number of students must be an int in [1, {MAX_STUDENTS}], got {n!r}")
    if not 10 <= seconds <= 3600:
        raise ValueError(f"the time limit must be in [10, 3600] seconds, got {seconds!r}")
    report = Report()
    # as root not in /tmp, /var/tmp: each server gets its own (hub_users.private_tmp), the homes not in it
    where = "/var/lib" if os.geteuid() == 0 and os.path.isdir("/var/lib") else None
    root = Path(tempfile.mkdtemp(prefix="course-hub-load-", dir=where))
    # as root the hub's and the proxy's APIs below 1024, as `make hub` puts them
    state = hub.State(root / "state", free_port(), free_internal_port() if os.geteuid() == 0 else None)
    state.prepare()
    if os.geteuid() == 0:  # as `make hub` checks before it starts: the students' users must reach the course
        reason = hub_users.check_expose(hub_users.reach_plan(hub.reach(state)))
        if reason is not None:
            shutil.rmtree(root)
            raise RuntimeError(
                f"the students' users cannot reach the course here (no mount namespace: {reason})"
            )
    start = time.monotonic()
    log_path = root / "hub.log"
    try:
        with open(log_path, "ab") as log:
            asyncio.run(asyncio.wait_for(_class(state, report, n, seconds, log), seconds))
    except BaseException:
        if log_path.is_file():
            sys.stderr.write(log_path.read_text(errors="replace")[-6000:])
        raise
    finally:
        report.total_s = time.monotonic() - start
        # what is left after the servers were stopped through the hub: 0 when every process ended
        report.leftover_processes = _cleanup(state, report)
        if keep_log is not None and log_path.is_file():
            shutil.copy(log_path, keep_log)
        shutil.rmtree(root, ignore_errors=True)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.hub.load",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=900, help="the whole run's time limit")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args(argv)
    report = run(args.students, args.seconds)
    summary = report.summary()
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(
            json.dumps(summary | {"per_student": [asdict(s) for s in report.students]}, indent=1)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
