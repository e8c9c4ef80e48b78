import re
import unicodedata

import pytest
import torch

from course_lib import Vocab, tokenize


def test_specials_come_first():
    vocab = Vocab.build(["b a a"])
    assert vocab.itos[:4] == ["<pad>", "<unk>", "<bos>", "<eos>"]
    assert (vocab.pad_id, vocab.unk_id, vocab.bos_id, vocab.eos_id) == (0, 1, 2, 3)
    assert vocab.itos[4:] == ["a", "b"]  # most frequent first


def test_unknown_words_map_to_unk():
    vocab = Vocab.build(["the cat"])
    assert vocab.encode("the zebra") == [vocab.stoi["the"], vocab.unk_id]


def test_cyrillic_tokenizes_like_latin():
    assert tokenize("Кошка сидит на ковре.") == ["кошка", "сидит", "на", "ковре", "."]
    vocab = Vocab.build(["Кошка сидит", "собака сидит"])
    assert vocab.decode(vocab.encode("Собака сидит")) == "собака сидит"
    assert "ёж" in Vocab.build(["Ёж"])


def test_min_freq_drops_rare_words():
    vocab = Vocab.build(["a a b"], min_freq=2)
    assert "a" in vocab and "b" not in vocab


@pytest.mark.parametrize("min_freq", [1, 2, 3, 4])
def test_with_min_freq_is_the_vocabulary_built_with_it(min_freq):
    texts = ["the cat sat on the mat", "the dog sat", "a cat, a dog; the end."]
    built, cut = Vocab.build(texts, min_freq=min_freq), Vocab.build(texts).with_min_freq(min_freq)
    assert cut.itos == built.itos and cut.counts == built.counts
    assert built.counts["the"] == 4 and "<pad>" not in built.counts


def test_with_min_freq_needs_counts_and_a_positive_integer():
    with pytest.raises(ValueError, match=r"no word counts to cut by min_freq: build it with Vocab.build"):
        Vocab(list(Vocab.SPECIALS)).with_min_freq(2)
    with pytest.raises(ValueError, match=r"min_freq must be a positive integer, got 1.5"):
        Vocab.build(["a"]).with_min_freq(1.5)


def test_encode_batch_pads_right_and_masks():
    vocab = Vocab.build(["one two three", "four"])
    ids, mask = vocab.encode_batch(["one two three", "four", "one"])
    assert ids.dtype == torch.long and mask.dtype == torch.bool
    assert ids.shape == mask.shape == (3, 3)
    assert ids[1, 1:].tolist() == [0, 0] and mask[1].tolist() == [True, False, False]
    assert (ids[~mask] == vocab.pad_id).all() and (ids[mask] != vocab.pad_id).all()


def test_bos_eos():
    vocab = Vocab.build(["hi"])
    assert vocab.encode("hi", add_bos_eos=True) == [2, 4, 3]


def test_decode_round_trip_with_punctuation():
    vocab = Vocab.build(["Hello, world!"])
    assert vocab.decode(vocab.encode("Hello, world!")) == "hello, world!"
    assert vocab.decode(torch.tensor([vocab.stoi["hello"], 0, 0])) == "hello"


# ----------------------------------------------------------------------------- text that looks the same


def test_nfd_text_encodes_like_nfc():
    # «й» and «ё» typed as a letter plus a combining mark used to split into <unk>s
    vocab = Vocab.build(["мой новый дом, её ёж"])
    nfd = unicodedata.normalize("NFD", "мой новый дом, её ёж")
    assert nfd != "мой новый дом, её ёж"
    assert vocab.encode(nfd) == vocab.encode("мой новый дом, её ёж")
    assert vocab.unk_id not in vocab.encode(nfd)


