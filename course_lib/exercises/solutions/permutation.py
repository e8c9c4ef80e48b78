import torch


def is_equivariant(f, x, perm):
    permute_then_f = f(x[:, perm])  # (batch, seq, d_model)
    f_then_permute = f(x)[:, perm]  # (batch, seq, d_model)
    return torch.allclose(permute_then_f, f_then_permute, atol=1e-6)
