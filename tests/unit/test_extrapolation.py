"""course_lib.extrapolation (lesson 7): the task, the model, what training touches, and the figure and explorer.

The experiment itself (about 12 s of CPU time) runs in lesson 7, whose cells assert what it shows; here
every piece runs on a few training steps.
"""

import math
import re

import numpy as np
import pytest
import torch
from matplotlib.figure import Figure

from course_lib import (
    LearnedPositionalEmbedding,
    NoPositionalEncoding,
    PositionalEncoding,
    alibi_bias,
    plots,
    widgets,
)
from course_lib import extrapolation as ex
from course_lib.i18n import PSEUDO
from course_lib.plots.extrapolation import MESSAGES as PLOT_MESSAGES
from tests.unit.test_plots import assert_pseudo_localised

SMALL = ex.Config(steps=3, batch_size=8, train_len=8, test_len=16, min_len=3)


@pytest.fixture(scope="module")
def results():
    return ex.run(SMALL, seed=0)


def batch(cfg, n=10, b=4, seed=0):
    return ex.make_batch(cfg, n, b, torch.Generator().manual_seed(seed))


# ----------------------------------------------------------------------------- the tasks


def test_shift_says_the_token_k_places_back():
    cfg = ex.Config(k=2)
    x, y = batch(cfg)
    assert x.shape == y.shape == (4, 10)
    assert (y[:, :2] == ex.IGNORE).all()
    assert torch.equal(y[:, 2:], x[:, :-2])
    assert 0 <= x.min() and x.max() < cfg.vocab_size


def test_lookup_says_the_token_at_position_k():
    x, y = batch(ex.Config(task="lookup", k=2))
    assert (y[:, :3] == ex.IGNORE).all()
    assert torch.equal(y[:, 3:], x[:, 2:3].expand(-1, 7))


def test_the_same_generator_seed_gives_the_same_batch():
    assert all(torch.equal(a, b) for a, b in zip(batch(SMALL), batch(SMALL), strict=True))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"task": "copy"}, r"task must be one of 'shift', 'lookup', got 'copy'"),
        ({"d_model": 30, "n_heads": 4}, r"d_model=30 must split into n_heads=4 heads of an even width"),
        ({"d_model": 0}, r"d_model must be a positive integer, got 0"),
        (
            {"min_len": 20},
            r"the lengths must not decrease, and k must be smaller: k=1 < min_len=20 <= train_len=16 <= test_len=64",
        ),
        ({"k": 4}, r"the lengths must not decrease, and k must be smaller: k=4 < min_len=4"),
        ({"test_len": 8}, r"train_len=16 <= test_len=8"),
        ({"task": "lookup", "k": 3}, r"the lookup task needs k \+ 1 < min_len, got k=3, min_len=4"),
        ({"lr": 0}, r"lr must be a positive number, got 0"),
        ({"lr": "3e-3"}, r"lr must be a positive number, got '3e-3'"),
        ({"steps": 2.5}, r"steps must be a positive integer, got 2.5"),
    ],
)
def test_config_says_what_is_wrong(changes, message):
    with pytest.raises(ValueError, match=message):
        ex.Config(**changes)


@pytest.mark.parametrize("bad", [torch.float16, torch.int64, "float64", None])
def test_config_names_a_dtype_it_cannot_train_in(bad):
    with pytest.raises(
        TypeError, match=rf"dtype must be torch.float32 or torch.float64, got {re.escape(repr(bad))}"
    ):
        ex.Config(dtype=bad)


def test_config_says_it_in_russian(lang):
    if lang != "ru":
        return
    with pytest.raises(ValueError, match=r"задаче lookup нужно k \+ 1 < min_len"):
        ex.Config(task="lookup", k=3)
    with pytest.raises(
        ValueError, match=r"размерность модели d_model=30 должна делиться на n_heads=4 голов чётной ширины"
    ):
        ex.Config(d_model=30, n_heads=4)
    with pytest.raises(
        TypeError,
        match=r"тип чисел dtype должен быть torch.float32 или torch.float64, а получено torch.float16",
    ):
        ex.Config(dtype=torch.float16)


# ----------------------------------------------------------------------------- the model


