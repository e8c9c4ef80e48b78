"""One lesson source: read it, check it, render it for a language and a target, stamp it.

A lesson is one jupytext MyST file, ``notebooks/NN_name.md``. Code cells are written once.
Every prose cell is written in the source language (English, tagged ``lang-en``) and is
followed by one twin per translation (``lang-ru``), each stamped with ``translation_of``: a
short hash of the English it translates, so editing the English makes the translation stale
until it is reviewed and re-stamped (:func:`stamp`).

What a source may say, besides nbval's own tags (``nbval-ignore-output`` and friends):

- tags ``notebook-only`` and ``slides-only`` keep a cell out of the slides or the notebook;
  only prose may be ``slides-only``: the decks show the outputs of the executed notebook,
  so every code cell is in the notebook;
- tag ``slides-output-only`` on a code cell shows only its outputs on the slides, with a
  line saying the full code is in the notebook;
- tag ``deep-dive`` (prose and code): a maximal run of consecutive such cells is a *deep dive*,
  opened by a prose cell ``### Deep dive: <title>`` (Russian twin ``### Подробнее: <title>``):
  the notebook keeps its cells, the site folds it (:mod:`course_tools.publish.site_theme`), the decks
  leave it out (:func:`deep_dive_problems`, :func:`deep_dives`);
- tag ``speaker-notes`` on prose: ordinary prose in the notebook; in the deck, the speaker
  notes of the slide it falls in (rendered as ``slide_type: notes``);
- metadata ``slideshow.slide_type`` (slide, subslide, fragment, skip, notes) goes to the
  slides; speaker notes (``notes``) appear in the slides only;
- metadata ``exercise_template: NAME`` on a code cell whose body is a one-line comment:
  the notebook gets ``course_lib.exercises.NAME.template`` there, the code a student
  starts from, written once in ``course_lib``;
- metadata ``run_budget_s`` on the English title cell: how long the whole lesson runs at most,
  in seconds (:mod:`course_tools.build.tables`); it stays in the source;
- the line ``<!-- lesson-table -->`` in a prose cell becomes the table of the lessons, in
  that cell's language (:mod:`course_tools.build.tables`);
- in code cells, comments in words are written in every language (``# en: ...``, then
  ``# ru: ...`` on the line below), ``pick(en="...", ru="...")`` chooses a string per language
  and ``course_lib.set_language("en")`` is switched: each notebook gets its own language's
  (:mod:`course_tools.build.lesson_code`).

The first prose cell is the lesson's title: ``# N. Title``, then one italic line that says
what the student will be able to do, ``*...*``; the lesson tables are made of these.
"""

import ast
import copy
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import jupytext
import nbformat

from course_lib.i18n import decimal_mark, pseudo, script_problems

from ..core.config import LANGUAGE_DATA, LANGUAGES, PSEUDO, SOURCE_LANGUAGE, TRANSLATIONS
from .lesson_code import PICK, code_names, code_problems, drop_import, localize, ruff_format, uses_name
from .messages import LESSON_SOURCE

__all__ = [
    "TARGETS",
    "LANG_TAGS",
    "KERNELSPEC",
    "MATH",
    "formula_key",
    "formula_problems",
    "TABLE_MARKER",
    "EXERCISE_KEY",
    "BUDGET_KEY",
    "SourceError",
    "Source",
    "read_source",
    "structure_problems",
    "fingerprint",
    "cell_lang",
    "translation_problems",
    "code_cell_problems",
    "exercise_template",
    "known_exercises",
    "selected_cells",
    "DEEP_DIVE",
    "SPEAKER_NOTES",
    "deep_dives",
    "deep_dive_problems",
    "render",
    "stamp",
]

