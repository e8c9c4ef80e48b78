"""Learning BPE merges: count the pairs once, then update only the words that a merge touches.

BPE (Sennrich et al., 2016, after Gage, 1994) starts from single bytes and repeats one step:
find the most frequent pair of adjacent tokens and merge it into a new token. Counted
naively, every step reads the whole corpus again. Here the words (pre-tokens) are counted
once, as distinct byte strings with their counts, and each step changes the counts of only
the words that contain the merged pair, which an index from pair to words finds. A heap
holds the candidates; an entry whose count went stale is refreshed when it surfaces.

    >>> words = {b"low": 5, b"lower": 2, b"newest": 6, b"widest": 3}
    >>> learner = MergeLearner(words)
    >>> [learner.step() for _ in range(3)]  # (pair, new id, count): e+s, es+t, l+o
    [((68, 82), 256, 9), ((256, 83), 257, 9), ((75, 78), 258, 7)]
    >>> learner.tokens[256:]
    [b'es', b'est', b'lo']

**Ids.** The 256 bytes come first, in the order of the characters that stand for them in
GPT-2's byte-to-unicode map (:data:`~course_lib.bpe.pretokenize.BYTE_ORDER`: ``!`` to ``~``
are ids 0 to 93, letters and digits in their ASCII order; the space is id 220); each merge
that spells new bytes adds the next id. This is the order of Hugging Face's ``BpeTrainer``.

**Tie-break.** Among pairs with the same count, the merge is the pair that comes first in
id order: the smallest first id, then the smallest second id. The result depends only on
the word counts, never on the order of the texts. Above, ``e s`` and ``s t`` both occur 9
times, and ``e`` (68) comes before ``s`` (82). Hugging Face's ``BpeTrainer`` breaks ties
the same way, so with the same ids both learn the same merges
(``tests/unit/test_bpe.py`` trains both on the course's corpus and compares).
"""

import heapq
import itertools
import multiprocessing
from collections import Counter, defaultdict, deque
from collections.abc import Iterable, Iterator, Mapping

from .. import validate
from ..validate import is_integer
from .messages import MESSAGES
from .pretokenize import BYTE_ORDER, FAST_PATTERN, NEWER_CHARACTERS, PATTERN, utf8

__all__ = ["COUNT_CHUNK", "count_words", "count_chunk", "count_pairs", "merge", "MergeLearner"]

#: :func:`count_words` reads its texts in chunks of about this many characters: one task for a worker
#: process, and what each holds in memory besides its counts.
COUNT_CHUNK = 1 << 20


def count_words(texts: Iterable[str], workers: int = 1) -> Counter:
    """How often each pre-token occurs in ``texts``, as UTF-8 bytes: what :class:`MergeLearner` learns from.

    ``texts`` is any iterable of documents -- a list, a generator, the lines of an open file --
    read once and never joined, so a pre-token never spans two documents. They are cut
    into chunks of about :data:`COUNT_CHUNK` characters, each counted by :func:`count_chunk`;
    with ``workers > 1`` and more than one chunk, that many processes count the chunks (at
    most two chunks per worker wait in memory) and the counts are added. A sum does not depend
    on the order of its terms, so the counts, and the merges learned from them, are the
    same for any ``workers`` (``tests/unit/test_bpe.py`` checks it).

        >>> count_words(["low low", "lower"])
        Counter({b'low': 1, b' low': 1, b'lower': 1})
    """
    if isinstance(texts, str | bytes) or not isinstance(texts, Iterable):
        raise TypeError(MESSAGES("train_texts_type", type_name=type(texts).__name__))
    workers = validate.positive_int("workers", workers)
    chunks = _chunks(texts)
    head = list(itertools.islice(chunks, 2))  # a single chunk is not worth starting processes for
    words = Counter()
    if workers == 1 or len(head) < 2:
        for chunk in itertools.chain(head, chunks):
            words.update(count_chunk(chunk))
    else:
        with multiprocessing.Pool(workers) as pool:
            pending = deque()
            for chunk in itertools.chain(head, chunks):
                pending.append(pool.apply_async(count_chunk, (chunk,)))
                if len(pending) > 2 * workers:
                    words.update(pending.popleft().get())
            for result in pending:
                words.update(result.get())
    if not words:  # then every text was empty, and all are in the one chunk
        raise ValueError(MESSAGES("empty_corpus", count=len(head[0])))
    return Counter({word.encode("utf-8"): n for word, n in words.items()})


