"""The exercise checkers: every diagnosis, provoked by code written the way a student writes it.

Each wrong implementation below is one mistake, checked in English and in Russian. Right
implementations in several styles must pass; the templates must be "not attempted"; the
reference solutions that ``solution()`` shows must pass; ``check`` never raises.
"""

import importlib
import io
import json
import math
import re
import tokenize
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pad_sequence

import course_lib
from course_lib import code_comments, exercises
from course_lib.bpe import count_pairs, merge
from course_lib.code_comments import SOURCE_LANGUAGE, TRANSLATIONS, comments
from course_lib.exercises.checks import message, status_title
from course_lib.exercises.exercise import Exercise
from course_lib.i18n import LANGUAGES, script_problems, translations
from tests.unit.verdicts import assert_numbers_in_language, assert_verdict, case_id, own_copy, verdict_tests

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = tuple(exercises.registry().values())


def sines_and_cosines(max_len, d_model):
    """The table as a student writes it once it is right (float32, even d_model only)."""
    pos = torch.arange(max_len).unsqueeze(1)
    div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
    return torch.sin(pos * div), torch.cos(pos * div)


# ----------------------------------------------------------------------------- lesson 5: positional encoding
# right, in several styles


class AnnotatedStyle(nn.Module):
    """exp/log frequencies in float32, a (1, max_len, d) persistent buffer, dropout 0.1."""

    def __init__(self, d_model, max_len):
        super().__init__()
        self.dropout = nn.Dropout(p=0.1)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * -(math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term[: d_model // 2])
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        x = x + self.pe[:, : x.size(1)].requires_grad_(False).to(x.dtype)
        return self.dropout(x)


class SlowLoop(nn.Module):
    """A double Python loop, math.sin, another buffer name."""

    def __init__(self, d_model, max_len):
        super().__init__()
        table = torch.zeros(max_len, d_model)
        for pos in range(max_len):
            for i in range(0, d_model, 2):
                angle = pos / 10000 ** (i / d_model)
                table[pos, i] = math.sin(angle)
                if i + 1 < d_model:
                    table[pos, i + 1] = math.cos(angle)
        self.register_buffer("positions", table, persistent=False)

    def forward(self, x):
        seq_len = x.shape[1]
        return x + self.positions[:seq_len, :].type_as(x)


class TableInForward(nn.Module):
    """Nothing stored: the table is recomputed on every call."""

    def __init__(self, d_model, max_len):
        super().__init__()
        self.d_model = d_model

    def forward(self, x):
        table = course_lib.sinusoidal_table(x.size(1), self.d_model)
        return x + table.to(x.dtype)


# wrong, one mistake each


class SinCosSwapped(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        sin, cos = sines_and_cosines(max_len, d_model)
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = cos
        pe[:, 1::2] = sin
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class Halves(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        sin, cos = sines_and_cosines(max_len, d_model)
        self.register_buffer("pe", torch.cat([sin, cos], dim=1))

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class ExponentI(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        for pos in range(max_len):
            for i in range(d_model // 2):
                pe[pos, 2 * i] = math.sin(pos / 10000 ** (i / d_model))
                pe[pos, 2 * i + 1] = math.cos(pos / 10000 ** (i / d_model))
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class ExponentDoubled(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        for pos in range(max_len):
            for i in range(0, d_model, 2):
                pe[pos, i] = math.sin(pos / 10000 ** ((2 * i) / d_model))
                pe[pos, i + 1] = math.cos(pos / 10000 ** ((2 * i) / d_model))
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class ExponentPerColumn(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        for pos in range(max_len):
            for i in range(d_model):
                angle = pos / 10000 ** (i / d_model)
                pe[pos, i] = math.sin(angle) if i % 2 == 0 else math.cos(angle)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class SameFrequency(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        i = torch.arange(d_model // 2)
        div_term = 10000 ** (2 * i // d_model)  # integer division: 0 for every i
        position = torch.arange(max_len).unsqueeze(1)
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(position / div_term)
        pe[:, 1::2] = torch.cos(position / div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class PlainAttribute(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.pe = course_lib.sinusoidal_table(max_len, d_model)

    def forward(self, x):
        return x + self.pe[: x.size(1)].to(x.dtype)


class AssignedBeforeRegister(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.pe = course_lib.sinusoidal_table(max_len, d_model)
        self.register_buffer("pe", self.pe)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class NotSliced(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model).unsqueeze(0))

    def forward(self, x):
        return x + self.pe


class SequenceFirstTutorial(nn.Module):
    """The layout of PyTorch's old tutorial: pe (max_len, 1, d), sliced by x.size(0)."""

    def __init__(self, d_model, max_len):
        super().__init__()
        pe = course_lib.sinusoidal_table(max_len, d_model).unsqueeze(0).transpose(0, 1)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(0), :]


class SlicedByBatch(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model))

    def forward(self, x):
        return x + self.pe[: x.size(0)]


class DtypeNotFollowed(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model))

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class Float64Table(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model, dtype=torch.float64))

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class ScaledInside(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.d_model = d_model
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model))

    def forward(self, x):
        x = x * math.sqrt(self.d_model)
        return x + self.pe[: x.size(1)].to(x.dtype)


class TableWithoutX(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model).unsqueeze(0))

    def forward(self, x):
        return self.pe[:, : x.size(1)]


class TableIsParameter(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.pe = nn.Parameter(course_lib.sinusoidal_table(max_len, d_model))  # trained

    def forward(self, x):
        return x + self.pe[: x.size(1)].to(x.dtype)


class FrozenTable(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.pe = nn.Parameter(course_lib.sinusoidal_table(max_len, d_model), requires_grad=False)

    def forward(self, x):
        return x + self.pe[: x.size(1)].to(x.dtype)


class SkipsHalf(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, x):
        return x if x.dtype == torch.float16 else x + self.pe[: x.size(1)].to(x.dtype)


class FunctionalDropout(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model))

    def forward(self, x):
        return F.dropout(x + self.pe[: x.size(1)].to(x.dtype), p=0.1)


class InPlace(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model))

    def forward(self, x):
        x += self.pe[: x.size(1)].to(x.dtype)
        return x


class EvenOnly(nn.Module):
    """Right, but like most tutorials it crashes on an odd d_model."""

    def __init__(self, d_model, max_len):
        super().__init__()
        sin, cos = sines_and_cosines(max_len, d_model)
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = sin
        pe[:, 1::2] = cos
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(1)].to(x.dtype)


class OddWidthRoundedUp(nn.Module):
    """Builds an even-width table and drops its last column: the exponents use d_model + 1."""

    def __init__(self, d_model, max_len):
        super().__init__()
        even = d_model + d_model % 2
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, even)[:, :d_model])

    def forward(self, x):
        return x + self.pe[: x.size(1)].to(x.dtype)


class PositionsFromOne(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len + 1, d_model)[1:])

    def forward(self, x):
        return x + self.pe[: x.size(1)].to(x.dtype)


class DropsTheBatch(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model))

    def forward(self, x):
        return x[0] + self.pe[: x.size(1)]


class DividesByZero(nn.Module):
    """NaN everywhere: a wrong value, not a random one."""

    def __init__(self, d_model, max_len):
        super().__init__()
        i = torch.arange(0, d_model, 2)
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model) * 0 / (i[:1] * 0))

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class NoReturn(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model))

    def forward(self, x):
        x = x + self.pe[: x.size(1)]


