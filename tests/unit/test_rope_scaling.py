"""RoPE scaling for longer contexts (``rope_scaling``), against Hugging Face transformers' own code.

The reference is transformers' ``ROPE_INIT_FUNCTIONS`` (``transformers.modeling_rope_utils``), the
functions every model in transformers takes its frequencies from, and ``LlamaRotaryEmbedding``,
which turns them into cos and sin tables. They read a config object: a ``LlamaConfig`` built here,
with no weights and nothing downloaded. transformers computes in float32 and the course in float64,
so they agree to float32's rounding: relative ``4 eps (1 + ln base)``, float32's rounding of the
exponent ``2i/d`` being multiplied by ``ln base`` in ``base^(2i/d)``.
"""

import math
import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # configs only: nothing may be fetched

import pytest  # noqa: E402
import torch  # noqa: E402
import transformers  # noqa: E402
from transformers import LlamaConfig  # noqa: E402
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS  # noqa: E402
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb  # noqa: E402

import course_lib  # noqa: E402
from course_lib import RotaryEmbedding  # noqa: E402
from course_lib.core import model as core  # noqa: E402
from course_lib.rotary import PUBLISHED, SCALING_KEYS, check_rope_scaling, rope_frequencies, rotary_tables  # noqa: E402

transformers.logging.set_verbosity_error()  # its advice on unusual configs is not under test here

EPS32 = torch.finfo(torch.float32).eps


def hf_config(head_dim: int, base: float, rope_scaling: dict | None) -> LlamaConfig:
    """A LlamaConfig with only what RoPE reads, as a model's config.json would give it.

    transformers reads "dynamic"'s training length from ``max_position_embeddings``; the course's dict
    carries it as ``original_max_position_embeddings``, the key transformers itself fills for "yarn"
    and "llama3" from that same field.
    """
    scaling = dict(rope_scaling) if rope_scaling else None
    max_position_embeddings = 4096
    if scaling and core.rope_type(scaling) == "dynamic":
        max_position_embeddings = scaling.pop("original_max_position_embeddings")
    elif scaling and "original_max_position_embeddings" in scaling:
        # the context after scaling, so that transformers' consistency warnings stay quiet
        max_position_embeddings = math.ceil(
            scaling["original_max_position_embeddings"] * max(scaling["factor"], 2)
        )
    return LlamaConfig(
        head_dim=head_dim,
        hidden_size=2 * head_dim,
        num_attention_heads=2,
        max_position_embeddings=max_position_embeddings,
        rope_theta=base,
        rope_scaling=scaling,
    )


def hf_frequencies(head_dim, base, rope_scaling, seq_len=None):
    """transformers' inverse frequencies and attention factor for the same dict."""
    config = hf_config(head_dim, base, rope_scaling)
    method = core.rope_type(rope_scaling)
    if method == "default":
        return LlamaRotaryEmbedding.compute_default_rope_parameters(config)
    return ROPE_INIT_FUNCTIONS[method](config, "cpu", seq_len=seq_len)


def assert_frequencies_equal(ours, theirs, base):
    theta, factor = ours
    hf_theta, hf_factor = theirs
    assert theta.dtype == torch.float64 and hf_theta.dtype == torch.float32
    torch.testing.assert_close(theta, hf_theta.double(), rtol=4 * EPS32 * (1 + math.log(base)), atol=0)
    assert factor == pytest.approx(hf_factor, rel=1e-15)


