"""The course website in headless Chromium, from file:// and from a local HTTP server.

``make site`` builds ``site/``; this opens it as a reader would, both ways (``file://`` by
double-click, ``http://127.0.0.1`` as any static host serves it), and checks:

- every lesson's page in every language: the lesson's title; every formula typeset by MathJax
  (none failed, no raw ``$$`` or TeX left in the text); every image decoded; every widget
  rendered from its saved state, its images decoded (no placeholder such as ``VBox(children=...)``
  instead); the notebook to download next to the page; a switch to the same
  lesson in each other language;
- the home pages: every lesson in order, with its deck and notebook; the glossary;
- the language switch: it lands on the twin page at the section being read, and the root page
  then opens the language chosen last;
- search, offline, in each language (a Russian word form finds the page through the stemmer);
- the Russian interface: navigation, search box, previous/next, buttons' titles in Russian;
- no request leaves the machine: every one is routed, anything that is neither ``file://``
  nor 127.0.0.1 is blocked and counted (it must be 0), and a local file that fails to load is
  a missing asset.

Screenshots of the sinusoidal lesson (English and Russian) go to ``site_screenshots/``, where the
instructors' guide (docs/INSTRUCTORS.md) shows them. Run after ``make site`` (``make browser-site`` does both).
"""

import functools
import http.server
import re
import shutil
import threading
import time
from urllib.parse import unquote, urlsplit

import pytest

from course_tools.build.course import Course
from course_tools.core.config import CONFIG, LANGUAGE_DATA, LANGUAGES, SOURCE_LANGUAGE
from course_tools.publish.site_pages import STORAGE_KEY, TEXT
from course_tools.publish.site_theme import SECTION_ANCHOR
from tests.browser.conftest import (
    LOCAL_FONT_FACES,
    FontProbe,
    course_font,
    foreign_fonts,
    is_file,
    is_local,
    missing_font_files,
    save_screenshot,
)

pytestmark = pytest.mark.browser

SITE = CONFIG.site_dir
SCREENSHOTS = CONFIG.root / "site_screenshots"
VIEWPORT = {"width": 1280, "height": 860}
# tall enough for the heatmap section: its static figure and, below, the widget drawn from its saved state
SCREENSHOT_VIEWPORT = {"width": 1280, "height": 1480}
COURSE = Course.load()
PAGES = [(name, lang) for name in COURSE.names for lang in LANGUAGES]
SINUSOIDAL = next((name for name in COURSE.names if name.endswith("_sinusoidal_encoding")), None)
WHERE = ("file", "http")
# a word of the sinusoidal lesson's title, and a form of it the stemmer must reduce to the same stem
SEARCH_TERMS = {"en": ["positional", "encodings"], "ru": ["позиционное", "позиционного"]}
# what the widget renderer shows when a widget cannot be drawn, or what a notebook shows without it
WIDGET_PLACEHOLDERS = re.compile(
    r"(VBox|HBox|Box|IntSlider|FloatSlider|Output|interactive)\(children=|Loading widget|"
    r"Error (displaying|rendering) widget|Model not found|A Jupyter widget could not be displayed"
)
# Sphinx prints "straight" quotes as typographic ones
STRAIGHT_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})


# ----------------------------------------------------------------------------- serving and guarding


@pytest.fixture(scope="session")
def site_root() -> dict[str, str]:
    """The site's root URL, from file:// and from a local HTTP server (started once)."""
    if not (SITE / "index.html").exists():
        pytest.fail(f"{CONFIG.relative(SITE)}/ is missing: run `make site`")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield {"file": SITE.as_uri(), "http": f"http://127.0.0.1:{server.server_address[1]}"}
    finally:
        server.shutdown()
        server.server_close()


def site_url(url: str) -> bool:
    """What a site page may load: its own files, from file:// or the local server, and inline data."""
    return is_file(url) or is_local(url)


@pytest.fixture
def site_page(offline_page):
    """``open(lang)`` -> (page, traffic): a fresh browser context in ``lang``, nothing leaving the machine."""
    return lambda lang=SOURCE_LANGUAGE: offline_page(lang, VIEWPORT, site_url, "page")


