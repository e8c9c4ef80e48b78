"""The checkers of lessons 7 (learned positions) and 8 (RoPE): every diagnosis, provoked by code
written the way a student writes it, in English and in Russian.

Built like ``test_exercises.py``, whose test of diagnosis coverage reads the tables below too.
"""

import math
import re

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import course_lib
from course_lib import exercises
from course_lib.exercises import runner
from course_lib.i18n import NUMBER_STYLE, decimal_mark
from tests.unit.verdicts import assert_numbers_in_language, assert_verdict, case_id, own_copy, verdict_tests

LP, ROPE = exercises.learned_positions.EXERCISE, exercises.rotary.EXERCISE


@pytest.fixture(autouse=True)
def short_time_limit(monkeypatch):
    """The students that hang get a verdict after 3 s here, not the 5 s a notebook gives them
    (a right answer takes ~0.1 s, ~1 s on a loaded machine)."""
    monkeypatch.setattr(runner, "TIME_LIMIT_S", 3.0)


# ----------------------------------------------------------------------------- lesson 7: learned positions
# right, in several styles


class EmbeddingLookup(nn.Module):
    """nn.Embedding (its default N(0, 1) init: RMS 1, the tokens' size) looked up by position."""

    def __init__(self, max_len, d_model):
        super().__init__()
        self.max_len = max_len
        self.pos = nn.Embedding(max_len, d_model)

    def forward(self, x):
        if x.size(1) > self.max_len:
            raise ValueError(f"Sequence of length {x.size(1)} is longer than max_len {self.max_len}")
        return x + self.pos(torch.arange(x.size(1), device=x.device))


class BatchedTable(nn.Module):
    """A (1, max_len, d_model) table, sliced on axis 1, with dropout."""

    def __init__(self, max_len, d_model):
        super().__init__()
        self.max_len = max_len
        self.pe = nn.Parameter(torch.empty(1, max_len, d_model))
        nn.init.normal_(self.pe, std=0.7)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        seq = x.shape[1]
        if seq > self.max_len:
            raise ValueError(f"got {seq} positions, the table has {self.max_len}")
        return self.drop(x + self.pe[:, :seq])


# wrong, one mistake each


class LearnedBase(nn.Module):
    """The right table and the right length check; subclasses change one thing."""

    def __init__(self, max_len, d_model):
        super().__init__()
        self.max_len = max_len
        self.weight = nn.Parameter(torch.randn(max_len, d_model) / math.sqrt(2))

    def check_length(self, x):
        if x.size(1) > self.max_len:
            raise ValueError(f"sequence length {x.size(1)} exceeds max_len={self.max_len}")


class WholeTable(LearnedBase):
    def forward(self, x):
        self.check_length(x)
        return x + self.weight


class SlicedByBatch(LearnedBase):
    def forward(self, x):
        self.check_length(x)
        return x + self.weight[: x.size(0)]


class SlicedByBatchBroadcast(LearnedBase):
    def forward(self, x):
        self.check_length(x)
        return x + self.weight[: x.size(0)].unsqueeze(1)


class TableDrawnInForward(nn.Module):
    def __init__(self, max_len, d_model):
        super().__init__()
        self.d_model = d_model

    def forward(self, x):
        table = nn.Parameter(torch.randn(x.size(1), self.d_model) / math.sqrt(2))
        return x + table


class LinearOfPosition(nn.Module):
    """A learned function of the position number: no table to look rows up in."""

    def __init__(self, max_len, d_model):
        super().__init__()
        self.proj = nn.Linear(1, d_model)

    def forward(self, x):
        pos = torch.arange(x.size(1), dtype=x.dtype).unsqueeze(1)
        return x + self.proj(pos)


class RowsWithoutX(LearnedBase):
    def forward(self, x):
        self.check_length(x)
        return self.weight[: x.size(1)].expand_as(x)


class DropsTheBatch(LearnedBase):
    def forward(self, x):
        self.check_length(x)
        return x[0] + self.weight[: x.size(1)]


