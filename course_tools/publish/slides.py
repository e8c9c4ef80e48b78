"""The decks' build behind ``python -m course_tools.slides`` (whose docstring says what a deck is): each
lesson's deck and handout page per language, the index pages and the assets they load, staged in a
temporary folder inside ``slides/`` and moved into place only when everything is made.
"""

import copy
import json
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

import nbformat

from course_lib.widgets import encodings

from ..build.course import Course
from ..build.source import DEEP_DIVE
from ..core.config import CONFIG, LANGUAGES, Config
from ..core.files import blocked, copy_sources, missing_sources
from ..core.templates import render
from .fonts import STYLESHEET, FontsError, copy_fonts
from .handout_pages import handout_name, handout_notebook, pdf_name
from .messages import SLIDES_INDEX as TEXT
from .speaker_view import SpeakerViewError, notes_file, reveal_file, translate_notes, translate_reveal

__all__ = [
    "SlidesError",
    "TEXT",
    "ASSET_FILES",
    "ANYWIDGET_FILES",
    "map_anywidget",
    "deck_notebook",
    "index_page",
    "course_index",
    "deck_resources",
    "build",
]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

# The explorers' widget class (course_lib/widgets/live.py), an AMD module that require.js is told
# to load from here: the widget renderer would otherwise build a CDN address from its version range
ANYWIDGET_FILES = [
    ("anywidget/dist/index.js", "anywidget/index.js"),
    ("anywidget/LICENSE", "anywidget/LICENSE"),
]

# What the decks load, as (path in node_modules, path in slides/assets). MathJax 2 is a
# large package: only the TeX input, the CommonHTML output, its web fonts, the extensions
# that the TeX-AMS_CHTML-full configuration loads, and the menu's texts in the course's languages
# (mathjax_localizations: those MathJax has).
ASSET_FILES = [
    ("reveal.js/dist/reveal.js", "reveal.js/dist/reveal.js"),
    ("reveal.js/dist/reveal.css", "reveal.js/dist/reveal.css"),
    ("reveal.js/dist/theme/white.css", "reveal.js/dist/theme/white.css"),
    ("reveal.js/dist/theme/fonts/source-sans-pro", "reveal.js/dist/theme/fonts/source-sans-pro"),
    ("reveal.js/plugin/notes/notes.js", "reveal.js/plugin/notes/notes.js"),
    ("reveal.js/LICENSE", "reveal.js/LICENSE"),
    ("requirejs/require.js", "require.js"),
    ("jquery/dist/jquery.min.js", "jquery.min.js"),
    ("@jupyter-widgets/html-manager/dist", "html-manager"),
    *ANYWIDGET_FILES,
    ("mathjax/MathJax.js", "mathjax/MathJax.js"),
    ("mathjax/LICENSE", "mathjax/LICENSE"),
    ("mathjax/config/TeX-AMS_CHTML-full.js", "mathjax/config/TeX-AMS_CHTML-full.js"),
    ("mathjax/config/Safe.js", "mathjax/config/Safe.js"),
    ("mathjax/extensions", "mathjax/extensions"),
    ("mathjax/jax/input/TeX", "mathjax/jax/input/TeX"),
    ("mathjax/jax/output/CommonHTML", "mathjax/jax/output/CommonHTML"),
    ("mathjax/jax/output/PreviewHTML", "mathjax/jax/output/PreviewHTML"),
    ("mathjax/jax/element", "mathjax/jax/element"),
    ("mathjax/fonts/HTML-CSS/TeX/woff", "mathjax/fonts/HTML-CSS/TeX/woff"),
]
ASSET_IGNORE = shutil.ignore_patterns(
    "a11y",  # MathJax's accessibility explorer (3.7 MB): loaded only when switched on in its menu
    "*.map",
    # Chromium takes woff2/woff; the widget renderer also ships a non-AMD bundle the decks never load
    "*.eot",
    "*.ttf",
    "*.svg",
    "embed.js*",
    "libembed-amd.js",
)

