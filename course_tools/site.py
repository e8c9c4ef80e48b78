"""The site tool: the course as a static website, every lesson in every language, offline.

    python -m course_tools.site            # -> site/ (`make site` builds the decks first)

``site/index.html`` opens the language the reader chose last (or the browser's); ``site/<lang>/``
is one Sphinx site per language: a home page (the lesson list, made from the lessons' title
cells, and how to run the course), each lesson's committed notebook as a page with its outputs,
formulas, figures and the widgets' saved state, the notebook itself next to its page to
download, and the glossary; ``site/slides/`` is a copy of the decks. Every page has a link to
the same page, at the same section, in each other language. A lesson's deep dives are folded,
each under its heading, and listed in the page's table of contents (``publish/site_theme/deep_dives.py``);
each deck's handout and PDF are copied with it.

Sphinx with myst-nb (which never executes anything here: the notebooks are committed executed,
and nbval checks them) and sphinx-book-theme. The pages this tool writes, and its catalogue,
are in ``publish/site_pages.py``; everything Sphinx (the configuration, there is no ``conf.py``; the
build, one process per language; the hooks, templates, scripts and the theme's translations)
in ``publish/site_theme/``.

Everything a page loads is a relative URL below ``site/``: the theme's files, and MathJax 3,
require.js, the widget renderer and the course's fonts (``course_tools.publish.fonts``) copied from the pinned npm packages in ``node_modules/``
(``npm ci``). So the site works from ``file://``, from any static server, and from a copy of
the folder anywhere. Search is Sphinx's own, offline, with its stemmer for each language.

All or nothing: everything is made in a temporary folder next to ``site/``, which replaces
``site/`` only when every language's build succeeded.

The work is :mod:`course_tools.publish.site`'s.
"""

import argparse
import sys

from .build.course import LessonSelectionError
from .publish.site import SiteError, build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_tools.site",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.parse_args(argv)
    try:
        build()
    except (SiteError, LessonSelectionError) as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
