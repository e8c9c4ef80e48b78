"""Byte-level BPE: hand-checked training, incremental counts, lossless round trips, identity with
Hugging Face ``tokenizers`` (encoding, training and the pre-tokenizer), files, batches and errors."""

import collections
import json
import os
import random
import re
import stat
import unicodedata

import pytest
import regex
import torch
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

import course_lib
from course_lib import TransformerEmbedding
from course_lib.bpe import (
    HELDOUT_LESSON,
    SPECIALS,
    BPETokenizer,
    MergeLearner,
    count_pairs,
    count_words,
    course_corpus,
    merge,
    pre_tokenize,
)
from course_lib.bpe import corpus as corpus_module
from course_lib.bpe import tokenizer as tokenizer_module
from course_lib.bpe import train as train_module
from course_lib.bpe.messages import MESSAGES
from course_lib.bpe.pretokenize import (
    BYTE_ORDER,
    FAST_PATTERN,
    NEWER_CHARACTERS,
    NEWER_DIGITS,
    NEWER_LETTERS,
    PATTERN,
    byte_level,
    from_byte_level,
    from_readable,
    readable,
)
from course_lib.bpe.tokenizer import merge_word
from course_lib.i18n import LANGUAGES
from course_lib.validate import MESSAGES as VALIDATE_MESSAGES
from course_lib.vocab import MESSAGES as VOCAB_MESSAGES

CORPUS = course_corpus("en") + course_corpus("ru")
# text of every kind: all Unicode categories but the surrogates, which have no UTF-8
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)
WORDS = st.dictionaries(st.binary(min_size=1, max_size=8), st.integers(1, 5), min_size=1, max_size=12)
TRICKY = [
    "",
    "don't I'LL we've 'S 's' ''s you'd",
    "123 4567 1.5 ١٢٣ Ⅻ ½",
    "a\n\nb\r\n c  \t d   ",
    "   leading and trailing   ",
    "Привет, мир! Ёлка ёжик",
    "👍🏽 👨‍👩‍👧 🇷🇺 😀😀",
    unicodedata.normalize("NFD", "йод"),  # и + combining breve
    "zero\u200bwidth\u200dnon\u200cjoiner\ufeff\u00ad",
    "שלום עולם مرحبا بالعالم",
    "<pad> <bos><eos> text that spells a special token",
    "\x00\x01\x7f\x80 control",
    "a" * 500,
]


@pytest.fixture(scope="module")
def toks():
    """Tokenizers trained on the course's corpus, by vocabulary size."""
    return {size: BPETokenizer.train(CORPUS, size) for size in (300, 1000, 4000)}


def hf_trained(texts, vocab_size, specials=SPECIALS):
    """Hugging Face's own trainer, set up as byte-level BPE like ours."""
    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    hf.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=list(specials),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    hf.train_from_iterator(texts, trainer)
    return hf


def spelled(tok, merges):
    return [(tok.token_bytes(a), tok.token_bytes(b)) for a, b in merges]


# ----------------------------------------------------------------------------- training, by hand


def test_merges_on_sennrichs_example_worked_out_by_hand():
    # pairs e s and s t occur 9 times (newest 6 + widest 3): e (id 68) comes before s (82);
    # then l o and o w 7 times each: l (75) before o (78); then e w, n e, w est 6 times: e first
    learner = MergeLearner({b"low": 5, b"lower": 2, b"newest": 6, b"widest": 3})
    steps = [learner.step() for _ in range(7)]
    made = [learner.tokens[new] for _, new, _ in steps]
    assert made == [b"es", b"est", b"lo", b"low", b"ew", b"new", b"newest"]
    assert [count for _, _, count in steps] == [9, 9, 7, 7, 6, 6, 6]
    assert learner.words() == {
        (learner.tokens.index(b"low"),): 5,
        (learner.tokens.index(b"low"), 68, 81): 2,  # e r
        (learner.tokens.index(b"newest"),): 6,
        (86, 72, 67, learner.tokens.index(b"est")): 3,  # w i d est
    }


def test_overlapping_pairs_count_twice_and_merge_left_to_right():
    # «ааа» is d0 b0 d0 b0 d0 b0: «а» 3 times, then «а а» twice (overlapping), giving «аа» «а»
    learner = MergeLearner({"ааа".encode(): 1})
    (_, a, count_a), (_, aa, count_aa), (_, aaa, count_aaa) = [learner.step() for _ in range(3)]
    assert (count_a, count_aa, count_aaa) == (3, 2, 1)
    assert [learner.tokens[i] for i in (a, aa, aaa)] == ["а".encode(), "аа".encode(), "ааа".encode()]
    assert merge((a, a, a), (a, a), aa) == (aa, a)
    assert count_pairs({(a, a, a): 1}) == {(a, a): 2}
    assert learner.step() is None


def test_pairs_never_span_two_words():
    assert count_pairs({(1, 2): 3, (3, 4): 1}) == {(1, 2): 3, (3, 4): 1}  # no (2, 3)


def test_ids_bytes_in_tokenizers_order_then_merges():
    tok = BPETokenizer.train(["ab ab ab"], 300)
    assert [tok.token_bytes(i) for i in range(3, 3 + 256)] == [bytes([b]) for b in BYTE_ORDER]
    assert tok.token_bytes(3) == b"!" and tok.token_bytes(3 + 220) == b" "
    assert tok.specials == {"<pad>": 0, "<bos>": 1, "<eos>": 2} and tok.pad_id == 0
    assert [tok.token_bytes(i) for i in range(259, len(tok))] == [b"ab", b" ab"]  # all pairs merged: stops


def test_training_depends_on_the_word_counts_not_the_order_of_texts():
    texts = CORPUS[:200]
    assert BPETokenizer.train(texts, 600) == BPETokenizer.train(texts[::-1], 600)
    words = {b"banana": 2, b"bandana": 2, b"ban": 1}
    orders = [MergeLearner(dict(reversed(words.items()))), MergeLearner(words)]
    for learner in orders:
        while learner.step():
            pass
    assert orders[0].merges == orders[1].merges


@settings(max_examples=150, deadline=None)
@given(words=WORDS)
def test_incremental_counts_equal_a_recount_after_every_merge(words):
    learner = MergeLearner(words)
    replay = {tuple(learner.tokens.index(bytes([b])) for b in word): n for word, n in words.items()}
    while True:
        assert learner.pair_counts() == count_pairs(learner.words())
        assert learner.words() == replay
        step = learner.step()
        if step is None:
            break
        pair, new, count = step
        counts = count_pairs(replay)
        assert count == max(counts.values()) and pair == min(p for p, n in counts.items() if n == count)
        replay = {merge(word, pair, new): n for word, n in replay.items()}
    assert all(len(word) == 1 for word in learner.words())


