"""Lesson 5 as a student meets it: JupyterLab in a real browser, in English and in Russian.

nbval proves the kernel side; this proves the browser side. For each language a fresh JupyterLab
(course environment, 127.0.0.1, random port and token, a temporary copy of the notebooks) opens
lesson 5 in headless Chromium, runs every cell, and checks that no cell shows an error and the page
logs no JavaScript error. Then it moves the heatmap explorer's sliders with the keyboard and the
mouse, checks that the heatmap image really changes and the readout follows, and reports how long
the redraw took (reported, never asserted: speed is for benchmarks/). The Russian lesson is opened
in JupyterLab's Russian interface, whose menus are checked. Screenshots of both go to
notebooks/screenshots/, where the README shows them.

Nothing leaves the machine: the page's requests are blocked and counted, and so are the server's
and its kernels' (a lookup of the news feed's host, say): with ``make lab``'s options there are none,
and the guard does see the news lookup when the feed is left on.
"""

import hashlib
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from course_tools.config import CONFIG, LAB_OFFLINE_OPTIONS
from tests.browser.conftest import save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("notebooks_untouched")]

LESSON = next(name for name in CONFIG.lesson_names() if name.endswith("_sinusoidal_encoding"))
SCREENSHOTS = Path(__file__).resolve().parents[2] / "notebooks" / "screenshots"
LOCALES = {"en": "en", "ru": "ru_RU"}
# the top-level menus of JupyterLab 4.6 as jupyterlab-language-pack-ru-ru names them
MENUS = {
    "en": ["File", "Edit", "View", "Run", "Kernel", "Tabs", "Settings", "Help"],
    "ru": ["Файл", "Редактировать", "Просмотр", "Выполнить", "Ядро", "Вкладки", "Настройки", "Справка"],
}
RUN_MENU = {"en": "Run", "ru": "Выполнить"}
RUN_ALL = {"en": "Run All Cells", "ru": "Запустить все ячейки"}
VIEWPORT = {"width": 1280, "height": 1000}
TIMEOUT_MS = 60_000
SETTLE_TIMEOUT_MS = 20_000

# The notebook panel JupyterLab shows, reached through the app it exposes
# (--LabApp.expose_app_in_browser).
PANEL = "window.jupyterapp && window.jupyterapp.shell.currentWidget"

NOTEBOOK_READY = f"""() => {{
    const panel = {PANEL};
    if (!panel || !panel.content || !panel.context || !panel.context.isReady) return false;
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    return Boolean(kernel) && kernel.status === 'idle' && panel.content.widgets.length > 0;
}}"""

# Error outputs, except in cells tagged to show one on purpose.
UNEXPECTED_ERRORS = """panel => panel.content.widgets.flatMap((cell, index) => {
    if (cell.model.type !== 'code') return [];
    if ((cell.model.getMetadata('tags') || []).includes('raises-exception')) return [];
    return cell.model.outputs.toJSON()
        .filter(output => output.output_type === 'error')
        .map(output => `cell ${index + 1}: ${output.ename}: ${output.evalue}`);
})"""

# Run-all is over when the kernel is idle and every code cell has run, or one failed (which
# stops the run).
RUN_ALL_OVER = f"""() => {{
    const panel = {PANEL};
    const code = panel.content.widgets.filter(cell => cell.model.type === 'code');
    const failed = ({UNEXPECTED_ERRORS})(panel).length > 0;
    return panel.sessionContext.session.kernel.status === 'idle'
        && (failed || code.every(cell => cell.model.executionCount !== null));
}}"""

# Time stamps of the user's input and of every heatmap redraw, taken in the page itself. The live
# explorer (course_lib/widgets/live.py) writes its readout with every drawing of its canvas.
WATCH = """readout => {
    window.__redraws = [];
    window.__inputAt = null;
    new MutationObserver(() => window.__redraws.push(performance.now()))
        .observe(readout, {childList: true, characterData: true, subtree: true});
    for (const type of ['keydown', 'pointerdown']) {
        document.addEventListener(type, () => { window.__inputAt = performance.now(); }, true);
    }
}"""

# Bring the explorer's cell to the top of the notebook, as the active cell. JupyterLab scrolls
# smoothly, and cells above are only laid out when seen (content-visibility), so the cell's place
# moves while it scrolls: wait for the scrolling to stop, then check, and repeat if needed.
SCROLL_TO_TOP = f"""async element => {{
    const notebook = {PANEL}.content;
    const index = notebook.widgets.findIndex(cell => cell.node.contains(element));
    const scroller = element.closest('.jp-WindowedPanel-outer');
    const frame = () => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    notebook.activeCellIndex = index;
    for (let i = 0; i < 20; i++) {{
        await notebook.scrollToItem(index, 'start', 0);
        let last;
        do {{
            last = scroller.scrollTop;
            await frame();
        }} while (scroller.scrollTop !== last);
        const cell = notebook.widgets[index].node;
        if (Math.abs(cell.getBoundingClientRect().top - scroller.getBoundingClientRect().top) < 1) return;
    }}
}}"""


def _image_digest(canvas) -> str:
    return hashlib.sha256(canvas.evaluate("c => c.toDataURL()").encode()).hexdigest()[:16]


# The redraw for the slider's final value is done when the kernel is idle and the readout has
# changed and shows that value (as a whole number: 6 must not match 64).
FOLLOWS = rf"""([slider, readout, before]) => {{
    const value = slider.querySelector('output').textContent.trim();
    const text = readout.textContent;
    const numbers = text.match(/\d+(?:\.\d+)?/g) || [];
    return {PANEL}.sessionContext.session.kernel.status === 'idle'
        && text !== before && numbers.includes(value);
}}"""


