"""A class logs in to the course's JupyterHub at once, works, and the hub restarts under it.

    python -m course_tools.hub_load --students 20 [--seconds 900] [--json FILE]

Everything on 127.0.0.1, in a temporary state folder, on free ports: the real hub of ``make hub``
(:mod:`course_tools.hub`: configurable-http-proxy on its own, JupyterHub, each student's server
through ``course_tools.hub singleuser``). Each simulated student, all at once:

1. logs in through the hub's login form (the shared password), asks the hub's API for a token;
2. has their server spawned (the spawn time: from the request to the hub's ``ready``);
3. opens lesson 0 through the server's contents API (their home has it: the workspace was made at
   the server's start), starts a kernel on it (a session, as JupyterLab does), and over the
   kernel's websocket runs the lesson's setup cell and then its check cell (the check latency);
4. saves an edit to the lesson, and leaves a value in the kernel.

Then the hub is stopped and started again, with the servers and the proxy left running. Each
student's edit must still be there, and over the very websocket opened before the restart their
kernel must still hold the value. Last, one student's server is stopped and started again through
the hub: the workspace update at the start must keep their edited lesson as it is and put the
course's version beside it. The memory of each student (the RSS and PSS of their server and kernel)
is read after the check.

The run stops by itself (``--seconds``, everything included) and always ends every process it
started: the servers through the hub, then whatever still carries its state folder in its
environment, the hub and the proxy. It prints, and returns, the numbers.
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

from . import hub

__all__ = ["Student", "Report", "free_port", "run", "main"]

LESSON = "en/00_start_here.ipynb"
PASSWORD = "load-test-password"
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


@dataclass
class Report:
    students: list[Student] = field(default_factory=list)
    restart_s: float = 0.0
    respawn_kept_edit: bool = False
    respawn_offered: str = ""
    total_s: float = 0.0
    leftover_processes: int = 0

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
        }


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


async def log_in(client: httpx.AsyncClient, base: str, name: str) -> str:
    """Log in through the form; a token of this student's from the hub's API."""
    page = await client.get(f"{base}/hub/login")
    page.raise_for_status()
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page.text).group(1)
    reply = await client.post(
        f"{base}/hub/login",
        data={"username": name, "password": PASSWORD, "_xsrf": xsrf},
        follow_redirects=False,
    )
    if reply.status_code != 302:
        raise RuntimeError(f"{name}: login answered {reply.status_code}")
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
            if "ipykernel" in " ".join(proc.cmdline()):
                kernel += info.rss
            else:
                server += info.rss
            pss += info.pss
            times = proc.cpu_times()
            cpu += times.user + times.system
    return server, kernel, pss, cpu


def _processes(state_root: Path) -> list[psutil.Process]:
    """Every process carrying this hub's state folder in its environment (the proxy, servers, kernels)."""
    found = []
    for proc in psutil.process_iter():
        with contextlib.suppress(psutil.Error):
            if proc.pid != os.getpid() and proc.environ().get(hub.STATE_ENV) == str(state_root):
                found.append(proc)
    return found


# ----------------------------------------------------------------------------- the class


async def _student_work(base: str, state_root: Path, student: Student, kernels: dict, seconds: float):
    async with httpx.AsyncClient(timeout=seconds) as client:
        token = await log_in(client, base, student.name)
        auth = {"Authorization": f"token {token}"}
        student.spawn_s = await spawn(client, base, student.name, auth, seconds)
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


def _start_hub(state: hub.State, log) -> subprocess.Popen:
    env = hub.hub_environment(state) | {hub.PASSWORD_ENV: PASSWORD}
    return subprocess.Popen(
        hub.hub_command(state),
        env=env,
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
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(seconds)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def _class(state: hub.State, report: Report, n: int, seconds: float, log) -> None:
    proc = _start_hub(state, log)
    try:
        await _wait_hub(state, proc, 120)
        students = [Student(f"student{i:03d}") for i in range(n)]
        kernels: dict = {}
        await asyncio.gather(*(_student_work(state.url, state.root, s, kernels, seconds) for s in students))
        report.students = students
        # the hub restarts; the servers, kernels, proxy and open websockets stay
        start = time.monotonic()
        _stop_hub(proc)
        proc = _start_hub(state, log)
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


def _cleanup(state: hub.State) -> int:
    """End every process of this hub; how many were still there to end (0 when all stopped cleanly)."""
    hub.stop(state)
    left = _processes(state.root)
    for proc in left:
        with contextlib.suppress(psutil.Error):
            proc.kill()
    psutil.wait_procs(left, timeout=10)
    return len(left)


def run(n: int, seconds: float = 900, keep_log: Path | None = None) -> Report:
    """Run the class of ``n`` students (at most ``MAX_STUDENTS``) within ``seconds``; the report."""
    if not isinstance(n, int) or not 1 <= n <= MAX_STUDENTS:
        raise ValueError(f"the number of students must be an int in [1, {MAX_STUDENTS}], got {n!r}")
    if not 10 <= seconds <= 3600:
        raise ValueError(f"the time limit must be in [10, 3600] seconds, got {seconds!r}")
    report = Report()
    root = Path(tempfile.mkdtemp(prefix="course-hub-load-"))
    state = hub.State(root / "state", free_port())
    start = time.monotonic()
    log_path = root / "hub.log"
    try:
        with open(log_path, "ab") as log:
            hub.start_proxy(state)
            asyncio.run(asyncio.wait_for(_class(state, report, n, seconds, log), seconds))
    except BaseException:
        if log_path.is_file():
            sys.stderr.write(log_path.read_text(errors="replace")[-6000:])
        raise
    finally:
        report.total_s = time.monotonic() - start
        # what is left after the servers were stopped through the hub: 0 when every process ended
        report.leftover_processes = _cleanup(state)
        if keep_log is not None and log_path.is_file():
            shutil.copy(log_path, keep_log)
        shutil.rmtree(root, ignore_errors=True)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_tools.hub_load",
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
