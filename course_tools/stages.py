"""`make test`'s stages, two at a time where they can be, each timed, and a table of the times at the end.

    python -m course_tools.stages --jobs 2 --alone browser-frames --apart 'browser-*' --light grade-test lint unit ...

Each stage is ``make STAGE``. ``STAGE:A,B`` starts only once the stages A and B have passed (what it
reads of theirs: the decks, the site). Stages start in the order given, as soon as one of the ``--jobs``
places is free and the stages they wait for have passed (and as the options below allow). What a stage
of the same run has started is not made again: every stage runs with ``-o`` for each stage started before
it (``make browser-site`` after ``site`` does not rebuild the site and the decks); the stages it must not
run beside are the ones it names. The first stage that fails stops the run, as ``make`` does: no stage
starts after it, those running finish. With more than one job each stage's output is kept until it ends,
then printed whole.

A stage named by ``--alone`` (a name or a shell pattern: ``'browser-*'``) runs with nothing beside it: once
it is the first stage that could start, no stage later in the order starts until the running ones have
ended and it has run (browser-frames: its tests time a frame, which a second stage on the same cores, even
a browser one, can delay).

Stages named by ``--apart`` (a name or a pattern: ``'browser-*'``) run beside each other, never beside the
other stages (but light ones): a stage of one kind waits while a stage of the other kind runs, and a later
stage of the running kind may start first. Beside a stage computing on both cores, the browser stages'
JupyterLab waited past its time limits; beside each other they pass.

A stage named by ``--light`` (a name or a pattern) takes no place: it mostly waits (the hub's class, the
grader's class: servers starting, a sandbox's time limits), so it starts as soon as the stages it waits for
have passed, beside whatever runs, and the ``--jobs`` places stay for the stages that compute. It still waits
behind an ``--alone`` stage, as every stage does; with ``--jobs 1`` every stage runs by itself, light or not.

The table is printed in either case: each stage's start (minutes from the run's start), its wall-clock
time, its CPU time and the load average (1 minute) at its start and end, since the machines that run the
tests are often shared; then the run's own wall-clock time. A stage's CPU time is user + system of every
process it started and that ended within it, orphans too: each stage runs under a reaper (``reap``: on
Linux the subreaper of its process tree), which waits for the processes whose parent ended before them (a
browser's renderers, a daemon a test started) as ``make`` waits for its own children, so their time counts
where it was spent. Without the reaper a browser stage's CPU was some 40 % of what it kept busy: the decks'
browser tests alone on the idle machine counted 92.6 CPU-seconds of the machine's 230.5; under the reaper
222.7 of 223.3 (8 Chromium processes reaped as orphans, 133.8 s). A process still running
``STRAGGLER_WAIT_S`` after the stage's command ended is named in the stage's output and left running.
A ^C or a SIGTERM to the runner ends the run and stops the stages running (each reaper passes a SIGTERM on).
"""

import argparse
import contextlib
import fnmatch
import math
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

__all__ = ["Stage", "parse", "run", "table", "reap", "main"]

#: how long a stage's reaper waits, once the stage's command has ended, for the processes it left running
STRAGGLER_WAIT_S = 10.0
#: how long a stage's reaper gets to stop its command when the run is stopped
STOP_TIMEOUT_S = 30.0
PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>


class Stage:
    def __init__(
        self,
        name: str,
        seconds: float,
        load: tuple[float, float],
        code: int,
        cpu: float = float("nan"),
        start: float = 0.0,
    ):
        self.name, self.seconds, self.load, self.code = name, seconds, load, code
        self.cpu, self.start = cpu, start


def load_average() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:  # not every system has one
        return float("nan")


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity; all of the machine's where there is none)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def minutes(seconds: float) -> str:
    """``  (3 min 05 s)`` for a minute or more, else nothing."""
    whole = round(seconds)
    return f"  ({whole // 60} min {whole % 60:02d} s)" if whole >= 60 else ""


