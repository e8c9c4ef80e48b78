"""The pages the course website writes in its own words: the home pages, the glossary page, the root page.

The lesson pages are the committed notebooks; these are the pages the site tool writes around
them, in every language of ``LANGUAGES``, with the texts of the catalogue ``TEXT``
(``course_tools/publish/messages.py``, ``SITE``). The lesson list is made from the lessons' title cells
(``course_tools.build.tables``), like the READMEs' tables; the glossary page from
``notebooks/GLOSSARY.md``. The strings of the theme itself are translated in
``site_theme/locales/`` (they are Sphinx's and the theme's, in gettext's format).
"""

import html
import re

from course_lib.i18n import NAMES

from ..build.course import Course
from ..core.config import LANGUAGES, SOURCE_LANGUAGE, Config
from ..core.templates import render
from .messages import SITE as TEXT

__all__ = ["STORAGE_KEY", "TEXT", "markdown_text", "home_page", "glossary_page", "root_page"]

# remembered by the pages (course-site.js) and read by the root page
STORAGE_KEY = "course-lang"


# every ASCII punctuation character: CommonMark reads each one escaped with a backslash as itself
ASCII_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def markdown_text(text: str) -> str:
    r"""``text`` as MyST Markdown that shows exactly it: no markup, no HTML, no math, no role.

    Each ASCII punctuation character is escaped (CommonMark's backslash escapes), so ``<`` never
    opens a tag, ``&`` never an entity, ``*``, ``[``, ``$`` or ``{`` nothing at all.

    >>> print(markdown_text("<b>m − n</b> & *x*"))
    \<b\>m − n\<\/b\> \& \*x\*
    """
    return ASCII_PUNCTUATION.sub(r"\\\1", text)


def home_page(course: Course, lang: str) -> str:
    """A language's home page (MyST Markdown): the lessons, one line each, and how to run the course.

    The lessons' titles and summaries are text (:func:`markdown_text`), whatever they contain.
    """
    lines = [f"# {TEXT('title', lang)}", "", TEXT("intro", lang), "", f"## {TEXT('lessons', lang)}", ""]
    for name in course.names:
        row = course.titles[name]
        deck = f'<a href="../slides/{lang}/{name}.html">{html.escape(TEXT("slides", lang))}</a>'
        notebook = f'<a href="{name}.ipynb" download>{html.escape(TEXT("notebook", lang))} (.ipynb)</a>'
        heading, summary = markdown_text(row.heading(lang)), markdown_text(row.summary(lang))
        lines.append(f"- [{heading}]({name}.ipynb) — {summary} · {deck} · {notebook}")
    lines += [
        "",
        f"[{TEXT('glossary', lang)}](glossary.md) · "
        f'<a href="../slides/{lang}/index.html">{html.escape(TEXT("all_slides", lang))}</a>',
        "",
        f"## {TEXT('run_title', lang)}",
        "",
        TEXT("run", lang),
        "",
        TEXT("offline", lang),
        "",
        "```{toctree}",
        ":hidden:",
        "",
        *course.names,
        "glossary",
        "```",
        "",
    ]
    return "\n".join(lines)


def glossary_page(config: Config, lang: str) -> str:
    """The glossary's table (``notebooks/GLOSSARY.md``, one for every language) under a title in ``lang``."""
    text = (config.lessons_dir / "GLOSSARY.md").read_text(encoding="utf-8")
    table = [line for line in text.splitlines() if line.startswith("|")]
    return "\n".join([f"# {TEXT('glossary', lang)}", "", TEXT("glossary_intro", lang), "", *table, ""])


def root_page() -> str:
    """``site/index.html``: opens the language read last (``localStorage``), else the browser's, else the source's.

    The page is ``publish/site_root.html.j2``, rendered by :func:`course_tools.core.templates.render`.
    """
    pages = [{"lang": lang, "title": TEXT("title", lang), "name": NAMES[lang]} for lang in LANGUAGES]
    return render("publish/site_root.html.j2", source=SOURCE_LANGUAGE, storage_key=STORAGE_KEY, pages=pages)
