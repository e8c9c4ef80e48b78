import math

import torch


def slopes(heads):
    if heads & (heads - 1) == 0:  # a power of two: 2^(-8h/H), h = 1 .. H
        return [2 ** (-8 * h / heads) for h in range(1, heads + 1)]
    closest = 2 ** int(math.log2(heads))
    return slopes(closest) + slopes(2 * closest)[0::2][: heads - closest]


def my_alibi_bias(num_heads, seq_len):
    s = torch.tensor(slopes(num_heads))[:, None, None]  # (heads, 1, 1)
    m = torch.arange(seq_len)[:, None]  # (seq, 1): the query's position
    n = torch.arange(seq_len)[None, :]  # (1, seq): the key's position
    bias = -s * (m - n)  # (heads, seq, seq)
    return bias.masked_fill(n > m, float("-inf"))  # a causal model never sees the keys after the query