class NoSuperInit(nn.Module):
    def __init__(self, d_model, max_len):
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model))

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class NotAModule:
    def __init__(self, d_model, max_len):
        self.pe = course_lib.sinusoidal_table(max_len, d_model)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class MathSinOnTensor(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        self.register_buffer("pe", math.sin(position / 10000))

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class SlicedColumns(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model))

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class ForwardNotWritten(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", course_lib.sinusoidal_table(max_len, d_model))

    def forward(self, x):
        raise NotImplementedError


class ForwardMissing(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()


class ZeroTable(nn.Module):
    """A lookup scaled by √d_model, right but for a table of zeros."""

    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model)
        nn.init.zeros_(self.embedding.weight)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        return self.embedding(ids) * self.scale


# ----------------------------------------------------------------------------- lesson 3: token embedding
# right, in several styles


class OneHotTimesMatrix(nn.Module):
    """Lesson 3's first picture: one-hot rows times a weight matrix, scale computed in forward."""

    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.vocab_size, self.d_model = vocab_size, d_model
        self.weight = nn.Parameter(torch.randn(vocab_size, d_model) / d_model**0.5)

    def forward(self, ids):
        one_hot = F.one_hot(ids, self.vocab_size).float()
        return one_hot @ self.weight * self.d_model**0.5


class LinearWithoutBias(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.vocab_size = vocab_size
        self.proj = nn.Linear(vocab_size, d_model, bias=False)
        nn.init.normal_(self.proj.weight, std=d_model**-0.5)
        self.scale = torch.sqrt(torch.tensor(float(d_model)))

    def forward(self, ids):
        return self.proj(F.one_hot(ids, self.vocab_size).float()) * self.scale


class UniformOfTheSameSize(nn.Module):
    """Any init of the right size passes: uniform with variance 1/d_model, like N(0, 1/d_model)."""

    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d_model)
        bound = (3 / d_model) ** 0.5
        nn.init.uniform_(self.emb.weight, -bound, bound)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        return self.emb(ids) * self.scale


# wrong, one mistake each


class DefaultInit(nn.Module):
    """The lesson's old solution: nn.Embedding's N(0, 1), so RMS √d_model once scaled."""

    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d_model)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        return self.emb(ids) * self.scale


