"""The vocabulary explorer (lesson 1): type a sentence, see its tokens, their IDs and what the IDs decode to.

With a vocabulary made by ``Vocab.build`` (which keeps the word counts), a ``min_freq``
slider keeps only the words seen at least that many times, and with ``heldout`` texts a
readout says how much of a text the vocabulary has never seen becomes ``<unk>``: the
smaller the vocabulary, the more it loses. A live explorer (:mod:`course_lib.widgets.live`):
Python sends the vocabulary, its counts and the held-out text's word counts (the ``data``
trait); the browser (``js/vocab.js``) tokenizes what the reader types, looks the words up,
cuts the vocabulary at ``min_freq`` and draws, for every ``min_freq``, the vocabulary's size
and the share of the held-out text it loses. The table is :class:`course_lib.plots.vocab.WordTable`,
the widget's static twin.
"""

from collections import Counter
from collections.abc import Sequence

import traitlets

from ..i18n import format_decimal, resolve
from ..plots.messages import MESSAGES as PLOT_MESSAGES
from ..plots.vocab import MESSAGES as TABLE_MESSAGES
from ..plots.vocab import WordTable, check_vocab
from ..vocab import MESSAGES as VOCAB_MESSAGES
from ..vocab import Vocab, tokenize
from .live import Checked, LiveExplorer, PositiveInt, module, template
from .messages import VOCAB as MESSAGES

__all__ = ["MESSAGES", "VocabExplorer", "vocab_explorer"]


#: the largest min_freq the slider offers
MAX_MIN_FREQ = 10
#: the longest text the text box takes (the browser tokenizes it at each keystroke)
MAX_TEXT = 2000


def check_text(text) -> str:
    """``text`` if :func:`course_lib.tokenize` takes it: a string (else tokenize's error, in the student's language)."""
    tokenize(text)
    return text


