"""Lesson 7: learned positions, a trained table with one row per position.

The student writes a class ``MyLearnedPositions(max_len, d_model)`` whose forward adds row pos
of a learned table to the vector at position pos, and refuses a sequence longer than max_len.
"""

import re

import torch
from torch import nn

from ...i18n import format_decimal
from ...positions import LEARNED_INIT_STD
from ..checks import (
    Feedback,
    Stop,
    close,
    describe,
    feedback,
    first_difference,
    randn,
    require_finite,
    require_module_class,
    require_tensor,
    same,
    wrong,
)
from ..exercise import Exercise
from ..runner import Run, code_safe, safe_str
from .messages import MESSAGES

# all different; max_len * d_model = 320 entries measure the RMS of the table to about 4 % (one sd)
_LP_MAX_LEN, _LP_D, _LP_BATCH, _LP_SEQ = 20, 16, 3, 7
# the initial RMS accepted: within a factor 2 of the sinusoidal table's 1/√2 (nn.Embedding's
# N(0, 1) passes; GPT-2's 0.01, fairseq's d_model^-0.5 = 0.25 and √d_model do not)
_LP_RMS_RANGE = (LEARNED_INIT_STD / 2, LEARNED_INIT_STD * 2)


def _lp_tables(module: nn.Module) -> list[tuple[str, str, torch.Tensor]]:
    """(name, kind, table) for every tensor of the module that can be the table, as (max_len, d_model)."""
    found = []

    def add(name: str, kind: str, value) -> None:
        if isinstance(value, torch.Tensor) and value.dim() >= 2 and value.shape[-2:] == (_LP_MAX_LEN, _LP_D):
            if all(n == 1 for n in value.shape[:-2]):
                found.append((name, kind, value.reshape(_LP_MAX_LEN, _LP_D)))

    for name, p in module.named_parameters():
        add(name, "parameter", p)
    for name, b in module.named_buffers():
        add(name, "buffer", b)
    for prefix, sub in module.named_modules():
        for name, value in vars(sub).items():
            add(f"{prefix}.{name}".lstrip("."), "plain", value)
    return found


def _lp_output(student: type, run: Run, module: nn.Module, x: torch.Tensor):
    """The module's output for x; a crash that a slicing mistake explains gets that diagnosis."""
    try:
        return run.forward(module, x)
    except Stop as stop:
        if stop.error is None:
            raise
        _, seq, d = x.shape
        for key, max_len, probe in (
            ("lp.not_sliced", seq, x),
            ("lp.sequence_first", _LP_MAX_LEN, randn(seq, seq, d)),
        ):
            try:
                out, _ = run.forward(run.build(student, max_len, d), probe)
            except Stop:
                if run.timed_out:
                    raise
                continue
            if isinstance(out, torch.Tensor) and out.shape == probe.shape:
                raise wrong(key, shape=tuple(x.shape)) from None
        raise


def _lp_bare_rows(got: torch.Tensor, tables, seq: int) -> bool:
    """Whether ``got`` is the first seq rows of a table (repeated over the batch, or not), without x."""
    if not got.is_floating_point() or got.dim() < 2 or got.shape[-2:] != (seq, _LP_D):
        return False
    got = got.reshape(-1, seq, _LP_D)
    return any(close(got, table.detach().double()[:seq].expand_as(got)) for _, _, table in tables)


def _lp_values(out, x: torch.Tensor, tables) -> tuple[str, str, torch.Tensor]:
    """The table whose first rows ``out`` adds to x, or the verdict that names the mistake."""
    out = require_tensor(out)
    batch, seq, _ = x.shape
    got = out.detach().double()
    if _lp_bare_rows(got, tables, seq):
        raise wrong("lp.table_without_x")
    if out.shape != x.shape:
        raise wrong("lp.wrong_shape", expected=tuple(x.shape), got=tuple(out.shape))
    x = x.double()
    require_finite(got)
    for name, kind, table in tables:
        rows = table.detach().double()
        if close(got, x + rows[:seq]):
            return name, kind, table
        if close(got, x + rows[:batch].unsqueeze(1)):
            raise wrong("lp.sequence_first", shape=tuple(x.shape))
        if close(got, x + rows[1 : seq + 1]):  # too few rows when seq == max_len: no match
            raise wrong("lp.rows_from_one")
    name, _, table = tables[0]
    expected = x + table.detach().double()[:seq]
    row, pos, dim = first_difference(got, expected)
    added = float(got[row, pos, dim] - x[row, pos, dim])
    raise wrong(
        "lp.mismatch",
        row=row,
        pos=pos,
        dim=dim,
        name=name,
        got=format_decimal(added, 4),
        expected=format_decimal(float(table.detach()[pos, dim]), 4),
    )


