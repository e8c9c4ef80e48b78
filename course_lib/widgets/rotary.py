"""Explorers of positions inside attention (lesson 8): a q/k pair under RoPE, ALiBi's heads, long-context angles.

All three are live (:mod:`course_lib.widgets.live`): the browser computes and draws what
:mod:`course_lib.plots.rotary`, :mod:`~course_lib.plots.alibi` and
:mod:`~course_lib.plots.long_context` draw (``js/rope.js``, ``js/alibi.js``, ``js/rope_angles.js``);
the traits are their parameters, and the properties and ``readout()`` what they show, computed
by course_lib.

>>> explorer = rope_explorer(m=5, n=2, lang="ru")
>>> explorer.m, explorer.n = 40, 37  # the offset stays 3, and so does the score
>>> abs(explorer.score - rope_explorer(m=5, n=2).score) < 1e-12, explorer.labels["m"]
(True, 'позиция запроса m')
"""

import math

import numpy as np
import torch
import traitlets

from .. import maths, plots, validate
from ..i18n import format_number, resolve
from ..maths import angle_table
from ..plots.alibi import MESSAGES as ALIBI_MESSAGES
from ..plots.alibi import check_head
from ..plots.long_context import MESSAGES as PLOT_MESSAGES
from ..plots.long_context import check_scale
from ..plots.rotary import MESSAGES as ROTARY_MESSAGES
from ..plots.rotary import check_pair, even_head_dim
from ..rotary import alibi_slopes
from .live import (
    Checked,
    LiveExplorer,
    NonNegativeInt,
    PositiveInt,
    colormap_hex,
    module,
    template,
)
from .messages import ROTARY as MESSAGES

__all__ = [
    "MESSAGES",
    "MAX_POSITION",
    "RopeExplorer",
    "rope_explorer",
    "AlibiExplorer",
    "alibi_explorer",
    "RopeAnglesExplorer",
    "rope_angles_explorer",
]


#: the largest position of the RoPE explorer's sliders
MAX_POSITION = 128


