"""Speed of RotaryEmbedding, as ratios against the straightforward form measured in the same run.

Wall-clock numbers on a shared 2-core machine are noisy, so this script reports ratios
of medians, never absolute limits, and is not part of the unit tests.

    python benchmarks/bench_rotary.py          # prints a table, exits 1 if a target is missed

Measured: RotaryEmbedding forward on q and k (eval, no grad) at batch 8, heads 8, seq 1024,
head_dim 64, against the two-table form of the tutorials, ``x * cos + rotate(x) * sin``,
with both (seq, head_dim) tables precomputed and rotate() the layout's own:

1. interleaved=True (default) against rotate(x) = (-x_2i+1, x_2i) pair by pair;
2. interleaved=False against Hugging Face's rotate_half, cat((-x2, x1)).

Targets: <= 1.0x each, i.e. never slower than the straightforward form.
"""

import sys

import torch
from timing import interleaved, report

from course_lib import RotaryEmbedding
from course_lib.core.model import rotate_half  # Hugging Face's: (x1, x2) -> (-x2, x1)

BATCH, HEADS, SEQ, HEAD_DIM = 8, 8, 1024, 64


def rotate_pairs(x):
    """(x_0, x_1, x_2, x_3, ...) -> (-x_1, x_0, -x_3, x_2, ...): the interleaved layout's rotate."""
    return torch.stack((-x[..., 1::2], x[..., 0::2]), dim=-1).flatten(-2)


def two_table_reference(rope: RotaryEmbedding):
    """The straightforward form with full-width (seq, head_dim) tables, precomputed once."""
    cos, sin = rope.cos[:SEQ].float(), rope.sin[:SEQ].float()  # (seq, head_dim/2)
    if rope.interleaved:
        cos, sin, rotate = cos.repeat_interleave(2, -1), sin.repeat_interleave(2, -1), rotate_pairs
    else:
        cos, sin, rotate = torch.cat((cos, cos), -1), torch.cat((sin, sin), -1), rotate_half
    return lambda q, k: (q * cos + rotate(q) * sin, k * cos + rotate(k) * sin)


def bench(layout: str, interleaved_pairs: bool) -> float:
    torch.manual_seed(0)
    rope = RotaryEmbedding(HEAD_DIM, max_len=SEQ, interleaved=interleaved_pairs)
    reference = two_table_reference(rope)
    q, k = torch.randn(BATCH, HEADS, SEQ, HEAD_DIM), torch.randn(BATCH, HEADS, SEQ, HEAD_DIM)
    with torch.no_grad():
        for got, expected in zip(rope(q, k), reference(q, k), strict=True):
            torch.testing.assert_close(got, expected)
        t = interleaved(
            {"two tables": lambda: reference(q, k), "RotaryEmbedding": lambda: rope(q, k)}, repeats=15
        )
    wall = {name: w for name, (w, _) in t.items()}
    print(f"\n{layout}, batch {BATCH}, heads {HEADS}, seq {SEQ}, head_dim {HEAD_DIM}, q and k (median ms)")
    for name, sec in wall.items():
        print(f"  {name:20s} {sec * 1e3:7.2f} ms")
    return wall["RotaryEmbedding"] / wall["two tables"]


def main():
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    checks = [
        ("RotaryEmbedding / two tables, interleaved", bench("interleaved=True", True), 1.0),
        ("RotaryEmbedding / two tables, rotate_half", bench("interleaved=False", False), 1.0),
    ]
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
