"""`make test`'s stages one after the other, each timed, and a table of the times at the end.

    python -m course_tools.stages lint unit slides browser-slides ...

Each stage is ``make STAGE``. What an earlier stage of the same run made is not made again: every
later stage runs with ``-o`` for each stage before it (``make browser-site`` after ``site`` does not
rebuild the site and the decks). The first stage that fails stops the run, as ``make`` does; the
table is printed in either case, each stage's wall-clock time with the load average (1 minute) at its
start and end, since the machines that run the tests are often shared.
"""

import argparse
import os
import subprocess
import sys
import time

__all__ = ["Stage", "run", "table", "main"]


class Stage:
    def __init__(self, name: str, seconds: float, load: tuple[float, float], code: int):
        self.name, self.seconds, self.load, self.code = name, seconds, load, code


def load_average() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:  # not every system has one
        return float("nan")


def minutes(seconds: float) -> str:
    """``  (3 min 05 s)`` for a minute or more, else nothing."""
    whole = round(seconds)
    return f"  ({whole // 60} min {whole % 60:02d} s)" if whole >= 60 else ""


def run(stages: list[str], make: list[str], say=print) -> list[Stage]:
    """Run ``make STAGE`` for each stage in turn (stopping at the first failure); their times."""
    done: list[Stage] = []
    for name in stages:
        command = [*make, *(arg for stage in done for arg in ("-o", stage.name)), name]
        say(f"==> stage {name}", flush=True)
        before, start = load_average(), time.monotonic()
        code = subprocess.call(command)
        done.append(Stage(name, time.monotonic() - start, (before, load_average()), code))
        if code != 0:
            break
    return done


def table(done: list[Stage], planned: list[str]) -> list[str]:
    width = max(len(name) for name in planned)
    lines = [f"stage times (wall clock; load average at start -> end, on {os.cpu_count()} CPUs):"]
    for stage in done:
        status = "" if stage.code == 0 else f"  FAILED (exit {stage.code})"
        lines.append(
            f"  {stage.name:<{width}}  {stage.seconds:7.1f} s{minutes(stage.seconds):16}"
            f"load {stage.load[0]:.1f} -> {stage.load[1]:.1f}{status}"
        )
    lines += [f"  {name:<{width}}  not run" for name in planned[len(done) :]]
    total = sum(stage.seconds for stage in done)
    lines.append(f"  {'total':<{width}}  {total:7.1f} s{minutes(total)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("stages", nargs="+", help="make targets, in order")
    parser.add_argument(
        "--make", default=os.environ.get("MAKE", "make"), help="the make to run (default: $MAKE)"
    )
    args = parser.parse_args(argv)
    done = run(args.stages, [args.make, "--no-print-directory"])
    print("\n".join(table(done, args.stages)), flush=True)
    failed = [stage for stage in done if stage.code != 0]
    return failed[0].code if failed else 0


if __name__ == "__main__":
    sys.exit(main())