TARGETS = ("notebook", "slides")
LANG_TAGS = {f"lang-{lang}" for lang in LANGUAGES}
BUDGET_KEY = "run_budget_s"
# metadata that belongs to the source only
SOURCE_ONLY_KEYS = ("translation_of", BUDGET_KEY)
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.S)
# inside a formula: a number with a decimal point (0.1) or comma (0{,}1), and a \text{...} word
DECIMAL_POINT = re.compile(r"(?<![\w.])\d+\.\d")
DECIMAL_COMMA = re.compile(r"\d\{,\}\d")
TEXT = re.compile(r"\\text\{([^{}]*)\}")
HEADING = re.compile(r"^(#+) ", re.M)
TABLE_MARKER = "<!-- lesson-table -->"
# the marker, or the marker of a part of the table: ``<!-- lesson-table 5-9 -->`` (lessons 5 to 9), for a
# deck whose slide cannot hold every row
TABLE_LINE = re.compile(r"<!-- lesson-table(?: (\d+)-(\d+))? -->")
DEEP_DIVE = "deep-dive"
SPEAKER_NOTES = "speaker-notes"
EXERCISE_KEY = "exercise_template"


def deep_dive_heading(lang: str, title: str) -> str:
    """The first line of a deep dive in ``lang``: ``### Deep dive: <title>`` in English."""
    return LESSON_SOURCE("deep_dive_heading", lang, title=title)


# the MyST markers jupytext reads: a code cell's opening fence, a prose cell break, any fence
CODE_OPEN = re.compile(r"^(`{3,})\{code-cell\}")
CELL_BREAK = "+++"
FENCE = re.compile(r"^(`{3,}|~{3,})")


class SourceError(ValueError):
    """A lesson source that cannot be read as its author meant it; ``problems`` says where."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass
class Source:
    """A lesson source as read: its cells, and the line of the ``.md`` where each cell starts.

    Attributes:
        name: the lesson's name, ``05_sinusoidal_encoding``.
        nb: the cells, as jupytext reads them.
        label: how messages name the file, ``notebooks/05_sinusoidal_encoding.md``.
        lines: the line of the ``.md`` where each cell starts (None when not known).
        code_lines: the line of the ``.md`` where each code cell's code starts (None for prose,
            or when not known).
    """

    name: str
    nb: nbformat.NotebookNode
    label: str = ""
    lines: list[int] | None = None
    code_lines: list[int | None] | None = None

    def __post_init__(self):
        self.label = self.label or f"{self.name}.md"

    @property
    def cells(self) -> list:
        return self.nb.cells

    def where(self, index: int) -> str:
        """Cell ``index`` (from 0) as messages name it: by its line in the ``.md`` when known."""
        if self.lines is not None:
            return f"{self.label}, line {self.lines[index]} (cell {index + 1})"
        return f"{self.label}, cell {index + 1}"

    def where_code(self, index: int, line: int) -> str:
        """Line ``line`` (from 1) of code cell ``index``, by its line in the ``.md`` when known."""
        first = self.code_lines[index] if self.code_lines is not None else None
        if first is not None:
            return f"{self.label}, line {first + line - 1} (cell {index + 1})"
        return f"{self.where(index)}, line {line} of its code"


# ----------------------------------------------------------------------------- reading


def structure_problems(text: str, label: str) -> tuple[list[str], list[int]]:
    """Fences that are not closed, and the line where each cell starts.

    An unclosed ```` ```{code-cell} ```` would swallow every cell after it, twins included,
    into its code (jupytext reads on to the next closing fence), and a fenced block left open
    in prose swallows the code cells after it. Both are reported with their line; then the
    reading goes on as if the fence had been closed, to find further problems.
    """
    lines = text.split("\n")
    start = 0
    if lines and lines[0] == "---":  # the jupytext header
        start = next((i + 1 for i in range(1, len(lines)) if lines[i] == "---"), len(lines))
    problems: list[str] = []
    cell_starts: list[int] = []
    state, opened, fence = "prose", 0, ""
    region: list = [None, False]  # the prose cell being read: [first line, has content]

    def end_prose():
        if region[0] is not None and region[1]:
            cell_starts.append(region[0])
        region[:] = [None, False]

    def closes(line: str) -> bool:
        stripped = line.strip()
        return len(stripped) >= len(fence) and set(stripped) == {fence[0]}

    n = start
    while n < len(lines):
        line, number = lines[n], n + 1
        if state == "code":
            if closes(line):
                state = "prose"
            elif line.startswith("```") or line.startswith(CELL_BREAK):
                problems.append(
                    f"{label}, line {opened}: this code cell is not closed: line {number} "
                    f"({line.strip()[:40]!r}) comes before its closing {fence}, so the cells "
                    f"after it would be read as its code; add a line {fence} where the code ends"
                )
                state = "prose"
                continue  # read this line again, as prose
        elif state == "fenced prose":
            if closes(line):
                state = "prose"
            elif CODE_OPEN.match(line) or line.startswith(CELL_BREAK):
                problems.append(
                    f"{label}, line {opened}: the {fence} block opened in the prose here is not "
                    f"closed before line {number}, so the cells after it would be read as prose; "
                    f"close it with a line {fence}"
                )
                state = "prose"
                continue
        elif CODE_OPEN.match(line):
            end_prose()
            cell_starts.append(number)
            state, opened, fence = "code", number, CODE_OPEN.match(line).group(1)
        elif line.startswith(CELL_BREAK):
            end_prose()
            # a break with metadata makes a cell even when its text is empty
            region[:] = [number, line.strip() != CELL_BREAK]
        else:
            if line.strip():
                if region[0] is None:
                    region[0] = number
                region[1] = True
            if FENCE.match(line):
                state, opened, fence = "fenced prose", number, FENCE.match(line).group(1)
        n += 1
    if state == "code":
        problems.append(
            f"{label}, line {opened}: this code cell is never closed: add a line {fence} after its code"
        )
    elif state == "fenced prose":
        problems.append(f"{label}, line {opened}: the {fence} block opened in the prose here is never closed")
    end_prose()
    return problems, cell_starts


