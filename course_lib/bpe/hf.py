"""Our tokenizer and Hugging Face ``tokenizers``, one into the other, with the same ids for every text.

A byte-level BPE in ``tokenizers`` is four parts: ``pre_tokenizers.ByteLevel`` (the GPT-2
pattern, then each byte written as a printable character, :func:`~course_lib.bpe.pretokenize.byte_level`),
``models.BPE`` (the vocabulary as those characters, and the merges), ``decoders.ByteLevel``
and the special tokens. ``tokenizers`` is imported only when one of these functions runs.
"""

import json

from .messages import MESSAGES
from .pretokenize import byte_level, from_byte_level

__all__ = ["to_tokenizers", "from_tokenizers"]


def to_tokenizers(tok):
    """``tok`` (a :class:`~course_lib.bpe.BPETokenizer`) as a ``tokenizers.Tokenizer`` with the same ids.

    The special tokens are registered as special (``decode(..., skip_special_tokens=True)``
    leaves them out) and, as ``tokenizers`` does with special tokens, found in text: a text
    that spells ``<pad>`` gets its id, as ``tok.encode(text, allowed_special="all")`` gives it.
    ``hf.encode_special_tokens = True`` reads such text as text, as
    ``tok.encode(text, disallowed_special=())``; ``tokenizers`` does not save that flag, so the
    default is the one that survives ``save`` and ``Tokenizer.from_file``.
    """
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    names = [byte_level(tok.token_bytes(i)) for i in range(len(tok))]
    for name, i in tok.specials.items():
        names[i] = name
    vocab = {name: i for i, name in enumerate(names)}
    merges = [(names[a], names[b]) for a, b in tok.merges]
    hf = Tokenizer(models.BPE(vocab=vocab, merges=merges, ignore_merges=False))
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    hf.decoder = decoders.ByteLevel()
    hf.add_special_tokens([AddedToken(name, special=True, normalized=False) for name in tok.specials])
    return hf


def from_tokenizers(hf) -> tuple[list, list[tuple[int, int]]]:
    """The tokens (a special as ``str``, any other as ``bytes``) and merges of a byte-level BPE ``tokenizers.Tokenizer``.

    Accepted: a ``models.BPE`` without dropout, prefixes, suffixes, byte fallback or
    ``ignore_merges``, after ``pre_tokenizers.ByteLevel(add_prefix_space=False,
    use_regex=True)`` and no normalizer, with ``decoders.ByteLevel`` and no post-processor
    other than ``ByteLevel`` (which changes offsets only). Its special tokens keep their
    ids; ``tokenizers`` matches them in text (unless ``encode_special_tokens`` is set),
    :meth:`BPETokenizer.encode` only those in ``allowed_special``.
    """
    config = json.loads(hf.to_str())
    model = config["model"]
    problems = {
        "model": model.get("type") != "BPE",
        "dropout": model.get("dropout") not in (None, 0.0),
        "continuing_subword_prefix": bool(model.get("continuing_subword_prefix")),
        "end_of_word_suffix": bool(model.get("end_of_word_suffix")),
        "byte_fallback": bool(model.get("byte_fallback")),
        "ignore_merges": bool(model.get("ignore_merges")),
        "normalizer": config.get("normalizer") is not None,
        "pre_tokenizer": config.get("pre_tokenizer")
        != {
            **(config.get("pre_tokenizer") or {}),
            "type": "ByteLevel",
            "add_prefix_space": False,
            "use_regex": True,
        },
        "decoder": (config.get("decoder") or {}).get("type") != "ByteLevel",
        "post_processor": (config.get("post_processor") or {"type": "ByteLevel"}).get("type") != "ByteLevel",
        "added_tokens": any(not t["special"] for t in config.get("added_tokens", [])),
    }
    wrong = [name for name, bad in problems.items() if bad]
    if wrong:
        shown = {**model, **config, "model": model.get("type")}
        what = ", ".join(f"{name}={json.dumps(shown.get(name))}" for name in wrong)
        raise ValueError(MESSAGES("not_byte_level", what=what))
    specials = {t["id"]: t["content"] for t in config.get("added_tokens", [])}
    names = {i: name for name, i in model["vocab"].items()} | specials
    if sorted(names) != list(range(len(names))):
        reason = MESSAGES("reason_ids", count=len(names), first=min(names), last=max(names))
        raise ValueError(MESSAGES("bad_tokens", reason=reason))
    tokens = []
    for i in range(len(names)):
        token = specials.get(i, from_byte_level(names[i]))
        if token is None:
            reason = MESSAGES("reason_not_bytes", token_id=i, token=names[i])
            raise ValueError(MESSAGES("bad_tokens", reason=reason))
        tokens.append(token)
    pairs = [m.split(" ") if isinstance(m, str) else m for m in model["merges"]]
    return tokens, [(model["vocab"][a], model["vocab"][b]) for a, b in pairs]
