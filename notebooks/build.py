"""Build the lessons: one bilingual source per lesson -> an executed notebook per language.

Each lesson is one jupytext MyST file, ``notebooks/NN_name.md``. Code cells are written
once. Every prose cell is written twice, tagged ``lang-en`` and ``lang-ru``, the Russian
right below the English. The Russian twin carries ``translation_of``: a short hash of the
English text it translates, so editing the English makes the translation stale until it
is reviewed and re-stamped (``--stamp``).

Cell tags understood here (besides nbval's own ``nbval-ignore-output`` and friends):
``notebook-only`` and ``slides-only`` keep a cell out of the slides or the notebook;
``slides-output-only`` on a code cell shows only its outputs on the slides;
cell metadata ``slideshow.slide_type`` (slide, subslide, fragment, skip, notes) is passed
to the slides untouched, and speaker notes (``notes``) appear in the slides only.
The line ``course_lib.set_language("en")`` in a code cell becomes ``course_lib.set_language("ru")`` in the Russian notebook.

    python notebooks/build.py              # render and execute every lesson, both languages
    python notebooks/build.py 04 05        # only the lessons whose names start so
    python notebooks/build.py --check      # no execution: exit 1 if anything is stale
    python notebooks/build.py --stamp 04   # after reviewing the Russian: accept it as current
"""

import argparse
import copy
import hashlib
import os
import re
import sys
from pathlib import Path

import jupytext
import nbformat

HERE = Path(__file__).resolve().parent
LANGS = ("en", "ru")
LANG_TAGS = {f"lang-{lang}" for lang in LANGS}
TARGETS = ("notebook", "slides")
# metadata that belongs to the source only
SOURCE_ONLY_KEYS = ("translation_of",)
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
SET_LANGUAGE = 'set_language("en")'
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.S)
HEADING = re.compile(r"^(#+) ", re.M)


def sources() -> list[Path]:
    """Every lesson source, in lesson order."""
    return sorted(HERE.glob("[0-9][0-9]_*.md"))


def read_source(path: Path) -> nbformat.NotebookNode:
    return jupytext.read(path, fmt="md:myst")


def fingerprint(text: str) -> str:
    """What a translation records of the English it was made from."""
    return hashlib.sha1(text.strip().encode()).hexdigest()[:10]


def cell_lang(cell) -> str | None:
    tags = set(cell.metadata.get("tags", ())) & LANG_TAGS
    return tags.pop().removeprefix("lang-") if len(tags) == 1 else None


# ----------------------------------------------------------------------------- checks


def translation_problems(nb, name: str) -> list[str]:
    """Prose cells without a twin, twins that disagree, translations gone stale."""
    problems = []
    cells = nb.cells
    i = 0
    while i < len(cells):
        cell = cells[i]
        where = f"{name}, cell {i + 1}"
        if cell.cell_type != "markdown":
            i += 1
            continue
        lang = cell_lang(cell)
        if lang != "en":
            problems.append(
                f"{where}: a prose cell must be tagged lang-en and be followed by its lang-ru twin"
            )
            i += 1
            continue
        twin = cells[i + 1] if i + 1 < len(cells) else None
        if twin is None or twin.cell_type != "markdown" or cell_lang(twin) != "ru":
            problems.append(f"{where}: English cell without a Russian twin right below it")
            i += 1
            continue
        en, ru = cell.source, twin.source
        if twin.metadata.get("translation_of") != fingerprint(en):
            problems.append(
                f"{where}: the Russian translation is stale or unstamped (English changed): "
                f"review it, then run `python notebooks/build.py --stamp {name[:2]}`"
            )
        if not CYRILLIC.search(ru):
            problems.append(f"{where}: the Russian twin has no Russian text")
        if MATH.findall(en) != MATH.findall(ru):
            problems.append(f"{where}: the formulas differ between English and Russian")
        if HEADING.findall(en) != HEADING.findall(ru):
            problems.append(f"{where}: the headings differ between English and Russian")
        if cell.metadata.get("slideshow") != twin.metadata.get("slideshow"):
            problems.append(f"{where}: English and Russian cells have different slideshow metadata")
        en_tags = set(cell.metadata.get("tags", ())) - LANG_TAGS
        ru_tags = set(twin.metadata.get("tags", ())) - LANG_TAGS
        if en_tags != ru_tags:
            problems.append(f"{where}: English and Russian cells have different tags")
        i += 2
    return problems


def stamp(path: Path) -> int:
    """Record, in each Russian cell, the English text it now translates."""
    nb = read_source(path)
    count = 0
    for en, ru in zip(nb.cells, nb.cells[1:], strict=False):
        if cell_lang(en) == "en" and cell_lang(ru) == "ru":
            if ru.metadata.get("translation_of") != fingerprint(en.source):
                ru.metadata["translation_of"] = fingerprint(en.source)
                count += 1
    jupytext.write(nb, path, fmt="md:myst")
    return count


# ----------------------------------------------------------------------------- render