@settings(max_examples=60, deadline=None)
@given(words=st.dictionaries(st.text("abcабв", min_size=1, max_size=8), st.integers(1, 5), min_size=1))
def test_encoding_a_training_word_gives_its_training_segmentation(words):
    learner = MergeLearner({word.encode(): n for word, n in words.items()}, offset=1)
    while learner.step():
        pass
    tok = BPETokenizer(["<pad>", *learner.tokens], [(a, b) for a, b, _ in learner.merges])
    assert [tuple(tok.encode(word)) for word in words] == list(learner.words())


def test_training_stops_when_every_word_is_one_token():
    tok = BPETokenizer.train(["aaa aaa"], 10_000)
    assert [tok.token_bytes(i) for i in range(259, len(tok))] == [b"aa", b"aaa", b" aaa"]


def test_a_truncated_tokenizer_is_the_one_trained_to_that_size(toks):
    # training is greedy: the first merges of a large vocabulary are those of a smaller one
    big = toks[4000]
    for size in (259, 260, 300, 1000, 2500, 4000):
        assert big.truncate(size) == BPETokenizer.train(CORPUS, size), size
    assert big.truncate(300) == toks[300]


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.text("aab c  абв\n'1é😀", max_size=40), min_size=1, max_size=5),
    sizes=st.lists(st.integers(0, 40), min_size=2, max_size=2),
)
def test_truncated_or_trained_to_any_size_on_any_small_corpus(texts, sizes):
    if not "".join(texts):
        return
    small, large = sorted(sizes)
    big = BPETokenizer.train(texts, 259 + large)
    size = min(259 + small, len(big))
    assert big.truncate(size) == BPETokenizer.train(texts, size)


def test_truncate_stops_after_the_merge_that_made_the_last_token_kept():
    # (a b) c and a (b c) both make abc: training to 260 tokens stops once abc exists, before a (bc)
    tokens = ["<pad>", *(bytes([b]) for b in range(256)), b"ab", b"bc", b"abc"]
    i = {t: n for n, t in enumerate(tokens)}
    merges = [(i[b"a"], i[b"b"]), (i[b"b"], i[b"c"]), (i[b"ab"], i[b"c"]), (i[b"a"], i[b"bc"])]
    tok = BPETokenizer(tokens, merges)
    assert tok.truncate(260).merges == merges[:3]
    assert tok.truncate(259).merges == merges[:2] and len(tok.truncate(259)) == 259
    assert tok.truncate(257).merges == [] and len(tok.truncate(257)) == 257


# ----------------------------------------------------------------------------- lossless


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT)
def test_decode_encode_is_the_identity_for_every_string(toks, text):
    for tok in toks.values():  # as ordinary text: by default a text that spells "<pad>" is refused
        assert tok.decode(tok.encode(text, disallowed_special=())) == text


@pytest.mark.parametrize("text", TRICKY)
def test_decode_encode_is_the_identity_on_tricky_text(toks, text):
    for tok in toks.values():
        assert tok.decode(tok.encode(text, disallowed_special=())) == text
        assert tok.decode(tok.encode(text, allowed_special="all"), skip_pad=False) == text
        assert "".join(pre_tokenize(text)) == text


def test_nothing_is_normalised():
    tok = BPETokenizer.train(CORPUS, 1000)
    nfc, nfd = "й", unicodedata.normalize("NFD", "й")
    assert tok.encode(nfc) != tok.encode(nfd) and tok.decode(tok.encode(nfd)) == nfd
    assert tok.encode("The") != tok.encode("the")


@pytest.mark.parametrize("text, index", [("a\ud800b", 1), ("\udfff", 0), ("ok 😀 \ud83d", 5)])
def test_a_lone_surrogate_is_named_with_its_position(toks, text, index, lang):
    context = text[max(0, index - 10) : index + 11]
    expected = MESSAGES("surrogate", lang, name="text", char=text[index], index=index, context=context)
    with pytest.raises(ValueError, match=re.escape(expected)):
        toks[300].encode(text)


def test_a_lone_surrogate_in_training_or_a_batch_names_its_text_and_position_there(toks, lang):
    # used to say "position 0" (its place in a pre-token) and not which text
    text = "a long first sentence, then w\udc00rld and more"
    index = text.index("\udc00")

    def expected(name):
        context = text[index - 10 : index + 11]
        return re.escape(MESSAGES("surrogate", lang, name=name, char="\udc00", index=index, context=context))

    with pytest.raises(ValueError, match=expected("texts[1]")):
        BPETokenizer.train(["fine", text], 300)
    with pytest.raises(ValueError, match=expected("texts[2]")):
        toks[300].encode_batch(["a", "b", text])
    with pytest.raises(
        ValueError,
        match=re.escape(
            MESSAGES("surrogate", lang, name="specials[1]", char="\ud800", index=2, context="<p\ud800>")
        ),
    ):
        BPETokenizer.train(["a"], 300, specials=["<pad>", "<p\ud800>"])


@pytest.mark.parametrize("chunk", [1, 90, 1 << 16])  # a chunk per text, texts 0-2 in one chunk, all in one
def test_a_lone_surrogate_in_a_stream_names_its_text_and_position_there(toks, lang, monkeypatch, chunk):
    # the stream checks a chunk at once and names the text in it that holds the surrogate
    monkeypatch.setattr(tokenizer_module, "STREAM_CHUNK", chunk)
    text = "a long first sentence, then w\udc00rld and more"
    index = text.index("\udc00")
    context = text[index - 10 : index + 11]
    expected = MESSAGES("surrogate", lang, name="texts[2]", char="\udc00", index=index, context=context)
    tok = toks[300]
    fine = "a fine text, long enough to be encoded before the next one is read. "
    stream = tok.encode_iterable([fine, "still fine ", text, "after"])
    if chunk == 1:  # the texts before it are encoded first
        assert next(stream) == tok.encode(fine)[0]
    with pytest.raises(ValueError, match=re.escape(expected)):
        list(stream)


