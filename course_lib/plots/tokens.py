"""Subword tokens (lesson 2): a text's tokens coloured, and tokens per word as the vocabulary grows.

The coloured tokens are HTML, not a picture: a text in any script, emoji included, shows in
the notebook's own font and can be selected and copied. :func:`show_tokens` is the static
twin of :func:`course_lib.widgets.token_explorer` for the slides and the web (one row per
vocabulary size); :func:`token_spans` is the HTML that both draw.

    >>> from course_lib.bpe import BPETokenizer
    >>> tok = BPETokenizer.train(["the cat sat on the mat"] * 3, vocab_size=270)
    >>> view = show_tokens([tok.truncate(259), tok], "the cat", lang="ru")
    >>> print(view)
    размер словаря 259, токенов в тексте: 7 | t|h|e| |c|a|t
    размер словаря 270, токенов в тексте: 2 | the| cat

Every label comes from the catalogue :data:`MESSAGES` (``messages.TOKENS``, area ``plots_tokens``), in the
language ``lang`` (None: the language set by :func:`course_lib.set_language`).
"""

import html
import math
from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure

from ..bpe import BPETokenizer
from ..bpe.pretokenize import readable
from ..i18n import resolve
from ..validate import is_integer, is_real
from .figure import colours, new_figure
from .messages import TOKENS as MESSAGES

__all__ = [
    "MESSAGES",
    "PALETTE",
    "token_spans",
    "TokenRows",
    "show_tokens",
    "plot_fertility",
]


#: Background colours of consecutive tokens: five of Paul Tol's "light" scheme (Tol 2021, "Colour Schemes",
#: SRON/EPS/TN/09-002), made for cells with black text (contrast 8.3:1 or more) and apart for readers with
#: deuteranopia or protanopia (the pastels before were not: tests/browser/test_explorer_colours.py)
PALETTE = ("#77aadd", "#ee8866", "#44bb99", "#ffaabb", "#eedd88")
# what a token of white space shows in place of the characters that show nothing
_VISIBLE = {"\n": "↵", "\r": "␍", "\t": "⇥"}


def check_tokenizer(tok, name: str = "tokenizer") -> BPETokenizer:
    if not isinstance(tok, BPETokenizer):
        raise TypeError(MESSAGES("not_tokenizer", name=name, type_name=type(tok).__name__))
    return tok


def check_text(text) -> str:
    if not isinstance(text, str):
        raise TypeError(MESSAGES("not_text", type_name=type(text).__name__))
    return text


def _whole(token: bytes) -> bool:
    """Whether the bytes are whole UTF-8 characters."""
    try:
        token.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def token_spans(tok: BPETokenizer, text: str) -> tuple[str, int, bool]:
    """``text`` encoded by ``tok``, as HTML: one coloured ``<span>`` per token, its id in its tooltip.

    Returns ``(html, number of tokens, whether a character was cut into bytes)``. A token
    that is part of a character (``\\xd0``) has a dashed border; a line break shows as ↵,
    a carriage return as ␍, a tab as ⇥.
    """
    spans, cut = [], False
    for n, i in enumerate(tok.encode(text, disallowed_special=())):  # text that spells <pad> is text
        token = tok.token_bytes(i)
        whole = _whole(token)
        cut |= not whole
        shown = token.decode("utf-8") if whole else readable(token)
        shown = "".join(_VISIBLE.get(ch, ch) for ch in html.escape(shown))
        border = "1px solid transparent" if whole else "1px dashed #666"
        spans.append(
            f'<span title="{i}" style="background-color: {PALETTE[n % len(PALETTE)]}; '
            f'border: {border}; margin-right: 1px; display: inline-block">{shown}</span>'
            + "<br>"
            * token.count(b"\n")  # a token is one box: a line break goes after it
        )
    # spaces kept; lines wrap between tokens, never inside one
    block = '<div style="white-space: pre-wrap; line-height: 1.8">' + "".join(spans) + "</div>"
    return block, len(spans), cut


