"""The subword explorer (lesson 2): type a text, move the vocabulary size, see its tokens coloured."""

import html
from collections.abc import Sequence

import ipywidgets as widgets

from ..bpe import BPETokenizer
from ..i18n import Messages, format_decimal, resolve
from ..plots.tokens import MESSAGES as PLOT_MESSAGES
from ..plots.tokens import check_text, check_tokenizer, token_spans
from .base import slider

__all__ = ["MESSAGES", "TokenExplorer", "token_explorer"]

MESSAGES = Messages(
    "widgets_tokens",
    {
        "text": {"en": "text", "ru": "текст"},
        "readout": {
            "en": "{n_tokens} tokens for {n_words} words: {per_word} tokens per word. "
            "The text has {n_chars} characters, {n_bytes} bytes in UTF-8.",
            "ru": "Токенов: {n_tokens}, слов: {n_words}, токенов на слово: {per_word}. "
            "Символов в тексте: {n_chars}, байтов в UTF-8: {n_bytes}.",
        },
        "bad_sizes": {
            "en": "sizes must be a non-empty list of vocabulary sizes, got {value!r}",
            "ru": "sizes должен быть непустым списком размеров словаря, а получено {value!r}",
        },
    },
)


class TokenExplorer(widgets.VBox):
    """A text box and a vocabulary-size slider over the text's tokens, coloured, and a readout.

    Every size is ready before the first move: ``tokenizer.truncate(size)`` is the tokenizer
    trained to that size, so one training gives all of them.

    Attributes: ``text`` (Text), ``size`` (SelectionSlider of vocabulary sizes), ``view``
    (HTML), ``tokenizers`` (``{size: BPETokenizer}``), and ``ids`` and ``tokens`` of the
    text shown now.
    """

    def __init__(self, tokenizer: BPETokenizer, sizes=None, text: str = "", lang=None):
        self.lang = resolve(lang)
        check_tokenizer(tokenizer)
        check_text(text)
        if sizes is None:
            sizes = sorted(
                {s for s in (300, 500, 1000, 2000, 4000, 8000) if s < len(tokenizer)} | {len(tokenizer)}
            )
        self.tokenizers = self._truncated(tokenizer, sizes)
        self.text = widgets.Text(value=text, description=MESSAGES("text", self.lang), continuous_update=True)
        self.text.layout.width = "90%"
        self.size = slider(
            widgets.SelectionSlider,
            options=list(self.tokenizers),
            value=list(self.tokenizers)[len(self.tokenizers) // 2],
            description=PLOT_MESSAGES("vocab_size", self.lang),
            continuous_update=True,
        )
        self.view = widgets.HTML()
        self._on_change()
        self.text.observe(self._on_change, names="value")
        self.size.observe(self._on_change, names="value")
        super().__init__([self.text, self.size, self.view])

    @staticmethod
    def _truncated(tokenizer: BPETokenizer, sizes) -> dict[int, BPETokenizer]:
        if isinstance(sizes, str) or not isinstance(sizes, Sequence) or not sizes:
            raise ValueError(MESSAGES("bad_sizes", value=sizes))
        # truncate names a size out of range, or not an integer, and the sizes allowed
        return {size: tokenizer.truncate(size) for size in sorted(set(sizes))}

    def _on_change(self, _change=None) -> None:
        tok, text = self.tokenizers[self.size.value], self.text.value
        self.ids = tok.encode(text)
        self.tokens = [tok.id_to_token(i) for i in self.ids]
        block, n_tokens, cut = token_spans(tok, text)
        n_words = len(text.split())
        per_word = format_decimal(n_tokens / n_words, 2, self.lang) if n_words else "–"
        readout = MESSAGES(
            "readout",
            self.lang,
            n_tokens=n_tokens,
            n_words=n_words,
            per_word=per_word,
            n_chars=len(text),
            n_bytes=len(text.encode("utf-8", "surrogatepass")),
        )
        note = f"<p><small>{html.escape(PLOT_MESSAGES('cut_bytes', self.lang))}</small></p>" if cut else ""
        self.view.value = f"<p>{html.escape(readout)}</p>{block}{note}"


def token_explorer(
    tokenizer: BPETokenizer, sizes: Sequence[int] | None = None, text: str = "", lang: str | None = None
) -> TokenExplorer:
    """Type a text, move the vocabulary size, and watch its tokens merge and split (lesson 2).

    Args:
        tokenizer: a trained :class:`~course_lib.BPETokenizer`; the slider offers it truncated.
        sizes: the vocabulary sizes on the slider; by default 300, 500, 1000, ... up to the
            tokenizer's own.
        text: the text shown first.

        >>> from course_lib.bpe import BPETokenizer
        >>> tok = BPETokenizer.train(["the cat sat on the mat"] * 3, vocab_size=270)
        >>> explorer = token_explorer(tok, sizes=[259, 270], text="the cat", lang="ru")
        >>> explorer.size.value = 259
        >>> explorer.tokens
        ['t', 'h', 'e', ' ', 'c', 'a', 't']
        >>> explorer.size.value = 270
        >>> explorer.tokens, explorer.size.description
        (['the', ' cat'], 'размер словаря')
    """
    return TokenExplorer(tokenizer, sizes, text, lang)