def test_a_stream_checks_its_texts_a_chunk_at_a_time(toks, lang, monkeypatch):
    tok = toks[300]
    # in one chunk, a text that is not a str is reported before a lone surrogate in an earlier text
    not_str = re.escape(MESSAGES("text_not_str", lang, index=1, type_name="int"))
    with pytest.raises(TypeError, match=not_str):
        list(tok.encode_iterable(["x\udc00", 5]))
    monkeypatch.setattr(tokenizer_module, "STREAM_CHUNK", 1)  # a chunk per text: the surrogate comes first
    surrogate = re.escape(
        MESSAGES("surrogate", lang, name="texts[0]", char="\udc00", index=1, context="x\udc00")
    )
    with pytest.raises(ValueError, match=surrogate):
        list(tok.encode_iterable(["x\udc00", 5]))
    # a chunk that starts at texts[1] and holds the surrogate in its second text names texts[2]
    monkeypatch.setattr(tokenizer_module, "STREAM_CHUNK", 10)
    third = re.escape(
        MESSAGES("surrogate", lang, name="texts[2]", char="\udc00", index=1, context="c\udc00d")
    )
    with pytest.raises(ValueError, match=third):
        list(tok.encode_iterable(["0123456789", "ab", "c\udc00d"]))


# ----------------------------------------------------------------------------- identical to tokenizers


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT)
@example(text="<pad> and <eos>")
def test_tokenizers_gives_the_same_ids_for_every_string(toks, text):
    for tok in toks.values():
        hf = tok.to_tokenizers()
        assert hf.encode(text).ids == tok.encode(text, allowed_special="all")
        hf.encode_special_tokens = True
        assert hf.encode(text).ids == tok.encode(text, disallowed_special=())


def test_tokenizers_gives_the_same_ids_on_the_course_corpus_and_tricky_text(toks):
    texts = course_corpus("en", "all") + course_corpus("ru", "all") + TRICKY
    for tok in toks.values():
        hf = tok.to_tokenizers()
        assert [e.ids for e in hf.encode_batch(texts)] == [
            tok.encode(t, allowed_special="all") for t in texts
        ]
        hf.encode_special_tokens = True
        assert [e.ids for e in hf.encode_batch(texts)] == [
            tok.encode(t, disallowed_special=()) for t in texts
        ]
        ids = tok.encode(" ".join(texts), disallowed_special=())
        assert hf.decode(ids, skip_special_tokens=False) == tok.decode(ids) == " ".join(texts)


def test_special_tokens_decode_like_tokenizers(toks):
    tok = toks[1000]
    hf, ids = tok.to_tokenizers(), tok.encode("hello", add_bos_eos=True)
    assert ids[0] == 1 and ids[-1] == 2
    assert hf.decode(ids, skip_special_tokens=False) == tok.decode(ids) == "<bos>hello<eos>"
    assert hf.decode(ids) == "hello"
    assert tok.decode([0, *ids, 0]) == "<bos>hello<eos>" and tok.decode([0], skip_pad=False) == "<pad>"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ids=st.lists(st.integers(3, 999), max_size=30))
def test_any_ids_decode_like_tokenizers_even_when_cut_inside_a_character(toks, ids):
    tok = toks[1000]
    assert tok.to_tokenizers().decode(ids) == tok.decode(ids)


def test_tokenizers_does_not_save_encode_special_tokens():
    # documented in to_tokenizers: if this starts failing, tokenizers saves the flag and the note can go
    tok = BPETokenizer.train(["a b c"], 300)
    assert Tokenizer.from_str(tok.to_tokenizers().to_str()).encode_special_tokens is False


@pytest.mark.parametrize("size", [300, 1000, 4000, 6000])
def test_trained_here_and_by_tokenizers_the_vocabulary_is_identical(size):
    # every line, those that spell a special token too: BpeTrainer gives its special tokens the first
    # ids, but the tokenizer matches them in text only after training, so while training "<pad>" in a
    # text is ordinary text for both trainers
    assert any(s in t for t in CORPUS for s in SPECIALS)
    ours = BPETokenizer.train(CORPUS, size)
    assert BPETokenizer.from_tokenizers(hf_trained(CORPUS, size)) == ours
    assert len(ours) == min(size, 5495)  # at 6000 both run out of pairs at the same token


def test_tokenizers_trains_on_the_text_of_a_special_token():
    # lesson 2 says so: the special tokens given to BpeTrainer do not cut the training text
    texts = ["x <pad> y <pad>"] * 50
    hf = hf_trained(texts, 270)
    assert ["a", "d"] in [
        m.split(" ") if isinstance(m, str) else m for m in json.loads(hf.to_str())["model"]["merges"]
    ]
    assert BPETokenizer.from_tokenizers(hf) == BPETokenizer.train(texts, 270)


@settings(max_examples=40, deadline=None)
@given(
    texts=st.lists(st.text("aab c  абв\n'1é😀", max_size=40), min_size=1, max_size=5),
    extra=st.integers(0, 40),
)
def test_trained_here_and_by_tokenizers_on_any_small_corpus(texts, extra):
    if not "".join(texts):
        return
    assert BPETokenizer.from_tokenizers(hf_trained(texts, 259 + extra)) == BPETokenizer.train(
        texts, 259 + extra
    )


def test_round_trip_through_tokenizers(toks, tmp_path):
    for tok in toks.values():
        assert BPETokenizer.from_tokenizers(tok.to_tokenizers()) == tok
        tok.to_tokenizers().save(str(tmp_path / "tokenizer.json"))
        assert BPETokenizer.from_tokenizers(Tokenizer.from_file(str(tmp_path / "tokenizer.json"))) == tok


def test_a_vocabulary_where_two_merges_spell_the_same_token():
    # (a b) c and a (b c) both make abc: one token, as tokenizers' trainer does
    tokens = ["<pad>", *(bytes([b]) for b in range(256)), b"ab", b"bc", b"abc"]
    i = {t: n for n, t in enumerate(tokens)}
    merges = [(i[b"a"], i[b"b"]), (i[b"b"], i[b"c"]), (i[b"ab"], i[b"c"]), (i[b"a"], i[b"bc"])]
    tok = BPETokenizer(tokens, merges)
    hf = tok.to_tokenizers()
    for text in ["abc", "aabc", "abcbc", "babc", "abcabc", "cabbc"]:
        assert tok.encode(text) == hf.encode(text).ids
    assert BPETokenizer.from_tokenizers(hf) == tok


# ----------------------------------------------------------------------------- encoding a word with a heap


def plain_loop(ids, ranks):
    """BPE's encoding as minbpe writes it, the encoder before the heap: the pair of lowest rank, merged
    everywhere, until no pair has a merge. O(length x merges), the reference for merge_word."""
    ids = tuple(ids)
    while len(ids) > 1:
        pair = min(zip(ids, ids[1:], strict=False), key=lambda p: ranks.get(p, (float("inf"),)))
        if pair not in ranks:
            return ids
        ids = merge(ids, pair, ranks[pair][1])
    return ids


