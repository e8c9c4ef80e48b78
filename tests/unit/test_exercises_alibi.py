"""The ALiBi exercise (lesson 8): each usual mistake gets its own diagnosis, in the student's language."""

import math

import pytest
import torch

from course_lib import exercises
from course_lib.i18n import decimal_mark
from tests.unit.verdicts import assert_numbers_in_language, assert_verdict, verdict_tests

ALIBI = exercises.alibi.EXERCISE


def slopes(n):
    """The paper's rule, written again: 2^(-8h/n), and for other n every other slope of 2n'."""
    if n & (n - 1) == 0:
        return [2 ** (-8 * h / n) for h in range(1, n + 1)]
    closest = 2 ** int(math.log2(n))
    return slopes(closest) + slopes(2 * closest)[0::2][: n - closest]


def slopes_with(n, start):
    """The paper's slopes, but the extra ones for other n taken from 2n' starting at ``start``: 1 is the 2nd, 4th, ..."""
    closest = 2 ** int(math.log2(n))
    return slopes(closest) + slopes(2 * closest)[start::2][: n - closest]


def rounded_up(n):
    """The first n slopes of the next power of two: right for powers of two only."""
    return slopes(n) if n & (n - 1) == 0 else slopes(2 ** math.ceil(math.log2(n)))[:n]


def masked_with(value):
    """The right penalty, with ``value`` instead of -inf after the query."""
    return lambda m, i, j: (-m * (i - j)).masked_fill(j > i, value)


def student(name, bias=None, slope=None, mask=lambda i, j: j > i):
    """A student's ``my_alibi_bias``: ``bias(m, i, j)`` with slopes ``slope(n)``, ``-inf`` where ``mask``."""
    bias = bias or (lambda m, i, j: -m * (i - j))
    slope = slope or (lambda n: torch.tensor(slopes(n)))

    def my_alibi_bias(num_heads, seq_len):
        i, j = torch.arange(seq_len)[:, None], torch.arange(seq_len)[None, :]
        out = bias(slope(num_heads)[:, None, None], i, j)  # (heads, seq, seq)
        return out.masked_fill(mask(i, j), -math.inf)

    my_alibi_bias.__qualname__ = name
    my_alibi_bias.__name__ = name
    return my_alibi_bias


def loops(num_heads, seq_len):
    """Right, written with loops over plain Python floats."""
    out = torch.empty(num_heads, seq_len, seq_len)
    for h, m in enumerate(slopes(num_heads)):
        for i in range(seq_len):
            for j in range(seq_len):
                out[h, i, j] = -m * (i - j) if j <= i else -math.inf
    return out


def from_course_lib(num_heads, seq_len):
    """Right: the course's symmetric bias, masked, in float64."""
    from course_lib import alibi_bias

    future = torch.ones(seq_len, seq_len, dtype=torch.bool).triu(1)
    return alibi_bias(num_heads, seq_len, dtype=torch.float64).masked_fill(future, -math.inf)


never = lambda i, j: torch.zeros_like(i - j, dtype=torch.bool)  # noqa: E731
h_from = lambda start: lambda n: torch.exp2(-8 * torch.arange(start, n + start) / n)  # noqa: E731

