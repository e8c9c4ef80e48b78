"""course_lib.widgets.rotary (lesson 8), live explorers: their traits, checks and reference numbers, in the student's language."""

import math
import re

import numpy as np
import pytest
import torch

from course_lib import alibi_slopes, plots, set_language, widgets
from course_lib.i18n import PSEUDO, catalogues
from course_lib.widgets import rotary as widgets_rotary

# ----------------------------------------------------------------------------- rope_explorer
# live explorers: what they draw and read out is tested in the browser
# (tests/browser/test_explorers_lesson8.py); here, the Python side and its reference numbers


def test_rope_explorer_holds_its_parameters_as_synced_traits():
    explorer = widgets.rope_explorer(head_dim=8, m=5, n=2, base=100.0, seed=1)
    assert isinstance(explorer, widgets.LiveExplorer)
    state = explorer.get_state()
    assert (state["m"], state["n"], state["pair"], state["together"]) == (5, 2, 0, False)
    q, k = plots.rotary.rope_vectors(8, seed=1)
    assert (state["q"], state["k"]) == (q.tolist(), k.tolist())  # torch's draw, sent to the browser
    assert state["limits"] == {"m": 40, "n": 40, "pair": 3}
    assert repr(explorer) == "RopeExplorer(head_dim=8, m=5, n=2, pair=0, base=100.0, max_position=40, seed=1)"
    assert "export function ropeRotate" in explorer._esm


def test_rope_explorer_shows_the_score_of_its_positions():
    explorer = widgets.rope_explorer(head_dim=8, m=5, n=2, base=100.0, seed=1)
    q, k = plots.rotary.rope_vectors(8, seed=1)
    for m, n in ((5, 2), (9, 30), (0, 0), (40, 37)):
        explorer.m, explorer.n = m, n
        assert math.isclose(explorer.score, plots.rotary.rope_score(q, k, m, n, 100.0), abs_tol=1e-12)
        assert explorer.error < 1e-12  # the readout's check: every shift of both gives this score
    explorer.m, explorer.n = 5, 2
    score = explorer.score
    explorer.m, explorer.n = 20, 17  # the same offset: the same score
    assert math.isclose(explorer.score, score, abs_tol=1e-12)
    assert explorer.readout()[0].startswith(f"m − n = 3, q_m · k_n = {score:.4f}. Shifting both positions")
    assert "in 0 … 40, gives the same score: 38 shifts checked" in explorer.readout()[0]


def test_rope_explorer_sliders_follow_its_settings():
    explorer = widgets.rope_explorer(head_dim=8, m=50, n=2, max_position=40)
    assert explorer.limits == {"m": 50, "n": 40, "pair": 3}  # the slider reaches the position set
    explorer.m = 60
    assert explorer.limits["m"] == 60
    explorer.m = 3  # moved back: the slider keeps its length
    assert explorer.limits["m"] == 60
    explorer.max_position = 20  # a new range: both sliders end there
    assert explorer.limits == {"m": 20, "n": 20, "pair": 3}
    explorer.pair = 3
    explorer.head_dim = 4  # two pairs: the pair shown is the last, new vectors of 4
    assert (explorer.pair, explorer.limits["pair"]) == (1, 1)
    assert explorer.q == plots.rotary.rope_vectors(4)[0].tolist()
    explorer.seed = 5
    assert explorer.k == plots.rotary.rope_vectors(4, seed=5)[1].tolist()


def test_rope_explorer_in_russian():
    explorer = widgets.rope_explorer(lang="ru")
    assert (explorer.labels["m"], explorer.labels["together"]) == (
        "позиция запроса m",
        "двигать m и n вместе",
    )
    assert "даёт ту же оценку" in explorer.readout()[0]
    assert re.search(
        r"q_m · k_n = −?\d+,\d{4}\.", explorer.readout()[0]
    )  # the Russian decimal comma and minus
    assert re.search(
        r"расхождение \d·10⁻[⁰¹²³⁴⁵⁶⁷⁸⁹]+\)\.", explorer.readout()[0]
    )  # a power of ten, not 2e-15
    assert (
        explorer.labels["q"] == "q на позиции m = {m}: повёрнут на m·ω_i = {angle} рад"
    )  # filled by the browser
    assert explorer.readout()[1] == (
        "q на позиции m = 5: повёрнут на m·ω_i = 5,00 рад; k на позиции n = 2: повёрнут на n·ω_i = 2,00 рад"
    )


