"""Every live explorer, once: what the tests, the benchmark and the documents read instead of lists of their own.

One :class:`Entry` per explorer, in the order of the lessons. The unit tests
(``tests/unit/test_widgets_registry.py``) hold it to the package: each public builder of
:mod:`course_lib.widgets` has an entry, each JavaScript module in ``js/`` that renders an explorer
has one, an entry's module is the one its class loads, its root class is the one its module draws
in, and its lesson's source calls its builder; the documents' count of explorers in words is
``len(EXPLORERS)``. From it, the unit tests take the settings past every slider
(:attr:`Entry.absurd`), the browser tests the explorers each lesson's page shows and those a saved
notebook reloads, and ``benchmarks/bench_explorers.py`` its rows.
"""

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Entry:
    """One live explorer."""

    #: the short name the tests and the benchmark know it by ("rope_scaling")
    name: str
    #: its builder's public name in :mod:`course_lib.widgets` ("rope_scaling_explorer")
    factory: str
    #: the :class:`~course_lib.widgets.live.LiveExplorer` subclass the builder returns
    widget: str
    #: the lesson whose source shows it
    lesson: int
    #: its JavaScript module, ``js/<js>.js`` (``module(js, ...)``)
    js: str
    #: the class of its root element in the page (``frame(el, lang, root)``)
    root: str
    #: whether it draws a picture on its canvas (False: its texts are the page's own elements and its
    #: canvas stays hidden, as lesson 2's tokens; lesson 1's vocabulary hides its canvas only when it is
    #: given no counts, and is True)
    picture: bool = True
    #: settings past its sliders, each refused by Python (and clamped by the browser, ``js/common.js``):
    #: (setting, value, options added to :attr:`options` for that case)
    absurd: tuple[tuple[str, Any, dict], ...] = ()
    #: positional arguments and options the absurd cases build it with (its data, kept small)
    args: tuple = ()
    options: dict = field(default_factory=dict)

    def build(self, **options):
        """The explorer built with :attr:`args`, :attr:`options` and ``options``."""
        from course_lib import widgets

        return getattr(widgets, self.factory)(*self.args, **{**self.options, **options})


EXPLORERS: tuple[Entry, ...] = (
    Entry("vocab", "vocab_explorer", "VocabExplorer", 1, "vocab", "vocab-explorer"),
    Entry("tokens", "token_explorer", "TokenExplorer", 2, "tokens", "token-explorer", picture=False),
    Entry(
        "comparator",
        "tokenizer_comparator",
        "TokenizerComparator",
        2,
        "comparator",
        "tokenizer-comparator",
        picture=False,
    ),
    Entry(
        "embeddings",
        "embedding_explorer",
        "EmbeddingExplorer",
        3,
        "embeddings",
        "embedding-explorer",
        absurd=(("d_model", 10**6, {}),),
        args=(["a b"],),
        options={"d_model": 8},
    ),
    Entry("balance", "balance_explorer", "BalanceExplorer", 4, "attention", "balance-explorer"),
    Entry("table", "table_explorer", "TableExplorer", 5, "table", "table-explorer"),
    Entry(
        "rotation",
        "rotation_explorer",
        "RotationExplorer",
        5,
        "rotation",
        "rotation-explorer",
        absurd=(("k", 10**9, {}), ("pos", 101, {}), ("d_model", 1024, {})),
    ),
    Entry(
        "left_padding",
        "left_padding_explorer",
        "LeftPaddingExplorer",
        6,
        "positions",
        "left-padding-explorer",
        absurd=(("max_padding", 33, {}), ("d_model", 513, {})),
        args=(["a", "b"],),
    ),
    Entry(
        "extrapolation",
        "extrapolation_explorer",
        "ExtrapolationExplorer",
        7,
        "extrapolation",
        "extrapolation-explorer",
    ),
    Entry(
        "rope",
        "rope_explorer",
        "RopeExplorer",
        8,
        "rope",
        "rope-explorer",
        absurd=(
            ("m", 10**9, {}),
            ("n", 129, {}),
            ("max_position", 10**9, {}),
            ("head_dim", 130, {}),
            ("base", 1e9, {}),
            ("seed", 2**40, {}),
        ),
    ),
    Entry(
        "alibi",
        "alibi_explorer",
        "AlibiExplorer",
        8,
        "alibi",
        "alibi-explorer",
        absurd=(("num_heads", 65, {}), ("seq_len", 10**6, {})),
    ),
    Entry(
        "rope_angles",
        "rope_angles_explorer",
        "RopeAnglesExplorer",
        8,
        "rope_angles",
        "rope-angles-explorer",
        absurd=(
            ("num_positions", 10**9, {}),
            ("train_len", 5000, {}),
            ("head_dim", 258, {}),
            ("scale", 17.0, {}),
            ("base", 50.0, {}),
        ),
    ),
    Entry(
        "rope_scaling",
        "rope_scaling_explorer",
        "RopeScalingExplorer",
        9,
        "rope_scaling",
        "rope-scaling-explorer",
        absurd=(
            ("head_dim", 258, {}),
            ("base", 1e9, {}),
            ("context", 2**20 + 1, {}),
            ("original_len", 64, {}),
            ("factor", 65.0, {}),
            ("low_freq_factor", 0.25, {"high_freq_factor": 16.0}),
            ("high_freq_factor", 17.0, {"low_freq_factor": 0.5}),
        ),
    ),
)
