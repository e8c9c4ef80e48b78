"""A saved notebook is input: every explorer, loaded from saved state whose settings are out of range.

A classmate's notebook, or one edited by hand, may save ``k = 10**9`` (``rotation.js`` once drew 10⁹
points, and the tab hung on every open, in JupyterLab, on the site and in the decks), NaN, a
negative number or a string. Python refuses such values where each trait is declared
(``course_lib/widgets/live.py``, ``Checked``: the unit tests); the browser clamps what it reads from
saved state to the same bounds (``guard`` in ``js/common.js``). Here each explorer's module renders,
in a blank page, from its own saved state (``get_state()``, what the notebook keeps) with every
setting it reads replaced by an extreme, a NaN, a negative or a string value; the page must draw
within the time budget, the next animation frame must come within 100 ms (the tab responds), the
picture and the readout must be drawn (no blank widget, no "NaN" written), and the notice must
name every value replaced, in the lesson's language.

The explorer renders from a ``setTimeout``, so a hang cannot block the test: ``wait_for_function``
times out in Playwright's driver and the test fails. The test that times the render and the next frame
is marked ``frames``: ``make browser-frames`` runs it with nothing else on the machine's cores (beside a
second browser stage, at load 8-11, a frame once came after 105 ms).
"""

import json
import math
import re
from collections import Counter

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from course_lib import widgets
from course_lib.i18n import LANGUAGES
from course_lib.widgets import registry
from course_lib.widgets.live import JS, bounds_of
from tests.browser.conftest import is_file, is_local

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 900}
#: the next animation frame after the explorer is drawn, in ms: the tab stays responsive
FRAME_MS = 100
#: the whole render from saved state, at its largest allowed settings, on a loaded machine
RENDER_MS = 3_000


def small_vocab():
    from course_lib import Vocab

    return Vocab.build(["the cat sat on the mat", "the dog sat on the log", "a cat and a dog"])


def small_tokenizer():
    from course_lib.bpe import BPETokenizer

    return BPETokenizer.train(["the cat sat on the mat, the dog sat on the log"] * 20, vocab_size=280)


def small_extrapolation():
    from course_lib import extrapolation as ex

    cfg = ex.Config(steps=1, batch_size=4, train_len=8, test_len=16, min_len=3)
    return ex.run(cfg, seed=0, variants=["learned", "none"]), cfg


def balance(lang):
    from tests.unit.test_plots import balance_setup

    return widgets.balance_explorer(*balance_setup(8), "dog bites man", "man bites dog", lang=lang)


# each explorer with data as its lesson builds it, small (the others: their builder with its defaults,
# from the registry, course_lib/widgets/registry.py); seed is not read by the browser (Python sends the
# vectors it gives), nor is the embeddings' d_model (the width of the weights Python sends)
UNREAD = {"seed", "embeddings.d_model"}
BUILT = {
    "vocab": lambda lang: widgets.vocab_explorer(small_vocab(), text="the cat", lang=lang),
    "tokens": lambda lang: widgets.token_explorer(small_tokenizer(), text="the cat", lang=lang),
    "comparator": lambda lang: widgets.tokenizer_comparator(small_tokenizer(), lang=lang),
    "embeddings": lambda lang: widgets.embedding_explorer(["the cat sat", "a dog"], d_model=16, lang=lang),
    "balance": balance,
    "left_padding": lambda lang: widgets.left_padding_explorer(["the", "dog", "sat"], padding=3, lang=lang),
    "extrapolation": lambda lang: widgets.extrapolation_explorer(*small_extrapolation(), lang=lang),
}


def rules(entry) -> list[str]:
    """The settings whose range depends on another (the JavaScript's RULES) and that have no bounds of their own."""
    source = (JS / f"{entry.js}.js").read_text(encoding="utf-8")
    block = re.search(r"^const RULES = \{(.*?)\};$", source, re.M | re.S).group(1)
    bounded = bounds_of(getattr(widgets, entry.widget))
    return [name for name in re.findall(r"(\w+): \(get\) =>", block) if name not in bounded]


EXPLORERS = {
    entry.name: (BUILT.get(entry.name, lambda lang, entry=entry: entry.build(lang=lang)), rules(entry))
    for entry in registry.EXPLORERS
}

# the out-of-range values: what each kind of setting gets (a text's "string" is a valid value)
BAD = {
    "extreme": {"number": 10**9, "float": 1e300, "text": "x" * 100_000, "choice": "x" * 1000},
    "nan": {"number": math.nan, "float": math.nan, "text": math.nan, "choice": math.nan},
    "negative": {"number": -5, "float": -1e6, "text": -1, "choice": -1},
    "string": {"number": "abc", "float": "1e9", "text": None, "choice": "bogus"},
}