WRONG = [
    (ALIBI, student("symmetric", bias=lambda m, i, j: -m * (i - j).abs(), mask=never), "alibi.symmetric"),
    (ALIBI, student("no_mask", mask=never), "alibi.no_mask"),
    (ALIBI, student("diagonal", mask=lambda i, j: j >= i), "alibi.masked_diagonal"),
    (ALIBI, student("window", mask=lambda i, j: (j > i) | (i - j > 3)), "alibi.masked_past"),
    (ALIBI, student("bonus", bias=lambda m, i, j: m * (i - j)), "alibi.sign"),
    (ALIBI, student("squared", bias=lambda m, i, j: -m * (i - j) ** 2), "alibi.not_linear"),
    (ALIBI, student("reversed", slope=lambda n: torch.tensor(slopes(n)).flip(0)), "alibi.slopes_reversed"),
    (ALIBI, student("from_zero", slope=h_from(0)), "alibi.slopes_from_one"),
    (ALIBI, student("power_of_two_only", slope=h_from(1)), "alibi.slopes_not_power_of_two"),
    (ALIBI, student("base_two", slope=lambda n: torch.exp2(-torch.arange(1, n + 1) / n)), "alibi.slopes"),
    (ALIBI, student("extra_even", slope=lambda n: torch.tensor(slopes_with(n, 1))), "alibi.slopes_extra"),
    (ALIBI, student("rounded_up", slope=lambda n: torch.tensor(rounded_up(n))), "alibi.slopes_rounded_up"),
    (ALIBI, student("from_one", bias=lambda m, i, j: -m * (i - j + 1)), "alibi.offset"),
    (ALIBI, student("one_short", bias=lambda m, i, j: -m * (i - j - 1)), "alibi.offset"),
    (ALIBI, student("large_negative", mask=never, bias=masked_with(-1e9)), "alibi.finite_mask"),
    (
        ALIBI,
        student("finfo_min", mask=never, bias=masked_with(torch.finfo(torch.float32).min)),
        "alibi.finite_mask",
    ),
    (ALIBI, lambda num_heads, seq_len: loops(num_heads, seq_len).permute(1, 2, 0), "alibi.shape"),
    (
        ALIBI,
        lambda num_heads, seq_len: torch.zeros(num_heads, seq_len, seq_len, dtype=torch.long),
        "alibi.not_float",
    ),
]
RIGHT = [(ALIBI, student("broadcast")), (ALIBI, loops), (ALIBI, from_course_lib)]

test_each_mistake_gets_its_own_diagnosis, test_right_implementations_in_any_style_pass = verdict_tests(
    WRONG, RIGHT
)


def test_the_template_is_not_attempted_and_the_solution_passes():
    namespace = {}
    exec(ALIBI.template, namespace)
    assert ALIBI.check(namespace["my_alibi_bias"]).status == "not_attempted"
    exec(ALIBI.solution_code, namespace)
    assert ALIBI.check(namespace["my_alibi_bias"]).key == "alibi.correct"


def test_the_reference_is_the_course_bias_with_the_causal_mask():
    from course_lib.exercises.alibi import reference

    bias = reference(8, 5)
    assert bias.shape == (8, 5, 5)
    assert torch.isinf(bias[:, 0, 1:]).all() and (bias[:, 1:, 0] < 0).all()
    assert bias[0, 4, 0].item() == -2.0  # slope 1/2, four keys back


@pytest.mark.parametrize(
    ("wrong", "numbers"),
    [(WRONG[7][1], ["0.5"]), (WRONG[8][1], ["0.7071"]), (WRONG[9][1], ["0.917", "0.5"])],
)
def test_the_slope_verdicts_name_the_slopes_in_the_language(wrong, numbers, lang):
    found = assert_numbers_in_language(ALIBI.check(wrong).message, lang)
    point = decimal_mark(lang)
    assert [n.replace(point, ".") for n in found] == numbers


def test_the_mask_verdict_names_the_query_and_the_key():
    verdict = ALIBI.check(WRONG[1][1])
    assert verdict.values["i"] == 0 and verdict.values["j"] == 1
    assert_verdict(verdict, "incorrect", "alibi.no_mask", "en")


def wrong_student(name):
    """The wrong student of WRONG named ``name``."""
    return next(s for _, s, _ in WRONG if getattr(s, "__name__", "") == name)


@pytest.mark.parametrize(
    ("name", "numbers"),
    [("extra_even", ["0.5", "0.7071"]), ("rounded_up", ["0.7071", "0.5"]), ("one_short", ["0.5"])],
)
def test_the_new_verdicts_name_their_numbers_in_the_language(name, numbers, lang):
    found = assert_numbers_in_language(ALIBI.check(wrong_student(name)).message, lang)
    point = "." if lang == "en" else ","
    assert [n.replace(point, ".") for n in found] == numbers


def test_a_finite_mask_is_named_with_its_value_and_place(lang):
    verdict = ALIBI.check(wrong_student("large_negative"))
    assert (verdict.values["i"], verdict.values["j"]) == (0, 1)
    assert verdict.values["value"] == ("-1e+09" if lang == "en" else "−1·10⁹")
    assert_verdict(verdict, "incorrect", "alibi.finite_mask", lang)


def test_a_small_finite_value_after_the_query_is_an_open_mask_not_a_finite_mask():
    """-100 is a penalty a score can beat: the keys after the query are open, as without a mask."""
    leaky = student("leaky", mask=never, bias=masked_with(-100.0))
    assert ALIBI.check(leaky).key == "alibi.no_mask"
