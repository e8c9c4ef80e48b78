"""The input layer of a Transformer: token embeddings and sinusoidal positional encodings.

Implements section 3.4 (embeddings scaled by sqrt(d_model)) and section 3.5 (sinusoidal
positional encoding) of Vaswani et al., "Attention Is All You Need", 2017,
https://arxiv.org/abs/1706.03762.

The maths is the reference core's (:mod:`course_lib.core.model`, to read without the
checks); the functions and modules here check their input at the boundary and say, in the
student's language, what was wrong with it.
"""

import math

import torch
from torch import nn

from . import validate
from .core import model as core
from .positions import LearnedPositionalEmbedding, NoPositionalEncoding

__all__ = [
    "sinusoidal_table",
    "sinusoidal_rows",
    "TokenEmbedding",
    "PositionalEncoding",
    "TransformerEmbedding",
]


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
    column is a sine whose cosine partner would fall off the table. (tensor2tensor,
    fairseq and Hugging Face's Marian put all sines first, ``[sin | cos]``: another
    convention, which a checkpoint fixes; this table cannot load theirs unchanged.)

    The angles are computed in float64 and only the result is cast to ``dtype``. That
    matters at large positions: in float32 the angle ``pos * base^(-2i/d)`` itself is
    rounded, by up to ~4e-3 near position 100 000, so a float32 computation drifts by
    about 5e-3 there, while this table stays within float32 rounding of a value in
    [-1, 1] (~6e-8) at any position.

    Args:
        num_positions: number of rows, positions ``0 .. num_positions - 1``.
        d_model: number of columns, the model width.
        base: the wavelength scale, > 1; wavelengths run from 2π to ``base * 2π``.
        dtype: floating-point dtype of the returned table (built in float64 regardless).

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
    num_positions = validate.positive_int("num_positions", num_positions)
    d_model = validate.positive_int("d_model", d_model)
    base = validate.base(base)
    dtype = validate.float_dtype(dtype)
    # the peak below: the float64 table, its angles and their sines (8 + 4 + 4 bytes an entry)
    validate.table_size(num_positions, d_model, num_positions * (8 * d_model + 16 * ((d_model + 1) // 2)))
    pos = torch.arange(num_positions, dtype=torch.float64)  # (n,)
    return sinusoidal_rows(pos, d_model, base).to(dtype)


def sinusoidal_rows(pos: torch.Tensor, d_model: int, base: float = 10000.0) -> torch.Tensor:
    """The rows of :func:`sinusoidal_table` at any positions ``pos``, in float64.

    The arithmetic of the table itself, without building the rows in between: the
    precision figure measures position 100 000 this way, not with a 400 MB table.

    Args:
        pos: a 1-d tensor of positions (any real numbers; converted to float64).

    Shape:
        Input: ``(n,)``. Output: ``(n, d_model)``, float64.

    Example::

        >>> sinusoidal_rows(torch.tensor([100_000]), 4)
        tensor([[ 0.0357, -0.9994,  0.8269,  0.5624]], dtype=torch.float64)
    """
    d_model = validate.positive_int("d_model", d_model)
    base = validate.base(base)
    return core.sinusoidal_rows(pos, d_model, base)  # (n, d_model), float64


# ----------------------------------------------------------------------------- modules


class TokenEmbedding(validate.CheckedModule):
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

    The table, ``vocab_size × d_model`` values of the default dtype, may take at most
    ``validate.MAX_PEAK_BYTES`` (8 GiB): a larger one is refused with a ``ValueError`` that names
    both sizes and the memory it would take, before torch tries to allocate it.

    Shape:
        - Input: ``(*)``, integer token ids in ``[0, vocab_size)`` (any integer dtype).
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
        self.vocab_size = validate.positive_int("vocab_size", vocab_size)
        self.d_model = validate.positive_int("d_model", d_model)
        self.padding_idx = validate.padding_idx(padding_idx, self.vocab_size)
        validate.token_table_size(self.vocab_size, self.d_model)  # before torch allocates it
        self.scale = math.sqrt(self.d_model)
        self.embedding = nn.Embedding(self.vocab_size, self.d_model, padding_idx=self.padding_idx)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        nn.init.normal_(self.embedding.weight, mean=0.0, std=self.d_model**-0.5)
        if self.padding_idx is not None:
            with torch.no_grad():
                self.embedding.weight[self.padding_idx].zero_()

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        ids = validate.token_ids(ids, self.vocab_size, self.embedding.weight)
        # the lookup returns a fresh tensor, so scaling it in place saves one pass over
        # memory; autograd allows it because the lookup's backward never reads its output
        return self.embedding(ids).mul_(self.scale)  # (*, d_model)

    def extra_repr(self) -> str:
        return f"vocab_size={self.vocab_size}, d_model={self.d_model}, padding_idx={self.padding_idx}"


class PositionalEncoding(validate.CheckedModule):
    r"""Adds the sinusoidal table to a batch of vectors, then applies dropout (section 3.5).

    The table is derived from ``d_model``, ``max_len`` and ``base``, so it is a buffer
    registered with ``persistent=False``: it follows ``.to(device)``, is never a
    parameter, gets no gradient and is not written into ``state_dict``. The output has
    the dtype and device of ``x`` (float16 in, float16 out).

    ``positions`` says which row each vector gets. By default the vectors are positions
    ``0 .. seq-1``, which is right for a whole sequence but wrong in two common cases:
    a model that generates one token at a time with a cache (the new token at step t
    needs row t, not row 0) and left-padded batches (each row's first real token is
    position 0). Pass the positions explicitly there.

    The module is made for eager mode and ``torch.compile``. ``torch.jit.script`` is not
    supported: the input checks, which speak the student's language, are plain Python
    (TorchScript is in maintenance mode; ``torch.compile`` and ``torch.export`` replace it).
    Built on the ``meta`` device and materialised with ``to_empty``, the table is rebuilt,
    since no checkpoint holds it.

    Args:
        d_model: width of the vectors.
        max_len: number of rows of the table: every position must be below it.
        base: wavelength scale of the sinusoids (10 000 in the paper), > 1.
        dropout: dropout probability applied to the sum (0.1 in the paper).

    Shape:
        - Input: ``x`` ``(batch, seq, d_model)`` with ``seq <= max_len``; ``positions``
          (optional) integers ``(seq,)`` or ``(batch, seq)``, each in ``[0, max_len)``.
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
        >>> new_token = torch.zeros(1, 1, 8)  # the token at position 5 of a generated text
        >>> torch.equal(pe(new_token, positions=torch.tensor([5]))[0, 0], pe.pe[5])
        True
        >>> list(pe.state_dict())  # the table is derived, never saved
        []
    """

    pe: torch.Tensor

    def __init__(self, d_model: int, max_len: int = 5000, base: float = 10000.0, dropout: float = 0.0):
        super().__init__()
        self.d_model = validate.positive_int("d_model", d_model)
        self.max_len = validate.positive_int("max_len", max_len)
        self.base = validate.base(base)
        self.dropout = nn.Dropout(validate.probability(dropout))
        self.register_buffer("pe", sinusoidal_table(self.max_len, self.d_model, self.base), persistent=False)

    def positions_for(self, x: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        """The table's rows for ``x``, in ``x``'s dtype, after checking both.

        Returns ``(seq, d_model)`` for the default or ``(seq,)`` positions, and
        ``(batch, seq, d_model)`` for ``(batch, seq)`` positions: either adds to ``x``.
        """
        validate.vectors(x, self.d_model, self.max_len)
        if positions is None:
            rows = self.pe[: x.shape[1]]  # (seq, d_model)
        else:
            positions = validate.positions(positions, tuple(x.shape), self.max_len, device=self.pe.device)
            rows = self.pe[positions.to(self.pe.device)]  # (seq, d_model) or (batch, seq, d_model)
        return rows.to(dtype=x.dtype, device=x.device)

    def forward(self, x: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        return self.dropout(x + self.positions_for(x, positions))  # (batch, seq, d_model)

    def add_to_(self, x: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        """:meth:`forward` with the rows added to ``x`` in place: for a fresh ``x`` that no one else holds.

        One pass over memory fewer than ``x + pe``, which is most of the cost of the input
        layer; autograd allows it because the token lookup's backward never reads its output.
        """
        x += self.positions_for(x, positions)
        return self.dropout(x)

    def _apply(self, fn, recurse=True):
        was_meta = self.pe.is_meta
        super()._apply(fn, recurse)
        if was_meta and not self.pe.is_meta:
            # to_empty() off the meta device leaves the buffer uninitialised, and no
            # state_dict will fill it: the table is derived, so build it again
            table = sinusoidal_table(self.max_len, self.d_model, self.base, dtype=self.pe.dtype)
            self.pe = table.to(self.pe.device)
        return self

    def extra_repr(self) -> str:
        return f"d_model={self.d_model}, max_len={self.max_len}, base={self.base}, dropout={self.dropout.p}"


class TransformerEmbedding(validate.CheckedModule):
    r"""Token ids to model input: ``dropout(token_embedding(ids) + P[positions])``.

    ``positional`` chooses ``P``, the submodule ``positional_encoding``:

    - ``"sinusoidal"`` (default): the paper's table, :class:`PositionalEncoding`.
    - ``"learned"``: a trained table, :class:`~course_lib.positions.LearnedPositionalEmbedding`.
    - ``"none"``: nothing added, :class:`~course_lib.positions.NoPositionalEncoding`.

    Every choice checks the input the same way. (RoPE and ALiBi act inside attention, on
    queries, keys and scores, not here: see :mod:`course_lib.rotary`.)

    Args:
        vocab_size: number of tokens in the vocabulary.
        d_model: model width.
        max_len: number of positions: every position must be below it.
        padding_idx: id of the padding token (0 in :class:`~course_lib.Vocab`), or None.
        dropout: dropout probability on the sum (0.1 in the paper).
        base: wavelength scale of the sinusoidal encoding (checked whatever the choice).
        positional: ``"sinusoidal"``, ``"learned"`` or ``"none"``.

    Shape:
        - Input: ``ids`` ``(batch, seq)`` integer token ids; ``positions`` (optional)
          integers ``(seq,)`` or ``(batch, seq)``, default ``0 .. seq-1`` (see
          :class:`PositionalEncoding` for when to pass them).
        - Output: ``(batch, seq, d_model)``.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> model = TransformerEmbedding(vocab_size=1000, d_model=32, max_len=64).eval()
        >>> ids = torch.tensor([[4, 8, 15, 16], [23, 42, 0, 0]])
        >>> model(ids).shape
        torch.Size([2, 4, 32])
        >>> torch.equal(model(ids[:, 2:3], positions=torch.tensor([2])), model(ids)[:, 2:3])
        True
        >>> [name for name, _ in model.named_children()]
        ['token_embedding', 'positional_encoding']
        >>> list(TransformerEmbedding(1000, 32, positional="learned").state_dict())
        ['token_embedding.embedding.weight', 'positional_encoding.weight']
    """

    POSITIONAL = ("sinusoidal", "learned", "none")

    def __init__(
        self,
        vocab_size: int,
        d_model: int,
        max_len: int = 5000,
        padding_idx: int | None = 0,
        dropout: float = 0.1,
        base: float = 10000.0,
        positional: str = "sinusoidal",
    ):
        super().__init__()
        self.positional = validate.choice("positional", positional, self.POSITIONAL)
        self.token_embedding = TokenEmbedding(vocab_size, d_model, padding_idx)
        d_model = self.token_embedding.d_model
        base = validate.base(base)  # whichever the choice: a bad value must not wait for a switch
        build = {
            "sinusoidal": lambda: PositionalEncoding(d_model, max_len, base, dropout),
            "learned": lambda: LearnedPositionalEmbedding(max_len, d_model, dropout),
            "none": lambda: NoPositionalEncoding(d_model, max_len, dropout),
        }
        self.positional_encoding = build[self.positional]()

    def forward(self, ids: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        if isinstance(ids, torch.Tensor):
            validate.dense("ids", ids)
        if isinstance(ids, torch.Tensor) and ids.dim() != 2:
            raise ValueError(validate.MESSAGES("ids_bad_ndim", shape=tuple(ids.shape)))
        x = self.token_embedding(ids)  # (batch, seq, d_model), a fresh tensor of ours
        return self.positional_encoding.add_to_(x, positions)  # (batch, seq, d_model)
