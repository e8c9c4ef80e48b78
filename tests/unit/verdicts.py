"""What every exercise test asserts of a verdict, and the two tests each table of students gets.

A test module of an exercise lists its students as ``WRONG`` (exercise, student, expected key) and
``RIGHT`` (exercise, student), then takes its tests from here::

    test_each_mistake_gets_its_own_diagnosis, test_right_implementations_in_any_style_pass = verdict_tests(WRONG, RIGHT)

so that every table is judged the same way, whichever lesson it belongs to.
"""

import re

import pytest

from course_lib.exercises.checks import message, status_title
from course_lib.i18n import decimal_mark, minus_sign, script_problems

# a decimal number as a verdict writes it: 0.8415, -0.1487, 1.5e-03; 0,8415, −0,1487, 1,5·10⁻³
DECIMAL = re.compile(r"[-−]?\d+[.,]\d+(?:e[-+]\d+|·10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?")


def assert_verdict(feedback, status: str, key: str, lang: str) -> None:
    """``feedback`` is the verdict ``status``/``key``, worded by the catalogue in ``lang`` and in its script."""
    assert (feedback.status, feedback.key) == (status, key), feedback.message
    assert feedback.message.startswith(message(key, lang, **feedback.values))
    assert script_problems(feedback.message, lang) == [], feedback.message
    assert feedback.title == status_title(status, lang)


def prose(message: str) -> str:
    """A verdict without its code spans (code keeps Python's `0.5`) and section numbers (3.4)."""
    return re.sub(r"`[^`]*`|(?:[Ss]ection|[Рр]аздел\w*) \d+(?:\.\d+)+", "", message)


def assert_numbers_in_language(message: str, lang: str) -> list[str]:
    """The verdict names decimal numbers, each written as ``lang`` writes it (``i18n.decimal_mark``, ``minus_sign``):
    0.71 and -0.5 in English, 0,71 and −0,5 in Russian."""
    point, minus = decimal_mark(lang), minus_sign(lang)
    text = prose(message)
    numbers = DECIMAL.findall(text)
    assert numbers, message
    assert all(point in n for n in numbers), message
    for other in {".", ","} - {point}:
        assert not re.search(rf"\d{re.escape(other)}\d", text), message
    if minus == "-":
        assert all(not set(n) & set("−·") for n in numbers), message
    else:  # no hyphen for a minus, and powers of ten written out, not Python's e-notation
        assert not re.search(r"(?<![\w^])-\d|\de[-+]?\d", text), message
    return numbers


def case_id(value) -> str:
    """A readable test id for a student: an exercise's name, a class's or function's name."""
    return getattr(value, "name", None) or getattr(value, "__name__", str(value))


def verdict_tests(wrong, right):
    """The test that each wrong student gets its diagnosis, and the test that each right one passes."""

    @pytest.mark.parametrize("exercise, student, key", wrong, ids=[f"{k}-{case_id(s)}" for _, s, k in wrong])
    def test_each_mistake_gets_its_own_diagnosis(exercise, student, key, lang):
        assert_verdict(exercise.check(student), "incorrect", key, lang)

    @pytest.mark.parametrize("exercise, student", right, ids=[f"{e.name}-{case_id(s)}" for e, s in right])
    def test_right_implementations_in_any_style_pass(exercise, student, lang):
        assert_verdict(exercise.check(student), "correct", f"{exercise.prefix}.correct", lang)

    return test_each_mistake_gets_its_own_diagnosis, test_right_implementations_in_any_style_pass


def own_copy(cls: type) -> type:
    """The course's class as if a student had written it: a subclass with a ``forward`` of its own
    (which calls the course's). A check says "this is the course's class" to the class itself, an
    alias of it, or a subclass that inherits its ``forward``; this copy is judged on its outputs."""

    def forward(self, *args, **kwargs):
        return cls.forward(self, *args, **kwargs)

    return type(f"My{cls.__name__}", (cls,), {"forward": forward, "__module__": __name__})
