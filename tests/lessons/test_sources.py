"""Lesson sources: read with clear errors, checked twin by twin, rendered per language, stamped safely."""

from pathlib import Path

import pytest

from course_lib import exercises
from course_lib.i18n import NAMES, pseudo
from course_tools.build.source import (
    SourceError,
    code_cell_problems,
    read_source,
    render,
    stamp,
    translation_problems,
)
from course_tools.core.config import CONFIG, LANGUAGES, PSEUDO, TRANSLATIONS
from tests.lessons.support import notebook, source, title, twins, write_lesson

HEADER = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3 (ipykernel)
  language: python
  name: python3
---
"""


def write(tmp_path: Path, body: str, name: str = "07_broken") -> Path:
    path = tmp_path / "notebooks" / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + body, encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- reading


UNCLOSED_CODE = """
+++ {"tags": ["lang-en"]}

One

+++ {"tags": ["lang-ru"], "translation_of": "x"}

Один

```{code-cell} ipython3
x = 1

+++ {"tags": ["lang-en"]}

Two

+++ {"tags": ["lang-ru"], "translation_of": "y"}

Два
"""


def test_an_unclosed_code_cell_is_reported_with_its_line(tmp_path):
    """Before: jupytext read the twins below into the code, the checks passed, the kernel said
    `TypeError: bad operand type for unary +: 'dict'`."""
    path = write(tmp_path, UNCLOSED_CODE)
    with pytest.raises(
        SourceError, match=r"notebooks/07_broken\.md, line 20: this code cell is not closed: line 23"
    ):
        read_source(path)


def test_a_code_cell_left_open_at_the_end_is_reported(tmp_path):
    path = write(tmp_path, '\n+++ {"tags": ["lang-en"]}\n\nOne\n\n```{code-cell} ipython3\nx = 1\n')
    with pytest.raises(SourceError, match=r"07_broken\.md, line 16: this code cell is never closed"):
        read_source(path)


def test_an_unclosed_fence_in_prose_is_reported(tmp_path):
    body = '\n+++ {"tags": ["lang-en"]}\n\nSee:\n\n```python\nx = 1\n\n```{code-cell} ipython3\ny = 2\n```\n'
    with pytest.raises(
        SourceError, match=r"line 16: the ``` block opened in the prose here is not closed before line 19"
    ):
        read_source(write(tmp_path, body))


def test_every_unclosed_cell_is_reported_at_once(tmp_path):
    body = UNCLOSED_CODE + "\n```{code-cell} ipython3\ny = 2\n\n+++\n\nThree\n"
    with pytest.raises(SourceError) as raised:
        read_source(write(tmp_path, body))
    assert len(raised.value.problems) == 2


def test_fenced_code_in_prose_and_a_longer_fence_are_fine(tmp_path):
    body = (
        '\n+++ {"tags": ["lang-en"]}\n\nCode:\n\n```python\nx = 1\n```\n\n'
        "````{code-cell} ipython3\nprint('```')\n````\n"
    )
    src = read_source(write(tmp_path, body))
    assert [c.cell_type for c in src.cells] == ["markdown", "code"]
    assert src.lines == [12, 20]


def test_broken_json_metadata_names_the_lesson_and_line(tmp_path):
    path = write(tmp_path, '\n+++ {"tags": ["lang-en"}\n\nOne\n')
    with pytest.raises(
        SourceError, match=r"^notebooks/07_broken\.md, line 12: the cell metadata .* cannot be read"
    ):
        read_source(path)


def test_broken_yaml_metadata_names_the_lesson_and_line(tmp_path):
    path = write(
        tmp_path, "\n```{code-cell} ipython3\n---\nslideshow:\n  slide_type: [skip\n---\nx = 1\n```\n"
    )
    with pytest.raises(
        SourceError, match=r"^notebooks/07_broken\.md, line 12: the cell metadata .*Invalid YAML"
    ):
        read_source(path)


