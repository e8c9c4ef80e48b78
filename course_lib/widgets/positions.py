"""The explorer of left padding (lesson 6): which row of the positional table each token of a text gets.

A live explorer (:mod:`course_lib.widgets.live`): the browser numbers the padded text and draws the
rows it receives (``js/positions.js``); Python holds the parameters as traits.

>>> explorer = left_padding_explorer(["the", "dog", "sat"], padding=2, lang="ru")
>>> explorer.same, explorer.positions
(False, 'default')
>>> explorer.positions = "mask"  # positions from the mask: the rows the text gets alone
>>> explorer.same, explorer.labels["padding"]
(True, 'паддинг слева')
"""

import torch
import traitlets

from .. import plots, validate
from ..embedding import sinusoidal_table
from ..i18n import resolve
from ..plots.positions import MESSAGES as PLOT_MESSAGES
from ..plots.positions import POSITION_MODES, check_tokens, left_padded_positions
from .live import Choice, LiveExplorer, NonNegativeInt, PositiveInt, colormap_hex, module, template
from .messages import POSITIONS as MESSAGES

__all__ = ["MESSAGES", "LeftPaddingExplorer", "left_padding_explorer"]


class LeftPaddingExplorer(LiveExplorer):
    """A slider for the padding and a choice of positions over the rows a text receives.

    Traits: ``padding`` (the slider, 0 to ``max_padding``), ``positions`` (``"default"`` or
    ``"mask"``), ``tokens``, ``max_padding`` and ``d_model`` (fixed). :attr:`rows`, :attr:`same`
    and :meth:`readout` are what the browser shows, computed by course_lib.
    """

    _esm = module("positions", "frequencies", "sinusoidal", "axes", "heatmap", "choice")
    parameters = ("tokens", "padding", "positions", "max_padding", "d_model")
    tokens = traitlets.List(traitlets.Unicode()).tag(sync=True)
    padding = traitlets.Int(2).tag(sync=True)
    positions = Choice("default", POSITION_MODES)
    max_padding = NonNegativeInt(5, high=32)
    d_model = PositiveInt(8, high=512)
    #: the heatmap's colours: the static figure's diverging colormap, 256 x "rrggbb"
    colormap = traitlets.Unicode().tag(sync=True)

    def __init__(self, tokens, padding: int = 2, max_padding: int = 5, d_model: int = 8, lang=None):
        lang = resolve(lang)
        tokens = check_tokens(tokens)
        d_model, max_padding = self.checked(d_model=d_model, max_padding=max_padding)
        padding = validate.non_negative_int("padding", padding)
        labels = {
            "padding": MESSAGES("padding", lang),
            "positions": MESSAGES("positions", lang),
            "mode_default": MESSAGES("default", lang),
            "mode_mask": MESSAGES("mask", lang),
            "readout": template(MESSAGES, "readout", lang),
            "same": PLOT_MESSAGES("same", lang),
            "differ": PLOT_MESSAGES("differ", lang),
            "default": template(PLOT_MESSAGES, "default", lang),
            "mask": template(PLOT_MESSAGES, "mask", lang),
            "xlabel": PLOT_MESSAGES("dimension", lang),
            "ylabel": PLOT_MESSAGES("token", lang),
            "colorbar": PLOT_MESSAGES("value", lang),
        }
        super().__init__(
            lang,
            labels,
            tokens=tokens,
            d_model=d_model,
            max_padding=max(max_padding, padding),
            padding=padding,
            colormap=colormap_hex(plots.figure.DIVERGING),
        )

    @traitlets.validate("padding")
    def _check_padding(self, proposal):
        value = proposal["value"]
        if not validate.is_integer(value) or not 0 <= value <= self.max_padding:
            raise ValueError(MESSAGES("padding_range", max_padding=self.max_padding, value=value))
        return int(value)

    @traitlets.validate("tokens")
    def _check_tokens(self, proposal):
        return check_tokens(proposal["value"])

    @traitlets.validate("max_padding")
    def _check_max_padding(self, proposal):
        value = proposal["value"]
        if value < self.padding:
            raise ValueError(MESSAGES("padding_range", max_padding=value, value=self.padding))
        return value

    @property
    def position_ids(self) -> torch.Tensor:
        """The positions of the pads and the text now, ``(padding + len(tokens),)`` int64."""
        return left_padded_positions(len(self.tokens), self.padding, self.positions)

    @property
    def rows(self) -> torch.Tensor:
        """The rows of the table the padded text receives, ``(padding + len(tokens), d_model)`` float64."""
        positions = self.position_ids
        return sinusoidal_table(int(positions.max()) + 1, self.d_model, dtype=torch.float64)[positions]

    @property
    def same(self) -> bool:
        """Whether the text's tokens now get the rows they get alone."""
        return bool((self.position_ids[self.padding :] == torch.arange(len(self.tokens))).all())

    def readout(self) -> str:
        """The readout under the controls, as the browser writes it."""
        return MESSAGES(
            "readout",
            self.lang,
            padding=self.padding,
            positions=", ".join(str(p) for p in self.position_ids[self.padding :].tolist()),
            verdict=PLOT_MESSAGES("same" if self.same else "differ", self.lang),
        )


def left_padding_explorer(
    tokens, padding: int = 2, max_padding: int = 5, d_model: int = 8, lang: str | None = None
) -> LeftPaddingExplorer:
    """Which row of the positional table each token of ``tokens`` gets once padded on the left (lesson 6).

    The slider puts 0 to ``max_padding`` tokens ``<pad>`` before the text; the choice
    numbers the tokens ``0 .. seq-1`` or from the mask, ``(mask.cumsum(-1) - 1).clamp(min=0)``.
    The readout gives the text's positions and says whether the text gets the rows it gets
    alone. Live in the browser, with no kernel. The static figure to show beside it is
    :func:`course_lib.plots.plot_left_padding`.
    """
    return LeftPaddingExplorer(tokens, padding, max_padding, d_model, lang)
