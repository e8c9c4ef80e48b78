"""A third language needs data only: a lesson built in the pseudo-language shows no plain English.

``course_lib.i18n.PSEUDO`` is English accented and bracketed (``⟦pöšîtîöñ⟧``). The lesson
below is rendered in it (its prose is the English prose, pseudo-localised, as a translator's
twins would be) and executed. Every output a student reads -- printed text, verdicts,
Markdown, widget labels -- must then be bracketed, or be code: a word that the lesson's own
code spells (a variable printed as a label), a number, torch's printout. A word of plain
English anywhere else is a string that bypasses the message catalogues, and would stay
English in any new language.
"""

import re
import tempfile
from pathlib import Path

import pytest

from course_lib import exercises
from course_lib.i18n import PSEUDO
from course_tools.build.execute import execute
from course_tools.build.source import read_source, render
from course_tools.core.config import CONFIG

# torch's and Python's own printouts: code, the same in every language
CODE_WORDS = {
    "tensor",
    "dtype",
    "torch",
    "float64",
    "float32",
    "float16",
    "bfloat16",
    "True",
    "False",
    "None",
}
BRACKETED = re.compile(r"⟦.*?⟧", re.S)
CODE_SPAN = re.compile(r"`[^`]*`")
# code in printouts: HTML tags, a verdict's [key], argument names (d_model=8), calls (Dropout(p=0.0)),
# submodule names in a module's repr ("(dropout): ")
CODE = re.compile(r"<[^>]+>|\[[\w.]+\]|\b\w+(?==)|\b\w+(?=\()|\(\w+\):")
WORD = re.compile(r"[A-Za-z][A-Za-z_]{2,}")

# the lesson with the most kinds of output: prints, figures, two widgets, an exercise check
LESSON = next(name for name in CONFIG.lesson_names() if name.endswith("_sinusoidal_encoding"))


def plain_english(text: str, code_words: set[str]) -> list[str]:
    """The words of ``text`` that are neither pseudo-localised nor code."""
    rest = CODE.sub(" ", CODE_SPAN.sub(" ", BRACKETED.sub(" ", text)))
    return [w for w in WORD.findall(rest) if w not in code_words and w not in CODE_WORDS]


def visible_texts(nb) -> list[tuple[int, str]]:
    """(cell index, text) of every output a student reads, and of every widget's labels."""
    found = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.output_type == "stream":
                found.append((i, out.text))
            data = out.get("data", {})
            if "image/png" in data or "application/vnd.jupyter.widget-view+json" in data:
                continue  # the picture or the widget is what shows, not its repr
            found += [
                (i, data[kind]) for kind in ("text/plain", "text/markdown", "text/html") if kind in data
            ]
    for model in (
        nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})["state"].values()
    ):
        state = model.get("state", {})
        for key in ("description", "value", "placeholder", "tooltip"):
            if isinstance(state.get(key), str) and model.get("model_name") in {"HTMLModel", "LabelModel"} | (
                {"IntSliderModel", "FloatSliderModel", "FloatLogSliderModel", "DropdownModel", "TextModel"}
                if key != "value"
                else set()
            ):
                found.append((-1, state[key]))
    return found


@pytest.fixture(scope="module")
def built():
    src = read_source(CONFIG.source(LESSON))
    nb = render(src, PSEUDO)
    with tempfile.TemporaryDirectory() as folder:
        nb = execute(nb, lesson=LESSON, lang=PSEUDO, cwd=Path(folder), root=CONFIG.root)
    code = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "code")
    return nb, set(WORD.findall(code))


def test_a_lesson_built_in_the_pseudo_language_shows_no_plain_english(built):
    nb, code_words = built
    leaks = [(i, w, text[:120]) for i, text in visible_texts(nb) for w in plain_english(text, code_words)]
    assert leaks == [], "strings that bypass the catalogues: " + repr(leaks[:10])


def test_the_check_finds_plain_english_where_there_is_some(built):
    """The check above can fail: the same lesson's outputs, with one printed label left in English."""
    nb, code_words = built
    assert plain_english("⟦pöšîtîöñ⟧ | biggest wobble", code_words) == ["biggest", "wobble"]
    assert visible_texts(nb), "the lesson printed nothing to check"
    assert any("⟦" in text for _, text in visible_texts(nb))


def test_exercise_feedback_in_the_pseudo_language():
    import course_lib

    course_lib.set_language(PSEUDO)
    for exercise in exercises.registry().values():
        namespace = {}
        exec(exercise.template, namespace)
        student = next(
            v for k, v in namespace.items() if k.startswith(("My", "my_", "is_", "apply_", "count_"))
        )
        for verdict in (exercise.check(student), exercise.check(None), exercise.hint(1), exercise.solution()):
            text = verdict.message if hasattr(verdict, "message") else verdict.text
            assert plain_english(text.split("```")[0], set()) == [], (exercise.name, text)
