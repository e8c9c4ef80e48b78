"""Accessibility as tested: WCAG 2.2 level A and AA, by axe-core, and every explorer by keyboard alone.

- **axe-core** (npm, pinned in package-lock.json; ``node_modules/axe-core/axe.min.js`` is put into each
  page, offline, never copied into the repository) with the rules tagged ``wcag2a``, ``wcag2aa``,
  ``wcag21a``, ``wcag21aa`` and ``wcag22aa`` (rules are never switched off here: a violation is fixed
  where it comes from) over:

  - every page of the website (``site/``, ``make site``) in the light theme and, switched on the same
    page as its theme switch does, in the dark one;
  - every slide of every deck (``slides/<lang>/NN_name.html``), in reveal's print view (``?print-pdf``),
    which lays out every slide at once; a deck as the audience sees it (its first slide, reveal's slide
    number, arrows and progress bar, the same in every deck) once per language; the decks' index pages;
  - the grader's report (``REPORT/<lang>/index.html``, as tests/browser/test_grade_report.py makes it).

  Each page must have 0 violations; a failure lists each one: the rule, its impact, the elements
  (axe's CSS selectors) and the page.
- **Keyboard only**, every live explorer (course_lib/widgets/live.py) on the site: from just before the
  explorer, Tab reaches every control (a group of radio buttons once), each shows a focus indicator
  (the pixels around it change when it takes the focus), each is operated from the keyboard (arrows
  on a slider, a choice or a list, Space on a checkbox, typing in a text box) and that changes the
  explorer's readout, which a screen reader announces; what a pointer must hit is at least 24 by 24 px
  (WCAG 2.2, 2.5.8): the control, or the label around it, which takes the same click.
- **The explorers' own stylesheet** (``js/common.js``): each explorer, rendered in a bare page (no CSS of the
  course's, as in JupyterLab), has every target at least 24 by 24 px and no hidden canvas taking room.
- **A check's verdict** (``course_lib.exercises.checks.Feedback``) at 4.5:1 or more in each status's own
  colour, on JupyterLab's light and dark themes, a deck, the site's two themes, and as a sanitizer leaves it.

Nothing leaves the machine: every request is routed and anything that is neither ``file://`` nor
127.0.0.1 is blocked and counted. One browser context per module and kind of page, its pages opened one
after the other. Run after ``make site`` (which builds the decks): ``make browser-a11y`` does both.
"""

from pathlib import Path

import pytest

from course_tools.core.config import CONFIG, LANGUAGES, SOURCE_LANGUAGE
from course_tools.grading.report import write_report
from tests.browser.conftest import Traffic, browser_locale, is_file, is_local
from tests.browser.test_explorer_colours import LESSONS
from tests.browser.test_explorers_saved import EXPLORERS as SAVED
from tests.browser.test_explorers_saved import RENDER
from tests.browser.test_site import settle

pytestmark = pytest.mark.browser

ROOT = CONFIG.root
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SITE = CONFIG.site_dir
SLIDES = CONFIG.slides_dir
VIEWPORT = {"width": 1280, "height": 860}
DECK_VIEWPORT = {"width": 1280, "height": 720}
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
TIMEOUT_MS = 30_000
MIN_TARGET_PX = 24

# the site's pages; site/slides/ is a copy of slides/, checked there. Without a site, its root page
# alone: the test then fails, saying to build it, instead of having nothing to check.
SITE_PAGES = sorted(
    str(p.relative_to(SITE))
    for p in SITE.glob("**/*.html")
    if p.relative_to(SITE).parts[0] not in ("_static", "slides", "_sources")
) or ["index.html"]
DECKS = [f"{lang}/{name}.html" for lang in LANGUAGES for name in CONFIG.lesson_names()]


# ----------------------------------------------------------------------------- axe


# axe.min.js registers itself with an AMD loader when the page has one (require.js on the decks and
# on the site's lesson pages) and makes anonymous define() calls that require.js refuses outside a
# module it loads: the loader is hidden while the script runs, and axe is then window.axe
HIDE_AMD = "() => { window.courseDefine = window.define; window.define = undefined; }"
SHOW_AMD = "() => { window.define = window.courseDefine; delete window.courseDefine; }"
RUN_AXE = """async tags => {
    const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
    return result.violations.map(v => ({
        rule: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => ({target: n.target.map(t => [].concat(t).join(' >>> ')).join(', '),
                                  why: (n.failureSummary || '').replace(/\\s+/g, ' ').trim()})),
    }));
}"""


