"""Lesson 9's live explorer (RoPE scaling) in headless Chromium: its numbers, and live in a page, on the
website, in the decks and in JupyterLab, with no kernel (helpers from tests/browser/test_explorers.py
and test_explorers_lesson8.py).

- **The same numbers**: ``js/rope_scaling.js`` is imported in a blank page and evaluated at every
  method, the published presets and the sliders' ends, against course_lib: each pair's turns within
  ``C`` before and after scaling and within ``L`` in training within 1e-12 relative of
  :meth:`RopeScalingExplorer.turns` (whose frequencies are :func:`course_lib.rope_frequencies`,
  equal to transformers'), YaRN's attention factor within 1e-15, the pairs meeting unseen angles and
  the kept / divided / between counts exactly, the readout and the title exactly Python's, in English
  and Russian.
- **Live in a page** (needs no lesson): the module renders from the widget's own saved state in a blank
  page; every slider is moved from the keyboard and must change the picture and the readout, the
  method's radio buttons move with the arrow keys, and a preset's button (Tab, Enter) sets every
  setting of its published config. The time from a slider's input event to the picture and readout
  drawn is reported (p95 of 20 moves, the slowest slider's).
- **Live on the site, in the decks, in JupyterLab** (lesson 9's built pages): as lesson 8's.
- **Nothing leaves the machine**: every request is routed, anything not local is blocked and counted.

Run after ``make site`` (which builds the decks): ``make browser-explorers`` does both.
"""

import numpy as np
import pytest

from course_lib import widgets
from course_lib.i18n import LANGUAGES
from course_lib.widgets.scaling import DEFAULTS, PRESETS, preset_settings
from course_tools.core.config import CONFIG
from tests.browser import test_explorers as lesson5
from tests.browser.conftest import is_file, is_local
from tests.browser.test_explorers_saved import RENDER, RENDER_MS

pytestmark = pytest.mark.browser

LESSON_SUFFIX = "_longer_contexts"
SITE = CONFIG.site_dir
SLIDES = CONFIG.slides_dir
VIEWPORT = lesson5.VIEWPORT
LAB_TIMEOUT_MS = 90_000
CLASS = "rope-scaling-explorer"
SLIDERS = ["base", "factor", "original_len", "context", "low_freq_factor", "high_freq_factor"]

module_page = lesson5.module_page  # the explorer's module imported in a blank page: (page, load)


def lesson() -> str:
    found = [name for name in CONFIG.lesson_names() if name.endswith(LESSON_SUFFIX)]
    if not found:
        pytest.fail(f"no lesson named *{LESSON_SUFFIX} in notebooks/: lesson 9 is not there yet")
    return found[0]


# the settings: every method at the default, the published presets, the sliders' ends, a context
# shorter than L ("dynamic" unchanged), no stretch (s = 1), a small head, a YaRN whose ramp is one pair
POINTS = (
    [{**DEFAULTS, "method": m} for m in widgets.scaling.METHODS]
    + [preset_settings(name) for name in PRESETS]
    + [
        {**DEFAULTS, "method": m, "context": 2048, "original_len": 4096}
        for m in ("dynamic", "yarn", "llama3", "linear")
    ]
    + [{**DEFAULTS, "method": m, "factor": 1.0} for m in ("linear", "yarn", "llama3", "dynamic")]
    + [
        {
            **DEFAULTS,
            "method": "llama3",
            "head_dim": 4,
            "base": 100.0,
            "low_freq_factor": 0.5,
            "high_freq_factor": 16.0,
        },
        {
            **DEFAULTS,
            "method": "yarn",
            "head_dim": 256,
            "base": 1e8,
            "factor": 64.0,
            "original_len": 128,
            "context": 2**20,
        },
        {
            **DEFAULTS,
            "method": "yarn",
            "head_dim": 8,
            "base": 10.0**3.3,
            "original_len": 2**20,
            "context": 2**20,
        },
        {**DEFAULTS, "method": "dynamic", "factor": 13.5, "original_len": 128, "context": 2**20},
        {**DEFAULTS, "method": "llama3", "low_freq_factor": 2.5, "high_freq_factor": 3.0, "factor": 37.5},
    ]
)


