"""The explorer of the length experiment (lesson 7): accuracy at each position, over the first n of them.

In a causal model the prediction at position ``p`` depends on tokens ``0 .. p`` only, so the
first ``n`` positions of the longest test sequences *are* test sequences of length ``n``.
The explorer reads them from the results of :func:`course_lib.extrapolation.run`, with no
model run: a slider move only redraws.

    >>> from course_lib import extrapolation as ex
    >>> cfg = ex.Config(steps=1, train_len=8, test_len=16)
    >>> explorer = extrapolation_explorer(ex.run(cfg, variants=["learned", "none"]), cfg, lang="ru")
    >>> explorer.length.value = 12
    >>> explorer.length.description, sorted(explorer.accuracy)
    ('длина n', ['learned', 'none'])
"""

import html

import ipywidgets as widgets
import numpy as np

from .. import plots
from ..i18n import Messages, resolve
from ..plots.extrapolation import COLOURS, check_results, draw_training_range, variant_label
from .base import DPI, FIGSIZE, FigureWidget, slider

__all__ = ["MESSAGES", "percent", "ExtrapolationExplorer", "extrapolation_explorer"]

MESSAGES = Messages(
    "extrapolation_widget",
    {
        "slider_length": {"en": "length n", "ru": "длина n"},
        "title": {
            "en": "Accuracy at each position of sequences of n = {n} tokens\n"
            "dashed: the accuracy over the whole sequence",
            "ru": "Точность на каждой позиции последовательностей из n = {n} токенов\n"
            "пунктир — точность по всей последовательности",
        },
        "readout": {
            "en": "{variant}: {total} % right over the n = {n} tokens; {seen} % on positions "
            "below {train_len}; beyond: {unseen}",
            "ru": "{variant}: {total} % верных ответов на n = {n} токенах; {seen} % на позициях "
            "до {train_len}; дальше: {unseen}",
        },
        "no_unseen": {"en": "no positions", "ru": "позиций нет"},
        "not_causal": {
            "en": "the explorer reads shorter sequences as the first tokens of the longest ones, which "
            "holds for a causal model only: run the experiment with Config(causal=True)",
            "ru": "виджет считает короткие последовательности началами самых длинных, а это верно "
            "только для причинной (causal) модели: запустите эксперимент с Config(causal=True)",
        },
    },
)


def percent(hits) -> int:
    """The share of right answers in ``hits`` (NaN: no target), in whole percent."""
    return round(100 * hits.nanmean().item())


class ExtrapolationExplorer(FigureWidget):
    """A checkbox per variant and a slider for the test length ``n`` over the accuracy at each position.

    Attributes: ``checks`` ({variant: Checkbox}), ``length`` (IntSlider), ``readout``
    (HTML), ``image``, ``figure``, ``lines`` and ``means`` ({variant: Line2D}: the curve
    and the dashed mean), and ``accuracy``, {variant: accuracy over the first ``n``
    positions} for the variants shown now.
    """

    def __init__(self, results, cfg, length: int | None = None, lang=None):
        self.lang = resolve(lang)
        self.results = check_results(results)
        if not cfg.causal:
            raise ValueError(MESSAGES("not_causal"))
        self.cfg = cfg
        self.checks = {
            v: widgets.Checkbox(value=True, description=variant_label(v, self.lang), indent=False)
            for v in self.results
        }
        self.length = slider(
            widgets.IntSlider,
            value=cfg.test_len if length is None else length,
            min=2,
            max=cfg.test_len,
            description=MESSAGES("slider_length", self.lang),
        )
        self.readout = widgets.HTML()
        figure = plots.new_figure(FIGSIZE, DPI, self.lang)
        ax = figure.add_subplot()
        draw_training_range(ax, cfg, self.lang)
        self.lines, self.means = {}, {}
        for v in self.results:
            (self.lines[v],) = ax.plot([], [], color=COLOURS[v], label=variant_label(v, self.lang))
            (self.means[v],) = ax.plot([], [], color=COLOURS[v], ls="--", lw=1)
        ax.set_xlim(0, cfg.test_len)
        ax.set(
            xlabel=plots.MESSAGES("positions", self.lang),
            ylabel=plots.extrapolation.MESSAGES("accuracy", self.lang),
        )
        handles = [self.lines[v] for v in self.results]
        figure.legend(handles=handles, loc="outside lower center", ncols=len(handles), fontsize="small")
        self.ax = ax
        self._update()
        self.attach_figure(figure)
        for control in (self.length, *self.checks.values()):
            control.observe(self._on_change, names="value")
        super().__init__([widgets.HBox(list(self.checks.values())), self.length, self.readout, self.image])

    def _update(self) -> None:
        n, L = self.length.value, self.cfg.train_len
        positions = np.arange(n)
        self.accuracy, lines = {}, []
        for v, r in self.results.items():
            shown = self.checks[v].value
            hits = r.hits[:, :n]  # (n_seqs, n): the sequences of length n
            by_position = hits.nanmean(dim=0).numpy()  # (n,)
            self.lines[v].set_data(positions, by_position)
            self.lines[v].set_visible(shown)
            total = hits.nanmean().item()
            self.means[v].set_data([0, n - 1], [total, total])
            self.means[v].set_visible(shown)
            if shown:
                self.accuracy[v] = total
                unseen = f"{percent(hits[:, L:])} %" if n > L else MESSAGES("no_unseen", self.lang)
                text = MESSAGES(
                    "readout",
                    self.lang,
                    variant=variant_label(v, self.lang),
                    total=percent(hits),
                    n=n,
                    seen=percent(hits[:, :L]),
                    train_len=L,
                    unseen=unseen,
                )
                lines.append(html.escape(text))
        self.ax.set_title(MESSAGES("title", self.lang, n=n), fontsize="medium")
        self.readout.value = "<br>".join(lines)

    def _on_change(self, _change=None) -> None:
        self._update()
        self.redraw()


def extrapolation_explorer(results, cfg, length: int | None = None, lang: str | None = None):
    """Accuracy at each position of test sequences of ``n`` tokens, ``n`` on a slider (lesson 7).

    A dashed line per variant marks its accuracy over the whole sequence: the number the
    left panel of :func:`course_lib.plots.plot_extrapolation` shows at length ``n``. Moving
    ``n`` past ``train_len`` shows how a cliff at one position becomes a slow decline of
    that average. The static figure to show beside it is ``plot_extrapolation``.
    """
    return ExtrapolationExplorer(results, cfg, length, lang)
