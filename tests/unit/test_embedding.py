"""Unit tests of the input layer against a plain float64 reference."""

import math

import pytest
import torch
import torch.nn.functional as F

from course_lib import PositionalEncoding, TokenEmbedding, TransformerEmbedding, sinusoidal_table


def reference_table(num_positions, d_model, base=10000.0):
    """The paper's formula, one entry at a time, in float64: slow and obviously right."""
    pe = torch.zeros(num_positions, d_model, dtype=torch.float64)
    for pos in range(num_positions):
        for col in range(d_model):
            two_i = col - col % 2
            angle = pos / base ** (two_i / d_model)
            pe[pos, col] = math.sin(angle) if col % 2 == 0 else math.cos(angle)
    return pe


@pytest.mark.parametrize("d_model", [1, 2, 3, 7, 16, 33])
def test_table_matches_double_loop_reference(d_model):
    got = sinusoidal_table(60, d_model, dtype=torch.float64)
    torch.testing.assert_close(got, reference_table(60, d_model), rtol=0, atol=1e-12)


def test_table_known_values():
    pe = sinusoidal_table(101, 4)
    assert pe.dtype == torch.float32
    assert pe[0].tolist() == [0.0, 1.0, 0.0, 1.0]
    assert pe[1, 0].item() == pytest.approx(math.sin(1.0), abs=1e-7)
    assert pe[1, 1].item() == pytest.approx(math.cos(1.0), abs=1e-7)
    assert pe[100, 2].item() == pytest.approx(math.sin(100 / 100.0), abs=1e-7)  # 10000^(2/4) = 100
    assert pe[100, 3].item() == pytest.approx(math.cos(1.0), abs=1e-7)


def test_odd_d_model_last_column_is_a_sine():
    pe = sinusoidal_table(10, 5, dtype=torch.float64)
    angle = torch.arange(10, dtype=torch.float64) / 10000 ** (4 / 5)
    torch.testing.assert_close(pe[:, 4], torch.sin(angle))


def test_table_precise_at_large_positions_where_float32_drifts():
    positions = torch.arange(99_990, 100_000)
    angle64 = positions.to(torch.float64).unsqueeze(1) / 10000 ** (
        torch.arange(0, 512, 2, dtype=torch.float64) / 512
    )
    exact = torch.stack([angle64.sin(), angle64.cos()], dim=-1).flatten(1)  # (10, 512)
    ours = sinusoidal_table(100_000, 512)[99_990:]
    assert (ours.double() - exact).abs().max() < 1e-7
    # the same formula in float32, as tutorials write it, is off by far more
    angle32 = positions.float().unsqueeze(1) * torch.exp(
        torch.arange(0, 512, 2).float() * (-math.log(10000.0) / 512)
    )
    naive = torch.stack([angle32.sin(), angle32.cos()], dim=-1).flatten(1)
    assert (naive.double() - exact).abs().max() > 3e-3


def test_token_embedding_scales_by_sqrt_d_model():
    emb = TokenEmbedding(50, 16)
    ids = torch.tensor([[1, 2, 3]])
    torch.testing.assert_close(emb(ids), F.embedding(ids, emb.embedding.weight) * 4.0)


def test_token_embedding_any_leading_shape():
    emb = TokenEmbedding(50, 8)
    assert emb(torch.tensor(3)).shape == (8,)
    assert emb(torch.zeros(2, 3, 4, dtype=torch.long)).shape == (2, 3, 4, 8)
    assert emb(torch.zeros(2, 3, dtype=torch.int32)).shape == (2, 3, 8)


def test_padding_row_is_zero_and_gets_no_gradient():
    emb = TokenEmbedding(20, 8, padding_idx=3)
    assert emb.embedding.weight[3].abs().sum() == 0
    emb(torch.tensor([[3, 4, 3]])).sum().backward()
    assert emb.embedding.weight.grad[3].abs().sum() == 0
    assert emb.embedding.weight.grad[4].abs().sum() > 0


def test_init_keeps_tokens_and_positions_comparable_at_512():
    torch.manual_seed(0)
    tok = TokenEmbedding(32000, 512)(torch.randint(1, 32000, (4, 256)))
    pos = sinusoidal_table(256, 512)
    ratio = tok.pow(2).mean().sqrt() / pos.pow(2).mean().sqrt()
    assert 0.5 <= ratio <= 2.0
    # nn.Embedding's default N(0, 1) init would drown the positions
    default = torch.nn.Embedding(32000, 512)(torch.randint(1, 32000, (4, 256))) * math.sqrt(512)
    assert default.pow(2).mean().sqrt() / pos.pow(2).mean().sqrt() > 25


