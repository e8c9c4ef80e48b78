"""RoPE and ALiBi against plain references written here, and their invariants."""

import cmath
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import course_lib
from course_lib import RotaryEmbedding, alibi_bias, alibi_slopes
from course_lib.rotary import complex_view_fits, rotary_tables


def reference_rope(x, positions, base=10000.0, interleaved=True):
    """RoPE one pair at a time with Python complex numbers, in float64: slow and obviously right.

    Pair i is columns (2i, 2i+1) when interleaved, (i, i + d/2) otherwise, turned by
    positions[t] * base^(-2i/d) as the complex number x_a + j x_b.
    """
    x = x.double()
    batch, heads, seq, d = x.shape
    out = torch.empty_like(x)
    for b in range(batch):
        for t in range(seq):
            pos = int(positions[b, t] if positions.dim() == 2 else positions[t])
            for i in range(d // 2):
                ca, cb = (2 * i, 2 * i + 1) if interleaved else (i, i + d // 2)
                turn = cmath.exp(1j * pos * base ** (-2 * i / d))
                for h in range(heads):
                    z = complex(x[b, h, t, ca], x[b, h, t, cb]) * turn
                    out[b, h, t, ca], out[b, h, t, cb] = z.real, z.imag
    return out


def rotate_half(x):
    """Hugging Face's rotate_half, as transformers' modeling_llama writes it."""
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def randn(*shape, dtype=torch.float32, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64).to(dtype)


# ----------------------------------------------------------------------------- both layouts against the reference


@pytest.mark.parametrize("interleaved", [True, False])
@pytest.mark.parametrize("head_dim", [2, 8, 12])
def test_rope_matches_the_pair_by_pair_reference(interleaved, head_dim):
    rope = RotaryEmbedding(head_dim, max_len=40, base=500.0, interleaved=interleaved)
    q, k = (
        randn(2, 3, 7, head_dim, dtype=torch.float64),
        randn(2, 1, 7, head_dim, dtype=torch.float64, seed=1),
    )
    positions = torch.tensor([0, 1, 5, 6, 20, 38, 39])
    q_rot, k_rot = rope(q, k, positions=positions)
    torch.testing.assert_close(q_rot, reference_rope(q, positions, 500.0, interleaved), rtol=0, atol=1e-12)
    torch.testing.assert_close(k_rot, reference_rope(k, positions, 500.0, interleaved), rtol=0, atol=1e-12)


@pytest.mark.parametrize("interleaved", [True, False])
def test_rope_per_row_positions(interleaved):
    rope = RotaryEmbedding(8, max_len=32, interleaved=interleaved)
    q = randn(2, 3, 4, 8)
    positions = torch.tensor([[0, 1, 2, 3], [7, 9, 10, 31]])  # e.g. a left-padded or cached row
    q_rot, _ = rope(q, q, positions=positions)
    torch.testing.assert_close(q_rot, reference_rope(q, positions, interleaved=interleaved).float())


def test_rope_default_positions_are_0_to_seq():
    rope = RotaryEmbedding(8, max_len=32)
    q = randn(1, 2, 6, 8)
    assert torch.equal(rope(q, q)[0], rope(q, q, positions=torch.arange(6))[0])


def test_rope_interleaved_is_metas_complex_product():
    """Meta's LLaMA apply_rotary_emb: view pairs as complex numbers, multiply by e^(j angle)."""
    rope = RotaryEmbedding(16, max_len=64)
    q = randn(2, 4, 10, 16)
    angles = torch.outer(torch.arange(10, dtype=torch.float64), 10000.0 ** (-torch.arange(0, 16, 2) / 16))
    freqs_cis = torch.polar(torch.ones_like(angles), angles).to(torch.complex64)  # (seq, head_dim/2)
    q_ = torch.view_as_complex(q.reshape(*q.shape[:-1], -1, 2))
    expected = torch.view_as_real(q_ * freqs_cis).flatten(3)
    torch.testing.assert_close(rope(q, q)[0], expected)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
def test_rope_half_split_is_hugging_faces_formula_bit_for_bit(dtype):
    """interleaved=False computes `q * cos + rotate_half(q) * sin` with the same roundings."""
    rope = RotaryEmbedding(16, max_len=64, interleaved=False)
    q, k = randn(2, 4, 10, 16, dtype=dtype), randn(2, 4, 10, 16, dtype=dtype, seed=1)
    # HF's tables: cat((freqs, freqs)), here from the module's own float64 angles
    cos = torch.cat((rope.cos[:10], rope.cos[:10]), dim=-1).to(dtype)  # (seq, head_dim)
    sin = torch.cat((rope.sin[:10], rope.sin[:10]), dim=-1).to(dtype)
    q_rot, k_rot = rope(q, k)
    assert torch.equal(q_rot, q * cos + rotate_half(q) * sin)
    assert torch.equal(k_rot, k * cos + rotate_half(k) * sin)


def test_rope_half_split_matches_hugging_faces_own_tables():
    """HF builds cos/sin in float32 (inv_freq, then outer product): equal within float32 rounding at small positions."""
    dim, base, seq = 64, 10000.0, 128
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    freqs = torch.outer(torch.arange(seq).float(), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos(), emb.sin()
    q = randn(1, 2, seq, dim)
    expected = q * cos + rotate_half(q) * sin
    torch.testing.assert_close(
        RotaryEmbedding(dim, interleaved=False)(q, q)[0], expected, rtol=1e-5, atol=1e-5
    )


def test_the_two_layouts_are_one_rotation_up_to_a_column_permutation():
    d = 12
    perm = torch.cat([torch.arange(0, d, 2), torch.arange(1, d, 2)])  # pair (2i, 2i+1) -> (i, i + d/2)
    q = randn(2, 3, 9, d)
    interleaved, _ = RotaryEmbedding(d, max_len=16)(q, q)
    half, _ = RotaryEmbedding(d, max_len=16, interleaved=False)(q[..., perm], q[..., perm])
    torch.testing.assert_close(half, interleaved[..., perm])


def test_complex_and_real_paths_agree():
    """Non-contiguous or half-precision input takes the real path; contiguous float32 the complex one."""
    rope = RotaryEmbedding(8, max_len=16)
    strided = randn(2, 3, 8, 5).transpose(-1, -2)  # (2, 3, 5, 8), columns 5 apart in memory
    assert not complex_view_fits(strided) and complex_view_fits(strided.contiguous())
    assert not complex_view_fits(strided.contiguous().half())
    torch.testing.assert_close(rope(strided, strided)[0], rope(strided.contiguous(), strided)[0])


# ----------------------------------------------------------------------------- the invariant


@settings(max_examples=60, deadline=None)
@given(
    half_dim=st.integers(1, 16),
    base=st.floats(2.0, 1e5),
    m=st.integers(0, 200),
    n=st.integers(0, 200),
    shift=st.integers(0, 200),
    interleaved=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_score_depends_only_on_the_offset(half_dim, base, m, n, shift, interleaved, seed):
    """rot(q, m) . rot(k, n) = rot(q, m + s) . rot(k, n + s) for every shift s."""
    d = 2 * half_dim
    rope = RotaryEmbedding(d, max_len=401, base=base, interleaved=interleaved)
    q, k = (
        randn(1, 1, 1, d, dtype=torch.float64, seed=seed),
        randn(1, 1, 1, d, dtype=torch.float64, seed=seed + 1),
    )

    def score(pq, pk):
        q_rot, _ = rope(q, q, positions=torch.tensor([pq]))
        k_rot, _ = rope(k, k, positions=torch.tensor([pk]))
        return (q_rot * k_rot).sum().item()

    assert score(m, n) == pytest.approx(score(m + shift, n + shift), abs=1e-10)
    assert score(m, m) == pytest.approx((q * k).sum().item(), abs=1e-10)  # offset 0: no rotation at all


# ----------------------------------------------------------------------------- precision, dtype, device


def test_tables_stay_precise_at_large_positions_where_float32_angles_drift():
    d, positions = 64, torch.arange(99_990, 100_000)
    rope = RotaryEmbedding(d, max_len=100_000)
    q = randn(1, 2, 10, d)
    exact = reference_rope(q, positions)
    ours = rope(q, q, positions=positions)[0]
    assert (ours.double() - exact).abs().max() < 4 * q.abs().max() * 2**-24  # float32 rounding of the result
    # the angles in float32, as tutorials compute them
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, d, 2).float() / d))
    angles = torch.outer(positions.float(), inv_freq)
    cos, sin = angles.cos().repeat_interleave(2, -1), angles.sin().repeat_interleave(2, -1)
    pairs = torch.stack((-q[..., 1::2], q[..., 0::2]), dim=-1).flatten(-2)
    naive = q * cos + pairs * sin
    assert (naive.double() - exact).abs().max() > 1e-3


def test_tables_are_float64_non_persistent_buffers():
    rope = RotaryEmbedding(8, max_len=16)
    assert rope.state_dict() == {} and list(rope.parameters()) == []
    assert {name for name, _ in rope.named_buffers()} == {"cos", "sin"}
    assert rope.cos.dtype == rope.sin.dtype == torch.float64 and rope.cos.shape == (16, 4)
    cos, sin = rotary_tables(16, 8)
    assert torch.equal(rope.cos, cos) and torch.equal(rope.sin, sin)
    table = course_lib.sinusoidal_table(16, 8, dtype=torch.float64)  # the same angles as lesson 4
    assert torch.equal(cos, table[:, 1::2]) and torch.equal(sin, table[:, 0::2])


@pytest.mark.parametrize(
    ("dtype", "atol"),
    [(torch.float16, 4e-3), (torch.bfloat16, 3e-2), (torch.float32, 1e-6), (torch.float64, 1e-12)],
)
@pytest.mark.parametrize("interleaved", [True, False])
def test_output_dtype_follows_input(dtype, atol, interleaved):
    rope = RotaryEmbedding(8, max_len=64, interleaved=interleaved)
    q = randn(2, 3, 5, 8, dtype=dtype)
    positions = torch.tensor([3, 10, 20, 40, 63])
    q_rot, k_rot = rope(q, q.float(), positions=positions)
    assert q_rot.dtype == dtype and k_rot.dtype == torch.float32
    torch.testing.assert_close(
        q_rot.double(), reference_rope(q, positions, interleaved=interleaved), rtol=0, atol=atol
    )


def test_grouped_query_attention_keys_have_fewer_heads():
    rope = RotaryEmbedding(8, max_len=16)
    q, k = randn(2, 4, 5, 8), randn(2, 1, 5, 8, seed=1)
    q_rot, k_rot = rope(q, k)
    assert q_rot.shape == q.shape and k_rot.shape == k.shape
    assert torch.equal(k_rot, rope(k, k)[0])


@pytest.mark.parametrize("interleaved", [True, False])
def test_gradients_match_the_analytic_ones(interleaved):
    rope = RotaryEmbedding(4, max_len=8, interleaved=interleaved)
    q = randn(1, 2, 3, 4, dtype=torch.float64).requires_grad_()
    strided = randn(1, 2, 4, 3, dtype=torch.float64).transpose(-1, -2).requires_grad_()  # the real path
    assert torch.autograd.gradcheck(lambda x: rope(x, x)[0], (q,))
    assert torch.autograd.gradcheck(lambda x: rope(x, x)[0], (strided,))


def test_meta_device_flow_rebuilds_the_tables():
    with torch.device("meta"):
        rope = RotaryEmbedding(8, max_len=32)
    assert rope.cos.is_meta
    out, _ = rope(torch.zeros(1, 2, 3, 8, device="meta"), torch.zeros(1, 2, 3, 8, device="meta"))
    assert out.is_meta and out.shape == (1, 2, 3, 8)
    rope.to_empty(device="cpu")
    fresh = RotaryEmbedding(8, max_len=32)
    assert torch.equal(rope.cos, fresh.cos) and torch.equal(rope.sin, fresh.sin)


def test_module_dtype_casts_keep_tables_correctly_rounded():
    rope = RotaryEmbedding(8, max_len=32).float()
    assert rope.cos.dtype == torch.float32 and torch.equal(
        rope.cos, rotary_tables(32, 8, dtype=torch.float32)[0]
    )


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_half():  # run on a lent GPU machine; CPU-only CI skips it
    rope = RotaryEmbedding(8, max_len=16).cuda()
    q = randn(1, 2, 5, 8).cuda().half()
    out, _ = rope(q, q)
    assert out.dtype == torch.float16 and out.is_cuda
    torch.testing.assert_close(
        out.cpu().double(), reference_rope(q.cpu(), torch.arange(5)), rtol=0, atol=4e-3
    )


def test_repr_and_torchscript():
    assert repr(RotaryEmbedding(64, interleaved=False)) == (
        "RotaryEmbedding(head_dim=64, max_len=4096, base=10000.0, interleaved=False)"
    )
    with pytest.raises(TypeError, match=r"RotaryEmbedding cannot be compiled by torch.jit.script"):
        RotaryEmbedding(8).__prepare_scriptable__()


# ----------------------------------------------------------------------------- clear errors


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"head_dim": 7}, ValueError, r"head_dim must be even, got 7: RoPE rotates .* in pairs"),
        ({"head_dim": 0}, ValueError, r"head_dim must be a positive integer, got 0"),
        ({"head_dim": "64"}, ValueError, r"head_dim must be a positive integer, got '64'"),
        ({"head_dim": 8, "max_len": 0}, ValueError, r"max_len must be a positive integer, got 0"),
        ({"head_dim": 8, "base": 1}, ValueError, r"base must be a finite number greater than 1, got 1"),
        ({"head_dim": 8, "interleaved": "yes"}, TypeError, r"interleaved must be True or False, got 'yes'"),
        ({"head_dim": 8, "interleaved": 0}, TypeError, r"interleaved must be True or False, got 0"),
        ({"head_dim": 4096, "max_len": 2**20}, ValueError, r"a table of 1048576 × 4096 = .* is too large"),
    ],
)
def test_constructor_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        RotaryEmbedding(**kwargs)


