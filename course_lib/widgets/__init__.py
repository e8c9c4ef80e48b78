"""Interactive heatmaps for the lessons: sliders and buttons that redraw a figure of :mod:`course_lib.plots`.

Each builder returns one ipywidgets box, labelled in the language ``lang`` (None: the
language set by :func:`course_lib.set_language`); :func:`vocab_explorer` shows an HTML
table, the others a figure. The figure is drawn once by the
matching function of :mod:`course_lib.plots`; a slider move changes the existing artists
(``set_data``, ``set_extent``, the title) and sends a new PNG to the ``Image`` widget.
Nothing is printed and no ``Output`` widget is used, so a notebook with these widgets
re-runs cleanly under nbval. Every description, button and readout comes from the
catalogue :data:`MESSAGES` (``widgets/messages.py``); the figures' labels from
:data:`course_lib.plots.MESSAGES`.

The boxes keep their parts as attributes (``explorer.d_model``, ``explorer.image``,
``explorer.table`` ...), so a test -- or a curious student -- can move a slider by
setting ``.value`` and look at what was drawn:

    >>> from course_lib import sinusoidal_table
    >>> explorer = table_explorer(d_model=32, num_positions=50, lang="ru")
    >>> explorer.d_model.value = 16
    >>> bool((explorer.axes_image.get_array() == sinusoidal_table(50, 16).numpy()).all())
    True
    >>> explorer.num_positions.description
    'позиции'

The modules, by lesson: ``vocab`` (1), ``tokens`` (2: subword tokens coloured, with its own
catalogue ``tokens.MESSAGES``), ``embeddings`` (3), ``attention`` (4), ``table`` (5: the
table and the rotation), ``positions`` (6: left padding, with its own catalogue),
``extrapolation`` (7: the length experiment, with its own catalogue), ``rotary`` (8: RoPE and
ALiBi, with its own catalogue), on ``base`` (what every explorer shares) and
``messages`` (the catalogue).
"""

from .attention import BalanceExplorer, balance_explorer
from .base import DPI, FIGSIZE, FigureWidget
from .embeddings import EmbeddingExplorer, embedding_explorer
from .extrapolation import ExtrapolationExplorer, extrapolation_explorer
from .messages import MESSAGES
from .positions import LeftPaddingExplorer, left_padding_explorer
from .rotary import (
    AlibiExplorer,
    RopeAnglesExplorer,
    RopeExplorer,
    alibi_explorer,
    rope_angles_explorer,
    rope_explorer,
)
from .table import RotationExplorer, TableExplorer, rotation_explorer, table_explorer
from .tokens import TokenExplorer, token_explorer
from .vocab import VocabExplorer, vocab_explorer

__all__ = [
    "vocab_explorer",
    "token_explorer",
    "table_explorer",
    "embedding_explorer",
    "rotation_explorer",
    "left_padding_explorer",
    "rope_explorer",
    "alibi_explorer",
    "rope_angles_explorer",
    "balance_explorer",
    "extrapolation_explorer",
    # the boxes they return, and what they share
    "VocabExplorer",
    "TokenExplorer",
    "TableExplorer",
    "EmbeddingExplorer",
    "RotationExplorer",
    "LeftPaddingExplorer",
    "RopeExplorer",
    "AlibiExplorer",
    "RopeAnglesExplorer",
    "BalanceExplorer",
    "ExtrapolationExplorer",
    "FigureWidget",
    "FIGSIZE",
    "DPI",
    "MESSAGES",
]
