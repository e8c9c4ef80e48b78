"""course_lib.plots.rope_scaling (lesson 9): each pair's wavelength and frequency ratio are rope_frequencies' own."""

import math

import pytest

from course_lib import plots, rope_frequencies
from course_lib.core import model as core
from tests.unit.test_plots import figure_texts

LLAMA3 = {
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
    "rope_type": "llama3",
}


def test_linear_divides_every_pair_and_doubles_every_wavelength():
    fig = plots.plot_rope_scaling(128, 10000.0, {"type": "linear", "factor": 2.0})
    before, after = fig.axes[0].lines[:2]
    assert list(after.get_ydata()) == pytest.approx([2 * w for w in before.get_ydata()], rel=1e-12)
    assert set(fig.axes[1].lines[0].get_ydata()) == {0.5}


def test_llama3_draws_its_two_thresholds_and_keeps_or_divides_as_its_config_says():
    fig = plots.plot_rope_scaling(128, 500000.0, LLAMA3)
    left, right = fig.axes[:2]
    levels = sorted(line.get_ydata()[0] for line in left.lines[2:])  # the training length, then L/4 and L/1
    assert levels == [2048, 8192, 8192]
    scaled, _ = rope_frequencies(128, 500000.0, LLAMA3)
    ratio = (scaled / core.inverse_frequencies(128, 500000.0)).tolist()
    assert list(right.lines[0].get_ydata()) == ratio
    assert ratio.count(1.0) == 29 and ratio.count(0.125) == 29


def test_dynamic_reads_the_sequence_length():
    scaling = {"type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 4096}
    unchanged = plots.plot_rope_scaling(128, 10000.0, scaling).axes[1].lines[0].get_ydata()
    assert set(unchanged) == {1.0}  # at the training length, dynamic changes nothing
    ratio = plots.plot_rope_scaling(128, 10000.0, scaling, seq_len=8192).axes[1].lines[0].get_ydata()
    assert ratio[0] == 1.0 and math.isclose(ratio[-1], 1 / 3, rel_tol=1e-12)  # kappa_t = 2 * 2 - 1 = 3


def test_the_title_names_yarns_attention_factor_in_the_language():
    yarn = {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}
    en = " ".join(figure_texts(plots.plot_rope_scaling(128, 1000000.0, yarn, lang="en")))
    ru = " ".join(figure_texts(plots.plot_rope_scaling(128, 1000000.0, yarn, lang="ru")))
    assert "base = 1 000 000" in en and "factor on cos and sin 1.139" in en
    assert "основание base = 1 000 000" in ru and "множитель при cos и sin 1,139" in ru and "до" in ru
    assert "L = 32 768" in en and "обучающая длина L = 32 768" in ru  # grouped from five digits, as in prose


def test_the_dynamic_title_gives_the_factor_it_runs_with():
    """At ℓ = 2L, dynamic with κ = 2 runs with κ_ℓ = 3: the title says both, the right panel falls to 1/3."""
    scaling = {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 4096}
    for lang, base in (("en", "base = 10 000"), ("ru", "основание base = 10 000")):
        title = plots.plot_rope_scaling(128, 10000.0, scaling, seq_len=8192, lang=lang)._suptitle.get_text()
        assert title.startswith(f"dynamic, κ = 2, ℓ = 8192 → κ_ℓ = 3, {base},"), title
        assert "L = 4096" in " ".join(figure_texts(plots.plot_rope_scaling(128, 10000.0, scaling, lang=lang)))
    assert "κ_ℓ" not in plots.plot_rope_scaling(128, 10000.0, scaling)._suptitle.get_text()


def test_a_bad_config_gets_the_course_message():
    with pytest.raises(
        ValueError, match=r"rope_type .llama3. needs the key .original_max_position_embeddings."
    ):
        plots.plot_rope_scaling(128, 500000.0, {"rope_type": "llama3", "factor": 8.0})
