"""What one student tries against another and against the hub, from their own kernel.

The load test (:mod:`tests.hub.load`) sends :data:`SOURCE` to the attacker's kernel twice:
run in the kernel itself, and run by a ``python -c`` subprocess that the kernel starts (what an
audit hook in the kernel would never see). :func:`attack` tries each thing for real (lists, opens,
writes, ``os.kill``, the hub's API with the attacker's own token) and answers, for each, ``"denied"``
with the error's name or ``"ALLOWED"``; it also reads every ``/proc/<pid>/cmdline`` and
``/proc/<pid>/environ`` it can and names the secrets (``needles``) it found there.

Nothing here writes a byte: a write is tried as an open for appending (closed at once) or the
creation of a new empty file (removed at once where it succeeds, and reported).
"""

import inspect

__all__ = ["attack", "SOURCE", "kernel_code"]


def attack(targets: dict) -> dict:  # runs in the attacker's kernel: imports inside
    import errno
    import json
    import os
    import signal
    import socket
    import urllib.error
    import urllib.request

    found = {}

    def tried(key, action):
        try:
            action()
        except OSError as error:
            found[key] = "denied " + errno.errorcode.get(error.errno, str(error.errno))
            return
        found[key] = "ALLOWED"

    def read(path):
        with open(path, "rb") as f:
            f.read(1)

    def append(path):
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND))

    def create(folder):
        path = os.path.join(folder, "planted-by-another-student")
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        os.unlink(path)

    def connect(path):
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(path)

    for key, path in targets["list"].items():
        tried("list " + key, lambda p=path: os.listdir(p))
    for key, path in targets["read"].items():
        tried("read " + key, lambda p=path: read(p))
    for key, path in targets["append"].items():
        tried("append " + key, lambda p=path: append(p))
    for key, path in targets["create"].items():
        tried("create in " + key, lambda p=path: create(p))
    for key, path in targets["connect"].items():
        tried("connect " + key, lambda p=path: connect(p))
    for key, path in targets.get("exists", {}).items():
        tried("see " + key, lambda p=path: os.stat(p))
    for key, pid in targets["kill"].items():
        tried("kill " + key, lambda p=pid: os.kill(p, signal.SIGKILL))
        tried("environ of " + key, lambda p=pid: read(f"/proc/{p}/environ"))
        tried("fds of " + key, lambda p=pid: os.listdir(f"/proc/{p}/fd"))

    # the hub's API and the other's server, with the attacker's own token
    token = os.environ.get("JUPYTERHUB_API_TOKEN", "")
    for key, url in targets["urls"].items():
        request = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
        try:
            with urllib.request.urlopen(request, timeout=20) as reply:
                found["GET " + key] = f"ALLOWED {reply.status}"
        except urllib.error.HTTPError as error:
            found["GET " + key] = (
                f"denied {error.code}" if error.code in (401, 403, 404) else f"?{error.code}"
            )
        except OSError as error:
            found["GET " + key] = f"? {error}"

    # a debugger (debugpy) listening on any local TCP port: it would run the attacker's code in
    # the kernel it serves. Each listener is sent DAP's "initialize"; debugpy answers with a frame.
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 3 and fields[3] == "0A":  # LISTEN
                listening.add(int(fields[1].rsplit(":", 1)[1], 16))
    request = json.dumps({"seq": 1, "type": "request", "command": "initialize", "arguments": {}})
    frame = f"Content-Length: {len(request)}\r\n\r\n{request}".encode()
    debuggers = []
    for port in sorted(listening - set(targets.get("known_ports", []))):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.settimeout(1)
                s.sendall(frame)
                answer = s.recv(64)
        except OSError:
            continue
        if answer.startswith(b"Content-Length"):
            debuggers.append(port)
    found["debugpy listeners reachable"] = debuggers

    # every secret, anywhere in /proc that this user can read
    leaks = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            for part in ("cmdline", "environ"):
                try:
                    with open(f"/proc/{pid}/{part}", "rb") as f:
                        text = f.read().decode("utf-8", "replace")
                except OSError:
                    continue
                leaks += [
                    f"{name} in /proc/{pid}/{part}" for name, s in targets["needles"].items() if s in text
                ]
    found["secrets readable in /proc"] = leaks
    found["uid"] = os.getuid()
    return json.loads(json.dumps(found))


#: the module the kernel and its subprocess run: :func:`attack`, the targets as JSON on stdin
SOURCE = inspect.getsource(attack) + "\nimport json, sys\nprint(json.dumps(attack(json.load(sys.stdin))))\n"


def kernel_code(targets_json: str, subprocess_: bool) -> str:
    """A cell that runs :data:`SOURCE` in the kernel, or in a subprocess of it; it prints the JSON."""
    if subprocess_:
        return (
            "import subprocess, sys\n"
            f"_run = subprocess.run([sys.executable, '-c', {SOURCE!r}], input={targets_json!r}, "
            "capture_output=True, text=True, timeout=120)\n"
            "print(_run.stdout.strip().splitlines()[-1] if _run.stdout.strip() else _run.stderr[-2000:])\n"
        )
    return (
        "import io, sys, contextlib\n"
        f"_stdin = io.StringIO({targets_json!r})\n"
        "with contextlib.redirect_stdout(io.StringIO()) as _out:\n"
        "    _old, sys.stdin = sys.stdin, _stdin\n"
        "    try:\n"
        f"        exec(compile({SOURCE!r}, 'attack', 'exec'), {{}})\n"
        "    finally:\n"
        "        sys.stdin = _old\n"
        "print(_out.getvalue().strip())\n"
    )
