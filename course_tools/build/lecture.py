"""The shape of a lesson as a lecture: its main path's words, its deep dives, its deck's slides.

A lesson's *main path* in a language is the prose a student reads in that notebook, deep dives left
out (:data:`course_tools.build.source.DEEP_DIVE`); it is kept at most :data:`MAX_WORDS` words, about
:data:`MAX_WORDS` / :data:`WORDS_PER_MINUTE` minutes of reading. A *deck* is 15 to 30 slides, each
showing at most 60 words of prose and 12 lines of code, each with speaker notes. These are the
budgets of issue 31; ``python -m course_tools.lessons words`` prints the numbers and
``tests/lessons/test_budgets.py`` fails on any lesson over them.

Words are counted by :func:`prose_words`: display formulas, HTML comments and link targets left out,
a word is a run of letters or digits, joined by hyphens or apostrophes (``top-k``, ``don't``).
A slide is a ``slide`` or ``subslide`` cell of the deck and every cell up to the next one
(fragments included); its notes are ``slide_type: notes`` cells and ``speaker-notes`` prose.
"""

import re
from dataclasses import dataclass

from ..core.config import LANGUAGES
from .course import Course
from .source import DEEP_DIVE, SPEAKER_NOTES, deep_dives, render

__all__ = [
    "MAX_WORDS",
    "WORDS_PER_MINUTE",
    "DECK_SLIDES",
    "SLIDE_WORDS",
    "SLIDE_CODE_LINES",
    "prose_words",
    "main_path_words",
    "Slide",
    "is_notes",
    "slide_groups",
    "deck_slides",
    "LessonShape",
    "lesson_shape",
    "budget_problems",
    "course_shapes",
    "report",
]

MAX_WORDS = 3000
WORDS_PER_MINUTE = 200
DECK_SLIDES = (15, 30)
SLIDE_WORDS = 60
SLIDE_CODE_LINES = 12

WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")


def prose_words(text: str) -> int:
    """The words of a prose cell as the budgets count them.

    >>> prose_words("A top-k sampler doesn't see $$x^2 + y$$ [this link](https://example.org).")
    7
    """
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)  # display maths
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"\]\([^)]*\)", "]", text)  # link targets
    return len(WORD.findall(text))


def _tags(cell) -> set:
    return set(cell.metadata.get("tags", ()))


def _kind(cell) -> str:
    return cell.metadata.get("slideshow", {}).get("slide_type", "-")


def main_path_words(notebook) -> int:
    """The words of a rendered notebook's prose outside its deep dives."""
    return sum(
        prose_words(c.source)
        for c in notebook.cells
        if c.cell_type == "markdown" and DEEP_DIVE not in _tags(c)
    )


@dataclass
class Slide:
    """One slide of a deck as shown: its prose words, its lines of code, whether it has notes, its first line."""

    first_line: str
    words: int = 0
    code_lines: int = 0
    notes: bool = False

    def problems(self) -> list[str]:
        found = []
        if self.words > SLIDE_WORDS:
            found.append(f"{self.words} words of prose (at most {SLIDE_WORDS})")
        if self.code_lines > SLIDE_CODE_LINES:
            found.append(f"{self.code_lines} lines of code (at most {SLIDE_CODE_LINES})")
        if not self.notes:
            found.append("no speaker notes")
        return found


def is_notes(cell) -> bool:
    """A cell the deck shows as speaker notes: ``slide_type: notes``, or prose tagged ``speaker-notes``."""
    return _kind(cell) == "notes" or (cell.cell_type == "markdown" and SPEAKER_NOTES in _tags(cell))


def slide_groups(deck) -> list[list]:
    """The cells of a rendered deck, slide by slide: a ``slide`` or ``subslide`` cell that is not notes
    opens a slide (so does the first cell shown); ``skip`` and deep-dive cells are in none."""
    groups: list[list] = []
    for cell in deck.cells:
        if DEEP_DIVE in _tags(cell) or _kind(cell) == "skip":
            continue
        if (_kind(cell) in ("slide", "subslide") and not is_notes(cell)) or not groups:
            groups.append([])
        groups[-1].append(cell)
    return groups


def deck_slides(deck) -> list[Slide]:
    """The slides of a rendered deck (``render(..., target="slides")``), in order."""
    slides = []
    for group in slide_groups(deck):
        text = group[0].source.strip()
        slide = Slide(text.splitlines()[0][:60] if text else "(empty)")
        for cell in group:
            if is_notes(cell):
                slide.notes = True
            elif cell.cell_type == "markdown":
                slide.words += prose_words(cell.source)
            elif "slides-output-only" not in _tags(cell):
                slide.code_lines += len([line for line in cell.source.splitlines() if line.strip()])
        slides.append(slide)
    return slides


@dataclass
class LessonShape:
    """One lesson in one language: main-path words, deep dives, the deck's slides."""

    name: str
    lang: str
    words: int
    deep_dives: int
    slides: list[Slide]

    @property
    def minutes(self) -> float:
        return self.words / WORDS_PER_MINUTE

    @property
    def with_notes(self) -> int:
        return sum(slide.notes for slide in self.slides)


def lesson_shape(course: Course, name: str, lang: str) -> LessonShape:
    """Measure one lesson's source in one language (nothing is executed)."""
    src = course.sources[name]
    table = lambda _lang, _lessons=None: ""  # noqa: E731  (the lesson table is made, not written: not counted)
    notebook = render(src, lang, "notebook", table=table)
    deck = render(src, lang, "slides", table=table)
    return LessonShape(
        name, lang, main_path_words(notebook), len(deep_dives(notebook.cells)), deck_slides(deck)
    )


def budget_problems(shape: LessonShape) -> list[str]:
    """Every budget one lesson breaks in one language, each naming the lesson, language and slide."""
    where = f"{shape.name} [{shape.lang}]"
    problems = []
    if shape.words > MAX_WORDS:
        problems.append(
            f"{where}: the main path has {shape.words} words (at most {MAX_WORDS}): move detail into deep dives"
        )
    low, high = DECK_SLIDES
    if not low <= len(shape.slides) <= high:
        problems.append(f"{where}: the deck has {len(shape.slides)} slides (from {low} to {high})")
    for number, slide in enumerate(shape.slides, 1):
        for problem in slide.problems():
            problems.append(f"{where}: slide {number} «{slide.first_line}»: {problem}")
    return problems


def course_shapes(course: Course, names: list[str]) -> list[LessonShape]:
    """:func:`lesson_shape` of each lesson named, in every language, in order."""
    return [lesson_shape(course, name, lang) for name in names for lang in LANGUAGES]


def report(shapes: list[LessonShape]) -> str:
    """The table ``lessons words`` prints: one line per lesson and language."""
    lines = []
    for shape in shapes:
        lines.append(
            f"{shape.name} {shape.lang}: main path {shape.words} words (~{shape.minutes:.0f} min), "
            f"{shape.deep_dives} deep dives, {len(shape.slides)} slides ({shape.with_notes} with notes)"
        )
    return "\n".join(lines)
