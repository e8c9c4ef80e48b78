"""The input layer of a Transformer, and positions inside attention: the reference to read.

- Token embeddings scaled by sqrt(d_model) and the sinusoidal positional encoding: Vaswani et
  al., "Attention Is All You Need", 2017, sections 3.4 and 3.5, https://arxiv.org/abs/1706.03762.
- Learned positions: BERT (Devlin et al., 2019) and GPT-2's ``wpe`` (Radford et al., 2019).
- RoPE: Su et al., "RoFormer: Enhanced Transformer with Rotary Position Embedding", 2021,
  https://arxiv.org/abs/2104.09864, in Meta's LLaMA layout (``apply_rotary_emb``) and in
  GPT-NeoX's and Hugging Face's (``rotate_half``).
- RoPE beyond the training length, as Hugging Face's ``rope_scaling`` names them: position
  interpolation ("linear"; Chen et al., "Extending Context Window of Large Language Models via
  Positional Interpolation", 2023, https://arxiv.org/abs/2306.15595), NTK-aware scaling
  ("dynamic"; bloc97, "NTK-Aware Scaled RoPE", reddit r/LocalLLaMA, 2023, made dynamic by emozilla),
  YaRN (Peng et al., "YaRN: Efficient Context Window Extension of Large Language Models", 2023,
  https://arxiv.org/abs/2309.00071) and Llama 3's rule (Meta's ``apply_scaling`` in llama-models).
- ALiBi: Press et al., "Train Short, Test Long: Attention with Linear Biases Enables Input
  Length Extrapolation", ICLR 2022, https://arxiv.org/abs/2108.12409.

Pure torch, no input checks: ``course_lib.TokenEmbedding``, ``course_lib.RotaryEmbedding``
and the others check their input, speak the student's language and give the same numbers.
Shapes: b batch, h heads, t sequence length, d_model model width, head_dim one head's width.
"""

import math

import torch
from torch import nn

# ----------------------------------------------------------------------------- the sinusoidal table


def inverse_frequencies(d_model: int, base: float = 10000.0, device=None) -> torch.Tensor:
    """The angle per position of each pair of columns, in float64: (ceil(d_model/2),).

    The one place the course computes them: the sinusoidal table, RoPE and its scaling start here.
    """
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64, device=device)  # (ceil(d_model/2),)
    # theta_i = base^(-2i/d_model): from 1 (a wavelength of 2 pi) down to nearly 1/base
    return base ** (-two_i / d_model)


def sinusoidal_rows(pos: torch.Tensor, d_model: int, base: float = 10000.0) -> torch.Tensor:
    """The rows of the sinusoidal table at positions ``pos`` (n,), in float64: (n, d_model)."""
    pos = pos.to(torch.float64)  # (n,)
    # pos / base^(2i/d_model): one angle per position and pair of columns
    angle = pos.unsqueeze(1) * inverse_frequencies(d_model, base, pos.device)  # (n, ceil(d_model/2))
    pe = torch.empty(len(pos), d_model, dtype=torch.float64, device=pos.device)  # (n, d_model)
    # PE(pos, 2i) = sin(pos / base^(2i/d_model))
    pe[:, 0::2] = torch.sin(angle)
    # PE(pos, 2i+1) = cos(pos / base^(2i/d_model)); an odd d_model has one cosine fewer
    pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])
    return pe


def sinusoidal_table(num_positions: int, d_model: int, base: float = 10000.0) -> torch.Tensor:
    """Positions 0 .. num_positions-1 of the sinusoidal encoding, in float64: (num_positions, d_model)."""
    return sinusoidal_rows(torch.arange(num_positions), d_model, base)


# ----------------------------------------------------------------------------- the input layer


