"""The attacks of issue 19 on the checks: student code that hangs them, outlives them, fools them.

Each test is one attack that used to work. The student's code runs in a child process killed at
its deadline; the checker compares, in the notebook's process, plain values copied out of it.
Checks of students that hang run here with a short time limit (``LIMIT``), through ``runner.Run``
as ``Exercise.check`` does, so that a hang costs a fraction of a second, not five.
"""

import inspect
import math
import os
import re
import subprocess
import sys
import threading
import time
import warnings

import pytest
import torch
from torch import nn

import course_lib
from course_lib import exercises
from course_lib.exercises import runner
from course_lib.exercises.checks import message

PE, TOK, PAD, ROPE = (
    exercises.positional_encoding.EXERCISE,
    exercises.token_embedding.EXERCISE,
    exercises.pad_batch.EXERCISE,
    exercises.rotary.EXERCISE,
)
PERM, MERGE, INP = (
    exercises.permutation.EXERCISE,
    exercises.bpe_merge.EXERCISE,
    exercises.input_layer.EXERCISE,
)
LIMIT = 0.5  # seconds of student code per check in these tests
BUDGET = LIMIT + 3.0  # a verdict within this, whatever the student's code does (fork, reference, replay)


def check(exercise, student, limit=runner.TIME_LIMIT_S):
    return runner.Run(limit).check(exercise._checker, student)


def solution(exercise, prefix):
    namespace = {}
    exec(exercise.solution_code, namespace)
    return namespace[prefix]


def rope_of(x, positions, base=10000.0):
    return solution(ROPE, "apply_rotary")(x, positions, base)


# ----------------------------------------------------------------------------- 1. a hard time limit


def sleeps_swallowing(x, positions, base=10000.0):
    while True:
        try:
            time.sleep(0.01)
        except:  # noqa: E722 - the attack: a bare except swallowed the old in-thread TimeUp
            pass


def sleeps_long(x, positions, base=10000.0):
    time.sleep(25)  # one C call: an exception raised into the thread waited for its end


def sums_long(x, positions, base=10000.0):
    return sum(range(10**9))  # 12 s in one C call


def regex_forever(x, positions, base=10000.0):
    return re.match(r"(a+)+$", "a" * 32 + "b")  # catastrophic backtracking: minutes


@pytest.mark.parametrize("student", [sleeps_swallowing, sleeps_long, sums_long, regex_forever])
def test_code_that_hangs_in_c_or_swallows_the_stop_gets_a_verdict_in_time(student, lang):
    start = time.monotonic()
    feedback = check(ROPE, student, limit=LIMIT)
    took = time.monotonic() - start
    assert (feedback.status, feedback.key) == ("incorrect", "timeout"), feedback
    assert feedback.message == message("timeout", lang, seconds=runner._seconds(LIMIT))
    assert took < BUDGET, took


class LoopingTensor(torch.Tensor):
    """A tensor whose every operation loops: it used to hang the checker's own comparison."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        while True:
            pass


def returns_looping_tensor(x, positions, base=10000.0):
    return torch.Tensor._make_subclass(LoopingTensor, rope_of(x, positions, base))


def test_a_returned_tensor_subclass_is_named_and_does_not_hang_the_comparison(lang):
    start = time.monotonic()
    feedback = check(ROPE, returns_looping_tensor)
    assert time.monotonic() - start < BUDGET
    assert (feedback.status, feedback.key) == ("incorrect", "tensor_subclass"), feedback
    assert "`LoopingTensor`" in feedback.message and "`returns_looping_tensor`" in feedback.message


def test_the_default_time_limit_is_the_readme_s_five_seconds():
    assert runner.TIME_LIMIT_S == 5.0
    assert runner.Run().time_limit == 5.0


def test_a_huge_allocation_fails_in_the_child_not_the_kernel(lang):
    def allocates(x, positions, base=10000.0):
        return torch.empty(runner.MEMORY_LIMIT_BYTES + (1 << 30), dtype=torch.uint8)

    feedback = check(ROPE, allocates)
    assert (feedback.status, feedback.key) == ("incorrect", "error_call"), feedback
    assert feedback.values["error"] in {"RuntimeError", "MemoryError"}, feedback


def children() -> set[int]:
    """This process's children, alive or not yet reaped (a zombie is still listed)."""
    found = set()
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children", encoding="ascii") as f:
                found.update(int(pid) for pid in f.read().split())
        except FileNotFoundError:  # a thread that ended meanwhile
            pass
    return found


