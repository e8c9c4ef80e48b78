"""The hard limits of a check's child (issue 30), each attacked as a student's code would.

- memory: the limit is hard; the student's code cannot raise it and then allocate past it;
- processes: nothing the student's code starts outlives the check, whatever it does to leave the
  child's process group (``setsid``, a parent that ends, the child's subreaper switched off);
- replies: bytes the student's code writes straight onto the reply pipe are read within the
  deadline and cost the notebook no more than their own size.
"""

import os
import subprocess
import sys
import textwrap
import time

import pytest
import torch

from course_lib import exercises
from course_lib.exercises import child, runner
from course_lib.exercises.checks import MESSAGES, message

ROPE = exercises.rotary.EXERCISE
LIMIT = 0.5
BUDGET = LIMIT + 3.0
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINUX = sys.platform.startswith("linux") and os.path.isdir("/proc")


def check(student, limit=runner.TIME_LIMIT_S):
    return runner.Run(limit).check(ROPE._checker, student)


def rope_of(x, positions, base=10000.0):
    namespace = {}
    exec(ROPE.solution_code, namespace)
    return namespace["apply_rotary"](x, positions, base)


# ----------------------------------------------------------------------------- memory


@pytest.mark.skipif(not runner.FORK, reason="the forked child's limits")
def test_the_memory_limit_is_hard_the_student_s_code_cannot_raise_it(lang):
    def raises_the_limit_then_allocates(x, positions, base=10000.0):
        import resource

        try:  # the attack: the soft limit up to the hard one (it was unlimited)
            resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        except (ValueError, OSError):
            pass
        block = torch.empty(runner.MEMORY_LIMIT_BYTES + (1 << 30), dtype=torch.uint8)  # 3 GiB
        assert block.numel() > runner.MEMORY_LIMIT_BYTES
        return rope_of(x, positions, base)

    feedback = check(raises_the_limit_then_allocates)
    assert (feedback.status, feedback.key) == ("incorrect", "error_call"), feedback
    assert feedback.values["error"] in {"RuntimeError", "MemoryError"}, feedback


# ----------------------------------------------------------------------------- processes

