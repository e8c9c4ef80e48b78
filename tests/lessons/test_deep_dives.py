"""The round's tags in the sources: deep dives (checked, kept in the notebook, left out of the deck),
speaker-notes prose (prose in the notebook, the slide's notes in the deck)."""

from course_tools.build.source import deep_dive_problems, deep_dives, render, translation_problems
from tests.lessons.support import source, title, twins

DIVE = ["deep-dive"]


def dive(en="### Deep dive: history\n\nOld.", ru="### Подробнее: история\n\nСтарое.") -> list:
    return [*twins(en, ru, tags=DIVE), ("code", "print('deep')", {"tags": DIVE})]


def test_a_deep_dive_is_kept_in_the_notebook_and_left_out_of_the_deck():
    src = source(*title(1), *dive(), *twins("Main.", "Основное."), ("code", "print(1)", {}))
    assert deep_dive_problems(src) == [] and translation_problems(src) == []
    for lang in ("en", "ru"):
        notebook = render(src, lang, "notebook")
        assert [list(r) for r in deep_dives(notebook.cells)] == [[1, 2]]
        deck = render(src, lang, "slides")
        assert all("deep-dive" not in c.metadata.get("tags", ()) for c in deck.cells)
        assert "print('deep')" not in [c.source for c in deck.cells]
        assert "print(1)" in [c.source for c in deck.cells]


def test_a_deep_dive_without_its_heading_is_reported_per_language():
    src = source(*title(1), *dive(en="Deep dive without a heading."))
    assert deep_dive_problems(src) == [
        "01_test.md, cell 3: a deep dive's first lang-en line must be '### Deep dive: <title>', "
        "got 'Deep dive without a heading.'"
    ]
    src = source(*title(1), *dive(ru="### Deep dive: история\n\nСтарое."))
    found = deep_dive_problems(src)
    assert len(found) == 1 and "lang-ru line must be '### Подробнее: <title>'" in found[0]
    src = source(*title(1), *dive(en="### Deep dive: \n\nNo title."))
    assert "must be '### Deep dive: <title>'" in deep_dive_problems(src)[0]


def test_a_deep_dive_that_opens_with_code_or_holds_a_section_heading_is_reported():
    src = source(*title(1), ("code", "x = 1", {"tags": DIVE}), *dive())
    found = deep_dive_problems(src)
    assert len(found) == 2 and all("before any code" in p for p in found)
    src = source(*title(1), *dive(), *twins("Text.\n\n### Another", "Текст.\n\n### Другое", tags=DIVE))
    found = deep_dive_problems(src)
    assert len(found) == 2 and all("use #### inside a deep dive" in p for p in found)
    # a prose cell that opens with ### starts the next deep dive, which must then open as one
    src = source(*title(1), *dive(), *twins("### Another\n\nText.", "### Другое\n\nТекст.", tags=DIVE))
    found = deep_dive_problems(src)
    assert len(found) == 2 and "must be '### Deep dive: <title>', got '### Another'" in found[0]
    src = source(*title(1), *dive(), *twins("#### Detail\n\nText.", "#### Деталь\n\nТекст.", tags=DIVE))
    assert deep_dive_problems(src) == []


def test_two_deep_dives_in_a_row_are_two():
    src = source(*title(1), *dive(), *dive("### Deep dive: more\n\nMore.", "### Подробнее: ещё\n\nЕщё."))
    assert deep_dive_problems(src) == []
    assert [list(r) for r in deep_dives(src.cells)] == [[2, 3, 4], [5, 6, 7]]
    assert [list(r) for r in deep_dives(render(src, "ru").cells)] == [[1, 2], [3, 4]]


def test_twins_that_differ_in_the_tag_are_reported():
    cells = dive()
    cells[1] = ("markdown", cells[1][1], {**cells[1][2], "tags": ["lang-ru"]})
    src = source(*title(1), *cells)
    assert any("different tags" in p for p in translation_problems(src))


def test_speaker_notes_are_prose_in_the_notebook_and_notes_in_the_deck():
    notes = twins("What I say.", "Что я говорю.", tags=["speaker-notes"], slideshow={"slide_type": "slide"})
    src = source(*title(1), *notes)
    for lang in ("en", "ru"):
        cell = render(src, lang, "notebook").cells[1]
        assert cell.metadata.get("slideshow") == {"slide_type": "slide"}  # the notebook as written
        cell = render(src, lang, "slides").cells[1]
        assert cell.metadata["slideshow"] == {"slide_type": "notes"}


def test_main_path_code_that_needs_a_deep_dive_is_reported():
    made = [*twins("### Deep dive: a table\n\nMore.", "### Подробнее: таблица\n\nЕщё.", tags=DIVE)]
    made.append(("code", "table = [1, 2]\nx = 1", {"tags": DIVE}))
    src = source(
        *title(1), ("code", "x = 0", {}), *made, *twins("Main.", "Основное."), ("code", "print(table, x)", {})
    )
    found = deep_dive_problems(src)
    assert (
        len(found) == 1
        and "cell 9: main-path code uses 'table', which only deep-dive code makes (01_test.md, cell 6)"
        in found[0]
    )
    src = source(*title(1), *made, *twins("Main.", "Основное."), ("code", "print(x)", {}))
    assert "uses 'x'" in deep_dive_problems(src)[0]
    src = source(*title(1), ("code", "table = []\nx = 0", {}), *made, ("code", "print(table, x)", {}))
    assert deep_dive_problems(src) == []
