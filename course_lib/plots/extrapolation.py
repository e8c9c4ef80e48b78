"""The figures of the length experiment (lesson 7): accuracy against length and position, scores against distance.

Each takes what :func:`course_lib.extrapolation.run` returns, ``{variant: Result}``, and the
:class:`~course_lib.extrapolation.Config` it ran with. The labels are in this module's
catalogue, :data:`MESSAGES` (``messages.EXTRAPOLATION``).

    >>> from course_lib import extrapolation as ex
    >>> cfg = ex.Config(steps=1, train_len=8, test_len=16)
    >>> fig = plot_extrapolation(ex.run(cfg, variants=["learned"]), cfg, lang="ru")
    >>> fig.axes[1].get_xlabel(), fig.axes[1].get_legend_handles_labels()[1]
    ('позиция', ['обучаемые', 'не было при обучении', 'случайное угадывание'])
"""

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .. import validate
from ..extrapolation import Result
from ..i18n import resolve
from .figure import new_figure
from .messages import EXTRAPOLATION as MESSAGES

__all__ = [
    "MESSAGES",
    "COLOURS",
    "check_results",
    "variant_label",
    "draw_training_range",
    "plot_extrapolation",
    "plot_attention_by_distance",
    "plot_score_by_pair",
]


#: one colour per variant, the same in every figure and widget of the lesson: Okabe and Ito's (2008,
#: "Color Universal Design") blue, orange, sky blue and vermillion, and matplotlib's grey, five colours
#: that stay apart for readers with deuteranopia or protanopia (matplotlib's tab: green, orange and red
#: do not: tests/browser/test_explorer_colours.py)
COLOURS = {
    "sinusoidal": "#0072b2",
    "learned": "#e69f00",
    "none": "tab:gray",
    "rotary": "#56b4e9",
    "alibi": "#d55e00",
}


def check_results(results) -> dict:
    """``results`` if it is a non-empty ``{variant: Result}``, as :func:`~course_lib.extrapolation.run` returns."""
    if (
        not isinstance(results, dict)
        or not results
        or not all(isinstance(r, Result) for r in results.values())
    ):
        shown = type(results).__name__ if isinstance(results, dict) and results else repr(results)
        raise TypeError(MESSAGES("not_results", value=shown[:80]))
    return results


def variant_label(variant: str, lang: str | None = None) -> str:
    """The name of a variant in a legend: ``"rotary"`` -> ``"rotary (RoPE)"``."""
    return MESSAGES(variant, lang)


def draw_training_range(ax: Axes, cfg, lang: str, start: float | None = None, accuracy: bool = True) -> None:
    """Grey from ``start`` on: what training never showed (default: the positions from ``train_len``).

    With ``accuracy``, also a dotted line at chance, ``1 / vocab_size``, and the y axis 0 .. 1.
    """
    start = cfg.train_len - 0.5 if start is None else start
    ax.axvspan(start, cfg.test_len, color="0.92", zorder=0, label=MESSAGES("unseen", lang))
    if accuracy:
        ax.axhline(1 / cfg.vocab_size, color="k", ls=":", lw=1, label=MESSAGES("chance", lang))
        ax.set_ylim(0, 1.05)


def plot_extrapolation(results, cfg, lang: str | None = None, *, figsize=None, dpi=None) -> Figure:
    """Left: accuracy against the test length. Right: accuracy at each position of the longest sequences.

    The grey region holds the lengths and positions beyond ``train_len``, which training never
    showed; the dotted line is chance, ``1 / vocab_size``.
    """
    lang = resolve(lang)
    results = check_results(results)
    fig = new_figure(figsize or (10.0, 3.9), dpi, lang)
    by_len, by_pos = fig.subplots(1, 2, sharey=True)
    for variant, r in results.items():
        lengths, accuracy = zip(*sorted(r.by_length.items()), strict=True)
        label = variant_label(variant, lang)
        by_len.plot(lengths, accuracy, "o-", color=COLOURS[variant], label=label)
        by_pos.plot(np.arange(cfg.test_len), r.by_position.numpy(), color=COLOURS[variant], label=label)
    draw_training_range(by_len, cfg, lang, start=cfg.train_len + 0.5)  # lengths up to train_len were seen
    draw_training_range(by_pos, cfg, lang)  # positions up to train_len - 1 were seen
    for ax in (by_len, by_pos):
        ax.set_xlim(0, cfg.test_len)
    by_len.set(xlabel=MESSAGES("test_length", lang), ylabel=MESSAGES("accuracy", lang))
    by_len.set_title(MESSAGES("by_length_title", lang), fontsize="medium")
    by_pos.set(xlabel=MESSAGES("position", lang))
    by_pos.set_title(MESSAGES("by_position_title", lang, test_len=cfg.test_len), fontsize="medium")
    handles, labels = by_pos.get_legend_handles_labels()
    by_len.legend(handles, labels, loc="lower left", fontsize="small")
    task = {n: getattr(cfg, n) for n in ("k", "min_len", "train_len")}
    fig.suptitle(MESSAGES(f"task_{cfg.task}", lang, **task), fontsize="medium")
    return fig