def read_source(path: Path, label: str | None = None) -> Source:
    """Read one lesson source; a source that cannot be read raises :class:`SourceError`.

    Args:
        path: the ``.md`` file.
        label: how messages name the file (default: ``<folder>/<file name>``).
    """
    label = label or f"{path.parent.name}/{path.name}"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SourceError([f"{label}: cannot be read: {error}"]) from None
    problems, cell_starts = structure_problems(text, label)
    if problems:
        raise SourceError(problems)
    try:
        nb = jupytext.reads(text, fmt="md:myst")
    except Exception as error:  # jupytext raises its own errors, yaml's and json's
        raise SourceError([_read_error(label, error)]) from None
    lines = cell_starts if len(cell_starts) == len(nb.cells) else None
    return Source(path.stem, nb, label, lines, _code_lines(text, nb, lines))


def _code_lines(text: str, nb, cell_starts: list[int] | None) -> list[int | None] | None:
    """The line of the ``.md`` where the code of each code cell starts: its code is the lines
    right above its closing fence (checked; None where the text does not match)."""
    if cell_starts is None:
        return None
    lines = text.split("\n")
    found: list[int | None] = []
    for cell, start in zip(nb.cells, cell_starts, strict=True):
        fence = CODE_OPEN.match(lines[start - 1]) if cell.cell_type == "code" else None
        if fence is None:
            found.append(None)
            continue
        close = next(
            (
                i
                for i in range(start, len(lines))
                if set(lines[i].strip()) == {"`"} and len(lines[i].strip()) >= len(fence.group(1))
            ),
            None,
        )
        code = cell.source.split("\n")
        first = None if close is None else close - len(code)
        found.append(
            first + 1 if first is not None and first >= start and lines[first:close] == code else None
        )
    return found


def _read_error(label: str, error: Exception) -> str:
    """What jupytext's error says, with the line it names (or yaml's mark) up front."""
    text = " ".join(str(error).split())
    found = re.search(r"at line (\d+)", text)
    mark = getattr(error, "problem_mark", None)
    if found:
        where = f"{label}, line {found.group(1)}"
    elif mark is not None:
        where = f"{label}, line {mark.line + 1}"
    else:
        where = label
    return f"{where}: the cell metadata (JSON after +++, YAML in a code cell or the header) cannot be read: {text}"


