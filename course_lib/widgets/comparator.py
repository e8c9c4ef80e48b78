"""The tokenizer comparator (lesson 2): type English or Russian, see each tokenizer's tokens and ids side by side.

A live explorer (:mod:`course_lib.widgets.live`) with four tokenizers in the page: the course's
own BPE (its merges sent by Python, the ``data`` trait, encoded by ``js/bpe.js`` as lesson 2's
token explorer does) and OpenAI's GPT-2, cl100k_base and o200k_base, encoded by npm
``gpt-tokenizer``'s own encoders (:mod:`course_lib.widgets.encodings`). Their rank tables are
megabytes, so they are not in the widget's state: the site and the decks serve them beside the
widget renderer, and in JupyterLab the kernel sends each when the explorer asks for it (a
custom message, which no notebook saves). For each tokenizer a row says the tokens it spends,
per word, and as a multiple of what it spends on the English text in the second box; a click on
a token of the course's BPE unfolds the merges that built it, down to its bytes.
"""

import traitlets

from ..bpe import BPETokenizer
from ..bpe.pretokenize import NEWER_DIGITS, NEWER_LETTERS
from ..i18n import format_decimal, format_number, resolve
from ..plots.tokens import MESSAGES as PLOT_MESSAGES
from ..plots.tokens import PALETTE, check_text, check_tokenizer
from .encodings import ENCODINGS, encoding_script, missing
from .live import Checked, LiveExplorer, module, template
from .messages import COMPARATOR as MESSAGES
from .tokens import js_class

__all__ = ["MESSAGES", "MAX_TEXT", "TokenizerComparator", "tokenizer_comparator"]

#: the longest text a box takes: what the page encodes with four tokenizers within a frame and draws, a key's
#: boxes within a frame, a paste's first ones within a frame and the rest over the frames after (js/comparator.js)
MAX_TEXT = 1000
#: the first article of the Universal Declaration of Human Rights, the issue's measured pair
ARTICLE_1 = {
    "en": "All human beings are born free and equal in dignity and rights. They are endowed with reason "
    "and conscience and should act towards one another in a spirit of brotherhood.",
    "ru": "Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом "
    "и совестью и должны поступать в отношении друг друга в духе братства.",
}
#: the tokenizers' names in the page, the course's first
NAMES = {
    "course": None,
    "gpt2": "GPT-2",
    "cl100k_base": "cl100k_base (GPT-4)",
    "o200k_base": "o200k_base (GPT-4o)",
}


