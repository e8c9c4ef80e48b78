"""The explorer of word order (lesson 4): do the token vectors or the positions decide what attention looks at?

A live explorer (:mod:`course_lib.widgets.live`). The reader's ``attention`` and ``embed`` are Python
functions, which no browser can run: Python runs them at each of the slider's stops and sends the
token vectors and the attention weights as traits, and the browser computes the RMS and the two
effects of :func:`course_lib.plots.attention_balance` and draws (``js/attention.js``).
"""

import torch
import traitlets

from .. import plots
from ..i18n import format_number, resolve
from .live import Checked, LiveExplorer, colormap_hex, computed, module, template
from .messages import MESSAGES

__all__ = ["BalanceExplorer", "balance_explorer", "STOPS"]

#: the slider's stops: c from 0.01 to 100 on a log scale, in steps of 10^0.1
STOPS = tuple(10 ** (k / 10) for k in range(-20, 21))


def check_scale(value) -> float:
    """``value`` as a float if it is a number the slider can show, 0.01 to 100."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.01 <= value <= 100:
        raise ValueError(MESSAGES("balance_slider_range", value=value))
    return float(value)


class BalanceExplorer(LiveExplorer):
    """A slider for the factor ``c`` in ``c · tokens + PE``, over two sentences' attention weights.

    Traits: ``scale`` (the slider), ``first`` and ``second`` (the sentences, fixed), and what
    Python sends the browser: ``stops`` (the scales the slider takes), ``weights`` (both
    sentences' ``(seq, seq)`` weights at each stop), ``vectors`` (``embed`` of each sentence,
    ``(seq, d_model)``), ``tokens`` and ``perm``. Setting ``scale`` off the stops adds it as a
    stop (computed here, with the kernel). :attr:`balance` and :meth:`readout` are what the
    browser shows, computed by :func:`course_lib.plots.attention_balance`.
    """

    _esm = module("attention", "frequencies", "sinusoidal", "axes", "heatmap")
    parameters = ("first", "second", "scale")
    first = traitlets.Unicode().tag(sync=True)
    second = traitlets.Unicode().tag(sync=True)
    scale = Checked(1.0, check_scale, low=STOPS[0], high=STOPS[-1])
    stops = traitlets.List().tag(sync=True)
    weights = computed(traitlets.List())
    vectors = computed(traitlets.List())
    tokens = traitlets.List().tag(sync=True)
    perm = traitlets.List().tag(sync=True)
    #: the heatmaps' colours: the static figure's "Blues", 256 x "rrggbb"
    colormap = traitlets.Unicode().tag(sync=True)

    def __init__(self, attention, embed, first: str, second: str, scale: float = 1.0, lang=None):
        lang = resolve(lang)
        [scale] = self.checked(scale=scale)
        self._attention, self._embed, self._pair = attention, embed, (first, second)
        first_balance = plots.attention_balance(
            attention, embed, first, second, scale
        )  # checks the sentences
        labels = {
            "scale": MESSAGES("slider_token_scale", lang),
            "title": template(MESSAGES, "balance_title", lang),
            "rms": template(MESSAGES, "balance_rms", lang),
            "effects": template(MESSAGES, "balance_effects", lang),
            "xlabel": plots.messages.MESSAGES("attention_key", lang),
            "ylabel": plots.messages.MESSAGES("attention_query", lang),
            "colorbar": plots.messages.MESSAGES("attention_weight", lang),
        }
        stops = sorted({*STOPS, scale})
        with torch.no_grad():
            vectors = [torch.as_tensor(embed(text)).double().tolist() for text in (first, second)]
        super().__init__(
            lang,
            labels,
            first=first,
            second=second,
            vectors=vectors,
            tokens=[list(t) for t in first_balance.tokens],
            perm=first_balance.perm.tolist(),
            weights=[self._weights_at(c) for c in stops],
            stops=stops,
            scale=scale,
            colormap=colormap_hex("Blues"),
        )

    def _weights_at(self, scale: float) -> list:
        b = plots.attention_balance(self._attention, self._embed, *self._pair, scale)
        return [w.double().tolist() for w in b.weights]

    @traitlets.validate("first", "second")
    def _check_fixed(self, proposal):
        name, value = proposal["trait"].name, proposal["value"]
        if self._pair[name == "second"] != value:
            raise ValueError(MESSAGES("balance_fixed", name=name, value=value))
        return value

    @traitlets.observe("scale")
    def _add_stop(self, change):
        scale = change["new"]
        if self.stops and scale not in self.stops:
            stops = sorted([*self.stops, scale])
            weights = list(self.weights)
            weights.insert(stops.index(scale), self._weights_at(scale))
            with self.hold_sync():
                self.weights, self.stops = weights, stops

    @property
    def balance(self) -> plots.attention.Balance:
        """What the browser shows now: :func:`course_lib.plots.attention_balance` at ``scale``."""
        return plots.attention_balance(self._attention, self._embed, *self._pair, self.scale)

    def readout(self) -> list[str]:
        """The readout's two lines, as the browser writes them."""
        b, lang = self.balance, self.lang

        def number(x: float) -> str:
            return format_number(x, ".2f", lang)

        return [
            MESSAGES(
                "balance_rms",
                lang,
                scale=number(b.scale),
                tokens=number(b.token_rms),
                positions=number(b.position_rms),
                ratio=number(b.token_rms / b.position_rms),
            ),
            MESSAGES(
                "balance_effects", lang, positions=number(b.position_effect), words=number(b.word_effect)
            ),
        ]


def balance_explorer(
    attention, embed, first: str, second: str, scale: float = 1.0, lang: str | None = None
) -> BalanceExplorer:
    """Do the words or the positions decide what attention looks at? (lesson 4), live in the browser.

    ``embed(text)`` gives the token vectors ``(seq, d_model)`` of a text, without positions;
    ``attention(x)`` returns ``(outputs, weights)`` for such an input. The slider sets ``c``
    in ``c · embed(text) + PE`` (log scale, 0.01 to 100), with ``PE`` the
    :func:`~course_lib.sinusoidal_table`; the readout gives the RMS of both terms and the
    effects of :func:`~course_lib.plots.attention_balance`. With the vectors of
    :class:`~course_lib.TokenEmbedding`, ``c = 1`` is course_lib's initialisation and
    ``c = √d_model`` PyTorch's default N(0, 1) still multiplied by √d_model (N(0, 1) alone
    gives RMS 1, ``c = 1``). The static figure to show beside it is
    :func:`course_lib.plots.plot_balance`.
    """
    return BalanceExplorer(attention, embed, first, second, scale, lang)