SCALINGS = [
    {"rope_type": "default"},
    {"rope_type": "linear", "factor": 2.0},
    {"rope_type": "linear", "factor": 0.5},
    {"type": "linear", "factor": 8},  # the older key, as Llama 2-era configs write it
    {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 2048},
    {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 512},
    {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096},
    {
        "rope_type": "yarn",
        "factor": 16.0,
        "original_max_position_embeddings": 2048,
        "beta_fast": 64,
        "beta_slow": 2,
    },
    {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 1024, "truncate": False},
    {
        "rope_type": "yarn",
        "factor": 40,
        "original_max_position_embeddings": 4096,
        "mscale": 1.0,
        "mscale_all_dim": 0.707,
    },
    {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 512, "attention_factor": 0.9},
    {"rope_type": "yarn", "factor": 0.5, "original_max_position_embeddings": 512},
    {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    },
    {
        "rope_type": "llama3",
        "factor": 4.0,
        "low_freq_factor": 2.0,
        "high_freq_factor": 8.0,
        "original_max_position_embeddings": 2048,
    },
    {
        "rope_type": "llama3",
        "factor": 32,
        "low_freq_factor": 0.5,
        "high_freq_factor": 16,
        "original_max_position_embeddings": 512,
    },
]


@pytest.mark.parametrize("rope_scaling", SCALINGS, ids=lambda s: "-".join(map(str, s.values())))
@pytest.mark.parametrize("head_dim", [4, 8, 64, 128, 256])
@pytest.mark.parametrize("base", [100.0, 10000.0, 500000.0])
def test_frequencies_equal_transformers(rope_scaling, head_dim, base):
    assert_frequencies_equal(
        rope_frequencies(head_dim, base, rope_scaling), hf_frequencies(head_dim, base, rope_scaling), base
    )


def test_every_method_is_tested_against_transformers():
    assert {core.rope_type(s) for s in SCALINGS} == set(SCALING_KEYS)
    assert set(SCALING_KEYS) - {"default"} <= set(ROPE_INIT_FUNCTIONS)
    assert {k for s in SCALINGS for k in s} == {
        k for keys in SCALING_KEYS.values() for k in (*keys[0], *keys[1])
    } | {
        "rope_type",
        "type",
    }


DYNAMIC = {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 2048}


@pytest.mark.parametrize("seq_len", [1, 1000, 2047, 2048, 2049, 3000, 8192, 100_000])
@pytest.mark.parametrize("head_dim", [8, 128])
def test_dynamic_follows_the_length_above_the_training_length_only(seq_len, head_dim):
    ours = rope_frequencies(head_dim, 10000.0, DYNAMIC, seq_len)
    assert_frequencies_equal(ours, hf_frequencies(head_dim, 10000.0, DYNAMIC, seq_len), 10000.0)
    unscaled = rope_frequencies(head_dim, 10000.0)[0]
    if seq_len <= 2048:
        assert torch.equal(ours[0], unscaled)
    else:  # the fastest pair kept, the slowest slowed by s_t = 2 t / 2048 - 1
        assert ours[0][0] == 1.0
        assert ours[0][-1] == pytest.approx(float(unscaled[-1]) / (2 * seq_len / 2048 - 1), rel=1e-12)


def test_the_default_dict_and_linear_factor_1_are_rope_itself_bit_for_bit():
    cos, sin = rotary_tables(300, 64, 500.0)
    for scaling in ({"rope_type": "default"}, {"type": "default"}, {"rope_type": "linear", "factor": 1}):
        scaled = rotary_tables(300, 64, 500.0, rope_scaling=scaling)
        assert torch.equal(scaled[0], cos) and torch.equal(scaled[1], sin), scaling


# ----------------------------------------------------------------------------- published configs

# config.json's head width, rope_theta and rope_scaling, as each model publishes them (course_lib.rotary.PUBLISHED)
LLAMA_3_1_8B = PUBLISHED["Llama 3.1 8B"][:3]
QWEN2_5_YARN = PUBLISHED["Qwen2.5 YaRN"][:3]
DEEPSEEK_V3_YARN = PUBLISHED["DeepSeek-V3"][:3]
LLAMA_2_LINEAR = PUBLISHED["Llama 2 linear"][:3]
LLAMA_2_DYNAMIC = PUBLISHED["Llama 2 dynamic"][:3]


