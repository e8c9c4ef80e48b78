"""Attention weights as heatmaps (lesson 4): what each token looks at, with the tokens on both axes."""

import math

import numpy as np
import torch
from matplotlib.figure import Figure

from .. import validate
from ..i18n import resolve
from .figure import as_array, new_figure
from .messages import MESSAGES

__all__ = ["draw_attention", "plot_attention"]


def _check_attention(weights, tokens, titles) -> tuple[list[np.ndarray], list[list[str]], list[str] | None]:
    if not isinstance(weights, (list, tuple)) or not weights:
        shown = type(weights).__name__ if isinstance(weights, (torch.Tensor, np.ndarray)) else repr(weights)
        raise TypeError(MESSAGES("plot_attention_list", value=shown))
    arrays = []
    for j, w in enumerate(weights):
        array = as_array(f"weights[{j}]", w, ndim=2)
        if array.shape[0] != array.shape[1]:
            raise ValueError(MESSAGES("plot_attention_square", j=j, shape=tuple(array.shape)))
        arrays.append(array)
    for name, items in (("tokens", tokens), ("titles", titles)):
        if items is not None and (isinstance(items, str) or len(items) != len(arrays)):
            got = 1 if isinstance(items, str) else len(items)
            raise ValueError(MESSAGES("plot_attention_count", name=name, got=got, n=len(arrays)))
    tokens = [[str(t) for t in row] for row in tokens]
    for j, (array, row) in enumerate(zip(arrays, tokens, strict=True)):
        if len(row) != array.shape[0]:
            raise ValueError(MESSAGES("plot_attention_tokens", j=j, n_tokens=len(row), seq=array.shape[0]))
    return arrays, tokens, None if titles is None else [str(t) for t in titles]


def draw_attention(fig: Figure, weights, tokens, titles, lang: str, ncols: int) -> list:
    """The body of :func:`plot_attention`, drawn into ``fig``; returns the heatmaps' AxesImages.

    The arguments are taken as checked: ``weights`` a list of square numpy arrays,
    ``tokens`` one list of strings per array, ``titles`` None or one string per array.
    """
    n = len(weights)
    ncols = min(ncols, n)
    axes = fig.subplots(math.ceil(n / ncols), ncols, squeeze=False)
    images = []
    for j, ax in enumerate(axes.flat):
        if j >= n:
            ax.set_axis_off()
            continue
        w, labels = weights[j], tokens[j]
        seq = w.shape[0]
        # weights are in [0, 1]: one fixed scale, so every heatmap of the grid compares by eye
        images.append(ax.imshow(w, cmap="Blues", vmin=0.0, vmax=1.0, interpolation="nearest"))
        ax.set_xticks(range(seq), labels=labels)
        ax.set_yticks(range(seq), labels=labels)
        ax.set_title(titles[j] if titles is not None else " ".join(labels), fontsize="medium")
        if j % ncols == 0:
            ax.set_ylabel(MESSAGES("attention_query", lang))
        if j + ncols >= n:
            ax.set_xlabel(MESSAGES("attention_key", lang))
        if seq <= 8:  # the numbers themselves, while they still fit in the cells
            for row in range(seq):
                for col in range(seq):
                    colour = "white" if w[row, col] > 0.6 else "black"
                    ax.text(
                        col, row, f"{w[row, col]:.2f}", ha="center", va="center", fontsize=9, color=colour
                    )
    fig.colorbar(images[0], ax=axes, label=MESSAGES("attention_weight", lang))
    fig.suptitle(MESSAGES("attention_title", lang), fontsize="medium")
    return images


def plot_attention(
    weights, tokens, titles=None, lang: str | None = None, *, ncols: int = 2, figsize=None, dpi=None
) -> Figure:
    """Heatmaps of attention weights, one per sentence, with the tokens on both axes.

    Row ``i`` of a matrix holds the weights with which token ``i`` (the query) looks at
    every token ``j`` (the keys); each row sums to 1. The colour scale is [0, 1] for every
    heatmap, and with at most 8 tokens each cell also shows its number.

    Args:
        weights: a list of ``(seq, seq)`` tensors or arrays, e.g. ``softmax(q @ k.T / √d)``.
        tokens: a list with one list of ``seq`` tokens per matrix.
        titles: one title per matrix; by default the tokens joined by spaces.
        lang: ``"en"`` or ``"ru"``; None for the current language.
        ncols: heatmaps per row of the grid.

        >>> w = torch.tensor([[0.9, 0.1], [0.3, 0.7]])
        >>> fig = plot_attention([w, w.flip(0, 1)], [["dog", "bites"], ["bites", "dog"]], lang="ru")
        >>> [ax.get_title() for ax in fig.axes[:2]], fig.axes[0].get_ylabel()
        (['dog bites', 'bites dog'], 'запрос')
    """
    lang = resolve(lang)
    weights, tokens, titles = _check_attention(weights, tokens, titles)
    ncols = validate.positive_int("ncols", ncols)
    n = len(weights)
    nrows = math.ceil(n / min(ncols, n))
    fig = new_figure(figsize or (3.0 * min(ncols, n) + 1.5, 2.7 * nrows + 0.6), dpi)
    draw_attention(fig, weights, tokens, titles, lang, ncols)
    return fig
