import math

import torch


def my_llama3_frequencies(
    inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings
):
    L = original_max_position_embeddings
    wavelength = 2 * math.pi / inv_freq  # (head_dim/2,): positions per turn
    smooth = (L / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    slow_or_between = torch.where(wavelength > L / low_freq_factor, inv_freq / factor, blended)
    return torch.where(wavelength < L / high_freq_factor, inv_freq, slow_or_between)