def settle(page) -> None:
    """The page loaded, MathJax done, every widget drawn and every image decoded."""
    page.wait_for_load_state("load")
    page.evaluate("async () => { if (window.MathJax && MathJax.startup) await MathJax.startup.promise; }")
    views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
    if views:
        # the renderer puts each view's widget in a .widget-subarea when the page has loaded
        page.wait_for_function(
            "n => document.querySelectorAll('.widget-subarea > .lm-Widget').length >= n",
            arg=views,
            timeout=20_000,
        )
    page.wait_for_function("[...document.images].every(img => img.complete)")
    # widgets typeset their labels after they are drawn
    page.evaluate("async () => { if (window.MathJax && MathJax.startup) await MathJax.startup.promise; }")


def assert_course_fonts(page, site_root: dict[str, str]) -> None:
    """Every text of the page (navigation, headings, prose, lists, tables, code, outputs, widgets) was
    drawn by the course's own web fonts, MathJax's or the theme's icons: never by the machine's fonts; and
    every web font the page declares is a file of the site, whether it was opened from file:// or the server."""
    foreign = foreign_fonts(FontProbe(page).fonts("body"), course_font)
    assert foreign == {}, f"text of {page.url} drawn by fonts that are not the course's: {foreign}"
    local = page.evaluate(LOCAL_FONT_FACES)
    assert local == [], f"{page.url} would take these fonts from the machine: {local}"
    missing = missing_font_files(page, {site_root["http"]: SITE})
    assert missing == [], f"{page.url} declares web fonts the site does not have: {missing}"


# ----------------------------------------------------------------------------- every lesson page


def page_url(root: str, lang: str, page: str) -> str:
    return f"{root}/{lang}/{page}"


# TeX that MathJax never saw would be on the page as text (code, scripts and the TOC's sources aside)
RAW_TEX = r"""() => {
    const walker = document.createTreeWalker(document.querySelector('article'), NodeFilter.SHOW_TEXT, {
        acceptNode: n => n.parentElement.closest('script, style, pre, code, mjx-container, .jupyter-widgets')
            ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
    const found = [];
    while (walker.nextNode())
        if (/\$\$|\\(frac|sin|cos|sqrt|text|cdot|omega|lambda)\b/.test(walker.currentNode.nodeValue))
            found.push(walker.currentNode.nodeValue.trim());
    return found;
}"""

PAGE_FACTS = """() => {
    const article = document.querySelector('article');
    const widgets = [...document.querySelectorAll('.widget-subarea > .lm-Widget')];
    return {
        lang: document.documentElement.lang,
        heading: article.querySelector('h1').textContent.replace('#', '').trim(),
        formulas: article.querySelectorAll('.math').length,
        typeset: article.querySelectorAll('.math > mjx-container, mjx-container.MathJax').length,
        mathErrors: [...document.querySelectorAll('mjx-merror')].map(e => e.textContent),
        images: [...document.images].map(img => [img.currentSrc.slice(-60), img.naturalWidth]),
        widgets: widgets.length,
        widgetImages: widgets.map(w => [...w.querySelectorAll('img')].map(img => img.naturalWidth)),
        text: document.body.innerText,
        switch: [...document.querySelectorAll('a.course-lang-switch')].map(a => [a.dataset.lang, a.getAttribute('href')]),
        download: [...document.querySelectorAll('a.course-download')].map(a => a.getAttribute('href')),
    };
}"""


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize(("name", "lang"), PAGES, ids=[f"{lang}-{name}" for name, lang in PAGES])
def test_lesson_page_complete_offline_and_typeset(site_root, site_page, where, name, lang, record_property):
    page, traffic = site_page(lang)
    started = time.monotonic()
    page.goto(page_url(site_root[where], lang, f"{name}.html"))
    settle(page)
    record_property("timings", f"loaded and settled in {time.monotonic() - started:.1f} s")
    facts = page.evaluate(PAGE_FACTS)

    assert facts["lang"] == lang
    assert facts["heading"] == COURSE.titles[name].heading(lang)
    assert facts["formulas"] == facts["typeset"], (
        f"MathJax typeset {facts['typeset']} of the page's {facts['formulas']} formulas"
    )
    assert facts["mathErrors"] == [], f"formulas MathJax could not read: {facts['mathErrors']}"
    raw = page.evaluate(RAW_TEX)
    assert raw == [], f"raw TeX left on the page: {raw}"
    undecoded = [src for src, width in facts["images"] if width == 0]
    assert undecoded == [], f"images that did not decode: {undecoded}"

    nb = COURSE.config.notebook(name, lang).read_text(encoding="utf-8")
    views = nb.count('"application/vnd.jupyter.widget-view+json"')
    assert facts["widgets"] == views, f"{facts['widgets']} widgets drawn, the notebook has {views} views"
    assert all(all(width > 0 for width in images) for images in facts["widgetImages"]), facts["widgetImages"]
    placeholders = WIDGET_PLACEHOLDERS.findall(facts["text"])
    assert placeholders == [], f"widget placeholders on the page: {placeholders}"

    others = [other for other in LANGUAGES if other != lang]
    assert facts["switch"] == [[other, f"../{other}/{name}.html"] for other in others]
    assert facts["download"] == [f"{name}.ipynb"]
    assert (SITE / lang / f"{name}.ipynb").read_bytes() == COURSE.config.notebook(name, lang).read_bytes()
    assert_course_fonts(page, site_root)
    traffic.assert_clean()


