"""Figures of RoPE (lesson 8): one pair of q and k turning, and the two layouts of its pairs.

The maths is :mod:`course_lib.rotary`'s: pair ``i`` of a query or key at position ``p``
turns by ``p · base^(-2i/head_dim)``, taken from :func:`~course_lib.rotary.rotary_tables`
(float64). The figures only draw what those tables give; the angles
of long contexts are :mod:`course_lib.plots.long_context`'s.

    >>> q, k = rope_vectors(8)
    >>> a, b = rope_score(q, k, 5, 2), rope_score(q, k, 45, 42)  # the same offset m - n = 3
    >>> abs(a - b) < 1e-12
    True
"""

import numpy as np
import torch
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .. import validate
from ..core import model as core
from ..i18n import format_number, resolve
from ..maths import frequency
from ..rotary import rotary_tables
from .figure import new_figure
from .messages import ROTARY as MESSAGES

__all__ = [
    "MESSAGES",
    "rope_vectors",
    "rope_rotate",
    "rope_score",
    "draw_rope_rotation",
    "update_rope_rotation",
    "plot_rope_rotation",
    "plot_rope_layouts",
]


Q_COLOUR, K_COLOUR = "tab:blue", "tab:orange"


def even_head_dim(value) -> int:
    """``value`` if it is an even positive integer, the width of a head that RoPE turns in pairs."""
    head_dim = validate.positive_int("head_dim", value)
    if head_dim % 2:
        raise ValueError(MESSAGES("plot_even_head_dim", value=value))
    return head_dim


