"""Lesson 5: the sinusoidal positional encoding as a module.

The student writes a class ``MyPositionalEncoding(d_model, max_len)`` whose forward adds the
paper's table to its input.
"""

import math
import re

import torch
from torch import nn

from ..embedding import sinusoidal_table
from ..i18n import Messages, format_decimal
from .checks import (
    Feedback,
    Stop,
    close,
    feedback,
    first_difference,
    plain_tensors,
    randn,
    require_finite,
    require_module_class,
    require_tensor,
    same,
    wrong,
)
from .exercise import Exercise
from .runner import Run, code_safe, safe_str

MESSAGES = Messages(
    "pe",
    {
        "correct": (
            "Your positional encoding adds the paper's sinusoidal table to x, keeps the table in a "
            "buffer, returns x's dtype and works for an odd d_model too. Well done!"
        ),
        "assigned_before_register_buffer": (
            "`self.{name} = ...` comes before `self.register_buffer('{name}', ...)`: PyTorch refuses a "
            "buffer whose name is already an attribute (KeyError: attribute '{name}' already exists). "
            "Build the table in a local variable, then register it."
        ),
        "not_sliced": (
            "`forward` adds the whole table, which fits only sequences of exactly max_len: on x of shape "
            "{shape} it fails. Add the first seq = x.size(1) rows: `self.pe[:x.size(1)]`."
        ),
        "sequence_first": (
            "The table is cut by x.size(0), the batch size: the axis order (seq, batch, d_model) of older "
            "PyTorch tutorials. Here it is (batch, seq, d_model), x of shape {shape}: cut by `x.size(1)`."
        ),
        "table_without_x": (
            "`forward` returns the table alone, and x is lost. Return the sum `x + pe`: the vector of "
            "each token plus the encoding of its position."
        ),
        "wrong_shape": "For x of shape {expected} the output must have the same shape; yours has shape {got}.",
        "dtype": (
            "x came in as {expected}, but the output is {got}: a sum with a table of another dtype is "
            "promoted (float16 + float32 gives float32). Convert the table: "
            "`self.pe[:x.size(1)].to(x.dtype)`."
        ),
        "random_output": (
            "Two calls on the same x gave different outputs in eval mode (`model.eval()`): `F.dropout(x, "
            "p)` needs `training=self.training`, while an `nn.Dropout` layer is switched off by "
            "`.eval()`."
        ),
        "scaled_inside": (
            "x is multiplied by √d_model inside the positional encoding. That is the token embedding's "
            "job, done once, there; the positional encoding only adds the table: `x + pe`."
        ),
        "sin_cos_swapped": (
            "Sine and cosine are swapped. Columns are numbered from 0: the even ones (0, 2, 4, …) hold "
            "sines, sin(pos / 10000^(2i/d_model)), the odd ones cosines. The row of position 0 must start "
            "0, 1, 0, 1, …"
        ),
        "halves": (
            "The sines fill the first half of the columns and the cosines the second, [sin … | cos …], as "
            "in tensor2tensor and fairseq: the same columns in another order, a convention a checkpoint "
            "fixes. Here, as in the paper, sin goes to column 2i and cos to 2i+1: `pe[:, 0::2]`, `pe[:, "
            "1::2]`."
        ),
        "exponent_i": (
            "The exponent uses i instead of 2i, so the frequencies fall too slowly. `torch.arange(0, "
            "d_model, 2)` already gives 2i; `torch.arange(d_model // 2)` gives i, which you must double."
        ),
        "exponent_doubled": (
            "The exponent is doubled, 2 · 2i instead of 2i, so the frequencies fall too fast. "
            "`torch.arange(0, d_model, 2)` already gives 2i: don't multiply it by 2 again."
        ),
        "exponent_per_column": (
            "Your table gives every column a frequency of its own, 10000^(column/d_model), but a sine and "
            "its cosine must share one: columns 2i and 2i+1 both use 10000^(2i/d_model). For a column c, take `2 * (c // "
            "2)`."
        ),
        "same_frequency": (
            "All sine columns are equal, and so are all cosine columns: one frequency for all. Usually "
            "integer division is the culprit: `2 * i // d_model` is 0 for every i < d_model / 2. Divide "
            "with `/`."
        ),
        "mismatch": (
            "At position {pos}, dimension {dim} (batch row {row}, d_model = {d_model}) your module adds "
            "{got}, but P({pos}, {dim}) = {expected}. That is the first value that differs."
        ),
        "modifies_input": (
            "The values are right, but `forward` changed the caller's x in place (`x += ...`): the "
            "embeddings that came in are overwritten, and autograd may fail. Return a new tensor: `x + "
            "pe`."
        ),
        "not_buffer": (
            "The table `{name}` is a plain attribute, not a buffer: `model.to(device)` and `model.half()` "
            "leave it behind. Register it: `self.register_buffer('pe', pe, persistent=False)`."
        ),
        "table_is_parameter": (
            "The table `{name}` is an `nn.Parameter`: a weight to train, saved in every checkpoint. It "
            "follows from d_model and max_len, so it belongs in a buffer: `self.register_buffer('pe', pe, "
            "persistent=False)`."
        ),
        "frozen_parameter": (
            "The table `{name}` is a frozen `nn.Parameter` (requires_grad=False, as in a frozen "
            "`nn.Embedding`): it is not trained, but it is still a parameter: `model.parameters()` hands it "
            "to the optimizer, it is counted among the model's weights and saved in every checkpoint. It "
            "follows from d_model and max_len, so it belongs in a buffer: `self.register_buffer('pe', pe, "
            "persistent=False)`."
        ),
        "half_values": (
            "For x in float16 the output has the right dtype but not the right values: at position "
            "{pos}, dimension {dim} it adds {got} to x instead of {expected}. Does your `forward` take "
            "another path for float16 (returning x unchanged, for instance)? Add the table converted to "
            "x's dtype: `x + self.pe[:x.size(1)].to(x.dtype)`."
        ),
        "odd_d_model_crash": (
            "Almost: right for d_model = {even}, but with an odd d_model = {odd} your `{where}` raised "
            "`{error}`: `{detail}`. With an odd d_model there is one cosine column fewer than sine "
            "columns: `pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])`."
        ),
        "odd_d_model_values": (
            "Almost: right for d_model = {even}, but for an odd d_model = {odd}, at position {pos}, "
            "dimension {dim}, your module adds {got}, not {expected}. The last column is then a "
            "sine, and the exponents divide by {odd}."
        ),
        "hint1": (
            "Build the table once, in `__init__`, as `pe` of shape `(max_len, d_model)`. "
            "`torch.arange(max_len).unsqueeze(1)` is a column of positions, `torch.arange(0, d_model, 2)` "
            "a row of values 2i: `pos / 10000 ** (two_i / d_model)` broadcasts them into every angle at "
            "once."
        ),
        "hint2": (
            "Sines go to the even columns, `pe[:, 0::2] = torch.sin(angle)`, cosines to the odd ones, "
            "`pe[:, 1::2] = torch.cos(angle)`; with an odd d_model take `angle[:, : d_model // 2]` for "
            "the one cosine column fewer. Compute in float64 and divide with `/`."
        ),
        "hint3": (
            "A buffer follows `.to(device)` but is neither trained nor saved: `self.register_buffer('pe', "
            "pe, persistent=False)`. In `forward`, add the first `x.size(1)` rows in x's dtype: `x + "
            "self.pe[: x.size(1)].to(x.dtype)`. No √d_model here."
        ),
        "solution": (
            "The table is built once, in float64, and kept in a buffer with `persistent=False`; `forward` "
            "adds its first seq rows in x's dtype."
        ),
    },
)


