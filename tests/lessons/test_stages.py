"""`make test`'s stage runner (course_tools/stages.py): each stage once, in order, timed, the first failure
stopping the run, the table printed in every case; and `make test` runs its stages through it."""

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

from course_tools import stages
from tests.support import ROOT

# a build two stages need (like the site, for browser-site and browser-a11y), counted in built.txt
# waits-for-b passes only if b runs while it waits (beside it); reads-built fails unless build has ended
MAKEFILE = """\
.PHONY: build check-a check-b broken after waits-for-b b reads-built slow-build burn busy lonely longlight
.PHONY: orphan-burns orphan-sleeps killed
build:
\techo built >> built.txt
check-a: build
\techo a >> ran.txt
check-b: build
\techo b >> ran.txt
broken:
\texit 3
after:
\techo after >> ran.txt
waits-for-b:
\techo waiting
\tfor i in $$(seq 40); do test -f b.txt && break; sleep 0.05; done; test -f b.txt
\techo waited
b:
\techo b-started
\ttouch b.txt
slow-build:
\tsleep 0.3
\techo slow >> slow.txt
reads-built: slow-build
\ttest -f slow.txt
burn:
\tpython3 -c "import time; all(time.process_time() < 0.4 for _ in iter(int, 1))"
busy:
\tsleep 0.4
lonely:
\tsleep 0.2
longlight:
\tsleep 0.8
orphan-burns:
\t(python3 -c "import time; time.sleep(0.3); all(time.process_time() < 0.4 for _ in iter(int, 1))" &)
\techo left a burner
orphan-sleeps:
\t(exec sleep 30 &)
\techo left a sleeper
killed:
\tkill -KILL $$PPID
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    if not shutil.which("make"):
        pytest.skip("no make on this machine")
    (tmp_path / "Makefile").write_text(MAKEFILE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_stage_does_not_remake_what_an_earlier_stage_made(project):
    done = stages.run(
        ["build", "check-a", "check-b"], ["make", "--no-print-directory"], say=lambda *a, **k: None
    )
    assert [(s.name, s.code) for s in done] == [("build", 0), ("check-a", 0), ("check-b", 0)]
    assert (project / "built.txt").read_text().split() == ["built"]
    assert (project / "ran.txt").read_text().split() == ["a", "b"]


def test_a_stage_alone_still_makes_what_it_needs(project):
    stages.run(["check-b"], ["make"], say=lambda *a, **k: None)
    assert (project / "built.txt").read_text().split() == ["built"]


def test_the_first_failure_stops_the_run_and_the_table_shows_it(project):
    planned = ["check-a", "broken", "after"]
    done = stages.run(planned, ["make", "--no-print-directory"], say=lambda *a, **k: None)
    assert [(s.name, s.code) for s in done] == [("check-a", 0), ("broken", 2)]
    assert not (project / "ran.txt").read_text().count("after")
    lines = stages.table(done, planned, elapsed=12.5)
    assert re.fullmatch(
        r"  broken +\d+:\d\d +\d+\.\d s +CPU +\d+\.\d s  load [\d.]+ -> [\d.]+  FAILED \(exit 2\)", lines[2]
    ), lines[2]
    assert re.fullmatch(r"  after +not run", lines[3]), lines[3]
    assert lines[-3].startswith("  stages ") and " CPU " in lines[-3]
    assert lines[-2].startswith("  total ") and "12.5 s" in lines[-2]
    # the floor the CPU time sets: what no schedule on this machine's cores can beat
    cores = stages.usable_cpus()
    cpu = sum(stage.cpu for stage in done)
    bound = re.fullmatch(
        r"  CPU-bound +([\d.]+) s  \(the stages' CPU time over (\d+) CPUs: about the shortest any schedule of "
        r"them could take; they were busy (\d+)% of the run\)",
        lines[-1],
    )
    assert bound, lines[-1]
    assert float(bound.group(1)) == pytest.approx(cpu / cores, abs=0.05)
    assert int(bound.group(2)) == cores
    assert int(bound.group(3)) == round(100 * cpu / (12.5 * cores))


def test_the_command_exits_as_the_failed_stage_and_prints_the_table(project):
    result = subprocess.run(
        [sys.executable, "-m", "course_tools.stages", "--make", "make", "check-a", "broken"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 2, result.stderr
    assert "stage times" in result.stdout and "FAILED (exit 2)" in result.stdout


def quiet(*args, **kwargs):
    pass


def spans(done):
    return {s.name: (s.start, s.start + s.seconds) for s in done}


def test_two_jobs_run_two_stages_at_once(project):
    done = stages.run(["waits-for-b", "b"], ["make", "--no-print-directory"], say=quiet, jobs=2)
    assert sorted((s.name, s.code) for s in done) == [("b", 0), ("waits-for-b", 0)]
    # one job: the same stages one after the other, and the first waits in vain
    (project / "b.txt").unlink()
    done = stages.run(["waits-for-b", "b"], ["make", "--no-print-directory"], say=quiet, jobs=1)
    assert [(s.name, s.code) for s in done] == [("waits-for-b", 2)]


def test_a_stage_starts_only_once_what_it_waits_for_has_passed(project):
    done = stages.run(
        ["slow-build", "reads-built:slow-build", "b"], ["make", "--no-print-directory"], say=quiet, jobs=2
    )
    assert sorted((s.name, s.code) for s in done) == [("b", 0), ("reads-built", 0), ("slow-build", 0)]
    reads = next(s for s in done if s.name == "reads-built")
    build = next(s for s in done if s.name == "slow-build")
    b = next(s for s in done if s.name == "b")
    assert reads.start >= build.start + build.seconds
    assert b.start < build.start + build.seconds  # the free place went to the next stage that could start
    # and the stage that waited did not make slow-build again (-o)
    assert (project / "slow.txt").read_text().split() == ["slow"]


def test_after_a_failure_no_stage_starts_and_those_running_end(project):
    planned = ["broken", "waits-for-b", "b"]
    done = stages.run(planned, ["make", "--no-print-directory"], say=quiet, jobs=2)
    # waits-for-b started beside broken and ran to its end, waiting in vain: b never started
    assert sorted((s.name, s.code) for s in done) == [("broken", 2), ("waits-for-b", 2)]
    assert not (project / "b.txt").exists()
    lines = stages.table(done, planned)
    assert re.fullmatch(r"  b +not run", lines[3]), lines


def test_a_stage_waiting_for_a_failed_one_never_starts(project):
    done = stages.run(["broken", "after:broken"], ["make", "--no-print-directory"], say=quiet, jobs=2)
    assert [(s.name, s.code) for s in done] == [("broken", 2)]


def test_the_cpu_time_of_a_stage_is_its_processes(project):
    done = stages.run(["burn", "b"], ["make", "--no-print-directory"], say=quiet, jobs=2)
    cpu = {s.name: s.cpu for s in done}
    assert cpu["burn"] >= 0.35, cpu
    assert cpu["b"] < 0.35, cpu


def test_the_cpu_time_of_a_stage_counts_the_orphans_it_left(project):
    # the burner's parent (a subshell) ends at once: the process burns 0.4 s as an orphan, as a browser's
    # renderers do once their zygote is gone; the stage's reaper waits for it and counts it
    done = stages.run(["orphan-burns"], ["make", "--no-print-directory"], say=quiet)
    assert done[0].code == 0
    assert done[0].cpu >= 0.35, done[0].cpu
    assert done[0].seconds >= 0.35, done[0].seconds  # it ended with the orphan, not before


def test_a_process_a_stage_leaves_running_is_named_and_left(project, monkeypatch, capfd):
    monkeypatch.setattr(stages, "STRAGGLER_WAIT_S", 0.5)
    done = stages.run(["orphan-sleeps"], ["make", "--no-print-directory"], say=quiet)
    out = capfd.readouterr().out
    found = re.search(
        r"1 process the stage started still running 0.5 s after it ended, left so: (\d+) \(sleep\)",
        out,
    )
    assert found, out
    pid = int(found.group(1))
    try:
        assert done[0].code == 0 and done[0].seconds < 10, done  # not held for the sleeper's 30 s
        assert stages._alive(pid) == "sleep"  # left running, not killed
    finally:
        os.kill(pid, 9)


def test_a_stage_ended_by_a_signal_is_reported_so_through_its_reaper(project):
    # make itself killed: the reaper ends by the same signal, and the table says which
    done = stages.run(["killed", "after"], ["make", "--no-print-directory"], say=quiet)
    assert [(s.name, s.code) for s in done] == [("killed", -signal.SIGKILL)]


def test_a_sigterm_to_the_reaper_ends_the_stage_s_command(tmp_path):
    reaper = subprocess.Popen(
        [sys.executable, "-c", stages.REAPER, "0.5", "sleep", "30"], stdout=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 10
    while not (sleeping := [pid for pid in stages._children(reaper.pid) if stages._alive(pid) == "sleep"]):
        assert time.monotonic() < deadline, "the reaper did not start its command"
        time.sleep(0.05)
    reaper.terminate()
    try:
        # the command ended by the signal, and so did its reaper: as if the command had been its child
        assert reaper.wait(timeout=10) == -signal.SIGTERM
        assert stages._alive(sleeping[0]) is None, "the command outlived its reaper"
    finally:
        reaper.kill()
        for pid in sleeping:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert reaper.stdout.read() == ""  # nothing left running to name


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_sigterm_to_the_runner_stops_the_stages_running(project, jobs):
    # the stage's shell writes its pid, then becomes the sleep (exec): the process to see stopped
    (project / "Makefile").write_text(
        MAKEFILE + "slow:\n\techo $$$$ > sleeping.txt; exec sleep 30\n", encoding="utf-8"
    )
    runner = subprocess.Popen(
        [sys.executable, "-m", "course_tools.stages", "--jobs", jobs, "--make", "make", "slow"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    pidfile = project / "sleeping.txt"
    sleeping = None
    try:
        deadline = time.monotonic() + 20
        while not (pidfile.exists() and pidfile.read_text().strip()):
            assert time.monotonic() < deadline and runner.poll() is None, "the stage did not start"
            time.sleep(0.05)
        sleeping = int(pidfile.read_text())
        runner.terminate()  # the runner alone: not its group, as a CI's timeout or kill may do
        assert runner.wait(timeout=20) == 128 + signal.SIGTERM
        deadline = time.monotonic() + 10
        while stages._alive(sleeping):
            assert time.monotonic() < deadline, "the stage's command outlived the stopped runner"
            time.sleep(0.05)
    finally:
        runner.kill()
        runner.wait()
        runner.stdout.close()
        if sleeping is not None and stages._alive(sleeping) == "sleep":
            os.kill(sleeping, signal.SIGKILL)


def test_each_stage_s_output_is_printed_whole_when_two_run_at_once(project):
    result = subprocess.run(
        [sys.executable, "-m", "course_tools.stages", "--jobs", "2", "--make", "make", "waits-for-b", "b"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    # waits-for-b printed "waiting" before b started, yet each stage's lines come together, after its header
    for name, lines in {"waits-for-b": ["waiting", "waited"], "b": ["b-started"]}.items():
        block = out[out.index(f"==> stage {name} ended") :]
        block = block[: block.find("==>", 3) if "==>" in block[3:] else len(block)]
        assert all(line in block for line in lines), (name, out)
    assert "b-started" not in out[out.index("\nwaiting") : out.index("\nwaited")]
    assert "stage times" in out and re.search(r"^  total +\d+\.\d s", out, re.M)


def test_a_stage_named_alone_runs_with_nothing_beside_it(project):
    """``--alone``: the next stage that could start waits for the running ones to end, runs by itself,
    and only then does the stage after it start (the browser stages of `make test`, which time frames)."""
    planned = ["busy", "lonely", "b"]
    make = ["make", "--no-print-directory"]
    side_by_side = spans(stages.run(planned, make, say=quiet, jobs=2))
    assert side_by_side["lonely"][0] < side_by_side["busy"][1]  # without --alone it starts beside busy
    done = stages.run(planned, make, say=quiet, jobs=2, alone=("lon*",))
    assert [(s.name, s.code) for s in done] == [("busy", 0), ("lonely", 0), ("b", 0)]
    span = spans(done)
    assert span["lonely"][0] >= span["busy"][1]
    assert span["b"][0] >= span["lonely"][1]  # b, free to start, waited its turn behind lonely
    with pytest.raises(ValueError, match=r"--alone 'c\*' names none of the stages \['busy', 'lonely', 'b'\]"):
        stages.run(planned, make, say=quiet, jobs=2, alone=("c*",))
    result = subprocess.run(
        [sys.executable, "-m", "course_tools.stages", "--alone", "nothing", "--make", "make", "b"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 2 and "--alone 'nothing' names none of the stages ['b']" in result.stderr


def test_a_light_stage_takes_no_place(project):
    """``--light``: a stage that mostly waits (the hub's class, the grader's) starts beside the others even
    when every place is taken, leaves its place to them, and still waits behind an ``--alone`` stage."""
    make = ["make", "--no-print-directory"]
    # both places taken (busy, lonely): waits-for-b, light, starts beside them all the same
    done = stages.run(["busy", "lonely", "waits-for-b", "b"], make, say=quiet, jobs=2, light=("waits-*",))
    span = spans(done)
    assert sorted((s.name, s.code) for s in done) == [
        ("b", 0),
        ("busy", 0),
        ("lonely", 0),
        ("waits-for-b", 0),
    ]
    assert span["waits-for-b"][0] < span["lonely"][1], span
    (project / "b.txt").unlink()
    # a light stage leaves both places free: busy and lonely run beside each other while it runs
    span = spans(stages.run(["longlight", "busy", "lonely"], make, say=quiet, jobs=2, light=("longlight",)))
    assert span["lonely"][0] < span["busy"][1] and span["busy"][1] < span["longlight"][1], span
    # an alone stage waits for a light one too, and stages kept apart start beside a light one
    span = spans(
        stages.run(["longlight", "lonely"], make, say=quiet, jobs=2, light=("longlight",), alone=("lonely",))
    )
    assert span["lonely"][0] >= span["longlight"][1], span
    span = spans(
        stages.run(
            ["longlight", "lonely", "busy"],
            make,
            say=quiet,
            jobs=2,
            light=("longlight",),
            apart=("lonely", "busy"),
        )
    )
    assert span["lonely"][0] < span["longlight"][1] and span["busy"][0] < span["longlight"][1], span
    # one job: one stage at a time whatever --light says (its output printed as it comes)
    done = stages.run(["waits-for-b", "b"], make, say=quiet, jobs=1, light=("waits-*",))
    assert [(s.name, s.code) for s in done] == [("waits-for-b", 2)]
    # a light stage after an alone one waits until it has run
    done = stages.run(["busy", "lonely", "b"], make, say=quiet, jobs=2, alone=("lonely",), light=("b",))
    span = spans(done)
    assert span["lonely"][0] >= span["busy"][1] and span["b"][0] >= span["lonely"][1], span
    with pytest.raises(ValueError, match=r"--light 'x\*' names none of the stages \['busy', 'lonely', 'b'\]"):
        stages.run(["busy", "lonely", "b"], make, say=quiet, jobs=2, light=("x*",))
    with pytest.raises(ValueError, match="stage 'lonely' is named by both --alone and --light"):
        stages.run(["busy", "lonely", "b"], make, say=quiet, jobs=2, alone=("lonely",), light=("lon*",))
    result = subprocess.run(
        [sys.executable, "-m", "course_tools.stages", "--alone", "b", "--light", "b", "--make", "make", "b"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 2 and "stage 'b' is named by both --alone and --light" in result.stderr


def test_stages_kept_apart_run_beside_each_other_only(project):
    """``--apart``: the browser stages of `make test` run beside each other, never beside a computing stage;
    one that cannot start yet lets a later stage of the running kind take the place."""
    make = ["make", "--no-print-directory"]

    span = spans(stages.run(["busy", "lonely", "b"], make, say=quiet, jobs=2, apart=("lonely", "b")))
    assert span["lonely"][0] >= span["busy"][1] and span["b"][0] >= span["busy"][1], span
    assert span["b"][0] < span["lonely"][1], span  # the two kept apart ran beside each other
    done = stages.run(["busy", "lonely", "after"], make, say=quiet, jobs=2, apart=("lon*",))
    span = spans(done)
    assert span["after"][0] < span["busy"][1] <= span["lonely"][0], span
    assert [s.code for s in done] == [0, 0, 0]
    with pytest.raises(ValueError, match=r"--apart 'x' names none of the stages"):
        stages.run(["busy"], make, say=quiet, jobs=2, apart=("x",))
    with pytest.raises(ValueError, match="stage 'b' is named by both --light and --apart"):
        stages.run(["busy", "b"], make, say=quiet, jobs=2, apart=("b",), light=("b",))


def test_bad_stage_lists_are_named():
    with pytest.raises(ValueError, match=r"'b:a'.*\['a'\]"):
        stages.parse(["b:a", "a"])  # a stage waits only for one listed before it
    with pytest.raises(ValueError, match="'a'.*twice"):
        stages.parse(["a", "a"])
    assert stages.parse(["a", "b", "c:a,b"]) == (["a", "b", "c"], {"a": [], "b": [], "c": ["a", "b"]})


def test_minutes_appear_from_one_minute_on():
    assert stages.minutes(59.4) == ""
    assert stages.minutes(125) == "  (2 min 05 s)"


def test_make_test_runs_every_stage_through_the_timer():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    listed, _ = listed_stages(makefile)
    for stage in listed:
        assert re.search(rf"^{re.escape(stage)}:", makefile, re.M), f"no target {stage}"
    assert len(set(listed)) == len(listed)
    recipe = recipe_of(makefile, "test")
    assert "-m course_tools.stages" in recipe and "$(TEST_STAGES)" in recipe
    # two at a time by default; the classes that mostly wait take no place; the frame-timing tests alone
    assert re.search(r"^TEST_JOBS \?= 2$", makefile, re.M)
    assert "--alone browser-frames --alone browser-lab" in recipe
    assert "--light hub-test --light grade-test" in recipe
    # the stages that drive a browser (BROWSER_PYTEST or their own -m browser) kept apart from those that
    # compute, but the grader's, light, whose one browser test reads a finished report
    assert "--apart 'browser-*'" in recipe
    apart = stages.named_stages(listed, ["browser-*"], "--apart")
    for stage in listed:
        body = recipe_of(makefile, stage)
        if stage != "grade-test" and (
            "$(BROWSER_PYTEST)" in body or "-m browser" in body or '-m "browser' in body
        ):
            assert stage in apart, f"{stage} runs browser tests but is not kept apart"
    # every test that times a frame (marked `frames`) is under tests/browser/, whose tests the unit stage
    # leaves out (-m "not browser"); which stage runs them: test_every_browser_test_runs_in_its_stage
    timing = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("test_*.py")
        if re.search(r"\bmark\.frames\b|add_marker\(\s*['\"]frames", path.read_text(encoding="utf-8"))
    }
    assert timing, "no test is marked frames"
    assert all(path.startswith("tests/browser/") for path in timing), timing


def lab_tests() -> list[str]:
    """The tests that run JupyterLab, read from the source: every test under tests/browser/ that takes the
    `jupyterlab` fixture, and every test of JupyterLab's own files (test_jupyterlab.py, test_lab_*.py),
    which must name `lab` in their pytestmark (a test there that starts no JupyterLab goes with them)."""
    import ast

    found = []
    for path in sorted((ROOT / "tests" / "browser").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        whole = any(
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
            and "mark.lab" in ast.unparse(node.value)
            for node in tree.body
        )
        if path.name == "test_jupyterlab.py" or path.name.startswith("test_lab_"):
            assert whole, f"{path.name}: its pytestmark does not name lab"
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                if whole or "jupyterlab" in [a.arg for a in node.args.args]:
                    found.append(f"{path.relative_to(ROOT).as_posix()}::{node.name}")
    return found


def browser_tests() -> dict[str, set[str]]:
    """Every test under tests/browser/, as pytest collects it (the conftest's marking included), with the
    names of its marks."""
    code = (
        "import sys, pytest\n"
        "class Marks:\n"
        "    def pytest_collection_finish(self, session):\n"
        "        for item in session.items:\n"
        "            print('MARKS', item.nodeid, *sorted({m.name for m in item.iter_markers()}))\n"
        "args = ['--collect-only', '-q', '-p', 'no:xdist', 'tests/browser']\n"
        "sys.exit(pytest.main(args, plugins=[Marks()]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    rows = [line.split()[1:] for line in out.stdout.splitlines() if line.startswith("MARKS ")]
    return {test: set(marks) for test, *marks in rows}


def test_every_browser_test_runs_in_its_stage():
    """What each stage of `make test` runs, read as pytest selects it (its files, its -m over the marks the
    tests carry once collected): every browser test runs in some stage; the tests that time a frame only
    in browser-frames, and the tests in JupyterLab only in browser-lab, both alone. The tests in JupyterLab
    are marked `lab` by tests/browser/conftest.py wherever they live: exactly those the source says start it.
    Before: tests/browser/test_site_deep_dives.py (marked browser, so left out of the unit stage) was
    named by no stage: `make test` never ran it."""
    from _pytest.mark.expression import Expression

    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    tests = browser_tests()
    assert len(tests) > 300, len(tests)
    runs: dict[str, set[str]] = {}
    covered = set()
    for stage in listed_stages(makefile)[0]:
        body = expand(makefile, recipe_of(makefile, stage))
        files = browser_files(body)
        if not files:
            continue
        marks = re.findall(r'-m ("[^"]*"|(?!pytest\b)\S+)', body)
        assert len(marks) == 1, (stage, marks)
        chosen = Expression.compile(marks[0].strip('"'))
        runs[stage] = {
            test
            for test, names in tests.items()
            if test.split("::")[0] in files and chosen.evaluate(names.__contains__)
        }
        # (a stage choosing by -k would run fewer than counted here)
        assert " -k " not in body, stage
        covered |= runs[stage]
    assert set(tests) - covered == set(), "browser tests no stage of `make test` runs"
    lab = {test for test, names in tests.items() if "lab" in names}
    frames = {test for test, names in tests.items() if "frames" in names}
    assert runs["browser-lab"] == lab and runs["browser-frames"] == frames
    assert not lab & frames
    for stage, ran in runs.items():
        if stage != "browser-lab":
            assert not ran & lab, (stage, sorted(ran & lab))
        if stage != "browser-frames":
            assert not ran & frames, (stage, sorted(ran & frames))
    expected = set(lab_tests())
    assert len(expected) >= 10, expected
    assert {test.split("[")[0] for test in lab} == expected, {test.split("[")[0] for test in lab} ^ expected


def listed_stages(makefile: str) -> tuple[list[str], dict[str, list[str]]]:
    """The Makefile's TEST_STAGES, parsed: the stages in order, and the stages each waits for."""
    found = re.search(r"^TEST_STAGES := (.*?)(?<!\\)\n", makefile, re.M | re.S)
    assert found, "the Makefile defines no TEST_STAGES"
    return stages.parse(found.group(1).replace("\\\n", " ").split())


def browser_files(recipe: str) -> set[str]:
    """The browser test files a recipe names, its globs expanded as the shell does."""
    named = set(re.findall(r"tests/browser/test_\w+\.py", recipe))
    for pattern in re.findall(r"tests/browser/test_[\w*]*\*[\w*]*\.py", recipe):
        named |= {p.relative_to(ROOT).as_posix() for p in ROOT.glob(pattern)}
    return named


def recipe_of(makefile: str, target: str) -> str:
    found = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert found, f"no recipe for {target}"
    return found.group(1).replace("\\\n", " ")


def expand(makefile: str, recipe: str) -> str:
    """A recipe with the browser stages' common command, $(BROWSER_PYTEST), written out."""
    found = re.search(r"^BROWSER_PYTEST := (.*)$", makefile, re.M)
    assert found, "the Makefile defines no BROWSER_PYTEST"
    return recipe.replace("$(BROWSER_PYTEST)", found.group(1))


def test_each_stage_waits_for_the_stages_its_make_target_needs():
    """Two stages at once: a stage whose target needs another stage's (``browser-site: site``) must wait for
    it, or both would build the site at the same time; the browser stages on the decks and the site too."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    names, after = listed_stages(makefile)

    def waits(name: str) -> set[str]:
        return set(after[name]).union(*(waits(w) for w in after[name]))

    for name in names:
        needs = re.search(rf"^{re.escape(name)}:(.*)$", makefile, re.M).group(1).split()
        assert {n for n in needs if n in names} <= waits(name), name
    for name in (
        "browser-slides",
        "browser-site",
        "browser-explorers",
        "browser-a11y",
    ):
        assert {"slides", "handouts", "site"} & waits(name), name
    assert re.search(r"^test: .*\$\(NPM_STAMP\) \$\(VOCAB_STAMP\) \$\(HUB_STAMP\)", makefile, re.M)
