"""The input layer of a Transformer, and positions inside attention: the reference to read.

- Token embeddings scaled by sqrt(d_model) and the sinusoidal positional encoding: Vaswani et
  al., "Attention Is All You Need", 2017, sections 3.4 and 3.5, https://arxiv.org/abs/1706.03762.
- Learned positions: BERT (Devlin et al., 2019) and GPT-2's ``wpe`` (Radford et al., 2019).
- RoPE: Su et al., "RoFormer: Enhanced Transformer with Rotary Position Embedding", 2021,
  https://arxiv.org/abs/2104.09864, in Meta's LLaMA layout (``apply_rotary_emb``) and in
  GPT-NeoX's and Hugging Face's (``rotate_half``).
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


def sinusoidal_rows(pos: torch.Tensor, d_model: int, base: float = 10000.0) -> torch.Tensor:
    """The rows of the sinusoidal table at positions ``pos`` (n,), in float64: (n, d_model)."""
    pos = pos.to(torch.float64)  # (n,)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64, device=pos.device)  # (ceil(d_model/2),)
    # pos / base^(2i/d_model): one angle per position and pair of columns
    angle = pos.unsqueeze(1) * base ** (-two_i / d_model)  # (n, ceil(d_model/2))
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
    num_positions: int, head_dim: int, base: float = 10000.0
) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and sin of RoPE's angles, float64, (num_positions, head_dim/2) each: the sinusoidal table's columns."""
    pe = sinusoidal_table(num_positions, head_dim, base)  # (num_positions, head_dim)
    # theta_i = base^(-2i/head_dim); position p turns pair i by p * theta_i, whose sine is
    # column 2i of the sinusoidal table and whose cosine is column 2i + 1
    return pe[:, 1::2], pe[:, 0::2]


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
    """

    def __init__(self, head_dim: int, max_len: int = 4096, base: float = 10000.0, interleaved: bool = True):
        super().__init__()
        self.rotate = rotate_interleaved if interleaved else rotate_halves
        cos, sin = rotary_tables(max_len, head_dim, base)  # (max_len, head_dim/2) each, float64
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(self, q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor | None = None):
        positions = torch.arange(q.shape[2]) if positions is None else positions  # (t,) or (b, t)
        cos, sin = self.cos[positions], self.sin[positions]  # (t, head_dim/2) or (b, t, head_dim/2)
        if positions.dim() == 2:
            cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)  # (b, 1, t, head_dim/2): one angle for every head
        return self.rotate(q, cos, sin), self.rotate(k, cos, sin)  # shapes of q and k


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