Q = torch.zeros(1, 2, 5, 8)


@pytest.mark.parametrize(
    ("q", "k", "positions", "error", "message"),
    [
        (
            [[0.0]],
            Q,
            None,
            TypeError,
            r"q must be a torch.Tensor of shape \(batch, heads, seq, head_dim\), got list",
        ),
        (Q, Q.long(), None, TypeError, r"k must hold floating-point numbers, got dtype torch.int64"),
        (
            Q[0],
            Q,
            None,
            ValueError,
            r"q must have shape \(batch, heads, seq, head_dim\), got shape \(2, 5, 8\)",
        ),
        (
            Q,
            Q[..., :6],
            None,
            ValueError,
            r"the last dimension of k is 6, but this module was built with head_dim=8",
        ),
        (
            Q,
            Q[:, :, :4],
            None,
            ValueError,
            r"q and k must have the same batch size and sequence length .* got q ",
        ),
        (
            torch.zeros(1, 2, 20, 8),
            torch.zeros(1, 2, 20, 8),
            None,
            ValueError,
            r"sequence length 20 exceeds max_len=16",
        ),
        (Q, Q, torch.tensor([12, 13, 14, 15, 16]), ValueError, r"position 16 is out of range.*max_len=16"),
        (Q, Q, torch.tensor([-1, 0, 1, 2, 3]), ValueError, r"position -1 is negative"),
        (Q, Q, torch.arange(5.0), TypeError, r"positions must be integers, got dtype torch.float32"),
        (
            Q,
            Q,
            torch.arange(4),
            ValueError,
            r"\(5,\) or \(1, 5\) for q of shape \(1, 2, 5, 8\), got shape \(4,\)",
        ),
        (Q, Q, [0, 1, 2, 3, 4], TypeError, r"positions must be a torch.Tensor of integers"),
    ],
)
def test_forward_errors(q, k, positions, error, message):
    with pytest.raises(error, match=message):
        RotaryEmbedding(8, max_len=16)(q, k, positions)


