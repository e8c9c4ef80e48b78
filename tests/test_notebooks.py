"""The lessons: every source complete in both languages, every committed notebook fresh."""

import jupytext
import nbformat
import pytest

from tests.support import ROOT, load_script

build = load_script("notebooks/build.py")

LESSONS = [p.stem for p in build.sources()]
EXPECTED_LESSONS = [
    "00_start_here",
    "01_text_to_ids",
    "02_token_embeddings",
    "03_why_position",
    "04_sinusoidal_encoding",
    "05_putting_it_together",
]


def test_every_lesson_exists_in_both_languages():
    assert LESSONS == EXPECTED_LESSONS
    for lang in build.LANGS:
        assert sorted(p.stem for p in (ROOT / "notebooks" / lang).glob("*.ipynb")) == EXPECTED_LESSONS


@pytest.mark.parametrize("name", LESSONS)
def test_translations_complete_and_current(name):
    nb = build.read_source(ROOT / "notebooks" / f"{name}.md")
    assert build.translation_problems(nb, name) == []


@pytest.mark.parametrize("name", LESSONS)
def test_committed_notebooks_are_fresh(name):
    nb = build.read_source(ROOT / "notebooks" / f"{name}.md")
    assert build.stale_problems(name, nb) == []


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_is_a_good_lesson(name):
    """Shape of a lesson: a setup cell first, seeds and print options, a kernelspec."""
    nb = nbformat.read(ROOT / "notebooks" / "en" / f"{name}.ipynb", as_version=4)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert "torch.manual_seed(0)" in code[0] and "set_printoptions" in code[0]
    assert 'course_lib.set_language("en")' in code[0]
    ru = nbformat.read(ROOT / "notebooks" / "ru" / f"{name}.ipynb", as_version=4)
    assert 'course_lib.set_language("ru")' in [c.source for c in ru.cells if c.cell_type == "code"][0]


# --- the build script itself, on small sources made here --------------------------------------


def make_source(*cells):
    nb = nbformat.v4.new_notebook()
    for kind, text, meta in cells:
        new = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
        nb.cells.append(new(text, metadata=meta))
    return nb


def pair(en, ru, **meta):
    return [
        ("markdown", en, {"tags": ["lang-en"], **meta}),
        ("markdown", ru, {"tags": ["lang-ru"], "translation_of": build.fingerprint(en), **meta}),
    ]


def test_render_keeps_one_language_and_switches_set_language():
    nb = make_source(
        *pair("Hello $x^2$", "Привет $x^2$"),
        ("code", 'course_lib.set_language("en")', {}),
        ("code", "slides_only()", {"tags": ["slides-only"]}),
        ("code", "notebook_only()", {"tags": ["notebook-only", "nbval-ignore-output"]}),
        *pair("Ask the class.", "Спросите аудиторию.", slideshow={"slide_type": "notes"}),
    )
    ru = build.render(nb, "ru", name="99_test")
    assert [c.source for c in ru.cells] == [
        "Привет $x^2$",
        'course_lib.set_language("ru")',
        "notebook_only()",
    ]
    assert ru.cells[2].metadata["tags"] == ["notebook-only", "nbval-ignore-output"]
    assert "translation_of" not in ru.cells[0].metadata and "tags" not in ru.cells[0].metadata
    slides = build.render(nb, "en", target="slides", name="99_test")
    assert [c.source for c in slides.cells] == [
        "Hello $x^2$",
        'course_lib.set_language("en")',
        "slides_only()",
        "Ask the class.",
    ]


def test_missing_twin_is_reported():
    nb = make_source(("markdown", "Only English", {"tags": ["lang-en"]}))
    assert "without a Russian twin" in build.translation_problems(nb, "99_test")[0]


def test_untagged_prose_is_reported():
    nb = make_source(("markdown", "Who am I?", {}))
    assert "must be tagged lang-en" in build.translation_problems(nb, "99_test")[0]


def test_stale_translation_is_reported():
    cells = pair("The table has 5 rows.", "В таблице 5 строк.")
    cells[0] = ("markdown", "The table has 6 rows.", cells[0][2])  # English edited afterwards
    problems = build.translation_problems(make_source(*cells), "99_test")
    assert len(problems) == 1 and "stale" in problems[0]


def test_formula_mismatch_is_reported():
    problems = build.translation_problems(make_source(*pair("$a + b$", "формула $a - b$")), "99_test")
    assert any("formulas differ" in p for p in problems)


def test_russian_twin_must_be_russian():
    problems = build.translation_problems(make_source(*pair("Hello", "Hello")), "99_test")
    assert any("no Russian text" in p for p in problems)


def test_slideshow_metadata_must_match():
    cells = pair("Title", "Заголовок")
    cells[0][2]["slideshow"] = {"slide_type": "slide"}
    problems = build.translation_problems(make_source(*cells), "99_test")
    assert any("slideshow" in p for p in problems)


def test_edited_committed_notebook_is_stale(tmp_path, monkeypatch):
    src = make_source(*pair("Hi", "Привет"), ("code", "1 + 1", {}))
    monkeypatch.setattr(build, "HERE", tmp_path)
    for lang in build.LANGS:
        nb = build.render(src, lang, name="99_test")
        nb.cells[1].execution_count = 1
        (tmp_path / lang).mkdir()
        nbformat.write(nb, tmp_path / lang / "99_test.ipynb")
    assert build.stale_problems("99_test", src) == []
    edited = nbformat.read(tmp_path / "ru" / "99_test.ipynb", as_version=4)
    edited.cells[1].source = "1 + 2"
    nbformat.write(edited, tmp_path / "ru" / "99_test.ipynb")
    assert "stale" in build.stale_problems("99_test", src)[0]


def test_stamp_round_trips_the_source(tmp_path):
    path = tmp_path / "99_test.md"
    nb = make_source(*pair("One.", "Один."))
    nb.cells[1].metadata.pop("translation_of")
    nb.metadata["kernelspec"] = build.KERNELSPEC
    jupytext.write(nb, path, fmt="md:myst")
    assert build.stamp(path) == 1
    assert build.translation_problems(build.read_source(path), "99_test") == []