def test_a_broken_header_names_the_lesson(tmp_path):
    path = tmp_path / "07_broken.md"
    path.write_text("---\njupytext: [oops\n---\n\nText\n", encoding="utf-8")
    with pytest.raises(SourceError, match=r"^[^\n]*07_broken\.md(, line \d+)?: the cell metadata"):
        read_source(path)


def test_messages_name_the_line_of_each_cell():
    src = read_source(CONFIG.source("05_sinusoidal_encoding"))
    lines = CONFIG.source("05_sinusoidal_encoding").read_text(encoding="utf-8").splitlines()
    assert len(src.lines) == len(src.cells)
    for index, cell in enumerate(src.cells):
        opening = lines[src.lines[index] - 1]
        assert opening.startswith("```{code-cell}" if cell.cell_type == "code" else "+++")
    assert src.where(1).startswith("notebooks/05_sinusoidal_encoding.md, line ")


# ----------------------------------------------------------------------------- twins


def test_missing_twin_is_reported():
    src = source(("markdown", "Only English", {"tags": ["lang-en"]}))
    assert [p for p in translation_problems(src) if "twin right below it" in p]


def test_untagged_prose_is_reported():
    assert "must be tagged lang-en" in translation_problems(source(("markdown", "Who am I?", {})))[0]


def test_stale_translation_is_reported():
    cells = twins("The table has 5 rows.", "В таблице 5 строк.")
    cells[0] = ("markdown", "The table has 6 rows.", cells[0][2])  # English edited afterwards
    problems = translation_problems(source(*cells))
    assert len(problems) == len(TRANSLATIONS) and all("stale" in p for p in problems)
    assert "python -m course_tools.lessons stamp 01" in problems[0]


def test_formula_mismatch_is_reported():
    assert any(
        "formulas differ" in p for p in translation_problems(source(*twins("$a + b$", "формула $a - b$")))
    )


def test_each_translation_must_be_in_its_own_script():
    problems = translation_problems(source(*twins("Hello", "Hello")))
    assert any("has no text in Русский" in p for p in problems)


def test_slideshow_metadata_must_match():
    cells = twins("Title", "Заголовок")
    cells[0][2]["slideshow"] = {"slide_type": "slide"}
    assert any("slideshow" in p for p in translation_problems(source(*cells)))


def test_both_twins_need_the_table_marker():
    cells = twins("## Lessons\n\n<!-- lesson-table -->", "## Уроки")
    assert any("<!-- lesson-table -->" in p for p in translation_problems(source(*cells)))


# ----------------------------------------------------------------------------- code cells


def test_slides_only_code_is_a_source_problem():
    src = source(("code", "print('only on the slides')", {"tags": ["slides-only"]}))
    assert "only prose may be slides-only" in code_cell_problems(src)[0]


def test_an_exercise_cell_names_a_known_template():
    src = source(("code", "# the template", {"exercise_template": "no_such_exercise"}))
    (problem,) = code_cell_problems(src)
    assert "'no_such_exercise' is not an exercise of course_lib.exercises" in problem
    assert "positional_encoding" in problem


def test_an_exercise_cell_holds_only_a_comment():
    src = source(("code", "import torch\nclass Mine: ...", {"exercise_template": "pad_batch"}))
    assert "leave only a one-line comment here, got 2 lines" in code_cell_problems(src)[0]


# ----------------------------------------------------------------------------- render


def test_render_keeps_one_language_and_switches_set_language():
    src = source(
        *twins("Hello $x^2$", "Привет $x^2$"),
        ("code", 'course_lib.set_language("en")', {}),
        ("code", "notebook_only()", {"tags": ["notebook-only", "nbval-ignore-output"]}),
        *twins("Ask the class.", "Спросите аудиторию.", slideshow={"slide_type": "notes"}),
    )
    ru = render(src, "ru")
    assert [c.source for c in ru.cells] == [
        "Привет $x^2$",
        'course_lib.set_language("ru")',
        "notebook_only()",
    ]
    assert ru.cells[2].metadata["tags"] == ["notebook-only", "nbval-ignore-output"]
    assert "translation_of" not in ru.cells[0].metadata and "tags" not in ru.cells[0].metadata
    slides = render(src, "en", target="slides")
    assert [c.source for c in slides.cells] == [
        "Hello $x^2$",
        'course_lib.set_language("en")',
        "Ask the class.",
    ]


