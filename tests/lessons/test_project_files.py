"""The Makefile runs the tools of course_tools, and `make lab` with every offline option."""

import re

from course_tools.config import LAB_OFFLINE_OPTIONS
from tests.support import ROOT

MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")


def make_variable(name: str) -> str:
    """A Makefile variable's definition, continuation lines joined."""
    found = re.search(rf"^{name} :=(.*?)(?<!\\)\n", MAKEFILE, re.M | re.S)
    assert found, f"the Makefile defines no {name}"
    return found.group(1).replace("\\\n", " ")


def test_make_lab_runs_jupyterlab_with_every_offline_option():
    """Before: the news feed stayed on, and the server looked up its host when the page asked for news."""
    lab = make_variable("LAB").split()
    for option in LAB_OFFLINE_OPTIONS:
        assert option in lab, f"`make lab` lacks {option}"


def test_every_tool_is_run_as_a_module_of_course_tools():
    for tool in ("lessons build", "lessons check", "slides", "workspace --lang en", "workspace --lang ru"):
        assert f"$(BIN)/python -m course_tools.{tool}" in MAKEFILE, tool


def test_no_file_names_the_old_build_scripts():
    files = [ROOT / "Makefile", *ROOT.glob("*.md"), *ROOT.glob("*.toml"), *ROOT.glob("notebooks/*.md")]
    for folder in ("course_tools", "tests", "slides/template", "benchmarks", ".ci"):
        files += [
            p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in (".py", ".md", ".j2", "")
        ]
    old = re.compile(r"notebooks/build\.py|slides/build\.py|notebooks/workspace\.py|exercise_cells\.md")
    this = ROOT / "tests" / "lessons" / "test_project_files.py"
    mentions = [
        p.relative_to(ROOT).as_posix()
        for p in files
        if p != this and old.search(p.read_text(encoding="utf-8"))
    ]
    assert mentions == []