def test_every_text_of_the_rope_explorer_comes_from_a_catalogue():
    set_language(PSEUDO)
    explorer = widgets.rope_explorer()
    texts = [*explorer.labels.values(), *explorer.readout()]
    assert all(t.startswith("⟦") for t in texts), [t for t in texts if not t.startswith("⟦")]


# ----------------------------------------------------------------------------- alibi_explorer
# a live explorer: what it draws and reads out is tested in the browser
# (tests/browser/test_explorers_lesson8.py); here, the Python side and its reference numbers


def test_alibi_explorer_holds_its_parameters_as_synced_traits():
    explorer = widgets.alibi_explorer(num_heads=8, head=3, seq_len=16)
    assert isinstance(explorer, widgets.LiveExplorer)
    state = explorer.get_state()
    assert (state["num_heads"], state["head"], state["seq_len"]) == (8, 3, 16)
    assert state["limits"] == {"num_heads": 16}
    assert repr(explorer) == "AlibiExplorer(num_heads=8, head=3, seq_len=16)"
    # the module the browser runs: the shared helpers, then ALiBi's own
    assert explorer._esm.startswith("// What every live explorer shares")
    assert "export function alibiSlopes" in explorer._esm
    assert len(explorer.colormap) == 256 * 6


def test_alibi_explorer_shows_the_heads_slope_and_weights():
    explorer = widgets.alibi_explorer(num_heads=8, head=3, seq_len=16)
    assert explorer.slope == 2**-3
    np.testing.assert_allclose(explorer.weights, plots.alibi_weights(2**-3, 16))
    half = int(np.searchsorted(np.cumsum(explorer.weights), 0.5)) + 1
    rule, detail = explorer.readout()
    assert rule == "8 heads: the slopes are 2^(−8h/8) for h = 1 … 8, a geometric sequence."
    assert (
        detail
        == f"Head 3: s_h = 2^-3 = 0.1250. With equal content scores the last query gives half of its attention to the nearest {half} of 16 keys."
    )


def test_alibi_explorer_head_follows_the_number_of_heads():
    explorer = widgets.alibi_explorer(num_heads=8, head=8)
    explorer.num_heads = 6  # head 8 no longer exists: the last head is shown, as the slider stops there
    assert (explorer.num_heads, explorer.head) == (6, 6)
    assert explorer.slope == float(alibi_slopes(6, dtype=torch.float64)[5])
    assert explorer.readout()[0].startswith("6 heads is not a power of two: heads 1 … 4")
    explorer.num_heads = 1
    assert explorer.head == 1 and explorer.slope == 2**-8
    assert explorer.readout()[0] == "1 head: its slope is 2^(−8)."
    explorer.num_heads = 16  # more heads: the head shown stays
    assert explorer.head == 1


def test_alibi_explorer_in_russian():
    explorer = widgets.alibi_explorer(num_heads=12, head=10, lang="ru")
    assert (explorer.labels["num_heads"], explorer.labels["head"]) == ("число голов", "голова h")
    rule, detail = explorer.readout()
    assert "не степень двойки" in rule
    assert re.search(r"s_h = 2\^−1,5 = 0,\d{4}\.", detail)  # the exponent and the value with a decimal comma
    # templates, filled by the browser
    assert explorer.labels["title"] == "голова {h}: s_h = {slope}"


def test_every_text_of_the_alibi_explorer_comes_from_a_catalogue():
    set_language(PSEUDO)
    explorer = widgets.alibi_explorer(num_heads=12, head=10)
    texts = list(explorer.labels.values()) + explorer.readout()
    assert all(t.startswith("⟦") for t in texts), [t for t in texts if not t.startswith("⟦")]


# ----------------------------------------------------------------------------- rope_angles_explorer
# a live explorer, as alibi_explorer


