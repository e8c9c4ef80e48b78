"""RoPE's angles in long contexts (lesson 8): which pairs meet angles that training never showed them.

Pair ``i`` at position ``m`` turns by ``m · θ^(-2i/head_dim)``, θ = ``base``, as in
:mod:`course_lib.plots.rotary`; here the positions may run past the training length, be
divided by a factor κ (position interpolation, Chen et al., 2023) or meet another ``base``.

    >>> int(new_angle_pairs(128, 8192, 4096).sum())  # 8192 positions after training on 4096
    18
"""

import math

import numpy as np
from matplotlib.figure import Figure

from .. import validate
from ..i18n import format_number, resolve
from ..maths import angle_table, new_angle_pairs
from .figure import DIVERGING, new_figure
from .messages import LONG_CONTEXT as MESSAGES
from .rotary import even_head_dim

__all__ = [
    "MESSAGES",
    "new_angle_pairs",
    "check_scale",
    "draw_rope_angles",
    "update_rope_angles",
    "plot_rope_angles",
]


def check_scale(value) -> float:
    """``value`` if it is a finite number >= 1: the factor that position interpolation divides positions by."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not value >= 1
        or not math.isfinite(value)
    ):
        raise ValueError(MESSAGES("plot_scale", value=value))
    return float(value)


def draw_rope_angles(fig: Figure, ax, head_dim: int, num_positions: int, train_len: int, lang: str) -> dict:
    """The fixed parts of one panel of :func:`plot_rope_angles`: the heatmap and the line at the training length."""
    image = ax.imshow(
        np.zeros((num_positions, head_dim // 2)),
        cmap=DIVERGING,
        vmin=-1.0,
        vmax=1.0,
        aspect="auto",
        interpolation="antialiased",
    )
    ax.axhline(train_len - 0.5, color="black", linestyle="--", linewidth=1.2)
    ax.text(
        head_dim // 2 - 0.5,
        train_len,
        MESSAGES("angles_train", lang, train_len=train_len),
        ha="right",
        va="top",
        fontsize="small",
        bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "none", "pad": 1},
    )
    # a strip above row 0 for the marks (an empty line drawn off the axes upsets constrained layout)
    ax.set_ylim(num_positions - 0.5, -0.04 * num_positions)
    marks = ax.plot([], [], "v", color="black", markersize=5)[0]
    ax.set_xlabel(MESSAGES("angles_pair", lang))
    ax.set_ylabel(MESSAGES("angles_position", lang))
    return {
        "ax": ax,
        "image": image,
        "marks": marks,
        "head_dim": head_dim,
        "num_positions": num_positions,
        "train_len": train_len,
    }


def update_rope_angles(artists: dict, base: float, scale: float, lang: str) -> int:
    """Draw the angles for ``base`` and ``scale`` into a panel of :func:`draw_rope_angles`; returns the new pairs."""
    head_dim, n, train_len = artists["head_dim"], artists["num_positions"], artists["train_len"]
    artists["image"].set_data(angle_table(head_dim, n, base, scale))
    new = new_angle_pairs(head_dim, n, train_len, base, scale)
    pairs = np.flatnonzero(new)
    artists["marks"].set_data(pairs, np.full(len(pairs), -0.02 * n))
    artists["ax"].set_title(
        MESSAGES(
            "angles_title",
            lang,
            base=format_number(base, ",.0f", lang),
            scale=format_number(scale, "g", lang),
            new=len(pairs),
            pairs=head_dim // 2,
        ),
        fontsize="medium",
    )
    return len(pairs)


def plot_rope_angles(
    head_dim: int = 64,
    num_positions: int = 2048,
    train_len: int = 512,
    settings=((10000.0, 1.0),),
    lang: str | None = None,
    *,
    figsize=None,
    dpi=None,
) -> Figure:
    """cos of RoPE's angles, positions down, pairs across, for each ``(base, scale)`` of ``settings``.

    A dashed line marks the training length ``train_len`` (trained with base 10 000 and no
    scaling); a triangle above a column marks a pair that, below the line, reaches angles
    it never saw in training (:func:`new_angle_pairs`). ``scale``, the factor κ, divides every position
    (position interpolation, Chen et al., 2023); a larger ``base`` slows every pair but
    the first.

        >>> fig = plot_rope_angles(64, 2048, 512, settings=[(10000.0, 1.0), (10000.0, 4.0)])
        >>> [len(ax.lines[-1].get_xdata()) for ax in fig.axes[:2]]  # pairs with new angles
        [16, 0]
    """
    lang = resolve(lang)
    head_dim = even_head_dim(head_dim)
    num_positions = validate.positive_int("num_positions", num_positions)
    train_len = validate.positive_int("train_len", train_len)
    settings = [(validate.base(b), check_scale(s)) for b, s in settings]
    fig = new_figure(figsize or (4.0 * len(settings) + 1.0, 4.6), dpi, lang)
    axes = fig.subplots(1, len(settings), squeeze=False, sharey=True)[0]
    for ax, (base, scale) in zip(axes, settings, strict=True):
        artists = draw_rope_angles(fig, ax, head_dim, num_positions, train_len, lang)
        update_rope_angles(artists, base, scale, lang)
    fig.colorbar(axes[0].images[0], ax=list(axes), label=MESSAGES("angles_colour", lang))
    return fig