class RopeExplorer(LiveExplorer):
    """Sliders for the positions ``m`` and ``n`` of a query and a key, and the pair shown, over RoPE's rotation.

    A live explorer (:mod:`course_lib.widgets.live`): the browser turns ``q`` and ``k``, computes
    the score and the readout's check, and draws what :func:`course_lib.plots.plot_rope_rotation`
    draws (``js/rope.js``; the interleaved layout, pair ``i`` = coordinates ``2i`` and ``2i + 1``,
    as :class:`~course_lib.RotaryEmbedding` by default). Traits: ``m``, ``n``, ``pair`` (the
    sliders), ``together`` (the checkbox: in the page, moving one position's slider moves the
    other by as much), ``head_dim``, ``base``, ``max_position`` and ``seed`` (set once, checked
    if changed), and ``q`` and ``k``, :func:`~course_lib.plots.rotary.rope_vectors` of ``seed`` (torch's
    generator, which the browser does not have). :attr:`score`, :attr:`error` and :meth:`readout`
    are what the browser shows, computed by course_lib: ``error`` is the largest difference
    between the score and the score after shifting both positions by every ``s`` that keeps them
    on the sliders.
    """

    _esm = module("rope", "frequencies", "axes", "plane")
    parameters = ("head_dim", "m", "n", "pair", "base", "max_position", "seed")
    # positions up to MAX_POSITION: the curve and the readout's check, O(positions x head_dim), in a frame
    m = NonNegativeInt(5, high=MAX_POSITION)
    n = NonNegativeInt(2, high=MAX_POSITION)
    pair = traitlets.Int(0).tag(sync=True)
    together = traitlets.Bool(False).tag(sync=True)
    head_dim = Checked(8, even_head_dim, low=2, high=128)
    base = Checked(10000.0, validate.base, low=10.0, high=1e6)
    max_position = PositiveInt(40, high=MAX_POSITION)
    seed = NonNegativeInt(0, high=2**32 - 1)
    #: the query and the key before turning, ``(head_dim,)`` each, float64
    q = traitlets.List(traitlets.Float()).tag(sync=True)
    k = traitlets.List(traitlets.Float()).tag(sync=True)
    #: the sliders' largest values: positions up to max_position (or further, to a position set beyond)
    limits = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        head_dim: int = 8,
        m: int = 5,
        n: int = 2,
        pair: int = 0,
        base: float = 10000.0,
        max_position: int = 40,
        seed: int = 0,
        lang=None,
    ):
        lang = resolve(lang)
        m, n, head_dim, base, max_position, seed = self.checked(
            m=m, n=n, head_dim=head_dim, base=base, max_position=max_position, seed=seed
        )
        pair = check_pair(pair, head_dim)
        q, k = plots.rotary.rope_vectors(head_dim, seed)
        labels = {
            "m": MESSAGES("slider_m", lang),
            "n": MESSAGES("slider_n", lang),
            "pair": MESSAGES("slider_pair", lang),
            "together": MESSAGES("together", lang),
            "readout": template(MESSAGES, "rope_readout", lang),
            "q": template(ROTARY_MESSAGES, "rope_q", lang),
            "k": template(ROTARY_MESSAGES, "rope_k", lang),
            "pair_title": template(ROTARY_MESSAGES, "rope_pair_title", lang),
            "coordinate": template(ROTARY_MESSAGES, "rope_coordinate", lang),
            "offset": ROTARY_MESSAGES("rope_offset", lang),
            "curve_title": ROTARY_MESSAGES("rope_curve_title", lang),
            "title": template(ROTARY_MESSAGES, "rope_title", lang),
        }
        limits = {"m": max(max_position, m), "n": max(max_position, n), "pair": head_dim // 2 - 1}
        super().__init__(
            lang,
            labels,
            m=m,
            n=n,
            pair=pair,
            head_dim=head_dim,
            base=base,
            max_position=max_position,
            seed=seed,
            q=q.tolist(),
            k=k.tolist(),
            limits=limits,
        )

    @traitlets.validate("pair")
    def _check_pair(self, proposal):
        return check_pair(proposal["value"], self.head_dim)

    @traitlets.observe("head_dim", "seed")
    def _new_vectors(self, _change):
        # another head or seed: new vectors, and a pair that exists in the head
        q, k = plots.rotary.rope_vectors(self.head_dim, self.seed)
        last_pair = self.head_dim // 2 - 1
        self.pair = min(self.pair, last_pair)
        self.q, self.k = q.tolist(), k.tolist()
        self.limits = {**self.limits, "pair": last_pair}

    @traitlets.observe("max_position", "m", "n")
    def _widen(self, change):
        # the position sliders reach max_position and any position set beyond it; a slider never
        # narrows under a position moved back (only a new max_position narrows them)
        limits = {"m": max(self.max_position, self.m), "n": max(self.max_position, self.n)}
        if change["name"] != "max_position":
            limits = {name: max(value, self.limits[name]) for name, value in limits.items()}
        if any(limits[name] != self.limits[name] for name in limits):
            self.limits = {**self.limits, **limits}

    @property
    def score(self) -> float:
        """``q_m · k_n``: :func:`~course_lib.plots.rotary.rope_score` of the positions shown."""
        return plots.rotary.rope_score(np.array(self.q), np.array(self.k), self.m, self.n, self.base)

    @property
    def last(self) -> int:
        """The last position both sliders reach: the readout shifts both positions within ``0 .. last``."""
        return min(self.limits["m"], self.limits["n"])

    @property
    def error(self) -> float:
        """The largest difference between :attr:`score` and the score after every shift of both positions."""
        m, n, q, k = self.m, self.n, np.array(self.q), np.array(self.k)
        shifts = np.arange(-min(m, n), self.last - max(m, n) + 1)  # every s with m + s, n + s in 0 .. last
        if len(shifts) == 0:
            return 0.0
        q_s = plots.rotary.rope_rotate(q, m + shifts, self.base)  # (shifts, head_dim)
        k_s = plots.rotary.rope_rotate(k, n + shifts, self.base)
        return float(np.abs((q_s * k_s).sum(axis=1) - self.score).max())

    def readout(self) -> list[str]:
        """The readout's two lines, as the browser writes them: the check (its last number, the error,
        may differ in the browser), then how far q and k of the pair shown turned."""
        m, n, lang = self.m, self.n, self.lang
        check = MESSAGES(
            "rope_readout",
            lang,
            offset=format_number(m - n, "d", lang),
            score=format_number(self.score, ".4f", lang),
            last=self.last,
            shifts=max(0, self.last - max(m, n) + min(m, n) + 1),
            err=format_number(max(self.error, 1e-16), ".0e", lang),
        )
        theta = self.base ** (-2 * self.pair / self.head_dim)
        turned = [
            ROTARY_MESSAGES("rope_q", lang, m=m, angle=format_number(m * theta, ".2f", lang)),
            ROTARY_MESSAGES("rope_k", lang, n=n, angle=format_number(n * theta, ".2f", lang)),
        ]
        return [check, "; ".join(turned)]


def rope_explorer(
    head_dim: int = 8,
    m: int = 5,
    n: int = 2,
    pair: int = 0,
    base: float = 10000.0,
    max_position: int = 40,
    seed: int = 0,
    lang: str | None = None,
) -> RopeExplorer:
    """A query at position ``m`` and a key at position ``n``, turned by RoPE (lesson 8), live in the browser.

    Move ``m`` and ``n`` together and the score stays; move them apart and it follows the
    curve of the offset. The static figure to show beside it is
    :func:`course_lib.plots.plot_rope_rotation`.
    """
    return RopeExplorer(head_dim, m, n, pair, base, max_position, seed, lang)


class AlibiExplorer(LiveExplorer):
    """Sliders for the number of heads and the head shown, over ALiBi's bias and the weights it gives.

    A live explorer (:mod:`course_lib.widgets.live`): the browser computes the slopes, the
    head's bias and the last query's weights and draws what the static
    :func:`course_lib.plots.plot_alibi` and :func:`~course_lib.plots.plot_alibi_weights`
    draw for one head (``js/alibi.js``). Traits: ``num_heads`` and ``head`` (the sliders,
    heads numbered from 1), ``seq_len`` (fixed). :attr:`slope`, :attr:`weights` and
    :meth:`readout` are what the browser shows, computed by course_lib.
    """

    _esm = module("alibi", "axes", "heatmap")
    parameters = ("num_heads", "head", "seq_len")
    num_heads = PositiveInt(8, high=64)
    head = traitlets.Int(1).tag(sync=True)
    seq_len = PositiveInt(32, high=128)
    #: the slider's largest number of heads (the head slider ends at num_heads)
    limits = traitlets.Dict().tag(sync=True)
    #: the heatmap's colours: the static figure's colormap, 256 x "rrggbb"
    colormap = traitlets.Unicode().tag(sync=True)

    def __init__(self, num_heads: int = 8, head: int = 1, seq_len: int = 32, lang=None):
        lang = resolve(lang)
        num_heads, seq_len = self.checked(num_heads=num_heads, seq_len=seq_len)
        head = check_head(head, num_heads)
        labels = {
            "num_heads": MESSAGES("slider_heads", lang),
            "head": MESSAGES("slider_head", lang),
            "one": MESSAGES("alibi_one", lang),
            "power": template(MESSAGES, "alibi_power", lang),
            "other": template(MESSAGES, "alibi_other", lang),
            "readout": template(MESSAGES, "alibi_readout", lang),
            # the static figure writes the slope as mathtext ($s_h = 2^{-1}$), the canvas as text: s_h = 2^−1
            "title": template(ALIBI_MESSAGES, "alibi_head", lang).replace("{slope}", "s_h = {slope}"),
            "query": ALIBI_MESSAGES("alibi_query", lang),
            "key": ALIBI_MESSAGES("alibi_key", lang),
            "bias": ALIBI_MESSAGES("alibi_bias", lang),
            "distance": ALIBI_MESSAGES("alibi_distance", lang),
            "weight": ALIBI_MESSAGES("alibi_weight", lang),
            "equal": ALIBI_MESSAGES("alibi_equal", lang),
        }
        super().__init__(
            lang,
            labels,
            num_heads=num_heads,
            head=head,
            seq_len=seq_len,
            limits={"num_heads": max(16, num_heads)},
            colormap=colormap_hex("viridis"),
        )

    @traitlets.validate("head")
    def _check_head(self, proposal):
        return check_head(proposal["value"], self.num_heads)

    @traitlets.observe("num_heads")
    def _clamp_head(self, change):
        # fewer heads than the head shown: the last head, as the head slider stops at num_heads
        self.head = min(self.head, change["new"])

    @property
    def slope(self) -> float:
        """The slope of the head shown: :func:`~course_lib.alibi_slopes` in float64."""
        return float(alibi_slopes(self.num_heads, dtype=torch.float64)[self.head - 1])

    @property
    def weights(self) -> np.ndarray:
        """The last query's weights by distance, equal content scores: :func:`~course_lib.plots.alibi_weights`."""
        return plots.alibi_weights(self.slope, self.seq_len)

    def readout(self) -> list[str]:
        """The readout's two lines, as the browser writes them: the rule for the slopes, then the head."""
        heads, head, lang = self.num_heads, self.head, self.lang
        closest = 1 << (heads.bit_length() - 1)  # the largest power of two <= heads
        if heads == 1:
            rule = MESSAGES("alibi_one", lang)
        elif heads == closest:
            rule = MESSAGES("alibi_power", lang, heads=heads)
        else:
            rule = MESSAGES(
                "alibi_other", lang, heads=heads, closest=closest, next=closest + 1, double=2 * closest
            )
        # the nearest keys that together receive half of the attention
        half = int(np.searchsorted(np.cumsum(self.weights), 0.5) + 1)
        detail = MESSAGES(
            "alibi_readout",
            lang,
            head=head,
            slope=plots.slope_label(self.slope, lang),
            value=format_number(self.slope, ".4f", lang),
            half=half,
            seq=self.seq_len,
        )
        return [rule, detail]


def alibi_explorer(
    num_heads: int = 8, head: int = 1, seq_len: int = 32, lang: str | None = None
) -> AlibiExplorer:
    """ALiBi's bias for one head, and where it lets the last query look (lesson 8), live in the browser.

    Sliders: the number of heads (1 to 16) and the head (1 to the number of heads). The
    static figures to show beside it are :func:`course_lib.plots.plot_alibi` (every head's
    bias) and :func:`course_lib.plots.plot_alibi_weights` (every head's weights).
    """
    return AlibiExplorer(num_heads, head, seq_len, lang)


class RopeAnglesExplorer(LiveExplorer):
    """Sliders for ``base`` and the interpolation factor ``s`` over RoPE's angles at every position (lesson 8).

    A live explorer (:mod:`course_lib.widgets.live`): the browser computes the angles and the
    pairs that meet angles training never showed them, and draws what one panel of
    :func:`course_lib.plots.plot_rope_angles` draws (``js/rope_angles.js``). Traits: ``base``
    and ``scale`` (the sliders), ``head_dim``, ``num_positions`` and ``train_len`` (fixed).
    :attr:`angles`, :attr:`new_pairs` and :meth:`readout` are what the browser shows,
    computed by course_lib (training: base 10 000, positions below ``train_len``).
    """

    _esm = module("rope_angles", "frequencies", "axes", "heatmap")
    parameters = ("head_dim", "num_positions", "train_len", "base", "scale")
    # a table of at most 4096 positions x 128 pairs, computed and drawn in a frame
    head_dim = Checked(64, even_head_dim, low=2, high=256)
    num_positions = PositiveInt(2048, high=4096)
    train_len = PositiveInt(512, high=4096)
    base = Checked(10000.0, validate.base, low=100.0, high=1e8)
    scale = Checked(1.0, check_scale, low=1.0, high=16.0)
    #: the sliders' ends: base on a log scale (exponents of 10), the interpolation factor κ from 1
    limits = traitlets.Dict().tag(sync=True)
    #: the heatmap's colours: the static figure's diverging colormap, 256 x "rrggbb"
    colormap = traitlets.Unicode().tag(sync=True)

    def __init__(
        self,
        head_dim: int = 64,
        num_positions: int = 2048,
        train_len: int = 512,
        base: float = 10000.0,
        scale: float = 1.0,
        lang=None,
    ):
        lang = resolve(lang)
        head_dim, num_positions, train_len, base, scale = self.checked(
            head_dim=head_dim, num_positions=num_positions, train_len=train_len, base=base, scale=scale
        )
        exponent = math.log10(base)
        limits = {
            "base_exponent_min": min(3.0, math.floor(exponent)),
            "base_exponent_max": max(7.0, math.ceil(exponent)),
            "scale": max(8.0, scale),
        }
        labels = {
            "base": MESSAGES("slider_base", lang),
            "scale": MESSAGES("slider_scale", lang),
            "readout": template(MESSAGES, "angles_readout", lang),
            "title": template(PLOT_MESSAGES, "angles_title", lang),
            "train": template(PLOT_MESSAGES, "angles_train", lang),
            "xlabel": PLOT_MESSAGES("angles_pair", lang),
            "ylabel": PLOT_MESSAGES("angles_position", lang),
            "colorbar": PLOT_MESSAGES("angles_colour", lang),
        }
        super().__init__(
            lang,
            labels,
            head_dim=head_dim,
            num_positions=num_positions,
            train_len=train_len,
            base=base,
            scale=scale,
            limits=limits,
            colormap=colormap_hex(plots.figure.DIVERGING),
        )

    @property
    def angles(self) -> np.ndarray:
        """cos of the angles shown, ``(num_positions, head_dim/2)``, float64: positions divided by ``scale``."""
        return angle_table(self.head_dim, self.num_positions, self.base, self.scale)

    @property
    def new_pairs(self) -> int:
        """How many pairs reach angles that training never showed them: :func:`~course_lib.maths.new_angle_pairs`."""
        new = maths.new_angle_pairs(self.head_dim, self.num_positions, self.train_len, self.base, self.scale)
        return int(new.sum())

    def readout(self) -> str:
        """The readout under the sliders, as the browser writes it."""
        d, n, train_len, base, scale, lang = (
            self.head_dim,
            self.num_positions,
            self.train_len,
            self.base,
            self.scale,
            self.lang,
        )
        slowest = 2 * (d // 2 - 1) / d  # the exponent 2i/head_dim of the last pair
        return MESSAGES(
            "angles_readout",
            lang,
            last_train=train_len - 1,
            last=n - 1,
            scale=format_number(scale, "g", lang),
            base=format_number(base, ",.0f", lang),
            new=self.new_pairs,
            pairs=d // 2,
            slow_now=format_number((n - 1) / scale * base**-slowest, ".2g", lang),
            slow_train=format_number((train_len - 1) * 10000.0**-slowest, ".2g", lang),
        )


def rope_angles_explorer(
    head_dim: int = 64,
    num_positions: int = 2048,
    train_len: int = 512,
    base: float = 10000.0,
    scale: float = 1.0,
    lang: str | None = None,
) -> RopeAnglesExplorer:
    """cos of RoPE's angles at every position and pair, with sliders for ``base`` and position interpolation.

    Live in the browser. Sliders: ``base`` (on a log scale, 10^3 to 10^7) and ``scale``, the factor κ (1 to 8,
    in steps of 0.5). The static figure to show beside it is :func:`course_lib.plots.plot_rope_angles`.
    """
    return RopeAnglesExplorer(head_dim, num_positions, train_len, base, scale, lang)