class OneHotTimesRandn(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.vocab_size, self.d_model = vocab_size, d_model
        self.weight = nn.Parameter(torch.randn(vocab_size, d_model))

    def forward(self, ids):
        return F.one_hot(ids, self.vocab_size).float() @ self.weight * self.d_model**0.5


class XavierInit(nn.Module):
    """The Annotated Transformer: every matrix Xavier-uniform, the embedding table included."""

    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.lut = nn.Embedding(vocab_size, d_model)
        self.d_model = d_model
        for p in self.parameters():
            if p.dim() > 1:
                nn.init.xavier_uniform_(p)

    def forward(self, x):
        return self.lut(x) * math.sqrt(self.d_model)


class LinearDefaultInit(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.vocab_size = vocab_size
        self.proj = nn.Linear(vocab_size, d_model, bias=False)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        return self.proj(F.one_hot(ids, self.vocab_size).float()) * self.scale


class StdIsTheVariance(nn.Module):
    """N(0, 1/d_model) read as std = 1/d_model: √d_model times too small."""

    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d_model)
        nn.init.normal_(self.emb.weight, std=1 / d_model)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        return self.emb(ids) * self.scale


class NoScale(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d_model)

    def forward(self, ids):
        return self.emb(ids)


class Divided(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d_model)
        self.d_model = d_model

    def forward(self, ids):
        return self.emb(ids) / math.sqrt(self.d_model)


class ScaledByDModel(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d_model)
        self.d_model = d_model

    def forward(self, ids):
        return self.emb(ids) * self.d_model


class ScaledByVocab(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d_model)
        self.scale = math.sqrt(vocab_size)

    def forward(self, ids):
        return self.emb(ids) * self.scale


class ReturnsWholeTable(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d_model)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        return self.emb.weight * self.scale


class EmbeddingArgsSwapped(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.emb = nn.Embedding(d_model, vocab_size)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        return self.emb(ids) * self.scale


class EmbeddingInForward(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.vocab_size, self.d_model = vocab_size, d_model

    def forward(self, ids):
        emb = nn.Embedding(self.vocab_size, self.d_model)
        return emb(ids) * math.sqrt(self.d_model)


class PlainTensorTable(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.table = torch.randn(vocab_size, d_model)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        return self.table[ids] * self.scale


class BufferTable(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.register_buffer("table", torch.randn(vocab_size, d_model))
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        return self.table[ids] * self.scale


class UnderNoGrad(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d_model)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        with torch.no_grad():
            return self.emb(ids) * self.scale


class FrozenPretrained(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(torch.randn(vocab_size, d_model))
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        return self.emb(ids) * self.scale


class LinearWithBias(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.vocab_size = vocab_size
        self.proj = nn.Linear(vocab_size, d_model)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        return self.proj(F.one_hot(ids, self.vocab_size).float()) * self.scale


class FloatIds(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d_model)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):
        return self.emb(ids.float()) * self.scale


# ----------------------------------------------------------------------------- lesson 1: padding


def pad_with_pad_sequence(seqs, pad_id):
    ids = pad_sequence([torch.tensor(s) for s in seqs], batch_first=True, padding_value=pad_id)
    return ids, ids != pad_id


def pad_with_pad_sequence_and_lengths(seqs, pad_id):
    ids, _ = pad_with_pad_sequence(seqs, pad_id)
    lengths = torch.tensor([len(s) for s in seqs])
    return ids, torch.arange(ids.size(1)) < lengths.unsqueeze(1)


def pad_only_ids(seqs, pad_id):
    return pad_with_pad_sequence(seqs, pad_id)[0]


def pad_as_lists(seqs, pad_id):
    longest = max(len(s) for s in seqs)
    ids = [s + [pad_id] * (longest - len(s)) for s in seqs]
    mask = [[True] * len(s) + [False] * (longest - len(s)) for s in seqs]
    return ids, mask


def pad_sequence_first(seqs, pad_id):
    ids = pad_sequence([torch.tensor(s) for s in seqs], padding_value=pad_id)
    return ids, ids != pad_id


def pad_float_ids(seqs, pad_id):
    longest = max(len(s) for s in seqs)
    ids = torch.zeros(len(seqs), longest) + pad_id
    for row, s in enumerate(seqs):
        ids[row, : len(s)] = torch.tensor(s)
    return ids, ids != pad_id


def pad_left(seqs, pad_id):
    longest = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), longest), pad_id)
    for row, s in enumerate(seqs):
        ids[row, longest - len(s) :] = torch.tensor(s)
    return ids, ids != pad_id


def pad_with_zeros(seqs, pad_id):
    longest = max(len(s) for s in seqs)
    ids = torch.zeros(len(seqs), longest, dtype=torch.long)
    mask = torch.zeros(len(seqs), longest, dtype=torch.bool)
    for row, s in enumerate(seqs):
        ids[row, : len(s)] = torch.tensor(s)
        mask[row, : len(s)] = True
    return ids, mask


def pad_sorted_by_length(seqs, pad_id):
    """Sorted longest first, as pack_padded_sequence wants: the rows no longer match the input."""
    return pad_with_pad_sequence(sorted(seqs, key=len, reverse=True), pad_id)


def pad_mask_of_lengths(seqs, pad_id):
    ids, _ = pad_with_pad_sequence(seqs, pad_id)
    return ids, torch.tensor([len(s) for s in seqs])


def pad_mask_as_numbers(seqs, pad_id):
    ids, mask = pad_with_pad_sequence(seqs, pad_id)
    return ids, mask.long()


def pad_mask_inverted(seqs, pad_id):
    ids, _ = pad_with_pad_sequence(seqs, pad_id)
    return ids, ids == pad_id


def pad_mask_one_short(seqs, pad_id):
    ids, _ = pad_with_pad_sequence(seqs, pad_id)
    lengths = torch.tensor([len(s) for s in seqs])
    return ids, torch.arange(ids.size(1)) < lengths.unsqueeze(1) - 1


def pad_in_place(seqs, pad_id):
    longest = max(len(s) for s in seqs)
    for s in seqs:
        s.extend([pad_id] * (longest - len(s)))
    ids = torch.tensor(seqs)
    return ids, ids != pad_id


def pad_ragged(seqs, pad_id):
    ids = torch.tensor(seqs)
    return ids, ids != pad_id


# ----------------------------------------------------------------------------- lesson 4: permutations


def equivariant_numpy(f, x, perm):
    return np.allclose(f(x[:, perm]).numpy(), f(x)[:, perm].numpy(), atol=1e-6)


def equivariant_max_error(f, x, perm):
    return (f(x[:, perm]) - f(x)[:, perm]).abs().max() < 1e-5


def equivariant_exact(f, x, perm):
    return torch.equal(f(x[:, perm]), f(x)[:, perm])


def equivariant_all_equal(f, x, perm):
    return (f(x[:, perm]) == f(x)[:, perm]).all()


def equivariant_unpermuted(f, x, perm):
    return torch.allclose(f(x[:, perm]), f(x), atol=1e-6)


def equivariant_batch_axis(f, x, perm):
    return torch.allclose(f(x[perm]), f(x)[perm], atol=1e-6)


def equivariant_elementwise(f, x, perm):
    return torch.isclose(f(x[:, perm]), f(x)[:, perm])


def equivariant_never(f, x, perm):
    return False


def equivariant_item(f, x, perm):
    return torch.allclose(f(x[:, perm]), f(x)[:, perm]).item()


def equivariant_token_sums(f, x, perm):
    return torch.allclose(f(x[:, perm]).sum(1), f(x)[:, perm].sum(1), atol=1e-5)


_EQUIVARIANT_CODE = {
    fn.__code__.co_code
    for fn in (
        exercises.permutation.attention,
        exercises.permutation.mean_context,
        exercises.permutation.max_over_tokens,
        exercises.permutation.tanh,
    )
}


def equivariant_from_the_code(f, x, perm):
    return f._f.__code__.co_code in _EQUIVARIANT_CODE


# ----------------------------------------------------------------------------- lesson 3: one BPE merge step
# right, in other styles


def merge_step_flagged(words, new_id):
    """defaultdict, max over (count, -pair), and a for loop that skips with a flag."""
    counts = defaultdict(int)
    for word, n in words.items():
        for i in range(len(word) - 1):
            counts[word[i], word[i + 1]] += n
    pair = max(counts, key=lambda p: (counts[p], -p[0], -p[1]))
    new_words = {}
    for word, n in words.items():
        out, skip = [], False
        for i, token in enumerate(word):
            if skip:
                skip = False
            elif tuple(word[i : i + 2]) == pair:
                out.append(new_id)
                skip = True
            else:
                out.append(token)
        new_words[tuple(out)] = n
    return list(pair), new_words


def merge_step_with_course_lib(words, new_id):
    counts = count_pairs(words)
    pair = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    return pair, Counter({merge(word, pair, new_id): n for word, n in words.items()})


# wrong, one mistake each


def _merge_all(words, pair, new_id):
    return {merge(word, pair, new_id): n for word, n in words.items()}


def _most_frequent(counts):
    return min(counts, key=lambda p: (-counts[p], p))


def merge_across_words(words, new_id):
    ids = [token for word in words for token in word]
    counts = Counter(zip(ids, ids[1:], strict=False))
    pair = _most_frequent(counts)
    return pair, _merge_all(words, pair, new_id)


def merge_across_words_weighted(words, new_id):
    ids = [token for word, n in words.items() for _ in range(n) for token in word]
    pair = _most_frequent(Counter(zip(ids, ids[1:], strict=False)))
    return pair, _merge_all(words, pair, new_id)


def merge_last_pair_not_counted(words, new_id):
    counts = Counter()
    for word, n in words.items():
        for i in range(len(word) - 2):
            counts[word[i], word[i + 1]] += n
    pair = _most_frequent(counts)
    return pair, _merge_all(words, pair, new_id)


def merge_unweighted(words, new_id):
    counts = Counter(pair for word in words for pair in zip(word, word[1:], strict=False))
    pair = _most_frequent(counts)
    return pair, _merge_all(words, pair, new_id)


def merge_once_per_word(words, new_id):
    counts = Counter()
    for word, n in words.items():
        for pair in set(zip(word, word[1:], strict=False)):
            counts[pair] += n
    pair = _most_frequent(counts)
    return pair, _merge_all(words, pair, new_id)


def merge_least_frequent(words, new_id):
    counts = count_pairs(words)
    pair = min(counts, key=counts.get)
    return pair, _merge_all(words, pair, new_id)


def merge_first_of_equals(words, new_id):
    counts = count_pairs(words)
    pair = max(counts, key=counts.get)  # among equal counts: the one seen first
    return pair, _merge_all(words, pair, new_id)


def merge_for_loop_no_skip(words, new_id):
    pair = _most_frequent(count_pairs(words))
    new_words = {}
    for word, n in words.items():
        out = []
        for i in range(len(word)):
            if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
                out.append(new_id)
                i += 1  # no effect: the for loop sets i again
            else:
                out.append(word[i])
        new_words[tuple(out)] = n
    return pair, new_words


def merge_from_the_right(words, new_id):
    pair = _most_frequent(count_pairs(words))
    new_words = {}
    for word, n in words.items():
        out, i = [], len(word) - 1
        while i >= 0:
            if i > 0 and (word[i - 1], word[i]) == pair:
                out.insert(0, new_id)
                i -= 2
            else:
                out.insert(0, word[i])
                i -= 1
        new_words[tuple(out)] = n
    return pair, new_words


def merge_loses_the_last_symbol(words, new_id):
    pair = _most_frequent(count_pairs(words))
    new_words = {}
    for word, n in words.items():
        out, i = [], 0
        while i < len(word) - 1:
            if (word[i], word[i + 1]) == pair:
                out.append(new_id)
                i += 2
            else:
                out.append(word[i])
                i += 1
        new_words[tuple(out)] = n
    return pair, new_words


def merge_first_occurrence_only(words, new_id):
    pair = _most_frequent(count_pairs(words))
    new_words = {}
    for word, n in words.items():
        for i in range(len(word) - 1):
            if (word[i], word[i + 1]) == pair:
                word = word[:i] + (new_id,) + word[i + 2 :]
                break
        new_words[word] = n
    return pair, new_words


def merge_keeps_only_merged_words(words, new_id):
    pair = _most_frequent(count_pairs(words))
    return pair, {merge(w, pair, new_id): n for w, n in words.items() if merge(w, pair, new_id) != w}


def merge_counts_set_to_one(words, new_id):
    pair = _most_frequent(count_pairs(words))
    return pair, {merge(word, pair, new_id): 1 for word in words}


def merge_keeps_the_old_spellings(words, new_id):
    """Adds the merged words beside the old ones: every expected word is there, and more (issue 19)."""
    pair, new_words = merge_step_flagged(words, new_id)
    return pair, {**words, **new_words}


def merge_adds_a_junk_word(words, new_id):
    pair, new_words = merge_step_flagged(words, new_id)
    return pair, {**new_words, (1, 2, 3): 1}


def merge_forgets_to_merge(words, new_id):
    return _most_frequent(count_pairs(words)), dict(words)


def merge_returns_words_only(words, new_id):
    return _merge_all(words, _most_frequent(count_pairs(words)), new_id)


def merge_pair_as_text(words, new_id):
    pair = _most_frequent(count_pairs(words))
    return "".join(map(chr, pair)), _merge_all(words, pair, new_id)


def merge_words_as_list(words, new_id):
    pair = _most_frequent(count_pairs(words))
    return pair, list(_merge_all(words, pair, new_id))


def merge_empties_the_input(words, new_id):
    pair = _most_frequent(count_pairs(words))
    new_words = {}
    for word in list(words):
        new_words[merge(word, pair, new_id)] = words.pop(word)
    return pair, new_words


def merge_index_past_the_end(words, new_id):
    counts = Counter()
    for word, n in words.items():
        for i in range(len(word)):
            counts[word[i], word[i + 1]] += n
    pair = _most_frequent(counts)
    return pair, _merge_all(words, pair, new_id)


# ----------------------------------------------------------------------------- every diagnosis

PE, TOK, PAD, PERM, MERGE = (
    exercises.positional_encoding.EXERCISE,
    exercises.token_embedding.EXERCISE,
    exercises.pad_batch.EXERCISE,
    exercises.permutation.EXERCISE,
    exercises.bpe_merge.EXERCISE,
)

WRONG = [
    (PE, SinCosSwapped, "pe.sin_cos_swapped"),
    (PE, Halves, "pe.halves"),
    (PE, ExponentI, "pe.exponent_i"),
    (PE, ExponentDoubled, "pe.exponent_doubled"),
    (PE, ExponentPerColumn, "pe.exponent_per_column"),
    (PE, SameFrequency, "pe.same_frequency"),
    (PE, PlainAttribute, "pe.not_buffer"),
    (PE, AssignedBeforeRegister, "pe.assigned_before_register_buffer"),
    (PE, NotSliced, "pe.not_sliced"),
    (PE, SequenceFirstTutorial, "pe.sequence_first"),
    (PE, SlicedByBatch, "pe.sequence_first"),
    (PE, DtypeNotFollowed, "pe.dtype"),
    (PE, Float64Table, "pe.dtype"),
    (PE, ScaledInside, "pe.scaled_inside"),
    (PE, TableWithoutX, "pe.table_without_x"),
    (PE, TableIsParameter, "pe.table_is_parameter"),
    (PE, FrozenTable, "pe.frozen_parameter"),
    (PE, SkipsHalf, "pe.half_values"),
    (PE, FunctionalDropout, "pe.random_output"),
    (PE, InPlace, "pe.modifies_input"),
    (PE, EvenOnly, "pe.odd_d_model_crash"),
    (PE, OddWidthRoundedUp, "pe.odd_d_model_values"),
    (PE, PositionsFromOne, "pe.mismatch"),
    (PE, DropsTheBatch, "pe.wrong_shape"),
    (PE, DividesByZero, "nonfinite"),
    (PE, NoReturn, "not_tensor"),
    (TOK, ZeroTable, "tok.zero_table"),
    (PE, NoSuperInit, "missing_super_init"),
    (PE, NotAModule, "not_module"),
    (PE, MathSinOnTensor, "error_init"),
    (PE, SlicedColumns, "error_forward"),
    (TOK, NoScale, "tok.missing_scale"),
    (TOK, Divided, "tok.divided"),
    (TOK, ScaledByDModel, "tok.scaled_by_d_model"),
    (TOK, ScaledByVocab, "tok.wrong_scale"),
    (TOK, ReturnsWholeTable, "tok.wrong_shape"),
    (TOK, EmbeddingArgsSwapped, "tok.embedding_shape"),
    (TOK, EmbeddingInForward, "tok.table_in_forward"),
    (TOK, PlainTensorTable, "tok.table_not_parameter"),
    (TOK, BufferTable, "tok.no_table"),
    (TOK, UnderNoGrad, "tok.no_gradient"),
    (TOK, FrozenPretrained, "tok.no_gradient"),
    (TOK, LinearWithBias, "tok.mismatch"),
    (TOK, FloatIds, "error_forward"),
    (TOK, DefaultInit, "tok.init_too_large"),
    (TOK, OneHotTimesRandn, "tok.init_too_large"),
    (TOK, XavierInit, "tok.init_too_small"),
    (TOK, LinearDefaultInit, "tok.init_too_small"),
    (TOK, StdIsTheVariance, "tok.init_too_small"),
    (PAD, pad_only_ids, "pad.not_pair"),
    (PAD, pad_as_lists, "pad.not_tensor"),
    (PAD, pad_sequence_first, "pad.ids_shape"),
    (PAD, pad_float_ids, "pad.ids_dtype"),
    (PAD, pad_left, "pad.left_padded"),
    (PAD, pad_with_zeros, "pad.ignores_pad_id"),
    (PAD, pad_sorted_by_length, "pad.ids_mismatch"),
    (PAD, pad_mask_of_lengths, "pad.mask_shape"),
    (PAD, pad_mask_as_numbers, "pad.mask_dtype"),
    (PAD, pad_mask_inverted, "pad.mask_inverted"),
    (PAD, pad_mask_one_short, "pad.mask_mismatch"),
    (PAD, pad_in_place, "pad.modifies_input"),
    (PAD, pad_with_pad_sequence, "pad.mask_from_ids"),
    (PAD, pad_ragged, "error_call"),
    (PERM, equivariant_exact, "perm.exact_equality"),
    (PERM, equivariant_all_equal, "perm.exact_equality"),
    (PERM, equivariant_unpermuted, "perm.invariance"),
    (PERM, equivariant_batch_axis, "perm.wrong_axis"),
    (PERM, equivariant_elementwise, "perm.not_bool"),
    (PERM, equivariant_never, "perm.mismatch"),
    (PERM, equivariant_token_sums, "perm.token_summary"),
    (PERM, equivariant_from_the_code, "perm.f_never_called"),
    (PERM, equivariant_item, "error_call"),
    (MERGE, merge_across_words, "merge.across_words"),
    (MERGE, merge_across_words_weighted, "merge.across_words"),
    (MERGE, merge_last_pair_not_counted, "merge.last_pair_not_counted"),
    (MERGE, merge_unweighted, "merge.frequency_ignored"),
    (MERGE, merge_once_per_word, "merge.overlap_count"),
    (MERGE, merge_least_frequent, "merge.wrong_pair"),
    (MERGE, merge_first_of_equals, "merge.tie_break"),
    (MERGE, merge_for_loop_no_skip, "merge.merged_twice"),
    (MERGE, merge_from_the_right, "merge.right_to_left"),
    (MERGE, merge_loses_the_last_symbol, "merge.last_symbol_lost"),
    (MERGE, merge_first_occurrence_only, "merge.first_only"),
    (MERGE, merge_keeps_only_merged_words, "merge.words_missing"),
    (MERGE, merge_counts_set_to_one, "merge.counts_lost"),
    (MERGE, merge_forgets_to_merge, "merge.word_mismatch"),
    (MERGE, merge_returns_words_only, "merge.not_pair"),
    (MERGE, merge_pair_as_text, "merge.pair_type"),
    (MERGE, merge_words_as_list, "merge.words_type"),
    (MERGE, merge_empties_the_input, "merge.modifies_input"),
    (MERGE, merge_keeps_the_old_spellings, "merge.old_kept"),
    (MERGE, merge_adds_a_junk_word, "merge.extra_word"),
    (MERGE, merge_index_past_the_end, "error_call"),
]

RIGHT = [
    (PE, own_copy(course_lib.PositionalEncoding)),
    (PE, AnnotatedStyle),
    (PE, SlowLoop),
    (PE, TableInForward),
    (TOK, own_copy(course_lib.TokenEmbedding)),
    (TOK, OneHotTimesMatrix),
    (TOK, LinearWithoutBias),
    (TOK, UniformOfTheSameSize),
    (PAD, pad_with_pad_sequence_and_lengths),
    (PERM, equivariant_numpy),
    (PERM, equivariant_max_error),
    (MERGE, merge_step_flagged),
    (MERGE, merge_step_with_course_lib),
]


test_each_mistake_gets_its_own_diagnosis, test_right_implementations_in_any_style_pass = verdict_tests(
    WRONG, RIGHT
)


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.name)
def test_every_diagnosis_of_every_exercise_is_provoked_by_a_test(exercise):
    # they import this module: not at the top
    from tests.unit import test_exercises_alibi as alibi
    from tests.unit import test_exercises_input_layer as lesson_6
    from tests.unit import test_exercises_llama3 as llama3
    from tests.unit import test_exercises_positions as lessons_7_8

    wrong = WRONG + lesson_6.WRONG + lessons_7_8.WRONG + alibi.WRONG + llama3.WRONG
    provoked = {key for _, _, key in wrong} | {f"{e.prefix}.correct" for e in EXERCISES}
    provoked.add(lessons_7_8.CORRECT_QK)
    missing = sorted(set(exercise.diagnoses) - provoked)
    assert exercise.diagnoses and not missing, f"no test provokes {missing}"


# ----------------------------------------------------------------------------- what the messages say


def test_the_mismatch_fallback_names_position_dimension_and_values():
    feedback = PE.check(PositionsFromOne)
    values = feedback.values
    assert (values["row"], values["pos"], values["dim"]) == (0, 0, 0)
    assert (values["expected"], values["got"]) == ("0.0000", f"{math.sin(1):.4f}")
    assert "position 0, dimension 0" in feedback.message and "0.8415" in feedback.message


@pytest.mark.parametrize(
    "student, rms, ratio",
    [
        (DefaultInit, math.sqrt(512), math.sqrt(512) * 2**0.5),  # N(0, 1) × √d_model: 32 × PE
        (XavierInit, math.sqrt(2 / 32512 * 512), math.sqrt(2 / 32512 * 512) * 2**0.5),  # 0.25 × PE
        (StdIsTheVariance, 512**-0.5, 2**0.5 / 512**0.5),
    ],
)
def test_the_size_verdicts_report_the_measured_rms_at_the_papers_size(student, rms, ratio):
    values = TOK.check(student).values
    assert (values["vocab_size"], values["d_model"]) == (32000, 512)
    # as the message writes them: 2 decimals (RMS 0.04 = only 0.06 × PE), or 22.6 = 32 × PE
    assert float(values["rms"]) == pytest.approx(rms, rel=0.02, abs=0.01)
    assert float(values["ratio"]) == pytest.approx(ratio, rel=0.02, abs=0.01)


def test_the_lessons_init_passes_with_rms_one():
    assert float(TOK.check(own_copy(course_lib.TokenEmbedding)).values["rms"]) == pytest.approx(1.0, rel=0.02)


def test_the_token_mismatch_fallback_names_the_token():
    values = TOK.check(LinearWithBias).values
    assert {"row", "pos", "dim", "token", "expected", "got"} <= set(values)


def test_a_crash_names_the_exception_its_message_and_the_students_line():
    feedback = PE.check(MathSinOnTensor)
    assert feedback.values["error"] == "ValueError"
    assert feedback.values["detail"] == "only one element tensors can be converted to Python scalars"
    assert "math.sin(position / 10000)" in feedback.values["line"]
    assert "`__init__`" in feedback.message and "ValueError" in feedback.message
    assert feedback.message.endswith(message("error_line", "en", line=feedback.values["line"]))
    feedback = PE.check(SlicedColumns)
    assert feedback.values["error"] == "RuntimeError"
    assert (feedback.values["shape"], feedback.values["dtype"]) == ((3, 10, 16), torch.float32)
    assert "self.pe[:, : x.size(1)]" in feedback.values["line"]


def test_odd_width_crash_says_where_and_what():
    values = PE.check(EvenOnly).values
    assert (values["even"], values["odd"], values["where"], values["error"]) == (
        16,
        15,
        "__init__",
        "RuntimeError",
    )


def test_the_wrong_scale_is_measured():
    assert TOK.check(ScaledByVocab).values["got"] == f"{math.sqrt(23):.4f}"


@pytest.mark.parametrize(
    "exercise, student",
    [
        (TOK, own_copy(course_lib.TokenEmbedding)),  # tok.correct
        (TOK, NoScale),
        (TOK, Divided),
        (TOK, ScaledByDModel),
        (TOK, ScaledByVocab),
        (TOK, LinearWithBias),  # tok.mismatch, with a negative number
        (TOK, DefaultInit),
        (TOK, XavierInit),
        (PE, PositionsFromOne),
        (PE, OddWidthRoundedUp),
    ],
    ids=lambda x: x.name if isinstance(x, exercises.Exercise) else case_id(x),
)
def test_the_numbers_are_written_as_the_language_writes_them(exercise, student, lang):
    feedback = exercise.check(student)
    numbers = assert_numbers_in_language(feedback.message, lang)
    if feedback.key == "tok.mismatch":  # expected -0.1487 in English, −0,1487 in Russian
        assert any(n[0] in "-−" for n in numbers), feedback.message


def test_a_mask_from_the_ids_hides_a_real_token_equal_to_the_pad_id():
    values = PAD.check(pad_with_pad_sequence).values
    assert (values["row"], values["pos"], values["pad_id"], values["seq"]) == (0, 1, 2, [5, 2, 7])


def test_padding_hard_coded_to_zero_is_caught_with_another_pad_id():
    values = PAD.check(pad_with_zeros).values
    assert (values["pad_id"], values["got"]) == (2, 0)


def test_exact_equality_is_caught_whatever_the_matmul_rounds():
    # mean_context sums tokens one after the other, so reordering them changes the float32
    # result on every machine; attention's matmul may or may not round the same way
    module = exercises.permutation
    answers = module.mistakes()
    mean_context = module.SUITE.index(module.mean_context)
    assert answers["correct"][mean_context] and not answers["perm.exact_equality"][mean_context]
    assert PERM.check(equivariant_exact).values["fn"] in {"attention", "mean_context"}


# ----------------------------------------------------------------------------- the registry


def test_the_registry_lists_every_exercise_module_in_lesson_order():
    package = Path(exercises.__file__).parent
    defined = sorted(
        path.parent.name if path.name == "__init__.py" else path.stem
        for path in [*package.glob("*.py"), *package.glob("*/__init__.py")]
        if "\nEXERCISE = Exercise(" in path.read_text(encoding="utf-8")
    )
    assert sorted(exercises.registry()) == defined
    lessons = [e.lesson for e in EXERCISES]
    assert lessons == sorted(lessons)


@pytest.mark.parametrize("name", list(exercises.registry()))
def test_an_exercise_is_its_module_and_the_module_calls_the_exercise(name):
    module = importlib.import_module(f"course_lib.exercises.{name}")
    exercise = exercises.registry()[name]
    assert getattr(exercises, name) is module and module.EXERCISE is exercise and exercise.name == name
    assert module.template == exercise.template
    assert (module.check, module.hint, module.solution) == (exercise.check, exercise.hint, exercise.solution)


def test_import_as_gives_the_module():
    import course_lib.exercises.rotary as rotary

    assert rotary.__name__ == "course_lib.exercises.rotary"


# ----------------------------------------------------------------------------- templates, stubs and solutions


def _defined(code: str):
    namespace = {}
    exec(code, namespace)
    return next(v for k, v in namespace.items() if k.startswith(("My", "my_", "is_", "apply_")))


def _shown(exercise, part: str, lang: str) -> str:
    """The template or the solution as a student sees it in ``lang``."""
    course_lib.set_language(lang)
    try:
        return exercise.template if part == "template" else exercise.solution_code
    finally:
        course_lib.set_language("en")


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.name)
def test_the_template_and_solution_are_python_files_beside_the_checker(exercise):
    """``templates/<name>.py`` and ``solutions/<name>.py``: modules of the package, and what a student
    sees in English byte for byte; the solution, imported, is correct."""
    folder = Path(exercises.__file__).parent
    assert exercise.template_file == folder / "templates" / f"{exercise.name}.py"
    assert exercise.solution_file == folder / "solutions" / f"{exercise.name}.py"
    assert exercise.template_in("en") == exercise.template_file.read_text(encoding="utf-8")
    assert _shown(exercise, "solution", "en") == exercise.solution_file.read_text(encoding="utf-8")
    template = importlib.import_module(f"course_lib.exercises.templates.{exercise.name}")
    solution = importlib.import_module(f"course_lib.exercises.solutions.{exercise.name}")
    assert_verdict(exercise.check(_student(vars(template))), "not_attempted", "not_attempted", "en")
    assert_verdict(exercise.check(_student(vars(solution))), "correct", f"{exercise.prefix}.correct", "en")


def test_every_template_and_solution_file_is_an_exercise_s():
    folder = Path(exercises.__file__).parent
    for part in ("templates", "solutions"):
        files = sorted(p.stem for p in (folder / part).glob("*.py") if p.name != "__init__.py")
        assert files == sorted(exercises.registry()), part


@pytest.mark.parametrize("part", ["template", "solution"])
@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.name)
def test_each_language_is_the_english_file_with_its_comments_translated(exercise, part):
    """Each language's code is the English file token for token but its comments (and the solution's
    strings, its messages): every comment in words is the catalogue's translation, written where the
    English stands, and the comments with nothing to translate (shapes, directives) stay as they are."""
    source = exercise.template_source if part == "template" else exercise.solution_source
    where = exercise.template_context if part == "template" else exercise.solution_context
    english = code_comments.prose(source)
    assert english or part == "solution", "a template says in words what its function takes and gives"
    assert code_comments.problems({where: {source: 1}}) == []
    neutral = [c.text for c in comments(source) if c.line not in _prose_lines(english)]
    for lang in LANGUAGES:
        code = _shown(exercise, part, lang)
        if part == "solution":  # the strings it raises differ, in the language's words
            for key in exercise.solution_strings:
                assert exercise.messages(key, lang) in code
                code = code.replace(exercise.messages(key, lang), exercise.messages(key, "en"))
        assert _tokens_but_comments(code) == _tokens_but_comments(source)
        texts = [c.text for c in comments(code)]
        assert [t for t in texts if t in neutral] == neutral
        table = translations("course_lib", lang) if lang != SOURCE_LANGUAGE else {}
        for comment in english:
            text = table.get((where, comment.text), comment.text)
            lines = [f"# {line}" if line else "#" for line in text.split("\n")]
            assert all(line in texts for line in lines), (lang, lines)
            if lang != SOURCE_LANGUAGE and text != comment.text:
                assert not script_problems(text, lang), (lang, text)