def count_chunk(texts: list[str]) -> Counter:
    """How often each pre-token (a ``str``) occurs in ``texts``: one chunk of :func:`count_words`.

    The texts are cut by ``FAST_PATTERN``, which cuts as ``PATTERN`` wherever there is none of
    the ``NEWER_CHARACTERS``; if a pre-token holds one, the chunk is counted again by ``PATTERN``.
    """
    counts = Counter()
    for text in texts:
        counts.update(FAST_PATTERN.findall(text))
    if not NEWER_CHARACTERS.isdisjoint("".join(counts)):
        counts = Counter()
        for text in texts:
            counts.update(PATTERN.findall(text))
    return counts


def _chunks(texts: Iterable[str]) -> Iterator[list[str]]:
    """``texts`` checked (a ``str`` each, without a lone surrogate) and grouped, about ``COUNT_CHUNK`` characters a group.

    The last group may be empty; there is always one.
    """
    chunk, size = [], 0
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(MESSAGES("text_not_str", index=i, type_name=type(text).__name__))
        utf8(text, f"texts[{i}]")  # a lone surrogate is named in its text, not in a pre-token
        chunk.append(text)
        size += len(text)
        if size >= COUNT_CHUNK:
            yield chunk
            chunk, size = [], 0
    yield chunk


def count_pairs(words: Mapping[tuple[int, ...], int]) -> Counter:
    """How often each pair of adjacent tokens occurs inside the words, each word weighted by its count.

    Overlapping pairs all count: ``(a, a, a)`` holds the pair ``(a, a)`` twice.

    >>> count_pairs({(97, 97, 97): 1, (98, 97): 2})
    Counter({(97, 97): 2, (98, 97): 2})
    """
    _check_words("count_pairs", words, _is_ids, "word_not_ids")
    counts = Counter()
    for word, n in words.items():
        for pair in zip(word, word[1:], strict=False):
            counts[pair] += n
    return counts


def merge(word: tuple[int, ...], pair: tuple[int, int], new_id: int) -> tuple[int, ...]:
    """``word`` with ``pair`` replaced by ``new_id`` wherever it occurs, reading left to right.

    >>> merge((97, 97, 97), (97, 97), 256)  # a a a -> (aa) a: the second a is taken
    (256, 97)
    """
    if not _is_ids(word):
        raise TypeError(MESSAGES("word_not_ids", name="merge", value=word))
    if not (_is_ids(pair) and len(pair) == 2):
        raise TypeError(MESSAGES("pair_not_ids", value=pair))
    if not is_integer(new_id):
        raise TypeError(MESSAGES("new_id_not_int", value=new_id))
    return _merge(word, pair, new_id)


def _merge(word: tuple[int, ...], pair: tuple[int, int], new_id: int) -> tuple[int, ...]:
    """:func:`merge` of inputs known to be right: the training loop's, called for every word a merge touches."""
    a, b = pair
    out, i, n = [], 0, len(word)
    while i < n:
        if i + 1 < n and word[i] == a and word[i + 1] == b:
            out.append(new_id)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