def random_merges(draw, pool, n):
    """A BPETokenizer of up to ``n`` random merges, each of two tokens drawn from ``pool`` (which
    grows with every new token); two merges may spell the same bytes, which then share one id."""
    tokens = ["<pad>", *(bytes([b]) for b in range(256))]
    ids = {t: i for i, t in enumerate(tokens) if i}
    pool, merges = list(pool), []
    for x, y in draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, n)), max_size=n)):
        first, second = pool[x % len(pool)], pool[y % len(pool)]
        if (ids[first], ids[second]) in merges:
            continue
        if first + second not in ids:
            ids[first + second] = len(tokens)
            tokens.append(first + second)
            pool.append(first + second)
        merges.append((ids[first], ids[second]))
    return BPETokenizer(tokens, merges)


@st.composite
def vocabularies(draw):
    """A vocabulary of random merges over the letters a b c d, where many merges spell a token twice."""
    return random_merges(draw, [b"a", b"b", b"c", b"d"], 40)


@settings(max_examples=300, deadline=None)
@given(tok=vocabularies(), text=st.text("abcd", max_size=40))
@example(tok=BPETokenizer(["<pad>", *(bytes([b]) for b in range(256)), b"aa"], [(98, 98)]), text="aaaaa")
def test_the_heap_merges_like_the_plain_loop_and_tokenizers(tok, text):
    ids = [tok.encode(ch)[0] for ch in text]
    assert merge_word(ids, tok._ranks) == plain_loop(ids, tok._ranks)
    assert list(merge_word(ids, tok._ranks)) == tok.to_tokenizers().encode(text).ids


def test_the_heap_merges_every_pre_token_of_the_course_like_the_plain_loop(toks):
    texts = course_corpus("en", "all") + course_corpus("ru", "all") + TRICKY
    pieces = sorted({piece for text in texts for piece in pre_tokenize(text)})
    for tok in toks.values():
        for piece in pieces:
            ids = [tok._byte_ids[b] for b in piece.encode()]
            assert merge_word(ids, tok._ranks) == plain_loop(ids, tok._ranks), piece


def test_one_long_pre_token_encodes_like_tokenizers():
    # random DNA: a single run of letters, one pre-token, as in benchmarks/bench_bpe.py
    rng = random.Random(0)
    dna = ["".join(rng.choices("ACGT", k=200)) for _ in range(50)]
    tok = BPETokenizer.train(dna, 259 + 300)
    long = "".join(rng.choices("ACGT", k=20_000))
    assert tok.encode(long) == tok.to_tokenizers().encode(long).ids
    ids = [tok._byte_ids[b] for b in long[:3000].encode()]
    assert merge_word(ids, tok._ranks) == plain_loop(ids, tok._ranks)


# ----------------------------------------------------------------------------- the short-piece merger

# a space, Latin letters and two-byte characters whose bytes the random merges below join in any order,
# with one another and across characters (a space with a lead byte, a trailing byte with the next lead byte)
MULTIBYTE = " aоваé"


@st.composite
def multibyte_vocabularies(draw):
    """A vocabulary of random merges over the bytes of ``MULTIBYTE``: characters that merge whole, in
    parts, never, or after their bytes were taken by a neighbour's merge."""
    return random_merges(draw, sorted({bytes([b]) for b in MULTIBYTE.encode()}), 60)


@settings(max_examples=300, deadline=None)
@given(tok=multibyte_vocabularies(), text=st.text(MULTIBYTE, max_size=40))
@example(  # " о": the space takes the lead byte (rank 0) before the letter's own merge (rank 1)
    tok=BPETokenizer(
        ["<pad>", *(bytes([b]) for b in range(256)), b" \xd0", b"\xd0\xbe"], [(33, 209), (209, 191)]
    ),
    text=" оо о",
)
def test_the_short_merger_merges_like_the_heap(tok, text):
    for piece in [*PATTERN.findall(text), text]:
        expected = merge_word([tok._byte_ids[b] for b in piece.encode()], tok._ranks)
        assert tok._encode_piece(piece) == expected, piece  # the short merger's where there are merges


def test_the_short_merger_merges_every_pre_token_of_the_course_like_the_heap(toks):
    rng = random.Random(0)
    letters = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВ éü—«»… ,.0"
    texts = [*CORPUS, *TRICKY, *("".join(rng.choices(letters, k=30)) for _ in range(300))]
    pieces = sorted({piece for text in texts for piece in pre_tokenize(text)})
    for tok in toks.values():
        for piece in pieces:
            expected = merge_word([tok._byte_ids[b] for b in piece.encode()], tok._ranks)
            assert tok._merge_short(piece) == expected, piece
        # some characters did start merged, so that the test covers both ways
        assert any(len(start) == 1 < len(c.encode()) for c, start in tok._merge_short.starts.items())


def test_the_short_merger_s_limits_are_the_lowest_ranks_in_any_order_of_the_merges(toks):
    # left_min[t]: the lowest rank of a merge (a, t) where a does not end in a space; right_min[t]: of a merge
    # (t, b) where b starts a character. Counted here one token at a time, and again with the merges' table
    # read in the reverse order (the limits must not depend on the order it was filled in)
    for tok in toks.values():
        merger, ranks, tokens = tok._merge_short, tok._ranks, tok._bytes
        n = len(ranks)
        left = [min((r for (a, b), (r, _) in ranks.items() if b == t and tokens[a][-1] != 0x20), default=n)
                for t in range(len(tokens))]  # fmt: skip
        right = [min((r for (a, b), (r, _) in ranks.items() if a == t and not 0x80 <= tokens[b][0] < 0xC0),
                     default=n) for t in range(len(tokens))]  # fmt: skip
        assert (merger.left_min, merger.right_min) == (left, right)
        assert any(x < n for x in left) and any(x < n for x in right)
        merger.ranks = dict(reversed(ranks.items()))
        merger._build_limits()
        assert (merger.left_min, merger.right_min) == (left, right)
        merger.ranks = ranks


@pytest.mark.parametrize(
    "text", TRICKY + ["it's", "IT'S", "x'ss", "1,000,000", "a\u00a0b", "\u2028\u2029\x85"]
)
def test_pre_tokenization_is_tokenizers_bytelevel(text):
    hf = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    assert [byte_level(p.encode()) for p in pre_tokenize(text)] == [p for p, _ in hf.pre_tokenize_str(text)]


