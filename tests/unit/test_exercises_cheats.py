"""Wrong answers that used to pass a check (issue 30), each submitted and named by its own diagnosis."""

import pytest
import torch
from torch import nn

import course_lib
from course_lib import exercises
from course_lib.exercises.checks import message

PERM = exercises.permutation
PE = exercises.positional_encoding
INP, TOK, LP = exercises.input_layer, exercises.token_embedding, exercises.learned_positions


def solution(exercise, prefix: str):
    namespace = {}
    exec(exercise.EXERCISE.solution_code, namespace)
    return next(value for name, value in namespace.items() if name.startswith(prefix))


# ----------------------------------------------------------------------------- lesson 4: permutations


def sums_over_tokens(f, x, perm):
    return torch.allclose(f(x[:, perm]).sum(1), f(x)[:, perm].sum(1), atol=1e-5)


def sorted_norms(f, x, perm):
    def norms(y):
        return y.norm(dim=-1).sort(dim=1).values

    return torch.allclose(norms(f(x[:, perm])), norms(f(x)[:, perm]), atol=1e-5)


@pytest.mark.parametrize("student", [sums_over_tokens, sorted_norms])
def test_a_summary_over_the_tokens_is_not_a_test_of_equivariance(student, lang):
    feedback = PERM.check(student)
    assert (feedback.status, feedback.key) == ("incorrect", "perm.token_summary"), feedback
    assert feedback.message == message("perm.token_summary", lang, fn="reverse_tokens")


EQUIVARIANT = {"attention", "mean_context", "max_over_tokens", "tanh"}


def reads_the_index(f, x, perm):
    return PERM.SUITE[f._index].__name__ in EQUIVARIANT


def reads_the_code(f, x, perm):
    # whatever f holds: the first function whose code it runs
    inner = next(getattr(f, slot) for slot in type(f).__slots__ if callable(getattr(f, slot)))
    return (
        next(fn.__name__ for fn in PERM.SUITE if fn.__code__.co_code == inner.__code__.co_code) in EQUIVARIANT
    )


def test_the_function_does_not_give_its_place_in_the_suite_away():
    feedback = PERM.check(reads_the_index)
    assert (feedback.key, feedback.values["error"]) == ("error_call", "AttributeError"), feedback
    f = PERM.Function(PERM._ANONYMOUS[0])
    assert (f.__name__, f.__doc__, repr(f)) == ("f", None, "<function f>")
    assert {getattr(f, slot).__name__ for slot in ("_f",)} == {"f"}
    assert f._f.__doc__ is None and f._f.__qualname__ == "f"


def test_right_answers_without_calling_f_are_not_accepted(lang):
    feedback = PERM.check(reads_the_code)
    assert (feedback.status, feedback.key) == ("incorrect", "perm.f_never_called"), feedback
    assert feedback.message == message("perm.f_never_called", lang, fn=feedback.values["fn"])


def in_double(f, x, perm):
    x = x.double()
    return torch.allclose(f(x[:, perm]), f(x)[:, perm])


def on_its_own_input(f, x, perm):
    y = torch.randn(3, 5, 8)
    return torch.allclose(f(y[:, perm]), f(y)[:, perm], atol=1e-5)


def on_fewer_rows(f, x, perm):
    x = x[:2]
    return torch.allclose(f(x[:, perm]), f(x)[:, perm], atol=1e-5)


def ten_permutations_first(f, x, perm):
    for _ in range(10):
        p = torch.randperm(x.shape[1])
        if not torch.allclose(f(x[:, p]), f(x)[:, p], atol=1e-5):
            return False
    return torch.allclose(f(x[:, perm]), f(x)[:, perm], atol=1e-5)


@pytest.mark.parametrize("student", [in_double, on_its_own_input, on_fewer_rows, ten_permutations_first])
def test_a_right_test_of_its_own_making_is_accepted(student):
    """f applied to other inputs than the lesson's, in another dtype, or more than 16 times: still right
    (an independent review found each of these refused by a rule that asked for the lesson's own x)."""
    assert PERM.check(student).status == "correct"


def test_the_sample_solution_applies_f_to_both_sides():
    assert PERM.check(solution(PERM, "is_equivariant")).key == "perm.correct"


# ----------------------------------------------------------------------------- lesson 5: positional encoding


