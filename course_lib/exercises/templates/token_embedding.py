import math

import torch
from torch import nn


class MyTokenEmbedding(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        raise NotImplementedError

    def forward(self, ids):  # ids: (batch, seq) -> (batch, seq, d_model)
        raise NotImplementedError
