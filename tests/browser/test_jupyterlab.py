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
import itertools
import json
import os
import re
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from course_lib.i18n import LANGUAGE_INFO, LANGUAGES
from course_tools.build.source import KERNELSPEC
from course_tools.core.config import CONFIG, LAB_OFFLINE_OPTIONS
from tests.browser.conftest import SELF_STOP_OPTIONS, save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.lab, pytest.mark.usefixtures("notebooks_untouched")]

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
    assert len(names) >= len(FILE_AGES), names  # every age on a file; more lessons take the ages again
    now = time.time()
    expected = {f"{LESSON}.ipynb": ANY_AGE[lang]}
    for name, (age, english, russian) in zip(names, itertools.cycle(FILE_AGES)):
        os.utime(folder / name, (now - age, now - age))
        expected[name] = {"en": english, "ru": russian}[lang]
    return expected


# the lesson made 14 minutes older (FILE_AGES' first), twenty minutes later
LATER = {"en": r"3[45]m ago", "ru": r"3[45] мин\. назад"}
AGE_OF = """name => [...document.querySelectorAll('#filebrowser .jp-DirListing-item')]
    .filter(item => item.querySelector('.jp-DirListing-itemText').textContent === name)
    .map(item => item.querySelector('.jp-DirListing-itemModified').textContent)[0]"""


def assert_ages_follow_the_clock(page, lang: str, expected: dict[str, str]) -> None:
    """Twenty minutes later by the page's clock, the files unchanged, the file browser's next poll (every
    10 s) shows each age twenty minutes older: JupyterLab alone would keep the age it listed the file with
    (lab/relative-time/ages.js)."""
    name = sorted(n for n in expected if n != f"{LESSON}.ipynb")[0]
    before = page.evaluate(AGE_OF, name)
    page.evaluate("() => { const now = Date.now.bind(Date); Date.now = () => now() + 20 * 60 * 1000; }")
    try:
        page.wait_for_function(
            f"name => new RegExp({json.dumps('^(' + LATER[lang] + ')$')}).test(({AGE_OF})(name))",
            arg=name,
            timeout=30_000,
        )
    except PlaywrightTimeoutError:
        pytest.fail(f"twenty minutes later {name} is still {page.evaluate(AGE_OF, name)!r} (was {before!r})")


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


# --------------------------------------------------------------------------- the interface, whole

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
# a word in Latin letters, with what a name holds inside it (C++, ipykernel, R's "Rmd")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[+#]+)?")
# Names, which stay as they are in a Russian interface: the course's kernel, Jupyter's and its tools' own
# names, the names of formats and of the file types Jupytext pairs a notebook with (its own lower-case names:
# percent, light, nomarker); file names and paths are recognised by their form (FILE_TOKEN).
NAMES = {
    *LATIN_WORD.findall(KERNELSPEC["display_name"]),  # Python 3 (ipykernel)
    *("Jupyter", "JupyterLab", "Jupytext", "Python", "IPython", "Markdown", "MyST", "JSON", "HTML", "URL"),
    *("R", "Quarto", "Marimo", "Hydrogen", "ipynb", "md", "Rmd", "qmd", "percent", "light", "nomarker"),
    *("Enter", "Shift"),  # keys, as the keyboard names them
}
# a keyboard shortcut: «Файловый менеджер (Ctrl+Shift+F)», «Вставить ячейку ниже (B)», «Shift+правый клик»
SHORTCUT = re.compile(r"\((?:(?:Ctrl|Shift|Alt|Cmd|Accel)\+)*[\w-]+\)$|\b(?:Ctrl|Shift|Alt|Cmd|Accel)\+")
# a file name or a path inside a string: 05_sinusoidal_encoding.ipynb, ru/, /lab/tree
FILE_TOKEN = re.compile(r"\S*(?:/|\.[A-Za-z0-9]+\b)\S*")
# Commands whose label is the name of what they open or switch to: a syntax, a theme, an open tab
# (a file name), a recent file (a path), an export format, a kernel's reference manual (the title
# the kernel gives it: "NumPy Reference"), an interface language (as the server names it).
NAME_COMMANDS = re.compile(
    r"^(fileeditor:change-language|fileeditor:change-theme|apputils:change-theme|tabsmenu:activate-by-id"
    r"|recentmenu:open-recent|notebook:export-to-format|help-menu-.*|jupyterlab-translation:[a-z]{2,3}(_[A-Z]{2})?"
    r"|apputils:change-(light|dark)-theme)$"
)
# what a string never shows in any language: a placeholder left unfilled, a value JavaScript wrote as text
GARBAGE = re.compile(r"%\d|\{\w*\}|\bundefined\b|\bnull\b|\bNaN\b|\[object |\ufffd")
# the glossary's word for a notebook is «ноутбук» (notebooks/GLOSSARY.md); the official pack's were others
OTHER_NOTEBOOK = re.compile(r"блокнот|записн\w* книж|заметк", re.IGNORECASE)

