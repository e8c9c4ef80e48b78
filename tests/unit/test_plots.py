"""course_lib.plots: what is drawn is the data asked for, labelled in the asked language."""

import math
import re
import subprocess
import sys
import types

import numpy as np
import pytest
import torch
from IPython.core.formatters import DisplayFormatter
from matplotlib.figure import Figure
from matplotlib.text import Text

from course_lib import TokenEmbedding, plots, set_language, sinusoidal_table
from course_lib.i18n import LANGUAGES, PSEUDO, catalogues, decimal_mark, format_number
from course_tools.core.config import CONFIG

LANGS = LANGUAGES


@pytest.fixture(autouse=True)
def english_by_default():
    set_language("en")
    yield
    set_language("en")


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


# ----------------------------------------------------------------------------- the package's exports


def test_the_package_exports_what_the_lessons_use():
    """``plots.__all__`` is the names the lessons call as ``plots.<name>``, no more, no fewer.

    What else a lesson reaches is a module (``plots.extrapolation.variant_label``); the pieces
    the widgets and tests use stay in their modules (``plots.figure.new_figure``).
    """
    sources = CONFIG.sources()
    assert len(sources) >= 9
    used = {
        name for path in sources for name in re.findall(r"\bplots\.(\w+)", path.read_text(encoding="utf-8"))
    }
    modules = {name for name in used if isinstance(getattr(plots, name, None), types.ModuleType)}
    assert sorted(used - modules) == sorted(plots.__all__)
    assert all(callable(getattr(plots, name)) for name in plots.__all__)


# ----------------------------------------------------------------------------- plot_table


@pytest.mark.parametrize("lang", LANGS)
def test_table_draws_the_table_with_axes_in_the_language(lang):
    table = sinusoidal_table(40, 24)
    fig = plots.plot_table(table, lang=lang)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    image = ax.images[0]
    np.testing.assert_array_equal(image.get_array(), table.numpy())
    assert image.get_clim() == (-1.0, 1.0)
    assert image.get_cmap().name.startswith("RdBu")
    assert ax.get_xlabel() == plots.messages.MESSAGES("dimension", lang)
    assert ax.get_ylabel() == plots.messages.MESSAGES("positions", lang)
    assert "40 × 24" in ax.get_title()
    assert len(fig.axes) == 2  # the heatmap and its colourbar


def test_table_labels_are_russian_words_in_russian():
    ax = plots.plot_table(sinusoidal_table(8, 8), lang="ru").axes[0]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("координата", "позиция")
    assert ax.get_title().startswith("Таблица позиционного кодирования")


def test_table_follows_the_course_language_when_lang_is_none():
    set_language("ru")
    assert plots.plot_table(sinusoidal_table(8, 8)).axes[0].get_ylabel() == "позиция"


def test_table_takes_numpy_and_a_title():
    table = np.linspace(-1, 1, 12).reshape(3, 4)
    fig = plots.plot_table(table, title="my table")
    np.testing.assert_array_equal(fig.axes[0].images[0].get_array(), table)
    assert fig.axes[0].get_title() == "my table"


def test_table_rejects_what_is_not_a_table():
    with pytest.raises(TypeError, match=r"torch.Tensor or a numpy array, got list"):
        plots.plot_table([[0.0, 1.0]])
    with pytest.raises(ValueError, match=r"must have 2 dimensions .* got shape \(5,\)"):
        plots.plot_table(torch.zeros(5))
    with pytest.raises(TypeError, match=r"table must hold numbers, got dtype <U1"):
        plots.plot_table(np.array([["a", "b"]]))
    with pytest.raises(ValueError, match=r"empty \(shape \(0, 4\)\)"):
        plots.plot_table(torch.zeros(0, 4))
    set_language("ru")
    with pytest.raises(ValueError, match=r"должен быть 2-мерным"):
        plots.plot_table(torch.zeros(2, 3, 4))


# ----------------------------------------------------------------------------- figures in Jupyter


def test_figure_shows_as_png_in_jupyter_without_pyplot():
    fig = plots.plot_table(sinusoidal_table(8, 8))
    data, _ = DisplayFormatter().format(fig)
    assert data["image/png"][:8] == b"\x89PNG\r\n\x1a\n"


