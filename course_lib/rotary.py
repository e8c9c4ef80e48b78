"""Positions inside attention: rotary embeddings (RoPE) and linear biases (ALiBi).

The input layer adds a position's vector to its token; these two act on attention instead,
so that a score depends on how far apart two tokens are, not on where they stand:

- RoPE (Su et al., "RoFormer: Enhanced Transformer with Rotary Position Embedding", 2021,
  https://arxiv.org/abs/2104.09864) rotates each pair of coordinates of a query or key at
  position ``p`` by the angle ``p * base^(-2i/head_dim)`` -- the angle of column pair
  ``i`` of the sinusoidal table (lesson 5). A rotation keeps lengths, and the dot product
  of two rotated vectors depends on the difference of their angles only: ``q_m . k_n``
  depends on ``m - n``.
- ALiBi (Press et al., "Train Short, Test Long: Attention with Linear Biases Enables Input
  Length Extrapolation", ICLR 2022, https://arxiv.org/abs/2108.12409) adds ``-m_h * |i - j|``
  to the score of query ``i`` and key ``j`` in head ``h``: no vectors at all.
"""

import torch

from . import validate
from .core import model as core
from .embedding import sinusoidal_table
from .messages import ROTARY as MESSAGES

__all__ = ["MESSAGES", "rotary_tables", "RotaryEmbedding", "alibi_slopes", "alibi_bias"]


# queries and keys of attention: one vector of head_dim numbers per batch row, head and position
LAYOUT = ("batch", "heads", "seq", "head_dim")


def rotary_tables(
    num_positions: int, head_dim: int, base: float = 10000.0, dtype: torch.dtype = torch.float64
) -> tuple[torch.Tensor, torch.Tensor]:
    r"""cos and sin of RoPE's angles :math:`p \cdot base^{-2i/head\_dim}`, one row per position ``p``.

    They are the columns of :func:`~course_lib.sinusoidal_table`: column ``2i`` of the
    sinusoidal table holds :math:`\sin(p \cdot base^{-2i/d})` and column ``2i + 1`` its
    cosine, so RoPE turns pair ``i`` by the very angle that the sinusoidal encoding writes
    down. Built in float64, as that table is, and cast to ``dtype`` at the end.

    Shape:
        Output: ``(cos, sin)``, each ``(num_positions, head_dim // 2)``.

    Example::

        >>> cos, sin = rotary_tables(3, 4)
        >>> sin[2]  # position 2: angles 2 and 2 / 100
        tensor([0.9093, 0.0200], dtype=torch.float64)
    """
    head_dim = validate.positive_int("head_dim", head_dim)
    if head_dim % 2:
        raise ValueError(MESSAGES("odd_head_dim", value=head_dim))
    dtype = validate.float_dtype(dtype)
    table = sinusoidal_table(num_positions, head_dim, base, dtype=torch.float64)  # (n, head_dim)
    cos, sin = table[:, 1::2], table[:, 0::2]  # (n, head_dim/2) each
    return cos.to(dtype).contiguous(), sin.to(dtype).contiguous()