@pytest.mark.parametrize("name", PUBLISHED)
@pytest.mark.parametrize("seq_len", [None, 4096, 16384])
def test_published_configs_equal_transformers(name, seq_len):
    head_dim, base, scaling, _ = PUBLISHED[name]
    ours = rope_frequencies(head_dim, base, scaling, seq_len)
    assert_frequencies_equal(ours, hf_frequencies(head_dim, base, scaling, seq_len), base)


def test_llama_3_1_keeps_short_wavelengths_divides_long_ones_by_8_and_ramps_between():
    head_dim, base, scaling = LLAMA_3_1_8B
    theta = rope_frequencies(head_dim, base)[0]
    ratio = rope_frequencies(head_dim, base, scaling)[0] / theta
    wavelength = 2 * math.pi / theta
    short, long = wavelength < 8192 / 4, wavelength > 8192 / 1
    assert short.any() and long.any() and (~short & ~long).any()
    assert torch.all(ratio[short] == 1) and torch.all(ratio[long] == 1 / 8)
    between = ratio[~short & ~long]
    assert torch.all((between < 1) & (between > 1 / 8)) and torch.all(between.diff() < 0)


def test_yarn_attention_factors_of_published_configs():
    # Qwen2.5: 0.1 ln 4 + 1; DeepSeek-V3: mscale = mscale_all_dim, a ratio of 1
    assert rope_frequencies(*QWEN2_5_YARN)[1] == pytest.approx(0.1 * math.log(4) + 1, rel=1e-15)
    assert rope_frequencies(*DEEPSEEK_V3_YARN)[1] == 1.0
    head_dim, base, scaling = QWEN2_5_YARN
    theta = rope_frequencies(head_dim, base)[0]
    ratio = rope_frequencies(head_dim, base, scaling)[0] / theta
    turns = 32768 * theta / (2 * math.pi)  # turns of each pair within the training length
    assert torch.all(ratio[turns > 32] == 1) and torch.all(ratio[turns < 1] == 1 / 4)


# ----------------------------------------------------------------------------- the tables and the rotation


def hf_rotated(head_dim, base, scaling, q, k, positions, module=None):
    """transformers' LlamaRotaryEmbedding tables and apply_rotary_pos_emb (the rotate_half layout)."""
    module = module or LlamaRotaryEmbedding(hf_config(head_dim, base, scaling))
    cos, sin = module(q, positions)  # (batch, seq, head_dim), cos and sin times the attention factor
    return cos, apply_rotary_pos_emb(q, k, cos, sin)


SMALL = {  # every method at a training length of 64, so that a short test passes it
    "linear": {"rope_type": "linear", "factor": 4.0},
    "dynamic": {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 64},
    "yarn": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 64},
    "llama3": {
        "rope_type": "llama3",
        "factor": 4.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 64,
    },
}