def test_a_float16_path_that_returns_x_unchanged_is_named(lang):
    Right = solution(PE, "My")  # noqa: N806

    class SkipsHalf(Right):
        def forward(self, x):
            return x if x.dtype == torch.float16 else super().forward(x)

    feedback = PE.check(SkipsHalf)
    assert (feedback.status, feedback.key) == ("incorrect", "pe.half_values"), feedback
    assert feedback.values["pos"] == 0 and feedback.values["dim"] == 1  # cos(0) = 1 was not added


def test_a_frozen_embedding_table_is_told_it_is_still_a_parameter(lang):
    class FrozenEmbedding(nn.Module):
        def __init__(self, d_model, max_len):
            super().__init__()
            self.pe = nn.Embedding(max_len, d_model)
            self.pe.weight.requires_grad_(False)
            with torch.no_grad():
                self.pe.weight.copy_(course_lib.sinusoidal_table(max_len, d_model))

        def forward(self, x):
            return x + self.pe.weight[: x.size(1)].to(x.dtype)

    feedback = PE.check(FrozenEmbedding)
    assert (feedback.status, feedback.key) == ("incorrect", "pe.frozen_parameter"), feedback
    assert feedback.message == message("pe.frozen_parameter", lang, name="pe.weight")
    assert "a weight to train" not in feedback.message and "обучаемый" not in feedback.message


# ----------------------------------------------------------------------------- the course's finished classes


class WrapsTransformerEmbedding(nn.Module):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__()
        self.inner = course_lib.TransformerEmbedding(vocab_size, d_model, max_len)

    def forward(self, ids, positions=None):
        return self.inner(ids, positions)


class WrapsTokenEmbedding(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.layers = nn.ModuleList([course_lib.TokenEmbedding(vocab_size, d_model)])

    def forward(self, ids):
        return self.layers[0](ids)


class WrapsPositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.parts = nn.ModuleDict({"pe": course_lib.PositionalEncoding(d_model, max_len, dropout=0.0)})

    def forward(self, x):
        return self.parts["pe"](x)


class WrapsLearnedPositions(nn.Module):
    def __init__(self, max_len, d_model):
        super().__init__()
        self.positions = course_lib.LearnedPositionalEmbedding(max_len, d_model)

    def forward(self, x):
        return self.positions(x)


@pytest.mark.parametrize(
    ("exercise", "student", "part", "original"),
    [
        (INP, WrapsTransformerEmbedding, "self.inner", "course_lib.TransformerEmbedding"),
        (TOK, WrapsTokenEmbedding, "self.layers.0", "course_lib.TokenEmbedding"),
        (PE, WrapsPositionalEncoding, "self.parts.pe", "course_lib.PositionalEncoding"),
        (LP, WrapsLearnedPositions, "self.positions", "course_lib.LearnedPositionalEmbedding"),
    ],
    ids=lambda v: getattr(v, "__name__", None) if isinstance(v, type) else None,
)
def test_a_class_that_wraps_the_course_s_finished_class_is_named(exercise, student, part, original, lang):
    feedback = exercise.check(student)
    assert (feedback.status, feedback.key) == ("not_attempted", "course_class_inside"), feedback
    assert (feedback.values["part"], feedback.values["original"]) == (part, original)
    assert feedback.message == message(
        "course_class_inside", lang, name=student.__name__, part=part, original=original
    )


def test_a_run_given_only_the_checker_knows_the_finished_classes():
    # the grader runs runner.Run().check(exercise._checker, student), without Exercise.check
    from course_lib.exercises import runner

    feedback = runner.Run().check(INP.EXERCISE._checker, WrapsTransformerEmbedding)
    assert feedback.key == "course_class_inside"


def test_the_course_s_token_embedding_inside_the_lesson_6_input_layer_is_allowed():
    # lesson 6 builds on lesson 3: only the finished input layer is the answer there
    class OwnInputLayer(nn.Module):
        def __init__(self, vocab_size, d_model, max_len):
            super().__init__()
            self.tok = course_lib.TokenEmbedding(vocab_size, d_model)
            self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model), persistent=False)

        def forward(self, ids, positions=None):
            if positions is None:
                positions = torch.arange(ids.size(1))
            return self.tok(ids) + self.pe[positions].to(self.tok.embedding.weight.dtype)

    assert INP.check(OwnInputLayer).key == "inp.correct"
