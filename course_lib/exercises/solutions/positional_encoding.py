import torch
from torch import nn


class MyPositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        pos = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)  # (max_len, 1)
        two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (ceil(d_model / 2),)
        angle = pos / 10000 ** (two_i / d_model)  # (max_len, ceil(d_model / 2))
        pe = torch.zeros(max_len, d_model, dtype=torch.float64)  # (max_len, d_model)
        pe[:, 0::2] = torch.sin(angle)  # P(pos, 2i) = sin(pos / 10000^(2i / d_model))
        pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])  # P(pos, 2i + 1) = cos(...)
        self.register_buffer("pe", pe.float(), persistent=False)

    def forward(self, x):  # x: (batch, seq, d_model)
        return x + self.pe[: x.size(1)].to(x.dtype)  # (batch, seq, d_model)
