"""The byte-level BPE tokenizer: train, encode, decode, batch, save and load."""

import base64
import binascii
import functools
import heapq
import itertools
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

import regex

from .. import validate
from ..files import write_atomic
from ..validate import is_integer
from ..vocab import id_list, pad_batch
from .messages import MESSAGES
from .pretokenize import (
    FAST_PATTERN,
    GPT2_PATTERN,
    NEWER_CHARACTERS,
    PATTERN,
    from_byte_level,
    from_readable,
    readable,
    utf8,
)
from .train import MergeLearner, count_words

__all__ = [
    "SPECIALS",
    "CACHE_SIZE",
    "CACHED_LENGTH",
    "SHORT_PIECE",
    "MERGE_RULES",
    "STREAM_MARGIN",
    "STREAM_CHUNK",
    "BPETokenizer",
    "merge_word",
]

SPECIALS = ("<pad>", "<bos>", "<eos>")
# pre-tokens whose ids are remembered (tokenizers: 10 000). Varied text has more distinct ones (some 70 000
# in 10 MB, 300 000 in 100 MB: benchmarks/varied_text.py); the first met are the frequent ones, so that
# 32 768 of them catch 95-96 % of a text's pre-tokens there, and 65 536 only 1 % more for twice the memory
# (about 20 MB instead of 5: benchmarks/bench_bpe_stream.py)
CACHE_SIZE = 32_768
# ... if they have at most this many characters, so that the cache's memory is bounded too
CACHED_LENGTH = 256
#: How a tokenizer merges inside a pre-token: "merges", only the listed pairs (GPT-2's ``encoder.py``,
#: Hugging Face ``tokenizers``); "ranks", any two adjacent tokens whose joined bytes are a token,
#: and a pre-token that is a token whole (tiktoken).
MERGE_RULES = ("merges", "ranks")
#: A pre-token of at most this many characters is merged by ``_ShortMerger``'s scan of its pairs (a merge
#: list only); a longer one by :func:`merge_word`'s heap, whose cost grows as ``length × log length``.
SHORT_PIECE = 32
#: ``_ShortMerger`` keeps how each character starts for at most this many characters (and first units).
STARTS_KEPT = 8192
#: :meth:`BPETokenizer.encode_iterable` keeps back the pre-tokens that end within this many characters of
#: the text read so far: the pre-tokenization patterns decide a cut by at most 3 characters past it
#: (a contraction such as ``'ll``), so what it keeps back is never cut otherwise by the text that follows.
STREAM_MARGIN = 16
#: :meth:`BPETokenizer.encode_iterable` reads its texts in chunks of about this many characters
#: (a line at a time would cost more in Python's calls than in the encoding of a short line).
STREAM_CHUNK = 1 << 16
_FORMAT = "course_lib.BPETokenizer"
_VERSION = 1  # of the file format: load reads this one only