NEWS_PROMPT = re.compile(r"Jupyter news|новост", re.IGNORECASE)
# where each part of the walk is, in the report
PARTS = {
    "en": {
        "cell": "a cell's context menu",
        "file": "a file's context menu",
        "palette": "the command palette",
        "status": "the status bar",
        "tooltip": "a tooltip",
        "browser": "the file browser",
    },
    "ru": {
        "cell": "контекстное меню ячейки",
        "file": "контекстное меню файла",
        "palette": "палитра команд",
        "status": "строка состояния",
        "tooltip": "подсказка",
        "browser": "файловый менеджер",
    },
}

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


@dataclass(frozen=True)
class Shown:
    """One string of the interface: where it is, the text, the command it runs (menus and the palette)."""

    where: str
    text: str
    command: str = ""
    item: bool = False  # a menu's or the palette's item: it must have a label


def foreign_words(shown: Shown) -> list[str]:
    """The Latin-letter words of a Russian interface's string that are not names."""
    if NAME_COMMANDS.match(shown.command):
        return []
    text = SHORTCUT.sub(" ", FILE_TOKEN.sub(" ", shown.text))
    return [w for w in LATIN_WORD.findall(text) if w not in NAMES]


def problems(lang: str, seen: list[Shown]) -> list[str]:
    """What is wrong with the strings ``seen`` in the ``lang`` interface: an item without a label, a
    placeholder or a JavaScript value shown as text; in English any Cyrillic; in Russian any Latin-letter
    word that is not a name, or a notebook called otherwise than the glossary says."""
    found = [f"{s.where}: no label ({s.command})" for s in seen if s.item and not s.text.strip()]
    found += [f"{s.where} › {s.text}" for s in seen if GARBAGE.search(s.text)]
    if lang == "ru":
        found += [f"{s.where} › {s.text} ({', '.join(words)})" for s in seen if (words := foreign_words(s))]
        found += [f"{s.where} › {s.text} (ноутбук)" for s in seen if OTHER_NOTEBOOK.search(s.text)]
    else:
        # (but the name of an interface language, which is its own: «Русский (Россия)»)
        found += [
            f"{s.where} › {s.text}"
            for s in seen
            if CYRILLIC.search(s.text) and not NAME_COMMANDS.match(s.command)
        ]
    return found


