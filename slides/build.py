"""Build the instructor decks: one reveal.js deck per lesson and language, fully offline.

Each deck comes from the lesson's bilingual source (``notebooks/NN_name.md``) rendered for
the slides by ``notebooks/build.py``: cells tagged ``notebook-only`` are left out, cells
tagged ``slides-only`` are kept, and ``slideshow.slide_type`` (slide, subslide, fragment,
skip, notes) becomes reveal.js sections, fragments and speaker notes.

Outputs: a code cell that the lesson's committed notebook also has (same source, same
order) takes that notebook's outputs, which nbval checks in ``make test``. When the
committed notebook is stale, or the slides have code of their own, the slides notebook
is executed instead.

Everything a deck loads is a relative URL into ``slides/assets/``, copied from the pinned
npm packages in ``node_modules/`` (``npm ci``): reveal.js, MathJax 2, require.js, jQuery,
the widget renderer. Opened from ``file://``, a deck sends no request off the machine.

    python slides/build.py          # every lesson, both languages -> slides/en/, slides/ru/
    python slides/build.py 04       # only the lessons whose names start so
"""

import argparse
import copy
import html
import importlib.util
import re
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _load_lessons():
    # notebooks/build.py is the one place that knows the source format; it shares this file's
    # name, so it is loaded by path rather than through sys.path
    spec = importlib.util.spec_from_file_location("course_lessons_build", ROOT / "notebooks" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lessons = _load_lessons()

NODE_MODULES = ROOT / "node_modules"
ASSETS = HERE / "assets"
LANGS = lessons.LANGS

# What the decks load, as (path in node_modules, path in slides/assets). MathJax 2 is a
# large package: only the TeX input, the CommonHTML output, its web fonts, the extensions
# that the TeX-AMS_CHTML-full configuration loads, and the menu's English and Russian texts.
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
    ("mathjax/localization/en", "mathjax/localization/en"),
    ("mathjax/localization/ru", "mathjax/localization/ru"),
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

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
HEADING = re.compile(r"^#\s+(.+?)\s*$", re.M)

TEXT = {
    "en": {
        "course": "The input layer of a Transformer",
        "title": "The input layer of a Transformer — slides",
        "lessons": "Lessons",
        "keys": "Keys",
        "key_list": [
            ("→, Space", "next slide"),
            ("←", "previous slide"),
            ("↓ ↑", "slides within a section"),
            ("S", "speaker notes, in a window of their own"),
            ("F", "full screen (Esc leaves it)"),
            ("Esc", "overview of all slides"),
            ("B", "black screen and back"),
        ],
        "other": "Русская версия",
        "offline": "Everything here works offline: the decks load nothing from the network.",
    },
    "ru": {
        "course": "Входной слой трансформера",
        "title": "Входной слой трансформера — слайды",
        "lessons": "Уроки",
        "keys": "Клавиши",
        "key_list": [
            ("→, пробел", "следующий слайд"),
            ("←", "предыдущий слайд"),
            ("↓ ↑", "слайды внутри раздела"),
            ("S", "заметки докладчика в отдельном окне"),
            ("F", "полноэкранный режим (выход — Esc)"),
            ("Esc", "обзор всех слайдов"),
            ("B", "затемнить экран и вернуть"),
        ],
        "other": "English version",
        "offline": "Всё здесь работает без сети: слайды ничего не загружают из интернета.",
    },
}


# ----------------------------------------------------------------------------- assets


def copy_assets() -> None:
    """Copy what the decks load from node_modules into slides/assets (a build output)."""
    missing = [src for src, _ in ASSET_FILES if not (NODE_MODULES / src).exists()]
    if missing:
        sys.exit(
            f"node_modules/ lacks {', '.join(missing)}: run `npm ci` in the repository root "
            "(`make slides` does it)"
        )
    shutil.rmtree(ASSETS, ignore_errors=True)
    for src, dest in ASSET_FILES:
        src, dest = NODE_MODULES / src, ASSETS / dest
        dest.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dest, ignore=ASSET_IGNORE)
        else:
            shutil.copy2(src, dest)


# ----------------------------------------------------------------------------- decks


def slides_notebook(source_nb, name: str, lang: str, stale: bool):
    """The slides cells of one language, with outputs (reused or freshly computed)."""
    nb = lessons.render(source_nb, lang, target="slides", name=name)
    reason = _reuse_outputs(nb, name, lang, stale)
    if reason:
        print(f"  {lang}/{name}: executing the slides ({reason})")
        nb = lessons.execute(nb, lang)
    nb.metadata["title"] = lesson_title(nb, name)
    return nb


