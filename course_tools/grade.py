"""Grade a class's notebooks and show which mistakes the class makes.

    python -m course_tools.grade SUBMISSIONS/ --out REPORT/ [--lang ru] [--jobs 2]

``SUBMISSIONS/<student>/<NN_lesson>.ipynb`` (either language), or nbgrader's
``submitted/<student>/<assignment>/*.ipynb``. No code of a student's ever runs in this process:

1. each file is read here as data (no link followed, a regular file only, at most the size limit);
   what cannot be read is that student's row (``grade.*``), never the class's;
2. its code cells (not those tagged ``grade-skip``: training, demos) run in a sandbox of their own
   (:mod:`course_tools.grading.sandbox`: another user, no network, a read-only filesystem, no other
   submission in sight, one memory and process limit for the whole tree; at most ``--jobs`` at
   once), which then answers this process's calls on the student's objects with plain values only;
3. the exercise's checker runs *here*, on those values, against its own reference
   (:class:`course_lib.exercises.runner.Run` with a :class:`~course_tools.grading.grade.RemoteChild`), and writes the verdict.
   Whatever the sandbox sends is validated: anything but plain data of the expected shape is that
   student's ``grade.no_verdict``.

An audit hook in the sandbox (:mod:`course_tools.grading.guard`) names what a submission tried:
another student's file, a path outside its folder, a socket, a program.

Output, all or nothing: ``REPORT/verdicts.csv`` (``student,lesson,exercise,status,diagnosis``, one row
per exercise of each submitted notebook; a cell a spreadsheet would run as a formula is neutralised),
``REPORT/students/<student>.json`` and ``REPORT/index.html`` (:mod:`course_tools.grading.report`).

The work is :mod:`course_tools.grading.grade`'s, the report :mod:`course_tools.grading.report`'s.
"""

import argparse
import sys
from pathlib import Path

from .core.config import LANGUAGES, SOURCE_LANGUAGE
from .grading import messages, sandbox
from .grading.grade import STATUSES, Limits, grade
from .grading.report import write_report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course_tools.grade", description=__doc__.splitlines()[0])
    parser.add_argument("submissions", type=Path, help="SUBMISSIONS/<student>/<NN_lesson>.ipynb")
    parser.add_argument("--out", type=Path, required=True, help="the report's folder")
    parser.add_argument("--lang", choices=LANGUAGES, default=SOURCE_LANGUAGE, help="the report's language")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks at once (default 2)")
    parser.add_argument("--seconds", type=int, default=Limits.seconds, help="time limit per notebook")
    args = parser.parse_args(argv)
    if sandbox.mode() != sandbox.ISOLATED:
        print(messages.REPORT("sandbox_off", args.lang), file=sys.stderr)
    result = grade(args.submissions, Limits(seconds=args.seconds), args.jobs, hide=(args.out,))
    write_report(result, args.out, args.lang)
    statuses = {s: sum(v.status == s for v in result.verdicts) for s in STATUSES}
    print(
        f"graded {len(result.notebooks)} notebooks in {result.seconds:.1f} s: {statuses}; report in {args.out}/"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