def test_the_newer_letters_and_digits_are_exactly_where_regex_and_tokenizers_disagree():
    # both know at least the Unicode of Python's unicodedata (14.0 in 3.11; tokenizers knows 16.0), so
    # a code point on which regex and unicodedata agree is a letter (digit) for all three or for none:
    # only the others need asking
    letter, digit = regex.compile(r"\p{L}"), regex.compile(r"\p{N}")
    candidates = [
        c
        for c in map(chr, range(0x110000))
        if not 0xD800 <= ord(c) <= 0xDFFF
        and (bool(letter.match(c)), bool(digit.match(c)))
        != tuple(unicodedata.category(c)[0] == x for x in "LN")
    ]
    assert len(candidates) >= 17_144 + 336
    text = "".join(f" a{c}1{c}!{c}" for c in candidates)
    hf = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    assert [byte_level(p.encode()) for p in PATTERN.findall(text)] == [
        p for p, _ in hf.pre_tokenize_str(text)
    ]
    newer = regex.compile(f"[{NEWER_LETTERS}]"), regex.compile(f"[{NEWER_DIGITS}]")
    assert sum(map(bool, map(newer[0].match, candidates))) == 17_144
    assert sum(map(bool, map(newer[1].match, candidates))) == 336


# ----------------------------------------------------------------------------- files


def test_save_and_load_give_the_same_tokenizer_in_readable_json(toks, tmp_path):
    tok = toks[1000]
    path = tmp_path / "bpe.json"
    tok.save(path)
    assert BPETokenizer.load(path) == tok
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["specials"] == {"<pad>": 0, "<bos>": 1, "<eos>": 2}
    assert len(data["tokens"]) == len(tok) and len(data["merges"]) == len(tok.merges)
    cyrillic = [pair for pair in data["merges"] if all(re.fullmatch(" ?[а-я]+", part) for part in pair)]
    assert " на" in data["tokens"] and len(cyrillic) > 50  # Russian reads as Russian
    assert data["merges"][0] == [" ", "\\xd0"]  # half a Cyrillic letter: its byte, escaped
    assert data["tokens"][3 + 220] == " " and "\\xd0" in data["tokens"]
    assert path.read_text(encoding="utf-8").count("\n") > len(tok)  # one token, one merge per line


def test_an_interrupted_save_leaves_the_old_file(toks, tmp_path, monkeypatch):
    path = tmp_path / "bpe.json"
    toks[300].save(path)
    before = path.read_bytes()

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(tokenizer_module.os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        toks[1000].save(path)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["bpe.json"]


@pytest.mark.parametrize(
    "content",
    ["not json", "[]", '{"format": "other"}', '{"format": "course_lib.BPETokenizer", "tokens": []}'],
)
def test_a_file_that_is_no_tokenizer_is_a_clear_error(tmp_path, content, lang):
    path = tmp_path / "bad.json"
    path.write_text(content)
    prefix = MESSAGES("not_a_file", lang, path=str(path), detail="").rstrip()
    with pytest.raises(ValueError, match=re.escape(prefix)):
        BPETokenizer.load(path)


@settings(max_examples=200, deadline=None)
@given(token=st.binary(max_size=12))
def test_readable_and_byte_level_spellings_are_exact(token):
    assert from_readable(readable(token)) == token
    assert from_byte_level(byte_level(token)) == token


# ----------------------------------------------------------------------------- batches, looks, cache


def test_encode_batch_pads_like_vocab_and_feeds_transformer_embedding(toks):
    tok = toks[1000]
    texts = ["The tokenizer cuts text.", "Токенизатор режет текст на кусочки.", "a"]
    ids, mask = tok.encode_batch(texts)
    lengths = [len(tok.encode(t)) for t in texts]
    assert (
        ids.dtype == torch.long and mask.dtype == torch.bool and ids.shape == mask.shape == (3, max(lengths))
    )
    assert mask.sum(1).tolist() == lengths and (ids[~mask] == tok.pad_id).all()
    assert [tok.decode(row) for row in ids] == texts
    out = TransformerEmbedding(len(tok), 16, max_len=64, dropout=0.0)(ids)
    assert out.shape == (3, max(lengths), 16)
    bos, _ = tok.encode_batch(texts, add_bos_eos=True)
    assert (bos[:, 0] == 1).all() and bos.shape[1] == ids.shape[1] + 2


def test_looking_at_tokens(toks):
    tok = toks[300]
    assert repr(tok) == "BPETokenizer(vocab_size=300, merges=41, specials=['<pad>', '<bos>', '<eos>'])"
    assert len(tok) == tok.vocab_size == 300
    assert "".join(tok.tokens("the cat")) == "the cat"
    assert tok.id_to_token(0) == "<pad>" and tok.token_bytes(0) == b"<pad>"
    assert tok.tokens("ж") == ["\\xd0", "\\xb6"] and tok.id_to_token(tok.encode("\\")[0]) == "\\\\"
    assert course_lib.BPETokenizer is BPETokenizer


def test_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(tokenizer_module, "CACHE_SIZE", 3)
    tok = BPETokenizer.train(["a b c d e f"], 270)
    assert tok.encode("a b c d e f") == tok.encode("a b c d e f") and len(tok._cache) == 3


# ----------------------------------------------------------------------------- at scale: documents, processes, fast paths

NEWER = sorted(NEWER_CHARACTERS)[::997]  # a few of each range's characters, letters and digits
# texts of every kind with, now and then, a letter or digit that only one of the two patterns knows
NEWER_TEXT = st.lists(st.one_of(TEXT, st.sampled_from(NEWER)), max_size=6).map("".join)


def test_the_newer_characters_are_the_classes_of_the_pattern():
    assert len(NEWER_CHARACTERS) == 17_144 + 336  # as pretokenize's docstring counts them
    newer = regex.compile(f"[{NEWER_LETTERS}{NEWER_DIGITS}]")
    assert {c for c in map(chr, range(0x40000)) if newer.fullmatch(c)} == NEWER_CHARACTERS


@settings(max_examples=300, deadline=None)
@given(text=NEWER_TEXT)
@example(text="!\u0558 a\u0558b 1\U00011de0")
def test_the_fast_pattern_cuts_as_the_pattern_where_there_is_no_newer_character(text):
    if NEWER_CHARACTERS.isdisjoint(text):
        assert FAST_PATTERN.findall(text) == PATTERN.findall(text)
    else:  # the fast twin must not be trusted: it cuts otherwise (here, or on some text)
        assert any(not NEWER_CHARACTERS.isdisjoint(piece) for piece in FAST_PATTERN.findall(text))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(NEWER_TEXT, min_size=1, max_size=4))