def test_rope_angles_explorer_holds_its_parameters_as_synced_traits():
    explorer = widgets.rope_angles_explorer(
        head_dim=32, num_positions=400, train_len=100, base=2e5, scale=2.5
    )
    assert isinstance(explorer, widgets.LiveExplorer)
    state = explorer.get_state()
    assert (state["head_dim"], state["num_positions"], state["train_len"]) == (32, 400, 100)
    assert (state["base"], state["scale"]) == (2e5, 2.5)
    assert state["limits"] == {"base_exponent_min": 3.0, "base_exponent_max": 7.0, "scale": 8.0}
    assert repr(explorer) == (
        "RopeAnglesExplorer(head_dim=32, num_positions=400, train_len=100, base=200000.0, scale=2.5)"
    )
    assert "export function angleTable" in explorer._esm
    assert len(explorer.colormap) == 256 * 6
    # wide settings widen the sliders
    assert widgets.rope_angles_explorer(base=1e8, scale=10.0).limits == {
        "base_exponent_min": 3.0,
        "base_exponent_max": 8.0,
        "scale": 10.0,
    }


def test_rope_angles_explorer_counts_the_pairs_with_new_angles():
    explorer = widgets.rope_angles_explorer(head_dim=32, num_positions=400, train_len=100)
    assert explorer.new_pairs == int(plots.new_angle_pairs(32, 400, 100).sum()) > 0
    explorer.scale = 4.0  # 400 positions back into the 100 trained ones
    assert explorer.new_pairs == 0
    p = np.arange(400)[:, None] / 4.0
    expected = np.cos(p * 10000.0 ** (-np.arange(0, 32, 2) / 32))
    np.testing.assert_allclose(explorer.angles, expected, rtol=0, atol=1e-12)
    explorer.scale, explorer.base = 1.0, 10.0**6
    assert explorer.new_pairs == int(plots.new_angle_pairs(32, 400, 100, base=10.0**6).sum())
    assert f"{explorer.new_pairs} of 16 pairs" in explorer.readout()


def test_rope_angles_explorer_in_russian():
    explorer = widgets.rope_angles_explorer(lang="ru")
    assert (explorer.labels["base"], explorer.labels["scale"]) == ("основание base", "интерполяция κ")
    assert "которых не было при обучении" in explorer.readout()
    # positions are divided by κ; the angles, not the positions, are computed with the base (review item 63)
    assert "делятся на κ = 1, а углы считаются с основанием base = 10 000:" in explorer.readout()
    assert "на 0,27 рад (при обучении — на 0,068 рад)" in explorer.readout()  # decimal commas
    assert explorer.labels["train"] == "обучающая длина L = {train_len}"  # a template the browser fills


def test_every_text_of_the_rope_angles_explorer_comes_from_a_catalogue():
    set_language(PSEUDO)
    explorer = widgets.rope_angles_explorer()
    texts = [*explorer.labels.values(), explorer.readout()]
    assert all(t.startswith("⟦") for t in texts), [t for t in texts if not t.startswith("⟦")]


# ----------------------------------------------------------------------------- every explorer
# Bad settings, one row per bad value: the explorer, what is given or set, the message naming it.

BAD_SETTINGS = [
    (widgets.rope_explorer, {"head_dim": 7}, r"head_dim must be even, got 7"),
    (widgets.rope_explorer, {"pair": 4}, r"pair=4 is out of range: head_dim=8 has pairs 0 \.\. 3"),
    (widgets.rope_explorer, {"m": -1}, r"m must be a non-negative integer, got -1"),
    (widgets.rope_explorer, {"n": 2.5}, r"n must be a non-negative integer, got 2\.5"),
    (widgets.rope_explorer, {"max_position": 0}, r"max_position must be a positive integer, got 0"),
    (widgets.rope_explorer, {"base": 0.5}, r"base must be a finite number greater than 1, got 0\.5"),
    (widgets.rope_explorer, {"seed": -3}, r"seed must be a non-negative integer, got -3"),
    (widgets.alibi_explorer, {"num_heads": 0}, r"num_heads must be a positive integer, got 0"),
    (widgets.alibi_explorer, {"num_heads": True}, r"num_heads must be a positive integer, got True"),
    (widgets.alibi_explorer, {"num_heads": 4, "head": 5}, r"head=5 is out of range: with 4 heads"),
    (widgets.alibi_explorer, {"head": 0}, r"head=0 is out of range: with 8 heads, head is 1 \.\. 8"),
    (widgets.alibi_explorer, {"head": 1.0}, r"head=1\.0 is out of range"),
    (widgets.alibi_explorer, {"seq_len": -2}, r"seq_len must be a positive integer, got -2"),
    (widgets.rope_angles_explorer, {"head_dim": 7}, r"head_dim must be even, got 7"),
    (widgets.rope_angles_explorer, {"head_dim": 0}, r"head_dim must be a positive integer, got 0"),
    (widgets.rope_angles_explorer, {"num_positions": 0}, r"num_positions must be a positive integer, got 0"),
    (widgets.rope_angles_explorer, {"train_len": -5}, r"train_len must be a positive integer, got -5"),
    (widgets.rope_angles_explorer, {"base": 1.0}, r"base must be a finite number greater than 1, got 1\.0"),
    (widgets.rope_angles_explorer, {"scale": 0.5}, r"scale must be a number >= 1 .*, got 0\.5"),
    (widgets.rope_angles_explorer, {"scale": float("nan")}, r"scale must be a number >= 1 .*, got nan"),
]


