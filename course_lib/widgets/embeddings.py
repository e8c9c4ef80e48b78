"""The explorer of a sentence's vectors (lesson 3): token embeddings alone, or with the positions added.

A live explorer (:mod:`course_lib.widgets.live`): Python builds the vocabulary and a seeded
:class:`~course_lib.TransformerEmbedding` and sends its table's rows as a trait; the browser scales
them by √d_model, adds the positional encoding and draws (``js/embeddings.js``).

>>> explorer = embedding_explorer(["the cat sat on the mat", "a dog"], d_model=8, lang="ru")
>>> explorer.show = "sum"
>>> explorer.tokens[0], explorer.labels["show_sum"]
(['the', 'cat', 'sat', 'on', 'the', 'mat'], '+ позиционное кодирование')
"""

import math

import torch
import traitlets

from .. import plots, validate
from ..embedding import TransformerEmbedding, sinusoidal_table
from ..i18n import format_number, resolve
from ..vocab import Vocab
from .live import Choice, LiveExplorer, NonNegativeInt, PositiveInt, colormap_hex, computed, module, template
from .messages import MESSAGES

__all__ = ["EmbeddingExplorer", "embedding_explorer"]

SHOW = ("tokens", "sum")


def check_sentences(sentences) -> list[str]:
    """``sentences`` as a list, or a ValueError if it is not a non-empty list of non-empty strings."""
    if isinstance(sentences, str) or not isinstance(sentences, (list, tuple)) or not sentences:
        raise ValueError(MESSAGES("sentences_invalid", value=sentences))
    for s in sentences:
        if not isinstance(s, str) or not s.strip():
            raise ValueError(MESSAGES("sentences_invalid", value=s))
    return list(sentences)


