"""A text's words under a word vocabulary (lesson 1): each token, its ID and what the ID decodes to.

The table is HTML in a notebook and plain text in print. :func:`show_words` is the static
twin of :func:`course_lib.widgets.vocab_explorer` for the slides and the web, and the widget
shows the same :class:`WordTable`. A word the vocabulary does not know gets ``unk_id``,
comes back as ``<unk>``, and its row is highlighted.

    >>> from course_lib import Vocab
    >>> print(show_words(Vocab.build(["the cat sat"]), "The dog sat.", lang="ru"))
    Токенов: 4, из них словарь размером 7 не знает 2.
    the  6
    dog  1  -> <unk>
    sat  5
    .    1  -> <unk>

Every label comes from the catalogue :data:`MESSAGES` (``messages.VOCAB``, area ``plots_vocab``), in the
language ``lang`` (None: the language set by :func:`course_lib.set_language`).
"""

import html

from ..i18n import resolve
from ..vocab import Vocab, tokenize
from .messages import MESSAGES as PLOT_MESSAGES
from .messages import VOCAB as MESSAGES

__all__ = ["MESSAGES", "WordTable", "show_words", "check_vocab"]


# the row of a word the model will never see, marked where it is lost
_UNKNOWN = "#fde0dc"
_CELL = 'style="padding: 1px 12px; text-align: left"'


def check_vocab(vocab) -> Vocab:
    if not isinstance(vocab, Vocab):
        raise TypeError(MESSAGES("not_vocab", type_name=type(vocab).__name__))
    return vocab


class WordTable:
    """``text``'s tokens under ``vocab``: one row per token, its ID and what the ID decodes to.

    Attributes: ``tokens`` (by :func:`~course_lib.tokenize`), ``ids`` (their IDs, ``unk_id``
    for a word the vocabulary does not know), ``unknown`` (how many are ``unk_id``),
    ``html`` (what the notebook shows).
    """

    def __init__(self, vocab: Vocab, text: str, lang: str | None = None):
        lang = resolve(lang)
        check_vocab(vocab)
        self.tokens = tokenize(text)  # a text that is not a string fails here, in the student's language
        self.ids = [vocab.stoi.get(token, vocab.unk_id) for token in self.tokens]
        self.unknown = self.ids.count(vocab.unk_id)
        self._back = [vocab.itos[i] for i in self.ids]
        self._unk_id = vocab.unk_id
        self.summary = MESSAGES("summary", lang, n=len(self.tokens), unknown=self.unknown, size=len(vocab))
        # the column "token" is the same word as the axis label of the figures
        headers = (PLOT_MESSAGES("token", lang), MESSAGES("id", lang), MESSAGES("decoded", lang))
        head = "".join(f"<th {_CELL}>{html.escape(h)}</th>" for h in headers)
        rows = []
        for token, i, back in zip(self.tokens, self.ids, self._back, strict=True):
            unknown = i == vocab.unk_id
            style = f' style="background: {_UNKNOWN}"' if unknown else ""
            shown = f"<b>{html.escape(back)}</b>" if unknown else html.escape(back)
            rows.append(
                f"<tr{style}><td {_CELL}><code>{html.escape(token)}</code></td>"
                f"<td {_CELL}>{i}</td><td {_CELL}>{shown}</td></tr>"
            )
        self.html = (
            f"<p>{html.escape(self.summary)}</p>"
            f'<table style="border-collapse: collapse"><tr>{head}</tr>{"".join(rows)}</table>'
        )

    def _repr_html_(self) -> str:
        return self.html

    def __str__(self) -> str:
        width = max((len(t) for t in self.tokens), default=0)
        lines = [self.summary]
        for token, i, back in zip(self.tokens, self.ids, self._back, strict=True):
            lost = f"  -> {back}" if i == self._unk_id else ""
            lines.append(f"{token:{width}}  {i}{lost}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)


def show_words(vocab: Vocab, text: str, lang: str | None = None) -> WordTable:
    """``text``'s tokens, their IDs and what the IDs decode to (the static twin of ``vocab_explorer``)."""
    return WordTable(vocab, text, lang)