def _reuse_outputs(nb, name: str, lang: str, stale: bool) -> str | None:
    """Fill ``nb``'s code cells from the committed notebook; on failure say why, changing nothing."""
    path = lessons.output_path(name, lang)
    if stale:
        return f"the committed notebooks of {name} are missing or stale"
    import nbformat

    committed = nbformat.read(path, as_version=4)
    done = [c for c in committed.cells if c.cell_type == "code"]
    outputs, pos = {}, 0
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        # in order: two cells with the same code may well print different things
        while pos < len(done) and done[pos].source != cell.source:
            pos += 1
        if pos == len(done):
            return f"cell {i + 1} is not in notebooks/{lang}/{name}.ipynb"
        outputs[i] = done[pos]
        pos += 1
    uses_widgets = False
    for i, twin in outputs.items():
        nb.cells[i].outputs = copy.deepcopy(twin.outputs)
        nb.cells[i].execution_count = twin.execution_count
        uses_widgets |= any(WIDGET_VIEW in out.get("data", {}) for out in twin.outputs)
    if uses_widgets and "widgets" in committed.metadata:
        nb.metadata["widgets"] = copy.deepcopy(committed.metadata["widgets"])
    return None


def lesson_title(nb, name: str) -> str:
    """The first level-1 heading of the deck, e.g. "4. Sinusoidal positional encoding"."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            found = HEADING.search(cell.source)
            if found:
                return found.group(1)
    raise ValueError(f"{name}: the slides have no level-1 heading to use as the deck's title")


def exporter(lang: str):
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    config = Config()
    config.SlidesExporter.update(URLS)
    config.SlidesExporter.update(
        template_name="template",
        extra_template_basedirs=[str(HERE)],
        reveal_theme="white",  # the other themes load web fonts
        reveal_number="c/t",
        language_code=lang,
        # "In [3]:" would be the only English left on a Russian slide
        exclude_input_prompt=True,
        exclude_output_prompt=True,
    )
    return SlidesExporter(config=config)


def write_index(lang: str, decks: list[tuple[str, str]]) -> Path:
    """slides/<lang>/index.html: the lessons' decks and the keys to present them."""
    t = TEXT[lang]
    other = "ru" if lang == "en" else "en"
    items = "\n".join(
        f'  <li><a href="{html.escape(name)}.html">{html.escape(title)}</a></li>' for name, title in decks
    )
    keys = "\n".join(
        f"  <tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in t["key_list"]
    )
    page = f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{html.escape(t["title"])}</title>
<style>
body {{ font-family: sans-serif; max-width: 46em; margin: 2em auto; padding: 0 1em; line-height: 1.5; }}
ul {{ list-style: none; padding-left: 0; }}  /* the titles carry their numbers */
li {{ margin: 0.3em 0; font-size: 1.2em; }}
th {{ text-align: left; padding-right: 1.5em; font-family: monospace; }}
</style>
</head>
<body>
<p><a href="../{other}/index.html" hreflang="{other}">{html.escape(t["other"])}</a></p>
<h1>{html.escape(t["title"])}</h1>
<h2>{html.escape(t["lessons"])}</h2>
<ul>
{items}
</ul>
<h2>{html.escape(t["keys"])}</h2>
<table>
{keys}
</table>
<p>{html.escape(t["offline"])}</p>
</body>
</html>
"""
    path = HERE / lang / "index.html"
    path.write_text(page, encoding="utf-8")
    return path


def build(prefixes: list[str]) -> None:
    copy_assets()
    chosen = [p for p in lessons.sources() if not prefixes or any(p.stem.startswith(x) for x in prefixes)]
    if not chosen:
        sys.exit(f"no lesson source in notebooks/ matches {prefixes or 'NN_*.md'}")
    exporters = {lang: exporter(lang) for lang in LANGS}
    for lang in LANGS:
        (HERE / lang).mkdir(exist_ok=True)
    for path in chosen:
        source_nb = lessons.read_source(path)
        problems = lessons.translation_problems(source_nb, path.stem)
        if problems:
            sys.exit("\n".join(problems))
        # checks the committed notebooks of both languages at once
        stale = bool(lessons.stale_problems(path.stem, source_nb))
        for lang in LANGS:
            nb = slides_notebook(source_nb, path.stem, lang, stale)
            body, _ = exporters[lang].from_notebook_node(nb, resources={"metadata": {"name": path.stem}})
            out = HERE / lang / f"{path.stem}.html"
            out.write_text(body, encoding="utf-8")
            print(f"built {out.relative_to(ROOT)}")
    # the index lists every deck present, including ones built by an earlier partial run
    for lang in LANGS:
        decks = []
        for path in lessons.sources():
            if (HERE / lang / f"{path.stem}.html").exists():
                nb = lessons.render(lessons.read_source(path), lang, target="slides", name=path.stem)
                decks.append((path.stem, lesson_title(nb, path.stem)))
        print(f"built {write_index(lang, decks).relative_to(ROOT)}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("lessons", nargs="*", help="lesson name prefixes, e.g. 04 (default: all)")
    args = parser.parse_args(argv)
    build(args.lessons)
    return 0


if __name__ == "__main__":
    sys.exit(main())
