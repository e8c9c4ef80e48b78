"""The Makefile runs the tools of course_tools, and `make lab` with every offline option."""

import os
import re
import subprocess
import sys

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


# Each benchmark started as `make bench` starts it: `python benchmarks/NAME.py` from the root, without
# PYTHONPATH, so its folder first on sys.path and the repository's own packages (course_tools, tests: not
# installed) importable only if the script puts the root there itself. One process for all (a few seconds:
# torch once); before each, sys.path as a script's and none of the repository's modules left imported.
START_EACH = """
import pathlib, runpy, sys
folder = pathlib.Path(sys.argv[1])
start = [str(folder)] + [p for p in sys.path[1:] if p not in ("", str(folder.parent))]
for script in sorted(folder.glob("*.py")):
    sys.path[:] = start
    for name in [n for n in sys.modules if n.split(".")[0] in ("course_tools", "tests", "benchmarks")]:
        del sys.modules[name]
    try:
        runpy.run_path(str(script), run_name="started_by_a_test")
    except Exception as exc:
        print(f"{script.name}: {type(exc).__name__}: {exc}")
"""


def test_every_benchmark_starts_as_make_bench_starts_it():
    """Before: bench_explorers.py imported course_tools without the root on sys.path and failed at once
    under `make bench`, which `make test` never runs."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", START_EACH, str(ROOT / "benchmarks")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == "", done.stdout
