"""Varied text for the encoding benchmarks: English and Russian, with a vocabulary that keeps growing.

The course's prose repeated (``bench_bpe.write_corpus``) has a few thousand distinct pre-tokens,
so a tokenizer's cache of pre-tokens is warm after the first pass and stays so: it measures a
dictionary lookup, not BPE. Real text keeps bringing new words (Heaps' law: ``V(N) ≈ K·N^β``
distinct words in ``N``), and a new word is a cache miss, merged byte by byte. This module writes
text that does the same, from a seeded generator, identical on every machine and offline:

- each line is in one language (English or Russian, even odds), as many words long as a line of
  the course's prose (its lengths, drawn), the words joined by the gaps the course puts between
  words of that language (``" "``, ``", "``, ``" — "``, ``" («"``, ``" 2"``, …; drawn by their
  counts), each digit of a gap drawn anew (so numbers vary too), and the line's first letter a
  capital;
- the words of each language are drawn by rank from a Zipf law with two regimes, as measured on
  large corpora (Ferrer i Cancho and Solé, 2001: exponent about 1 for the first few thousand
  ranks, steeper after): ``p(r) ∝ 1/(r + Q)`` up to rank ``HEAD``, then ``∝ r^-(1 + 1/k)``
  beyond, which gives ``V(N) ∝ N^(k/(k + 1))`` at large ``N`` (``TAIL_K`` per language);
- rank ``r`` is the course's own ``r``-th most frequent word of that language while there are
  any, then a made-up word from a character model of order ``ORDER`` learned from the course's
  words of that language (so it is spelled like an English or a Russian word, and BPE cuts it
  as it cuts a rare real word), new for each new rank.

Nothing here uses floating point: ranks, lengths and gaps come from integer tables and
``random.Random(seed).getrandbits``, whose stream (Mersenne Twister) Python keeps the same on
every platform. ``DIGESTS`` holds the sha256 of the text written at 1, 10 and 100 MB;
``write_varied`` checks it, so a change anywhere (the generator, the course's prose, Python's
random) is caught instead of measured.

How varied it is, next to real text: ``python benchmarks/varied_text.py [FILE ...]`` prints the
distinct pre-tokens (GPT-2's pattern) of this text and of the given files at the same sizes.
``HEAD`` and ``TAIL_K`` were fitted to the real text at hand offline (on a Debian machine with
rustup): English, the prose of Rust's books (``share/doc/rust/html/*/print.html`` without code,
3.4 MB), and Russian, the translated messages of ``/usr/share/locale/ru/LC_MESSAGES/*.mo``
(4.0 MB). Distinct pre-tokens, this text's language alone against the real one:

    English   0.25 MB  5 051 / 4 402    1 MB 10 508 / 8 968    2 MB 15 121 / 13 015   3.4 MB 20 095 / 19 203
    Russian   0.25 MB  6 131 / 5 630    1 MB 15 301 / 14 172   2 MB 24 139 / 21 582   3.4 MB 34 207 / 33 049

a few percent more varied than both (manuals and messages repeat their terms; general text such
as Wikipedia varies more). Both languages, line by line, against the two real files interleaved:
1 MB 16 638 / 15 141, 4 MB 39 657 / 34 634, 7 MB 56 382 / 50 290 (0.046 of the pre-tokens, real
0.042); then 70 876 in 10 MB and 308 093 in 100 MB (0.018), Heaps' exponent about 0.6 as in the
real files (0.6 to 0.66 between 1 and 7 MB). For scale: text8 (100 MB of English Wikipedia,
lower case) has 253 854 distinct words.
"""

import hashlib
import itertools
import sys
from bisect import bisect_right
from collections import Counter
from pathlib import Path
from random import Random

import regex

from course_lib.bpe import course_corpus
from course_lib.bpe.pretokenize import FAST_PATTERN

#: The ranks with Zipf exponent 1, ``p(r) ∝ 1/(r + Q)`` (Zipf–Mandelbrot's shift ``Q`` flattens the top).
HEAD = 500
Q = 2
#: Beyond ``HEAD``, ``p(r) ∝ r^-(1 + 1/k)``: the tail's exponent per language (Russian inflects: more word forms).
TAIL_K = {"en": 1, "ru": 2}
#: The character model of made-up words: the next letter given the ``ORDER`` before it.
ORDER = 3
SEED = 0
_WORD = regex.compile(r"(\p{L}+)")
_SCALE = 1 << 40  # the integer weights of the head: _SCALE // (r + Q)
_TAIL_BITS = 24  # a tail rank is HEAD·(2^24 / u)^k, u uniform in 1..2^24

#: sha256 of ``write_varied(path, mb)``'s bytes, by ``mb``.
DIGESTS = {
    1: "ff4bb18332a87ec4ad121982cff0f450c3a97dbb3086ff6ef67e147ed5eb46c8",
    10: "08cc94647060c1fe95e96f061a0b2a44d89ab5c7589599cdb85e8828db3752bc",
    100: "f2fd71ad51572ba77187923f9b22793ef077a04ce5a9bb78b753f8962b452f19",
}


def _below(rng: Random, n: int) -> int:
    """A uniform integer in ``0 .. n - 1`` from ``getrandbits`` alone (rejection, as ``random`` does)."""
    bits = n.bit_length()
    while True:
        x = rng.getrandbits(bits)
        if x < n:
            return x


class _Table:
    """Draws from integer weights: cumulative sums and a bisection, no floating point."""

    def __init__(self, items, weights):
        self.items, self.cumulative = list(items), list(itertools.accumulate(weights))
        self.total = self.cumulative[-1]

    def draw(self, rng: Random):
        return self.items[bisect_right(self.cumulative, _below(rng, self.total))]


