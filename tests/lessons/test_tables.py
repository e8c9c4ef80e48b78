"""The lesson tables: made from each lesson's title cell, in every language, wherever they appear."""

import pytest

from course_tools.build.course import Course
from course_tools.build.source import read_source
from course_tools.build.tables import (
    README_BEGIN,
    README_END,
    LessonTitle,
    format_budget,
    lesson_table,
    read_title,
    readme_table,
    replace_readme_table,
    title_problems,
)
from course_tools.core.config import LANGUAGE_DATA, LANGUAGES, PSEUDO
from tests.lessons.support import course, source, title, twins, write_lesson

# in a language without its own words here, the title and summary are the language's name
OTHERS = {lang: LANGUAGE_DATA[lang].name for lang in LANGUAGES}
ROW = LessonTitle(
    "03_why",
    3,
    OTHERS | {"en": "Why | how", "ru": "Зачем"},
    OTHERS | {"en": "show it", "ru": "показывать"},
    25,
)


def test_a_title_cell_gives_number_title_and_summary():
    assert read_title("# 12. A title\n\n*do this*\n\nText.") == (12, "A title", "do this")
    with pytest.raises(ValueError, match=r"must start with the lesson's title, `# N. Title`"):
        read_title("## 1. Not a title\n\n*x*")
    with pytest.raises(ValueError, match=r"one italic line, `\*...\*`"):
        read_title("# 1. Title\n\nNo summary.")
    with pytest.raises(ValueError, match="one italic line"):
        read_title("# 1. Title\n\n**bold is not a summary**")


def test_title_problems_name_the_cell_and_the_number():
    src = source(*twins("# 2. Title\n\n*do*", "# 2. Заголовок\n\nнет строки"), name="03_test")
    problems = title_problems(src)
    assert "03_test.md, cell 1: the title says lesson 2, the file name 3" in problems
    assert any(p.startswith("03_test.md, cell 2: right under the title") for p in problems)


def test_title_cells_say_the_run_time_in_whole_seconds():
    cells = twins("# 3. Title\n\n*do*", "# 3. Заголовок\n\n*делать*")
    assert title_problems(source(*cells, name="03_test")) == [
        "03_test.md, cell 1: the title cell's metadata must say how long the whole lesson runs, in whole "
        'seconds, as measured by benchmarks/bench_lessons.py with a margin: "run_budget_s": 40; got None'
    ]
    for bad in (0, -5, 2.5, "40", True):
        cells[0][2]["run_budget_s"] = bad
        assert f"got {bad!r}" in title_problems(source(*cells, name="03_test"))[0]
    cells[0][2]["run_budget_s"] = 40
    assert title_problems(source(*cells, name="03_test")) == []


def test_the_run_time_is_written_as_each_language_writes_it():
    assert [format_budget(25, "en"), format_budget(25, "ru"), format_budget(None, "ru")] == [
        "≤ 25 s",
        "≤ 25 с",
        "–",
    ]


def test_lesson_0_table_escapes_pipes_and_leaves_out_a_lesson(lang):
    table = lesson_table([ROW], lang)
    assert (
        table.splitlines()[2]
        == f"| 3 | {ROW.titles[lang].replace('|', chr(92) + '|')} | {ROW.summaries[lang]} | {format_budget(25, lang)} |"
    )
    assert len(lesson_table([ROW], lang, exclude="03_why").splitlines()) == 2


def test_readme_table_links_every_language(tmp_path, lang):
    config = course(tmp_path)
    head, _, row = readme_table([ROW], lang, config).splitlines()
    assert head.endswith(" | ".join(LANGUAGE_DATA[other].name for other in LANGUAGES) + " |")
    for other in LANGUAGES:
        assert f"[{other}](notebooks/{other}/03_why.ipynb)" in row
    assert f"| {format_budget(25, lang)} | [" in row


def test_the_pseudo_language_has_a_table_too():
    assert "⟦" in lesson_table([ROW], PSEUDO)


def test_a_readme_without_markers_is_an_error():
    with pytest.raises(ValueError, match=r"README\.xx\.md has no lesson table to regenerate"):
        replace_readme_table("# README\n", "| table |", "README.xx.md")
    text = f"before\n{README_BEGIN}\nold\n{README_END}\nafter\n"
    assert (
        replace_readme_table(text, "| new |", "R")
        == f"before\n{README_BEGIN}\n\n| new |\n\n{README_END}\nafter\n"
    )


def test_a_new_lesson_is_a_new_row_everywhere(tmp_path, lang):
    """Adding a lesson = its source: lesson 0 and the README tables follow."""
    config = course(tmp_path)
    marker = "## Lessons\n\n<!-- lesson-table -->", "## Уроки\n\n<!-- lesson-table -->"
    write_lesson(tmp_path, "00_start", *title(0), *twins(*marker))
    write_lesson(tmp_path, "01_first", *title(1, "First steps", "take the first steps"))
    config.readme(lang).write_text(f"{README_BEGIN}\n{README_END}\n", encoding="utf-8")
    course_ = Course.load(config)
    rendered = course_.render("00_start", lang).cells[-1].source
    row = course_.titles["01_first"]
    line = f"| 1 | {row.title(lang)} | {row.summary(lang)} | {format_budget(10, lang)} |"
    assert line in rendered
    assert "| 0 |" not in rendered
    assert line in course_.readmes()[config.readme(lang)]
    # the run time stays in the source: no notebook cell carries it
    assert all("run_budget_s" not in cell.metadata for cell in course_.render("01_first", lang).cells)
    assert course_.readme_problems() == [
        f"{LANGUAGE_DATA[lang].readme}: the lesson table is out of date: run `python -m course_tools.lessons build`"
    ]


def test_every_lesson_has_a_title_in_every_language(lang):
    for path in Course.load().config.sources():
        src = read_source(path)
        assert title_problems(src) == [], path.name


def test_a_table_split_in_parts_shows_every_lesson_once(tmp_path, lang):
    """A deck whose slide cannot hold every row splits the table: `<!-- lesson-table 1-2 -->` and `3-3`;
    the parts together must show each lesson but the one they are in, once."""
    config = course(tmp_path)
    for number, name in ((1, "01_a"), (2, "02_b"), (3, "03_c")):
        write_lesson(tmp_path, name, *title(number, f"Lesson {number}", f"do {number}"))

    def start(first_part: str, second_part: str) -> None:
        parts = [
            twins(f"## Lessons\n\n<!-- lesson-table {part} -->", f"## Уроки\n\n<!-- lesson-table {part} -->")
            for part in (first_part, second_part)
        ]
        write_lesson(tmp_path, "00_start", *title(0), *parts[0], *parts[1])

    start("1-2", "3-3")
    course_ = Course.load(config)
    assert course_.table_problems() == []
    cells = [cell.source for cell in course_.render("00_start", lang).cells]
    first, second = cells[-2], cells[-1]
    assert "| 1 |" in first and "| 2 |" in first and "| 3 |" not in first
    assert "| 3 |" in second and "| 1 |" not in second

    start("1-2", "2-3")  # lesson 2 twice
    problems = Course.load(config).table_problems()
    assert any("show lessons [1, 2, 2, 3]" in p and "each of [1, 2, 3] once" in p for p in problems), problems
    start("1-1", "3-3")  # lesson 2 in no part
    assert any("show lessons [1, 3]" in p for p in Course.load(config).table_problems())
    start("1-2", "3-1")
    with pytest.raises(ValueError, match=r"'<!-- lesson-table 3-1 -->': the range of lessons runs backwards"):
        Course.load(config).render("00_start", lang)
