"""The vocabulary explorer (lesson 1): type a sentence, see its tokens, their IDs and what the IDs decode to.

With a vocabulary made by ``Vocab.build`` (which keeps the word counts), a ``min_freq``
slider keeps only the words seen at least that many times, and with ``heldout`` texts a
readout says how much of a text the vocabulary has never seen becomes ``<unk>``: the
smaller the vocabulary, the more it loses. The table is :class:`course_lib.plots.WordTable`,
the widget's static twin.
"""

import html
from collections.abc import Sequence

import ipywidgets as widgets

from ..i18n import Messages, format_decimal, resolve
from ..plots.vocab import WordTable, check_vocab
from ..vocab import Vocab, tokenize
from .base import slider

__all__ = ["MESSAGES", "VocabExplorer", "vocab_explorer"]

MESSAGES = Messages(
    "widgets_vocab",
    {
        "text": {"en": "text", "ru": "текст"},
        "min_freq": {"en": "min_freq", "ru": "минимальная частота min_freq"},
        "readout": {
            "en": "Vocabulary with min_freq = {min_freq}: {size} tokens. "
            "The held-out text: {unknown} of its {n} tokens are <unk>, {share} %.",
            "ru": "Словарь при min_freq = {min_freq}, токенов в нём: {size}. "
            "Отложенный текст: токенов {n}, из них <unk> — {unknown}, {share} %.",
        },
        "not_texts": {
            "en": "heldout must be a list of strings, got {type_name}",
            "ru": "heldout должен быть списком строк, а получен {type_name}",
        },
    },
)

#: the largest min_freq the slider offers
MAX_MIN_FREQ = 10


class VocabExplorer(widgets.VBox):
    """A text box (and, for a built vocabulary, a ``min_freq`` slider) over a table of the text's tokens.

    Attributes: ``text`` (Text), ``min_freq`` (IntSlider, or None for a vocabulary without
    counts), ``readout`` (HTML, empty without ``heldout``), ``table`` (HTML), ``vocab`` (the
    vocabulary shown now), and ``tokens`` and ``ids`` of the text shown now.
    """

    def __init__(self, vocab: Vocab, text: str = "The cat sat on the mat.", lang=None, heldout=None):
        self.lang = resolve(lang)
        self._full = check_vocab(vocab)
        tokenize(text)  # a text that is not a string fails here, in the student's language
        if heldout is not None and (isinstance(heldout, str) or not isinstance(heldout, Sequence)):
            raise TypeError(MESSAGES("not_texts", type_name=type(heldout).__name__))
        self._heldout = None if heldout is None else [t for line in heldout for t in tokenize(line)]
        self._vocabs = {}  # min_freq -> the vocabulary it keeps, built on the first visit
        self.vocab = vocab
        self.text = widgets.Text(value=text, description=MESSAGES("text", self.lang), continuous_update=True)
        self.text.layout.width = "90%"
        self.min_freq = None
        children = [self.text]
        if vocab.counts is not None:
            self.min_freq = slider(
                widgets.IntSlider,
                min=1,
                max=MAX_MIN_FREQ,
                value=1,
                description=MESSAGES("min_freq", self.lang),
            )
            self.min_freq.observe(self._on_change, names="value")
            children.append(self.min_freq)
        self.readout = widgets.HTML()
        self.table = widgets.HTML()
        self._on_change()
        self.text.observe(self._on_change, names="value")
        super().__init__([*children, self.readout, self.table])

    def _on_change(self, _change=None) -> None:
        if self.min_freq is not None:
            m = self.min_freq.value
            if m not in self._vocabs:
                self._vocabs[m] = self._full.with_min_freq(m)
            self.vocab = self._vocabs[m]
        view = WordTable(self.vocab, self.text.value, self.lang)
        self.tokens, self.ids = view.tokens, view.ids
        self.table.value = view.html
        if self._heldout:
            unknown = sum(t not in self.vocab.stoi for t in self._heldout)
            readout = MESSAGES(
                "readout",
                self.lang,
                size=len(self.vocab),
                min_freq=1 if self.min_freq is None else self.min_freq.value,
                unknown=unknown,
                n=len(self._heldout),
                share=format_decimal(100 * unknown / len(self._heldout), 1, self.lang),
            )
            self.readout.value = f"<p><b>{html.escape(readout)}</b></p>"


def vocab_explorer(
    vocab: Vocab, text: str = "The cat sat on the mat.", lang: str | None = None, heldout=None
) -> VocabExplorer:
    """Type a sentence, see its tokens and token IDs as you type; move ``min_freq`` (lesson 1).

    Each row is a token of :func:`~course_lib.tokenize`, its ID in ``vocab`` and the token
    the ID decodes back to. A word the vocabulary does not know gets ``vocab.unk_id`` and
    comes back as ``<unk>``; its row is highlighted. For a vocabulary of ``Vocab.build``,
    the ``min_freq`` slider shows ``vocab.with_min_freq(min_freq)``, and ``heldout`` (a
    list of texts) adds the share of their tokens that become ``<unk>``.

        >>> vocab = Vocab.build(["the cat sat", "the dog sat"])
        >>> explorer = vocab_explorer(vocab, text="the dog sat", lang="ru", heldout=["the cow sat"])
        >>> explorer.ids, explorer.text.description
        ([5, 7, 4], 'текст')
        >>> explorer.min_freq.value = 2  # cat and dog were seen once: both become <unk>
        >>> explorer.ids, len(explorer.vocab)
        ([5, 1, 4], 6)
    """
    return VocabExplorer(vocab, text, lang, heldout)
