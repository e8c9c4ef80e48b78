"""course_lib.widgets: moving a slider changes what is drawn, and it is the right data."""

import functools
import json
import re

import numpy as np
import pytest
import torch

from course_lib import Vocab, i18n, plots, set_language, sinusoidal_table, widgets
from course_lib.bpe import BPETokenizer
from course_lib.i18n import PSEUDO, catalogues
from course_lib.portable import step_exponent
from course_lib.widgets import registry
from course_lib.widgets.live import bounds_of
from course_tools.core.config import CONFIG

SENTENCES = ["the cat sat on the mat", "a dog", "the dog sat on the cat and the mat"]


@pytest.fixture(autouse=True)
def english_by_default():
    set_language("en")
    yield
    set_language("en")


# ----------------------------------------------------------------------------- every explorer


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
        == "Таблица позиционного кодирования: {num_positions} × {d_model}\n(позиции × координаты)"
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


def test_settings_beyond_the_sliders_are_refused():
    # the sliders' ranges bound the settings where the traits are declared (live.Checked): a
    # notebook cannot set, nor save, a table the browser cannot draw in a frame
    with pytest.raises(
        ValueError, match=r"d_model must be an integer from 1 to 512 \(the explorer's range\), got 600"
    ):
        widgets.table_explorer(d_model=600)
    explorer = widgets.table_explorer(lang="ru")
    with pytest.raises(
        ValueError,
        match=r"num_positions: нужно целое число от 1 до 1.024 \(диапазон виджета\), а получено 2000",
    ):
        explorer.num_positions = 2000
    with pytest.raises(ValueError, match=r"base: нужно число от 10 до 1.000.000"):
        explorer.base = 1e7
    assert (explorer.num_positions, explorer.base) == (256, 10000.0)
    assert explorer.limits == {
        "d_model": 512,
        "num_positions": 1024,
        "base_exponent_min": 1.0,
        "base_exponent_max": 6.0,
    }


# the cases and more: every bounded setting of every explorer, at its bounds and past them
# (each explorer's cases are its registry entry's, course_lib/widgets/registry.py)
OUT_OF_RANGE = [
    pytest.param(functools.partial(entry.build, **options), name, value, id=f"{entry.name}-{name}")
    for entry in registry.EXPLORERS
    for name, value, options in entry.absurd
]


@pytest.mark.parametrize("make, name, value", OUT_OF_RANGE)
def test_every_explorer_setting_is_bounded(make, name, value):
    explorer = make()
    before = getattr(explorer, name)
    bound = bounds_of(type(explorer))[name]
    with pytest.raises(
        ValueError, match=rf"{name} must be (an integer|a number) from .* \(the explorer's range\), got"
    ):
        setattr(explorer, name, value)
    assert getattr(explorer, name) == before
    for allowed in (bound["low"], bound["high"]):  # the ends themselves are settings
        if name in ("head_dim", "max_padding", "low_freq_factor"):
            continue  # (an even width; a padding already set above 0; below high_freq_factor, at most 16)
        setattr(explorer, name, allowed)
        assert getattr(explorer, name) == allowed


def test_texts_are_bounded():
    from course_lib import Vocab

    explorer = widgets.vocab_explorer(Vocab.build(["a cat"]))
    with pytest.raises(
        ValueError, match=r"text must be at most 2.000 characters long \(the explorer's limit\), got 2001"
    ):
        explorer.text = "x" * 2001
    explorer.text = "x" * 2000


def test_the_browser_clamps_to_the_same_bounds():
    # each module ends with its class's bounds (live.bounds_module): the JavaScript's guard
    # (js/common.js) clamps saved values to them, tested in tests/browser/test_explorers_saved.py
    for cls in widgets.LiveExplorer.__subclasses__():
        if not isinstance(cls.__dict__.get("_esm"), str):
            continue
        declared = re.search(r"^const BOUNDS = (.*);$", cls._esm, re.M)
        assert declared and json.loads(declared.group(1)) == bounds_of(cls), cls.__name__
        assert "guard(saved, el, BOUNDS, RULES)" in cls._esm, cls.__name__
    assert bounds_of(widgets.RotationExplorer)["k"] == {"default": 2, "low": 0, "high": 50, "integer": True}


