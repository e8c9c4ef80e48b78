"""Figures of ALiBi (lesson 8): each head's bias on the scores, and where it lets the last query look.

The numbers are :func:`course_lib.alibi_slopes` and :func:`course_lib.alibi_bias`. A causal
model masks the keys after the query, so the heatmaps leave the upper triangle blank.

    >>> weights = alibi_weights(slope=0.5, seq_len=32)  # the last query, equal content scores
    >>> [round(w, 3) for w in weights[:3].tolist()]  # distance 0, 1, 2
    [0.393, 0.239, 0.145]
"""

import math

import matplotlib
import numpy as np
import torch
from matplotlib.figure import Figure

from .. import validate
from ..i18n import format_number, resolve
from ..rotary import alibi_bias, alibi_slopes
from .figure import new_figure
from .messages import ALIBI as MESSAGES

__all__ = [
    "MESSAGES",
    "slope_label",
    "slope_math",
    "alibi_weights",
    "draw_alibi_head",
    "update_alibi_head",
    "plot_alibi",
    "plot_alibi_weights",
]


def slope_label(slope: float, lang: str = "en") -> str:
    """A slope as the power of two it is: ``2^-3``, ``2^-0.5``; every ALiBi slope is one.

    The exponent is written as ``lang`` writes numbers: figures and readouts pass theirs;
    the default, English, is how lesson code prints numbers in every language.

    >>> slope_label(0.125, "en"), slope_label(2 ** -0.5, "en"), slope_label(2 ** -0.5, "ru")
    ('2^-3', '2^-0.5', '2^−0,5')
    """
    exponent = math.log2(slope)
    return f"2^{format_number(exponent, '.0f' if exponent == round(exponent) else 'g', lang)}"


def slope_math(slope: float, lang: str = "en") -> str:
    """``s_h = 2^-3`` as mathtext for a figure's titles and legends, the exponent raised.

    >>> slope_math(0.125, "en"), slope_math(2 ** -0.5, "ru")
    ('$s_h = 2^{-3}$', '$s_h = 2^{−0{,}5}$')
    """
    exponent = slope_label(slope, lang).removeprefix("2^").replace(",", "{,}")  # a comma, not a list
    return f"$s_h = 2^{{{exponent}}}$"


def alibi_weights(slope: float, seq_len: int) -> np.ndarray:
    """softmax of one head's bias for the last query, by distance ``0 .. seq_len-1``: ``(seq_len,)``, float64.

    What the head attends to when every content score ``q·k`` is the same: the bias alone.
    """
    distance = np.arange(seq_len)  # (seq_len,)
    scores = -slope * distance
    weights = np.exp(scores - scores.max())
    return weights / weights.sum()


def check_head(head, num_heads: int) -> int:
    if not validate.is_integer(head) or not 1 <= head <= num_heads:
        raise ValueError(MESSAGES("plot_alibi_head", value=head, heads=num_heads))
    return int(head)


def causal(bias: np.ndarray) -> np.ndarray:
    """``bias`` with the keys after each query blanked (NaN draws as nothing)."""
    out = bias.copy()
    out[np.triu_indices(out.shape[-1], k=1)] = np.nan
    return out


def draw_alibi_head(fig: Figure, seq_len: int, lang: str) -> dict:
    """The fixed parts of the explorer's figure: one head's heatmap (left) and its weights (right)."""
    left, right = fig.subplots(1, 2, width_ratios=(1, 1.2))
    image = left.imshow(
        np.zeros((seq_len, seq_len)),
        cmap="viridis",
        vmin=-(seq_len - 1) / 2,
        vmax=0.0,
        interpolation="nearest",
    )
    left.set_xlabel(MESSAGES("alibi_key", lang))
    left.set_ylabel(MESSAGES("alibi_query", lang))
    fig.colorbar(image, ax=left, shrink=0.8).set_label(MESSAGES("alibi_bias", lang))
    bars = right.bar(np.arange(seq_len), np.zeros(seq_len), color="tab:blue")
    # one scale for every head: every ALiBi slope is below 1, so no head gives the nearest key more
    right.set_ylim(0, 1.1 * alibi_weights(1.0, seq_len)[0])
    right.set_xlabel(MESSAGES("alibi_distance", lang))
    right.set_ylabel(MESSAGES("alibi_weight", lang))
    right.set_title(MESSAGES("alibi_equal", lang), fontsize="medium")
    return {"left": left, "image": image, "bars": bars, "seq_len": seq_len}


