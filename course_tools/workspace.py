"""The students' own copies of the lessons, which course updates never overwrite.

    python -m course_tools.workspace [--lang ru] [--workspace DIR] [--lab-settings DIR] [--trust]

``make lab`` runs this before opening JupyterLab on ``workspace/`` (git-ignored): a lesson not yet
there is copied, one the student has not changed is replaced by the newer course version, one the
student has changed is kept and the newer version put beside it as ``NN_name.new.ipynb``, with a
message saying so. ``--trust`` (``make lab``) then signs, for this user, the notebooks that are the
course's as the course wrote them, and no other: a notebook a student saved or was sent stays
untrusted. ``--lab-settings DIR`` (``make lab-ru``) also writes JupyterLab's interface language for
``--lang`` into the settings folder ``DIR``. Whatever is wrong, the student is told in their
language and JupyterLab still starts.

The work is :mod:`course_tools.classroom.workspace`'s (which says what "changed" means).
"""

import argparse
import sys
from pathlib import Path

from .classroom.workspace import update
from .core.config import CONFIG, LANGUAGES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_tools.workspace",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--workspace", type=Path, default=CONFIG.workspace)
    parser.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0], help="language of the messages")
    parser.add_argument(
        "--lab-settings", type=Path, metavar="DIR", help="also set JupyterLab's interface to --lang in DIR"
    )
    parser.add_argument(
        "--trust",
        action="store_true",
        help="then sign the course's own notebooks for this user, and nothing else",
    )
    args = parser.parse_args(argv)
    for line in update(args.workspace, args.lang, CONFIG, args.trust, args.lab_settings):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
