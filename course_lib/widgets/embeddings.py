"""The explorer of a sentence's vectors (lesson 3): token embeddings alone, or with the positions added."""

import ipywidgets as widgets
import numpy as np
import torch

from .. import plots, validate
from ..embedding import TransformerEmbedding
from ..i18n import resolve
from ..vocab import Vocab
from .base import DPI, FIGSIZE, SLIDER_STYLE, FigureWidget
from .messages import MESSAGES

__all__ = ["EmbeddingExplorer", "embedding_explorer"]


class EmbeddingExplorer(FigureWidget):
    """A sentence picker and a toggle over the heatmap of the sentence's vectors.

    Attributes: ``sentence`` (Dropdown; its value is the sentence's index), ``show``
    (ToggleButtons: ``"tokens"`` or ``"sum"``), ``image``, ``figure``, ``axes_image``,
    ``vocab``, ``model`` (the :class:`~course_lib.TransformerEmbedding`), and the
    ``tokens`` and ``vectors`` (seq, d_model) drawn now.
    """

    def __init__(self, sentences, d_model: int = 64, seed: int = 0, lang=None):
        self.lang = resolve(lang)
        d_model = validate.positive_int("d_model", d_model)
        if isinstance(sentences, str) or not isinstance(sentences, (list, tuple)) or not sentences:
            raise ValueError(MESSAGES("sentences_invalid", value=sentences))
        for s in sentences:
            if not isinstance(s, str) or not s.strip():
                raise ValueError(MESSAGES("sentences_invalid", value=s))
        self.sentences = list(sentences)
        self.vocab = Vocab.build(self.sentences)
        encoded = [self.vocab.encode(s) for s in self.sentences]
        max_len = max(len(e) for e in encoded)
        # the model's weights come from the seed alone; the caller's random state is untouched
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            self.model = TransformerEmbedding(len(self.vocab), d_model, max_len=max_len, dropout=0.0).eval()
        with torch.no_grad():
            self._views = {"tokens": [], "sum": []}
            for ids in encoded:
                ids = torch.tensor([ids])  # (1, seq)
                self._views["tokens"].append(self.model.token_embedding(ids)[0].numpy())  # (seq, d_model)
                self._views["sum"].append(self.model(ids)[0].numpy())  # (seq, d_model)
        self._tokens = [[self.vocab.itos[i] for i in ids] for ids in encoded]
        # one colour scale for every sentence and both views, so they compare by eye
        self.vmax = max(float(np.abs(v).max()) for views in self._views.values() for v in views)

        self.sentence = widgets.Dropdown(
            options=[(s, j) for j, s in enumerate(self.sentences)],
            value=0,
            description=MESSAGES("sentence", self.lang),
        )
        self.show = widgets.ToggleButtons(
            options=[
                (MESSAGES("show_tokens", self.lang), "tokens"),
                (MESSAGES("show_sum", self.lang), "sum"),
            ],
            value="tokens",
            description=MESSAGES("show", self.lang),
            style=SLIDER_STYLE,
        )
        self.tokens, self.vectors = self._tokens[0], self._views["tokens"][0]
        figure = plots.plot_embeddings(
            self.vectors,
            self.tokens,
            title=self._title(),
            lang=self.lang,
            vmax=self.vmax,
            figsize=(FIGSIZE[0], 1.2 + 0.25 * max(max_len, 4)),
            dpi=DPI,
        )
        self.axes_image = figure.axes[0].images[0]
        self.attach_figure(figure)
        self.sentence.observe(self._on_change, names="value")
        self.show.observe(self._on_change, names="value")
        super().__init__([self.sentence, self.show, self.image])

    def _title(self) -> str:
        return MESSAGES(
            "explorer_tokens_title" if self.show.value == "tokens" else "explorer_sum_title", self.lang
        )

    def _on_change(self, change) -> None:
        j = self.sentence.value
        self.tokens, self.vectors = self._tokens[j], self._views[self.show.value][j]
        seq, d = self.vectors.shape
        self.axes_image.set_data(self.vectors)
        self.axes_image.set_extent((-0.5, d - 0.5, seq - 0.5, -0.5))
        ax = self.axes_image.axes
        ax.set_yticks(range(seq), labels=self.tokens)
        ax.set_title(self._title())
        # other tokens, other label widths: only a new sentence moves the margins
        self.redraw(layout=change["owner"] is self.sentence)


def embedding_explorer(
    sentences, d_model: int = 64, seed: int = 0, lang: str | None = None
) -> EmbeddingExplorer:
    """An interactive heatmap of a sentence's vectors (lesson 3).

    The vocabulary is built from ``sentences`` with :class:`~course_lib.Vocab`, the
    vectors by a :class:`~course_lib.TransformerEmbedding` with ``dropout=0`` whose
    weights come from ``seed``. The toggle shows the scaled token embeddings alone or
    with the positional encoding added: the same word at two positions gets two rows
    that differ only by the positions. The static figure to show beside it is
    :func:`course_lib.plots.plot_embeddings`.
    """
    return EmbeddingExplorer(sentences, d_model, seed, lang)
