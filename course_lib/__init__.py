"""course_lib: the input layer of a Transformer, as built step by step in the course.

text --Vocab (words) or BPETokenizer (subwords)--> token ids --TokenEmbedding--> vectors x sqrt(d_model)
     --PositionalEncoding--> + sinusoidal positions = the model's input (TransformerEmbedding)
     (or LearnedPositionalEmbedding, or no positions: NoPositionalEncoding)
inside attention: RotaryEmbedding turns queries and keys, alibi_bias offsets the scores
course_lib.extrapolation: a tiny Transformer trained short and tested long, with each kind of position

Names are loaded on first use (the lazy loading of Scientific Python's SPEC 1): ``import
course_lib`` itself imports nothing heavy, ``course_lib.TokenEmbedding`` imports torch,
and the plots, widgets and exercises (matplotlib, ipywidgets) load only when a lesson
asks for them. So ``make lab`` can greet a student through ``course_lib.i18n`` without
loading torch, and a lesson pays for what it uses.
"""

import importlib
from typing import TYPE_CHECKING

from .i18n import LANGUAGES, get_language, pick, set_language

__version__ = "1.0.0"

# public name -> the submodule that defines it
_EXPORTS = {
    "sinusoidal_table": "embedding",
    "TokenEmbedding": "embedding",
    "PositionalEncoding": "embedding",
    "TransformerEmbedding": "embedding",
    "LearnedPositionalEmbedding": "positions",
    "NoPositionalEncoding": "positions",
    "RotaryEmbedding": "rotary",
    "alibi_slopes": "rotary",
    "alibi_bias": "rotary",
    "Vocab": "vocab",
    "tokenize": "vocab",
    "BPETokenizer": "bpe",
}
_SUBMODULES = {
    "embedding",
    "positions",
    "rotary",
    "extrapolation",
    "vocab",
    "bpe",
    "validate",
    "plots",
    "widgets",
    "exercises",
}

__all__ = [
    "sinusoidal_table",
    "TokenEmbedding",
    "PositionalEncoding",
    "TransformerEmbedding",
    "LearnedPositionalEmbedding",
    "NoPositionalEncoding",
    "RotaryEmbedding",
    "alibi_slopes",
    "alibi_bias",
    "Vocab",
    "tokenize",
    "BPETokenizer",
    "LANGUAGES",
    "set_language",
    "get_language",
    "pick",
]

if TYPE_CHECKING:  # for editors and type checkers, which do not run __getattr__
    from .bpe import BPETokenizer
    from .embedding import PositionalEncoding, TokenEmbedding, TransformerEmbedding, sinusoidal_table
    from .positions import LearnedPositionalEmbedding, NoPositionalEncoding
    from .rotary import RotaryEmbedding, alibi_bias, alibi_slopes
    from .vocab import Vocab, tokenize


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
        globals()[name] = value  # the next access is a plain attribute
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS) | _SUBMODULES)
