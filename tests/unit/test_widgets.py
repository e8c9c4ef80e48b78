"""course_lib.widgets: moving a slider changes what is drawn, and it is the right data."""

import html
import io
import re

import ipywidgets
import numpy as np
import PIL.Image
import pytest
import torch
from matplotlib.text import Text

from course_lib import Vocab, plots, set_language, sinusoidal_table, widgets
from course_lib.i18n import PSEUDO, catalogues
from tests.unit.test_plots import assert_pseudo_localised, untranslated

SENTENCES = ["the cat sat on the mat", "a dog", "the dog sat on the cat and the mat"]


@pytest.fixture(autouse=True)
def english_by_default():
    set_language("en")
    yield
    set_language("en")


def assert_shows_table(explorer, num_positions, d_model, base):
    table = sinusoidal_table(num_positions, d_model, base).numpy()
    np.testing.assert_array_equal(explorer.axes_image.get_array(), table)
    assert explorer.axes_image.get_extent() == [-0.5, d_model - 0.5, num_positions - 0.5, -0.5]
    assert explorer.axes_image.get_clim() == (-1.0, 1.0)


def png_size(data: bytes) -> tuple[int, int]:
    return PIL.Image.open(io.BytesIO(data)).size


# ----------------------------------------------------------------------------- every explorer


@pytest.mark.parametrize(
    ("build", "move"),
    [
        (
            lambda: widgets.table_explorer(d_model=16, num_positions=20),
            lambda ex: setattr(ex.d_model, "value", 8),
        ),
        (
            lambda: widgets.embedding_explorer(SENTENCES[:2], d_model=8),
            lambda ex: setattr(ex.sentence, "value", 1),
        ),
        (lambda: widgets.rotation_explorer(), lambda ex: setattr(ex.k, "value", 7)),
        (lambda: make_balance_explorer(), lambda ex: setattr(ex.scale, "value", 0.5)),
    ],
    ids=["table", "embedding", "rotation", "balance"],
)
def test_image_is_shown_at_its_own_pixel_width(build, move):
    # a box stretches its children to the notebook's width: without a width of its own the
    # PNG would be scaled up and blurred
    explorer = build()
    width, _ = png_size(explorer.image.value)
    layout = explorer.image.layout
    assert layout.width == f"{width}px"
    assert (layout.height, layout.object_fit) == ("auto", "contain")
    move(explorer)
    assert png_size(explorer.image.value)[0] == width


# ----------------------------------------------------------------------------- table_explorer


@pytest.fixture(scope="module")
def explorer():
    return widgets.table_explorer(d_model=32, num_positions=60, base=10000.0)


def test_table_explorer_is_a_box_of_sliders_readout_and_image(explorer):
    assert isinstance(explorer, ipywidgets.VBox)
    assert explorer.children == (
        explorer.d_model,
        explorer.num_positions,
        explorer.base,
        explorer.readout,
        explorer.image,
    )
    assert isinstance(explorer.base, ipywidgets.FloatLogSlider)
    assert explorer.image.format == "png" and explorer.image.value[:4] == b"\x89PNG"
    assert_shows_table(explorer, 60, 32, 10000.0)


@pytest.mark.parametrize(
    ("slider", "value", "expected"),
    [
        ("d_model", 17, (60, 17, 10000.0)),
        ("num_positions", 200, (200, 32, 10000.0)),
        ("base", 100.0, (60, 32, 100.0)),
    ],
)
def test_moving_a_slider_redraws_the_same_image_with_the_new_table(slider, value, expected):
    explorer = widgets.table_explorer(d_model=32, num_positions=60, base=10000.0)
    figure, axes_image, before, readout = (
        explorer.figure,
        explorer.axes_image,
        explorer.image.value,
        explorer.readout.value,
    )
    getattr(explorer, slider).value = value
    assert explorer.figure is figure and explorer.axes_image is axes_image  # updated, not rebuilt
    assert explorer.image.value != before
    assert explorer.readout.value != readout
    assert_shows_table(explorer, *expected)
    torch.testing.assert_close(explorer.table, sinusoidal_table(*expected))
    n, d, _ = expected
    assert f"d_model = {d}, {n} positions" in explorer.readout.value
    assert axes_image.axes.get_title() == plots.MESSAGES("table_title", "en", num_positions=n, d_model=d)


