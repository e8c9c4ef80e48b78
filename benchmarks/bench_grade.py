"""Time to grade one lesson for a class, as a ratio to starting one bare kernel in the same run.

    python benchmarks/bench_grade.py 30 300     # `make grade-bench`; prints a table

Each student hands in lesson 5 as committed, with the reference solution, a known mistake or the
untouched template in its exercise cell (tests/grade/synthetic.py), in English or Russian; the
grader runs them 2 at once, as in `python -m course_tools.grade`. The reference is one kernel
started, running `import torch`, and stopped by nbclient, measured before the class in this run:
a notebook costs that kernel plus the lesson's cells, so seconds per notebook / reference says how
much of the time is the lesson and the check rather than the machine.
"""

import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import nbformat
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course_tools.grading import grade  # noqa: E402
from tests.grade.synthetic import real_lesson, variant  # noqa: E402

EXERCISE = "positional_encoding"


def bare_kernel_seconds() -> float:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import torch")])
    start = time.perf_counter()
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    return time.perf_counter() - start


def make_lesson_class(root: Path, size: int) -> None:
    for i in range(size):
        code, _, _ = variant(EXERCISE, ("correct", "mistake", "template")[i % 3])
        (root / f"student{i:03d}").mkdir(parents=True)
        nb = real_lesson(EXERCISE, code, ("en", "ru")[i % 2])
        nbformat.write(nb, root / f"student{i:03d}" / "05_sinusoidal_encoding.ipynb")


def main(sizes: list[int]) -> None:
    reference = bare_kernel_seconds()
    print(f"reference: one bare kernel (start, import torch, stop): {reference:.1f} s")
    print("| students | seconds | per notebook | per notebook / reference | verdicts |")
    print("|---:|---:|---:|---:|---|")
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            make_lesson_class(Path(tmp) / "submissions", size)
            result = grade.grade(Path(tmp) / "submissions", jobs=2)
            per = result.seconds / size
            statuses = Counter(v.status for v in result.verdicts)
            print(f"| {size} | {result.seconds:.0f} | {per:.1f} | {per / reference:.1f} | {dict(statuses)}")


if __name__ == "__main__":
    main([int(n) for n in sys.argv[1:]] or [30])
