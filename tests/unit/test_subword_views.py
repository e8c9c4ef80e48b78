"""Lesson 2's views of subword tokens: the coloured rows, the fertility figure and the explorer."""

import html
import re

import pytest

from course_lib import plots, set_language, widgets
from course_lib.bpe import BPETokenizer, course_corpus
from course_lib.i18n import PSEUDO, catalogues, format_decimal
from course_lib.plots import tokens as token_plots
from course_lib.widgets import tokens as token_widgets
from tests.unit.test_plots import assert_pseudo_localised

TEXTS = ["the cat sat on the mat", "the dog sat on the log", "кошка сидит на ковре"] * 3


@pytest.fixture(scope="module")
def tok():
    return BPETokenizer.train(TEXTS, vocab_size=300)


def _raises(error, catalogue, key, fn, **values):
    with pytest.raises(error, match=re.escape(catalogue(key, **values))):
        fn()


# ----------------------------------------------------------------------------- coloured tokens


def test_spans_colour_each_token_with_its_id_and_mark_cut_characters(tok):
    text = "the cat\n<b>&😀"
    block, n, cut = plots.tokens.token_spans(tok, text)
    ids = tok.encode(text)
    assert n == len(ids) == block.count("<span")
    assert re.findall(r'title="(\d+)"', block) == [str(i) for i in ids]
    assert cut  # the emoji was never seen: four bytes, none a whole character
    assert block.count("dashed") == 4
    assert "&lt;" in block and "&amp;" in block and "<b>" not in block
    assert "↵</span><br>" in block  # the line break shows, and still breaks the line
    colours = re.findall(r"background-color: (#\w+)", block)
    assert all(a != b for a, b in zip(colours, colours[1:], strict=False))  # neighbours differ
    assert not plots.tokens.token_spans(tok, "the cat")[2]


def test_rows_show_each_tokenizer_with_its_size_and_count(tok, lang):
    small = tok.truncate(259)
    rows = plots.show_tokens([small, tok], "the cat sat")
    assert rows.sizes == [259, 300]
    assert rows.tokens == [small.tokens("the cat sat"), tok.tokens("the cat sat")]
    for size, tokens in zip(rows.sizes, rows.tokens, strict=True):
        label = token_plots.MESSAGES("row_label", size=size, n=len(tokens))
        assert html.escape(label) in rows._repr_html_()
        assert f"{label} | {'|'.join(tokens)}" in repr(rows)
    assert token_plots.MESSAGES("cut_bytes")[:10] not in rows.html
    assert html.escape(token_plots.MESSAGES("cut_bytes")) in plots.show_tokens([tok], "😀").html


def test_rows_reject_what_is_not_tokenizers_or_text(tok, lang):
    msg = token_plots.MESSAGES
    _raises(ValueError, msg, "no_tokenizers", lambda: plots.show_tokens([], "a"), value=[])
    _raises(ValueError, msg, "no_tokenizers", lambda: plots.show_tokens(tok, "a"), value=tok)
    _raises(
        TypeError,
        msg,
        "not_tokenizer",
        lambda: plots.show_tokens([tok, "x"], "a"),
        name="tokenizers[i]",
        type_name="str",
    )
    _raises(TypeError, msg, "not_text", lambda: plots.show_tokens([tok], b"a"), type_name="bytes")


def test_decimal_mark_follows_the_language():
    assert format_decimal(1.955, 1, "en") == "2.0"
    assert format_decimal(9.0, 2, "ru") == "9,00"


# ----------------------------------------------------------------------------- fertility


def test_fertility_draws_each_curve_and_a_single_point_as_a_marker(lang):
    curves = {"EN": {300: 4.6, 1000: 2.4, 4000: 1.7}, "RU": {4000: 2.0, 300: 6.2}, "EN-only": {2421: 9.0}}
    fig = plots.plot_fertility(curves)
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(lines.get("EN").get_xdata()) == [300, 1000, 4000]
    assert list(lines["RU"].get_xdata()) == [300, 4000] and list(lines["RU"].get_ydata()) == [6.2, 2.0]
    assert lines["EN-only"].get_linestyle() == "None" and lines["EN-only"].get_marker() == "o"
    assert len(lines) == 3
    assert ax.get_xscale() == "log"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["300", "1000", "4000"]
    assert [t.get_text() for t in ax.texts] == ["2421"]  # a single point says its size beside it
    # a size too close to the last one labelled keeps its tick, without a label that would overlap
    close = plots.plot_fertility({"EN": {259: 5.7, 300: 4.6, 500: 3.1}}).axes[0]
    assert [t.get_text() for t in close.get_xticklabels()] == ["259", "", "500"]
    assert ax.get_xlabel() == token_plots.MESSAGES("vocab_size")
    assert ax.get_ylabel() == token_plots.MESSAGES("tokens_per_word")
    assert ax.get_title() == token_plots.MESSAGES("fertility_title")
    assert plots.plot_fertility(curves, title="x").axes[0].get_title() == "x"


