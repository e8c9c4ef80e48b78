"""Interactive explorers for the lessons: sliders and buttons over a figure.

Each builder returns one widget, labelled in the language ``lang`` (None: the language set
by :func:`course_lib.set_language`). Two kinds, while the course moves from the first to the
second:

* **live** explorers (:mod:`course_lib.widgets.live`, anywidget): the browser computes and
  draws, from a JavaScript module in ``js/``; the parameters are synced traits. They move
  with no kernel, in JupyterLab before a cell runs, on the website and in the decks. Today:
  ``table_explorer`` and ``rotation_explorer`` (lesson 5), ``extrapolation_explorer`` (lesson 7,
  its accuracies sent by Python as a ``data`` trait), ``vocab_explorer`` (lesson 1: the vocabulary
  and its counts sent as data, the text tokenized and looked up in the browser) and
  ``token_explorer`` (lesson 2: a live tokenizer, the trained merges sent as data).
* **kernel** explorers (ipywidgets boxes): a slider move redraws a figure of
  :mod:`course_lib.plots` in Python and sends a new PNG to an ``Image`` widget. The figure
  is drawn once by the matching function of :mod:`course_lib.plots`; a slider move changes
  the existing artists.

Nothing is printed and no ``Output`` widget is used, so a notebook with these widgets
re-runs cleanly under nbval. Every description, button and readout comes from the
catalogue :data:`MESSAGES` (``widgets/messages.py``); the figures' labels from
:data:`course_lib.plots.MESSAGES`.

A test -- or a curious student -- moves a live explorer by setting its traits, and reads
what it shows, computed by course_lib:

    >>> from course_lib import sinusoidal_table
    >>> explorer = table_explorer(d_model=32, num_positions=50, lang="ru")
    >>> explorer.d_model = 16
    >>> bool((explorer.table == sinusoidal_table(50, 16, dtype=explorer.table.dtype)).all())
    True
    >>> explorer.labels["num_positions"]
    'позиции'

A kernel explorer keeps its parts as attributes (``explorer.head``, ``explorer.image`` ...).

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
from .live import LiveExplorer
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
    "LiveExplorer",
    "FIGSIZE",
    "DPI",
    "MESSAGES",
]