# relative to a deck in slides/<lang>/
URLS = {
    "reveal_url_prefix": "../assets/reveal.js",
    "mathjax_url": "../assets/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe",
    "require_js_url": "../assets/require.js",
    "jquery_url": "../assets/jquery.min.js",
    "widget_renderer_url": "../assets/html-manager/embed-amd.js",
}
# the course's fonts (course_tools.publish.fonts), which the template and the index pages load
FONTS_URL = f"../assets/{STYLESHEET}"

ANYWIDGET_URL = "../assets/anywidget/index"  # require.js adds the .js
WIDGET_RENDERER_DIR = URLS["widget_renderer_url"].rsplit("/", 1)[0]  # and the renderer's icon fonts
# the handouts' nbconvert template, a folder beside the decks' (slides/handout/)
HANDOUT_TEMPLATE = "handout"
NOTES_PLUGIN = "reveal.js/plugin/notes"
REVEAL_DIST = "reveal.js/dist"


def deck_resources(name: str, lang: str) -> dict:
    """What the decks' and handouts' templates read besides the notebook: texts in ``lang``, URLs."""
    return {
        "metadata": {"name": name},
        "course_fonts_url": FONTS_URL,
        "course_notes_js": f"{URLS['reveal_url_prefix']}/plugin/notes/{notes_file(lang)}",
        "course_reveal_js": f"{URLS['reveal_url_prefix']}/dist/{reveal_file(lang)}",
        "course_text": {key: TEXT(key, lang) for key in ("full_code", "notes_heading")},
    }


def map_anywidget(deck: str) -> str:
    """The deck with require.js told where anywidget is, right after require.js loads (before any widget)."""
    tag = f'<script src="{URLS["require_js_url"]}"></script>'
    if tag not in deck:
        raise SlidesError(
            [f"the deck template no longer loads require.js as {tag}: map_anywidget must follow it"]
        )
    # waitSeconds 0: no time limit on a module's load (require.js gives up after 7 s by default, and the
    # widget renderer then looks for anywidget on a CDN; on a busy machine a deck's load took longer).
    # The renderer's AMD modules ("@jupyter-widgets/base", "@jupyter-widgets/html-manager/dist/libembed-amd", ...)
    # each declare its icon fonts relative to the URL require.js gives the module: without these paths,
    # <deck folder>/@jupyter-widgets/..., which does not exist (the site's widgets-setup.js does the same)
    paths = {
        "anywidget": ANYWIDGET_URL,
        "@jupyter-widgets/html-manager/dist": WIDGET_RENDERER_DIR,
        "@jupyter-widgets": WIDGET_RENDERER_DIR,
    }
    config = f"<script>require.config({json.dumps({'waitSeconds': 0, 'paths': paths})});</script>"
    return deck.replace(tag, tag + "\n" + config, 1)


# the keys the index page explains, in its order: entries key_<name> and does_<name> of TEXT
KEYS = ("next", "previous", "section", "notes", "full_screen", "overview", "black")


