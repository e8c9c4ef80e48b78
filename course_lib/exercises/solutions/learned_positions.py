import torch
from torch import nn


class MyLearnedPositions(nn.Module):
    def __init__(self, max_len, d_model):
        super().__init__()
        self.max_len = max_len
        # one trained row per position, starting at the sinusoidal table's scale: N(0, 1/2)
        self.weight = nn.Parameter(torch.randn(max_len, d_model) / 2**0.5)  # (max_len, d_model)

    def forward(self, x):  # x: (batch, seq, d_model)
        seq = x.size(1)
        if seq > self.max_len:
            raise ValueError(f"sequence length {seq} exceeds max_len={self.max_len}")
        return x + self.weight[:seq]  # (batch, seq, d_model)