def test_rotation_explorer_checks_the_rotation():
    ex = widgets.rotation_explorer(d_model=8, base=10.0, pos=2, k=1, i=1)
    assert ex.limits == {"pos": 100, "k": 50, "i": 3}
    ex.k = 5
    assert ex.error < 1e-12
    assert "P[7]" in ex.readout()
    assert "ω = base^(-2i/d_model) = 0.5623, angle k·ω = 2.8117 rad" in ex.readout()  # 5 · 10^(-2/8)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_exact_rotation_reads_zero(lang):
    # the lesson's own setting turns exactly: the readout writes 0, not 0.0e+00 nor «0,0·10⁰»
    ex = widgets.rotation_explorer(d_model=16, pos=3, k=2, i=0, lang=lang)
    assert ex.error == 0.0
    assert ex.readout().endswith("0).") and "10⁰" not in ex.readout() and "e+00" not in ex.readout()
    assert widgets.table.error_text(2.220446049250313e-16, "ru") == "2,2·10⁻¹⁶"
    assert widgets.table.error_text(2.220446049250313e-16, "en") == "2.2e-16"


def test_rotation_explorer_in_russian():
    ex = widgets.rotation_explorer(lang="ru")
    assert (ex.labels["pos"], ex.labels["k"], ex.labels["i"]) == ("позиция pos", "сдвиг k", "пара i")
    assert "Поворот пары из P[3] на этот угол даёт пару из P[5]" in ex.readout()  # the table is P
    assert "угол k·ω = 2,0000\u00a0рад" in ex.readout()  # ω = 1 for the pair i = 0


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
# a live explorer: the browser scales, adds and draws (tests/browser/test_explorers_more.py); here
# the traits, the data sent to the browser, and what Python computes for it


@pytest.fixture(scope="module")
def sentences_explorer():
    return widgets.embedding_explorer(SENTENCES, d_model=16, seed=0)


def test_embedding_explorer_shows_token_vectors_then_with_positions(sentences_explorer):
    ex = sentences_explorer
    assert isinstance(ex, widgets.LiveExplorer)
    ex.sentence, ex.show = 0, "tokens"
    ids = torch.tensor([ex.vocab.encode(SENTENCES[0])])
    assert ex.ids[0] == ids[0].tolist() and ex.tokens[0] == SENTENCES[0].split()
    # the table the browser gets is the model's own, unscaled, to 4 significant digits of its largest
    # (course_lib.portable: what another CPU computes too); the kernel's trait is exact
    weight = ex.model.token_embedding.embedding.weight
    assert torch.equal(torch.tensor(ex.weight), weight)
    sent = torch.tensor(ex.get_state()["weight"], dtype=torch.float64)
    assert (sent - weight.double()).abs().max() <= 0.5 * 10.0 ** step_exponent(ex.weight)
    assert not torch.equal(sent, weight.double())
    with torch.no_grad():
        tokens_only = ex.model.token_embedding(ids)[0]
        summed = ex.model(ids)[0]
    torch.testing.assert_close(ex.vectors.float(), tokens_only)
    ex.show = "sum"
    torch.testing.assert_close(ex.vectors.float(), summed)
    # what the choice adds is exactly the positional table
    added = ex.vectors - ex.vectors_of(0, "tokens")
    torch.testing.assert_close(added, sinusoidal_table(6, 16, dtype=torch.float64))


def test_embedding_explorer_switches_sentence_with_one_colour_scale(sentences_explorer):
    ex = sentences_explorer
    ex.show, ex.sentence = "tokens", 2
    assert ex.get_state()["sentence"] == 2
    assert ex.vectors.shape == (9, 16)
    # one colour scale for every sentence and both views, so they compare by eye
    assert ex.vmax == max(ex.vectors_of(j, v).abs().max().item() for j in range(3) for v in ("tokens", "sum"))