def test_png_is_deterministic_and_palette_png_is_smaller():
    table = sinusoidal_table(64, 64)
    first = plots.figure.to_png(plots.plot_table(table))
    assert first == plots.figure.to_png(plots.plot_table(table))
    assert len(plots.figure.to_png(plots.plot_table(table), palette=True)) < len(first)


def test_plots_and_widgets_never_load_pyplot():
    # pyplot keeps a global list of figures that the inline backend shows a second time
    code = (
        "import sys, course_lib.plots, course_lib.widgets; "
        "course_lib.widgets.table_explorer(d_model=8, num_positions=8); "
        "print('matplotlib.pyplot' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# ----------------------------------------------------------------------------- plot_waves


@pytest.mark.parametrize("lang", LANGS)
def test_waves_draw_the_chosen_columns_with_their_wavelength(lang):
    dims = (0, 1, 4, 7)
    fig = plots.plot_waves(dims=dims, num_positions=50, d_model=16, base=100.0, lang=lang)
    table = sinusoidal_table(50, 16, base=100.0, dtype=torch.float64).numpy()
    assert len(fig.axes) == len(dims)
    for ax, dim in zip(fig.axes, dims, strict=True):
        line = ax.get_lines()[0]
        np.testing.assert_array_equal(line.get_xdata(), np.arange(50))
        np.testing.assert_array_equal(line.get_ydata(), table[:, dim])
    labels = [legend_texts(ax)[0] for ax in fig.axes]
    # dimension 7 is the cosine of pair i = 3, wavelength 2π · 100^(6/16)
    assert labels[3] == plots.messages.MESSAGES(
        "wave_label",
        lang,
        dim=7,
        func="cos",
        i=3,
        wavelength=format_number(2 * math.pi * 100 ** (6 / 16), ".1f", lang),
    )
    assert labels[0].endswith(f"sin, i = 0, λ = 6{decimal_mark(lang)}3")
    assert fig.axes[-1].get_xlabel() == plots.messages.MESSAGES("positions", lang)
    assert fig.get_suptitle().startswith(
        plots.messages.MESSAGES("waves_title", lang, d_model=16, formula="")[:20]
    )


def test_waves_legend_is_russian_in_russian():
    fig = plots.plot_waves(dims=(5,), lang="ru")
    assert legend_texts(fig.axes[0]) == ["столбец 5: cos, i = 2, λ = 11,2"]


def test_waves_reject_a_column_outside_the_table():
    with pytest.raises(
        ValueError, match=r"dimension 64 is out of range: with d_model=64 the columns are 0 \.\. 63"
    ):
        plots.plot_waves(dims=(0, 64))
    with pytest.raises(ValueError, match=r"dims is empty"):
        plots.plot_waves(dims=())
    with pytest.raises(ValueError, match=r"d_model must be a positive integer, got 0"):
        plots.plot_waves(d_model=0)


# ----------------------------------------------------------------------------- plot_similarity


@pytest.mark.parametrize("lang", LANGS)
def test_similarity_draws_the_dot_products_and_they_depend_on_the_offset_only(lang):
    table = sinusoidal_table(30, 16)
    fig = plots.plot_similarity(table, lang=lang)
    heatmap, curves = fig.axes[0], fig.axes[1]  # then the colourbar
    expected = table.double().numpy() @ table.double().numpy().T
    np.testing.assert_allclose(heatmap.images[0].get_array(), expected, rtol=0, atol=1e-12)
    lines = curves.get_lines()
    assert len(lines) >= 3
    for line in lines[1:]:
        np.testing.assert_allclose(line.get_ydata(), lines[0].get_ydata(), atol=1e-5)
    assert curves.get_xlabel() == plots.messages.MESSAGES("offset", lang)
    assert heatmap.get_xlabel().startswith(plots.messages.MESSAGES("positions", lang))


def test_similarity_of_a_one_row_table():
    fig = plots.plot_similarity(torch.ones(1, 4))
    np.testing.assert_array_equal(fig.axes[0].images[0].get_array(), [[4.0]])


# ----------------------------------------------------------------------------- plot_embeddings


@pytest.mark.parametrize("lang", LANGS)
def test_embeddings_label_each_row_with_its_token(lang):
    vectors = torch.randn(3, 10, generator=torch.Generator().manual_seed(0))
    fig = plots.plot_embeddings(vectors, ["the", "cat", "sat"], lang=lang)
    ax = fig.axes[0]
    np.testing.assert_array_equal(ax.images[0].get_array(), vectors.numpy())
    assert [t.get_text() for t in ax.get_yticklabels()] == ["the", "cat", "sat"]
    assert ax.get_ylabel() == plots.messages.MESSAGES("token", lang)
    vmax = vectors.abs().max().item()
    assert ax.images[0].get_clim() == pytest.approx((-vmax, vmax))


def test_embeddings_with_a_fixed_scale_and_gradients():
    vectors = torch.zeros(2, 4, requires_grad=True)
    fig = plots.plot_embeddings(vectors * 2, ["a", "b"], vmax=3.0, title="t")
    assert fig.axes[0].images[0].get_clim() == (-3.0, 3.0)
    assert fig.axes[0].get_title() == "t"


def test_embeddings_need_one_token_per_row():
    with pytest.raises(ValueError, match=r"got 2 tokens for 3 vectors"):
        plots.plot_embeddings(torch.zeros(3, 4), ["a", "b"])


# ----------------------------------------------------------------------------- plot_magnitudes


@pytest.mark.parametrize("lang", LANGS)
def test_magnitudes_bars_are_the_measured_rms(lang):
    state = torch.random.get_rng_state()
    fig = plots.plot_magnitudes(d_model=64, vocab_size=500, num_positions=32, seed=1, lang=lang)
    assert torch.equal(torch.random.get_rng_state(), state), "the caller's random state must stay"
    ax = fig.axes[0]
    widths = [bar.get_width() for bar in ax.patches]
    m = plots.embeddings.magnitudes(d_model=64, vocab_size=500, num_positions=32, seed=1)
    assert widths == [m["default"], m["course_lib"], m["positions"]]
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        plots.messages.MESSAGES("magnitude_default", lang),
        plots.messages.MESSAGES("magnitude_course_lib", lang),
        plots.messages.MESSAGES("magnitude_positions", lang),
    ]
    assert ax.get_xlabel() == plots.messages.MESSAGES("rms", lang)