class SlidesError(ValueError):
    """A slides build that wrote nothing; ``problems`` says why."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


# ----------------------------------------------------------------------------- decks


def deck_notebook(course: Course, name: str, lang: str) -> nbformat.NotebookNode:
    """The slides of one lesson in one language, every output taken from its committed notebook.

    The caller has checked that the committed notebook is fresh: then its code cells are the
    deck's code cells plus the ``notebook-only`` and ``deep-dive`` ones, in the same order.
    """
    deck = course.render(name, lang, target="slides")
    committed = nbformat.read(course.config.notebook(name, lang), as_version=4)
    done = [
        c
        for c in committed.cells
        if c.cell_type == "code" and not {"notebook-only", DEEP_DIVE} & set(c.metadata.get("tags", ()))
    ]
    shown = [c for c in deck.cells if c.cell_type == "code"]
    if [c.source for c in done] != [c.source for c in shown]:
        raise SlidesError(
            [
                f"{course.config.relative(course.config.notebook(name, lang))} does not match its deck: run `python -m course_tools.lessons build {name[:2]}`"
            ]
        )
    uses_widgets = False
    for cell, twin in zip(shown, done, strict=True):
        cell.outputs = copy.deepcopy(twin.outputs)
        cell.execution_count = twin.execution_count
        uses_widgets |= any(WIDGET_VIEW in out.get("data", {}) for out in twin.outputs)
    if uses_widgets and "widgets" in committed.metadata:
        deck.metadata["widgets"] = copy.deepcopy(committed.metadata["widgets"])
    deck.metadata["title"] = course.titles[name].heading(lang)
    return deck


def exporter(lang: str, config: Config, handout: bool = False):
    """nbconvert's exporter of a deck (reveal.js) or, with ``handout``, of its handout (a plain page)."""
    from nbconvert import HTMLExporter, SlidesExporter
    from traitlets.config import Config as TraitletsConfig

    settings = TraitletsConfig()
    if handout:
        settings.HTMLExporter.update({k: v for k, v in URLS.items() if k != "reveal_url_prefix"})
        settings.HTMLExporter.update(
            template_name=HANDOUT_TEMPLATE,
            extra_template_basedirs=[str(config.slides_template.parent)],
            language_code=lang,
            exclude_input_prompt=True,
            exclude_output_prompt=True,
        )
        return HTMLExporter(config=settings)
    settings.SlidesExporter.update(URLS)
    settings.SlidesExporter.update(
        template_name=config.slides_template.name,
        extra_template_basedirs=[str(config.slides_template.parent)],
        reveal_theme="white",  # the other themes load web fonts
        reveal_number="c/t",
        language_code=lang,
        # "In [3]:" would be the only English left on a Russian slide
        exclude_input_prompt=True,
        exclude_output_prompt=True,
    )
    return SlidesExporter(config=settings)


def index_page(lang: str, decks: list[tuple[str, str]], pdfs: frozenset[str] = frozenset()) -> str:
    """``slides/<lang>/index.html``: links to the other languages, the decks with their handouts (and
    PDFs, those in ``pdfs``), the keys to present them."""
    return render(
        "publish/slides_index.html.j2",
        lang=lang,
        others=[other for other in LANGUAGES if other != lang],
        decks=decks,
        pdfs=pdfs,
        keys=KEYS,
        fonts_url=FONTS_URL,
        t=lambda key, in_lang=lang: TEXT(key, in_lang),
    )


def course_index(course: Course, lang: str, names: Sequence[str] = ()) -> str:
    """The index page of ``lang``: every deck there will be (``names``, being built, and those an
    earlier run built), with its handout, and its PDF where ``make handouts`` has printed it."""
    slides = course.config.slides_dir / lang
    decks = [
        (name, course.titles[name].heading(lang))
        for name in course.names
        if name in course.titles and (name in names or (slides / f"{name}.html").exists())
    ]
    pdfs = frozenset(name for name, _ in decks if (slides / pdf_name(name)).exists())
    return index_page(lang, decks, pdfs)


# ----------------------------------------------------------------------------- build


def mathjax_localizations(node_modules: Path) -> list[tuple[str, str]]:
    """MathJax 2's menu texts in each course language it has texts for, as ``ASSET_FILES`` lists files.

    MathJax lists its own languages and never asks for another: a language of the course that MathJax
    lacks (Hindi, Romanian, ...) needs none, and is no reason to stop the build.
    """
    folder = "mathjax/localization"
    return [
        (f"{folder}/{lang}", f"{folder}/{lang}")
        for lang in LANGUAGES
        if (node_modules / folder / lang).is_dir()
    ]


