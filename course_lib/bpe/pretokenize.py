"""Before BPE: text cut into pre-tokens by the GPT-2 pattern, then into UTF-8 bytes.

BPE never merges across a pre-token boundary, so a token is never half a word and half
the space or punctuation after it. GPT-2 (Radford et al., 2019, ``encoder.py``) cuts text
into English contractions, runs of letters (of any script), runs of digits, runs of other
symbols, each with at most one space in front, and runs of white space::

    >>> pre_tokenize("Hello, world! Привет, мир!  It's 2024.")
    ['Hello', ',', ' world', '!', ' Привет', ',', ' мир', '!', ' ', ' It', "'s", ' 2024', '.']

The pattern needs ``\\p{L}`` (a letter of any script), which the ``regex`` package knows and
``re`` does not. Letters and digits change with the Unicode version: ``regex`` knows those
that Unicode added after 16.0, Hugging Face ``tokenizers`` (its regex engine, Oniguruma) not
yet. So that both cut every string the same way, the pattern here leaves them out
(``NEWER_LETTERS``, ``NEWER_DIGITS``: 17 144 letters and 336 digits of recent scripts and CJK
extensions; ``tests/unit/test_bpe.py`` checks the list against ``tokenizers`` code point by
code point).

Each pre-token is then a sequence of bytes, its UTF-8 encoding: 256 possible values, so
any text has tokens, with no ``<unk>``. For files meant to be read, the bytes of a token are
shown as text (:func:`readable`); Hugging Face's files use GPT-2's map from bytes to
printable characters instead (:func:`byte_level`: a space is ``Ġ``).
"""

import regex

from .messages import MESSAGES

__all__ = [
    "GPT2_PATTERN",
    "NEWER_LETTERS",
    "NEWER_DIGITS",
    "PATTERN",
    "NEWER_CHARACTERS",
    "FAST_PATTERN",
    "pre_tokenize",
    "utf8",
    "BYTE_TO_CHAR",
    "BYTE_ORDER",
    "byte_level",
    "from_byte_level",
    "readable",
    "from_readable",
]

#: GPT-2's pre-tokenization pattern, as published (and used by Hugging Face's ByteLevel).
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

#: Letters and digits that ``regex`` knows and ``tokenizers`` 0.23.3 does not (Unicode 17.0 and later).
NEWER_LETTERS = (
    r"\u0558\u058b-\u058c\u088f\u0c5c\u0cdc\u208f\u209d-\u209f\ua7ce-\ua7cf\ua7d2\ua7d4\ua7dd\ua7e2"
    r"\ua7f1\uab6c-\uab6d\U000107bb-\U000107bf\U00010940-\U00010959\U00010ec5-\U00010ec7"
    r"\U00010ed9-\U00010eee\U00011b0a\U00011db0-\U00011ddb\U00011df1\U00016ea0-\U00016eb8"
    r"\U00016ebb-\U00016ed3\U00016ff2-\U00016ff3\U000187f8-\U000187ff\U00018cd6-\U00018cda"
    r"\U00018d09-\U00018d20\U00018d80-\U00018df2\U00018e00-\U00019191\U000191a0-\U000191d2"
    r"\U0001b123-\U0001b128\U0001b168\U0001d6a6\U0001df1f-\U0001df24\U0001df2b-\U0001df81"
    r"\U0001df90-\U0001df96\U0001dfcd-\U0001dfff\U0001e6c0-\U0001e6de\U0001e6e0-\U0001e6e2"
    r"\U0001e6e4-\U0001e6e5\U0001e6e7-\U0001e6ed\U0001e6f0-\U0001e6f4\U0001e6fe-\U0001e6ff"
    r"\U0002b73a-\U0002b73f\U0002b81e\U0002cea2-\U0002cead\U000323b0-\U00033479\U0003d000-\U0003fc3f"
)
NEWER_DIGITS = (
    r"\U00011de0-\U00011de9\U0001246f\U00012475-\U0001247f\U00012550-\U00012686\U00016ff4-\U00016ff6"
)

# the GPT-2 pattern with \p{L} and \p{N} as Unicode 16.0 has them (V1: set difference with --)
PATTERN = regex.compile(
    GPT2_PATTERN.replace(r"\p{L}", rf"[\p{{L}}--[{NEWER_LETTERS}]]").replace(
        r"\p{N}", rf"[\p{{N}}--[{NEWER_DIGITS}]]"
    ),
    regex.V1,
)