def test_embedding_explorer_readout_shows_the_repeated_word():
    ex = widgets.embedding_explorer(SENTENCES, d_model=16)
    # "the" at 0 and 4: the same row without positions, two rows with them
    assert ex.readout() == [
        "6 tokens, d_model = 16. RMS of the values shown: "
        + f"{ex.vectors.pow(2).mean().sqrt().item():.2f}.",
        '"the" at positions 0 and 4: its two rows differ by at most 0.00.',
    ]
    ex.show = "sum"
    assert not ex.readout()[1].endswith("0.00.")
    ex.sentence = 1
    assert ex.readout()[1] == "No token comes twice in this sentence."


def test_embedding_explorer_rebuilds_its_model_for_new_parameters():
    ex = widgets.embedding_explorer(SENTENCES[:2], d_model=8, seed=3)
    ex.sentence = 1
    ex.d_model = 4
    assert len(ex.weight[0]) == 4 and ex.model.token_embedding.d_model == 4
    ex.sentences = ["one two"]
    assert ex.sentence == 0 and ex.tokens == [["one", "two"]]
    assert (
        repr(ex) == "EmbeddingExplorer(sentences=['one two'], d_model=4, seed=3, sentence=0, show='tokens')"
    )


def test_embedding_explorer_is_deterministic_and_leaves_the_random_state():
    state = torch.random.get_rng_state()
    a = widgets.embedding_explorer(SENTENCES[:2], d_model=8, seed=3)
    assert torch.equal(torch.random.get_rng_state(), state)
    b = widgets.embedding_explorer(SENTENCES[:2], d_model=8, seed=3)
    assert a.weight == b.weight
    assert isinstance(a.vocab, Vocab) and a.model.positional_encoding.dropout.p == 0.0


def test_embedding_explorer_in_russian():
    ex = widgets.embedding_explorer(["кот сидел на ковре и кот спал"], d_model=8, lang="ru")
    assert ex.labels["sentence"] == "предложение"
    assert (ex.labels["show_tokens"], ex.labels["show_sum"]) == (
        "эмбеддинги токенов",
        "+ позиционное кодирование",
    )
    assert ex.labels["ylabel"] == "токен"
    assert ex.readout()[1] == "«кот» на позициях 0 и 5: две его строки различаются не больше чем на 0,00."


@pytest.mark.parametrize(
    ("trait", "value", "match"),
    [
        (
            "sentence",
            3,
            r"sentence must be the index of a sentence, an integer from 0 to 2 \(3 sentences\), got 3",
        ),
        ("sentence", -1, r"from 0 to 2 \(3 sentences\), got -1"),
        ("show", "positions", r"show must be one of 'tokens', 'sum', got 'positions'"),
        ("sentences", [], r"sentences must be a non-empty list of non-empty strings, got \[\]"),
        ("d_model", 0, r"d_model must be a positive integer, got 0"),
        ("seed", -1, r"seed must be a non-negative integer, got -1"),
    ],
)
def test_embedding_explorer_traits_reject_what_it_cannot_show(sentences_explorer, trait, value, match):
    before = sentences_explorer.get_state()
    with pytest.raises(ValueError, match=match):
        setattr(sentences_explorer, trait, value)
    assert sentences_explorer.get_state() == before


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


