"""Interactive explorers for the lessons: controls over a picture, computed and drawn in the browser.

Each builder returns one widget, labelled in the language ``lang`` (None: the language set
by :func:`course_lib.set_language`). Every explorer is **live** (:mod:`course_lib.widgets.live`,
anywidget): the browser computes and draws, from a JavaScript module in ``js/``; the parameters
are synced traits. They move with no kernel, in JupyterLab before a cell runs, on the website and
in the decks. What is small is computed in JavaScript (the sinusoidal table, rotations, RoPE,
ALiBi, positions under left padding, the √d_model scale); what comes from training or a corpus is
sent by Python as a ``data`` trait (lesson 7's accuracies, lesson 1's vocabulary and its counts,
lesson 2's trained merges — a live tokenizer in the page, and gpt-tokenizer's encoders, which the page loads beside the widget
renderer or from the kernel, lesson 3's token table, lesson 4's
attention weights at each stop of its slider). The static figure beside each explorer is drawn by
the matching function of :mod:`course_lib.plots`.

Nothing is printed and no ``Output`` widget is used, so a notebook with these widgets
re-runs cleanly under nbval. Every label and readout comes from ``widgets/messages.py``:
:data:`MESSAGES`, shared by the explorers of lessons 3 to 5, and one catalogue for each other
module (``VOCAB``, ``TOKENS``, ``COMPARATOR``, ``POSITIONS``, ``EXTRAPOLATION``, ``ROTARY``, ``SCALING``), which that module
calls ``MESSAGES``.

A test -- or a curious student -- moves a live explorer by setting its traits, and reads
what it shows, computed by course_lib:

    >>> from course_lib import sinusoidal_table
    >>> explorer = table_explorer(d_model=32, num_positions=50, lang="ru")
    >>> explorer.d_model = 16
    >>> bool((explorer.table == sinusoidal_table(50, 16, dtype=explorer.table.dtype)).all())
    True
    >>> explorer.labels["num_positions"]
    'позиции'

The modules, by lesson: ``vocab`` (1), ``tokens`` (2: subword tokens coloured),
``comparator`` (2: the course's BPE beside GPT-2's, cl100k's and o200k's, whose encoders
``encodings`` delivers),
``embeddings`` (3), ``attention`` (4), ``table`` (5: the table and the rotation),
``positions`` (6: left padding), ``extrapolation`` (7: the length experiment), ``rotary``
(8: RoPE and ALiBi), ``scaling`` (9: RoPE's scaling for longer contexts), on ``live`` (what every explorer shares) and ``messages`` (their texts).
``registry`` names every explorer once (its builder, class, lesson, JavaScript module, root class and
settings past its sliders): the tests, the benchmark and the documents' count read it.
"""

from .attention import BalanceExplorer, balance_explorer
from .comparator import TokenizerComparator, tokenizer_comparator
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
from .scaling import RopeScalingExplorer, rope_scaling_explorer
from .table import RotationExplorer, TableExplorer, rotation_explorer, table_explorer
from .tokens import TokenExplorer, token_explorer
from .vocab import VocabExplorer, vocab_explorer

__all__ = [
    "vocab_explorer",
    "token_explorer",
    "tokenizer_comparator",
    "table_explorer",
    "embedding_explorer",
    "rotation_explorer",
    "left_padding_explorer",
    "rope_explorer",
    "alibi_explorer",
    "rope_angles_explorer",
    "balance_explorer",
    "extrapolation_explorer",
    "rope_scaling_explorer",
    # the widgets they return, and what they share
    "VocabExplorer",
    "TokenExplorer",
    "TokenizerComparator",
    "TableExplorer",
    "EmbeddingExplorer",
    "RotationExplorer",
    "LeftPaddingExplorer",
    "RopeExplorer",
    "AlibiExplorer",
    "RopeAnglesExplorer",
    "BalanceExplorer",
    "ExtrapolationExplorer",
    "RopeScalingExplorer",
    "LiveExplorer",
    "MESSAGES",
]
