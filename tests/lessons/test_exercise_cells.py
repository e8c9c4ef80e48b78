"""Each exercise of course_lib.exercises appears in one lesson with all its cells, written once."""

import re

import nbformat
import pytest

from course_lib import exercises
from course_tools.build.source import EXERCISE_KEY, known_exercises, read_source
from course_tools.core.config import CONFIG

SOURCES = {path.stem: read_source(path) for path in CONFIG.sources()}


def lessons_using(name: str) -> list[str]:
    return [
        lesson
        for lesson, src in SOURCES.items()
        if any(cell.metadata.get(EXERCISE_KEY) == name for cell in src.cells)
    ]


def test_the_build_knows_every_exercise_of_the_registry():
    assert known_exercises() == sorted(exercises.registry())


@pytest.mark.parametrize("name", known_exercises())
def test_each_exercise_has_its_cells_in_one_lesson(name, lang):
    (lesson,) = lessons_using(name)
    exercise = exercises.registry()[name]
    cells = [cell for cell in SOURCES[lesson].cells if cell.cell_type == "code"]
    wanted = [rf"^exercises\.{name}\.check\(\w+\)$"]
    wanted += [rf"^# exercises\.{name}\.hint\({n}\)$" for n in range(1, exercise.num_hints + 1)]
    wanted += [rf"^# exercises\.{name}\.solution\(\)$"]
    for pattern in wanted:
        found = [cell for cell in cells if re.search(pattern, cell.source, re.M)]
        assert len(found) == 1, f"{lesson}: one cell matching {pattern}"
        assert "notebook-only" in found[0].metadata.get("tags", ()), f"{lesson}: {pattern} is notebook-only"
    # the committed notebook starts students from the current template
    committed = nbformat.read(CONFIG.notebook(lesson, lang), as_version=4)
    templates = [c for c in committed.cells if c.metadata.get(EXERCISE_KEY) == name]
    assert [c.source for c in templates] == [exercise.template_in(lang).rstrip("\n")]
    assert "notebook-only" in templates[0].metadata["tags"]


def test_no_lesson_copies_a_template_into_its_source():
    for lesson, src in SOURCES.items():
        text = "\n".join(cell.source for cell in src.cells)
        for name in known_exercises():
            assert exercises.registry()[name].template.strip() not in text, (lesson, name)