def _prose_lines(found) -> set[int]:
    return {line for c in found for line in range(c.line, c.end + 1)}


def _tokens_but_comments(code: str) -> list[tuple[int, str]]:
    skip = {tokenize.COMMENT, tokenize.NL}
    return [
        (t.type, t.string) for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type not in skip
    ]


def _student(namespace: dict):
    return next(v for k, v in namespace.items() if k.startswith(("My", "my_", "is_", "apply_")))


def test_the_solution_raises_in_the_current_language(lang):
    """The reference solution's ValueError is in the notebook's language, as a lesson's code is."""
    module = _defined(exercises.learned_positions.EXERCISE.solution_code)(max_len=4, d_model=2)
    message = {
        "en": "sequence length 5 exceeds max_len=4",
        "ru": "длина последовательности 5 больше max_len=4",
    }
    with pytest.raises(ValueError, match=f"^{message[lang]}$"):
        module(torch.zeros(1, 5, 2))


def test_a_solution_string_missing_from_the_solution_is_refused(tmp_path, monkeypatch):
    from course_lib.exercises import exercise as exercise_module

    for part, code in (("templates", "raise NotImplementedError\n"), ("solutions", "x = 1\n")):
        (tmp_path / part).mkdir()
        (tmp_path / part / "demo.py").write_text(code, encoding="utf-8")
        monkeypatch.setattr(exercise_module, part.upper(), tmp_path / part)
    monkeypatch.setattr(exercise_module.code_comments, "_ROOT", tmp_path)
    messages = exercises.learned_positions.EXERCISE.messages
    with pytest.raises(ValueError, match=r"lp\.solution_error must occur once in the solution of 'demo'"):
        Exercise("demo", 7, lambda student, run: None, messages)