class MergeLearner:
    """The state of BPE training: the words as tokens, the pair counts, and the tokens so far.

    Args:
        words: each distinct pre-token as UTF-8 bytes, with how often it occurs.
        offset: the id of byte 0 (the special tokens come before the bytes).

    Attributes:
        tokens: the bytes of every token, by id minus ``offset``: the 256 bytes, then one per merge.
        merges: ``(first id, second id, new id)`` of every merge, in order.
    """

    def __init__(self, words: Mapping[bytes, int], offset: int = 0):
        _check_words("MergeLearner", words, lambda word: isinstance(word, bytes), "word_not_bytes")
        self.offset = validate.non_negative_int("offset", offset)
        self.tokens = [bytes([b]) for b in BYTE_ORDER]
        self.merges: list[tuple[int, int, int]] = []
        self._ids = {token: offset + i for i, token in enumerate(self.tokens)}
        first = [self._ids[bytes([b])] for b in range(256)]  # byte -> its id
        self._words = [tuple(first[b] for b in word) for word in words]
        self._counts = list(words.values())
        self._pairs: dict[tuple[int, int], int] = defaultdict(int)  # pair -> its count
        self._where: dict[tuple[int, int], set[int]] = defaultdict(set)  # pair -> the words holding it
        for i, word in enumerate(self._words):
            for pair in zip(word, word[1:], strict=False):
                self._pairs[pair] += self._counts[i]
                self._where[pair].add(i)
        # a max-heap by count, then min by pair: the tie-break is the heap's own order
        self._heap = [(-count, *pair) for pair, count in self._pairs.items()]
        heapq.heapify(self._heap)
        self._merged: set[tuple[int, int]] = set()

    def step(self) -> tuple[tuple[int, int], int, int] | None:
        """Merge the most frequent pair: ``(pair, new id, its count)``, or None when no pair is left."""
        pair, count = self._best()
        if pair is None:
            return None
        a, b = pair
        token = self.tokens[a - self.offset] + self.tokens[b - self.offset]
        # two merges can spell the same bytes, (ab)c and a(bc): they share one token, as in tokenizers
        new = self._ids.get(token)
        if new is None:
            new = self._ids[token] = self.offset + len(self.tokens)
            self.tokens.append(token)
        self.merges.append((a, b, new))
        self._merged.add(pair)
        self._apply(pair, new)
        return pair, new, count

    def _best(self) -> tuple[tuple[int, int] | None, int]:
        while self._heap:
            negative, a, b = heapq.heappop(self._heap)
            count = self._pairs.get((a, b), 0)
            if count != -negative:  # stale: the count changed since this entry was pushed
                if count > 0:
                    heapq.heappush(self._heap, (-count, a, b))
                continue
            if (a, b) not in self._merged:  # a pair whose token came back by another merge keeps its rank
                return (a, b), count
        return None, 0

    def _apply(self, pair: tuple[int, int], new: int) -> None:
        """Merge ``pair`` in the words that hold it, and move their pair counts along."""
        grown = set()
        for i in self._where.pop(pair, ()):
            word, n = self._words[i], self._counts[i]
            merged = _merge(word, pair, new)
            if len(merged) == len(word):  # the index may name a word the pair has left
                continue
            for old in zip(word, word[1:], strict=False):
                self._pairs[old] -= n
            for now in zip(merged, merged[1:], strict=False):
                self._pairs[now] += n
                if new in now:  # only pairs with the new token can have grown
                    grown.add(now)
                    self._where[now].add(i)
            self._words[i] = merged
        for now in grown:
            heapq.heappush(self._heap, (-self._pairs[now], *now))

    def pair_counts(self) -> Counter:
        """The current pair counts (pairs that no longer occur left out)."""
        return Counter({pair: n for pair, n in self._pairs.items() if n})

    def words(self) -> dict[tuple[int, ...], int]:
        """Every word as its current tokens, with its count."""
        return dict(zip(self._words, self._counts, strict=True))


def _is_ids(word) -> bool:
    return isinstance(word, tuple | list) and all(map(is_integer, word))


def _check_words(name: str, words, is_word, key: str) -> None:
    """``words`` must be a dict from words (``is_word``) to positive integer counts."""
    if not isinstance(words, Mapping):
        raise TypeError(MESSAGES("words_not_dict", name=name, type_name=type(words).__name__))
    for word, n in words.items():
        if not is_word(word):
            raise TypeError(MESSAGES(key, name=name, value=word))
        if not is_integer(n) or n <= 0:
            raise ValueError(MESSAGES("count_not_positive", name=name, word=word, value=n))
