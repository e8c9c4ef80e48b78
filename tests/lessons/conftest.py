"""Fixtures of the tooling tests: one per course language, and small courses made in tmp_path."""

import pytest

from course_tools.core.config import LANGUAGES


@pytest.fixture(params=LANGUAGES)
def lang(request) -> str:
    """Each of the course's languages in turn (``course_lib.i18n.LANGUAGES``)."""
    return request.param