def fingerprint(text: str) -> str:
    """What a translation records of the English it was made from."""
    return hashlib.sha1(text.strip().encode()).hexdigest()[:10]


def cell_lang(cell) -> str | None:
    tags = set(cell.metadata.get("tags", ())) & LANG_TAGS
    return tags.pop().removeprefix("lang-") if len(tags) == 1 else None


# ----------------------------------------------------------------------------- checks


def translation_problems(src: Source) -> list[str]:
    """Prose cells without their twins, twins that disagree, translations gone stale."""
    problems = []
    cells = src.cells
    i = 0
    while i < len(cells):
        cell, where = cells[i], src.where(i)
        if cell.cell_type != "markdown":
            i += 1
            continue
        if cell_lang(cell) != SOURCE_LANGUAGE:
            twins = " and ".join(f"lang-{lang}" for lang in TRANSLATIONS)
            problems.append(
                f"{where}: a prose cell must be tagged lang-{SOURCE_LANGUAGE} and be followed by its "
                f"twins, {twins}, in this order"
            )
            i += 1
            continue
        i += 1
        for lang in TRANSLATIONS:
            twin = cells[i] if i < len(cells) else None
            if twin is None or twin.cell_type != "markdown" or cell_lang(twin) != lang:
                problems.append(f"{where}: English cell without its lang-{lang} twin right below it")
                continue
            problems += _twin_problems(cell, twin, lang, where, src.name)
            i += 1
    return problems


def formula_key(formula: str) -> str:
    r"""What a formula's twins must share: the formula without what its language writes its own way.

    Two things differ by language: the decimal mark (``0.1``, ``0{,}1``) and the words of
    ``\text{...}`` (``\text{mask}``, ``\text{маска}``). Everything else, symbols,
    subscripts and operators, is the same formula in every language.

        >>> formula_key(r"$\text{маска}_{b} = 0{,}1$") == formula_key(r"$\text{mask}_{b} = 0.1$")
        True
    """
    return TEXT.sub(r"\\text{}", DECIMAL_COMMA.sub(lambda m: m[0].replace("{,}", "."), formula))


def formula_problems_in(prose: str, lang: str) -> list[str]:
    """:func:`formula_problems` of every formula in ``prose``."""
    return [p for formula in MATH.findall(prose) for p in formula_problems(formula, lang)]


def formula_problems(formula: str, lang: str) -> list[str]:
    r"""How ``formula`` in prose of ``lang`` writes a number or a word in another language's way.

    A decimal number takes ``lang``'s mark: ``0.1`` in English, ``0{,}1`` in Russian (the braces
    keep TeX from spacing the comma as punctuation); a word in ``\text{}`` is in ``lang``.
    """
    problems = []
    comma = decimal_mark(lang) == ","
    wrong = DECIMAL_POINT.findall(formula) if comma else DECIMAL_COMMA.findall(formula)
    if wrong:
        mark = "{,}" if comma else "."
        problems.append(
            f"the formula {formula} writes {wrong[0]!r}: in lang-{lang} the decimal mark is {mark}"
        )
    for word in TEXT.findall(formula):
        if any(ch.isalpha() for ch in word) and script_problems(word, lang):
            problems.append(
                f"the formula {formula} has \\text{{{word}}}: a word in lang-{lang} belongs there"
            )
    return problems