class TokenRows:
    """A text's tokens under several tokenizers, one row each: HTML in a notebook, plain text in print.

    Attributes: ``sizes`` (each tokenizer's vocabulary size), ``tokens`` (each row's tokens as
    text, by :meth:`BPETokenizer.tokens`), ``html`` (what the notebook shows).
    """

    def __init__(self, tokenizers: Sequence[BPETokenizer], text: str, lang: str | None = None):
        lang = resolve(lang)
        if isinstance(tokenizers, BPETokenizer) or not isinstance(tokenizers, Sequence) or not tokenizers:
            raise ValueError(MESSAGES("no_tokenizers", value=tokenizers))
        for tok in tokenizers:
            check_tokenizer(tok, "tokenizers[i]")
        self.text = check_text(text)
        self.sizes = [len(tok) for tok in tokenizers]
        self.tokens = [tok.tokens(text, disallowed_special=()) for tok in tokenizers]
        self._labels = [
            MESSAGES("row_label", lang, size=len(t), n=len(tk))
            for t, tk in zip(tokenizers, self.tokens, strict=True)
        ]
        rows, any_cut = [], False
        for label, tok in zip(self._labels, tokenizers, strict=True):
            block, _, cut = token_spans(tok, text)
            any_cut |= cut
            rows.append(f'<p style="margin: 0.6em 0 0.1em 0"><b>{html.escape(label)}</b></p>{block}')
        note = f"<p><small>{html.escape(MESSAGES('cut_bytes', lang))}</small></p>" if any_cut else ""
        self.html = "<div>" + "".join(rows) + note + "</div>"

    def _repr_html_(self) -> str:
        return self.html

    def __str__(self) -> str:
        return "\n".join(
            f"{label} | {'|'.join(tokens)}" for label, tokens in zip(self._labels, self.tokens, strict=True)
        )

    def __repr__(self) -> str:
        return str(self)


def show_tokens(tokenizers: Sequence[BPETokenizer], text: str, lang: str | None = None) -> TokenRows:
    """``text``'s tokens under each tokenizer, coloured, one row per tokenizer (the widget's static twin)."""
    return TokenRows(tokenizers, text, lang)


def _check_curves(curves) -> dict[str, list[tuple[int, float]]]:
    if not isinstance(curves, Mapping) or not curves:
        raise ValueError(MESSAGES("bad_curves", value=curves))
    checked = {}
    for label, points in curves.items():
        if not isinstance(points, Mapping) or not points:
            raise ValueError(MESSAGES("bad_curves", value=points))
        for size, value in points.items():
            good_value = is_real(value) and math.isfinite(value)
            if not is_integer(size) or size <= 0 or not good_value or value <= 0:
                raise ValueError(MESSAGES("bad_curves", value={size: value}))
        checked[str(label)] = sorted((int(s), float(v)) for s, v in points.items())
    return checked


def plot_fertility(
    curves, lang: str | None = None, *, title: str | None = None, figsize=None, dpi=None
) -> Figure:
    """Tokens per word against the vocabulary size: one line per curve, a marker for a single point.

    Args:
        curves: ``{label: {vocabulary size: tokens per word}}``, e.g. one curve per language.
        lang: ``"en"`` or ``"ru"``; None for the current language.
        title: the figure title; by default one that says what is measured.

    The x axis is logarithmic: vocabularies grow by factors.

        >>> fig = plot_fertility({"EN": {300: 4.6, 4000: 1.7}, "RU": {300: 6.2, 4000: 2.0}}, lang="ru")
        >>> fig.axes[0].get_xlabel(), [line.get_label() for line in fig.axes[0].get_lines()][:2]
        ('размер словаря', ['EN', 'RU'])
    """
    lang = resolve(lang)
    checked = _check_curves(curves)
    fig = new_figure(figsize, dpi, lang)
    ax = fig.add_subplot()
    for colour, (label, points) in zip(colours(len(checked)), checked.items(), strict=True):
        sizes, values = zip(*points, strict=True)
        if len(points) > 1:
            ax.plot(sizes, values, marker="o", color=colour, label=label)
        else:  # one measurement: a marker, with its vocabulary size written beside it
            ax.plot(sizes, values, marker="o", color=colour, label=label, linestyle="none")
            ax.annotate(str(sizes[0]), (sizes[0], values[0]), xytext=(6, -4), textcoords="offset points")
    ax.set_xscale("log")
    # the sizes of the curves as the ticks, written out (a log axis would only say 10^3); a size
    # too close to the one labelled before it keeps its tick without a label
    sizes = sorted({size for points in checked.values() if len(points) > 1 for size, _ in points})
    labels, last = [], 0
    for size in sizes:
        labels.append(str(size) if size >= 1.3 * last else "")
        last = size if labels[-1] else last
    ax.set_xticks(sizes, labels=labels)
    ax.minorticks_off()
    ax.set_ylim(bottom=0)
    ax.set_xlabel(MESSAGES("vocab_size", lang))
    ax.set_ylabel(MESSAGES("tokens_per_word", lang))
    ax.set_title(title if title is not None else MESSAGES("fertility_title", lang))
    ax.legend(loc="upper center")
    ax.grid(True, which="major", alpha=0.3)
    return fig
