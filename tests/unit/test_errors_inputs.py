"""Sizes and kinds of tensor that used to reach torch and get its own error (issue 30): the course's
``ValueError``/``TypeError`` now, naming the value and the limit, before torch allocates."""

import warnings

import pytest
import torch

import course_lib
from course_lib import (
    BPETokenizer,
    LearnedPositionalEmbedding,
    NoPositionalEncoding,
    PositionalEncoding,
    RotaryEmbedding,
    TokenEmbedding,
    TransformerEmbedding,
    Vocab,
)


@pytest.fixture
def russian():
    course_lib.set_language("ru")
    yield
    course_lib.set_language("en")


@pytest.mark.parametrize("build", [TokenEmbedding, TransformerEmbedding])
def test_a_token_table_too_large_is_refused_before_torch_allocates(build):
    with pytest.raises(
        ValueError,
        match=r"token table of vocab_size × d_model = 10000000000 × 512 = 5 120 000 000 000 entries is too large: "
        r"it takes 19 073\.5 GiB of memory, and the limit is 8 GiB; lower vocab_size or d_model",
    ):
        build(10**10, 512)


def test_a_token_table_too_large_is_refused_in_russian(russian):
    with pytest.raises(
        ValueError, match=r"таблица токенов .* 4 × 1000000000000 .* 14 901,2 ГиБ .* предел — 8 ГиБ"
    ):
        TokenEmbedding(4, 10**12)


def test_a_token_table_at_the_limit_is_built_and_one_row_past_it_is_not(monkeypatch):
    from course_lib import validate

    monkeypatch.setattr(validate, "MAX_PEAK_BYTES", 1000 * 16 * 4)  # a float32 table of 1000 × 16
    assert TokenEmbedding(1000, 16).embedding.weight.shape == (1000, 16)
    with pytest.raises(ValueError, match=r"1001 × 16 = 16 016 entries"):
        TokenEmbedding(1001, 16)


def nested(*shapes, dtype=torch.float32):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch: "nested tensors are in prototype stage"
        return torch.nested.nested_tensor([torch.zeros(*shape, dtype=dtype) for shape in shapes])


NESTED_IDS = ((2,), (3,))
CALLS = {
    "TokenEmbedding": ("ids", lambda: TokenEmbedding(10, 8)(nested(*NESTED_IDS, dtype=torch.long))),
    "TransformerEmbedding": (
        "ids",
        lambda: TransformerEmbedding(10, 8)(nested(*NESTED_IDS, dtype=torch.long)),
    ),
    "PositionalEncoding": ("x", lambda: PositionalEncoding(8)(nested((2, 8), (3, 8)))),
    "LearnedPositionalEmbedding": ("x", lambda: LearnedPositionalEmbedding(10, 8)(nested((2, 8), (3, 8)))),
    "NoPositionalEncoding": ("x", lambda: NoPositionalEncoding(8)(nested((2, 8), (3, 8)))),
    "RotaryEmbedding": (
        "q",
        lambda: RotaryEmbedding(8)(nested((2, 3, 8), (2, 4, 8)), torch.zeros(2, 2, 3, 8)),
    ),
    "positions": (
        "positions",
        lambda: PositionalEncoding(8)(torch.zeros(2, 2, 8), nested((2,), (2,), dtype=torch.long)),
    ),
    "Vocab.decode": ("ids", lambda: Vocab.build(["a b"]).decode(nested(*NESTED_IDS, dtype=torch.long))),
    "BPETokenizer.decode": (
        "ids",
        lambda: BPETokenizer.train(["ab ab"], 260).decode(nested(*NESTED_IDS, dtype=torch.long)),
    ),
}


@pytest.mark.parametrize("where", list(CALLS))
def test_a_nested_tensor_gets_the_course_s_type_error(where):
    name, call = CALLS[where]
    with pytest.raises(
        TypeError,
        match=rf"^{name} must be one rectangular tensor, got a nested tensor \(torch.nested\) of 2 sequences: "
        r"pad them to one length first \(course_lib.vocab.pad_batch\)$",
    ):
        call()


def test_a_nested_tensor_is_named_in_russian(russian):
    with pytest.raises(
        TypeError, match=r"^аргумент `x` должен быть одним прямоугольным тензором, а получен вложенный тензор"
    ):
        PositionalEncoding(8)(nested((2, 8), (3, 8)))


def test_sparse_ids_get_the_course_s_type_error():
    with pytest.raises(
        TypeError, match=r"^ids must be a dense tensor, got layout torch.sparse_coo: .*to_dense\(\)"
    ):
        TokenEmbedding(10, 8)(torch.tensor([[1, 2]]).to_sparse())


def test_pad_batch_pads_the_nested_tensor_the_course_s_message_points_to():
    from course_lib.vocab import pad_batch

    nested = torch.nested.nested_tensor([torch.tensor([5, 6, 7]), torch.tensor([8])])
    ids, mask = pad_batch(nested, pad_id=0)
    assert ids.tolist() == [[5, 6, 7], [8, 0, 0]]
    assert mask.tolist() == [[True, True, True], [True, False, False]]