def _twin_problems(cell, twin, lang: str, where: str, name: str) -> list[str]:
    problems = []
    en, text = cell.source, twin.source
    if twin.metadata.get("translation_of") != fingerprint(en):
        problems.append(
            f"{where}: the lang-{lang} translation is stale or unstamped (the English changed): "
            f"review it, then run `python -m course_tools.lessons stamp {name[:2]}`"
        )
    if not LANGUAGE_DATA[lang].script.search(TABLE_LINE.sub("", text)):
        problems.append(f"{where}: the lang-{lang} twin has no text in {LANGUAGE_DATA[lang].name}")
    if [formula_key(f) for f in MATH.findall(en)] != [formula_key(f) for f in MATH.findall(text)]:
        problems.append(
            f"{where}: the formulas differ between lang-{SOURCE_LANGUAGE} and lang-{lang} "
            "(beyond the decimal mark and the words of \\text{})"
        )
    for language, prose in ((SOURCE_LANGUAGE, en), (lang, text)):
        problems += [f"{where}: {p}" for p in formula_problems_in(prose, language)]
    if HEADING.findall(en) != HEADING.findall(text):
        problems.append(f"{where}: the headings differ between lang-{SOURCE_LANGUAGE} and lang-{lang}")
    if TABLE_LINE.findall(en) != TABLE_LINE.findall(text):
        problems.append(f"{where}: the twins differ in their lines {TABLE_MARKER} (or their ranges)")
    if cell.metadata.get("slideshow") != twin.metadata.get("slideshow"):
        problems.append(
            f"{where}: the lang-{SOURCE_LANGUAGE} and lang-{lang} cells have different slideshow metadata"
        )
    if set(cell.metadata.get("tags", ())) - LANG_TAGS != set(twin.metadata.get("tags", ())) - LANG_TAGS:
        problems.append(f"{where}: the lang-{SOURCE_LANGUAGE} and lang-{lang} cells have different tags")
    return problems


def deep_dives(cells: Sequence) -> list[range]:
    """The deep dives among ``cells`` (a source's, or a rendered notebook's), each as the range of its
    indices: a maximal run of consecutive cells tagged ``deep-dive``, cut again before each prose cell
    that opens with a heading of level 3 or above (a deep dive right after another; in a source, at
    the English cell, whose twins follow it)."""
    runs: list[range] = []
    start = None
    for index, cell in enumerate([*cells, None]):
        inside = cell is not None and DEEP_DIVE in cell.metadata.get("tags", ())
        opens = inside and start is not None and _opens_section(cell) and cell_lang(cell) not in TRANSLATIONS
        if start is not None and (not inside or opens):
            runs.append(range(start, index))
            start = None
        if inside and start is None:
            start = index
    return runs


def _opens_section(cell) -> bool:
    """A prose cell whose first line is a heading of level 1 to 3."""
    first = cell.source.lstrip().split("\n", 1)[0] if cell.cell_type == "markdown" else ""
    found = HEADING.match(first)
    return bool(found) and len(found.group(1)) <= 3


def deep_dive_problems(src: Source) -> list[str]:
    """Deep dives that do not open, in every language, with a prose cell ``### Deep dive: <title>``
    (``### Подробнее: <title>``), or that hold a heading above level 4 further on in a cell.

    The site folds each deep dive under its heading and lists it in the page's table of contents,
    so the heading must come first; a ``###`` (or ``##``) inside a cell would start a section the
    fold cannot hold (use ``####`` inside a deep dive; a prose cell that opens with ``###`` starts the
    next deep dive). Twins that differ in the tag are reported by :func:`translation_problems`.
    """
    problems = []
    for run in deep_dives(src.cells):
        where = src.where(run.start)
        for lang in LANGUAGES:
            wanted = deep_dive_heading(lang, "")
            prose = [
                i for i in run if src.cells[i].cell_type == "markdown" and cell_lang(src.cells[i]) == lang
            ]
            first_code = next((i for i in run if src.cells[i].cell_type == "code"), None)
            if not prose or (first_code is not None and first_code < prose[0]):
                problems.append(
                    f"{where}: a deep dive must open with a lang-{lang} prose cell whose first line is "
                    f"{deep_dive_heading(lang, '<title>')!r}, before any code"
                )
                continue
            text = src.cells[prose[0]].source.strip()
            first = text.splitlines()[0] if text else ""
            if not first.startswith(wanted) or not first[len(wanted) :].strip():
                problems.append(
                    f"{src.where(prose[0])}: a deep dive's first lang-{lang} line must be "
                    f"{deep_dive_heading(lang, '<title>')!r}, got {first[:60]!r}"
                )
            for i in prose:
                lines = src.cells[i].source.strip().splitlines()
                later = [
                    h for h in HEADING.findall("\n".join(lines[1:] if i == prose[0] else lines)) if len(h) < 4
                ]
                if later:
                    problems.append(
                        f"{src.where(i)}: a {'#' * len(later[0])} heading inside a deep dive (lang-{lang}) "
                        "would end its fold on the site: use #### inside a deep dive, or end the deep dive "
                        "(untag the cells) before the heading"
                    )
    return problems + _deep_dive_name_problems(src)


