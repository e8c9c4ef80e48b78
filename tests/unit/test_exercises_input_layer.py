"""The checker of lesson 6 (the whole input layer): every diagnosis, provoked by code written the
way a student writes it, in English and in Russian.

Built like ``test_exercises.py``, whose test of diagnosis coverage reads the table below too.
"""

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import course_lib
from course_lib import exercises
from course_lib.exercises import runner
from course_lib.i18n import decimal_mark
from tests.unit.verdicts import assert_numbers_in_language, own_copy, verdict_tests

INP = exercises.input_layer.EXERCISE


def paper_table(max_len, d_model, exponent_d=None):
    """The table as a student computes it: float64, interleaved, odd widths handled."""
    exponent_d = exponent_d or d_model
    pos = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angle = pos / 10000 ** (two_i / exponent_d)
    pe = torch.zeros(max_len, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])
    return pe.float()


@pytest.fixture(autouse=True)
def short_time_limit(monkeypatch):
    """The students that hang get a verdict after 3 s here, not the 5 s a notebook gives them
    (a right answer takes ~0.1 s, ~1 s on a loaded machine)."""
    monkeypatch.setattr(runner, "TIME_LIMIT_S", 3.0)


# ----------------------------------------------------------------------------- right, in several styles


class Reference(nn.Module):
    """The reference: nn.Embedding, a Python-float scale, a non-persistent buffer, pe[positions].

    The wrong implementations below change one thing each.
    """

    def __init__(self, vocab_size, d_model, max_len):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model)
        self.scale = math.sqrt(d_model)
        self.register_buffer("pe", paper_table(max_len, d_model), persistent=False)

    def default_positions(self, ids):
        return torch.arange(ids.size(1), device=ids.device)

    def rows(self, ids, positions):
        if positions is None:
            positions = self.default_positions(ids)
        return self.pe[positions]

    def forward(self, ids, positions=None):
        tokens = self.embedding(ids) * self.scale
        return tokens + self.rows(ids, positions).to(tokens.dtype)


class OneHotLinearTableInForward(nn.Module):
    """One-hot vectors times a Linear (a (d_model, vocab) weight), the table rebuilt on every call."""

    def __init__(self, vocab_size, d_model, max_len):
        super().__init__()
        self.vocab_size, self.d_model = vocab_size, d_model
        self.proj = nn.Linear(vocab_size, d_model, bias=False)

    def forward(self, ids, positions=None):
        one_hot = F.one_hot(ids, self.vocab_size).to(self.proj.weight.dtype)
        tokens = self.proj(one_hot) * self.d_model**0.5
        if positions is None:
            positions = torch.arange(ids.shape[1])
        table = course_lib.sinusoidal_table(int(positions.max()) + 1, self.d_model)
        return tokens + table[positions].type_as(tokens)


class BatchedBufferWithDropout(nn.Module):
    """A (1, max_len, d_model) buffer indexed on axis 1, course_lib's TokenEmbedding, and dropout."""

    def __init__(self, vocab_size, d_model, max_len):
        super().__init__()
        self.tok = course_lib.TokenEmbedding(vocab_size, d_model)
        self.register_buffer("pe", paper_table(max_len, d_model).unsqueeze(0), persistent=False)
        self.drop = nn.Dropout(0.1)

    def forward(self, ids, positions=None):
        x = self.tok(ids)
        if positions is None:
            positions = torch.arange(ids.size(1))
        return self.drop(x + self.pe[0, positions].to(x.dtype))


# ----------------------------------------------------------------------------- wrong, one mistake each


class TokensInABuffer(Reference):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__(vocab_size, d_model, max_len)
        del self.embedding
        self.register_buffer("tokens", torch.randn(vocab_size, d_model) / math.sqrt(d_model))

    def forward(self, ids, positions=None):
        return self.tokens[ids] * self.scale + self.rows(ids, positions)


class FirstSequenceOnly(Reference):
    def forward(self, ids, positions=None):
        return super().forward(ids, positions)[0]