def test_balance_explorer_sends_the_weights_at_every_stop(balance_explorer):
    # a live explorer: the browser computes the RMS and the effects and draws
    # (tests/browser/test_explorers_more.py); Python runs the reader's attention at each stop
    from tests.unit.test_plots import balance_setup

    ex = balance_explorer
    assert isinstance(ex, widgets.LiveExplorer)
    assert ex.stops == list(widgets.attention.STOPS) and len(ex.stops) == 41
    assert (ex.stops[0], ex.stops[20], ex.stops[-1]) == (0.01, 1.0, 100.0)
    attention, embed = balance_setup()
    for k in (0, 20, 33):
        expected = plots.attention_balance(attention, embed, "dog bites man", "man bites dog", ex.stops[k])
        for sent, w in zip(ex.weights[k], expected.weights, strict=True):
            assert torch.equal(torch.tensor(sent, dtype=torch.float64), w.double())
    assert ex.vectors[1] == embed("man bites dog").double().tolist()
    assert ex.tokens == [["dog", "bites", "man"], ["man", "bites", "dog"]] and ex.perm == [2, 1, 0]


def test_balance_explorer_readout_is_attention_balance_at_the_scale(balance_explorer):
    from tests.unit.test_plots import balance_setup

    ex = balance_explorer
    ex.scale = 10.0
    assert ex.get_state()["scale"] == 10.0
    expected = plots.attention_balance(*balance_setup(), "dog bites man", "man bites dog", 10.0)
    assert (ex.balance.position_effect, ex.balance.word_effect) == (
        expected.position_effect,
        expected.word_effect,
    )
    assert ex.readout()[0].startswith(f"c = 10.00. RMS of the token vectors × c: {expected.token_rms:.2f}")
    assert f"effect of the positions: {expected.position_effect:.2f}" in ex.readout()[1]


def test_balance_explorer_adds_a_scale_off_the_stops():
    ex = make_balance_explorer(scale=1.5)
    assert 1.5 in ex.stops and len(ex.stops) == 42 and ex.stops == sorted(ex.stops)
    ex.scale = 3.0
    k = ex.stops.index(3.0)
    assert len(ex.stops) == len(ex.weights) == 43
    assert torch.equal(torch.tensor(ex.weights[k][0], dtype=torch.float64), ex.balance.weights[0].double())


def test_balance_explorer_in_russian():
    ex = make_balance_explorer(lang="ru")
    assert ex.labels["scale"] == "множитель токенов c"
    assert ex.labels["title"] == "вход = {scale} · векторы токенов + P"
    assert "влияние позиций" in ex.readout()[1]
    assert ex.readout()[0].startswith("c = 1,00.")


def test_balance_explorer_rejects_what_the_slider_cannot_show():
    with pytest.raises(ValueError, match=r"from 0.01 to 100, the slider's range, got 0"):
        make_balance_explorer(scale=0)
    with pytest.raises(ValueError, match=r"same tokens in another order"):
        widgets.balance_explorer(lambda x: (x, x), lambda t: torch.zeros(2, 4), "dog bites", "man bites")


@pytest.mark.parametrize(
    ("trait", "value", "match"),
    [
        ("scale", 0.001, r"scale must be a number from 0.01 to 100, the slider's range, got 0.001"),
        ("scale", 1000, r"scale must be a number from 0.01 to 100, the slider's range, got 1000"),
        ("first", "man bites dog", r"first is fixed when the explorer is built .*got 'man bites dog'"),
        ("second", "bites dog man", r"second is fixed when the explorer is built .*got 'bites dog man'"),
    ],
)
def test_balance_explorer_traits_reject_what_it_cannot_show(trait, value, match):
    ex = make_balance_explorer()
    with pytest.raises(ValueError, match=match):
        setattr(ex, trait, value)
    assert (ex.scale, ex.first, ex.second, len(ex.stops)) == (1.0, "dog bites man", "man bites dog", 41)


# ----------------------------------------------------------------------------- every text from the catalogue


def test_catalogue_has_every_language_with_the_same_placeholders():
    assert catalogues()["widgets"] is widgets.MESSAGES
    assert widgets.MESSAGES.problems() == []


LIVE_PSEUDO_EXPLORERS = {
    "left_padding": lambda: widgets.left_padding_explorer(["the", "dog"]),
    "embedding": lambda: widgets.embedding_explorer(SENTENCES[:2], d_model=8),
    "balance": lambda: make_balance_explorer(),
    "comparator": lambda: widgets.tokenizer_comparator(BPETokenizer.train(["a cat"], vocab_size=260)),
}