def test_rope_errors_in_russian():
    course_lib.set_language("ru")
    with pytest.raises(ValueError, match=r"аргумент `head_dim` должен быть чётным, а получено 7"):
        RotaryEmbedding(7)
    with pytest.raises(ValueError, match=r"у q и k должны совпадать размер батча и длина последовательности"):
        RotaryEmbedding(8)(Q, Q[:, :, :4])
    with pytest.raises(TypeError, match=r"аргумент `q` должен быть тензором torch.Tensor формы"):
        RotaryEmbedding(8)(None, Q)


# ----------------------------------------------------------------------------- ALiBi


def get_slopes(n):
    """The paper's reference code (ofirpress/attention_with_linear_biases, fairseq/models/transformer.py)."""

    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    return (
        get_slopes_power_of_2(closest_power_of_2)
        + get_slopes(2 * closest_power_of_2)[0::2][: n - closest_power_of_2]
    )


@pytest.mark.parametrize("num_heads", range(1, 65))
def test_slopes_are_the_papers(num_heads):
    expected = torch.tensor(get_slopes(num_heads), dtype=torch.float64)
    torch.testing.assert_close(alibi_slopes(num_heads, dtype=torch.float64), expected, rtol=1e-13, atol=0)
    torch.testing.assert_close(alibi_slopes(num_heads), expected.float())