def test_a_template_is_in_the_current_language_at_each_access():
    """``exercises.<name>.template`` is read when it is asked for: set_language changes it."""
    course_lib.set_language("ru")
    try:
        russian = exercises.permutation.template
    finally:
        course_lib.set_language("en")
    assert "-> True или False" in russian and "# ru:" not in russian and "# en:" not in russian
    assert "-> True or False" in exercises.permutation.template
    assert exercises.permutation.template == exercises.registry()["permutation"].template_in("en")
    assert TRANSLATIONS == ("ru",)
    with pytest.raises(AttributeError, match="has no attribute 'templates'"):
        exercises.permutation.templates  # noqa: B018


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.name)
def test_the_untouched_template_is_not_attempted(exercise, lang):
    feedback = exercise.check(_defined(exercise.template))
    assert_verdict(feedback, "not_attempted", "not_attempted", lang)


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.name)
def test_the_reference_solution_shown_to_students_is_correct(exercise, lang):
    assert_verdict(
        exercise.check(_defined(exercise.solution_code)), "correct", f"{exercise.prefix}.correct", lang
    )
    shown = exercise.solution()._repr_markdown_()
    assert f"```python\n{exercise.solution_code}```" in shown
    assert shown.startswith(f"**{message('solution_title', lang)}**")


