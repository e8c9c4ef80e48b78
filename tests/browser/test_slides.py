"""The instructor decks in headless Chromium, opened from file:// as an instructor would.

Every deck that ``make slides`` built (``slides/en|ru/NN_name.html``) is checked for: as many
slides as its lesson source asks for, every formula typeset by MathJax (none left as raw TeX,
none failed), every plot image decoded, the Russian deck in Russian, and no request leaving
the machine (every request is routed: anything that is not file:// is blocked and counted, a
file:// request that fails is a missing asset). Screenshots of lesson 5 (its title slide and
the positional-encoding heatmap slide, both languages) go to ``slides/screenshots/``, where
the instructors' guide (docs/INSTRUCTORS.md) shows them.

Run after ``make slides`` (``make browser-slides`` does both): ``python -m course_tools.slides``.
"""

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from course_tools.build.course import Course
from course_tools.build.source import MATH
from course_tools.core.config import LANGUAGE_DATA, LANGUAGES, SOURCE_LANGUAGE
from course_tools.publish.slides import TEXT
from tests.browser.conftest import (
    LOCAL_FONT_FACES,
    FontProbe,
    course_font,
    foreign_fonts,
    is_file,
    missing_font_files,
    save_screenshot,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SLIDES = ROOT / "slides"
SCREENSHOTS = SLIDES / "screenshots"
# a 16:9 projector; reveal scales its 960x700 slides into it (by CSS zoom when it scales up, which
# lays the text out again: a slide that fits at one size may not at another, so both are measured)
VIEWPORT = {"width": 1280, "height": 720}
LARGE = {"width": 1920, "height": 1080}
# the code that draws lesson 5's positional-encoding table as a heatmap (course_lib.plots)
HEATMAP_CALL = "plot_table("
# code spans and fenced blocks: a `$` there is code, not mathematics
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


COURSE = Course.load()
DECKS = [(name, lang) for name in COURSE.names for lang in LANGUAGES]


def slide_type(cell) -> str:
    return cell.metadata.get("slideshow", {}).get("slide_type", "-")


@dataclass
class Expected:
    slides: int
    formulas: int
    notes: int


def expected(name: str, lang: str) -> Expected:
    """What the lesson source asks of its deck, counted the way nbconvert builds reveal sections."""
    nb = COURSE.render(name, lang, target="slides")
    shown = [c for c in nb.cells if slide_type(c) != "skip"]
    visible = [c for c in shown if slide_type(c) != "notes"]
    # the first visible cell always opens a slide; after it, each slide or subslide is one more
    slides = 1 + sum(slide_type(c) in ("slide", "subslide") for c in visible[1:]) if visible else 0
    formulas = sum(len(MATH.findall(CODE.sub("", c.source))) for c in shown if c.cell_type == "markdown")
    notes = sum(slide_type(c) == "notes" for c in shown)
    return Expected(slides, formulas, notes)


@pytest.fixture
def deck_page(offline_page):
    """``open(path, lang)`` -> (page, traffic): a fresh browser context per deck that loads only its files.

    The browser speaks ``lang``: MathJax picks its menu language from it, so a Russian browser
    must find that locally too.
    """

    def open_deck(path: Path, lang: str):
        page, traffic = offline_page(lang, VIEWPORT, is_file, "deck")
        if not path.exists():
            pytest.fail(f"{path.relative_to(ROOT)} is missing: run `make slides`")
        page.goto(path.as_uri())
        return page, traffic

    return open_deck


# reveal.js is an AMD module here (require.js is on the page), so it is reached through require (dist/reveal.js,
# or its copy in the deck's language, dist/reveal-ru.js: course_tools/publish/speaker_view.py);
# a promise that never settles would hang page.evaluate, which has no timeout of its own
REVEAL = """Promise.race([
    new Promise(resolve => {
        const script = document.querySelector('script[data-requiremodule*="/reveal.js/dist/reveal"]');
        require([script.dataset.requiremodule], Reveal => resolve(Reveal));
    }),
    new Promise((_, fail) => setTimeout(() => fail(new Error('reveal.js did not load')), 15000)),
])"""


def wait_until_ready(page) -> None:
    """reveal.js initialised and MathJax done with every formula on the page."""
    page.wait_for_function("document.querySelector('.reveal.ready') !== null")
    page.wait_for_function("window.MathJax && MathJax.Hub && MathJax.Hub.Register")
    # braces matter: a startup hook that returns MathJax's callback makes startup wait for it: deadlock
    page.evaluate(
        """() => { MathJax.Hub.Register.StartupHook('End', () => {
                       MathJax.Hub.Queue(() => { window.courseMathDone = true; });
                   }); }"""
    )
    page.wait_for_function("window.courseMathDone === true")


def go_to(page, selector_js: str) -> None:
    """Show, with all its fragments, the slide holding the element ``selector_js`` evaluates to."""
    page.evaluate(
        f"""async () => {{
            const Reveal = await {REVEAL};
            Reveal.configure({{transition: 'none', backgroundTransition: 'none'}});
            const section = ({selector_js}).closest('section');
            const at = Reveal.getIndices(section);
            window.courseMathDone = false;
            Reveal.slide(at.h, at.v, section.querySelectorAll('.fragment').length - 1);
            // the deck re-renders the new slide's formulas on 'slidechanged'
            MathJax.Hub.Queue(() => {{ window.courseMathDone = true; }});
        }}"""
    )
    page.wait_for_function("window.courseMathDone === true")
    page.wait_for_function("[...document.querySelectorAll('section.present img')].every(img => img.complete)")


# The slide on screen once it is laid out as the audience sees it: formulas typeset (the deck re-renders
# a slide's formulas when it is shown), the fonts its text needs loaded, two frames drawn. Its height with
# every fragment (hidden fragments take their room too): taller than reveal's slide, it would scroll or
# lose its bottom on the projector. A slide without a heading of its own (a subslide that continues one)
# is named after the last heading before it.
SHOWN = f"""async heading => {{
    const Reveal = await {REVEAL};
    await new Promise(done => MathJax.Hub.Queue(done));
    await document.fonts.ready;
    for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
    const slide = Reveal.getCurrentSlide();
    const at = Reveal.getIndices(slide);
    const own = slide.querySelector('h1, h2, h3');
    // textContent: innerText would be in the theme's capitals; the anchor link adds a pilcrow
    return {{
        at: [at.h, at.v],
        fragment: at.f === undefined ? -1 : at.f,
        last: Reveal.isLastSlide() && !Reveal.availableFragments().next,
        height: slide.scrollHeight,
        limit: Reveal.getConfig().height,
        heading: own ? own.textContent.replace('¶', '').trim() : heading,
        continued: !own,
        slides: Reveal.getSlides().map(s => [Reveal.getIndices(s).h, Reveal.getIndices(s).v]),
    }};
}}"""
# a slide measured too tall is measured again this many times, this far apart, before it counts (CI once
# saw ru/03 slide 2.2 at 703 px under a load of 12 on 2 cores, under 666 px in every walk here)
SETTLE_TRIES, SETTLE_MS = 3, 500
# the slide on screen, for the font probe
PRESENT = ".slides > section.present > section.present"


@dataclass
class Walk:
    """What stepping through a deck with → alone showed."""

    order: list[tuple[int, int]]  # the slides, in the order → showed them
    slides: list[tuple[int, int]]  # every slide of the deck, in its order
    too_tall: list[str]
    fonts: dict


def walk_with_arrow_key(page) -> Walk:
    """Press → from the first slide to the end of the deck, measuring each slide as it is shown."""
    page.evaluate(
        f"async () => {{ const R = await {REVEAL}; R.configure({{transition: 'none', backgroundTransition: 'none'}}); R.slide(0, 0, -1); }}"
    )
    probe = FontProbe(page)
    order, too_tall, fonts, heading = [], [], {}, ""
    for _ in range(1000):
        shown = page.evaluate(SHOWN, heading)
        heading = shown["heading"]
        at = tuple(shown["at"])
        if not order or order[-1] != at:
            order.append(at)
            # a slide still settling (a formula typeset again, a font or an image arriving late on a loaded
            # machine) is measured again once it has had time to settle: what the audience sees
            for _ in range(SETTLE_TRIES):
                if shown["height"] <= shown["limit"] + 1:
                    break
                page.wait_for_timeout(SETTLE_MS)
                shown = page.evaluate(SHOWN, heading)
            if shown["height"] > shown["limit"] + 1:
                where = f"{at[0] + 1}.{at[1] + 1}"
                too_tall.append(
                    f'slide {where} "{heading}"{" (continued)" if shown["continued"] else ""}: '
                    f"{shown['height']} px of {shown['limit']}"
                )
            for font, examples in probe.fonts(PRESENT).items():
                fonts.setdefault(font, []).extend(e for e in examples if len(fonts[font]) < 3)
        if shown["last"]:
            break
        page.keyboard.press("ArrowRight")
    return Walk(order, [tuple(s) for s in shown["slides"]], too_tall, fonts)


# One slide shown with all its fragments and laid out (as SHOWN); whether its content overflows the
# slide, compared in the slide's own units (scrollHeight against clientHeight), whatever reveal's zoom.
OVERFLOW = f"""async ([h, v]) => {{
    const Reveal = await {REVEAL};
    Reveal.slide(h, v, Number.MAX_SAFE_INTEGER);
    await new Promise(done => MathJax.Hub.Queue(done));
    await document.fonts.ready;
    for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
    const slide = Reveal.getCurrentSlide();
    const own = slide.querySelector('h1, h2, h3');
    return {{
        scroll: slide.scrollHeight,
        client: slide.clientHeight,
        heading: own ? own.textContent.replace('¶', '').trim() : '',
    }};
}}"""


def too_tall_at(page, viewport: dict, slides: list[tuple[int, int]]) -> list[str]:
    """Resize the page to ``viewport`` and show each slide again: those whose content overflows."""
    page.set_viewport_size(viewport)
    page.evaluate(f"async () => (await {REVEAL}).layout()")
    found = []
    for h, v in slides:
        shown = page.evaluate(OVERFLOW, [h, v])
        for _ in range(SETTLE_TRIES):
            if shown["scroll"] <= shown["client"] + 1:
                break
            page.wait_for_timeout(SETTLE_MS)
            shown = page.evaluate(OVERFLOW, [h, v])
        if shown["scroll"] > shown["client"] + 1:
            found.append(
                f'slide {h + 1}.{v + 1} "{shown["heading"]}" at {viewport["width"]}x{viewport["height"]}: '
                f"content {shown['scroll']} of {shown['client']}"
            )
    return found


# ----------------------------------------------------------------------------- every deck


@pytest.mark.parametrize(("name", "lang"), DECKS, ids=[f"{lang}-{name}" for name, lang in DECKS])
def test_deck_offline_complete_and_typeset(deck_page, name, lang):
    want = expected(name, lang)
    page, traffic = deck_page(SLIDES / lang / f"{name}.html", lang)
    wait_until_ready(page)

    total = page.evaluate(f"async () => (await {REVEAL}).getTotalSlides()")
    assert total == want.slides, (
        f"{lang}/{name}.html has {total} slides, the lesson source asks for {want.slides}: run `make slides`"
    )

    # only the slides: reveal's screen-reader status line copies the current slide's text, and
    # whether its formulas are typeset too depends on who runs first
    math = page.evaluate(
        """() => {
        const jax = MathJax.Hub.getAllJax().filter(j => j.SourceElement().closest('.slides'));
        return {
            count: jax.length,
            failed: jax.filter(j => j.texError).map(j => j.originalText),
            // noUndefined draws an unknown macro in red instead of failing
            undefined: jax.filter(j => /mathcolor="red"/.test(j.root.toMathML(''))).map(j => j.originalText),
            rendered: document.querySelectorAll('.slides .MathJax_CHTML').length,
        };
    }"""
    )
    assert math["count"] == want.formulas, (
        f"MathJax found {math['count']} formulas, the slides have {want.formulas}"
    )
    assert math["rendered"] == want.formulas, (
        f"only {math['rendered']} of {want.formulas} formulas were drawn"
    )
    assert math["failed"] == [] and math["undefined"] == [], f"formulas that did not typeset: {math}"
    # TeX that MathJax never saw would still be on the page as text
    raw = page.evaluate(
        """() => {
        const walker = document.createTreeWalker(document.querySelector('.slides'), NodeFilter.SHOW_TEXT, {
            acceptNode: n => n.parentElement.closest('script, style, pre, code')
                ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
        const found = [];
        while (walker.nextNode()) {
            if (/\\$\\$|\\\\(frac|sin|cos|sqrt|text)\\b/.test(walker.currentNode.nodeValue))
                found.push(walker.currentNode.nodeValue.trim());
        }
        return found;
    }"""
    )
    assert raw == [], f"raw TeX left on the slides: {raw}"

    images = page.evaluate(
        "() => [...document.querySelectorAll('.slides img')].map(img => [img.naturalWidth, img.alt])"
    )
    assert all(width > 0 for width, _ in images), f"images that did not decode: {images}"
    widgets = page.evaluate(
        """() => [document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]').length,
                  document.querySelectorAll('.jupyter-widgets').length]"""
    )
    if widgets[0]:
        page.wait_for_function("document.querySelectorAll('.jupyter-widgets').length > 0", timeout=15_000)

    notes = page.evaluate("() => document.querySelectorAll('aside.notes').length")
    assert notes == want.notes, f"{notes} speaker notes in the deck, the source has {want.notes}"

    assert page.evaluate("document.documentElement.lang") == lang
    title = page.title()
    assert title, "the deck has no <title>"
    if lang != SOURCE_LANGUAGE:
        script = LANGUAGE_DATA[lang].script
        assert script.search(title), (
            f"the {lang} deck's title is not in {LANGUAGE_DATA[lang].name}: {title!r}"
        )
        prose = page.evaluate(
            "() => [...document.querySelectorAll('.jp-MarkdownCell')].map(c => c.innerText.trim())"
        )
        untranslated = [text for text in prose if text and not script.search(text)]
        assert untranslated == [], (
            f"prose on the {lang} slides without {LANGUAGE_DATA[lang].name}: {untranslated}"
        )

    walk = walk_with_arrow_key(page)
    assert walk.order == walk.slides, (
        f"→ alone showed {len(walk.order)} of the {len(walk.slides)} slides of {lang}/{name}.html: {walk.order}"
    )
    assert walk.too_tall == [], (
        f"slides of {lang}/{name}.html taller than the screen: {walk.too_tall}; split them in the lesson "
        "source (a later cell with slide_type subslide) or hide what the slide can do without"
    )
    large = too_tall_at(page, LARGE, walk.slides)
    assert large == [], (
        f"slides of {lang}/{name}.html that overflow at {LARGE['width']}x{LARGE['height']}: {large}"
    )
    foreign = foreign_fonts(walk.fonts, course_font)
    assert foreign == {}, f"text of {lang}/{name}.html drawn by fonts that are not the course's: {foreign}"
    local = page.evaluate(LOCAL_FONT_FACES)
    assert local == [], f"{lang}/{name}.html would take these fonts from the machine: {local}"
    missing = missing_font_files(page, {})
    assert missing == [], f"{lang}/{name}.html declares web fonts the decks do not have: {missing}"
    traffic.assert_clean()


# the speaker view's own words, as reveal.js's notes plugin writes them in English
SPEAKER_VIEW_ENGLISH = ("Upcoming", "Time", "Click to Reset", "Notes", "Layout", "Default", "Speaker View")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_speaker_notes_open_on_s_in_the_decks_language(deck_page, lang):
    """S opens reveal's speaker view, which shows the notes of the slide on screen, its own words in the
    deck's language (course_tools/publish/speaker_view.py)."""
    with_notes = [name for name, in_lang in DECKS if in_lang == lang and expected(name, lang).notes]
    if not with_notes:
        pytest.skip("no lesson has speaker notes yet")
    page, traffic = deck_page(SLIDES / lang / f"{with_notes[0]}.html", lang)
    wait_until_ready(page)
    go_to(page, "document.querySelector('aside.notes')")
    note = page.evaluate("document.querySelector('section.present aside.notes').innerText.trim()")
    with page.expect_popup() as popup_info:
        page.keyboard.press("s")
    speaker = popup_info.value
    speaker.wait_for_function(
        "(note) => document.querySelector('.speaker-controls-notes') && "
        "document.querySelector('.speaker-controls-notes').innerText.includes(note)",
        arg=note.splitlines()[0],
    )
    chrome = speaker.evaluate(
        """() => [...document.querySelectorAll('.label, .reset-button, .speaker-layout-label, option, title, #connection-status')]
                  .map(e => e.textContent.trim()).filter(Boolean)"""
    )
    assert chrome, "the speaker view has no labels"
    if lang != SOURCE_LANGUAGE:
        english = [text for text in chrome if any(word in text for word in SPEAKER_VIEW_ENGLISH)]
        assert english == [], f"English left in the {lang} speaker view: {english}"
        assert all(LANGUAGE_DATA[lang].script.search(text) for text in chrome), chrome
        assert speaker.evaluate("document.documentElement.lang") == lang
    traffic.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_overlay_and_the_arrows_speak_the_decks_language(deck_page, lang):
    """? opens reveal's help overlay: its title, headings and actions in the deck's language, and so
    are the arrows' accessible names (course_tools/publish/speaker_view.py); the keys keep their names."""
    name = next(name for name, in_lang in DECKS if in_lang == lang)
    page, traffic = deck_page(SLIDES / lang / f"{name}.html", lang)
    wait_until_ready(page)
    page.keyboard.press("Shift+Slash")  # "?": reveal opens its help on a keypress of 63 with Shift
    page.wait_for_selector(".reveal .overlay-help table")
    texts = page.evaluate(
        """() => [document.querySelector('.overlay-help .title'),
                  ...document.querySelectorAll('.overlay-help th, .overlay-help td:nth-child(2)')]
                 .map(e => e.textContent.trim())"""
    )
    labels = page.evaluate(
        "() => [...document.querySelectorAll('.reveal .controls button')].map(b => b.getAttribute('aria-label'))"
    )
    assert len(texts) >= 10 and len(labels) == 4, (texts, labels)
    if lang != SOURCE_LANGUAGE:
        english = [t for t in texts + labels if re.search(r"[A-Za-z]{2}", t)]
        assert english == [], f"English left in the {lang} deck's chrome: {english}"
        assert all(LANGUAGE_DATA[lang].script.search(t) for t in texts + labels), texts + labels
    traffic.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_index_lists_every_deck_in_its_language(deck_page, lang):
    page, traffic = deck_page(SLIDES / lang / "index.html", lang)
    assert page.evaluate("document.documentElement.lang") == lang
    links = page.evaluate(
        "() => [...document.querySelectorAll('ul li > a:first-child')].map(a => a.getAttribute('href'))"
    )
    assert links == [f"{name}.html" for name in COURSE.names]
    handouts = page.evaluate(
        "() => [...document.querySelectorAll('ul .more a')].map(a => a.getAttribute('href'))"
    )
    assert [h for h in handouts if h.endswith(".handout.html")] == [
        f"{name}.handout.html" for name in COURSE.names
    ]
    assert all((SLIDES / lang / link).exists() for link in links + handouts)
    others = page.evaluate(
        "() => [...document.querySelectorAll('a[hreflang]')].map(a => a.getAttribute('hreflang'))"
    )
    assert others == [other for other in LANGUAGES if other != lang]
    if lang != SOURCE_LANGUAGE:
        script = LANGUAGE_DATA[lang].script
        text = page.evaluate("document.body.innerText")
        assert script.search(page.title()), page.title()
        foreign = [line for line in text.splitlines() if line.strip() and not script.search(line)]
        # the links to the other languages are the one line in other languages; keys like "S" are in tables
        versions = " · ".join(TEXT("version", other) for other in LANGUAGES if other != lang)
        assert [line for line in foreign if "\t" not in line] == [versions], foreign
    page.evaluate("() => document.fonts.ready.then(() => true)")
    fonts = foreign_fonts(FontProbe(page).fonts("body"), course_font)
    assert fonts == {}, f"text of {lang}/index.html drawn by fonts that are not the course's: {fonts}"
    traffic.assert_clean()


# ----------------------------------------------------------------------------- screenshots


SINUSOIDAL = [name for name in COURSE.names if name.endswith("_sinusoidal_encoding")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sinusoidal_lesson_screenshots(deck_page, lang):
    """The title slide and the positional-encoding heatmap slide of the sinusoidal lesson, as the instructors' guide shows them."""
    if not SINUSOIDAL:
        pytest.skip("the sinusoidal lesson (notebooks/NN_sinusoidal_encoding.md) has no source yet")
    name = SINUSOIDAL[0]
    page, traffic = deck_page(SLIDES / lang / f"{name}.html", lang)
    wait_until_ready(page)

    go_to(page, "document.querySelector('.slides section section')")
    title = page.screenshot(animations="disabled")

    heatmap = f"""[...document.querySelectorAll('.jp-CodeCell')]
        .find(cell => cell.querySelector('.jp-InputArea').innerText.includes({HEATMAP_CALL!r})
                      && cell.querySelector('.jp-OutputArea img'))"""
    assert page.evaluate(f"() => !!({heatmap})"), (
        f"no slide of {lang}/{name}.html shows the heatmap: a code cell calling {HEATMAP_CALL} with an image"
    )
    go_to(page, f"({heatmap}).querySelector('.jp-OutputArea img')")
    shown = page.evaluate(
        f"""() => {{
        const img = ({heatmap}).querySelector('.jp-OutputArea img');
        const box = img.getBoundingClientRect();
        return [img.naturalWidth, box.width, box.height, box.bottom <= window.innerHeight + 1];
    }}"""
    )
    natural, width, height, fits = shown
    assert natural > 0 and width > 200 and height > 100, f"the heatmap is not visible: {shown}"
    assert fits, f"the heatmap runs off the bottom of its slide in {lang}/{name}.html"
    heatmap_png = page.screenshot(animations="disabled")
    traffic.assert_clean()
    # written only from a clean run: docs/INSTRUCTORS.md shows them
    save_screenshot(SCREENSHOTS / f"{lang}_sinusoidal_title.png", title)
    save_screenshot(SCREENSHOTS / f"{lang}_sinusoidal_heatmap.png", heatmap_png)