def test_slopes_of_8_heads_are_exact_powers_of_two():
    assert torch.equal(alibi_slopes(8), 2.0 ** -torch.arange(1.0, 9.0))


def test_bias_is_minus_slope_times_distance():
    bias = alibi_bias(3, 6)
    slopes = alibi_slopes(3)
    assert bias.shape == (3, 6, 6) and bias.dtype == torch.float32
    for h in range(3):
        for i in range(6):
            for j in range(6):
                assert bias[h, i, j].item() == pytest.approx(-slopes[h].item() * abs(i - j), rel=1e-6)
    assert (torch.diagonal(bias, dim1=1, dim2=2) == 0).all() and not torch.signbit(bias).diagonal(
        0, 1, 2
    ).any()


@pytest.mark.parametrize("num_heads", [1, 3, 8, 12])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_bias_computed_in_place_is_the_plain_formula_bit_for_bit(num_heads, dtype):
    # in place to lower its peak memory: the same bits as 0 - m |i - j| cast to dtype
    pos = torch.arange(50, dtype=torch.float64)
    plain = 0.0 - alibi_slopes(num_heads, torch.float64)[:, None, None] * (pos.unsqueeze(1) - pos).abs()
    bias = alibi_bias(num_heads, 50, dtype)
    assert torch.equal(bias, plain.to(dtype)) and not torch.signbit(bias).diagonal(0, 1, 2).any()


