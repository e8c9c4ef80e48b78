"""Attention weights (lesson 4): heatmaps with the tokens on both axes, and what attention looks at.

:func:`attention_balance` measures, for two sentences with the same tokens in another
order, how much their attention weights depend on the words and how much on the
positions, as the token vectors grow against the positional encoding;
:func:`plot_balance` draws it over a range of sizes.

    >>> import torch
    >>> from course_lib import Vocab
    >>> vocab, table = Vocab.build(["dog bites man"]), torch.randn(8, 4, generator=torch.Generator().manual_seed(0))
    >>> embed = lambda text: table[vocab.encode(text)]  # (seq, 4) token vectors
    >>> def attention(x):  # (seq, d_model) -> outputs, (seq, seq) weights
    ...     weights = torch.softmax(x @ x.T, dim=-1)
    ...     return weights @ x, weights
    >>> tiny, huge = (attention_balance(attention, embed, "dog bites man", "man bites dog", c) for c in (1e-3, 100.0))
    >>> tiny.word_effect < 0.01, huge.position_effect < 0.01  # only the positions count, then only the words
    (True, True)
"""

import math
from dataclasses import dataclass

import numpy as np
import torch
from matplotlib.figure import Figure

from .. import validate
from ..embedding import sinusoidal_table
from ..i18n import format_number, resolve
from ..vocab import tokenize
from .figure import as_array, new_figure, one_thread
from .messages import MESSAGES

__all__ = ["text_colour", "draw_attention", "plot_attention", "Balance", "attention_balance", "plot_balance"]


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


