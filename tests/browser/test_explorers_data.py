"""The live explorers whose data come from Python (a synced ``data`` trait) in headless Chromium:
their JavaScript's numbers against course_lib, and live with no kernel on the site, in the decks and
in JupyterLab from the notebook's saved state.

- **The same numbers**: each explorer's module (the string Python sends the browser) is imported in
  a blank page and evaluated at several points, in English and Russian, against the Python object's
  own reference methods: lesson 7's accuracy at each position and its readout (every line equal).
- **Live from saved state**: the lesson's page on the site from ``file://`` (English and Russian), its
  deck from ``file://`` and JupyterLab before any cell runs; and live from the kernel's widget in
  JupyterLab after running the lesson's cells up to the explorer's. Every control is operated from the
  keyboard (a slider's arrow, a checkbox's space) and must change the picture's pixels and the
  readout; the controls are labelled in the page's language. The time from an input event to the
  picture and readout drawn is reported (95th percentile of 20 moves per control).
- **Nothing leaves the machine**: every request is routed, anything not local is blocked and counted
  (0), and no page error or console error.

Run after ``make site`` (which builds the decks): ``make browser-explorers`` does both.
"""

import math

import pytest

from course_lib import extrapolation as ex
from course_lib import plots, widgets
from course_lib.i18n import LANGUAGES
from course_lib.plots.extrapolation import variant_label
from course_tools.core.config import CONFIG
from tests.browser.conftest import is_file
from tests.browser.test_explorers import (
    FRAME_TIMES,
    IMPORT,
    TIMEOUT_MS,
    VIEWPORT,
    local_or_file,
    open_in_lab,
    report,
    run_in_lab,
)

pytestmark = pytest.mark.browser

SITE = CONFIG.site_dir
SLIDES = CONFIG.slides_dir


def lesson(suffix: str) -> str:
    return next(name for name in CONFIG.lesson_names() if name.endswith(suffix))


@pytest.fixture
def module_page(offline_page):
    """``load(explorer)``: the page with the explorer's JavaScript module as ``window.explorer``."""
    page, traffic = offline_page("en", VIEWPORT, local_or_file, "module page")
    page.set_content("<!DOCTYPE html><html><body></body></html>")
    yield page, lambda explorer: page.evaluate(IMPORT, explorer._esm)
    traffic.assert_clean()


def nan_to_none(values):
    return [None if math.isnan(v) else v for v in values]


# ----------------------------------------------------------------------------- lesson 7: extrapolation

# small runs: a few training steps are enough to give every position its own counts; the lookup
# task leaves positions 0 .. k without a target (NaN), which the JavaScript must skip as Python does
SHIFT = ex.Config(steps=3, batch_size=8, train_len=8, test_len=16, min_len=3)
LOOKUP = ex.Config(task="lookup", k=1, steps=3, batch_size=8, train_len=8, test_len=16, min_len=3)


