"""The numbers an explorer saves in a notebook, rounded to what survives another CPU.

A built notebook keeps more numbers than its printed outputs: the data its explorers send the
browser, which the notebook saves as its widget state. Computed in float32 (an embedding's
weights, attention weights), they differ in their last bits from one CPU to another (libm, BLAS,
vector width, threads: notebooks/LESSON_GUIDE.md, "Printed numbers must survive another
machine"): rebuilt as on another machine (``python -m tests.portability.rebuild``), lessons 3 and 4
rewrote 2 411 of them that no edit had touched. :func:`rounded` is where they are rounded, as the
explorers' data traits go to the browser (:func:`course_lib.widgets.live.computed`; the kernel
keeps every bit). The figures' pixels have their own guard (:func:`course_lib.plots.figure.on_grid`).

Every float of one trait is rounded to the same step: the ``DIGITS``-th significant digit of the
largest magnitude among them. A value then moves to its neighbour only when a last-bit change
crosses a rounding edge, and float32 results move by about 1e-7 of their set's largest value (an
N(0, 1) weight of 0.000177 carries the absolute error of its neighbours near 1: a relative
3e-4). Over those 2 411 numbers, the expected count that still moves is 0.37 (none did), against
14 for four significant digits of each value and 1.4 for three; the explorers still read out
(2 decimals) and colour (256 levels) the same.

    >>> rounded([0.26500675082206726, -0.00017689380911178887, 1e-44, 3])
    [0.265, -0.0002, 0.0, 3]
    >>> rounded({"w": [[1.0, 0.99999994], [0.3333333432674408, 0.6666666865348816]], "n": 7})
    {'w': [[1.0, 1.0], [0.333, 0.667]], 'n': 7}
    >>> rounded([12345.678, -0.5, float("nan")])
    [12350.0, 0.0, nan]
"""

import math

__all__ = ["DIGITS", "step_exponent", "rounded"]

#: significant digits of a set's largest magnitude that every number of the set keeps: past what
#: an explorer computes its readouts from (2 decimals) and colours with (256 levels)
DIGITS = 4


def _floats(value):
    """Every finite float in ``value`` (a number, or nested lists, tuples and dicts); ints are exact."""
    if isinstance(value, float):
        if math.isfinite(value):
            yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _floats(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _floats(v)


def step_exponent(value, digits: int = DIGITS) -> int | None:
    """``e`` such that ``10**e`` is the step of :func:`rounded` for ``value``; None when it holds no float but 0.

    The decimal exponent of the largest magnitude, read from its decimal writing (exact, the same on
    every machine), less ``digits - 1``.

        >>> step_exponent([0.3, -2.5]), step_exponent([9.99996]), step_exponent([0.0, 7])
        (-3, -2, None)
    """
    largest = max((abs(x) for x in _floats(value)), default=0.0)
    if largest == 0.0:
        return None
    # the exponent of the largest as written with `digits` digits: 9.99996 is 1.000e+01
    return int(f"{largest:.{digits - 1}e}".split("e")[1]) - (digits - 1)


def _round(value, decimals: int):
    if isinstance(value, float):
        # Python's round is correctly rounded (the same on every machine); + 0.0 makes -0.0 0.0
        return round(value, decimals) + 0.0 if math.isfinite(value) else value
    if isinstance(value, dict):
        return {k: _round(v, decimals) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_round(v, decimals) for v in value]
    return value  # an int, a bool, a string, None: exact


def rounded(value, digits: int = DIGITS):
    """``value`` with every float rounded to one step: the ``digits``-th significant digit of the largest.

    ``value``: a float, or lists, tuples and dicts of them and of anything else (tuples come back as
    lists, as JSON keeps them); integers, strings, booleans, NaN and infinities are kept as they are.
    """
    exponent = step_exponent(value, digits)
    return value if exponent is None else _round(value, -exponent)
