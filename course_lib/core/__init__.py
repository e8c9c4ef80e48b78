"""The reference core: the maths of the course, to read straight through after the lessons.

- :mod:`course_lib.core.model`: the sinusoidal table, token embeddings, the input layer,
  learned positions, RoPE (both layouts) and ALiBi, in pure torch;
- :mod:`course_lib.core.bpe`: byte-level BPE (train, encode, decode) at minbpe's size.

No input checks and no messages: the public classes of ``course_lib`` (``TokenEmbedding``,
``RotaryEmbedding``, ``BPETokenizer``, ...) are the checked layer on top, with the same
results (``tests/unit/test_core.py`` compares them). Read these files; use those classes.
"""