def _lp_init(table: torch.Tensor) -> str:
    """The table's RMS at initialisation, as the message writes it, if it is centred and of the tokens' scale."""
    values = table.detach().double()
    rms, mean = float(values.pow(2).mean().sqrt()), float(values.mean())
    if abs(mean) > 0.3 * rms:
        raise wrong("lp.init_not_centred", mean=format_decimal(mean, 2))
    low, high = _LP_RMS_RANGE
    if rms < low:
        raise wrong("lp.init_too_small", rms=format_decimal(rms, 3))
    if rms > high:
        raise wrong("lp.init_too_large", rms=format_decimal(rms, 3))
    return format_decimal(rms, 2)


def _lp_full_length(run: Run, module: nn.Module, tables) -> None:
    """A sequence of exactly max_len tokens has a row for every position: it must pass, and get them."""
    x = randn(2, _LP_MAX_LEN, _LP_D)
    try:
        out, _ = run.forward(module, x)
    except Stop as stop:
        if stop.error is None or not stop.error.is_a(ValueError, AssertionError):
            raise  # a crash, not a refusal: the generic verdict names the line
        detail = code_safe(safe_str(stop.error) or repr(stop.error))
        raise wrong(
            "lp.rejects_full_length", max_len=_LP_MAX_LEN, last=_LP_MAX_LEN - 1, detail=detail
        ) from None
    _lp_values(out, x, tables)


def _lp_length_check(run: Run, module: nn.Module) -> None:
    """A sequence longer than max_len must raise a ValueError that names both numbers."""
    seq = _LP_MAX_LEN + 3
    values = dict(seq=seq, max_len=_LP_MAX_LEN)
    try:
        out, _ = run.forward(module, randn(2, seq, _LP_D))
    except Stop as stop:
        error = stop.error
        if error is None:
            raise
        detail = code_safe(safe_str(error) or repr(error))
        if not error.is_a(ValueError):
            raise wrong("lp.length_error_type", error=error.type_name, detail=detail, **values) from None
        if not all(re.search(rf"(?<!\d){n}(?!\d)", safe_str(error)) for n in (seq, _LP_MAX_LEN)):
            raise wrong("lp.length_error_vague", detail=detail, **values) from None
        return
    got = describe(out)
    raise wrong("lp.no_length_check", got=got, **values)


def diagnose(student, run: Run) -> Feedback:
    require_module_class(student)
    module = run.build(student, _LP_MAX_LEN, _LP_D)
    x = randn(_LP_BATCH, _LP_SEQ, _LP_D)
    out, modified = _lp_output(student, run, module, x)
    if isinstance(out, torch.Tensor) and out.shape == x.shape and not same(out, run.forward(module, x)[0]):
        raise wrong("lp.random_output")
    tables = run.inspect(_lp_tables, module)
    if not tables:
        require_tensor(out)
        raise wrong("lp.no_table", max_len=_LP_MAX_LEN, d_model=_LP_D)
    name, kind, table = _lp_values(out, x, tables)
    if modified:
        raise wrong("lp.modifies_input")
    if kind != "parameter":
        raise wrong("lp.not_parameter", name=name)
    if not (out.requires_grad and table.requires_grad):
        raise wrong("lp.no_gradient", name=name)
    rms = _lp_init(table)
    _lp_full_length(run, module, tables)
    _lp_length_check(run, module)
    return feedback("correct", "lp.correct", rms=rms)


# the course's classes that answer this exercise: kept inside a student's module, they are named
FINISHED = ("course_lib.LearnedPositionalEmbedding", "course_lib.TransformerEmbedding")
EXERCISE = Exercise("learned_positions", 7, diagnose, MESSAGES, finished=FINISHED)
# what a lesson calls: exercises.<name>.check(...), .hint(n), .solution(), and the build's .template
check, hint, solution = EXERCISE.check, EXERCISE.hint, EXERCISE.solution
__getattr__ = EXERCISE.module_attribute  # .template, in the current language
