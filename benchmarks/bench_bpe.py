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
"""

import os
import random
import sys

os.environ["TOKENIZERS_PARALLELISM"] = "false"  # before tokenizers is imported

import tiktoken  # noqa: E402
from timing import interleaved, report  # noqa: E402
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers  # noqa: E402

from course_lib.bpe import GPT2_PATTERN, HELDOUT_LESSON, SPECIALS, BPETokenizer, course_corpus  # noqa: E402

SIZES = (1000, 4000)
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


def main():
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
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