def test_rope_scaling_js_equals_course_lib(module_page):
    page, load = module_page
    assert {
        "inverseFrequencies",
        "scaledFrequencies",
        "turns",
        "unseen",
        "counts",
        "readout",
        "title",
    } <= set(load(widgets.rope_scaling_explorer()))
    for point in POINTS:
        explorer = widgets.rope_scaling_explorer(**point)
        js = page.evaluate(
            """v => ({turns: Object.fromEntries(Object.entries(explorer.turns(v)).map(([k, a]) => [k, Array.from(a)])),
                     attention: explorer.scaledFrequencies(v).attention,
                     unseen: explorer.unseen(v), counts: explorer.counts(v)})""",
            point,
        )
        for key, expected in zip(("before", "after", "trained"), explorer.turns(), strict=True):
            np.testing.assert_allclose(
                js["turns"][key], expected, rtol=1e-12, atol=0, err_msg=f"{key} {point}"
            )
        assert abs(js["attention"] - explorer.frequencies[2]) <= 1e-15, point
        before, after = explorer.unseen()
        assert (js["unseen"]["before"], js["unseen"]["after"]) == (before.tolist(), after.tolist()), point
        assert js["counts"] == explorer.counts(), point


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rope_scaling_readout_is_pythons(module_page, lang):
    page, load = module_page
    load(widgets.rope_scaling_explorer())
    for point in POINTS:
        explorer = widgets.rope_scaling_explorer(**point, lang=lang)
        text, title = page.evaluate(
            "([v, labels, numbers]) => [explorer.readout(v, labels, numbers), explorer.title(v, labels, numbers)]",
            [point, explorer.labels, explorer.numbers],
        )
        assert text == explorer.readout(), point
        assert title == explorer.title(), point


# ----------------------------------------------------------------------------- live in a blank page

READ = """root => ({
    readout: root.querySelector('.course-explorer-readout').textContent,
    pixels: root.querySelector('canvas').toDataURL(),
    method: root.querySelector('input[type=radio]:checked').value,
    values: Object.fromEntries([...root.querySelectorAll('input[type=range]')].map(i => [i.name, i.value])),
})"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rope_scaling_explorer_is_live_in_a_page(offline_page, lang, record_property):
    explorer = widgets.rope_scaling_explorer(lang=lang)
    state = explorer.get_state()
    page, traffic = offline_page(lang, VIEWPORT, lambda url: is_file(url) or is_local(url), "blank page")
    page.set_content("<!DOCTYPE html><html><body></body></html>")
    page.evaluate(RENDER, [state["_esm"], state])
    page.wait_for_function("() => window.__result !== undefined", timeout=RENDER_MS * 5)
    assert "error" not in page.evaluate("window.__result")
    root = page.locator(f".{CLASS}")
    # every slider, from the keyboard: the picture and the readout change; labelled in the language
    times = lesson5.check_live(page, root, lang, SLIDERS, explorer.labels)
    lesson5.report(record_property, f"lesson 9, blank page {lang}", {CLASS: times})

    # the method: the radio group, with the arrow keys
    before = root.evaluate(READ)
    root.locator("input[type=radio]:checked").focus()
    page.keyboard.press("ArrowLeft")  # llama3 -> yarn
    after = root.evaluate(READ)
    assert after["method"] == "yarn" and after["pixels"] != before["pixels"]
    assert after["readout"].startswith("YaRN,") and after["readout"] != before["readout"]
    radio = root.locator("input[type=radio]").first
    label = radio.evaluate("r => r.closest('label').textContent.trim()")
    assert label == explorer.labels["method_none"]

    # a preset's button: Tab reaches it, Enter sets every setting of the published config
    for name in ("Llama 3.1 8B", "Qwen2.5 YaRN", "Qwen2 7B"):
        button = root.locator(f"button[data-preset='{name}']")
        button.focus()
        page.keyboard.press("Enter")
        shown = root.evaluate(READ)
        reference = widgets.rope_scaling_explorer(preset=name, lang=lang)
        assert shown["readout"] == reference.readout(), name
        assert shown["method"] == reference.method
        assert float(shown["values"]["factor"]) == reference.factor
        assert 2 ** float(shown["values"]["context"]) == reference.context
    small = root.evaluate(
        "r => [...r.querySelectorAll('button')].filter(b => Math.min(b.offsetWidth, b.offsetHeight) < 24).length"
    )
    assert small == 0, "buttons under 24 x 24 px"
    traffic.assert_clean()


def test_llama3_factors_stay_in_order_in_the_page(offline_page):
    """Moving low_freq_factor past high_freq_factor pushes it along (and back): the dict stays one
    transformers accepts, as Python's check requires. Moved under another method, they show llama3."""
    state = widgets.rope_scaling_explorer(low_freq_factor=3.5, high_freq_factor=4.0).get_state()
    page, traffic = offline_page("en", VIEWPORT, lambda url: is_file(url) or is_local(url), "blank page")
    page.set_content("<!DOCTYPE html><html><body></body></html>")
    page.evaluate(RENDER, [state["_esm"], state])
    page.wait_for_function("() => window.__result !== undefined", timeout=RENDER_MS * 5)
    root = page.locator(f".{CLASS}")
    root.locator("input[name=low_freq_factor]").focus()
    page.keyboard.press("ArrowRight")  # 4.0: not below 4.0, so high moves to 4.5
    values = root.evaluate(READ)["values"]
    assert (float(values["low_freq_factor"]), float(values["high_freq_factor"])) == (4.0, 4.5)
    page.keyboard.press("End")  # 16: high can go no further, low stops half a step below
    values = root.evaluate(READ)["values"]
    assert (float(values["low_freq_factor"]), float(values["high_freq_factor"])) == (15.5, 16.0)
    root.locator("input[name=high_freq_factor]").focus()
    page.keyboard.press("Home")  # 1: low goes below it
    values = root.evaluate(READ)["values"]
    assert (float(values["low_freq_factor"]), float(values["high_freq_factor"])) == (0.5, 1.0)
    # under another method, moving one of llama3's factors shows llama3
    root.locator("input[type=radio][value=linear]").focus()
    page.keyboard.press("Space")
    assert root.evaluate(READ)["method"] == "linear"
    root.locator("input[name=high_freq_factor]").focus()
    page.keyboard.press("ArrowRight")
    shown = root.evaluate(READ)
    assert shown["method"] == "llama3" and float(shown["values"]["high_freq_factor"]) == 1.5
    assert "high_freq_factor = " in shown["readout"]
    traffic.assert_clean()