@example(texts=["! \u0558 a", "!\u0558", "a\u0558b"])  # "!" and "\u0558" cached, then met together
def test_encoding_with_newer_characters_is_the_pattern_s_cut_whatever_is_cached(toks, texts):
    tok = toks[300]
    for text in texts:  # one after the other, so that each meets the cache the others filled
        expected = _exact_ids(tok, text)
        assert tok.encode(text, disallowed_special=()) == expected
        chunks = [text[: len(text) // 2], text[len(text) // 2 :]]
        assert list(tok.encode_iterable(chunks, disallowed_special=())) == expected
        with pytest.MonkeyPatch.context() as patch:  # each text a chunk: the stream cuts between them
            patch.setattr(tokenizer_module, "STREAM_CHUNK", 1)
            assert list(tok.encode_iterable(chunks, disallowed_special=())) == expected
    assert all(NEWER_CHARACTERS.isdisjoint(piece) for piece in tok._cache)


def _exact_ids(tok, text):
    """The ids of ``text`` cut by ``PATTERN`` itself, each pre-token merged by :func:`merge_word`."""
    return [
        i
        for piece in PATTERN.findall(text)
        for i in merge_word([tok._byte_ids[b] for b in piece.encode()], tok._ranks)
    ]


def test_a_stream_cut_before_a_newer_character_is_the_pattern_s(monkeypatch):
    # the fast cut of the first text is "x", " !", "\u0558aaa…" (a letter for it), the pattern's
    # "x", " !\u0558" (a symbol for it), "aaa…": the stream keeps back the last piece and must
    # not encode the fast " !" before it, since " !\u0558" is a token here
    text = "x !\u0558" + "a" * 40 + " y"
    tok = BPETokenizer.train([text] * 3, 300)
    assert tok.encode(" !\u0558") == [tok._ids[" !\u0558".encode()]]
    monkeypatch.setattr(tokenizer_module, "STREAM_CHUNK", 1)  # each text a chunk
    assert list(tok.encode_iterable([text[:23], text[23:]])) == tok.encode(text) == _exact_ids(tok, text)


def test_a_stream_with_a_pattern_that_skips_characters_is_its_encode(monkeypatch):
    # a pattern need not cut every character: what it skips, encode and the stream both leave out
    tok = BPETokenizer([bytes([b]) for b in range(256)], pattern=r"[a-z]+")
    texts = ["ab, cd; " * 5, "ef gh " * 5, "ij"]
    monkeypatch.setattr(tokenizer_module, "STREAM_CHUNK", 1)  # each text a chunk, cut where it ends
    assert (
        list(tok.encode_iterable(texts))
        == tok.encode("".join(texts))
        == list(b"abcd" * 5 + b"efgh" * 5 + b"ij")
    )


def test_the_cache_keeps_no_long_pre_token(monkeypatch):
    monkeypatch.setattr(tokenizer_module, "CACHED_LENGTH", 3)
    tok = BPETokenizer.train(["ab abcd"], 270)
    assert tok.encode("ab abcd") == tok.encode("ab abcd") and set(tok._cache) == {"ab"}


def _documents(text: str, size: int) -> list[str]:
    """``text`` cut into documents of about ``size`` pre-tokens, at pre-token boundaries."""
    pieces = PATTERN.findall(text)
    return ["".join(pieces[i : i + size]) for i in range(0, len(pieces), size)]


def test_training_on_documents_is_training_on_their_joined_text_and_on_an_open_file(tmp_path):
    joined = "\n".join(CORPUS[:300])
    documents = _documents(joined, 7)  # cut where the pattern cuts: no pre-token spans two of them
    expected = BPETokenizer.train([joined], 700)
    assert BPETokenizer.train(iter(documents), 700) == expected
    assert BPETokenizer.train((d for d in documents), 700, specials=("<pad>", "<bos>", "<eos>")) == expected
    path = tmp_path / "corpus.txt"
    path.write_text(joined, encoding="utf-8")
    with open(path, encoding="utf-8") as lines:  # lines end with "\n": cut where the pattern cuts
        assert BPETokenizer.train(lines, 700) == expected
    # a pre-token never spans two documents: "a b" is "a", " b"; "a ", "b" is "a", " ", "b"
    assert count_words(["a b"]) == {b"a": 1, b" b": 1} and count_words(["a ", "b"]) == {
        b"a": 1,
        b" ": 1,
        b"b": 1,
    }


def test_training_with_two_processes_gives_the_serial_merges(monkeypatch):
    monkeypatch.setattr(train_module, "COUNT_CHUNK", 2_000)  # many chunks out of a small corpus
    texts = CORPUS[:1500] + ["!\u0558 a\u0558b"]  # a newer character: one chunk counted again
    serial = count_words(texts)
    assert sum(len(t) for t in texts) > 20 * train_module.COUNT_CHUNK
    assert count_words(iter(texts), workers=2) == serial == count_words(texts, workers=3)
    assert serial == {
        piece.encode(): n
        for piece, n in collections.Counter(
            piece for text in texts for piece in PATTERN.findall(text)
        ).items()
    }
    assert BPETokenizer.train(texts, 600, workers=2) == BPETokenizer.train(texts, 600)


def test_training_at_scale_input_errors(lang):
    for bad in ("one text", b"bytes", 3, None):
        _raises(
            TypeError,
            "train_texts_type",
            lambda bad=bad: BPETokenizer.train(bad, 300),
            type_name=type(bad).__name__,
        )
    _raises(
        TypeError,
        "text_not_str",
        lambda: BPETokenizer.train(iter(["a", "b", b"c"]), 300),
        index=2,
        type_name="bytes",
    )
    for bad in (0, -1, 1.5, "2", True):
        with pytest.raises(
            ValueError, match=re.escape(VALIDATE_MESSAGES("not_positive_int", name="workers", value=bad))
        ):
            BPETokenizer.train(["a"], 300, workers=bad)
    _raises(
        ValueError, "empty_corpus", lambda: BPETokenizer.train(iter(["", "", ""]), 300, workers=2), count=3
    )


# ----------------------------------------------------------------------------- the corpus


def test_the_corpus_ships_with_the_package_in_both_languages():
    for lang in ("en", "ru"):
        train, heldout, everything = (course_corpus(lang, s) for s in ("train", "heldout", "all"))
        assert len(corpus_module.lessons(lang)) == 6 and HELDOUT_LESSON in corpus_module.lessons(lang)
        assert sorted(train + heldout) == sorted(everything) and len(train) > 5 * len(heldout) > 0
        assert not any(re.search(r"\*\*|\$|```|\]\(", line) for line in everything)
    assert re.search("[а-я]", " ".join(course_corpus("ru"))) and not re.search(
        "[а-я]", course_corpus("en")[0]
    )


def test_extraction_keeps_the_prose_a_student_reads():
    source = "\n".join(
        [
            "---",
            "jupytext: {}",
            "---",
            '+++ {"tags": ["lang-en"], "slideshow": {"slide_type": "slide"}}',
            "",
            "# 1. Title",
            "A **bold** word, a [link](http://x), `code`, $\\sqrt{d_{model}}$ and $\\frac{a}{b}$.",
            "",
            "$$x = 1$$",
            "```python",
            "print('no')",
            "```",
            "| a | b |",
            "|---|---|",
            "- item",
            '+++ {"tags": ["lang-ru"]}',
            "Русский текст.",
            "```{code-cell} ipython3",
            "x = 1",
            "```",
            '+++ {"tags": ["lang-en"], "slideshow": {"slide_type": "notes"}}',
            "Speaker notes.",
        ]
    )
    assert corpus_module.extract_prose(source, "en") == [
        "1. Title",
        "A bold word, a link, code, √d_model and .",
        "a b",
        "item",
    ]
    assert corpus_module.extract_prose(source, "ru") == ["Русский текст."]


# ----------------------------------------------------------------------------- errors, in the student's language


def _raises(error, key, fn, **values):
    with pytest.raises(error, match=re.escape(MESSAGES(key, **values))):
        fn()


def test_training_input_errors(lang):
    _raises(TypeError, "train_texts_type", lambda: BPETokenizer.train("one text", 300), type_name="str")
    _raises(TypeError, "text_not_str", lambda: BPETokenizer.train(["a", 3], 300), index=1, type_name="int")
    _raises(ValueError, "empty_corpus", lambda: BPETokenizer.train([], 300), count=0)
    _raises(ValueError, "empty_corpus", lambda: BPETokenizer.train(["", ""], 300), count=2)
    for bad in (300.0, "300", True, None):
        _raises(TypeError, "vocab_size_type", lambda bad=bad: BPETokenizer.train(["a"], bad), value=bad)
    _raises(
        ValueError,
        "vocab_size_small",
        lambda: BPETokenizer.train(["a"], 258),
        value=258,
        minimum=259,
        last=258,
        n_specials=3,
    )


def test_special_token_errors(lang):
    _raises(
        TypeError,
        "specials_not_list",
        lambda: BPETokenizer.train(["a"], 300, specials="<pad>"),
        type_name="str",
    )
    assert BPETokenizer.train(["a"], 300, specials=()).pad_id is None
    for bad in (None, "", 0):
        _raises(
            TypeError,
            "special_not_str",
            lambda bad=bad: BPETokenizer.train(["a"], 300, specials=[bad]),
            value=bad,
        )
    _raises(
        ValueError,
        "special_duplicate",
        lambda: BPETokenizer.train(["a"], 300, specials=["<pad>", "<pad>"]),
        value="<pad>",
    )
    _raises(
        ValueError,
        "special_is_token",
        lambda: BPETokenizer.train(["a"], 300, specials=["a"]),
        value="a",
        token_id=65,
    )


def test_encoding_and_decoding_errors(toks, lang):
    tok = toks[300]
    _raises(TypeError, "encode_not_str", lambda: tok.encode(b"bytes"), type_name="bytes")
    for bad in (-1, 300, 1.5, "3", True):
        _raises(ValueError, "decode_id", lambda bad=bad: tok.decode([5, bad]), value=bad, vocab_size=300)
        _raises(ValueError, "token_id", lambda bad=bad: tok.id_to_token(bad), value=bad, vocab_size=300)
    with pytest.raises(TypeError, match=re.escape(VOCAB_MESSAGES("decode_not_ids", got="str"))):
        tok.decode("abc")
    with pytest.raises(ValueError, match=re.escape(VOCAB_MESSAGES("empty_batch"))):
        tok.encode_batch([])
    _raises(TypeError, "texts_not_list", lambda: tok.encode_batch("abc"), type_name="str")
    only_pad = BPETokenizer.train(["a"], 300, specials=["<pad>"])
    _raises(ValueError, "no_bos_eos", lambda: only_pad.encode("a", add_bos_eos=True), specials=["<pad>"])


def test_truncate_errors(toks, lang):
    tok = toks[300]
    for bad in (258, 301, -1):
        _raises(
            ValueError, "truncate_range", lambda bad=bad: tok.truncate(bad), value=bad, minimum=259, size=300
        )
    for bad in (300.0, "300", True, None):
        _raises(TypeError, "vocab_size_type", lambda bad=bad: tok.truncate(bad), value=bad)


def test_corpus_errors(lang):
    _raises(ValueError, "corpus_lang", lambda: course_corpus("xx"), value="xx", languages=LANGUAGES)
    _raises(
        ValueError,
        "corpus_split",
        lambda: course_corpus("en", "test"),
        value="test",
        splits=("train", "heldout", "all"),
    )


def test_a_vocabulary_given_as_data_is_checked(lang):
    byte_tokens = [bytes([b]) for b in range(256)]
    a, b = 1 + ord("a"), 1 + ord("b")
    _raises(
        ValueError, "bad_merge", lambda: BPETokenizer(["<pad>", *byte_tokens], [(a, b)]), index=0, pair=(a, b)
    )
    _raises(
        ValueError,
        "bad_merge",
        lambda: BPETokenizer(["<pad>", *byte_tokens, b"ab", b"abb"], [(258, b), (a, b)]),
        index=0,
        pair=(258, b),
    )
    reason = MESSAGES("reason_bytes")
    _raises(ValueError, "bad_tokens", lambda: BPETokenizer(["<pad>", *byte_tokens[1:]], []), reason=reason)
    reason = MESSAGES("reason_unreachable", token_id=257, token=b"ab")
    _raises(ValueError, "bad_tokens", lambda: BPETokenizer(["<pad>", *byte_tokens, b"ab"], []), reason=reason)
    reason = MESSAGES("reason_duplicate", first=1, second=257, token=b"\x00")
    _raises(
        ValueError, "bad_tokens", lambda: BPETokenizer(["<pad>", *byte_tokens, b"\x00"], []), reason=reason
    )
    assert BPETokenizer(byte_tokens, []).specials == {}  # no special token is a vocabulary too


def test_the_constructor_refuses_tokens_and_merges_of_the_wrong_type(lang):
    byte_tokens = [bytes([b]) for b in range(256)]
    # bytes(10**11) would have allocated 100 GB; a float merge was truncated to an id
    _raises(
        TypeError,
        "token_type",
        lambda: BPETokenizer(["<pad>", *byte_tokens, 10**11], []),
        index=257,
        value=10**11,
    )
    _raises(TypeError, "tokens_not_list", lambda: BPETokenizer("<pad>abc", []), type_name="str")
    _raises(
        TypeError,
        "merges_not_list",
        lambda: BPETokenizer(["<pad>", *byte_tokens], None),
        type_name="NoneType",
    )
    for bad in [(1.7, 2.2), (1, 2, 3), (1,), "ab", (True, 2)]:
        _raises(
            TypeError,
            "merge_not_pair",
            lambda bad=bad: BPETokenizer(["<pad>", *byte_tokens, b"\x00\x01"], [bad]),
            index=0,
            value=bad,
        )


def _saved(toks, tmp_path, **changes):
    path = tmp_path / "bpe.json"
    toks[300].save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, **changes}), encoding="utf-8")
    return path, data


