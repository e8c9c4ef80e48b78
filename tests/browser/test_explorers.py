"""The live explorers (course_lib/widgets/live.py) in headless Chromium: their numbers, and live in
JupyterLab, on the website and in the decks, with no kernel.

- **The same numbers**: each explorer's JavaScript module (the string Python sends the browser)
  is imported in a blank page and evaluated at several parameter points, in English and Russian,
  against course_lib: the sinusoidal table within 1e-12 of ``sinusoidal_table(dtype=float64)``
  (float32 display precision is 6e-8: this is far better), wavelengths within 1e-9 relative,
  the slow-column counts and every readout exactly equal to what Python writes (the rotation
  check's own residual, ~1e-16 on both sides, compared as a number below 1e-12), numbers written
  as ``course_lib.i18n.format_number`` writes them.
- **Live from saved state**: lesson 5 (both explorers) on the site from ``file://`` and from a local
  server, in both languages; in its decks from ``file://``; in JupyterLab before its cells run (the
  notebook's saved state) and after running them (a kernel's widget). Each control is moved from
  the keyboard, and must change the canvas's pixels and the readout; the controls are labelled in
  the page's language (``aria-label``); what a pointer must hit is at least 24 x 24 px (WCAG 2.2,
  2.5.8) in each of them; at 390 px wide the controls wrap and stay on the screen; on the
  site, the light/dark switch redraws the picture in the page's new colours.
- **Nothing leaves the machine**: every request is routed, anything not local is blocked and counted
  (0), and no page error or console error.

Run after ``make site`` (which builds the decks): ``make browser-explorers`` does both.
"""

import functools
import http.server
import re
import subprocess
import sys
import threading
import time

import pytest
import torch

from course_lib import i18n, plots, sinusoidal_table, widgets
from course_lib.i18n import LANGUAGES, format_number
from course_tools.core.config import CONFIG
from tests.browser.conftest import is_file, is_local

pytestmark = pytest.mark.browser

LESSON = next(name for name in CONFIG.lesson_names() if name.endswith("_sinusoidal_encoding"))
SITE = CONFIG.site_dir
SLIDES = CONFIG.slides_dir
VIEWPORT = {"width": 1280, "height": 900}
NARROW = {"width": 390, "height": 844}
TIMEOUT_MS = 30_000
# the lesson's explorers: the class of each one's root element, and its controls (input names)
EXPLORERS = {"table-explorer": ["d_model", "num_positions", "base"], "rotation-explorer": ["pos", "k", "i"]}


def local_or_file(url: str) -> bool:
    return is_file(url) or is_local(url)


# ----------------------------------------------------------------------------- the same numbers

IMPORT = """async source => {
    const url = URL.createObjectURL(new Blob([source], {type: 'text/javascript'}));
    window.explorer = await import(url);
    return Object.keys(window.explorer).sort();
}"""


@pytest.fixture
def module_page(offline_page):
    """``load(explorer)`` -> page with the explorer's JavaScript module as ``window.explorer``."""
    page, traffic = offline_page("en", VIEWPORT, local_or_file, "module page")
    page.set_content("<!DOCTYPE html><html><body></body></html>")

    def load(explorer):
        return page.evaluate(IMPORT, explorer._esm)

    yield page, load
    traffic.assert_clean()


TABLE_POINTS = [(1, 1, 10000.0), (7, 5, 10.0), (256, 128, 10000.0), (1024, 512, 1e6), (100, 33, 123.4)]


