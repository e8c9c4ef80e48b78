"""The lecture budgets of every lesson (issue 31, :mod:`course_tools.build.lecture`): a main path of at most
3 000 words in each language, a deck of 15 to 30 slides, each slide showing at most 60 words of prose
and 12 lines of code, each with speaker notes. The first test holds the course to them; the others
show, on small synthetic courses, that it fails on each broken budget, naming lesson, language, slide
and its first line, and passes a lesson that keeps them."""

import pytest

from course_tools.build.course import Course
from course_tools.build.lecture import budget_problems, course_shapes, prose_words
from course_tools.core.config import CONFIG, LANGUAGES
from course_tools.lessons import main as lessons_main
from tests.lessons.support import course, title, twins, write_lesson


def lecture_problems(config) -> list[str]:
    loaded = Course.load(config)
    assert not loaded.unreadable, loaded.unreadable
    return [p for shape in course_shapes(loaded, loaded.names) for p in budget_problems(shape)]


def test_every_lesson_keeps_the_lecture_budgets():
    problems = lecture_problems(CONFIG)
    assert not problems, f"{len(problems)} budgets broken:\n" + "\n".join(problems)


# ----------------------------------------------------------------------------- synthetic courses

SLIDE = {"slideshow": {"slide_type": "slide"}}


def slide(number: int, words: int = 10, code_lines: int = 3, notes: bool = True) -> list:
    """One slide: a heading and ``words`` words of prose (heading included), code, speaker notes."""
    body = " ".join(["word"] * (words - 2))
    cells = twins(f"## Slide{number} here\n\n{body}", f"## Слайд{number} тут\n\n{body}", **SLIDE)
    cells.append(("code", "\n".join(f"x{n} = {n}" for n in range(code_lines)), {}))
    if notes:
        cells += twins("Say this.", "Скажите это.", tags=["speaker-notes"])
    return cells


def lesson(slides: int = 15, **changed) -> list:
    """A lesson of ``slides`` slides that keeps every budget; ``changed``: ``{number: slide(...)}``."""
    cells = [*title(1), *twins("Say the goal.", "Скажите цель.", tags=["speaker-notes"])]
    for number in range(2, slides + 1):
        cells += changed.get(f"s{number}", slide(number))
    return cells


def problems_of(tmp_path, *cells) -> list[str]:
    config = course(tmp_path)
    write_lesson(tmp_path, "01_test", *cells)
    return lecture_problems(config)


def test_a_lesson_that_keeps_every_budget_passes(tmp_path):
    assert problems_of(tmp_path, *lesson(15)) == []
    assert problems_of(tmp_path / "b", *lesson(30)) == []


@pytest.mark.parametrize("count", [14, 31])
def test_a_deck_of_fewer_than_15_or_more_than_30_slides_fails(tmp_path, count):
    found = problems_of(tmp_path, *lesson(count))
    assert found == [f"01_test [{lang}]: the deck has {count} slides (from 15 to 30)" for lang in LANGUAGES]


def test_a_slide_with_more_than_60_words_names_the_slide_and_its_first_line(tmp_path):
    assert problems_of(tmp_path, *lesson(s4=slide(4, words=60))) == []
    found = problems_of(tmp_path / "b", *lesson(s4=slide(4, words=61)))
    assert "01_test [en]: slide 4 «## Slide4 here»: 61 words of prose (at most 60)" in found
    # the Russian twin says the same and its language's name (support.twins): 61 words too
    assert "01_test [ru]: slide 4 «## Слайд4 тут»: 61 words of prose (at most 60)" in found
    assert len(found) == 2


def test_a_slide_with_more_than_12_lines_of_code_fails_unless_only_its_output_is_shown(tmp_path):
    assert problems_of(tmp_path, *lesson(s7=slide(7, code_lines=12))) == []
    found = problems_of(tmp_path / "b", *lesson(s7=slide(7, code_lines=13)))
    assert found == [
        f"01_test [{lang}]: slide 7 «{first}»: 13 lines of code (at most 12)"
        for lang, first in (("en", "## Slide7 here"), ("ru", "## Слайд7 тут"))
    ]
    long = slide(7, code_lines=13)
    long[2] = ("code", long[2][1], {"tags": ["slides-output-only"]})
    assert problems_of(tmp_path / "c", *lesson(s7=long)) == []


def test_a_slide_without_speaker_notes_fails(tmp_path):
    found = problems_of(tmp_path, *lesson(s15=slide(15, notes=False)))
    assert found == [
        "01_test [en]: slide 15 «## Slide15 here»: no speaker notes",
        "01_test [ru]: slide 15 «## Слайд15 тут»: no speaker notes",
    ]
    # deck-only notes (slide_type: notes) count as notes too
    notes = twins("Say it.", "Скажите.", slideshow={"slide_type": "notes"})
    assert problems_of(tmp_path / "b", *lesson(s15=slide(15, notes=False) + notes)) == []


def test_a_main_path_over_3000_words_fails_and_deep_dives_do_not_count(tmp_path):
    long = " ".join(["word"] * 3000)
    found = problems_of(tmp_path, *lesson(), *twins(long, f"{long} слово", tags=["speaker-notes"]))
    assert found == [
        "01_test [en]: the main path has 3177 words (at most 3000): move detail into deep dives",
        "01_test [ru]: the main path has 3176 words (at most 3000): move detail into deep dives",
    ]
    dive = twins(f"### Deep dive: more\n\n{long}", f"### Подробнее: ещё\n\n{long}", tags=["deep-dive"])
    assert problems_of(tmp_path / "b", *lesson(), *dive) == []


def test_the_words_command_prints_each_lesson_and_language(tmp_path, monkeypatch, capsys):
    import course_tools.build.lessons as lessons

    config = course(tmp_path)
    write_lesson(tmp_path, "01_test", *lesson(14))
    monkeypatch.setattr(lessons, "CONFIG", config)
    monkeypatch.setattr(lessons.words, "__defaults__", (config, print))
    assert lessons_main(["words"]) == 1
    out = capsys.readouterr().out
    assert "01_test en: main path 165 words (~1 min), 0 deep dives, 14 slides (14 with notes)" in out
    assert "01_test [ru]: the deck has 14 slides (from 15 to 30)" in out


def test_words_are_counted_as_the_brief_says():
    assert prose_words("top-k don't l’eau x_1 $$a + b$$ [link](http://a.b/c) <!-- no -->") == 6
    assert prose_words("Слово — слово, 3,14.") == 4
