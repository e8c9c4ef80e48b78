import pytest

import course_lib


@pytest.fixture(autouse=True)
def english_by_default():
    course_lib.set_language("en")
    yield
    course_lib.set_language("en")
