import importlib.util
from pathlib import Path

import pytest

import course_lib

ROOT = Path(__file__).resolve().parents[1]


def load_script(relpath: str):
    """Import a build script such as notebooks/build.py as a module."""
    path = ROOT / relpath
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def english_by_default():
    course_lib.set_language("en")
    yield
    course_lib.set_language("en")
