"""Learned positions and no positions: the other two choices of TransformerEmbedding(positional=...)."""

import logging
import math
import re
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

import course_lib
from course_lib import (
    LearnedPositionalEmbedding,
    NoPositionalEncoding,
    PositionalEncoding,
    TokenEmbedding,
    TransformerEmbedding,
    sinusoidal_table,
)
from course_lib.positions import LEARNED_INIT_STD
from course_lib.validate import MESSAGES as VALIDATE_MESSAGES


def rms(t: torch.Tensor) -> float:
    return t.double().pow(2).mean().sqrt().item()


# ----------------------------------------------------------------------------- the learned table


def test_learned_adds_one_row_per_position():
    torch.manual_seed(0)
    lpe = LearnedPositionalEmbedding(max_len=20, d_model=6)
    x = torch.randn(3, 7, 6)
    # the reference: an embedding lookup of the positions 0..seq-1
    expected = x + F.embedding(torch.arange(7), lpe.weight)
    torch.testing.assert_close(lpe(x), expected, rtol=0, atol=0)


def test_learned_explicit_positions_pick_their_rows():
    lpe = LearnedPositionalEmbedding(max_len=16, d_model=4)
    x = torch.zeros(2, 3, 4)
    with torch.no_grad():
        out = lpe(x, positions=torch.tensor([4, 5, 6]))
        per_row = lpe(x, positions=torch.tensor([[0, 1, 2], [9, 10, 11]]))
    for b in range(2):
        for t, pos in enumerate([4, 5, 6]):
            assert torch.equal(out[b, t], lpe.weight[pos])
    assert torch.equal(per_row[1], lpe.weight[9:12].detach())
    assert torch.equal(per_row[0], lpe.weight[0:3].detach())


def test_learned_table_is_a_trained_parameter_saved_in_the_state_dict():
    lpe = LearnedPositionalEmbedding(max_len=10, d_model=4)
    assert [name for name, _ in lpe.named_parameters()] == ["weight"]
    assert list(lpe.state_dict()) == ["weight"] and lpe.weight.shape == (10, 4)
    before = lpe.weight.detach().clone()
    optimizer = torch.optim.SGD(lpe.parameters(), lr=0.1)
    lpe(torch.randn(2, 6, 4)).pow(2).sum().backward()
    # the rows of the positions used get a gradient, the others none
    assert (lpe.weight.grad[:6].abs().sum(dim=1) > 0).all()
    assert lpe.weight.grad[6:].abs().sum() == 0
    optimizer.step()
    assert not torch.equal(lpe.weight[:6], before[:6]) and torch.equal(lpe.weight[6:], before[6:])


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64])
def test_learned_output_dtype_follows_input(dtype):
    lpe = LearnedPositionalEmbedding(max_len=16, d_model=8)
    out = lpe(torch.zeros(2, 5, 8, dtype=dtype))
    assert out.dtype == dtype
    torch.testing.assert_close(out[0], lpe.weight[:5].detach().to(dtype))


def test_learned_add_to_is_forward_in_place():
    torch.manual_seed(0)
    lpe = LearnedPositionalEmbedding(max_len=16, d_model=8)
    x = torch.randn(2, 5, 8)
    expected = lpe(x)
    y = x.clone()
    out = lpe.add_to_(y)
    assert torch.equal(out, expected) and torch.equal(y, expected)


def test_learned_meta_device_flow_gives_the_same_model():
    torch.manual_seed(0)
    reference = TransformerEmbedding(50, 8, max_len=32, positional="learned").eval()
    with torch.device("meta"):
        model = TransformerEmbedding(50, 8, max_len=32, positional="learned")
    assert model.positional_encoding.weight.is_meta
    model.to_empty(device="cpu")
    model.load_state_dict(reference.state_dict())
    ids = torch.randint(0, 50, (2, 32))
    assert torch.equal(model.eval()(ids), reference(ids))


def test_learned_repr_and_torchscript():
    assert "max_len=100, d_model=8, dropout=0.1" in repr(LearnedPositionalEmbedding(100, 8, dropout=0.1))
    with pytest.raises(TypeError, match=r"LearnedPositionalEmbedding cannot be compiled by torch.jit.script"):
        LearnedPositionalEmbedding(10, 4).__prepare_scriptable__()


# ----------------------------------------------------------------------------- its initialisation


