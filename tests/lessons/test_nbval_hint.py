"""When nbval fails, the summary names the lessons to rebuild and the exact command."""

import runpy
from types import SimpleNamespace

from tests.support import ROOT

HOOK = runpy.run_path(str(ROOT / "conftest.py"))["pytest_terminal_summary"]


class Reporter:
    def __init__(self, **stats):
        self.stats = stats
        self.lines = []

    def section(self, title):
        self.lines.append(f"== {title} ==")

    def write_line(self, line):
        self.lines.append(line)


def failed(*nodeids):
    return [SimpleNamespace(nodeid=nodeid) for nodeid in nodeids]


def test_failed_lesson_cells_name_the_lessons_and_the_command():
    reporter = Reporter(
        failed=failed("notebooks/ru/05_sinusoidal_encoding.ipynb::Cell 12", "tests/unit/test_x.py::test_y"),
        error=failed("notebooks/en/03_token_embeddings.ipynb::Cell 3"),
    )
    HOOK(reporter)
    assert reporter.lines == [
        "== lessons to rebuild ==",
        "committed outputs differ from a fresh run in: 03_token_embeddings [en], 05_sinusoidal_encoding [ru]",
        "if the change is intended (a message, a label, a fix), rebuild them: "
        "python -m course_tools.lessons build 03 05",
    ]


def test_other_failures_say_nothing_about_lessons():
    reporter = Reporter(failed=failed("tests/lessons/test_build.py::test_z"))
    HOOK(reporter)
    assert reporter.lines == []
