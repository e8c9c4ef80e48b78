"""A check never hangs, never raises, leaves nothing changed, and tells the truth about odd code.

Each test below is a way a student's code used to hang ``check``, escape it, change the
notebook's state behind the student's back, or get a misleading verdict.
"""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from torch import nn

import course_lib
from course_lib import exercises
from course_lib.exercises import runner
from course_lib.exercises.checks import message
from course_lib.i18n import decimal_mark

PE, TOK, PAD = (
    exercises.positional_encoding.EXERCISE,
    exercises.token_embedding.EXERCISE,
    exercises.pad_batch.EXERCISE,
)


def solution(exercise):
    namespace = {}
    exec(exercise.solution_code, namespace)
    return next(v for k, v in namespace.items() if k.startswith(("My", "my_", "is_", "apply_")))


# ----------------------------------------------------------------------------- never hangs


class LoopsForever(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()

    def forward(self, x):
        print("forward called")  # the only way out of the child: its output, shown after the verdict
        while True:
            pass


class LoopsAndSwallows(nn.Module):
    """Catches Exception around its loop: the time-out must still get out."""

    def __init__(self, d_model, max_len):
        super().__init__()

    def forward(self, x):
        print("forward called")
        while True:
            try:
                sum(range(1000))
            except Exception:
                pass


@pytest.mark.parametrize("student", [LoopsForever, LoopsAndSwallows])
def test_an_endless_loop_gets_a_verdict_within_the_time_limit(student, lang, capsys):
    feedback = runner.Run(0.5).check(PE._checker, student)
    assert (feedback.status, feedback.key) == ("incorrect", "timeout"), feedback
    assert feedback.message == message("timeout", lang, seconds=runner._seconds(0.5))
    # one time limit in all: after it, no probe runs the class again (they used to, 3 more times). Once
    # at most, not exactly once: under load the child may not reach forward within the 0.5 s (in a fresh
    # clone's unit stage at load 5-6, three of these four cases printed nothing, each verdict right)
    assert capsys.readouterr().out in ("", "forward called\n")


def test_the_default_time_limit_is_five_seconds(lang):
    assert message("timeout", lang, seconds=runner._seconds(runner.TIME_LIMIT_S)) == message(
        "timeout", lang, seconds="5"
    )


def test_the_time_limit_is_written_as_the_language_writes_it(lang):
    assert runner._seconds(5.0) == "5"
    assert runner._seconds(2.5) == f"2{decimal_mark(lang)}5"


def test_student_code_runs_a_bounded_number_of_times(capsys):
    class Crashes(nn.Module):
        def __init__(self, d_model, max_len):
            super().__init__()
            print("__init__")

        def forward(self, x):
            print("forward")
            raise RuntimeError("boom")

    assert PE.check(Crashes).key == "error_forward"
    calls = capsys.readouterr().out.split()
    assert len(calls) <= 6, calls  # the build, the forward, two layout probes (build + forward each)


def test_after_a_time_out_the_notebook_goes_on_normally():
    runner.Run(0.5).check(PE._checker, LoopsForever)
    time.sleep(0.5)  # a late TimeUp, if the watchdog left one behind, would land here
    assert sum(range(10)) == 45


# ----------------------------------------------------------------------------- never raises


class Exits(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()

    def forward(self, x):
        sys.exit(0)


class BadError(Exception):
    def __str__(self):
        raise RuntimeError("__str__ itself fails")

    def __repr__(self):
        raise RuntimeError("so does __repr__")


class RaisesBadError(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()

    def forward(self, x):
        raise BadError()


def test_sys_exit_is_a_verdict_not_the_end_of_the_kernel(lang):
    feedback = PE.check(Exits)
    assert (feedback.status, feedback.key) == ("incorrect", "exited")
    assert "sys.exit(0)" in feedback.message


def test_an_exception_whose_str_raises_is_still_described():
    feedback = PE.check(RaisesBadError)
    assert (feedback.key, feedback.values["error"]) == ("error_forward", "BadError")


def test_keyboard_interrupt_still_stops_the_cell():
    class Interrupted(nn.Module):
        def __init__(self, d_model, max_len):
            super().__init__()
            raise KeyboardInterrupt

        def forward(self, x):
            return x

    with pytest.raises(KeyboardInterrupt):
        PE.check(Interrupted)


# ----------------------------------------------------------------------------- leaves nothing changed


class ChangesEverything(nn.Module):
    """A correct module whose forward also changes global state, as careless code does."""

    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, x):
        torch.set_default_dtype(torch.float64)
        torch.set_grad_enabled(False)
        torch.set_num_threads(1)
        torch.use_deterministic_algorithms(True)
        torch.set_anomaly_enabled(True)
        course_lib.set_language("ru")
        torch.manual_seed(123)
        return x + self.pe[: x.size(1)].to(x.dtype)


def test_state_changed_by_student_code_is_put_back():
    threads = torch.get_num_threads()
    torch.manual_seed(0)
    expected = torch.rand(3)
    torch.manual_seed(0)
    PE.check(ChangesEverything)
    assert torch.get_default_dtype() == torch.float32
    assert torch.is_grad_enabled()
    assert torch.get_num_threads() == threads
    assert not torch.are_deterministic_algorithms_enabled()
    assert not torch.is_anomaly_enabled()
    assert course_lib.get_language() == "en"
    assert torch.equal(torch.rand(3), expected)


def test_a_check_that_changes_nothing_leaves_the_deterministic_flag_untouched():
    """Setting the flag imports torch._inductor (1.5-4 s): a lesson's first check paid it for nothing."""
    code = (
        "import sys, torch\n"
        "from course_lib import exercises\n"
        "namespace = {}\n"
        "exec(exercises.positional_encoding.template, namespace)\n"
        "exercises.positional_encoding.check(namespace['MyPositionalEncoding'])\n"
        "print('torch._inductor' in sys.modules)\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=root)
    assert out.stdout.strip() == "False", out.stderr


# ----------------------------------------------------------------------------- the notebook's state does not change the verdict


AMBIENT = {
    "no_grad": torch.no_grad,
    "inference_mode": torch.inference_mode,
    "bfloat16_default": lambda: _default_dtype(torch.bfloat16),
    "meta_default_device": lambda: torch.device("meta"),
}


class _default_dtype:
    def __init__(self, dtype):
        self.dtype = dtype

    def __enter__(self):
        self.saved = torch.get_default_dtype()
        torch.set_default_dtype(self.dtype)

    def __exit__(self, *exc):
        torch.set_default_dtype(self.saved)


@pytest.mark.parametrize("ambient", sorted(AMBIENT))
@pytest.mark.parametrize("exercise", list(exercises.registry().values()), ids=lambda e: e.name)
def test_reference_solutions_pass_whatever_the_notebook_has_set(exercise, ambient):
    student = solution(exercise)
    with AMBIENT[ambient]():
        feedback = exercise.check(student)
    assert (feedback.status, feedback.key) == ("correct", f"{exercise.prefix}.correct"), feedback


# ----------------------------------------------------------------------------- honest verdicts


class Foward(nn.Module):
    """forward misspelled."""

    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model), persistent=False)

    def foward(self, x):
        return x + self.pe[: x.size(1)]


def test_a_misspelled_forward_is_named(lang):
    feedback = PE.check(Foward)
    assert (feedback.status, feedback.key) == ("incorrect", "no_forward")
    assert "`foward`" in feedback.message and "`Foward`" in feedback.message


def test_a_table_of_zeros_is_named_not_a_bug_in_the_course(lang):
    # used to divide by zero inside the check: "check_failed, a bug in the course"
    from tests.unit.test_exercises import ZeroTable

    feedback = TOK.check(ZeroTable)
    assert (feedback.status, feedback.key) == ("incorrect", "tok.zero_table")


class TrainsItself(nn.Module):
    """A right positional encoding with a train() method of another meaning."""

    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, x):
        return x + self.pe[: x.size(1)].to(x.dtype)

    def train(self, epochs):  # noqa: D102 - not nn.Module.train
        raise AssertionError("the check must not call this")