class Float64Table(Reference):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__(vocab_size, d_model, max_len)
        self.pe = self.pe.double()  # still the buffer, now float64

    def forward(self, ids, positions=None):
        return self.embedding(ids) * self.scale + self.rows(ids, positions)


class Float32TableInForward(Reference):
    """Right in float32; in bfloat16 the float32 table promotes the sum."""

    def forward(self, ids, positions=None):
        if positions is None:
            positions = self.default_positions(ids)
        table = course_lib.sinusoidal_table(self.pe.shape[0], self.pe.shape[1])
        return self.embedding(ids) * self.scale + table[positions]


class FunctionalDropout(Reference):
    def forward(self, ids, positions=None):
        return F.dropout(super().forward(ids, positions), p=0.1)


class NoScale(Reference):
    def forward(self, ids, positions=None):
        return self.embedding(ids) + self.rows(ids, positions)


class CourseTokensScaledAgain(Reference):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__(vocab_size, d_model, max_len)
        self.embedding = course_lib.TokenEmbedding(vocab_size, d_model)  # already scales

    def forward(self, ids, positions=None):
        return self.embedding(ids) * math.sqrt(self.embedding.d_model) + self.rows(ids, positions)


class ScalesTheSum(Reference):
    def forward(self, ids, positions=None):
        return (self.embedding(ids) + self.rows(ids, positions)) * self.scale


class ScalesThePositions(Reference):
    def forward(self, ids, positions=None):
        return self.embedding(ids) * self.scale + self.rows(ids, positions) * self.scale


class FloorDivision(Reference):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__(vocab_size, d_model, max_len)
        position = torch.arange(max_len).unsqueeze(1)
        two_i = torch.arange(0, d_model, 2)
        angle = position / 10000 ** (two_i // d_model)
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(angle)
        pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])
        self.pe = pe


class SinesThenCosines(Reference):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__(vocab_size, d_model, max_len)
        self.pe = torch.cat([self.pe[:, 0::2], self.pe[:, 1::2]], dim=1)


class CosinesFirst(Reference):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__(vocab_size, d_model, max_len)
        swapped = torch.empty_like(self.pe)
        swapped[:, 0::2], swapped[:, 1::2] = self.pe[:, 1::2], self.pe[:, 0::2]
        self.pe = swapped


class PositionsFromOne(Reference):
    def default_positions(self, ids):
        return torch.arange(1, ids.size(1) + 1)


class TableAsParameter(Reference):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__(vocab_size, d_model, max_len)
        table = self.pe
        del self.pe
        self.pe = nn.Parameter(table, requires_grad=False)


class PersistentBuffer(Reference):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__(vocab_size, d_model, max_len)
        table = self.pe
        del self.pe
        self.register_buffer("pe", table)


class PlainAttribute(Reference):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__(vocab_size, d_model, max_len)
        table = self.pe
        del self.pe
        self.pe = table


class NoPositionsParameter(Reference):
    def forward(self, ids):
        return super().forward(ids)


class PositionsIgnored(Reference):
    def forward(self, ids, positions=None):  # the tutorial's slice, whatever the positions
        return self.embedding(ids) * self.scale + self.pe[: ids.size(1)]


class PositionIsAStartOffset(Reference):
    def rows(self, ids, positions):
        start = 0 if positions is None else int(positions)
        return self.pe[start : start + ids.size(1)]


class PositionsOffByOne(Reference):
    def rows(self, ids, positions):
        return super().rows(ids, None if positions is None else positions + 1)


class SlicedFromTheFirstPosition(Reference):
    def rows(self, ids, positions):
        start = 0 if positions is None else int(positions[0])
        return self.pe[start : start + ids.size(1)]


class RowsUnsqueezed(Reference):
    def rows(self, ids, positions):
        return super().rows(ids, positions).unsqueeze(0)


class FirstRowOfPositions(Reference):
    def rows(self, ids, positions):
        if positions is not None and positions.dim() == 2:
            positions = positions[0]
        return super().rows(ids, positions)


