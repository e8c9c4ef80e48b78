"""Input checks at the boundary of every public function (their messages: ``messages.INPUT``).

Each check returns the value in the form the caller needs (``int``, ``float``, an int64
tensor) or raises ``ValueError``/``TypeError`` with a message that names the value (with
``repr``) and the limit, in the student's language. A student reads the message, not
the stack, so no torch-internal error should ever be the first thing they see.

    >>> positive_int("d_model", 512)
    512
    >>> positive_int("d_model", 0)
    Traceback (most recent call last):
    ...
    ValueError: d_model must be a positive integer, got 0
"""

import functools
import math
import numbers

import torch
from torch import nn

from .i18n import decimal_mark, format_number
from .messages import INPUT as MESSAGES

__all__ = [
    "MESSAGES",
    "CheckedModule",
    "is_integer",
    "is_real",
    "positive_int",
    "non_negative_int",
    "MAX_PEAK_BYTES",
    "gib",
    "table_size",
    "token_table_size",
    "dense",
    "thousands",
    "base",
    "probability",
    "choice",
    "flag",
    "padding_idx",
    "float_dtype",
    "token_ids",
    "vectors",
    "float_tensor",
    "positions",
]

# The most memory one of the package's builders may take at its peak: 8 GiB. A table is built
# in float64 and cast at the end, so the peak is a few times the table returned (4 times a
# float32 sinusoidal table): each builder counts its own intermediates, and
# tests/unit/test_memory.py measures the peak of each against that count.
MAX_PEAK_BYTES = 8 * 2**30


# ----------------------------------------------------------------------------- modules


class CheckedModule(nn.Module):
    """The base of the course's modules: ``nn.Module`` whose input checks are plain Python.

    Those checks, which speak the student's language, are what ``torch.jit.script`` cannot
    compile, so scripting is refused with that reason instead of a TorchScript error
    (TorchScript is in maintenance mode; ``torch.compile`` and ``torch.export`` replace it).
    """

    def __prepare_scriptable__(self):
        raise TypeError(MESSAGES("no_torchscript", name=type(self).__name__))


# ----------------------------------------------------------------------------- numbers


def is_integer(value) -> bool:
    """An integer, and not a bool (``True`` is an ``int`` to Python, but never a sensible size)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_real(value) -> bool:
    """A real number (an integer or a float of any kind), and not a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def positive_int(name: str, value) -> int:
    """``value`` as an ``int`` if it is an integer > 0."""
    if not is_integer(value) or value <= 0:
        raise ValueError(MESSAGES("not_positive_int", name=name, value=value))
    return int(value)


def non_negative_int(name: str, value) -> int:
    """``value`` as an ``int`` if it is an integer >= 0."""
    if not is_integer(value) or value < 0:
        raise ValueError(MESSAGES("not_non_negative_int", name=name, value=value))
    return int(value)


def thousands(n: int) -> str:
    """``n`` with its thousands apart, a space between them, in every language of the course.

    >>> thousands(2**31)
    '2 147 483 648'
    """
    return f"{n:,}".replace(",", " ")


def gib(n_bytes: int) -> str:
    """Bytes in GiB, one decimal unless it is 0, as the current language writes numbers.

    >>> gib(8 * 2**30), gib(3 * 2**29), gib(2**50)
    ('8', '1.5', '1 048 576')
    """
    return format_number(n_bytes / 2**30, ",.1f").removesuffix(decimal_mark() + "0")


def table_size(rows: int, d_model: int, peak_bytes: int) -> None:
    """A ``(rows, d_model)`` table whose construction peaks at ``peak_bytes`` must stay within ``MAX_PEAK_BYTES``."""
    if peak_bytes > MAX_PEAK_BYTES:
        raise ValueError(
            MESSAGES(
                "table_too_large",
                rows=rows,
                d_model=d_model,
                entries=thousands(rows * d_model),
                need=gib(peak_bytes),
                limit=gib(MAX_PEAK_BYTES),
            )
        )


def base(value) -> float:
    """The wavelength scale: a finite real number > 1."""
    if not is_real(value):
        raise ValueError(MESSAGES("base_invalid", value=value))
    try:
        as_float = float(value)
    except OverflowError:  # an int too large for a float, e.g. 10**400
        raise ValueError(MESSAGES("base_invalid", value=value)) from None
    if not (math.isfinite(as_float) and as_float > 1):
        raise ValueError(MESSAGES("base_invalid", value=value))
    return as_float


def probability(value) -> float:
    if not is_real(value) or not 0 <= value <= 1:
        raise ValueError(MESSAGES("dropout_range", value=value))
    return float(value)