def test_positional_encoding_adds_the_table():
    pe = PositionalEncoding(6, max_len=20)
    x = torch.randn(3, 7, 6)
    torch.testing.assert_close(pe(x), x + sinusoidal_table(20, 6)[:7])


def test_table_is_a_non_persistent_buffer():
    pe = PositionalEncoding(8, max_len=16)
    assert "pe" in dict(pe.named_buffers())
    assert list(pe.parameters()) == []
    assert pe.state_dict() == {}
    assert not pe.pe.requires_grad


def test_state_dict_keys_of_the_whole_layer():
    model = TransformerEmbedding(100, 8, max_len=16)
    assert list(model.state_dict()) == ["token_embedding.embedding.weight"]
    fresh = TransformerEmbedding(100, 8, max_len=16)
    fresh.load_state_dict(model.state_dict())  # strict: nothing missing, nothing extra


def test_no_gradient_flows_into_the_table():
    pe = PositionalEncoding(4, max_len=10)
    x = torch.randn(2, 5, 4, requires_grad=True)
    pe(x).pow(2).sum().backward()
    assert pe.pe.grad is None
    assert x.grad is not None


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64])
def test_output_dtype_follows_input(dtype):
    pe = PositionalEncoding(8, max_len=16)
    x = torch.zeros(2, 5, 8, dtype=dtype)
    out = pe(x)
    assert out.dtype == dtype
    torch.testing.assert_close(out.float(), sinusoidal_table(16, 8)[:5].expand(2, 5, 8).to(dtype).float())


def test_half_model_gives_half_output():
    model = TransformerEmbedding(50, 8, max_len=16, dropout=0.0).to(torch.bfloat16)
    assert model(torch.tensor([[1, 2, 3]])).dtype == torch.bfloat16


def test_buffer_follows_to_device_meta():
    pe = PositionalEncoding(8, max_len=16).to("meta")
    assert pe.pe.device.type == "meta"
    assert pe(torch.zeros(1, 3, 8, device="meta")).device.type == "meta"


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_half():  # run on a lent GPU machine; CPU-only CI skips it
    model = TransformerEmbedding(50, 8, max_len=16).cuda().half().eval()
    out = model(torch.tensor([[1, 2, 3]], device="cuda"))
    assert out.dtype == torch.float16 and out.is_cuda


def test_transformer_embedding_equals_its_parts():
    torch.manual_seed(0)
    model = TransformerEmbedding(100, 16, max_len=32, dropout=0.0)
    ids = torch.randint(0, 100, (3, 9))
    expected = model.token_embedding.embedding(ids) * 4.0 + sinusoidal_table(32, 16)[:9]
    torch.testing.assert_close(model(ids), expected)


def test_fast_path_gradients_match_the_plain_formula():
    torch.manual_seed(0)
    model = TransformerEmbedding(30, 8, max_len=12, dropout=0.0).train()
    ids = torch.randint(0, 30, (4, 10))
    weights = torch.randn(4, 10, 8)
    (model(ids) * weights).sum().backward()
    fast = model.token_embedding.embedding.weight.grad.clone()

    w = model.token_embedding.embedding.weight.detach().clone().requires_grad_()
    plain = F.embedding(ids, w, padding_idx=0) * math.sqrt(8) + sinusoidal_table(12, 8)[:10]
    (plain * weights).sum().backward()
    torch.testing.assert_close(fast, w.grad)


def test_dropout_active_in_train_and_off_in_eval():
    torch.manual_seed(0)
    model = TransformerEmbedding(30, 64, max_len=12, dropout=0.5)
    ids = torch.randint(1, 30, (2, 10))
    model.train()
    assert (model(ids) == 0).float().mean() > 0.3
    model.eval()
    torch.testing.assert_close(model(ids), model(ids))
    assert (model(ids) == 0).float().mean() < 0.01


def test_repr_shows_the_settings():
    assert "d_model=8, max_len=100, base=10000.0, dropout=0.0" in repr(PositionalEncoding(8, 100))
    assert "vocab_size=10, d_model=4, padding_idx=None" in repr(TokenEmbedding(10, 4))


