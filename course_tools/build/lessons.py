"""What ``python -m course_tools.lessons`` does (its docstring says what each command is for):
:func:`build` renders and executes the lessons and writes their notebooks and the README tables, all or
nothing; :func:`check` lists every problem; :func:`stamp_lessons` accepts translations as reviewed;
:func:`words` measures each lesson against a lecture's budgets (:mod:`.lecture`).
"""

from collections.abc import Sequence
from pathlib import Path

import nbformat

from ..core.config import CONFIG, LANGUAGES, Config
from ..core.files import blocked, write_all
from .course import Course, rebuild_command
from .execute import ExecutionError, execute
from .source import SourceError, selected_cells, stamp

__all__ = ["BuildError", "build", "check", "stamp_lessons", "words"]


class BuildError(ValueError):
    """A build that wrote nothing; ``problems`` says why."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


def notebook_text(nb: nbformat.NotebookNode) -> str:
    """A notebook as the repository keeps it (what ``nbformat.write`` writes)."""
    text = nbformat.writes(nb)
    return text if text.endswith("\n") else text + "\n"


def build(prefixes: Sequence[str] = (), config: Config = CONFIG, say=print) -> list[Path]:
    """Render and execute the lessons, then write all their notebooks and the README tables, or nothing.

    Returns the files written. Raises :class:`BuildError` (nothing written) when a source has
    problems or a cell fails, and ``LessonSelectionError`` for a lesson that does not exist.
    """
    course = Course.load(config)
    names = course.select(list(prefixes))
    problems = [p for name in names for p in course.source_problems(name)]
    # the README tables and lesson 0 show every lesson's title: those must all be readable
    for name in course.names:
        if name not in names and name not in course.titles:
            problems += course.source_problems(name)
    problems += course.table_problems()
    # a folder where an output goes: said now, not after every lesson has run
    outputs_to_be = [config.notebook(name, lang) for name in names for lang in LANGUAGES]
    problems += blocked(outputs_to_be + list(course.readmes()), config.relative)
    if problems:
        raise BuildError(problems + ["nothing was executed or written"])

    outputs: dict[Path, str] = {}
    failures = []
    for name in names:
        src = course.sources[name]
        for lang in LANGUAGES:
            nb = course.render(name, lang)
            chosen = selected_cells(src, lang)
            say(f"executing {name} [{lang}]")
            try:
                execute(
                    nb,
                    lesson=name,
                    lang=lang,
                    cwd=config.notebooks_dir(lang),
                    root=config.root,
                    where=lambda i, s=src, c=chosen: s.where(c[i]),
                )
            except ExecutionError as error:
                failures.append(str(error))
                continue
            outputs[config.notebook(name, lang)] = notebook_text(nb)
    if failures:
        raise BuildError(
            failures + [f"nothing was written: fix the cells above, then run `{rebuild_command(names)}`"]
        )

    for path, text in course.readmes().items():
        if text is not None and path.read_text(encoding="utf-8") != text:
            outputs[path] = text
    write_all(outputs)
    for path in outputs:
        say(f"wrote {config.relative(path)}")
    # lesson 0 shows every title: a title changed here makes it stale too
    others = [name for name in course.names if name not in names and course.notebook_problems(name)]
    if others:
        say(f"now out of date as well: {', '.join(others)}; run `{rebuild_command(others)}`")
    return list(outputs)


def check(config: Config = CONFIG) -> list[str]:
    """Every problem of every lesson; an empty list when all is well."""
    return Course.load(config).problems()


def stamp_lessons(prefixes: list[str], config: Config = CONFIG, say=print) -> list[str]:
    """Stamp the translations of the chosen lessons as current; return the problems (sources left as they were)."""
    course = Course.load(config)
    problems = []
    for name in course.select(prefixes):
        try:
            count = stamp(config.source(name))
        except SourceError as error:
            problems += error.problems + [f"{config.relative(config.source(name))} was not changed"]
            continue
        say(f"{name}.md: {count} translations stamped")
    return problems


def words(prefixes: list[str], config: Config = CONFIG, say=print) -> int:
    """Print each chosen lesson's shape (:mod:`course_tools.build.lecture`) and what breaks a budget; 1 if anything does."""
    from .lecture import budget_problems, course_shapes, report

    course = Course.load(config)
    names = course.select(prefixes)
    unreadable = [p for name in names if name in course.unreadable for p in course.unreadable[name]]
    shapes = course_shapes(course, [name for name in names if name in course.sources])
    say(report(shapes))
    problems = unreadable + [p for shape in shapes for p in budget_problems(shape)]
    for problem in problems:
        say(f"  {problem}")
    return 1 if problems else 0
