"""course_lib: the input layer of a Transformer, as built step by step in the course.

text --Vocab--> token ids --TokenEmbedding--> vectors x sqrt(d_model)
     --PositionalEncoding--> + sinusoidal positions = the model's input (TransformerEmbedding)

Plotting (``course_lib.plots``), widgets (``course_lib.widgets``) and exercise checkers
(``course_lib.exercises``) are imported on first use, so ``import course_lib`` costs
little more than ``import torch``.
"""

import importlib

from .embedding import PositionalEncoding, TokenEmbedding, TransformerEmbedding, sinusoidal_table
from .i18n import get_language, pick, set_language
from .vocab import Vocab, tokenize

__all__ = [
    "sinusoidal_table",
    "TokenEmbedding",
    "PositionalEncoding",
    "TransformerEmbedding",
    "Vocab",
    "tokenize",
    "set_language",
    "get_language",
    "pick",
]

__version__ = "1.0.0"

_LAZY_SUBMODULES = {"plots", "widgets", "exercises"}


def __getattr__(name):
    # matplotlib and ipywidgets take longer to import than torch itself: load on demand
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