def test_a_class_with_its_own_train_method_is_judged_on_forward():
    # module.eval() calls self.train(False): that used to be "check_failed, a bug in the course"
    feedback = PE.check(TrainsItself)
    assert (feedback.status, feedback.key) == ("correct", "pe.correct"), feedback


class Infinite(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        pos = torch.arange(max_len).unsqueeze(1)
        i = torch.arange(0, d_model, 2)
        angle = pos / (0 * i)  # a division by zero: inf and nan
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(angle)
        pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


def test_inf_and_nan_in_the_output_are_named(lang):
    # used to get the integer-division hint (every frequency the same)
    feedback = PE.check(Infinite)
    assert (feedback.status, feedback.key) == ("incorrect", "nonfinite")
    assert feedback.values["value"] in {"nan", "inf", "-inf"}


class Chatty(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, x):
        for i in range(20_000):
            print("debug line", i)
        return x + self.pe[: x.size(1)].to(x.dtype)


def test_a_flood_of_prints_shows_as_a_bounded_excerpt(capsys, lang, monkeypatch):
    # what is tested is the excerpt, not the time: some 100 000 lines through the pipe took over the 5 s
    # of a check at load 5-8 (make test's unit stage beside nbval), so this check has a minute
    monkeypatch.setattr(runner, "TIME_LIMIT_S", 60.0)
    feedback = PE.check(Chatty)
    assert feedback.status == "correct"
    lines = capsys.readouterr().out.splitlines()
    assert lines[: runner.MAX_OUTPUT_LINES] == [f"debug line {i}" for i in range(runner.MAX_OUTPUT_LINES)]
    assert len(lines) == runner.MAX_OUTPUT_LINES + 1
    more = re.escape(message("output_more", lang, count=999)).replace("999", r"(\d+)")
    count = int(re.fullmatch(more, lines[-1]).group(1))
    assert count % 20_000 == 20_000 - runner.MAX_OUTPUT_LINES  # every forward call printed 20 000 lines
