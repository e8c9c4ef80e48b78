"""The subword explorer (lesson 2): type a text, move the vocabulary size, see its tokens coloured.

A live explorer (:mod:`course_lib.widgets.live`) and a live tokenizer: Python sends the trained
tokenizer's merges (the ``data`` trait); the browser (``js/tokens.js``) cuts the typed text by
GPT-2's pattern, turns each piece into its UTF-8 bytes and applies the merges, lowest rank
first, as :class:`~course_lib.BPETokenizer` does: the same ids, tested on texts in both
languages, with emoji, digits and every kind of space.
"""

import re
from collections.abc import Sequence

import traitlets

from ..bpe import BPETokenizer
from ..bpe.pretokenize import NEWER_DIGITS, NEWER_LETTERS
from ..i18n import format_decimal, resolve
from ..plots.tokens import MESSAGES as PLOT_MESSAGES
from ..plots.tokens import PALETTE, check_text, check_tokenizer
from .live import Checked, LiveExplorer, module, template
from .messages import TOKENS as MESSAGES
from .vocab import MAX_TEXT

__all__ = ["MESSAGES", "TokenExplorer", "token_explorer", "js_class"]


def js_class(ranges: str) -> str:
    r"""A character class body of Python's ``regex`` (``\u0416``, ``\U0001F600``) in JavaScript's ``\u{...}``."""
    return re.sub(
        r"\\[uU]([0-9a-fA-F]{4,8})", lambda m: "\\u{" + m.group(1).lstrip("0").lower() + "}", ranges
    )


class TokenExplorer(LiveExplorer):
    """A text box and a vocabulary-size slider over the text's tokens, coloured, and a readout.

    Traits: ``text``, ``size`` (one of ``sizes``, the slider's stops) and ``data``: the 256
    byte ids, the special tokens' ids and names, and every merge of the largest tokenizer
    as ``[first, second, new id]`` in rank order. ``tokenizer.truncate(size)`` is the
    tokenizer trained to that size, so the browser keeps the merges up to the one that made
    token ``size - 1``. :attr:`tokenizers`, :attr:`ids`, :attr:`tokens` and :meth:`readout`
    are what the browser shows, computed by course_lib.
    """

    _esm = module("tokens", "textbox", "bpe")
    parameters = ("text", "size")
    text = Checked("", check_text, longest=MAX_TEXT)
    size = traitlets.Int().tag(sync=True)
    sizes = traitlets.List(traitlets.Int()).tag(sync=True)
    data = traitlets.Dict().tag(sync=True)

    def __init__(self, tokenizer: BPETokenizer, sizes=None, text: str = "", lang=None):
        lang = resolve(lang)
        check_tokenizer(tokenizer)
        [text] = self.checked(text=text)
        if sizes is None:
            sizes = sorted(
                {s for s in (300, 500, 1000, 2000, 4000, 8000) if s < len(tokenizer)} | {len(tokenizer)}
            )
        self.tokenizers = self._truncated(tokenizer, sizes, lang)
        largest = self.tokenizers[max(self.tokenizers)]
        special_ids = set(largest.specials.values())
        ids = {largest.token_bytes(i): i for i in range(len(largest)) if i not in special_ids}
        data = {
            "byte_ids": [ids[bytes([b])] for b in range(256)],
            "specials": {str(i): name for name, i in largest.specials.items()},
            # what each merge makes: the token spelled by its two parts' bytes
            "merges": [
                [a, b, ids[largest.token_bytes(a) + largest.token_bytes(b)]] for a, b in largest.merges
            ],
            "newer_letters": js_class(NEWER_LETTERS),
            "newer_digits": js_class(NEWER_DIGITS),
            "palette": list(PALETTE),
        }
        labels = {
            "text": MESSAGES("text", lang),
            "size": PLOT_MESSAGES("vocab_size", lang),
            "readout": template(MESSAGES, "readout", lang),
            "cut": PLOT_MESSAGES("cut_bytes", lang),
        }
        sizes = list(self.tokenizers)
        super().__init__(lang, labels, data=data, sizes=sizes, size=sizes[len(sizes) // 2], text=text)

    @staticmethod
    def _truncated(tokenizer: BPETokenizer, sizes, lang=None) -> dict[int, BPETokenizer]:
        if isinstance(sizes, str) or not isinstance(sizes, Sequence) or not sizes:
            raise ValueError(MESSAGES("bad_sizes", lang, value=sizes))
        # truncate names a size out of range, or not an integer, and the sizes allowed
        return {size: tokenizer.truncate(size) for size in sorted(set(sizes))}

    @traitlets.validate("size")
    def _check_size(self, proposal):
        if proposal["value"] not in self.tokenizers:
            raise ValueError(MESSAGES("not_a_size", sizes=list(self.tokenizers), value=proposal["value"]))
        return proposal["value"]

    @property
    def ids(self) -> list[int]:
        return self.tokenizers[self.size].encode(self.text, disallowed_special=())  # typed text is text

    @property
    def tokens(self) -> list[str]:
        tok = self.tokenizers[self.size]
        return [tok.id_to_token(i) for i in self.ids]

    def readout(self) -> str:
        """The line over the tokens, as the browser writes it."""
        text = self.text
        n_words = len(text.split())
        per_word = format_decimal(len(self.ids) / n_words, 2, self.lang) if n_words else "–"
        return MESSAGES(
            "readout",
            self.lang,
            n_tokens=len(self.ids),
            n_words=n_words,
            per_word=per_word,
            n_chars=len(text),
            n_bytes=len(text.encode("utf-8", "surrogatepass")),
        )


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
        >>> explorer.size = 259
        >>> explorer.tokens
        ['t', 'h', 'e', ' ', 'c', 'a', 't']
        >>> explorer.size = 270
        >>> explorer.tokens, explorer.labels["size"]
        (['the', ' cat'], 'размер словаря')
    """
    return TokenExplorer(tokenizer, sizes, text, lang)