@pytest.mark.parametrize("name", COURSE.names)
def test_twin_pages_have_the_same_sections(name):
    """The switch keeps the section by its number: the twins must number the same sections."""
    found = {}
    for lang in LANGUAGES:
        text = (SITE / lang / f"{name}.html").read_text(encoding="utf-8")
        found[lang] = re.findall(r'<span id="sec-\d+"></span><h([1-6])>', text)
    assert len({tuple(levels) for levels in found.values()}) == 1, found
    assert len(found[SOURCE_LANGUAGE]) > 1


def test_every_local_link_and_source_resolves():
    """Every relative href and src of every page names a file of the site (the decks are checked by their own test)."""
    missing = []
    for page in SITE.rglob("*.html"):
        if "slides" in page.relative_to(SITE).parts:
            continue
        for url in re.findall(r'(?:href|src)="([^"#?]+)', page.read_text(encoding="utf-8")):
            if not re.match(r"^[a-z]+:|//", url) and not (page.parent / unquote(url)).exists():
                missing.append(f"{page.relative_to(SITE)} -> {url}")
    assert missing == []


def test_a_copy_of_the_folder_works_anywhere(tmp_path, site_page):
    """The site has no absolute path in it: a copy opens, typesets and draws its widgets offline."""
    copy = tmp_path / "somewhere else"
    shutil.copytree(SITE, copy, ignore=shutil.ignore_patterns("slides"))
    for lang in LANGUAGES:
        page, traffic = site_page(lang)
        page.goto(f"{copy.as_uri()}/index.html")
        page.wait_for_url(re.compile(r"/[a-z]+/index\.html$"))
        page.goto(page_url(copy.as_uri(), lang, f"{SINUSOIDAL or COURSE.names[-1]}.html"))
        settle(page)
        facts = page.evaluate(PAGE_FACTS)
        assert facts["formulas"] == facts["typeset"] > 0
        assert all(width > 0 for _, width in facts["images"])
        traffic.assert_clean()


