import pytest

import course_lib
from course_lib.i18n import LANGUAGES


@pytest.fixture(autouse=True)
def english_by_default():
    course_lib.set_language("en")
    yield
    course_lib.set_language("en")


@pytest.fixture(params=LANGUAGES)
def lang(request):
    """Each language of the course in turn, set as the current one."""
    course_lib.set_language(request.param)
    yield request.param
    course_lib.set_language("en")