RENDER = """([source, state]) => {
    window.__result = undefined;
    setTimeout(async () => {
        try {
            const url = URL.createObjectURL(new Blob([source], {type: 'text/javascript'}));
            const module = await import(url);
            const listeners = {};
            const model = {
                get: (name) => state[name],
                set: (name, value) => { state[name] = value; (listeners['change:' + name] || []).forEach(f => f()); },
                save_changes: () => {},
                on: (event, f) => { (listeners[event] ||= []).push(f); },
                off: (event, f) => { listeners[event] = (listeners[event] || []).filter(g => g !== f); },
            };
            const el = document.createElement('div');
            document.body.replaceChildren(el);
            const start = performance.now();
            await module.default.render({model, el});
            const rendered = performance.now() - start;
            const before = performance.now();
            await new Promise(resolve => requestAnimationFrame(resolve));
            const frame = performance.now() - before;
            const canvas = el.querySelector('canvas');
            let drawn = null;
            if (canvas && !canvas.hidden) {
                const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
                drawn = 0;
                for (let i = 3; i < data.length; i += 4) drawn += data[i] > 0;
            }
            const notice = el.querySelector('.course-explorer-notice');
            window.__result = {
                rendered, frame, drawn,
                readout: el.querySelector('.course-explorer-readout').textContent,
                notice: notice && notice.isConnected ? notice.textContent : null,
                lang: el.lang,
            };
        } catch (error) {
            window.__result = {error: String(error && error.stack || error)};
        }
    }, 0);
}"""


def kind_of(bound: dict) -> str:
    if "allowed" in bound:
        return "choice"
    if "longest" in bound:
        return "text"
    return "number" if bound.get("integer", True) else "float"


@pytest.fixture(scope="module")
def built():
    cache = {}

    def build(name, lang):
        if (name, lang) not in cache:
            cache[name, lang] = EXPLORERS[name][0](lang)
        return cache[name, lang]

    return build


@pytest.mark.frames  # `make browser-frames`: it times a frame (100 ms), so it runs alone
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(EXPLORERS))
def test_explorer_clamps_saved_values_and_stays_responsive(offline_page, built, name, lang):
    explorer = built(name, lang)
    bounds = {
        key: value
        for key, value in bounds_of(type(explorer)).items()
        if key not in UNREAD and f"{name}.{key}" not in UNREAD
    }
    settings = {
        **{key: kind_of(b) for key, b in bounds.items()},
        **dict.fromkeys(EXPLORERS[name][1], "number"),
    }
    assert settings, name
    state = explorer.get_state()
    source = state["_esm"]
    page, traffic = offline_page(lang, VIEWPORT, lambda url: is_file(url) or is_local(url), "saved state")
    page.set_content("<!DOCTYPE html><html><body></body></html>")

    # the saved state as Python wrote it: drawn, no notice
    page.evaluate(RENDER, [source, state])
    page.wait_for_function("() => window.__result !== undefined", timeout=RENDER_MS * 5)
    clean = page.evaluate("window.__result")
    assert "error" not in clean, clean
    assert clean["notice"] is None, clean

    for bad, values in BAD.items():
        tampered = dict(state)
        wrong = {key: values[kind] for key, kind in settings.items() if values[kind] is not None}
        if not wrong:
            continue  # only texts (lesson 2's comparator), and a string is a text: nothing to replace
        tampered.update(wrong)
        if "limits" in state:  # the sliders' ends are saved too
            tampered["limits"] = {key: values["number"] for key in state["limits"]}
        page.evaluate(RENDER, [source, tampered])
        page.wait_for_function("() => window.__result !== undefined", timeout=RENDER_MS * 5)
        result = page.evaluate("window.__result")
        where = f"{name} ({lang}), {bad}: {result}"
        assert "error" not in result, where
        assert result["rendered"] < RENDER_MS, where
        assert result["frame"] < FRAME_MS, where
        assert result["drawn"] is None or result["drawn"] > 1000, where  # a picture, not a blank canvas
        assert result["readout"].strip() and "NaN" not in result["readout"], where
        assert "undefined" not in result["readout"], where
        # the notice, in the lesson's language, names each setting replaced
        notice = result["notice"]
        assert notice, where
        assert notice.startswith(widgets.live.LIVE("clamped", lang, changes="").split("{")[0][:20]), where
        for key in wrong:
            assert f"{key} = " in notice, (key, where)
    traffic.assert_clean()


# ----------------------------------------------------------------------------- drawn in the page's style

# The explorer rendered before it is attached, as the site's widget renderer always does (the
# html-manager attaches a view once its render has ended; JupyterLab's renderer and the decks' too):
# the page's colour and font are unknown then. On a dark page with fonts of its own, attached 50 ms
# later, its canvas must come to the drawing it makes when rendered already in the page. Every
# fillText's text, colour and font is recorded, the texts of the canvas's last drawing kept (a
# drawing starts with sizeCanvas's clearRect).
RECORD_DRAWING = """() => {
    const proto = CanvasRenderingContext2D.prototype;
    const fillText = proto.fillText, clearRect = proto.clearRect;
    window.__texts = [];
    proto.clearRect = function (...args) { window.__texts = []; return clearRect.apply(this, args); };
    proto.fillText = function (text, ...rest) {
        window.__texts.push({text: String(text), colour: String(this.fillStyle), font: this.font});
        return fillText.call(this, text, ...rest);
    };
}"""

