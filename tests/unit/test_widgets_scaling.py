"""course_lib.widgets.scaling (lesson 9), the RoPE scaling explorer: traits, checks, reference numbers, languages.

What it draws and reads out in the browser is tested in tests/browser/test_explorers_lesson9.py; here, the
Python side, whose numbers come from course_lib.rope_frequencies (equal to transformers').
"""

import math
import re

import numpy as np
import pytest

from course_lib import rope_frequencies, set_language, widgets
from course_lib.i18n import PSEUDO, catalogues
from course_lib.rotary import PUBLISHED
from course_lib.widgets import scaling as widgets_scaling
from course_lib.widgets.scaling import DEFAULTS, PRESETS, preset_settings, scaling_dict


def test_explorer_holds_its_settings_as_synced_traits():
    explorer = widgets.rope_scaling_explorer()
    assert isinstance(explorer, widgets.LiveExplorer)
    state = explorer.get_state()
    assert {name: state[name] for name in DEFAULTS} == DEFAULTS
    assert repr(explorer) == (
        "RopeScalingExplorer(head_dim=64, base=10000.0, context=32768, method='llama3', factor=8.0, "
        "original_len=4096, low_freq_factor=1.0, high_freq_factor=4.0)"
    )
    assert state["limits"] == {"base_exponent_min": 3.0, "base_exponent_max": 7.0}
    assert set(state["presets"]) == set(PRESETS)
    assert "export function scaledFrequencies" in explorer._esm
    assert "const BOUNDS = " in explorer._esm
    # a base beyond the slider widens it
    assert widgets.rope_scaling_explorer(base=5e7).limits["base_exponent_max"] == 8.0


def test_presets_are_the_published_configs():
    # every published config whose rope_scaling the explorer's settings can write (DeepSeek-V3's
    # mscale / mscale_all_dim cannot be)
    assert PRESETS == tuple(name for name in PUBLISHED if name != "DeepSeek-V3")
    for name in PRESETS:
        explorer = widgets.rope_scaling_explorer(preset=name)
        head_dim, base, scaling, context = PUBLISHED[name]
        assert (explorer.head_dim, explorer.base, explorer.context) == (head_dim, base, context)
        ours, attention = rope_frequencies(head_dim, base, explorer.rope_scaling, seq_len=context)
        published, published_attention = rope_frequencies(head_dim, base, scaling, seq_len=context)
        assert np.array_equal(explorer.frequencies[1], published.numpy()), name
        assert attention == published_attention == explorer.frequencies[2]
    llama = preset_settings("Llama 3.1 8B")
    assert llama == {
        "head_dim": 128,
        "base": 500000.0,
        "context": 131072,
        "method": "llama3",
        "factor": 8.0,
        "original_len": 8192,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
    }
    assert preset_settings("Qwen2 7B")["method"] == "none"
    assert preset_settings("Llama 2 linear")["original_len"] == 4096  # Llama 2's, C / factor
    # a setting given beside a preset replaces the preset's
    assert widgets.rope_scaling_explorer(preset="Llama 3.1 8B", context=16384).context == 16384


def test_use_applies_a_preset_as_its_button_does():
    explorer = widgets.rope_scaling_explorer()
    explorer.use("Qwen2.5 YaRN")
    assert {name: getattr(explorer, name) for name in DEFAULTS} == preset_settings("Qwen2.5 YaRN")
    assert explorer.rope_scaling == {
        "rope_type": "yarn",
        "factor": 4.0,
        "original_max_position_embeddings": 32768,
    }
    assert "YaRN multiplies cos and sin by 1.1386." in explorer.readout()  # 0.1 ln 4 + 1
    explorer.use("Llama 3.1 8B")  # low 1 < high 4 while both change
    assert explorer.method == "llama3"


@pytest.mark.parametrize("method", widgets_scaling.METHODS)
def test_frequencies_and_turns_are_course_libs(method):
    explorer = widgets.rope_scaling_explorer(method=method)
    before, after, attention = explorer.frequencies
    scaling = scaling_dict(method, 8.0, 4096, 1.0, 4.0)
    assert np.array_equal(before, rope_frequencies(64, 10000.0)[0].numpy())
    theta, factor = rope_frequencies(64, 10000.0, scaling, seq_len=32768)
    assert np.array_equal(after, theta.numpy()) and attention == factor
    turns_before, turns_after, trained = explorer.turns()
    np.testing.assert_allclose(turns_before, 32768 * before / (2 * math.pi), rtol=1e-15)
    np.testing.assert_allclose(turns_after, 32768 * after / (2 * math.pi), rtol=1e-15)
    np.testing.assert_allclose(trained, 4096 * before / (2 * math.pi), rtol=1e-15)