def test_an_unwritten_forward_is_not_attempted_either(lang):
    feedback = PE.check(ForwardNotWritten)
    assert_verdict(feedback, "not_attempted", "not_attempted", lang)
    assert feedback.values["where"] == "forward"


def test_a_class_without_forward_is_told_so(lang):
    # used to be "forward still raises NotImplementedError" (nn.Module's own forward raises it)
    assert_verdict(PE.check(ForwardMissing), "incorrect", "no_forward", lang)


def test_a_stub_with_a_message_is_not_attempted():
    class TokenEmbedding(nn.Module):  # as lesson 0 shows it
        def __init__(self, vocab_size, d_model):
            super().__init__()
            raise NotImplementedError("your code here")

    assert TOK.check(TokenEmbedding).status == "not_attempted"


# ----------------------------------------------------------------------------- check never raises


@pytest.mark.parametrize(
    "exercise, student, key",
    [
        (PE, None, "not_a_class"),
        (PE, 42, "not_a_class"),
        (PE, pad_with_pad_sequence, "not_a_class"),
        (PE, own_copy(course_lib.PositionalEncoding)(16, 50), "instance_not_class"),
        (TOK, own_copy(course_lib.TokenEmbedding)(10, 4), "instance_not_class"),
        (PAD, None, "not_a_function"),
        (PAD, SlowLoop, "not_a_function"),
        (PERM, "is_equivariant", "not_a_function"),
    ],
)
def test_a_wrong_argument_is_a_verdict_not_an_exception(exercise, student, key, lang):
    assert_verdict(exercise.check(student), "incorrect", key, lang)