def test_a_move_leaves_torch_threads_as_they_were(explorer):
    threads = torch.get_num_threads()
    explorer.d_model.value = 31 if explorer.d_model.value != 31 else 30
    assert torch.get_num_threads() == threads


def test_readout_gives_the_wavelengths(explorer):
    explorer.base.value = 10000.0
    explorer.num_positions.value = 60
    explorer.d_model.value = 32
    # i = 15 is the last pair: 2π · 10000^(30/32) = 35 333
    assert (
        "base = 10 000. Wavelength, in positions: from 6.3 (i = 0) to 35 333 (i = 15)."
        in explorer.readout.value
    )
    explorer.d_model.value = 5  # odd: the last column is the lone sine of pair 2
    assert "(i = 2)" in explorer.readout.value
    assert_shows_table(explorer, 60, 5, 10000.0)


def test_readout_gives_the_share_of_slow_columns():
    explorer = widgets.table_explorer(d_model=64, num_positions=256)
    assert (
        "38 of 64 columns (59%) have a wavelength longer than the 256 positions shown"
        in explorer.readout.value
    )
    explorer.d_model.value = 512  # more columns, the same share
    assert "304 of 512 columns (59%)" in explorer.readout.value
    explorer.num_positions.value = 1024  # more positions shown: fewer slow columns
    assert "228 of 512 columns (45%)" in explorer.readout.value


def test_margins_follow_wider_position_numbers():
    # the layout is not redone on every move: only when the y tick labels change width
    explorer = widgets.table_explorer(d_model=16, num_positions=10)
    ax = explorer.axes_image.axes
    left_before = ax.get_position().x0
    explorer.num_positions.value = 1000
    renderer = explorer.figure.canvas.get_renderer()
    assert ax.get_position().x0 > left_before
    assert ax.get_tightbbox(renderer).x0 >= 0  # "1000" is not cut off at the figure's edge


def test_table_explorer_in_russian():
    explorer = widgets.table_explorer(d_model=16, num_positions=20, lang="ru")
    assert explorer.num_positions.description == "позиции"
    assert explorer.base.description == "основание base"
    assert "Длина волны в позициях: от 6,3 (i = 0)" in explorer.readout.value  # the Russian decimal comma
    assert explorer.axes_image.axes.get_xlabel() == "координата"


def test_table_explorer_image_stays_small_for_the_notebook():
    # the widget state, PNG included, is stored in the notebook
    explorer = widgets.table_explorer(d_model=512, num_positions=256)
    assert len(explorer.image.value) < 100_000


def test_table_explorer_rejects_bad_settings():
    with pytest.raises(ValueError, match=r"d_model must be a positive integer, got 0"):
        widgets.table_explorer(d_model=0)
    with pytest.raises(ValueError, match=r"base must be a finite number greater than 1, got -1"):
        widgets.table_explorer(base=-1)


def test_wide_slider_ranges_follow_large_settings():
    explorer = widgets.table_explorer(d_model=600, num_positions=2000, base=1e7)
    assert explorer.d_model.max == 600 and explorer.num_positions.max == 2000
    assert explorer.base.value == pytest.approx(1e7)


# ----------------------------------------------------------------------------- embedding_explorer


@pytest.fixture(scope="module")
def sentences_explorer():
    return widgets.embedding_explorer(SENTENCES, d_model=16, seed=0)


def test_embedding_explorer_shows_token_vectors_then_with_positions(sentences_explorer):
    ex = sentences_explorer
    assert ex.children == (ex.sentence, ex.show, ex.image)
    ex.sentence.value, ex.show.value = 0, "tokens"
    ids = torch.tensor([ex.vocab.encode(SENTENCES[0])])
    with torch.no_grad():
        tokens_only = ex.model.token_embedding(ids)[0].numpy()
    np.testing.assert_array_equal(ex.axes_image.get_array(), tokens_only)
    assert [t.get_text() for t in ex.axes_image.axes.get_yticklabels()] == SENTENCES[0].split()
    before = ex.image.value
    ex.show.value = "sum"
    assert ex.image.value != before
    # what the toggle adds is exactly the positional table
    added = ex.axes_image.get_array() - tokens_only
    np.testing.assert_allclose(added, sinusoidal_table(6, 16).numpy(), atol=1e-6)
    assert ex.axes_image.axes.get_title() == widgets.MESSAGES("explorer_sum_title", "en")


