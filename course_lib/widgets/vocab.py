"""The tokenizer explorer (lesson 1): type a sentence, see its tokens, their IDs and what the IDs decode to."""

import html

import ipywidgets as widgets

from .. import plots
from ..i18n import resolve
from ..vocab import Vocab, tokenize
from .messages import MESSAGES

__all__ = ["VocabExplorer", "vocab_explorer"]


class VocabExplorer(widgets.VBox):
    """A text box over a table of its tokens, their IDs and what the IDs decode back to.

    Attributes: ``text`` (Text), ``table`` (HTML), ``vocab``, and ``tokens`` and ``ids``,
    those of the text shown now.
    """

    def __init__(self, vocab: Vocab, text: str = "The cat sat on the mat.", lang=None):
        self.lang = resolve(lang)
        if not isinstance(vocab, Vocab):
            raise TypeError(MESSAGES("vocab_not_vocab", type_name=type(vocab).__name__))
        tokenize(text)  # a text that is not a string fails here, in the student's language
        self.vocab = vocab
        self.text = widgets.Text(
            value=text,
            description=MESSAGES("vocab_text", self.lang),
            continuous_update=True,
        )
        self.table = widgets.HTML()
        self._on_change()
        self.text.observe(self._on_change, names="value")
        super().__init__([self.text, self.table])

    def _on_change(self, _change=None) -> None:
        self.tokens = tokenize(self.text.value)
        self.ids = [self.vocab.stoi.get(token, self.vocab.unk_id) for token in self.tokens]
        cell = 'style="padding: 1px 12px; text-align: left"'
        # the column "token" is the same word as the axis label of the figures
        headers = (
            plots.MESSAGES("token", self.lang),
            MESSAGES("vocab_id", self.lang),
            MESSAGES("vocab_decoded", self.lang),
        )
        head = "".join(f"<th {cell}>{html.escape(text)}</th>" for text in headers)
        rows = []
        for token, i in zip(self.tokens, self.ids, strict=True):
            unknown = i == self.vocab.unk_id
            # the word the model will never see, marked where it is lost
            style = ' style="background: #fde0dc"' if unknown else ""
            back = html.escape(self.vocab.itos[i])
            back = f"<b>{back}</b>" if unknown else back
            rows.append(
                f"<tr{style}><td {cell}><code>{html.escape(token)}</code></td>"
                f"<td {cell}>{i}</td><td {cell}>{back}</td></tr>"
            )
        summary = MESSAGES(
            "vocab_summary",
            self.lang,
            n=len(self.tokens),
            unknown=self.ids.count(self.vocab.unk_id),
            size=len(self.vocab),
        )
        self.table.value = (
            f"<p>{html.escape(summary)}</p>"
            f'<table style="border-collapse: collapse"><tr>{head}</tr>{"".join(rows)}</table>'
        )


def vocab_explorer(
    vocab: Vocab, text: str = "The cat sat on the mat.", lang: str | None = None
) -> VocabExplorer:
    """Type a sentence, see its tokens and token IDs as you type (lesson 1).

    Each row is a token of :func:`~course_lib.tokenize`, its ID in ``vocab`` and the token
    the ID decodes back to. A word the vocabulary does not know gets ``vocab.unk_id`` and
    comes back as ``<unk>``; its row is highlighted.

        >>> explorer = vocab_explorer(Vocab.build(["the cat sat"]), text="the dog sat", lang="ru")
        >>> explorer.ids, explorer.text.description
        ([6, 1, 5], 'текст')
    """
    return VocabExplorer(vocab, text, lang)
