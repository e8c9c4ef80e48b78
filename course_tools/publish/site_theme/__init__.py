"""The Sphinx side of the course website: its configuration, its build, two hooks; beside them the
templates, scripts and translations of the theme.

There is no ``conf.py``: :func:`sphinx_config` is one language's configuration, which
:func:`run_sphinx` gives to Sphinx's API, one build per language, each in a process of its own.
The configuration loads this module as an extension (its :func:`setup`: every section numbered,
the switch's links) and takes this folder's ``_templates/``, ``_static/`` and ``locales/``:

- ``_templates/``: ``lang-switch.html`` (a link to the same page in each other language, and
  the notebook's download), ``layout.html`` and three of sphinx-book-theme's components
  re-declared with their English strings made translatable, and pydata-sphinx-theme's search button
  with an accessible name that holds what it shows;
- ``_static/``: ``course-site.js`` (the switch keeps the section, remembers the language; no
  search snippets under ``file://``), ``widgets-setup.js`` (where the widget renderer finds its
  fonts; MathJax 2's ``Hub.Queue`` as MathJax 3 calls), ``course-site.css``;
- ``locales/<lang>/LC_MESSAGES/sphinx.po``: what the themes leave in English;
- ``deep_dives.py``: each deep dive of a lesson folded in a ``<details>`` under its heading.

The hooks read what the configuration put in ``html_context["course"]``: for every other
language, its name and the title of the switch's link.
"""

import json
import multiprocessing
import os
import posixpath
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from course_lib.i18n import NAMES

from ...core.config import LANGUAGES
from ..site_pages import TEXT

__all__ = [
    "THEME",
    "SECTION_ANCHOR",
    "sphinx_config",
    "translations_js",
    "build_language",
    "run_sphinx",
    "number_sections",
    "page_context",
    "setup",
]

#: This folder: the extension, its templates, scripts and the translations of the theme's strings.
THEME = Path(__file__).resolve().parent

#: Every section of a page also gets the anchor ``sec-N`` (N: its index in document order). The
#: languages' twins have the same headings, so ``sec-N`` is the same section in each of them.
SECTION_ANCHOR = "sec-{}"


# ----------------------------------------------------------------------------- configuration and build


def sphinx_config(lang: str, vendor: Path, locales: Path, downloads: Path) -> dict:
    """The configuration of one language's Sphinx build (what a ``conf.py`` would say)."""
    others = [
        {"lang": other, "name": NAMES[other], "title": TEXT("this_page", other)}
        for other in LANGUAGES
        if other != lang
    ]
    return {
        "project": TEXT("title", lang),
        "html_title": TEXT("title", lang),
        "author": "",
        "copyright": "",
        "language": lang,
        "html_search_language": lang,  # the index and the query go through the language's stemmer
        "extensions": ["myst_nb", "course_tools.publish.site_theme"],
        # the notebooks are committed executed, and nbval re-runs them in `make test`
        "nb_execution_mode": "off",
        "nb_merge_streams": True,
        "myst_enable_extensions": ["dollarmath", "amsmath"],
        # a lesson that goes from # to ### renders well all the same; every other warning fails the build
        "suppress_warnings": ["myst.header"],
        "exclude_patterns": ["**.ipynb_checkpoints"],
        "source_suffix": {".md": "myst-nb", ".ipynb": "myst-nb"},
        # relative to _static/: the copies of the npm packages (`vendor`)
        "mathjax_path": "mathjax/tex-chtml-full.js",
        "mathjax3_config": {"loader": {"load": []}},
        # The widget renderer, after the script that tells require.js where its fonts are. Every model
        # the lessons use is built into embed-amd.js; its "CDN" for any other is a folder that does
        # not exist, so an unknown widget fails visibly instead of being fetched from the internet.
        "nb_ipywidgets_js": {
            "widgets-setup.js": {},
            "require.js": {},
            "html-manager/embed-amd.js": {"data-jupyter-widgets-cdn": "_static/no-widget-cdn/"},
        },
        "html_theme": "sphinx_book_theme",
        "html_theme_options": {
            "search_bar_text": TEXT("search", lang),
            "use_download_button": False,  # it offers _sources/; the switch's bar links the notebook
            "use_fullscreen_button": True,
            "use_repository_button": False,
            "home_page_in_toc": True,
            "show_toc_level": 2,
            "article_header_end": ["lang-switch.html", "article-header-buttons.html"],
            "footer_content_items": [],
            "back_to_top_button": True,
            # pydata-sphinx-theme would add a second search box in a top bar unless this is set
            "navbar_persistent": [],
        },
        # light: the lessons' figures are drawn for a white page (the reader can switch)
        "html_context": {
            "default_mode": "light",
            "course": {
                "others": others,
                "download": TEXT("download", lang),
                "download_label": TEXT("download_label", lang),
            },
        },
        "templates_path": [str(THEME / "_templates")],
        "html_static_path": [str(THEME / "_static"), str(vendor)],
        "html_extra_path": [str(downloads)],
        # the course's fonts (course_tools.publish.fonts), which course-site.css gives every text of the page
        "html_css_files": ["fonts/course-fonts.css", "course-site.css"],
        "html_js_files": ["course-site.js"],
        "html_copy_source": False,
        "html_show_sourcelink": False,
        "html_show_sphinx": False,
        "html_use_index": False,
        "html_domain_indices": False,
        "html_permalinks_icon": "#",
        "locale_dirs": [str(locales)],
        "gettext_auto_build": True,
    }


