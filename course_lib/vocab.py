"""A small word-level tokenizer for English and Russian: text -> token ids -> text."""

import re
from collections import Counter

import torch

from .i18n import tr

__all__ = ["Vocab", "tokenize"]

# a word is a run of letters or digits (Unicode-aware, so Cyrillic works like Latin);
# every other visible character is a token of its own
_TOKEN = re.compile(r"\w+|[^\w\s]")
# punctuation that sticks to the word before it when ids are turned back into text
_NO_SPACE_BEFORE = re.compile(r" ([.,!?;:)»])")


def tokenize(text: str) -> list[str]:
    """Lower-case words and punctuation marks.

    >>> tokenize("The cat sat. Кот сидел!")
    ['the', 'cat', 'sat', '.', 'кот', 'сидел', '!']
    """
    if not isinstance(text, str):
        raise TypeError(tr("text_not_str", type_name=type(text).__name__))
    return _TOKEN.findall(text.lower())


class Vocab:
    """Maps words to integer ids and back.

    Ids 0-3 are the special tokens ``<pad>`` (fills short sequences in a batch),
    ``<unk>`` (any word not seen when the vocabulary was built), ``<bos>`` and ``<eos>``
    (beginning and end of a sequence). Other words follow, most frequent first, ties in
    alphabetical order, so the same texts always give the same ids.

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
        if list(tokens[: len(self.SPECIALS)]) != list(self.SPECIALS):
            raise ValueError(f"a vocabulary starts with the special tokens {self.SPECIALS}")
        self.itos: list[str] = list(tokens)
        self.stoi: dict[str, int] = {tok: i for i, tok in enumerate(self.itos)}
        self.pad_id, self.unk_id, self.bos_id, self.eos_id = range(len(self.SPECIALS))

    @classmethod
    def build(cls, texts: list[str], min_freq: int = 1) -> "Vocab":
        """A vocabulary of every word that occurs at least ``min_freq`` times in ``texts``."""
        if isinstance(texts, str) or not isinstance(texts, (list, tuple)):
            raise TypeError(tr("texts_not_list", type_name=type(texts).__name__))
        if isinstance(min_freq, bool) or not isinstance(min_freq, int) or min_freq < 1:
            raise ValueError(tr("min_freq", value=min_freq))
        counts = Counter(tok for text in texts for tok in tokenize(text))
        words = sorted(
            (w for w, c in counts.items() if c >= min_freq and w not in cls.SPECIALS),
            key=lambda w: (-counts[w], w),
        )
        return cls([*cls.SPECIALS, *words])

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
        """The text of ``ids`` (a list or a 1-d tensor), padding left out."""
        if isinstance(ids, torch.Tensor):
            ids = ids.tolist()
        words = []
        for i in ids:
            if not 0 <= i < len(self):
                raise ValueError(tr("decode_id_range", value=i, vocab_size=len(self)))
            if not (skip_pad and i == self.pad_id):
                words.append(self.itos[i])
        return _NO_SPACE_BEFORE.sub(r"\1", " ".join(words))

    def encode_batch(self, texts: list[str], add_bos_eos: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
        """Ids of several texts, right-padded to the longest, and the mask of real tokens.

        Returns:
            ``ids``: LongTensor ``(batch, seq)``, padded with ``pad_id``;
            ``mask``: BoolTensor ``(batch, seq)``, True on real tokens, False on padding.
        """
        if isinstance(texts, str) or not isinstance(texts, (list, tuple)):
            raise TypeError(tr("texts_not_list", type_name=type(texts).__name__))
        if len(texts) == 0:
            raise ValueError(tr("empty_batch"))
        encoded = [self.encode(text, add_bos_eos) for text in texts]
        seq = max(len(e) for e in encoded)
        ids = torch.full((len(encoded), seq), self.pad_id, dtype=torch.long)  # (batch, seq)
        for row, e in enumerate(encoded):
            ids[row, : len(e)] = torch.tensor(e, dtype=torch.long)
        mask = torch.arange(seq) < torch.tensor([len(e) for e in encoded]).unsqueeze(1)  # (batch, seq)
        return ids, mask
