"""The course's JupyterHub configuration (course_tools/classroom/hub.py), offline: what `make hub` promises."""

import errno
import json
import os
import pwd
import re
import socket
import sqlite3
import stat
import subprocess
import sys
import time

import psutil
import pytest
from traitlets.config import Config

from course_tools.classroom import hub, hub_users
from course_tools.classroom import server as student_server
from course_tools.core.config import CONFIG, LAB_OFFLINE_OPTIONS
from course_tools.hub import main as hub_main
from tests.hub import load as hub_load
from tests.support import ROOT


def configured(tmp_path, **environ):
    """The configuration as the hub reads it: as root (one user per student) when the tests run
    as root, else with the instructor's consent to one user for all (``make hub HUB_SHARED_USER=1``)."""
    c = Config()
    consent = {} if os.geteuid() == 0 else {hub.SHARED_ENV: "1"}
    state = hub.State(tmp_path / "state", 18000)
    if environ.get(hub.AUTH_ENV, "class") == "class" and not state.class_file.exists():
        hub.enroll(state, ["ada", "boris"])
    hub.configure(c, {hub.STATE_ENV: str(tmp_path / "state"), hub.PORT_ENV: "18000", **consent, **environ})
    return c


def test_everything_the_hub_keeps_is_under_its_state_folder_and_on_loopback(tmp_path):
    c = configured(tmp_path)
    state = tmp_path / "state"
    assert c.JupyterHub.bind_url == "http://127.0.0.1:18000"
    assert c.JupyterHub.hub_bind_url == "http://127.0.0.1:18001"
    assert c.ConfigurableHTTPProxy.api_url == "http://127.0.0.1:18002"
    assert c.JupyterHub.db_url == f"sqlite:///{state / 'jupyterhub.sqlite'}"
    homes = c.CourseSpawner.homes if os.geteuid() == 0 else c.SimpleLocalProcessSpawner.home_dir_template
    for path in (c.JupyterHub.cookie_secret_file, c.JupyterHub.pid_file, homes):
        assert path.startswith(str(state) + os.sep), path
    # the state folder and the homes' folder crossed, never listed, by others; every file the hub
    # keeps there its alone, the secrets the configuration made included
    assert stat.S_IMODE(state.stat().st_mode) == stat.S_IMODE((state / "homes").stat().st_mode) == 0o711
    names = ("proxy-token", "class.json", "passwords.txt", "jupyterhub.sqlite", "jupyterhub.pid", "proxy.pid")
    for name in (*names, "proxy.log"):
        assert stat.S_IMODE((state / name).stat().st_mode) == 0o600, name
    (state / "jupyterhub_cookie_secret").write_text("made by an older hub\n")
    os.chmod(state, 0o755)
    configured(tmp_path)  # put right at every start
    assert stat.S_IMODE(state.stat().st_mode) == 0o711
    assert stat.S_IMODE((state / "jupyterhub_cookie_secret").stat().st_mode) == 0o600


def test_as_root_each_student_is_a_system_user_of_their_own(tmp_path, monkeypatch):
    monkeypatch.setattr(hub.os, "geteuid", lambda: 0)
    c = configured(tmp_path)
    state = hub.State(tmp_path / "state", 18000)
    assert c.JupyterHub.spawner_class == "course_tools.classroom.hub_users.CourseSpawner"
    assert c.CourseSpawner.homes == str(state.homes)
    assert c.CourseSpawner.reach == [sys.base_prefix, sys.prefix, str(ROOT), str(state.homes)]
    assert c.CourseSpawner.runtime == str(state.runtime) and len(str(state.runtime)) < 40
    assert "--allow-root" not in c.Spawner.args  # the server itself refuses root too
    assert "--KernelManager.transport=ipc" in c.Spawner.args


