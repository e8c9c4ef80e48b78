"""Bad input gets a ValueError/TypeError naming the value and the limit, in the student's language."""

import re

import pytest
import torch

import course_lib
from course_lib import PositionalEncoding, TokenEmbedding, TransformerEmbedding, Vocab, sinusoidal_table


@pytest.fixture
def russian():
    course_lib.set_language("ru")
    yield
    course_lib.set_language("en")


def test_token_id_too_large():
    with pytest.raises(ValueError, match=r"token id 100 is out of range.*100 tokens.*\[0, 100\)"):
        TokenEmbedding(100, 8)(torch.tensor([[1, 100]]))


def test_token_id_negative():
    with pytest.raises(ValueError, match=r"token id -1 is negative.*\[0, 100\)"):
        TransformerEmbedding(100, 8)(torch.tensor([[-1, 2]]))


def test_float_token_ids():
    with pytest.raises(TypeError, match=r"token ids must be integers.*torch.float32"):
        TokenEmbedding(100, 8)(torch.tensor([[1.0, 2.0]]))


def test_token_ids_not_a_tensor():
    with pytest.raises(TypeError, match=r"torch.Tensor of integers, got list"):
        TokenEmbedding(100, 8)([1, 2])


def test_sequence_longer_than_max_len():
    with pytest.raises(ValueError, match=r"sequence length 20 exceeds max_len=16"):
        TransformerEmbedding(100, 8, max_len=16)(torch.zeros(2, 20, dtype=torch.long))
    with pytest.raises(ValueError, match=r"sequence length 20 exceeds max_len=16"):
        PositionalEncoding(8, max_len=16)(torch.zeros(2, 20, 8))


def test_last_dimension_not_d_model():
    with pytest.raises(ValueError, match=r"last dimension of x is 6.*d_model=8"):
        PositionalEncoding(8, max_len=16)(torch.zeros(2, 5, 6))


def test_x_must_be_batch_seq_d_model():
    with pytest.raises(ValueError, match=r"\(batch, seq, d_model\), got shape \(5, 8\)"):
        PositionalEncoding(8)(torch.zeros(5, 8))
    with pytest.raises(TypeError, match=r"floating-point vectors, got dtype torch.int64"):
        PositionalEncoding(8)(torch.zeros(1, 5, 8, dtype=torch.long))


def test_ids_must_be_batch_seq_for_the_whole_layer():
    with pytest.raises(ValueError, match=r"\(batch, seq\), got shape \(5,\)"):
        TransformerEmbedding(10, 8)(torch.zeros(5, dtype=torch.long))


@pytest.mark.parametrize("name", ["vocab_size", "d_model"])
@pytest.mark.parametrize("value", [0, -3, 2.5, "512", True, None])
def test_sizes_must_be_positive_integers(name, value):
    kwargs = {"vocab_size": 10, "d_model": 8, name: value}
    with pytest.raises(ValueError, match=rf"{name} must be a positive integer, got {value!r}"):
        TokenEmbedding(**kwargs)


@pytest.mark.parametrize("value", [0, -1, 10.0])
def test_max_len_must_be_a_positive_integer(value):
    with pytest.raises(ValueError, match=rf"max_len must be a positive integer, got {value!r}"):
        PositionalEncoding(8, max_len=value)


@pytest.mark.parametrize("value", [0, -10000.0, float("nan"), float("inf"), 1, 0.5, 10**400, "10000", True])
def test_base_must_be_a_finite_number_above_one(value):
    # base = 1 used to give a table whose column pairs are all the same; 10**400 an OverflowError
    with pytest.raises(
        ValueError, match=rf"base must be a finite number greater than 1, got {re.escape(repr(value))}"
    ):
        sinusoidal_table(10, 8, base=value)
    with pytest.raises(ValueError, match=r"base must be a finite number greater than 1.*base ≤ 1"):
        TransformerEmbedding(10, 8, base=value)


def test_a_table_too_large_to_build_says_so():
    # used to be an OverflowError from torch.arange
    with pytest.raises(
        ValueError,
        match=r"a table of 10{30} × 8 = .* entries is too large: building it takes .* GiB .* limit is 8 GiB",
    ):
        PositionalEncoding(8, max_len=10**30)
    with pytest.raises(ValueError, match=r"too large"):
        sinusoidal_table(2**20, 4096)


def test_table_dtype_must_be_a_floating_torch_dtype():
    # used to return integers silently, and "Invalid device string" for a string
    with pytest.raises(TypeError, match=r"dtype must be a floating-point dtype .* got torch.int64"):
        sinusoidal_table(4, 4, dtype=torch.int64)
    with pytest.raises(TypeError, match=r"dtype must be a torch.dtype such as torch.float32, got 'float32'"):
        sinusoidal_table(4, 4, dtype="float32")