@pytest.mark.parametrize("invisible", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"])
def test_zero_width_characters_are_not_tokens(invisible):
    vocab = Vocab.build(["the cat sat"])
    assert tokenize(f"the{invisible} cat {invisible}sat") == ["the", "cat", "sat"]
    assert vocab.encode(f"ca{invisible}t") == vocab.encode("cat")


# ----------------------------------------------------------------------------- clear errors


def test_duplicate_tokens_are_an_error():
    # used to give an inconsistent stoi (two ids for one word, stoi keeping the last)
    with pytest.raises(ValueError, match=r"token 'cat' appears twice in the vocabulary \(ids 4 and 6\)"):
        Vocab([*Vocab.SPECIALS, "cat", "dog", "cat"])
    with pytest.raises(ValueError, match=r"token '<pad>' appears twice.*ids 0 and 4"):
        Vocab([*Vocab.SPECIALS, "<pad>"])


@pytest.mark.parametrize("tokens", [None, "abc", 5])
def test_vocab_needs_a_list_of_tokens(tokens):
    with pytest.raises(TypeError, match=r"list of token strings, got .*Vocab.build\(texts\)"):
        Vocab(tokens)


def test_vocab_must_start_with_the_specials():
    with pytest.raises(ValueError, match=r"starts with the special tokens .* got \['a'\]"):
        Vocab(["a"])


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        (torch.tensor([[5, 6]]), r"list or a 1-d tensor .* got a tensor of shape \(1, 2\)"),
        (torch.tensor(5), r"got a tensor of shape \(\), dtype torch.int64"),
        (torch.tensor([1.0, 2.0]), r"dtype torch.float32"),
        (torch.tensor([True]), r"dtype torch.bool"),
        ("5 6", r"got str"),
        (None, r"got NoneType"),
    ],
)
def test_decode_rejects_what_is_not_a_list_of_ids(ids, message):
    with pytest.raises(TypeError, match=message):
        Vocab.build(["the cat"]).decode(ids)


@pytest.mark.parametrize("bad", [1.5, True, "5"])
def test_decode_rejects_ids_that_are_not_integers(bad):
    with pytest.raises(ValueError, match=rf"id {re.escape(repr(bad))} is not in the vocabulary"):
        Vocab.build(["the cat"]).decode([4, bad])


def test_show_words_is_the_explorers_table_as_a_static_view():
    from course_lib import plots, widgets

    vocab = Vocab.build(["the cat sat"])
    view = plots.show_words(vocab, "The dog sat.")
    assert view.ids == [vocab.stoi["the"], 1, vocab.stoi["sat"], 1] and view.unknown == 2
    assert view.html == widgets.vocab_explorer(vocab, text="The dog sat.").table.html
    assert str(view).splitlines()[2] == "dog  1  -> <unk>"
    with pytest.raises(
        TypeError, match=r"vocab must be a course_lib.Vocab, e.g. Vocab.build\(corpus\), got list"
    ):
        plots.show_words(["the"], "the")


@pytest.mark.parametrize("text", ["İstanbul", "İSTANBUL", unicodedata.normalize("NFD", "İstanbul")])
def test_dotted_capital_i_is_one_letter_and_the_word_one_token(text):
    # Python lower-cases "İ" to "i" + U+0307, which split the word at the combining dot
    assert tokenize(text) == ["istanbul"]
    vocab = Vocab.build(["istanbul"])
    assert vocab.encode(text) == [vocab.stoi["istanbul"]]


BIDI = [
    "\u200e",
    "\u200f",
    "\u061c",
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
]
ZERO_WIDTH = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\u2061",
    "\u2062",
    "\u2063",
    "\u2064",
    "\ufeff",
    "\u00ad",
    "\u180e",
]


@pytest.mark.parametrize("control", BIDI + ZERO_WIDTH, ids=lambda c: f"U+{ord(c):04X}")
def test_bidi_controls_and_zero_width_characters_are_dropped(control):
    # alone, inside a word, and between two words: never a token, never part of one
    assert tokenize(control) == []
    assert tokenize(f"ad{control}min") == ["admin"]
    assert tokenize(f"cat {control} sat{control}.") == ["cat", "sat", "."]
    vocab = Vocab.build([f"the{control} cat"])
    assert vocab.itos[len(Vocab.SPECIALS) :] == ["cat", "the"]


def test_a_right_to_left_override_does_not_make_a_new_word():
    # the "Trojan Source" trick: U+202E shows "txt.exe" as "exe.txt"; the words are what is typed
    assert tokenize("file\u202etxt.exe") == ["filetxt", ".", "exe"]


def test_every_format_character_of_unicode_is_dropped():
    from course_lib import vocab

    format_characters = {c for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"}
    assert format_characters <= set(vocab._INVISIBLE)
    assert all(unicodedata.category(chr(c)) in {"Cf", "Cn"} for c in vocab._INVISIBLE if c != 0x0130)