def test_load_refuses_another_version_another_pattern_and_special_ids_outside_the_file(toks, tmp_path, lang):
    # each used to load as if nothing were wrong
    path, data = _saved(toks, tmp_path, version=99)
    _raises(
        ValueError, "load_version", lambda: BPETokenizer.load(path), path=str(path), value=99, supported=1
    )
    path, _ = _saved(toks, tmp_path, pattern=r"\w+")
    values = dict(path=str(path), value=r"\w+", expected=course_lib.bpe.GPT2_PATTERN)
    _raises(ValueError, "load_pattern", lambda: BPETokenizer.load(path), **values)
    for bad in (300, -1, 1.0, 1):  # past the end, negative, a float, another special's id
        path, _ = _saved(toks, tmp_path, specials={**data["specials"], "<mask>": bad})
        values = dict(path=str(path), name="<mask>", value=bad, size=300, last=299)
        _raises(ValueError, "load_special_id", lambda path=path: BPETokenizer.load(path), **values)


def test_load_of_deeply_nested_json_is_a_clear_error(tmp_path, lang):
    # used to raise RecursionError
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    prefix = MESSAGES("not_a_file", lang, path=str(path), detail="RecursionError")
    with pytest.raises(ValueError, match=re.escape(prefix)):
        BPETokenizer.load(path)


