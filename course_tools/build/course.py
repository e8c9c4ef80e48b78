"""Every lesson of the course at once: each source read once, its problems, its notebooks.

:meth:`Course.load` reads every lesson source of a :class:`~course_tools.core.config.Config`;
a source that cannot be read is kept as its problems, so one broken lesson never hides
the others. The lessons tool and the slides tool both start here.

    >>> course = Course.load()
    >>> course.select(["05"])
    ['05_sinusoidal_encoding']
    >>> course.titles["05_sinusoidal_encoding"].heading("en")
    '5. Sinusoidal positional encoding'
"""

from dataclasses import dataclass, field
from pathlib import PurePosixPath

import nbformat

from ..core.config import CONFIG, LANGUAGES, LESSON_NAME, Config
from .source import (
    TABLE_LINE,
    Source,
    SourceError,
    cell_lang,
    code_cell_problems,
    deep_dive_problems,
    read_source,
    render,
    translation_problems,
)
from .tables import (
    LessonTitle,
    lesson_table,
    lesson_titles,
    readme_table,
    replace_readme_table,
    title_problems,
)

__all__ = ["LessonSelectionError", "Course", "rebuild_command", "rebuild_hint", "NOTEBOOK_VOLATILE_KEYS"]

# cell metadata that JupyterLab or nbclient add and that no source decides
NOTEBOOK_VOLATILE_KEYS = ("execution", "collapsed", "scrolled")


class LessonSelectionError(ValueError):
    """Lessons asked for that do not exist."""


def rebuild_command(names: list[str]) -> str:
    """The command that renders and executes these lessons again.

    >>> rebuild_command(["05_sinusoidal_encoding", "03_token_embeddings"])
    'python -m course_tools.lessons build 03 05'
    """
    return " ".join(["python -m course_tools.lessons build", *sorted({name[:2] for name in names})])


def rebuild_hint(nodeids: list[str]) -> list[str]:
    """What to do when nbval finds committed outputs that differ from a fresh run.

    ``nodeids`` are those of failed tests; nbval's are ``notebooks/<lang>/NN_name.ipynb::Cell N``.

    >>> for line in rebuild_hint(["notebooks/ru/04_x.ipynb::Cell 3", "notebooks/en/04_x.ipynb::Cell 9",
    ...                           "notebooks/ru/02_y.ipynb::Cell 1", "tests/unit/test_a.py::test_b"]):
    ...     print(line)
    committed outputs differ from a fresh run in: 02_y [ru], 04_x [en, ru]
    if the change is intended (a message, a label, a fix), rebuild them: python -m course_tools.lessons build 02 04
    """
    found: dict[str, set[str]] = {}
    for nodeid in nodeids:
        path = PurePosixPath(nodeid.split("::")[0])
        if path.suffix == ".ipynb" and path.parent.name in LANGUAGES and LESSON_NAME.fullmatch(path.stem):
            found.setdefault(path.stem, set()).add(path.parent.name)
    if not found:
        return []
    where = ", ".join(f"{name} [{', '.join(sorted(langs))}]" for name, langs in sorted(found.items()))
    return [
        f"committed outputs differ from a fresh run in: {where}",
        f"if the change is intended (a message, a label, a fix), rebuild them: {rebuild_command(list(found))}",
    ]


