"""A small word-level tokenizer for English and Russian: text -> token ids -> text."""

import re
import unicodedata
from collections import Counter

import torch

from .messages import VOCAB as MESSAGES
from .validate import dense, is_integer

__all__ = ["Vocab", "tokenize", "normalize", "pad_batch", "id_list"]


# a word is a run of letters or digits (Unicode-aware, so Cyrillic works like Latin);
# every other visible character is a token of its own
_TOKEN = re.compile(r"\w+|[^\w\s]")
# punctuation that sticks to the word before it when ids are turned back into text
_NO_SPACE_BEFORE = re.compile(r" ([.,!?;:)»])")
# the format characters (Unicode category Cf), invisible, that change no word: the zero-width space,
# non-joiner and joiner, the word joiner and the invisible operators, the byte-order mark, the soft
# hyphen, and the bidirectional controls (U+200E/F, U+202A-E, U+2066-9, U+061C), which reorder how
# a line is shown and would otherwise hide inside a word or stand as tokens of their own. Unicode
# 15's list, ranges inclusive; tests/unit/test_vocab.py checks it against unicodedata's.
_FORMAT_RANGES = (
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)
_INVISIBLE = {code: None for first, last in _FORMAT_RANGES for code in range(first, last + 1)}
# "İ" (U+0130) lower-cases, in Python, to "i" and a combining dot above (U+0307), which no
# precomposed letter takes: the word would split in two tokens at the dot. It becomes "i", as the
# Turkish alphabet lower-cases it, before anything else.
_INVISIBLE[0x0130] = "I"


def normalize(text: str) -> str:
    """The text every tokenizer of the course sees: Unicode NFC, without invisible characters.

    NFC joins a letter and a combining mark into one character: «й» typed as «и» + U+0306
    becomes the single «й», so the same word always gives the same token. Format characters
    (Unicode category Cf: zero-width spaces and joiners, the soft hyphen, the byte-order mark,
    the bidirectional controls such as U+202E) are dropped: they change how a text is shown,
    not its words. "İ" becomes "I", so that it lower-cases to one letter, "i".

    >>> nfd = unicodedata.normalize("NFD", "мой")
    >>> len(nfd), len(normalize(nfd))
    (4, 3)
    >>> normalize("ab\u202ecd\u200b"), normalize("İzmir")
    ('abcd', 'Izmir')
    """
    if not isinstance(text, str):
        raise TypeError(MESSAGES("text_not_str", type_name=type(text).__name__))
    # NFC before (an "İ" typed as I + U+0307 composes into U+0130) and after (a mark the dropped
    # character kept apart from its letter composes with it)
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).translate(_INVISIBLE))


def tokenize(text: str) -> list[str]:
    """Lower-case words and punctuation marks, after :func:`normalize`.

    >>> tokenize("The cat sat. Кот сидел!")
    ['the', 'cat', 'sat', '.', 'кот', 'сидел', '!']
    >>> tokenize("İstanbul, a\u200bb\u202e")
    ['istanbul', ',', 'ab']
    """
    return _TOKEN.findall(normalize(text).lower())


def _check_texts(texts) -> None:
    if isinstance(texts, str) or not isinstance(texts, list | tuple):
        raise TypeError(MESSAGES("texts_not_list", type_name=type(texts).__name__))