class TokenizerComparator(LiveExplorer):
    """Two text boxes (any text, and the same in English) over each tokenizer's tokens and ids.

    Traits: ``text`` and ``english`` (at most :data:`MAX_TEXT` characters each), ``data``: the
    course's tokenizer as :class:`~course_lib.widgets.tokens.TokenExplorer` sends it (bytes'
    ids, specials, merges in rank order, the pattern's Unicode classes) and ``encodings``, the
    names of gpt-tokenizer's encodings shown after it. :meth:`ids`, :meth:`row` and
    :meth:`merge_tree` are what the browser shows for the course's tokenizer, computed by
    course_lib.
    """

    _esm = module("comparator", "textbox", "bpe")
    parameters = ("text", "english")
    text = Checked("", check_text, longest=MAX_TEXT)
    english = Checked("", check_text, longest=MAX_TEXT)
    data = traitlets.Dict().tag(sync=True)

    def __init__(
        self, tokenizer: BPETokenizer, text: str | None = None, english: str | None = None, lang=None
    ):
        lang = resolve(lang)
        self.tokenizer = check_tokenizer(tokenizer)
        text = ARTICLE_1["ru"] if text is None else text
        english = ARTICLE_1["en"] if english is None else english
        text, english = self.checked(text=text, english=english)
        special_ids = set(tokenizer.specials.values())
        ids = {tokenizer.token_bytes(i): i for i in range(len(tokenizer)) if i not in special_ids}
        # the size as the lesson writes it: 4000, but 12 498 (thousands apart from 10 000 up)
        n = len(tokenizer)
        size = n if n < 10_000 else format_number(n, ",", lang)
        names = {**NAMES, "course": MESSAGES("course", lang, size=size)}
        data = {
            "byte_ids": [ids[bytes([b])] for b in range(256)],
            "specials": {str(i): name for name, i in tokenizer.specials.items()},
            "merges": [
                [a, b, ids[tokenizer.token_bytes(a) + tokenizer.token_bytes(b)]] for a, b in tokenizer.merges
            ],
            "newer_letters": js_class(NEWER_LETTERS),
            "newer_digits": js_class(NEWER_DIGITS),
            "palette": list(PALETTE),
            "encodings": list(ENCODINGS),
            "names": names,
        }
        labels = {
            key: template(MESSAGES, key, lang)
            for key in (
                "text",
                "english",
                "readout",
                "row",
                "loading",
                "unavailable",
                "no_kernel_data",
                "hint",
                "tree",
                "byte",
                "merge",
            )
        }
        labels["cut"] = PLOT_MESSAGES("cut_bytes", lang)
        super().__init__(lang, labels, data=data, text=text, english=english)
        self.on_msg(self._send_encoding)

    def _send_encoding(self, _widget, content, _buffers) -> None:
        """The browser asks for an encoding (``{"want": name}``): its script, or that this copy lacks it."""
        name = content.get("want") if isinstance(content, dict) else None
        if name not in ENCODINGS:
            return
        if name in missing():
            self.send({"encoding": name, "missing": True})
        else:
            self.send({"encoding": name, "script": encoding_script(name)})

    def ids(self, text: str | None = None) -> list[int]:
        """The course's tokenizer's ids for ``text`` (the ``text`` box's by default), typed specials as text."""
        return self.tokenizer.encode(self.text if text is None else text, disallowed_special=())

    def row(self, name: str, n_tokens: int, n_english: int, n_words: int) -> str:
        """The line over a tokenizer's tokens, as the browser writes it: tokens, per word, ×English."""
        per_word = format_decimal(n_tokens / n_words, 2, self.lang) if n_words else "–"
        ratio = format_decimal(n_tokens / n_english, 2, self.lang) if n_english else "–"
        label = self.data["names"][name]
        return MESSAGES("row", self.lang, name=label, n_tokens=n_tokens, per_word=per_word, ratio=ratio)

    def course_row(self) -> str:
        """:meth:`row` for the course's tokenizer on the two texts."""
        return self.row("course", len(self.ids()), len(self.ids(self.english)), len(self.text.split()))

    def readout(self) -> str:
        """The line over the rows: the text's words and characters, the English text's words."""
        return MESSAGES(
            "readout",
            self.lang,
            n_words=len(self.text.split()),
            n_chars=len(self.text),
            n_english=len(self.english.split()),
        )

    def merge_tree(self, token_id: int) -> tuple:
        """How the course's token ``token_id`` was built: ``(token, id, parts)``, a byte's parts empty.

        Each token a merge made is the merge of two tokens (its ``parts``), each built the same
        way, down to the 256 bytes: the tree a click on the token unfolds in the page.
        """
        tok = self.tokenizer
        made = {}
        for a, b in tok.merges:
            made[tok.token_bytes(a) + tok.token_bytes(b)] = (a, b)

        def build(i: int) -> tuple:
            parts = made.get(tok.token_bytes(i))
            return (tok.id_to_token(i), i, [build(p) for p in parts] if parts else [])

        return build(token_id)


def tokenizer_comparator(
    tokenizer: BPETokenizer, text: str | None = None, english: str | None = None, lang: str | None = None
) -> TokenizerComparator:
    """Type English or Russian and compare the course's BPE with GPT-2's, cl100k's and o200k's tokens (lesson 2).

    Args:
        tokenizer: the course's trained :class:`~course_lib.BPETokenizer`; a click on one of its
            tokens unfolds the merges that built it.
        text: the text in the first box (by default the first article of the Universal Declaration
            of Human Rights in Russian); at most 1 000 characters.
        english: the same in English, the measure of each tokenizer's cost (by default that
            article in English).

        >>> from course_lib.bpe import BPETokenizer
        >>> tok = BPETokenizer.train(["the cat sat on the mat"] * 3, vocab_size=270)
        >>> comparator = tokenizer_comparator(tok, text="the cat", english="the cat", lang="ru")
        >>> comparator.course_row()
        'BPE курса (словарь на 270 токенов): токенов — 2, на слово — 1,00, относительно английского текста — ×1,00'
        >>> comparator.merge_tree(comparator.ids()[1])[:2]
        (' cat', 267)
    """
    return TokenizerComparator(tokenizer, text, english, lang)