def _slider_value(slider) -> str:
    return slider.locator("output").inner_text().strip()


def _move_and_check(page, slider, move, readout, img) -> tuple[float, int]:
    """Move a slider; check the slider moved, the readout follows and the heatmap changed.

    Returns the seconds from the input event to the last redraw, and the number of redraws.
    """
    value, text, image = _slider_value(slider), readout.evaluate("el => el.textContent"), _image_digest(img)
    page.evaluate("window.__redraws = []")
    move()
    try:
        page.wait_for_function(
            FOLLOWS, arg=[slider.element_handle(), readout.element_handle(), text], timeout=SETTLE_TIMEOUT_MS
        )
    except PlaywrightTimeoutError:
        pytest.fail(
            f"the readout {readout.inner_text()!r} does not follow the slider's value {_slider_value(slider)}"
        )
    assert _slider_value(slider) != value, f"the slider did not move from {value}"
    assert _image_digest(img) != image, "the heatmap image did not change"
    input_at, redraws = page.evaluate(
        "[window.__inputAt, window.__redraws.filter(t => t >= window.__inputAt)]"
    )
    assert redraws, "the heatmap was not redrawn after the slider moved"
    return (redraws[-1] - input_at) / 1000, len(redraws)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_lesson_4_in_jupyterlab(lang, jupyterlab, guarded_page, record_property):
    page, traffic = guarded_page
    timings = {}

    t0 = time.perf_counter()
    lab = jupyterlab(locale=LOCALES[lang])
    timings["server start"] = time.perf_counter() - t0

    # tall enough for the explorer's sliders, readout and whole heatmap in one screenshot
    page.set_viewport_size(VIEWPORT)
    t0 = time.perf_counter()
    page.goto(lab.url(f"lab/tree/{lang}/{LESSON}.ipynb"))
    page.wait_for_function(NOTEBOOK_READY, timeout=TIMEOUT_MS)
    timings["page ready"] = time.perf_counter() - t0

    menus = page.locator("#jp-MainMenu .lm-MenuBar-itemLabel").all_inner_texts()
    assert menus == MENUS[lang], f"JupyterLab's menus in the {lang} interface: {menus}"

    # Clear the outputs saved in the notebook first, so that everything checked below was made
    # by this browser's kernel.
    page.evaluate("jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    t0 = time.perf_counter()
    # as a student does it: through the menu, in the interface's language
    page.locator("#jp-MainMenu .lm-MenuBar-itemLabel").get_by_text(RUN_MENU[lang], exact=True).click()
    page.locator(".lm-Menu-itemLabel").get_by_text(RUN_ALL[lang], exact=True).click()
    page.wait_for_function(RUN_ALL_OVER, timeout=TIMEOUT_MS, polling=100)
    timings["run all"] = time.perf_counter() - t0
    errors = page.evaluate(f"({UNEXPECTED_ERRORS})({PANEL})")
    assert errors == [], f"cells show errors: {errors}"

    explorer = page.locator(".jp-OutputArea-output .table-explorer").first
    img = explorer.locator("canvas")
    img.wait_for(timeout=TIMEOUT_MS)
    page.wait_for_function("canvas => canvas.width > 0", arg=img.element_handle())
    readout = explorer.locator(".course-explorer-readout")
    sliders = explorer.locator(".course-explorer-control")
    assert sliders.count() >= 2, "the heatmap explorer has fewer than two sliders"

    # The file browser shows file ages ("3 min ago"): hide it so that the screenshots only change
    # when the lesson does.
    page.evaluate("jupyterapp.shell.collapseLeft()")
    explorer.evaluate(SCROLL_TO_TOP)
    # the toolbar's execution indicator settles a moment after the kernel does
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for(timeout=TIMEOUT_MS)
    save_screenshot(SCREENSHOTS / f"sinusoidal_heatmap_{lang}.png", page.screenshot(animations="disabled"))

    readout.evaluate(WATCH)

    def press():
        sliders.nth(0).locator("input").focus()
        page.keyboard.press("ArrowRight")

    def drag():
        box = sliders.nth(1).locator("input").bounding_box()
        x, y = box["x"] + box["width"] / 4, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 60, y, steps=6)
        page.mouse.up()

    timings["redraw, keyboard"], _ = _move_and_check(page, sliders.nth(0), press, readout, img)
    timings["redraw, mouse drag"], drag_redraws = _move_and_check(page, sliders.nth(1), drag, readout, img)

    traffic.assert_clean()
    # the page never asks for news with the feed off; asking anyway must not make the server look it up
    fetch(lab, "lab/api/news")
    assert lab.outside_requests() == [], f"the server tried to reach: {lab.outside_requests()}"

    report = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in timings.items())
    report += f" ({drag_redraws} redraws during the drag)"
    print(f"\nlesson 4 [{lang}] in JupyterLab: {report}")
    record_property("timings", report)


def fetch(lab, path: str) -> bytes:
    with urllib.request.urlopen(lab.url(path), timeout=60) as reply:
        return reply.read()


def test_the_server_guard_sees_the_news_lookup_when_the_feed_is_on(jupyterlab):
    """Without `--LabApp.news_url=None` (as `make lab` was), opening /lab/api/news looks up the feed's host."""
    lab = jupyterlab(options=tuple(o for o in LAB_OFFLINE_OPTIONS if not o.startswith("--LabApp.news_url")))
    fetch(lab, "lab/api/news")
    assert any(line.startswith("getaddrinfo jupyterlab.github.io") for line in lab.outside_requests()), (
        lab.outside_requests()
    )