@pytest.mark.parametrize("variant", ex.VARIANTS)
def test_model_maps_token_ids_to_logits(variant):
    model = ex.TinyTransformer(SMALL, variant)
    x, _ = batch(SMALL, n=7, b=3)
    assert model(x).shape == (3, 7, SMALL.vocab_size)


def test_each_variant_uses_the_course_module():
    kinds = {v: type(ex.TinyTransformer(SMALL, v).pos) for v in ex.VARIANTS}
    assert kinds == {
        "sinusoidal": PositionalEncoding,
        "learned": LearnedPositionalEmbedding,
        "none": NoPositionalEncoding,
        "rotary": NoPositionalEncoding,
        "alibi": NoPositionalEncoding,
    }
    rotary = ex.TinyTransformer(SMALL, "rotary")
    assert all(block.attn.rotary is rotary.blocks[0].attn.rotary is not None for block in rotary.blocks)
    assert rotary.blocks[0].attn.rotary.head_dim == SMALL.head_dim


def test_every_variant_starts_from_the_same_weights_but_its_positions():
    models = {}
    for variant in ex.VARIANTS:
        torch.manual_seed(3)
        models[variant] = ex.TinyTransformer(SMALL, variant).state_dict()
    shared = models["none"]
    for variant, state in models.items():
        assert set(state) - set(shared) == ({"pos.weight"} if variant == "learned" else set())
        assert all(torch.equal(state[name], shared[name]) for name in shared)


@pytest.mark.parametrize("variant", ex.VARIANTS)
def test_a_causal_model_never_looks_ahead(variant):
    model = ex.TinyTransformer(SMALL, variant).eval()
    x, _ = batch(SMALL, n=12, b=2)
    changed = x.clone()
    changed[:, 7:] = (changed[:, 7:] + 1) % SMALL.vocab_size
    with torch.no_grad():
        assert torch.equal(model(x)[:, :7], model(changed)[:, :7])
        assert torch.allclose(model(x[:, :7]), model(x)[:, :7], atol=1e-5)


