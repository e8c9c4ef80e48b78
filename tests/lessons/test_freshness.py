"""The course as committed: every source clean, every notebook fresh and marked generated, every table current."""

from pathlib import PurePosixPath

import nbformat
import pytest

from course_lib import exercises
from course_tools.build.course import Course
from course_tools.core.config import CONFIG, LANGUAGES

COURSE = Course.load()
LESSONS = CONFIG.lesson_names()


def test_lessons_are_discovered_from_their_sources():
    assert LESSONS and LESSONS == sorted(LESSONS)
    assert LESSONS[0] == "00_start_here"
    for lang in LANGUAGES:
        assert sorted(p.stem for p in CONFIG.notebooks_dir(lang).glob("*.ipynb")) == LESSONS


@pytest.mark.parametrize("name", LESSONS)
def test_source_has_no_problems(name):
    assert COURSE.source_problems(name) == []


@pytest.mark.parametrize("name", LESSONS)
def test_committed_notebooks_are_fresh(name):
    assert COURSE.notebook_problems(name) == []


def test_no_notebook_without_a_source_and_the_readme_tables_are_current():
    assert COURSE.extra_notebooks() == []
    assert COURSE.table_problems() == []
    assert COURSE.readme_problems() == []


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_is_a_good_lesson(name, lang):
    """A kernelspec, a setup cell first (seeds, print options, the language), marked as generated."""
    nb = nbformat.read(CONFIG.notebook(name, lang), as_version=4)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert "torch.manual_seed(0)" in code[0] and "set_printoptions" in code[0]
    assert f'course_lib.set_language("{lang}")' in code[0]
    assert nb.metadata["course"]["generated_from"] == {
        "source": f"notebooks/{name}.md",
        "command": f"python -m course_tools.lessons build {name[:2]}",
    }


def test_generated_notebooks_are_marked_generated_for_the_code_host():
    lines = (CONFIG.root / ".gitattributes").read_text(encoding="utf-8").splitlines()
    rules = [line.split() for line in lines if line.strip() and not line.startswith("#")]
    for lang in LANGUAGES:
        notebook = CONFIG.relative(CONFIG.notebook(LESSONS[0], lang))
        # gitattributes' patterns with a slash: * stops at /, as in PurePosixPath.match
        (attributes,) = [rule[1:] for rule in rules if PurePosixPath(notebook).match(rule[0])]
        assert "linguist-generated" in attributes and "-diff" not in attributes


def test_lesson_0_shows_every_other_lesson_in_its_table(lang):
    nb = nbformat.read(CONFIG.notebook(LESSONS[0], lang), as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    for name in LESSONS[1:]:
        row = COURSE.titles[name]
        assert f"| {row.number} | {row.title(lang)} | {row.summary(lang)} |" in text
    assert "<!-- lesson-table -->" not in text


def test_a_changed_template_makes_its_lesson_stale(monkeypatch):
    """--check notices a template edited in course_lib.exercises: the notebook must be rebuilt."""
    (lesson,) = [
        n for n in LESSONS if "exercise_template: positional_encoding" in CONFIG.source(n).read_text()
    ]
    exercise = exercises.registry()["positional_encoding"]
    monkeypatch.setattr(exercise, "template_source", "raise NotImplementedError  # v2\n")
    problems = Course.load().notebook_problems(lesson)
    assert problems and all(f"is stale against notebooks/{lesson}.md" in p for p in problems)
    assert f"python -m course_tools.lessons build {lesson[:2]}" in problems[0]


def test_a_changed_explorer_module_makes_its_lesson_stale(monkeypatch):
    """Before: `lessons check` (`make freshness`) said every notebook was current while lesson 5's saved an
    old js/table.js; only tests/unit/test_widgets.py noticed, and the site and decks ran the old module."""
    from course_lib import widgets
    from course_lib.widgets.registry import EXPLORERS

    (table,) = [e for e in EXPLORERS if e.widget == "TableExplorer"]
    (lesson,) = [n for n in LESSONS if n.startswith(f"{table.lesson:02d}_")]
    assert Course.load().notebook_problems(lesson) == []
    monkeypatch.setattr(widgets.TableExplorer, "_esm", widgets.TableExplorer._esm + "\n// changed\n")
    problems = Course.load().notebook_problems(lesson)
    assert len(problems) == len(LANGUAGES)
    assert all("saves an explorer's old JavaScript" in p for p in problems), problems
    assert f"python -m course_tools.lessons build {lesson[:2]}" in problems[0]