def test_bias_equals_the_papers_causal_bias_on_and_below_the_diagonal():
    """Figure 3 of the paper: query i adds m * [-(i-1), ..., -1, 0] (1-indexed) to its scores of keys 1..i."""
    num_heads, seq = 4, 7
    bias = alibi_bias(num_heads, seq, dtype=torch.float64)
    m = torch.tensor(get_slopes(num_heads), dtype=torch.float64)
    for i in range(1, seq + 1):
        paper = m[:, None] * torch.tensor([-(i - j) for j in range(1, i + 1)], dtype=torch.float64)
        torch.testing.assert_close(bias[:, i - 1, :i], paper, rtol=1e-13, atol=0)


def test_causal_softmax_equals_the_reference_codes_shifted_bias():
    """The reference code adds m * j (a row-wise shift of -m(i - j)): softmax cannot tell them apart."""
    num_heads, seq = 4, 6
    scores = randn(2, num_heads, seq, seq, dtype=torch.float64)
    causal = torch.ones(seq, seq, dtype=torch.bool).tril()
    m = torch.tensor(get_slopes(num_heads), dtype=torch.float64)
    shifted = m[:, None, None] * torch.arange(seq, dtype=torch.float64)  # (heads, 1, seq)
    ours = (
        (scores + alibi_bias(num_heads, seq, dtype=torch.float64)).masked_fill(~causal, -math.inf).softmax(-1)
    )
    theirs = (scores + shifted).masked_fill(~causal, -math.inf).softmax(-1)
    torch.testing.assert_close(ours, theirs)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: alibi_slopes(0), ValueError, r"num_heads must be a positive integer, got 0"),
        (lambda: alibi_slopes(8.0), ValueError, r"num_heads must be a positive integer, got 8.0"),
        (lambda: alibi_slopes(8, dtype=torch.int64), TypeError, r"dtype must be a floating-point dtype"),
        (lambda: alibi_bias(8, 0), ValueError, r"seq_len must be a positive integer, got 0"),
        (lambda: alibi_bias(-1, 8), ValueError, r"num_heads must be a positive integer, got -1"),
        (
            lambda: alibi_bias(64, 2**14),
            ValueError,
            r"an ALiBi bias of 64 × 16384 × 16384 = 17 179 869 184 entries is too large: building it takes "
            r"194 GiB of memory at its peak, and the limit is 8 GiB",
        ),
        # 1.6e9 entries passed the old limit of 2**31, and then took 39 GB: limited by the peak, 30 GiB
        (
            lambda: alibi_bias(1, 40_000),
            ValueError,
            r"= 1 600 000 000 entries .* takes 29.8 GiB .* limit is 8 GiB",
        ),
        # used to be OverflowError and a failed 8 TB allocation
        (lambda: alibi_slopes(10**30), ValueError, r"num_heads=10{30} is too large: .* the limit is 8 GiB"),
        (lambda: alibi_slopes(2**40), ValueError, r"num_heads=1099511627776 is too large: .*32 768 GiB"),
    ],
)
def test_alibi_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_alibi_error_in_russian():
    course_lib.set_language("ru")
    with pytest.raises(ValueError, match=r"смещение ALiBi из 64 × 16384 × 16384 = .* слишком велико"):
        alibi_bias(64, 2**14)