class VocabExplorer(LiveExplorer):
    """A text box (and, for a built vocabulary, a ``min_freq`` slider) over a table of the text's tokens.

    Traits: ``text`` and ``min_freq`` (the controls; ``min_freq`` stays 1 for a vocabulary
    without counts, which has no slider) and ``data``: the whole vocabulary (``itos``), its
    words' counts, and the held-out text's words with how often each occurs. :attr:`vocab`,
    :attr:`tokens`, :attr:`ids` and :meth:`readout` are what the browser shows, computed by
    course_lib (:meth:`Vocab.with_min_freq`, :class:`~course_lib.plots.vocab.WordTable`).
    """

    _esm = module("vocab", "axes", "textbox")
    parameters = ("text", "min_freq")
    text = Checked("", check_text, longest=MAX_TEXT)
    min_freq = PositiveInt(1, high=MAX_MIN_FREQ)
    data = traitlets.Dict().tag(sync=True)
    limits = traitlets.Dict().tag(sync=True)

    def __init__(self, vocab: Vocab, text: str = "The cat sat on the mat.", lang=None, heldout=None):
        lang = resolve(lang)
        self._full = check_vocab(vocab)
        [text] = self.checked(text=text)
        if heldout is not None and (isinstance(heldout, str) or not isinstance(heldout, Sequence)):
            raise TypeError(MESSAGES("not_texts", lang, type_name=type(heldout).__name__))
        self._heldout = None if heldout is None else [t for line in heldout for t in tokenize(line)]
        self._vocabs = {}  # min_freq -> the vocabulary it keeps, built on the first visit
        words = vocab.itos[len(Vocab.SPECIALS) :]
        data = {
            "itos": vocab.itos,
            "unk_id": vocab.unk_id,
            # most frequent first: with_min_freq keeps a prefix of the words
            "counts": None if vocab.counts is None else [vocab.counts[w] for w in words],
            "heldout": None if not self._heldout else dict(Counter(self._heldout)),
        }
        labels = {
            "text": MESSAGES("text", lang),
            "min_freq": MESSAGES("min_freq", lang),
            "readout": template(MESSAGES, "readout", lang),
            "summary": template(TABLE_MESSAGES, "summary", lang),
            "token": PLOT_MESSAGES("token", lang),
            "id": TABLE_MESSAGES("id", lang),
            "decoded": TABLE_MESSAGES("decoded", lang),
            "title": MESSAGES("plot_title" if self._heldout else "plot_no_heldout", lang),
            "size": MESSAGES("plot_size", lang),
            "share": MESSAGES("plot_share", lang),
        }
        super().__init__(lang, labels, data=data, limits={"min_freq": MAX_MIN_FREQ}, text=text)

    @traitlets.validate("min_freq")
    def _check_min_freq(self, proposal):
        if proposal["value"] != 1 and self._full.counts is None:
            raise ValueError(VOCAB_MESSAGES("no_counts"))
        return proposal["value"]

    @property
    def vocab(self) -> Vocab:
        """The vocabulary shown now: the whole one cut at ``min_freq``."""
        if self._full.counts is None:
            return self._full
        if self.min_freq not in self._vocabs:
            self._vocabs[self.min_freq] = self._full.with_min_freq(self.min_freq)
        return self._vocabs[self.min_freq]

    @property
    def table(self) -> WordTable:
        """The text's tokens, IDs and decoded tokens under :attr:`vocab`: what the table shows."""
        return WordTable(self.vocab, self.text, self.lang)

    @property
    def tokens(self) -> list[str]:
        return tokenize(self.text)

    @property
    def ids(self) -> list[int]:
        return self.vocab.encode(self.text)

    def unknown_share(self, min_freq: int) -> tuple[int, int, float]:
        """Held-out tokens that are ``<unk>`` under the vocabulary cut at ``min_freq``: (unknown, n, percent)."""
        vocab = self._full if self._full.counts is None else self._full.with_min_freq(min_freq)
        unknown = sum(t not in vocab.stoi for t in self._heldout)
        return unknown, len(self._heldout), 100 * unknown / len(self._heldout)

    def readout(self) -> list[str]:
        """The lines above the table, as the browser writes them: the held-out share (with ``heldout``), the summary."""
        lines = []
        if self._heldout:
            unknown, n, share = self.unknown_share(self.min_freq)
            lines.append(
                MESSAGES(
                    "readout",
                    self.lang,
                    size=len(self.vocab),
                    min_freq=self.min_freq,
                    unknown=unknown,
                    n=n,
                    share=format_decimal(share, 1, self.lang),
                )
            )
        return [*lines, self.table.summary]


def vocab_explorer(
    vocab: Vocab, text: str = "The cat sat on the mat.", lang: str | None = None, heldout=None
) -> VocabExplorer:
    """Type a sentence, see its tokens and token IDs as you type; move ``min_freq`` (lesson 1).

    Each row is a token of :func:`~course_lib.tokenize`, its ID in ``vocab`` and the token
    the ID decodes back to. A word the vocabulary does not know gets ``vocab.unk_id`` and
    comes back as ``<unk>``; its row is highlighted. For a vocabulary of ``Vocab.build``,
    the ``min_freq`` slider shows ``vocab.with_min_freq(min_freq)``, and ``heldout`` (a
    list of texts) adds the share of their tokens that become ``<unk>``, drawn for every
    ``min_freq`` beside the vocabulary's size.

        >>> vocab = Vocab.build(["the cat sat", "the dog sat"])
        >>> explorer = vocab_explorer(vocab, text="the dog sat", lang="ru", heldout=["the cow sat"])
        >>> explorer.ids, explorer.labels["text"]
        ([5, 7, 4], 'текст')
        >>> explorer.min_freq = 2  # cat and dog were seen once: both become <unk>
        >>> explorer.ids, len(explorer.vocab)
        ([5, 1, 4], 6)
    """
    return VocabExplorer(vocab, text, lang, heldout)