# ----------------------------------------------------------------------------- home, glossary, root


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_home_page_lists_every_lesson_with_its_deck_and_notebook(site_root, site_page, where, lang):
    page, traffic = site_page(lang)
    page.goto(page_url(site_root[where], lang, "index.html"))
    settle(page)
    assert page.title() == TEXT("title", lang)
    items = page.evaluate(
        """() => [...document.querySelectorAll('article li')].filter(li => li.querySelector('a[download]'))
                 .map(li => [...li.querySelectorAll('a')].map(a => [a.textContent.trim(), a.getAttribute('href')]))"""
    )
    assert [links[0] for links in items] == [
        [COURSE.titles[name].heading(lang), f"{name}.html"] for name in COURSE.names
    ]
    for name, links in zip(COURSE.names, items, strict=True):
        hrefs = [href for _, href in links[1:]]
        assert hrefs == [f"../slides/{lang}/{name}.html", f"{name}.ipynb"], links
        assert all((SITE / lang / href).exists() for href in hrefs), hrefs
    text = page.evaluate("document.querySelector('article').innerText").translate(STRAIGHT_QUOTES)
    for name in COURSE.names:
        assert COURSE.titles[name].summary(lang) in text
    assert "make lab" in text
    links = page.evaluate(
        "() => [...document.querySelectorAll('article a')].map(a => a.getAttribute('href'))"
    )
    assert "glossary.html" in links and f"../slides/{lang}/index.html" in links
    assert_course_fonts(page, site_root)
    traffic.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_glossary_page(site_root, site_page, lang):
    page, traffic = site_page(lang)
    page.goto(page_url(site_root["file"], lang, "glossary.html"))
    settle(page)
    rows = page.evaluate("() => document.querySelectorAll('article table tbody tr').length")
    glossary = (CONFIG.lessons_dir / "GLOSSARY.md").read_text(encoding="utf-8")
    assert rows == sum(line.startswith("|") for line in glossary.splitlines()) - 2  # header and rule
    assert page.evaluate("document.querySelector('article h1').textContent").startswith(
        TEXT("glossary", lang)
    )
    assert_course_fonts(page, site_root)
    traffic.assert_clean()


# ----------------------------------------------------------------------------- the language switch


def section_at_top(page) -> int:
    """The number of the numbered section whose heading is nearest below the sticky header."""
    return page.evaluate(
        """() => {
        const marks = [...document.querySelectorAll('article span[id^="sec-"]')];
        const tops = marks.map(m => Math.abs(m.nextElementSibling.getBoundingClientRect().top - 60));
        return parseInt(marks[tops.indexOf(Math.min(...tops))].id.slice(4));
    }"""
    )


def root_opens(page, root: str) -> str:
    """Open the root index.html; return the language folder it sends the reader to."""
    page.goto(f"{root}/index.html")
    page.wait_for_url(re.compile(r"/[a-z]+/index\.html$"))
    return urlsplit(page.url).path.rsplit("/", 2)[-2]


def wait_until_stored_for_every_page(page, root: str, lang: str, seconds: float = 30.0) -> None:
    """Wait until another page of the browser reads ``lang`` as the language read last. A page's own
    localStorage write reaches the other pages (and the next document of the same tab) asynchronously:
    at load 6 the root page, opened at once, once still read the language before it (a fresh clone's
    pass without system fonts), and at load 12 (browser-site beside browser-explorers, another
    fresh clone) 5 s of waiting were not enough. A page that never stores its language still fails,
    after ``seconds``; one that does costs no more than it takes."""
    other = page.context.new_page()
    try:
        # a file of the site that runs no script of ours (so stores nothing): the same origin as the pages
        other.goto(f"{root}/{lang}/_static/course-site.css")
        deadline = time.monotonic() + seconds
        while (stored := other.evaluate(f"localStorage.getItem('{STORAGE_KEY}')")) != lang:
            if time.monotonic() >= deadline:
                own = page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')")  # its own write, or none
                pytest.fail(
                    f"the {lang} page did not store its language for the other pages within {seconds:.0f} s: "
                    f"they read {stored!r}, the page itself {own!r}"
                )
            other.wait_for_timeout(50)
    finally:
        other.close()


def root_opens_the_one_read_last(page, root: str, lang: str, name: str, tries: int = 3) -> str:
    """Open ``lang``'s page ``name`` (which stores the language), wait until the other pages read it,
    open the root page; return the language folder the root sends the reader to. Once more, up to ``tries`` times, if
    it sent them elsewhere: at load 12 (browser-site beside browser-explorers, the fresh clone of
    c02528c) the root page, opened in the same tab after another page already read ``lang``, still read
    the language before it. Opening the root stores the language it lands on, hence that page again
    first. A site that does not remember still fails every time."""
    for _ in range(tries):
        page.goto(page_url(root, lang, name))
        settle(page)
        wait_until_stored_for_every_page(page, root, lang)
        if (opened := root_opens(page, root)) == lang:
            break
    return opened


