"""The handouts printed: each deck's handout page as a PDF, by headless Chromium, offline.

    python -m course_tools.handouts          # every lesson -> slides/<lang>/NN_name.pdf (`make handouts`)
    python -m course_tools.handouts 04       # only the lessons whose names start so

The slides build writes each handout, ``slides/<lang>/NN_name.handout.html``
(:mod:`course_tools.publish.handout_pages`); this tool opens it from ``file://`` in Debian's headless
Chromium (``/usr/lib/chromium/chromium-headless-shell``, driven by Playwright, never a downloaded browser),
waits until MathJax has drawn every formula, and prints it: A4, each slide from a new page. It is the one
step of the decks that needs a browser, so ``make slides`` stays without one. Any request that would leave
the machine is blocked, and makes the build fail.

All or nothing: the PDFs are printed into a temporary folder inside ``slides/``, moved into place
when every one is made; then the index pages are written again, linking them.

The work is :mod:`course_tools.publish.handouts`'s.
"""

import argparse
import sys

from .build.course import LessonSelectionError
from .publish.handouts import HandoutError, build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_tools.handouts",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("lessons", nargs="*", help="lesson name prefixes, e.g. 04 (default: all)")
    args = parser.parse_args(argv)
    try:
        build(args.lessons)
    except (HandoutError, LessonSelectionError) as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