def test_the_checks_of_the_walk_catch_what_they_are_for():
    """The walk's rules on made-up strings: each kind of mistake is caught, names and file names are not."""
    assert problems("ru", [Shown("Файл", "Новый ноутбук", "notebook:create-new", True)]) == []
    assert problems("ru", [Shown("Файл", "Связать ноутбук со скриптом в формате percent")]) == []
    assert problems("ru", [Shown("Ядро", "Python 3 (ipykernel) | Ожидание")]) == []
    assert problems("ru", [Shown("Вкладки", "05_sinusoidal_encoding.ipynb", "tabsmenu:activate-by-id")]) == []
    assert problems("ru", [Shown("подсказка", "Открыть ru/05_sinusoidal_encoding.ipynb")]) == []
    assert problems("ru", [Shown("подсказка", "Файловый менеджер (Ctrl+Shift+F)")]) == []
    assert problems("ru", [Shown("подсказка", "Последняя контрольная точка: None")]) == [
        "подсказка › Последняя контрольная точка: None (None)"
    ]
    assert problems("ru", [Shown("Файл", "Pair with md", "jupytext:pair-nb-with-md", True)]) == [
        "Файл › Pair with md (Pair, with)"
    ]
    assert problems("ru", [Shown("Файл", "Новый блокнот")]) == ["Файл › Новый блокнот (ноутбук)"]
    assert problems("ru", [Shown("Файл", "", "jupytext:faq", True)]) == ["Файл: no label (jupytext:faq)"]
    assert problems("en", [Shown("File", "Новый ноутбук")]) == ["File › Новый ноутбук"]
    assert problems("en", [Shown("File", "Reopen %1")]) == ["File › Reopen %1"]
    assert problems("en", [Shown("Help", "About undefined")]) == ["Help › About undefined"]


def open_menu(page, depth: int, path: str, seen: list[Shown], shots: Path | None = None) -> None:
    """Records every item of the menu open at ``depth``, and opens each of its submenus in turn; with
    ``shots``, a picture of each menu of the menu bar and each of their submenus goes there."""
    if shots is not None and depth <= 1:
        name = re.sub(r"[^\w]+", "_", path).strip("_")
        page.screenshot(path=str(shots / f"{name}.png"), animations="disabled")
    for index, item in enumerate(page.evaluate(MENU_ITEMS, depth)):
        seen.append(Shown(path, item["label"], item["command"], item=True))
        if not (item["submenu"] and item["enabled"]):
            continue
        page.locator(".lm-Menu").nth(depth).locator(f":scope > ul > li[data-course-index='{index}']").hover()
        try:
            page.wait_for_function(f"() => ({MENUS_OPEN})() > {depth + 1}", timeout=5_000)
        except PlaywrightTimeoutError:
            pytest.fail(f"the submenu {path} › {item['label']} does not open")
        open_menu(page, depth + 1, f"{path} › {item['label']}", seen, shots)
        page.keyboard.press("ArrowLeft")  # back to this menu, the submenu closed
        page.wait_for_function(f"() => ({MENUS_OPEN})() === {depth + 1}", timeout=5_000)


def assert_no_news_prompt(page) -> None:
    toasts = page.locator(".Toastify__toast").all_inner_texts()
    assert not [t for t in toasts if NEWS_PROMPT.search(t)], f"the news prompt is shown: {toasts}"


def walk_interface(page, lang: str, shots: Path | None = None) -> list[Shown]:
    """Every string a student meets in the lesson's JupyterLab: every menu of the menu bar and each of their
    submenus, the context menus of a cell and of a file in the file browser, the command palette, the
    status bar, the tooltips (a cell's toolbar shown) and the file browser."""
    part = PARTS[lang]
    seen: list[Shown] = []
    for top in page.locator("#jp-MainMenu .lm-MenuBar-itemLabel").all_inner_texts():
        page.locator("#jp-MainMenu .lm-MenuBar-itemLabel").get_by_text(top, exact=True).click()
        page.wait_for_function(f"() => ({MENUS_OPEN})() === 1")
        seen.append(Shown("", top, item=True))
        open_menu(page, 0, top, seen, shots)
        page.keyboard.press("Escape")
        page.wait_for_function(f"() => ({MENUS_OPEN})() === 0")
    for where, target in [
        (part["cell"], page.locator(".jp-Notebook .jp-CodeCell .jp-InputArea-editor").first),
        (part["file"], page.locator(".jp-DirListing-item").first),
    ]:
        target.click(button="right")
        page.wait_for_function(f"() => ({MENUS_OPEN})() === 1")
        open_menu(page, 0, where, seen, shots)
        page.keyboard.press("Escape")
        page.wait_for_function(f"() => ({MENUS_OPEN})() === 0")

    page.keyboard.press("Control+Shift+C")  # the command palette, as the Help menu's shortcut says
    page.locator(".lm-CommandPalette-item:visible").first.wait_for()
    seen += [
        Shown(part["palette"], i["label"], i["command"], item=True) for i in page.evaluate(PALETTE_ITEMS)
    ]
    page.keyboard.press("Escape")

    lines = page.locator("#jp-main-statusbar").inner_text().split("\n")
    seen += [Shown(part["status"], t) for t in lines if t.strip()]
    page.locator(".jp-Notebook .jp-CodeCell").first.click()  # its cell toolbar shows
    seen += [Shown(part["tooltip"], t) for t in page.evaluate(TOOLTIPS)]
    seen += [
        Shown(part["browser"], t)
        for t in page.locator(".jp-FileBrowser").inner_text().split("\n")
        if t.strip()
    ]
    return seen