# ----------------------------------------------------------------------------- live in lesson 9's pages


def explorer_on(page, timeout: int = lesson5.TIMEOUT_MS):
    page.wait_for_function(
        "cls => { const c = document.querySelector(`.${cls} canvas`); return c && c.width > 0; }",
        arg=CLASS,
        timeout=timeout,
    )
    return page.locator(f".{CLASS}").first


def labels_of(lang: str) -> dict:
    return widgets.rope_scaling_explorer(lang=lang).labels


@pytest.mark.parametrize("lang", LANGUAGES)
def test_explorer_live_on_the_site(offline_page, lang, record_property):
    page_file = SITE / lang / f"{lesson()}.html"
    if not page_file.exists():
        pytest.fail(f"{CONFIG.relative(page_file)} is missing: run `make site`")
    page, traffic = offline_page(lang, VIEWPORT, lesson5.local_or_file, "site page")
    page.goto(page_file.as_uri())
    root = explorer_on(page)
    times = lesson5.check_live(page, root, lang, SLIDERS, labels_of(lang))
    lesson5.report(record_property, f"lesson 9, site file {lang}", {CLASS: times})
    traffic.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_explorer_live_in_the_deck(offline_page, lang, record_property):
    deck = SLIDES / lang / f"{lesson()}.html"
    if not deck.exists():
        pytest.fail(f"{CONFIG.relative(deck)} is missing: run `make slides`")
    page, traffic = offline_page(lang, VIEWPORT, is_file, "deck")
    page.goto(deck.as_uri())
    page.wait_for_function("document.querySelector('.reveal.ready') !== null", timeout=lesson5.TIMEOUT_MS)
    root = explorer_on(page)
    root.evaluate(lesson5.SHOW_SLIDE)
    times = lesson5.check_live(page, root, lang, SLIDERS, labels_of(lang))
    lesson5.report(record_property, f"lesson 9, deck {lang}", {CLASS: times})
    traffic.assert_clean()


def test_explorer_live_in_jupyterlab_before_and_after_running(jupyterlab, guarded_page, record_property):
    page, traffic = guarded_page
    lab = jupyterlab(locale="en")
    lesson5.open_in_lab(page, lab, lesson())
    root = explorer_on(page, LAB_TIMEOUT_MS)
    times = lesson5.check_live(page, root, "en", SLIDERS, labels_of("en"))
    lesson5.report(record_property, "lesson 9, JupyterLab before running", {CLASS: times})
    lesson5.run_in_lab(page, [root])
    root = explorer_on(page, LAB_TIMEOUT_MS)
    times = lesson5.check_live(page, root, "en", SLIDERS, labels_of("en"))
    lesson5.report(record_property, "lesson 9, JupyterLab after running", {CLASS: times})
    traffic.assert_clean()
    assert lab.outside_requests() == [], f"the server tried to reach: {lab.outside_requests()}"