@pytest.mark.parametrize("name", sorted(LIVE_PSEUDO_EXPLORERS))
def test_every_text_of_a_live_explorer_with_data_comes_from_the_catalogue(name):
    # as for lesson 5's above, for those built on data (tokens, sentences): every label and template
    set_language(PSEUDO)
    explorer = LIVE_PSEUDO_EXPLORERS[name]()
    assert explorer.lang == PSEUDO
    assert {key: text for key, text in explorer.labels.items() if not text.startswith("⟦")} == {}
    readout = explorer.readout()
    assert all(line.startswith("⟦") for line in ([readout] if isinstance(readout, str) else readout))


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


# ----------------------------------------------------------------------------- live explorers


def test_a_live_explorer_is_written_by_its_parameters_not_its_address():
    # the notebook keeps this text beside the widget: an address would change at every build
    assert repr(widgets.table_explorer(d_model=8, num_positions=4)) == (
        "TableExplorer(d_model=8, num_positions=4, base=10000.0)"
    )
    assert (
        repr(widgets.rotation_explorer(d_model=8))
        == "RotationExplorer(pos=3, k=2, i=0, d_model=8, base=10000.0)"
    )


def test_a_live_explorer_sends_how_its_language_writes_numbers(monkeypatch):
    # the JavaScript names no language: each explorer sends its language's symbols with its state
    # (i18n.number_symbols, the locale's CLDR data through Babel, as format_number writes them)
    assert widgets.table_explorer(lang="ru").get_state()["numbers"] == {
        "decimal": ",",
        "group": " ",
        "minus": "\u2212",
        "power_of_ten": True,
    }
    # (read before LiveExplorer itself is made below: anywidget gives that instance a subclass of
    # LiveExplorer whose _esm is a trait, not a module)
    modules = [explorer._esm for explorer in widgets.LiveExplorer.__subclasses__()]
    assert [m[:60] for m in modules if re.search(r"[\"'`](en|ru)[\"'`]", m)] == []
    # a third language is data: its code in LANGUAGES, and every explorer's constructor, through
    # LiveExplorer's, sends its locale's symbols to the same JavaScript
    monkeypatch.setattr(i18n, "LANGUAGES", (*i18n.LANGUAGES, "de"))
    german = widgets.LiveExplorer("de", {})
    assert german.get_state()["numbers"] == {
        "decimal": ",",
        "group": " ",
        "minus": "-",
        "power_of_ten": False,
    }
    assert german.numbers == i18n.number_symbols("de")


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


# what the site's home page, the READMEs and docs/ say of the explorers: live in the page, with no kernel
# (they once said the widgets showed their saved state and only a running notebook moved them)
STATIC_CLAIMS = [
    r"run the notebook",
    r"запустите ноутбук",
    r"state they were saved in",
    r"сохранённом состоянии, рядом",
    r"Sliders stay in the notebooks",
    r"Слайдеры остаются в ноутбуках",
    r"to move it and watch the figure follow",
    r"чтобы двигать слайдер и видеть",
]


def test_the_home_page_and_the_documents_say_the_explorers_are_live():
    from course_tools.publish.messages import SITE

    texts = {lang: SITE("intro", lang) for lang in i18n.LANGUAGES}
    documents = [*CONFIG.root.glob("README*.md"), *(CONFIG.root / "docs").glob("*.md")]
    assert len(documents) >= 6
    texts |= {path.name: path.read_text(encoding="utf-8") for path in documents}
    for where, text in texts.items():
        flat = " ".join(text.split())
        assert [claim for claim in STATIC_CLAIMS if re.search(claim, flat)] == [], where
    assert "live in the page, with no kernel" in texts["en"]
    assert "прямо на странице, без ядра" in texts["ru"]