@pytest.mark.parametrize("where", WHERE)
def test_switch_lands_on_the_same_section_and_is_remembered(site_root, site_page, where):
    if SINUSOIDAL is None:
        pytest.skip("no sinusoidal lesson")
    page, traffic = site_page(SOURCE_LANGUAGE)
    root = site_root[where]
    # a reader whose browser is in English lands in English
    assert root_opens(page, root) == SOURCE_LANGUAGE
    lang = SOURCE_LANGUAGE
    page.goto(page_url(root, lang, f"{SINUSOIDAL}.html"))
    settle(page)
    target = middle_section(page)
    page.evaluate(f"() => document.getElementById('{SECTION_ANCHOR.format(target)}').scrollIntoView()")
    page.wait_for_timeout(200)
    assert section_at_top(page) == target
    for other in [*[o for o in LANGUAGES if o != SOURCE_LANGUAGE], SOURCE_LANGUAGE]:
        # a click that does not scroll the page first, as Playwright's own click would
        with page.expect_navigation():
            page.evaluate(
                f"() => document.querySelector('a.course-lang-switch[data-lang=\"{other}\"]').click()"
            )
        settle(page)
        assert unquote(page.url).endswith(f"/{other}/{SINUSOIDAL}.html#{SECTION_ANCHOR.format(target)}"), (
            page.url
        )
        page.wait_for_timeout(300)
        assert section_at_top(page) == target, f"the {other} page is not at section {target}"
        assert page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')") == other
        lang = other
    # the root page opens the language read last; after a switch to another, that one
    switched = next(o for o in LANGUAGES if o != SOURCE_LANGUAGE)
    assert root_opens_the_one_read_last(page, root, switched, "index.html") == switched
    assert root_opens_the_one_read_last(page, root, SOURCE_LANGUAGE, "glossary.html") == SOURCE_LANGUAGE
    traffic.assert_clean()


# ----------------------------------------------------------------------------- search


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_finds_the_lesson_offline(site_root, site_page, where, lang):
    if SINUSOIDAL is None:
        pytest.skip("no sinusoidal lesson")
    if lang not in SEARCH_TERMS:
        pytest.fail(f"SEARCH_TERMS has no words of the sinusoidal lesson's title in {lang}")
    page, traffic = site_page(lang)
    for term in SEARCH_TERMS[lang]:
        # the theme's search box sends the reader to search.html?q=...
        page.goto(page_url(site_root[where], lang, "index.html"))
        settle(page)
        page.keyboard.press("Control+k")
        page.keyboard.type(term)
        with page.expect_navigation():
            page.keyboard.press("Enter")
        page.wait_for_function(
            "() => (document.querySelector('#search-results .search-summary')?.textContent || '').trim()",
            timeout=15_000,
        )
        hits = page.evaluate(
            "() => [...document.querySelectorAll('#search-results ul.search li a')].map(a => a.getAttribute('href'))"
        )
        assert any(hit.split("#")[0].split("?")[0] == f"{SINUSOIDAL}.html" for hit in hits), (term, hits)
        status = page.evaluate("document.querySelector('#search-results .search-summary').textContent.trim()")
        assert status, "the search page has no status line"
        if lang != SOURCE_LANGUAGE:
            assert LANGUAGE_DATA[lang].script.search(status), status
    traffic.assert_clean()


# ----------------------------------------------------------------------------- the interface's language


