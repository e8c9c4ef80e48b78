import math

import torch


def my_alibi_bias(num_heads, seq_len):  # -> (num_heads, seq_len, seq_len): -s_h (m - n), -inf for n > m
    raise NotImplementedError
