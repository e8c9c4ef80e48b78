"""The precision figure (lesson 6): a table computed in float32 drifts at large positions; course_lib's does not."""

import math

import numpy as np
import torch
from matplotlib.figure import Figure

from .. import validate
from ..embedding import sinusoidal_rows
from ..i18n import resolve
from .figure import check_positions, new_figure
from .messages import MESSAGES

__all__ = ["precision_errors", "DEFAULT_PRECISION_POSITIONS", "plot_precision"]

#: 1 to 100 000, about ten positions per decade: the x axis of :func:`plot_precision`.
DEFAULT_PRECISION_POSITIONS = tuple(int(p) for p in np.unique(np.geomspace(1, 100_000, 61).round()))


def _float32(f, x: torch.Tensor) -> torch.Tensor:
    """``f(x)`` for float32 ``x``, correctly rounded to float32 (computed in float64, then rounded)."""
    return f(x.double()).float()


def _float32_rows(positions: np.ndarray, d_model: int, base: float) -> torch.Tensor:
    # the code of many tutorials: every step in float32. Deliberately not core.inverse_frequencies
    # (float64, base ** x): this figure shows the error of that float32 exp(-log(base) * 2i/d) chain,
    # each step rounded to float32 as IEEE rounds * (exp, sin and cos from float64, rounded once), so
    # that the figure is the same on every CPU (with torch's float32 kernels its curve moved 3-fold)
    pos = torch.from_numpy(positions).to(torch.float32).unsqueeze(1)  # (n, 1)
    exponent = torch.arange(0, d_model, 2, dtype=torch.float32) * -(math.log(base) / d_model)
    div_term = _float32(torch.exp, exponent)  # (ceil(d/2),)
    angle = pos * div_term  # (n, ceil(d/2))
    rows = torch.empty(len(positions), d_model, dtype=torch.float32)  # (n, d)
    rows[:, 0::2] = _float32(torch.sin, angle)
    rows[:, 1::2] = _float32(torch.cos, angle[:, : d_model // 2])
    return rows


def precision_errors(positions, d_model: int = 512, base: float = 10000.0) -> dict:
    """Max absolute error per row against the float64 table: float32 arithmetic vs course_lib.

    ``"course_lib"`` is the error of :func:`~course_lib.sinusoidal_table` (float64, cast to
    float32); ``"float32"`` that of the same formula computed in float32 throughout, every step
    correctly rounded: the same on every CPU, where a CPU's own float32 ``exp`` and ``sin`` are not
    (at position 10: 2.80e-07 correctly rounded; torch's float32 kernels gave 2.76e-07 on the
    course's build machine, 8.2e-07 under the one-ulp jitter of ``tests/portability``).

        >>> e = precision_errors([10, 100_000], d_model=512)
        >>> bool(e["float32"][1] > 1e-3), bool(e["course_lib"][1] < 1e-7)  # at position 100 000
        (True, True)
    """
    positions = check_positions(positions)
    d_model = validate.positive_int("d_model", d_model)
    base = validate.base(base)
    exact = sinusoidal_rows(torch.from_numpy(positions), d_model, base)  # (n, d), float64
    return {
        "positions": positions,
        "float32": (_float32_rows(positions, d_model, base).double() - exact).abs().amax(dim=1).numpy(),
        "course_lib": (exact.to(torch.float32).double() - exact).abs().amax(dim=1).numpy(),
    }


def plot_precision(
    positions=DEFAULT_PRECISION_POSITIONS,
    d_model: int = 512,
    lang: str | None = None,
    *,
    base: float = 10000.0,
    figsize=None,
    dpi=None,
) -> Figure:
    """Max absolute error of a float32-computed table against float64, over the position.

    Computed in float32, the angle ``pos · base^(-2i/d)`` is itself rounded: the error grows
    with the position, to about 5e-3 near position 100 000 at ``d_model = 512``.
    :func:`~course_lib.sinusoidal_table` computes in float64 and casts at the end, so its
    error stays at float32's rounding of a number in [-1, 1], ~1e-7, at every position.
    Both axes are logarithmic when every position is positive.
    """
    lang = resolve(lang)
    e = precision_errors(positions, d_model, base)
    fig = new_figure(figsize, dpi, lang)
    ax = fig.add_subplot()
    ax.plot(
        e["positions"], e["float32"], marker=".", color="tab:red", label=MESSAGES("precision_float32", lang)
    )
    ax.plot(
        e["positions"],
        e["course_lib"],
        marker=".",
        color="tab:blue",
        label=MESSAGES("precision_course_lib", lang),
    )
    ax.set_yscale("log")
    if e["positions"].min() > 0:
        ax.set_xscale("log")
    ax.set_xlabel(MESSAGES("positions", lang))
    ax.set_ylabel(MESSAGES("max_error", lang))
    ax.set_title(MESSAGES("precision_title", lang, d_model=d_model))
    # room above the float32 curve (about 5e-3 at position 100 000) for the legend
    ax.set_ylim(top=1.0)
    ax.legend(loc="upper left")
    ax.grid(True, which="major", alpha=0.3)
    return fig