class _Language:
    """One language's lines: lengths, gaps and words as the course's prose in it has them."""

    def __init__(self, lang: str, rng: Random):
        words, gaps, lengths = Counter(), Counter(), Counter()
        self.finals = Counter()
        for line in course_corpus(lang, "all"):
            parts = _WORD.split(line)
            if len(parts) < 3:
                continue
            words.update(parts[1::2])
            gaps.update(parts[2:-1:2])
            self.finals[parts[-1]] += 1
            lengths[len(parts) // 2] += 1
        self.rng, self.k = rng, TAIL_K[lang]
        self.lengths = _Table(*zip(*sorted(lengths.items()), strict=True))
        self.gaps = _Table(*zip(*sorted(gaps.items()), strict=True))
        self.finals = _Table(*zip(*sorted(self.finals.items()), strict=True))
        # the course's words by count, then alphabetically: ranks 1, 2, ...
        self.lexicon = [w for w, _ in sorted(words.items(), key=lambda item: (-item[1], item[0]))]
        self.known = set(self.lexicon)
        self.made: dict[int, str] = {}
        self.head = _Table(range(1, HEAD + 1), (_SCALE // (r + Q) for r in range(1, HEAD + 1)))
        # the tail's mass, so that p is continuous at HEAD: ∫_HEAD^∞ p(HEAD)(HEAD/r)^(1 + 1/k) dr
        self.tail_mass = (_SCALE // (HEAD + Q)) * HEAD * self.k
        self.total = self.head.total + self.tail_mass
        # the character model: context -> next letter ("" ends the word), from the course's words
        follow: dict[str, Counter] = {}
        for word in {w.lower() for w in words}:
            padded = "^" * ORDER + word + "$"
            for i in range(ORDER, len(padded)):
                follow.setdefault(padded[i - ORDER : i], Counter())[padded[i]] += 1
        self.model = {ctx: _Table(*zip(*sorted(c.items()), strict=True)) for ctx, c in follow.items()}

    def rank(self) -> int:
        rng = self.rng
        x = _below(rng, self.total)
        if x < self.head.total:
            return self.head.items[bisect_right(self.head.cumulative, x)]
        u = _below(rng, 1 << _TAIL_BITS) + 1
        return HEAD * (1 << _TAIL_BITS * self.k) // u**self.k

    def word(self, rank: int) -> str:
        if rank <= len(self.lexicon):
            return self.lexicon[rank - 1]
        word = self.made.get(rank)
        if word is None:
            while True:
                ctx, letters = "^" * ORDER, []
                while (c := self.model[ctx].draw(self.rng)) != "$":
                    letters.append(c)
                    ctx = ctx[1:] + c
                word = "".join(letters)
                if word not in self.known:
                    break
            self.known.add(word)
            self.made[rank] = word
        return word

    def line(self) -> str:
        rng, n = self.rng, self.lengths.draw(self.rng)
        parts = []
        for i in range(n):
            word = self.word(self.rank())
            if i == 0:
                word = word[0].upper() + word[1:]
            parts.append(word)
            gap = self.gaps.draw(rng) if i < n - 1 else self.finals.draw(rng)
            if any(c.isdigit() for c in gap):
                gap = "".join(str(_below(rng, 10)) if c.isdigit() else c for c in gap)
            parts.append(gap)
        parts.append("\n")
        return "".join(parts)


def varied_lines(seed: int = SEED):
    """Lines of varied text, without end, the same for the same ``seed``."""
    rng = Random(seed)
    languages = (_Language("en", rng), _Language("ru", rng))
    while True:
        yield languages[rng.getrandbits(1)].line()


def write_varied(path: Path, megabytes: float, check: bool = True) -> int:
    """The first ``megabytes`` MB of :func:`varied_lines` (whole lines, at least that many bytes); the bytes written."""
    target, written = int(megabytes * 2**20), 0
    digest = hashlib.sha256()
    with open(path, "wb") as out:
        for line in varied_lines():
            data = line.encode("utf-8")
            out.write(data)
            digest.update(data)
            written += len(data)
            if written >= target:
                break
    expected = DIGESTS.get(megabytes)
    if check and expected is not None and digest.hexdigest() != expected:
        raise AssertionError(
            f"the varied text of {megabytes:g} MB is not the one measured before: sha256 "
            f"{digest.hexdigest()}, expected {expected}"
        )
    return written


def heaps(text_lines, marks_mb):
    """(MB, pre-tokens, distinct pre-tokens) at each of ``marks_mb``, reading lines until the last."""
    seen, n, size, rows, marks = set(), 0, 0, [], list(marks_mb)
    for line in text_lines:
        pieces = FAST_PATTERN.findall(line)
        seen.update(pieces)
        n += len(pieces)
        size += len(line.encode("utf-8"))
        while marks and size >= marks[0] * 2**20:
            rows.append((marks.pop(0), n, len(seen)))
        if not marks:
            break
    return rows


def main(paths: list[str]) -> None:
    marks = (0.25, 1, 4, 10, 100)
    sources = {"varied text": varied_lines()}
    for p in paths:
        sources[p] = open(p, encoding="utf-8")  # noqa: SIM115
    for name, lines in sources.items():
        print(name)
        for mb, n, v in heaps(lines, marks):
            print(f"  {mb:6g} MB  {n:11,d} pre-tokens  {v:9,d} distinct  ({v / n:.4f})", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