def test_table_js_equals_course_lib(module_page):
    page, load = module_page
    assert "sinusoidalTable" in load(widgets.table_explorer())
    for n, d, base in TABLE_POINTS:
        js = page.evaluate("([n, d, b]) => Array.from(explorer.sinusoidalTable(n, d, b))", [n, d, base])
        expected = sinusoidal_table(n, d, base, dtype=torch.float64).flatten()
        assert (torch.tensor(js, dtype=torch.float64) - expected).abs().max().item() <= 1e-12, (n, d, base)
        js_lengths, js_slow = page.evaluate(
            """([n, d, b]) => [Array.from({length: Math.ceil(d / 2)}, (_, i) => explorer.wavelength(i, d, b)),
                               explorer.slowColumns(n, d, b)]""",
            [n, d, base],
        )
        assert js_lengths == pytest.approx(
            [plots.wavelength(i, d, base) for i in range((d + 1) // 2)], rel=1e-9
        )
        assert js_slow == plots.slow_columns(n, d, base)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_table_readout_is_pythons(module_page, lang):
    page, load = module_page
    explorer = widgets.table_explorer(lang=lang)
    load(explorer)
    for n, d, base in TABLE_POINTS + [(256, 64, 10**2.35), (60, 32, 10**5.95)]:
        explorer.num_positions, explorer.d_model, explorer.base = n, d, base
        js = page.evaluate(
            "([v, labels, numbers]) => explorer.readout(v, labels, numbers)",
            [{"d_model": d, "num_positions": n, "base": base}, explorer.labels, explorer.numbers],
        )
        assert js == explorer.readout()


ROTATION_POINTS = [
    (3, 2, 0, 16, 10000.0),
    (0, 0, 3, 8, 10.0),
    (97, 50, 7, 16, 10000.0),
    (12, 5, 1, 64, 500.0),
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rotation_js_equals_course_lib(module_page, lang):
    page, load = module_page
    explorer = widgets.rotation_explorer(lang=lang)
    load(explorer)
    for pos, k, i, d, base in ROTATION_POINTS:
        explorer = widgets.rotation_explorer(d_model=d, base=base, pos=pos, k=k, i=i, lang=lang)
        values = {"pos": pos, "k": k, "i": i, "d_model": d, "base": base}
        pair, error, text = page.evaluate(
            """([v, labels, numbers]) => [explorer.pair(v.pos, v.i, v.d_model, v.base),
                explorer.rotationCheck(v.pos, v.k, v.i, v.d_model, v.base), explorer.readout(v, labels, numbers)]""",
            [values, explorer.labels, explorer.numbers],
        )
        table = sinusoidal_table(pos + 1, d, base, dtype=torch.float64)
        assert pair == pytest.approx(table[pos, 2 * i : 2 * i + 2].tolist(), abs=1e-12)
        assert error < 1e-12 and explorer.error < 1e-12
        # the readout ends with that residual, whose last bits are libm's: the rest must be Python's
        cut = re.compile(r"\S+\)\.$")
        assert cut.sub("", text) == cut.sub("", explorer.readout()), (text, explorer.readout())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_exact_rotation_reads_zero_in_the_browser(module_page, lang):
    # pos 3, k 2, pair 0 (lesson 5's setting) turns exactly: 0, as Python writes it, not «0,0·10⁰»
    page, load = module_page
    explorer = widgets.rotation_explorer(d_model=16, pos=3, k=2, i=0, lang=lang)
    load(explorer)
    values = {"pos": 3, "k": 2, "i": 0, "d_model": 16, "base": 10000.0}
    text = page.evaluate(
        "([v, labels, numbers]) => explorer.readout(v, labels, numbers)",
        [values, explorer.labels, explorer.numbers],
    )
    assert text == explorer.readout() and text.endswith(" 0).")
    for x in (0.0, 2.220446049250313e-16, 1.5e-15):
        assert page.evaluate("([x, numbers]) => explorer.errorText(x, numbers)", [x, explorer.numbers]) == (
            widgets.table.error_text(x, lang)
        )


NUMBERS = [
    0.0,
    1.0,
    -1.0,
    0.5,
    -2.5,
    6.283185307179586,
    35332.9,
    1234567.0,
    0.0001234,
    2.2e-16,
    4.4e-16,
    1e-5,
    0.5623,
    1e7,
]


# "de": a language the course does not speak, added as a new language would be (its code in
# i18n.LANGUAGES): its numbers come from its locale through Python, with no change to the JavaScript
@pytest.mark.parametrize("lang", ["en", "ru", "de"])
def test_numbers_are_written_as_course_lib_writes_them(module_page, monkeypatch, lang):
    if lang not in i18n.LANGUAGES:
        monkeypatch.setattr(i18n, "LANGUAGES", (*i18n.LANGUAGES, lang))
    page, load = module_page
    load(widgets.table_explorer())
    numbers = i18n.number_symbols(lang)  # what a LiveExplorer in lang sends the browser
    for spec in (".1f", ",.0f", " .3f", ".4f", ".4g", ".1e", ".0f"):
        js = page.evaluate(
            "([xs, spec, numbers]) => xs.map(x => explorer.formatNumber(x, spec, numbers))",
            [NUMBERS, spec, numbers],
        )
        assert js == [format_number(x, spec, lang) for x in NUMBERS], spec
    halves = [0.5, 1.5, 2.5, 12.5, 59.5, 3.4, -0.5]
    assert page.evaluate("xs => xs.map(explorer.roundHalfEven)", halves) == [round(x) for x in halves]


# ----------------------------------------------------------------------------- live in a page

STATE = """root => {
    const canvas = root.querySelector('canvas');
    return {
        pixels: canvas.toDataURL(),
        readout: root.querySelector('.course-explorer-readout').textContent,
        labels: [...root.querySelectorAll('input[type=range]')].map(i => [i.name, i.getAttribute('aria-label')]),
        lang: root.closest('[lang]').lang,
        // the controls and the readout above the picture, none drawn over it (a page's own CSS
        // for .controls once put them there: reveal.js's navigation arrows)
        overlaps: [...root.querySelectorAll('.course-explorer-control, .course-explorer-readout')]
            .filter(e => e.getBoundingClientRect().bottom > canvas.getBoundingClientRect().top + 1).length,
        // what a pointer must hit (a control, or the label around it: the same click) under 24 x 24 CSS px
        // (WCAG 2.2, 2.5.8): the explorer's own stylesheet (js/common.js) sizes them in every host
        small: [...root.querySelectorAll('input, select')].map(i => [i.name, i.closest('label') || i])
            .filter(([, t]) => Math.min(t.offsetWidth, t.offsetHeight) < 24)
            .map(([name, t]) => `${name}: ${t.offsetWidth} x ${t.offsetHeight} px`),
    };
}"""


# input event -> picture and readout drawn (the handler draws before it returns), 20 moves of a
# control between two of its values; reported by the test, asserted by benchmarks/bench_explorers.py
FRAME_TIMES = """(root, name) => {
    const s = root.querySelector(`input[name=${name}]`);
    const [a, b] = [s.value, String(Math.min(Number(s.max), Number(s.value) + Number(s.step)))];
    const times = [];
    for (let k = 0; k < 20; k++) {
        s.value = k % 2 ? a : b;
        const t0 = performance.now();
        s.dispatchEvent(new Event('input', {bubbles: true}));
        times.push(performance.now() - t0);
    }
    s.value = a;
    s.dispatchEvent(new Event('input', {bubbles: true}));
    return times.sort((x, y) => x - y)[18];
}"""


def check_live(page, root, lang: str, controls: list[str], labels: dict) -> float:
    """Every control of the explorer ``root`` moves the picture and the readout, from the keyboard.

    Returns the slowest control's 95th percentile, in ms, from input event to drawing done.
    """
    root.scroll_into_view_if_needed()
    state = root.evaluate(STATE)
    assert state["lang"] == lang
    assert state["overlaps"] == 0, "controls or readout drawn over the picture"
    assert state["small"] == [], "targets under 24 x 24 px"
    assert state["labels"] == [[name, labels[name]] for name in controls]
    for name in controls:
        slider = root.locator(f"input[name={name}]")
        slider.focus()
        at_max = slider.evaluate("s => Number(s.value) >= Number(s.max)")
        page.keyboard.press("ArrowLeft" if at_max else "ArrowRight")
        after = root.evaluate(STATE)
        assert after["pixels"] != state["pixels"], f"moving {name} did not change the picture"
        assert after["readout"] != state["readout"], f"moving {name} did not change the readout"
        state = after
    return max(root.evaluate(FRAME_TIMES, name) for name in controls)


def report(record_property, where: str, times: dict) -> None:
    line = ", ".join(f"{cls} p95 {ms:.1f} ms" for cls, ms in times.items())
    print(f"\n{where}: input event -> drawn: {line}")
    record_property("timings", f"{where}: {line}")


def explorers_on(page, count: int = 2):
    page.wait_for_function(
        "n => [...document.querySelectorAll('.course-explorer canvas')].filter(c => c.width > 0).length >= n",
        arg=count,
        timeout=TIMEOUT_MS,
    )
    return {cls: page.locator(f".{cls}").first for cls in EXPLORERS}


def labels_of(lang: str) -> dict:
    return {**widgets.table_explorer(lang=lang).labels, **widgets.rotation_explorer(lang=lang).labels}


def check_narrow(page, root) -> None:
    """At 390 px the controls wrap: none runs off the screen, and the explorer scrolls nowhere."""
    page.set_viewport_size(NARROW)
    root.scroll_into_view_if_needed()
    boxes = root.evaluate(
        "r => [...r.querySelectorAll('.course-explorer-control')].map(c => c.getBoundingClientRect().right)"
    )
    assert boxes and max(boxes) <= NARROW["width"], boxes
    assert root.evaluate("r => r.scrollWidth <= r.clientWidth + 1")


# ----------------------------------------------------------------------------- the site


@pytest.fixture(scope="module")
def site_root():
    if not (SITE / "index.html").exists():
        pytest.fail(f"{CONFIG.relative(SITE)}/ is missing: run `make site`")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield {"file": SITE.as_uri(), "http": f"http://127.0.0.1:{server.server_address[1]}"}
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(("where", "lang"), [("file", "en"), ("file", "ru"), ("http", "en")])
def test_explorers_live_on_the_site(site_root, offline_page, where, lang, record_property):
    page, traffic = offline_page(lang, VIEWPORT, local_or_file, "site page")
    page.goto(f"{site_root[where]}/{lang}/{LESSON}.html")
    found = explorers_on(page)
    labels = labels_of(lang)
    times = {cls: check_live(page, found[cls], lang, controls, labels) for cls, controls in EXPLORERS.items()}
    report(record_property, f"site {where} {lang}", times)
    # the site's light/dark switch: the axes and their texts are redrawn in the page's new colour
    before = found["table-explorer"].evaluate(STATE)["pixels"]
    page.evaluate(
        "document.documentElement.dataset.theme = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark'"
    )
    page.wait_for_function(
        "([el, before]) => el.querySelector('canvas').toDataURL() !== before",
        arg=[found["table-explorer"].element_handle(), before],
        timeout=5_000,
    )
    check_narrow(page, found["table-explorer"])
    traffic.assert_clean()


# ----------------------------------------------------------------------------- the decks

SHOW_SLIDE = """async el => {
    const section = el.closest('section');
    const script = document.querySelector('script[data-requiremodule*="/reveal.js/dist/reveal"]');
    const Reveal = await new Promise(resolve => require([script.dataset.requiremodule], resolve));
    Reveal.configure({transition: 'none', backgroundTransition: 'none'});
    const at = Reveal.getIndices(section);
    Reveal.slide(at.h, at.v);
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_explorers_live_in_the_deck(offline_page, lang, record_property):
    deck = SLIDES / lang / f"{LESSON}.html"
    if not deck.exists():
        pytest.fail(f"{CONFIG.relative(deck)} is missing: run `make slides`")
    page, traffic = offline_page(lang, VIEWPORT, is_file, "deck")
    page.goto(deck.as_uri())
    page.wait_for_function("document.querySelector('.reveal.ready') !== null", timeout=TIMEOUT_MS)
    found = explorers_on(page)
    labels = labels_of(lang)
    times = {}
    for cls, controls in EXPLORERS.items():
        found[cls].evaluate(SHOW_SLIDE)
        times[cls] = check_live(page, found[cls], lang, controls, labels)
    report(record_property, f"deck {lang}", times)
    traffic.assert_clean()


# ----------------------------------------------------------------------------- JupyterLab

PANEL = "window.jupyterapp && window.jupyterapp.shell.currentWidget"
NOTEBOOK_OPEN = f"""() => {{
    const panel = {PANEL};
    return Boolean(panel && panel.content && panel.context && panel.context.isReady && panel.content.widgets.length);
}}"""
KERNEL_IDLE = f"""() => {{
    const panel = {PANEL};
    const kernel = panel && panel.sessionContext.session && panel.sessionContext.session.kernel;
    return Boolean(kernel) && kernel.status === 'idle';
}}"""
# every code cell up to `last` has run: an execution count on each, the kernel idle again
RUN_OVER = f"""last => {{
    const panel = {PANEL};
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    const cells = panel.content.widgets.slice(0, last + 1).filter(c => c.model.type === 'code');
    return kernel && kernel.status === 'idle' && cells.every(c => c.model.executionCount !== null);
}}"""


# the model of every widget shown in a code cell's outputs (the saved state's before the cells run, the
# kernel's after), and the index of the last cell that shows one
WIDGET_MODELS = f"""() => {{
    const panel = {PANEL};
    const ids = [];
    let last = -1;
    panel.content.widgets.forEach((cell, index) => {{
        if (cell.model.type !== 'code') return;
        for (let k = 0; k < cell.model.outputs.length; k++) {{
            const view = cell.model.outputs.get(k).data['application/vnd.jupyter.widget-view+json'];
            if (view) {{
                ids.push(view.model_id);
                last = index;
            }}
        }}
    }});
    return {{ids, last}};
}}"""
# the cells 0 .. last run by the kernel (those above the one after it, or all)
RUN_ABOVE = f"""last => {{
    const panel = {PANEL};
    if (last + 1 >= panel.content.widgets.length) return jupyterapp.commands.execute('notebook:run-all-cells');
    panel.content.activeCellIndex = last + 1;
    return jupyterapp.commands.execute('notebook:run-all-above');
}}"""
RUN_TIMEOUT_MS = 180_000


def run_in_lab(page, shown) -> None:
    """Run the notebook open in JupyterLab with its kernel, every cell up to its last explorer's, and
    wait until they have all run (the cells after it make no widget: they are left).

    The explorers ``shown`` before (locators of their roots, drawn from the saved state) must be gone
    then, and every widget in the outputs must be a model the kernel made, none of the saved ones.
    """
    saved = page.evaluate(WIDGET_MODELS)
    handles = [root.element_handle() for root in shown]
    start = time.monotonic()
    last = saved["last"]
    page.evaluate(RUN_ABOVE, last)
    page.wait_for_function(RUN_OVER, arg=last, timeout=RUN_TIMEOUT_MS, polling=200)
    print(f"\ncells 0 to {last} run in {time.monotonic() - start:.1f} s")
    fresh = page.evaluate(WIDGET_MODELS)["ids"]
    assert saved["ids"] and fresh and not set(fresh) & set(saved["ids"]), (saved, fresh)
    assert not any(h.evaluate("e => e.isConnected") for h in handles), "a saved explorer is still shown"


def open_in_lab(page, lab, notebook: str) -> None:
    """Open the English ``notebook`` in JupyterLab, trusted as `make lab` trusts the course's notebooks
    (or JupyterLab would not show their widgets), and wait until it is shown and its kernel idle."""
    subprocess.run(
        [sys.executable, "-m", "jupyter", "trust", str(lab.root_dir / "en" / f"{notebook}.ipynb")],
        check=True,
        capture_output=True,
    )
    page.goto(lab.url(f"lab/tree/en/{notebook}.ipynb"))
    page.wait_for_function(NOTEBOOK_OPEN, timeout=60_000)
    page.wait_for_function(KERNEL_IDLE, timeout=60_000)


def test_explorers_live_in_jupyterlab_before_and_after_running(jupyterlab, guarded_page, record_property):
    page, traffic = guarded_page
    lab = jupyterlab(locale="en")
    open_in_lab(page, lab, LESSON)
    labels = labels_of("en")

    # before any cell runs: the saved state alone draws the explorers, and they move
    found = explorers_on(page)
    for cls, controls in EXPLORERS.items():
        check_live(page, found[cls], "en", controls, labels)

    # after running the lesson's cells: the kernel's own widgets, drawn by the same module
    run_in_lab(page, list(found.values()))
    found = explorers_on(page)
    times = {cls: check_live(page, found[cls], "en", controls, labels) for cls, controls in EXPLORERS.items()}
    report(record_property, "JupyterLab, after running", times)
    traffic.assert_clean()
    assert lab.outside_requests() == [], f"the server tried to reach: {lab.outside_requests()}"