def test_magnitudes_match_the_modules_and_the_theory():
    m = plots.embeddings.magnitudes(d_model=256, vocab_size=2000, num_positions=64, seed=0)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        default = torch.nn.Embedding(2000, 256).weight.detach()
        torch.manual_seed(0)
        ours = TokenEmbedding(2000, 256)(torch.arange(2000)).detach()
    assert m["default"] == pytest.approx((default * 16).pow(2).mean().sqrt().item())
    assert m["course_lib"] == pytest.approx(ours.pow(2).mean().sqrt().item())
    assert m["default"] == pytest.approx(16, rel=0.02)  # √d_model
    assert m["course_lib"] == pytest.approx(1, rel=0.02)
    assert m["positions"] == pytest.approx(1 / math.sqrt(2), rel=1e-6)
    assert plots.embeddings.magnitudes(d_model=256, vocab_size=2000, num_positions=64, seed=0) == m


# ----------------------------------------------------------------------------- plot_precision


def test_precision_course_lib_line_is_the_error_of_sinusoidal_table():
    positions = [1, 10, 100, 999]
    fig = plots.plot_precision(positions, d_model=32)
    ax = fig.axes[0]
    exact = sinusoidal_table(1000, 32, dtype=torch.float64)[positions]
    ours = sinusoidal_table(1000, 32)[positions].double()
    float32_line, ours_line = ax.get_lines()
    np.testing.assert_array_equal(ours_line.get_xdata(), positions)
    np.testing.assert_array_equal(ours_line.get_ydata(), (ours - exact).abs().amax(dim=1).numpy())
    assert ax.get_yscale() == "log"


def test_precision_float32_drifts_at_large_positions_and_course_lib_does_not():
    e = plots.precision.precision_errors([100_000], d_model=512)
    # the figure's docstring says "about 5e-3 near position 100 000" (measured: 5.25e-3)
    assert 3e-3 < e["float32"][0] < 8e-3
    assert e["course_lib"][0] < 1e-7


@pytest.mark.parametrize("lang", LANGS)
def test_precision_labels(lang):
    ax = plots.plot_precision([1, 1000], d_model=8, lang=lang).axes[0]
    assert ax.get_xlabel() == plots.messages.MESSAGES("positions", lang)
    assert legend_texts(ax) == [
        plots.messages.MESSAGES("precision_float32", lang),
        plots.messages.MESSAGES("precision_course_lib", lang),
    ]
    assert ax.get_xscale() == "log"