def text_colour(rgb) -> str:
    """The colour of a text on the sRGB colour ``rgb`` (channels 0 .. 1): white or black, whichever stands out more.

    WCAG 2.2's contrast ratio against the colour's relative luminance: the better of the two is
    at least 4.58:1 for any colour, above the 4.5:1 that normal text needs. A cell's number is
    drawn in it (js/heatmap.js draws the live explorers' cells by the same rule).

    >>> text_colour((0.03, 0.19, 0.42)), text_colour((0.25, 0.56, 0.77)), text_colour((1.0, 1.0, 1.0))
    ('white', 'black', 'black')
    """
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return "white" if 1.05 / (luminance + 0.05) > (luminance + 0.05) / 0.05 else "black"


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
            image = images[-1]
            for row in range(seq):
                for col in range(seq):
                    colour = text_colour(image.cmap(image.norm(w[row, col]))[:3])
                    ax.text(
                        col,
                        row,
                        format_number(w[row, col], ".2f", lang),
                        ha="center",
                        va="center",
                        fontsize=9,
                        color=colour,
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
    fig = new_figure(figsize or (3.0 * min(ncols, n) + 1.5, 2.7 * nrows + 0.6), dpi, lang)
    draw_attention(fig, weights, tokens, titles, lang, ncols)
    return fig


# ----------------------------------------------------------------------------- words against positions


@dataclass(frozen=True)
class Balance:
    """What attention looks at in two sentences with the same tokens in another order.

    The input of each sentence is ``scale · embed(text) + PE``. ``weights`` holds their
    ``(seq, seq)`` attention weights; ``perm`` the order of the second sentence in positions
    of the first. Both effects are the share of attention weight that moves, averaged over
    the rows (half the L1 distance of two rows, from 0 to 1):

    - ``position_effect``: the second sentence's weights against the first's reordered by
      ``perm``. 0 when attention sees only the words (no positions, or tiny ones).
    - ``word_effect``: the two sentences' weights position by position. 0 when attention
      sees only the positions (the token vectors are too small to matter).
    """

    scale: float
    tokens: tuple[list[str], list[str]]
    perm: torch.Tensor
    weights: tuple[torch.Tensor, torch.Tensor]
    token_rms: float
    position_rms: float
    position_effect: float
    word_effect: float


def _moved(a: torch.Tensor, b: torch.Tensor) -> float:
    """The share of attention weight that moves from rows ``a`` to rows ``b``, averaged over rows."""
    return 0.5 * (a - b).abs().sum(dim=-1).mean().item()


def attention_balance(attention, embed, first: str, second: str, scale: float) -> Balance:
    """Attention on ``scale · embed(text) + PE`` for two sentences: does it see the words, the positions, or both?

    Args:
        attention: ``attention(x)`` for ``x`` of shape ``(seq, d_model)`` returns
            ``(outputs, weights)`` with ``weights`` of shape ``(seq, seq)``.
        embed: ``embed(text)`` returns the token vectors ``(seq, d_model)``, no positions.
        first, second: the same tokens (each once) in two orders.
        scale: the factor ``c >= 0`` in front of the token vectors.
    """
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 0 <= scale < math.inf:
        raise ValueError(MESSAGES("balance_scale_range", value=scale))
    tokens = (tokenize(first), tokenize(second))
    a, b = tokens
    if len(set(a)) != len(a) or sorted(a) != sorted(b):
        raise ValueError(MESSAGES("balance_not_permutation", first=first, second=second))
    perm = torch.tensor([a.index(token) for token in b])  # (seq,)
    # tiny matrices: one thread, or each softmax may wait ~10 ms for a sleeping worker
    with torch.no_grad(), one_thread():
        vectors = [scale * torch.as_tensor(embed(text)) for text in (first, second)]  # (seq, d_model) each
        table = sinusoidal_table(*vectors[0].shape, dtype=vectors[0].dtype)  # (seq, d_model)
        w_a, w_b = (attention(x + table)[1] for x in vectors)  # (seq, seq) each
    return Balance(
        scale=scale,
        tokens=tokens,
        perm=perm,
        weights=(w_a, w_b),
        token_rms=torch.cat(vectors).pow(2).mean().sqrt().item(),
        position_rms=table.pow(2).mean().sqrt().item(),
        position_effect=_moved(w_b, w_a[perm][:, perm]),
        word_effect=_moved(w_b, w_a),
    )


def plot_balance(
    attention, embed, first: str, second: str, scales=None, lang: str | None = None, *, figsize=None, dpi=None
) -> Figure:
    """The two effects of :func:`attention_balance` against the token scale ``c`` (log axis).

    Small ``c``: the positional encoding dominates the input, and the two sentences get the
    same weights (no word effect). Large ``c``: the token vectors dominate, and the second
    sentence's weights are the first's reordered (no position effect). Dotted lines mark
    ``c = 1`` and ``c = √d_model``: for token vectors from :class:`~course_lib.TokenEmbedding`
    (initialised N(0, 1/d_model), then × √d_model), the vectors course_lib starts from,
    and those PyTorch's default initialisation N(0, 1) would give if still multiplied by
    √d_model (N(0, 1) alone gives RMS 1, that is ``c = 1``).
    """
    lang = resolve(lang)
    scales = np.logspace(-2, 2, 41) if scales is None else np.asarray(scales, dtype=float)
    points = [attention_balance(attention, embed, first, second, float(c)) for c in scales]
    d_model = torch.as_tensor(embed(first)).shape[-1]
    fig = new_figure(figsize or (7.0, 4.4), dpi, lang)
    ax = fig.add_subplot()
    ax.plot(
        scales, [p.position_effect for p in points], ".-", label=MESSAGES("balance_position_effect", lang)
    )
    ax.plot(scales, [p.word_effect for p in points], ".-", label=MESSAGES("balance_word_effect", lang))
    for c, key, y in ((1.0, "balance_course_lib", 0.97), (math.sqrt(d_model), "balance_default", 0.87)):
        ax.axvline(c, color="0.5", linestyle=":")
        # two lines, "c = …:" over what it is: on one line the label of √d_model ran past the right edge
        label = MESSAGES(key, lang, c=c).strip().replace(": ", ":\n", 1)
        ax.annotate(
            label, (c, y), xytext=(3, 0), textcoords="offset points", va="top", fontsize="small", color="0.3"
        )
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.set_xlabel(MESSAGES("balance_scale", lang))
    ax.set_ylabel(MESSAGES("balance_moved", lang))
    ax.set_title(MESSAGES("balance_title", lang, first=first, second=second), fontsize="medium")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize="small")
    ax.grid(True, alpha=0.3)
    return fig
