"""Explorers of the sinusoidal table (lesson 5): its heatmap under sliders, and one pair turning on a circle.

>>> explorer = rotation_explorer(d_model=8, pos=2, k=1, i=1, lang="ru")
>>> explorer.k.value = 5  # the readout checks the rotation on the table itself
>>> explorer.k.description, explorer.error < 1e-12
('сдвиг k', True)
"""

import html
import math

import ipywidgets as widgets
import torch

from .. import plots, validate
from ..embedding import sinusoidal_table
from ..i18n import resolve
from .base import DPI, FIGSIZE, FigureWidget, format_length, format_number, one_thread, slider
from .messages import MESSAGES

__all__ = ["TableExplorer", "table_explorer", "RotationExplorer", "rotation_explorer"]


class TableExplorer(FigureWidget):
    """Sliders for ``d_model``, the number of positions and ``base`` over a heatmap of the table.

    Attributes: ``d_model``, ``num_positions`` (IntSlider), ``base`` (FloatLogSlider),
    ``readout`` (HTML), ``image`` (Image, PNG bytes), ``figure``, ``axes_image`` (the
    heatmap's AxesImage) and ``table``, the tensor drawn now.
    """

    def __init__(self, d_model: int = 128, num_positions: int = 256, base: float = 10000.0, lang=None):
        self.lang = resolve(lang)
        d_model = validate.positive_int("d_model", d_model)
        num_positions = validate.positive_int("num_positions", num_positions)
        base = validate.base(base)
        self.d_model = slider(
            widgets.IntSlider,
            value=d_model,
            min=1,
            max=max(512, d_model),
            description="d_model",
        )
        self.num_positions = slider(
            widgets.IntSlider,
            value=num_positions,
            min=1,
            max=max(1024, num_positions),
            description=MESSAGES("slider_positions", self.lang),
        )
        exponent = math.log10(base)
        self.base = slider(
            widgets.FloatLogSlider,
            value=base,
            base=10,
            min=min(1.0, math.floor(exponent)),
            max=max(6.0, math.ceil(exponent)),
            step=0.05,
            readout_format=".0f",
            description=MESSAGES("slider_base", self.lang),
        )
        self.readout = widgets.HTML()
        self.table = sinusoidal_table(num_positions, d_model, base)  # (num_positions, d_model)
        figure = plots.plot_table(self.table, lang=self.lang, figsize=FIGSIZE, dpi=DPI)
        self.axes_image = figure.axes[0].images[0]
        self._label_width = len(str(num_positions - 1))
        self.attach_figure(figure)
        self._update_readout()
        for s in (self.d_model, self.num_positions, self.base):
            s.observe(self._on_change, names="value")
        super().__init__([self.d_model, self.num_positions, self.base, self.readout, self.image])

    def _on_change(self, _change=None) -> None:
        n, d, base = self.num_positions.value, self.d_model.value, self.base.value
        with one_thread():
            self.table = sinusoidal_table(n, d, base)  # (n, d)
        self.axes_image.set_data(self.table.numpy())
        # the same pixel-centred extent imshow gives a new image, row 0 on top
        self.axes_image.set_extent((-0.5, d - 0.5, n - 0.5, -0.5))
        self.axes_image.set_clim(-1.0, 1.0)
        self.axes_image.axes.set_title(plots.MESSAGES("table_title", self.lang, num_positions=n, d_model=d))
        self._update_readout()
        # wider position numbers on the y axis need a wider margin
        width = len(str(n - 1))
        self.redraw(layout=width != self._label_width)
        self._label_width = width

    def _update_readout(self) -> None:
        n, d, base = self.num_positions.value, self.d_model.value, self.base.value
        last_i = (d - 1) // 2  # the last sine/cosine pair, a lone sine when d is odd
        slow = plots.slow_columns(n, d, base)
        lines = [
            MESSAGES(
                "table_readout",
                self.lang,
                d_model=d,
                num_positions=n,
                base=format_length(base, self.lang),
                shortest=format_length(plots.wavelength(0, d, base), self.lang),
                longest=format_length(plots.wavelength(last_i, d, base), self.lang),
                last_i=last_i,
            ),
            MESSAGES(
                "table_slow", self.lang, slow=slow, d_model=d, percent=round(100 * slow / d), num_positions=n
            ),
        ]
        self.readout.value = "<br>".join(html.escape(line) for line in lines)