class TokenEmbedding(nn.Module):
    """Token ids (*) to vectors (*, d_model): a lookup, times sqrt(d_model) (section 3.4)."""

    def __init__(self, vocab_size: int, d_model: int, padding_idx: int | None = None):
        super().__init__()
        self.d_model = d_model
        self.embedding = nn.Embedding(vocab_size, d_model, padding_idx=padding_idx)
        # N(0, 1/d_model) as fairseq: times sqrt(d_model), a token vector has RMS 1, the size of
        # the positions (nn.Embedding's N(0, 1) would make it sqrt(d_model) times larger)
        nn.init.normal_(self.embedding.weight, mean=0.0, std=d_model**-0.5)
        if padding_idx is not None:
            with torch.no_grad():
                self.embedding.weight[padding_idx].zero_()  # padding adds nothing

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        # "we multiply those weights by sqrt(d_model)"
        return self.embedding(ids) * math.sqrt(self.d_model)  # (*, d_model)


class PositionalEncoding(nn.Module):
    """x (b, t, d_model) plus the table's rows at its positions, then dropout (section 3.5)."""

    def __init__(self, d_model: int, max_len: int = 5000, base: float = 10000.0, dropout: float = 0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        # derived from the arguments, so not saved (persistent=False); built in float64, kept in float32
        pe = sinusoidal_table(max_len, d_model, base).float()  # (max_len, d_model)
        self.register_buffer("pe", pe, persistent=False)

    def forward(self, x: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        # positions (t,) or (b, t): a cache's next token, or a left-padded batch; default 0 .. t-1
        pe = (
            self.pe[: x.shape[1]] if positions is None else self.pe[positions]
        )  # (t, d_model) or (b, t, d_model)
        return self.dropout(x + pe.to(x.dtype))  # (b, t, d_model)


class LearnedPositionalEmbedding(nn.Module):
    """x (b, t, d_model) plus a trained vector per position (GPT-2's ``wpe``), then dropout."""

    def __init__(self, max_len: int, d_model: int, dropout: float = 0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        # N(0, 1/2): RMS 1/sqrt(2), the RMS of the sinusoidal table it replaces
        self.weight = nn.Parameter(
            nn.init.normal_(torch.empty(max_len, d_model), std=2**-0.5)
        )  # (max_len, d_model)

    def forward(self, x: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        wpe = (
            self.weight[: x.shape[1]] if positions is None else self.weight[positions]
        )  # (t, d) or (b, t, d)
        return self.dropout(x + wpe.to(x.dtype))  # (b, t, d_model)


class NoPositionalEncoding(nn.Module):
    """No positions at all: dropout only (a causal decoder can still infer them: NoPE)."""

    def __init__(self, dropout: float = 0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        return self.dropout(x)  # (b, t, d_model)


class TransformerEmbedding(nn.Module):
    """Token ids (b, t) to the model's input (b, t, d_model): dropout(token_embedding(ids) + P[positions])."""

    def __init__(
        self,
        vocab_size: int,
        d_model: int,
        max_len: int = 5000,
        padding_idx: int | None = 0,
        dropout: float = 0.1,  # the paper's P_drop
        base: float = 10000.0,
        positional: str = "sinusoidal",  # or "learned" or "none"
    ):
        super().__init__()
        self.token_embedding = TokenEmbedding(vocab_size, d_model, padding_idx)
        if positional == "sinusoidal":
            self.positional_encoding = PositionalEncoding(d_model, max_len, base, dropout)
        elif positional == "learned":
            self.positional_encoding = LearnedPositionalEmbedding(max_len, d_model, dropout)
        elif positional == "none":
            self.positional_encoding = NoPositionalEncoding(dropout)
        else:
            raise ValueError(f"positional must be 'sinusoidal', 'learned' or 'none', got {positional!r}")

    def forward(self, ids: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        x = self.token_embedding(ids)  # (b, t, d_model)
        return self.positional_encoding(x, positions)  # (b, t, d_model)


# ----------------------------------------------------------------------------- RoPE


def rotary_tables(
    num_positions: int, head_dim: int, base: float = 10000.0, rope_scaling: dict | None = None, seq_len=None
) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and sin of RoPE's angles, float64, (num_positions, head_dim/2) each: the sinusoidal table's columns.

    With ``rope_scaling`` (a Hugging Face dict, see ``rope_frequencies``) the angles use the scaled
    frequencies, and both tables are multiplied by the attention factor, as transformers does.
    """
    if rope_scaling is None:
        pe = sinusoidal_table(num_positions, head_dim, base)  # (num_positions, head_dim)
        # theta_i = base^(-2i/head_dim); position p turns pair i by p * theta_i, whose sine is
        # column 2i of the sinusoidal table and whose cosine is column 2i + 1
        return pe[:, 1::2], pe[:, 0::2]
    theta, attention_factor = rope_frequencies(head_dim, base, rope_scaling, seq_len)  # (head_dim/2,), float
    angle = (
        torch.arange(num_positions, dtype=torch.float64).unsqueeze(1) * theta
    )  # (num_positions, head_dim/2)
    # YaRN scales q and k (so the logits by its square); 1 for the other methods
    return torch.cos(angle) * attention_factor, torch.sin(angle) * attention_factor


def rotate_interleaved(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Pairs (2i, 2i+1) turned as complex numbers, as Meta's LLaMA ``apply_rotary_emb``; float32/64 x."""
    pairs = torch.view_as_complex(x.unflatten(-1, (-1, 2)))  # (..., head_dim/2), complex: x_2i + j x_2i+1
    # (x_2i + j x_2i+1) * e^(j p theta_i), with e^(j p theta_i) = cos + j sin
    turned = pairs * torch.complex(cos.to(x.dtype), sin.to(x.dtype))  # (..., head_dim/2), complex
    return torch.view_as_real(turned).flatten(-2)  # (..., head_dim)


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    """(x1, x2) -> (-x2, x1) on the two halves of the last axis: Hugging Face's ``rotate_half``."""
    x1, x2 = x.chunk(2, dim=-1)  # (..., head_dim/2) each
    return torch.cat((-x2, x1), dim=-1)  # (..., head_dim)


def rotate_halves(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Pairs (i, i + head_dim/2) turned, as GPT-NeoX and Hugging Face's ``apply_rotary_pos_emb``."""
    # the angle of pair i at both of its columns, i and i + head_dim/2
    cos = torch.cat((cos, cos), dim=-1).to(x.dtype)  # (..., head_dim)
    sin = torch.cat((sin, sin), dim=-1).to(x.dtype)  # (..., head_dim)
    # (a, b) -> (a cos - b sin, b cos + a sin) for a = x_i, b = x_(i + head_dim/2)
    return x * cos + rotate_half(x) * sin  # (..., head_dim)


class RotaryEmbedding(nn.Module):
    """Queries (b, h, t, head_dim) and keys (b, h_kv, t, head_dim) turned by their positions (RoPE).

    Turning both by their positions makes the score q_m . k_n depend on m - n only.
    ``rope_scaling``: a Hugging Face dict (``rope_frequencies``) for contexts longer than training's.
    """

    def __init__(
        self,
        head_dim: int,
        max_len: int = 4096,
        base: float = 10000.0,
        interleaved: bool = True,
        rope_scaling: dict | None = None,
    ):
        super().__init__()
        self.head_dim, self.base, self.rope_scaling = head_dim, base, rope_scaling
        self.rotate = rotate_interleaved if interleaved else rotate_halves
        cos, sin = rotary_tables(max_len, head_dim, base, rope_scaling)  # (max_len, head_dim/2) each, float64
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(self, q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor | None = None):
        positions = torch.arange(q.shape[2]) if positions is None else positions  # (t,) or (b, t)
        cos, sin = self.cos, self.sin  # (max_len, head_dim/2) each
        if rope_type(self.rope_scaling) == "dynamic":
            # dynamic NTK: the base follows this sequence's length (unchanged up to the training length)
            seq_len = int(positions.max()) + 1
            cos, sin = rotary_tables(seq_len, self.head_dim, self.base, self.rope_scaling, seq_len)
        cos, sin = cos[positions], sin[positions]  # (t, head_dim/2) or (b, t, head_dim/2)
        if positions.dim() == 2:
            cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)  # (b, 1, t, head_dim/2): one angle for every head
        return self.rotate(q, cos, sin), self.rotate(k, cos, sin)  # shapes of q and k


# ----------------------------------------------------------------------------- RoPE beyond the training length
# Pair i turns by p * theta_i at position p: at a position past the training length L, the slow pairs
# reach angles never seen in training. Each method changes theta_i (the pair's frequency, whose
# wavelength is 2 pi / theta_i) so that the angles up to s * L stay familiar. s: `factor`.
# (The lessons write theta_i as ω_i, θ for the base and κ for s: lesson 0's notation.)


def rope_type(rope_scaling: dict | None) -> str:
    """The method a Hugging Face ``rope_scaling`` dict names: ``rope_type``, or the older ``type``."""
    scaling = rope_scaling or {}
    return scaling.get("rope_type", scaling.get("type", "default"))


def rope_frequencies(
    head_dim: int, base: float = 10000.0, rope_scaling: dict | None = None, seq_len: int | None = None
) -> tuple[torch.Tensor, float]:
    """theta_i of every pair, float64 (head_dim/2,), and the factor for cos and sin (1 but for YaRN).

    ``rope_scaling`` is the dict of a model's config.json (``rope_type`` "default", "linear", "dynamic",
    "yarn" or "llama3", and its keys); ``seq_len`` the current sequence length, read by "dynamic" only.
    """
    theta = inverse_frequencies(head_dim, base)  # (head_dim/2,): theta_i = base^(-2i/head_dim)
    method = rope_type(rope_scaling)
    if method == "default":
        return theta, 1.0
    s = rope_scaling["factor"]
    if method == "linear":
        return linear_frequencies(theta, s), 1.0
    L = rope_scaling["original_max_position_embeddings"]
    if method == "dynamic":
        return dynamic_frequencies(head_dim, base, s, L, seq_len), 1.0
    if method == "llama3":
        low, high = rope_scaling["low_freq_factor"], rope_scaling["high_freq_factor"]
        return llama3_frequencies(theta, s, L, low, high), 1.0
    return yarn_frequencies(theta, base, s, L, rope_scaling), yarn_attention_factor(s, rope_scaling)


def linear_frequencies(theta: torch.Tensor, s: float) -> torch.Tensor:
    """Position interpolation (Chen et al. 2023): every pair s times slower."""
    # f'(x, m) = f(x, m L / L'): position m squeezed to m / s, so m theta_i becomes m (theta_i / s)
    return theta / s  # (head_dim/2,)


def dynamic_frequencies(head_dim: int, base: float, s: float, L: int, seq_len: int | None) -> torch.Tensor:
    """NTK-aware scaling (bloc97, 2023), dynamic: the base raised by how far ``seq_len`` passes ``L``."""
    s_t = dynamic_factor(s, L, seq_len)
    # bloc97: base' = base * s_t^(d / (d - 2)); the fastest pair (i = 0) keeps theta_0 = 1 and the
    # slowest, base'^(-(d-2)/d) = base^(-(d-2)/d) / s_t, is interpolated by s_t
    return inverse_frequencies(head_dim, base * s_t ** (head_dim / (head_dim - 2)))  # (head_dim/2,)


def dynamic_factor(s: float, L: int, seq_len: int | None) -> float:
    """The factor "dynamic" runs with at the length ``seq_len``: s_t = s t / L - (s - 1), 1 up to ``L``."""
    t = max(seq_len or L, L)  # up to the training length, the base is unchanged
    # transformers' dynamic NTK: the factor grows with the length, 1 at t = L
    return s * t / L - (s - 1)


def llama3_frequencies(theta: torch.Tensor, s: float, L: int, low: float, high: float) -> torch.Tensor:
    """Llama 3 (Meta's ``apply_scaling``): long wavelengths interpolated, short ones kept, a ramp between."""
    wavelength = 2 * math.pi / theta  # (head_dim/2,): the positions pair i takes for one turn
    # between the two wavelengths, a ramp: 0 at L / low (interpolate), 1 at L / high (keep)
    smooth = (L / wavelength - low) / (high - low)  # (head_dim/2,)
    # wavelength < L / high: theta_i; wavelength > L / low: theta_i / s; between: (1 - smooth) theta_i / s + smooth theta_i
    return torch.where(
        wavelength < L / high,
        theta,
        torch.where(wavelength > L / low, theta / s, (1 - smooth) * theta / s + smooth * theta),
    )  # (head_dim/2,)


def yarn_frequencies(theta: torch.Tensor, base: float, s: float, L: int, rope_scaling: dict) -> torch.Tensor:
    """YaRN's "NTK-by-parts" frequencies (Peng et al. 2023), ramped over pair indices as in the authors' code."""
    d = 2 * len(theta)  # head_dim
    beta_fast, beta_slow = rope_scaling.get("beta_fast", 32), rope_scaling.get("beta_slow", 1)

    def pair_making(turns: float) -> float:
        # the (real-valued) pair index i that makes `turns` turns within L: L theta_i / (2 pi) = turns
        return d * math.log(L / (turns * 2 * math.pi)) / (2 * math.log(base))

    low, high = pair_making(beta_fast), pair_making(beta_slow)
    if rope_scaling.get("truncate", True):
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, d - 1)
    high = high + 0.001 if low == high else high  # the authors' guard against a zero-width ramp
    # the paper's ramp gamma(r), r = L / wavelength, made linear in i: 1 (keep) up to pair `low`, 0 from `high` on
    gamma = 1 - ((torch.arange(d // 2, dtype=torch.float64) - low) / (high - low)).clamp(
        0, 1
    )  # (head_dim/2,)
    # h(theta_d) = (1 - gamma) theta_d / s + gamma theta_d
    return (1 - gamma) * theta / s + gamma * theta  # (head_dim/2,)


def yarn_attention_factor(s: float, rope_scaling: dict) -> float:
    """YaRN's factor for cos and sin: sqrt(1/t) = 0.1 ln(s) + 1 (the logits divided by t), or DeepSeek's ratio."""
    if "attention_factor" in rope_scaling:
        return rope_scaling["attention_factor"]

    def m(mscale: float = 1.0) -> float:
        return 0.1 * mscale * math.log(s) + 1.0 if s > 1 else 1.0

    if "mscale" in rope_scaling and "mscale_all_dim" in rope_scaling:
        # DeepSeek-V2/V3: the ratio of two such factors (and their softmax scale multiplies by m(mscale_all_dim)^2)
        return m(rope_scaling["mscale"]) / m(rope_scaling["mscale_all_dim"])
    return m()


# ----------------------------------------------------------------------------- ALiBi


def alibi_slopes(num_heads: int) -> torch.Tensor:
    """ALiBi's slope s_h of each head, float64: (num_heads,). Section 3; ``get_slopes`` in the paper's code."""
    n = 2 ** math.floor(math.log2(num_heads))  # the largest power of two <= num_heads
    h = torch.arange(1, n + 1, dtype=torch.float64)  # (n,)
    # s_h = 2^(-8h/n): a geometric sequence that starts at 2^(-8/n) with that same ratio
    slopes = torch.exp2(-8 * h / n)  # (n,)
    # more heads than n: every other slope of 2n heads (the 1st, 3rd, ...), until there are num_heads
    odd = torch.arange(1, 2 * n, 2, dtype=torch.float64)[: num_heads - n]  # (num_heads - n,)
    return torch.cat([slopes, torch.exp2(-8 * odd / (2 * n))])  # (num_heads,)


def alibi_bias(num_heads: int, seq_len: int) -> torch.Tensor:
    """The bias added to the scores of query m and key n in head h, float64: (num_heads, seq_len, seq_len)."""
    s = alibi_slopes(num_heads)[:, None, None]  # (num_heads, 1, 1)
    pos = torch.arange(seq_len, dtype=torch.float64)  # (seq_len,)
    distance = (pos.unsqueeze(1) - pos).abs()  # (seq_len, seq_len): |m - n|
    # bias = -s_h * |m - n| (below the diagonal the paper's causal -s_h (m - n)); 0 - x, not -x,
    # so that the diagonal is 0, not -0
    return 0.0 - s * distance  # (num_heads, seq_len, seq_len)