def choice(name: str, value, allowed: tuple[str, ...]) -> str:
    """``value`` if it is one of the strings ``allowed``."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(
            MESSAGES("not_a_choice", name=name, value=value, allowed=", ".join(map(repr, allowed)))
        )
    return value


def flag(name: str, value) -> bool:
    """``value`` if it is a bool (not 0, 1 or a string such as "False", which is true)."""
    if not isinstance(value, bool):
        raise TypeError(MESSAGES("not_a_flag", name=name, value=value))
    return value


def padding_idx(value, vocab_size: int) -> int | None:
    """None, or the id of the padding token: an integer in ``[0, vocab_size)``."""
    if value is None:
        return None
    if not is_integer(value):
        raise TypeError(MESSAGES("padding_idx_type", value=value))
    if not 0 <= value < vocab_size:
        raise ValueError(MESSAGES("padding_idx_range", value=value, vocab_size=vocab_size))
    return int(value)


def float_dtype(value) -> torch.dtype:
    """A floating-point ``torch.dtype``."""
    if not isinstance(value, torch.dtype):
        raise TypeError(MESSAGES("dtype_not_dtype", value=value))
    if not value.is_floating_point:
        raise TypeError(MESSAGES("dtype_not_float", value=value))
    return value


# ----------------------------------------------------------------------------- tensors


def dense(name: str, value: torch.Tensor) -> None:
    """``value`` must be one strided tensor: not a nested tensor (``torch.nested``, sequences of
    several lengths), not a sparse one, whose operations torch refuses with its own errors.

    >>> dense("x", torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)]))
    Traceback (most recent call last):
    ...
    TypeError: x must be one rectangular tensor, got a nested tensor (torch.nested) of 2 sequences: pad them to one length first (course_lib.vocab.pad_batch)
    """
    if value.is_nested:
        raise TypeError(MESSAGES("nested_tensor", name=name, count=value.size(0)))
    if value.layout != torch.strided:
        raise TypeError(MESSAGES("sparse_tensor", name=name, layout=value.layout))


def token_table_size(vocab_size: int, d_model: int) -> None:
    """A ``(vocab_size, d_model)`` token table in the default dtype must stay within ``MAX_PEAK_BYTES``."""
    need = vocab_size * d_model * torch.get_default_dtype().itemsize  # the table is all it takes
    if need > MAX_PEAK_BYTES:
        raise ValueError(
            MESSAGES(
                "vocab_table_too_large",
                vocab_size=vocab_size,
                d_model=d_model,
                entries=thousands(vocab_size * d_model),
                need=gib(need),
                limit=gib(MAX_PEAK_BYTES),
            )
        )


def outside_compiled_graphs(check):
    """``check`` run as plain Python under ``torch.compile``, outside the graph being compiled.

    A check reads its tensor's values (``int(hi)`` in a message): inside a graph that is a
    graph break, and Dynamo prints a 12-line warning about ``Tensor.item()`` before the
    student's error. ``torch.compiler.disable`` is taken only when compiling, since it
    imports Dynamo (seconds) that an eager run never needs.
    """

    disabled = {}  # the check under torch.compiler.disable, made on the first compiled call

    @functools.wraps(check)
    def run(*args, **kwargs):
        if torch.compiler.is_compiling():
            if not disabled:
                disabled[check] = torch.compiler.disable(check)
            return disabled[check](*args, **kwargs)
        return check(*args, **kwargs)

    return run


@outside_compiled_graphs
def token_ids(ids, vocab_size: int, weight: torch.Tensor) -> torch.Tensor:
    """``ids`` as an index tensor for ``weight`` (int64, or int32 as given), each in ``[0, vocab_size)``.

    Integer dtypes that ``F.embedding`` refuses (int8, uint8, int16, the unsigned ones) are
    converted to int64, which holds every one of their values exactly.
    """
    if not isinstance(ids, torch.Tensor):
        raise TypeError(MESSAGES("ids_not_tensor", type_name=type(ids).__name__))
    dense("ids", ids)
    if ids.dtype.is_floating_point or ids.dtype.is_complex or ids.dtype == torch.bool:
        raise TypeError(MESSAGES("ids_not_integer", dtype=ids.dtype))
    if ids.is_meta:
        if weight.is_meta:
            return ids if ids.dtype in (torch.int32, torch.int64) else ids.to(torch.int64)
        raise ValueError(MESSAGES("ids_meta", device=str(weight.device)))
    if ids.device != weight.device and not weight.is_meta:
        raise ValueError(MESSAGES("ids_device", got=str(ids.device), device=str(weight.device)))
    unsigned64 = ids.dtype == torch.uint64
    if unsigned64:
        ids = ids.view(torch.int64)  # the same bits: ids >= 2**63 read as negative, caught below
    elif ids.dtype not in (torch.int32, torch.int64):
        ids = ids.to(torch.int64)
    if ids.numel() == 0:
        return ids
    lo, hi = torch.aminmax(ids)
    if unsigned64 and lo < 0:
        raise ValueError(MESSAGES("id_too_large", value=int(lo) + 2**64, vocab_size=vocab_size))
    if hi >= vocab_size:
        raise ValueError(MESSAGES("id_too_large", value=int(hi), vocab_size=vocab_size))
    if lo < 0:
        raise ValueError(MESSAGES("id_negative", value=int(lo), vocab_size=vocab_size))
    return ids


def vectors(x, d_model: int, max_len: int) -> None:
    """``x`` must be floating-point ``(batch, seq, d_model)`` with ``seq <= max_len``."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(MESSAGES("x_not_tensor", type_name=type(x).__name__))
    dense("x", x)
    if not x.dtype.is_floating_point:
        raise TypeError(MESSAGES("x_not_float", dtype=x.dtype))
    if x.dim() != 3:
        raise ValueError(MESSAGES("x_bad_ndim", shape=tuple(x.shape)))
    if x.shape[-1] != d_model:
        raise ValueError(MESSAGES("last_dim", got=x.shape[-1], d_model=d_model))
    if x.shape[1] > max_len:
        raise ValueError(MESSAGES("seq_too_long", seq_len=x.shape[1], max_len=max_len))


