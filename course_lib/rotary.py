"""Positions inside attention: rotary embeddings (RoPE) and linear biases (ALiBi).

The input layer adds a position's vector to its token; these two act on attention instead,
so that a score depends on how far apart two tokens are, not on where they stand:

- RoPE (Su et al., "RoFormer: Enhanced Transformer with Rotary Position Embedding", 2021,
  https://arxiv.org/abs/2104.09864) rotates each pair of coordinates of a query or key at
  position ``p`` by the angle ``p * base^(-2i/head_dim)`` -- the angle of column pair
  ``i`` of the sinusoidal table (lesson 5). A rotation keeps lengths, and the dot product
  of two rotated vectors depends on the difference of their angles only: ``q_m . k_n``
  depends on ``m - n``. For contexts longer than the training length, ``rope_scaling`` takes a
  Hugging Face dict as a model's ``config.json`` writes it ("linear", "dynamic", "yarn", "llama3"):
  the frequencies of :func:`rope_frequencies`, equal to transformers' own (tests/unit/test_rope_scaling.py).
- ALiBi (Press et al., "Train Short, Test Long: Attention with Linear Biases Enables Input
  Length Extrapolation", ICLR 2022, https://arxiv.org/abs/2108.12409) adds ``-m_h * |i - j|``
  to the score of query ``i`` and key ``j`` in head ``h``: no vectors at all.
"""

import math
from collections.abc import Mapping
from typing import NamedTuple

import torch

from . import validate
from .core import model as core
from .embedding import sinusoidal_table
from .messages import ROTARY as MESSAGES

__all__ = [
    "MESSAGES",
    "SCALING_KEYS",
    "Published",
    "PUBLISHED",
    "check_rope_scaling",
    "rope_frequencies",
    "rotary_tables",
    "RotaryEmbedding",
    "alibi_slopes",
    "alibi_bias",
]


# queries and keys of attention: one vector of head_dim numbers per batch row, head and position
LAYOUT = ("batch", "heads", "seq", "head_dim")

# Hugging Face's rope_scaling methods: (required keys, optional keys) besides rope_type (or the
# older type) and rope_theta. "dynamic" takes original_max_position_embeddings too: transformers
# reads it from config.json's max_position_embeddings, and it copies that value into the dict
# for "yarn" and "llama3" when a config lacks it.
SCALING_KEYS = {
    "default": ((), ()),
    "linear": (("factor",), ()),
    "dynamic": (("factor", "original_max_position_embeddings"), ()),
    "yarn": (
        ("factor", "original_max_position_embeddings"),
        ("beta_fast", "beta_slow", "mscale", "mscale_all_dim", "attention_factor", "truncate"),
    ),
    "llama3": (("factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"), ()),
}


class Published(NamedTuple):
    """What RoPE reads from a published model's config.json: its head width, ``rope_theta`` and ``rope_scaling``,
    and the context the model serves (``max_position_embeddings``, or its model card's longer one)."""

    head_dim: int  # hidden_size / num_attention_heads (DeepSeek: qk_rope_head_dim, the rotated part)
    base: float  # rope_theta
    rope_scaling: dict | None
    context: int