def test_precision_default_positions_reach_100_000():
    assert plots.precision.DEFAULT_PRECISION_POSITIONS[0] == 1
    assert plots.precision.DEFAULT_PRECISION_POSITIONS[-1] == 100_000


def test_precision_rejects_negative_positions():
    with pytest.raises(ValueError, match=r"positions must be non-negative integers, got -1"):
        plots.plot_precision([3, -1])
    with pytest.raises(ValueError, match=r"got 2\.5"):
        plots.plot_precision([2.5])


# ----------------------------------------------------------------------------- plot_rotation


@pytest.mark.parametrize("lang", LANGS)
def test_rotation_draws_the_pair_at_pos_and_pos_plus_k(lang):
    fig = plots.plot_rotation(pos=5, k=3, i=1, d_model=8, base=10.0, lang=lang)
    ax = fig.axes[0]
    table = sinusoidal_table(9, 8, base=10.0, dtype=torch.float64)
    points = [line for line in ax.get_lines() if line.get_label() and not line.get_label().startswith("_")]
    assert [p.get_label() for p in points] == [
        plots.messages.MESSAGES("rotation_at_pos", lang, pos=5),
        plots.messages.MESSAGES("rotation_at_pos_k", lang, pos=8),
    ]
    for line, row in zip(points, (5, 8), strict=True):
        assert (line.get_xdata()[0], line.get_ydata()[0]) == pytest.approx(tuple(table[row, 2:4].tolist()))
    angle = 3 * 10.0 ** (-2 / 8)
    assert ax.get_title() == plots.messages.MESSAGES(
        "rotation_title", lang, i=1, k=3, angle=format_number(angle, ".3f", lang)
    )


def test_rotation_rejects_a_pair_outside_the_table():
    with pytest.raises(ValueError, match=r"pair i=4 is out of range: with d_model=9 there are 4"):
        plots.plot_rotation(i=4, d_model=9)
    with pytest.raises(ValueError, match=r"k must be a non-negative integer, got -1"):
        plots.plot_rotation(k=-1)


# ----------------------------------------------------------------------------- plot_attention


def attention_weights(seq: int, seed: int) -> torch.Tensor:
    generator = torch.Generator().manual_seed(seed)
    return torch.softmax(torch.randn(seq, seq, generator=generator), dim=-1)  # (seq, seq)


@pytest.mark.parametrize("lang", LANGS)
def test_attention_draws_each_matrix_with_its_tokens(lang):
    weights = [attention_weights(3, 0), attention_weights(3, 1), attention_weights(4, 2)]
    tokens = [["dog", "bites", "man"], ["man", "bites", "dog"], ["мать", "любит", "дочь", "."]]
    fig = plots.plot_attention(weights, tokens, titles=["a", "b", "c"], lang=lang)
    heatmaps = [ax for ax in fig.axes if ax.images]
    assert len(heatmaps) == 3  # a 2 × 2 grid: the fourth cell is switched off, plus the colourbar
    for ax, w, labels, title in zip(heatmaps, weights, tokens, "abc", strict=True):
        np.testing.assert_array_equal(ax.images[0].get_array(), w.numpy())
        assert ax.images[0].get_clim() == (0.0, 1.0)
        assert [t.get_text() for t in ax.get_xticklabels()] == labels
        assert [t.get_text() for t in ax.get_yticklabels()] == labels
        assert ax.get_title() == title
        # every cell carries its weight
        assert sorted(t.get_text() for t in ax.texts) == sorted(
            format_number(v, ".2f", lang) for v in w.flatten().tolist()
        )
    assert fig.get_suptitle() == plots.messages.MESSAGES("attention_title", lang)
    assert heatmaps[0].get_ylabel() == plots.messages.MESSAGES("attention_query", lang)
    assert heatmaps[2].get_xlabel() == plots.messages.MESSAGES("attention_key", lang)
    colourbar = [ax for ax in fig.axes if not ax.images and ax.get_visible() and ax.axison][-1]
    assert colourbar.get_ylabel() == plots.messages.MESSAGES("attention_weight", lang)