@pytest.mark.parametrize("value", [10, -1, 99])
def test_padding_idx_outside_vocabulary(value):
    with pytest.raises(ValueError, match=rf"padding_idx={value} is outside the vocabulary.*\[0, 10\)"):
        TokenEmbedding(10, 8, padding_idx=value)


@pytest.mark.parametrize("value", ["0", 1.0, True])
def test_padding_idx_must_be_an_integer(value):
    # "0" used to read "padding_idx=0 is outside the vocabulary"
    with pytest.raises(
        TypeError, match=rf"padding_idx must be an integer or None, got {re.escape(repr(value))}"
    ):
        TokenEmbedding(10, 8, padding_idx=value)


@pytest.mark.parametrize(
    "dtype", [torch.int8, torch.uint8, torch.int16, torch.int32, torch.uint16, torch.uint32, torch.uint64]
)
def test_every_integer_dtype_of_ids_is_accepted(dtype):
    # int8/uint8/int16 used to fail inside torch ("Expected Long, Int"), uint32/uint64 in aminmax
    model = TransformerEmbedding(10, 8).eval()
    ids = torch.tensor([[1, 2, 9]])
    assert torch.equal(model(ids.to(dtype)), model(ids))


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int16, torch.uint32])
def test_small_integer_ids_out_of_range_are_named(dtype):
    with pytest.raises(ValueError, match=r"token id 200 is out of range: the vocabulary has 10 tokens"):
        TokenEmbedding(10, 8)(torch.tensor([1, 200]).to(dtype))


def test_uint64_ids_beyond_int64_are_out_of_range_not_negative():
    ids = torch.tensor([1, -2], dtype=torch.int64).view(torch.uint64)  # 2**64 - 2
    with pytest.raises(ValueError, match=rf"token id {2**64 - 2} is out of range"):
        TokenEmbedding(10, 8)(ids)


def test_ids_on_the_meta_device_have_no_values_to_check():
    with pytest.raises(ValueError, match=r"token ids are on the meta device.*put the ids on cpu"):
        TokenEmbedding(10, 8)(torch.tensor([1, 2], device="meta"))


def test_a_model_on_the_meta_device_takes_meta_ids():
    # shape inference without memory: everything on meta is fine
    with torch.device("meta"):
        model = TransformerEmbedding(10, 8)
    out = model(torch.zeros(2, 3, dtype=torch.long, device="meta"))
    assert out.is_meta and out.shape == (2, 3, 8)


def test_dropout_must_be_a_probability():
    with pytest.raises(ValueError, match=r"dropout must be a probability between 0 and 1, got 1.5"):
        TransformerEmbedding(10, 8, dropout=1.5)


def test_torch_internal_messages_never_reach_the_student():
    """Every bad input above is caught at the boundary: none of torch's own messages leaks out."""
    model = TransformerEmbedding(10, 8)
    for bad in (torch.tensor([[1.5]]), torch.tensor([[True]]), torch.tensor([[11]]), [[1, 2]]):
        with pytest.raises((ValueError, TypeError)) as info:
            model(bad)
        assert "Expected" not in str(info.value) and "not implemented" not in str(info.value)


def test_vocab_errors():
    vocab = Vocab.build(["a b c"])
    with pytest.raises(TypeError, match=r"list of strings, got str"):
        Vocab.build("a b c")
    with pytest.raises(ValueError, match=r"at least one text"):
        vocab.encode_batch([])
    with pytest.raises(TypeError, match=r"each text must be a str, got int"):
        vocab.encode(5)
    with pytest.raises(ValueError, match=r"id 42 is not in the vocabulary.*\[0, 7\)"):
        vocab.decode([42])
    with pytest.raises(ValueError, match=r"min_freq must be a positive integer, got 0"):
        Vocab.build(["a"], min_freq=0)


def test_messages_follow_the_language(russian):
    with pytest.raises(ValueError, match=r"индекс токена 100 вне диапазона: в словаре 100 токенов"):
        TokenEmbedding(100, 8)(torch.tensor([100]))
    with pytest.raises(ValueError, match=r"длина последовательности 20 больше max_len=16"):
        PositionalEncoding(8, max_len=16)(torch.zeros(1, 20, 8))


def test_set_language_rejects_unknown():
    with pytest.raises(
        ValueError, match=r"'en' \(English\), 'ru' \(Русский\).*: language must be one of them, got 'xx'"
    ):
        course_lib.set_language("xx")