class RowsFromOne(LearnedBase):
    def forward(self, x):
        self.check_length(x)
        return x + self.weight[1 : x.size(1) + 1]


class LastRows(LearnedBase):
    """The rows of the table's end, as if the sequence were right-aligned in it."""

    def forward(self, x):
        self.check_length(x)
        return x + self.weight[-x.size(1) :]


class AddsInPlace(LearnedBase):
    def forward(self, x):
        self.check_length(x)
        x += self.weight[: x.size(1)]
        return x


class BufferTable(LearnedBase):
    def __init__(self, max_len, d_model):
        super().__init__(max_len, d_model)
        del self.weight
        self.register_buffer("weight", torch.randn(max_len, d_model) / math.sqrt(2))

    def forward(self, x):
        self.check_length(x)
        return x + self.weight[: x.size(1)]


class PlainTensorTable(LearnedBase):
    def __init__(self, max_len, d_model):
        super().__init__(max_len, d_model)
        del self.weight
        self.weight = torch.randn(max_len, d_model) / math.sqrt(2)

    def forward(self, x):
        self.check_length(x)
        return x + self.weight[: x.size(1)]


class FrozenTable(LearnedBase):
    def __init__(self, max_len, d_model):
        super().__init__(max_len, d_model)
        self.weight.requires_grad_(False)

    def forward(self, x):
        self.check_length(x)
        return x + self.weight[: x.size(1)]


class DetachedTable(LearnedBase):
    def forward(self, x):
        self.check_length(x)
        return x + self.weight[: x.size(1)].detach()


class InitScaled(LearnedBase):
    """The right module with another initial table: ``draw(max_len, d_model)``."""

    draw = None

    def __init__(self, max_len, d_model):
        super().__init__(max_len, d_model)
        self.weight = nn.Parameter(type(self).draw(max_len, d_model))

    def forward(self, x):
        self.check_length(x)
        return x + self.weight[: x.size(1)]


def init(name, draw):
    return type(name, (InitScaled,), {"draw": staticmethod(draw)})


UniformInit = init("UniformInit", lambda n, d: torch.rand(n, d))
Gpt2Init = init("Gpt2Init", lambda n, d: torch.randn(n, d) * 0.01)  # GPT-2's wpe
FairseqInit = init("FairseqInit", lambda n, d: torch.randn(n, d) * d**-0.5)
ZeroInit = init("ZeroInit", lambda n, d: torch.zeros(n, d))
ScaledLikeTokensInit = init("ScaledLikeTokensInit", lambda n, d: torch.randn(n, d) * math.sqrt(d))


class WrapsAround(LearnedBase):
    def forward(self, x):
        positions = torch.arange(x.size(1)) % self.max_len
        return x + self.weight[positions]


class NoLengthCheck(LearnedBase):
    def forward(self, x):
        return x + self.weight[: x.size(1)]


class EmbeddingIndexError(nn.Module):
    def __init__(self, max_len, d_model):
        super().__init__()
        self.pos = nn.Embedding(max_len, d_model)
        nn.init.normal_(self.pos.weight, std=0.7)

    def forward(self, x):
        return x + self.pos(torch.arange(x.size(1)))


class AssertsLength(LearnedBase):
    def forward(self, x):
        assert x.size(1) <= self.max_len
        return x + self.weight[: x.size(1)]


class RefusesFullLength(LearnedBase):
    """The length check one off: a sequence of exactly max_len tokens is refused too."""

    def forward(self, x):
        if x.size(1) >= self.max_len:
            raise ValueError(f"sequence length {x.size(1)} exceeds max_len={self.max_len}")
        return x + self.weight[: x.size(1)]


class VagueLengthError(LearnedBase):
    def forward(self, x):
        if x.size(1) > self.max_len:
            raise ValueError("sequence too long")
        return x + self.weight[: x.size(1)]


