"""Numbers the lessons, figures and explorers derive from the frequencies, outside torch modules.

Every one starts from :func:`course_lib.core.model.inverse_frequencies`, the one place the
course computes ``ω_i = base^(-2i/d)``: the figures (:mod:`course_lib.plots`) and the live
explorers (:mod:`course_lib.widgets`) both import them from here. No input checks: the
figures and explorers check their arguments once, with their own messages.

    >>> round(frequency(1, 4), 6), round(wavelength(1, 4), 1)  # 10000^(-1/2), 2π / that
    (0.01, 628.3)
"""

import math

import numpy as np
import torch

from .core import model as core

__all__ = ["frequency", "wavelength", "slow_columns", "new_angle_pairs", "angle_table"]


def frequency(i: int, d_model: int, base: float = 10000.0) -> float:
    """``ω_i = base^(-2i/d_model)``: the angle per position of the pair of columns ``(2i, 2i + 1)``."""
    return float(core.inverse_frequencies(d_model, base)[i])


def wavelength(i: int, d_model: int, base: float = 10000.0) -> float:
    """Wavelength, in positions, of the sine/cosine pair ``i``: ``2π / ω_i = 2π · base^(2i / d_model)``.

    >>> round(wavelength(0, 512), 4), round(wavelength(255, 512))
    (6.2832, 60611)
    """
    return 2 * math.pi / frequency(i, d_model, base)


def slow_columns(num_positions: int, d_model: int, base: float = 10000.0) -> int:
    """How many columns of the table have a wavelength longer than ``num_positions``.

    Over the first ``num_positions`` rows such a column does not complete one period: it
    changes slowly. Column ``c`` belongs to the pair ``i = c // 2``, whose wavelength
    ``2π · base^(2i/d_model)`` exceeds ``n`` when ``2i/d_model > log(n/2π) / log(base)``:
    a fraction of the way across the table, so the share of slow columns is about
    ``1 - log(n/2π) / log(base)`` whatever ``d_model`` is.

    >>> [slow_columns(256, d) for d in (64, 128, 256, 512)]
    [38, 76, 152, 304]
    """
    omega = core.inverse_frequencies(d_model, base).tolist()  # one per pair
    return sum(2 * math.pi / omega[c // 2] > num_positions for c in range(d_model))


def new_angle_pairs(
    head_dim: int,
    num_positions: int,
    train_len: int,
    base: float = 10000.0,
    scale: float = 1.0,
    train_base: float = 10000.0,
) -> np.ndarray:
    """Which pairs reach angles that training never showed them: a bool per pair, ``(head_dim/2,)``.

    Training on positions in ``[0, train_len)`` with ``train_base`` turned pair ``i`` by
    angles in ``[0, train_len·θ_i)``. A pair for which that range spans ``2π`` has been all
    the way round: every angle is familiar. Any other pair meets new angles when the
    positions ``0 .. num_positions-1``, divided by ``scale`` (position interpolation) and
    turned with ``base``, leave its range: ``(num_positions - 1)/scale · θ'_i >= train_len·θ_i``.

        >>> int(new_angle_pairs(128, 8192, 4096).sum()), int(new_angle_pairs(128, 8192, 4096, scale=2).sum())
        (18, 0)
    """
    trained = train_len * core.inverse_frequencies(head_dim, train_base).numpy()  # the end of the angles seen
    reached = (num_positions - 1) / scale * core.inverse_frequencies(head_dim, base).numpy()
    return (trained < 2 * math.pi) & (reached >= trained)


def angle_table(head_dim: int, num_positions: int, base: float, scale: float) -> np.ndarray:
    """cos of RoPE's angles at positions ``p / scale``: ``(num_positions, head_dim/2)``, in float64."""
    positions = torch.arange(num_positions, dtype=torch.float64) / scale  # (n,)
    # RoPE's cos is the sinusoidal table's odd columns (core.rotary_tables), at positions p / scale
    return core.sinusoidal_rows(positions, head_dim, base)[:, 1::2].numpy()  # (n, head_dim/2)