def plot_attention_by_distance(
    scores, cfg, lang: str | None = None, *, variant: str = "rotary", figsize=None, dpi=None
) -> Figure:
    """Mean attention score against distance, one line per layer and head (from ``attention_by_distance``).

    ``variant`` names the model in the title: ``"rotary"`` or ``"alibi"``.
    """
    lang = resolve(lang)
    validate.choice("variant", variant, ("rotary", "alibi"))
    fig = new_figure(figsize or (10.0, 3.4), dpi, lang)
    ax = fig.add_subplot()
    for layer, heads in enumerate(scores):
        for head, s in enumerate(heads):
            ax.plot(np.arange(len(s)), s.numpy(), label=MESSAGES("head", lang, layer=layer, head=head))
    # training sequences of at most train_len tokens: distances up to train_len - 1
    draw_training_range(ax, cfg, lang, start=cfg.train_len - 0.5, accuracy=False)
    ax.set_xlim(0, cfg.test_len)
    ax.set(xlabel=MESSAGES("distance", lang), ylabel=MESSAGES("mean_score", lang))
    ax.set_title(MESSAGES(f"scores_title_{variant}", lang), fontsize="medium")
    fig.legend(fontsize="small", loc="outside lower center", ncols=5)
    return fig


def plot_score_by_pair(
    pairs, cfg, distances=(1, 20, 39), layer: int = -1, lang: str | None = None, *, figsize=None, dpi=None
) -> Figure:
    """The last query's score for the key ``d`` places back, split by coordinate pair: a panel per head.

    ``pairs`` is what ``attention_by_distance(..., by_pair=True)`` returns, ``(n_layers,
    n_heads, test_len, n_pairs)``; at each pair, one bar per distance of ``distances``, in
    ``layer`` (default: the last). A pair's bars differ where RoPE turns it by different angles.
    """
    lang = resolve(lang)
    for d in distances:
        if not validate.is_integer(d) or not 0 <= d < cfg.test_len:
            raise ValueError(MESSAGES("bad_distance", last=cfg.test_len - 1, value=d))
    layer = range(len(pairs))[layer]
    heads = pairs[layer]  # (n_heads, test_len, n_pairs)
    n_heads, n_pairs = heads.shape[0], heads.shape[-1]
    fig = new_figure(figsize or (10.0, 3.4), dpi, lang)
    axes = fig.subplots(1, n_heads, sharey=True, squeeze=False)[0]
    width = 0.8 / len(distances)
    for head, ax in enumerate(axes):
        for j, d in enumerate(distances):
            where = np.arange(n_pairs) + (j - (len(distances) - 1) / 2) * width
            ax.bar(where, heads[head, d].numpy(), width, label=MESSAGES("at_distance", lang, d=d))
        ax.axhline(0, color="k", lw=0.8)
        ax.set_xticks(np.arange(n_pairs))
        ax.set_xlabel(MESSAGES("pair", lang))
        ax.set_title(MESSAGES("head", lang, layer=layer, head=head), fontsize="medium")
    axes[0].set_ylabel(MESSAGES("pair_score", lang))
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize="small", loc="outside lower center", ncols=len(distances))
    fig.suptitle(MESSAGES("pairs_title", lang), fontsize="medium")
    return fig