def copy_assets(config: Config, dest: Path) -> None:
    """Copy what the decks load from node_modules into ``dest`` (the future slides/assets)."""
    files = ASSET_FILES + mathjax_localizations(config.node_modules)
    missing = missing_sources(config.node_modules, files)
    if missing:
        raise SlidesError(
            [
                f"node_modules/ lacks {', '.join(missing)}: run `npm ci` in the repository root "
                "(`make slides` does it)"
            ]
        )
    copy_sources(config.node_modules, files, dest, ignore=ASSET_IGNORE)
    # lesson 2's comparator loads gpt-tokenizer's encoders from beside the widget renderer
    # from lesson 2's own npm project (course_lib.bpe.vocabularies.NODE_MODULES): without them a page's
    # comparator could only say "not in this copy", so the build stops instead
    try:
        encodings.write_scripts(dest / encodings.FOLDER)
    except FileNotFoundError as error:
        raise SlidesError([str(error)]) from None
    # each language's copies of reveal.js's core and notes plugin, their words translated
    for folder, original, name, translate in (
        (NOTES_PLUGIN, "notes.js", notes_file, translate_notes),
        (REVEAL_DIST, "reveal.js", reveal_file, translate_reveal),
    ):
        source = config.node_modules / folder / original
        for lang in LANGUAGES:
            if name(lang) != original and source.exists():
                try:
                    text = translate(source.read_text(encoding="utf-8"), lang)
                except SpeakerViewError as error:
                    raise SlidesError([str(error)]) from None
                (dest / folder / name(lang)).write_text(text, encoding="utf-8")
    try:
        copy_fonts(config.node_modules, dest)
    except FontsError as error:
        raise SlidesError([str(error)]) from None


def build(prefixes: Sequence[str] = (), config: Config = CONFIG, say=print) -> list[Path]:
    """Build the decks of the chosen lessons and every index page; all of them, or nothing.

    Raises :class:`SlidesError` (nothing written) when a lesson's source has problems or its
    committed notebooks are stale, and ``LessonSelectionError`` for a lesson that does not exist.
    """
    course = Course.load(config)
    names = course.select(list(prefixes))
    problems = course.committed_problems(names)
    pages = [config.slides_dir / lang / f"{page}.html" for lang in LANGUAGES for page in [*names, "index"]]
    pages += [config.slides_dir / lang / handout_name(name) for lang in LANGUAGES for name in names]
    problems += blocked(pages, config.relative)  # else the move into place would stop halfway
    if problems:
        raise SlidesError(problems + ["no deck was written"])

    config.slides_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=config.slides_dir, prefix=".build-"))
    try:
        copy_assets(config, staging / "assets")
        for lang in LANGUAGES:
            export, export_handout = exporter(lang, config), exporter(lang, config, handout=True)
            (staging / lang).mkdir()
            for name in names:
                deck = deck_notebook(course, name, lang)
                body, _ = export.from_notebook_node(deck, resources=deck_resources(name, lang))
                (staging / lang / f"{name}.html").write_text(map_anywidget(body), encoding="utf-8")
                body, _ = export_handout.from_notebook_node(
                    handout_notebook(deck, lang), resources=deck_resources(name, lang)
                )
                (staging / lang / handout_name(name)).write_text(map_anywidget(body), encoding="utf-8")
            (staging / lang / "index.html").write_text(course_index(course, lang, names), encoding="utf-8")
        written = _move_into_place(staging, config.slides_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    for path in written:
        if path.suffix == ".html" and not path.name.endswith(".handout.html"):
            say(f"built {config.relative(path)}")
    return written


def _move_into_place(staging: Path, slides: Path) -> list[Path]:
    """Swap the new assets folder in, then rename each new page over the old one."""
    old = slides / "assets"
    trash = staging / "old-assets"
    if old.exists():
        old.rename(trash)
    (staging / "assets").rename(old)
    written = [old]
    for lang in LANGUAGES:
        (slides / lang).mkdir(exist_ok=True)
        for page in sorted((staging / lang).iterdir()):
            target = slides / lang / page.name
            page.replace(target)
            written.append(target)
    return written