def _bound_names(code: str) -> set[str]:
    """The names a cell's code binds: assignments, loop and ``with`` targets, defs, classes, imports."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def _deep_dive_name_problems(src: Source) -> list[str]:
    """Main-path code that reads a name only a deep dive makes: a reader who skips the fold would
    get a NameError."""
    inside = {i for run in deep_dives(src.cells) for i in run}
    code = [
        (i, c) for i, c in enumerate(src.cells) if c.cell_type == "code" and EXERCISE_KEY not in c.metadata
    ]
    main = set().union(*(_bound_names(c.source) for i, c in code if i not in inside))
    only_deep: dict[str, int] = {}
    problems = []
    for i, cell in code:
        if i in inside:
            for name in _bound_names(cell.source) - main:
                only_deep.setdefault(name, i)
            continue
        for name, made in sorted(only_deep.items()):
            if uses_name(cell.source, name):
                problems.append(
                    f"{src.where(i)}: main-path code uses {name!r}, which only deep-dive code makes "
                    f"({src.where(made)}): a reader who skips the deep dive gets a NameError"
                )
    return problems


def code_cell_problems(src: Source) -> list[str]:
    """Code the slides would have to run, exercise cells that do not name a template, and code the
    build cannot put in each language (:func:`course_tools.build.lesson_code.code_problems`): a comment
    without its twins, a ``pick()`` it cannot resolve."""
    problems = []
    names = code_names(
        c.source for c in src.cells if c.cell_type == "code" and EXERCISE_KEY not in c.metadata
    )
    for i, cell in enumerate(src.cells):
        where = src.where(i)
        template = cell.metadata.get(EXERCISE_KEY)
        if cell.cell_type != "code":
            if template is not None:
                problems.append(f"{where}: {EXERCISE_KEY} belongs on a code cell, not on prose")
            continue
        if "slides-only" in cell.metadata.get("tags", ()):
            problems.append(
                f"{where}: a code cell tagged slides-only: the decks take every output from the executed "
                "notebook and never run code, so each code cell must be in the notebook; remove the tag "
                "(only prose may be slides-only)"
            )
        if template is None:
            problems += [f"{src.where_code(i, line)}: {p}" for line, p in code_problems(cell.source, names)]
            continue
        try:
            exercise_template(template)
        except KeyError:
            problems.append(
                f"{where}: {EXERCISE_KEY}: {template!r} is not an exercise of course_lib.exercises; "
                f"the exercises are {', '.join(known_exercises())}"
            )
        lines = cell.source.strip().splitlines()
        if len(lines) != 1 or not lines[0].startswith("#"):
            problems.append(
                f"{where}: the code of this exercise cell is course_lib.exercises.{template}.template, "
                f"written once there: leave only a one-line comment here, got {len(lines)} lines"
            )
    return problems


def known_exercises() -> list[str]:
    """The names of ``course_lib.exercises``' exercises, from its registry."""
    from course_lib import exercises  # imports torch: only when a lesson has an exercise

    return sorted(exercises.registry())


def exercise_template(name: str, lang: str = SOURCE_LANGUAGE) -> str:
    """The code a student starts exercise ``name`` from, as a cell of the ``lang`` notebook holds
    it: its comments in ``lang`` (KeyError if there is no such exercise)."""
    from course_lib import exercises

    exercise = exercises.registry().get(name) if isinstance(name, str) else None
    if exercise is None:
        raise KeyError(
            f"course_lib.exercises has no exercise {name!r}: the exercises are {', '.join(known_exercises())}"
        )
    return exercise.template_in(lang).rstrip("\n")


