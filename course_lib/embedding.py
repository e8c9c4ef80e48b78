"""The input layer of a Transformer: token embeddings and sinusoidal positional encodings.

Implements section 3.4 (embeddings scaled by sqrt(d_model)) and section 3.5 (sinusoidal
positional encoding) of Vaswani et al., "Attention Is All You Need", 2017,
https://arxiv.org/abs/1706.03762.

The maths is one pure function, :func:`sinusoidal_table`; the modules are thin wrappers
that check their input at the boundary and say, in the student's language, what was
wrong with it.
"""

import math
import numbers

import torch
from torch import nn

from .i18n import tr

__all__ = ["sinusoidal_table", "TokenEmbedding", "PositionalEncoding", "TransformerEmbedding"]


# ----------------------------------------------------------------------------- checks


def _positive_int(name: str, value) -> int:
    # bool is an int subclass, but True is never a sensible size
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(tr("not_positive_int", name=name, value=value))
    return int(value)


def _positive_base(value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value > 0:
        raise ValueError(tr("base_not_positive", value=value))
    if not math.isfinite(value):
        raise ValueError(tr("base_not_positive", value=value))
    return float(value)


def _probability(value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value <= 1:
        raise ValueError(tr("dropout_range", value=value))
    return float(value)


def _check_ids(ids, vocab_size: int) -> None:
    if not isinstance(ids, torch.Tensor):
        raise TypeError(tr("ids_not_tensor", type_name=type(ids).__name__))
    if ids.dtype.is_floating_point or ids.dtype.is_complex or ids.dtype == torch.bool:
        raise TypeError(tr("ids_not_integer", dtype=ids.dtype))
    if ids.numel() == 0:
        return
    lo, hi = torch.aminmax(ids)
    if hi >= vocab_size:
        raise ValueError(tr("id_too_large", value=int(hi), vocab_size=vocab_size))
    if lo < 0:
        raise ValueError(tr("id_negative", value=int(lo), vocab_size=vocab_size))


# ----------------------------------------------------------------------------- the table


def sinusoidal_table(
    num_positions: int, d_model: int, base: float = 10000.0, dtype: torch.dtype = torch.float32
) -> torch.Tensor:
    r"""The sinusoidal positional-encoding table of Vaswani et al. (2017), section 3.5.

    .. math::
        PE_{(pos, 2i)} = \sin(pos / base^{2i/d_{model}}), \quad
        PE_{(pos, 2i+1)} = \cos(pos / base^{2i/d_{model}})

    Columns are 0-indexed and interleaved as in the paper: column ``2i`` is a sine and
    column ``2i + 1`` the cosine of the same angle. With an odd ``d_model`` the last
    column is a sine whose cosine partner would fall off the table.

    The angles are computed in float64 and only the result is cast to ``dtype``. That
    matters at large positions: in float32 the angle ``pos * 10000^(-2i/d)`` itself is
    rounded to ~1e-2 near position 100 000, so a float32 computation drifts by about
    1e-2 there, while this table stays within ~1e-7 (float32 rounding of a value in
    [-1, 1]) of the exact value at position 50 000 and beyond.

    Args:
        num_positions: number of rows, positions ``0 .. num_positions - 1``.
        d_model: number of columns, the model width.
        base: the wavelength scale; wavelengths run from 2π to ``base * 2π``.
        dtype: dtype of the returned table (built in float64 regardless).

    Shape:
        Output: ``(num_positions, d_model)``.

    Example::

        >>> pe = sinusoidal_table(50, 8)
        >>> pe.shape
        torch.Size([50, 8])
        >>> pe[0]  # position 0: every sine is 0, every cosine is 1
        tensor([0., 1., 0., 1., 0., 1., 0., 1.])
        >>> sinusoidal_table(3, 5)[:, -1]  # odd width: the last column is a sine
        tensor([0.0000, 0.0006, 0.0013])
    """
    num_positions = _positive_int("num_positions", num_positions)
    d_model = _positive_int("d_model", d_model)
    base = _positive_base(base)
    pos = torch.arange(num_positions, dtype=torch.float64)  # (n,)
    return _table_rows(pos, d_model, base).to(dtype)


def _table_rows(pos: torch.Tensor, d_model: int, base: float) -> torch.Tensor:
    """The rows of :func:`sinusoidal_table` at the float64 positions ``pos``, in float64.

    The arithmetic of the table itself, for any positions: ``course_lib.plots`` uses it
    to measure precision at position 100 000 without building a 400 MB table.
    """
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (ceil(d/2),)
    # pos / base^(2i / d_model), one angle per (position, frequency pair)
    angle = pos.unsqueeze(1) * base ** (-two_i / d_model)  # (n, ceil(d/2))
    table = torch.empty(len(pos), d_model, dtype=torch.float64)  # (n, d)
    table[:, 0::2] = torch.sin(angle)
    table[:, 1::2] = torch.cos(angle[:, : d_model // 2])  # odd d_model: one cosine fewer
    return table


# ----------------------------------------------------------------------------- modules


class TokenEmbedding(nn.Module):
    r"""A lookup table of token vectors, multiplied by :math:`\sqrt{d_{model}}` (section 3.4).

    The weights start as :math:`\mathcal{N}(0, 1/d_{model})`, as in fairseq, so a scaled
    token vector has unit size on average (RMS 1) -- comparable with the positional
    table, whose entries have RMS :math:`1/\sqrt{2}`. With ``nn.Embedding``'s default
    :math:`\mathcal{N}(0, 1)` the scaled vectors would be :math:`\sqrt{d_{model}}` (about
    23 at 512) times larger than the positions and drown them.

    Args:
        vocab_size: number of tokens in the vocabulary.
        d_model: size of each token vector.
        padding_idx: if given, this row starts at zero and receives no gradient, so
            padding adds nothing to the model input.

    Shape:
        - Input: ``(*)``, integer token ids in ``[0, vocab_size)``.
        - Output: ``(*, d_model)``, in the dtype of the weights.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> emb = TokenEmbedding(vocab_size=100, d_model=16, padding_idx=0)
        >>> emb
        TokenEmbedding(
          vocab_size=100, d_model=16, padding_idx=0
          (embedding): Embedding(100, 16, padding_idx=0)
        )
        >>> emb(torch.tensor([[5, 7, 0]])).shape
        torch.Size([1, 3, 16])
        >>> emb(torch.tensor([0])).abs().sum().item()  # the padding row is zero
        0.0
    """

    def __init__(self, vocab_size: int, d_model: int, padding_idx: int | None = None):
        super().__init__()
        self.vocab_size = _positive_int("vocab_size", vocab_size)
        self.d_model = _positive_int("d_model", d_model)
        if padding_idx is not None:
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, numbers.Integral):
                raise TypeError(tr("padding_idx_range", value=padding_idx, vocab_size=vocab_size))
            if not 0 <= padding_idx < vocab_size:
                raise ValueError(tr("padding_idx_range", value=padding_idx, vocab_size=vocab_size))
            padding_idx = int(padding_idx)
        self.padding_idx = padding_idx
        self.scale = math.sqrt(self.d_model)
        self.embedding = nn.Embedding(self.vocab_size, self.d_model, padding_idx=padding_idx)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        nn.init.normal_(self.embedding.weight, mean=0.0, std=self.d_model**-0.5)
        if self.padding_idx is not None:
            with torch.no_grad():
                self.embedding.weight[self.padding_idx].zero_()

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        _check_ids(ids, self.vocab_size)
        # the lookup returns a fresh tensor, so scaling it in place saves one pass over
        # memory; autograd allows it because the lookup's backward never reads its output
        return self.embedding(ids).mul_(self.scale)  # (*, d_model)

    def extra_repr(self) -> str:
        return f"vocab_size={self.vocab_size}, d_model={self.d_model}, padding_idx={self.padding_idx}"


class PositionalEncoding(nn.Module):
    r"""Adds the sinusoidal table to a batch of vectors, then applies dropout (section 3.5).

    The table is derived from ``d_model``, ``max_len`` and ``base``, so it is a buffer
    registered with ``persistent=False``: it follows ``.to(device)``, is never a
    parameter, gets no gradient and is not written into ``state_dict``. The output has
    the dtype and device of ``x`` (float16 in, float16 out).

    Args:
        d_model: width of the vectors.
        max_len: longest sequence the module accepts; a longer one is an error.
        base: wavelength scale of the sinusoids (10 000 in the paper).
        dropout: dropout probability applied to the sum (0.1 in the paper).

    Shape:
        - Input: ``(batch, seq, d_model)`` with ``seq <= max_len``.
        - Output: ``(batch, seq, d_model)``.

    Example::

        >>> pe = PositionalEncoding(d_model=8, max_len=100)
        >>> pe
        PositionalEncoding(
          d_model=8, max_len=100, base=10000.0, dropout=0.0
          (dropout): Dropout(p=0.0, inplace=False)
        )
        >>> pe(torch.zeros(2, 3, 8))[0, 1]  # zeros in: the table's row 1 out
        tensor([0.8415, 0.5403, 0.0998, 0.9950, 0.0100, 0.9999, 0.0010, 1.0000])
        >>> list(pe.state_dict())  # the table is derived, never saved
        []
    """

    pe: torch.Tensor

    def __init__(self, d_model: int, max_len: int = 5000, base: float = 10000.0, dropout: float = 0.0):
        super().__init__()
        self.d_model = _positive_int("d_model", d_model)
        self.max_len = _positive_int("max_len", max_len)
        self.base = _positive_base(base)
        self.dropout = nn.Dropout(_probability(dropout))
        self.register_buffer("pe", sinusoidal_table(self.max_len, self.d_model, self.base), persistent=False)

    def positions_for(self, x: torch.Tensor) -> torch.Tensor:
        """The first ``seq`` rows of the table in ``x``'s dtype, after checking ``x``."""
        if not isinstance(x, torch.Tensor):
            raise TypeError(tr("x_not_tensor", type_name=type(x).__name__))
        if not x.dtype.is_floating_point:
            raise TypeError(tr("x_not_float", dtype=x.dtype))
        if x.dim() != 3:
            raise ValueError(tr("x_bad_ndim", shape=tuple(x.shape)))
        if x.shape[-1] != self.d_model:
            raise ValueError(tr("last_dim", got=x.shape[-1], d_model=self.d_model))
        seq_len = x.shape[1]
        if seq_len > self.max_len:
            raise ValueError(tr("seq_too_long", seq_len=seq_len, max_len=self.max_len))
        return self.pe[:seq_len].to(dtype=x.dtype, device=x.device)  # (seq, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dropout(x + self.positions_for(x))  # (batch, seq, d_model)

    def extra_repr(self) -> str:
        return f"d_model={self.d_model}, max_len={self.max_len}, base={self.base}, dropout={self.dropout.p}"


class TransformerEmbedding(nn.Module):
    r"""Token ids to model input: ``dropout(token_embedding(ids) + PE[:seq])``.

    Args:
        vocab_size: number of tokens in the vocabulary.
        d_model: model width.
        max_len: longest sequence accepted.
        padding_idx: id of the padding token (0 in :class:`~course_lib.Vocab`), or None.
        dropout: dropout probability on the sum (0.1 in the paper).
        base: wavelength scale of the positional encoding.

    Shape:
        - Input: ``(batch, seq)`` integer token ids.
        - Output: ``(batch, seq, d_model)``.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> model = TransformerEmbedding(vocab_size=1000, d_model=32, max_len=64)
        >>> model(torch.tensor([[4, 8, 15, 16], [23, 42, 0, 0]])).shape
        torch.Size([2, 4, 32])
        >>> [name for name, _ in model.named_children()]
        ['token_embedding', 'positional_encoding']
    """

    def __init__(
        self,
        vocab_size: int,
        d_model: int,
        max_len: int = 5000,
        padding_idx: int | None = 0,
        dropout: float = 0.1,
        base: float = 10000.0,
    ):
        super().__init__()
        self.token_embedding = TokenEmbedding(vocab_size, d_model, padding_idx)
        self.positional_encoding = PositionalEncoding(d_model, max_len, base, dropout)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        if isinstance(ids, torch.Tensor) and ids.dim() != 2:
            raise ValueError(tr("ids_bad_ndim", shape=tuple(ids.shape)))
        x = self.token_embedding(ids)  # (batch, seq, d_model)
        # x is a fresh tensor of ours, so the positions go in place: one pass over
        # memory fewer than `x + pe`, which is most of the cost of this layer
        x += self.positional_encoding.positions_for(x)
        return self.positional_encoding.dropout(x)