def axe_violations(page, where: str) -> list[str]:
    """axe-core's WCAG 2.2 A/AA violations on ``page``, one line per element: rule, impact, target, where."""
    if not AXE.exists():
        pytest.fail(f"{AXE.relative_to(ROOT)} is missing: run `npm ci` (`make slides` does it)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(HIDE_AMD)
        page.add_script_tag(path=str(AXE))
        page.evaluate(SHOW_AMD)
    found = page.evaluate(RUN_AXE, WCAG_TAGS)
    return [
        f"{v['rule']} ({v['impact']}: {v['help']}) {node['target']} on {where}: {node['why']}"
        for v in found
        for node in v["nodes"]
    ]


def assert_no_violations(lines: list[str]) -> None:
    if lines:
        print("\n".join(lines))
    assert lines == [], f"{len(lines)} WCAG 2.2 A/AA violations (axe-core):\n" + "\n".join(lines)


@pytest.fixture(scope="module")
def contexts(browser):
    """``open(lang, viewport)`` -> (page, traffic): one browser context per language and viewport for the
    whole module, its one page reused page after page; requests off the machine blocked and counted."""
    made: dict[tuple, tuple] = {}

    def open_page(lang: str, viewport: dict):
        key = (lang, viewport["width"], viewport["height"])
        if key not in made:
            context = browser.new_context(
                viewport=viewport, device_scale_factor=1, locale=browser_locale(lang), reduced_motion="reduce"
            )
            traffic = Traffic("page")

            def route(route, traffic=traffic):
                if is_file(route.request.url) or is_local(route.request.url):
                    route.continue_()
                else:
                    traffic.outside.append(route.request.url)
                    route.abort("blockedbyclient")

            context.route("**/*", route)
            page = context.new_page()
            page.on("pageerror", lambda exc, traffic=traffic: traffic.errors.append(str(exc)))
            made[key] = (context, page, traffic)
        _, page, traffic = made[key]
        traffic.outside.clear()
        traffic.errors.clear()
        return page, traffic

    yield open_page
    for context, _, _ in made.values():
        context.close()


# ----------------------------------------------------------------------------- the website

THEME = """theme => {
    const html = document.documentElement;
    html.dataset.theme = theme;
    html.dataset.mode = theme;
}"""
FRAMES = "async () => { for (let k = 0; k < 3; k++) await new Promise(requestAnimationFrame); }"
# every explorer the page's saved widget state shows (an anywidget view) is on the page and drawn: its
# readout written (its picture's label is written with it)
EXPLORERS_DRAWN = """() => {
    const saved = document.querySelector('script[type="application/vnd.jupyter.widget-state+json"]');
    const state = saved ? JSON.parse(saved.textContent).state : {};
    const views = [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')]
        .filter(s => state[JSON.parse(s.textContent).model_id]?.model_module === 'anywidget').length;
    const shown = [...document.querySelectorAll('.course-explorer')];
    return shown.length >= views && shown.every(e => e.querySelector('.course-explorer-readout')?.textContent);
}"""


def site_lang(path: str) -> str:
    first = Path(path).parts[0]
    return first if first in LANGUAGES else SOURCE_LANGUAGE


@pytest.mark.parametrize("path", SITE_PAGES)
def test_site_page_has_no_wcag_violations_in_either_theme(contexts, path):
    if not (SITE / "index.html").exists():
        pytest.fail(f"{CONFIG.relative(SITE)}/ is missing: run `make site`")
    page, traffic = contexts(site_lang(path), VIEWPORT)
    page.goto((SITE / path).as_uri())
    settle(page)
    page.wait_for_function(EXPLORERS_DRAWN, timeout=TIMEOUT_MS)
    found = []
    for theme in ("light", "dark"):
        # as the theme's switch does (pydata-sphinx-theme sets both); the explorers redraw on it
        page.evaluate(THEME, theme)
        page.evaluate(FRAMES)
        found += axe_violations(page, f"site/{path} ({theme})")
    assert_no_violations(found)
    assert traffic.outside == [], f"requests tried to leave the machine: {traffic.outside}"
    assert traffic.errors == [], f"JavaScript errors: {traffic.errors}"


# ----------------------------------------------------------------------------- the decks

MATH_DONE = """() => new Promise(done => {
    const wait = () => window.MathJax && MathJax.Hub && MathJax.Hub.Queue ? MathJax.Hub.Queue(done) : setTimeout(wait, 50);
    wait();
})"""


def open_deck(contexts, deck: str, view: str = ""):
    path = SLIDES / deck
    if not path.exists():
        pytest.fail(f"{CONFIG.relative(path)} is missing: run `make slides`")
    page, traffic = contexts(deck.split("/")[0], DECK_VIEWPORT)
    page.goto(path.as_uri() + view)
    page.wait_for_function("document.querySelector('.reveal.ready') !== null", timeout=TIMEOUT_MS)
    return page, traffic


@pytest.mark.parametrize("deck", DECKS)
def test_every_slide_of_the_deck_has_no_wcag_violations(contexts, deck):
    # every slide at once: reveal's print view, once its pages are laid out
    page, traffic = open_deck(contexts, deck, "?print-pdf")
    page.wait_for_function(
        "document.querySelector('.reveal .slides .pdf-page') && "
        "!document.querySelector('.reveal .slides section[aria-hidden]')",
        timeout=TIMEOUT_MS,
    )
    page.wait_for_function(EXPLORERS_DRAWN, timeout=TIMEOUT_MS)
    page.evaluate(MATH_DONE)
    assert_no_violations(axe_violations(page, f"slides/{deck}?print-pdf"))
    assert traffic.outside == [], f"requests tried to leave the machine: {traffic.outside}"
    assert traffic.errors == [], f"JavaScript errors: {traffic.errors}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_deck_as_shown_has_no_wcag_violations(contexts, lang):
    """A deck as the audience sees it: its first slide, with reveal's arrows, progress bar and slide
    number, which the print view leaves out. They are the same in every deck: one deck per language."""
    page, traffic = open_deck(contexts, f"{lang}/{CONFIG.lesson_names()[0]}.html")
    page.evaluate(MATH_DONE)
    assert page.locator(".reveal .slide-number a").count() == 1  # the slide number is shown and checked
    assert_no_violations(axe_violations(page, f"slides/{lang}/{CONFIG.lesson_names()[0]}.html"))
    assert traffic.outside == [] and traffic.errors == [], (traffic.outside, traffic.errors)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_deck_index_has_no_wcag_violations(contexts, lang):
    path = SLIDES / lang / "index.html"
    if not path.exists():
        pytest.fail(f"{CONFIG.relative(path)} is missing: run `make slides`")
    page, traffic = contexts(lang, DECK_VIEWPORT)
    page.goto(path.as_uri())
    assert_no_violations(axe_violations(page, f"slides/{lang}/index.html"))
    assert traffic.outside == [] and traffic.errors == [], (traffic.outside, traffic.errors)


# ----------------------------------------------------------------------------- the grader's report


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    from tests.grade.synthetic import checked_in_process

    result = checked_in_process()
    out = tmp_path_factory.mktemp("report")
    for lang in LANGUAGES:
        write_report(result, out / lang, lang)
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_grade_report_has_no_wcag_violations(contexts, report, lang):
    page, traffic = contexts(lang, {"width": 1000, "height": 900})
    page.goto((report / lang / "index.html").as_uri())
    assert_no_violations(axe_violations(page, f"the grade report ({lang})"))
    assert traffic.outside == [] and traffic.errors == [], (traffic.outside, traffic.errors)


# ----------------------------------------------------------------------------- every explorer by keyboard

# Every control a reader operates in the explorer: what Tab must reach (a radio group is one stop, at
# its checked button), with how it is operated and what a pointer hits (the label around it, if any).
CONTROLS = """root => [...root.querySelectorAll('input, select, textarea, button, a[href], [tabindex]')]
    .filter(el => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length)
    .filter(el => el.type !== 'radio' || el.checked)
    .map(el => el.type === 'radio' ? `radio:${el.name}` : `${el.tagName.toLowerCase()}:${el.type || ''}:${el.name || el.id}`)"""
ACTIVE = """root => {
    const el = document.activeElement;
    if (!el || !root.contains(el)) return null;
    return el.type === 'radio' ? `radio:${el.name}` : `${el.tagName.toLowerCase()}:${el.type || ''}:${el.name || el.id}`;
}"""
# the focused control's box, grown by the room a focus ring takes, in the viewport's pixels
RING_PX = 6
BOX = f"""() => {{
    const el = document.activeElement;
    el.scrollIntoView({{block: 'center'}});
    const r = el.getBoundingClientRect();
    return {{x: Math.max(0, r.left - {RING_PX}), y: Math.max(0, r.top - {RING_PX}),
             width: r.width + 2 * {RING_PX}, height: r.height + 2 * {RING_PX}}};
}}"""
# what a pointer hits: the control's box, or its <label>'s when the label wraps it (the same click)
TARGET = """() => {
    const el = document.activeElement;
    const label = el.closest('label');
    const r = (label || el).getBoundingClientRect();
    return [Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10];
}"""
STATE = """root => ({
    readout: root.querySelector('.course-explorer-readout')?.textContent ?? '',
    kind: document.activeElement.type || document.activeElement.tagName.toLowerCase(),
    value: document.activeElement.value,
    atEnd: document.activeElement.type === 'range' ? Number(document.activeElement.value) >= Number(document.activeElement.max)
        : document.activeElement.tagName === 'SELECT' ? document.activeElement.selectedIndex === document.activeElement.options.length - 1
        : false,
})"""


def operate(page, state: dict) -> None:
    """Operate the focused control from the keyboard alone."""
    kind = state["kind"]
    if kind == "range":
        page.keyboard.press("ArrowLeft" if state["atEnd"] else "ArrowRight")
    elif kind == "select-one":  # a closed list: the arrows choose the next option
        page.keyboard.press("ArrowUp" if state["atEnd"] else "ArrowDown")
    elif kind == "radio":  # the next button of the group is chosen (after the last, the first)
        page.keyboard.press("ArrowRight")
    elif kind in ("checkbox", "button", "submit"):
        page.keyboard.press("Space")
    elif kind in ("text", "search", "textarea"):
        page.keyboard.press("End")
        page.keyboard.type(" x")
    else:
        raise AssertionError(f"no keyboard operation known for a control of type {kind!r}")


EXPLORER_PAGES = sorted(LESSONS)
# A tick box that changes how another control acts, not what the explorer shows: ticked, a step of
# the first slider moves the second one too (lesson 8's "m and n together"); unticked, it does not.
LINKED = {("rope-explorer", "together"): ("m", "n")}
SLIDER_VALUE = "(root, name) => Number(root.querySelector(`input[name=${name}]`).value)"


def check_linked(page, root, box: str, lead: str, follower: str) -> str | None:
    """Space on the tick box ``box`` (focused) flips it, and a step of ``lead`` then moves ``follower``
    exactly when it is ticked; all put back as they were. A failure's description, or None."""
    ticked_before = page.evaluate("() => document.activeElement.checked")
    page.keyboard.press("Space")
    ticked = page.evaluate("() => document.activeElement.checked")
    if ticked == ticked_before:
        return f"Space did not flip {box}"
    slider = root.locator(f"input[name={lead}]")
    slider.focus()
    at_end = slider.evaluate("s => Number(s.value) >= Number(s.max)")
    before = root.evaluate(SLIDER_VALUE, follower)
    page.keyboard.press("ArrowLeft" if at_end else "ArrowRight")
    moved = root.evaluate(SLIDER_VALUE, follower) != before
    page.keyboard.press("ArrowRight" if at_end else "ArrowLeft")
    root.locator(f"input[name={box}]").focus()
    page.keyboard.press("Space")
    if moved != ticked:
        state = "ticked" if ticked else "unticked"
        return f"with {box} {state}, a step of {lead} {'left ' + follower + ' where it was' if ticked else 'moved ' + follower + ' too'}"
    return None


@pytest.mark.parametrize("name", EXPLORER_PAGES)
def test_every_explorer_works_by_keyboard_alone(contexts, name):
    path = SITE / "en" / f"{name}.html"
    if not path.exists():
        pytest.fail(f"{CONFIG.relative(path)} is missing: run `make site`")
    page, traffic = contexts("en", VIEWPORT)
    page.goto(path.as_uri())
    page.wait_for_function(
        """classes => classes.every(cls => [...document.querySelectorAll(`.${cls}`)]
            .some(e => e.querySelector('.course-explorer-readout')?.textContent))""",
        arg=LESSONS[name],
        timeout=TIMEOUT_MS,
    )
    page.evaluate(FRAMES)
    failures = []
    for cls in LESSONS[name]:
        root = page.locator(f".{cls}").first
        expected = root.evaluate(CONTROLS)
        assert expected, f"{cls} has no control"
        # a stop just before the explorer, where a reader tabbing through the page would come from
        root.evaluate(
            """root => { const s = document.createElement('span'); s.tabIndex = 0; s.className = 'course-a11y-start';
                         root.before(s); s.focus(); }"""
        )
        reached = []
        for _ in range(4 * len(expected) + 4):
            page.keyboard.press("Tab")
            control = root.evaluate(ACTIVE)
            if control is None:
                break
            if control in reached:
                continue
            reached.append(control)
            # a focus indicator: the control and the room around it look different with the focus and without
            box = page.evaluate(BOX)
            focused = page.screenshot(clip=box, animations="disabled")
            page.evaluate(
                "() => { window.courseFocused = document.activeElement; document.activeElement.blur(); }"
            )
            blurred = page.screenshot(clip=box, animations="disabled")
            page.evaluate("() => window.courseFocused.focus()")
            if focused == blurred:
                failures.append(f"{cls} {control}: no visible focus indicator")
            width, height = page.evaluate(TARGET)
            if min(width, height) < MIN_TARGET_PX:
                failures.append(f"{cls} {control}: target {width} x {height} px, under {MIN_TARGET_PX} px")
            linked = LINKED.get((cls, control.split(":")[-1]))
            if linked:
                failure = check_linked(page, root, control.split(":")[-1], *linked)
                if failure:
                    failures.append(f"{cls} {control}: {failure}")
                continue
            before = root.evaluate(STATE)
            operate(page, before)
            try:
                page.wait_for_function(
                    "([root, before]) => root.querySelector('.course-explorer-readout')?.textContent !== before",
                    arg=[root.element_handle(), before["readout"]],
                    timeout=3_000,
                )
            except Exception:
                failures.append(
                    f"{cls} {control}: operating it from the keyboard ({before['kind']}) left the readout as it was"
                )
            if (
                before["kind"] == "checkbox"
            ):  # ticked back: the next controls act on what the explorer first showed
                page.keyboard.press("Space")
        page.evaluate("() => document.querySelectorAll('.course-a11y-start').forEach(s => s.remove())")
        missing = [c for c in expected if c not in reached]
        if missing:
            failures.append(f"{cls}: Tab never reached {missing} (reached {reached})")
    assert failures == [], "\n".join(failures)
    assert traffic.outside == [] and traffic.errors == [], (traffic.outside, traffic.errors)


# ----------------------------------------------------------------------------- the explorers' own stylesheet

# What a pointer must hit in an explorer (every visible input and list: the control, or the label around it,
# which takes the same click), in CSS pixels, and any canvas the explorer hides that still takes room
TARGETS = """root => ({
    small: [...root.querySelectorAll('input, select')].filter(i => i.getClientRects().length)
        .map(i => [i.type === 'radio' ? `radio:${i.value}` : i.name, i.closest('label') || i])
        .filter(([, t]) => Math.min(t.offsetWidth, t.offsetHeight) < 24)
        .map(([name, t]) => `${name}: ${t.offsetWidth} x ${t.offsetHeight} px`),
    controls: root.querySelectorAll('input, select').length,
    hiddenShown: [...root.querySelectorAll('canvas[hidden]')].filter(c => c.getClientRects().length).length,
})"""


@pytest.mark.parametrize("name", sorted(SAVED))
def test_every_explorer_sizes_its_own_targets_in_a_bare_page(offline_page, name):
    """In a page with no stylesheet of the course's (JupyterLab's: nothing there styles the explorers), each
    explorer's own CSS (js/common.js) makes every target at least 24 x 24 px and keeps a hidden canvas hidden."""
    explorer = SAVED[name][0]("en")
    state = explorer.get_state()
    page, traffic = offline_page("en", VIEWPORT, lambda url: is_file(url) or is_local(url), "bare page")
    page.set_content("<!DOCTYPE html><html><body></body></html>")
    page.evaluate(RENDER, [state["_esm"], state])
    page.wait_for_function("() => window.__result !== undefined", timeout=TIMEOUT_MS)
    assert "error" not in page.evaluate("window.__result"), page.evaluate("window.__result")
    found = page.evaluate(TARGETS, page.query_selector(".course-explorer"))
    assert found["controls"], f"{name}: no control found"
    assert found["small"] == [], f"{name}: targets under {MIN_TARGET_PX} px: {found['small']}"
    assert found["hiddenShown"] == 0, f"{name}: a hidden canvas takes room on the page"
    traffic.assert_clean()


# ----------------------------------------------------------------------------- a check's verdict

# hosts of a verdict: the text colour around it and the background under it. JupyterLab's light and dark
# themes (--jp-content-font-color1 on --jp-layout-color0), a deck (reveal's white theme), the site's two
# themes (pydata-sphinx-theme's text and background, with the course's stylesheet), and a notebook
# JupyterLab does not trust, whose sanitizer keeps only a plain colour (the span's first declaration)
SITE_CSS = ROOT / "course_tools" / "publish" / "site_theme" / "_static" / "course-site.css"
VERDICT_HOSTS = {
    "JupyterLab light": ("rgba(0, 0, 0, 0.87)", "#ffffff", None),
    "JupyterLab dark": ("#ffffff", "#111111", None),
    "deck": ("#222222", "#ffffff", None),
    "site light": ("#222832", "#ffffff", "light"),
    "site dark": ("#ced6dd", "#14181e", "dark"),
    "sanitized, light": ("rgba(0, 0, 0, 0.87)", "#ffffff", "sanitized"),
}
# the verdict's colour as drawn over the page (a canvas resolves var(), color-mix() and transparency)
# and its contrast with the page, WCAG's formula
CONTRAST = """([html, text, background, theme]) => {
    document.documentElement.dataset.theme = theme === 'dark' ? 'dark' : 'light';
    document.body.style.cssText = `color: ${text}; background: ${background}`;
    document.body.innerHTML = html;
    const span = document.querySelector('.course-verdict');
    if (theme === 'sanitized') span.setAttribute('style', span.getAttribute('style').split(';')[0]);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, 1, 1);
    ctx.fillStyle = getComputedStyle(span).color;
    ctx.fillRect(0, 0, 1, 1);
    const drawn = [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, 1, 1);
    const page = [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    const lum = rgb => rgb.map(c => c / 255).map(c => c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
        .reduce((sum, c, k) => sum + c * [0.2126, 0.7152, 0.0722][k], 0);
    const [dark, light] = [lum(drawn), lum(page)].sort((a, b) => a - b);
    return {colour: getComputedStyle(span).color, contrast: (light + 0.05) / (dark + 0.05)};
}"""


def test_a_verdict_reads_at_4_5_to_1_on_light_and_dark_pages(offline_page):
    from course_lib.exercises.checks import STATUSES, Feedback

    page, traffic = offline_page("en", VIEWPORT, lambda url: is_file(url) or is_local(url), "verdict")
    failures, seen = [], {}
    for host, (text, background, theme) in VERDICT_HOSTS.items():
        page.set_content("<!DOCTYPE html><html><head></head><body></body></html>")
        if theme in ("light", "dark"):
            page.add_style_tag(path=str(SITE_CSS))
        for status in STATUSES:
            html = Feedback(status, "key", "The message.", "Status")._repr_markdown_()
            found = page.evaluate(CONTRAST, [html, text, background, theme])
            seen[host, status] = (found["colour"], found["contrast"])
            if found["contrast"] < 4.5:
                failures.append(f"{status} on {host}: {found['colour']} at {found['contrast']:.2f}:1")
    print("\n".join(f"{host}, {status}: {c} at {r:.2f}:1" for (host, status), (c, r) in seen.items()))
    # each status keeps its own colour on every host
    for host in VERDICT_HOSTS:
        assert len({seen[host, s][0] for s in STATUSES}) == 3, seen
    assert failures == [], "\n".join(failures)
    traffic.assert_clean()
