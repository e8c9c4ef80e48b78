"""Timing helpers shared by the benchmarks: medians taken in turn, a ratio report, a slider mover.

Wall-clock numbers on a shared machine are noisy, so every benchmark here compares
candidates measured in the same run, taken in turn so that drift hits all alike, and
reports ratios of medians against targets, never absolute limits.
"""

import statistics
import time


def median_time(fn, repeats=15, warmup=2):
    """Median wall-clock and CPU seconds of ``fn()``; CPU time is what an idle machine would see."""
    for _ in range(warmup):
        fn()
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def interleaved(fns, rounds=5, **kw):
    """(wall, CPU) medians of per-round medians for each of ``fns``, taking them in turn."""
    results = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            results[name].append(median_time(fn, **kw))
    return {name: tuple(statistics.median(r[k] for r in rs) for k in (0, 1)) for name, rs in results.items()}


def report(checks) -> int:
    """Print (name, measured ratio, target or None) rows; return the exit status: 1 if a target is missed."""
    width = max(len(name) for name, _, _ in checks)
    print(f"\n  {'ratio':{width}s} measured  target")
    ok = True
    for name, ratio, target in checks:
        if target is None:  # a ratio shown beside the others, with no target of its own
            print(f"  {name:{width}s} {ratio:6.2f}")
            continue
        passed = ratio <= target
        ok &= passed
        print(f"  {name:{width}s} {ratio:6.2f}   <= {target:4.2f}  {'ok' if passed else 'MISSED'}")
    return 0 if ok else 1


def toggler(slider, a, b):
    """A move of ``slider`` between two values, alternating, so every call is a real change."""

    def move():
        slider.value = b if slider.value == a else a

    return move