# ----------------------------------------------------------------------------- render


def selected_cells(src: Source, lang: str, target: str = "notebook") -> list[int]:
    """The indices of the source cells that the notebook (or the deck) of ``lang`` has, in order."""
    prose_lang = SOURCE_LANGUAGE if lang == PSEUDO else lang
    skip_tag = "slides-only" if target == "notebook" else "notebook-only"
    chosen = []
    for index, cell in enumerate(src.cells):
        if skip_tag in cell.metadata.get("tags", ()):
            continue
        if target == "slides" and DEEP_DIVE in cell.metadata.get("tags", ()):
            continue  # the site folds deep dives; a lecture leaves them out
        if target == "notebook" and cell.metadata.get("slideshow", {}).get("slide_type") == "notes":
            continue  # speaker notes are for the instructor's deck only
        if cell.cell_type == "markdown" and cell_lang(cell) != prose_lang:
            continue
        chosen.append(index)
    return chosen


def render(
    src: Source,
    lang: str,
    target: str = "notebook",
    *,
    table: Callable[[str], str] | None = None,
    metadata: dict | None = None,
) -> nbformat.NotebookNode:
    """The cells of one language and one target (notebook or slides), unexecuted.

    Args:
        src: the lesson source.
        lang: one of ``LANGUAGES``, or ``PSEUDO``, whose prose is ``pseudo()`` of the English
            (for tests; never part of the course).
        target: ``"notebook"`` or ``"slides"``.
        table: ``table(lang)`` is the lesson table that replaces the line ``<!-- lesson-table -->``,
            ``table(lang, range(5, 10))`` its rows of lessons 5 to 9 (the line ``<!-- lesson-table 5-9 -->``);
            needed only by a source that has such a line.
        metadata: more notebook metadata under ``course`` (where the notebook comes from).
    """
    if lang not in LANGUAGES and lang != PSEUDO:
        raise ValueError(f"lang must be one of {LANGUAGES} or {PSEUDO!r}, got {lang!r}")
    if target not in TARGETS:
        raise ValueError(f"target must be one of {TARGETS}, got {target!r}")
    out = nbformat.v4.new_notebook()
    out.metadata = {
        "kernelspec": dict(KERNELSPEC),
        "language_info": {"name": "python"},
        "course": {"lesson": src.name, "lang": lang, **(metadata or {})},
    }
    code = _localized_code(src, lang)
    for index in selected_cells(src, lang, target):
        cell = src.cells[index]
        tags = list(cell.metadata.get("tags", ()))
        meta = copy.deepcopy(dict(cell.metadata))
        for key in SOURCE_ONLY_KEYS:
            meta.pop(key, None)
        kept = [t for t in tags if t not in LANG_TAGS]
        if target == "slides" and SPEAKER_NOTES in tags and cell.cell_type == "markdown":
            # the notebook's prose, said by the lecturer: the notes of the slide it falls in
            meta["slideshow"] = {"slide_type": "notes"}
        if kept:
            meta["tags"] = kept
        else:
            meta.pop("tags", None)
        if cell.cell_type == "code":
            new = nbformat.v4.new_code_cell(code[index], metadata=meta)
        else:
            text = _pseudo_markdown(cell.source) if lang == PSEUDO else cell.source
            if target == "slides" and SPEAKER_NOTES in tags:
                text = unfold_details(text)
            if TABLE_LINE.search(text):
                if table is None:
                    raise ValueError(f"{src.where(index)}: {TABLE_MARKER} needs the lesson table to render")
                text = TABLE_LINE.sub(lambda m: _table_part(table, lang, m), text)
            new = nbformat.v4.new_markdown_cell(text, metadata=meta)
        new.id = f"{lang}-{len(out.cells):03d}"
        out.cells.append(new)
    return out


def _table_part(table, lang: str, match: re.Match) -> str:
    """The lesson table (or the rows of the range the marker names) for one marker line."""
    if match.group(1) is None:
        return table(lang)
    first, last = int(match.group(1)), int(match.group(2))
    if first > last:
        raise ValueError(f"{match.group(0)!r}: the range of lessons runs backwards ({first} > {last})")
    return table(lang, range(first, last + 1))


