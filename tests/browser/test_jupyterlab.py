"""Lesson 5 as a student meets it: JupyterLab in a real browser, in English and in Russian.

nbval proves the kernel side; this proves the browser side. For each language a fresh JupyterLab
(course environment, 127.0.0.1, random port and token, a temporary copy of the notebooks) opens
lesson 5 in headless Chromium, runs every cell, and checks that no cell shows an error and the page
logs no JavaScript error. Then it moves the heatmap explorer's sliders with the keyboard and the
mouse, checks that the heatmap image really changes and the readout follows, and reports how long
the redraw took (reported, never asserted: speed is for benchmarks/). The Russian lesson is opened
in JupyterLab's Russian interface, as `make lab-ru` sets it up.

The Russian interface is checked whole: every menu and submenu opened as a student opens them (the
menu bar's, a cell's and a file's context menus), the command palette, the status bar, the file browser and the tooltips show no string without a Cyrillic
letter that is not a name (Python, a file name, a shortcut, a theme or a programming language), and no news
prompt appears in either language (the course's own settings turn it off: lab/settings/).

The file browser's Modified column, at its default width, with lessons made minutes to a year old: in
Russian every age reads as Russian writes it («14 мин. назад», «позавчера», never CLDR's narrow «-14 мин»)
and none is cut off, nor is the column's heading (the course's extension, lab/relative-time/); in English
the ages are JupyterLab's own («14m ago»).

Screenshots (notebooks/screenshots/, shown by the READMEs) are written only when asked:
``COURSE_SCREENSHOTS=1`` (`make screenshots`); a test run never rewrites a tracked file.

Nothing leaves the machine: the page's requests are blocked and counted, and so are the server's
and its kernels' (a lookup of the news feed's host, say): with ``make lab``'s options there are none,
and the guard does see the news lookup when the feed is left on.
"""

import hashlib
import os
import re
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from course_lib.i18n import LANGUAGE_INFO, LANGUAGES
from course_tools.config import CONFIG, LAB_OFFLINE_OPTIONS
from course_tools.source import KERNELSPEC
from tests.browser.conftest import save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("notebooks_untouched")]

LESSON = next(name for name in CONFIG.lesson_names() if name.endswith("_sinusoidal_encoding"))
SCREENSHOTS = Path(__file__).resolve().parents[2] / "notebooks" / "screenshots"
LOCALES = {lang: LANGUAGE_INFO[lang].lab_locale for lang in LANGUAGES}
# the top-level menus of JupyterLab 4.6 as the Russian language pack names them
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


def screenshot(page, name: str) -> None:
    """Writes notebooks/screenshots/NAME.png if asked (COURSE_SCREENSHOTS=1), else nothing."""
    if os.environ.get("COURSE_SCREENSHOTS") == "1":
        save_screenshot(SCREENSHOTS / f"{name}.png", page.screenshot(animations="disabled"))


# --------------------------------------------------------------------------- the file browser's ages

MINUTE, HOUR, DAY = 60, 3600, 86400
# The lessons other than the one a test opens, made this much older, and what the Modified column shows
# for each at its default width (a pattern): JupyterLab's own narrow style in English, CLDR's short style
# in Russian (lab/relative-time/). A minute's age may show one more if the page takes a minute to draw it.
FILE_AGES = [
    (14 * MINUTE, r"1[45]m ago", r"1[45] мин\. назад"),
    (58 * MINUTE, r"5[89]m ago", r"5[89] мин\. назад"),
    (3 * HOUR, r"3h ago", r"3 ч назад"),
    (2 * DAY, r"2d ago", r"позавчера"),
    (5 * DAY, r"5d ago", r"5 дн\. назад"),
    (40 * DAY, r"last mo\.", r"в прошлом мес\."),  # Russian's widest
    (70 * DAY, r"2mo ago", r"2 мес\. назад"),
    (400 * DAY, r"last yr\.", r"в прошлом г\."),
]
# any age (Time.formatHuman's units: seconds to years), for the lesson the test opens, whose age is the
# checkout's or its last save's
ANY_AGE = {
    "en": r"now|yesterday|\d+(s|m|h|d|mo|y) ago|last (mo|yr)\.",
    "ru": r"сейчас|вчера|позавчера|\d+ (сек\.|мин\.|ч|дн\.|мес\.|г\.) назад|в прошлом (мес|г)\.",
}
FILE_BROWSER_AGES = """() => ({
    items: [...document.querySelectorAll('#filebrowser .jp-DirListing-item')].map(item => {
        const cell = item.querySelector('.jp-DirListing-itemModified');
        return {name: item.querySelector('.jp-DirListing-itemText').textContent, text: cell.textContent,
                width: cell.clientWidth, needs: cell.scrollWidth};
    }),
    heading: [...document.querySelectorAll('#filebrowser .jp-id-modified > .jp-DirListing-headerItemText')]
        .filter(label => label.offsetParent !== null)
        .map(label => ({text: label.textContent, width: label.clientWidth, needs: label.scrollWidth})),
})"""


