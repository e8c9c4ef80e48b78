"""Speed of the input layer, as ratios against a floor measured in the same run.

Wall-clock numbers on a shared 2-core machine are noisy, so this script reports ratios
of medians, never absolute limits, and is not part of the unit tests.

    python benchmarks/bench_embedding.py          # prints a table, exits 1 if a target is missed

Measured:
1. TransformerEmbedding forward (eval, no grad, dropout 0) at batch 32, seq 512,
   d_model 512, vocab 32 000, against
   (a) the floor: the bare lookup F.embedding(ids, weight);
   (b) the two-step form of the tutorials: emb(ids) * sqrt(d) + pe[:, :seq].
   Targets: <= 1.5x the floor, <= 0.6x the two-step form.
2. `import course_lib` against `import torch`, in fresh interpreters. Target: <= 1.15x.
"""

import math
import statistics
import subprocess
import sys

import torch
import torch.nn.functional as F
from timing import interleaved, report

from course_lib import TransformerEmbedding, sinusoidal_table

BATCH, SEQ, D_MODEL, VOCAB = 32, 512, 512, 32_000


def bench_forward():
    torch.manual_seed(0)
    model = TransformerEmbedding(VOCAB, D_MODEL, max_len=SEQ, dropout=0.0).eval()
    ids = torch.randint(1, VOCAB, (BATCH, SEQ))
    weight = model.token_embedding.embedding.weight
    pe = sinusoidal_table(SEQ, D_MODEL).unsqueeze(0)  # (1, seq, d_model), as tutorials store it
    scale = math.sqrt(D_MODEL)
    with torch.no_grad():
        torch.testing.assert_close(model(ids), F.embedding(ids, weight) * scale + pe[:, :SEQ])
        t = interleaved(
            {
                "floor: F.embedding": lambda: F.embedding(ids, weight),
                "two-step: emb*sqrt(d) + pe": lambda: F.embedding(ids, weight) * scale + pe[:, :SEQ],
                "TransformerEmbedding": lambda: model(ids),
            },
            repeats=40,
            warmup=5,
        )
    return {name: wall for name, (wall, _) in t.items()}


def import_time(module, repeats=7):
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(repeats)
    ]
    return statistics.median(runs)


def main():
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    t = bench_forward()
    floor, two_step, ours = (
        t["floor: F.embedding"],
        t["two-step: emb*sqrt(d) + pe"],
        t["TransformerEmbedding"],
    )
    print(f"\nforward, batch {BATCH}, seq {SEQ}, d_model {D_MODEL}, vocab {VOCAB} (median ms)")
    for name, sec in t.items():
        print(f"  {name:30s} {sec * 1e3:7.2f} ms  {sec / floor:5.2f}x floor")
    checks = [
        ("TransformerEmbedding / floor", ours / floor, 1.5),
        ("TransformerEmbedding / two-step", ours / two_step, 0.6),
    ]
    # imports are taken in turn too, so both see the same machine load
    torch_t, lib_t = [], []
    for _ in range(5):
        torch_t.append(import_time("torch", 3))
        lib_t.append(import_time("course_lib", 3))
    torch_s, lib_s = statistics.median(torch_t), statistics.median(lib_t)
    print(f"\nimport torch {torch_s * 1e3:.0f} ms, import course_lib {lib_s * 1e3:.0f} ms")
    checks.append(("import course_lib / import torch", lib_s / torch_s, 1.15))

    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