def render(nb, lang: str, target: str = "notebook", name: str = "") -> nbformat.NotebookNode:
    """The cells of one language and one target (notebook or slides), unexecuted."""
    if lang not in LANGS or target not in TARGETS:
        raise ValueError(f"lang must be one of {LANGS} and target one of {TARGETS}")
    skip_tag = "slides-only" if target == "notebook" else "notebook-only"
    out = nbformat.v4.new_notebook()
    out.metadata = {
        "kernelspec": dict(KERNELSPEC),
        "language_info": {"name": "python"},
        "course": {"lesson": name, "lang": lang, "source": f"notebooks/{name}.md"},
    }
    for cell in nb.cells:
        tags = list(cell.metadata.get("tags", ()))
        if skip_tag in tags:
            continue
        if target == "notebook" and cell.metadata.get("slideshow", {}).get("slide_type") == "notes":
            continue  # speaker notes are for the instructor's deck only
        if cell.cell_type == "markdown" and cell_lang(cell) != lang:
            continue
        meta = copy.deepcopy(dict(cell.metadata))
        for key in SOURCE_ONLY_KEYS:
            meta.pop(key, None)
        kept = [t for t in tags if t not in LANG_TAGS]
        if kept:
            meta["tags"] = kept
        else:
            meta.pop("tags", None)
        if cell.cell_type == "code":
            source = cell.source.replace(SET_LANGUAGE, f'set_language("{lang}")')
            new = nbformat.v4.new_code_cell(source, metadata=meta)
        else:
            new = nbformat.v4.new_markdown_cell(cell.source, metadata=meta)
        new.id = f"{lang}-{len(out.cells):03d}"
        out.cells.append(new)
    return out


def output_path(name: str, lang: str) -> Path:
    return HERE / lang / f"{name}.ipynb"


def execute(nb, lang: str) -> nbformat.NotebookNode:
    """Run every cell in a fresh kernel, keeping outputs and widget state."""
    from nbclient import NotebookClient

    os.environ.setdefault("PYTHONHASHSEED", "0")
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(HERE / lang)}},
        record_timing=False,
        store_widget_state=True,
        allow_errors=False,
    )
    client.execute()
    return nb


def stale_problems(name: str, source_nb) -> list[str]:
    """Differences between the committed notebooks of a lesson and what its source renders."""
    problems = []
    for lang in LANGS:
        path = output_path(name, lang)
        if not path.exists():
            problems.append(f"{path.relative_to(HERE.parent)} is missing: run `make notebooks`")
            continue
        committed = nbformat.read(path, as_version=4)
        expected = render(source_nb, lang, name=name)
        got = [(c.cell_type, c.source, _meta(c)) for c in committed.cells]
        want = [(c.cell_type, c.source, _meta(c)) for c in expected.cells]
        if got != want or committed.metadata.get("course") != expected.metadata["course"]:
            problems.append(
                f"{path.relative_to(HERE.parent)} is stale against {name}.md: run `make notebooks`"
            )
            continue
        unexecuted = [
            i + 1 for i, c in enumerate(committed.cells) if c.cell_type == "code" and not c.execution_count
        ]
        if unexecuted:
            problems.append(f"{path.relative_to(HERE.parent)}: cells {unexecuted} were never executed")
    return problems


def _meta(cell) -> dict:
    return {k: v for k, v in cell.metadata.items() if k not in ("execution", "collapsed", "scrolled")}


def check_all() -> list[str]:
    problems = []
    names = [p.stem for p in sources()]
    if not names:
        problems.append("no lesson sources found in notebooks/")
    for lang in LANGS:
        extra = sorted({p.stem for p in (HERE / lang).glob("*.ipynb")} - set(names))
        problems += [f"notebooks/{lang}/{e}.ipynb has no source notebooks/{e}.md" for e in extra]
    for path in sources():
        nb = read_source(path)
        problems += translation_problems(nb, path.stem)
        problems += stale_problems(path.stem, nb)
    return problems


def build(name_prefixes: list[str]) -> None:
    for path in sources():
        if name_prefixes and not any(path.stem.startswith(p) for p in name_prefixes):
            continue
        nb = read_source(path)
        problems = translation_problems(nb, path.stem)
        if problems:
            sys.exit("\n".join(problems))
        for lang in LANGS:
            out = execute(render(nb, lang, name=path.stem), lang)
            output_path(path.stem, lang).parent.mkdir(exist_ok=True)
            nbformat.write(out, output_path(path.stem, lang))
            print(f"built notebooks/{lang}/{path.stem}.ipynb")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("lessons", nargs="*", help="lesson name prefixes, e.g. 04 (default: all)")
    parser.add_argument("--check", action="store_true", help="only check: sources complete, notebooks fresh")
    parser.add_argument("--stamp", action="store_true", help="accept the current Russian text as translated")
    args = parser.parse_args(argv)
    if args.check:
        problems = check_all()
        print("\n".join(problems) or "notebooks are fresh and every translation is current")
        return 1 if problems else 0
    if args.stamp:
        for path in sources():
            if not args.lessons or any(path.stem.startswith(p) for p in args.lessons):
                print(f"{path.name}: {stamp(path)} translations stamped")
        return 0
    build(args.lessons)
    return 0


if __name__ == "__main__":
    sys.exit(main())
