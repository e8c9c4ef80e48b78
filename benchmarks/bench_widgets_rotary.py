"""Speed of a slider move in lesson 8's explorers, as ratios against a floor measured in the same run.

Each kernel explorer of ``course_lib.widgets.rotary`` (the ALiBi and angles explorers are live,
drawn in the browser: benchmarks/bench_explorers.py's kind) changes its existing figure on a move and
renders a new PNG. For each, at the lesson's settings:

1. move: set a slider's ``.value`` (the observer runs to the end, new PNG in
   ``explorer.image.value``), alternating between two values so every call is a change;
2. floor, render only: ``to_png`` of the explorer's figure with nothing changed -- the
   least any redraw can cost.

Targets: move <= 1.3x render only, and a median move under 100 ms of wall-clock time (the
lesson's promise). Wall-clock numbers on a shared machine are noisy: candidates are taken
in turn, medians of medians reported, CPU time printed beside them. Not part of the tests.

    python benchmarks/bench_widgets_rotary.py     # prints a table, exits 1 if a target is missed
"""

import os
import sys

import torch
from timing import interleaved, report, toggler

from course_lib import plots, widgets

TARGET_MS = 100.0


def main():
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    rope = widgets.rope_explorer()
    together = widgets.rope_explorer()
    together.together.value = True
    cases = {
        "rope: m 5 <-> 6": (rope, toggler(rope.m, 5, 6)),
        "rope: m and n together": (together, toggler(together.m, 5, 9)),
    }
    fns = {name: move for name, (_, move) in cases.items()}
    for name, explorer in (("rope", rope),):
        fns[f"floor: render {name}"] = lambda e=explorer: plots.to_png(e.figure, palette=True)
    t = interleaved(fns)
    print(f"\nlesson 8 explorers, load average {os.getloadavg()[0]:.1f}")
    print(f"  {'(median)':28s} {'wall':>9s} {'CPU':>9s}")
    for name, (sec, cpu) in t.items():
        print(f"  {name:28s} {sec * 1e3:6.1f} ms {cpu * 1e3:6.1f} ms")
    floor = {"rope": "rope"}
    checks = []
    for name in cases:
        render = t[f"floor: render {floor[name.split(':')[0]]}"][0]
        checks.append((f"{name} / render only", t[name][0] / render, 1.3))
    slowest = max(cases, key=lambda name: t[name][0])
    checks.append((f"slowest move ({slowest}) wall ms / 100 ms", t[slowest][0] * 1e3 / TARGET_MS, 1.0))
    return report(checks)


if __name__ == "__main__":
    sys.exit(main())