def test_what_each_method_does_to_the_pairs():
    explorer = widgets.rope_scaling_explorer()  # head_dim 64, base 10 000, s = 8, L = 4 096, C = 32 768
    found = {}
    for method in widgets_scaling.METHODS:
        explorer.method = method
        before, after = explorer.unseen()
        found[method] = (explorer.counts(), int(before.sum()), int(after.sum()))
    # without scaling, the pairs that made less than one turn in training meet new angles at 8 L
    trained = explorer.turns()[2]
    assert found["none"] == (
        {"kept": 32, "divided": 0, "between": 0, "beyond": 0},
        int((trained < 1).sum()),
        9,
    )
    # position interpolation divides every pair by s: no new angle, the fast pairs slowed too
    assert found["linear"] == ({"kept": 0, "divided": 32, "between": 0, "beyond": 0}, 9, 0)
    # Llama 3: wavelengths below L/4 = 1 024 kept, above L = 4 096 divided by 8, a ramp between
    wavelength = 2 * math.pi / explorer.frequencies[0]
    kept, divided = int((wavelength < 1024).sum()), int((wavelength > 4096).sum())
    between = 32 - kept - divided
    assert found["llama3"] == ({"kept": kept, "divided": divided, "between": between, "beyond": 0}, 9, 0)
    # YaRN and dynamic keep the fastest pair and leave no new angle either
    for method in ("yarn", "dynamic"):
        assert found[method][0]["kept"] >= 1 and found[method][2] == 0, method


def test_dynamic_is_unchanged_within_the_training_length():
    explorer = widgets.rope_scaling_explorer(method="dynamic", context=2048, original_len=4096)
    before, after, _ = explorer.frequencies
    assert np.array_equal(before, after)
    assert explorer.counts() == {"kept": 32, "divided": 0, "between": 0, "beyond": 0}
    assert "in between are slowed" not in explorer.readout()  # κ_ℓ = 1: no range to give


def test_readout():
    explorer = widgets.rope_scaling_explorer()
    assert explorer.readout() == (
        "Llama 3, base = 10 000, κ = 8, L = 4096, C = 32 768: of 32 pairs, 18 keep their frequency, 9 turn κ "
        "times slower, 5 in between. Pairs with wavelengths below L / high_freq_factor = 1024 positions keep "
        "their frequency, those above L / low_freq_factor = 4096 turn κ times slower. Pairs that meet angles "
        "never seen in training within C positions (▼): 0 (without scaling: 9)."
    )
    assert explorer.title() == "Turns of each pair within C = 32 768 positions: Llama 3"
    explorer.method = "none"
    assert explorer.readout().startswith("no scaling, base = 10 000, κ = 8,")
    assert "high_freq_factor" not in explorer.readout() and "YaRN" not in explorer.readout()
    assert "κ_ℓ" not in explorer.readout()


def test_the_readout_gives_the_factor_dynamic_runs_with(lang):
    """Lesson 9's live demo: on Llama 3.1 8B's preset (κ = 8, C = 16 L) dynamic runs with κ_ℓ = 8·16 − 7 = 121,
    not with κ; within the training length with 1."""
    explorer = widgets.rope_scaling_explorer(preset="Llama 3.1 8B", method="dynamic", lang=lang)
    expected = {
        "en": " At ℓ = C, dynamic runs with κ_ℓ = max(1, κ·C/L − (κ − 1)) = 121.",
        "ru": " На длине ℓ = C метод dynamic работает с κ_ℓ = max(1, κ·C/L − (κ − 1)) = 121.",
    }
    assert expected[lang] in explorer.readout()
    before, after, _ = explorer.frequencies
    assert math.isclose(before[-1] / after[-1], 121, rel_tol=1e-12)  # the slowest pair: κ_ℓ times slower
    # "in between" is no milder than κ: pair i is slowed 121^(2i/126) times, pairs 28-63 more than 8 times
    assert explorer.counts() == {"kept": 1, "divided": 0, "between": 63, "beyond": 36}
    assert int((before / after > 8).sum()) == 36 and before[27] / after[27] < 8 < before[28] / after[28]
    in_between = {
        "en": " The pairs in between are slowed 1 to 121 times, 36 of them more than κ times.",
        "ru": " Частоты пар в промежутке поделены на числа от 1 до 121, у 36 из них — на число больше κ.",
    }
    assert expected[lang] + in_between[lang] in explorer.readout()
    explorer.context = 4096  # below L = 8192
    assert "= 1." in explorer.readout() and "= 121" not in explorer.readout()
    explorer.context, explorer.factor = 65536, 2.5
    assert {"en": "= 18.5.", "ru": "= 18,5."}[lang] in explorer.readout()  # 2.5 · 8 − 1.5


def test_lengths_are_grouped_from_five_digits_as_in_the_lessons_prose(lang):
    explorer = widgets.rope_scaling_explorer(preset="Llama 3.1 8B", lang=lang)
    text = explorer.readout()
    assert "L = 8192, C = 131 072" in text and "= 2048" in text and "2 048" not in text
    assert explorer.title().count("131 072") == 1