@pytest.fixture(scope="module")
def extrapolation_runs():
    return [(ex.run(SHIFT, seed=0), SHIFT), (ex.run(LOOKUP, seed=1, variants=["learned", "rotary"]), LOOKUP)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_extrapolation_js_equals_course_lib(module_page, extrapolation_runs, lang):
    page, load = module_page
    assert "byPosition" in load(widgets.extrapolation_explorer(*extrapolation_runs[0], lang=lang))
    compared = 0
    for results, cfg in extrapolation_runs:
        explorer = widgets.extrapolation_explorer(results, cfg, lang=lang)
        variants = list(results)
        for n in (2, 3, cfg.train_len - 1, cfg.train_len, cfg.train_len + 1, 13, cfg.test_len):
            for shown in (variants, variants[1:], [variants[-1]], []):
                explorer.length, explorer.shown = n, shown
                curves, lines = page.evaluate(
                    """([v, data, labels]) => [
                        data.variants.map(c => explorer.byPosition(c, v.length).map(a => Number.isNaN(a) ? null : a)),
                        explorer.readout(v, data, labels)]""",
                    [{"length": n, "shown": shown}, explorer.data, explorer.labels],
                )
                # exactly equal: the same integer sums divided in float64
                assert curves == [nan_to_none(explorer.by_position(v)) for v in variants], (n, shown)
                assert lines == explorer.readout(), (n, shown)
                compared += 1
    assert compared == 2 * 7 * 4


# ----------------------------------------------------------------------------- lesson 1: vocabulary

# texts a reader may type: both languages, capitals, punctuation, digits, "_", emoji, other scripts,
# a combining accent (NFD), invisible characters, Python-only separators (\x1c, \x85), no-break spaces
TEXTS = [
    "The cat sat on the mat.",
    "The dog bit the man. Собака укусила человека.",
    "ЁЛКА и ёлка, Ёжик!",
    "мой" + "\u0306",
    "и\u0306од, cafe\u0301",
    "zero\u200bwidth soft\u00adhyphen\ufeff",
    "snake_case, x2 = 3.14; 10 000 рублей…",
    "emoji 🙂🙂 and 👩🏽‍💻 (a family: 👨‍👩‍👧)",
    "tab\tnew\nline\x1cfile\x85next\u00a0nbsp\u2009thin\u3000ideo",
    "«Кавычки» — тире – дефис - «ёлочки»",
    "日本語のテキスト 中文 한국어 العربية हिन्दी",
    "ΟΔΟΣ Σίσυφος İstanbul STRASSE Straße",
    "",
    "   ",
    "<unk> <pad>",
    "Ⅻ ½ ² ٣ 𝟘",
]


@pytest.fixture(scope="module")
def course_vocab():
    from course_lib import Vocab
    from course_lib.bpe import course_corpus

    train = course_corpus("en", "train") + course_corpus("ru", "train")
    heldout = course_corpus("en", "heldout") + course_corpus("ru", "heldout")
    return Vocab.build(train), heldout


@pytest.mark.parametrize("lang", LANGUAGES)
def test_vocab_js_equals_course_lib(module_page, course_vocab, lang):
    from course_lib import tokenize

    vocab, heldout = course_vocab
    page, load = module_page
    explorer = widgets.vocab_explorer(vocab, lang=lang, heldout=heldout)
    assert "tokenize" in load(explorer)
    js = page.evaluate("texts => texts.map(explorer.tokenize)", TEXTS)
    assert js == [tokenize(t) for t in TEXTS]
    corpus_lines = heldout[:40]  # held-out prose, tokenized both ways
    assert page.evaluate("texts => texts.map(explorer.tokenize)", corpus_lines) == [
        tokenize(t) for t in corpus_lines
    ]
    # the vocabulary (2290 words) sent once, as the widget gets it once
    page.evaluate("data => { window.data = data; window.vocab = explorer.vocabulary(data); }", explorer.data)
    for min_freq in range(1, 11):
        explorer.min_freq = min_freq
        for text in TEXTS[:4] + corpus_lines[:5]:
            explorer.text = text
            ids, size, lines = page.evaluate(
                """([v, labels, numbers]) => [vocab.encode(explorer.tokenize(v.text), v.min_freq), vocab.size(v.min_freq),
                                            explorer.readout(v, data, labels, numbers, vocab)]""",
                [{"text": text, "min_freq": min_freq}, explorer.labels, explorer.numbers],
            )
            assert ids == explorer.ids and size == len(explorer.vocab), (min_freq, text)
            assert lines == explorer.readout(), (min_freq, text)


# ----------------------------------------------------------------------------- lesson 2: tokens

# held out from training: typed text of every kind, English and Russian, emoji (a skin tone, a zero-width
# joiner), digits, mixed scripts, contractions, runs of spaces of every kind, tabs and line breaks
TYPED = [
    *TEXTS,
    "Positional encoding. Позиционное кодирование 👍🏽",
    "I'm sure it's the model's job, they'll say: we've 'd 's 'S",
    "  two  spaces,   three, trailing   ",
    " leading space and\n\nnew lines\r\n\tand tabs\t\t",
    "numbers 1234567890 3.14159 1e-5 ٣٤٥ 𝟘𝟙 ½",
    "mixed: ChatGPT-4o, word2vec, Москва2024, x₁ + y² = z",
    "code: def f(x): return x ** 2  # комментарий",
    "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "The quick brown fox jumps over the lazy dog.",
    "😀😃😄😁 🇷🇺🇬🇧 👨‍👩‍👧‍👦 ❤️",
    "\u00a0nbsp\u2009thin\u3000ideographic\u200bzero-width\x85nel\x1cfs",
    "a" * 300,
    "антидизестаблишментарианство сверхэкзистенциальный",
]


@pytest.fixture(scope="module")
def course_tokenizer():
    from course_lib.bpe import BPETokenizer, course_corpus

    texts = course_corpus("en", "train") + course_corpus("ru", "train")
    heldout = course_corpus("en", "heldout") + course_corpus("ru", "heldout")
    return BPETokenizer.train(texts, vocab_size=1000), heldout


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tokens_js_equals_course_lib(module_page, course_tokenizer, lang):
    from course_lib.bpe import pre_tokenize

    tok, heldout = course_tokenizer
    page, load = module_page
    explorer = widgets.token_explorer(tok, sizes=[259, 300, 500, 1000], lang=lang)
    assert "mergeWord" in load(explorer)
    page.evaluate(
        """data => { window.data = data; window.bytes = explorer.tokenBytes(data);
                     window.encoders = {}; window.regex = explorer.pattern(data); }""",
        explorer.data,
    )
    texts = TYPED + heldout  # every held-out line of lesson 4, both languages
    assert page.evaluate("texts => texts.map(t => explorer.preTokenize(t, regex))", texts) == [
        pre_tokenize(t) for t in texts
    ]
    for size in explorer.sizes:
        explorer.size = size
        js = page.evaluate(
            """([texts, size, labels, numbers]) => {
                const encode = explorer.encoder(data, size);
                return texts.map(t => { const ids = encode(t);
                    return [ids, ids.map(i => explorer.idToToken(data, bytes, i)),
                            explorer.readout(t, ids.length, labels, numbers)]; });
            }""",
            [texts, size, explorer.labels, explorer.numbers],
        )
        for text, (ids, tokens, line) in zip(texts, js, strict=True):
            explorer.text = text
            assert ids == explorer.ids, (size, text)
            assert tokens == explorer.tokens, (size, text)
            assert line == explorer.readout(), (size, text)


# ----------------------------------------------------------------------------- live in a page

# the picture: the canvas, and the tokens shown beside it where the explorer has them (lesson 1's)
STATE = """root => ({
    pixels: root.querySelector('canvas').toDataURL() + (root.querySelector('.course-explorer-view')?.innerHTML || ''),
    readout: root.querySelector('.course-explorer-readout').textContent,
    labels: [...root.querySelectorAll('input, [role=group]')].map(i => i.getAttribute('aria-label')),
    lang: root.closest('[lang]').lang,
})"""

# input event -> drawn for a checkbox: click() fires its input event and returns after the handler
CLICK_TIMES = """(root, name) => {
    const box = root.querySelector(`input[name=${name}]`);
    const times = [];
    for (let k = 0; k < 20; k++) {
        const t0 = performance.now();
        box.click();
        times.push(performance.now() - t0);
    }
    return times.sort((x, y) => x - y)[18];
}"""


# input event -> drawn for a text box: a letter added and taken away, 20 times
TYPE_TIMES = """(root, name) => {
    const box = root.querySelector(`input[name=${name}]`);
    const start = box.value;
    const times = [];
    for (let k = 0; k < 20; k++) {
        box.value = k % 2 ? start : start + (k % 4 ? 'я' : 'x');
        const t0 = performance.now();
        box.dispatchEvent(new Event('input', {bubbles: true}));
        times.push(performance.now() - t0);
    }
    box.value = start;
    box.dispatchEvent(new Event('input', {bubbles: true}));
    return times.sort((x, y) => x - y)[18];
}"""


def types_in(page, root, name):
    box = root.locator(f"input[name={name}]")
    box.focus()
    page.keyboard.press("End")
    page.keyboard.type(" Кошка, 2 cats!")


def slider_moves(page, root, name):
    s = root.locator(f"input[name={name}]")
    s.focus()
    at_max = s.evaluate("s => Number(s.value) >= Number(s.max)")
    page.keyboard.press("ArrowLeft" if at_max else "ArrowRight")


def checkbox_toggles(page, root, name):
    root.locator(f"input[name={name}]").focus()
    page.keyboard.press("Space")


def check_live(page, root, lang: str, controls, labels: list[str]) -> dict[str, float]:
    """Every control (``[(kind, name)]``, kind ``"slider"``, ``"checkbox"`` or ``"text"``) of the explorer
    ``root`` changes its picture and its readout, operated from the keyboard; returns each control's p95, ms."""
    root.scroll_into_view_if_needed()
    state = root.evaluate(STATE)
    assert state["lang"] == lang
    assert state["labels"] == labels
    times = {}
    for kind, name in controls:
        {"slider": slider_moves, "checkbox": checkbox_toggles, "text": types_in}[kind](page, root, name)
        after = root.evaluate(STATE)
        assert after["pixels"] != state["pixels"], f"{name} did not change the picture"
        assert after["readout"] != state["readout"], f"{name} did not change the readout"
        state = after
        times[name] = root.evaluate(
            {"slider": FRAME_TIMES, "checkbox": CLICK_TIMES, "text": TYPE_TIMES}[kind], name
        )
    return times


def explorer_on(page, cls: str):
    page.wait_for_function(
        # drawn: the readout written (lesson 2's explorer shows text, its canvas stays hidden)
        "cls => [...document.querySelectorAll(`.${cls}`)].some(e => e.querySelector('.course-explorer-readout')?.textContent)",
        arg=cls,
        timeout=TIMEOUT_MS,
    )
    return page.locator(f".{cls}").first


SHOW_SLIDE = """async el => {
    const section = el.closest('section');
    const script = document.querySelector('script[data-requiremodule*="/reveal.js/dist/reveal"]');
    const Reveal = await new Promise(resolve => require([script.dataset.requiremodule], resolve));
    Reveal.configure({transition: 'none', backgroundTransition: 'none'});
    const at = Reveal.getIndices(section);
    Reveal.slide(at.h, at.v);
}"""


def extrapolation_labels(lang: str) -> list[str]:
    """The group's, each variant's (the lesson trains all five) and the slider's, in the page's order."""
    texts = widgets.extrapolation.MESSAGES
    return [
        texts("variants", lang),
        *(variant_label(v, lang) for v in ex.VARIANTS),
        texts("slider_length", lang),
    ]


def token_labels(lang: str) -> list[str]:
    return [widgets.tokens.MESSAGES("text", lang), plots.tokens.MESSAGES("vocab_size", lang)]


def vocab_labels(lang: str) -> list[str]:
    texts = widgets.vocab.MESSAGES
    return [texts("text", lang), texts("min_freq", lang)]


# what each explorer of this file is: its lesson, its root's class, its controls, its labels' order
EXPLORERS = {
    "extrapolation": {
        "lesson": "_learned_positions",
        "class": "extrapolation-explorer",
        "controls": [("slider", "length")]
        + [("checkbox", v) for v in ("sinusoidal", "learned", "none", "rotary", "alibi")],
        "labels": extrapolation_labels,
    },
    "vocab": {
        "lesson": "_text_to_ids",
        "class": "vocab-explorer",
        "controls": [("text", "text"), ("slider", "min_freq")],
        "labels": vocab_labels,
    },
    "tokens": {
        "lesson": "_subword_tokens",
        "class": "token-explorer",
        "controls": [("text", "text"), ("slider", "size")],
        "labels": token_labels,
    },
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(EXPLORERS))
def test_live_on_the_site(offline_page, name, lang, record_property):
    spec = EXPLORERS[name]
    page_path = SITE / lang / f"{lesson(spec['lesson'])}.html"
    if not page_path.exists():
        pytest.fail(f"{CONFIG.relative(page_path)} is missing: run `make site`")
    page, traffic = offline_page(lang, VIEWPORT, is_file, "site page")
    page.goto(page_path.as_uri())
    root = explorer_on(page, spec["class"])
    times = check_live(page, root, lang, spec["controls"], spec["labels"](lang))
    report(record_property, f"{name}, site file {lang}", times)
    traffic.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(EXPLORERS))