def test_attention_default_titles_are_the_sentences_and_one_row_fits():
    fig = plots.plot_attention([attention_weights(2, 0)] * 2, [["a", "b"], ["b", "a"]], ncols=3)
    heatmaps = [ax for ax in fig.axes if ax.images]
    assert [ax.get_title() for ax in heatmaps] == ["a b", "b a"]
    assert heatmaps[0].get_position().y0 == pytest.approx(heatmaps[1].get_position().y0)


def test_attention_rejects_mismatched_inputs():
    w = attention_weights(3, 0)
    with pytest.raises(TypeError, match=r"non-empty list of \(seq, seq\) tensors.*got Tensor"):
        plots.plot_attention(w, [["a", "b", "c"]])
    with pytest.raises(TypeError, match=r"got \[\]"):
        plots.plot_attention([], [])
    with pytest.raises(ValueError, match=r"weights\[1\] must be a square .* got shape \(3, 2\)"):
        plots.plot_attention([w, w[:, :2]], [["a"] * 3] * 2)
    with pytest.raises(ValueError, match=r"tokens has 1 items for 2 weight matrices"):
        plots.plot_attention([w, w], [["a", "b", "c"]])
    with pytest.raises(ValueError, match=r"titles has 1 items for 2 weight matrices"):
        plots.plot_attention([w, w], [["a", "b", "c"]] * 2, titles="one")
    with pytest.raises(ValueError, match=r"tokens\[0\] has 2 tokens for a 3 × 3 matrix"):
        plots.plot_attention([w], [["a", "b"]])
    set_language("ru")
    with pytest.raises(ValueError, match=r"нужен ровно один токен на строку"):
        plots.plot_attention([w], [["a", "b"]])


# ----------------------------------------------------------------------------- attention_balance, plot_balance


def balance_setup(d_model: int = 8):
    """A random attention and token table, as in lesson 4: (attention, embed)."""
    from course_lib import Vocab

    generator = torch.Generator().manual_seed(0)
    w_q, w_k, w_v = (torch.randn(d_model, d_model, generator=generator) / d_model**0.5 for _ in range(3))
    table = torch.randn(10, d_model, generator=generator)  # unit-variance token vectors
    vocab = Vocab.build(["dog bites man"])

    def attention(x):  # (seq, d_model)
        weights = torch.softmax((x @ w_q) @ (x @ w_k).T / d_model**0.5, dim=-1)  # (seq, seq)
        return weights @ (x @ w_v), weights

    return attention, lambda text: table[vocab.encode(text)]


def test_balance_without_tokens_sees_only_positions_and_with_huge_tokens_only_words():
    attention, embed = balance_setup()
    small = plots.attention_balance(attention, embed, "dog bites man", "man bites dog", 0.0)
    assert small.word_effect == 0.0 and small.token_rms == 0.0  # both inputs are the table itself
    torch.testing.assert_close(small.weights[0], small.weights[1])
    large = plots.attention_balance(attention, embed, "dog bites man", "man bites dog", 1e4)
    assert large.position_effect < 1e-6  # the second sentence's weights: the first's, reordered
    w_a, w_b = large.weights
    assert large.perm.tolist() == [2, 1, 0]
    torch.testing.assert_close(w_b, w_a[large.perm][:, large.perm], atol=1e-6, rtol=0)
    middle = plots.attention_balance(attention, embed, "dog bites man", "man bites dog", 1.0)
    assert middle.position_effect > 0.01 and middle.word_effect > 0.01
    assert middle.position_rms == pytest.approx(0.5**0.5)  # sines and cosines: RMS 1/√2
    x = torch.cat([embed("dog bites man"), embed("man bites dog")])
    assert middle.token_rms == pytest.approx(x.pow(2).mean().sqrt().item())


def test_balance_effect_is_the_share_of_weight_that_moves():
    # one-hot rows that all move: effect 1; rows that agree: 0
    def attention(x):
        return x, torch.eye(len(x)) if x[0, 0] > 1 else torch.eye(len(x)).flip(0)

    vectors = {"a b": torch.tensor([[5.0, 0], [0, 0]]), "b a": torch.tensor([[0.0, 0], [5, 0]])}
    balance = plots.attention_balance(attention, vectors.get, "a b", "b a", 1.0)
    assert balance.word_effect == 1.0