def test_not_root_the_hub_refuses_unless_one_user_for_all_is_accepted(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(hub.os, "geteuid", lambda: 1000)
    monkeypatch.delenv(hub.SHARED_ENV, raising=False)
    with pytest.raises(hub.HubError, match="cannot give each student a system user of their own"):
        hub.configure(Config(), {hub.STATE_ENV: str(tmp_path / "state"), hub.PORT_ENV: "18000"})
    # `make hub` says so on the terminal and exits 1, before anything starts
    assert hub_main(["start", "--state", str(tmp_path / "state"), "--port", "18000"]) == 1
    said = capsys.readouterr().err
    assert "HUB_SHARED_USER=1" in said and "read, change or delete every other student's work" in said
    assert not (tmp_path / "state").exists()  # nothing made, nothing started
    c = configured(tmp_path, **{hub.SHARED_ENV: "1"})
    assert c.JupyterHub.spawner_class == "simple"
    assert c.SimpleLocalProcessSpawner.home_dir_template == str(tmp_path / "state" / "homes" / "{username}")
    assert "--allow-root" not in c.Spawner.args


def test_the_hub_s_terminal_messages_follow_course_lang(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(hub.os, "geteuid", lambda: 1000)
    monkeypatch.setenv(hub.LANG_ENV, "ru")
    assert hub_main(["start", "--state", str(tmp_path / "state"), "--port", "18000"]) == 1
    assert "Хаб запущен не от root" in capsys.readouterr().err


def test_a_restart_keeps_the_servers_and_the_proxy(tmp_path):
    c = configured(tmp_path)
    assert c.JupyterHub.cleanup_servers is False and c.JupyterHub.cleanup_proxy is False
    # course_tools.classroom.hub.start_proxy starts it on its own
    assert c.ConfigurableHTTPProxy.should_start is False
    assert c.ConfigurableHTTPProxy.auth_token == (tmp_path / "state" / "proxy-token").read_text().strip()


def test_each_server_makes_the_workspace_and_runs_jupyterlab_offline(tmp_path):
    c = configured(tmp_path)
    assert c.Spawner.cmd == [sys.executable, "-m", "course_tools.hub", "singleuser"]
    for option in LAB_OFFLINE_OPTIONS:
        assert option in c.Spawner.args
    assert "--allow-root" not in c.Spawner.args
    assert c.Spawner.default_url == "/lab/tree/en/00_start_here.ipynb"
    assert c.Spawner.environment[hub.STATE_ENV] == str(tmp_path / "state")
    assert str(ROOT) in c.Spawner.environment["PYTHONPATH"].split(os.pathsep)


def test_the_trial_s_password_is_shared_and_kept_only_when_asked_for(tmp_path):
    shared = {hub.AUTH_ENV: "shared"}
    c = configured(tmp_path, **shared)
    assert c.JupyterHub.authenticator_class == "shared-password"
    first = c.SharedPasswordAuthenticator.user_password
    assert (
        len(first) >= 8 and configured(tmp_path, **shared).SharedPasswordAuthenticator.user_password == first
    )
    assert configured(
        tmp_path, COURSE_HUB_PASSWORD="a-class-pass", **shared
    ).SharedPasswordAuthenticator.user_password


def test_by_default_only_the_class_s_names_log_in_each_with_their_own_password(tmp_path):
    c = configured(tmp_path)
    assert c.JupyterHub.authenticator_class == "course_tools.classroom.hub_users.ClassAuthenticator"
    assert c.Authenticator.allowed_users == {"ada", "boris"} and c.Authenticator.allow_all is False
    assert c.ClassAuthenticator.class_file == str(tmp_path / "state" / "class.json")
    # no class given, now or before: the hub refuses to configure itself, naming the way out
    with pytest.raises(hub.HubError, match="no class list.*CLASS=students.txt"):
        hub.configure(
            Config(), {hub.STATE_ENV: str(tmp_path / "other"), hub.PORT_ENV: "18000", hub.SHARED_ENV: "1"}
        )


def test_the_class_list_gives_each_name_a_password_kept_only_as_a_salted_hash(tmp_path):
    listing = tmp_path / "students.txt"
    listing.write_text("# group 1\nada\n\nboris  # late\n", encoding="utf-8")
    assert hub.read_class(listing) == ["ada", "boris"]
    state = hub.State(tmp_path / "state", 18000)
    new = hub.enroll(state, hub.read_class(listing))
    assert sorted(new) == ["ada", "boris"] and new["ada"] != new["boris"] and len(new["ada"]) >= 12
    for path in (state.class_file, state.passwords_file):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    hashes = json.loads(state.class_file.read_text())
    assert new["ada"] not in state.class_file.read_text()  # only the hash is kept
    assert hub_users.check_password(new["ada"], hashes["ada"]) and not hub_users.check_password(
        new["boris"], hashes["ada"]
    )
    assert hashes["ada"].startswith("scrypt$") and hashes["ada"] != hub_users.hash_password(
        new["ada"]
    )  # salted
    assert state.passwords_file.read_text() == f"ada\t{new['ada']}\nboris\t{new['boris']}\n"
    # a later start: a new name gets a password, nobody else's changes, a name no longer listed is out
    later = hub.enroll(state, ["boris", "clara"])
    assert list(later) == ["clara"]
    kept = json.loads(state.class_file.read_text())
    assert set(kept) == {"boris", "clara"} and kept["boris"] == hashes["boris"]
    assert state.passwords_file.read_text().endswith(f"clara\t{later['clara']}\n")
    for text, reason in [
        ("ada\nAda Lovelace\n", r"students.txt:2: 'Ada Lovelace' is not a user name"),
        ("ada\nboris ru fr\n", r"students.txt:2: 'boris ru fr' is not a user name"),
        ("ada\nboris fr\n", r"students.txt:2: 'fr' is not one of the course's languages \(en, ru\)"),
        ("ada\nada\n", r"students.txt:2: 'ada' is in the class list twice"),
        ("# nobody\n", r"has no names"),
    ]:
        listing.write_text(text, encoding="utf-8")
        with pytest.raises(ValueError, match=reason):
            hub.read_class(listing)


def test_the_class_s_authenticator_accepts_a_name_with_its_own_password_and_nothing_else(tmp_path):
    pytest.importorskip("jupyterhub")
    import asyncio

    state = hub.State(tmp_path / "state", 18000)
    new = hub.enroll(state, ["ada", "boris"])
    auth = hub_users.authenticator_class()(class_file=str(state.class_file))

    def login(name, password):
        return asyncio.run(auth.authenticate(None, {"username": name, "password": password}))

    assert login("ada", new["ada"]) == "ada" and login("boris", new["boris"]) == "boris"
    assert login("ada", new["boris"]) is None  # another student's password
    assert login("intruder", new["ada"]) is None  # a name not in the class: no login, no system user
    assert login("ada", "") is None and login("ada", new["ada"] + "x") is None


def test_without_a_class_list_make_hub_refuses_unless_the_shared_password_is_asked_for(tmp_path, capsys):
    argv = ["start", "--state", str(tmp_path / "state"), "--port", "18000", "--shared-user"]
    argv += ["--internal-port", "701"] if os.geteuid() == 0 else []
    assert hub_main(argv) == 1
    said = capsys.readouterr().err
    assert "no class list" in said and "HUB_SHARED_PASSWORD=1" in said
    assert hub_main([*argv, "--class", str(tmp_path / "missing.txt")]) == 1
    assert f"cannot read the class list {str(tmp_path / 'missing.txt')!r}" in capsys.readouterr().err
    assert hub_main([*argv, "--class", str(tmp_path / "x.txt"), "--shared-password"]) == 1
    assert "cannot both be given" in capsys.readouterr().err


def test_bad_ports_passwords_and_class_sizes_are_refused(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match=r"port must be in \[1, 65533\].*got 65534"):
        hub.State(tmp_path, 65534)
    with pytest.raises(ValueError, match=r"internal port must be.*apart from the public port 8000, got 7999"):
        hub.State(tmp_path, 8000, 7999)
    monkeypatch.setenv(hub.PASSWORD_ENV, "short")
    with pytest.raises(ValueError, match="COURSE_HUB_PASSWORD must be at least 8 characters, got 5"):
        hub.State(tmp_path).password()
    with pytest.raises(ValueError, match=r"number of students must be an int in \[1, 60\], got 0"):
        hub_load.run(0)
    with pytest.raises(ValueError, match=r"time limit must be in \[10, 3600\] seconds, got 5"):
        hub_load.run(2, 5)


def test_the_config_file_uses_the_course_s_configuration():
    text = hub.HUB_CONFIG.read_text(encoding="utf-8")
    assert "from course_tools.classroom.hub import configure" in text and "configure(get_config())" in text


def test_the_state_folder_is_ignored_by_git():
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert hub.DEFAULT_STATE == ROOT / "hub" / "state" and "/hub/state/" in ignored


def test_the_singleuser_command_makes_the_workspace_then_becomes_the_server(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(hub.os, "execv", lambda path, argv: calls.append(argv))
    monkeypatch.setattr(student_server, "trust", lambda home: calls.append(["trust", home]))
    student_server.singleuser(["--allow-root"])
    assert (tmp_path / "en" / "00_start_here.ipynb").is_file() and (tmp_path / "ru").is_dir()
    assert calls == [["trust", tmp_path], [sys.executable, "-m", "jupyterhub.singleuser", "--allow-root"]]


def test_each_student_s_language_comes_from_the_class_list_or_the_class(tmp_path, monkeypatch):
    """``ada ru`` in the class list, ``start --lang`` for the rest: each server is started in its student's
    language (COURSE_LANG) and opens lesson 0 in it; a hub with no languages kept uses COURSE_LANG."""
    listing = tmp_path / "students.txt"
    listing.write_text("ada ru  # from Novosibirsk\nboris\n", encoding="utf-8")
    assert hub.read_class(listing) == ["ada", "boris"]
    assert hub.read_class_languages(listing) == {"ada": "ru"}
    c = configured(tmp_path, **{hub.LANG_ENV: "ru"})
    state = hub.State(tmp_path / "state", 18000)

    class Spawner:  # what the hook reads and sets of JupyterHub's spawner
        def __init__(self, name):
            self.user = type("User", (), {"name": name})()
            self.environment = dict(c.Spawner.environment)
            self.default_url = c.Spawner.default_url

    def spawned(name):
        spawner = Spawner(name)
        c.Spawner.pre_spawn_hook(spawner)
        return spawner.environment[hub.LANG_ENV], spawner.default_url

    assert spawned("boris") == ("ru", "/lab/tree/ru/00_start_here.ipynb")  # no languages kept: COURSE_LANG
    hub.write_languages(state, hub.read_class_languages(listing), "en")
    assert stat.S_IMODE(state.languages_file.stat().st_mode) == 0o600
    assert spawned("ada") == ("ru", "/lab/tree/ru/00_start_here.ipynb")
    assert spawned("boris") == ("en", "/lab/tree/en/00_start_here.ipynb")
    with pytest.raises(ValueError, match="languages must be among"):
        hub.write_languages(state, {"ada": "fr"}, "en")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_student_s_interface_is_set_at_their_first_start_and_their_choice_kept(
    tmp_path, monkeypatch, lang
):
    from course_tools.classroom import workspace

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv(hub.LANG_ENV, lang)
    monkeypatch.delenv("JUPYTERLAB_SETTINGS_DIR", raising=False)
    monkeypatch.setattr(hub.os, "execv", lambda path, argv: None)
    monkeypatch.setattr(student_server, "trust", lambda home: None)
    student_server.singleuser([])
    setting = tmp_path / ".jupyter" / "lab" / "user-settings" / workspace.LAB_LOCALE_FILE
    assert json.loads(setting.read_text()) == {"locale": workspace.LAB_LOCALES[lang]}
    setting.write_text('{"locale": "en"}')  # the student's own choice, Settings › Language
    student_server.singleuser([])
    assert json.loads(setting.read_text()) == {"locale": "en"}


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


# ----------------------------------------------------------------------------- one user per student


def test_each_hub_name_has_one_system_user_and_no_two_names_share_one():
    assert hub_users.system_user("student000") == "jupyter-student000"
    assert hub_users.system_user("a-b-c") == "jupyter-a-b-c"
    odd = ["Ivan", "иван", "a.b", "x" * 25, "a--b", "-a", "a_b", "root:0"]
    users = [hub_users.system_user(name) for name in odd]
    for name, user in zip(odd, users, strict=True):
        # what useradd accepts, within 32 characters; a changed name carries its hash after "_"
        assert re.fullmatch(r"jupyter-[a-z0-9-]*_[0-9a-f]{8}", user) and len(user) <= 32, (name, user)
    assert len(set(users)) == len(odd)
    # a name kept as it is never has "_": nobody can log in as another student's mapped name
    assert hub_users.system_user(users[0].removeprefix("jupyter-")) != users[0]
    for bad in ("", None, 3):
        with pytest.raises(ValueError, match=f"non-empty str, got {re.escape(repr(bad))}"):
            hub_users.system_user(bad)


def fake_user(name, uid=4242, gecos=hub_users.MARK, home="/nowhere"):
    return pwd.struct_passwd((name, "x", uid, uid, gecos, home, "/bin/bash"))


def test_a_system_user_the_hub_did_not_make_or_root_is_never_taken(tmp_path, monkeypatch):
    homes = tmp_path / "homes"
    home = str(homes / "jupyter-eve")
    for entry, reason in [
        (fake_user("jupyter-eve", gecos="Eve's own account", home=home), "exists and is not this hub's"),
        (fake_user("jupyter-eve", home="/home/jupyter-eve"), "exists and is not this hub's"),  # another hub
        (fake_user("jupyter-eve", uid=0, home=home), "uid or gid is 0"),
    ]:
        monkeypatch.setattr(hub_users.pwd, "getpwnam", lambda name, e=entry: e)
        with pytest.raises(PermissionError, match=reason):
            hub_users.ensure_user("eve", homes)
    assert not homes.exists()


def test_the_way_to_the_course_is_opened_only_where_others_cannot_cross(tmp_path):
    (tmp_path / "closed" / "open" / "inner").mkdir(parents=True)
    (tmp_path / "closed" / "other").mkdir()
    os.chmod(tmp_path, 0o755)
    os.chmod(tmp_path / "closed", 0o700)
    plan = hub_users.reach_plan([tmp_path / "closed" / "open" / "inner", tmp_path / "closed" / "open"])
    assert [(f, c) for f, c in plan if f.startswith(str(tmp_path))] == [(str(tmp_path / "closed"), ["open"])]
    assert hub_users.reach_plan(["/usr/bin", "/"]) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="a mount namespace and another user need root")
def test_a_student_reaches_the_course_and_its_python_and_nothing_else_of_a_closed_folder(tmp_path):
    closed = tmp_path / "closed"
    (closed / "open").mkdir(parents=True)
    (closed / "open" / "lesson.txt").write_text("the course\n")
    (closed / "secret.txt").write_text("root's\n")
    os.chmod(closed, 0o700)
    plan = hub_users.reach_plan([sys.base_prefix, sys.prefix, ROOT, closed / "open"])
    nobody = pwd.getpwnam("nobody")

    def become_nobody():
        hub_users.expose(plan)
        os.setgroups([])
        os.setgid(nobody.pw_gid)
        os.setuid(nobody.pw_uid)

    code = (
        "import os, course_lib\n"
        f"print(open({str(closed / 'open' / 'lesson.txt')!r}).read().strip())\n"
        f"for path in ({str(closed / 'secret.txt')!r}, {str(closed)!r}):\n"
        "    try:\n"
        "        open(path).read() if path.endswith('.txt') else os.listdir(path)\n"
        "        print('ALLOWED', path)\n"
        "    except OSError as e:\n"
        "        print('denied', e.errno)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], preexec_fn=become_nobody, capture_output=True, text=True, cwd="/"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == ["the course", "denied 2", "denied 13"], done.stdout
    assert hub_users.check_expose(plan) is None


def test_without_mount_namespaces_a_closed_folder_stops_make_hub_naming_it(tmp_path, monkeypatch, capsys):
    closed = tmp_path / "closed"
    (closed / "course").mkdir(parents=True)
    os.chmod(closed, 0o700)
    monkeypatch.setattr(hub.os, "geteuid", lambda: 0)
    monkeypatch.setattr(hub, "reach", lambda state: [str(closed / "course")])
    monkeypatch.setattr(hub_users, "check_expose", lambda plan: "exit 1")
    monkeypatch.setattr(hub.shutil, "which", lambda name: f"/usr/sbin/{name}")
    assert (
        hub_main(["start", "--state", str(tmp_path / "state"), "--port", "18000", "--shared-password"]) == 1
    )
    said = capsys.readouterr().err
    first = hub_users.reach_plan([closed / "course"])[0][0]  # pytest's own folder may be closed already
    assert f"students could not reach {closed / 'course'}: {first} is closed to other users" in said, said
    assert (tmp_path / "state" / "proxy.pid").read_text() == ""  # no proxy started


# ----------------------------------------------------------------------------- ports, restarts, leftovers


def test_as_root_the_hub_s_internal_ports_are_below_1024_unless_the_sysctl_opened_them(tmp_path, monkeypatch):
    # the proxy's script comes with `make hub`'s npm packages, which `make unit` does not install
    monkeypatch.setattr(hub, "proxy_script", lambda: tmp_path / "configurable-http-proxy")
    state = hub.State(tmp_path / "state", 18000, 801)
    assert (state.hub_url, state.proxy_api_url) == ("http://127.0.0.1:801", "http://127.0.0.1:802")
    assert hub.hub_environment(state)[hub.INTERNAL_ENV] == "801"
    c = configured(tmp_path, **{hub.INTERNAL_ENV: "801"})
    assert c.JupyterHub.hub_bind_url == "http://127.0.0.1:801"
    assert c.ConfigurableHTTPProxy.api_url == "http://127.0.0.1:802"
    assert "--api-port=802" in hub.proxy_command(state)
    # a lowered net.ipv4.ip_unprivileged_port_start lets any user take them: refused, naming it
    monkeypatch.setattr(hub.os, "geteuid", lambda: 0)
    monkeypatch.setattr(hub, "unprivileged_port_start", lambda: 0)
    with pytest.raises(hub.HubError, match=r"127.0.0.1:801.*127.0.0.1:802.*ports below 0"):
        hub.start(state, class_list=tmp_path / "students.txt")
    monkeypatch.setattr(hub, "unprivileged_port_start", lambda: 1024)
    with pytest.raises(hub.HubError, match=r"127.0.0.1:18001.*ports below 1024"):
        hub.start(hub.State(tmp_path / "state", 18000), class_list=tmp_path / "students.txt")


def test_this_machine_keeps_ports_below_1024_for_root():
    assert hub.unprivileged_port_start() == int(hub.UNPRIVILEGED_SYSCTL.read_text())


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to drop to another user")
def test_an_unprivileged_process_cannot_take_the_hub_s_internal_ports():
    if hub.unprivileged_port_start() <= hub.DEFAULT_INTERNAL_PORT + 1:
        pytest.skip("this machine lets any user listen below 1024: `make hub` refuses here")
    port = hub_load.free_internal_port()

    def bind_as(uid: int) -> int:
        """In a child as ``uid``: 0 when it could listen on the port, the errno when not."""
        child = os.fork()
        if child == 0:
            code = 99
            try:
                if uid:
                    os.setgid(uid)
                    os.setuid(uid)
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
                    s.listen()
                code = 0
            except OSError as error:
                code = error.errno
            finally:
                os._exit(code)
        return os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])

    assert bind_as(65534) == errno.EACCES  # nobody, as any student: refused
    assert bind_as(0) == 0  # the hub, as root, can


def test_a_port_in_time_wait_after_a_restart_is_free_and_a_listener_is_not():
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as tornado and node listen
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    assert not hub._port_free(port)  # a real listener still conflicts
    client = socket.create_connection(("127.0.0.1", port))
    server, _ = listener.accept()
    server.close()  # the hub's side closes first: its port's connection stays in TIME_WAIT
    client.close()
    listener.close()
    states = subprocess.run(["ss", "-tan", f"sport = :{port}"], capture_output=True, text=True).stdout
    assert "TIME-WAIT" in states, states
    assert hub._port_free(port)


@pytest.mark.skipif(os.geteuid() != 0, reason="one user per student needs root")
def test_stop_ends_what_students_started_in_sessions_of_their_own_and_runtime_folders_are_crossable(tmp_path):
    state = hub.State(tmp_path / "state", 18000)
    state.prepare()
    (tmp_path / "run").mkdir()  # /run
    runtime = tmp_path / "run" / "course-hub" / "hash"
    bystander = subprocess.Popen(["sleep", "60"], start_new_session=True)
    umask = os.umask(0o077)  # as `make hub` runs the hub: the runtime folders made under it stay crossable
    try:
        try:
            entry = hub_users.ensure_user(f"stop{os.getpid()}", state.homes, runtime)
        finally:
            os.umask(umask)
        for folder in (runtime.parent, runtime):
            assert stat.S_IMODE(folder.stat().st_mode) == 0o711, folder
        assert stat.S_IMODE(hub_users.runtime_dir(runtime, entry).stat().st_mode) == 0o700
        left = subprocess.Popen(
            ["setsid", "nohup", "sleep", "600"],
            user=entry.pw_uid,
            group=entry.pw_gid,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(0.5)

        def uids():  # the student's processes still running (a zombie has ended: its parent reaps it)
            return [
                p.pid
                for p in psutil.process_iter(["uids", "status"])
                if p.info["uids"].real == entry.pw_uid and p.info["status"] != psutil.STATUS_ZOMBIE
            ]

        assert uids(), "the student's process did not start"
        hub.stop(state)
        left.wait(5)
        assert uids() == [] and bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()
        hub_users.remove_users(state.homes)


# ----------------------------------------------------------------------------- the debugger, /tmp


def _kernel_info(env: dict) -> dict:
    from jupyter_client.manager import KernelManager

    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        km = KernelManager(kernel_name="python3")
        km.kernel_spec_manager.kernel_dirs = km.kernel_spec_manager._kernel_dirs_default()
        km.start_kernel(env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            client = km.client()
            client.start_channels()
            client.wait_for_ready(60)
            reply = client.kernel_info(reply=True, timeout=60)["content"]
            client.stop_channels()
            return reply
        finally:
            km.shutdown_kernel(now=True)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_the_hub_s_kernels_have_no_debugger_and_jupyterlab_shows_none(tmp_path):
    c = configured(tmp_path)
    env = c.Spawner.environment
    assert env["JUPYTER_PATH"] == env["JUPYTER_CONFIG_PATH"] == str(hub.JUPYTER_DIR)
    spec = json.loads((hub.JUPYTER_DIR / "kernels" / "python3" / "kernel.json").read_text())
    assert spec["argv"][:3] == ["python", "-m", "course_tools.hub_kernel"]
    # the same kernel spec as the hub's servers find it: no debugger; ipykernel's own has one
    hub_kernel = _kernel_info({"JUPYTER_PATH": env["JUPYTER_PATH"]})
    assert "debugger" not in hub_kernel["supported_features"], hub_kernel
    plain = _kernel_info({"JUPYTER_PATH": str(tmp_path / "none")})
    assert "debugger" in plain["supported_features"], plain  # so the check above can fail
    from jupyterlab_server.config import get_page_config

    os.environ["JUPYTER_CONFIG_PATH"] = env["JUPYTER_CONFIG_PATH"]
    try:
        page = get_page_config([], None)
    finally:
        del os.environ["JUPYTER_CONFIG_PATH"]
    assert "@jupyterlab/debugger-extension" in page["disabledExtensions"]


def test_each_student_s_server_has_its_own_temporary_folders(tmp_path):
    entry = fake_user("jupyter-ada", home=str(tmp_path / "jupyter-ada"))
    env = hub_users.student_env(entry)
    assert env["TMPDIR"] == str(tmp_path / "jupyter-ada" / ".tmp")
    assert env["TORCHINDUCTOR_CACHE_DIR"] == str(tmp_path / "jupyter-ada" / ".cache" / "torchinductor")
    assert set(hub_users.PRIVATE_TMP) == {"/tmp", "/var/tmp", "/dev/shm"}