@pytest.mark.parametrize("method", SMALL)
@pytest.mark.parametrize("seq", [40, 64, 100, 250])
def test_rotary_embedding_equals_transformers_tables_and_rotation(method, seq):
    head_dim, base, scaling = 16, 10000.0, SMALL[method]
    g = torch.Generator().manual_seed(seq)
    q, k = torch.randn(2, 3, seq, head_dim, generator=g), torch.randn(2, 3, seq, head_dim, generator=g)
    positions = torch.arange(seq).expand(2, seq)
    hf_cos, (hf_q, hf_k) = hf_rotated(head_dim, base, scaling, q, k, positions)  # a fresh module each time
    rope = RotaryEmbedding(head_dim, 256, base, interleaved=False, rope_scaling=scaling)
    cos, _ = rope.tables_for(q, k)  # (seq, head_dim/2)
    # float32 angles: transformers' frequencies to float32's rounding, times positions up to 250
    atol = seq * 4 * EPS32 * (1 + math.log(base)) + 4 * EPS32
    torch.testing.assert_close(
        cos.float().expand(2, seq, -1), hf_cos[..., : head_dim // 2], rtol=0, atol=atol
    )
    for ours, theirs in zip(rope(q, k, positions), (hf_q, hf_k), strict=True):
        torch.testing.assert_close(ours, theirs, rtol=0, atol=atol * 5)  # |q| entries below ~5


def test_transformers_dynamic_keeps_the_longest_length_seen_and_the_course_does_not():
    """The docstring's claim: transformers caches the frequencies of the longest call until a call
    shorter than the training length; the course recomputes them from each call's length."""
    head_dim, base, scaling = 16, 10000.0, SMALL["dynamic"]
    module = LlamaRotaryEmbedding(hf_config(head_dim, base, scaling))
    x = torch.zeros(1, 1, 1, head_dim)
    module(x, torch.arange(250)[None])
    after_long, _ = module(x, torch.arange(100)[None])  # 100 > 64: the frequencies of 250 stay
    fresh, _ = LlamaRotaryEmbedding(hf_config(head_dim, base, scaling))(x, torch.arange(250)[None])
    assert torch.equal(after_long[0], fresh[0, :100])
    rope = RotaryEmbedding(head_dim, 256, base, interleaved=False, rope_scaling=scaling)
    q = torch.zeros(1, 1, 100, head_dim)
    ours = rope.tables_for(q, q)[0]
    assert torch.equal(ours, rope.tables_for(q, q, torch.arange(100))[0])
    assert not torch.allclose(ours.float(), after_long[0, :, : head_dim // 2], atol=1e-3)
    expected = torch.cos(
        torch.arange(100.0, dtype=torch.float64)[:, None] * rope_frequencies(16, base, scaling, 100)[0]
    )
    assert torch.equal(ours, expected)


@pytest.mark.parametrize("method", SMALL)
@pytest.mark.parametrize("interleaved", [True, False])
@pytest.mark.parametrize("seq", [30, 64, 65, 200])
def test_rotary_embedding_with_scaling_equals_core(method, interleaved, seq):
    scaling = SMALL[method]
    g = torch.Generator().manual_seed(seq)
    q, k = torch.randn(2, 4, seq, 16, generator=g), torch.randn(2, 1, seq, 16, generator=g)
    checked = RotaryEmbedding(16, 256, 500.0, interleaved=interleaved, rope_scaling=scaling)
    reference = core.RotaryEmbedding(16, 256, 500.0, interleaved=interleaved, rope_scaling=scaling)
    assert torch.equal(checked.cos, reference.cos) and torch.equal(checked.sin, reference.sin)
    # core and checked frequencies: the same function
    assert torch.equal(
        rope_frequencies(16, 500.0, scaling, seq)[0], core.rope_frequencies(16, 500.0, scaling, seq)[0]
    )
    start = torch.randint(0, 256 - seq, (2, 1), generator=g)
    for positions in (None, torch.arange(seq), start + torch.arange(seq)):
        for got, expected in zip(checked(q, k, positions), reference(q, k, positions), strict=True):
            assert torch.equal(got, expected), (method, positions)


def test_yarn_tables_carry_the_attention_factor_and_lengths_grow_by_it():
    scaling = SMALL["yarn"]
    rope = RotaryEmbedding(16, 128, rope_scaling=scaling)
    assert rope.attention_factor == pytest.approx(0.1 * math.log(4) + 1)
    assert torch.allclose(
        rope.cos**2 + rope.sin**2, torch.tensor(rope.attention_factor**2, dtype=torch.float64)
    )
    q = torch.randn(1, 2, 50, 16)
    q_rot, _ = rope(q, q)
    torch.testing.assert_close(q_rot.norm(dim=-1), rope.attention_factor * q.norm(dim=-1))
    for method in ("linear", "dynamic", "llama3"):
        assert RotaryEmbedding(16, 128, rope_scaling=SMALL[method]).attention_factor == 1.0


def test_scaled_module_repr_meta_device_and_casts():
    scaling = SMALL["llama3"]
    rope = RotaryEmbedding(16, 128, rope_scaling=scaling)
    assert repr(rope) == (
        "RotaryEmbedding(head_dim=16, max_len=128, base=10000.0, interleaved=True, rope_scaling={'rope_type': "
        "'llama3', 'factor': 4.0, 'low_freq_factor': 1.0, 'high_freq_factor': 4.0, "
        "'original_max_position_embeddings': 64})"
    )
    assert list(rope.state_dict()) == []
    with torch.device("meta"):
        on_meta = RotaryEmbedding(16, 128, rope_scaling=scaling)
    on_meta.to_empty(device="cpu")
    assert torch.equal(on_meta.cos, rope.cos) and torch.equal(on_meta.sin, rope.sin)
    assert torch.equal(rope.float().cos, rotary_tables(128, 16, rope_scaling=scaling, dtype=torch.float32)[0])


def test_the_module_keeps_its_own_copy_of_the_dict():
    scaling = dict(SMALL["linear"])
    rope = RotaryEmbedding(16, 128, rope_scaling=scaling)
    scaling["factor"] = 100.0
    assert rope.rope_scaling["factor"] == 4.0


def test_dynamic_positions_of_a_batch_use_its_longest_row():
    rope = RotaryEmbedding(16, 256, rope_scaling=SMALL["dynamic"])
    q = torch.randn(2, 1, 10, 16)
    rows = torch.stack([torch.arange(10), torch.arange(190, 200)])  # the longest row reaches 200
    cos, _ = rope.tables_for(q, q, rows)  # (2, 1, 10, head_dim/2)
    at_200 = rotary_tables(200, 16, rope_scaling=SMALL["dynamic"], seq_len=200)[0]
    assert torch.equal(cos[0, 0], at_200[:10]) and torch.equal(cos[1, 0], at_200[190:])


# ----------------------------------------------------------------------------- clear errors

LLAMA3 = LLAMA_3_1_8B[2]


@pytest.mark.parametrize(
    ("rope_scaling", "error", "message"),
    [
        (
            [("rope_type", "linear")],
            TypeError,
            r"rope_scaling must be None or a dict .* got \[\('rope_type', 'linear'\)\]",
        ),
        (
            {"rope_type": "ntk"},
            ValueError,
            r"rope_type must be one of 'default', 'linear', 'dynamic', 'yarn', 'llama3', got 'ntk'",
        ),
        ({"rope_type": "longrope", "factor": 2.0}, ValueError, r"rope_type must be one of .* got 'longrope'"),
        (
            {"rope_type": "linear", "type": "dynamic", "factor": 2.0},
            ValueError,
            r"rope_type='linear' and the older type='dynamic'",
        ),
        (
            {"rope_type": "linear"},
            ValueError,
            r"rope_type 'linear' needs the key 'factor' \(how many times longer",
        ),
        (
            {"rope_type": "linear", "factor": 0},
            ValueError,
            r"rope_scaling's factor must be a finite number greater than 0, got 0",
        ),
        (
            {"rope_type": "linear", "factor": -2.0},
            ValueError,
            r"factor must be a finite number greater than 0, got -2.0",
        ),
        (
            {"rope_type": "linear", "factor": "2"},
            ValueError,
            r"factor must be a finite number greater than 0, got '2'",
        ),
        ({"rope_type": "linear", "factor": float("inf")}, ValueError, r"factor must be .* got inf"),
        ({"rope_type": "linear", "factor": True}, ValueError, r"factor must be .* got True"),
        ({"rope_type": "linear", "factor": float("nan")}, ValueError, r"factor must be .* got nan"),
        ({"rope_type": "linear", "factor": 10**400}, ValueError, r"factor must be .* got 10000000000"),
        (
            {"rope_type": "linear", "factor": 2.0, "low_freq_factor": 1.0},
            ValueError,
            r"rope_scaling of rope_type 'linear' has no key 'low_freq_factor': its keys are 'rope_type', 'type', 'rope_theta', 'factor'",
        ),
        ({"rope_type": "default", "factor": 2.0}, ValueError, r"rope_type 'default' has no key 'factor'"),
        (
            {"rope_type": "dynamic", "factor": 2.0},
            ValueError,
            r"rope_type 'dynamic' needs the key 'original_max_position_embeddings' \(the training length: config.json's max_position_embeddings",
        ),
        (
            {**LLAMA3, "original_max_position_embeddings": 8192.0},
            ValueError,
            r"original_max_position_embeddings must be an integer greater than 0 \(the training length\), got 8192.0",
        ),
        (
            {**LLAMA3, "original_max_position_embeddings": 0},
            ValueError,
            r"original_max_position_embeddings must be .* got 0",
        ),
        (
            {**LLAMA3, "low_freq_factor": 4.0, "high_freq_factor": 1.0},
            ValueError,
            r"low_freq_factor must be less than high_freq_factor, got low_freq_factor=4.0 and high_freq_factor=1.0",
        ),
        ({**LLAMA3, "low_freq_factor": 4.0}, ValueError, r"got low_freq_factor=4.0 and high_freq_factor=4.0"),
        (
            {**LLAMA3, "high_freq_factor": 0.0},
            ValueError,
            r"high_freq_factor must be a finite number greater than 0, got 0.0",
        ),
        (
            {k: v for k, v in LLAMA3.items() if k != "high_freq_factor"},
            ValueError,
            r"needs the key 'high_freq_factor' \(the wavelength thresholds are",
        ),
        ({**LLAMA3, "beta_fast": 32}, ValueError, r"rope_type 'llama3' has no key 'beta_fast'"),
        (
            {**QWEN2_5_YARN[2], "beta_fast": 1, "beta_slow": 2},
            ValueError,
            r"beta_fast must be greater than beta_slow, got beta_fast=1 and beta_slow=2",
        ),
        ({**QWEN2_5_YARN[2], "beta_slow": 32}, ValueError, r"got beta_fast=32 and beta_slow=32"),
        (
            {**QWEN2_5_YARN[2], "mscale": None},
            ValueError,
            r"mscale must be a finite number greater than 0, got None",
        ),
        ({**QWEN2_5_YARN[2], "attention_factor": -1.0}, ValueError, r"attention_factor must be .* got -1.0"),
        ({**QWEN2_5_YARN[2], "truncate": "no"}, TypeError, r"truncate must be True or False, got 'no'"),
        (
            {**QWEN2_5_YARN[2], "rope_theta": 500000.0},
            ValueError,
            r"rope_theta=500000.0 differs from base=10000.0: they are the same number",
        ),
    ],
)
def test_rope_scaling_errors(rope_scaling, error, message):
    with pytest.raises(error, match=message):
        RotaryEmbedding(16, 128, rope_scaling=rope_scaling)
    with pytest.raises(error, match=message):
        rope_frequencies(16, rope_scaling=rope_scaling)


def test_rope_theta_equal_to_base_is_accepted_as_transformers_5_writes_it():
    scaling = {**QWEN2_5_YARN[2], "rope_theta": 1000000.0}
    assert torch.equal(rope_frequencies(128, 1e6, scaling)[0], rope_frequencies(*QWEN2_5_YARN)[0])


def test_dynamic_needs_a_head_of_four_and_the_other_arguments_are_checked():
    with pytest.raises(
        ValueError,
        match=r"rope_type 'dynamic' needs head_dim of at least 4, got 2: .* head_dim / \(head_dim - 2\)",
    ):
        RotaryEmbedding(2, rope_scaling=SMALL["dynamic"])
    with pytest.raises(ValueError, match=r"seq_len must be a positive integer, got 0"):
        rope_frequencies(16, rope_scaling=SMALL["dynamic"], seq_len=0)
    with pytest.raises(ValueError, match=r"head_dim must be even, got 7"):
        rope_frequencies(7)
    with pytest.raises(ValueError, match=r"base must be a finite number greater than 1, got 1"):
        rope_frequencies(8, 1)
    with pytest.raises(ValueError, match=r"a table of 1048576 × 4096 = .* is too large"):
        rotary_tables(2**20, 4096, rope_scaling=SMALL["linear"])


@pytest.mark.parametrize(
    ("rope_scaling", "key", "values"),
    [
        (3, "rotary.scaling_not_dict", {"value": 3}),
        (
            {"rope_type": "ntk"},
            "rotary.scaling_unknown_type",
            {"allowed": "'default', 'linear', 'dynamic', 'yarn', 'llama3'", "value": "ntk"},
        ),
        (
            {"rope_type": "yarn", "type": "linear"},
            "rotary.scaling_type_conflict",
            {"value": "yarn", "older": "linear"},
        ),
        (
            {"type": "linear", "factor": 2, "alpha": 1},
            "rotary.scaling_unknown_key",
            {"rope_type": "linear", "key": "alpha", "allowed": "'rope_type', 'type', 'rope_theta', 'factor'"},
        ),
        ({"rope_type": "linear", "factor": 0}, "rotary.scaling_not_positive", {"key": "factor", "value": 0}),
        ({**LLAMA3, "original_max_position_embeddings": -1}, "rotary.scaling_original_len", {"value": -1}),
        ({**LLAMA3, "low_freq_factor": 5}, "rotary.scaling_freq_order", {"low": 5, "high": 4.0}),
        (
            {"rope_type": "yarn", "factor": 2, "original_max_position_embeddings": 8, "beta_fast": 1},
            "rotary.scaling_beta_order",
            {"fast": 1, "slow": 1},
        ),
        (
            {"rope_type": "linear", "factor": 2, "rope_theta": 10.0},
            "rotary.scaling_theta",
            {"value": 10.0, "base": 10000.0},
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_each_scaling_error_says_its_catalogue_message_in_the_current_language(
    rope_scaling, key, values, lang
):
    with pytest.raises((ValueError, TypeError)) as info:
        RotaryEmbedding(16, 64, rope_scaling=rope_scaling)
    assert str(info.value) == course_lib.i18n.tr(key, lang, **values)


def test_a_missing_key_is_explained_in_the_current_language(lang):
    meaning = course_lib.i18n.tr("rotary.scaling_meaning_original", lang)
    with pytest.raises(ValueError) as info:
        check_rope_scaling({"rope_type": "dynamic", "factor": 2.0}, 16, 10000.0)
    expected = course_lib.i18n.tr(
        "rotary.scaling_missing_key",
        lang,
        rope_type="dynamic",
        key="original_max_position_embeddings",
        meaning=meaning,
    )
    assert str(info.value) == expected
    with pytest.raises(ValueError) as info:
        check_rope_scaling(
            {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 8}, 2, 10000.0
        )
    assert str(info.value) == course_lib.i18n.tr("rotary.scaling_dynamic_head_dim", lang, value=2)


def test_scaling_errors_in_russian():
    course_lib.set_language("ru")
    with pytest.raises(
        ValueError, match=r"ключ rope_type в rope_scaling должен быть одним из значений .* а получено 'ntk'"
    ):
        RotaryEmbedding(16, rope_scaling={"rope_type": "ntk"})
    with pytest.raises(
        ValueError, match=r"в rope_scaling с rope_type 'linear' нужен ключ 'factor' \(во сколько раз"
    ):
        RotaryEmbedding(16, rope_scaling={"rope_type": "linear"})
    with pytest.raises(
        ValueError, match=r"значение low_freq_factor в rope_scaling должно быть меньше high_freq_factor"
    ):
        RotaryEmbedding(16, rope_scaling={**LLAMA3, "low_freq_factor": 8.0})