@pytest.mark.parametrize(
    ("build", "settings", "match"),
    BAD_SETTINGS,
    ids=[f"{build.__name__}-{settings}" for build, settings, _ in BAD_SETTINGS],
)
def test_explorers_reject_bad_settings(build, settings, match):
    with pytest.raises(ValueError, match=match):
        build(**settings)


# a trait set later gets the constructor's message (a float where an integer is due too, where
# traitlets.Int said only which type it expected), and keeps its value
BAD_VALUES = [
    (widgets.rope_explorer, "pair", 4, r"pair=4 is out of range: head_dim=8 has pairs 0 \.\. 3"),
    (widgets.rope_explorer, "n", -2, r"n must be a non-negative integer, got -2"),
    (widgets.rope_explorer, "m", 2.5, r"m must be a non-negative integer, got 2\.5"),
    (widgets.rope_explorer, "head_dim", 9, r"head_dim must be even, got 9"),
    (widgets.rope_explorer, "base", 1.0, r"base must be a finite number greater than 1, got 1\.0"),
    (widgets.rope_explorer, "max_position", 0, r"max_position must be a positive integer, got 0"),
    (widgets.rope_explorer, "seed", -1, r"seed must be a non-negative integer, got -1"),
    (widgets.alibi_explorer, "head", 9, r"head=9 is out of range: with 8 heads, head is 1 \.\. 8"),
    (widgets.alibi_explorer, "head", 0, r"head=0 is out of range"),
    (widgets.alibi_explorer, "num_heads", 0, r"num_heads must be a positive integer, got 0"),
    (widgets.alibi_explorer, "seq_len", -1, r"seq_len must be a positive integer, got -1"),
    (widgets.rope_angles_explorer, "scale", 0.25, r"scale must be a number >= 1 .*, got 0\.25"),
    (widgets.rope_angles_explorer, "base", 0.5, r"base must be a finite number greater than 1, got 0\.5"),
    (widgets.rope_angles_explorer, "head_dim", 63, r"head_dim must be even, got 63"),
    (widgets.rope_angles_explorer, "train_len", 0, r"train_len must be a positive integer, got 0"),
]


@pytest.mark.parametrize(
    ("build", "trait", "value", "match"),
    BAD_VALUES,
    ids=[f"{build.__name__}-{trait}={value!r}" for build, trait, value, _ in BAD_VALUES],
)
def test_explorer_traits_reject_bad_values(build, trait, value, match):
    explorer = build()
    before = getattr(explorer, trait)
    with pytest.raises(ValueError, match=match):
        setattr(explorer, trait, value)
    assert getattr(explorer, trait) == before


def test_catalogue_has_every_language_with_the_same_placeholders():
    assert catalogues()["widgets_rotary"] is widgets_rotary.MESSAGES
    assert widgets_rotary.MESSAGES.problems() == []


def test_errors_of_the_explorers_come_from_the_catalogues():
    set_language(PSEUDO)
    for bad in (
        lambda: widgets.rope_explorer(pair=9),
        lambda: widgets.alibi_explorer(head=0),
        lambda: widgets.alibi_explorer(num_heads=0),
    ):
        with pytest.raises(ValueError) as info:
            bad()
        assert str(info.value).startswith("⟦"), str(info.value)