class ScaleBuffer(Reference):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__(vocab_size, d_model, max_len)
        del self.scale
        self.register_buffer("scale", torch.tensor(math.sqrt(d_model)), persistent=False)


class ScaleCastToTheInput(Reference):
    """Gemma's normalizer after transformers PR #29402: right for Gemma, not for this layer."""

    def forward(self, ids, positions=None):
        tokens = self.embedding(ids)
        normalizer = torch.tensor(self.scale, dtype=tokens.dtype)
        return tokens * normalizer + self.rows(ids, positions).to(tokens.dtype)


class EvenOnly(Reference):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__(vocab_size, d_model, max_len)
        pos = torch.arange(max_len).unsqueeze(1)
        angle = pos / 10000 ** (torch.arange(0, d_model, 2) / d_model)
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(angle)
        pe[:, 1::2] = torch.cos(angle)
        self.pe = pe


class OddWidthRoundedUp(Reference):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__(vocab_size, d_model, max_len)
        self.pe = paper_table(max_len, d_model, exponent_d=d_model + d_model % 2)


class NoReturn(Reference):
    def forward(self, ids, positions=None):
        super().forward(ids, positions)


class GatherWithFloatIds(Reference):
    def forward(self, ids, positions=None):
        return self.embedding(ids.float()) * self.scale + self.rows(ids, positions)


class HangsOnPositions(Reference):
    def forward(self, ids, positions=None):
        while positions is not None:
            pass
        return super().forward(ids)


WRONG = [
    (INP, TokensInABuffer, "inp.no_token_table"),
    (INP, FirstSequenceOnly, "inp.wrong_shape"),
    (INP, Float64Table, "inp.dtype"),
    (INP, Float32TableInForward, "inp.dtype"),
    (INP, FunctionalDropout, "inp.random_output"),
    (INP, NoScale, "inp.missing_scale"),
    (INP, CourseTokensScaledAgain, "inp.scaled_twice"),
    (INP, ScalesTheSum, "inp.scaled_positions"),
    (INP, ScalesThePositions, "inp.scaled_positions"),
    (INP, FloorDivision, "inp.same_frequency"),
    (INP, SinesThenCosines, "inp.other_layout"),
    (INP, CosinesFirst, "inp.other_layout"),
    (INP, PositionsFromOne, "inp.mismatch"),
    (INP, TableAsParameter, "inp.table_is_parameter"),
    (INP, PersistentBuffer, "inp.table_saved"),
    (INP, PlainAttribute, "inp.not_buffer"),
    (INP, NoPositionsParameter, "inp.no_positions_parameter"),
    (INP, PositionsIgnored, "inp.positions_ignored"),
    (INP, PositionIsAStartOffset, "inp.positions_error"),
    (INP, PositionsOffByOne, "inp.positions_mismatch"),
    (INP, SlicedFromTheFirstPosition, "inp.positions_batch_error"),
    (INP, RowsUnsqueezed, "inp.positions_batch_shape"),
    (INP, FirstRowOfPositions, "inp.positions_batch_values"),
    (INP, ScaleBuffer, "inp.scale_rounded"),
    (INP, ScaleCastToTheInput, "inp.scale_rounded"),
    (INP, EvenOnly, "inp.odd_d_model_crash"),
    (INP, OddWidthRoundedUp, "inp.odd_d_model_values"),
    (INP, NoReturn, "not_tensor"),
    (INP, GatherWithFloatIds, "error_forward"),
    (INP, HangsOnPositions, "timeout"),
]

RIGHT = [
    (INP, own_copy(course_lib.TransformerEmbedding)),
    (INP, Reference),
    (INP, OneHotLinearTableInForward),
    (INP, BatchedBufferWithDropout),
]


test_each_mistake_gets_its_own_diagnosis, test_right_implementations_in_any_style_pass = verdict_tests(
    WRONG, RIGHT
)


# ----------------------------------------------------------------------------- what the messages say