def test_embedding_explorer_switches_sentence(sentences_explorer):
    ex = sentences_explorer
    ex.show.value = "tokens"
    ex.sentence.value = 1
    before = ex.image.value
    ex.sentence.value = 2
    assert ex.image.value != before
    assert ex.tokens == SENTENCES[2].split()
    assert ex.axes_image.get_array().shape == (9, 16)
    assert [t.get_text() for t in ex.axes_image.axes.get_yticklabels()] == ex.tokens
    assert ex.axes_image.get_extent() == [-0.5, 15.5, 8.5, -0.5]
    # one colour scale for every sentence, so they compare by eye
    assert ex.axes_image.get_clim() == (-ex.vmax, ex.vmax)


def test_embedding_explorer_is_deterministic_and_leaves_the_random_state():
    state = torch.random.get_rng_state()
    a = widgets.embedding_explorer(SENTENCES[:2], d_model=8, seed=3)
    assert torch.equal(torch.random.get_rng_state(), state)
    b = widgets.embedding_explorer(SENTENCES[:2], d_model=8, seed=3)
    assert a.image.value == b.image.value
    assert isinstance(a.vocab, Vocab) and a.model.positional_encoding.dropout.p == 0.0


def test_embedding_explorer_in_russian():
    ex = widgets.embedding_explorer(["кот сидел на ковре"], d_model=8, lang="ru")
    assert ex.sentence.description == "предложение"
    assert ex.show._options_labels == ("эмбеддинги токенов", "+ позиционное кодирование")
    assert ex.axes_image.axes.get_ylabel() == "токен"


def test_embedding_explorer_rejects_bad_sentences():
    with pytest.raises(ValueError, match=r"non-empty list of non-empty strings, got 'a dog'"):
        widgets.embedding_explorer("a dog")
    with pytest.raises(ValueError, match=r"got \[\]"):
        widgets.embedding_explorer([])
    with pytest.raises(ValueError, match=r"got ' '"):
        widgets.embedding_explorer(["a dog", " "])
    with pytest.raises(ValueError, match=r"got 3"):
        widgets.embedding_explorer(["a dog", 3])


# ----------------------------------------------------------------------------- rotation_explorer


def test_rotation_explorer_checks_the_rotation_and_redraws():
    ex = widgets.rotation_explorer(d_model=8, base=10.0, pos=2, k=1, i=1)
    assert ex.children == (ex.pos, ex.k, ex.i, ex.readout, ex.image)
    assert ex.i.max == 3
    before, readout = ex.image.value, ex.readout.value
    ex.k.value = 5
    assert ex.image.value != before and ex.readout.value != readout
    assert ex.error < 1e-12
    assert "PE[7]" in ex.readout.value
    points = [line for line in ex.figure.axes[0].get_lines() if not line.get_label().startswith("_")]
    table = sinusoidal_table(8, 8, base=10.0, dtype=torch.float64)
    assert (points[1].get_xdata()[0], points[1].get_ydata()[0]) == pytest.approx(
        tuple(table[7, 2:4].tolist())
    )


def test_rotation_explorer_in_russian():
    ex = widgets.rotation_explorer(lang="ru")
    assert (ex.pos.description, ex.k.description, ex.i.description) == ("позиция pos", "сдвиг k", "пара i")
    assert "Поворот пары" in ex.readout.value


# ----------------------------------------------------------------------------- vocab_explorer