def test_render_of_each_language_has_its_own_prose(lang):
    src = source(*title(1), ("code", 'course_lib.set_language("en")', {}))
    nb = render(src, lang)
    assert nb.metadata["course"] == {"lesson": "01_test", "lang": lang}
    assert nb.cells[1].source == f'course_lib.set_language("{lang}")'
    assert [c.id for c in nb.cells] == [f"{lang}-000", f"{lang}-001"]


def test_the_pseudo_language_renders_the_english_prose_accented():
    src = source(
        *twins("# 1. Hello world\n\n- a point about `x`, $y$", "# 1. Привет"),
        ("code", 'set_language("en")', {}),
    )
    nb = render(src, PSEUDO)
    assert nb.cells[0].source == f"# {pseudo('1. Hello world')}\n\n- {pseudo('a point about `x`, $y$')}"
    assert nb.cells[1].source == f'set_language("{PSEUDO}")'


def test_render_fills_in_the_exercise_template():
    src = source(
        (
            "code",
            "# filled in by the build",
            {"exercise_template": "token_embedding", "tags": ["notebook-only"]},
        )
    )
    for lang in LANGUAGES:
        (cell,) = render(src, lang).cells
        assert cell.source == exercises.registry()["token_embedding"].template_in(lang).rstrip("\n")
        assert cell.metadata == {"exercise_template": "token_embedding", "tags": ["notebook-only"]}


def test_render_replaces_the_table_marker_in_each_language():
    marked = {lang: f"## {NAMES[lang]}\n\n<!-- lesson-table -->" for lang in TRANSLATIONS}
    src = source(
        *twins("## Lessons\n\n<!-- lesson-table -->", "## Уроки\n\n<!-- lesson-table -->", texts=marked)
    )
    for lang in LANGUAGES:
        nb = render(src, lang, table=lambda lang: f"| table in {lang} |")
        assert nb.cells[0].source.endswith(f"| table in {lang} |")
    with pytest.raises(ValueError, match="needs the lesson table"):
        render(src, "en")


def test_render_refuses_an_unknown_language_or_target():
    with pytest.raises(ValueError, match=r"lang must be one of .*, got 'xx'"):
        render(source(), "xx")
    with pytest.raises(ValueError, match=r"target must be one of \('notebook', 'slides'\), got 'pdf'"):
        render(source(), "en", target="pdf")


# ----------------------------------------------------------------------------- stamp


def test_stamp_round_trips_the_source(tmp_path):
    cells = twins("One.", "Один.")
    for _, _, meta in cells[1:]:
        del meta["translation_of"]
    path = write_lesson(tmp_path, "01_test", *cells)
    assert stamp(path) == len(TRANSLATIONS)
    assert translation_problems(read_source(path)) == []
    assert stamp(path) == 0


def test_stamp_never_rewrites_a_source_it_cannot_read(tmp_path):
    path = write(tmp_path, UNCLOSED_CODE.replace('"translation_of": "x"', '"translation_of": "stale"'))
    before = path.read_bytes()
    with pytest.raises(SourceError, match="this code cell is not closed"):
        stamp(path)
    assert path.read_bytes() == before


def test_helpers_make_readable_sources(tmp_path):
    path = write_lesson(tmp_path, "01_test", *title(1), ("code", "x = 1", {}))
    cells = lambda nb: [(c.cell_type, c.source, c.metadata) for c in nb.cells]  # noqa: E731
    assert cells(read_source(path).nb) == cells(notebook(*title(1), ("code", "x = 1", {})))
