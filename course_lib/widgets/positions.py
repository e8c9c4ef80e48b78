"""The explorer of left padding (lesson 6): which row of the positional table each token of a text gets.

>>> explorer = left_padding_explorer(["the", "dog", "sat"], padding=2, lang="ru")
>>> explorer.same, explorer.positions.value
(False, 'default')
>>> explorer.positions.value = "mask"  # positions from the mask: the rows the text gets alone
>>> explorer.same, explorer.padding.description
(True, 'паддинг слева')
"""

import html

import ipywidgets as widgets

from .. import validate
from ..i18n import Messages, resolve
from ..plots import new_figure
from ..plots.positions import MESSAGES as PLOT_MESSAGES
from ..plots.positions import check_tokens, draw_left_padding
from .base import DPI, SLIDER_STYLE, FigureWidget, slider

__all__ = ["MESSAGES", "LeftPaddingExplorer", "left_padding_explorer"]

MESSAGES = Messages(
    "widgets_positions",
    {
        "padding": {"en": "padding on the left", "ru": "паддинг слева"},
        "positions": {"en": "positions", "ru": "позиции"},
        "default": {"en": "0 .. seq-1", "ru": "0 .. seq-1"},
        "mask": {"en": "from the mask", "ru": "из маски"},
    },
)


class LeftPaddingExplorer(FigureWidget):
    """A slider for the padding and a toggle for the positions over the rows a text receives.

    Attributes: ``padding`` (IntSlider), ``positions`` (ToggleButtons: ``"default"`` or
    ``"mask"``), ``readout`` (HTML), ``image``, ``figure`` (always of size ``figsize``), and
    ``same``: whether the text's tokens now get the rows they get alone.
    """

    def __init__(self, tokens, padding: int = 2, max_padding: int = 5, d_model: int = 8, lang=None):
        self.lang = resolve(lang)
        self.tokens = check_tokens(tokens)
        self.d_model = validate.positive_int("d_model", d_model)
        max_padding = validate.non_negative_int("max_padding", max_padding)
        padding = validate.non_negative_int("padding", padding)
        self.padding = slider(
            widgets.IntSlider,
            value=padding,
            min=0,
            max=max(max_padding, padding),
            description=MESSAGES("padding", self.lang),
        )
        self.positions = widgets.ToggleButtons(
            options=[(MESSAGES(mode, self.lang), mode) for mode in ("default", "mask")],
            value="default",
            description=MESSAGES("positions", self.lang),
            style=SLIDER_STYLE,
        )
        self.readout = widgets.HTML()
        # one size for every setting, with room for the longest text the slider makes
        self.figsize = (6.4, 1.4 + 0.3 * (len(self.tokens) + self.padding.max))
        self.attach_figure(self._draw())
        self.padding.observe(self._on_change, names="value")
        self.positions.observe(self._on_change, names="value")
        super().__init__([self.padding, self.positions, self.readout, self.image])

    def _draw(self):
        figure = new_figure(self.figsize, DPI, self.lang)
        _, _, self.same = draw_left_padding(
            figure, self.tokens, self.padding.value, self.positions.value, self.d_model, self.lang
        )
        self.readout.value = html.escape(PLOT_MESSAGES("same" if self.same else "differ", self.lang))
        return figure

    def _on_change(self, _change=None) -> None:
        # another number of rows and other labels: a new figure costs little at this size
        self.figure = self._draw()
        self.figure.set_layout_engine("none")
        self.redraw(layout=True)


def left_padding_explorer(
    tokens, padding: int = 2, max_padding: int = 5, d_model: int = 8, lang: str | None = None
) -> LeftPaddingExplorer:
    """Which row of the positional table each token of ``tokens`` gets once padded on the left (lesson 6).

    The slider puts 0 to ``max_padding`` tokens ``<pad>`` before the text; the toggle
    numbers the tokens ``0 .. seq-1`` or from the mask, ``(mask.cumsum(-1) - 1).clamp(min=0)``.
    The readout says whether the text gets the rows it gets alone. The static figure to
    show beside it is :func:`course_lib.plots.plot_left_padding`.
    """
    return LeftPaddingExplorer(tokens, padding, max_padding, d_model, lang)
