import torch


def apply_rotary(x, positions, base=10000.0):
    head_dim = x.size(-1)
    two_i = torch.arange(0, head_dim, 2, dtype=torch.float64)  # (head_dim/2,)
    # the angle of pair i at position m: m * base^(-2i/head_dim), in float64 (lesson 6 shows why)
    angle = positions.double().unsqueeze(1) * base ** (-two_i / head_dim)  # (seq, head_dim/2)
    cos, sin = torch.cos(angle), torch.sin(angle)
    a, b = x[..., 0::2].double(), x[..., 1::2].double()  # pairs (2i, 2i+1): (batch, heads, seq, head_dim/2)
    out = torch.stack((a * cos - b * sin, a * sin + b * cos), dim=-1)  # (..., head_dim/2, 2)
    return out.flatten(-2).to(x.dtype)  # (batch, heads, seq, head_dim)


def rotate_qk(q, k, v, positions):
    # queries and keys carry the positions; the values, which attention averages, do not
    return apply_rotary(q, positions), apply_rotary(k, positions), v