# Run in a process of its own (a fresh interpreter, as a notebook's kernel is): each student
# starts a sleeping process that leaves the child's group, writes its pid, and passes the check.
_ESCAPES = textwrap.dedent(
    """
    import ctypes, os, subprocess, sys, time
    from course_lib import exercises
    from course_lib.exercises import runner

    ROPE = exercises.rotary.EXERCISE
    namespace = {}
    exec(ROPE.solution_code, namespace)
    rope = namespace["apply_rotary"]
    out = sys.argv[1]


    def escapes(how):
        def student(x, positions, base=10000.0):
            if how == "setsid_command":  # a session of its own: killpg of the child's group misses it
                pid = subprocess.Popen(["setsid", "sleep", "30"]).pid
            else:
                if how == "no_subreaper":  # the child's own reaping switched off first
                    ctypes.CDLL(None).prctl(36, 0, 0, 0, 0)
                read, write = os.pipe()
                if os.fork() == 0:  # the intermediate: a new session, a grandchild, then it ends
                    os.setsid()
                    pid = os.fork()
                    if pid == 0:
                        time.sleep(30)
                        os._exit(0)
                    os.write(write, str(pid).encode())
                    os._exit(0)
                os.close(write)
                pid = int(os.read(read, 32))
                time.sleep(0.2)  # the intermediate has ended: the grandchild is an orphan
            with open(os.path.join(out, how), "w") as f:
                f.write(str(pid))
            return rope(x, positions, base)

        return student


    for how in ("setsid_command", "orphan_in_new_session", "no_subreaper"):
        print(how, runner.Run().check(ROPE._checker, escapes(how)).key)
    """
)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] not in {"Z", "X"}
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not runner.FORK or not LINUX, reason="the forked child's processes, read in /proc")
def test_no_process_the_student_s_code_starts_outlives_the_check(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", _ESCAPES, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=ROOT),
    )
    assert done.returncode == 0, done.stderr[-2000:]
    pids = {path.name: int(path.read_text()) for path in tmp_path.iterdir()}
    try:
        assert set(pids) == {"setsid_command", "orphan_in_new_session", "no_subreaper"}, done.stdout
        assert done.stdout.split() == [
            "setsid_command",
            "rope.correct",
            "orphan_in_new_session",
            "rope.correct",
            "no_subreaper",
            "rope.correct",
        ]
        deadline = time.monotonic() + 2.0
        while any(_alive(pid) for pid in pids.values()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert {how: pid for how, pid in pids.items() if _alive(pid)} == {}
    finally:
        for pid in pids.values():  # a failing run leaves no sleeper behind
            if _alive(pid):
                os.kill(pid, 9)


@pytest.mark.skipif(not runner.FORK or not LINUX, reason="the forked child's processes, read in /proc")
def test_the_notebook_is_a_subreaper_only_while_a_check_runs():
    before = child._prctl(child._PR_GET_CHILD_SUBREAPER, 0)
    assert before == 0  # pytest's process, as a kernel's, is none
    forked = child.Child(object())
    try:
        assert child._prctl(child._PR_GET_CHILD_SUBREAPER, 0) == 1
    finally:
        forked.close()
        forked.release()
    assert child._prctl(child._PR_GET_CHILD_SUBREAPER, 0) == before


# ----------------------------------------------------------------------------- replies


def _reply_pipe() -> int:
    """The child's end of the reply pipe, as the student's code finds it: the pipe it may write
    and the notebook reads."""

    def pipes(pid, mode: int) -> dict[str, int]:
        found = {}
        for name in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{name}")
                with open(f"/proc/{pid}/fdinfo/{name}") as f:
                    flags = int(next(line for line in f if line.startswith("flags:")).split()[1], 8)
            except (OSError, StopIteration):
                continue
            if target.startswith("pipe:") and flags & os.O_ACCMODE == mode:
                found[target] = int(name)
        return found

    read_by_parent = pipes(os.getppid(), os.O_RDONLY)
    ends = [fd for target, fd in pipes("self", os.O_WRONLY).items() if target in read_by_parent]
    assert len(ends) == 1, ends
    return ends[0]


def _laughs() -> bytes:
    """A few hundred bytes that unpickle to a list nested in itself: 2^40 lists to walk."""
    value = []
    for _ in range(40):
        value = [value, value]
    return child.pickle.dumps(("ok", (value, [])))


def _huge_tensor() -> bytes:
    """A tensor record of 2^40 float32 values that carries no bytes: a 4 TiB allocation to decode."""
    return child.pickle.dumps(("ok", (child._TensorData("float32", (1 << 40,), b"", False), [])))


def _deep() -> bytes:
    """A list nested 200 000 deep, in 400 kB: decode's recursion ends in RecursionError."""
    return b"\x80\x04X\x02\x00\x00\x00ok" + b"]" * 200_000 + b"a" * 199_999 + b")\x86\x86."


@pytest.mark.skipif(not runner.FORK or not LINUX, reason="the forked child's pipe")
@pytest.mark.parametrize("crafted", [_laughs, _huge_tensor, _deep], ids=lambda f: f.__name__.strip("_"))
def test_a_reply_written_on_the_pipe_is_read_within_the_deadline(crafted, lang):
    payload = crafted()

    def writes_a_reply(x, positions, base=10000.0):
        child._send(_reply_pipe(), payload)
        time.sleep(2)
        return rope_of(x, positions, base)

    start = time.monotonic()
    feedback = check(writes_a_reply, limit=2.0)  # the scan's time counts: room for a loaded machine
    assert time.monotonic() - start < 2.0 + BUDGET  # unbounded before: 2^40 lists, 4 TiB, a RecursionError
    assert (feedback.status, feedback.key) == ("incorrect", "child_died"), feedback
    how = MESSAGES("how.malformed", lang)
    assert feedback.message == message("child_died", lang, how=how)


def test_the_reader_takes_every_reply_the_child_writes():
    plain = [1, -(1 << 80), 2.5, "ü" * 300, b"x" * 70_000, None, True, {"a": (1, 2)}, [[[]]]]
    tensor = torch.arange(6.0).reshape(2, 3)
    value = ("ok", (plain, [child.encode(tensor, child._Counter())]))
    back = child._Unpickler(child.io.BytesIO(child._dumps(value))).load()
    assert back[0] == "ok" and back[1][0] == plain
    assert torch.equal(child.decode(back[1][1][0]), tensor)


def test_the_reader_stops_at_its_deadline():
    payload = child._dumps(("ok", (list(range(200_000)), [])))
    with pytest.raises(TimeoutError):
        child._Unpickler(child.io.BytesIO(payload), deadline=time.monotonic() - 1).load()


@pytest.mark.parametrize(
    "payload",
    [
        child.pickle.dumps(("ok", (child._TensorData("float32", (3,), b"1234", False), []))),
        child.pickle.dumps(("ok", (child._TensorData("not_a_dtype", (1,), b"1234", False), []))),
        child.pickle.dumps(("ok", (child._TensorData("float32", (-1,), b"", False), []))),
        child.pickle.dumps(("ok", (child.Handle("0", {}), []))),
        child._dumps(("raised", child.ErrorInfo("E", ("E",), 1, ""))),  # the grader slices these texts
        child._dumps(("ok", 1)) + b"N",  # bytes after the end
        child._dumps(("ok", 1))[:-1],  # no end
    ],
    ids=["short_tensor", "dtype", "negative_shape", "handle", "error", "trailing", "truncated"],
)
def test_the_reader_refuses_records_the_child_does_not_write(payload):
    with pytest.raises(child.pickle.UnpicklingError):
        child._Unpickler(child.io.BytesIO(payload)).load()


# ----------------------------------------------------------------------------- without fork


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_without_fork_every_verdict_says_what_is_not_guaranteed(monkeypatch, lang, platform):
    monkeypatch.setattr(runner, "FORK", False)
    monkeypatch.setattr(runner.sys, "platform", platform)
    shown = {"darwin": "macOS", "win32": "Windows"}[platform]
    note = MESSAGES("no_fork", lang, platform=shown)

    def sleeps(x, positions, base=10000.0):
        time.sleep(1.0)  # one C call: the watchdog cannot cut it short, as the note says
        return rope_of(x, positions, base)

    start = time.monotonic()
    feedback = check(sleeps, limit=LIMIT)
    assert time.monotonic() - start >= 1.0
    assert feedback.message.endswith(" " + note), feedback.message
    assert feedback.values["no_fork"] is True
    right = check(rope_of)
    assert right.key == "rope.correct" and right.message.endswith(" " + note)


@pytest.mark.skipif(not runner.FORK, reason="the forked child")
def test_with_fork_the_verdict_has_no_such_note(lang):
    feedback = check(rope_of)
    assert feedback.key == "rope.correct"
    assert "no_fork" not in feedback.values
    assert MESSAGES("no_fork", lang, platform="macOS") not in feedback.message