def check_pair(pair, head_dim: int) -> int:
    """``pair`` if it numbers one of the ``head_dim/2`` pairs of a head."""
    if not validate.is_integer(pair) or not 0 <= pair < head_dim // 2:
        raise ValueError(MESSAGES("plot_rope_pair", value=pair, head_dim=head_dim, last=head_dim // 2 - 1))
    return int(pair)


def rope_vectors(head_dim: int = 8, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A query and a key of ``head_dim`` numbers, drawn from N(0, 1) with ``seed``: the same on every run.

    The caller's random state is left alone (a generator of its own).
    """
    head_dim = even_head_dim(head_dim)
    g = torch.Generator().manual_seed(validate.non_negative_int("seed", seed))
    q, k = torch.randn(2, head_dim, generator=g, dtype=torch.float64)  # (head_dim,) each
    return q.numpy(), k.numpy()


def rope_rotate(x: np.ndarray, positions, base: float = 10000.0) -> np.ndarray:
    """``x`` (``(head_dim,)``) turned to each of ``positions``: ``(len(positions), head_dim)``, interleaved pairs.

    Pair ``(2i, 2i+1)`` turns by ``p · base^(-2i/head_dim)``, as
    :class:`~course_lib.RotaryEmbedding` (``interleaved=True``) turns it, in float64.
    """
    positions = torch.from_numpy(np.asarray(positions, dtype=np.int64).reshape(-1))  # (n,)
    cos, sin = rotary_tables(int(positions.max()) + 1, len(x), base)  # (max + 1, head_dim/2) each
    x = torch.as_tensor(x, dtype=torch.float64).expand(len(positions), -1)  # (n, head_dim)
    return core.rotate_interleaved(x, cos[positions], sin[positions]).numpy()  # (n, head_dim)


def rope_score(q: np.ndarray, k: np.ndarray, m: int, n: int, base: float = 10000.0) -> float:
    """``q_m · k_n``: the dot product of ``q`` turned to position ``m`` and ``k`` turned to position ``n``."""
    return float(rope_rotate(q, [m], base)[0] @ rope_rotate(k, [n], base)[0])


# ----------------------------------------------------------------------------- one pair turning


def draw_rope_rotation(
    fig: Figure, q: np.ndarray, k: np.ndarray, max_offset: int, base: float, lang: str
) -> dict:
    """The fixed parts of :func:`plot_rope_rotation`; returns the artists that :func:`update_rope_rotation` moves.

    Left: the plane of one pair, with arrows for q and k. Right: ``q_m · k_n`` against the
    offset ``m − n`` from ``-max_offset`` to ``max_offset``, computed at ``(max_offset + o,
    max_offset)``; a dot marks the current ``(m, n)``.
    """
    left, right = fig.subplots(1, 2, width_ratios=(1, 1.25))
    left.set_aspect("equal")
    left.axhline(0, color="0.85", linewidth=0.8)
    left.axvline(0, color="0.85", linewidth=0.8)
    circles, arrows = {}, {}
    for name, colour in (("q", Q_COLOUR), ("k", K_COLOUR)):
        # a rotation keeps the length: each arrow stays on its own circle
        circles[name] = left.plot([], [], color=colour, linewidth=0.8, alpha=0.35)[0]
        arrows[name] = left.annotate(
            "", xy=(1, 0), xytext=(0, 0), arrowprops={"arrowstyle": "-|>", "color": colour, "linewidth": 2}
        )
    handles = [left.plot([], [], color=c, linewidth=2)[0] for c in (Q_COLOUR, K_COLOUR)]
    # made once, its texts changed on every move: a new legend per move costs more than the rest
    legend = left.legend(
        handles, ["q", "k"], loc="upper center", bbox_to_anchor=(0.5, -0.08), fontsize="small", frameon=False
    )
    left.set_xticks([])  # the arrows' directions matter, not their coordinates' values
    left.set_yticks([])
    offsets = np.arange(-max_offset, max_offset + 1)  # (2 max_offset + 1,)
    scores = rope_rotate(q, max_offset + offsets, base) @ rope_rotate(k, [max_offset], base)[0]
    # scores exist at whole offsets only: dots on them, a thin line to guide the eye
    right.plot(offsets, scores, ".-", color="0.4", linewidth=0.6, markersize=3)
    right.axhline(0, color="0.85", linewidth=0.8)
    dot = right.plot([], [], "o", color="tab:red", markersize=8)[0]
    right.set_xlabel(MESSAGES("rope_offset", lang))
    right.set_ylabel("q_m · k_n")
    right.yaxis.set_major_locator(MaxNLocator(5))
    right.set_title(MESSAGES("rope_curve_title", lang), fontsize="medium")
    return {
        "left": left,
        "right": right,
        "circles": circles,
        "arrows": arrows,
        "legend": legend,
        "dot": dot,
        "q": q,
        "k": k,
        "base": base,
    }


def update_rope_rotation(artists: dict, m: int, n: int, pair: int, lang: str) -> float:
    """Move the arrows and the dot of a figure drawn by :func:`draw_rope_rotation` to ``(m, n)`` and ``pair``.

    Returns ``q_m · k_n``.
    """
    q, k, base = artists["q"], artists["k"], artists["base"]
    q_m, k_n = rope_rotate(q, [m], base)[0], rope_rotate(k, [n], base)[0]
    score = float(q_m @ k_n)
    left = artists["left"]
    t = np.linspace(0, 2 * np.pi, 100)
    for name, vec in (("q", q_m), ("k", k_n)):
        x, y = vec[2 * pair], vec[2 * pair + 1]
        artists["arrows"][name].xy = (x, y)
        artists["circles"][name].set_data(np.hypot(x, y) * np.cos(t), np.hypot(x, y) * np.sin(t))
    radius = 1.15 * max(np.hypot(q[2 * pair], q[2 * pair + 1]), np.hypot(k[2 * pair], k[2 * pair + 1]))
    left.set_xlim(-radius, radius)
    left.set_ylim(-radius, radius)
    left.set_xlabel(MESSAGES("rope_coordinate", lang, c=2 * pair))
    left.set_ylabel(MESSAGES("rope_coordinate", lang, c=2 * pair + 1))
    theta = frequency(pair, len(q), base)
    left.set_title(
        MESSAGES("rope_pair_title", lang, i=pair, theta=format_number(theta, ".4g", lang)), fontsize="medium"
    )
    q_text, k_text = artists["legend"].get_texts()
    q_text.set_text(MESSAGES("rope_q", lang, m=m, angle=format_number(m * theta, ".2f", lang)))
    k_text.set_text(MESSAGES("rope_k", lang, n=n, angle=format_number(n * theta, ".2f", lang)))
    artists["dot"].set_data([m - n], [score])
    left.figure.suptitle(
        MESSAGES(
            "rope_title",
            lang,
            head_dim=len(q),
            m=m,
            n=n,
            offset=format_number(m - n, "d", lang),
            score=format_number(score, ".3f", lang),
        ),
        fontsize="medium",
    )
    return score


def plot_rope_rotation(
    m: int = 5,
    n: int = 2,
    pair: int = 0,
    head_dim: int = 8,
    base: float = 10000.0,
    max_offset: int = 30,
    seed: int = 0,
    lang: str | None = None,
    *,
    figsize=None,
    dpi=None,
) -> Figure:
    """A query at position ``m`` and a key at position ``n``, both turned by RoPE: their score depends on ``m − n``.

    Left: pair ``pair`` of the two vectors as arrows in its plane; the angle between them
    is the angle they started with plus ``(m − n)·θ``. Right: the whole score ``q_m · k_n``
    against the offset ``m − n``; the dot for ``(m, n)`` lies on this one curve whatever
    ``m`` is. ``q`` and ``k`` are :func:`rope_vectors` of ``seed``.

        >>> fig = plot_rope_rotation(m=7, n=4, lang="ru")
        >>> fig.axes[1].get_xlabel(), list(fig.axes[1].lines[-1].get_xdata())
        ('сдвиг m − n', [3])
    """
    lang = resolve(lang)
    m, n = validate.non_negative_int("m", m), validate.non_negative_int("n", n)
    head_dim = even_head_dim(head_dim)
    pair = check_pair(pair, head_dim)
    base = validate.base(base)
    max_offset = validate.positive_int("max_offset", max_offset)
    q, k = rope_vectors(head_dim, seed)
    fig = new_figure(figsize or (9.0, 4.2), dpi, lang)
    artists = draw_rope_rotation(fig, q, k, max_offset, base, lang)
    update_rope_rotation(artists, m, n, pair, lang)
    return fig


# ----------------------------------------------------------------------------- the two layouts


def plot_rope_layouts(head_dim: int = 8, lang: str | None = None, *, figsize=None, dpi=None) -> Figure:
    """Which coordinates RoPE turns together: neighbours (2i, 2i+1), or i and i + head_dim/2.

    One row per layout; each cell is a coordinate of q or k, coloured and numbered by its
    pair. The same rotations either way: the columns are permuted.

        >>> fig = plot_rope_layouts(4)
        >>> fig.axes[0].images[0].get_array().tolist()
        [[0, 0, 1, 1], [0, 1, 0, 1]]
    """
    lang = resolve(lang)
    head_dim = even_head_dim(head_dim)
    columns = np.arange(head_dim)
    pairs = np.stack([columns // 2, columns % (head_dim // 2)])  # (2, head_dim): the pair of each column
    fig = new_figure(figsize or (max(6.0, 0.55 * head_dim + 3.0), 2.6), dpi, lang)
    ax = fig.add_subplot()
    ax.imshow(pairs, cmap="tab10", vmin=0, vmax=9, aspect="equal")
    for (row, col), i in np.ndenumerate(pairs):
        ax.text(col, row, str(i), ha="center", va="center", color="white", fontsize="large", weight="bold")
    ax.set_xticks(columns)
    ax.set_yticks([0, 1], labels=[MESSAGES("layout_interleaved", lang), MESSAGES("layout_half", lang)])
    ax.set_xlabel(MESSAGES("layout_coordinate", lang))
    ax.set_title(MESSAGES("layout_title", lang, head_dim=head_dim), fontsize="medium")
    return fig