def test_explorer_in_russian():
    explorer = widgets.rope_scaling_explorer(preset="Qwen2.5 YaRN", lang="ru")
    assert explorer.labels["original_len"] == "обучающая длина L"  # the glossary's term
    assert explorer.labels["base"] == "основание base"
    assert explorer.labels["method_linear"] == "интерполяция позиций"
    text = explorer.readout()
    assert text.startswith("YaRN, основание base = 1 000 000, κ = 4, L = 32 768, C = 131 072. Из 64 пар:")
    llama3 = widgets.rope_scaling_explorer(
        preset="Llama 3.1 8B", original_len=256, high_freq_factor=7.0, lang="ru"
    )
    # a decimal threshold takes no noun, so nothing to agree with: «меньше … = 36,6 сохраняют частоту»
    assert "L / high_freq_factor = 36,6 сохраняют частоту" in llama3.readout()
    assert "YaRN умножает cos и sin на 1,1386." in text  # the decimal comma
    assert "которых не было при обучении" in text
    assert explorer.labels["title"] == "Обороты каждой пары за C позиций, C = {context}: {method}"
    # the lesson's notation: ω_i is the frequency (θ is the base), κ the factor
    assert explorer.labels["factor"] == "множитель κ"
    assert explorer.labels["ylabel_right"] == "частота ω_i, рад на позицию"
    assert "θ" not in "".join(explorer.labels.values())


def test_every_text_comes_from_a_catalogue():
    set_language(PSEUDO)
    explorer = widgets.rope_scaling_explorer()
    texts = [*explorer.labels.values(), explorer.readout(), explorer.title()]
    assert all(t.startswith("⟦") for t in texts), [t for t in texts if not t.startswith("⟦")]


def test_catalogue_has_every_language_with_the_same_placeholders():
    assert catalogues()["widgets_scaling"] is widgets_scaling.MESSAGES
    assert widgets_scaling.MESSAGES.problems() == []


BAD_SETTINGS = [
    ({"head_dim": 7}, ValueError, r"head_dim must be even, got 7"),
    (
        {"head_dim": 2},
        ValueError,
        r"head_dim must be an integer from 4 to 256 \(the explorer's range\), got 2",
    ),
    ({"base": 1.0}, ValueError, r"base must be a finite number greater than 1, got 1\.0"),
    ({"context": 0}, ValueError, r"context must be a positive integer, got 0"),
    ({"original_len": 100.5}, ValueError, r"original_len must be a positive integer, got 100\.5"),
    (
        {"method": "ntk"},
        ValueError,
        r"method must be one of 'none', 'linear', 'dynamic', 'yarn', 'llama3', got 'ntk'",
    ),
    ({"factor": 0.0}, ValueError, r"rope_scaling's factor must be a finite number greater than 0, got 0\.0"),
    ({"factor": "2"}, ValueError, r"factor must be a finite number greater than 0, got '2'"),
    ({"factor": 0.5}, ValueError, r"factor must be a number from 1 to 64 \(the explorer's range\), got 0\.5"),
    (
        {"low_freq_factor": float("nan")},
        ValueError,
        r"low_freq_factor must be a finite number greater than 0, got nan",
    ),
    (
        {"low_freq_factor": 4.0, "high_freq_factor": 4.0},
        ValueError,
        r"low_freq_factor must be less than high_freq_factor, got low_freq_factor=4\.0 and high_freq_factor=4\.0",
    ),
    ({"preset": "Llama 4"}, ValueError, r"preset must be one of 'Llama 2 7B', .*, got 'Llama 4'"),
]


@pytest.mark.parametrize(
    ("settings", "error", "match"), BAD_SETTINGS, ids=[str(s) for s, _, _ in BAD_SETTINGS]
)
def test_bad_settings_are_refused_naming_the_value(settings, error, match):
    with pytest.raises(error, match=match):
        widgets.rope_scaling_explorer(**settings)


def test_a_setting_changed_later_is_checked_and_kept():
    explorer = widgets.rope_scaling_explorer()
    with pytest.raises(ValueError, match=r"got low_freq_factor=5\.0 and high_freq_factor=4\.0"):
        explorer.low_freq_factor = 5.0
    with pytest.raises(ValueError, match=r"got low_freq_factor=1\.0 and high_freq_factor=1\.0"):
        explorer.high_freq_factor = 1.0
    assert (explorer.low_freq_factor, explorer.high_freq_factor) == (1.0, 4.0)
    with pytest.raises(ValueError, match=r"method must be one of"):
        explorer.method = "NTK"
    assert explorer.method == "llama3"
    # both moved at once, as the page sends them: checked once both are set
    with explorer.hold_trait_notifications():
        explorer.low_freq_factor, explorer.high_freq_factor = 6.0, 8.0
    assert (explorer.low_freq_factor, explorer.high_freq_factor) == (6.0, 8.0)


def test_errors_in_russian():
    set_language("ru")
    with pytest.raises(ValueError, match=r"меньше high_freq_factor, а получено low_freq_factor=4\.0"):
        widgets.rope_scaling_explorer(low_freq_factor=4.0)
    with pytest.raises(ValueError, match=re.escape("от 1 до 64")):
        widgets.rope_scaling_explorer(factor=100.0)
