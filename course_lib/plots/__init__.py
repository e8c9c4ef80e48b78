"""The course's figures: each function returns a matplotlib Figure, labelled in the student's language.

Figures are made with ``matplotlib.figure.Figure`` and drawn by the Agg canvas, never by
``pyplot``: no global figure list, so a figure shows once (as the cell's value) and is
never shown a second time by the inline backend, and nothing leaks between cells.
A figure returned as the last value of a notebook cell shows as a PNG image.

Every title, axis label and legend comes from the catalogue :data:`MESSAGES`
(``plots/messages.py``) in the language ``lang`` (None: the language set by
:func:`course_lib.set_language`); error messages, like all of course_lib's, follow
:func:`course_lib.set_language`. Random numbers come from a fixed ``seed`` under
:func:`torch.random.fork_rng`, so a figure is the same on every run and the caller's
random state is left alone.

    >>> from course_lib import sinusoidal_table
    >>> fig = plot_table(sinusoidal_table(64, 32), lang="ru")
    >>> fig.axes[0].get_xlabel(), fig.axes[0].get_ylabel()
    ('координата', 'позиция')

The modules, by topic:

- ``figure``: :class:`NotebookFigure`, :func:`to_png`, :func:`new_figure`,
  :func:`draw_heatmap` and the input checks every figure shares;
- ``table``: the sinusoidal table, its columns, dot products and rotations (lesson 5);
- ``embeddings``: a sentence's vectors and their magnitudes (lesson 3);
- ``precision``: float32 against float64 at large positions (lesson 6);
- ``attention``: attention weights, and whether they see the words or the positions (lesson 4);
- ``vocab``: a text's words, their IDs and what they decode to (lesson 1; its own catalogue, ``messages.VOCAB``);
- ``tokens``: a text's subword tokens coloured, and tokens per word as the vocabulary grows
  (lesson 2; its own catalogue, ``messages.TOKENS``);
- ``positions``: the rows a left-padded text receives (lesson 6; ``messages.POSITIONS``);
- ``rotary``: RoPE's pair of q and k turning and its two layouts (lesson 8);
- ``long_context``: RoPE's angles past the training length, under another base or position interpolation (lesson 8);
- ``rope_scaling``: each pair's wavelength and frequency before and after a ``rope_scaling`` method (lesson 9);
- ``alibi``: ALiBi's bias per head and where it lets a query look (lesson 8);
- ``extrapolation``: the length experiment, accuracy against length and position (lesson 7),
  its own catalogue, ``messages.EXTRAPOLATION``;
- ``messages``: every text above, in every language of the course: ``MESSAGES`` shared by the
  figures, and one catalogue for each module that has its own labels (``VOCAB``, ``TOKENS``,
  ``POSITIONS``, ``EXTRAPOLATION``, ``ROTARY``, ``LONG_CONTEXT``, ``ALIBI``); each of those
  modules calls its catalogue ``MESSAGES``.

The package itself exports what the lessons call: their figures and the numbers they print
(``__all__``). The pieces the live explorers redraw and the helpers every figure shares are
reached through their module, as the widgets and tests do (``plots.figure.new_figure``,
``plots.rotary.rope_rotate``, ``plots.messages.MESSAGES``).
"""

# the modules the widgets and tests reach into; each import below binds its own module too
from . import figure, messages  # noqa: F401
from .alibi import (
    alibi_weights,
    plot_alibi,
    plot_alibi_weights,
    slope_label,  # noqa: F401  (no lesson calls it; the ALiBi explorer and its tests do)
)
from .attention import attention_balance, plot_attention, plot_balance
from .embeddings import plot_embeddings, plot_magnitudes
from .extrapolation import plot_attention_by_distance, plot_extrapolation
from .long_context import new_angle_pairs, plot_rope_angles
from .positions import plot_left_padding
from .precision import plot_precision
from .rope_scaling import plot_rope_scaling
from .rotary import plot_rope_layouts, plot_rope_rotation
from .table import plot_rotation, plot_similarity, plot_table, plot_waves, slow_columns, wavelength
from .tokens import plot_fertility, show_tokens
from .vocab import show_words

__all__ = [
    # the figures of the lessons
    "plot_table",
    "plot_waves",
    "plot_similarity",
    "plot_embeddings",
    "plot_magnitudes",
    "plot_precision",
    "plot_rotation",
    "plot_attention",
    "plot_balance",
    "plot_fertility",
    "show_tokens",
    "show_words",
    "plot_left_padding",
    "plot_rope_rotation",
    "plot_rope_layouts",
    "plot_rope_angles",
    "plot_rope_scaling",
    "plot_alibi",
    "plot_alibi_weights",
    "plot_extrapolation",
    "plot_attention_by_distance",
    # the numbers behind them that the lessons print
    "wavelength",
    "slow_columns",
    "attention_balance",
    "new_angle_pairs",
    "alibi_weights",
]
