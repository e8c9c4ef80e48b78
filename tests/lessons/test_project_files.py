"""The Makefile runs the tools of course_tools, and `make lab` with every offline option."""

import re

from course_tools.core.config import LAB_OFFLINE_OPTIONS
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
    for tool in ("lessons build", "lessons check", "slides", "workspace --lang en", "workspace --lang $*"):
        assert f"$(BIN)/python -m course_tools.{tool}" in MAKEFILE, tool


def test_make_lab_has_a_target_for_every_language():
    """`make lab-ru`, and `make lab-<code>` for any language added to LANGUAGE_INFO: one pattern rule.

    Before: a target per language, written out (`lab-ru:`), that a new language had to copy."""
    rule = re.search(r"^lab-%: .*\n((?:\t.*\n)+)", MAKEFILE, re.M)
    assert rule, "the Makefile has no `lab-%` rule"
    recipe = rule.group(1)
    assert "--lang $* --lab-settings workspace/.settings-$*" in recipe
    assert "JUPYTERLAB_SETTINGS_DIR=workspace/.settings-$*" in recipe and "/lab/tree/$*/" in recipe
    assert not re.search(r"^lab-[a-z]+:", MAKEFILE, re.M), "a language's own lab target"


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