def build_language(srcdir: Path, outdir: Path, doctrees: Path, overrides: dict) -> tuple[int, str]:
    """One language's Sphinx build, run in a process of its own: (Sphinx's status code, its warnings)."""
    import io

    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    warnings = io.StringIO()
    with patch_docutils(srcdir), docutils_namespace():
        app = Sphinx(srcdir, None, outdir, doctrees, "html", overrides, None, warnings, freshenv=True)
        app.build(force_all=True)
    return app.statuscode, warnings.getvalue()


def run_sphinx(jobs: dict[str, tuple]) -> list[str]:
    """Every language's build side by side, each in a fresh process (Sphinx's translations are per
    process); ``jobs``: the arguments of :func:`build_language` by language. Returns the problems.

    A warning is a page that renders wrong (a formula MyST cannot read, a broken link): any is a problem.
    """
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(len(jobs), os.cpu_count() or 1), mp_context=spawn) as pool:
        futures = {lang: pool.submit(build_language, *job) for lang, job in jobs.items()}
        problems = []
        for lang, future in futures.items():
            try:
                status, warnings = future.result()
            except Exception as error:  # Sphinx's own errors, raised in the worker
                problems.append(f"the {lang} pages could not be built: {type(error).__name__}: {error}")
                continue
            if status or warnings.strip():
                problems.append(f"the {lang} pages have problems (Sphinx's words):\n{warnings.rstrip()}")
    return problems


def translations_js(lang: str, po: Path) -> str | None:
    """Sphinx's ``sphinx.js`` for ``lang`` with the messages our ``.po`` translates put in (None: nothing to add).

    The search page's status line comes from it; Sphinx 9.0's Russian one is empty.
    """
    import sphinx
    from babel.messages.pofile import read_po

    own = Path(sphinx.__file__).parent / "locale" / lang / "LC_MESSAGES" / "sphinx.js"
    if not own.exists() or not po.exists():
        return None
    head, body = own.read_text(encoding="utf-8").split("(", 1)
    data = json.loads(body.rsplit(")", 1)[0])
    with po.open("rb") as file:
        catalog = read_po(file)
    for message in catalog:
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        if key and key in data["messages"] and message.string:
            data["messages"][key] = (
                list(message.string) if isinstance(message.string, tuple) else message.string
            )
    return f"{head}({json.dumps(data, ensure_ascii=False, indent=1)});"


# ----------------------------------------------------------------------------- the hooks


def number_sections(app, doctree, docname) -> None:
    """Add ``sec-0``, ``sec-1``, ... to the sections of a page, in document order."""
    from docutils import nodes

    for index, section in enumerate(doctree.findall(nodes.section)):
        section["ids"].append(SECTION_ANCHOR.format(index))


def page_context(app, pagename, templatename, context, doctree) -> None:
    """What ``lang-switch.html`` shows: the same page in each other language; a lesson's notebook."""
    course = context["course"]
    up = "../" * (pagename.count("/") + 1)  # from the page to the site's root, above the language folders
    context["course_switch"] = [
        dict(other, href=f"{up}{other['lang']}/{pagename}.html") for other in course["others"]
    ]
    source = app.env.doc2path(pagename, base=False) if pagename in app.env.all_docs else None
    # a lesson's committed notebook is copied next to its page
    context["course_notebook"] = (
        posixpath.basename(pagename) + ".ipynb" if source and str(source).endswith(".ipynb") else None
    )


def setup(app):
    from . import deep_dives

    deep_dives.setup(app)
    app.connect("doctree-resolved", number_sections)
    app.connect("html-page-context", page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
