"""The byte-level BPE tokenizer: train, encode, decode, batch, save and load."""

import heapq
import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from .. import validate
from ..files import write_atomic
from ..validate import is_integer
from ..vocab import id_list, pad_batch
from .messages import MESSAGES
from .pretokenize import GPT2_PATTERN, PATTERN, byte_level, from_readable, readable, utf8
from .train import MergeLearner

__all__ = ["SPECIALS", "CACHE_SIZE", "BPETokenizer", "merge_word"]

SPECIALS = ("<pad>", "<bos>", "<eos>")
# pre-tokens whose ids are remembered; text has far fewer distinct words than this (tokenizers: 10 000)
CACHE_SIZE = 65_536
_FORMAT = "course_lib.BPETokenizer"
_VERSION = 1  # of the file format: load reads this one only


class BPETokenizer:
    """A byte-level BPE tokenizer, as GPT-2 and Hugging Face ``tokenizers`` build them.

    Text is cut into pre-tokens by the GPT-2 pattern (:mod:`~course_lib.bpe.pretokenize`),
    each pre-token into its UTF-8 bytes, and the learned merges join adjacent tokens, lowest
    rank first, inside each pre-token. The 256 byte values are all tokens, so every string
    has an encoding and ``decode(encode(text)) == text`` always: there is no ``<unk>``, and
    unlike :class:`~course_lib.Vocab` nothing is normalised (NFC, lower case, invisible
    characters): BPE keeps every byte.

    Ids: the special tokens first (the first one pads batches: id 0), then the 256 bytes in
    the order of Hugging Face's trainer (:mod:`~course_lib.bpe.train`), then one token per
    merge in the order learned. This is the layout of ``tokenizers``' own ``BpeTrainer``: trained
    on the same texts, both give the same ids, and :meth:`to_tokenizers` exports it as it is.

    Args:
        tokens: every token by id: a special token as its ``str``, any other as its ``bytes``.
        merges: ``(first id, second id)`` of every merge, in rank order; what a merge makes
            is the token spelled by the two parts' bytes.

    Attributes:
        specials: ``{name: id}`` of the special tokens, e.g. ``{"<pad>": 0, "<bos>": 1, "<eos>": 2}``.
        pad_id: the id that :meth:`encode_batch` pads with, the first special token's.
        merges: the merges, as given.

    Example::

        >>> texts = ["the cat sat on the mat", "the dog sat on the log", "кот сидит на коврике"]
        >>> tok = BPETokenizer.train(texts, vocab_size=300)
        >>> tok
        BPETokenizer(vocab_size=300, merges=41, specials=['<pad>', '<bos>', '<eos>'])
        >>> tok.tokens("the cat sat, кот 😀")  # the emoji was never seen: its 4 bytes
        ['the', ' cat', ' sat', ',', ' ко', 'т', ' ', '\\\\xf0', '\\\\x9f', '\\\\x98', '\\\\x80']
        >>> tok.decode(tok.encode("the cat sat, кот 😀"))
        'the cat sat, кот 😀'
        >>> ids, mask = tok.encode_batch(["the cat", "the dog sat"])
        >>> ids
        tensor([[261, 285,   0],
                [261, 286, 271]])
    """

    def __init__(self, tokens: Sequence[str | bytes], merges: Sequence[tuple[int, int]]):
        self.specials: dict[str, int] = {}
        self._bytes: list[bytes] = []  # by id; a special token's are its UTF-8 text
        ids: dict[bytes, int] = {}
        if isinstance(tokens, str | bytes) or not isinstance(tokens, Sequence):
            raise TypeError(MESSAGES("tokens_not_list", type_name=type(tokens).__name__))
        for i, token in enumerate(tokens):
            if isinstance(token, str):
                _check_special(token, self.specials, f"tokens[{i}]")
                self.specials[token] = i
                token_bytes = utf8(token)
            elif isinstance(token, bytes | bytearray):
                token_bytes = bytes(token)
                if token_bytes in ids:
                    reason = MESSAGES("reason_duplicate", first=ids[token_bytes], second=i, token=token_bytes)
                    raise ValueError(MESSAGES("bad_tokens", reason=reason))
                ids[token_bytes] = i
            else:  # bytes(10**11) would be 100 GB of zeros, not a token
                raise TypeError(MESSAGES("token_type", index=i, value=token))
            self._bytes.append(token_bytes)
        if not self.specials:
            raise ValueError(MESSAGES("specials_empty"))
        try:
            self._byte_ids = [ids[bytes([b])] for b in range(256)]
        except KeyError:
            raise ValueError(MESSAGES("bad_tokens", reason=MESSAGES("reason_bytes"))) from None
        self.merges = _check_merge_list(merges)
        self._ranks = self._check_merges(ids)
        self.pad_id = min(self.specials.values())
        self._cache: dict[str, tuple[int, ...]] = {}

    def _check_merges(self, ids: dict[bytes, int]) -> dict[tuple[int, int], tuple[int, int]]:
        """pair -> (rank, new id), every merge made of tokens that exist before it, every token reachable."""
        known = set(self._byte_ids)
        ranks = {}
        for rank, pair in enumerate(self.merges):
            if not all(i in known for i in pair) or pair in ranks:
                raise ValueError(MESSAGES("bad_merge", index=rank, pair=pair))
            new = ids.get(self._bytes[pair[0]] + self._bytes[pair[1]])
            if new is None:
                raise ValueError(MESSAGES("bad_merge", index=rank, pair=pair))
            known.add(new)
            ranks[pair] = (rank, new)
        for token, i in ids.items():
            if i not in known:
                reason = MESSAGES("reason_unreachable", token_id=i, token=token)
                raise ValueError(MESSAGES("bad_tokens", reason=reason))
        names = {byte_level(token): i for token, i in ids.items()}
        for special in self.specials:
            if special in names:
                raise ValueError(MESSAGES("special_is_token", value=special, token_id=names[special]))
        return ranks

    # ------------------------------------------------------------------------- training

    @classmethod
    def train(
        cls, texts: Sequence[str], vocab_size: int, *, specials: Sequence[str] = SPECIALS
    ) -> "BPETokenizer":
        """Learn merges from ``texts`` until the vocabulary has ``vocab_size`` tokens, specials included.

        Each step merges the most frequent pair of adjacent tokens inside a pre-token; ties go
        to the pair that comes first in id order (see :mod:`~course_lib.bpe.train`). Training
        stops early, with a smaller vocabulary, if every pre-token has become one token.
        """
        if isinstance(texts, str) or not isinstance(texts, Sequence):
            raise TypeError(MESSAGES("texts_not_list", type_name=type(texts).__name__))
        specials = _check_specials(specials)
        if not is_integer(vocab_size):
            raise TypeError(MESSAGES("vocab_size_type", value=vocab_size))
        minimum = 256 + len(specials)
        if vocab_size < minimum:
            raise ValueError(
                MESSAGES(
                    "vocab_size_small",
                    value=vocab_size,
                    minimum=minimum,
                    last=minimum - 1,
                    n_specials=len(specials),
                )
            )
        words = Counter()
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(MESSAGES("text_not_str", index=i, type_name=type(text).__name__))
            utf8(text, f"texts[{i}]")  # a lone surrogate is named in its text, not in a pre-token
            words.update(PATTERN.findall(text))
        if not words:
            raise ValueError(MESSAGES("empty_corpus", count=len(texts)))
        learner = MergeLearner({utf8(word): n for word, n in words.items()}, offset=len(specials))
        while len(specials) + len(learner.tokens) < vocab_size and learner.step():
            pass
        return cls([*specials, *learner.tokens], [(a, b) for a, b, _ in learner.merges])

    def truncate(self, vocab_size: int) -> "BPETokenizer":
        """The tokenizer as its training was when the vocabulary had ``vocab_size`` tokens.

        Training is greedy: each merge depends only on the word counts and the merges before
        it, never on how many will follow. So the tokens below ``vocab_size`` and the merges
        that made them are exactly what :meth:`train` learns on the same texts with that
        ``vocab_size`` (``tests/unit/test_bpe.py`` checks it): one training at the largest size
        gives every smaller vocabulary.

            >>> tok = BPETokenizer.train(["low lower newest widest"] * 3, vocab_size=270)
            >>> tok.truncate(262) == BPETokenizer.train(["low lower newest widest"] * 3, vocab_size=262)
            True
        """
        if not is_integer(vocab_size):
            raise TypeError(MESSAGES("vocab_size_type", value=vocab_size))
        minimum = max(*self.specials.values(), *self._byte_ids) + 1
        if not minimum <= vocab_size <= len(self):
            raise ValueError(MESSAGES("truncate_range", value=vocab_size, minimum=minimum, size=len(self)))
        # the merges up to the one that made the last token kept: training stops there, so a
        # later merge that spells a token kept again (two merges, one token) is not learned
        last = -1
        if vocab_size > minimum:
            last = min(rank for rank, new in self._ranks.values() if new == vocab_size - 1)
        tokens = [
            self._bytes[i].decode() if i in self.specials.values() else self._bytes[i]
            for i in range(vocab_size)
        ]
        return BPETokenizer(tokens, self.merges[: last + 1])

    # ------------------------------------------------------------------------- text -> ids -> text

    def __len__(self) -> int:
        return len(self._bytes)

    @property
    def vocab_size(self) -> int:
        return len(self._bytes)

    def encode(self, text: str, add_bos_eos: bool = False) -> list[int]:
        """The token ids of ``text`` (a text that spells a special token is ordinary text).

        Args:
            add_bos_eos: put ``<bos>`` before and ``<eos>`` after (both must be special tokens).
        """
        return self._encode(text, validate.flag("add_bos_eos", add_bos_eos), "text")

    def _encode(self, text: str, add_bos_eos: bool, name: str) -> list[int]:
        if not isinstance(text, str):
            raise TypeError(MESSAGES("encode_not_str", type_name=type(text).__name__))
        ids, cache = [], self._cache
        try:
            for piece in PATTERN.findall(text):
                found = cache.get(piece)
                ids.extend(found if found is not None else self._encode_piece(piece))
        except UnicodeEncodeError:
            utf8(text, name)  # raises the message that names the lone surrogate and its position
        if add_bos_eos:
            if "<bos>" not in self.specials or "<eos>" not in self.specials:
                raise ValueError(MESSAGES("no_bos_eos", specials=list(self.specials)))
            return [self.specials["<bos>"], *ids, self.specials["<eos>"]]
        return ids

    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        """One pre-token: its bytes, then the learned merges, lowest rank first (:func:`merge_word`)."""
        ids = merge_word([self._byte_ids[b] for b in piece.encode("utf-8")], self._ranks)
        if len(self._cache) < CACHE_SIZE:
            self._cache[piece] = ids
        return ids

    def encode_batch(self, texts: Sequence[str], add_bos_eos: bool = False):
        """Ids of several texts, right-padded with ``pad_id`` to the longest, and the mask of real tokens.

        Returns:
            ``ids``: LongTensor ``(batch, seq)``; ``mask``: BoolTensor ``(batch, seq)``, True on
            real tokens -- as :meth:`course_lib.Vocab.encode_batch`, so
            :class:`~course_lib.TransformerEmbedding` takes them as they are.
        """
        if isinstance(texts, str) or not isinstance(texts, Sequence):
            raise TypeError(MESSAGES("texts_not_list", type_name=type(texts).__name__))
        add_bos_eos = validate.flag("add_bos_eos", add_bos_eos)
        return pad_batch(
            [self._encode(t, add_bos_eos, f"texts[{i}]") for i, t in enumerate(texts)], self.pad_id
        )

    def decode(self, ids, skip_pad: bool = True) -> str:
        """The text of ``ids`` (a list or a 1-d integer tensor); padding left out unless ``skip_pad=False``.

        Bytes that do not form UTF-8 characters (a sequence cut inside a character) become
        U+FFFD, as in ``tokenizers``.
        """
        skip_pad = validate.flag("skip_pad", skip_pad)
        ids, size = id_list(ids), len(self._bytes)
        for i in ids:
            if not is_integer(i) or not 0 <= i < size:
                raise ValueError(MESSAGES("decode_id", value=i, vocab_size=size))
        parts = [self._bytes[i] for i in ids if not (skip_pad and i == self.pad_id)]
        return b"".join(parts).decode("utf-8", "replace")

    # ------------------------------------------------------------------------- looking at tokens

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes of a token (a special token's: its name in UTF-8)."""
        if not is_integer(token_id) or not 0 <= token_id < len(self._bytes):
            raise ValueError(MESSAGES("token_id", value=token_id, vocab_size=len(self._bytes)))
        return self._bytes[token_id]

    def id_to_token(self, token_id: int) -> str:
        """A token as text: a special token's name, or its bytes by :func:`~course_lib.bpe.pretokenize.readable`
        (UTF-8 where they are whole characters, ``\\xNN`` where not)."""
        token = self.token_bytes(token_id)
        return token.decode() if token_id in self.specials.values() else readable(token)

    def tokens(self, text: str) -> list[str]:
        """The tokens of ``text`` as text, one string per id: what a coloured display shows."""
        return [self.id_to_token(i) for i in self.encode(text)]

    def __repr__(self) -> str:
        specials = list(self.specials)
        return f"BPETokenizer(vocab_size={len(self)}, merges={len(self.merges)}, specials={specials})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, BPETokenizer):
            return NotImplemented
        return (self._bytes, self.specials, self.merges) == (other._bytes, other.specials, other.merges)

    # ------------------------------------------------------------------------- files

    def save(self, path: str | os.PathLike) -> None:
        """Write the tokenizer as JSON that a person can read: tokens by id, merges as pairs of tokens.

        Keys: ``specials`` (``{name: id}``), ``tokens`` (every token by id, one per line) and
        ``merges`` (``[first, second]`` in rank order, one per line). A token is written as
        :meth:`id_to_token` shows it: its UTF-8 text where its bytes are whole characters
        (``" на"``), ``\\xNN`` for a byte that is part of a character (``"\\xd0"``), a backslash
        doubled -- readable in any language, unlike the ``Ġ`` spelling of ``tokenizers``' files,
        and exact both ways. The file is written whole or not at all (a temporary file, then
        renamed), so an interrupted save never leaves half of one.
        """
        path = Path(path)
        tokens = [self.id_to_token(i) for i in range(len(self))]
        merges = [[tokens[a], tokens[b]] for a, b in self.merges]

        def rows(items):
            return ",\n".join(f"    {json.dumps(item, ensure_ascii=False)}" for item in items)

        text = (
            f'{{\n  "format": "{_FORMAT}",\n  "version": {_VERSION},\n'
            f'  "pattern": {json.dumps(GPT2_PATTERN)},\n'
            f'  "specials": {json.dumps(self.specials, ensure_ascii=False)},\n'
            f'  "tokens": [\n{rows(tokens)}\n  ],\n  "merges": [\n{rows(merges)}\n  ]\n}}\n'
        )
        write_atomic(path, text)

    @classmethod
    def load(cls, path: str | os.PathLike) -> "BPETokenizer":
        """A tokenizer written by :meth:`save`."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            if not isinstance(data, dict) or data.get("format") != _FORMAT:
                raise ValueError(f'no "format": "{_FORMAT}"')
            texts, merged, size = data["tokens"], data["merges"], len(data["tokens"])
            specials = {i: name for name, i in data["specials"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
            # RecursionError: JSON nested thousands deep
            detail = f"{type(error).__name__}: {error}"
            raise ValueError(MESSAGES("not_a_file", path=str(path), detail=detail)) from None
        if data.get("version") != _VERSION:
            raise ValueError(
                MESSAGES("load_version", path=str(path), value=data.get("version"), supported=_VERSION)
            )
        if data.get("pattern") != GPT2_PATTERN:
            raise ValueError(
                MESSAGES("load_pattern", path=str(path), value=data.get("pattern"), expected=GPT2_PATTERN)
            )
        seen = set()
        for name, i in data["specials"].items():  # each an id of the file, none twice
            if not (is_integer(i) and 0 <= i < size) or i in seen:
                values = dict(path=str(path), name=name, value=i, size=size, last=size - 1)
                raise ValueError(MESSAGES("load_special_id", **values))
            seen.add(i)
        try:
            tokens = [specials[i] if i in specials else from_readable(t) for i, t in enumerate(texts)]
            ids = {t: i for i, t in enumerate(texts) if i not in specials}
            merges = [(ids[a], ids[b]) for a, b in merged]
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            detail = f"{type(error).__name__}: {error}"
            raise ValueError(MESSAGES("not_a_file", path=str(path), detail=detail)) from None
        return cls(tokens, merges)

    # ------------------------------------------------------------------------- Hugging Face tokenizers

    def to_tokenizers(self):
        """The same tokenizer as a Hugging Face ``tokenizers.Tokenizer``: the same ids for every text."""
        from .hf import to_tokenizers

        return to_tokenizers(self)

    @classmethod
    def from_tokenizers(cls, tokenizer) -> "BPETokenizer":
        """A byte-level BPE ``tokenizers.Tokenizer`` (from :meth:`to_tokenizers`, or trained by ``tokenizers``)."""
        from tokenizers import Tokenizer

        from .hf import from_tokenizers

        if not isinstance(tokenizer, Tokenizer):
            raise TypeError(MESSAGES("not_a_tokenizer", value=tokenizer))
        tokens, merges = from_tokenizers(tokenizer)
        return cls(tokens, merges)


def merge_word(ids: list[int], ranks: dict[tuple[int, int], tuple[int, int]]) -> tuple[int, ...]:
    """A pre-token's ids after BPE: the adjacent pair of lowest rank merged, again and again, until none is left.

    ``ranks`` maps a pair to ``(its rank, the id it makes)``. The plain loop -- find the
    pair of lowest rank, :func:`~course_lib.bpe.train.merge` it everywhere, repeat --
    reads the whole word once per merge it makes, ``O(length × merges)``: minutes for one
    long word. Here, as in Hugging Face ``tokenizers`` (``Word::merge_all``), the tokens
    are a linked list and a heap holds ``(rank, position)`` of every pair that has a merge,
    lowest rank first, then leftmost, which is the plain loop's order. Each merge pops one
    entry and pushes at most two, the new pairs with its neighbours: ``O(length × log length)``.
    An entry whose pair has changed since it was pushed (a part was merged into something
    else) is skipped when it comes up.

        >>> a, b = ord("a"), ord("b")  # ranks: a a -> 256 first, then 256 b -> 257
        >>> merge_word([a, a, a, b], {(a, a): (0, 256), (256, b): (1, 257)})
        (256, 97, 98)
    """
    n = len(ids)
    tokens = list(ids)  # tokens[i]: the token that starts at i, None once merged into its left neighbour
    right = list(range(1, n + 1))  # right[i]: where the next token starts (n: none)
    left = list(range(-1, n - 1))  # left[i]: where the previous token starts (-1: none)
    heap = [
        (*ranks[pair], i, *pair) for i, pair in enumerate(zip(ids, ids[1:], strict=False)) if pair in ranks
    ]
    heapq.heapify(heap)  # (rank, new id, position, first, second)
    while heap:
        _, new, i, first, second = heapq.heappop(heap)
        j = right[i]
        if j == n or tokens[i] != first or tokens[j] != second:
            continue  # stale: the pair at i is no longer this one
        tokens[i], tokens[j] = new, None
        right[i] = right[j]
        if right[i] < n:
            left[right[i]] = i
        for start, end in ((left[i], i), (i, right[i])):  # the new pairs, with each neighbour
            if start >= 0 and end < n and (pair := (tokens[start], tokens[end])) in ranks:
                heapq.heappush(heap, (*ranks[pair], start, *pair))
    return tuple(t for t in tokens if t is not None)


def _check_special(token, seen, name: str) -> None:
    if not isinstance(token, str) or not token:
        raise TypeError(MESSAGES("special_not_str", value=token))
    if token in seen:
        raise ValueError(MESSAGES("special_duplicate", value=token))
    utf8(token, name)


def _check_merge_list(merges) -> list[tuple[int, int]]:
    """``merges`` as a list of ``(int, int)``: a float or a triple is an error, not truncated."""
    if isinstance(merges, str | bytes) or not isinstance(merges, Sequence):
        raise TypeError(MESSAGES("merges_not_list", type_name=type(merges).__name__))
    for i, pair in enumerate(merges):
        if not (isinstance(pair, Sequence) and len(pair) == 2 and all(map(is_integer, pair))):
            raise TypeError(MESSAGES("merge_not_pair", index=i, value=pair))
    return [(int(a), int(b)) for a, b in merges]


def _check_specials(specials) -> tuple[str, ...]:
    if isinstance(specials, str) or not isinstance(specials, Sequence):
        raise TypeError(MESSAGES("specials_not_list", type_name=type(specials).__name__))
    if not specials:
        raise ValueError(MESSAGES("specials_empty"))
    seen = {}
    for i, token in enumerate(specials):
        _check_special(token, seen, f"specials[{i}]")
        seen[token] = len(seen)
    return tuple(specials)
