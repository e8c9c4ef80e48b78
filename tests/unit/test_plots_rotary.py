"""course_lib.plots.rotary, .long_context and .alibi (lesson 8): the figures draw RoPE's and ALiBi's own numbers, in the asked language."""

import math

import numpy as np
import pytest
import torch

from course_lib import RotaryEmbedding, alibi_bias, alibi_slopes, plots, set_language
from course_lib.i18n import PSEUDO, catalogues
from course_lib.plots import alibi as plots_alibi
from course_lib.plots import long_context as plots_long_context
from course_lib.plots import rotary as plots_rotary
from tests.unit.test_plots import assert_pseudo_localised

# maths a figure shows as it is in every language
SYMBOLS = ("q_m", "k_n", "head_dim", "RoPE", "ALiBi", "base", "softmax", "cos", "m", "n", "s", "L", "h", "j")


# ----------------------------------------------------------------------------- the numbers


def test_rope_rotate_is_rotary_embedding_interleaved():
    q, k = plots.rotary.rope_vectors(8, seed=3)
    positions = [0, 1, 7, 30]
    rope = RotaryEmbedding(8, max_len=31, base=500.0)
    x = torch.from_numpy(np.stack([q, k]))[:, None, None, :].expand(2, 1, 4, 8)  # (2, 1, seq, 8)
    q_rot, k_rot = rope(x[:1], x[1:], positions=torch.tensor(positions))
    np.testing.assert_allclose(
        plots.rotary.rope_rotate(q, positions, 500.0), q_rot[0, 0].numpy(), rtol=0, atol=1e-12
    )
    np.testing.assert_allclose(
        plots.rotary.rope_rotate(k, positions, 500.0), k_rot[0, 0].numpy(), rtol=0, atol=1e-12
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rope_score_depends_on_the_offset_only(seed):
    q, k = plots.rotary.rope_vectors(16, seed)
    for offset in (-7, 0, 3, 25):
        scores = [plots.rotary.rope_score(q, k, n + offset, n) for n in range(max(0, -offset), 60, 11)]
        assert max(scores) - min(scores) < 1e-12
    assert abs(plots.rotary.rope_score(q, k, 5, 2) - plots.rotary.rope_score(q, k, 5, 3)) > 1e-3


def test_rope_vectors_are_fixed_by_the_seed_and_leave_the_random_state():
    torch.manual_seed(1)
    before = torch.random.get_rng_state()
    a, b = plots.rotary.rope_vectors(8, seed=4), plots.rotary.rope_vectors(8, seed=4)
    assert torch.equal(torch.random.get_rng_state(), before)
    np.testing.assert_array_equal(a[0], b[0])
    assert not np.array_equal(a[0], plots.rotary.rope_vectors(8, seed=5)[0])


def test_new_angle_pairs_counts_the_pairs_that_never_went_round():
    # LLaMA 2: head_dim 128, trained on 4096 positions: 18 pairs have a wavelength above 4096
    wavelengths = 2 * math.pi * 10000.0 ** (np.arange(0, 128, 2) / 128)
    assert int((wavelengths > 4096).sum()) == 18
    assert int(plots.new_angle_pairs(128, 4096, 4096).sum()) == 0  # the training length itself
    assert int(plots.new_angle_pairs(128, 8192, 4096).sum()) == 18
    # position interpolation by s = 8192 / 4096 brings every angle back into the trained range
    assert int(plots.new_angle_pairs(128, 8192, 4096, scale=2.0).sum()) == 0
    assert int(plots.new_angle_pairs(128, 8193, 4096, scale=2.0).sum()) == 18


def test_ntk_aware_base_slows_the_slowest_pair_by_exactly_the_scale():
    d, s = 64, 4.0
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    theta_ntk = (10000.0 * s ** (d / (d - 2))) ** (-np.arange(0, d, 2) / d)
    assert theta_ntk[0] == theta[0] == 1.0
    assert math.isclose(theta[-1] / theta_ntk[-1], s, rel_tol=1e-12)
    assert int(plots.new_angle_pairs(d, 2048, 512, base=10000.0 * s ** (d / (d - 2)))[-1]) == 0


def test_alibi_weights_are_a_softmax_of_the_bias():
    weights = plots.alibi_weights(0.25, 10)
    expected = torch.softmax(alibi_bias(4, 10, dtype=torch.float64)[0, -1].flip(0), dim=0).numpy()
    np.testing.assert_allclose(weights, expected, rtol=1e-12)
    assert math.isclose(weights.sum(), 1.0)


def test_slope_label_names_the_power_of_two():
    assert [plots.slope_label(s) for s in alibi_slopes(12).tolist()] == [
        *(f"2^-{e}" for e in range(1, 9)),
        "2^-0.5",
        "2^-1.5",
        "2^-2.5",
        "2^-3.5",
    ]


# ----------------------------------------------------------------------------- the figures


def test_rope_rotation_draws_the_pair_and_the_score(lang):
    fig = plots.plot_rope_rotation(m=9, n=4, pair=1, head_dim=8, base=100.0, max_offset=12, seed=2)
    left, right = fig.axes[:2]
    q, k = plots.rotary.rope_vectors(8, seed=2)
    q_m, k_n = plots.rotary.rope_rotate(q, [9], 100.0)[0], plots.rotary.rope_rotate(k, [4], 100.0)[0]
    arrows = [child for child in left.get_children() if child.__class__.__name__ == "Annotation"]
    assert [tuple(a.xy) for a in arrows] == [(q_m[2], q_m[3]), (k_n[2], k_n[3])]
    dot = right.lines[-1]
    assert list(dot.get_xdata()) == [5] and math.isclose(dot.get_ydata()[0], q_m @ k_n)
    curve = right.lines[0]
    assert list(curve.get_xdata()) == list(range(-12, 13))
    assert math.isclose(curve.get_ydata()[12 + 5], q_m @ k_n, abs_tol=1e-12)  # the dot lies on the curve
    assert left.get_xlabel() == plots_rotary.MESSAGES("rope_coordinate", lang, c=2)
    assert right.get_xlabel() == plots_rotary.MESSAGES("rope_offset", lang)


def test_rope_layouts_number_the_pair_of_every_column():
    fig = plots.plot_rope_layouts(8, lang="ru")
    assert fig.axes[0].images[0].get_array().tolist() == [[0, 0, 1, 1, 2, 2, 3, 3], [0, 1, 2, 3, 0, 1, 2, 3]]
    assert fig.axes[0].get_xlabel() == "координата q или k"


def test_rope_angles_draw_the_cosines_and_mark_the_new_pairs():
    fig = plots.plot_rope_angles(16, 300, 100, settings=[(10000.0, 1.0), (1000.0, 3.0)])
    for ax, (base, scale) in zip(fig.axes[:2], [(10000.0, 1.0), (1000.0, 3.0)], strict=True):
        p = np.arange(300)[:, None] / scale
        expected = np.cos(p * base ** (-np.arange(0, 16, 2) / 16))
        np.testing.assert_allclose(ax.images[0].get_array(), expected, rtol=0, atol=1e-12)
        marked = list(ax.lines[-1].get_xdata())
        assert marked == list(np.flatnonzero(plots.new_angle_pairs(16, 300, 100, base, scale)))
    assert len(fig.axes[0].lines[-1].get_xdata()) > 0


def test_alibi_draws_each_heads_bias_causally(lang):
    fig = plots.plot_alibi(6, 5)
    bias = alibi_bias(6, 5, dtype=torch.float64).numpy()
    slopes = alibi_slopes(6).tolist()
    for h, ax in enumerate(fig.axes[:6]):
        drawn = np.asarray(ax.images[0].get_array().filled(np.nan))
        lower = np.tril_indices(5)
        np.testing.assert_array_equal(drawn[lower], bias[h][lower])
        assert np.isnan(drawn[np.triu_indices(5, k=1)]).all()
        assert ax.get_title() == plots_alibi.MESSAGES(
            "alibi_head", lang, h=h + 1, slope=plots.alibi.slope_math(slopes[h], lang)
        )
    assert not fig.axes[6].axison and not fig.axes[7].axison  # the grid's empty cells


def test_alibi_weights_draw_one_curve_per_head():
    fig = plots.plot_alibi_weights(8, 20)
    lines = fig.axes[0].lines
    assert len(lines) == 8
    for line, slope in zip(lines, alibi_slopes(8).tolist(), strict=True):
        np.testing.assert_allclose(line.get_ydata(), plots.alibi_weights(slope, 20))
    assert len({tuple(line.get_color()) for line in lines}) == 8  # eight heads, eight colours


# ----------------------------------------------------------------------------- every text from the catalogues


def test_catalogues_have_every_language_with_the_same_placeholders():
    assert catalogues()["plots_rotary"] is plots_rotary.MESSAGES
    assert catalogues()["plots_alibi"] is plots_alibi.MESSAGES
    assert catalogues()["plots_long_context"] is plots_long_context.MESSAGES
    for module in (plots_rotary, plots_alibi, plots_long_context):
        assert module.MESSAGES.problems() == []


PSEUDO_FIGURES = {
    "rope_rotation": lambda: plots.plot_rope_rotation(),
    "rope_layouts": lambda: plots.plot_rope_layouts(),
    "rope_angles": lambda: plots.plot_rope_angles(16, 200, 50, settings=[(10000.0, 1.0), (10000.0, 4.0)]),
    "alibi": lambda: plots.plot_alibi(4, 6),
    "alibi_weights": lambda: plots.plot_alibi_weights(3, 8),
}


@pytest.mark.parametrize("name", sorted(PSEUDO_FIGURES))
def test_every_text_of_a_figure_comes_from_a_catalogue(name):
    set_language(PSEUDO)
    assert_pseudo_localised(PSEUDO_FIGURES[name](), data=SYMBOLS)


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        (lambda: plots.plot_rope_rotation(head_dim=7), r"head_dim must be even, got 7"),
        (lambda: plots.plot_rope_rotation(pair=4), r"pair=4 is out of range: head_dim=8 has pairs 0 \.\. 3"),
        (lambda: plots.plot_rope_rotation(m=-1), r"m must be"),
        (lambda: plots.plot_rope_layouts(0), r"head_dim must be"),
        (
            lambda: plots.plot_rope_angles(settings=[(10000.0, 0.5)]),
            r"scale must be a number >= 1 \(positions are divided by it\), got 0\.5",
        ),
        (lambda: plots.plot_rope_angles(settings=[(1.0, 1.0)]), r"base"),
        (lambda: plots.plot_alibi(0), r"num_heads"),
        (lambda: plots_alibi.check_head(9, 8), r"head=9 is out of range: with 8 heads, head is 1 \.\. 8"),
    ],
)
def test_bad_settings_are_named(bad, match):
    with pytest.raises(ValueError, match=match):
        bad()


def test_errors_of_the_figures_come_from_the_catalogues():
    set_language(PSEUDO)
    for bad in (
        lambda: plots.plot_rope_rotation(pair=4),
        lambda: plots.plot_rope_layouts(3),
        lambda: plots.plot_rope_angles(settings=[(10000.0, True)]),
        lambda: plots_alibi.check_head(0, 8),
    ):
        with pytest.raises(ValueError) as info:
            bad()
        assert str(info.value).startswith("⟦"), str(info.value)