#: published configs, one copy for the tests (equal to transformers), the explorer's presets and lesson 9
PUBLISHED = {
    # Llama 2 7B: head_dim 4096 / 32 heads, rope_theta 10 000, 4 096 positions, no scaling
    "Llama 2 7B": Published(128, 10000.0, None, 4096),
    # Llama 2 7B with the rope_scaling examples of transformers' Llama documentation, for twice its length
    "Llama 2 linear": Published(128, 10000.0, {"type": "linear", "factor": 2.0}, 8192),
    "Llama 2 dynamic": Published(
        128, 10000.0, {"type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 4096}, 8192
    ),
    # Llama 3.1 8B: hidden_size 4096 / 32 heads, max_position_embeddings 131 072
    "Llama 3.1 8B": Published(
        128,
        500000.0,
        {
            "factor": 8.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8192,
            "rope_type": "llama3",
        },
        131072,
    ),
    # Qwen2-7B-Instruct: hidden_size 3584 / 28 heads, rope_theta 1 000 000, 32 768 positions, rope_scaling null
    "Qwen2 7B": Published(128, 1000000.0, None, 32768),
    # Qwen2.5-7B-Instruct's model card: add this to config.json for contexts up to 131 072 tokens
    "Qwen2.5 YaRN": Published(
        128, 1000000.0, {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}, 131072
    ),
    # DeepSeek-V3: qk_rope_head_dim 64, max_position_embeddings 163 840
    "DeepSeek-V3": Published(
        64,
        10000.0,
        {
            "beta_fast": 32,
            "beta_slow": 1,
            "factor": 40,
            "mscale": 1.0,
            "mscale_all_dim": 1.0,
            "original_max_position_embeddings": 4096,
            "type": "yarn",
        },
        163840,
    ),
}


POSITIVE_KEYS = (
    "factor",
    "low_freq_factor",
    "high_freq_factor",
    "beta_fast",
    "beta_slow",
    "mscale",
    "mscale_all_dim",
    "attention_factor",
)
MEANING = {  # what a missing key is, in the message that asks for it
    "factor": "scaling_meaning_factor",
    "original_max_position_embeddings": "scaling_meaning_original",
    "low_freq_factor": "scaling_meaning_freq",
    "high_freq_factor": "scaling_meaning_freq",
}


def check_rope_scaling(rope_scaling, head_dim: int, base: float) -> dict | None:
    """A copy of Hugging Face's ``rope_scaling`` dict after checking its method, keys and values; None stays None.

    Example::

        >>> check_rope_scaling({"type": "linear", "factor": 4}, head_dim=64, base=10000.0)
        {'type': 'linear', 'factor': 4}
        >>> check_rope_scaling({"rope_type": "linear"}, head_dim=64, base=10000.0)
        Traceback (most recent call last):
        ...
        ValueError: rope_scaling of rope_type 'linear' needs the key 'factor' (how many times longer than the training length the context becomes)
    """
    if rope_scaling is None:
        return None
    if not isinstance(rope_scaling, Mapping):
        raise TypeError(MESSAGES("scaling_not_dict", value=rope_scaling))
    scaling = dict(rope_scaling)
    method = core.rope_type(scaling)
    if "rope_type" in scaling and "type" in scaling and scaling["rope_type"] != scaling["type"]:
        raise ValueError(MESSAGES("scaling_type_conflict", value=scaling["rope_type"], older=scaling["type"]))
    if not isinstance(method, str) or method not in SCALING_KEYS:
        allowed = ", ".join(map(repr, SCALING_KEYS))
        raise ValueError(MESSAGES("scaling_unknown_type", allowed=allowed, value=method))
    required, optional = SCALING_KEYS[method]
    allowed = ("rope_type", "type", "rope_theta", *required, *optional)
    for key in scaling:
        if key not in allowed:
            raise ValueError(
                MESSAGES(
                    "scaling_unknown_key", rope_type=method, key=key, allowed=", ".join(map(repr, allowed))
                )
            )
    for key in required:
        if key not in scaling:
            raise ValueError(
                MESSAGES("scaling_missing_key", rope_type=method, key=key, meaning=MESSAGES(MEANING[key]))
            )
    if "rope_theta" in scaling and as_float(scaling["rope_theta"]) != base:
        raise ValueError(MESSAGES("scaling_theta", value=scaling["rope_theta"], base=base))
    for key in POSITIVE_KEYS:
        value = scaling.get(key, 1)
        if not as_float(value) > 0:  # NaN and None are not
            raise ValueError(MESSAGES("scaling_not_positive", key=key, value=value))
    if "original_max_position_embeddings" in scaling:
        value = scaling["original_max_position_embeddings"]
        if not validate.is_integer(value) or value <= 0:
            raise ValueError(MESSAGES("scaling_original_len", value=value))
        scaling["original_max_position_embeddings"] = int(value)
    if "truncate" in scaling:
        validate.flag("truncate", scaling["truncate"])
    if method == "llama3" and not scaling["low_freq_factor"] < scaling["high_freq_factor"]:
        low, high = scaling["low_freq_factor"], scaling["high_freq_factor"]
        raise ValueError(MESSAGES("scaling_freq_order", low=low, high=high))
    if method == "yarn" and not scaling.get("beta_fast", 32) > scaling.get("beta_slow", 1):
        fast, slow = scaling.get("beta_fast", 32), scaling.get("beta_slow", 1)
        raise ValueError(MESSAGES("scaling_beta_order", fast=fast, slow=slow))
    if method == "dynamic" and head_dim < 4:
        raise ValueError(MESSAGES("scaling_dynamic_head_dim", value=head_dim))
    return scaling


def as_float(value) -> float:
    """A real number as a finite float, anything else (and an int too large for a float) as NaN."""
    try:
        value = float(value) if validate.is_real(value) else math.nan
    except OverflowError:
        return math.nan
    return value if math.isfinite(value) else math.nan


def rope_frequencies(
    head_dim: int, base: float = 10000.0, rope_scaling: dict | None = None, seq_len: int | None = None
) -> tuple[torch.Tensor, float]:
    r"""RoPE's angle per position for each pair, its frequency :math:`\omega_i`, after Hugging Face's ``rope_scaling``.

    In lesson 0's notation: :math:`\theta` is the base, :math:`\omega_i = \theta^{-2i/head\_dim}`
    the frequency, :math:`\kappa` the ``factor``. Without scaling, pair ``i`` turns by
    :math:`p\,\omega_i` at position ``p``, one turn every :math:`2\pi/\omega_i` positions (its
    wavelength). Past the training length ``L`` (``original_max_position_embeddings``) the slow
    pairs would reach angles never seen in training, and each method changes :math:`\omega_i`
    with ``factor`` :math:`\kappa`:

    - ``"linear"``, position interpolation (Chen et al. 2023, https://arxiv.org/abs/2306.15595):
      every :math:`\omega_i / \kappa`, as if position ``p`` were :math:`p/\kappa`.
    - ``"dynamic"``, NTK-aware (bloc97, reddit r/LocalLLaMA, 2023), as transformers makes it
      dynamic: the base becomes :math:`\theta\cdot\kappa_\ell^{d/(d-2)}` (:math:`d` = ``head_dim``) with
      :math:`\kappa_\ell = \kappa\,\ell/L - (\kappa - 1)` for the current length :math:`\ell = ` ``seq_len`` > ``L``, and
      stays :math:`\theta` up to ``L``. The fastest pair keeps its frequency, the slowest is divided by
      :math:`\kappa_\ell`.
    - ``"yarn"`` (Peng et al. 2023, https://arxiv.org/abs/2309.00071): the pairs that make more than
      ``beta_fast`` (32) turns within ``L`` keep :math:`\omega_i`, those making fewer than
      ``beta_slow`` (1) get :math:`\omega_i / \kappa`, a ramp between (linear in ``i``, as the authors'
      code); cos and sin are multiplied by the attention factor :math:`0.1 \ln \kappa + 1` (or
      ``attention_factor``, or DeepSeek's ratio of two such factors with ``mscale`` and ``mscale_all_dim``).
    - ``"llama3"`` (Meta's ``apply_scaling``): wavelengths above :math:`L/low\_freq\_factor` get
      :math:`\omega_i / \kappa`, below :math:`L/high\_freq\_factor` keep :math:`\omega_i`, and between
      the two a mix, smooth in :math:`L/wavelength`.

    Computed in float64 (transformers computes in float32: the two agree to float32's rounding).

    Args:
        head_dim: width of one head's queries and keys; even.
        base: the base :math:`\theta`, > 1 (config.json's ``rope_theta``).
        rope_scaling: None, or the dict of config.json's ``rope_scaling``, such as Llama 3.1's
            ``{"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8192}``; ``type`` is read as ``rope_type``.
        seq_len: the current sequence length, which ``"dynamic"`` reads; None means ``L``.

    Returns:
        ``(omega, attention_factor)``: ``omega`` float64 ``(head_dim // 2,)`` and a float, 1.0 but for YaRN.

    Example::

        >>> omega, _ = rope_frequencies(8)
        >>> omega
        tensor([1.0000, 0.1000, 0.0100, 0.0010], dtype=torch.float64)
        >>> rope_frequencies(8, rope_scaling={"rope_type": "linear", "factor": 4.0})[0]
        tensor([0.2500, 0.0250, 0.0025, 0.0003], dtype=torch.float64)
        >>> llama3 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
        ...           "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}
        >>> omega, _ = rope_frequencies(128, 500000.0, llama3)
        >>> (omega / rope_frequencies(128, 500000.0)[0])[[0, 29, 32, 35, 63]]  # fast pairs kept, slow ones / 8
        tensor([1.0000, 0.8282, 0.3711, 0.1250, 0.1250], dtype=torch.float64)
        >>> yarn = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
        >>> round(rope_frequencies(128, 1000000.0, yarn)[1], 4)  # Qwen2.5's: 0.1 ln 4 + 1
        1.1386
    """
    head_dim = validate.positive_int("head_dim", head_dim)
    if head_dim % 2:
        raise ValueError(MESSAGES("odd_head_dim", value=head_dim))
    base = validate.base(base)
    rope_scaling = check_rope_scaling(rope_scaling, head_dim, base)
    if seq_len is not None:
        seq_len = validate.positive_int("seq_len", seq_len)
    theta, attention_factor = core.rope_frequencies(head_dim, base, rope_scaling, seq_len)
    return theta, float(attention_factor)


def rotary_tables(
    num_positions: int,
    head_dim: int,
    base: float = 10000.0,
    dtype: torch.dtype = torch.float64,
    rope_scaling: dict | None = None,
    seq_len: int | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    r"""cos and sin of RoPE's angles :math:`p \cdot base^{-2i/head\_dim}`, one row per position ``p``.

    They are the columns of :func:`~course_lib.sinusoidal_table`: column ``2i`` of the
    sinusoidal table holds :math:`\sin(p \cdot base^{-2i/d})` and column ``2i + 1`` its
    cosine, so RoPE turns pair ``i`` by the very angle that the sinusoidal encoding writes
    down. Built in float64, as that table is, and cast to ``dtype`` at the end.

    With ``rope_scaling`` (a Hugging Face dict, see :func:`rope_frequencies`) the angles are
    :math:`p\,\theta_i` with the scaled frequencies, ``seq_len`` the current length for
    ``"dynamic"``, and both tables are multiplied by YaRN's attention factor, as transformers'
    ``LlamaRotaryEmbedding`` multiplies its own.

    Shape:
        Output: ``(cos, sin)``, each ``(num_positions, head_dim // 2)``.

    Example::

        >>> cos, sin = rotary_tables(3, 4)
        >>> sin[2]  # position 2: angles 2 and 2 / 100
        tensor([0.9093, 0.0200], dtype=torch.float64)
        >>> sin = rotary_tables(3, 4, rope_scaling={"rope_type": "linear", "factor": 2.0})[1]
        >>> sin[2]  # position 2 squeezed to 1: angles 1 and 1 / 100
        tensor([0.8415, 0.0100], dtype=torch.float64)
    """
    num_positions = validate.positive_int("num_positions", num_positions)
    head_dim = validate.positive_int("head_dim", head_dim)
    if head_dim % 2:
        raise ValueError(MESSAGES("odd_head_dim", value=head_dim))
    base = validate.base(base)
    dtype = validate.float_dtype(dtype)
    rope_scaling = check_rope_scaling(rope_scaling, head_dim, base)
    if seq_len is not None:
        seq_len = validate.positive_int("seq_len", seq_len)
    if rope_scaling is None:
        table = sinusoidal_table(num_positions, head_dim, base, dtype=torch.float64)  # (n, head_dim)
        cos, sin = table[:, 1::2], table[:, 0::2]  # (n, head_dim/2) each
        return cos.to(dtype).contiguous(), sin.to(dtype).contiguous()
    # the peak below: the float64 angles, cos and sin, and one of them times the attention factor
    validate.table_size(num_positions, head_dim, 16 * num_positions * head_dim)
    cos, sin = core.rotary_tables(
        num_positions, head_dim, base, rope_scaling, seq_len
    )  # (n, head_dim/2) each
    return cos.to(dtype), sin.to(dtype)


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

    Contexts longer than the training length: ``rope_scaling`` takes the dict of a model's
    ``config.json`` (``"linear"``, ``"dynamic"``, ``"yarn"``, ``"llama3"``; see
    :func:`rope_frequencies`), and the tables use its frequencies, times YaRN's attention
    factor (``attention_factor``, 1.0 for the others), as transformers does. ``"dynamic"`` reads
    the length of each call: up to ``original_max_position_embeddings`` (which this dict needs:
    config.json's ``max_position_embeddings``) the tables are RoPE's own; past it, each call
    recomputes them from its length, ``max(positions) + 1``. (transformers keeps the frequencies
    of the longest length seen until a call shorter than the training length; this module keeps
    none.)

    Args:
        head_dim: width of one head's queries and keys; even.
        max_len: number of positions: every position must be below it.
        base: wavelength scale, > 1 (10 000 in RoFormer and LLaMA; config.json's ``rope_theta``).
        interleaved: the pairing of columns, see above.
        rope_scaling: None, or Hugging Face's ``rope_scaling`` dict, such as
            ``{"rope_type": "linear", "factor": 4.0}``.

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
        >>> yarn = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32}
        >>> long = RotaryEmbedding(head_dim=8, max_len=128, rope_scaling=yarn)
        >>> long
        RotaryEmbedding(head_dim=8, max_len=128, base=10000.0, interleaved=True, rope_scaling={'rope_type': 'yarn', 'factor': 4.0, 'original_max_position_embeddings': 32})
        >>> round(long.attention_factor, 4)  # q and k 1.1386 times longer: 0.1 ln 4 + 1
        1.1386
    """

    cos: torch.Tensor
    sin: torch.Tensor

    def __init__(
        self,
        head_dim: int,
        max_len: int = 4096,
        base: float = 10000.0,
        interleaved: bool = True,
        rope_scaling: dict | None = None,
    ):
        super().__init__()
        self.head_dim = validate.positive_int("head_dim", head_dim)
        self.max_len = validate.positive_int("max_len", max_len)
        self.base = validate.base(base)
        self.interleaved = validate.flag("interleaved", interleaved)
        if self.head_dim % 2:
            raise ValueError(MESSAGES("odd_head_dim", value=self.head_dim))
        self.rope_scaling = check_rope_scaling(rope_scaling, self.head_dim, self.base)
        # YaRN's factor on cos and sin (1.0 for the other methods); "dynamic" from this length on
        self.attention_factor = core.rope_frequencies(self.head_dim, self.base, self.rope_scaling)[1]
        self.dynamic_from = (
            self.rope_scaling["original_max_position_embeddings"]
            if core.rope_type(self.rope_scaling) == "dynamic"
            else None
        )
        cos, sin = rotary_tables(
            self.max_len, self.head_dim, self.base, rope_scaling=self.rope_scaling
        )  # (max_len, head_dim/2) each
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
            cos, sin = self.dynamic_tables(seq) if self.dynamic_from else (self.cos, self.sin)
            return cos[:seq], sin[:seq]  # (seq, head_dim/2)
        positions = validate.positions(
            positions, tuple(q.shape), self.max_len, device=self.cos.device, seq_dim=2, name="q"
        )
        positions = positions.to(self.cos.device)
        cos, sin = self.cos, self.sin  # (max_len, head_dim/2) each
        if self.dynamic_from and positions.numel():  # the longest row decides, as in transformers
            cos, sin = self.dynamic_tables(int(positions.max()) + 1)
        cos, sin = cos[positions], sin[positions]  # (seq, head_dim/2) or (batch, seq, head_dim/2)
        if positions.dim() == 2:
            cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)  # (batch, 1, seq, head_dim/2)
        return cos, sin

    def dynamic_tables(self, length: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Dynamic NTK's tables for a sequence of ``length`` positions: the buffers up to the training length."""
        if length <= self.dynamic_from:
            return self.cos, self.sin  # (max_len, head_dim/2) each
        cos, sin = core.rotary_tables(length, self.head_dim, self.base, self.rope_scaling, length)
        return cos.to(self.cos), sin.to(self.sin)  # (length, head_dim/2) each

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
            cos, sin = rotary_tables(
                self.max_len, self.head_dim, self.base, dtype=self.cos.dtype, rope_scaling=self.rope_scaling
            )
            self.cos, self.sin = cos.to(self.cos.device), sin.to(self.sin.device)
        return self

    def extra_repr(self) -> str:
        scaling = "" if self.rope_scaling is None else f", rope_scaling={self.rope_scaling}"
        return (
            f"head_dim={self.head_dim}, max_len={self.max_len}, base={self.base}, "
            f"interleaved={self.interleaved}{scaling}"
        )


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
