"""Lesson 6: the whole input layer, with the positions a generating model and a left-padded batch need.

The student writes ``MyInputLayer(vocab_size, d_model, max_len)`` whose ``forward(ids,
positions=None)`` returns ``embedding(ids) * sqrt(d_model) + P[positions]``, positions
``0 .. seq-1`` by default. The check runs it on a whole batch, as a model that generates with a
cache (positions ``(seq,)`` that do not start at 0), on a left-padded batch (positions ``(batch,
seq)``), in bfloat16, and with an odd d_model.
"""

import inspect
import math

import torch
from torch import nn

from ...embedding import sinusoidal_table
from ...i18n import format_decimal
from ..checks import (
    Feedback,
    Stop,
    close,
    feedback,
    first_difference,
    require_finite,
    require_module_class,
    require_tensor,
    same,
    wrong,
)
from ..exercise import Exercise
from ..positional_encoding import same_frequency
from ..runner import Run, code_safe, safe_str
from .messages import MESSAGES

# all different, so that no swapped axis hides; sqrt(24) = 4.899 is 4.906 in bfloat16
_V, _D, _L, _B, _S, _ODD_D = 29, 24, 40, 3, 7, 15
_CACHE = (11, 12)  # two tokens of a text generated with a cache: they arrive without the first 11
_LEFT = ((0, 0, 0, 1, 2), (0, 1, 2, 3, 4), (0, 0, 1, 2, 3))  # (mask.cumsum(1) - 1).clamp(min=0)


def _bfloat16_probe_values(d_model: int) -> torch.Tensor:
    """bfloat16 numbers w in [1, 2) whose product with sqrt(d_model), rounded to bfloat16, differs
    from their product with sqrt(d_model) rounded to bfloat16 first; none near a tie."""
    scale, rounded = math.sqrt(d_model), float(torch.tensor(math.sqrt(d_model), dtype=torch.bfloat16))
    w = torch.arange(128, 256, dtype=torch.float64) / 128  # every bfloat16 number in [1, 2)
    exact = w * scale
    step = 2.0 ** (torch.floor(torch.log2(exact)) - 7)  # bfloat16's spacing at each product
    tie_distance = ((exact / step) % 1 - 0.5).abs()  # 0 at a tie between two bfloat16 numbers
    differs = exact.to(torch.bfloat16) != (w * rounded).to(torch.bfloat16)
    return w[differs & (tie_distance > 0.01)]


def _ids(batch: int, seq: int, seed: int) -> torch.Tensor:
    return torch.randint(0, _V, (batch, seq), generator=torch.Generator().manual_seed(seed))


def _forward(run: Run, module: nn.Module, ids: torch.Tensor, positions=None):
    args = (ids.clone(),) if positions is None else (ids.clone(), positions.clone())
    return run.call("forward", module, *args, shape=tuple(ids.shape), dtype=ids.dtype)


def _parameters(module: nn.Module, d: int) -> list[tuple[str, bool, torch.Tensor]]:
    """(name, whether it is (d, vocab), values) of every parameter that can hold the token vectors (in the child)."""
    return [
        (name, p.shape == (d, _V), p.detach())  # (d, vocab): an nn.Linear applied to one-hot vectors
        for name, p in module.named_parameters()
        if p.shape in ((_V, d), (d, _V))
    ]


def _token_tables(run: Run, module, d: int) -> list[tuple[str, bool, torch.Tensor]]:
    """The parameters that can hold the token vectors: a layer may also have a (d, vocab) ``to_logits``."""
    tables = run.inspect(_parameters, module, d)
    if not tables:
        raise wrong("inp.no_token_table", vocab_size=_V, d_model=d)
    return tables


def _tokens(table: tuple[str, bool, torch.Tensor], ids: torch.Tensor) -> torch.Tensor:
    """The token vectors of ``ids`` times sqrt(d_model), in float64: (batch, seq, d_model)."""
    _, transposed, weight = table
    weight = weight.double().t() if transposed else weight.double()  # (vocab, d)
    return weight[ids] * math.sqrt(weight.shape[1])


def _pick_table(got: torch.Tensor, tables, ids: torch.Tensor, pe: torch.Tensor):
    """The table that ``got`` is read from: the one that explains it, else the first."""
    for table in tables:
        if close(got, _tokens(table, ids) + pe):
            return table
    for table in tables if got.shape[-1] % 2 == 0 else ():  # the layouts' mistakes need pairs
        try:
            _default_values(got, _tokens(table, ids), pe)
        except Stop as stop:
            if stop.feedback.key != "inp.mismatch":
                return table
    return tables[0]


def _output(out, ids: torch.Tensor, d: int) -> torch.Tensor:
    out = require_tensor(out)
    expected = (*ids.shape, d)
    if out.shape != expected:
        raise wrong("inp.wrong_shape", ids_shape=tuple(ids.shape), expected=expected, got=tuple(out.shape))
    got = out.detach().double()
    require_finite(got)
    return got


