"""The website's build behind ``python -m course_tools.site`` (whose docstring says what the site is):
every language's Sphinx site, the root page, the decks and the assets, made in a temporary folder
next to ``site/`` that replaces it only when every language's build succeeded.
"""

import shutil
import tempfile
from pathlib import Path

import nbformat

from course_lib.widgets import encodings

from ..build.course import Course
from ..core.config import CONFIG, LANGUAGES, Config
from ..core.files import copy_sources, missing_sources
from .fonts import FontsError, copy_fonts
from .handout_pages import handout_name, pdf_name
from .site_pages import glossary_page, home_page, root_page
from .site_theme import THEME, run_sphinx, sphinx_config, translations_js
from .site_theme.deep_dives import mark
from .slides import ANYWIDGET_FILES

__all__ = ["SiteError", "VENDOR_FILES", "build"]

# What the pages load from node_modules, as (path in node_modules, path in each language's _static/).
# MathJax 3 is the npm alias "mathjax3" (the decks keep MathJax 2): one component and its fonts.
VENDOR_FILES = [
    ("mathjax3/es5/tex-chtml-full.js", "mathjax/tex-chtml-full.js"),
    ("mathjax3/es5/output/chtml/fonts/woff-v2", "mathjax/output/chtml/fonts/woff-v2"),
    ("mathjax3/LICENSE", "mathjax/LICENSE"),
    ("requirejs/require.js", "require.js"),
    ("@jupyter-widgets/html-manager/dist/embed-amd.js", "html-manager/embed-amd.js"),
    ("@jupyter-widgets/html-manager/dist/embed.js.LICENSE.txt", "html-manager/LICENSE.txt"),
    *ANYWIDGET_FILES,  # the explorers' widget class; widgets-setup.js maps require.js's "anywidget" to it
]
# the widget renderer's icon fonts (FontAwesome 4), which its CSS asks for next to embed-amd.js:
# Chromium, Firefox and Safari take woff2, so the other formats stay behind
WIDGET_FONTS = ("@jupyter-widgets/html-manager/dist", (".woff2", ".woff"))