@pytest.mark.parametrize("lang", LANGS)
def test_plot_balance_draws_both_effects_against_the_scale(lang):
    attention, embed = balance_setup()
    scales = [0.01, 1.0, 100.0]
    ax = plots.plot_balance(
        attention, embed, "dog bites man", "man bites dog", scales=scales, lang=lang
    ).axes[0]
    positions, words = ax.get_lines()[:2]
    expected = [
        plots.attention_balance(attention, embed, "dog bites man", "man bites dog", c) for c in scales
    ]
    np.testing.assert_allclose(positions.get_ydata(), [b.position_effect for b in expected])
    np.testing.assert_allclose(words.get_ydata(), [b.word_effect for b in expected])
    assert ax.get_xscale() == "log"
    assert legend_texts(ax) == [
        plots.messages.MESSAGES("balance_position_effect", lang),
        plots.messages.MESSAGES("balance_word_effect", lang),
    ]
    # the two initialisations of lesson 3: c = 1 and c = √d_model
    assert [line.get_xdata()[0] for line in ax.get_lines()[2:]] == [1.0, pytest.approx(8**0.5)]


def test_balance_rejects_other_tokens_and_bad_scales():
    attention, embed = balance_setup()
    with pytest.raises(ValueError, match=r"same tokens in another order.*'dog bites'"):
        plots.attention_balance(attention, embed, "dog bites", "man bites", 1.0)
    with pytest.raises(ValueError, match=r"each token once"):
        plots.attention_balance(attention, embed, "dog dog bites", "dog bites dog", 1.0)
    for bad in (-1.0, math.inf, "1", True):
        with pytest.raises(ValueError, match=r"scale must be a finite number >= 0, got"):
            plots.attention_balance(attention, embed, "dog bites man", "man bites dog", bad)


def test_slow_columns_keep_their_share_as_d_model_grows():
    # the exponent 2i/d_model is a fraction of the way across the table
    shares = [plots.slow_columns(256, d) / d for d in (64, 128, 256, 512)]
    assert shares == pytest.approx([0.594] * 4, abs=1e-3)
    assert plots.slow_columns(1024, 128) < plots.slow_columns(256, 128)  # more positions shown
    assert plots.slow_columns(256, 128, base=100.0) < plots.slow_columns(256, 128)  # a smaller base
    assert plots.slow_columns(5, 3) == 3  # every wavelength is at least 2π > 5


def test_precision_legend_sits_above_the_curves():
    ax = plots.plot_precision().axes[0]
    bottom, top = ax.get_ylim()
    highest = max(line.get_ydata().max() for line in ax.get_lines())
    # on the log axis, at least the top fifth is free for the two-line legend
    assert math.log10(top / highest) > 0.2 * math.log10(top / bottom)


# ----------------------------------------------------------------------------- every text from the catalogue


def test_catalogue_has_every_language_with_the_same_placeholders():
    assert catalogues()["plots"] is plots.messages.MESSAGES
    assert plots.messages.MESSAGES.problems() == []


# words a figure shows as they are in every language: maths and code
MATHS = {"P", "pos", "sin", "cos", "d_model", "m", "n", "k", "i"}


def untranslated(text: str, data=()) -> list[str]:
    """The words of ``text`` outside the pseudo-language's ⟦brackets⟧ that are neither maths, code nor ``data``."""
    text = re.sub(r"⟦.*?⟧", "", text, flags=re.S)
    text = re.sub(r"\$.*?\$", "", text)  # mathtext: log-axis tick labels
    return [word for word in re.findall(r"[A-Za-z_]+", text) if word not in MATHS and word not in data]


def test_untranslated_finds_plain_english_outside_the_brackets():
    assert untranslated("⟦pöšîtîöñ⟧ n") == []
    assert untranslated("position n") == ["position"]
    assert untranslated("$\\mathdefault{10^{-5}}$ and cat", data=("cat",)) == ["and"]


def figure_texts(fig) -> list[str]:
    """Every text drawn in ``fig``: titles, axis and tick labels, legends, annotations, bar labels."""
    fig.canvas.draw()  # tick labels get their text when drawn
    texts = {t.get_text() for t in fig.findobj(Text) if t.get_visible()}
    return sorted(t for t in texts if t.strip())


