import torch


def apply_rotary(x, positions, base=10000.0):  # x: (batch, heads, seq, head_dim), positions: (seq,)
    raise NotImplementedError


def rotate_qk(q, k, v, positions):  # (batch, heads, seq, head_dim) each -> (q, k, v) for attention
    raise NotImplementedError