def test_an_encoder_without_positions_is_blind_to_order():
    cfg = ex.Config(causal=False, train_len=8, test_len=16)
    model = ex.TinyTransformer(cfg, "none").eval()
    x, _ = batch(cfg, n=9, b=2)
    perm = torch.randperm(9, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        assert torch.allclose(model(x[:, perm]), model(x)[:, perm], atol=1e-5)


def test_alibi_adds_the_course_bias_to_every_score():
    model = ex.TinyTransformer(SMALL, "alibi")
    x, _ = batch(SMALL, n=9, b=2)
    h = model.pos(model.tok(x))  # (b, n, d_model)
    for block in model.blocks:
        assert block.attn.rotary is None
        torch.testing.assert_close(
            block.attn.alibi, alibi_bias(SMALL.n_heads, SMALL.test_len), rtol=0, atol=0
        )
        with torch.no_grad():
            q, k, _ = block.attn.project(block.ln1(h))
            scores, _ = block.attn.scores(block.ln1(h))
        plain = q @ k.transpose(-2, -1) / math.sqrt(SMALL.head_dim)  # (b, heads, n, n)
        torch.testing.assert_close(scores - plain, alibi_bias(SMALL.n_heads, 9).expand(2, -1, -1, -1))
    assert not any(name.endswith("alibi") for name in model.state_dict())  # derived: never in a checkpoint
    assert all(block.attn.alibi is None for block in ex.TinyTransformer(SMALL, "rotary").blocks)


def test_unknown_positions_are_named():
    with pytest.raises(
        ValueError,
        match=r"positions must be one of 'sinusoidal', 'learned', 'none', 'rotary', 'alibi', got 't5'",
    ):
        ex.TinyTransformer(SMALL, "t5")
    with pytest.raises(ValueError, match=r"got 't5'"):
        ex.run(SMALL, variants=["learned", "t5"])


def test_a_sequence_longer_than_the_tables_is_refused():
    model = ex.TinyTransformer(SMALL, "learned")
    with pytest.raises(ValueError, match=r"sequence length 17 exceeds max_len=16"):
        model(torch.zeros(1, 17, dtype=torch.long))


# ----------------------------------------------------------------------------- training and testing


def test_training_never_touches_the_rows_beyond_the_training_length():
    torch.manual_seed(0)
    before = ex.TinyTransformer(SMALL, "learned").pos.weight.detach().clone()  # (test_len, d_model)
    model, loss, seconds = ex.train(SMALL, "learned", seed=0)
    after = model.pos.weight.detach()
    L = SMALL.train_len
    assert torch.equal(after[L:], before[L:])  # plain Adam: no gradient, no change, bit for bit
    seen = SMALL.min_len  # every training sequence is at least this long
    assert not (after[:seen] == before[:seen]).all(dim=1).any()  # every row of every batch moved
    assert not model.training and math.isfinite(loss) and seconds >= 0


@pytest.mark.parametrize("variant", ex.VARIANTS)
def test_a_float64_model_draws_its_weights_in_float64_and_trains_in_it(variant):
    cfg = ex.Config(steps=3, batch_size=8, train_len=8, test_len=16, min_len=3, dtype=torch.float64)
    torch.manual_seed(0)
    model = ex.TinyTransformer(cfg, variant)
    assert torch.get_default_dtype() == torch.float32  # restored after the model is built
    floats = {t.dtype for t in [*model.parameters(), *model.buffers()] if t.is_floating_point()}
    # PositionalEncoding keeps its table in float32 and adds its rows in the input's dtype
    assert floats == ({torch.float32, torch.float64} if variant == "sinusoidal" else {torch.float64})
    # drawn in float64, not a float32 draw cast: its last bits would be another CPU's to round
    assert not torch.equal(model.tok.embedding.weight, model.tok.embedding.weight.float().double())
    x, _ = batch(cfg)
    assert model(x).dtype == torch.float64
    trained, loss, _ = ex.train(cfg, variant, seed=0)
    assert all(p.dtype == torch.float64 for p in trained.parameters()) and math.isfinite(loss)


def test_training_is_reproducible():
    (a, loss_a, _), (b, loss_b, _) = ex.train(SMALL, "rotary", 5), ex.train(SMALL, "rotary", 5)
    assert loss_a == loss_b
    assert all(torch.equal(p, q) for p, q in zip(a.parameters(), b.parameters(), strict=True))


def test_evaluate_counts_right_answers_where_there_is_a_target():
    model, _, _ = ex.train(SMALL, "none", 0)
    by_length, hits = ex.evaluate(model, SMALL, [4, 16], n_seqs=5)
    assert hits.shape == (5, 16)
    assert hits[:, 0].isnan().all() and not hits[:, 1:].isnan().any()
    assert set(hits[:, 1:].unique().tolist()) <= {0.0, 1.0}
    assert list(by_length) == [4, 16]
    # a causal model: the first n tokens of the longest sequences are sequences of length n
    assert by_length[16] == pytest.approx(hits.nanmean().item())
    assert by_length[4] == pytest.approx(hits[:, :4].nanmean().item())
    with pytest.raises(ValueError, match=r"a test length must be in 2 .. test_len=16, got 17"):
        ex.evaluate(model, SMALL, [17])


def test_run_trains_each_variant_on_one_thread_and_restores_the_count(results):
    threads = torch.get_num_threads()
    ex.run(SMALL, variants=["learned"])
    assert torch.get_num_threads() == threads
    assert list(results) == list(ex.VARIANTS)
    for variant, r in results.items():
        assert r.variant == variant and r.model.positions == variant
        assert sorted(r.by_length) == [4, 8, 16]
        assert r.by_position.shape == (16,)
        assert r.beyond(8) == pytest.approx(r.hits[:, 8:].nanmean().item())


def test_attention_by_distance_reads_the_last_query(results):
    model = results["rotary"].model
    scores = ex.attention_by_distance(model, SMALL, n_seqs=3)
    assert scores.shape == (SMALL.n_layers, SMALL.n_heads, SMALL.test_len)
    x, _ = ex.make_batch(SMALL, SMALL.test_len, 3, torch.Generator().manual_seed(99))
    with torch.no_grad():
        first, _ = model.blocks[0].attn.scores(model.blocks[0].ln1(model.pos(model.tok(x))))
    # distance d: the key d places before the last query
    assert torch.allclose(scores[0, :, 0], first[:, :, -1, -1].mean(0))
    assert torch.allclose(scores[0, :, 5], first[:, :, -1, -6].mean(0))


def test_attention_weights_by_distance_are_the_softmax_of_each_sequence(results):
    model = results["alibi"].model
    shares = ex.attention_by_distance(model, SMALL, n_seqs=3, weights=True)
    assert shares.shape == (SMALL.n_layers, SMALL.n_heads, SMALL.test_len)
    torch.testing.assert_close(shares.sum(-1), torch.ones(SMALL.n_layers, SMALL.n_heads))
    x, _ = ex.make_batch(SMALL, SMALL.test_len, 3, torch.Generator().manual_seed(99))
    with torch.no_grad():
        first, _ = model.blocks[0].attn.scores(model.blocks[0].ln1(model.pos(model.tok(x))))
    # the mean of the softmaxes, not the softmax of the mean
    torch.testing.assert_close(shares[0], first[:, :, -1].softmax(-1).mean(0).flip(-1))
    with pytest.raises(ValueError, match=r"by_pair splits scores, and weights are not a sum of pair terms"):
        ex.attention_by_distance(model, SMALL, by_pair=True, weights=True)


@pytest.mark.parametrize("interleaved", [True, False])
def test_attention_by_pair_splits_each_score_into_the_pairs_rope_turns_together(results, interleaved):
    model = results["rotary"].model
    for block in model.blocks:  # the same module, shared by the blocks
        block.attn.rotary.interleaved = interleaved
    x, _ = ex.make_batch(SMALL, SMALL.test_len, 3, torch.Generator().manual_seed(99))
    try:
        scores = ex.attention_by_distance(model, SMALL, n_seqs=3)
        pairs = ex.attention_by_distance(model, SMALL, n_seqs=3, by_pair=True)
        with torch.no_grad():
            h = model.blocks[0](model.pos(model.tok(x)))
            q, k, _ = model.blocks[1].attn.project(model.blocks[1].ln1(h))  # the last layer
    finally:
        for block in model.blocks:
            block.attn.rotary.interleaved = True
    assert pairs.shape == (SMALL.n_layers, SMALL.n_heads, SMALL.test_len, SMALL.head_dim // 2)
    torch.testing.assert_close(pairs.sum(-1), scores, rtol=1e-5, atol=1e-5)
    # pair 1 of the last layer, key 3 back: the terms of columns 2, 3 (or 1, 1 + head_dim / 2)
    terms = (q[:, :, -1] * k[:, :, -4] / math.sqrt(SMALL.head_dim)).mean(0)  # (heads, head_dim)
    half = SMALL.head_dim // 2
    pair_1 = terms[:, 2] + terms[:, 3] if interleaved else terms[:, 1] + terms[:, 1 + half]
    torch.testing.assert_close(pairs[1, :, 3, 1], pair_1)


# ----------------------------------------------------------------------------- the figures


def test_plot_draws_accuracy_by_length_and_position(results, lang):
    fig = plots.plot_extrapolation(results, SMALL)
    assert isinstance(fig, Figure)
    by_len, by_pos = fig.axes
    for line, (variant, r) in zip(by_pos.get_lines(), results.items(), strict=False):
        np.testing.assert_array_equal(line.get_ydata(), r.by_position.numpy())
        assert line.get_label() == PLOT_MESSAGES(variant, lang)
    lengths, accuracy = by_len.get_lines()[0].get_data()
    assert list(lengths) == [4, 8, 16] and list(accuracy) == list(results["sinusoidal"].by_length.values())
    assert by_pos.get_xlabel() == PLOT_MESSAGES("position", lang)


def test_plot_of_scores_has_a_line_per_layer_and_head(results):
    scores = ex.attention_by_distance(results["rotary"].model, SMALL, n_seqs=2)
    ax = plots.plot_attention_by_distance(scores, SMALL).axes[0]
    assert len([line for line in ax.get_lines() if line.get_label().startswith("layer")]) == 4


def test_plot_of_scores_names_its_variant(results, lang):
    scores = ex.attention_by_distance(results["alibi"].model, SMALL, n_seqs=2)
    ax = plots.plot_attention_by_distance(scores, SMALL, variant="alibi").axes[0]
    assert ax.get_title() == PLOT_MESSAGES("scores_title_alibi", lang)
    with pytest.raises(ValueError, match=r"variant.*'rotary', 'alibi'.* 'none'"):
        plots.plot_attention_by_distance(scores, SMALL, variant="none")


def test_plot_of_pairs_has_a_bar_per_pair_and_distance(results, lang):
    pairs = ex.attention_by_distance(results["rotary"].model, SMALL, n_seqs=2, by_pair=True)
    fig = plots.extrapolation.plot_score_by_pair(pairs, SMALL, distances=(1, 5))
    assert len(fig.axes) == SMALL.n_heads
    bars = fig.axes[1].patches  # head 1 of the last layer: pairs at distance 1, then at distance 5
    assert len(bars) == 2 * SMALL.head_dim // 2
    heights = [bar.get_height() for bar in bars]
    np.testing.assert_allclose(heights, torch.cat([pairs[-1, 1, 1], pairs[-1, 1, 5]]).numpy())
    assert fig.axes[0].get_xlabel() == PLOT_MESSAGES("pair", lang)


def test_every_title_fits_inside_the_figure_and_beside_the_others(results, lang):
    # the Russian title of the right panel once ran past the figure's right edge in lesson 7
    # ("... из 64 токено"); SMALL's test length has as many digits as the lesson's 64, and
    # DejaVu Sans draws every digit the same width
    scores = ex.attention_by_distance(results["rotary"].model, SMALL, n_seqs=2)
    pairs = ex.attention_by_distance(results["rotary"].model, SMALL, n_seqs=2, by_pair=True)
    for fig in (
        plots.plot_extrapolation(results, SMALL),
        plots.plot_attention_by_distance(scores, SMALL),
        plots.extrapolation.plot_score_by_pair(pairs, SMALL, distances=(1, 5)),
    ):
        fig.canvas.draw()
        renderer, box = fig.canvas.get_renderer(), fig.bbox
        titles = [t for t in [ax.title for ax in fig.axes] + [fig._suptitle] if t and t.get_text()]
        extents = [t.get_window_extent(renderer) for t in titles]
        for title, extent in zip(titles, extents, strict=True):
            assert box.x0 <= extent.x0 and extent.x1 <= box.x1 and extent.y1 <= box.y1, title.get_text()
        for i, a in enumerate(extents):
            assert not any(a.overlaps(b) for b in extents[i + 1 :]), [t.get_text() for t in titles]


@pytest.mark.parametrize("bad", [SMALL.test_len, -1, 1.5, "1"])
def test_plot_of_pairs_names_a_distance_out_of_range(results, bad):
    pairs = ex.attention_by_distance(results["rotary"].model, SMALL, n_seqs=2, by_pair=True)
    with pytest.raises(
        ValueError, match=rf"a distance must be an integer in 0 \.\. {SMALL.test_len - 1}, got"
    ):
        plots.extrapolation.plot_score_by_pair(pairs, SMALL, distances=(1, bad))


@pytest.mark.parametrize("bad", [{}, [1, 2], {"learned": 0.5}, None])
def test_plot_names_what_it_needs(bad):
    with pytest.raises(TypeError, match=r"results must be the non-empty dict that extrapolation.run returns"):
        plots.plot_extrapolation(bad, SMALL)


def test_figures_are_localised(results):
    from course_lib import set_language

    set_language(PSEUDO)
    assert_pseudo_localised(plots.plot_extrapolation(results, SMALL), data=("NoPE", "RoPE"))
    scores = ex.attention_by_distance(results["rotary"].model, SMALL, n_seqs=2)
    assert_pseudo_localised(plots.plot_attention_by_distance(scores, SMALL))
    pairs = ex.attention_by_distance(results["rotary"].model, SMALL, n_seqs=2, by_pair=True)
    assert_pseudo_localised(plots.extrapolation.plot_score_by_pair(pairs, SMALL, distances=(1, 5)))


# ----------------------------------------------------------------------------- the explorer


def test_explorer_shows_the_first_n_positions(results, lang):
    explorer = widgets.extrapolation_explorer(results, SMALL)
    assert isinstance(explorer, widgets.LiveExplorer)
    assert explorer.length == SMALL.test_len and explorer.shown == list(results)
    explorer.length = 6
    assert explorer.get_state()["length"] == 6
    for variant, r in results.items():
        np.testing.assert_array_equal(
            explorer.by_position(variant), r.hits[:, :6].double().nanmean(0).numpy()
        )
        assert explorer.accuracy[variant] == pytest.approx(r.hits[:, :6].nanmean().item())
    lines = explorer.readout()
    at_length = {"en": "at length 6;", "ru": "на длине 6 "}[lang]
    assert len(lines) == len(results) and all(at_length in line for line in lines)


def test_explorer_sends_the_counts_the_browser_draws(results):
    explorer = widgets.extrapolation_explorer(results, SMALL)
    data = explorer.data
    assert (data["train_len"], data["test_len"], data["chance"]) == (8, 16, 1 / SMALL.vocab_size)
    for sent, (variant, r) in zip(data["variants"], results.items(), strict=True):
        assert sent["name"] == variant and sent["colour"].startswith("#")
        right, targets = torch.tensor(sent["right"]), torch.tensor(sent["targets"])
        assert right.shape == targets.shape == (SMALL.test_len,)
        # right / targets is the accuracy at each position, the same float64 as nanmean's
        torch.testing.assert_close(right / targets.double(), r.hits.double().nanmean(0), equal_nan=True)
    assert explorer._esm.startswith("// What every live explorer shares")
    assert "export function byPosition" in explorer._esm


def test_explorer_says_what_lies_beyond_the_training_length(results, lang):
    from course_lib.widgets.extrapolation import MESSAGES as WIDGET_MESSAGES

    explorer = widgets.extrapolation_explorer(results, SMALL, length=SMALL.train_len)
    nothing = WIDGET_MESSAGES("no_unseen", lang)
    assert all(line.endswith(nothing) for line in explorer.readout())
    explorer.length = SMALL.train_len + 4
    beyond = widgets.extrapolation.percent(results["learned"].hits[:, SMALL.train_len : SMALL.train_len + 4])
    assert all(not line.endswith(nothing) for line in explorer.readout())
    share = {"en": f" {beyond} %", "ru": f" {beyond}\u00a0%"}[lang]  # Russian: a non-breaking space before %
    assert any(line.endswith(share) for line in explorer.readout())


def test_explorer_hides_an_unchecked_variant(results):
    explorer = widgets.extrapolation_explorer(results, SMALL, length=12)
    explorer.shown = ["rotary", "none"]
    assert explorer.shown == ["none", "rotary"]  # in the order of the results
    assert sorted(explorer.accuracy) == ["none", "rotary"]
    explorer.shown = ["rotary"]
    assert "NoPE" not in "".join(explorer.readout()) and len(explorer.readout()) == 1


def test_explorer_refuses_an_encoder(results):
    with pytest.raises(ValueError, match=r"holds for a causal model only"):
        widgets.extrapolation_explorer(results, ex.Config(causal=False))


def test_explorer_refuses_bad_settings(results):
    with pytest.raises(
        ValueError, match=r"length must be an integer in 2 \.\. 16 \(the test length\), got 17"
    ):
        widgets.extrapolation_explorer(results, SMALL, length=17)
    with pytest.raises(ValueError, match=r"got 2\.5"):
        widgets.extrapolation_explorer(results, SMALL, length=2.5)
    explorer = widgets.extrapolation_explorer(results, SMALL, length=10)
    with pytest.raises(ValueError, match=r"length must be an integer in 2 \.\. 16 .*, got 1$"):
        explorer.length = 1
    with pytest.raises(ValueError, match=r"shown must be one of 'sinusoidal', .*'alibi', got 'cosine'"):
        explorer.shown = ["learned", "cosine"]
    assert (explorer.length, explorer.shown) == (10, list(results))
    with pytest.raises(TypeError, match=r"results must be the non-empty dict"):
        widgets.extrapolation_explorer({}, SMALL)


def test_explorer_is_written_by_its_parameters(results):
    explorer = widgets.extrapolation_explorer(results, SMALL, length=9)
    explorer.shown = ["learned"]
    assert repr(explorer) == "ExtrapolationExplorer(length=9, shown=['learned'])"


def test_explorer_is_localised(results):
    from course_lib import set_language

    set_language(PSEUDO)
    explorer = widgets.extrapolation_explorer(results, SMALL)
    texts = [
        explorer.labels[k] for k in ("length", "variants", "title", "xlabel", "ylabel", "unseen", "chance")
    ]
    assert all(t.startswith("⟦") for t in texts), texts
    assert all(v["label"].startswith("⟦") for v in explorer.data["variants"])
    assert all(line.startswith("⟦") for line in explorer.readout())
