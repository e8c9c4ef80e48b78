"""course_lib.widgets: moving a slider changes what is drawn, and it is the right data."""

import html
import io
import json
import re

import ipywidgets
import numpy as np
import PIL.Image
import pytest
import torch
from matplotlib.text import Text

from course_lib import Vocab, plots, set_language, sinusoidal_table, widgets
from course_lib.i18n import PSEUDO, catalogues
from course_tools.config import CONFIG
from tests.unit.test_plots import assert_pseudo_localised, untranslated

SENTENCES = ["the cat sat on the mat", "a dog", "the dog sat on the cat and the mat"]


@pytest.fixture(autouse=True)
def english_by_default():
    set_language("en")
    yield
    set_language("en")


def png_size(data: bytes) -> tuple[int, int]:
    return PIL.Image.open(io.BytesIO(data)).size


# ----------------------------------------------------------------------------- every explorer


@pytest.mark.parametrize(
    ("build", "move"),
    [
        (
            lambda: widgets.embedding_explorer(SENTENCES[:2], d_model=8),
            lambda ex: setattr(ex.sentence, "value", 1),
        ),
        (lambda: make_balance_explorer(), lambda ex: setattr(ex.scale, "value", 0.5)),
    ],
    ids=["embedding", "balance"],
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


# ----------------------------------------------------------------------------- live explorers (lesson 5)
# What they draw and read out is tested in the browser (tests/browser/test_explorers.py); here, the
# Python side: traits, checks, the reference readouts, the module and texts sent to the browser.


def test_table_explorer_holds_its_parameters_as_synced_traits():
    explorer = widgets.table_explorer(d_model=32, num_positions=60, base=1000.0)
    assert isinstance(explorer, widgets.LiveExplorer)
    state = explorer.get_state()
    assert (state["d_model"], state["num_positions"], state["base"]) == (32, 60, 1000.0)
    explorer.d_model = 5
    assert explorer.get_state()["d_model"] == 5
    torch.testing.assert_close(explorer.table, sinusoidal_table(60, 5, 1000.0, dtype=torch.float64))
    # the module the browser runs: the shared helpers, then the table's own
    assert explorer._esm.startswith("// What every live explorer shares")
    assert "export function sinusoidalTable" in explorer._esm


def test_table_readout_gives_the_wavelengths_and_the_slow_share():
    explorer = widgets.table_explorer(d_model=32, num_positions=60)
    # i = 15 is the last pair: 2π · 10000^(30/32) = 35 333
    assert explorer.readout()[0].endswith(
        "base = 10 000. Wavelength, in positions: from 6.3 (i = 0) to 35 333 (i = 15)."
    )
    explorer.d_model = 5  # odd: the last column is the lone sine of pair 2
    assert "(i = 2)" in explorer.readout()[0]
    explorer.d_model, explorer.num_positions = 64, 256
    assert explorer.readout()[1].startswith("38 of 64 columns (59%) have a wavelength longer than the 256")
    explorer.d_model = 512  # more columns, the same share
    assert explorer.readout()[1].startswith("304 of 512 columns (59%)")
    explorer.num_positions = 1024  # more positions shown: fewer slow columns
    assert explorer.readout()[1].startswith("228 of 512 columns (45%)")


def test_table_explorer_in_russian():
    explorer = widgets.table_explorer(d_model=16, num_positions=20, lang="ru")
    assert explorer.lang == "ru"
    assert (explorer.labels["num_positions"], explorer.labels["base"]) == ("позиции", "основание base")
    assert explorer.labels["xlabel"] == "координата"
    assert "Длина волны в позициях: от 6,3 (i = 0)" in explorer.readout()[0]  # the Russian decimal comma
    # templates, filled by the browser
    assert (
        explorer.labels["title"]
        == "Таблица позиционного кодирования: {num_positions} × {d_model} (позиции × координаты)"
    )


def test_table_explorer_colours_are_the_static_figures():
    explorer = widgets.table_explorer(d_model=8, num_positions=8)
    assert len(explorer.colormap) == 256 * 6
    # the static figure's colour of -1, 0 and 1: what imshow paints the first, middle and last cells with
    fig = plots.plot_table(torch.tensor([[-1.0, 0.0, 1.0]]))
    painted = fig.axes[0].images[0].to_rgba(np.array([-1.0, 0.0, 1.0]), bytes=True)[:, :3]
    lut = np.frombuffer(bytes.fromhex(explorer.colormap), dtype=np.uint8).reshape(256, 3)
    np.testing.assert_array_equal(lut[[0, 128, 255]], painted)


def test_table_explorer_rejects_bad_settings():
    with pytest.raises(ValueError, match=r"d_model must be a positive integer, got 0"):
        widgets.table_explorer(d_model=0)
    with pytest.raises(ValueError, match=r"base must be a finite number greater than 1, got -1"):
        widgets.table_explorer(base=-1)
    explorer = widgets.table_explorer()
    with pytest.raises(ValueError, match=r"num_positions must be a positive integer, got -3"):
        explorer.num_positions = -3
    with pytest.raises(ValueError, match=r"base must be a finite number greater than 1, got 0.5"):
        explorer.base = 0.5
    assert (explorer.num_positions, explorer.base) == (256, 10000.0)


def test_wide_slider_ranges_follow_large_settings():
    explorer = widgets.table_explorer(d_model=600, num_positions=2000, base=1e7)
    assert (explorer.limits["d_model"], explorer.limits["num_positions"]) == (600, 2000)
    assert explorer.limits["base_exponent_max"] == 7.0


def test_rotation_explorer_checks_the_rotation():
    ex = widgets.rotation_explorer(d_model=8, base=10.0, pos=2, k=1, i=1)
    assert ex.limits == {"pos": 100, "k": 50, "i": 3}
    ex.k = 5
    assert ex.error < 1e-12
    assert "PE[7]" in ex.readout()
    assert "ω = base^(-2i/d_model) = 0.5623, angle k·ω = 2.8117 rad" in ex.readout()  # 5 · 10^(-2/8)


def test_rotation_explorer_in_russian():
    ex = widgets.rotation_explorer(lang="ru")
    assert (ex.labels["pos"], ex.labels["k"], ex.labels["i"]) == ("позиция pos", "сдвиг k", "пара i")
    assert "Поворот пары" in ex.readout()
    assert "угол k·ω = 2,0000 рад" in ex.readout()  # ω = 1 for the pair i = 0


def test_rotation_explorer_rejects_bad_settings():
    with pytest.raises(ValueError, match=r"pair i=8 is out of range"):
        widgets.rotation_explorer(d_model=16, i=8)
    ex = widgets.rotation_explorer(d_model=16)
    with pytest.raises(ValueError, match=r"pair i=8 is out of range"):
        ex.i = 8
    with pytest.raises(ValueError, match=r"k must be a non-negative integer, got -1"):
        ex.k = -1


@pytest.mark.parametrize(
    "build", [widgets.table_explorer, widgets.rotation_explorer], ids=["table", "rotation"]
)
def test_every_text_of_a_live_explorer_comes_from_the_catalogue(build):
    set_language(PSEUDO)
    explorer = build()
    texts = [t for t in explorer.labels.values() if t != "d_model"]
    texts += explorer.readout() if isinstance(explorer.readout(), list) else [explorer.readout()]
    assert all(t.startswith("⟦") for t in texts), texts


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


# ----------------------------------------------------------------------------- vocab_explorer


def test_vocab_explorer_updates_the_table_as_the_text_changes():
    vocab = Vocab.build(["The cat sat on the mat."])
    ex = widgets.vocab_explorer(vocab, text="the cat sat")
    assert isinstance(ex, widgets.LiveExplorer)
    assert ex.readout() == [ex.table.summary]  # no held-out text: the summary alone
    assert ex.ids == vocab.encode("the cat sat")
    ex.text = "The dog sat"
    assert ex.get_state()["text"] == "The dog sat"
    assert ex.tokens == ["the", "dog", "sat"]
    assert ex.ids == [vocab.stoi["the"], vocab.unk_id, vocab.stoi["sat"]]
    assert ex.readout() == ["3 tokens; the vocabulary (10 tokens) does not know 1 of them."]
    # what the browser gets: the whole vocabulary, its counts most frequent first, the texts
    assert ex.data["itos"] == vocab.itos and ex.data["unk_id"] == vocab.unk_id
    assert ex.data["counts"] == [vocab.counts[w] for w in vocab.itos[4:]]
    assert ex.data["heldout"] is None
    assert "export function tokenize" in ex._esm


def test_vocab_explorer_table_is_the_static_word_table():
    vocab = Vocab.build(["a b"])
    ex = widgets.vocab_explorer(vocab, text="a <b> & c")
    assert ex.table.html == plots.show_words(vocab, "a <b> & c").html


def test_vocab_explorer_in_russian():
    ex = widgets.vocab_explorer(Vocab.build(["Кошка сидит на ковре."]), text="Собака сидит.", lang="ru")
    assert (ex.labels["text"], ex.labels["token"], ex.labels["id"], ex.labels["decoded"]) == (
        "текст",
        "токен",
        "индекс",
        "после декодирования",
    )
    assert ex.readout() == ["Токенов: 3, из них словарь размером 9 не знает 1."]
    assert ex.labels["summary"] == "Токенов: {n}, из них словарь размером {size} не знает {unknown}."


def test_vocab_explorer_rejects_what_is_not_a_vocab_or_a_text():
    with pytest.raises(TypeError, match=r"vocab must be a course_lib.Vocab.*got list"):
        widgets.vocab_explorer(["the", "cat"])
    with pytest.raises(TypeError, match=r"got int"):
        widgets.vocab_explorer(Vocab.build(["a"]), text=3)
    with pytest.raises(TypeError, match=r"heldout must be a list of strings, got str"):
        widgets.vocab_explorer(Vocab.build(["a"]), heldout="a b")
    ex = widgets.vocab_explorer(Vocab.build(["a"]))
    with pytest.raises(ValueError, match=r"min_freq must be a positive integer, got 0"):
        ex.min_freq = 0
    assert ex.min_freq == 1
    without_counts = widgets.vocab_explorer(Vocab(["<pad>", "<unk>", "<bos>", "<eos>", "cat"]))
    with pytest.raises(ValueError, match=r"has no word counts to cut by min_freq"):
        without_counts.min_freq = 2


def test_vocab_explorer_min_freq_shrinks_the_vocabulary_and_loses_more_of_the_held_out_text():
    corpus = ["the cat sat on the mat", "the dog sat on the log", "a cat and a dog"]
    ex = widgets.vocab_explorer(Vocab.build(corpus), text="the cat ran", heldout=["the cat sat on a rug"])
    assert ex.min_freq == 1 and len(ex.vocab) == len(Vocab.build(corpus))
    assert ex.data["heldout"] == {"the": 1, "cat": 1, "sat": 1, "on": 1, "a": 1, "rug": 1}
    # rug is the one word of six never seen
    assert ex.readout()[0] == (
        "Vocabulary with min_freq = 1: 13 tokens. The held-out text: 1 of its 6 tokens are <unk>, 16.7 %."
    )
    ex.min_freq = 2  # and, log, mat were seen once: none of them is in the held-out text
    assert ex.vocab.itos == Vocab.build(corpus, min_freq=2).itos
    assert ex.ids == Vocab.build(corpus, min_freq=2).encode("the cat ran")
    assert "1 of its 6 tokens are <unk>, 16.7 %" in ex.readout()[0]
    ex.min_freq = 3  # only "the" (4 times) is left
    assert ex.vocab.itos == [*Vocab.SPECIALS, "the"]
    assert ex.readout()[0].startswith("Vocabulary with min_freq = 3: 5 tokens.")
    assert "5 of its 6 tokens are <unk>, 83.3 %" in ex.readout()[0]


def test_vocab_explorer_without_counts_has_no_slider():
    ex = widgets.vocab_explorer(Vocab(["<pad>", "<unk>", "<bos>", "<eos>", "cat"]), text="cat dog")
    assert ex.data["counts"] is None and ex.min_freq == 1
    assert ex.ids == [4, 1]


def test_vocab_explorer_texts_come_from_the_catalogue():
    set_language(PSEUDO)
    ex = widgets.vocab_explorer(Vocab.build(SENTENCES), text="the cat", heldout=["the bird"])
    assert {k: v for k, v in ex.labels.items() if not v.startswith("⟦")} == {}
    assert all(line.startswith("⟦") for line in ex.readout())


def test_vocab_explorer_readout_in_russian_uses_a_decimal_comma():
    ex = widgets.vocab_explorer(Vocab.build(["a b c"]), text="a", lang="ru", heldout=["a b d"])
    assert "Отложенный текст: токенов 3, из них <unk> — 1, 33,3 %." in ex.readout()[0]


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
    "embedding": (
        lambda: widgets.embedding_explorer(SENTENCES[:2], d_model=8),
        lambda ex: setattr(ex.show, "value", "sum"),
    ),
    "balance": (lambda: make_balance_explorer(), lambda ex: setattr(ex.scale, "value", 0.5)),
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
        lambda: widgets.vocab_explorer(Vocab.build(["a"]), heldout="a"),
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


def test_a_live_explorer_is_written_by_its_parameters_not_its_address():
    # the notebook keeps this text beside the widget: an address would change at every build
    assert repr(widgets.table_explorer(d_model=8, num_positions=4)) == (
        "TableExplorer(d_model=8, num_positions=4, base=10000.0)"
    )
    assert (
        repr(widgets.rotation_explorer(d_model=8))
        == "RotationExplorer(pos=3, k=2, i=0, d_model=8, base=10000.0)"
    )


def test_every_saved_live_explorer_runs_the_current_javascript():
    # the module is part of a notebook's saved widget state: after a change to js/, the lessons with
    # live explorers must be rebuilt, or the site, the decks and JupyterLab would run the old one
    current = {explorer._esm for explorer in widgets.LiveExplorer.__subclasses__()}
    stale = []
    for path in sorted(CONFIG.root.glob("notebooks/*/*.ipynb")):
        state = json.loads(path.read_text(encoding="utf-8")).get("metadata", {}).get("widgets", {})
        models = state.get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
        stale += [
            f"{CONFIG.relative(path)}: run `make notebooks L={path.name[:2]}`"
            for model in models.values()
            if model["model_module"] == "anywidget" and model["state"]["_esm"] not in current
        ]
    assert stale == []