def test_live_in_the_deck(offline_page, name, lang, record_property):
    spec = EXPLORERS[name]
    deck = SLIDES / lang / f"{lesson(spec['lesson'])}.html"
    if not deck.exists():
        pytest.fail(f"{CONFIG.relative(deck)} is missing: run `make slides`")
    page, traffic = offline_page(lang, VIEWPORT, is_file, "deck")
    page.goto(deck.as_uri())
    page.wait_for_function("document.querySelector('.reveal.ready') !== null", timeout=TIMEOUT_MS)
    root = explorer_on(page, spec["class"])
    root.evaluate(SHOW_SLIDE)
    times = check_live(page, root, lang, spec["controls"], spec["labels"](lang))
    report(record_property, f"{name}, deck {lang}", times)
    traffic.assert_clean()


@pytest.mark.parametrize("name", list(EXPLORERS))
def test_live_in_jupyterlab_before_and_after_running(jupyterlab, guarded_page, name, record_property):
    spec = EXPLORERS[name]
    notebook = lesson(spec["lesson"])
    page, traffic = guarded_page
    lab = jupyterlab(locale="en")
    open_in_lab(page, lab, notebook)
    # no cell has run: the saved state alone draws the explorer, and it moves
    root = explorer_on(page, spec["class"])
    times = check_live(page, root, "en", spec["controls"], spec["labels"]("en"))
    report(record_property, f"{name}, JupyterLab before running", times)
    # after running the lesson's cells: the kernel's own widget, drawn by the same module, moves too
    run_in_lab(page, [root])
    root = explorer_on(page, spec["class"])
    times = check_live(page, root, "en", spec["controls"], spec["labels"]("en"))
    report(record_property, f"{name}, JupyterLab after running", times)
    traffic.assert_clean()
    assert lab.outside_requests() == [], f"the server tried to reach: {lab.outside_requests()}"
