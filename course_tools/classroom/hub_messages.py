"""What ``make hub`` says on the instructor's terminal, in every language of ``LANGUAGES`` (the language
``COURSE_LANG`` names). Adding a language adds a line to every entry (``tests/unit/test_messages.py``)."""

from course_lib.i18n import Messages

__all__ = ["HUB"]

#: hub.py: what ``make hub`` says on the instructor's terminal, in the language ``COURSE_LANG`` names
HUB = Messages(
    "hub",
    {
        "class_unreadable": "cannot read the class list {path}: {error}",
        "class_bad_name": (
            "{where}: {name} is not a user name for the hub (lower-case letters, digits, '.', '_' or "
            "'-', starting with a letter or digit, at most 64)"
        ),
        "class_twice": "{where}: {name} is in the class list twice",
        "class_bad_lang": (
            "{where}: {lang} is not one of the course's languages ({langs}); a line is a user name, then "
            "optionally the student's language"
        ),
        "class_empty": "the class list {path} has no names",
        "class_state_unreadable": "cannot read the hub's class {path}: {error}",
        "running": (
            "JupyterHub: {url}/  ({n} students, each with a password of their own; the names and "
            "passwords are in {where}, readable by root alone: hand each student theirs)"
        ),
        "new_passwords": "New in the class list: {n} students; their passwords were added to {where}.",
        "running_shared": "JupyterHub: {url}/  (any user name; the shared password is in {where})",
        "shared_password": (
            "WARNING: one shared password and any user name (--shared-password): anyone who knows "
            "the password can log in as any student and use their server, and every new name creates a "
            "system user. Fine for a trial, not for a class: give a class list "
            "(`make hub CLASS=students.txt`)."
        ),
        "no_class": (
            "make hub: no class list: give one, a student's user name a line "
            "(`make hub CLASS=students.txt`); each student gets a password of their own. The hub for "
            "{state} has no class from an earlier start. For a trial with one shared password and any "
            "name (not isolated: anyone can log in as anyone), `make hub HUB_SHARED_PASSWORD=1`."
        ),
        "class_or_shared": "make hub: a class list ({path}) and a shared password cannot both be given: choose one",
        "internal_open": (
            "make hub: the hub's API (127.0.0.1:{hub}) and the proxy's API (127.0.0.1:{api}) must be "
            "on ports below {lowest}, which only root can listen on "
            "(net.ipv4.ip_unprivileged_port_start = {lowest}): otherwise, while the hub restarts, any "
            "student could listen there and pose as the hub. Choose `make hub HUB_INTERNAL_PORT=...` "
            "below {lowest} minus 1, or raise that sysctl back to 1024."
        ),
        "ctrl_c": (
            "Ctrl-C stops the hub only; `make hub` again takes the servers back, "
            "`make hub-stop` ends everything."
        ),
        "isolated": (
            "Each student runs as a system user of their own (jupyter-<name>), "
            "their home {homes}/jupyter-<name>/ closed to everyone else (0700)."
        ),
        "not_root": (
            "The hub is not running as root, so it cannot give each student a system user of their "
            "own: every server and kernel would run as {user}, and any student could read, change or "
            "delete every other student's work, run code in their kernels and read the hub's secrets. "
            "Run `sudo make hub` for one user per student, or `make hub HUB_SHARED_USER=1` to accept "
            "this (a trial on your own computer)."
        ),
        "shared": (
            "WARNING: one system user ({user}) for every student: they can read, change and delete "
            "each other's work and reach each other's kernels. Fine for a trial, not for a class."
        ),
        "port_busy": (
            "make hub: cannot start {what}: 127.0.0.1:{port} is already in use by another program "
            "(choose other ports: `make hub HUB_PORT=...` or `HUB_INTERNAL_PORT=...`)"
        ),
        "proxy": "the proxy (configurable-http-proxy)",
        "proxy_api": "the proxy's API",
        "hub": "JupyterHub",
        "proxy_failed": "make hub: the proxy (configurable-http-proxy) did not start: {reason}. The end of {log}:",
        "exited": "it exited with code {code}",
        "port_taken": "it could not take 127.0.0.1:{port} (another program holds it) and was stopped",
        "silent": "it did not listen on 127.0.0.1:{port} within {seconds} s",
        "hub_failed": (
            "make hub: JupyterHub did not start: it exited with code {code} before answering on "
            "{url} (its log is above)"
        ),
        "hub_silent": "make hub: JupyterHub did not answer on {url} within {seconds} s; it is stopped",
        "already": "make hub: a hub for {state} is already running (pid {pid}); `make hub-stop` ends it",
        "no_useradd": (
            "make hub: `useradd` is not installed, so the hub cannot give each student a system user of "
            "their own (Debian and Ubuntu: `apt-get install passwd`)"
        ),
        "unreachable": (
            "make hub: students could not reach {path}: {folder} is closed to other users and this "
            "system does not allow mount namespaces to open it for them ({reason}). Install the course and "
            "its Python where everyone may read them (/opt, /srv), or give others x on {folder}."
        ),
    },
)
