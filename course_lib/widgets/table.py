"""Explorers of the sinusoidal table (lesson 5): its heatmap under sliders, and one pair turning on a circle.

>>> explorer = rotation_explorer(d_model=8, pos=2, k=1, i=1, lang="ru")
>>> explorer.k = 5  # the readout checks the rotation on the table itself
>>> explorer.labels["k"], explorer.error < 1e-12
('сдвиг k', True)
"""

import math

import torch
import traitlets

from .. import maths, plots, validate
from ..embedding import sinusoidal_table
from ..i18n import format_number, resolve
from ..plots.table import check_table_pair
from .live import (
    Checked,
    LiveExplorer,
    NonNegativeInt,
    PositiveInt,
    colormap_hex,
    format_length,
    module,
    template,
)
from .messages import MESSAGES

__all__ = ["TableExplorer", "table_explorer", "RotationExplorer", "rotation_explorer", "error_text"]


def error_text(error: float, lang: str | None = None) -> str:
    """The rotation check's largest difference: 0 when exact (not 0.0e+00, «0,0·10⁰»), else 2.2e-16 as the language writes it."""
    return "0" if error == 0 else format_number(error, ".1e", lang)


class TableExplorer(LiveExplorer):
    """The sinusoidal table as a heatmap under sliders for ``d_model``, the positions and ``base``.

    A live explorer (:mod:`course_lib.widgets.live`): the browser computes the table and draws
    it (``js/table.js``); Python holds the parameters as traits, ``d_model``, ``num_positions``
    and ``base``, which a notebook sets and reads. :attr:`table` and :meth:`readout` are what
    the browser shows, computed by course_lib: the reference the browser test compares with.
    """

    _esm = module("table", "frequencies", "axes", "heatmap")
    parameters = ("d_model", "num_positions", "base")
    # the sliders' ranges: a table of at most 1024 x 512 is computed and drawn within a frame
    d_model = PositiveInt(128, high=512)
    num_positions = PositiveInt(256, high=1024)
    base = Checked(10000.0, validate.base, low=10.0, high=1e6)
    #: the sliders' ends: d_model and positions from 1, base on a log scale (exponents of 10)
    limits = traitlets.Dict().tag(sync=True)
    #: the heatmap's colours: matplotlib's diverging colormap of the static figure, 256 x "rrggbb"
    colormap = traitlets.Unicode().tag(sync=True)

    def __init__(self, d_model: int = 128, num_positions: int = 256, base: float = 10000.0, lang=None):
        lang = resolve(lang)
        d_model, num_positions, base = self.checked(d_model=d_model, num_positions=num_positions, base=base)
        traits = self.class_traits()
        limits = {
            "d_model": traits["d_model"].high,
            "num_positions": traits["num_positions"].high,
            "base_exponent_min": math.log10(traits["base"].low),
            "base_exponent_max": math.log10(traits["base"].high),
        }
        labels = {
            "d_model": "d_model",
            "num_positions": MESSAGES("slider_positions", lang),
            "base": MESSAGES("slider_base", lang),
            "readout": template(MESSAGES, "table_readout", lang),
            "slow": template(MESSAGES, "table_slow", lang),
            "title": template(plots.messages.MESSAGES, "table_title", lang),
            "xlabel": plots.messages.MESSAGES("dimension", lang),
            "ylabel": plots.messages.MESSAGES("positions", lang),
            "colorbar": plots.messages.MESSAGES("value", lang),
        }
        super().__init__(
            lang,
            labels,
            d_model=d_model,
            num_positions=num_positions,
            base=base,
            limits=limits,
            colormap=colormap_hex(plots.figure.DIVERGING),
        )

    @property
    def table(self) -> torch.Tensor:
        """The table shown now, ``(num_positions, d_model)``, float64: :func:`~course_lib.sinusoidal_table`."""
        return sinusoidal_table(self.num_positions, self.d_model, self.base, dtype=torch.float64)

    def readout(self) -> list[str]:
        """The readout's two lines under the sliders, as the browser writes them."""
        n, d, base, lang = self.num_positions, self.d_model, self.base, self.lang
        last_i = (d - 1) // 2  # the last sine/cosine pair, a lone sine when d is odd
        slow = maths.slow_columns(n, d, base)
        return [
            MESSAGES(
                "table_readout",
                lang,
                d_model=d,
                num_positions=n,
                base=format_length(base, lang),
                shortest=format_length(maths.wavelength(0, d, base), lang),
                longest=format_length(maths.wavelength(last_i, d, base), lang),
                last_i=last_i,
            ),
            MESSAGES(
                "table_slow", lang, slow=slow, d_model=d, percent=round(100 * slow / d), num_positions=n
            ),
        ]