def test_an_exception_that_is_no_error_subclass_still_becomes_a_verdict():
    class RaisesKeyError(nn.Module):
        def __init__(self, d_model, max_len):
            super().__init__()
            raise KeyError("d_model")

    feedback = PE.check(RaisesKeyError)
    assert (feedback.status, feedback.key, feedback.values["error"]) == (
        "incorrect",
        "error_init",
        "KeyError",
    )


def test_check_leaves_the_students_random_stream_alone():
    torch.manual_seed(0)
    expected = torch.rand(3)
    torch.manual_seed(0)
    TOK.check(own_copy(course_lib.TokenEmbedding))
    PE.check(FunctionalDropout)
    assert torch.equal(torch.rand(3), expected)


def test_the_same_code_gets_the_same_verdict_every_time():
    first, second = TOK.check(ScaledByVocab), TOK.check(ScaledByVocab)
    assert first == second and first.message == second.message


# ----------------------------------------------------------------------------- how it looks in a notebook


@pytest.mark.parametrize("status", ["correct", "incorrect", "not_attempted"])
def test_the_verdict_renders_coloured_and_deterministic(status, lang):
    student = {
        "correct": own_copy(course_lib.PositionalEncoding),
        "incorrect": SinCosSwapped,
        "not_attempted": _defined(PE.template),
    }[status]
    feedback = PE.check(student)
    markdown, plain = feedback._repr_markdown_(), repr(feedback)
    assert (markdown, plain) == (PE.check(student)._repr_markdown_(), repr(PE.check(student)))
    # a class naming the status, a plain colour first (what a sanitizer keeps), then the theme's or a mix
    kind = status.replace("_", "-")
    assert re.match(
        rf'<span class="course-verdict course-verdict-{kind}" style="color:#[0-9a-f]{{6}};'
        rf'color:var\(--course-verdict-{kind},color-mix\(in srgb,#[0-9a-f]{{6}} 70%,currentColor\)\)"><b>. ',
        markdown,
    ), markdown
    assert feedback.title in markdown and feedback.message in markdown
    assert plain == f"{markdown[markdown.index('<b>') + 3]} {feedback.title}. {feedback.message}"
    assert feedback.key not in plain  # an English code: data for a program, not words for the reader
    assert not re.search(r"0x[0-9a-fA-F]+|object at", markdown + plain)