def test_learned_init_has_the_rms_of_the_sinusoidal_table():
    """N(0, 1/2): RMS 1/√2, the sinusoidal table's, whatever d_model."""
    torch.manual_seed(0)
    for d_model in (16, 512):
        table = LearnedPositionalEmbedding(4096, d_model).weight.detach()
        sinusoids = sinusoidal_table(4096, d_model)
        assert rms(table) == pytest.approx(1 / math.sqrt(2), rel=0.02)
        assert rms(table) / rms(sinusoids) == pytest.approx(1.0, rel=0.02)
        assert abs(table.double().mean().item()) < 0.01


def test_learned_init_keeps_tokens_and_positions_comparable_at_512():
    """Next to the course's token vectors (RMS 1), the learned rows start at 1/√2 of their size."""
    torch.manual_seed(0)
    tokens = TokenEmbedding(32000, 512)(torch.randint(1, 32000, (4, 256)))
    table = LearnedPositionalEmbedding(256, 512).weight.detach()
    assert rms(table) / rms(tokens) == pytest.approx(1 / math.sqrt(2), rel=0.03)
    # the recipes sized for other token vectors would start the positions far smaller
    gpt2 = torch.randn(256, 512) * 0.02  # BERT, GPT-2 in HF and nanoGPT
    fairseq = torch.randn(256, 512) * 512**-0.5
    assert rms(tokens) / rms(gpt2) > 45 and rms(tokens) / rms(fairseq) > 20


def test_learned_reset_parameters_draws_again():
    lpe = LearnedPositionalEmbedding(64, 32)
    before = lpe.weight.detach().clone()
    lpe.reset_parameters()
    assert not torch.equal(lpe.weight, before)
    assert rms(lpe.weight.detach()) == pytest.approx(LEARNED_INIT_STD, rel=0.1)


# ----------------------------------------------------------------------------- no positions


def test_no_positions_returns_the_input_after_dropout():
    nope = NoPositionalEncoding(8, max_len=16, dropout=0.5)
    x = torch.randn(2, 5, 8)
    assert nope.eval()(x) is x
    torch.manual_seed(0)
    dropped = nope.train()(x)
    assert (dropped == 0).float().mean() > 0.3
    assert "d_model=8, max_len=16, dropout=0.5" in repr(nope)


# ----------------------------------------------------------------------------- the same checks in all three


def make(kind, d_model=8, max_len=16):
    return {
        "sinusoidal": lambda: PositionalEncoding(d_model, max_len),
        "learned": lambda: LearnedPositionalEmbedding(max_len, d_model),
        "none": lambda: NoPositionalEncoding(d_model, max_len),
    }[kind]()


KINDS = ["sinusoidal", "learned", "none"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("x", "positions", "error", "message"),
    [
        (torch.zeros(2, 20, 8), None, ValueError, r"sequence length 20 exceeds max_len=16"),
        (torch.zeros(2, 5, 6), None, ValueError, r"last dimension of x is 6.*d_model=8"),
        (torch.zeros(5, 8), None, ValueError, r"\(batch, seq, d_model\), got shape \(5, 8\)"),
        (
            torch.zeros(1, 5, 8, dtype=torch.long),
            None,
            TypeError,
            r"floating-point vectors, got dtype torch.int64",
        ),
        ([[0.0] * 8], None, TypeError, r"x must be a torch.Tensor .* got list"),
        (
            torch.zeros(2, 3, 8),
            torch.tensor([14, 15, 16]),
            ValueError,
            r"position 16 is out of range.*\[0, 16\)",
        ),
        (torch.zeros(2, 3, 8), torch.tensor([-1, 0, 1]), ValueError, r"position -1 is negative"),
        (torch.zeros(2, 3, 8), torch.tensor([0.0, 1.0, 2.0]), TypeError, r"positions must be integers"),
        (torch.zeros(2, 3, 8), torch.tensor([0, 1]), ValueError, r"\(3,\) or \(2, 3\) for x of shape"),
    ],
)
def test_every_choice_rejects_the_same_input_with_the_same_message(kind, x, positions, error, message):
    with pytest.raises(error, match=message):
        make(kind)(x, positions)


def make_rope(max_len=16):
    rope = course_lib.RotaryEmbedding(8, max_len)
    q = torch.zeros(2, 1, 3, 8)
    return lambda x, positions: rope(q, q, positions)


