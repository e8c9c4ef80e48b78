"""Small lesson sources and whole courses, made in a temporary folder for the tooling tests."""

import shutil
from pathlib import Path

import jupytext
import nbformat

from course_lib.i18n import NAMES
from course_tools.build.source import BUDGET_KEY, KERNELSPEC, Source, fingerprint
from course_tools.core.config import LANGUAGES, SOURCE_LANGUAGE, TRANSLATIONS, Config
from tests.support import ROOT


def twins(
    en: str, ru: str | None = None, *, texts: dict[str, str] | None = None, tags=(), **meta
) -> list[tuple[str, str, dict]]:
    """A prose cell in every language, each translation stamped as current, all with ``tags`` besides their language's.

    ``ru`` is the Russian twin, ``texts`` any translation's; a twin not given is the English
    followed by the language's name in itself (``Русский``), a paragraph of its own, so that it
    has text in its own script, and the same headings and formulas.
    """
    by_lang = {lang: f"{en}\n\n{NAMES[lang]}" for lang in TRANSLATIONS} | (texts or {})
    by_lang[SOURCE_LANGUAGE] = en
    if ru is not None:
        by_lang["ru"] = ru
    cells = [("markdown", by_lang[SOURCE_LANGUAGE], {"tags": [f"lang-{SOURCE_LANGUAGE}", *tags], **meta})]
    for lang in TRANSLATIONS:
        cells.append(
            (
                "markdown",
                by_lang[lang],
                {"tags": [f"lang-{lang}", *tags], "translation_of": fingerprint(en), **meta},
            )
        )
    return cells


def title(number: int, en: str = "Test lesson", summary: str = "pass the tests", budget_s: int = 10) -> list:
    """The title cells every lesson opens with: ``# N. Title``, an italic summary, the run time in seconds."""
    # in a language without its own words here, the title and summary are the language's name
    texts = {lang: f"# {number}. {NAMES[lang]}\n\n*{NAMES[lang]}*" for lang in TRANSLATIONS}
    cells = twins(
        f"# {number}. {en}\n\n*{summary}*", f"# {number}. Тестовый урок\n\n*проходить тесты*", texts=texts
    )
    cells[0][2][BUDGET_KEY] = budget_s  # on the English title cell only
    return cells


def notebook(*cells) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    for kind, text, meta in cells:
        new = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
        nb.cells.append(new(text, metadata=meta))
    return nb


def source(*cells, name: str = "01_test") -> Source:
    """A source as read from a file, without the file."""
    return Source(name, notebook(*cells))


def write_lesson(root: Path, name: str, *cells) -> Path:
    """Write a lesson source ``notebooks/<name>.md`` below ``root``; return its path."""
    path = root / "notebooks" / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(jupytext.writes(notebook(*cells), fmt="md:myst"), encoding="utf-8")
    return path


def course(root: Path, **renamed) -> Config:
    """An empty course below ``root``, with the real slides and handout templates and READMEs without tables."""
    shutil.copytree(ROOT / "slides" / "template", root / "slides" / "template")
    shutil.copytree(ROOT / "slides" / "handout", root / "slides" / "handout")
    for lang in LANGUAGES:
        (root / "notebooks" / lang).mkdir(parents=True)
    return Config(root=root, renamed=renamed)