RENDER_IN_PAGE = """([source, state, detached]) => {
    window.__result = undefined;
    setTimeout(async () => {
        try {
            const url = URL.createObjectURL(new Blob([source], {type: 'text/javascript'}));
            const module = await import(url);
            const model = {get: (name) => state[name], set() {}, save_changes() {}, on() {}, off() {}};
            const el = document.createElement('div');
            window.__el = el;
            if (!detached) document.body.append(el);
            await module.default.render({model, el});
            const before = window.__texts.slice();
            const canvases = [...el.querySelectorAll('canvas')].filter(c => !c.hidden).length;
            if (detached) {
                await new Promise(resolve => setTimeout(resolve, 50));
                document.body.append(el);
            }
            window.__result = {before, canvases};
        } catch (error) {
            window.__result = {error: String(error && error.stack || error)};
        }
    }, 0);
}"""

# the last drawing, in an order of its own: equal drawings give equal strings
DRAWING = "() => JSON.stringify(window.__texts.map(t => [t.text, t.colour, t.font]).sort())"

# the page's fonts loaded and three frames drawn (pageColours calls back after document.fonts.ready)
FONTS_AND_FRAMES = """async () => {
    await document.fonts.ready;
    for (let k = 0; k < 3; k++) await new Promise(resolve => requestAnimationFrame(resolve));
}"""

DARK_PAGE = """<!DOCTYPE html><html><head><style>
  :root { --course-sans: CourseTestSans, sans-serif; --course-mono: CourseTestMono, monospace; }
  body { background: #121212; color: rgb(230, 230, 230); }
</style></head><body></body></html>"""
PAGE_FONTS = ("CourseTestSans", "CourseTestMono")


def drawn_in_page(open_page, state, detached: bool):
    """The explorer rendered in a page of its own (a fresh context: nothing of another render left
    to redraw), attached before its render or 50 ms after it: (page, traffic, what it drew by then)."""
    page, traffic = open_page("en", VIEWPORT, lambda url: is_file(url) or is_local(url), "detached")
    page.set_content(DARK_PAGE)
    page.evaluate(RECORD_DRAWING)
    page.evaluate(RENDER_IN_PAGE, [state["_esm"], state, detached])
    page.wait_for_function("() => window.__result !== undefined", timeout=RENDER_MS * 5)
    result = page.evaluate("window.__result")
    assert "error" not in result, result
    return page, traffic, result


@pytest.mark.parametrize("entry", registry.EXPLORERS, ids=lambda e: e.name)
def test_an_explorer_rendered_before_it_is_attached_comes_to_its_drawing_in_the_page(
    offline_page, built, entry
):
    state = built(entry.name, "en").get_state()
    page, traffic, attached = drawn_in_page(offline_page, state, detached=False)
    if not entry.picture:
        # its texts are the page's own elements, styled by the page once they are in it (their
        # contrast: test_explorer_colours.py); its canvas hidden and never drawn on, before it is
        # attached and after, once the page's fonts are loaded and frames drawn
        assert attached == {"before": [], "canvases": 0}, attached
        traffic.assert_clean()
        page.context.close()
        page, traffic, detached = drawn_in_page(offline_page, state, detached=True)
        assert detached == attached, detached
        page.evaluate(FONTS_AND_FRAMES)
        assert page.evaluate("window.__texts") == [], entry.name
        canvases = page.evaluate("() => [...window.__el.querySelectorAll('canvas')].map(c => c.hidden)")
        assert canvases and all(canvases), (entry.name, canvases)  # a canvas, hidden
        traffic.assert_clean()
        return
    assert attached["canvases"] == 1, attached
    # in the page: some texts in its colour (rgb(230, 230, 230); others on boxes of their own), every
    # text in its fonts (the course's, or its monospace one for code)
    reference = page.evaluate(DRAWING)
    assert "#e6e6e6" in {t["colour"] for t in attached["before"]}, attached["before"]
    assert all(any(f in t["font"] for f in PAGE_FONTS) for t in attached["before"]), attached["before"]
    traffic.assert_clean()
    page.context.close()  # its explorer's later callbacks redraw nothing another page reads
    page, traffic, detached = drawn_in_page(offline_page, state, detached=True)
    # before it was attached: drawn, but not in the page's colour (unknown then)
    assert detached["canvases"] == 1 and detached["before"], detached
    assert not any(t["colour"] == "#e6e6e6" for t in detached["before"]), detached["before"]
    # once attached, its drawing comes to the one made in the page, text for text
    try:
        page.wait_for_function(f"expected => ({DRAWING})() === expected", arg=reference, timeout=5_000)
    except PlaywrightTimeout:
        final = Counter(map(tuple, json.loads(page.evaluate(DRAWING))))
        expected = Counter(map(tuple, json.loads(reference)))
        pytest.fail(
            f"{entry.name}, rendered before it was attached, ends drawn otherwise than in the page: "
            f"{sorted((final - expected).elements())[:8]} in place of {sorted((expected - final).elements())[:8]}"
        )
    traffic.assert_clean()
