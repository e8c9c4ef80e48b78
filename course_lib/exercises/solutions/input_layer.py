import math

import torch
from torch import nn


class MyInputLayer(nn.Module):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model)  # (vocab_size, d_model), trained
        nn.init.normal_(self.embedding.weight, std=d_model**-0.5)  # rows of length about 1: RMS 1 after the scale
        self.scale = math.sqrt(d_model)  # a Python float: exact in any dtype of the model
        pos = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)  # (max_len, 1)
        two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (ceil(d_model / 2),)
        angle = pos / 10000 ** (two_i / d_model)  # (max_len, ceil(d_model / 2))
        pe = torch.zeros(max_len, d_model, dtype=torch.float64)  # (max_len, d_model)
        pe[:, 0::2] = torch.sin(angle)
        pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])  # odd d_model: one cosine fewer
        self.register_buffer("pe", pe.float(), persistent=False)  # derived: never saved

    def forward(self, ids, positions=None):  # ids: (batch, seq)
        if positions is None:
            positions = torch.arange(ids.size(1), device=ids.device)  # (seq,)
        tokens = self.embedding(ids) * self.scale  # (batch, seq, d_model)
        rows = self.pe[positions].to(tokens.dtype)  # (seq, d_model) or (batch, seq, d_model)
        return tokens + rows  # (batch, seq, d_model)