def _default_values(got: torch.Tensor, tokens: torch.Tensor, pe: torch.Tensor) -> None:
    """``got == tokens + pe``, or the verdict that names the mistake (pe: the rows of positions 0..seq-1)."""
    if close(got, tokens + pe):
        return
    scale = math.sqrt(got.shape[-1])
    swapped, halves = torch.empty_like(pe), torch.cat([pe[:, 0::2], pe[:, 1::2]], dim=1)
    swapped[:, 0::2], swapped[:, 1::2] = pe[:, 1::2], pe[:, 0::2]
    candidates = {
        "inp.missing_scale": [tokens / scale + pe],
        "inp.scaled_twice": [tokens * scale + pe],
        "inp.scaled_positions": [(tokens + pe) * scale, tokens + pe * scale],
        "inp.other_layout": [tokens + swapped, tokens + halves],
    }
    for key, outputs in candidates.items():
        if any(close(got, candidate) for candidate in outputs):
            raise wrong(key, scale=format_decimal(scale, 4), d_model=got.shape[-1])
    if same_frequency(got - tokens):
        raise wrong("inp.same_frequency")
    row, pos, dim = first_difference(got, tokens + pe)
    expected = float(tokens[row, pos, dim] + pe[pos, dim])
    values = dict(expected=format_decimal(expected, 4), got=format_decimal(float(got[row, pos, dim]), 4))
    raise wrong("inp.mismatch", row=row, pos=pos, dim=dim, **values)


def _storage(module: nn.Module) -> tuple[str, str] | None:
    """The positional table must be a non-persistent buffer: neither trained, nor saved, nor left
    behind. Run in the child: the diagnosis and the tensor's name, or None."""

    def is_table(value) -> bool:
        return (
            isinstance(value, torch.Tensor)
            and value.dim() >= 2
            and tuple(value.shape[-2:]) == (_L, _D)
            and all(n == 1 for n in value.shape[:-2])
        )

    for name, p in module.named_parameters():
        if is_table(p):
            return "inp.table_is_parameter", name
    saved = module.state_dict()
    for name, b in module.named_buffers():
        if is_table(b) and name in saved:
            return "inp.table_saved", name
    for prefix, sub in module.named_modules():
        for name, value in vars(sub).items():
            if is_table(value):
                return "inp.not_buffer", f"{prefix}.{name}".lstrip(".")
    return None


def _accepts_positions(module: nn.Module) -> bool:
    """Whether ``forward`` takes a second argument (in the child)."""
    try:
        signature = inspect.signature(module.forward)
    except (TypeError, ValueError):  # a builtin or an odd callable: let the call decide
        return True
    try:
        signature.bind(None, None)
    except TypeError:
        return False
    return True


def _to(module: nn.Module, dtype: torch.dtype) -> None:
    module.to(dtype)


def _set_weight(module: nn.Module, name: str, values: torch.Tensor) -> None:
    with torch.no_grad():
        module.get_parameter(name).copy_(values)


def _crash(key: str, stop: Stop, **values) -> Stop:
    if stop.error is None:  # a time-out, an exit: that verdict stands
        return stop
    detail = code_safe(safe_str(stop.error) or repr(stop.error))
    return wrong(key, error=stop.error.type_name, detail=detail, **values)


def _cache_positions(run: Run, module: nn.Module, table, pe: torch.Tensor) -> None:
    """Tokens 11 and 12 of a text, arriving alone as when a model generates with a cache."""
    ids, positions = _ids(_B, len(_CACHE), seed=1), torch.tensor(_CACHE)
    shown = list(_CACHE)
    try:
        out = _forward(run, module, ids, positions)
    except Stop as stop:
        raise _crash("inp.positions_error", stop, positions=shown) from None
    got, tokens = _output(out, ids, _D), _tokens(table, ids)
    if close(got, tokens + pe[positions]):
        return
    if close(got, tokens + pe[: len(_CACHE)]):
        raise wrong("inp.positions_ignored", positions=shown)
    row, pos, dim = first_difference(got, tokens + pe[positions])
    p = _CACHE[pos]
    expected = float(tokens[row, pos, dim] + pe[p, dim])
    raise wrong(
        "inp.positions_mismatch",
        positions=shown,
        row=row,
        position=p,
        dim=dim,
        expected=format_decimal(expected, 4),
        got=format_decimal(float(got[row, pos, dim]), 4),
    )


def _left_padded_positions(run: Run, module: nn.Module, table, pe: torch.Tensor) -> None:
    """Positions (batch, seq), one row per sequence, as a left-padded batch has them."""
    positions = torch.tensor(_LEFT)
    ids = _ids(*positions.shape, seed=2)
    shape = tuple(positions.shape)
    try:
        out = require_tensor(_forward(run, module, ids, positions))
    except Stop as stop:
        raise _crash("inp.positions_batch_error", stop, shape=shape) from None
    expected_shape = (*shape, _D)
    if out.shape != expected_shape:
        raise wrong("inp.positions_batch_shape", shape=shape, expected=expected_shape, got=tuple(out.shape))
    got, tokens = _output(out, ids, _D), _tokens(table, ids)
    expected = tokens + pe[positions]  # (batch, seq, d)
    if close(got, expected):
        return
    row, pos, dim = first_difference(got, expected)
    raise wrong(
        "inp.positions_batch_values",
        positions=[list(r) for r in _LEFT],
        row=row,
        pos=pos,
        position=_LEFT[row][pos],
        dim=dim,
        expected=format_decimal(float(expected[row, pos, dim]), 4),
        got=format_decimal(float(got[row, pos, dim]), 4),
    )