def test_the_interface_is_wholly_in_each_language(jupyterlab, guarded_page, record_property):
    """The walk in English, then in Russian, each in a fresh JupyterLab: in Russian every string is Russian
    but for names, in English nothing is Russian, nowhere a label is missing or garbled, and both walks meet
    the same commands. ``COURSE_MENU_SCREENSHOTS=DIR`` saves a picture of every menu and submenu there (not
    the README's: `make screenshots` writes that one)."""
    page, traffic = guarded_page
    page.set_viewport_size(VIEWPORT)
    shots_root = os.environ.get("COURSE_MENU_SCREENSHOTS")
    commands, counts, wrong = {}, {}, {}
    for lang in ("en", "ru"):
        lab = jupyterlab(locale=LOCALES[lang])
        ages = age_lessons(lab.root_dir / lang, lang)
        page.goto(lab.url(f"lab/tree/{lang}/{LESSON}.ipynb"))
        page.wait_for_function(NOTEBOOK_READY, timeout=TIMEOUT_MS)
        menus = page.locator("#jp-MainMenu .lm-MenuBar-itemLabel").all_inner_texts()
        assert menus == MENUS[lang], f"JupyterLab's menus in the {lang} interface: {menus}"
        if lang == "ru":
            check_russian_file_ages(page, ages)
        shots = None
        if shots_root:
            shots = Path(shots_root) / lang
            shots.mkdir(parents=True, exist_ok=True)
        seen = walk_interface(page, lang, shots)
        assert_ages_follow_the_clock(page, lang, ages)
        commands[lang] = {s.command for s in seen if s.command}
        counts[lang] = len(seen)
        wrong[lang] = problems(lang, seen)
        if lang == "ru":
            # the README's picture of the Russian interface: the File menu over the lesson
            page.evaluate("jupyterapp.shell.collapseLeft()")
            page.locator("#jp-MainMenu .lm-MenuBar-itemLabel").get_by_text(MENUS["ru"][0], exact=True).click()
            page.wait_for_function(f"() => ({MENUS_OPEN})() === 1")
            screenshot(page, "jupyterlab_ru")
            page.keyboard.press("Escape")
        assert_no_news_prompt(page)
    assert wrong == {"en": [], "ru": []}, "\n".join(f"[{lang}] {w}" for lang, ws in wrong.items() for w in ws)
    assert commands["ru"] == commands["en"], (
        f"only in English: {sorted(commands['en'] - commands['ru'])}; "
        f"only in Russian: {sorted(commands['ru'] - commands['en'])}"
    )
    traffic.assert_clean()
    report = ", ".join(f"{lang}: {n} strings" for lang, n in counts.items())
    report += f", {len(commands['en'])} commands in each"
    print(f"\nthe interface, whole: {report}")
    record_property("timings", report)


def check_russian_file_ages(page, ages: dict[str, str]) -> None:
    """The file browser at its default width, as a student first sees it, and its Modified column dragged as
    narrow as it goes: every age as Russian writes it, none cut (lab/relative-time/)."""
    default = assert_file_ages(page, ages)
    # (a pixel at a time: JupyterLab ignores a move that would take the column under its minimum)
    handle = page.locator("#filebrowser .jp-DirListing-resizeHandle").first.bounding_box()
    x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + default, y, steps=round(default))
    page.mouse.up()
    narrowest = assert_file_ages(page, ages)
    assert narrowest < default, f"the Modified column stayed {default} px wide"


