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

from .i18n import LANGUAGES, get_language, pick, set_language

__version__ = "1.0.0"

# the one list of the package's contents: each submodule, and the public names it lends to
# ``course_lib`` (``course_lib.TokenEmbedding`` is ``course_lib.embedding.TokenEmbedding``)
_SUBMODULES = {
    "embedding": ("sinusoidal_table", "TokenEmbedding", "PositionalEncoding", "TransformerEmbedding"),
    "positions": ("LearnedPositionalEmbedding", "NoPositionalEncoding"),
    "rotary": ("RotaryEmbedding", "rope_frequencies", "alibi_slopes", "alibi_bias"),
    "vocab": ("Vocab", "tokenize"),
    "bpe": ("BPETokenizer",),
    "extrapolation": (),
    "core": (),
    "validate": (),
    "plots": (),
    "widgets": (),
    "exercises": (),
}
_HOME = {name: module for module, names in _SUBMODULES.items() for name in names}

__all__ = [*_HOME, "LANGUAGES", "set_language", "get_language", "pick"]


def __getattr__(name: str):
    if name in _HOME:
        value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
        globals()[name] = value  # the next access is a plain attribute
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME) | set(_SUBMODULES))