# ----------------------------------------------------------------------------- lesson 8: rotary
# right, in several styles


def apply_rotary_complex(x, positions, base=10000.0):
    """Meta's LLaMA form, in float64: pairs as complex numbers times e^(j angle)."""
    d = x.size(-1)
    freqs = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    angle = torch.outer(positions.double(), freqs)
    z = torch.view_as_complex(x.double().reshape(*x.shape[:-1], -1, 2).contiguous())
    turned = z * torch.polar(torch.ones_like(angle), angle)
    return torch.view_as_real(turned).flatten(-2).to(x.dtype)


def apply_rotary_loops(x, positions, base=10000.0):
    """Pair by pair with math.cos and math.sin: slow, and float64 by nature."""
    out = x.clone()
    d = x.size(-1)
    for t, p in enumerate(positions.tolist()):
        for i in range(d // 2):
            angle = p * base ** (-2 * i / d)
            c, s = math.cos(angle), math.sin(angle)
            a, b = x[..., t, 2 * i].double(), x[..., t, 2 * i + 1].double()
            out[..., t, 2 * i] = (a * c - b * s).to(x.dtype)
            out[..., t, 2 * i + 1] = (a * s + b * c).to(x.dtype)
    return out


def apply_rotary_module(x, positions, base=10000.0):
    """The course's own RotaryEmbedding (arithmetic in x's dtype, tables from float64)."""
    rope = course_lib.RotaryEmbedding(x.size(-1), max_len=int(positions.max()) + 1, base=base)
    return rope(x, x, positions)[0]


def rotate_qk_complex(q, k, v, positions):
    return apply_rotary_complex(q, positions), apply_rotary_complex(k, positions), v


# wrong, one mistake each


def rotary(x, positions, base, *, pairs="neighbours", sign=1.0, two=2.0, dtype=torch.float64, cast=True):
    """A student's apply_rotary with one knob turned: the pairing, the direction, 2i, the precision."""
    d = x.size(-1)
    i = torch.arange(d // 2, dtype=dtype)
    angle = sign * positions.to(dtype).unsqueeze(1) * base ** (-two * i / d)
    cos, sin = torch.cos(angle), torch.sin(angle)
    if pairs == "neighbours":
        a, b = x[..., 0::2].to(dtype), x[..., 1::2].to(dtype)
        out = torch.stack((a * cos - b * sin, a * sin + b * cos), dim=-1).flatten(-2)
    else:
        a, b = x[..., : d // 2].to(dtype), x[..., d // 2 :].to(dtype)
        out = torch.cat((a * cos - b * sin, a * sin + b * cos), dim=-1)
    return out.to(x.dtype) if cast else out


def rotary_half_split(x, positions, base=10000.0):
    return rotary(x, positions, base, pairs="halves")


def rotary_backwards(x, positions, base=10000.0):
    return rotary(x, positions, base, sign=-1.0)


def rotary_exponent_i(x, positions, base=10000.0):
    return rotary(x, positions, base, two=1.0)


def rotary_base_hard_coded(x, positions, base=10000.0):
    return rotary(x, positions, 10000.0)


def rotary_arange_positions(x, positions, base=10000.0):
    return rotary(x, torch.arange(x.size(2)), base)


def rotary_no_positions(x, positions, base=10000.0):
    """The frequencies alone as angles: every token turned as if it stood at position 1."""
    return rotary(x, torch.ones_like(positions), base)


def rotary_float64_out(x, positions, base=10000.0):
    return rotary(x, positions, base, cast=False)


def rotary_float32_angles(x, positions, base=10000.0):
    return rotary(x, positions, base, dtype=torch.float32)


def rotary_angles_in_x_dtype(x, positions, base=10000.0):
    return rotary(x, positions, base, dtype=x.dtype)


def rotary_not_flattened(x, positions, base=10000.0):
    return rotary(x, positions, base).unflatten(-1, (-1, 2))


def rotary_positions_from_one(x, positions, base=10000.0):
    return rotary(x, positions + 1, base)


def rotary_in_place(x, positions, base=10000.0):
    rotated = rotary(x, positions, base)
    x.copy_(rotated)
    return x


def rotate_qk_pair(q, k, v, positions):
    return apply_rotary_complex(q, positions), apply_rotary_complex(k, positions)


def rotate_qk_query_only(q, k, v, positions):
    return apply_rotary_complex(q, positions), k, v


def rotate_qk_values_too(q, k, v, positions):
    return tuple(apply_rotary_complex(t, positions) for t in (q, k, v))


def rotate_qk_scaled_values(q, k, v, positions):
    return apply_rotary_complex(q, positions), apply_rotary_complex(k, positions), v / math.sqrt(v.size(-1))


def qk_with(apply):
    """rotate_qk written right, around a given apply_rotary."""

    def rotate_qk(q, k, v, positions):
        return apply(q, positions), apply(k, positions), v

    rotate_qk.__name__ = f"rotate_qk_with_{apply.__name__}"
    return rotate_qk


# ----------------------------------------------------------------------------- every diagnosis

WRONG = [
    (LP, WholeTable, "lp.not_sliced"),
    (LP, SlicedByBatch, "lp.sequence_first"),
    (LP, SlicedByBatchBroadcast, "lp.sequence_first"),
    (LP, TableDrawnInForward, "lp.random_output"),
    (LP, LinearOfPosition, "lp.no_table"),
    (LP, RowsWithoutX, "lp.table_without_x"),
    (LP, DropsTheBatch, "lp.wrong_shape"),
    (LP, RowsFromOne, "lp.rows_from_one"),
    (LP, LastRows, "lp.mismatch"),
    (LP, AddsInPlace, "lp.modifies_input"),
    (LP, BufferTable, "lp.not_parameter"),
    (LP, PlainTensorTable, "lp.not_parameter"),
    (LP, FrozenTable, "lp.no_gradient"),
    (LP, DetachedTable, "lp.no_gradient"),
    (LP, UniformInit, "lp.init_not_centred"),
    (LP, Gpt2Init, "lp.init_too_small"),
    (LP, FairseqInit, "lp.init_too_small"),
    (LP, ZeroInit, "lp.init_too_small"),
    (LP, ScaledLikeTokensInit, "lp.init_too_large"),
    (LP, WrapsAround, "lp.no_length_check"),
    (LP, NoLengthCheck, "lp.length_error_type"),
    (LP, EmbeddingIndexError, "lp.length_error_type"),
    (LP, AssertsLength, "lp.length_error_type"),
    (LP, VagueLengthError, "lp.length_error_vague"),
    (LP, RefusesFullLength, "lp.rejects_full_length"),
    (ROPE, rotary_half_split, "rope.half_split"),
    (ROPE, rotary_backwards, "rope.wrong_direction"),
    (ROPE, rotary_exponent_i, "rope.exponent_i"),
    (ROPE, rotary_base_hard_coded, "rope.base_ignored"),
    (ROPE, rotary_arange_positions, "rope.positions_ignored"),
    (ROPE, rotary_no_positions, "rope.same_angle"),
    (ROPE, rotary_float64_out, "rope.dtype"),
    (ROPE, rotary_float32_angles, "rope.float64"),
    (ROPE, rotary_angles_in_x_dtype, "rope.float64"),
    (ROPE, rotary_not_flattened, "rope.wrong_shape"),
    (ROPE, rotary_positions_from_one, "rope.mismatch"),
    (ROPE, rotary_in_place, "rope.modifies_input"),
    (ROPE, rotate_qk_pair, "rope.qk_not_triple"),
    (ROPE, rotate_qk_query_only, "rope.keys_not_rotated"),
    (ROPE, rotate_qk_values_too, "rope.rotated_values"),
    (ROPE, rotate_qk_scaled_values, "rope.values_changed"),
    # rotate_qk checks the apply_rotary it calls too
    (ROPE, qk_with(rotary_half_split), "rope.half_split"),
    (ROPE, qk_with(rotary_no_positions), "rope.same_angle"),
    (ROPE, qk_with(rotary_float64_out), "rope.dtype"),
    (ROPE, qk_with(rotary_float32_angles), "rope.float64"),
    (ROPE, qk_with(rotary_angles_in_x_dtype), "rope.float64"),
]

RIGHT = [
    (LP, own_copy(course_lib.LearnedPositionalEmbedding)),
    (LP, EmbeddingLookup),
    (LP, BatchedTable),
    (ROPE, apply_rotary_complex),
    (ROPE, apply_rotary_loops),
    (ROPE, apply_rotary_module),
]

# rotate_qk has a verdict of its own when it is right
RIGHT_QK = [rotate_qk_complex, qk_with(apply_rotary_loops), qk_with(apply_rotary_module)]
CORRECT_QK = "rope.correct_qk"


test_each_mistake_gets_its_own_diagnosis, test_right_implementations_in_any_style_pass = verdict_tests(
    WRONG, RIGHT
)


@pytest.mark.parametrize("student", RIGHT_QK, ids=case_id)
def test_a_right_rotate_qk_passes(student, lang):
    assert_verdict(ROPE.check(student), "correct", CORRECT_QK, lang)


def test_the_reference_rotate_qk_passes():
    namespace = {}
    exec(ROPE.solution_code, namespace)
    assert ROPE.check(namespace["rotate_qk"]).key == CORRECT_QK
    assert ROPE.check(namespace["apply_rotary"]).key == "rope.correct"


# ----------------------------------------------------------------------------- what the messages say


def test_the_init_verdicts_measure_the_table():
    course_lib.set_language("en")
    verdict = LP.check(Gpt2Init)
    assert float(verdict.values["rms"]) == pytest.approx(0.01, rel=0.2)
    assert f"RMS {verdict.values['rms']}" in verdict.message
    assert float(LP.check(UniformInit).values["mean"]) == pytest.approx(0.5, abs=0.05)
    assert float(LP.check(ScaledLikeTokensInit).values["rms"]) == pytest.approx(4.0, rel=0.2)
    # the course's own init is what the correct verdict reports
    assert float(LP.check(own_copy(course_lib.LearnedPositionalEmbedding)).values["rms"]) == pytest.approx(
        0.71, abs=0.07
    )


@pytest.mark.parametrize(
    "student", [UniformInit, Gpt2Init, LastRows, own_copy(course_lib.LearnedPositionalEmbedding)], ids=case_id
)
def test_the_numbers_are_written_as_the_language_writes_them(student, lang):
    message = LP.check(student).message
    numbers = assert_numbers_in_language(message, lang)
    if student is LastRows:  # a negative number among the two it names (the check draws with seed 0)
        assert any(n[0] in "-−" for n in numbers), message


def test_the_full_length_verdict_names_max_len_and_the_refusal():
    values = LP.check(RefusesFullLength).values
    assert (values["max_len"], values["last"]) == (20, 19)
    assert values["detail"] == "sequence length 20 exceeds max_len=20"


def test_the_length_verdicts_name_seq_max_len_and_the_error():
    values = LP.check(NoLengthCheck).values
    assert (values["seq"], values["max_len"], values["error"]) == (23, 20, "RuntimeError")
    assert LP.check(EmbeddingIndexError).values["error"] == "IndexError"
    assert LP.check(AssertsLength).values["error"] == "AssertionError"
    assert LP.check(VagueLengthError).values["detail"] == "sequence too long"
    assert "`Tensor` (2, 23, 16)" in LP.check(WrapsAround).message


def test_the_rope_mismatch_names_head_position_and_values():
    values = ROPE.check(rotary_positions_from_one).values
    assert {"row", "head", "position", "dim", "got", "expected"} <= set(values)
    assert values["position"] in {2, 3, 5, 8, 13}


def test_the_precision_verdict_names_dtype_position_and_error():
    values = ROPE.check(rotary_float32_angles).values
    assert values["dtype"] == torch.float32 and 99_990 <= values["position"] <= 100_000
    assert 1e-4 < float(values["err"]) < 0.1  # as the English message writes it: 1.5e-03
    values = ROPE.check(rotary_angles_in_x_dtype).values
    assert values["dtype"] == torch.float16 and float(values["err"]) > 1e-2


@pytest.mark.parametrize("student", [rotary_positions_from_one, rotary_float32_angles], ids=case_id)
def test_the_rope_numbers_are_written_as_the_language_writes_them(student, lang):
    feedback = ROPE.check(student)
    numbers = assert_numbers_in_language(feedback.message, lang)
    if feedback.key == "rope.mismatch":  # -0.7720 in English, −0,7720 in Russian
        assert any(n[0] in "-−" for n in numbers), feedback.message
    else:  # off by 1.5e-03 in English, 1,5·10⁻³ in Russian (NUMBER_STYLE: a power of ten)
        point = re.escape(decimal_mark(lang))
        power_of_ten = NUMBER_STYLE.get(lang, {}).get("power_of_ten", False)
        assert re.search(
            rf"\d{point}\d·10⁻[¹²³⁴⁵⁶⁷⁸⁹]" if power_of_ten else rf"\d{point}\de-0\d", feedback.message
        ), feedback.message


def test_check_tells_the_two_functions_apart_by_their_parameters():
    def rotate_qk_named(query, key, v, positions):
        return rotate_qk_complex(query, key, v, positions)

    def apply_with_keyword_base(x, positions, *, base=10000.0):
        return apply_rotary_complex(x, positions, base)

    assert ROPE.check(rotate_qk_named).key == CORRECT_QK
    assert ROPE.check(apply_with_keyword_base).key == "error_call"  # the check passes base by position
    assert (
        ROPE.check(lambda x, positions, base: apply_rotary_complex(x, positions, base)).key == "rope.correct"
    )


def test_check_never_raises_on_odd_arguments():
    for student in (None, 42, "apply_rotary", nn.Linear):
        assert ROPE.check(student).key == "not_a_function"
    assert LP.check(apply_rotary_complex).key == "not_a_class"
    assert LP.check(own_copy(course_lib.LearnedPositionalEmbedding)(20, 16)).key == "instance_not_class"
    assert ROPE.check(F.relu).status == "incorrect"  # a builtin: no signature to read, still a verdict


# ----------------------------------------------------------------------------- check never raises, never hangs


class HangsOnLongSequences(LearnedBase):
    """Right for short sequences; the length probe finds an endless loop."""

    def forward(self, x):
        while x.size(1) > self.max_len:
            pass
        return x + self.weight[: x.size(1)]


def rotary_hangs(x, positions, base=10000.0):
    while True:
        pass


def rotary_exits(x, positions, base=10000.0):
    raise SystemExit(1)


def rotary_returns_numbers(x, positions, base=10000.0):
    return x.tolist()


@pytest.mark.parametrize(
    "exercise, student, key",
    [
        (LP, HangsOnLongSequences, "timeout"),
        (ROPE, rotary_hangs, "timeout"),
        (ROPE, rotary_exits, "exited"),
        (ROPE, rotary_returns_numbers, "not_tensor"),
    ],
    ids=lambda v: case_id(v) if callable(v) else str(v),
)
def test_hangs_exits_and_odd_returns_are_verdicts(exercise, student, key, lang):
    assert_verdict(exercise.check(student), "incorrect", key, lang)


def test_checks_leave_the_students_random_stream_alone():
    torch.manual_seed(0)
    expected = torch.rand(3)
    torch.manual_seed(0)
    LP.check(TableDrawnInForward)
    ROPE.check(rotary_half_split)
    assert torch.equal(torch.rand(3), expected)
