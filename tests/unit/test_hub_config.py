"""The course's JupyterHub configuration (course_tools/hub.py), offline: what `make hub` promises."""

import json
import os
import sqlite3
import stat
import subprocess
import sys

import pytest
from traitlets.config import Config

from course_tools import hub, hub_load
from course_tools.config import CONFIG, LAB_OFFLINE_OPTIONS
from tests.support import ROOT


def configured(tmp_path, **environ):
    c = Config()
    hub.configure(c, {hub.STATE_ENV: str(tmp_path / "state"), hub.PORT_ENV: "18000", **environ})
    return c


def test_everything_the_hub_keeps_is_under_its_state_folder_and_on_loopback(tmp_path):
    c = configured(tmp_path)
    state = tmp_path / "state"
    assert c.JupyterHub.bind_url == "http://127.0.0.1:18000"
    assert c.JupyterHub.hub_bind_url == "http://127.0.0.1:18001"
    assert c.ConfigurableHTTPProxy.api_url == "http://127.0.0.1:18002"
    assert c.JupyterHub.db_url == f"sqlite:///{state / 'jupyterhub.sqlite'}"
    for path in (
        c.JupyterHub.cookie_secret_file,
        c.JupyterHub.pid_file,
        c.SimpleLocalProcessSpawner.home_dir_template,
    ):
        assert path.startswith(str(state) + os.sep), path
    # the secrets the configuration made: its owner's alone
    for name in ("proxy-token", "password"):
        assert stat.S_IMODE((state / name).stat().st_mode) == 0o600, name


def test_a_restart_keeps_the_servers_and_the_proxy(tmp_path):
    c = configured(tmp_path)
    assert c.JupyterHub.cleanup_servers is False and c.JupyterHub.cleanup_proxy is False
    assert c.ConfigurableHTTPProxy.should_start is False  # course_tools.hub.start_proxy starts it on its own
    assert c.ConfigurableHTTPProxy.auth_token == (tmp_path / "state" / "proxy-token").read_text().strip()


def test_each_server_makes_the_workspace_and_runs_jupyterlab_offline(tmp_path):
    c = configured(tmp_path)
    assert c.Spawner.cmd == [sys.executable, "-m", "course_tools.hub", "singleuser"]
    for option in LAB_OFFLINE_OPTIONS:
        assert option in c.Spawner.args
    assert ("--allow-root" in c.Spawner.args) == (os.geteuid() == 0)
    assert c.Spawner.default_url == "/lab"
    assert c.JupyterHub.spawner_class == "simple"
    assert c.Spawner.environment[hub.STATE_ENV] == str(tmp_path / "state")
    assert str(ROOT) in c.Spawner.environment["PYTHONPATH"].split(os.pathsep)


def test_the_trial_s_password_is_shared_and_kept(tmp_path):
    c = configured(tmp_path)
    assert c.JupyterHub.authenticator_class == "shared-password"
    first = c.SharedPasswordAuthenticator.user_password
    assert len(first) >= 8 and configured(tmp_path).SharedPasswordAuthenticator.user_password == first
    assert configured(tmp_path, COURSE_HUB_PASSWORD="a-class-pass").SharedPasswordAuthenticator.user_password


def test_bad_ports_passwords_and_class_sizes_are_refused(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match=r"port must be in \[1, 65533\].*got 65534"):
        hub.State(tmp_path, 65534)
    monkeypatch.setenv(hub.PASSWORD_ENV, "short")
    with pytest.raises(ValueError, match="COURSE_HUB_PASSWORD must be at least 8 characters, got 5"):
        hub.State(tmp_path).password()
    with pytest.raises(ValueError, match=r"number of students must be an int in \[1, 60\], got 0"):
        hub_load.run(0)
    with pytest.raises(ValueError, match=r"time limit must be in \[10, 3600\] seconds, got 5"):
        hub_load.run(2, 5)


def test_the_config_file_uses_the_course_s_configuration():
    text = hub.HUB_CONFIG.read_text(encoding="utf-8")
    assert "from course_tools.hub import configure" in text and "configure(get_config())" in text


def test_the_state_folder_is_ignored_by_git():
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert hub.DEFAULT_STATE == ROOT / "hub" / "state" and "/hub/state/" in ignored


def test_the_singleuser_command_makes_the_workspace_then_becomes_the_server(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(hub.os, "execv", lambda path, argv: calls.append(argv))
    monkeypatch.setattr(hub, "trust", lambda home: calls.append(["trust", home]))
    hub.singleuser(["--allow-root"])
    assert (tmp_path / "en" / "00_start_here.ipynb").is_file() and (tmp_path / "ru").is_dir()
    assert calls == [["trust", tmp_path], [sys.executable, "-m", "jupyterhub.singleuser", "--allow-root"]]


def test_the_lesson_s_setup_and_check_cells_are_found():
    nb = json.loads(CONFIG.notebook("00_start_here", "en").read_text(encoding="utf-8"))
    setup, check = hub_load.lesson_cells(nb)
    assert "import course_lib" in setup and "exercises.token_embedding.check(TokenEmbedding)" in check


def test_stop_ends_the_servers_the_database_records_and_nothing_else(tmp_path):
    state = hub.State(tmp_path / "state", 18000)
    state.root.mkdir()
    server = subprocess.Popen(["sleep", "60"], start_new_session=True)  # a server: its own session
    bystander = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        with sqlite3.connect(state.database) as db:
            db.execute("CREATE TABLE spawners (state TEXT)")
            db.executemany(
                "INSERT INTO spawners VALUES (?)", [(json.dumps({"pid": server.pid}),), ("{}",), (None,)]
            )
        assert hub.server_pids(state) == [server.pid]
        hub.stop(state)  # no hub and no proxy running: only the server to end
        assert server.wait(5) == -15 and bystander.poll() is None
    finally:
        for proc in (server, bystander):
            proc.kill()
            proc.wait()