def test_the_checks_do_not_import_dynamo_in_an_eager_run():
    # torch.compiler.disable imports torch._dynamo (seconds): only a compiled call may take it
    code = (
        "import sys, torch, course_lib; pe = course_lib.PositionalEncoding(8, 16);"
        "pe(torch.zeros(1, 3, 8), torch.arange(3)); course_lib.TokenEmbedding(5, 8)(torch.tensor([[1]]));"
        "print('torch._dynamo' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


@pytest.mark.parametrize("kind", [*KINDS, "rope"])
def test_positions_on_the_meta_device_are_refused_where_the_module_computes_for_real(kind, lang):
    # used to be torch's "Cannot copy out of meta tensor" (NoPositionalEncoding accepted them)
    module = make_rope() if kind == "rope" else make(kind)
    positions = torch.arange(3, device="meta")
    expected = VALIDATE_MESSAGES("positions_meta", value=positions, device="cpu")
    with pytest.raises(ValueError, match=re.escape(expected)):
        module(torch.zeros(2, 3, 8), positions)


@pytest.mark.parametrize("kind", KINDS)
def test_positions_on_the_meta_device_pass_where_everything_is_on_the_meta_device(kind):
    with torch.device("meta"):
        out = make(kind)(torch.zeros(2, 3, 8), torch.arange(3))
    assert out.is_meta and out.shape == (2, 3, 8)


@pytest.mark.parametrize("kind", [*KINDS, "rope"])
def test_uint64_positions_beyond_2_to_the_63_are_too_large_not_negative(kind, lang):
    # used to read 2**63 + 5 as -9223372036854775803 and call it negative
    module = make_rope() if kind == "rope" else make(kind)
    positions = torch.tensor([1, 2**63 + 5, 2], dtype=torch.uint64)
    expected = VALIDATE_MESSAGES("position_too_large", value=2**63 + 5, max_len=16)
    with pytest.raises(ValueError, match=re.escape(expected)):
        module(torch.zeros(2, 3, 8), positions)
    assert module(torch.zeros(2, 3, 8), torch.tensor([0, 1, 15], dtype=torch.uint64)) is not None


@pytest.mark.parametrize("kind", [*KINDS, "rope", "tokens"])
def test_under_torch_compile_an_out_of_range_input_is_the_error_alone(kind, capfd, caplog, recwarn):
    # Dynamo used to print a 12-line "Graph break from `Tensor.item()`" warning before the error
    torch._dynamo.reset()
    if kind == "tokens":
        module, good, bad = TokenEmbedding(16, 8), torch.tensor([[1, 2, 3]]), torch.tensor([[1, 2, 99]])
        compiled = torch.compile(module, backend="eager")
        run = compiled
    else:
        module = make_rope() if kind == "rope" else make(kind)
        compiled = torch.compile(module, backend="eager")
        good, bad = torch.arange(3), torch.tensor([1, 2, 99])

        def run(positions):
            return compiled(torch.zeros(2, 3, 8), positions)

    run(good)
    name, limit = (
        ("id_too_large", {"vocab_size": 16}) if kind == "tokens" else ("position_too_large", {"max_len": 16})
    )
    with pytest.raises(ValueError, match=re.escape(VALIDATE_MESSAGES(name, value=99, **limit))):
        run(bad)
    # Dynamo logs it (pytest collects the records; a notebook shows them on stderr)
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert not [str(w.message) for w in recwarn]
    assert "Graph break" not in capfd.readouterr().err


@pytest.mark.parametrize("kind", ["learned", "none"])
def test_their_messages_follow_the_language(kind):
    course_lib.set_language("ru")
    with pytest.raises(ValueError, match=r"длина последовательности 20 больше max_len=16"):
        make(kind)(torch.zeros(1, 20, 8))
    with pytest.raises(ValueError, match=r"позиция 16 вне диапазона"):
        make(kind)(torch.zeros(1, 1, 8), positions=torch.tensor([16]))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 8), r"max_len must be a positive integer, got 0"),
        ((16, 2.5), r"d_model must be a positive integer, got 2.5"),
        ((16, 8, 1.5), r"dropout must be a probability between 0 and 1, got 1.5"),
        ((2**30, 4), r"a table of 1073741824 × 4 = 4 294 967 296 entries is too large"),
    ],
)
def test_learned_constructor_errors(args, message):
    with pytest.raises(ValueError, match=message):
        LearnedPositionalEmbedding(*args)