def table_explorer(
    d_model: int = 128, num_positions: int = 256, base: float = 10000.0, lang: str | None = None
) -> TableExplorer:
    """An interactive heatmap of :func:`~course_lib.sinusoidal_table` (lesson 5).

    Sliders: ``d_model`` (1 to 512), number of positions (1 to 1024) and ``base`` (on a
    log scale, 10 to 10^6). Under them, the wavelengths, the share of slow columns (those
    whose wavelength is longer than the positions shown: :func:`~course_lib.plots.slow_columns`)
    and the heatmap,
    drawn by :func:`course_lib.plots.plot_table`. The static figure to show beside it is
    ``plot_table(sinusoidal_table(num_positions, d_model, base))``.
    """
    return TableExplorer(d_model, num_positions, base, lang)


class RotationExplorer(FigureWidget):
    """Sliders for ``pos``, the offset ``k`` and the pair ``i`` over :func:`~course_lib.plots.plot_rotation`.

    Attributes: ``pos``, ``k``, ``i`` (IntSlider), ``readout`` (HTML: the angle and the
    check that rotating ``PE[pos]`` gives ``PE[pos + k]``), ``image``, ``figure``, and
    ``error``, the largest difference of that check.
    """

    def __init__(
        self, d_model: int = 16, base: float = 10000.0, pos: int = 3, k: int = 2, i: int = 0, lang=None
    ):
        self.lang = resolve(lang)
        self.d_model_value = validate.positive_int("d_model", d_model)
        self.base_value = validate.base(base)
        figure = plots.plot_rotation(pos, k, i, d_model, base, lang=self.lang, figsize=FIGSIZE, dpi=DPI)
        self.pos = slider(
            widgets.IntSlider,
            value=pos,
            min=0,
            max=max(100, pos),
            description=MESSAGES("slider_pos", self.lang),
        )
        self.k = slider(
            widgets.IntSlider,
            value=k,
            min=0,
            max=max(50, k),
            description=plots.MESSAGES("offset", self.lang),
        )
        self.i = slider(
            widgets.IntSlider,
            value=i,
            min=0,
            max=self.d_model_value // 2 - 1,
            description=MESSAGES("slider_pair", self.lang),
        )
        self.readout = widgets.HTML()
        self.attach_figure(figure)
        self._update_readout()
        for s in (self.pos, self.k, self.i):
            s.observe(self._on_change, names="value")
        super().__init__([self.pos, self.k, self.i, self.readout, self.image])

    def _on_change(self, _change=None) -> None:
        self.figure.clear()
        plots.draw_rotation(
            self.figure,
            self.pos.value,
            self.k.value,
            self.i.value,
            self.d_model_value,
            self.base_value,
            self.lang,
        )
        self._update_readout()
        self.redraw(layout=True)

    def _update_readout(self) -> None:
        pos, k, i, d = self.pos.value, self.k.value, self.i.value, self.d_model_value
        table = sinusoidal_table(pos + k + 1, d, self.base_value, dtype=torch.float64)  # (pos + k + 1, d)
        omega = self.base_value ** (-2 * i / d)
        angle = k * omega
        c, s = math.cos(angle), math.sin(angle)
        rotation = torch.tensor([[c, s], [-s, c]], dtype=torch.float64)
        pair_at = table[pos, 2 * i : 2 * i + 2]  # (sin, cos) at pos
        pair_later = table[pos + k, 2 * i : 2 * i + 2]  # (sin, cos) at pos + k
        self.error = (rotation @ pair_at - pair_later).abs().max().item()
        self.readout.value = html.escape(
            MESSAGES(
                "rotation_readout",
                self.lang,
                omega=format_number(omega, ".4g", self.lang),
                angle=format_number(angle, ".4f", self.lang),
                pos=pos,
                pos_k=pos + k,
                err=format_number(self.error, ".1e", self.lang),
            )
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
