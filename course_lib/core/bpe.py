"""Byte-level BPE, the reference to read: train, encode, decode, at the size of Karpathy's minbpe.

Byte-pair encoding (Sennrich, Haddow and Birch, 2016, "Neural Machine Translation of Rare Words
with Subword Units", https://arxiv.org/abs/1508.07909) in the byte-level form of GPT-2 (Radford
et al., 2019): the 256 byte values are the first tokens, so no text is ever unknown; training
repeats one step, merge the most frequent pair of adjacent tokens into a new token. Text is
first cut by GPT-2's pattern, and no merge crosses a cut. The code follows minbpe's
``regex.py`` (https://github.com/karpathy/minbpe).

Ids here are minbpe's: byte ``b`` is id ``b``, merges follow from 256. ``course_lib.BPETokenizer``
(the checked layer: specials, batches, files, a fast encoder, Hugging Face's ids) learns the
same merges and cuts every text into the same tokens (``tests/unit/test_core.py``).
"""

from collections import Counter
from itertools import pairwise

import regex

#: GPT-2's pre-tokenization pattern: contractions, letters, digits, other symbols (each with at
#: most one space in front), and runs of white space
GPT2_SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

# Hugging Face's BpeTrainer numbers the bytes in the order of the printable characters that GPT-2
# draws them with (bytes_to_unicode: "!" .. "~", "¡" .. "¬", "®" .. "ÿ" stand for themselves, the
# other 68, the space among them, come after) and breaks ties between pairs by those numbers
PRINTABLE = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
BYTE_RANK = {b: rank for rank, b in enumerate(PRINTABLE + [b for b in range(256) if b not in PRINTABLE])}


def get_stats(words: dict[tuple[int, ...], int]) -> Counter:
    """How often each pair of adjacent ids occurs, each word counted as often as it occurs in the texts."""
    counts = Counter()
    for word, n in words.items():
        for pair in pairwise(word):  # overlapping: (a, a, a) holds (a, a) twice
            counts[pair] += n
    return counts


def merge(ids: tuple[int, ...], pair: tuple[int, int], idx: int) -> tuple[int, ...]:
    """``ids`` with every occurrence of ``pair``, read left to right, replaced by ``idx``."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)  # (a a a) with pair (a a): the first two merge, the third stays
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return tuple(out)


def train(texts: list[str], vocab_size: int) -> tuple[dict[tuple[int, int], int], list[bytes]]:
    """Merges ``{(id, id): new id}`` in the order learned, and ``vocab`` (the bytes of each id)."""
    # each distinct pre-token once, as its UTF-8 bytes, with how often it occurs
    chunks = Counter(chunk for text in texts for chunk in regex.findall(GPT2_SPLIT_PATTERN, text))
    words = {tuple(chunk.encode("utf-8")): n for chunk, n in chunks.items()}
    vocab = [bytes([b]) for b in range(256)]  # id -> its bytes
    merges = {}
    while len(vocab) < vocab_size:
        stats = get_stats(words)
        if not stats:
            break  # every pre-token is one token
        # the most frequent pair; among equals the one whose ids come first in Hugging Face's
        # order (a merged token after every byte)
        pair = min(stats, key=lambda p: (-stats[p], BYTE_RANK.get(p[0], p[0]), BYTE_RANK.get(p[1], p[1])))
        idx = len(vocab)
        merges[pair] = idx
        vocab.append(vocab[pair[0]] + vocab[pair[1]])
        words = {merge(word, pair, idx): n for word, n in words.items()}
    return merges, vocab


def encode_chunk(ids: tuple[int, ...], merges: dict[tuple[int, int], int]) -> tuple[int, ...]:
    """One pre-token's byte ids, merged lowest rank (earliest learned) first, until no pair has a merge."""
    while len(ids) >= 2:
        # the pair merged earliest in training: its new id is the smallest
        pair = min(pairwise(ids), key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break  # no pair left to merge
        ids = merge(ids, pair, merges[pair])
    return ids


def encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    """The ids of ``text``: each pre-token's UTF-8 bytes, merged inside the pre-token."""
    out = []
    for chunk in regex.findall(GPT2_SPLIT_PATTERN, text):
        out.extend(encode_chunk(tuple(chunk.encode("utf-8")), merges))
    return out


def decode(ids: list[int], vocab: list[bytes]) -> str:
    """The text of ``ids``; bytes cut inside a character become U+FFFD."""
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