# Everything on a page outside the lesson's own text: visible text and the labels a screen reader or
# a tooltip shows (lesson titles in the navigation are in the page's language anyway). What is marked
# as written in another language (the switch's links to the others) is not the page's interface.
INTERFACE = """() => {
    const out = new Set();
    const page = document.documentElement.lang;
    const walk = el => {
        if (el.matches && el.matches('article.bd-article, script, style, noscript, mjx-container, .jupyter-widgets, code'))
            return;
        if (el.getAttribute && el.getAttribute('lang') && el.getAttribute('lang') !== page) return;
        for (const name of ['title', 'aria-label', 'placeholder', 'data-bs-original-title'])
            if (el.getAttribute && el.getAttribute(name)) out.add(el.getAttribute(name).trim());
        for (const n of el.childNodes) {
            if (n.nodeType === 3 && n.textContent.trim()) out.add(n.textContent.trim());
            else if (n.nodeType === 1) walk(n);
        }
    };
    walk(document.head);
    walk(document.body);
    return [...out];
}"""


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE])
def test_interface_is_in_the_page_language(site_root, site_page, lang):
    script = LANGUAGE_DATA[lang].script
    # keys and the notebook's extension
    allowed = {"Ctrl", "K", "+", ".ipynb", "#", "·"}
    page, traffic = site_page(lang)
    pages = [f"{SINUSOIDAL or COURSE.names[0]}.html", "index.html", "glossary.html", "search.html?q=x"]
    for name in pages:
        page.goto(page_url(site_root["file"], lang, name))
        settle(page)
        page.keyboard.press("Control+k")  # the search dialog, with its own labels
        texts = page.evaluate(INTERFACE)
        foreign = sorted(
            t for t in texts if t not in allowed and re.search("[A-Za-z]{2}", t) and not script.search(t)
        )
        assert foreign == [], f"{lang}/{name}: interface text not in {LANGUAGE_DATA[lang].name}: {foreign}"
    page.goto(page_url(site_root["file"], lang, f"{SINUSOIDAL or COURSE.names[1]}.html"))
    settle(page)
    prev_next = page.evaluate(
        "() => [...document.querySelectorAll('.prev-next-subtitle')].map(e => e.textContent.trim())"
    )
    assert prev_next and all(script.search(t) for t in prev_next), prev_next
    placeholder = page.evaluate("document.querySelector('.bd-search input').placeholder")
    assert placeholder == TEXT("search", lang)
    traffic.assert_clean()


# ----------------------------------------------------------------------------- screenshots


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sinusoidal_lesson_screenshot(site_root, site_page, lang):
    """The sinusoidal lesson's heatmap section, its static figure and its widget, as the instructors' guide shows it."""
    if SINUSOIDAL is None:
        pytest.skip("no sinusoidal lesson")
    page, traffic = site_page(lang)
    page.set_viewport_size(SCREENSHOT_VIEWPORT)
    page.goto(page_url(site_root["file"], lang, f"{SINUSOIDAL}.html"))
    settle(page)
    # the section of the first widget: its heading at the top, the static figure and the widget below
    page.evaluate(
        """() => {
        const section = document.querySelector('.widget-subarea > .lm-Widget').closest('section');
        section.querySelector('h1, h2, h3').scrollIntoView();
    }"""
    )
    page.wait_for_timeout(300)
    shot = page.screenshot(animations="disabled", caret="hide")
    traffic.assert_clean()
    save_screenshot(SCREENSHOTS / f"{lang}_sinusoidal.png", shot)  # only from a clean run


@pytest.mark.parametrize("where", ["file"])
def test_switch_after_switch_stays_on_the_section(site_root, site_page, where):
    # back and forth several times without scrolling: the section read stays the same (each switch
    # once landed one section earlier); a section near the top, one in the middle, one near the end
    if SINUSOIDAL is None:
        pytest.skip("no sinusoidal lesson")
    page, traffic = site_page(SOURCE_LANGUAGE)
    root = site_root[where]
    order = [o for o in LANGUAGES if o != SOURCE_LANGUAGE] + [SOURCE_LANGUAGE]
    page.goto(page_url(root, SOURCE_LANGUAGE, f"{SINUSOIDAL}.html"))
    settle(page)
    sections = page.evaluate("() => document.querySelectorAll('article span[id^=\"sec-\"]').length")
    for target in (2, middle_section(page), sections - 1):
        page.goto(page_url(root, SOURCE_LANGUAGE, f"{SINUSOIDAL}.html"))
        settle(page)
        page.evaluate(f"() => document.getElementById('{SECTION_ANCHOR.format(target)}').scrollIntoView()")
        page.wait_for_timeout(200)
        assert section_at_top(page) == target
        for switch in range(6):
            other = order[switch % len(order)]
            with page.expect_navigation():
                page.evaluate(
                    f"() => document.querySelector('a.course-lang-switch[data-lang=\"{other}\"]').click()"
                )
            settle(page)
            page.wait_for_timeout(300)
            assert unquote(page.url).endswith(
                f"/{other}/{SINUSOIDAL}.html#{SECTION_ANCHOR.format(target)}"
            ), (
                switch,
                page.url,
            )
            assert section_at_top(page) == target, (
                f"switch {switch}: the {other} page is not at section {target}"
            )
    traffic.assert_clean()


# ----------------------------------------------------------------------------- a phone

PHONE = {"width": 390, "height": 844}

