"""Figures of token vectors (lesson 3): a sentence's vectors, and how large they are next to the positions."""

import math

import numpy as np
import torch
from matplotlib.figure import Figure
from torch import nn

from .. import validate
from ..embedding import TokenEmbedding, sinusoidal_table
from ..i18n import format_number, resolve
from .figure import as_array, draw_heatmap, new_figure
from .messages import MESSAGES

__all__ = ["plot_embeddings", "magnitudes", "plot_magnitudes"]


def plot_embeddings(
    vectors, tokens, title: str | None = None, lang: str | None = None, *, vmax=None, figsize=None, dpi=None
) -> Figure:
    """Heatmap of one sentence's vectors: one row per token, labelled with the token.

    Args:
        vectors: ``(seq, d_model)`` tensor or array, e.g. ``TransformerEmbedding(ids)[0]``.
        tokens: ``seq`` strings, one label per row.
        title: the figure title; by default one naming the size.
        lang: ``"en"`` or ``"ru"``; None for the current language.
        vmax: the colour scale runs over ``[-vmax, vmax]``; by default the largest
            absolute value. Give the same ``vmax`` to figures that should compare by eye.

        >>> fig = plot_embeddings(torch.zeros(2, 4), ["кот", "сидел"], lang="ru")
        >>> [t.get_text() for t in fig.axes[0].get_yticklabels()], fig.axes[0].get_ylabel()
        (['кот', 'сидел'], 'токен')
    """
    lang = resolve(lang)
    data = as_array("vectors", vectors, ndim=2)
    tokens = [str(t) for t in tokens]
    if len(tokens) != data.shape[0]:
        raise ValueError(MESSAGES("plot_tokens_count", n_tokens=len(tokens), n_rows=data.shape[0]))
    vmax = float(np.abs(data).max()) if vmax is None else float(vmax)
    vmax = vmax if vmax > 0 else 1.0  # an all-zero sentence (padding) still needs a scale
    fig = new_figure(figsize or (7.0, 0.9 + 0.3 * max(len(tokens), 4)), dpi, lang)
    ax, _ = draw_heatmap(
        fig,
        data,
        xlabel=MESSAGES("dimension", lang),
        ylabel=MESSAGES("token", lang),
        title=title
        if title is not None
        else MESSAGES("embeddings_title", lang, seq=data.shape[0], d_model=data.shape[1]),
        vmin=-vmax,
        vmax=vmax,
        colorbar_label=MESSAGES("value", lang),
    )
    ax.set_yticks(range(len(tokens)), labels=tokens)
    return fig


def magnitudes(d_model: int = 512, vocab_size: int = 32000, num_positions: int = 128, seed: int = 0) -> dict:
    """The numbers behind :func:`plot_magnitudes`: RMS of scaled token vectors and of the table.

    Returns ``{"default": ..., "course_lib": ..., "positions": ...}``.

        >>> m = magnitudes(d_model=64, vocab_size=1000, num_positions=32)
        >>> round(m["default"] / m["positions"]), round(m["course_lib"], 1), round(m["positions"], 4)
        (11, 1.0, 0.7071)
    """
    d_model = validate.positive_int("d_model", d_model)
    vocab_size = validate.positive_int("vocab_size", vocab_size)
    num_positions = validate.positive_int("num_positions", num_positions)
    scale = math.sqrt(d_model)
    # fork_rng: the same numbers every time, and the caller's random state stays as it was
    with torch.random.fork_rng(devices=[]), torch.no_grad():
        torch.manual_seed(seed)
        default = nn.Embedding(vocab_size, d_model).weight  # N(0, 1)
        torch.manual_seed(seed)
        ours = TokenEmbedding(vocab_size, d_model).embedding.weight  # N(0, 1/d_model)
        return {
            "default": (default * scale).pow(2).mean().sqrt().item(),
            "course_lib": (ours * scale).pow(2).mean().sqrt().item(),
            "positions": sinusoidal_table(num_positions, d_model).pow(2).mean().sqrt().item(),
        }


def plot_magnitudes(
    d_model: int = 512,
    vocab_size: int = 32000,
    num_positions: int = 128,
    seed: int = 0,
    lang: str | None = None,
    *,
    figsize=None,
    dpi=None,
) -> Figure:
    """How large a scaled token vector is next to the positional encoding it is added to.

    Three bars, the RMS of their entries: token vectors × √d_model with ``nn.Embedding``'s
    default N(0, 1) initialisation (about √d_model, ~23 at 512: they drown the positions
    ~30 times over), the same with :class:`~course_lib.TokenEmbedding`'s N(0, 1/d_model)
    (about 1), and the sinusoidal table (1/√2 ≈ 0.71).
    """
    lang = resolve(lang)
    m = magnitudes(d_model, vocab_size, num_positions, seed)
    fig = new_figure(figsize or (8.0, 4.0), dpi, lang)
    ax = fig.add_subplot()
    keys = ("default", "course_lib", "positions")
    widths = [m[key] for key in keys]
    # horizontal bars: the long two-line labels sit on the y axis instead of colliding under the bars
    bars = ax.barh(range(3), widths, color=["tab:red", "tab:blue", "tab:green"])
    ax.set_yticks(range(3), labels=[MESSAGES(f"magnitude_{key}", lang) for key in keys])
    ax.invert_yaxis()
    notes = [
        f"{format_number(w, '.2f', lang)} = {format_number(w / m['positions'], '.1f', lang)} × P"
        for w in widths[:2]
    ] + [format_number(widths[2], ".2f", lang)]
    ax.bar_label(bars, labels=notes, padding=4)
    ax.axvline(m["positions"], color="tab:green", linestyle="--", linewidth=1)
    ax.set_xlim(0, max(widths) * 1.45)
    ax.set_xlabel(MESSAGES("rms", lang))
    fig.suptitle(MESSAGES("magnitudes_title", lang, d_model=d_model, vocab_size=vocab_size))
    return fig