# all different, and d_model even first: an implementation for even widths only is judged on
# an even width, then told separately about odd ones
_PE_D, _PE_ODD_D, _PE_MAX_LEN, _PE_BATCH, _PE_SEQ = 16, 15, 50, 3, 10


def _pe_mistakes(n: int, d: int) -> dict[str, torch.Tensor]:
    """The (n, d) tables that common mistakes build, in float64; none for an odd d."""
    if d % 2:
        return {}
    pos = torch.arange(n, dtype=torch.float64).unsqueeze(1)  # (n, 1)
    i = torch.arange(d // 2, dtype=torch.float64)  # (d/2,) the pair index i of the paper
    column = torch.arange(d, dtype=torch.float64)  # (d,)

    def interleaved(angle: torch.Tensor, even=torch.sin, odd=torch.cos) -> torch.Tensor:
        table = torch.empty(n, d, dtype=torch.float64)  # (n, d)
        table[:, 0::2], table[:, 1::2] = even(angle), odd(angle)
        return table

    angle = pos / 10000 ** (2 * i / d)  # (n, d/2) the paper's angles
    per_column = pos / 10000 ** (column / d)  # (n, d)
    return {
        "pe.sin_cos_swapped": interleaved(angle, even=torch.cos, odd=torch.sin),
        "pe.halves": torch.cat([torch.sin(angle), torch.cos(angle)], dim=1),
        "pe.exponent_i": interleaved(pos / 10000 ** (i / d)),
        "pe.exponent_doubled": interleaved(pos / 10000 ** (4 * i / d)),
        "pe.exponent_per_column": torch.where(column % 2 == 0, torch.sin(per_column), torch.cos(per_column)),
    }


def _is_bare_table(out: torch.Tensor, table: torch.Tensor) -> bool:
    """Whether ``out`` is the first rows of the table (repeated over the batch), without x."""
    if not out.is_floating_point():
        return False
    t = out.detach().double().squeeze()
    if t.dim() == 3:
        if not torch.equal(t, t[:1].expand_as(t)):
            return False
        t = t[0]
    return t.dim() == 2 and t.shape[1] == table.shape[1] and close(t, table[: t.shape[0]])


def same_frequency(added: torch.Tensor) -> bool:
    """Whether every sine column is the same, and every cosine column (all frequencies equal)."""
    sines, cosines = added[0, :, 0::2], added[0, :, 1::2]  # (seq, d/2) each
    return (
        close(sines, sines[:, :1].expand_as(sines))
        and close(cosines, cosines[:, :1].expand_as(cosines))
        and not close(sines, torch.zeros_like(sines))
    )


def _pe_values(out, x: torch.Tensor, table: torch.Tensor) -> None:
    """Checks ``out == x + table[:seq]``, or names the mistake that explains ``out``."""
    out = require_tensor(out)
    if _is_bare_table(out, table):
        raise wrong("pe.table_without_x")
    if out.shape != x.shape:
        raise wrong("pe.wrong_shape", expected=tuple(x.shape), got=tuple(out.shape))
    if out.dtype != x.dtype:
        raise wrong("pe.dtype", expected=x.dtype, got=out.dtype)
    got, x = out.detach().double(), x.double()
    require_finite(got)
    batch, seq, d = x.shape
    pe = table[:seq]  # (seq, d)
    if close(got, x + pe):
        return
    candidates = {
        "pe.scaled_inside": [x * math.sqrt(d) + pe, (x + pe) * math.sqrt(d)],
        "pe.sequence_first": [x + table[:batch].unsqueeze(1)],
        **{key: [x + wrong[:seq]] for key, wrong in _pe_mistakes(table.shape[0], d).items()},
    }
    for key, outputs in candidates.items():
        if any(close(got, candidate) for candidate in outputs):
            raise wrong(key, shape=tuple(x.shape))
    if same_frequency(got - x):
        raise wrong("pe.same_frequency")
    row, pos, dim = first_difference(got, x + pe)
    added = float(got[row, pos, dim] - x[row, pos, dim])
    values = dict(expected=format_decimal(float(pe[pos, dim]), 4), got=format_decimal(added, 4))
    raise wrong("pe.mismatch", row=row, pos=pos, dim=dim, d_model=d, **values)


_HALF_TOL = 1e-2  # float16 keeps 11 bits: x + pe rounded once or twice, values up to about 4


def _pe_half_values(out: torch.Tensor, half: torch.Tensor, table: torch.Tensor) -> None:
    """For a float16 x, the values too: x + pe within float16's rounding, not x alone."""
    expected = half.double() + table[: half.shape[1]]
    got = out.detach().double()
    if got.shape == expected.shape and torch.allclose(got, expected, rtol=_HALF_TOL, atol=_HALF_TOL):
        return
    if got.shape != expected.shape:
        raise wrong("pe.wrong_shape", expected=tuple(half.shape), got=tuple(out.shape))
    differs = ~torch.isclose(got, expected, rtol=_HALF_TOL, atol=_HALF_TOL)
    row, pos, dim = (int(i) for i in differs.nonzero()[0])
    values = {
        "expected": format_decimal(float(table[pos, dim]), 4),
        "got": format_decimal(float(got[row, pos, dim] - half[row, pos, dim].double()), 4),
    }
    raise wrong("pe.half_values", pos=pos, dim=dim, **values)


def _pe_output(student: type, run: Run, module: nn.Module, x: torch.Tensor, table: torch.Tensor):
    """The module's output for x. After a crash: does it work when seq == max_len, or batch == seq?"""
    try:
        return run.forward(module, x)
    except Stop as stop:
        if stop.error is None:
            raise
        _, seq, d = x.shape
        for key, max_len, probe in (
            ("pe.not_sliced", seq, x),
            ("pe.sequence_first", _PE_MAX_LEN, randn(seq, seq, d)),
        ):
            try:
                out, _ = run.forward(run.build(student, d, max_len), probe)
            except Stop:
                if run.timed_out:
                    raise
                continue
            if isinstance(out, torch.Tensor) and close(out.detach().double(), probe.double() + table[:seq]):
                raise wrong(key, shape=tuple(x.shape)) from None
        raise


def _build_pe(student: type, run: Run, d: int, max_len: int) -> nn.Module:
    try:
        return run.build(student, d, max_len)
    except Stop as stop:
        found = re.search(r"attribute '(\w+)' already exists", safe_str(stop.error) if stop.error else "")
        if found and stop.error.is_a(KeyError):
            raise wrong("pe.assigned_before_register_buffer", name=found.group(1)) from None
        raise


def _pe_tables(module: nn.Module, d: int) -> tuple[list[tuple[str, bool]], list[str]]:
    """The parameters that can be the table (name, requires_grad) and the plain attributes (in the child)."""
    params = [
        (name, bool(p.requires_grad))
        for name, p in module.named_parameters()
        if p.dim() >= 2 and p.shape[-1] == d
    ]
    return params, plain_tensors(module, d)


def _pe_storage(run: Run, module, d: int) -> None:
    """The table must be a buffer: a parameter would be trained (or, frozen, still handed to the
    optimizer and saved as a weight), a plain attribute left behind by .to()."""
    params, plain = run.inspect(_pe_tables, module, d)
    if params:
        name, trained = params[0]
        raise wrong("pe.table_is_parameter" if trained else "pe.frozen_parameter", name=name)
    if plain:
        raise wrong("pe.not_buffer", name=plain[0])


def _pe_odd_width(student: type, run: Run) -> None:
    """An implementation right for even d_model must also be right for an odd one."""
    d, x, where = _PE_ODD_D, randn(_PE_BATCH, _PE_SEQ, _PE_ODD_D), "__init__"
    widths = {"even": _PE_D, "odd": d}
    try:
        module = run.build(student, d, _PE_MAX_LEN)
        where = "forward"
        out, _ = run.forward(module, x)
    except Stop as stop:
        if (error := stop.error) is None:  # a time-out, an exit: no odd-width story to tell
            raise
        detail = code_safe(safe_str(error) or repr(error))
        raise wrong(
            "pe.odd_d_model_crash", where=where, error=error.type_name, detail=detail, **widths
        ) from None
    try:
        _pe_values(out, x, sinusoidal_table(_PE_MAX_LEN, d, dtype=torch.float64))
    except Stop as stop:
        if stop.feedback.key != "pe.mismatch":
            raise
        where_wrong = {k: stop.feedback.values[k] for k in ("pos", "dim", "expected", "got")}
        raise wrong("pe.odd_d_model_values", **where_wrong, **widths) from None


def diagnose(student, run: Run) -> Feedback:
    require_module_class(student)
    d = _PE_D
    table = sinusoidal_table(_PE_MAX_LEN, d, dtype=torch.float64)  # (max_len, d_model)
    module = _build_pe(student, run, d, _PE_MAX_LEN)
    x = randn(_PE_BATCH, _PE_SEQ, d)
    out, modified = _pe_output(student, run, module, x, table)
    if isinstance(out, torch.Tensor) and out.shape == x.shape and out.dtype == x.dtype:
        if not same(out, run.forward(module, x)[0]):
            raise wrong("pe.random_output")
    _pe_values(out, x, table)
    if modified:
        raise wrong("pe.modifies_input")
    longest = randn(2, _PE_MAX_LEN, d)  # every row of the table
    _pe_values(_pe_output(student, run, module, longest, table)[0], longest, table)
    half = x.half()
    out = require_tensor(run.forward(module, half)[0])
    if out.dtype != half.dtype:
        raise wrong("pe.dtype", expected=half.dtype, got=out.dtype)
    _pe_half_values(out, half, table)
    _pe_storage(run, module, d)
    _pe_odd_width(student, run)
    return feedback("correct", "pe.correct")


# the course's classes that answer this exercise: kept inside a student's module, they are named
FINISHED = ("course_lib.PositionalEncoding", "course_lib.TransformerEmbedding")
EXERCISE = Exercise("positional_encoding", 5, diagnose, MESSAGES, finished=FINISHED)
# what a lesson calls: exercises.<name>.check(...), .hint(n), .solution(), and the build's .template
check, hint, solution = EXERCISE.check, EXERCISE.hint, EXERCISE.solution
__getattr__ = EXERCISE.module_attribute  # .template, in the current language
