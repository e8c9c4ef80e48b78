"""Each lesson's whole run against the time its title cell states, as a ratio.

Every lesson states how long Run All takes (``run_budget_s`` on its title cell; the lesson
tables show it). Here each committed notebook is run from the first cell to the last as the
build runs it (:mod:`course_tools.build.execute`: a fresh ``python3`` kernel in
``notebooks/<lang>/``, ``PYTHONHASHSEED=0``, this checkout first on the path), one lesson
after the other, and the wall-clock time from starting the kernel to the last cell's reply is
compared with the budget. The longest cell of each run is named too: lesson 0 quotes lesson
7's. Beside the wall-clock time, the kernel's CPU time (user + system, from ``psutil``): what
the lesson costs whatever else runs. The load average is printed before each run: on a shared
machine the wall-clock times grow with it (on the 2 cores the budgets were measured on, lesson 7,
then trained in float32, took 28-33 s at load average 2.5-2.9 and 106-117 s at 9-9.5), which is why each budget is twice
the longer of a lesson's two runs at load average under 4, rounded up to 5 s, why a run on a busy
machine is flagged, and why this is not a unit test.

    python benchmarks/bench_lessons.py             # every lesson, English and Russian; `make bench`
    python benchmarks/bench_lessons.py 07 --lang en

Exits 1 when a run exceeds its lesson's budget (or a lesson states none).
"""

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
import psutil
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course_tools.build.course import Course  # noqa: E402
from course_tools.build.execute import kernel_env, lesson_client  # noqa: E402
from course_tools.core.config import CONFIG, LANGUAGES  # noqa: E402


def kernel_cpu(client: NotebookClient) -> float:
    """The CPU seconds (user + system) the running kernel has used so far."""
    times = psutil.Process(client.km.provisioner.pid).cpu_times()
    return times.user + times.system


def run_lesson(name: str, lang: str) -> tuple[float, float, int, float, float]:
    """Of one committed notebook: (wall-clock seconds of the whole run, the kernel's CPU seconds, and of
    the longest cell: its number from 1, its wall-clock seconds, its CPU seconds)."""
    nb = nbformat.read(CONFIG.notebook(name, lang), as_version=4)
    cwd = CONFIG.notebooks_dir(lang)
    started: dict[int, tuple[float, float]] = {}
    took: dict[int, tuple[float, float]] = {}
    cpu = [0.0]  # the kernel's CPU seconds after its last cell

    def on_start(cell, cell_index, **_):
        started[cell_index] = (time.perf_counter(), kernel_cpu(client))

    def on_executed(cell, cell_index, **_):
        wall, cpu_before = started[cell_index]
        cpu[0] = kernel_cpu(client)
        took[cell_index] = (time.perf_counter() - wall, cpu[0] - cpu_before)

    client = lesson_client(nb, cwd, on_cell_start=on_start, on_cell_executed=on_executed)
    start = time.perf_counter()
    client.execute(env=kernel_env(CONFIG.root))
    total = time.perf_counter() - start
    index = max(took, key=lambda i: took[i][0])
    return total, cpu[0], index + 1, *took[index]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("lessons", nargs="*", help="lesson name prefixes, e.g. 07 (default: all)")
    parser.add_argument("--lang", choices=LANGUAGES, action="append", help="default: every language")
    args = parser.parse_args(argv)
    course = Course.load(CONFIG)
    names = course.select(args.lessons)
    langs = args.lang or list(LANGUAGES)
    cpus = os.cpu_count()
    print(f"{cpus} CPUs; the ratio is wall clock / budget, and must be <= 1")
    print(
        "| lesson | lang | load (1 min) | wall clock | kernel CPU | budget | ratio | longest cell (wall, CPU) | |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---|---|")
    ok, busy = True, False
    for name in names:
        title = course.titles.get(name)
        budget = title.budget_s if title is not None else None
        for lang in langs:
            load = os.getloadavg()[0]
            busy |= load > cpus
            total, cpu, cell, longest, longest_cpu = run_lesson(name, lang)
            passed = budget is not None and total <= budget
            ok &= passed
            ratio = f"{total / budget:.2f}" if budget else "–"
            print(
                f"| {name} | {lang} | {load:.2f} | {total:.1f} s | {cpu:.1f} s | {budget or '–'} s | {ratio} "
                f"| cell {cell}: {longest:.1f} s, CPU {longest_cpu:.1f} s | {'ok' if passed else 'MISSED'} |",
                flush=True,
            )
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if busy:
        print(f"the load average was above {cpus} during the runs: other work shared the CPUs, so a MISSED")
        print(
            "here may be the machine's; compare the kernel CPU time with the budget, and run again when idle"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
