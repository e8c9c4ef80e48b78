"""The explorer of word order (lesson 4): how much positional encoding attention needs to tell two orders apart."""

import html

import ipywidgets as widgets
import torch

from .. import plots
from ..embedding import sinusoidal_table
from ..i18n import resolve
from ..vocab import tokenize
from .base import DPI, FIGSIZE, FigureWidget, slider
from .messages import MESSAGES

__all__ = ["PositionStrengthExplorer", "position_strength_explorer"]


class PositionStrengthExplorer(FigureWidget):
    """A slider for how much positional encoding is added, over two sentences' attention weights.

    Attributes: ``scale`` (FloatSlider), ``readout`` (HTML), ``image``, ``figure``,
    ``tokens`` (the two token lists), ``perm`` (tensor: ``tokens[1][i] == tokens[0][perm[i]]``),
    and for the scale shown now ``weights`` (the two ``(seq, seq)`` matrices) and ``gap``,
    the largest difference between the outputs of the second sentence and the reordered
    outputs of the first.
    """

    def __init__(self, attention, embed, first: str, second: str, scale: float = 0.0, lang=None):
        self.lang = resolve(lang)
        self.texts = (first, second)
        self.tokens = [tokenize(first), tokenize(second)]
        a, b = self.tokens
        if len(set(a)) != len(a) or sorted(a) != sorted(b):
            raise ValueError(MESSAGES("strength_not_permutation", first=first, second=second))
        self.perm = torch.tensor([a.index(token) for token in b])  # (seq,)
        self._attention = attention
        with torch.no_grad():
            self._inputs = [torch.as_tensor(embed(text)) for text in self.texts]  # (seq, d_model) each
        seq, d_model = self._inputs[0].shape
        self._table = sinusoidal_table(seq, d_model, dtype=self._inputs[0].dtype)  # (seq, d_model)
        self.scale = slider(
            widgets.FloatSlider,
            value=scale,
            min=0.0,
            max=1.0,
            step=0.05,
            description=MESSAGES("slider_pe_scale", self.lang),
        )
        self.readout = widgets.HTML()
        self._compute()
        figure = plots.new_figure((FIGSIZE[0], 3.4), DPI)
        self._draw(figure)
        self.attach_figure(figure)
        self.scale.observe(self._on_change, names="value")
        super().__init__([self.scale, self.readout, self.image])

    def _compute(self) -> None:
        s = self.scale.value
        with torch.no_grad():
            outs = [self._attention(x + s * self._table) for x in self._inputs]
        (out_a, w_a), (out_b, w_b) = outs
        self.weights = [w_a, w_b]
        self.gap = (out_b - out_a[self.perm]).abs().max().item()
        verdict = MESSAGES("strength_same" if self.gap < 1e-5 else "strength_differ", self.lang)
        first, second = self.texts
        text = MESSAGES("strength_readout", self.lang, scale=s, first=first, second=second, gap=self.gap)
        self.readout.value = f"{html.escape(text)}<br>{html.escape(verdict)}"

    def _draw(self, figure) -> None:
        plots.draw_attention(figure, [w.numpy() for w in self.weights], self.tokens, None, self.lang, ncols=2)
        figure.suptitle(MESSAGES("strength_title", self.lang, scale=self.scale.value))

    def _on_change(self, _change=None) -> None:
        self._compute()
        self.figure.clear()
        self._draw(self.figure)
        self.redraw(layout=True)


def position_strength_explorer(
    attention, embed, first: str, second: str, scale: float = 0.0, lang: str | None = None
) -> PositionStrengthExplorer:
    """How much positional encoding it takes for attention to tell two word orders apart (lesson 4).

    ``embed(text)`` gives the token vectors ``(seq, d_model)`` of a text, without positions;
    ``attention(x)`` returns ``(outputs, weights)`` for such an input. The slider sets ``s``
    in ``embed(text) + s · PE``, with ``PE`` the :func:`~course_lib.sinusoidal_table`. At
    ``s = 0`` the outputs of ``second`` (the tokens of ``first`` in another order) are
    those of ``first`` reordered; as ``s`` grows they move apart. The static figure to
    show beside it is :func:`course_lib.plots.plot_attention` at ``s = 0`` and ``s = 1``.
    """
    return PositionStrengthExplorer(attention, embed, first, second, scale, lang)
