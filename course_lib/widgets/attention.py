"""The explorer of word order (lesson 4): do the token vectors or the positions decide what attention looks at?"""

import html

import ipywidgets as widgets

from .. import plots
from ..i18n import resolve
from .base import DPI, FIGSIZE, FigureWidget, format_number, slider
from .messages import MESSAGES

__all__ = ["BalanceExplorer", "balance_explorer"]


class BalanceExplorer(FigureWidget):
    """A slider for the factor ``c`` in ``c · tokens + PE``, over two sentences' attention weights.

    Attributes: ``scale`` (FloatLogSlider), ``readout`` (HTML), ``image``, ``figure``, and
    ``balance``, the :class:`~course_lib.plots.Balance` shown now (its weights, the RMS of
    both terms and the effects of the positions and of the words).
    """

    def __init__(self, attention, embed, first: str, second: str, scale: float = 1.0, lang=None):
        self.lang = resolve(lang)
        self._args = (attention, embed, first, second)
        self.balance = plots.attention_balance(*self._args, scale)  # checks the sentences and the scale
        self.scale = slider(
            widgets.FloatLogSlider,
            value=scale,
            base=10,
            min=-2.0,
            max=2.0,
            step=0.1,
            readout_format=".2f",
            description=MESSAGES("slider_token_scale", self.lang),
        )
        self.readout = widgets.HTML()
        figure = plots.new_figure((FIGSIZE[0], 3.4), DPI, self.lang)
        self._draw(figure)
        self.attach_figure(figure)
        self._update_readout()
        self.scale.observe(self._on_change, names="value")
        super().__init__([self.scale, self.readout, self.image])

    def _draw(self, figure) -> None:
        b = self.balance
        weights = [w.numpy() for w in b.weights]
        self._images = plots.draw_attention(figure, weights, list(b.tokens), None, self.lang, ncols=2)
        figure.suptitle(self._title())

    def _update_figure(self) -> None:
        """The new weights into the existing heatmaps and their numbers: no new axes, no new layout."""
        b = self.balance
        for image, w in zip(self._images, b.weights, strict=True):
            w = w.numpy()
            image.set_data(w)
            # draw_attention writes each weight in its cell, row by row, white on dark cells
            for text, value in zip(image.axes.texts, w.flatten().tolist(), strict=True):
                text.set_text(format_number(value, ".2f", self.lang))
                text.set_color("white" if value > 0.6 else "black")
        self.figure.suptitle(self._title())

    def _title(self) -> str:
        return MESSAGES("balance_title", self.lang, scale=format_number(self.balance.scale, ".2f", self.lang))

    def _update_readout(self) -> None:
        b = self.balance

        def number(x: float) -> str:
            return format_number(x, ".2f", self.lang)

        lines = [
            MESSAGES(
                "balance_rms",
                self.lang,
                scale=number(b.scale),
                tokens=number(b.token_rms),
                positions=number(b.position_rms),
                ratio=number(b.token_rms / b.position_rms),
            ),
            MESSAGES(
                "balance_effects",
                self.lang,
                positions=number(b.position_effect),
                words=number(b.word_effect),
            ),
        ]
        self.readout.value = "<br>".join(html.escape(line) for line in lines)

    def _on_change(self, _change=None) -> None:
        self.balance = plots.attention_balance(*self._args, float(self.scale.value))
        self._update_readout()
        self._update_figure()
        self.redraw()


def balance_explorer(
    attention, embed, first: str, second: str, scale: float = 1.0, lang: str | None = None
) -> BalanceExplorer:
    """Do the words or the positions decide what attention looks at? (lesson 4)

    ``embed(text)`` gives the token vectors ``(seq, d_model)`` of a text, without positions;
    ``attention(x)`` returns ``(outputs, weights)`` for such an input. The slider sets ``c``
    in ``c · embed(text) + PE`` (log scale, 0.01 to 100), with ``PE`` the
    :func:`~course_lib.sinusoidal_table`; the readout gives the RMS of both terms and the
    effects of :func:`~course_lib.plots.attention_balance`. With the vectors of
    :class:`~course_lib.TokenEmbedding`, ``c = 1`` is course_lib's initialisation and
    ``c = √d_model`` PyTorch's default N(0, 1). The static figure to show beside it is
    :func:`course_lib.plots.plot_balance`.
    """
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 0.01 <= scale <= 100:
        raise ValueError(MESSAGES("balance_slider_range", value=scale))
    return BalanceExplorer(attention, embed, first, second, scale, lang)