def test_a_check_prints_no_warning_and_leaves_no_process(capfd):
    # a child an earlier test in this worker left (multiprocessing's resource tracker) is not the check's
    before = children()
    with warnings.catch_warnings():
        warnings.simplefilter("always")  # a DeprecationWarning about fork would show here
        stop = threading.Event()
        thread = threading.Thread(target=stop.wait, daemon=True)  # ipykernel has threads too
        thread.start()
        try:
            assert check(ROPE, solution(ROPE, "apply_rotary")).status == "correct"
        finally:
            stop.set()
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    assert children() - before == set()  # every child of the check was reaped


def returns_too_much_text(x, positions, base=10000.0):
    return ["x" * (10 << 20) + str(i) for i in range(30)]  # 300 MB of strings: more than one reply may be


def returns_a_reply_just_too_large(x, positions, base=10000.0):
    # 268 MB of text, under the limit, and the pickle's few bytes per string on top: over it
    return [f"{i:0268d}" for i in range(999_990)]


def closes_its_pipes_and_sleeps(x, positions, base=10000.0):
    os.closerange(3, 1 << 16)  # the reply pipe too: the parent reads an end of file, the child lives on
    time.sleep(25)


@pytest.mark.parametrize(
    ("student", "key"),
    [
        (returns_too_much_text, "not_tensor"),
        (returns_a_reply_just_too_large, "child_died"),
        (closes_its_pipes_and_sleeps, "timeout"),
    ],
)
def test_a_reply_too_large_or_a_closed_pipe_gets_a_verdict_in_time(student, key):
    """These hung the check for ever: the parent waited for a child still writing, or still sleeping."""
    limit = LIMIT if key == "timeout" else 20.0  # time enough to build and send 300 MB on a loaded machine
    before = children()
    start = time.monotonic()
    feedback = check(ROPE, student, limit=limit)
    assert time.monotonic() - start < limit + BUDGET
    assert (feedback.status, feedback.key) == ("incorrect", key), feedback
    assert children() - before == set()  # every child of the check was reaped


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not runner.FORK or not os.path.isdir("/proc"), reason="the forked child's processes")
@pytest.mark.parametrize("how", ["fork", "spawn"])
def test_processes_the_student_s_code_starts_do_not_outlive_the_check(tmp_path, how):
    pid_file = tmp_path / "pid"

    def starts_a_process(x, positions, base=10000.0):
        if how == "spawn":
            pid = subprocess.Popen(["sleep", "30"]).pid
        else:
            pid = os.fork()
            if pid == 0:
                time.sleep(30)
                os._exit(0)
        pid_file.write_text(str(pid))
        return rope_of(x, positions, base)

    assert check(ROPE, starts_a_process).status == "correct"
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 2.0
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)


# ----------------------------------------------------------------------------- 2. nothing outlives the check


def patches_the_checker(x, positions, base=10000.0):
    sys.modules["course_lib.exercises.rotary"].close = lambda a, b: True
    sys.modules["course_lib.exercises.checks"].close = lambda a, b: True
    torch.allclose = lambda *a, **k: True
    return x


def identity(x, positions, base=10000.0):
    return x


def test_monkeypatching_the_checker_inside_a_check_fools_neither_it_nor_later_ones():
    rotary_module = sys.modules["course_lib.exercises.rotary"]
    allclose, close = torch.allclose, rotary_module.close
    assert check(ROPE, patches_the_checker).status == "incorrect"
    assert (torch.allclose, rotary_module.close) == (allclose, close)
    assert check(ROPE, identity).status == "incorrect"


def changes_the_process(x, positions, base=10000.0):
    torch.set_printoptions(precision=1)
    warnings.simplefilter("error")
    sys.setrecursionlimit(77)
    os.chdir("/")
    torch.backends.mkldnn.enabled = False
    torch.backends.cudnn.enabled = False
    threading.Thread(target=lambda: [print("still here") or time.sleep(0.05) for _ in range(100)]).start()
    return rope_of(x, positions, base)


def process_state():
    """What a check must leave as it was: print options, warnings filters, recursion limit, cwd, flags, threads."""
    return (
        str(torch.tensor([1.23456])),
        list(warnings.filters),
        sys.getrecursionlimit(),
        os.getcwd(),
        torch.backends.mkldnn.enabled,
        torch.backends.cudnn.enabled,
        threading.active_count(),
    )


