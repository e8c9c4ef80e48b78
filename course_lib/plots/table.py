"""Figures of the sinusoidal table itself (lesson 5): the heatmap, its columns, its dot products, its rotations."""

import math

import numpy as np
import torch
from matplotlib.figure import Figure

from .. import validate
from ..embedding import sinusoidal_table
from ..i18n import format_number, resolve
from ..maths import frequency, slow_columns, wavelength
from .figure import as_array, check_dims, colours, draw_heatmap, new_figure
from .messages import MESSAGES

__all__ = [
    "wavelength",
    "slow_columns",
    "plot_table",
    "plot_waves",
    "plot_similarity",
    "draw_rotation",
    "plot_rotation",
]


def plot_table(table, title: str | None = None, lang: str | None = None, *, figsize=None, dpi=None) -> Figure:
    """Heatmap of a positional-encoding table: positions down the y axis, dimensions along x.

    The colour scale is fixed to [-1, 1], the range of every sine and cosine, so two
    tables drawn side by side (or one table after a slider move) compare by eye.

    Args:
        table: ``(num_positions, d_model)`` tensor or array, e.g. :func:`~course_lib.sinusoidal_table`.
        title: the figure title; by default one naming the table's size.
        lang: ``"en"`` or ``"ru"``; None for the current language.
        figsize, dpi: the figure's size in inches and its resolution.

    Example::

        >>> from course_lib import sinusoidal_table
        >>> table = sinusoidal_table(100, 64)
        >>> fig = plot_table(table)
        >>> bool((fig.axes[0].images[0].get_array() == table.numpy()).all())
        True
    """
    lang = resolve(lang)
    data = as_array("table", table, ndim=2)
    num_positions, d_model = data.shape
    fig = new_figure(figsize, dpi, lang)
    draw_heatmap(
        fig,
        data,
        xlabel=MESSAGES("dimension", lang),
        ylabel=MESSAGES("positions", lang),
        title=title
        if title is not None
        else MESSAGES("table_title", lang, num_positions=num_positions, d_model=d_model),
        colorbar_label=MESSAGES("value", lang),
    )
    return fig


def plot_waves(
    dims=(0, 1, 4, 5, 10),
    num_positions: int = 100,
    d_model: int = 64,
    base: float = 10000.0,
    lang: str | None = None,
    *,
    figsize=None,
    dpi=None,
) -> Figure:
    """Chosen columns of the sinusoidal table as curves over the position.

    Column ``2i`` is ``sin(pos / base^(2i/d_model))`` and column ``2i + 1`` its cosine, a
    wave of wavelength ``2π · base^(2i/d_model)`` positions; the legend gives, for each
    column, sin or cos, ``i`` and the wavelength.

        >>> fig = plot_waves(dims=(0, 5), lang="en")
        >>> [ax.get_legend().get_texts()[0].get_text() for ax in fig.axes]
        ['dimension 0: sin, i = 0, λ = 6.3', 'dimension 5: cos, i = 2, λ = 11.2']
    """
    lang = resolve(lang)
    num_positions = validate.positive_int("num_positions", num_positions)
    d_model = validate.positive_int("d_model", d_model)
    base = validate.base(base)
    dims = check_dims(dims, d_model)
    table = sinusoidal_table(num_positions, d_model, base, dtype=torch.float64).numpy()
    fig = new_figure(figsize or (8.0, 1.0 + 0.8 * len(dims)), dpi, lang)
    # one row per column: five waves on one axes, several of them short, are a tangle
    axes = fig.subplots(len(dims), 1, sharex=True, squeeze=False)[:, 0]
    pos = np.arange(num_positions)
    for ax, dim, colour in zip(axes, dims, colours(len(dims)), strict=True):
        i = dim // 2
        label = MESSAGES(
            "wave_label",
            lang,
            dim=dim,
            func="sin" if dim % 2 == 0 else "cos",
            i=i,
            wavelength=format_number(wavelength(i, d_model, base), ".1f", lang),
        )
        # the table exists at whole positions only: dots on them, a thin line to guide the eye
        ax.plot(pos, table[:, dim], ".-", color=colour, label=label, linewidth=0.8, markersize=3)
        ax.set_ylim(-1.2, 1.2)
        ax.set_yticks([-1, 0, 1])
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small", frameon=False)
    axes[-1].set_xlabel(MESSAGES("positions", lang))
    fig.supylabel(MESSAGES("value", lang))
    formula = r"$\lambda = 2\pi \cdot \mathrm{base}^{2i/d_{model}}$"
    fig.suptitle(MESSAGES("waves_title", lang, d_model=d_model, formula=formula))
    return fig