class RotaryEmbedding(validate.CheckedModule):
    r"""Rotates queries and keys by their positions (RoPE), so that ``q_m . k_n`` depends on ``m - n`` only.

    Pair ``i`` of a vector at position ``p`` is turned by the angle
    :math:`p \cdot base^{-2i/head\_dim}`. Which coordinates form pair ``i`` is a layout,
    and a checkpoint fixes it:

    - ``interleaved=True`` (default): columns ``(2i, 2i + 1)``, the course's own layout (the
      sine and cosine of a frequency side by side in lesson 5's table), rotated as the
      complex number :math:`x_{2i} + j\,x_{2i+1}` times :math:`e^{j \cdot angle}`: the
      RoFormer paper's and Meta's original LLaMA ``apply_rotary_emb``.
    - ``interleaved=False``: columns ``(i, i + head_dim/2)``, the GPT-NeoX and Hugging Face
      ``rotate_half`` layout. The same rotations, with the columns permuted.

    The cos and sin tables are derived, so they are buffers with ``persistent=False``:
    never in ``state_dict``, rebuilt after ``to_empty`` off the meta device. They are built
    and kept in float64 (2 MiB for max_len 4096 and head_dim 64) and each call casts the rows it uses to
    the input's dtype: float32 stores numbers near 100 000 only in steps of 1/128, so there
    the angle ``p * base^(-2i/d)`` itself is rounded by up to about 4e-3 (lesson 6), while
    these tables stay within the input's rounding at any position. Outputs have the dtype and device of their inputs.

    Args:
        head_dim: width of one head's queries and keys; even.
        max_len: number of positions: every position must be below it.
        base: wavelength scale, > 1 (10 000 in RoFormer and LLaMA).
        interleaved: the pairing of columns, see above.

    Shape:
        - Input: ``q`` ``(batch, heads, seq, head_dim)``; ``k`` ``(batch, kv_heads, seq,
          head_dim)``, where ``kv_heads`` may differ from ``heads`` (grouped-query
          attention); ``positions`` (optional) integers ``(seq,)`` or ``(batch, seq)``,
          each in ``[0, max_len)``, default ``0 .. seq-1``.
        - Output: ``(q_rot, k_rot)``, the shapes and dtypes of ``q`` and ``k``.

    Example::

        >>> rope = RotaryEmbedding(head_dim=8, max_len=64)
        >>> rope
        RotaryEmbedding(head_dim=8, max_len=64, base=10000.0, interleaved=True)
        >>> q, k = torch.randn(1, 2, 5, 8), torch.randn(1, 2, 5, 8)
        >>> q_rot, k_rot = rope(q, k)
        >>> torch.allclose(q_rot.norm(dim=-1), q.norm(dim=-1))  # a rotation keeps lengths
        True
        >>> later_q, later_k = rope(q, k, positions=torch.arange(7, 12))  # every position + 7
        >>> torch.allclose(q_rot @ k_rot.mT, later_q @ later_k.mT, atol=1e-5)  # the same scores
        True
        >>> list(rope.state_dict())  # derived tables, never saved
        []
    """

    cos: torch.Tensor
    sin: torch.Tensor

    def __init__(self, head_dim: int, max_len: int = 4096, base: float = 10000.0, interleaved: bool = True):
        super().__init__()
        self.head_dim = validate.positive_int("head_dim", head_dim)
        self.max_len = validate.positive_int("max_len", max_len)
        self.base = validate.base(base)
        self.interleaved = validate.flag("interleaved", interleaved)
        cos, sin = rotary_tables(self.max_len, self.head_dim, self.base)  # (max_len, head_dim/2) each
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(
        self, q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        cos, sin = self.tables_for(q, k, positions)
        return self.rotate(q, cos, sin), self.rotate(k, cos, sin)

    def tables_for(
        self, q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """The cos and sin rows for ``q`` and ``k`` (float64 unless the module was cast), after checking all three.

        Returns ``(seq, head_dim/2)`` tables for the default or ``(seq,)`` positions and
        ``(batch, 1, seq, head_dim/2)`` for ``(batch, seq)`` positions (one angle for
        every head): either broadcasts against ``q`` and ``k``.
        """
        for name, x in (("q", q), ("k", k)):
            validate.float_tensor(name, x, LAYOUT)
            if x.shape[-1] != self.head_dim:
                raise ValueError(MESSAGES("last_dim", name=name, got=x.shape[-1], head_dim=self.head_dim))
        if (q.shape[0], q.shape[2]) != (k.shape[0], k.shape[2]):
            raise ValueError(MESSAGES("qk_mismatch", q_shape=tuple(q.shape), k_shape=tuple(k.shape)))
        seq = q.shape[2]
        if seq > self.max_len:
            raise ValueError(validate.MESSAGES("seq_too_long", seq_len=seq, max_len=self.max_len))
        if positions is None:
            return self.cos[:seq], self.sin[:seq]  # (seq, head_dim/2)
        positions = validate.positions(
            positions, tuple(q.shape), self.max_len, device=self.cos.device, seq_dim=2, name="q"
        )
        positions = positions.to(self.cos.device)
        cos, sin = self.cos[positions], self.sin[positions]  # (seq, head_dim/2) or (batch, seq, head_dim/2)
        if positions.dim() == 2:
            cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)  # (batch, 1, seq, head_dim/2)
        return cos, sin

    def rotate(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        """``x`` with each of its pairs turned by the angle whose cos and sin are given."""
        cos, sin = cos.to(dtype=x.dtype, device=x.device), sin.to(dtype=x.dtype, device=x.device)
        if self.interleaved and complex_view_fits(x):
            # the core's (x_2i + j x_2i+1) * e^(j angle): one complex multiply, a single pass over x
            return core.rotate_interleaved(x, cos, sin)  # (..., head_dim)
        # where x has no complex view, and in the rotate_half layout, the core's formula with fewer
        # passes over memory (tests/unit/test_core.py: equal to the core's):
        # (a, b) -> (a cos - b sin, b cos + a sin): every coordinate times cos, plus its partner
        # in the pair times -sin or +sin
        if self.interleaved:  # the partner of column 2i is 2i + 1, and back
            partner = x.unflatten(-1, (-1, 2)).flip(-1).flatten(-2)  # (..., head_dim)
            cos, sin = cos.repeat_interleave(2, dim=-1), torch.stack((-sin, sin), dim=-1).flatten(-2)
        else:  # the partner of column i is i + head_dim/2, and back
            first, second = x.chunk(2, dim=-1)
            partner = torch.cat((second, first), dim=-1)  # (..., head_dim)
            cos, sin = torch.cat((cos, cos), dim=-1), torch.cat((-sin, sin), dim=-1)
        # in place on fresh tensors; each product rounded, then the sum, as Hugging Face's
        # `q * cos + rotate_half(q) * sin` rounds them (their results are equal bit for bit)
        partner *= sin
        rotated = x * cos
        rotated += partner
        return rotated  # (..., head_dim)

    def _apply(self, fn, recurse=True):
        was_meta = self.cos.is_meta
        super()._apply(fn, recurse)
        if was_meta and not self.cos.is_meta:
            # to_empty() leaves the buffers uninitialised, and no state_dict fills them
            cos, sin = rotary_tables(self.max_len, self.head_dim, self.base, dtype=self.cos.dtype)
            self.cos, self.sin = cos.to(self.cos.device), sin.to(self.sin.device)
        return self

    def extra_repr(self) -> str:
        return f"head_dim={self.head_dim}, max_len={self.max_len}, base={self.base}, interleaved={self.interleaved}"


def complex_view_fits(x: torch.Tensor) -> bool:
    """Whether ``x``'s adjacent column pairs can be viewed as complex numbers without a copy.

    ``torch.view_as_complex`` needs float32 or float64 (its complex32 is experimental on
    the CPU, and bfloat16 has none), the columns next to each other in memory and every
    other stride, and the offset, even.
    """
    return (
        x.dtype in (torch.float32, torch.float64)
        and x.stride(-1) == 1
        and x.storage_offset() % 2 == 0
        and all(stride % 2 == 0 for stride in x.stride()[:-1])
    )


# ----------------------------------------------------------------------------- ALiBi


def alibi_slopes(num_heads: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    r"""ALiBi's slope :math:`s_h` for each head: a geometric sequence (Press et al., 2022, section 3).

    For :math:`H` heads, :math:`H` a power of two, the slopes start at :math:`2^{-8/H}` and that is
    also their ratio: :math:`s_h = 2^{-8h/H}`, ``h = 1 .. H`` (8 heads: 1/2, 1/4, ..., 1/256).
    For other head counts the paper's code (``get_slopes`` in
    https://github.com/ofirpress/attention_with_linear_biases) takes the slopes of the
    closest power of two below, ``H'``, then every other slope of ``2H'`` (its 1st, 3rd, ...)
    until there are ``H``. Exponents are exact in float64; the result is cast to ``dtype``.

    Shape:
        Output: ``(num_heads,)``.

    Example::

        >>> alibi_slopes(8)
        tensor([0.5000, 0.2500, 0.1250, 0.0625, 0.0312, 0.0156, 0.0078, 0.0039])
        >>> alibi_slopes(6)  # the 4 slopes of 4 heads, then the 1st and 3rd of 8 heads
        tensor([0.2500, 0.0625, 0.0156, 0.0039, 0.5000, 0.1250])
    """
    num_heads = validate.positive_int("num_heads", num_heads)
    dtype = validate.float_dtype(dtype)
    peak = 32 * num_heads  # the float64 steps below, at most four of them alive at once
    if peak > validate.MAX_PEAK_BYTES:
        need, limit = validate.gib(peak), validate.gib(validate.MAX_PEAK_BYTES)
        raise ValueError(MESSAGES("heads_too_many", value=num_heads, need=need, limit=limit))
    return core.alibi_slopes(num_heads).to(dtype)  # (num_heads,)


def alibi_bias(num_heads: int, seq_len: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    r"""The ALiBi bias added to the attention scores: ``bias[h, m, n] = -s_h * |m - n|``.

    For query ``m`` and key ``n``, on and below the diagonal (``n <= m``), this is the paper's
    causal bias :math:`s_h \cdot [-(m - n)]` (the paper writes the slope :math:`m`); above it a
    causal model masks the scores anyway, and :math:`|m - n|` is the symmetric form that
    bidirectional encoders use (MosaicBERT).
    Computed in float64 and cast to ``dtype``.

    Shape:
        Output: ``(num_heads, seq_len, seq_len)``: add it to scores ``(batch, num_heads,
        seq, seq)``.

    Example::

        >>> alibi_bias(2, 4)[0]  # head 0, slope 2^-4: a penalty growing with the distance
        tensor([[ 0.0000, -0.0625, -0.1250, -0.1875],
                [-0.0625,  0.0000, -0.0625, -0.1250],
                [-0.1250, -0.0625,  0.0000, -0.0625],
                [-0.1875, -0.1250, -0.0625,  0.0000]])
    """
    num_heads = validate.positive_int("num_heads", num_heads)
    seq_len = validate.positive_int("seq_len", seq_len)
    dtype = validate.float_dtype(dtype)
    entries = num_heads * seq_len * seq_len
    # the peak below: the float64 distances and bias, and the bias cast to dtype, all at once
    cast = 0 if dtype == torch.float64 else dtype.itemsize
    peak = 8 * seq_len * seq_len + (8 + cast) * entries
    if peak > validate.MAX_PEAK_BYTES:
        raise ValueError(
            MESSAGES(
                "bias_too_large",
                heads=num_heads,
                seq=seq_len,
                entries=validate.thousands(entries),
                need=validate.gib(peak),
                limit=validate.gib(validate.MAX_PEAK_BYTES),
            )
        )
    # core.alibi_bias's formula, computed in place to keep the peak above (tests/unit/test_core.py:
    # equal to it bit for bit)
    slopes = core.alibi_slopes(num_heads)  # (heads,)
    pos = torch.arange(seq_len, dtype=torch.float64)  # (seq,)
    distance = (pos.unsqueeze(1) - pos).abs_()  # (seq, seq): |m - n|
    bias = distance * -slopes[:, None, None]  # (heads, seq, seq): -s_h |m - n|
    bias += 0.0  # in place, as the rest: -0 (on the diagonal) becomes +0
    return bias.to(dtype)  # (heads, seq, seq)
