"""The reference core (``course_lib.core``): its formulas against independent references written
here, and every public class and function of ``course_lib`` against the core on the same weights
and inputs. Exact equality where both compute the same operations; a stated tolerance otherwise."""

import cmath
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
import regex
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import course_lib
from course_lib import (
    BPETokenizer,
    LearnedPositionalEmbedding,
    NoPositionalEncoding,
    PositionalEncoding,
    RotaryEmbedding,
    TokenEmbedding,
    TransformerEmbedding,
    alibi_bias,
    alibi_slopes,
    sinusoidal_table,
)
from course_lib.bpe import course_corpus
from course_lib.bpe.pretokenize import PATTERN
from course_lib.bpe.tokenizer import merge_word
from course_lib.core import bpe as core_bpe
from course_lib.core import model as core

SIZES = st.integers(1, 12)
EVEN = st.integers(1, 8).map(lambda n: 2 * n)


# ----------------------------------------------------------------------------- the core's formulas


def test_core_uses_no_checks_or_messages_and_course_lib_stays_lazy():
    code = (
        "import sys, course_lib; assert 'torch' not in sys.modules; "
        "import course_lib.core.model, course_lib.core.bpe; "
        "bad = [m for m in sys.modules if m == 'course_lib.validate' or m.endswith('messages')]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@given(st.integers(1, 30), SIZES, st.sampled_from([10000.0, 500.0, 2.0]))
@settings(deadline=None, max_examples=30)
def test_core_sinusoidal_table_is_the_papers_formula(max_len, d_model, base):
    pe = core.sinusoidal_table(max_len, d_model, base)
    assert pe.shape == (max_len, d_model) and pe.dtype == torch.float64
    for pos in range(max_len):
        for col in range(d_model):
            i = col // 2
            angle = pos / base ** (2 * i / d_model)
            expected = math.sin(angle) if col % 2 == 0 else math.cos(angle)
            assert pe[pos, col].item() == pytest.approx(expected, abs=1e-12)


def python_rope(x, positions, base, interleaved):
    """RoPE one pair at a time with Python complex numbers, float64."""
    out = x.double().clone()
    d = x.shape[-1]
    for index in torch.cartesian_prod(*[torch.arange(n) for n in x.shape[:-1]]).reshape(-1, x.dim() - 1):
        b, t = int(index[0]), int(index[2])
        pos = int(positions[b, t] if positions.dim() == 2 else positions[t])
        for i in range(d // 2):
            ca, cb = (2 * i, 2 * i + 1) if interleaved else (i, i + d // 2)
            z = complex(x[(*index, ca)], x[(*index, cb)]) * cmath.exp(1j * pos * base ** (-2 * i / d))
            out[(*index, ca)], out[(*index, cb)] = z.real, z.imag
    return out


@pytest.mark.parametrize("interleaved", [True, False])
@pytest.mark.parametrize("batched", [False, True])
def test_core_rope_turns_pairs_by_the_roformer_angle(interleaved, batched):
    g = torch.Generator().manual_seed(0)
    q, k = torch.randn(2, 3, 4, 8, generator=g, dtype=torch.float64), torch.randn(2, 1, 4, 8, generator=g)
    positions = torch.tensor([[3, 4, 5, 6], [0, 0, 1, 2]]) if batched else torch.tensor([7, 1, 2, 9])
    rope = core.RotaryEmbedding(8, max_len=16, base=100.0, interleaved=interleaved)
    q_rot, k_rot = rope(q, k, positions)
    torch.testing.assert_close(q_rot, python_rope(q, positions, 100.0, interleaved), rtol=0, atol=1e-12)
    torch.testing.assert_close(
        k_rot, python_rope(k, positions, 100.0, interleaved).float(), rtol=0, atol=1e-6
    )


def test_core_rope_layouts_are_one_permutation_apart():
    x = torch.randn(1, 2, 5, 8, dtype=torch.float64)
    to_halves = torch.cat((torch.arange(0, 8, 2), torch.arange(1, 8, 2)))  # (2i, 2i+1) -> (i, i + 4)
    inter, half = core.RotaryEmbedding(8, 16), core.RotaryEmbedding(8, 16, interleaved=False)
    torch.testing.assert_close(
        inter(x, x)[0][..., to_halves], half(x[..., to_halves], x)[0], rtol=0, atol=1e-15
    )


def paper_get_slopes(n):
    """``get_slopes`` from https://github.com/ofirpress/attention_with_linear_biases, verbatim."""

    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    return (
        get_slopes_power_of_2(closest_power_of_2)
        + paper_get_slopes(2 * closest_power_of_2)[0::2][: n - closest_power_of_2]
    )


@given(st.integers(1, 80))
def test_core_alibi_slopes_are_the_papers(num_heads):
    expected = torch.tensor(paper_get_slopes(num_heads), dtype=torch.float64)
    torch.testing.assert_close(core.alibi_slopes(num_heads), expected, rtol=1e-13, atol=0)


def test_core_alibi_bias_is_minus_slope_times_distance():
    bias = core.alibi_bias(3, 5)
    slopes = paper_get_slopes(3)
    for h in range(3):
        for i in range(5):
            for j in range(5):
                assert bias[h, i, j].item() == pytest.approx(-slopes[h] * abs(i - j), abs=1e-15)
    assert not torch.signbit(bias.diagonal(dim1=1, dim2=2)).any()  # 0, not -0


def test_core_bpe_trains_and_encodes_as_sennrich_by_hand():
    # low x5, lower x2, newest x6, widest x3: "es" and "st" both 9 ("e" before "s" by rank), then "est" 9, "lo" 7
    texts = ["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3
    merges, vocab = core_bpe.train(texts, 259)
    assert [vocab[i] for i in merges.values()] == [b"es", b"est", b"lo"]
    assert core_bpe.merge((97, 97, 97), (97, 97), 256) == (256, 97)
    assert core_bpe.encode("newest", merges) == [110, 101, 119, 257]
    assert core_bpe.decode(core_bpe.encode("lowest", merges), vocab) == "lowest"


# ----------------------------------------------------------------------------- course_lib == core

# ids (b, t) of a small vocabulary, with a padding id among them
IDS = st.tuples(st.integers(1, 3), st.integers(1, 6), st.integers(0, 2**16)).map(
    lambda a: torch.randint(0, 11, a[:2], generator=torch.Generator().manual_seed(a[2]))
)


def same_module(checked, reference):
    """``reference`` holding ``checked``'s weights: load_state_dict is strict, so the keys agree."""
    reference.load_state_dict(checked.state_dict())
    assert [n for n, _ in checked.named_buffers()] == [n for n, _ in reference.named_buffers()]
    return reference


@given(st.integers(0, 2**16), SIZES, st.sampled_from([None, 0, 3]))
@settings(deadline=None, max_examples=25)
def test_token_embedding_equals_core(seed, d_model, padding_idx):
    torch.manual_seed(seed)
    checked = TokenEmbedding(11, d_model, padding_idx)
    torch.manual_seed(seed)
    reference = core.TokenEmbedding(11, d_model, padding_idx)
    assert torch.equal(checked.embedding.weight, reference.embedding.weight)  # the same initialisation
    ids = torch.randint(0, 11, (2, 5))
    assert torch.equal(checked(ids), reference(ids))


@given(st.integers(1, 200), SIZES, st.sampled_from([10000.0, 500.0, 1.5]))
@settings(deadline=None, max_examples=40)
def test_sinusoidal_table_equals_core(max_len, d_model, base):
    expected = core.sinusoidal_table(max_len, d_model, base)
    assert torch.equal(sinusoidal_table(max_len, d_model, base, dtype=torch.float64), expected)
    assert torch.equal(sinusoidal_table(max_len, d_model, base), expected.float())
    pos = torch.tensor([0, 99_999, 100_000, 3])
    assert torch.equal(
        course_lib.embedding.sinusoidal_rows(pos, d_model, base), core.sinusoidal_rows(pos, d_model, base)
    )


def positions_for(seed, batch, seq, max_len):
    """None, (seq,) or (batch, seq) positions below max_len, chosen by ``seed``."""
    g = torch.Generator().manual_seed(seed)
    kind = seed % 3
    if kind == 0:
        return None
    shape = (seq,) if kind == 1 else (batch, seq)
    return torch.randint(0, max_len, shape, generator=g)


@given(
    st.integers(0, 2**16),
    st.integers(1, 3),
    st.integers(1, 6),
    SIZES,
    st.sampled_from(["float32", "float64"]),
)
@settings(deadline=None, max_examples=30)
def test_positional_layers_equal_core(seed, batch, seq, d_model, dtype):
    dtype = getattr(torch, dtype)
    x = torch.randn(batch, seq, d_model, generator=torch.Generator().manual_seed(seed), dtype=dtype)
    positions = positions_for(seed, batch, seq, 8)
    pairs = [
        (PositionalEncoding(d_model, 8, 100.0), core.PositionalEncoding(d_model, 8, 100.0)),
        (LearnedPositionalEmbedding(8, d_model), core.LearnedPositionalEmbedding(8, d_model)),
        (NoPositionalEncoding(d_model, 8), core.NoPositionalEncoding()),
    ]
    for checked, reference in pairs:
        reference = same_module(checked, reference)
        assert torch.equal(checked(x, positions), reference(x, positions)), type(checked).__name__


@pytest.mark.parametrize("positional", ["sinusoidal", "learned", "none"])
def test_transformer_embedding_equals_core_with_the_same_keys_and_dropout(positional):
    torch.manual_seed(5)
    checked = TransformerEmbedding(11, 6, max_len=9, dropout=0.25, positional=positional)
    torch.manual_seed(5)
    reference = core.TransformerEmbedding(11, 6, max_len=9, dropout=0.25, positional=positional)
    assert list(checked.state_dict()) == list(reference.state_dict())
    for key, value in checked.state_dict().items():  # the same seed, the same initial weights
        assert torch.equal(value, reference.state_dict()[key]), key
    ids = torch.tensor([[1, 4, 0, 10], [2, 3, 5, 0]])
    for positions in (None, torch.tensor([5, 6, 7, 8]), torch.tensor([[0, 0, 1, 2], [3, 4, 5, 6]])):
        assert torch.equal(checked.eval()(ids, positions), reference.eval()(ids, positions))
        torch.manual_seed(1)
        trained = checked.train()(ids, positions)
        torch.manual_seed(1)
        assert torch.equal(trained, reference.train()(ids, positions))  # dropout draws the same mask


ROPE_CASES = st.tuples(
    st.integers(0, 2**16), st.integers(1, 2), st.integers(1, 3), st.integers(1, 5), EVEN, st.booleans()
)


@given(ROPE_CASES, st.sampled_from(["float32", "float64"]))
@settings(deadline=None, max_examples=40)
def test_rotary_embedding_equals_core_in_both_layouts(case, dtype):
    seed, batch, heads, seq, head_dim, interleaved = case
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(batch, heads, seq, head_dim, generator=g, dtype=getattr(torch, dtype))
    k = torch.randn(batch, 1, seq, head_dim, generator=g, dtype=getattr(torch, dtype))
    positions = positions_for(seed, batch, seq, 12)
    checked = RotaryEmbedding(head_dim, 12, 300.0, interleaved=interleaved)
    reference = same_module(checked, core.RotaryEmbedding(head_dim, 12, 300.0, interleaved=interleaved))
    assert torch.equal(checked.cos, reference.cos) and torch.equal(checked.sin, reference.sin)
    for got, expected in zip(checked(q, k, positions), reference(q, k, positions), strict=True):
        assert torch.equal(got, expected)


@pytest.mark.parametrize("interleaved", [True, False])
def test_rotary_fallbacks_equal_core(interleaved):
    """The checked layer's other paths: half precision, and interleaved pairs it cannot view as complex."""
    g = torch.Generator().manual_seed(3)
    base = torch.randn(2, 3, 5, 9, generator=g)
    odd_offset = base[..., 1:]  # storage offset 1: no complex view; the real-arithmetic path
    checked = RotaryEmbedding(8, 16, interleaved=interleaved)
    reference = core.RotaryEmbedding(8, 16, interleaved=interleaved)
    got = checked(odd_offset, odd_offset)[0]
    expected = reference(odd_offset.contiguous(), odd_offset.contiguous())[0]
    # the same products, summed in another order than a complex multiply: float32 rounding
    torch.testing.assert_close(got, expected, rtol=0, atol=1e-6)
    for dtype in (torch.float16, torch.bfloat16):
        x = odd_offset.contiguous().to(dtype)
        expected = reference(x.float(), x.float())[0]  # exact in float32, then rounded once
        # the checked layer rounds cos, sin and each product to dtype: a few of dtype's ulps of |x| <= 5
        torch.testing.assert_close(
            checked(x, x)[0].float(), expected, rtol=0, atol=8 * torch.finfo(dtype).eps * 5
        )


@given(st.integers(1, 70), st.integers(1, 20))
@settings(deadline=None, max_examples=40)
def test_alibi_equals_core(num_heads, seq_len):
    assert torch.equal(alibi_slopes(num_heads, dtype=torch.float64), core.alibi_slopes(num_heads))
    assert torch.equal(alibi_slopes(num_heads), core.alibi_slopes(num_heads).float())
    bias = alibi_bias(num_heads, seq_len, dtype=torch.float64)
    expected = core.alibi_bias(num_heads, seq_len)
    assert torch.equal(bias, expected) and torch.equal(torch.signbit(bias), torch.signbit(expected))


# --- BPE: BPETokenizer (specials first, bytes in Hugging Face's order) against the core (minbpe's ids)

SPECIALS = 3  # "<pad>", "<bos>", "<eos>"


def to_checked_ids(vocab):
    """core id -> BPETokenizer id: after the specials, bytes by Hugging Face's rank, merges as learned."""
    return {i: SPECIALS + (core_bpe.BYTE_RANK[i] if i < 256 else i) for i in range(len(vocab))}


def trained_pair(texts, vocab_size):
    tok = BPETokenizer.train(texts, vocab_size)
    merges, vocab = core_bpe.train(texts, vocab_size - SPECIALS)
    return tok, merges, vocab


def assert_same_tokenizer(tok, merges, vocab):
    ids = to_checked_ids(vocab)
    assert len(tok) == SPECIALS + len(vocab)
    assert [tok.token_bytes(ids[i]) for i in range(len(vocab))] == vocab
    assert tok.merges == [(ids[a], ids[b]) for a, b in merges]


# the published GPT-2 pattern; BPETokenizer leaves out letters and digits newer than tokenizers'
# Unicode (course_lib.bpe.pretokenize): texts where the two cut differently are not compared
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40).filter(
    lambda t: regex.findall(core_bpe.GPT2_SPLIT_PATTERN, t) == PATTERN.findall(t)
)
SMALL_TEXT = st.text(st.sampled_from("ab c\n'sé1ё"), max_size=30)


@given(st.lists(SMALL_TEXT, min_size=1, max_size=5), st.integers(1, 40))
@settings(deadline=None, max_examples=60)
def test_bpe_training_equals_core_on_any_small_corpus(texts, extra):
    if not "".join(texts):
        return  # BPETokenizer refuses an empty corpus, by design
    tok, merges, vocab = trained_pair(texts, SPECIALS + 256 + extra)
    assert_same_tokenizer(tok, merges, vocab)


@pytest.fixture(scope="module")
def course_pair():
    texts = course_corpus("en")[:40] + course_corpus("ru")[:40]
    return trained_pair(texts, 600)


def test_bpe_training_equals_core_on_the_course_corpus(course_pair):
    assert_same_tokenizer(*course_pair)


@given(TEXT)
@settings(deadline=None, max_examples=150)
def test_bpe_encode_and_decode_equal_core(course_pair, text):
    tok, merges, vocab = course_pair
    ids = to_checked_ids(vocab)
    expected = core_bpe.encode(text, merges)
    assert tok.encode(text) == [ids[i] for i in expected]  # the fast encoder against minbpe's loop
    assert tok.decode(tok.encode(text)) == core_bpe.decode(expected, vocab) == text


@given(st.lists(st.integers(0, 599), max_size=12))
def test_bpe_decode_of_any_ids_equals_core(course_pair, checked_ids):
    tok, merges, vocab = course_pair
    back = {j: i for i, j in to_checked_ids(vocab).items()}
    checked_ids = [i for i in checked_ids if i in back]  # the specials have no core id
    assert tok.decode(checked_ids) == core_bpe.decode([back[i] for i in checked_ids], vocab)


def test_the_package_guide_gives_the_cores_true_length():
    """docs/PACKAGE.md and its Russian twin tell a reader how long the reference core is: the true count."""
    root = Path(__file__).parents[2]
    lines = sum(
        len((root / "course_lib/core" / name).read_text().splitlines()) for name in ("model.py", "bpe.py")
    )
    english = " ".join((root / "docs/PACKAGE.md").read_text(encoding="utf-8").split())
    russian = " ".join((root / "docs/PACKAGE.ru.md").read_text(encoding="utf-8").split())
    assert f"{lines} lines of torch and plain Python" in english
    # the noun agrees with the number: 451 строка, 462 строки, 456 строк
    assert re.search(rf"\b{lines} строк[аи]? на torch и чистом Python", russian)


@given(st.one_of(st.binary(max_size=300), st.text(st.sampled_from("ab aé\nё"), max_size=300).map(str.encode)))
@settings(deadline=None, max_examples=150)
def test_the_fast_heap_encoder_equals_the_cores_loop_on_any_bytes(course_pair, data):
    # whole byte strings, not pre-tokens: long runs ("aaaa...") are where a heap could go wrong
    tok, merges, vocab = course_pair
    ids = to_checked_ids(vocab)
    ranks = {(ids[a], ids[b]): (r, ids[new]) for r, ((a, b), new) in enumerate(merges.items())}
    expected = core_bpe.encode_chunk(tuple(data), merges)
    assert merge_word([ids[b] for b in data], ranks) == tuple(ids[i] for i in expected)