# --------------------------------------------------------------------------- an explorer without a kernel

EXPLORERS_NOTEBOOK = "explorers_without_a_kernel.ipynb"
# each explorer in the notebook: its language, the line under it, whether the renderer marks it
# disconnected and whether that mark shows as JupyterLab's red icon (its ::before)
EXPLORER_STATUS = """() => [...document.querySelectorAll('.jp-OutputArea-output .course-explorer')].map(el => {
    const icon = getComputedStyle(el, '::before');
    const line = el.querySelector(':scope > .course-explorer-status');
    return {lang: el.lang, line: line && line.offsetParent !== null ? line.textContent : null,
            disconnected: el.classList.contains('jupyter-widgets-disconnected'),
            icon: icon.display !== 'none' && icon.content !== 'none'};
})"""


def explorers_notebook(folder: Path) -> str:
    """A notebook with lesson 5's explorer in each of the course's languages, run and saved with its widget
    state as `make notebooks` saves a lesson (its module and texts are today's course_lib's), and signed as
    `make lab` signs the lessons; its name in ``folder``."""
    import subprocess
    import sys

    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(metadata={"kernelspec": KERNELSPEC})
    nb.cells = [
        nbformat.v4.new_code_cell(
            f"from course_lib.widgets import TableExplorer\nTableExplorer(lang={lang!r})"
        )
        for lang in LANGUAGES
    ]
    NotebookClient(nb, kernel_name=KERNELSPEC["name"], store_widget_state=True, timeout=120).execute()
    path = folder / EXPLORERS_NOTEBOOK
    nbformat.write(nb, path)
    subprocess.run([sys.executable, "-m", "jupyter", "trust", str(path)], check=True, capture_output=True)
    return path.name


def test_an_explorer_says_it_needs_no_kernel_until_the_lesson_runs(jupyterlab, guarded_page):
    """Opened, a lesson's explorers draw from its saved state with no kernel connected: under each, in its
    language, a line says it works in the page and how to connect it, instead of the renderer's red
    "disconnected" icon; once the cells run, the kernel's explorers are connected and the line is gone."""
    from course_lib.widgets.messages import LIVE

    page, traffic = guarded_page
    lab = jupyterlab(locale=LOCALES["ru"])
    name = explorers_notebook(lab.root_dir)
    page.set_viewport_size(VIEWPORT)
    page.goto(lab.url(f"lab/tree/{name}"))
    page.wait_for_function(NOTEBOOK_READY, timeout=TIMEOUT_MS)
    page.wait_for_function(
        f"() => ({EXPLORER_STATUS})().filter(e => e.line).length === {len(LANGUAGES)}", timeout=TIMEOUT_MS
    )
    before = page.evaluate(EXPLORER_STATUS)
    assert before == [
        {"lang": lang, "line": LIVE("no_kernel", lang), "disconnected": True, "icon": False}
        for lang in LANGUAGES
    ], before

    page.evaluate("jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(RUN_ALL_OVER, timeout=TIMEOUT_MS, polling=100)
    page.wait_for_function(
        f"() => {{ const e = ({EXPLORER_STATUS})(); return e.length === {len(LANGUAGES)}"
        " && e.every(x => !x.disconnected && !x.line); }",
        timeout=TIMEOUT_MS,
    )
    traffic.assert_clean()
    # had this test been killed, its server would stop by itself (conftest's SELF_STOP_OPTIONS): the
    # kernel it started culled once idle with no connection, then the server shut down
    log = lab.log.read_text(encoding="utf-8", errors="replace")
    settings = dict(option.removeprefix("--").split("=") for option in SELF_STOP_OPTIONS)
    idle, every = (settings[f"MappingKernelManager.cull_{name}"] for name in ("idle_timeout", "interval"))
    assert f"Culling kernels with idle durations > {idle} seconds at {every} second intervals" in log
    assert (
        f"Will shut down after {settings['ServerApp.shutdown_no_activity_timeout']} seconds with no kernels."
        in log
    )