_DETAILS_OPEN = re.compile(
    r"^[ \t]*<details[^>]*>[ \t]*\n(?:[ \t]*<summary>(.*?)</summary>[ \t]*\n)?", re.M | re.S
)
_DETAILS_CLOSE = re.compile(r"^[ \t]*</details>[ \t]*\n?", re.M)


def unfold_details(text: str) -> str:
    """``text`` with every ``<details>`` fold opened: its summary becomes a bold line.

    A fold is right in the notebook (the student predicts before reading the answer) and wrong in
    the speaker view, where the lecturer would have to click inside the notes mid-lecture.
    """
    text = _DETAILS_OPEN.sub(lambda match: f"**{match.group(1).strip()}**\n" if match.group(1) else "", text)
    return _DETAILS_CLOSE.sub("", text)


def _localized_code(src: Source, lang: str) -> dict[int, str]:
    """The code of every code cell in ``lang``, by cell index (:func:`course_tools.build.lesson_code.localize`).

    An exercise cell gets its template. When no cell calls ``pick`` any more, it leaves the
    ``from course_lib import`` lines too; the pseudo-language keeps its calls, for ``course_lib``
    to resolve at run time. Decided over all the lesson's cells, so that a deck's code is its
    notebook's. The cells whose ``pick()`` calls were resolved are formatted again by ruff.
    """
    code, resolved = {}, set()
    for index, cell in enumerate(src.cells):
        if cell.cell_type != "code":
            continue
        if EXERCISE_KEY in cell.metadata:
            code[index] = exercise_template(cell.metadata[EXERCISE_KEY], lang)
            continue
        localized = localize(cell.source, lang)
        code[index] = localized.code
        if localized.picks:
            resolved.add(index)
    if lang != PSEUDO and not any(uses_name(text, PICK) for text in code.values()):
        code = {index: drop_import(text, PICK) for index, text in code.items()}
    return code | ruff_format({index: code[index] for index in resolved})


# a line's Markdown syntax, kept as it is in the pseudo-language: heading, bullet, quote, number
_MARKDOWN_PREFIX = re.compile(r"(\s*(?:#+ |[-*>] |\d+\. )?)(.*)")


def _pseudo_markdown(text: str) -> str:
    """English prose in the pseudo-language, line by line, fenced code and formulas untouched."""
    out, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line.strip()):
            fenced = not fenced
            out.append(line)
            continue
        if fenced or not line.strip() or line.lstrip().startswith(("$$", "<!--", "|")):
            out.append(line)
            continue
        prefix, rest = _MARKDOWN_PREFIX.fullmatch(line).groups()
        out.append(prefix + pseudo(rest))
    return "\n".join(out)


# ----------------------------------------------------------------------------- stamp


def stamp(path: Path) -> int:
    """Record, in each translation, the English text it now translates; return how many changed.

    A source that cannot be read (:class:`SourceError`) is never rewritten, and neither is one
    whose rewritten text would read back differently.
    """
    from ..core.files import write_all

    src = read_source(path)
    count = 0
    for i, cell in enumerate(src.cells):
        if cell_lang(cell) != SOURCE_LANGUAGE:
            continue
        for twin in src.cells[i + 1 : i + 1 + len(TRANSLATIONS)]:
            if cell_lang(twin) in TRANSLATIONS and twin.metadata.get("translation_of") != fingerprint(
                cell.source
            ):
                twin.metadata["translation_of"] = fingerprint(cell.source)
                count += 1
    if not count:
        return 0
    text = jupytext.writes(src.nb, fmt="md:myst")
    again = jupytext.reads(text, fmt="md:myst")
    if _cells(again) != _cells(src.nb):
        raise SourceError([f"{src.label}: stamping would change more than the stamps; left as it is"])
    write_all({path: text})
    return count


def _cells(nb) -> Sequence:
    return [(c.cell_type, c.source, dict(c.metadata)) for c in nb.cells]