def test_the_position_verdicts_name_the_positions_and_the_row():
    assert INP.check(PositionsIgnored).values["positions"] == [11, 12]
    values = INP.check(PositionsOffByOne).values
    assert values["position"] in (11, 12) and {"row", "dim", "got", "expected"} <= set(values)
    values = INP.check(FirstRowOfPositions).values
    assert values["row"] > 0 and values["position"] == values["positions"][values["row"]][values["pos"]]
    assert INP.check(SlicedFromTheFirstPosition).values["shape"] == (3, 5)
    assert INP.check(RowsUnsqueezed).values["got"] == (1, 3, 5, 24)


def test_the_rounded_scale_is_named_with_both_values(lang):
    feedback = INP.check(ScaleBuffer)
    point = decimal_mark(lang)
    rounded, scale = f"4{point}90625", f"4{point}8990"
    assert (feedback.values["rounded"], feedback.values["scale"]) == (rounded, scale)
    assert scale in feedback.message and rounded in feedback.message


@pytest.mark.parametrize(
    "student",
    [
        NoScale,
        PositionsFromOne,
        PositionsOffByOne,  # negative numbers: -3.2854 in English, −3,2854 in Russian
        FirstRowOfPositions,
        ScaleBuffer,
        OddWidthRoundedUp,
    ],
    ids=lambda s: s.__name__,
)
def test_the_numbers_are_written_as_the_language_writes_them(student, lang):
    feedback = INP.check(student)
    numbers = assert_numbers_in_language(feedback.message, lang)
    if student is PositionsOffByOne:
        assert any(n[0] in "-−" for n in numbers), feedback.message


def test_the_bfloat16_probe_separates_the_two_scales_on_every_value():
    values = exercises.input_layer._bfloat16_probe_values(24)
    assert len(values) >= 20
    exact = (values * math.sqrt(24)).to(torch.bfloat16)
    # what a right layer computes in bfloat16: a Python float scale, multiplied in float32
    assert torch.equal(values.to(torch.bfloat16) * math.sqrt(24), exact)
    rounded = (values * 4.90625).to(torch.bfloat16)
    assert not (exact == rounded).any()


def test_the_odd_width_verdicts_say_where_and_what():
    values = INP.check(EvenOnly).values
    assert (values["even"], values["odd"], values["where"], values["error"]) == (
        24,
        15,
        "__init__",
        "RuntimeError",
    )
    values = INP.check(OddWidthRoundedUp).values
    assert {"pos", "dim", "got", "expected"} <= set(values)


# ----------------------------------------------------------------------------- check never raises


def test_odd_arguments_are_verdicts():
    assert INP.check(None).key == "not_a_class"
    assert INP.check(Reference(29, 24, 40)).key == "instance_not_class"
    assert INP.check(own_copy(course_lib.TokenEmbedding)).key == "error_init"  # takes two arguments


def test_check_leaves_the_students_random_stream_and_dtype_alone():
    torch.manual_seed(0)
    expected = torch.rand(3)
    torch.manual_seed(0)
    INP.check(FunctionalDropout)
    INP.check(Reference)
    assert torch.equal(torch.rand(3), expected)
    assert torch.get_default_dtype() == torch.float32


class BatchedBufferIndexedOnAxis1(BatchedBufferWithDropout):
    """A (1, max_len, d_model) buffer indexed as pe[:, positions]: right for (seq,), one axis too many for (batch, seq)."""

    def forward(self, ids, positions=None):
        x = self.tok(ids)
        if positions is None:
            positions = torch.arange(ids.size(1))
        return x + self.pe[:, positions].to(x.dtype)


def test_a_batched_buffer_indexed_on_axis_1_is_told_how_to_index_it():
    feedback = INP.check(BatchedBufferIndexedOnAxis1)
    assert feedback.key == "inp.positions_batch_shape" and feedback.values["got"] == (1, 3, 5, 24)
    assert "self.pe[0, positions]" in feedback.message
