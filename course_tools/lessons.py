"""The lessons tool: one bilingual source per lesson -> an executed notebook per language.

    python -m course_tools.lessons build           # render and execute every lesson, every language
    python -m course_tools.lessons build 02 04     # only the lessons whose names start so
    python -m course_tools.lessons check           # no execution: list every problem, exit 1 if any
    python -m course_tools.lessons stamp 04        # after reviewing a translation: accept it as current
    python -m course_tools.lessons words [04 05]   # main-path words, reading minutes, deep dives, slides

``build`` executes each lesson once per language and writes the notebooks
(``notebooks/<lang>/NN_name.ipynb``) only when every lesson asked for ran to the end in every
language: a cell that fails only in Russian leaves the English notebook as it was too. It also
regenerates the lesson table of each README. Each file is replaced in one step (a temporary
file, then a rename), so a reader never sees half a notebook.

A folder where one of its outputs goes stops the build before anything runs.

``words`` measures each lesson's source against the budgets of a lecture (:mod:`course_tools.build.lecture`):
main-path words and reading minutes per language, deep dives, deck slides and how many have notes;
it exits 1 when a lesson breaks a budget, listing every slide that does.

``check`` reports everything at once: sources misnamed (not ``NN_name.md``) or that cannot be read (an unclosed code cell,
broken metadata), missing or stale translations, code comments without their twins and ``pick()``
calls the build cannot resolve (:mod:`course_tools.build.lesson_code`), code cells the slides would have to run,
exercise cells without a template, titles without a summary, committed notebooks that are
missing, stale against their source (a template changed in ``course_lib.exercises`` makes
them stale too, and so does an explorer's JavaScript changed in ``course_lib/widgets/``) or never executed, notebooks without a source, README tables out of date.

The work is :mod:`course_tools.build.lessons`'s.
"""

import argparse
import sys

from .build.course import LessonSelectionError
from .build.lessons import BuildError, build, check, stamp_lessons, words


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_tools.lessons",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    build_parser = commands.add_parser("build", help="render and execute lessons, write their notebooks")
    build_parser.add_argument("lessons", nargs="*", help="lesson name prefixes, e.g. 04 (default: all)")
    commands.add_parser("check", help="list every problem without executing anything")
    stamp_parser = commands.add_parser("stamp", help="accept the current translations of lessons as reviewed")
    stamp_parser.add_argument("lessons", nargs="+", help="lesson name prefixes, e.g. 04")
    words_parser = commands.add_parser("words", help="main-path words, deep dives and slides of each lesson")
    words_parser.add_argument("lessons", nargs="*", help="lesson name prefixes, e.g. 04 (default: all)")
    args = parser.parse_args(argv)
    try:
        if args.command == "words":
            return words(args.lessons)
        if args.command == "build":
            build(args.lessons)
            return 0
        if args.command == "check":
            problems = check()
            print("\n".join(problems) or "every lesson, translation, notebook and table is current")
            return 1 if problems else 0
        problems = stamp_lessons(args.lessons)
    except (BuildError, LessonSelectionError) as error:
        print(error, file=sys.stderr)
        return 1
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