class Vocab:
    """Maps words to integer ids and back.

    Ids 0-3 are the special tokens ``<pad>`` (fills short sequences in a batch),
    ``<unk>`` (any word not seen when the vocabulary was built), ``<bos>`` and ``<eos>``
    (beginning and end of a sequence). Other words follow, most frequent first, ties in
    alphabetical order, so the ids depend only on the words and their counts -- not on
    the order of the texts, which changes when data is shuffled or sharded.
    A vocabulary made by :meth:`build` keeps the counts (``counts``, None otherwise), so
    :meth:`with_min_freq` gives the smaller vocabulary of a larger ``min_freq``.

    Example::

        >>> vocab = Vocab.build(["the cat sat", "the dog sat down"])
        >>> len(vocab), vocab.pad_id, vocab.unk_id
        (9, 0, 1)
        >>> vocab.encode("the cat ran")  # 'ran' was never seen
        [5, 6, 1]
        >>> vocab.decode([5, 6, 1])
        'the cat <unk>'
        >>> ids, mask = vocab.encode_batch(["the cat", "the dog sat down"])
        >>> ids
        tensor([[5, 6, 0, 0],
                [5, 7, 4, 8]])
        >>> mask
        tensor([[ True,  True, False, False],
                [ True,  True,  True,  True]])
    """

    PAD, UNK, BOS, EOS = "<pad>", "<unk>", "<bos>", "<eos>"
    SPECIALS = (PAD, UNK, BOS, EOS)

    def __init__(self, tokens: list[str]):
        if isinstance(tokens, str) or not isinstance(tokens, list | tuple):
            raise TypeError(MESSAGES("tokens_not_list", type_name=type(tokens).__name__))
        if list(tokens[: len(self.SPECIALS)]) != list(self.SPECIALS):
            first = list(tokens[: len(self.SPECIALS)])
            raise ValueError(MESSAGES("specials_first", specials=self.SPECIALS, first=first))
        self.itos: list[str] = list(tokens)
        self.stoi: dict[str, int] = {}
        for i, tok in enumerate(self.itos):
            if not isinstance(tok, str):
                raise TypeError(MESSAGES("text_not_str", type_name=type(tok).__name__))
            if tok in self.stoi:
                raise ValueError(MESSAGES("duplicate_token", token=tok, first=self.stoi[tok], second=i))
            self.stoi[tok] = i
        self.pad_id, self.unk_id, self.bos_id, self.eos_id = range(len(self.SPECIALS))
        self.counts: dict[str, int] | None = None  # word -> how often it occurred, set by build

    @classmethod
    def build(cls, texts: list[str], min_freq: int = 1) -> "Vocab":
        """A vocabulary of every word that occurs at least ``min_freq`` times in ``texts``."""
        _check_texts(texts)
        if not is_integer(min_freq) or min_freq < 1:
            raise ValueError(MESSAGES("min_freq", value=min_freq))
        counts = Counter(tok for text in texts for tok in tokenize(text))
        words = sorted(
            (w for w, c in counts.items() if c >= min_freq and w not in cls.SPECIALS),
            key=lambda w: (-counts[w], w),
        )
        vocab = cls([*cls.SPECIALS, *words])
        vocab.counts = {w: counts[w] for w in words}
        return vocab

    def with_min_freq(self, min_freq: int) -> "Vocab":
        """The vocabulary :meth:`build` would give on the same texts with this larger ``min_freq``.

        Words come most frequent first, so it is a prefix of ``itos``, with the same ids; a
        ``min_freq`` below the one of :meth:`build` keeps every word.

            >>> texts = ["the cat sat", "the dog sat down"]
            >>> Vocab.build(texts).with_min_freq(2).itos == Vocab.build(texts, min_freq=2).itos
            True
        """
        if self.counts is None:
            raise ValueError(MESSAGES("no_counts"))
        if not is_integer(min_freq) or min_freq < 1:
            raise ValueError(MESSAGES("min_freq", value=min_freq))
        kept = sum(c >= min_freq for c in self.counts.values())
        vocab = type(self)(self.itos[: len(self.SPECIALS) + kept])
        vocab.counts = {w: self.counts[w] for w in vocab.itos[len(self.SPECIALS) :]}
        return vocab

    def __len__(self) -> int:
        return len(self.itos)

    def __contains__(self, word: str) -> bool:
        return word in self.stoi

    def __repr__(self) -> str:
        return f"Vocab(size={len(self)}, pad_id={self.pad_id}, unk_id={self.unk_id})"

    def encode(self, text: str, add_bos_eos: bool = False) -> list[int]:
        """Token ids of ``text``; unknown words become ``unk_id``."""
        ids = [self.stoi.get(tok, self.unk_id) for tok in tokenize(text)]
        return [self.bos_id, *ids, self.eos_id] if add_bos_eos else ids

    def decode(self, ids, skip_pad: bool = True) -> str:
        """The text of ``ids`` (a list or a 1-d integer tensor), padding left out."""
        ids = id_list(ids)
        words = []
        for i in ids:
            if not is_integer(i) or not 0 <= i < len(self):
                raise ValueError(MESSAGES("decode_id_range", value=i, vocab_size=len(self)))
            if not (skip_pad and i == self.pad_id):
                words.append(self.itos[i])
        return _NO_SPACE_BEFORE.sub(r"\1", " ".join(words))

    def encode_batch(self, texts: list[str], add_bos_eos: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
        """Ids of several texts, right-padded to the longest, and the mask of real tokens.

        Returns:
            ``ids``: LongTensor ``(batch, seq)``, padded with ``pad_id``;
            ``mask``: BoolTensor ``(batch, seq)``, True on real tokens, False on padding.
        """
        _check_texts(texts)
        if len(texts) == 0:
            raise ValueError(MESSAGES("empty_batch"))
        return pad_batch([self.encode(text, add_bos_eos) for text in texts], self.pad_id)


def id_list(ids) -> list:
    """``ids`` as a list of Python numbers: a list or tuple, or a 1-d integer tensor."""
    if isinstance(ids, torch.Tensor):
        dense("ids", ids)
        if ids.dim() != 1 or ids.dtype.is_floating_point or ids.dtype.is_complex or ids.dtype == torch.bool:
            raise TypeError(
                MESSAGES("decode_not_ids", got=f"a tensor of shape {tuple(ids.shape)}, dtype {ids.dtype}")
            )
        if ids.is_meta:
            raise ValueError(MESSAGES("decode_meta", value=ids))
        return ids.tolist()
    if isinstance(ids, str) or not isinstance(ids, list | tuple):
        raise TypeError(MESSAGES("decode_not_ids", got=type(ids).__name__))
    return list(ids)


def pad_batch(encoded: list[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Sequences of ids right-padded with ``pad_id`` into ``(ids, mask)``, both ``(batch, seq)``.

    >>> pad_batch([[5, 6, 7], [8]], pad_id=0)
    (tensor([[5, 6, 7],
            [8, 0, 0]]), tensor([[ True,  True,  True],
            [ True, False, False]]))

    A nested tensor of 1-D id sequences (``torch.nested``, what the course's classes refuse) is padded
    the same way.
    """
    if isinstance(encoded, torch.Tensor) and encoded.is_nested:
        encoded = [t.tolist() for t in encoded.unbind()]
    if not encoded:
        raise ValueError(MESSAGES("empty_batch"))
    seq = max(len(e) for e in encoded)
    ids = torch.full((len(encoded), seq), pad_id, dtype=torch.long)  # (batch, seq)
    for row, e in enumerate(encoded):
        ids[row, : len(e)] = torch.tensor(e, dtype=torch.long)
    mask = torch.arange(seq) < torch.tensor([len(e) for e in encoded]).unsqueeze(1)  # (batch, seq)
    return ids, mask