def age_lessons(folder: Path, lang: str) -> dict[str, str]:
    """Makes the lessons in ``folder`` (but the one the tests open) older by FILE_AGES; returns the pattern
    each one's age must match, by file name."""
    names = sorted(path.name for path in folder.glob("*.ipynb") if path.stem != LESSON)
    assert len(names) == len(FILE_AGES), names
    now = time.time()
    expected = {f"{LESSON}.ipynb": ANY_AGE[lang]}
    for name, (age, english, russian) in zip(names, FILE_AGES, strict=True):
        os.utime(folder / name, (now - age, now - age))
        expected[name] = {"en": english, "ru": russian}[lang]
    return expected


def assert_file_ages(page, expected: dict[str, str]) -> float:
    """Every age in the file browser matches its pattern and shows whole, and so does the column's heading;
    returns the column's width."""
    page.wait_for_function(
        f"() => document.querySelectorAll('#filebrowser .jp-DirListing-item').length === {len(expected)}",
        timeout=TIMEOUT_MS,
    )
    shown = page.evaluate(FILE_BROWSER_AGES)
    wrong = [
        f"{item['name']}: {item['text']!r} does not match {expected.get(item['name'])}"
        for item in shown["items"]
        if not re.fullmatch(expected.get(item["name"], "(?!)"), item["text"])
    ]
    wrong += [
        f"{what['text']!r} is cut: {what['needs']} px in {what['width']} px"
        for what in shown["items"] + shown["heading"]
        if what["needs"] > what["width"]
    ]
    assert len(shown["heading"]) == 1, f"the Modified column's heading shows {shown['heading']}"
    assert wrong == [], f"the file browser's Modified column: {wrong}"
    return max(item["width"] for item in shown["items"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lesson_5_in_jupyterlab(lang, jupyterlab, guarded_page, record_property):
    page, traffic = guarded_page
    timings = {}

    t0 = time.perf_counter()
    lab = jupyterlab(locale=LOCALES[lang])
    timings["server start"] = time.perf_counter() - t0
    ages = age_lessons(lab.root_dir / lang, lang)

    # tall enough for the explorer's sliders, readout and whole heatmap in one screenshot
    page.set_viewport_size(VIEWPORT)
    t0 = time.perf_counter()
    page.goto(lab.url(f"lab/tree/{lang}/{LESSON}.ipynb"))
    page.wait_for_function(NOTEBOOK_READY, timeout=TIMEOUT_MS)
    timings["page ready"] = time.perf_counter() - t0

    menus = page.locator("#jp-MainMenu .lm-MenuBar-itemLabel").all_inner_texts()
    assert menus == MENUS[lang], f"JupyterLab's menus in the {lang} interface: {menus}"
    assert_file_ages(page, ages)

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
    assert_no_news_prompt(page)
    screenshot(page, f"sinusoidal_heatmap_{lang}")

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
    print(f"\nlesson 5 [{lang}] in JupyterLab: {report}")
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


# --------------------------------------------------------------------------- the Russian interface

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN = re.compile(r"[A-Za-z]")
# Names, which stay as they are in a Russian interface: the course's kernel, JupyterLab's own name,
# the names of formats; file names and paths are recognised by their form (FILE_NAME).
NAMES = {KERNELSPEC["display_name"], "JupyterLab", "Jupytext", "Python", "Markdown", "JSON"}
FILE_NAME = re.compile(r"^\S*(/\S*|\.[A-Za-z0-9]+)$")
# Commands whose label is the name of what they open or switch to: a syntax, a theme, an open tab
# (a file name), a recent file (a path), an export format, a kernel's reference manual (the title
# the kernel gives it: "NumPy Reference"), an interface language (as the server names it).
NAME_COMMANDS = re.compile(
    r"^(fileeditor:change-language|fileeditor:change-theme|apputils:change-theme|tabsmenu:activate-by-id"
    r"|recentmenu:open-recent|notebook:export-to-format|help-menu-.*|jupyterlab-translation:[a-z]{2,3}(_[A-Z]{2})?)$"
)
# English that JupyterLab 4.6.6 writes without its translator, so that no language pack can
# translate it: the debugger's (@jupyterlab/debugger-extension, @jupyterlab/debugger)
UNTRANSLATABLE = {
    "Breakpoints on exception",  # the label of debugger:pause-on-exceptions without a filter
    "Notebook Operations",  # the palette group of debugger:restart-debug, a plain string there
    "Enable Debugger",  # the notebook toolbar's debugger button, made with the null translator
}
# and commands whose every label is such: jupytext 1.19.6's pairing commands (their `caption` and
# `paletteLabel`, jupyterlab-jupytext's index.ts, never passed to its translator)
UNTRANSLATABLE_COMMANDS = re.compile(r"^jupytext:pair-nb-with-.*$")

NEWS_PROMPT = re.compile(r"Jupyter news|новост", re.IGNORECASE)

# every item of the menu open at `depth` (0: the menu bar's), as the page shows it
MENU_ITEMS = """depth => {
    const menu = document.querySelectorAll('.lm-Menu')[depth];
    return [...menu.querySelectorAll(':scope > ul > li.lm-Menu-item')]
        .filter(li => li.dataset.type !== 'separator' && li.offsetParent !== null)
        .map((li, index) => (li.dataset.courseIndex = index, {
            label: li.querySelector('.lm-Menu-itemLabel').textContent,
            command: li.dataset.command || '',
            submenu: li.dataset.type === 'submenu',
            enabled: !li.classList.contains('lm-mod-disabled'),
        }));
}"""
MENUS_OPEN = "() => document.querySelectorAll('.lm-Menu').length"
# the tooltips a student can point at, bar those of files and folders (their names)
TOOLTIPS = """() => [...document.querySelectorAll('[title]')]
    .filter(el => el.offsetParent !== null && !el.closest('.jp-BreadCrumbs, .jp-DirListing-content'))
    .map(el => el.getAttribute('title'))"""
PALETTE_ITEMS = """() => [...document.querySelectorAll('.lm-CommandPalette-header, .lm-CommandPalette-item')]
    .filter(el => el.offsetParent !== null)
    .map(el => ({
        label: (el.querySelector('.lm-CommandPalette-itemLabel') || el).textContent,
        command: el.dataset.command || '',
    }))"""


def needs_russian(label: str, command: str = "") -> bool:
    """True for a visible English string: Latin letters, no Cyrillic, and not a name."""
    label = label.strip()
    return bool(
        LATIN.search(label)
        and not CYRILLIC.search(label)
        and label not in NAMES
        and label not in UNTRANSLATABLE
        and not FILE_NAME.match(label)
        and not NAME_COMMANDS.match(command)
        and not UNTRANSLATABLE_COMMANDS.match(command)
    )


def open_menu(page, depth: int, path: str, seen: list[tuple[str, str]]) -> None:
    """Records every item of the menu open at ``depth``, and opens each of its submenus in turn."""
    for index, item in enumerate(page.evaluate(MENU_ITEMS, depth)):
        seen.append((f"{path} › {item['label']}", item["command"]))
        if not (item["submenu"] and item["enabled"]):
            continue
        page.locator(".lm-Menu").nth(depth).locator(f":scope > ul > li[data-course-index='{index}']").hover()
        try:
            page.wait_for_function(f"() => ({MENUS_OPEN})() > {depth + 1}", timeout=5_000)
        except PlaywrightTimeoutError:
            pytest.fail(f"the submenu {path} › {item['label']} does not open")
        open_menu(page, depth + 1, f"{path} › {item['label']}", seen)
        page.keyboard.press("ArrowLeft")  # back to this menu, the submenu closed
        page.wait_for_function(f"() => ({MENUS_OPEN})() === {depth + 1}", timeout=5_000)


def assert_no_news_prompt(page) -> None:
    toasts = page.locator(".Toastify__toast").all_inner_texts()
    assert not [t for t in toasts if NEWS_PROMPT.search(t)], f"the news prompt is shown: {toasts}"


def test_the_russian_interface_is_russian(jupyterlab, guarded_page, record_property):
    page, traffic = guarded_page
    lab = jupyterlab(locale=LOCALES["ru"])
    ages = age_lessons(lab.root_dir / "ru", "ru")
    page.set_viewport_size(VIEWPORT)
    page.goto(lab.url(f"lab/tree/ru/{LESSON}.ipynb"))
    page.wait_for_function(NOTEBOOK_READY, timeout=TIMEOUT_MS)
    # the file browser at its default width, as a student first sees it
    default = assert_file_ages(page, ages)
    # and its Modified column dragged as narrow as it goes (a pixel at a time: JupyterLab ignores a move
    # that would take the column under its minimum)
    handle = page.locator("#filebrowser .jp-DirListing-resizeHandle").first.bounding_box()
    x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + default, y, steps=round(default))
    page.mouse.up()
    narrowest = assert_file_ages(page, ages)
    assert narrowest < default, f"the Modified column stayed {default} px wide"

    seen: list[tuple[str, str]] = []
    for top in page.locator("#jp-MainMenu .lm-MenuBar-itemLabel").all_inner_texts():
        page.locator("#jp-MainMenu .lm-MenuBar-itemLabel").get_by_text(top, exact=True).click()
        page.wait_for_function(f"() => ({MENUS_OPEN})() === 1")
        seen.append((top, ""))
        open_menu(page, 0, top, seen)
        page.keyboard.press("Escape")
        page.wait_for_function(f"() => ({MENUS_OPEN})() === 0")
    # the context menus: of a cell, and of a file in the file browser
    for where, target in [
        ("контекстное меню ячейки", page.locator(".jp-Notebook .jp-CodeCell .jp-InputArea-editor").first),
        ("контекстное меню файла", page.locator(".jp-DirListing-item").first),
    ]:
        target.click(button="right")
        page.wait_for_function(f"() => ({MENUS_OPEN})() === 1")
        open_menu(page, 0, where, seen)
        page.keyboard.press("Escape")
        page.wait_for_function(f"() => ({MENUS_OPEN})() === 0")
    menu_items = len(seen)

    page.keyboard.press("Control+Shift+C")  # the command palette, as the Help menu's shortcut says
    page.locator(".lm-CommandPalette-item:visible").first.wait_for()
    seen += [(f"палитра команд › {i['label']}", i["command"]) for i in page.evaluate(PALETTE_ITEMS)]
    page.keyboard.press("Escape")

    seen += [
        (f"строка состояния › {t}", "") for t in page.locator("#jp-main-statusbar").inner_text().split("\n")
    ]
    page.locator(".jp-Notebook .jp-CodeCell").first.click()  # its cell toolbar shows
    seen += [(f"подсказка › {t}", "") for t in page.evaluate(TOOLTIPS)]
    browser = page.locator(".jp-FileBrowser")
    seen += [(f"файловый менеджер › {t}", "") for t in browser.inner_text().split("\n")]

    # the README's picture of the Russian interface: the File menu over the lesson
    page.evaluate("jupyterapp.shell.collapseLeft()")
    page.locator("#jp-MainMenu .lm-MenuBar-itemLabel").get_by_text(MENUS["ru"][0], exact=True).click()
    page.wait_for_function(f"() => ({MENUS_OPEN})() === 1")
    screenshot(page, "jupyterlab_ru")
    page.keyboard.press("Escape")

    english = [where for where, command in seen if needs_russian(where.rsplit(" › ", 1)[-1], command)]
    assert english == [], (
        f"{len(english)} of {len(seen)} strings of the Russian interface are English: {english}"
    )
    assert_no_news_prompt(page)
    traffic.assert_clean()
    report = f"{menu_items} menu items, {len(seen) - menu_items} palette, status bar, tooltip and file browser strings"
    print(f"\nthe Russian interface: {report}")
    record_property("timings", report)