def assert_pseudo_localised(fig, data=()):
    texts = figure_texts(fig)
    assert any(t.startswith("⟦") for t in texts)
    found = {t: untranslated(t, data) for t in texts}
    assert {t: words for t, words in found.items() if words} == {}, (
        "plain English: a text bypasses the catalogue"
    )


TOKENS = ("cat", "sat", "dog", "bites", "man")

PSEUDO_FIGURES = {
    "table": lambda: plots.plot_table(sinusoidal_table(8, 8)),
    "waves": lambda: plots.plot_waves(dims=(0, 3), num_positions=10, d_model=8),
    "similarity": lambda: plots.plot_similarity(sinusoidal_table(16, 8)),
    "embeddings": lambda: plots.plot_embeddings(torch.ones(2, 4), ["cat", "sat"]),
    "magnitudes": lambda: plots.plot_magnitudes(d_model=16, vocab_size=50, num_positions=8),
    "precision": lambda: plots.plot_precision([1, 10, 100], d_model=8),
    "rotation": lambda: plots.plot_rotation(),
    "attention": lambda: plots.plot_attention(
        [torch.eye(2)] * 3, [["dog", "bites"], ["bites", "dog"], ["cat", "sat"]]
    ),
    "balance": lambda: plots.plot_balance(*balance_setup(), "dog bites man", "man bites dog", scales=[1.0]),
}


@pytest.mark.parametrize("name", sorted(PSEUDO_FIGURES))
def test_every_text_of_a_figure_comes_from_the_catalogue(name):
    # in the pseudo-language every catalogue text is accented and bracketed: plain English
    # left in a figure is a string that bypasses the catalogue
    set_language(PSEUDO)
    assert_pseudo_localised(PSEUDO_FIGURES[name](), data=TOKENS)


def test_errors_of_the_figures_come_from_the_catalogue():
    set_language(PSEUDO)
    for bad in (
        lambda: plots.plot_table([[0.0]]),
        lambda: plots.plot_waves(dims=(9,), d_model=8),
        lambda: plots.plot_precision([-1]),
        lambda: plots.plot_rotation(i=9),
        lambda: plots.plot_rotation(k=-1),
        lambda: plots.plot_embeddings(torch.zeros(2, 2), ["a"]),
        lambda: plots.plot_attention([torch.eye(2)], [["a"]]),
        lambda: plots.attention_balance(*balance_setup(), "a b", "a c", 1.0),
        lambda: plots.attention_balance(*balance_setup(), "a b", "b a", -1.0),
    ):
        with pytest.raises((TypeError, ValueError)) as info:
            bad()
        assert str(info.value).startswith("⟦"), str(info.value)


# ----------------------------------------------------------------------------- numbers as the language writes them

# each figure with a number in its texts, and a text it shows in English and in Russian: in
# Russian a decimal comma and the minus sign «−», in English Python's own digits, as before
NUMBER_FIGURES = {
    "waves": (lambda lang: plots.plot_waves(dims=(5,), lang=lang), "λ = 11.2", "λ = 11,2"),
    "rotation": (lambda lang: plots.plot_rotation(lang=lang), "[-0.416  0.909]", "[−0,416  0,909]"),
    "rotation_title": (lambda lang: plots.plot_rotation(lang=lang), "k·ω = 2.000 rad", "k·ω = 2,000 рад"),
    "magnitudes": (lambda lang: plots.plot_magnitudes(lang=lang), "1.00 = 1.4 × P", "1,00 = 1,4 × P"),
    "attention": (
        lambda lang: plots.plot_attention([torch.eye(2) * 0.5], [["a", "b"]], lang=lang),
        "0.50",
        "0,50",
    ),
    "rope_rotation": (
        lambda lang: plots.plot_rope_rotation(m=3, n=9, pair=2, lang=lang),
        "m − n = -6 and q_m · k_n = ",
        "m − n = −6 и q_m · k_n = ",
    ),
    "rope_pair": (lambda lang: plots.plot_rope_rotation(m=3, n=9, pair=2, lang=lang), "= 0.01", "= 0,01"),
    "rope_angles": (
        lambda lang: plots.plot_rope_angles(settings=((10000.0, 1.5),), lang=lang),
        "κ = 1.5",
        "κ = 1,5",
    ),
    # the base with its thousands apart, as the prose writes 10 000
    "rope_angles_base": (
        lambda lang: plots.plot_rope_angles(settings=((41829.0, 1.0),), lang=lang),
        "base = 41 829, κ = 1:",
        "base = 41 829, κ = 1:",
    ),
    "alibi": (lambda lang: plots.plot_alibi(num_heads=3, lang=lang), "$s_h = 2^{-4}$", "$s_h = 2^{−4}$"),
    "table_ticks": (lambda lang: plots.plot_table(sinusoidal_table(8, 8), lang=lang), "0.5", "0,5"),
    "embeddings_ticks": (
        lambda lang: plots.plot_embeddings(torch.ones(2, 4), ["a", "b"], lang=lang),
        "−0.5",
        "−0,5",
    ),
}


