import math

import torch


def my_llama3_frequencies(
    inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings
):
    # inv_freq: (head_dim/2,), ω_i of each pair; returns the new ω'_i, the same shape
    raise NotImplementedError
