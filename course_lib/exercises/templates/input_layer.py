import math

import torch
from torch import nn


class MyInputLayer(nn.Module):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__()
        raise NotImplementedError

    def forward(self, ids, positions=None):  # ids: (batch, seq); positions: (seq,) or (batch, seq)
        raise NotImplementedError  # -> (batch, seq, d_model)