def plot_similarity(table, lang: str | None = None, *, figsize=None, dpi=None) -> Figure:
    """Dot products between the rows of a table, ``table @ table.T``, and the same along offsets.

    Left: the ``(num_positions, num_positions)`` matrix of ``P[m] · P[n]``; it is constant
    along every diagonal. Right: ``P[pos] · P[pos + k]`` against the offset ``k`` for a few
    starting positions ``pos``; the curves lie on top of each other, because for each
    sine/cosine pair ``sin a sin b + cos a cos b = cos(a - b)`` depends only on ``m - n``.
    """
    lang = resolve(lang)
    data = as_array("table", table, ndim=2).astype(np.float64)
    sim = data @ data.T  # (n, n)
    n = sim.shape[0]
    fig = new_figure(figsize or (10.0, 4.3), dpi, lang)
    left, right = fig.subplots(1, 2, width_ratios=(1.15, 1))
    image = left.imshow(sim, cmap="viridis", aspect="equal", interpolation="antialiased")
    left.set_xlabel(MESSAGES("positions", lang) + " n")
    left.set_ylabel(MESSAGES("positions", lang) + " m")
    left.set_title("P[m] · P[n]")
    fig.colorbar(image, ax=left).set_label(MESSAGES("dot_product", lang))
    # starting points spread over the first half, so each curve has room for offsets
    starts = sorted({0, n // 8, n // 4, n // 2 - 1} - {-1})
    span = n - max(starts)
    # the curves coincide: the first is drawn thickest so that every one stays visible
    widths = np.linspace(6.0, 1.2, len(starts))
    for p, width, colour in zip(starts, widths, colours(len(starts)), strict=True):
        right.plot(np.arange(span), sim[p, p : p + span], label=f"pos = {p}", linewidth=width, color=colour)
    right.set_xlabel(MESSAGES("offset", lang))
    right.set_ylabel(MESSAGES("dot_product", lang))
    right.set_title("P[pos] · P[pos + k]")
    right.legend(loc="upper right")
    fig.suptitle(MESSAGES("similarity_title", lang))
    return fig


def draw_rotation(fig: Figure, pos: int, k: int, i: int, d_model: int, base: float, lang: str) -> None:
    """The body of :func:`plot_rotation`, drawn into ``fig`` (the widget redraws into one figure).

    The arguments are taken as checked: ``plot_rotation`` and the widget check them once.
    """
    omega = frequency(i, d_model, base)  # angle per position of the pair (2i, 2i + 1)
    ax = fig.add_subplot()
    t = np.linspace(0, 2 * np.pi, 200)
    ax.plot(np.sin(t), np.cos(t), color="0.85", linewidth=1)
    # every position on the circle: a fixed step of ω
    shown = np.arange(0, pos + k + 1)
    ax.plot(np.sin(shown * omega), np.cos(shown * omega), ".", color="0.6", markersize=4)
    for p, colour, key in (
        (pos, "tab:blue", "rotation_at_pos"),
        (pos + k, "tab:orange", "rotation_at_pos_k"),
    ):
        x, y = math.sin(p * omega), math.cos(p * omega)
        ax.annotate(
            "", xy=(x, y), xytext=(0, 0), arrowprops={"arrowstyle": "->", "color": colour, "linewidth": 2}
        )
        ax.plot([x], [y], "o", color=colour, label=MESSAGES(key, lang, pos=p))
    ax.set_aspect("equal")
    ax.set_xlim(-1.3, 1.3)
    ax.set_ylim(-1.3, 1.3)
    ax.set_xlabel(f"P[pos, {2 * i}] = sin")
    ax.set_ylabel(f"P[pos, {2 * i + 1}] = cos")
    angle = k * omega
    ax.set_title(MESSAGES("rotation_title", lang, i=i, k=k, angle=format_number(angle, ".3f", lang)))
    c, s = math.cos(angle), math.sin(angle)
    # the matrix that takes (sin a, cos a) to (sin(a + φ), cos(a + φ)) for every a
    c, s, minus_s = (format_number(x, " .3f", lang) for x in (c, s, -s))
    matrix = f"φ = k·ω = {format_number(angle, '.3f', lang)}\n[{c} {s}]\n[{minus_s} {c}]"
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small")
    ax.text(1.05, 0.6, MESSAGES("rotation_matrix", lang), transform=ax.transAxes, va="top", fontsize="small")
    ax.text(1.05, 0.4, matrix, transform=ax.transAxes, va="top", family="monospace", fontsize="small")


def check_table_pair(i, d_model: int, lang: str | None = None) -> int:
    """``i`` if it numbers one of the ``d_model // 2`` pairs of columns ``(2i, 2i + 1)`` of the table."""
    pairs = d_model // 2  # odd d_model: the last sine has no cosine partner
    if not validate.is_integer(i) or not 0 <= i < pairs:
        raise ValueError(MESSAGES("plot_pair_range", lang, i=i, d_model=d_model, pairs=pairs, last=pairs - 1))
    return int(i)


def plot_rotation(
    pos: int = 3,
    k: int = 2,
    i: int = 0,
    d_model: int = 16,
    base: float = 10000.0,
    lang: str | None = None,
    *,
    figsize=None,
    dpi=None,
) -> Figure:
    """The pair of columns ``(2i, 2i + 1)`` as a point on the unit circle, at ``pos`` and ``pos + k``.

    Moving ``k`` positions turns the point by the angle ``k · ω_i`` with
    ``ω_i = base^(-2i/d_model)``, whatever ``pos`` is: ``P[pos + k]`` is a fixed rotation
    of ``P[pos]``, the reason the paper gives for choosing sinusoids.
    """
    lang = resolve(lang)
    pos = validate.non_negative_int("pos", pos)
    k = validate.non_negative_int("k", k)
    d_model = validate.positive_int("d_model", d_model)
    base = validate.base(base)
    i = check_table_pair(i, d_model)
    fig = new_figure(figsize or (7.0, 4.0), dpi, lang)
    draw_rotation(fig, pos, k, i, d_model, base, lang)
    return fig