# ----------------------------------------------------------------------------- every new message, in every language


@pytest.mark.parametrize(
    ("call", "key", "values"),
    [
        (lambda: RotaryEmbedding(8, interleaved=1), "input.not_a_flag", {"name": "interleaved", "value": 1}),
        (
            lambda: course_lib.TransformerEmbedding(10, 8, positional="rope"),
            "input.not_a_choice",
            {"name": "positional", "value": "rope", "allowed": "'sinusoidal', 'learned', 'none'"},
        ),
        (
            lambda: RotaryEmbedding(8)(3, Q),
            "input.tensor_not_tensor",
            {"name": "q", "layout": "(batch, heads, seq, head_dim)", "type_name": "int"},
        ),
        (
            lambda: RotaryEmbedding(8)(Q, Q.int()),
            "input.tensor_not_float",
            {"name": "k", "dtype": torch.int32},
        ),
        (
            lambda: RotaryEmbedding(8)(Q[0], Q),
            "input.tensor_bad_ndim",
            {"name": "q", "layout": "(batch, heads, seq, head_dim)", "shape": (2, 5, 8)},
        ),
        (
            lambda: RotaryEmbedding(8)(Q, Q, torch.arange(4)),
            "input.positions_shape",
            {"batch": 1, "seq": 5, "name": "q", "x_shape": (1, 2, 5, 8), "shape": (4,)},
        ),
        (lambda: RotaryEmbedding(9), "rotary.odd_head_dim", {"value": 9}),
        (
            lambda: RotaryEmbedding(8)(Q, Q[..., :6]),
            "rotary.last_dim",
            {"name": "k", "got": 6, "head_dim": 8},
        ),
        (
            lambda: RotaryEmbedding(8)(Q, Q[:1, :, :4]),
            "rotary.qk_mismatch",
            {"q_shape": (1, 2, 5, 8), "k_shape": (1, 2, 4, 8)},
        ),
        (
            lambda: alibi_bias(2, 2**16),
            "rotary.bias_too_large",
            {"heads": 2, "seq": 2**16, "entries": "8 589 934 592", "need": "128", "limit": "8"},
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_each_new_error_says_its_catalogue_message_in_the_current_language(call, key, values, lang):
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    assert str(info.value) == course_lib.i18n.tr(key, lang, **values)


def test_torch_compile_gives_the_eager_output():
    rope = RotaryEmbedding(8, max_len=16)
    q = randn(2, 3, 5, 8)
    compiled = torch.compile(rope, backend="eager")
    for got, expected in zip(compiled(q, q), rope(q, q), strict=True):
        assert torch.equal(got, expected)
