"""The lessons tool: one bilingual source per lesson -> an executed notebook per language.

    python -m course_tools.lessons build           # render and execute every lesson, every language
    python -m course_tools.lessons build 02 04     # only the lessons whose names start so
    python -m course_tools.lessons check           # no execution: list every problem, exit 1 if any
    python -m course_tools.lessons stamp 04        # after reviewing a translation: accept it as current
    python -m course_tools.lessons words [04 05]   # main-path words, reading minutes, deep dives, slides

``build`` executes each lesson once per language and writes the notebooks
(``notebooks/<lang>/NN_name.ipynb``) only when every lesson asked for ran to the end in every
language: a cell that fails only in Russian leaves the English notebook as it was too. It also
regenerates the lesson table of each README. Each file is replaced in one step (a temporary
file, then a rename), so a reader never sees half a notebook.

A folder where one of its outputs goes stops the build before anything runs.

``words`` measures each lesson's source against the budgets of a lecture (:mod:`course_tools.lecture`):
main-path words and reading minutes per language, deep dives, deck slides and how many have notes;
it exits 1 when a lesson breaks a budget, listing every slide that does.

``check`` reports everything at once: sources misnamed (not ``NN_name.md``) or that cannot be read (an unclosed code cell,
broken metadata), missing or stale translations, code comments without their twins and ``pick()``
calls the build cannot resolve (:mod:`course_tools.lesson_code`), code cells the slides would have to run,
exercise cells without a template, titles without a summary, committed notebooks that are
missing, stale against their source (a template changed in ``course_lib.exercises`` makes
them stale too) or never executed, notebooks without a source, README tables out of date.
"""

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import nbformat

from .config import CONFIG, LANGUAGES, Config
from .course import Course, LessonSelectionError, rebuild_command
from .execute import ExecutionError, execute
from .files import blocked, write_all
from .source import SourceError, selected_cells, stamp

__all__ = ["BuildError", "build", "check", "stamp_lessons", "words", "main"]


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
    """Print each chosen lesson's shape (:mod:`course_tools.lecture`) and what breaks a budget; 1 if anything does."""
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_tools.lessons",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    build_parser = commands.add_parser("build", help="render and execute lessons, write their notebooks")
    build_parser.add_argument("lessons", nargs="*", help="lesson name prefixes, e.g. 04 (default: all)")
    commands.add_parser("check", help="list every problem without executing anything")
    stamp_parser = commands.add_parser("stamp", help="accept the current translations of lessons as reviewed")
    stamp_parser.add_argument("lessons", nargs="+", help="lesson name prefixes, e.g. 04")
    words_parser = commands.add_parser("words", help="main-path words, deep dives and slides of each lesson")
    words_parser.add_argument("lessons", nargs="*", help="lesson name prefixes, e.g. 04 (default: all)")
    args = parser.parse_args(argv)
    try:
        if args.command == "words":
            return words(args.lessons)
        if args.command == "build":
            build(args.lessons)
            return 0
        if args.command == "check":
            problems = check()
            print("\n".join(problems) or "every lesson, translation, notebook and table is current")
            return 1 if problems else 0
        problems = stamp_lessons(args.lessons)
    except (BuildError, LessonSelectionError) as error:
        print(error, file=sys.stderr)
        return 1
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
