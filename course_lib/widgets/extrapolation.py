"""The explorer of the length experiment (lesson 7): accuracy at each position, over the first n of them.

In a causal model the prediction at position ``p`` depends on tokens ``0 .. p`` only, so the
first ``n`` positions of the longest test sequences *are* test sequences of length ``n``.
The explorer reads them from the results of :func:`course_lib.extrapolation.run`, with no
model run. A live explorer (:mod:`course_lib.widgets.live`): Python sends, per variant,
how many test sequences were right at each position (the ``data`` trait); the browser
(``js/extrapolation.js``) draws the curves and writes the readout as the slider moves.

    >>> from course_lib import extrapolation as ex
    >>> cfg = ex.Config(steps=1, train_len=8, test_len=16)
    >>> explorer = extrapolation_explorer(ex.run(cfg, variants=["learned", "none"]), cfg, lang="ru")
    >>> explorer.length = 12
    >>> explorer.labels["length"], sorted(explorer.accuracy)
    ('длина', ['learned', 'none'])
"""

import torch
import traitlets
from matplotlib.colors import to_hex

from .. import plots, validate
from ..i18n import resolve
from ..plots.extrapolation import COLOURS, check_results, variant_label
from .live import LiveExplorer, module, template
from .messages import EXTRAPOLATION as MESSAGES

__all__ = ["MESSAGES", "percent", "ExtrapolationExplorer", "extrapolation_explorer"]


def percent(hits) -> int:
    """The share of right answers in ``hits`` (NaN: no target), in whole percent, counted in float64."""
    return round(100 * hits.double().nanmean().item())


class ExtrapolationExplorer(LiveExplorer):
    """A checkbox per variant and a slider for the test length ``n`` over the accuracy at each position.

    Traits: ``length`` (the slider, 2 .. ``test_len``), ``shown`` (the variants ticked, in
    the order of the results) and ``data``: for each variant, its label, its colour and, at
    each position, how many test sequences have a target there (``targets``) and how many
    of those the model got right (``right``). :meth:`by_position`, :attr:`accuracy` and
    :meth:`readout` are what the browser shows, computed by course_lib from the results.
    """

    _esm = module("extrapolation", "axes")
    parameters = ("length", "shown")
    length = traitlets.Int(2).tag(sync=True)
    shown = traitlets.List(traitlets.Unicode()).tag(sync=True)
    data = traitlets.Dict().tag(sync=True)

    def __init__(self, results, cfg, length: int | None = None, lang=None):
        lang = resolve(lang)
        self.results = check_results(results)
        if not cfg.causal:
            raise ValueError(MESSAGES("not_causal", lang))
        self.cfg = cfg
        length = self._checked_length(cfg.test_len if length is None else length, lang)
        variants = []
        for v, r in self.results.items():
            known = ~r.hits.isnan()  # (n_seqs, test_len): the positions with a target
            variants.append(
                {
                    "name": v,
                    "label": variant_label(v, lang),
                    "colour": to_hex(COLOURS[v]),
                    "right": r.hits.nan_to_num(0).sum(0).long().tolist(),  # (test_len,)
                    "targets": known.sum(0).tolist(),  # (test_len,)
                }
            )
        data = {
            "train_len": cfg.train_len,
            "test_len": cfg.test_len,
            "chance": 1 / cfg.vocab_size,
            "variants": variants,
        }
        labels = {
            "length": MESSAGES("slider_length", lang),
            "variants": MESSAGES("variants", lang),
            "title": template(MESSAGES, "title", lang),
            "readout": template(MESSAGES, "readout", lang),
            "unseen_share": template(MESSAGES, "unseen_share", lang),
            "no_unseen": MESSAGES("no_unseen", lang),
            "no_target": MESSAGES("no_target", lang),
            "xlabel": plots.messages.MESSAGES("positions", lang),
            "ylabel": plots.extrapolation.MESSAGES("accuracy", lang),
            "unseen": plots.extrapolation.MESSAGES("unseen", lang),
            "chance": plots.extrapolation.MESSAGES("chance", lang),
        }
        super().__init__(lang, labels, data=data, length=length, shown=list(self.results))

    def _checked_length(self, value, lang=None) -> int:
        test_len = self.cfg.test_len
        if not validate.is_integer(value) or not 2 <= value <= test_len:
            raise ValueError(MESSAGES("length_range", lang, test_len=test_len, value=value))
        return int(value)

    @traitlets.validate("length")
    def _check_length(self, proposal):
        return self._checked_length(proposal["value"], self.lang)

    @traitlets.validate("shown")
    def _check_shown(self, proposal):
        allowed = tuple(self.results)
        ticked = {validate.choice("shown", v, allowed) for v in proposal["value"]}
        return [v for v in allowed if v in ticked]

    def by_position(self, variant: str) -> list[float]:
        """The accuracy at each of the first ``length`` positions (NaN where no sequence has a target)."""
        hits = self.results[variant].hits[:, : self.length].double()  # (n_seqs, n)
        return hits.nanmean(dim=0).tolist()

    @property
    def accuracy(self) -> dict[str, float]:
        """``{variant: accuracy over the first length positions}`` for the variants shown."""
        return {v: self.results[v].hits[:, : self.length].double().nanmean().item() for v in self.shown}

    def readout(self) -> list[str]:
        """The readout, a line per variant shown, as the browser writes it."""
        n, L, lang = self.length, self.cfg.train_len, self.lang

        def share(hits: torch.Tensor) -> str:
            if hits.isnan().all():
                return MESSAGES("no_target", lang)
            return str(percent(hits))

        lines = []
        for v in self.shown:
            hits = self.results[v].hits[:, :n]  # (n_seqs, n): the sequences of length n
            unseen = (
                MESSAGES("unseen_share", lang, share=share(hits[:, L:]))
                if n > L
                else MESSAGES("no_unseen", lang)
            )
            lines.append(
                MESSAGES(
                    "readout",
                    lang,
                    variant=variant_label(v, lang),
                    total=share(hits),
                    n=n,
                    seen=share(hits[:, :L]),
                    train_len=L,
                    unseen=unseen,
                )
            )
        return lines


def extrapolation_explorer(results, cfg, length: int | None = None, lang: str | None = None):
    """Accuracy at each position of test sequences of ``n`` tokens, ``n`` on a slider (lesson 7).

    A dashed line per variant marks its accuracy over the whole sequence: the number the
    left panel of :func:`course_lib.plots.plot_extrapolation` shows at length ``n``. Moving
    ``n`` past ``train_len`` shows how a cliff at one position becomes a slow decline of
    that average. The static figure to show beside it is ``plot_extrapolation``.
    """
    return ExtrapolationExplorer(results, cfg, length, lang)