class SiteError(ValueError):
    """A site build that wrote nothing; ``problems`` says why."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


# ----------------------------------------------------------------------------- build


def copy_vendor(config: Config, dest: Path) -> None:
    """Copy what the pages load from node_modules into ``dest`` (each language's future _static/)."""
    missing = missing_sources(config.node_modules, VENDOR_FILES)
    if missing:
        raise SiteError(
            [
                f"node_modules/ lacks {', '.join(missing)}: run `npm ci` in the repository root (`make site` does)"
            ]
        )
    copy_sources(config.node_modules, VENDOR_FILES, dest)
    # lesson 2's comparator loads gpt-tokenizer's encoders from beside the widget renderer
    # from lesson 2's own npm project (course_lib.bpe.vocabularies.NODE_MODULES): without them a page's
    # comparator could only say "not in this copy", so the build stops instead
    try:
        encodings.write_scripts(dest / encodings.FOLDER)
    except FileNotFoundError as error:
        raise SiteError([str(error)]) from None
    try:
        copy_fonts(config.node_modules, dest)  # fonts/course-fonts.css, which every page loads
    except FontsError as error:
        raise SiteError([str(error)]) from None
    fonts, suffixes = WIDGET_FONTS
    for font in sorted((config.node_modules / fonts).iterdir()):
        if font.suffix in suffixes:
            shutil.copy2(font, dest / "html-manager" / font.name)


def copy_locales(dest: Path) -> None:
    """The theme's translations, where Sphinx may write the compiled .mo (not in the repository)."""
    shutil.copytree(THEME / "locales", dest, ignore=shutil.ignore_patterns("*.mo"))
    for lang in LANGUAGES:
        js = translations_js(lang, dest / lang / "LC_MESSAGES" / "sphinx.po")
        if js:
            (dest / lang / "LC_MESSAGES" / "sphinx.js").write_text(js, encoding="utf-8")


def write_sources(course: Course, lang: str, srcdir: Path, downloads: Path) -> None:
    """One language's Sphinx sources: its committed notebooks, the home page, the glossary."""
    for folder in (srcdir, downloads):
        folder.mkdir(parents=True)
    for name in course.names:
        notebook = course.config.notebook(name, lang)
        # the page: its deep dives marked, for the theme to fold them (site_theme/deep_dives.py)
        nbformat.write(mark(nbformat.read(notebook, as_version=4)), srcdir / notebook.name)
        shutil.copy2(notebook, downloads / notebook.name)  # the download, next to its page, as committed
    (srcdir / "index.md").write_text(home_page(course, lang), encoding="utf-8")
    (srcdir / "glossary.md").write_text(glossary_page(course.config, lang), encoding="utf-8")


def missing_decks(course: Course) -> list[str]:
    """The decks the home pages link to that ``make slides`` has not built."""
    slides = course.config.slides_dir
    wanted = [slides / "assets"]
    wanted += [slides / lang / f"{page}.html" for lang in LANGUAGES for page in ["index", *course.names]]
    wanted += [slides / lang / handout_name(name) for lang in LANGUAGES for name in course.names]
    return [course.config.relative(path) for path in wanted if not path.exists()]


def copy_decks(course: Course, dest: Path) -> None:
    """The decks of the current lessons, their index pages and assets (not a deck an old lesson left)."""
    slides = course.config.slides_dir
    shutil.copytree(slides / "assets", dest / "assets")
    for lang in LANGUAGES:
        (dest / lang).mkdir(parents=True)
        for page in ["index", *course.names]:
            shutil.copy2(slides / lang / f"{page}.html", dest / lang / f"{page}.html")
        for name in course.names:
            for extra in (handout_name(name), pdf_name(name)):
                if (slides / lang / extra).exists():  # the PDFs only where `make handouts` printed them
                    shutil.copy2(slides / lang / extra, dest / lang / extra)


# what Sphinx and the themes leave in the output that no page loads
PRUNE = (
    ".buildinfo",
    ".buildinfo.bak",
    "objects.inv",
    "_sources",
    "_static/locales",
    "_static/webpack-macros.html",
    "_static/sbt-webpack-macros.html",
)


def prune(out: Path) -> None:
    for junk in PRUNE:
        path = out / junk
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    for path in (out / "_static").rglob("*.map"):
        path.unlink()


def build(config: Config = CONFIG, say=print) -> Path:
    """Build ``site/``: every lesson in every language, the home pages, the glossary, the decks.

    Raises :class:`SiteError` (nothing written) when a lesson's source has problems, its committed
    notebooks are stale, the decks are missing, or Sphinx finds a problem in a page.
    """
    course = Course.load(config)
    course.select([])  # no lesson at all is an error
    problems = course.committed_problems(course.names)
    problems += [f"{path} is missing: run `make slides`" for path in missing_decks(course)]
    if problems:
        raise SiteError(problems + ["no page was written"])

    staging = Path(tempfile.mkdtemp(dir=config.root, prefix=".site-build-"))
    try:
        work, site = staging / "work", staging / "site"
        copy_vendor(config, work / "vendor")
        copy_locales(work / "locales")
        jobs = {}
        for lang in LANGUAGES:
            srcdir, downloads = work / "src" / lang, work / "downloads" / lang
            write_sources(course, lang, srcdir, downloads)
            # myst-nb writes copies of the outputs beside the output folder: hence out/ one level down
            outdir, doctrees = work / "html" / lang / "out", work / "doctrees" / lang
            jobs[lang] = (
                srcdir,
                outdir,
                doctrees,
                sphinx_config(lang, work / "vendor", work / "locales", downloads),
            )
        problems = run_sphinx(jobs)
        if problems:
            raise SiteError(problems + ["no page was written"])
        site.mkdir()
        for lang, (_, outdir, _, _) in jobs.items():
            outdir.rename(site / lang)
            prune(site / lang)
        (site / "index.html").write_text(root_page(), encoding="utf-8")
        # GitHub Pages publishing from a branch runs Jekyll, which drops folders named _*: not here
        (site / ".nojekyll").write_text("", encoding="utf-8")
        copy_decks(course, site / "slides")
        if config.site_dir.exists():
            config.site_dir.rename(staging / "old-site")
        site.rename(config.site_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    say(f"built {config.relative(config.site_dir)}/: open {config.relative(config.site_dir / 'index.html')}")
    return config.site_dir
