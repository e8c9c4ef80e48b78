"""`make test`'s stage runner (course_tools/stages.py): each stage once, in order, timed, the first failure
stopping the run, the table printed in every case; and `make test` runs its stages through it."""

import os
import re
import shutil
import subprocess
import sys

import pytest

from course_tools import stages
from tests.support import ROOT

# a build two stages need (like the site, for browser-site and browser-a11y), counted in built.txt
MAKEFILE = """\
.PHONY: build check-a check-b broken after
build:
\techo built >> built.txt
check-a: build
\techo a >> ran.txt
check-b: build
\techo b >> ran.txt
broken:
\texit 3
after:
\techo after >> ran.txt
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    if not shutil.which("make"):
        pytest.skip("no make on this machine")
    (tmp_path / "Makefile").write_text(MAKEFILE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_stage_does_not_remake_what_an_earlier_stage_made(project):
    done = stages.run(
        ["build", "check-a", "check-b"], ["make", "--no-print-directory"], say=lambda *a, **k: None
    )
    assert [(s.name, s.code) for s in done] == [("build", 0), ("check-a", 0), ("check-b", 0)]
    assert (project / "built.txt").read_text().split() == ["built"]
    assert (project / "ran.txt").read_text().split() == ["a", "b"]


def test_a_stage_alone_still_makes_what_it_needs(project):
    stages.run(["check-b"], ["make"], say=lambda *a, **k: None)
    assert (project / "built.txt").read_text().split() == ["built"]


def test_the_first_failure_stops_the_run_and_the_table_shows_it(project):
    planned = ["check-a", "broken", "after"]
    done = stages.run(planned, ["make", "--no-print-directory"], say=lambda *a, **k: None)
    assert [(s.name, s.code) for s in done] == [("check-a", 0), ("broken", 2)]
    assert not (project / "ran.txt").read_text().count("after")
    lines = stages.table(done, planned)
    assert re.fullmatch(r"  broken +\d+\.\d s +load [\d.]+ -> [\d.]+  FAILED \(exit 2\)", lines[2]), lines[2]
    assert re.fullmatch(r"  after +not run", lines[3]), lines[3]
    assert lines[-1].startswith("  total ")


def test_the_command_exits_as_the_failed_stage_and_prints_the_table(project):
    result = subprocess.run(
        [sys.executable, "-m", "course_tools.stages", "--make", "make", "check-a", "broken"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 2, result.stderr
    assert "stage times" in result.stdout and "FAILED (exit 2)" in result.stdout


def test_minutes_appear_from_one_minute_on():
    assert stages.minutes(59.4) == ""
    assert stages.minutes(125) == "  (2 min 05 s)"


def test_make_test_runs_every_stage_through_the_timer():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"^TEST_STAGES := (.*?)(?<!\\)\n", makefile, re.M | re.S)
    assert found, "the Makefile defines no TEST_STAGES"
    listed = found.group(1).replace("\\\n", " ").split()
    for stage in listed:
        assert re.search(rf"^{re.escape(stage)}:", makefile, re.M), f"no target {stage}"
    assert len(set(listed)) == len(listed)
    recipe = re.search(r"^test: .*\n\t(.*)\n", makefile, re.M)
    assert recipe and "-m course_tools.stages" in recipe.group(1) and "$(TEST_STAGES)" in recipe.group(1)


def recipe_of(makefile: str, target: str) -> str:
    found = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert found, f"no recipe for {target}"
    return found.group(1).replace("\\\n", " ")


def test_every_browser_test_file_runs_in_a_stage_of_make_test():
    """Before: tests/browser/test_site_deep_dives.py (marked browser, so left out of the unit stage) was
    named by no stage: `make test` never ran it."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    listed = re.search(r"^TEST_STAGES := (.*?)(?<!\\)\n", makefile, re.M | re.S).group(1).replace("\\\n", " ")
    recipes = " ".join(recipe_of(makefile, stage) for stage in listed.split())
    recipes = recipes.replace("$(BROWSER_PYTEST)", "-m browser")
    named = set(re.findall(r"tests/browser/test_\w+\.py", recipes))
    for pattern in re.findall(
        r"tests/browser/test_[\w*]*\*[\w*]*\.py", recipes
    ):  # a glob, as the shell expands it
        named |= {p.relative_to(ROOT).as_posix() for p in ROOT.glob(pattern)}
    files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests" / "browser").glob("test_*.py")}
    assert files - named == set(), "browser tests no stage of `make test` runs"
