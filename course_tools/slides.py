"""The slides tool: one reveal.js deck per lesson and language, from the committed notebooks, offline.

    python -m course_tools.slides          # every lesson, every language -> slides/<lang>/
    python -m course_tools.slides 04       # only the lessons whose names start so

A deck is the lesson rendered for the slides (``notebook-only`` and ``deep-dive`` cells left out,
``slides-only`` prose and speaker notes kept, ``speaker-notes`` prose made the notes of its slide, ``slideshow.slide_type`` made into reveal.js sections, fragments
and notes) with every output taken from the committed, executed notebook of its language,
which nbval checks in ``make test``. The slides build never executes anything: a lesson whose
notebooks are stale is an error that names the command rebuilding them.

Everything a deck loads is a relative URL into ``slides/assets/``, copied from the pinned npm
packages in ``node_modules/`` (``npm ci``): reveal.js, MathJax 2, require.js, jQuery, the
widget renderer, and the course's fonts (``course_tools.publish.fonts``), which draw all the text. Opened from ``file://``, a deck sends no request off the machine.

Each deck also comes as a handout, ``slides/<lang>/NN_name.handout.html``: every slide in order, its
speaker notes under it, a plain page a screen reader reads line by line (:mod:`course_tools.handouts`,
which also prints them to PDF: ``make handouts``, the one step that needs Chromium). A deck's
speaker view, help overlay and arrows are in its language (:mod:`course_tools.publish.speaker_view`).

All or nothing: the assets, the decks, the handouts and the index pages are made in a temporary folder
inside ``slides/``; only when everything is made are they moved into place.

The work is :mod:`course_tools.publish.slides`'s.
"""

import argparse
import sys

from .build.course import LessonSelectionError
from .publish.slides import SlidesError, build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_tools.slides",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("lessons", nargs="*", help="lesson name prefixes, e.g. 04 (default: all)")
    args = parser.parse_args(argv)
    try:
        build(args.lessons)
    except (SlidesError, LessonSelectionError) as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