def update_alibi_head(artists: dict, num_heads: int, head: int, lang: str) -> np.ndarray:
    """Show head ``head`` (1-based) of ``num_heads`` in a figure of :func:`draw_alibi_head`; returns its weights."""
    seq_len = artists["seq_len"]
    slope = float(alibi_slopes(num_heads, dtype=torch.float64)[head - 1])
    bias = alibi_bias(num_heads, seq_len, dtype=torch.float64)[head - 1].numpy()  # (seq, seq)
    artists["image"].set_data(causal(bias))
    artists["left"].set_title(
        MESSAGES("alibi_head", lang, h=head, slope=slope_math(slope, lang)), fontsize="medium"
    )
    weights = alibi_weights(slope, seq_len)
    for bar, w in zip(artists["bars"], weights, strict=True):
        bar.set_height(w)
    return weights


def plot_alibi(
    num_heads: int = 8, seq_len: int = 16, lang: str | None = None, *, figsize=None, dpi=None
) -> Figure:
    """ALiBi's bias ``−s_h·(m − n)`` (query ``m``, key ``n``) as one heatmap per head, on one colour scale.

    Heads are numbered from 1, as in the paper; each title gives the slope as a power of
    two. The steepest head (1/2) penalises distance hard, the gentlest barely at all.

        >>> fig = plot_alibi(4, 6, lang="ru")
        >>> [ax.get_title() for ax in fig.axes[:2]]
        ['голова 1: $s_h = 2^{−2}$', 'голова 2: $s_h = 2^{−4}$']
    """
    lang = resolve(lang)
    num_heads = validate.positive_int("num_heads", num_heads)
    seq_len = validate.positive_int("seq_len", seq_len)
    bias = alibi_bias(num_heads, seq_len, dtype=torch.float64).numpy()  # (heads, seq, seq)
    slopes = alibi_slopes(num_heads, dtype=torch.float64).tolist()
    ncols = min(num_heads, 4)
    nrows = math.ceil(num_heads / ncols)
    fig = new_figure(figsize or (2.3 * ncols + 1.6, 2.3 * nrows + 0.6), dpi, lang)
    axes = fig.subplots(nrows, ncols, squeeze=False)
    low = float(bias.min())
    for h, ax in enumerate(axes.flat):
        if h >= num_heads:
            ax.set_axis_off()
            continue
        image = ax.imshow(
            causal(bias[h]), cmap="viridis", vmin=min(low, -1e-9), vmax=0.0, interpolation="nearest"
        )
        ax.set_title(
            MESSAGES("alibi_head", lang, h=h + 1, slope=slope_math(slopes[h], lang)), fontsize="medium"
        )
        ax.set_xticks([])
        ax.set_yticks([])
        if h % ncols == 0:
            ax.set_ylabel(MESSAGES("alibi_query", lang))
        if h + ncols >= num_heads:
            ax.set_xlabel(MESSAGES("alibi_key", lang))
    fig.colorbar(image, ax=axes, label=MESSAGES("alibi_bias", lang))
    fig.suptitle(MESSAGES("alibi_title", lang, heads=num_heads), fontsize="medium")
    return fig


def plot_alibi_weights(
    num_heads: int = 8, seq_len: int = 32, lang: str | None = None, *, figsize=None, dpi=None
) -> Figure:
    """The weights of the last query over the distance to each key, one curve per head, when content is equal.

    >>> fig = plot_alibi_weights(2, 8)
    >>> [line.get_label() for line in fig.axes[0].lines]
    ['head 1: $s_h = 2^{-4}$', 'head 2: $s_h = 2^{-8}$']
    """
    lang = resolve(lang)
    num_heads = validate.positive_int("num_heads", num_heads)
    seq_len = validate.positive_int("seq_len", seq_len)
    slopes = alibi_slopes(num_heads, dtype=torch.float64).tolist()
    fig = new_figure(figsize or (8.0, 3.2), dpi, lang)
    ax = fig.add_subplot()
    # one colour per head from a sequential map: steep heads dark, gentle heads light
    palette = matplotlib.colormaps["viridis"](np.linspace(0.0, 0.9, num_heads))
    for h, (slope, colour) in enumerate(zip(slopes, palette, strict=True)):
        label = MESSAGES("alibi_head", lang, h=h + 1, slope=slope_math(slope, lang))
        ax.plot(
            np.arange(seq_len), alibi_weights(slope, seq_len), ".-", color=colour, label=label, linewidth=1
        )
    ax.set_xlabel(MESSAGES("alibi_distance", lang))
    ax.set_ylabel(MESSAGES("alibi_weight", lang))
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small", frameon=False)
    ax.set_title(MESSAGES("alibi_weights_title", lang), fontsize="medium")
    return fig