def float_tensor(name: str, value, layout: tuple[str, ...]) -> None:
    """``value`` must be a floating-point tensor with one axis per name of ``layout``."""
    shape_names = "(" + ", ".join(layout) + ")"
    if not isinstance(value, torch.Tensor):
        raise TypeError(
            MESSAGES("tensor_not_tensor", name=name, layout=shape_names, type_name=type(value).__name__)
        )
    dense(name, value)
    if not value.dtype.is_floating_point:
        raise TypeError(MESSAGES("tensor_not_float", name=name, dtype=value.dtype))
    if value.dim() != len(layout):
        raise ValueError(MESSAGES("tensor_bad_ndim", name=name, layout=shape_names, shape=tuple(value.shape)))


@outside_compiled_graphs
def positions(
    value, x_shape: tuple[int, ...], max_len: int, *, device: torch.device, seq_dim: int = 1, name: str = "x"
) -> torch.Tensor:
    """Explicit positions for an input ``name`` of shape ``x_shape``: int64 ``(seq,)`` or ``(batch, seq)``, in ``[0, max_len)``.

    The batch is axis 0 of ``x_shape`` and the sequence axis ``seq_dim``: 1 for ``(batch,
    seq, d_model)``, 2 for the ``(batch, heads, seq, head_dim)`` queries of attention.
    ``device`` is where the positions are used (the module's table, or ``x`` for a module
    without one): positions on the meta device have no values to check or to look up, so
    they are accepted only where everything is on the meta device.
    """
    batch, seq = x_shape[0], x_shape[seq_dim]
    if not isinstance(value, torch.Tensor):
        raise TypeError(MESSAGES("positions_not_tensor", type_name=type(value).__name__))
    dense("positions", value)
    if value.dtype.is_floating_point or value.dtype.is_complex or value.dtype == torch.bool:
        raise TypeError(MESSAGES("positions_not_integer", dtype=value.dtype))
    if tuple(value.shape) not in ((seq,), (batch, seq)):
        raise ValueError(
            MESSAGES(
                "positions_shape",
                batch=batch,
                seq=seq,
                name=name,
                x_shape=tuple(x_shape),
                shape=tuple(value.shape),
            )
        )
    if value.is_meta:
        if torch.device(device).type != "meta":
            raise ValueError(MESSAGES("positions_meta", value=value, device=str(device)))
        return value.to(torch.int64)
    unsigned64 = value.dtype == torch.uint64
    # uint64: the same bits as int64, so positions >= 2**63 read as negative and are caught below
    value = value.view(torch.int64) if unsigned64 else value.to(torch.int64)
    if value.numel():
        lo, hi = torch.aminmax(value)
        if unsigned64 and lo < 0:
            raise ValueError(MESSAGES("position_too_large", value=int(lo) + 2**64, max_len=max_len))
        if hi >= max_len:
            raise ValueError(MESSAGES("position_too_large", value=int(hi), max_len=max_len))
        if lo < 0:
            raise ValueError(MESSAGES("position_negative", value=int(lo), max_len=max_len))
    return value