def test_fertility_rejects_bad_curves(lang):
    for bad in ({}, [1], {"EN": {}}, {"EN": [1, 2]}):
        _raises(
            ValueError,
            token_plots.MESSAGES,
            "bad_curves",
            lambda bad=bad: plots.plot_fertility(bad),
            value=bad if not isinstance(bad, dict) or not bad else bad["EN"],
        )
    for size, value in ((0, 1.0), (1.5, 1.0), (True, 1.0), (300, 0.0), (300, float("nan")), (300, "2")):
        _raises(
            ValueError,
            token_plots.MESSAGES,
            "bad_curves",
            lambda s=size, v=value: plots.plot_fertility({"EN": {s: v}}),
            value={size: value},
        )


def test_fertility_in_the_pseudo_language():
    set_language(PSEUDO)
    assert_pseudo_localised(plots.plot_fertility({"EN": {300: 4.6, 4000: 1.7}}), data=("EN",))


# ----------------------------------------------------------------------------- token_explorer


def test_explorer_shows_the_truncated_tokenizer_of_the_size_chosen(tok):
    ex = widgets.token_explorer(tok, sizes=[300, 259, 280], text="the cat sat")
    assert isinstance(ex, widgets.LiveExplorer)
    assert list(ex.tokenizers) == [259, 280, 300] and ex.sizes == [259, 280, 300]
    assert ex.size == 280  # the middle size first
    for size in (259, 280, 300):
        ex.size = size
        assert ex.get_state()["size"] == size
        assert ex.tokenizers[size] == tok.truncate(size)
        assert ex.ids == tok.truncate(size).encode("the cat sat")
        assert ex.tokens == tok.truncate(size).tokens("the cat sat")
    ex.text = "кошка 😀"
    assert ex.ids == tok.encode("кошка 😀")
    n = len(ex.ids)
    assert ex.readout() == token_widgets.MESSAGES(
        "readout", n_tokens=n, n_words=2, per_word=f"{n / 2:.2f}", n_chars=7, n_bytes=15
    )


def test_explorer_sends_the_merges_the_browser_applies(tok):
    ex = widgets.token_explorer(tok, sizes=[259, 300])
    data = ex.data
    # every byte's id, and each merge as (first, second, the token it makes), in rank order
    assert [tok.token_bytes(i) for i in data["byte_ids"]] == [bytes([b]) for b in range(256)]
    assert [(a, b) for a, b, _ in data["merges"]] == tok.merges
    assert all(
        tok.token_bytes(new) == tok.token_bytes(a) + tok.token_bytes(b) for a, b, new in data["merges"]
    )
    assert data["specials"] == {str(i): name for name, i in tok.specials.items()}
    assert data["palette"] == list(token_plots.PALETTE)
    # Python's \U0001xxxx escapes written as JavaScript's \u{1xxxx}
    assert "\\U" not in data["newer_letters"] and "\\u{107bb}" in data["newer_letters"]
    assert "export function mergeWord" in ex._esm


def test_explorer_default_sizes_and_an_empty_text(tok):
    big = BPETokenizer.train(course_corpus("en"), vocab_size=1200)
    ex = widgets.token_explorer(big)
    assert list(ex.tokenizers) == [300, 500, 1000, 1200]
    assert ex.ids == [] and "–" in ex.readout()
    assert list(widgets.token_explorer(tok).tokenizers) == [300]


def test_explorer_in_russian(tok):
    ex = widgets.token_explorer(tok, sizes=[259, 300], text="кошка сидит", lang="ru")
    assert (ex.labels["text"], ex.labels["size"]) == ("текст", "размер словаря")
    assert ex.readout().startswith("Токенов: ") and "токенов на слово: " in ex.readout()
    assert re.search(r"токенов на слово: \d+,\d\d\.", ex.readout())


def test_explorer_rejects_bad_input(tok, lang):
    _raises(
        TypeError,
        token_plots.MESSAGES,
        "not_tokenizer",
        lambda: widgets.token_explorer("tok"),
        name="tokenizer",
        type_name="str",
    )
    _raises(
        TypeError,
        token_plots.MESSAGES,
        "not_text",
        lambda: widgets.token_explorer(tok, text=3),
        type_name="int",
    )
    for bad in ([], "300", 300):
        _raises(
            ValueError,
            token_widgets.MESSAGES,
            "bad_sizes",
            lambda b=bad: widgets.token_explorer(tok, sizes=b),
            value=bad,
        )
    from course_lib.bpe.messages import MESSAGES as BPE_MESSAGES

    _raises(
        ValueError,
        BPE_MESSAGES,
        "truncate_range",
        lambda: widgets.token_explorer(tok, sizes=[259, 301]),
        value=301,
        minimum=259,
        size=300,
    )
    ex = widgets.token_explorer(tok, sizes=[259, 300])
    _raises(
        ValueError,
        token_widgets.MESSAGES,
        "not_a_size",
        lambda: setattr(ex, "size", 280),
        sizes=[259, 300],
        value=280,
    )
    assert ex.size == 300


def test_catalogues_are_registered_and_complete():
    assert catalogues()["plots_tokens"] is token_plots.MESSAGES
    assert catalogues()["widgets_tokens"] is token_widgets.MESSAGES
    assert token_plots.MESSAGES.problems() == [] and token_widgets.MESSAGES.problems() == []