# what sticks out of the page's width: the outermost elements whose box passes the right edge and that
# no scrolling box of their own holds (a code cell's own scroll bar is fine; the page's is not)
STICKING_OUT = """() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.right <= width + 0.5) continue;
        let held = false;
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
            const style = getComputedStyle(up);
            if (/(auto|scroll|hidden|clip)/.test(style.overflowX) && up.getBoundingClientRect().right <= width + 0.5) { held = true; break; }
        }
        if (held) continue;
        if (out.some(o => o.el.contains(el))) continue;
        out.push({el, what: `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(box.right)}: ${(el.textContent || '').trim().slice(0, 50)}`});
    }
    return {scroll: document.documentElement.scrollWidth, width, out: out.map(o => o.what).slice(0, 10)};
}"""


@pytest.mark.parametrize("name, lang", PAGES)
def test_no_lesson_scrolls_sideways_on_a_phone(offline_page, name, lang):
    page, traffic = offline_page(lang, PHONE, site_url, "phone")
    path = SITE / lang / f"{name}.html"
    if not path.exists():
        pytest.fail(f"{CONFIG.relative(path)} is missing: run `make site`")
    page.goto(path.as_uri())
    settle(page)
    page.wait_for_timeout(300)
    found = page.evaluate(STICKING_OUT)
    assert found["scroll"] <= found["width"], found
    assert page.evaluate("() => { window.scrollTo(500, window.scrollY); return window.scrollX; }") == 0
    traffic.assert_clean()


# something drawn late above the section read (a widget, a formula, a font on a slow machine), as
# much as half a window, long after the page has loaded
LATE_LAYOUT = """() => {
    const late = document.createElement('div');
    late.style.height = `${Math.round(window.innerHeight / 2)}px`;
    document.querySelector('article').prepend(late);
}"""


def test_switch_keeps_the_section_through_late_layout_and_real_clicks(site_root, site_page):
    # a reader's mouse clicks the switch (mousedown, then click) or the keyboard focuses it and presses
    # Enter, and the page's layout changes after the first seconds: each switch once landed one
    # section earlier (focusing the sticky link scrolled the page up; late layout moved the section)
    if SINUSOIDAL is None:
        pytest.skip("no sinusoidal lesson")
    page, traffic = site_page(SOURCE_LANGUAGE)
    root = site_root["file"]
    order = [o for o in LANGUAGES if o != SOURCE_LANGUAGE] + [SOURCE_LANGUAGE]
    page.goto(page_url(root, SOURCE_LANGUAGE, f"{SINUSOIDAL}.html"))
    settle(page)
    target = middle_section(page)
    page.evaluate(f"() => document.getElementById('{SECTION_ANCHOR.format(target)}').scrollIntoView()")
    page.wait_for_timeout(200)
    assert section_at_top(page) == target
    for switch in range(4):
        other = order[switch % len(order)]
        link = page.locator(f'a.course-lang-switch[data-lang="{other}"]')
        with page.expect_navigation():
            if switch % 2 == 0:  # the mouse, where the link is (no scrolling it into view first)
                box = link.bounding_box()
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            else:  # the keyboard: focused (the browser scrolls a focused element into view), then Enter
                link.evaluate("a => a.focus()")
                page.keyboard.press("Enter")
        settle(page)
        assert unquote(page.url).endswith(f"#{SECTION_ANCHOR.format(target)}"), (switch, page.url)
        page.wait_for_timeout(5_500)
        page.evaluate(LATE_LAYOUT)
        page.wait_for_timeout(300)
    traffic.assert_clean()


# the numbers of the sections a reader reads: not a deep dive, folded to one line (a section shorter
# than a quarter of the window cannot be the one read: the next one starts within that quarter too)
MAIN_SECTIONS = """() => [...document.querySelectorAll('article span[id^="sec-"]')]
    .filter(m => !m.closest('details') && !m.closest('section')?.querySelector(':scope > details.course-deep-dive'))
    .map(m => parseInt(m.id.slice(4), 10))"""


def middle_section(page) -> int:
    """A section in the middle of the page's main path (the language switch's tests scroll to it)."""
    main = page.evaluate(MAIN_SECTIONS)
    return main[len(main) // 2]