def test_vocab_explorer_updates_the_table_as_the_text_changes():
    vocab = Vocab.build(["The cat sat on the mat."])
    ex = widgets.vocab_explorer(vocab, text="the cat sat")
    assert ex.children == (ex.text, ex.min_freq, ex.readout, ex.table)
    assert ex.readout.value == ""  # no held-out text, no readout
    assert ex.ids == vocab.encode("the cat sat")
    assert "<unk>" not in ex.table.value and "&lt;unk&gt;" not in ex.table.value
    ex.text.value = "The dog sat"
    assert ex.tokens == ["the", "dog", "sat"]
    assert ex.ids == [vocab.stoi["the"], vocab.unk_id, vocab.stoi["sat"]]
    rows = ex.table.value.split("<tr")[2:]  # after the header row
    assert len(rows) == 3
    # the unknown word keeps its own spelling, shows the unk ID, decodes to <unk> and is highlighted
    assert "<code>dog</code>" in rows[1] and f">{vocab.unk_id}</td>" in rows[1]
    assert "&lt;unk&gt;" in rows[1] and "background" in rows[1]
    assert "background" not in rows[0] + rows[2]
    assert "3 tokens; the vocabulary (10 tokens) does not know 1 of them." in ex.table.value


def test_vocab_explorer_escapes_tokens():
    ex = widgets.vocab_explorer(Vocab.build(["a b"]), text="a <b> & c")
    assert "<code>&lt;</code>" in ex.table.value and "<code>&amp;</code>" in ex.table.value
    assert "<b>" not in ex.table.value.replace("<b>&lt;unk&gt;</b>", "")


def test_vocab_explorer_in_russian():
    ex = widgets.vocab_explorer(Vocab.build(["Кошка сидит на ковре."]), text="Собака сидит.", lang="ru")
    assert ex.text.description == "текст"
    assert "<th" in ex.table.value
    headers = [cell.split(">", 1)[1].split("<", 1)[0] for cell in ex.table.value.split("<th")[1:]]
    assert headers == ["токен", "индекс", "после декодирования"]
    assert "Токенов: 3, из них словарь размером 9 не знает 1." in ex.table.value


def test_vocab_explorer_rejects_what_is_not_a_vocab_or_a_text():
    with pytest.raises(TypeError, match=r"vocab must be a course_lib.Vocab.*got list"):
        widgets.vocab_explorer(["the", "cat"])
    with pytest.raises(TypeError, match=r"got int"):
        widgets.vocab_explorer(Vocab.build(["a"]), text=3)
    with pytest.raises(TypeError, match=r"heldout must be a list of strings, got str"):
        widgets.vocab_explorer(Vocab.build(["a"]), heldout="a b")


def test_vocab_explorer_min_freq_shrinks_the_vocabulary_and_loses_more_of_the_held_out_text():
    corpus = ["the cat sat on the mat", "the dog sat on the log", "a cat and a dog"]
    ex = widgets.vocab_explorer(Vocab.build(corpus), text="the cat ran", heldout=["the cat sat on a rug"])
    assert ex.min_freq.value == 1 and len(ex.vocab) == len(Vocab.build(corpus))
    # rug is the one word of six never seen
    assert "Vocabulary with min_freq = 1: 13 tokens." in ex.readout.value
    assert "1 of its 6 tokens are &lt;unk&gt;, 16.7 %" in ex.readout.value
    ex.min_freq.value = 2  # and, log, mat were seen once: none of them is in the held-out text
    assert ex.vocab.itos == Vocab.build(corpus, min_freq=2).itos
    assert ex.ids == Vocab.build(corpus, min_freq=2).encode("the cat ran")
    assert "1 of its 6 tokens are &lt;unk&gt;, 16.7 %" in ex.readout.value
    ex.min_freq.value = 3  # only "the" (4 times) is left
    assert ex.vocab.itos == [*Vocab.SPECIALS, "the"]
    assert "Vocabulary with min_freq = 3: 5 tokens." in ex.readout.value
    assert "5 of its 6 tokens are &lt;unk&gt;, 83.3 %" in ex.readout.value


def test_vocab_explorer_without_counts_has_no_slider():
    ex = widgets.vocab_explorer(Vocab(["<pad>", "<unk>", "<bos>", "<eos>", "cat"]), text="cat dog")
    assert ex.min_freq is None and ex.children == (ex.text, ex.readout, ex.table)
    assert ex.ids == [4, 1]


def test_vocab_explorer_readout_in_russian_uses_a_decimal_comma():
    ex = widgets.vocab_explorer(Vocab.build(["a b c"]), text="a", lang="ru", heldout=["a b d"])
    assert "Отложенный текст: токенов 3, из них &lt;unk&gt; — 1, 33,3 %." in ex.readout.value