def test_a_saved_file_gets_the_mode_of_any_new_file(toks, tmp_path):
    # tempfile.mkstemp made it 0600: unreadable to the group even where the umask allows it
    old = os.umask(0o022)
    try:
        toks[300].save(tmp_path / "bpe.json")
        (tmp_path / "plain.txt").write_text("x")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "bpe.json").stat().st_mode)
    assert mode == stat.S_IMODE((tmp_path / "plain.txt").stat().st_mode) == 0o644


def test_flags_must_be_bools(toks, lang):
    # skip_pad="False" is a true string: it used to skip the padding
    tok = toks[300]
    for name, call in [
        ("skip_pad", lambda bad: tok.decode([0, 5], skip_pad=bad)),
        ("add_bos_eos", lambda bad: tok.encode("a", add_bos_eos=bad)),
        ("add_bos_eos", lambda bad: tok.encode_batch(["a"], add_bos_eos=bad)),
    ]:
        for bad in ("False", 0, None):
            with pytest.raises(
                TypeError, match=re.escape(VALIDATE_MESSAGES("not_a_flag", name=name, value=bad))
            ):
                call(bad)


def test_decode_of_ids_on_the_meta_device_is_a_clear_error(toks, lang):
    # used to be torch's NotImplementedError "Cannot copy out of meta tensor"
    ids = torch.tensor([5, 6], device="meta")
    with pytest.raises(ValueError, match=re.escape(VOCAB_MESSAGES("decode_meta", value=ids))):
        toks[300].decode(ids)


def test_the_public_helpers_name_what_is_wrong(lang):
    # each used to leak a Python-internal error (AttributeError 'items', unpacking, 'bytes-like object'),
    # or to answer nonsense: merge("abc", ...) gave ('a', 'b', 'c')
    _raises(TypeError, "word_not_ids", lambda: merge("abc", (1, 2), 3), name="merge", value="abc")
    _raises(TypeError, "pair_not_ids", lambda: merge((1, 2), (1,), 3), value=(1,))
    _raises(TypeError, "new_id_not_int", lambda: merge((1, 2), (1, 2), 3.0), value=3.0)
    _raises(TypeError, "words_not_dict", lambda: count_pairs([(1, 2)]), name="count_pairs", type_name="list")
    _raises(TypeError, "word_not_ids", lambda: count_pairs({"ab": 1}), name="count_pairs", value="ab")
    _raises(
        ValueError,
        "count_not_positive",
        lambda: count_pairs({(1, 2): "x"}),
        name="count_pairs",
        word=(1, 2),
        value="x",
    )
    _raises(TypeError, "not_str", lambda: pre_tokenize(5), name="pre_tokenize", type_name="int")
    _raises(TypeError, "words_not_dict", lambda: MergeLearner([b"ab"]), name="MergeLearner", type_name="list")
    _raises(TypeError, "word_not_bytes", lambda: MergeLearner({"ab": 1}), name="MergeLearner", value="ab")
    _raises(
        ValueError,
        "count_not_positive",
        lambda: MergeLearner({b"ab": 0}),
        name="MergeLearner",
        word=b"ab",
        value=0,
    )
    with pytest.raises(
        ValueError, match=re.escape(VALIDATE_MESSAGES("not_non_negative_int", name="offset", value="x"))
    ):
        MergeLearner({b"ab": 1}, offset="x")


def test_from_tokenizers_refuses_what_is_not_byte_level_bpe(lang):
    # a name is no tokenizer: used to be AttributeError 'str' object has no attribute 'to_str'
    _raises(TypeError, "not_a_tokenizer", lambda: BPETokenizer.from_tokenizers("gpt2"), value="gpt2")
    wordpiece = Tokenizer(models.WordPiece({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
    with pytest.raises(ValueError, match=re.escape(MESSAGES("not_byte_level", what="")[:-1])):
        BPETokenizer.from_tokenizers(wordpiece)
    hf = hf_trained(["a b c"], 270)
    hf.pre_tokenizer = pre_tokenizers.Whitespace()
    with pytest.raises(ValueError, match=r"pre_tokenizer=\{\"type\": \"Whitespace\"\}"):
        BPETokenizer.from_tokenizers(hf)
