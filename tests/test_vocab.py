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