def test_state_changed_inside_a_check_stays_there(capfd):
    before = process_state()
    feedback = check(ROPE, changes_the_process)
    capfd.readouterr()  # what it printed during the check, shown after the verdict
    time.sleep(0.2)  # a thread left running would print by now
    after = process_state()
    assert feedback.status == "correct", feedback
    assert after == before
    assert capfd.readouterr() == ("", "")


def test_a_patch_made_in_the_notebook_is_named_and_not_trusted(monkeypatch, lang):
    monkeypatch.setattr(torch, "allclose", lambda *a, **k: True)
    monkeypatch.setattr(sys.modules["course_lib.exercises.rotary"], "close", lambda a, b: True)
    feedback = check(ROPE, identity)
    assert feedback.status == "incorrect", feedback
    assert feedback.values["patched"] == ["course_lib.exercises.rotary.close", "torch.allclose"]
    assert "`torch.allclose`" in feedback.message
    assert torch.allclose(torch.zeros(1), torch.ones(1))  # the notebook's own patch, put back after the check


def test_torch_wrapping_its_own_functions_is_no_patch_but_a_wrapper_the_notebook_writes_is():
    # a fresh process, so that torch._dynamo loads after the course remembered the originals: it wraps
    # torch.manual_seed and nn.Module.__init__ / __setstate__ (seen as a false "your notebook has replaced")
    script = """
import functools, torch
from course_lib.exercises import runner
import torch._dynamo
torch.compile(lambda x: x + 1)(torch.zeros(1))
assert runner._patches() == {}, sorted(runner._patches())
original = torch.allclose
torch.allclose = functools.wraps(original)(lambda *a, **k: True)
assert list(runner._patches()) == [("torch", "allclose")], sorted(runner._patches())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def reads_the_reference_from_the_stack(x, positions, base=10000.0):
    for frame in inspect.stack():
        reference = frame.frame.f_globals.get("_rotated")
        if reference is not None:
            return reference(x, positions, base).to(x.dtype)
    return x


def test_the_reference_is_not_on_the_student_s_stack():
    assert check(ROPE, reads_the_reference_from_the_stack).status == "incorrect"


COURSE_OWN = [
    (TOK, course_lib.TokenEmbedding, "course_lib.TokenEmbedding"),
    (PE, course_lib.PositionalEncoding, "course_lib.PositionalEncoding"),
    (PE, type("MyPositionalEncoding", (course_lib.PositionalEncoding,), {}), "course_lib.PositionalEncoding"),
    (PAD, course_lib.vocab.pad_batch, "course_lib.vocab.pad_batch"),
    (ROPE, course_lib.RotaryEmbedding(8), "course_lib.RotaryEmbedding"),
]


@pytest.mark.parametrize(
    ("exercise", "student", "original"), COURSE_OWN, ids=lambda v: getattr(v, "__name__", "")
)
def test_the_course_s_own_class_is_named_kindly_not_passed(exercise, student, original, lang):
    feedback = check(exercise, student)
    assert (feedback.status, feedback.key) == ("not_attempted", "course_class"), feedback
    assert feedback.values["original"] == original


def test_an_alias_of_the_course_s_class_is_the_course_s_class():
    MyTokenEmbedding = course_lib.TokenEmbedding  # noqa: N806 - as a student names it
    assert check(TOK, MyTokenEmbedding).key == "course_class"


def answers_from_the_name(f, x, perm):
    return f.__name__ in {"attention", "mean_context", "max_over_tokens", "tanh"}


def answers_from_the_order(f, x, perm):
    # the right answers in the suite's order, as a student who read the course's code gives them
    return next(answers_from_the_order.answers)


def test_the_permutation_exercise_cannot_be_answered_from_the_function_s_name_or_order():
    assert check(PERM, answers_from_the_name).status == "incorrect"
    right = [True, True, False, False, True, True, False]
    wrong = 0
    for _ in range(10):
        answers_from_the_order.answers = iter(right)
        wrong += check(PERM, answers_from_the_order).status == "incorrect"
    # shuffled every check: right by chance once in 7!/(4!·3!) = 35 (and then caught, f never
    # called: perm.f_never_called); 6 of 10 by chance: p < 1e-6
    assert wrong >= 5


# ----------------------------------------------------------------------------- 3. honest verdicts


def merge_step(words, new_id):
    return solution(MERGE, "my_merge_step")(words, new_id)


def keeps_old_spellings(words, new_id):
    pair, new_words = merge_step(words, new_id)
    return pair, {**words, **new_words}


def adds_a_junk_word(words, new_id):
    pair, new_words = merge_step(words, new_id)
    return pair, {**new_words, (1, 2, 3): 1}


@pytest.mark.parametrize(
    ("student", "key"), [(keeps_old_spellings, "merge.old_kept"), (adds_a_junk_word, "merge.extra_word")]
)
def test_bpe_merge_names_words_that_should_not_be_there(student, key, lang):
    feedback = check(MERGE, student)
    assert (feedback.status, feedback.key) == ("incorrect", key), feedback


class LogitsFirst(nn.Module):
    """A right input layer whose output projection is registered before its embedding."""

    def __init__(self, vocab_size, d_model, max_len):
        super().__init__()
        self.to_logits = nn.Linear(d_model, vocab_size)  # its weight is (vocab, d) too
        self.embedding = nn.Embedding(vocab_size, d_model)
        self.d_model = d_model
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, ids, positions=None):
        if positions is None:
            positions = torch.arange(ids.size(-1))
        return self.embedding(ids) * math.sqrt(self.d_model) + self.pe[positions].to(
            self.embedding.weight.dtype
        )


def test_an_input_layer_with_an_output_projection_first_is_judged_on_its_embedding():
    feedback = check(INP, LogitsFirst)
    assert (feedback.status, feedback.key) == ("correct", "inp.correct"), feedback


def returns_meta(x, positions, base=10000.0):
    return torch.empty_like(x, device="meta")


def test_a_meta_tensor_is_named_not_a_bug_in_the_course(lang):
    feedback = check(ROPE, returns_meta)
    assert (feedback.status, feedback.key) == ("incorrect", "meta_tensor"), feedback
    assert "`returns_meta`" in feedback.message


def sets_a_meta_default_device(x, positions, base=10000.0):
    sets_a_meta_default_device.calls += 1
    out = rope_of(x, positions, base)
    if sets_a_meta_default_device.calls == 3:  # the last call (later ones would pay ~2 s of torch imports)
        torch.set_default_device("meta")  # the checker's own tensors used to land there
    return out


def test_a_meta_default_device_set_by_the_student_s_code_is_not_a_bug_in_the_course():
    sets_a_meta_default_device.calls = 0
    feedback = check(ROPE, sets_a_meta_default_device)
    assert feedback.key == "rope.correct", feedback
    assert torch.empty(1).device.type == "cpu"


def test_a_meta_default_device_set_in_the_notebook_is_not_a_bug_in_the_course():
    torch.set_default_device("meta")
    try:
        feedback = check(PE, solution(PE, "MyPositionalEncoding"))
    finally:
        torch.set_default_device(None)
    assert feedback.key == "pe.correct", feedback


def returns_nothing(x, positions, base=10000.0):
    x.double()


def test_a_function_exercise_names_the_function_not_forward(lang):
    feedback = check(ROPE, returns_nothing)
    assert feedback.key == "not_tensor"
    assert "`returns_nothing`" in feedback.message and "`forward`" not in feedback.message


def test_a_five_megabyte_line_is_shown_bounded(capsys, lang):
    def prints_a_lot(x, positions, base=10000.0):
        print("x" * 5_000_000)
        return rope_of(x, positions, base)

    assert check(ROPE, prints_a_lot).status == "correct"
    out = capsys.readouterr().out
    assert len(out) < runner.MAX_OUTPUT_CHARS + 200
    cut = re.escape(message("output_cut", lang, size="SIZE")).replace("SIZE", r"(\d+[.,]\d) (MB|МБ)")
    assert re.fullmatch(cut, out.splitlines()[-1]), out[-300:]


@pytest.mark.parametrize("exercise", list(exercises.registry().values()), ids=lambda e: e.name)
def test_a_success_message_does_not_stutter(exercise, lang):
    for key, texts in exercise.messages.entries.items():
        if key.startswith("correct"):
            first = texts[lang].split()[0].strip(":,.").lower()
            assert first not in {"correct", "right", "верно", "правильно"}, (key, texts[lang])


def test_without_fork_the_code_runs_in_the_notebook_bounded_by_a_watchdog(monkeypatch, capsys):
    """Windows has no os.fork: the same check runs in-process, Python loops still stopped."""
    monkeypatch.setattr(runner, "FORK", False)
    assert check(ROPE, solution(ROPE, "apply_rotary")).key == "rope.correct"

    def loops(x, positions, base=10000.0):
        print("looping")
        while True:
            pass

    assert check(ROPE, loops, limit=LIMIT).key == "timeout"
    assert capsys.readouterr().out == "looping\n"