def clock(seconds: float) -> str:
    """``12:05`` for 725 s."""
    whole = round(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def parse(specs: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """``["a", "b:a"]`` -> the stages in order and what each waits for; ValueError naming a bad one."""
    names: list[str] = []
    after: dict[str, list[str]] = {}
    for spec in specs:
        name, _, waits = spec.partition(":")
        wanted = [w for w in waits.split(",") if w]
        if not name or name in after:
            raise ValueError(f"stage {spec!r}: {'no name' if not name else 'named twice'}")
        unknown = [w for w in wanted if w not in after]
        if unknown:
            raise ValueError(f"stage {spec!r} waits for {unknown!r}, which are not stages before it")
        names.append(name)
        after[name] = wanted
    return names, after


def subreaper() -> bool:
    """Make this process the subreaper of its descendants (Linux): orphans become its children, not
    init's. False where the system has no such thing."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (ImportError, AttributeError, OSError, TypeError):
        return False


def _stat(pid: int | str) -> tuple[str, str, int] | None:
    """A process's name, state and parent from Linux's /proc, or None if there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            stat = f.read()
    except OSError:
        return None
    rest = stat[stat.rfind(")") + 2 :].split()
    return stat[stat.find("(") + 1 : stat.rfind(")")], rest[0], int(rest[1])


def _alive(pid: int) -> str | None:
    """The name of a running process ``pid`` (a zombie counts as ended), or None."""
    found = _stat(pid)
    return None if found is None or found[1] in ("Z", "X") else found[0]


def _children(parent: int | None = None) -> list[int]:
    """The children still running of ``parent``, this process by default (Linux's /proc; none elsewhere)."""
    me = os.getpid() if parent is None else parent
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []
    return sorted(
        pid for pid in pids if (found := _stat(pid)) and found[2] == me and found[1] not in ("Z", "X")
    )


def reap(command: list[str], wait_s: float = STRAGGLER_WAIT_S, say=print) -> int:
    """Run ``command`` as the subreaper of its process tree and return its exit code (minus the signal's
    number if a signal ended it); every process of the tree that ends is waited for, orphans too, so that
    this process's own CPU time as its parent sees it (``wait4``) is the whole tree's. Once ``command`` has
    ended, what it left running gets ``wait_s`` seconds to end; then each one still running is named
    (``say``) and left to run. A SIGTERM is passed on to ``command``; a ^C (the whole group's) is left to
    ``command`` to act on, and the reaper stays to count what follows."""
    subreaper()
    started, stopped, passed_on = [], [], []

    def pass_on(signum, _frame):
        stopped.append(signum)
        # once only, and only while the command is not yet waited for (its pid is still its own)
        if started and started[0].returncode is None and not passed_on:
            passed_on.append(signum)
            with contextlib.suppress(ProcessLookupError):
                os.kill(started[0].pid, signum)

    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # from the start; ``command`` gets the default back
    signal.signal(signal.SIGTERM, pass_on)  # a handler: ``command`` starts with the default
    try:
        proc = subprocess.Popen(command, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        started.append(proc)
        if stopped:  # a SIGTERM came while it started
            pass_on(stopped[0], None)
        code = None
        deadline = float("inf")
        while True:
            if code is not None and time.monotonic() >= deadline:
                left = [f"{pid} ({name})" for pid in _children() if (name := _alive(pid))]
                if left:
                    with contextlib.suppress(OSError):  # a closed output takes nothing from the verdict
                        say(
                            f"course_tools.stages: {len(left)} {'process' if len(left) == 1 else 'processes'} "
                            f"the stage started still running {wait_s:g} s after it ended, left so: "
                            f"{', '.join(left)}",
                            flush=True,
                        )
                break
            try:
                pid, status = os.waitpid(-1, 0 if code is None else os.WNOHANG)
            except ChildProcessError:
                break
            if pid == proc.pid:
                code = proc.returncode = os.waitstatus_to_exitcode(status)
                deadline = time.monotonic() + wait_s
            elif pid == 0:  # the command has ended; processes it left are still running
                time.sleep(0.05)
        return code if code is not None else 1
    finally:
        signal.signal(signal.SIGINT, handlers[0])
        signal.signal(signal.SIGTERM, handlers[1])


def _reaper_main(argv: list[str]) -> int:
    """The reaper's process (``REAPER``): ``WAIT_S COMMAND...``. Ends as the command ended: with its exit
    code, or by the signal that ended it."""
    code = reap(argv[1:], float(argv[0]))
    if code < 0:  # ended by a signal: so does the reaper, and its parent reads the same status
        with contextlib.suppress(OSError, ValueError):  # SIGKILL's own action cannot be set, nor needs to be
            signal.signal(-code, signal.SIG_DFL)
        with contextlib.suppress(ImportError, OSError, ValueError):  # the command's core was dumped, not ours
            import resource

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        os.kill(os.getpid(), -code)
        return 128 - code
    return code


# the reaper's process: this module imported from where it is (installed or not, whatever the folder)
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REAPER = (
    f"import sys; sys.path.insert(0, {PACKAGE_PARENT!r}); from course_tools.stages import _reaper_main; "
    "sys.exit(_reaper_main(sys.argv[1:]))"
)


def _call(command: list[str], log, started=lambda proc: None) -> tuple[int, float]:
    """Run ``command`` to its end under a reaper (``reap``; ``started`` is given its process): its exit
    code and the CPU seconds of its whole process tree, orphans included."""
    wrapped = [sys.executable, "-c", REAPER, str(STRAGGLER_WAIT_S), *command]
    proc = subprocess.Popen(wrapped, stdout=log, stderr=subprocess.STDOUT if log is not None else None)
    started(proc)
    _, status, usage = os.wait4(proc.pid, 0)
    code = proc.returncode = os.waitstatus_to_exitcode(status)
    return code, usage.ru_utime + usage.ru_stime


class _Reapers:
    """The stages' reapers as they start, and once the run is stopped, a SIGTERM to each (one that starts
    after the stop gets it as it starts)."""

    def __init__(self):
        self.procs: list[subprocess.Popen] = []
        self.stopping = False
        self.lock = threading.Lock()

    def started(self, proc: subprocess.Popen) -> None:
        with self.lock:
            self.procs.append(proc)
            if self.stopping:
                self._signal(proc, signal.SIGTERM)

    @staticmethod
    def _signal(proc: subprocess.Popen, signum: int) -> None:
        # os.kill, not Popen's methods: they poll, which would take the stage thread's wait4 from it
        if proc.returncode is None and _alive(proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signum)

    def stop(self) -> None:
        """Each reaper passes a SIGTERM on to its stage's command (``make`` passes it on to its own); one
        still running ``STOP_TIMEOUT_S`` later is killed."""
        with self.lock:
            self.stopping = True
            procs = list(self.procs)
            for proc in procs:
                self._signal(proc, signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_S
        while any(proc.returncode is None and _alive(proc.pid) for proc in procs):
            if time.monotonic() >= deadline:
                for proc in procs:
                    self._signal(proc, signal.SIGKILL)
                break
            time.sleep(0.05)


def named_stages(names: list[str], patterns: list[str], option: str) -> set[str]:
    """The stages ``patterns`` name (fnmatch); ValueError naming a pattern that names none."""
    unmatched = [p for p in patterns if not any(fnmatch.fnmatchcase(name, p) for name in names)]
    if unmatched:
        raise ValueError(f"{option} {unmatched[0]!r} names none of the stages {names!r}")
    return {name for name in names if any(fnmatch.fnmatchcase(name, p) for p in patterns)}


def kinds(
    names: list[str], alone: list[str], light: list[str], apart: list[str]
) -> tuple[set[str], set[str], set[str]]:
    """The stages ``--alone``, ``--light`` and ``--apart`` name; ValueError naming a pattern that names none,
    or a stage both light and alone or light and apart."""
    by_itself = named_stages(names, alone, "--alone")
    weightless = named_stages(names, light, "--light")
    kept_apart = named_stages(names, apart, "--apart")
    if both := sorted(by_itself & weightless):
        raise ValueError(f"stage {both[0]!r} is named by both --alone and --light")
    if both := sorted(weightless & kept_apart):
        raise ValueError(f"stage {both[0]!r} is named by both --light and --apart")
    return by_itself, weightless, kept_apart


def run(
    specs: list[str],
    make: list[str],
    say=print,
    jobs: int = 1,
    alone: tuple[str, ...] = (),
    light: tuple[str, ...] = (),
    apart: tuple[str, ...] = (),
) -> list[Stage]:
    """Run ``make STAGE`` for each stage, ``jobs`` at a time at most (stopping at the first failure), a
    stage ``alone`` names with nothing beside it, one ``light`` names beside the others without taking a
    place, those ``apart`` names beside each other only; their times, in the order they ended."""
    names, after = parse(specs)
    by_itself, weightless, kept_apart = kinds(names, list(alone), list(light), list(apart))
    if jobs == 1:
        weightless = set()  # one stage at a time, its output as it comes: none beside it, light or not
    done: list[Stage] = []
    started: list[str] = []
    running: dict[str, threading.Thread] = {}
    reapers = _Reapers()  # each stage's reaper, as it starts
    lock = threading.Condition()
    t0 = time.monotonic()

    def passed(name: str) -> bool:
        return any(stage.name == name and stage.code == 0 for stage in done)

    def stage_thread(name: str, command: list[str]) -> None:
        before, start = load_average(), time.monotonic()
        code, cpu = 1, float("nan")
        try:
            if jobs == 1:
                code, cpu = _call(command, None, reapers.started)
            else:
                with tempfile.TemporaryFile("w+b") as log:
                    code, cpu = _call(command, log, reapers.started)
                    log.seek(0)
                    with lock:  # one stage's output at a time, whole
                        say(
                            f"==> stage {name} ended ({'passed' if code == 0 else f'FAILED, exit {code}'})",
                            flush=True,
                        )
                        sys.stdout.flush()
                        while chunk := log.read(1 << 16):
                            sys.stdout.buffer.write(chunk)
                        sys.stdout.flush()
        finally:
            with lock:
                done.append(
                    Stage(name, time.monotonic() - start, (before, load_average()), code, cpu, start - t0)
                )
                del running[name]
                lock.notify_all()

    def next_stage() -> str | None:
        """The stage to start now, if any: the first in the order whose stages have passed and which has a
        place (a light one needs none) beside stages of its own kind (``apart`` or not); an alone one, once
        first, starts only when nothing runs and keeps every later one waiting until it has run."""
        if any(stage.code != 0 for stage in done) or by_itself & running.keys():
            return None
        heavy = running.keys() - weightless
        places = jobs - len(heavy)
        for name in names:
            if name in started or not all(passed(w) for w in after[name]):
                continue
            if name in by_itself:
                return None if running else name
            if name in weightless:
                return name
            if places > 0 and all((name in kept_apart) == (other in kept_apart) for other in heavy):
                return name
        return None

    try:
        _schedule(lock, next_stage, started, running, stage_thread, make, say)
    except BaseException:  # ^C, or main's SIGTERM: the stages running are stopped too, then the run ends
        previous = (
            signal.getsignal(signal.SIGTERM)
            if threading.current_thread() is threading.main_thread()
            else None
        )
        if previous is not None:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second one does not cut the stop short
        try:
            reapers.stop()
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
        raise
    return done


def _schedule(lock, next_stage, started, running, stage_thread, make, say) -> None:
    """Start each stage ``next_stage`` names, in its thread, until none runs and none can start."""
    with lock:
        while True:
            ready = next_stage()
            if ready is not None:
                command = [*make, *(arg for name in started for arg in ("-o", name)), ready]
                beside = f" (beside {', '.join(running)})" if running else ""
                say(f"==> stage {ready}{beside}", flush=True)
                started.append(ready)
                thread = threading.Thread(target=stage_thread, args=(ready, command), daemon=True)
                running[ready] = thread
                thread.start()
                continue
            if not running:
                break
            lock.wait()


def table(done: list[Stage], planned: list[str], elapsed: float | None = None) -> list[str]:
    """The stages' times; ``elapsed``, the run's own wall-clock time (the stages overlap), ends it."""
    names, _ = parse(planned)
    width = max(len(name) for name in names)
    lines = [
        "stage times (start: minutes into the run; wall clock; CPU: user + system of every process the stage "
        f"started; load average at start -> end, on {usable_cpus()} CPUs):"
    ]
    for stage in sorted(done, key=lambda stage: stage.start):
        status = "" if stage.code == 0 else f"  FAILED (exit {stage.code})"
        lines.append(
            f"  {stage.name:<{width}}  {clock(stage.start):>6}  {stage.seconds:7.1f} s{minutes(stage.seconds):16}"
            f"CPU {stage.cpu:7.1f} s  load {stage.load[0]:.1f} -> {stage.load[1]:.1f}{status}"
        )
    ran = {stage.name for stage in done}
    lines += [f"  {name:<{width}}  not run" for name in names if name not in ran]
    total = sum(stage.seconds for stage in done)
    cpu = sum(stage.cpu for stage in done)
    lines.append(f"  {'stages':<{width}}  {'':>6}  {total:7.1f} s{minutes(total):16}CPU {cpu:7.1f} s")
    if elapsed is not None:
        lines.append(
            f"  {'total':<{width}}  {'':>6}  {elapsed:7.1f} s{minutes(elapsed)}  (wall clock, start to end)"
        )
        cores = usable_cpus()
        if elapsed > 0 and not math.isnan(cpu):  # a stage that never ended has no CPU time (nan)
            bound = cpu / cores
            lines.append(
                f"  {'CPU-bound':<{width}}  {'':>6}  {bound:7.1f} s{minutes(bound)}  (the stages' CPU time over "
                f"{cores} CPUs: about the shortest any schedule of them could take; they were busy "
                f"{cpu / (elapsed * cores):.0%} of the run)"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("stages", nargs="+", help="make targets, in order; STAGE:A,B waits for A and B")
    parser.add_argument(
        "--make", default=os.environ.get("MAKE", "make"), help="the make to run (default: $MAKE)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="stages at once at most (default: 1)")
    parser.add_argument(
        "--alone",
        action="append",
        default=[],
        metavar="PATTERN",
        help="stages to run with nothing beside them (a name or a shell pattern; may be repeated)",
    )
    parser.add_argument(
        "--light",
        action="append",
        default=[],
        metavar="PATTERN",
        help="stages that mostly wait: they run beside the others without taking a place (may be repeated)",
    )
    parser.add_argument(
        "--apart",
        action="append",
        default=[],
        metavar="PATTERN",
        help="stages that run beside each other (and light ones) only, never beside the rest (may be repeated)",
    )
    args = parser.parse_args(argv)
    try:
        kinds(parse(args.stages)[0], args.alone, args.light, args.apart)
    except ValueError as error:
        parser.error(str(error))
    if args.jobs < 1:
        parser.error(f"--jobs must be 1 or more, not {args.jobs!r}")
    start = time.monotonic()
    # a SIGTERM ends the run as a ^C does: the stages running are stopped with it (``run``)
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
    done = run(
        args.stages,
        [args.make, "--no-print-directory"],
        jobs=args.jobs,
        alone=tuple(args.alone),
        light=tuple(args.light),
        apart=tuple(args.apart),
    )
    print("\n".join(table(done, args.stages, time.monotonic() - start)), flush=True)
    failed = [stage for stage in done if stage.code != 0]
    return failed[0].code if failed else 0


if __name__ == "__main__":
    sys.exit(main())