def _bfloat16(run: Run, module: nn.Module, table) -> None:
    """In bfloat16 the output stays bfloat16, and sqrt(d_model) is not rounded to bfloat16 first."""
    run.call("to", _to, module, torch.bfloat16, name=f"{module.facts['type_name']}.to")
    values = _bfloat16_probe_values(_D)
    signs = torch.tensor([1.0, -1.0]).repeat(_V * _D)[: _V * _D]
    weights = (values.repeat(_V * _D // len(values) + 1)[: _V * _D] * signs).reshape(_V, _D)
    run.inspect(_set_weight, module, table[0], weights.t() if table[1] else weights)
    ids = torch.arange(_V).unsqueeze(1)  # (vocab, 1): every token, at position 0
    out = require_tensor(_forward(run, module, ids))
    if out.dtype != torch.bfloat16:
        raise wrong("inp.dtype", expected=torch.bfloat16, got=out.dtype)
    # at position 0 every sine is 0: the even coordinates hold the scaled token vectors alone
    got = out.detach()[:, 0, 0::2].double()  # (vocab, ceil(d/2))
    scale, rounded = math.sqrt(_D), float(torch.tensor(math.sqrt(_D), dtype=torch.bfloat16))
    w = weights[:, 0::2]
    exact, with_rounded = (w * scale).to(torch.bfloat16).double(), (w * rounded).to(torch.bfloat16).double()
    if torch.equal(got, with_rounded) and not torch.equal(got, exact):
        # bfloat16 keeps 8 significant bits: √24 rounds to 4.90625 = 157/32, exact in 5 decimals
        shown = dict(scale=format_decimal(scale, 4), rounded=format_decimal(rounded, 5))
        raise wrong("inp.scale_rounded", d_model=_D, **shown)


def _odd_width(student: type, run: Run) -> None:
    """An implementation right for an even d_model must be right for an odd one too."""
    ids, where = _ids(_B, _S, seed=3), "__init__"
    try:
        module = run.build(student, _V, _ODD_D, _L)
        where = "forward"
        out = _forward(run, module, ids)
    except Stop as stop:
        raise _crash("inp.odd_d_model_crash", stop, even=_D, odd=_ODD_D, where=where) from None
    got = _output(out, ids, _ODD_D)
    pe = sinusoidal_table(_S, _ODD_D, dtype=torch.float64)
    expected = _tokens(_pick_table(got, _token_tables(run, module, _ODD_D), ids, pe), ids) + pe
    if not close(got, expected):
        row, pos, dim = first_difference(got, expected)
        values = dict(
            pos=pos,
            dim=dim,
            expected=format_decimal(float(expected[row, pos, dim]), 4),
            got=format_decimal(float(got[row, pos, dim]), 4),
        )
        raise wrong("inp.odd_d_model_values", even=_D, odd=_ODD_D, **values)


def diagnose(student, run: Run) -> Feedback:
    require_module_class(student)
    module = run.build(student, _V, _D, _L)
    tables = _token_tables(run, module, _D)
    pe = sinusoidal_table(_L, _D, dtype=torch.float64)  # (max_len, d_model)
    ids = _ids(_B, _S, seed=0)
    out = _forward(run, module, ids)
    got = _output(out, ids, _D)
    table = _pick_table(got, tables, ids, pe[:_S])
    if not same(out, _forward(run, module, ids)):
        raise wrong("inp.random_output")
    if out.dtype != torch.float32:
        raise wrong("inp.dtype", expected=torch.float32, got=out.dtype)
    _default_values(got, _tokens(table, ids), pe[:_S])
    if found := run.inspect(_storage, module):
        key, name = found
        raise wrong(key, name=name, size=f"{_L} × {_D} = {_L * _D}")
    if not run.inspect(_accepts_positions, module):
        raise wrong("inp.no_positions_parameter")
    _cache_positions(run, module, table, pe)
    _left_padded_positions(run, module, table, pe)
    _bfloat16(run, module, table)
    _odd_width(student, run)
    return feedback("correct", "inp.correct")


# the course's classes that answer this exercise: kept inside a student's module, they are named
FINISHED = ("course_lib.TransformerEmbedding",)
EXERCISE = Exercise("input_layer", 6, diagnose, MESSAGES, finished=FINISHED)
# what a lesson calls: exercises.<name>.check(...), .hint(n), .solution(), and the build's .template
check, hint, solution = EXERCISE.check, EXERCISE.hint, EXERCISE.solution
__getattr__ = EXERCISE.module_attribute  # .template, in the current language
