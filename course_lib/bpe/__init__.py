"""Byte-level BPE from scratch, identical to the production tokenizer (Hugging Face ``tokenizers``).

Byte-pair encoding (Sennrich, Haddow and Birch, 2016, "Neural Machine Translation of Rare
Words with Subword Units") in the byte-level form of GPT-2 (Radford et al., 2019): the 256
byte values are the alphabet, so every text has tokens and nothing is ever unknown; a
training step merges the most frequent pair of adjacent tokens into a new one. Karpathy's
minbpe is the model for the code; ``tokenizers`` is the reference it is tested against.

- :mod:`~course_lib.bpe.pretokenize`: the GPT-2 pattern that cuts text before BPE, and bytes as text;
- :mod:`~course_lib.bpe.train`: the pre-tokens of a corpus counted (documents in chunks, in processes),
  the pair counts and the merge step, updated incrementally;
- :mod:`~course_lib.bpe.tokenizer`: :class:`BPETokenizer` -- train, encode (special tokens as tiktoken,
  streamed), decode, batch, save, load, and the real vocabularies' files (GPT-2's, tiktoken's, tokenizers');
- :mod:`~course_lib.bpe.hf`: to and from ``tokenizers.Tokenizer``, with the same ids for every text;
- :mod:`~course_lib.bpe.corpus`: the course's own English and Russian prose, to train on.
- :mod:`~course_lib.bpe.vocabularies`: GPT-2's, cl100k's, o200k's and Mistral's real vocabularies, from pinned packages.

    >>> from course_lib.bpe import BPETokenizer, course_corpus
    >>> tok = BPETokenizer.train(course_corpus("en") + course_corpus("ru"), vocab_size=1000)
    >>> text = "Токенизатор режет текст на кусочки."
    >>> tok.decode(tok.encode(text)) == text
    True
"""

from .corpus import HELDOUT_LESSON, course_corpus
from .pretokenize import GPT2_PATTERN, pre_tokenize
from .tokenizer import MERGE_RULES, SPECIALS, STREAM_CHUNK, STREAM_MARGIN, BPETokenizer
from .train import MergeLearner, count_pairs, count_words, merge

__all__ = [
    "BPETokenizer",
    "SPECIALS",
    "MERGE_RULES",
    "STREAM_MARGIN",
    "STREAM_CHUNK",
    "GPT2_PATTERN",
    "pre_tokenize",
    "count_words",
    "count_pairs",
    "merge",
    "MergeLearner",
    "course_corpus",
    "HELDOUT_LESSON",
]