# ----------------------------------------------------------------------------- balance_explorer


def make_balance_explorer(**options):
    from tests.unit.test_plots import balance_setup

    return widgets.balance_explorer(*balance_setup(), "dog bites man", "man bites dog", **options)


@pytest.fixture(scope="module")
def balance_explorer():
    return make_balance_explorer()


def test_balance_explorer_shows_the_balance_at_the_slider_scale(balance_explorer):
    from tests.unit.test_plots import balance_setup

    ex = balance_explorer
    assert ex.children == (ex.scale, ex.readout, ex.image)
    assert isinstance(ex.scale, ipywidgets.FloatLogSlider) and (ex.scale.min, ex.scale.max) == (-2.0, 2.0)
    before, readout = ex.image.value, ex.readout.value
    ex.scale.value = 10.0
    assert ex.image.value != before and ex.readout.value != readout
    expected = plots.attention_balance(*balance_setup(), "dog bites man", "man bites dog", 10.0)
    assert (ex.balance.position_effect, ex.balance.word_effect) == (
        expected.position_effect,
        expected.word_effect,
    )
    heatmaps = [ax for ax in ex.figure.axes if ax.images]
    np.testing.assert_array_equal(heatmaps[1].images[0].get_array(), expected.weights[1].numpy())
    assert ex.figure.get_suptitle() == widgets.MESSAGES("balance_title", "en", scale="10.00")
    assert f"effect of the positions: {expected.position_effect:.2f}" in ex.readout.value
    assert f"of PE: {expected.position_rms:.2f}" in ex.readout.value


def test_balance_explorer_updates_its_heatmaps_instead_of_rebuilding_them():
    # new axes, colourbar and layout on every move took ~300 ms; set_data and set_text ~50 ms
    ex = make_balance_explorer()
    axes, texts = list(ex.figure.axes), [t for ax in ex.figure.axes for t in ax.texts]
    threads = torch.get_num_threads()
    ex.scale.value = 0.1
    assert torch.get_num_threads() == threads  # one_thread gave the threads back
    assert ex.figure.axes == axes and [t for ax in ex.figure.axes for t in ax.texts] == texts
    heatmaps = [ax for ax in axes if ax.images]
    for ax, w in zip(heatmaps, ex.balance.weights, strict=True):
        assert [t.get_text() for t in ax.texts] == [f"{v:.2f}" for v in w.flatten().tolist()]


def test_balance_explorer_in_russian():
    ex = make_balance_explorer(lang="ru")
    assert ex.scale.description == "множитель токенов c"
    assert "влияние позиций" in ex.readout.value
    assert "c = 1,00." in ex.readout.value and ex.figure.get_suptitle().startswith("вход = 1,00 ·")


def test_balance_explorer_rejects_what_the_slider_cannot_show():
    with pytest.raises(ValueError, match=r"from 0.01 to 100, the slider's range, got 0"):
        make_balance_explorer(scale=0)
    with pytest.raises(ValueError, match=r"same tokens in another order"):
        widgets.balance_explorer(lambda x: (x, x), lambda t: torch.zeros(2, 4), "dog bites", "man bites")


# ----------------------------------------------------------------------------- every text from the catalogue


def test_catalogue_has_every_language_with_the_same_placeholders():
    assert catalogues()["widgets"] is widgets.MESSAGES
    assert widgets.MESSAGES.problems() == []


def widget_texts(explorer) -> list[str]:
    """What a student reads in a box: descriptions, button labels, readouts and table cells."""
    texts = []
    for child in explorer.children:
        texts.append(getattr(child, "description", ""))
        if isinstance(child, ipywidgets.ToggleButtons):
            texts += child._options_labels
        if isinstance(child, ipywidgets.HTML):
            # each paragraph, line and cell of the HTML on its own, tags removed
            texts += [html.unescape(part) for part in re.split(r"<[^>]+>", child.value)]
    return [t for t in texts if t.strip()]