class EmbeddingExplorer(LiveExplorer):
    """A sentence picker and a choice of view over the heatmap of the sentence's vectors.

    Traits: ``sentence`` (the index of the sentence shown), ``show`` (``"tokens"`` or ``"sum"``),
    ``sentences``, ``d_model`` and ``seed`` (a change rebuilds the model), and what Python sends
    the browser: ``weight`` (the token table, ``(vocab_size, d_model)``, unscaled), ``ids`` and
    ``tokens`` (one list per sentence). Also ``vocab`` and ``model`` (the
    :class:`~course_lib.TransformerEmbedding`); :attr:`vectors`, :attr:`vmax` and
    :meth:`readout` are what the browser shows, computed by course_lib.
    """

    _esm = module("embeddings", "frequencies", "sinusoidal", "axes", "heatmap", "choice")
    parameters = ("sentences", "d_model", "seed", "sentence", "show")
    sentences = traitlets.List(traitlets.Unicode()).tag(sync=True)
    d_model = PositiveInt(64, high=512)
    seed = NonNegativeInt(0, high=2**32 - 1)
    sentence = traitlets.Int(0).tag(sync=True)
    show = Choice("tokens", SHOW)
    weight = computed(traitlets.List())
    ids = traitlets.List().tag(sync=True)
    tokens = traitlets.List().tag(sync=True)
    #: the heatmap's colours: the static figure's diverging colormap, 256 x "rrggbb"
    colormap = traitlets.Unicode().tag(sync=True)

    def __init__(self, sentences, d_model: int = 64, seed: int = 0, lang=None):
        lang = resolve(lang)
        sentences = check_sentences(sentences)
        d_model, seed = self.checked(d_model=d_model, seed=seed)
        labels = {
            "sentence": MESSAGES("sentence", lang),
            "show": MESSAGES("show", lang),
            "show_tokens": MESSAGES("show_tokens", lang),
            "show_sum": MESSAGES("show_sum", lang),
            "title_tokens": MESSAGES("explorer_tokens_title", lang),
            "title_sum": MESSAGES("explorer_sum_title", lang),
            "readout": template(MESSAGES, "embedding_readout", lang),
            "repeat": template(MESSAGES, "embedding_repeat", lang),
            "no_repeat": MESSAGES("embedding_no_repeat", lang),
            "xlabel": plots.messages.MESSAGES("dimension", lang),
            "ylabel": plots.messages.MESSAGES("token", lang),
            "colorbar": plots.messages.MESSAGES("value", lang),
        }
        super().__init__(
            lang,
            labels,
            sentences=sentences,
            d_model=d_model,
            seed=seed,
            colormap=colormap_hex(plots.figure.DIVERGING),
        )
        self._build()

    @traitlets.validate("sentences")
    def _check_sentences(self, proposal):
        return check_sentences(proposal["value"])

    @traitlets.validate("sentence")
    def _check_sentence(self, proposal):
        value, count = proposal["value"], len(self.sentences)
        if not validate.is_integer(value) or not 0 <= value < count:
            raise ValueError(MESSAGES("sentence_range", value=value, count=count, last=count - 1))
        return int(value)

    @traitlets.observe("sentences", "d_model", "seed")
    def _rebuild(self, change):
        if change["old"] != change["new"] and self.ids:
            self._build()

    def _build(self) -> None:
        """The vocabulary, the model and what the browser draws from, for the parameters now."""
        self.vocab = Vocab.build(self.sentences)
        encoded = [self.vocab.encode(s) for s in self.sentences]
        # the model's weights come from the seed alone; the caller's random state is untouched
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(self.seed)
            self.model = TransformerEmbedding(
                len(self.vocab), self.d_model, max_len=max(map(len, encoded)), dropout=0.0
            ).eval()
        weight = self.model.token_embedding.embedding.weight.detach()  # (vocab_size, d_model), unscaled
        with self.hold_sync():
            if self.sentence >= len(self.sentences):
                self.sentence = 0
            # float32 values (the browser gets them rounded: computed)
            self.weight = weight.tolist()
            self.ids = encoded
            self.tokens = [[self.vocab.itos[i] for i in ids] for ids in encoded]

    def vectors_of(self, sentence: int, show: str) -> torch.Tensor:
        """The rows drawn for ``sentence`` in view ``show``, ``(seq, d_model)`` float64.

        ``weight[ids] · √d_model``, plus the sinusoidal table for ``"sum"``: what
        ``model.token_embedding`` and ``model`` compute in float32.
        """
        ids = torch.tensor(self.ids[sentence])  # (seq,)
        weight = self.model.token_embedding.embedding.weight.detach().double()  # (vocab_size, d_model)
        x = weight[ids] * math.sqrt(self.d_model)  # (seq, d_model)
        if show == "sum":
            x = x + sinusoidal_table(len(ids), self.d_model, dtype=torch.float64)
        return x

    @property
    def vectors(self) -> torch.Tensor:
        """The rows drawn now, ``(seq, d_model)`` float64."""
        return self.vectors_of(self.sentence, self.show)

    @property
    def vmax(self) -> float:
        """The colour scale, ``[-vmax, vmax]``: the largest |value| of every sentence in both views."""
        return max(
            self.vectors_of(j, show).abs().max().item() for j in range(len(self.sentences)) for show in SHOW
        )

    def readout(self) -> list[str]:
        """The readout's two lines, as the browser writes them."""
        x, words, lang = self.vectors, self.tokens[self.sentence], self.lang
        lines = [
            MESSAGES(
                "embedding_readout",
                lang,
                seq=len(words),
                d_model=self.d_model,
                rms=format_number(x.pow(2).mean().sqrt().item(), ".2f", lang),
            )
        ]
        repeats = [(words.index(w), j) for j, w in enumerate(words) if words.index(w) < j]
        if not repeats:
            return [*lines, MESSAGES("embedding_no_repeat", lang)]
        first, second = repeats[0]
        diff = (x[first] - x[second]).abs().max().item()
        return [
            *lines,
            MESSAGES(
                "embedding_repeat",
                lang,
                token=words[first],
                first=first,
                second=second,
                diff=format_number(diff, ".2f", lang),
            ),
        ]


def embedding_explorer(
    sentences, d_model: int = 64, seed: int = 0, lang: str | None = None
) -> EmbeddingExplorer:
    """An interactive heatmap of a sentence's vectors (lesson 3), live in the browser.

    The vocabulary is built from ``sentences`` with :class:`~course_lib.Vocab`, the
    vectors by a :class:`~course_lib.TransformerEmbedding` with ``dropout=0`` whose
    weights come from ``seed``. The choice shows the scaled token embeddings alone or
    with the positional encoding added: the same word at two positions gets two rows
    that differ only by the positions (the readout gives their largest difference). The
    static figure to show beside it is :func:`course_lib.plots.plot_embeddings`.
    """
    return EmbeddingExplorer(sentences, d_model, seed, lang)