class BPETokenizer:
    """A byte-level BPE tokenizer, as GPT-2, tiktoken and Hugging Face ``tokenizers`` build them.

    Text is cut into pre-tokens by a pattern (GPT-2's unless told: :mod:`~course_lib.bpe.pretokenize`),
    each pre-token into its UTF-8 bytes, and merges join adjacent tokens, lowest rank first,
    inside each pre-token. The 256 byte values are all tokens, so every string has an
    encoding and ``decode(encode(text)) == text`` always: there is no ``<unk>``, and unlike
    :class:`~course_lib.Vocab` nothing is normalised (NFC, lower case, invisible characters):
    BPE keeps every byte.

    Which pairs merge is the ``merge_rule``, and the file a vocabulary comes from implies it:

    - ``"merges"``, a merge list (GPT-2's ``vocab.bpe``, ``tokenizers``' ``tokenizer.json``, what
      :meth:`train` learns): only the listed pairs merge, the one listed first first;
    - ``"ranks"``, tiktoken's rule (a ``.tiktoken`` file has a rank for every token and no merge
      list): a pre-token that is a token is taken whole; any other merges any two adjacent
      tokens whose joined bytes are a token, the one of lowest rank first (rank = id).

    On a vocabulary trained by BPE the two give the same ids; a hand-made one shows where
    they part (``tests/unit/test_bpe_tiktoken.py``).

    Ids: by :meth:`train`, the special tokens first (the first one pads batches: id 0), then
    the 256 bytes in the order of Hugging Face's trainer (:mod:`~course_lib.bpe.train`), then
    one token per merge in the order learned: the layout of ``tokenizers``' own ``BpeTrainer``,
    so that trained on the same texts both give the same ids. A loaded vocabulary keeps the
    ids of its file (GPT-2's ``<|endoftext|>`` is 50256, the last), unused ids included.

    Special tokens are ids, not text: by default a text that spells one is refused, as in
    tiktoken (see :meth:`encode`).

    Args:
        tokens: every token by id: a special token as its ``str``, any other as its ``bytes``,
            ``None`` for an id the vocabulary leaves unused (cl100k's 100256).
        merges: ``(first id, second id)`` of every merge, in rank order; what a merge makes
            is the token spelled by the two parts' bytes. Empty for ``merge_rule="ranks"``.
        merge_rule: ``"merges"`` or ``"ranks"`` (:data:`MERGE_RULES`).
        pattern: the pre-tokenization regex (the ``regex`` package's syntax).

    Attributes:
        specials: ``{name: id}`` of the special tokens, e.g. ``{"<pad>": 0, "<bos>": 1, "<eos>": 2}``;
            may be empty.
        pad_id: the id that :meth:`encode_batch` pads with and :meth:`decode` leaves out: the first
            special token's (None without one); a loaded vocabulary's only if its file names one
            (GPT-2's and tiktoken's files do not: ``<|endoftext|>`` decodes as text).
        merges: the merges, as given.
        merge_rule: ``"merges"`` or ``"ranks"``.
        pattern: the pre-tokenization pattern, as given.

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

    def __init__(
        self,
        tokens: Sequence[str | bytes | None],
        merges: Sequence[tuple[int, int]] = (),
        *,
        merge_rule: str = "merges",
        pattern: str = GPT2_PATTERN,
    ):
        if merge_rule not in MERGE_RULES:
            raise ValueError(MESSAGES("merge_rule", value=merge_rule, rules=MERGE_RULES))
        self.merge_rule = merge_rule
        if not isinstance(pattern, str):
            raise TypeError(MESSAGES("pattern_type", value=pattern))
        self.pattern, self._pattern = pattern, _compile(pattern)
        self.specials: dict[str, int] = {}
        self._bytes: list[
            bytes | None
        ] = []  # by id; a special token's are its UTF-8 text, an unused id's None
        self._ids: dict[bytes, int] = {}  # the bytes of every non-special token -> its id
        ids = self._ids
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
            elif token is None:
                token_bytes = None
            else:  # bytes(10**11) would be 100 GB of zeros, not a token
                raise TypeError(MESSAGES("token_type", index=i, value=token))
            self._bytes.append(token_bytes)
        try:
            self._byte_ids = [ids[bytes([b])] for b in range(256)]
        except KeyError:
            raise ValueError(MESSAGES("bad_tokens", reason=MESSAGES("reason_bytes"))) from None
        self.merges = _check_merge_list(merges)
        if merge_rule == "ranks":
            if self.merges:
                raise ValueError(MESSAGES("ranks_with_merges", count=len(self.merges)))
            self._ranks = _JoinedBytes(self._bytes, ids)
        else:
            self._ranks = self._check_merges(ids)
        self._merge_short = (
            _ShortMerger(self._bytes, self._byte_ids, self._ranks, len(tokens)) if self.merges else None
        )
        for special in self.specials:  # spelled like a token's byte-level name, as tokenizers saves it
            spelled = from_byte_level(special)
            if spelled in ids:
                raise ValueError(MESSAGES("special_is_token", value=special, token_id=ids[spelled]))
        self.pad_id = min(self.specials.values()) if self.specials else None
        # GPT-2's pattern has a fast twin (pretokenize.FAST_PATTERN), checked by the cache
        fast = pattern == GPT2_PATTERN
        self._fast = FAST_PATTERN if fast else self._pattern
        self._cache = _PieceCache(
            self._merge_short.encode if self._merge_short else self._encode_piece, checked=fast
        )

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
        return ranks

    # ------------------------------------------------------------------------- the real vocabularies' files

    @classmethod
    def from_gpt2_files(cls, encoder_json: str | os.PathLike, vocab_bpe: str | os.PathLike) -> "BPETokenizer":
        """GPT-2's own tokenizer from its two files: ``encoder.json`` (token -> id) and ``vocab.bpe`` (the merges).

        The file is a merge list, so the merge rule is ``"merges"``, as in GPT-2's ``encoder.py``;
        the pattern is GPT-2's. A token of ``encoder.json`` that is neither a byte nor made by a
        merge is a special token (GPT-2 has one, ``<|endoftext|>``, id 50256), as tiktoken's
        ``data_gym_to_mergeable_bpe_ranks`` reads it; it does not pad batches (``pad_id`` is None). The ids are GPT-2's, tiktoken's ``gpt2``'s
        and ``tokenizers``' (``tests/unit/test_bpe_real.py`` compares them).
        """
        try:
            encoder = json.loads(Path(encoder_json).read_text(encoding="utf-8"))
            lines = Path(vocab_bpe).read_text(encoding="utf-8").split("\n")
            if not isinstance(encoder, dict) or not lines[0].startswith("#version"):
                raise ValueError(
                    "not GPT-2's encoder.json (a JSON object) and vocab.bpe (a '#version' line first)"
                )
            merged = [tuple(line.split(" ")) for line in lines[1:] if line]
            names = {i: name for name, i in encoder.items()}
            if sorted(names) != list(range(len(encoder))):
                raise ValueError("the ids of encoder.json are not 0 to its length - 1")
            made = {a + b for a, b in merged}
            merges = [(encoder[a], encoder[b]) for a, b in merged]
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
            detail = f"{type(error).__name__}: {error}"
            raise ValueError(
                MESSAGES("not_gpt2_files", path=f"{encoder_json}, {vocab_bpe}", detail=detail)
            ) from None
        tokens = []
        for i in range(len(names)):
            token = from_byte_level(names[i])
            is_byte = token is not None and len(token) == 1
            tokens.append(token if token is not None and (is_byte or names[i] in made) else names[i])
        tok = cls(tokens, merges)
        tok.pad_id = None  # the files name no padding token
        return tok

    @classmethod
    def from_tiktoken(
        cls,
        rank_file: str | os.PathLike,
        pattern: str,
        special_tokens: Mapping[str, int] | None = None,
    ) -> "BPETokenizer":
        """A tiktoken vocabulary from its ``.tiktoken`` rank file, its pattern and its special tokens.

        A rank file has one line per token, ``<base64 of its bytes> <rank>``, and no merge list,
        so the merge rule is tiktoken's, ``"ranks"``: any two adjacent tokens whose joined
        bytes are a token, lowest rank first, and a pre-token that is a token taken whole.
        No token pads batches (:meth:`encode_batch` needs ``pad_id``).
        ``pattern`` and ``special_tokens`` are not in the file: tiktoken keeps them in code
        (``tiktoken_ext/openai_public.py``: ``pat_str`` and ``special_tokens`` of ``cl100k_base``
        and the others). An id between the ranks and the special tokens that neither uses
        stays unused, as in tiktoken (cl100k's 100256).
        """
        special_tokens = {} if special_tokens is None else special_tokens
        if not isinstance(special_tokens, Mapping):
            raise TypeError(MESSAGES("special_tokens_not_dict", type_name=type(special_tokens).__name__))
        ranks = {}
        try:
            with open(rank_file, "rb") as file:
                for number, line in enumerate(file, 1):
                    if not line.strip():
                        continue
                    try:
                        token, rank = line.split()
                        ranks[int(rank)] = base64.b64decode(token, validate=True)
                    except (ValueError, binascii.Error):
                        raise ValueError(MESSAGES("rank_line", number=number, line=line[:80])) from None
        except (OSError, ValueError) as error:
            detail = f"{type(error).__name__}: {error}"
            raise ValueError(MESSAGES("not_a_rank_file", path=str(rank_file), detail=detail)) from None
        for name, i in special_tokens.items():
            if not is_integer(i) or i < 0 or i in ranks:
                raise ValueError(MESSAGES("special_id_taken", name=name, value=i, path=str(rank_file)))
        size = 1 + max([*ranks, *special_tokens.values()], default=-1)
        tokens = [ranks.get(i) for i in range(size)]
        for name, i in special_tokens.items():
            tokens[i] = name
        tok = cls(tokens, merge_rule="ranks", pattern=pattern)
        tok.pad_id = None  # the file names no padding token
        return tok

    @classmethod
    def from_tokenizer_json(cls, path: str | os.PathLike) -> "BPETokenizer":
        """A byte-level BPE ``tokenizer.json`` of Hugging Face ``tokenizers`` (as :meth:`from_tokenizers` reads it).

        The file has a merge list, so the merge rule is ``"merges"``, as in ``tokenizers``;
        its special tokens (``added_tokens`` with ``"special": true``) keep their ids, and its
        ``padding`` (if set) gives ``pad_id``.
        """
        from tokenizers import Tokenizer

        try:
            tokenizer = Tokenizer.from_file(str(path))
        except Exception as error:  # tokenizers raises its own Exception for a missing or broken file
            detail = f"{type(error).__name__}: {error}"
            raise ValueError(MESSAGES("not_a_tokenizer_json", path=str(path), detail=detail)) from None
        tok = cls.from_tokenizers(tokenizer)
        tok.pad_id = (tokenizer.padding or {}).get("pad_id")  # the file's padding, if it has one
        return tok

    # ------------------------------------------------------------------------- training

    @classmethod
    def train(
        cls, texts: Iterable[str], vocab_size: int, *, specials: Sequence[str] = SPECIALS, workers: int = 1
    ) -> "BPETokenizer":
        """Learn merges from ``texts`` until the vocabulary has ``vocab_size`` tokens, specials included.

        ``texts`` is any iterable of documents (a list, a generator, an open file's lines), read
        once and never joined (:func:`~course_lib.bpe.train.count_words`); ``workers`` processes
        count its pre-tokens where it has more than one chunk of text (the merges are the same
        for any ``workers``). Each step merges the most frequent pair of adjacent tokens inside
        a pre-token; ties go to the pair that comes first in id order (see
        :mod:`~course_lib.bpe.train`). Training stops early, with a smaller vocabulary, if every
        pre-token has become one token. ``specials=()`` gives a vocabulary without special tokens
        (then :meth:`encode_batch` needs a ``pad_id``).
        """
        if isinstance(texts, str | bytes) or not isinstance(texts, Iterable):
            raise TypeError(MESSAGES("train_texts_type", type_name=type(texts).__name__))
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
        learner = MergeLearner(count_words(texts, workers), offset=len(specials))
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
        self._need_merge_list("truncate")
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

    def _need_merge_list(self, method: str) -> None:
        """Saving, truncating and exporting know a merge list over GPT-2's pattern, with no unused id."""
        unused = [i for i, token in enumerate(self._bytes) if token is None]
        what = []
        if self.merge_rule != "merges":
            what.append(f"merge_rule={self.merge_rule!r}")
        if self.pattern != GPT2_PATTERN:
            what.append(f"pattern={self.pattern!r}")
        if unused:
            what.append(f"unused ids {unused[:3]}")
        if what:
            raise ValueError(MESSAGES("needs_merge_list", method=method, what=", ".join(what)))

    # ------------------------------------------------------------------------- text -> ids -> text

    def __len__(self) -> int:
        return len(self._bytes)

    @property
    def vocab_size(self) -> int:
        return len(self._bytes)

    def encode(
        self,
        text: str,
        add_bos_eos: bool = False,
        *,
        allowed_special: Iterable[str] | str = frozenset(),
        disallowed_special: Iterable[str] | str = "all",
    ) -> list[int]:
        """The token ids of ``text``.

        Special tokens work as in tiktoken's ``Encoding.encode``: a special token in
        ``allowed_special`` (a set of names, or ``"all"``) that the text spells becomes its id;
        a text that spells one in ``disallowed_special`` (by default ``"all"``: every special
        token not allowed) is a ``ValueError``, so that typed text never turns into a special
        id unnoticed; ``disallowed_special=()`` reads such text as ordinary text. Where two
        special tokens could match at one place, the longest wins.

        Args:
            add_bos_eos: put ``<bos>`` before and ``<eos>`` after (both must be special tokens).

            >>> tok = BPETokenizer.train(["a b"], 300, specials=["<|endoftext|>"])
            >>> tok.encode("a<|endoftext|>b", allowed_special="all")
            [65, 0, 66]
            >>> len(tok.encode("a<|endoftext|>b", disallowed_special=()))  # 15 characters, 15 bytes
            15
        """
        allowed, disallowed = self._special_sets(allowed_special, disallowed_special)
        return self._encode(text, validate.flag("add_bos_eos", add_bos_eos), "text", allowed, disallowed)

    def _special_sets(self, allowed_special, disallowed_special) -> tuple[frozenset, frozenset]:
        """tiktoken's arguments as two sets of special tokens: matched, and refused."""
        sets = []
        for name, value in (("allowed_special", allowed_special), ("disallowed_special", disallowed_special)):
            if value == "all":
                value = self.specials
            elif isinstance(value, str | bytes) or not isinstance(value, Iterable):
                raise TypeError(MESSAGES("special_set", name=name, value=value))
            value = frozenset(value)
            unknown = sorted(map(repr, value - self.specials.keys()))
            if unknown:
                raise ValueError(
                    MESSAGES("special_unknown", name=name, value=unknown[0], specials=list(self.specials))
                )
            sets.append(value)
        allowed, disallowed = sets
        if disallowed_special == "all":
            disallowed = disallowed - allowed
        return allowed, disallowed

    def _encode(self, text: str, add_bos_eos: bool, name: str, allowed=frozenset(), disallowed=frozenset()):
        if not isinstance(text, str):
            raise TypeError(MESSAGES("encode_not_str", type_name=type(text).__name__))
        if disallowed and (found := _special_regex(disallowed).search(text)):
            context = text[max(0, found.start() - 10) : found.end() + 10]
            values = dict(name=name, token=found.group(), index=found.start(), context=context)
            raise ValueError(MESSAGES("special_in_text", **values))
        ids, start = [], 0
        try:
            if allowed:
                for found in _special_regex(allowed).finditer(text):
                    self._encode_ordinary(text[start : found.start()], ids)
                    ids.append(self.specials[found.group()])
                    start = found.end()
            self._encode_ordinary(text[start:], ids)
        except UnicodeEncodeError:
            utf8(text, name)  # raises the message that names the lone surrogate and its position
        if add_bos_eos:
            if "<bos>" not in self.specials or "<eos>" not in self.specials:
                raise ValueError(MESSAGES("no_bos_eos", specials=list(self.specials)))
            return [self.specials["<bos>"], *ids, self.specials["<eos>"]]
        return ids

    def _encode_ordinary(self, text: str, ids: list[int]) -> None:
        """Append the ids of ``text``, all of it ordinary text, to ``ids``.

        The fast path: the pre-tokens cut by ``self._fast`` go through the cache with no Python
        loop (``map`` over ``cache.__getitem__``; a miss is computed by ``__missing__``). Where a
        pre-token holds one of the ``NEWER_CHARACTERS``, on which the fast twin of GPT-2's pattern
        cuts otherwise, the cache refuses it and the text is cut again by the pattern itself.
        """
        try:
            ids.extend(self._ids_of(self._fast.findall(text)))
        except _NewerCharacter:
            ids.extend(self._ids_of(self._pattern.findall(text), recut=True))

    def _ids_of(self, pieces: list[str], recut: bool = False) -> list[int]:
        """The ids of pre-tokens; ``recut``: cut by GPT-2's pattern itself after its fast twin met a newer character."""
        cache = self._cache
        if not recut:
            return list(itertools.chain.from_iterable(map(cache.__getitem__, pieces)))
        ids = []
        for piece in pieces:  # a pre-token with a newer character is encoded, never cached
            ids.extend(cache[piece] if NEWER_CHARACTERS.isdisjoint(piece) else self._encode_piece(piece))
        return ids

    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        """One pre-token: its bytes, then merges lowest rank first (:func:`merge_word`), by the merge rule.

        A short one with a merge list goes to :func:`_short_merger`'s function: the same merges in the
        same order, with less work per merge in Python.
        """
        if self._merge_short is not None:
            return self._merge_short(piece)
        data = piece.encode("utf-8")
        whole = self._ids.get(data) if self.merge_rule == "ranks" else None
        if whole is not None:  # tiktoken takes a pre-token that is a token whole
            return (whole,)
        return merge_word([self._byte_ids[b] for b in data], self._ranks)

    def encode_batch(
        self,
        texts: Sequence[str],
        add_bos_eos: bool = False,
        *,
        pad_id: int | None = None,
        allowed_special: Iterable[str] | str = frozenset(),
        disallowed_special: Iterable[str] | str = "all",
    ):
        """Ids of several texts, right-padded to the longest, and the mask of real tokens.

        Padding is ``pad_id`` if given, else the tokenizer's (its first special token); a
        vocabulary without special tokens (GPT-2's files have only ``<|endoftext|>``, tiktoken's
        no pad token) needs ``pad_id``. The special tokens work as in :meth:`encode`.

        Returns:
            ``ids``: LongTensor ``(batch, seq)``; ``mask``: BoolTensor ``(batch, seq)``, True on
            real tokens -- as :meth:`course_lib.Vocab.encode_batch`, so
            :class:`~course_lib.TransformerEmbedding` takes them as they are.
        """
        if isinstance(texts, str) or not isinstance(texts, Sequence):
            raise TypeError(MESSAGES("texts_not_list", type_name=type(texts).__name__))
        add_bos_eos = validate.flag("add_bos_eos", add_bos_eos)
        if pad_id is None:
            pad_id = self.pad_id
            if pad_id is None:
                raise ValueError(MESSAGES("no_pad_id"))
        elif not is_integer(pad_id) or not 0 <= pad_id < len(self):
            raise ValueError(MESSAGES("pad_id", value=pad_id, vocab_size=len(self)))
        allowed, disallowed = self._special_sets(allowed_special, disallowed_special)
        encoded = [
            self._encode(t, add_bos_eos, f"texts[{i}]", allowed, disallowed) for i, t in enumerate(texts)
        ]
        return pad_batch(encoded, pad_id)

    def encode_iterable(
        self,
        texts: Iterable[str],
        *,
        allowed_special: Iterable[str] | str = frozenset(),
        disallowed_special: Iterable[str] | str = "all",
    ) -> Iterator[int]:
        """The ids of the text that ``texts`` (e.g. the lines of an open file) make when joined, as they come.

        The ids are those of ``encode("".join(texts))``, but the text is never joined: only
        the texts are read in chunks of about :data:`STREAM_CHUNK` characters, and of what was
        read only the last few pre-tokens are kept back (those within :data:`STREAM_MARGIN`
        characters of its end, and a possible start of a special token), since the text that
        follows may still join them. So memory does not grow with the input: it holds a chunk,
        the longest text and the cache of pre-tokens, which is bounded (``CACHE_SIZE`` pre-tokens
        of at most ``CACHED_LENGTH`` characters; ``benchmarks/bench_bpe_stream.py`` measures the
        peak from 1 to 100 MB). A special token that ``disallowed_special`` refuses raises
        ``ValueError`` in the chunk where it is read, after the ids of the chunks before.

            >>> tok = BPETokenizer.train(["low lower newest widest"], 300)
            >>> list(tok.encode_iterable(["low lo", "wer\\n", "new", "est"])) == tok.encode("low lower\\nnewest")
            True
        """
        # the ids of each chunk as a list, flattened in C (a generator that yields each id costs a
        # resumption per id); nothing runs before the first id is asked for, errors included
        return itertools.chain.from_iterable(self._stream(texts, allowed_special, disallowed_special))

    def _stream(self, texts, allowed_special, disallowed_special) -> Iterator[list[int]]:
        """:meth:`encode_iterable`'s ids, a list per chunk read."""
        allowed, disallowed = self._special_sets(allowed_special, disallowed_special)
        if isinstance(texts, str | bytes) or not isinstance(texts, Iterable):
            raise TypeError(MESSAGES("iterable_not_texts", type_name=type(texts).__name__))
        specials = allowed | disallowed
        longest = max(map(len, specials), default=0)
        kept, offset = "", 0  # offset: where kept starts in the joined texts
        for part in _stream_chunks(texts):
            buffer = kept + part
            end = len(buffer)  # a special token may start here that the next texts complete
            for start in range(max(0, end - longest + 1), end):
                if any(s.startswith(buffer[start:]) for s in specials):
                    end = start
                    break
            if disallowed and (found := _special_regex(disallowed).search(buffer)) and found.start() < end:
                context = buffer[max(0, found.start() - 10) : found.end() + 10]
                values = dict(token=found.group(), index=offset + found.start(), context=context)
                raise ValueError(MESSAGES("special_in_stream", **values))
            ids, cut = self._stream_cut(buffer, end, allowed)
            yield ids
            kept, offset = buffer[cut:], offset + cut
        if disallowed and (found := _special_regex(disallowed).search(kept)):
            context = kept[max(0, found.start() - 10) : found.end() + 10]
            values = dict(token=found.group(), index=offset + found.start(), context=context)
            raise ValueError(MESSAGES("special_in_stream", **values))
        yield self._encode(kept, False, "texts", allowed)

    def _stream_cut(self, buffer: str, end: int, allowed: frozenset) -> tuple[list[int], int]:
        """The ids of ``buffer`` up to a cut, and the cut: ids final whatever text follows ``buffer[:end]``.

        The pre-tokens that end within ``STREAM_MARGIN`` characters of ``end`` are kept back;
        the ones before them are encoded as they were cut, with no second pass of the pattern.
        """
        start = 0  # of the ordinary text after the last allowed special token that starts before end
        if allowed:
            for found in _special_regex(allowed).finditer(buffer):
                if found.start() >= end:
                    break
                start = found.end()
        ids = self._encode(buffer[:start], False, "texts", allowed) if start else []
        checked = self._fast is not self._pattern  # GPT-2's pattern, cut first by its fast twin
        for recut in (False, True) if checked else (False,):
            pattern = self._pattern if recut else self._fast
            pieces = pattern.findall(buffer, start, end)
            # GPT-2's pattern and its twin cut every character; another pattern may skip some: by positions
            if not checked and sum(map(len, pieces)) != max(0, end - start):
                cut = start
                for piece in pattern.finditer(buffer, start, end):
                    if piece.end() > end - STREAM_MARGIN:
                        break
                    cut = piece.end()
                return ids + self._encode(buffer[start:cut], False, "texts"), cut
            cut, n = end, len(pieces)
            while n and cut > end - STREAM_MARGIN:  # keep back the pieces that end near the end
                n -= 1
                cut -= len(pieces[n])
            if checked and not recut and not NEWER_CHARACTERS.isdisjoint(buffer[cut:end]):
                continue  # a newer character in the pieces kept back may change the cut before them
            del pieces[n:]
            try:
                found = self._ids_of(pieces, recut)
            except _NewerCharacter:  # ... or in a piece before the cut
                continue
            return ids + found, max(cut, start)
        raise AssertionError("the pieces cut by the pattern itself are never refused")

    def decode(self, ids, skip_pad: bool = True) -> str:
        """The text of ``ids`` (a list or a 1-d integer tensor); padding left out unless ``skip_pad=False``.

        A special token's id decodes to its text, as in tiktoken and ``tokenizers``
        (``skip_special_tokens=False``). Bytes that do not form UTF-8 characters (a sequence
        cut inside a character) become U+FFFD, as in ``tokenizers``.
        """
        skip_pad = validate.flag("skip_pad", skip_pad)
        ids, size = id_list(ids), len(self._bytes)
        for i in ids:
            if not is_integer(i) or not 0 <= i < size:
                raise ValueError(MESSAGES("decode_id", value=i, vocab_size=size))
            if self._bytes[i] is None:
                raise ValueError(MESSAGES("unused_id", value=i))
        parts = [self._bytes[i] for i in ids if not (skip_pad and i == self.pad_id)]
        return b"".join(parts).decode("utf-8", "replace")

    # ------------------------------------------------------------------------- looking at tokens

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes of a token (a special token's: its name in UTF-8)."""
        if not is_integer(token_id) or not 0 <= token_id < len(self._bytes):
            raise ValueError(MESSAGES("token_id", value=token_id, vocab_size=len(self._bytes)))
        if self._bytes[token_id] is None:
            raise ValueError(MESSAGES("unused_id", value=token_id))
        return self._bytes[token_id]

    def id_to_token(self, token_id: int) -> str:
        """A token as text: a special token's name, or its bytes by :func:`~course_lib.bpe.pretokenize.readable`
        (UTF-8 where they are whole characters, ``\\xNN`` where not)."""
        token = self.token_bytes(token_id)
        return token.decode() if token_id in self.specials.values() else readable(token)

    def tokens(self, text: str, **special) -> list[str]:
        """The tokens of ``text`` as text, one string per id: what a coloured display shows.

        ``allowed_special`` and ``disallowed_special`` work as in :meth:`encode`.
        """
        return [self.id_to_token(i) for i in self.encode(text, **special)]

    def __repr__(self) -> str:
        specials = list(self.specials)
        if self.merge_rule == "ranks":
            ranks = len(self._ids)
            return f"BPETokenizer(vocab_size={len(self)}, merge_rule='ranks', ranks={ranks}, specials={specials})"
        return f"BPETokenizer(vocab_size={len(self)}, merges={len(self.merges)}, specials={specials})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, BPETokenizer):
            return NotImplemented
        mine = (self._bytes, self.specials, self.merges, self.merge_rule, self.pattern)
        return mine == (other._bytes, other.specials, other.merges, other.merge_rule, other.pattern)

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
        self._need_merge_list("save")
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
        """The same tokenizer as a Hugging Face ``tokenizers.Tokenizer``: the same ids for every text.

        ``tokenizers`` matches its special tokens in text: its ``encode(text)`` is
        ``encode(text, allowed_special="all")`` here, and with ``encode_special_tokens = True``
        it is ``encode(text, disallowed_special=())``. It has no way to refuse them, tiktoken's
        default and this one's. Needs a merge list over GPT-2's pattern.
        """
        from .hf import to_tokenizers

        self._need_merge_list("to_tokenizers")
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


def merge_word(ids: list[int], ranks: Mapping[tuple[int, int], tuple[int, int]]) -> tuple[int, ...]:
    """A pre-token's ids after BPE: the adjacent pair of lowest rank merged, again and again, until none is left.

    ``ranks`` maps a pair to ``(its rank, the id it makes)`` with ``get`` (a merge list's dict, or
    tiktoken's rule: rank = the id of the joined bytes, ``_JoinedBytes``). The plain loop -- find the
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
        (*found, i, *pair)
        for i, pair in enumerate(zip(ids, ids[1:], strict=False))
        if (found := ranks.get(pair)) is not None
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
            if (
                start >= 0
                and end < n
                and (found := ranks.get(pair := (tokens[start], tokens[end]))) is not None
            ):
                heapq.heappush(heap, (*found, start, *pair))
    return tuple(t for t in tokens if t is not None)


class _ShortMerger:
    """:func:`merge_word` for a merge list and a short pre-token, with less work in Python per merge.

    Called with a pre-token (``str``), it returns its ids: the same merges in the same order as
    :func:`merge_word` (lowest rank first, then leftmost), with two savings.

    1. A list instead of a heap. :func:`merge_word` pays, per merge, a pop and two pushes of tuples
       and the upkeep of a linked list; a pre-token of text has a few bytes and makes a few merges,
       where a plain list is cheaper: ``vals[k]`` holds the merge of tokens ``k`` and ``k + 1`` as one
       integer, ``rank << shift | new id`` (so ``min`` finds the lowest rank and ``index`` its
       leftmost place), or ``none`` where the pair has no merge; a merge replaces two tokens by
       one and looks up only the two pairs it makes. The tokens sit between two ``-1``, which pair
       with nothing, so the ends need no test. ``O(length × merges)``: for short pre-tokens only
       (``SHORT_PIECE`` characters).
    2. Characters that start merged. In GPT-2, a Cyrillic letter is two bytes that one merge joins
       (``о`` is ``d0 be``), and half the merges of a Russian word are such joins. A character whose
       bytes alone merge into one token can start as that token when nothing around it could have
       taken one of its bytes (or a part made of them) first: that is, for every part ``t`` that its
       own merges consume at rank ``r``, no merge of rank below ``r`` joins ``t`` with a token on its
       left (made of the text before it) or on its right (starting with a character's first byte).
       Then in any text its merges happen exactly as alone, and joining it first changes nothing
       else: the merges that use the whole character rank above all of its own. The test is made
       once per character (``_start``) and kept (``_Starts``). Where the only merges that could take
       a part first join it with a space on its left (GPT-2's ``Ġ`` + ``d0``, rank 12 210, before
       ``о``'s own 14 910), the character starts merged except right after a space: the first
       character of a pre-token that begins with a space starts together with it (``" о"`` is one
       unit, tested with nothing on its left), and a pre-token with a space elsewhere starts from
       its bytes. ASCII text has nothing to save and starts from its bytes.

    A new pre-token costs a few microseconds of Python calls, so the lookups are kept plain: a pair
    is looked up as the tuple that ``zip`` makes (one tuple reused for the whole row; as fast over
    the varied text of ``benchmarks/bench_bpe.py`` as integer keys ``first << shift | second``),
    and a character's start is a tuple of ids, chained with no conversion (a Russian word's first
    ids built a quarter faster than from characters standing for ids, read back with ``ord``).

    ``tests/unit/test_bpe.py`` compares it with :func:`merge_word` on random merge lists and on
    the real vocabularies' pre-tokens.
    """

    def __init__(self, tokens: list[bytes | None], byte_ids: list[int], ranks, size: int):
        shift = max(size, 1).bit_length()  # an id < size <= mask
        self.mask, self.none = (1 << shift) - 1, len(ranks) << shift  # a rank < len(ranks): none is above all
        self.get = {pair: rank << shift | new for pair, (rank, new) in ranks.items()}.get
        self.byte_ids, self.ranks, self.tokens = byte_ids, ranks, tokens
        # GPT-2's files number the bytes 0-255: bytes.translate maps them; else a lookup per byte
        self.table = bytes(byte_ids) if max(byte_ids) < 256 else None
        self.starts = _Starts(lambda c: self._start(c, False))  # a character -> the ids it starts as
        self.firsts = _Starts(lambda unit: self._start(unit, True))  # a pre-token's first unit -> the same
        self._build_limits()  # tables of the vocabulary alone, built with it (some 0.015 s for GPT-2's)
        self.encode = self._encoder()

    def __call__(self, piece: str) -> tuple[int, ...]:
        return self.encode(piece)

    def _encoder(self):
        """``encode(piece)``, with what it reads bound once (a closure reads faster than attributes)."""
        get, none, mask, table, start, firsts = (
            self.get,
            self.none,
            self.mask,
            self.table,
            self.starts.__getitem__,
            self.firsts,
        )
        byte_id, ranks, short = self.byte_ids.__getitem__, self.ranks, SHORT_PIECE
        chain, repeat = itertools.chain.from_iterable, itertools.repeat

        def encode(piece: str) -> tuple[int, ...]:
            if len(piece) > short:  # the heap's O(length × log length)
                return merge_word(list(map(byte_id, piece.encode("utf-8"))), ranks)
            if piece.isascii() or piece.find(" ", 1) >= 0:
                data = piece.encode("utf-8")
                ids = [-1, *(data.translate(table) if table else map(byte_id, data)), -1]
            else:
                k = 2 if piece[0] == " " else 1
                ids = [-1, *firsts[piece[:k]], *chain(map(start, piece[k:])), -1]
            vals = list(map(get, zip(ids, ids[1:], strict=False), repeat(none)))
            best = min(vals)
            while best != none:
                i = vals.index(best)
                ids[i] = new = best & mask
                del ids[i + 1], vals[i]
                vals[i - 1] = get((ids[i - 1], new), none)
                vals[i] = get((new, ids[i + 1]), none)
                best = min(vals)
            return tuple(ids[1:-1])

        return encode

    def _start(self, unit: str, alone: bool) -> tuple[int, ...]:
        """The ids that ``unit``'s bytes start from: one merged token if safe, else the bytes' own.

        ``alone``: nothing is on its left (the first unit of a pre-token); else a character that is
        not a space (a space-ending token on the left is the one case ``__call__`` keeps apart).
        """
        data = unit.encode("utf-8")
        ids = [self.byte_ids[b] for b in data]
        raw = tuple(ids)
        if len(ids) < 2:
            return raw
        spans = [(k, k + 1) for k in range(len(ids))]
        while len(ids) > 1:
            found = [
                (self.ranks[pair], k)
                for k, pair in enumerate(zip(ids, ids[1:], strict=False))
                if pair in self.ranks
            ]
            if not found:
                return raw  # more than one token: left as bytes
            (rank, new), k = min(found)
            for t, (start, end) in ((ids[k], spans[k]), (ids[k + 1], spans[k + 1])):
                if (start == 0 and not alone and self.left_min[t] < rank) or (
                    end == len(data) and self.right_min[t] < rank
                ):
                    return raw  # something around could take this part before its own merge
            ids[k : k + 2], spans[k : k + 2] = [new], [(spans[k][0], spans[k + 1][1])]
        return (ids[0],)

    def _build_limits(self) -> None:
        """Per token, the lowest rank of a merge that joins it with a token on its left that does not end
        in a space, and with a token on its right that starts with a character's first byte."""
        tokens = self.tokens
        left, right = [len(self.ranks)] * len(tokens), [len(self.ranks)] * len(tokens)
        for (a, b), (rank, _) in self.ranks.items():
            if tokens[a][-1] != 0x20 and rank < left[b]:
                left[b] = rank
            if not 0x80 <= tokens[b][0] < 0xC0 and rank < right[a]:
                right[a] = rank
        self.left_min, self.right_min = left, right


class _Starts(dict):
    """key -> value computed by ``compute`` when first asked for; at most ``STARTS_KEPT`` kept (then computed each time)."""

    def __init__(self, compute):
        super().__init__()
        self.compute = compute

    def __missing__(self, key):
        value = self.compute(key)
        if len(self) < STARTS_KEPT:
            self[key] = value
        return value


class _NewerCharacter(Exception):
    """A pre-token cut by ``FAST_PATTERN`` holds one of the ``NEWER_CHARACTERS``: cut again by ``PATTERN``."""


class _PieceCache(dict):
    """pre-token -> its ids, filled as pre-tokens are met; a missing one is computed by ``__missing__``.

    Bounded: it stops growing at ``CACHE_SIZE`` pre-tokens (as ``tokenizers``' cache does at its
    capacity), and keeps none longer than ``CACHED_LENGTH`` characters. ``checked``: its pre-tokens were cut by
    ``FAST_PATTERN``, and one that holds a ``NEWER_CHARACTERS`` is refused (:class:`_NewerCharacter`);
    such a pre-token is never kept, so a hit is always a pre-token both patterns cut alike.
    ``misses`` counts the pre-tokens computed since the cache was made or cleared (the benchmarks'
    hit rate); a hit costs nothing more.
    """

    def __init__(self, encode_piece, checked: bool):
        super().__init__()
        self._encode_piece, self._checked = encode_piece, checked
        self.misses = 0

    def clear(self) -> None:
        super().clear()
        self.misses = 0

    def __missing__(self, piece: str) -> tuple[int, ...]:
        # one of the NEWER_CHARACTERS? None where every character is below the first of them, U+0558
        # (UTF-8 bytes below 0xd5: Latin, Greek, Cyrillic), the usual case, tested first in line: a call
        # of a function costs as much here as the test
        if (
            self._checked
            and not piece.isascii()
            and max(piece.encode("utf-8", "surrogatepass")) >= 0xD5
            and not NEWER_CHARACTERS.isdisjoint(piece)
        ):
            raise _NewerCharacter(piece)
        self.misses += 1
        ids = self._encode_piece(piece)
        if len(self) < CACHE_SIZE and len(piece) <= CACHED_LENGTH:
            self[piece] = ids
        return ids


def _stream_chunks(texts: Iterable[str]) -> Iterator[str]:
    """``texts`` checked (a ``str`` each, without a lone surrogate) and joined, about ``STREAM_CHUNK`` characters a chunk.

    The checks are made a chunk at a time: a text that is not a ``str`` is reported as it is read, a lone
    surrogate once its chunk is complete, so a non-``str`` later in the same chunk is reported first."""
    parts, size, first = [], 0, 0  # first: the number of parts[0] among the texts
    for number, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(MESSAGES("text_not_str", index=number, type_name=type(text).__name__))
        parts.append(text)
        size += len(text)
        if size >= STREAM_CHUNK:
            yield _joined(parts, first)
            parts, size, first = [], 0, number + 1
    if parts:
        yield _joined(parts, first)


def _joined(parts: list[str], first: int) -> str:
    """``parts`` joined and checked for a lone surrogate by one encode of the whole chunk (a call per text
    cost more than encoding a line); one is a ``ValueError`` that names its text, ``texts[first + k]``."""
    chunk = "".join(parts)
    try:
        chunk.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate is one character: it is in one text
        for number, text in enumerate(parts, first):
            utf8(text, f"texts[{number}]")
        raise AssertionError("unreachable: a lone surrogate is in one of the chunk's texts") from None
    return chunk


class _JoinedBytes:
    """tiktoken's rule as :func:`merge_word` reads a merge list: a pair merges if its joined bytes are a token.

    ``get((first, second))`` is ``(rank, new id)`` with rank = the new token's id, or None.
    """

    def __init__(self, tokens: list[bytes | None], ids: dict[bytes, int]):
        self._tokens, self._ids = tokens, ids

    def get(self, pair: tuple[int, int]) -> tuple[int, int] | None:
        new = self._ids.get(self._tokens[pair[0]] + self._tokens[pair[1]])
        return None if new is None else (new, new)


@functools.lru_cache(maxsize=64)
def _special_regex(specials: frozenset) -> regex.Pattern:
    """A regex that finds any of ``specials``, the longest where several start at one place."""
    return regex.compile("|".join(regex.escape(s) for s in sorted(specials, key=lambda s: (-len(s), s))))


@functools.lru_cache(maxsize=16)
def _compile(pattern: str) -> regex.Pattern:
    """A pre-tokenization pattern compiled; GPT-2's with the letters and digits ``tokenizers`` knows."""
    if pattern == GPT2_PATTERN:
        return PATTERN
    try:
        return regex.compile(pattern)
    except regex.error as error:
        raise ValueError(MESSAGES("pattern_invalid", value=pattern, detail=str(error))) from None


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
    seen = {}
    for i, token in enumerate(specials):
        _check_special(token, seen, f"specials[{i}]")
        seen[token] = len(seen)
    return tuple(specials)
