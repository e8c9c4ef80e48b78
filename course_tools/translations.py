"""The messages' gettext catalogues, a command: extract, update, compile and check each language's .po.

    python -m course_tools.translations pot DIR     # the templates, DIR/<package>.pot, for a translator's tool
    python -m course_tools.translations update      # each .po follows the English: new entries empty,
                                                    # changed English fuzzy (with the old as #| msgid),
                                                    # removed messages obsolete (#~)
    python -m course_tools.translations init CODE   # the .po files of a new language, every msgstr empty
    python -m course_tools.translations compile     # the .mo files (make does it: .mo are not committed)
    python -m course_tools.translations check       # what is missing, stale or obsolete; exit 1 if anything

The work is :mod:`course_tools.core.translations`.
"""

import argparse
import sys
from pathlib import Path

from .core.translations import PACKAGES, compile_all, init, problems, template, update, write


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_tools.translations",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("pot").add_argument("folder", type=Path)
    commands.add_parser("update")
    commands.add_parser("init").add_argument("lang")
    commands.add_parser("compile")
    commands.add_parser("check")
    args = parser.parse_args(argv)
    if args.command == "pot":
        args.folder.mkdir(parents=True, exist_ok=True)
        for package in PACKAGES:
            write(args.folder / f"{package}.pot", template(package))
    elif args.command == "update":
        for path in update():
            print(f"updated {path}")
    elif args.command == "init":
        for path in init(args.lang):
            print(f"wrote {path}")
    elif args.command == "compile":
        compile_all()
    else:
        found = problems()
        print("\n".join(found) or "every message is translated, none stale")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