@dataclass
class Course:
    """The lesson sources of one configuration, read once.

    Attributes:
        config: where everything is.
        names: every lesson, in order, readable or not.
        sources: the readable sources, by lesson name.
        unreadable: for each lesson whose source cannot be read, why.
        titles: title and summary of each lesson whose title cells can be read.
    """

    config: Config
    names: list[str]
    sources: dict[str, Source]
    unreadable: dict[str, list[str]] = field(default_factory=dict)
    titles: dict[str, LessonTitle] = field(default_factory=dict)

    @classmethod
    def load(cls, config: Config = CONFIG) -> "Course":
        sources, unreadable = {}, {}
        for path in config.sources():
            try:
                sources[path.stem] = read_source(path, label=config.relative(path))
            except SourceError as error:
                unreadable[path.stem] = error.problems
        titles = {t.name: t for t in lesson_titles(sources.values())}
        return cls(config, config.lesson_names(), sources, unreadable, titles)

    # --- choosing lessons

    def select(self, prefixes: list[str]) -> list[str]:
        """The lessons whose names start with any of ``prefixes`` (all when there are none)."""
        if not self.names:
            raise LessonSelectionError(
                f"no lesson sources in {self.config.relative(self.config.lessons_dir)}"
            )
        unknown = [p for p in prefixes if not any(name.startswith(p) for name in self.names)]
        if unknown:
            raise LessonSelectionError(
                f"no lesson matches {', '.join(map(repr, unknown))}: the lessons are {', '.join(self.names)}"
            )
        return [name for name in self.names if not prefixes or any(name.startswith(p) for p in prefixes)]

    # --- what is wrong

    def source_problems(self, name: str) -> list[str]:
        """Everything wrong with one lesson's source: unreadable, twins, code cells, title."""
        if name in self.unreadable:
            return list(self.unreadable[name])
        src = self.sources[name]
        return (
            translation_problems(src)
            + code_cell_problems(src)
            + deep_dive_problems(src)
            + title_problems(src)
        )

    def committed_problems(self, names: list[str]) -> list[str]:
        """What stops a build made from the committed notebooks (the decks, the site): the lessons'
        sources, and their notebooks missing, stale or unexecuted."""
        return [p for name in names for p in self.source_problems(name) + self.notebook_problems(name)]

    def table_problems(self) -> list[str]:
        """Lessons missing from the lesson tables: their title cannot be read, or a source that splits its
        table in parts (``<!-- lesson-table 1-4 -->``, ``<!-- lesson-table 5-9 -->``) leaves one out."""
        missing = [name for name in self.names if name not in self.titles]
        problems = []
        if missing:
            problems.append(
                f"the lesson tables cannot be made: no title and summary for {', '.join(missing)} (see above)"
            )
        numbers = {t.number: name for name, t in self.titles.items()}
        for name, src in self.sources.items():
            for lang in LANGUAGES:
                shown: list[int] = []
                for cell in src.cells:
                    if cell.cell_type == "markdown" and cell_lang(cell) == lang:
                        for first, last in TABLE_LINE.findall(cell.source):
                            shown += list(numbers) if not first else range(int(first), int(last) + 1)
                if not shown:
                    continue
                expected = sorted(n for n, other in numbers.items() if other != name)
                if sorted(n for n in shown if numbers.get(n, name) != name) != expected:
                    problems.append(
                        f"{src.label}: its lesson-table lines in lang-{lang} show lessons {sorted(shown)}, "
                        f"not each of {expected} once: give the ranges so that every lesson is in one part"
                    )
        return problems

    def notebook_problems(self, name: str) -> list[str]:
        """The committed notebooks of one lesson: missing, stale against the source, unexecuted."""
        if name not in self.sources:
            return []  # nothing to compare with: reported by source_problems
        problems = []
        for lang in LANGUAGES:
            path = self.config.notebook(name, lang)
            label = self.config.relative(path)
            if not path.exists():
                problems.append(f"{label} is missing: run `{rebuild_command([name])}`")
                continue
            if path.is_dir():
                problems.append(
                    f"{label} is a folder, not a notebook: move it away, then run `{rebuild_command([name])}`"
                )
                continue
            try:
                committed = nbformat.read(path, as_version=4)
                expected = self.render(name, lang)
            except Exception as error:  # a notebook that is not JSON, a table that cannot be made
                problems.append(f"{label} cannot be compared with its source: {error}")
                continue
            if _comparable(committed) != _comparable(expected):
                problems.append(
                    f"{label} is stale against {self.sources[name].label}: run `{rebuild_command([name])}`"
                )
                continue
            if _old_explorer_modules(committed):
                problems.append(
                    f"{label} saves an explorer's old JavaScript (course_lib/widgets/ changed since it was built): "
                    f"run `{rebuild_command([name])}`"
                )
                continue
            unexecuted = [
                i + 1
                for i, c in enumerate(committed.cells)
                if c.cell_type == "code" and not c.execution_count
            ]
            if unexecuted:
                problems.append(
                    f"{label}: cells {unexecuted} were never executed: run `{rebuild_command([name])}`"
                )
        return problems

    def misnamed_sources(self) -> list[str]:
        """Sources that look like lessons (their names start with a digit) but are not named like one."""
        return [
            f"{self.config.relative(path)} is not a lesson: a lesson's name is two digits, then lowercase "
            "letters, digits and _ (e.g. 05_sinusoidal_encoding.md); rename it"
            for path in sorted(self.config.lessons_dir.glob("[0-9]*.md"))
            if not LESSON_NAME.fullmatch(path.stem)
        ]

    def extra_notebooks(self) -> list[str]:
        """Committed notebooks without a lesson source."""
        problems = []
        for lang in LANGUAGES:
            for path in sorted(self.config.notebooks_dir(lang).glob("*.ipynb")):
                if path.stem not in self.names:
                    problems.append(
                        f"{self.config.relative(path)} has no source {self.config.relative(self.config.source(path.stem))}: "
                        "delete it, or restore its source"
                    )
        return problems

    def readme_problems(self) -> list[str]:
        """READMEs whose lesson table differs from what the lessons' titles make."""
        problems = []
        for path, text in self.readmes().items():
            label = self.config.relative(path)
            try:
                current = path.read_text(encoding="utf-8")
            except OSError as error:
                problems.append(f"{label} cannot be read: {error}")
                continue
            if text is None:
                problems.append(f"{label} has no lesson table markers: see course_tools.build.tables")
            elif current != text:
                problems.append(
                    f"{label}: the lesson table is out of date: run `python -m course_tools.lessons build`"
                )
        return problems

    def problems(self) -> list[str]:
        """Every problem of every lesson, the READMEs and the committed notebooks."""
        found = self.misnamed_sources()
        for name in self.names:
            found += self.source_problems(name)
            found += self.notebook_problems(name)
        found += self.extra_notebooks()
        found += self.table_problems()
        found += self.readme_problems()
        return found

    # --- what the lessons make

    def table(self, exclude: str = ""):
        """``table(lang, lessons=None)``: the lesson table of lesson 0 in ``lang``, without lesson ``exclude``
        (only the lessons whose numbers are in ``lessons``, if given)."""
        titles = [self.titles[name] for name in self.names if name in self.titles]
        return lambda lang, lessons=None: lesson_table(
            [t for t in titles if lessons is None or t.number in lessons], lang, exclude=exclude
        )

    def render(self, name: str, lang: str, target: str = "notebook") -> nbformat.NotebookNode:
        """The unexecuted notebook (or deck) of one lesson in one language, marked as generated."""
        src = self.sources[name]
        generated_from = {"source": src.label, "command": rebuild_command([name])}
        return render(
            src, lang, target, table=self.table(exclude=name), metadata={"generated_from": generated_from}
        )

    def readmes(self) -> dict:
        """Each README's text with its lesson table regenerated (None where it has no markers)."""
        titles = [self.titles[name] for name in self.names if name in self.titles]
        out = {}
        for lang in LANGUAGES:
            path = self.config.readme(lang)
            if not path.exists():
                continue
            if not path.is_file():
                out[path] = None  # a folder: `files.blocked` says so where it would be written
                continue
            try:
                out[path] = replace_readme_table(
                    path.read_text(encoding="utf-8"), readme_table(titles, lang, self.config), path.name
                )
            except ValueError:
                out[path] = None
        return out


def _old_explorer_modules(nb) -> list[str]:
    """The models of ``nb``'s saved widget state whose module no live explorer of course_lib loads now.

    An explorer's JavaScript is saved with it: after a change to ``course_lib/widgets/``, the site, the decks
    and JupyterLab would run the old one from the committed notebook until the lesson is rebuilt.
    """
    state = (
        nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    )
    saved = {key: model for key, model in state.items() if model.get("model_module") == "anywidget"}
    if not saved:
        return []
    from course_lib.widgets import LiveExplorer  # imports anywidget: only for a lesson with explorers

    current = {explorer._esm for explorer in LiveExplorer.__subclasses__()}
    return [key for key, model in saved.items() if model.get("state", {}).get("_esm") not in current]


def _comparable(nb) -> tuple:
    """What a source decides about a notebook: cells, their metadata, the course metadata."""
    cells = [
        (c.cell_type, c.source, {k: v for k, v in c.metadata.items() if k not in NOTEBOOK_VOLATILE_KEYS})
        for c in nb.cells
    ]
    return cells, nb.metadata.get("course")