def _characters(ranges: str) -> frozenset:
    """The characters of a regex class body such as ``\\u0558\\u058b-\\u058c`` (escapes and ranges only)."""
    chars = ranges.encode("ascii").decode("unicode_escape")
    out, i = set(), 0
    while i < len(chars):
        if i + 2 < len(chars) and chars[i + 1] == "-":
            out.update(map(chr, range(ord(chars[i]), ord(chars[i + 2]) + 1)))
            i += 3
        else:
            out.add(chars[i])
            i += 1
    return frozenset(out)


#: The characters of ``NEWER_LETTERS`` and ``NEWER_DIGITS``: the only ones where ``PATTERN`` and
#: ``FAST_PATTERN`` part.
NEWER_CHARACTERS = _characters(NEWER_LETTERS + NEWER_DIGITS)

#: A fast path: GPT-2's pattern with the plain classes ``\p{L}`` and ``\p{N}`` (the set differences
#: of ``PATTERN`` make ``regex`` about twice slower) and the contractions as one alternative. On a
#: text without ``NEWER_CHARACTERS`` it cuts exactly as ``PATTERN``: the two differ only in what
#: those characters count as. Training and encoding use it and fall back to ``PATTERN`` where a
#: pre-token holds one of them.
FAST_PATTERN = regex.compile(r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def pre_tokenize(text: str) -> list[str]:
    """``text`` cut by the GPT-2 pattern; the pieces joined give ``text`` back."""
    if not isinstance(text, str):
        raise TypeError(MESSAGES("not_str", name="pre_tokenize", type_name=type(text).__name__))
    return PATTERN.findall(text)


def utf8(text: str, name: str = "text") -> bytes:
    """The UTF-8 bytes of ``text``; a lone surrogate, which has none, is a ``ValueError`` naming it.

    The message names the string (``name``, e.g. ``texts[3]``), the surrogate's position in
    it and the characters around it, so that it can be found in a long text.
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:
        i = error.start
        context = text[max(0, i - 10) : i + 11]
        raise ValueError(MESSAGES("surrogate", name=name, char=text[i], index=i, context=context)) from None


def _bytes_to_unicode() -> list[str]:
    """GPT-2's map: printable Latin-1 bytes stand for themselves, the other 68 for chr(256 + n)."""
    printable = [
        *range(ord("!"), ord("~") + 1),
        *range(ord("¡"), ord("¬") + 1),
        *range(ord("®"), ord("ÿ") + 1),
    ]
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[b] = chr(b)
        else:
            chars[b], extra = chr(256 + extra), extra + 1
    return [chars[b] for b in range(256)]


#: The character that stands for each byte in Hugging Face's files (GPT-2's ``bytes_to_unicode``).
BYTE_TO_CHAR = _bytes_to_unicode()
_CHAR_TO_BYTE = {c: b for b, c in enumerate(BYTE_TO_CHAR)}
#: The byte values in the order of their characters: the printable ones first (``!`` is 33),
#: then the other 68 (the space, 32, is ``Ġ``, U+0120). ``tokenizers`` numbers bytes in this order.
BYTE_ORDER = sorted(range(256), key=lambda b: BYTE_TO_CHAR[b])


def byte_level(token: bytes) -> str:
    """A token's bytes as Hugging Face writes them: ``b" the"`` is ``'Ġthe'``.

    >>> byte_level(" мир".encode())
    'ĠÐ¼Ð¸ÑĢ'
    """
    return "".join(BYTE_TO_CHAR[b] for b in token)


def from_byte_level(text: str) -> bytes | None:
    """The bytes behind a Hugging Face token string, or None if it is not one."""
    try:
        return bytes(_CHAR_TO_BYTE[c] for c in text)
    except KeyError:
        return None


_ESCAPE = regex.compile(rb"\\\\|\\x([0-9a-f]{2})")


def readable(token: bytes) -> str:
    """A token's bytes as text: UTF-8 where they are whole characters, ``\\xNN`` where they are not.

    A backslash is doubled, so that :func:`from_readable` reads every token back exactly.

    >>> readable(" мир".encode()), readable("м".encode()[:1]), readable(b"a\\\\b")
    (' мир', '\\\\xd0', 'a\\\\\\\\b')
    """
    return "\\\\".join(part.decode("utf-8", "backslashreplace") for part in token.split(b"\\"))


def from_readable(text: str) -> bytes:
    """The bytes that :func:`readable` wrote as ``text``."""
    raw = text.encode("utf-8")
    return _ESCAPE.sub(lambda m: b"\\" if m.group(1) is None else bytes([int(m.group(1), 16)]), raw)