def test_statuses_have_different_colours():
    colours = {
        re.search(r"color:(#\w+)", PE.check(s)._repr_markdown_()).group(1)
        for s in (own_copy(course_lib.PositionalEncoding), SinCosSwapped, _defined(PE.template))
    }
    assert len(colours) == 3


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.name)
def test_hints_are_progressive_and_in_the_current_language(exercise, lang):
    hints = [exercise.hint(n) for n in range(1, exercise.num_hints + 1)]
    assert len({h.text for h in hints}) == exercise.num_hints
    for n, hint in enumerate(hints, start=1):
        assert hint._repr_markdown_() == repr(hint) == hint.text
        assert hint.text.startswith(f"**{message('hint_title', lang, n=n, count=exercise.num_hints)}**")
        assert script_problems(hint.text, lang) == [], hint.text
    assert exercise.hint().text == hints[0].text


@pytest.mark.parametrize("n", [0, 4, -1, 1.5, True, "1"])
def test_a_hint_that_does_not_exist_is_a_value_error(n):
    with pytest.raises(ValueError, match=r"hint number must be an integer from 1 to 3, got"):
        PE.hint(n)


def test_exercises_repr_is_readable():
    assert repr(PE) == "<exercise positional_encoding: check(...), hint(1..3), solution()>"


# ----------------------------------------------------------------------------- the lessons


def _check_cell_outputs():
    """(notebook, language, text/plain output) of every committed cell that calls an exercise's check."""
    found = []
    for lang in ("en", "ru"):
        for path in sorted((ROOT / "notebooks" / lang).glob("*.ipynb")):
            for cell in json.loads(path.read_text())["cells"]:
                source = "".join(cell["source"]) if cell["cell_type"] == "code" else ""
                if re.search(r"^exercises\.\w+\.check\(", source, re.M):
                    texts = [
                        "".join(o.get("data", {}).get("text/plain", "")) for o in cell.get("outputs", [])
                    ]
                    found.append((path.name, lang, "\n".join(texts)))
    return found


def test_committed_notebooks_show_the_not_attempted_verdict():
    for name, lang, text in _check_cell_outputs():
        assert text.startswith(f"✎ {status_title('not_attempted', lang)}. "), (
            name,
            lang,
            text,
        )