PSEUDO_EXPLORERS = {
    "table": (
        lambda: widgets.table_explorer(d_model=16, num_positions=20),
        lambda ex: setattr(ex.num_positions, "value", 200),
    ),
    "embedding": (
        lambda: widgets.embedding_explorer(SENTENCES[:2], d_model=8),
        lambda ex: setattr(ex.show, "value", "sum"),
    ),
    "rotation": (lambda: widgets.rotation_explorer(), lambda ex: setattr(ex.k, "value", 7)),
    "balance": (lambda: make_balance_explorer(), lambda ex: setattr(ex.scale, "value", 0.5)),
    "vocab": (
        lambda: widgets.vocab_explorer(Vocab.build(SENTENCES), text="the cat"),
        lambda ex: setattr(ex.text, "value", "the bird"),
    ),
}


@pytest.mark.parametrize("name", sorted(PSEUDO_EXPLORERS))
def test_every_text_of_an_explorer_comes_from_the_catalogue(name):
    # in the pseudo-language every catalogue text is accented and bracketed: plain English
    # left in a widget (or redrawn after a move) is a string that bypasses the catalogues
    set_language(PSEUDO)
    build, move = PSEUDO_EXPLORERS[name]
    explorer = build()
    data = {"d_model", "unk", *" ".join(SENTENCES + ["bird", "dog bites man"]).split()}
    for _ in ("built", "moved"):
        texts = widget_texts(explorer)
        assert any(t.startswith("⟦") for t in texts)
        assert {t: untranslated(t, data) for t in texts if untranslated(t, data)} == {}
        if hasattr(explorer, "figure"):
            assert_pseudo_localised(explorer.figure, data)
        move(explorer)


def test_errors_of_the_explorers_come_from_the_catalogue():
    set_language(PSEUDO)
    for bad in (
        lambda: widgets.embedding_explorer([]),
        lambda: widgets.vocab_explorer(["a"]),
        lambda: widgets.table_explorer(d_model=0),
        lambda: widgets.balance_explorer(None, None, "a b", "a c"),
        lambda: make_balance_explorer(scale=1000),
    ):
        with pytest.raises((TypeError, ValueError)) as info:
            bad()
        assert str(info.value).startswith("⟦"), str(info.value)


# ----------------------------------------------------------------------------- numbers as the language writes them


def readout_and_figure_texts(ex) -> list[str]:
    """The readout and every text of the widget's figure."""
    ex.figure.canvas.draw()
    texts = {t.get_text() for t in ex.figure.findobj(Text) if t.get_visible()}
    return [ex.readout.value, *sorted(t for t in texts if t.strip())]


NUMBER_WIDGETS = {
    # the weight in each cell of the heatmaps, moved by the slider
    "balance": (
        lambda lang: make_balance_explorer(lang=lang),
        lambda ex: setattr(ex.scale, "value", 0.5),
        r"0[.,]\d\d",
    ),
    # the rotation matrix beside the circle, and the largest difference as a power of ten
    "rotation": (
        lambda lang: widgets.rotation_explorer(lang=lang),
        lambda ex: setattr(ex.k, "value", 7),
        r"[-−]0[.,]\d{3}",
    ),
    "rope": (
        lambda lang: widgets.rope_explorer(lang=lang),
        lambda ex: setattr(ex.n, "value", 9),
        r"m·θ = \d[.,]\d\d",
    ),
    "alibi": (
        lambda lang: widgets.alibi_explorer(num_heads=12, lang=lang),
        lambda ex: setattr(ex.head, "value", 10),
        r"2\^[-−]1[.,]5",
    ),
}


@pytest.mark.parametrize("name", sorted(NUMBER_WIDGETS))
def test_widget_numbers_are_written_as_the_language_writes_them(name):
    make, move, pattern = NUMBER_WIDGETS[name]
    for lang in ("en", "ru"):
        ex = make(lang)
        move(ex)
        texts = readout_and_figure_texts(ex)
        found = [t for t in texts if re.search(pattern, t)]
        assert found, texts
        if lang == "en":
            assert all("," not in re.search(pattern, t).group() for t in found)
        else:  # no 0.5, -1 or 1e-16 (a formula's exponent, base^(-2i/d_model), is not a number)
            assert [t for t in texts if re.search(r"\d\.\d|(?<!\()-\d|\de[-+]", t) and "$" not in t] == []
            assert all("." not in re.search(pattern, t).group() for t in found)
