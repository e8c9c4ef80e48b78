"""The project's own promises: light import, consistent dependency lists, a complete catalogue."""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_loads_neither_matplotlib_nor_ipywidgets():
    code = "import sys, course_lib; print(sorted(m for m in sys.modules if m.split('.')[0] in {'matplotlib', 'ipywidgets'}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _pyproject_pins():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = project["dependencies"] + [d for group in project["optional-dependencies"].values() for d in group]
    return {d.split("==")[0].lower(): d.split("==")[1] for d in deps}


def _environment_pins():
    pins = {}
    for line in (ROOT / "environment.yml").read_text().splitlines():
        m = re.match(r"\s+- ([A-Za-z0-9_.\-]+)==(\S+)\s*$", line)
        if m:
            pins[m.group(1).lower()] = m.group(2)
    return pins


def test_every_dependency_is_pinned_exactly():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for dep in project["dependencies"] + sum(project["optional-dependencies"].values(), []):
        assert re.fullmatch(r"[A-Za-z0-9_.\-]+==[\w.]+", dep), dep


def test_environment_yml_lists_the_same_pins_as_pyproject():
    assert _environment_pins() == _pyproject_pins()