@pytest.mark.parametrize("name", sorted(NUMBER_FIGURES))
def test_figure_numbers_are_written_as_the_language_writes_them(name):
    make, en, ru = NUMBER_FIGURES[name]
    en_texts, ru_texts = figure_texts(make("en")), figure_texts(make("ru"))
    assert any(en in t for t in en_texts), en_texts
    assert any(ru in t for t in ru_texts), ru_texts
    assert [t for t in ru_texts if re.search(r"\d\.\d|-\d", t) and "$" not in t] == []


def test_slope_label_writes_the_exponent_as_the_language_does():
    assert plots.slope_label(2**-0.5, "en") == "2^-0.5"
    assert plots.slope_label(2**-0.5, "ru") == "2^−0,5"
    assert plots.slope_label(2**-3, "ru") == "2^−3"
    assert (
        plots.alibi.slope_math(2**-0.5, "ru") == "$s_h = 2^{−0{,}5}$"
    )  # braces keep the comma a decimal mark
    assert plots.alibi.slope_math(2**-1, "en") == "$s_h = 2^{-1}$"


def test_tick_labels_keep_their_digits_and_change_only_the_decimal_mark():
    en, ru = (plots.plot_similarity(sinusoidal_table(16, 8), lang=lang) for lang in ("en", "ru"))
    en_texts, ru_texts = figure_texts(en), figure_texts(ru)
    assert sorted(t.replace(".", ",") for t in en_texts if re.fullmatch(r"−?[\d.]+", t)) == sorted(
        t for t in ru_texts if re.fullmatch(r"−?[\d,]+", t)
    )


def test_a_text_tick_label_keeps_its_points_in_russian():
    # the decimal comma of Russian ticks once wrote the class nn.Embedding as "nn,Embedding"
    texts = figure_texts(plots.plot_magnitudes(d_model=16, vocab_size=50, num_positions=8, lang="ru"))
    labels = [t for t in texts if "Embedding" in t]
    assert labels and all("nn.Embedding" in t or "TokenEmbedding" in t for t in labels), labels
    assert not [t for t in texts if "nn,Embedding" in t]
    assert any(re.search(r"\d,\d", t) for t in texts), texts  # the numbers still take the comma


# ----------------------------------------------------------------------------- titles inside the figure

# the figures of the lessons whose title is wider than its axes in some language, at the lessons' sizes
WIDE_TITLES = {
    "table": lambda lang: plots.plot_table(sinusoidal_table(100, 64), lang=lang),
    "alibi_weights": lambda lang: plots.plot_alibi_weights(lang=lang),
    "similarity": lambda lang: plots.plot_similarity(sinusoidal_table(100, 64), lang=lang),
    "rope_angles": lambda lang: plots.plot_rope_angles(
        64, 2048, 512, settings=[(10000.0, 1.0), (10000.0, 4.0), (41829.0, 1.0)], lang=lang
    ),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(WIDE_TITLES))
def test_every_title_fits_inside_the_figure(name, lang):
    # a centred title wider than its heatmap ran past the figure's left edge: the Russian table's
    # first letter was cut off in the notebook
    fig = WIDE_TITLES[name](lang)
    fig.canvas.draw()
    renderer, box = fig.canvas.get_renderer(), fig.bbox
    titles = [ax.title for ax in fig.axes] + ([fig._suptitle] if fig._suptitle else [])
    drawn = [t for t in titles if t.get_text()]
    assert drawn
    for title in drawn:
        extent = title.get_window_extent(renderer)
        assert box.x0 <= extent.x0 and extent.x1 <= box.x1 and extent.y1 <= box.y1, (title.get_text(), extent)
