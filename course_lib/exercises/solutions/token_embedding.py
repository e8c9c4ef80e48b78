import math

import torch
from torch import nn


class MyTokenEmbedding(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model)  # (vocab_size, d_model)
        nn.init.normal_(self.embedding.weight, mean=0.0, std=d_model**-0.5)  # N(0, 1/d_model)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):  # ids: (batch, seq)
        return self.embedding(ids) * self.scale  # (batch, seq, d_model)
