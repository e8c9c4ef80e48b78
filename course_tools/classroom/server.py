"""Each student's server on a hub: ``python -m course_tools.hub singleuser`` (the spawner's command,
and the students' image's ``CMD``, deploy/Dockerfile).

:func:`singleuser` brings the student's home up to date with the course (:mod:`.workspace`, the same
promise as ``make lab``: nothing the student changed is ever overwritten), trusts the lessons there, as
``make lab`` does, and then becomes ``jupyterhub-singleuser`` with the arguments it was given. What the
update did goes to the server's log, in the language ``COURSE_LANG`` names (``en`` unless the hub was
started with another).

This module, :mod:`.workspace`, :mod:`.messages` and the shared core are all a student's server runs
of ``course_tools``: the students' image copies only them (``tests/unit/test_deploy.py``).
"""

import contextlib
import os
import sys
from pathlib import Path

from ..core.config import CONFIG, LANGUAGES
from . import workspace

__all__ = ["LANG_ENV", "singleuser", "trust"]

#: the student's language, which the hub sets for each server (``hub.configure``)
LANG_ENV = "COURSE_LANG"


def singleuser(argv: list[str]) -> None:
    """Bring the student's home up to date with the course, trust its lessons, become the server."""
    home = Path(os.environ.get("HOME") or Path.cwd())
    lang = os.environ.get(LANG_ENV, "en")
    lang = lang if lang in LANGUAGES else "en"
    for line in workspace.update(home, lang, CONFIG):
        print(line)
    # JupyterLab's interface in the student's language at their first start; afterwards their own
    # choice (Settings › Language) stays
    settings = Path(os.environ.get("JUPYTERLAB_SETTINGS_DIR") or home / ".jupyter" / "lab" / "user-settings")
    if not (settings / workspace.LAB_LOCALE_FILE).exists():
        with contextlib.suppress(OSError):  # a link in the way: JupyterLab starts in English
            settings.parent.mkdir(parents=True, exist_ok=True)
            workspace.write_lab_settings(settings, lang)
    sys.stdout.flush()
    with contextlib.suppress(Exception):  # an untrusted lesson still opens: its widgets show as text
        trust(home)
    os.execv(sys.executable, [sys.executable, "-m", "jupyterhub.singleuser", *argv])


def trust(home: Path) -> None:
    """Sign the course's own notebooks in ``home`` for this user, and no other, as ``make lab`` does
    (:func:`course_tools.classroom.workspace.trust`): a notebook a student saved or was sent stays untrusted."""
    workspace.trust(home, CONFIG)