# ----------------------------------------------------------------------------- positions


def test_explicit_positions_give_the_rows_of_a_longer_sequence():
    """A model generating one token at a time with a cache: the new token needs its own row."""
    torch.manual_seed(0)
    model = TransformerEmbedding(50, 8, max_len=16).eval()
    ids = torch.randint(1, 50, (2, 6))
    full = model(ids)  # (2, 6, 8)
    assert torch.equal(model(ids[:, 3:5], positions=torch.arange(3, 5)), full[:, 3:5])
    assert torch.equal(model(ids[:, 5:6], positions=torch.tensor([5])), full[:, 5:6])
    # the bug the default would make: the new token gets row 0
    assert not torch.allclose(model(ids[:, 5:6]), full[:, 5:6])


def test_per_row_positions_for_left_padding():
    torch.manual_seed(0)
    model = TransformerEmbedding(50, 8, max_len=16).eval()
    right = torch.tensor([[7, 8, 9]])
    left = torch.tensor([[0, 0, 7, 8, 9], [5, 6, 7, 8, 9]])  # row 0 left-padded
    mask = left != 0
    positions = (mask.cumsum(dim=1) - 1).clamp(min=0)  # (batch, seq): 0 at each row's first real token
    out = model(left, positions=positions)
    assert positions.tolist() == [[0, 0, 0, 1, 2], [0, 1, 2, 3, 4]]
    assert torch.equal(out[0, 2:], model(right)[0])


def test_positional_encoding_takes_positions_too():
    pe = PositionalEncoding(8, max_len=16)
    x = torch.zeros(2, 3, 8)
    assert torch.equal(pe(x, positions=torch.tensor([4, 5, 6]))[1], pe.pe[4:7])
    per_row = torch.tensor([[0, 1, 2], [9, 10, 11]])
    assert torch.equal(pe(x, positions=per_row)[1], pe.pe[9:12])


@pytest.mark.parametrize(
    ("positions", "error", "message"),
    [
        (torch.tensor([14, 15, 16]), ValueError, r"position 16 is out of range: .*max_len=16.*\[0, 16\)"),
        (torch.tensor([-1, 0, 1]), ValueError, r"position -1 is negative"),
        (torch.tensor([0.0, 1.0, 2.0]), TypeError, r"positions must be integers, got dtype torch.float32"),
        (
            torch.tensor([0, 1]),
            ValueError,
            r"positions must have shape \(3,\) or \(2, 3\) .* got shape \(2,\)",
        ),
        ([0, 1, 2], TypeError, r"positions must be a torch.Tensor of integers.*got list"),
    ],
)
def test_bad_positions_are_named(positions, error, message):
    with pytest.raises(error, match=message):
        TransformerEmbedding(50, 8, max_len=16)(torch.ones(2, 3, dtype=torch.long), positions=positions)


# ----------------------------------------------------------------------------- meta device, compilers


def test_meta_device_flow_gives_the_same_model():
    """Build on meta, to_empty, load a checkpoint: the table is rebuilt, not uninitialised memory."""
    torch.manual_seed(0)
    reference = TransformerEmbedding(50, 8, max_len=32).eval()
    with torch.device("meta"):
        model = TransformerEmbedding(50, 8, max_len=32)
    assert model.positional_encoding.pe.is_meta
    model.to_empty(device="cpu")
    model.load_state_dict(reference.state_dict())
    model.eval()
    ids = torch.randint(0, 50, (2, 32))
    assert torch.equal(model(ids), reference(ids))
    assert torch.equal(model.positional_encoding.pe, reference.positional_encoding.pe)


def test_torch_compile_gives_the_eager_output():
    torch.manual_seed(0)
    model = TransformerEmbedding(50, 8, max_len=16).eval()
    ids = torch.randint(0, 50, (2, 5))
    compiled = torch.compile(model, backend="eager")
    assert torch.equal(compiled(ids), model(ids))


@pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated:DeprecationWarning")
def test_torchscript_is_refused_with_a_reason():
    # used to fail with "'int' object has no attribute or method 'is_floating_point'"
    with pytest.raises(
        TypeError, match=r"TransformerEmbedding cannot be compiled by torch.jit.script.*torch.compile"
    ):
        torch.jit.script(TransformerEmbedding(50, 8))