def table_explorer(
    d_model: int = 128, num_positions: int = 256, base: float = 10000.0, lang: str | None = None
) -> TableExplorer:
    """An interactive heatmap of :func:`~course_lib.sinusoidal_table` (lesson 5), live in the browser.

    Sliders: ``d_model`` (1 to 512), number of positions (1 to 1024) and ``base`` (on a
    log scale, 10 to 10^6); a value outside them is refused. Under them, the wavelengths, the share of slow columns (those
    whose wavelength is longer than the positions shown: :func:`~course_lib.maths.slow_columns`)
    and the heatmap, coloured as :func:`course_lib.plots.plot_table` colours it. The static
    figure to show beside it is ``plot_table(sinusoidal_table(num_positions, d_model, base))``.
    """
    return TableExplorer(d_model, num_positions, base, lang)


class RotationExplorer(LiveExplorer):
    """Sliders for ``pos``, the offset ``k`` and the pair ``i`` over the pair's point on the unit circle.

    A live explorer (:mod:`course_lib.widgets.live`): the browser draws what
    :func:`~course_lib.plots.plot_rotation` draws (``js/rotation.js``) and checks, in the
    readout, that turning the pair of ``P[pos]`` by ``k·ω`` gives the pair of ``P[pos + k]``.
    Traits: ``pos``, ``k``, ``i`` (the sliders), ``d_model`` and ``base`` (fixed).
    :meth:`readout` and :attr:`error` are that check computed by course_lib, on the table itself.
    """

    _esm = module("rotation", "frequencies", "axes", "plane")
    parameters = ("pos", "k", "i", "d_model", "base")
    # the sliders' ranges (i: the pairs of d_model, checked below), and the table's
    pos = NonNegativeInt(3, high=100)
    k = NonNegativeInt(2, high=50)
    i = traitlets.Int(0).tag(sync=True)
    d_model = PositiveInt(16, low=2, high=512)
    base = Checked(10000.0, validate.base, low=10.0, high=1e6)
    #: the sliders' largest values
    limits = traitlets.Dict().tag(sync=True)

    def __init__(
        self, d_model: int = 16, base: float = 10000.0, pos: int = 3, k: int = 2, i: int = 0, lang=None
    ):
        lang = resolve(lang)
        d_model, base, pos, k = self.checked(d_model=d_model, base=base, pos=pos, k=k)
        i = check_table_pair(i, d_model, lang)
        labels = {
            "pos": MESSAGES("slider_pos", lang),
            "k": plots.messages.MESSAGES("offset", lang),
            "i": MESSAGES("slider_pair", lang),
            "readout": template(MESSAGES, "rotation_readout", lang),
            "title": template(plots.messages.MESSAGES, "rotation_title", lang),
            "at_pos": template(plots.messages.MESSAGES, "rotation_at_pos", lang),
            "at_pos_k": template(plots.messages.MESSAGES, "rotation_at_pos_k", lang),
            "matrix": plots.messages.MESSAGES("rotation_matrix", lang),
        }
        traits = self.class_traits()
        limits = {"pos": traits["pos"].high, "k": traits["k"].high, "i": d_model // 2 - 1}
        super().__init__(lang, labels, d_model=d_model, base=base, pos=pos, k=k, i=i, limits=limits)

    @traitlets.validate("i")
    def _check_pair(self, proposal):
        return check_table_pair(proposal["value"], self.d_model)

    @property
    def error(self) -> float:
        """The largest difference between ``R(k·ω) @ P[pos]`` and ``P[pos + k]`` on the pair ``i``, in float64."""
        pos, k, i, d = self.pos, self.k, self.i, self.d_model
        table = sinusoidal_table(pos + k + 1, d, self.base, dtype=torch.float64)  # (pos + k + 1, d)
        angle = k * self.base ** (-2 * i / d)
        c, s = math.cos(angle), math.sin(angle)
        rotation = torch.tensor([[c, s], [-s, c]], dtype=torch.float64)
        pair_at = table[pos, 2 * i : 2 * i + 2]  # (sin, cos) at pos
        pair_later = table[pos + k, 2 * i : 2 * i + 2]  # (sin, cos) at pos + k
        return (rotation @ pair_at - pair_later).abs().max().item()

    def readout(self) -> str:
        """The readout under the sliders, as the browser writes it (its last digits, the error, may differ)."""
        omega = self.base ** (-2 * self.i / self.d_model)
        return MESSAGES(
            "rotation_readout",
            self.lang,
            omega=format_number(omega, ".4g", self.lang),
            angle=format_number(self.k * omega, ".4f", self.lang),
            pos=self.pos,
            pos_k=self.pos + self.k,
            err=error_text(self.error, self.lang),
        )


def rotation_explorer(
    d_model: int = 16, base: float = 10000.0, pos: int = 3, k: int = 2, i: int = 0, lang: str | None = None
) -> RotationExplorer:
    """The pair of columns ``(2i, 2i + 1)`` turning on the unit circle as the offset ``k`` grows (lesson 5).

    Whatever ``pos`` is, moving ``k`` positions turns the pair by the same angle
    ``k · base^(-2i/d_model)``: the readout checks it on the table itself. The static
    figure to show beside it is :func:`course_lib.plots.plot_rotation`.
    """
    return RotationExplorer(d_model, base, pos, k, i, lang)
