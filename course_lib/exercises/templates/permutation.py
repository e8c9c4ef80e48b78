import torch


def is_equivariant(f, x, perm):  # x: (batch, seq, d_model), perm: (seq,) -> True or False
    raise NotImplementedError
