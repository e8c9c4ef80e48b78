"""What a lesson saves besides its printouts survives another CPU: explorers' data and figures' pixels.

The whole lesson, rebuilt as on another machine, is tests/portability/test_rebuild.py; here the parts:
``course_lib.portable.rounded`` (the explorers' data, :func:`course_lib.widgets.live.computed`),
``course_lib.plots.figure.on_grid`` (every figure) and lesson 6's precision figure, each under the
one-ulp jitter of tests/portability/float_jitter.py.
"""

import math

import numpy as np
import pytest
import torch

from course_lib import plots, widgets
from course_lib.plots.figure import new_figure, to_png
from course_lib.portable import DIGITS, rounded, step_exponent
from tests.portability.float_jitter import FaithfulJitter
from tests.unit.test_plots import balance_setup


def one_ulp_up(values: torch.Tensor) -> torch.Tensor:
    """float32 ``values``, each moved to the next float32 away from zero (what another libm may return)."""
    return (values.view(torch.int32) + 1).view(torch.float32)


def test_one_step_for_every_float_of_a_set():
    # the largest, 2.5, keeps 4 significant digits: every float is rounded to 0.001
    assert rounded([2.5, 0.00017689380911178887, -0.123456, 7]) == [2.5, 0.0, -0.123, 7]
    assert rounded({"a": [[0.5]], "b": (0.25, "x", None, True)}) == {
        "a": [[0.5]],
        "b": [0.25, "x", None, True],
    }
    assert step_exponent([0.9999]) == -4 and step_exponent([0.99999]) == -3  # 0.99999 writes 1.000
    assert step_exponent([]) is None and rounded([0.0, 3]) == [0.0, 3]


def test_signs_of_zero_subnormals_nan_and_infinity():
    got = rounded([1.0, -1e-9, 1e-44, float("nan"), -math.inf])
    assert got[:3] == [1.0, 0.0, 0.0] and math.copysign(1, got[1]) == 1  # not -0.0, which JSON writes
    assert math.isnan(got[3]) and got[4] == -math.inf
    assert rounded(got) == got  # rounding twice changes nothing


def test_a_last_bit_change_leaves_the_rounded_numbers_as_they_were():
    g = torch.Generator().manual_seed(0)
    weights = torch.softmax(torch.randn(40, 8, 8, generator=g), dim=-1)  # 2 560 attention weights
    assert (one_ulp_up(weights) != weights).all()
    assert rounded(one_ulp_up(weights).tolist()) == rounded(weights.tolist())
    assert step_exponent(weights.tolist()) == -DIGITS  # the largest below 1: steps of 0.0001


def test_an_explorer_sends_its_float32_data_rounded_and_keeps_it_whole():
    explorer = widgets.embedding_explorer(["the cat sat on the mat"], d_model=16)
    state = explorer.get_state()  # what the browser gets, and the notebook saves
    assert state["weight"] == rounded(explorer.weight) != explorer.weight
    assert explorer.weight == explorer.model.token_embedding.embedding.weight.tolist()  # the kernel's: whole


def test_what_the_browser_sends_back_is_never_rounded():
    # the browser sends a stop back as `scale`: rounded, Python would add it as a new stop
    explorer = widgets.balance_explorer(*balance_setup(8), "dog bites man", "man bites dog")
    state = explorer.get_state()
    assert state["stops"] == explorer.stops and state["weights"] == rounded(explorer.weights)
    explorer.scale = state["stops"][7]
    assert len(explorer.stops) == 41


def wavelengths_png(wavelengths: np.ndarray) -> bytes:
    fig = new_figure()
    ax = fig.add_subplot()
    ax.plot(np.arange(len(wavelengths)), wavelengths)
    ax.set_yscale("log")
    return to_png(fig)


# (index, direction): without the grid (course_lib.plots.figure.on_grid), each of these moves
# changed the picture: on a log axis, RoPE's wavelengths are a straight line, and Agg joins its
# nearly collinear segments by the last bits of their ends
MOVES = [(0, -np.inf), (1, np.inf), (4, np.inf), (5, -np.inf)]


def test_a_figure_is_the_same_when_its_data_moves_in_the_last_bit():
    wavelengths = 2 * math.pi * 10_000.0 ** (np.arange(64) / 64)  # float64, lesson 9's figure
    picture = wavelengths_png(wavelengths)
    for index, direction in MOVES:
        moved = wavelengths.copy()
        moved[index] = np.nextafter(moved[index], direction)
        assert wavelengths_png(moved) == picture, (index, direction)


def test_precision_figure_is_the_same_under_another_libm():
    positions = [1, 10, 1_000, 100_000]
    before = plots.precision.precision_errors(positions, d_model=64)
    with FaithfulJitter():
        after = plots.precision.precision_errors(positions, d_model=64)
    for key in ("float32", "course_lib"):
        np.testing.assert_array_equal(after[key], before[key])


@pytest.mark.parametrize("digits", [3, DIGITS])
def test_rounded_is_the_decimal_rounding(digits):
    values = [0.123456789, -3.14159, 2.0e-5]
    step = 10.0 ** step_exponent(values, digits)
    assert step == 10.0 ** (1 - digits)  # from the largest, 3.14159
    for x, y in zip(values, rounded(values, digits), strict=True):
        assert abs(x - y) <= step / 2 and f"{y!r}" == f"{round(x, digits - 1)!r}"
