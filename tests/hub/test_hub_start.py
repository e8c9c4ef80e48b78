"""`make hub` fails loudly: exit 1 and the reason on the terminal when a port is taken, when the proxy
does not start and when JupyterHub does not start (course_tools/classroom/hub.py's `start`), never "running"."""

import os
import socket
import subprocess
import sys

import pytest

from course_tools.classroom import hub
from tests.hub import load as hub_load
from tests.support import ROOT

pytestmark = pytest.mark.hub


def hold(port: int) -> socket.socket:
    """Another program on ``port`` (127.0.0.1), listening."""
    s = socket.socket()
    s.bind(("127.0.0.1", port))
    s.listen()
    return s


ROOT_USER = os.geteuid() == 0


def internal_port() -> int | None:
    """As root the hub's and the proxy's APIs below 1024, as `make hub` puts them."""
    return hub_load.free_internal_port() if ROOT_USER else None


def start_cli(state, port: int, internal: int | None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "course_tools.hub", "start", "--state", str(state), "--port", str(port)]
    command += ["--shared-password"] if ROOT_USER else ["--shared-password", "--shared-user"]
    command += [] if internal is None else ["--internal-port", str(internal)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, input="")


@pytest.mark.parametrize("offset", [0, 1, 2])
def test_a_port_another_program_holds_stops_make_hub_with_its_reason(tmp_path, offset):
    state = hub.State(tmp_path / "state", hub_load.free_port(), internal_port())
    busy = [state.port, state.hub_port, state.proxy_api_port][offset]
    with hold(busy):
        done = start_cli(state.root, state.port, state.internal)
    assert done.returncode == 1, done
    assert f"127.0.0.1:{busy} is already in use" in done.stderr, done.stderr
    assert "JupyterHub: http" not in done.stdout  # never reported running
    assert state.proxy_pid_file.read_text() == ""  # no proxy left


def test_a_proxy_that_exits_stops_make_hub_with_the_end_of_its_log(tmp_path, monkeypatch):
    # the port taken after the check (a race, or an address the check cannot see): the proxy exits
    monkeypatch.setattr(hub, "check_ports", lambda state, proxy=True: None)
    state = hub.State(tmp_path / "state", hub_load.free_port(), internal_port())
    with hold(state.port), pytest.raises(hub.HubError) as error:
        hub.start_proxy(state)
    message = str(error.value)
    assert (
        f"the proxy (configurable-http-proxy) did not start: it could not take 127.0.0.1:{state.port}"
        in message
    )
    assert "EADDRINUSE" in message  # the end of STATE/proxy.log, on the terminal
    assert hub._running_proxy(state) is None


def test_a_hub_that_exits_stops_make_hub_and_is_never_reported_running(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(hub, "check_ports", lambda state, proxy=True: None)
    state = hub.State(tmp_path / "state", hub_load.free_port(), internal_port())
    try:
        with hold(state.hub_port), pytest.raises(hub.HubError, match="JupyterHub did not start: it exited"):
            hub.start(state, shared_user=True, shared_password=True)
        assert "JupyterHub: http" not in capsys.readouterr().out
    finally:
        hub.stop(state)
    assert hub._running_proxy(state) is None