# ----------------------------------------------------------------------------- TransformerEmbedding(positional=...)


def test_the_default_is_the_sinusoidal_layer_bit_for_bit():
    ids = torch.randint(0, 50, (2, 9), generator=torch.Generator().manual_seed(0))
    outputs = []
    for kwargs in ({}, {"positional": "sinusoidal"}):
        torch.manual_seed(0)
        model = TransformerEmbedding(50, 8, max_len=16, dropout=0.2, **kwargs).train()
        assert isinstance(model.positional_encoding, PositionalEncoding)
        outputs.append(model(ids))
    assert torch.equal(*outputs)


def test_learned_layer_is_tokens_plus_its_rows():
    torch.manual_seed(0)
    model = TransformerEmbedding(50, 8, max_len=16, dropout=0.0, positional="learned")
    ids = torch.randint(0, 50, (3, 9))
    expected = F.embedding(ids, model.token_embedding.embedding.weight) * math.sqrt(8)
    expected = expected + model.positional_encoding.weight[:9]
    torch.testing.assert_close(model(ids), expected)
    assert list(model.state_dict()) == ["token_embedding.embedding.weight", "positional_encoding.weight"]
    TransformerEmbedding(50, 8, max_len=16, positional="learned").load_state_dict(model.state_dict())


def test_learned_layer_in_place_path_gives_the_plain_formulas_gradients():
    torch.manual_seed(0)
    model = TransformerEmbedding(30, 8, max_len=12, dropout=0.0, positional="learned").train()
    ids = torch.randint(0, 30, (4, 10))
    weights = torch.randn(4, 10, 8)
    (model(ids) * weights).sum().backward()
    tok = model.token_embedding.embedding.weight.detach().clone().requires_grad_()
    pos = model.positional_encoding.weight.detach().clone().requires_grad_()
    plain = F.embedding(ids, tok, padding_idx=0) * math.sqrt(8) + pos[:10]
    (plain * weights).sum().backward()
    torch.testing.assert_close(model.token_embedding.embedding.weight.grad, tok.grad)
    torch.testing.assert_close(model.positional_encoding.weight.grad, pos.grad)


def test_no_positions_layer_is_the_token_embedding_alone():
    torch.manual_seed(0)
    model = TransformerEmbedding(50, 8, max_len=16, positional="none").eval()
    ids = torch.randint(0, 50, (2, 5))
    assert torch.equal(model(ids), model.token_embedding(ids))
    assert list(model.state_dict()) == ["token_embedding.embedding.weight"]
    # a bag of words: permuting the tokens permutes the output, nothing else changes
    perm = torch.tensor([3, 0, 4, 1, 2])
    assert torch.equal(model(ids[:, perm]), model(ids)[:, perm])
    with pytest.raises(ValueError, match=r"position 16 is out of range"):
        model(ids, positions=torch.arange(12, 17))


@pytest.mark.parametrize("value", ["rope", "Sinusoidal", "", None, 1])
def test_an_unknown_positional_is_named_with_the_choices(value):
    with pytest.raises(
        ValueError,
        match=rf"positional must be one of 'sinusoidal', 'learned', 'none', got {value!r}".replace(
            "(", r"\("
        ),
    ):
        TransformerEmbedding(50, 8, positional=value)


def test_an_unknown_positional_in_russian():
    course_lib.set_language("ru")
    with pytest.raises(
        ValueError, match=r"аргумент `positional` должен быть одним из значений 'sinusoidal', 'learned'"
    ):
        TransformerEmbedding(50, 8, positional="alibi")


@pytest.mark.parametrize("positional", KINDS)
def test_a_bad_base_is_an_error_whatever_the_choice(positional):
    with pytest.raises(ValueError, match=r"base must be a finite number greater than 1, got 1"):
        TransformerEmbedding(50, 8, base=1, positional=positional)


@pytest.mark.parametrize("positional", KINDS)
def test_every_choice_follows_a_half_model(positional):
    model = TransformerEmbedding(50, 8, max_len=16, dropout=0.0, positional=positional).to(torch.bfloat16)
    assert model(torch.tensor([[1, 2, 3]])).dtype == torch.bfloat16
