"""The font probe the decks' and the site's tests rely on, with the machine's fonts and without them.

The probe (``conftest.FontProbe``, Chromium's ``CSS.getPlatformFontsForNode``) must see a system font
when one draws text, else the guard could never fail. `make browser-slides` and `make browser-site` run
their tests in a browser without the machine's fonts (``COURSE_NO_SYSTEM_FONTS=1``: a fontconfig that
offers only a placeholder, one blank glyph for every code point from U+0020, bar the surrogates). There,
every character that no font of an element's list has is drawn by the placeholder, and the probe names
it, a system font, so the guard fails on it wherever a font of the machine would have drawn it (DejaVu
Sans on this machine) and also where none would. This test holds the probe to both, in a browser of each
kind, on generic families and a family no page ships, and without the machine's fonts on the course's
own font lists.
"""

import pytest

from tests.browser.conftest import (
    PLACEHOLDER_FONT,
    ROOT,
    FontProbe,
    course_font,
    foreign_fonts,
    is_file,
    is_local,
    launch_chromium,
)

pytestmark = pytest.mark.browser

# the course's own font lists from the decks' style sheet: characters none of the course's fonts has
# (Armenian, box drawing) go to the system's fallback, a font of the machine or the placeholder
COURSE_FONTS = ROOT / "slides" / "assets" / "fonts" / "course-fonts.css"
PAGE = """<!DOCTYPE html><html lang="ru"><head><link rel="stylesheet" href="{fonts}"></head><body>
<p id="sans" style="font-family: sans-serif">Системный шрифт, system font</p>
<p id="mono" style="font-family: monospace">print("код")</p>
<p id="unknown" style="font-family: 'No Such Family'">∮ ⅏ text in a family no page ships</p>
<p id="course-sans" style="font-family: var(--course-sans)">Բարեւ, an alphabet no course font has</p>
<pre id="course-mono" style="font-family: var(--course-mono)">tree ├── x</pre>
<p id="course-private" style="font-family: var(--course-sans)">\ue000, a character of private use</p>
</body></html>"""


@pytest.fixture(scope="module", params=["machine fonts", "no system fonts"])
def browser(request, playwright, tmp_path_factory):
    """This module's browsers: one with the machine's fonts, one with none (whatever the stage's own is)."""
    browser = launch_chromium(
        playwright, tmp_path_factory.mktemp("fontconfig"), request.param == "no system fonts"
    )
    browser.fonts = request.param
    try:
        yield browser
    finally:
        browser.close()


def probe(offline_page, tmp_path, element: str) -> tuple[dict, set[str]]:
    """The fonts that drew ``#element`` of the page, and the system fonts among them (the page's traffic checked)."""
    if not COURSE_FONTS.exists():
        pytest.fail(f"{COURSE_FONTS.relative_to(ROOT)} is missing: run `make slides`")
    page, traffic = offline_page(
        "ru", {"width": 800, "height": 400}, lambda url: is_local(url) or is_file(url)
    )
    (tmp_path / "page.html").write_text(PAGE.format(fonts=COURSE_FONTS.as_uri()), encoding="utf-8")
    page.goto((tmp_path / "page.html").as_uri())
    page.evaluate("document.fonts.ready.then(() => true)")
    found = FontProbe(page).fonts(f"#{element}")
    traffic.assert_clean()
    assert found, f"the probe saw no font draw #{element}"
    assert foreign_fonts(found, course_font), f"the guard would accept {found}"
    return found, {family for family, custom in found if not custom}


@pytest.mark.parametrize("element", ["sans", "mono", "unknown"])
def test_the_guard_fails_on_text_no_course_font_draws(browser, offline_page, tmp_path, element):
    found, system = probe(offline_page, tmp_path, element)
    if browser.fonts == "no system fonts":
        assert system == {PLACEHOLDER_FONT}, f"the browser found fonts beside the placeholder: {found}"
    else:
        assert system and PLACEHOLDER_FONT not in system, found


# In the course's own font lists, a character none of the course's fonts has: with the machine's fonts it
# is drawn by one of them if the machine has one (DejaVu Sans has Armenian and box drawing; a machine
# without such a font would show the course font's empty box, and so would every machine for a private
# use character), here always by the placeholder
@pytest.mark.parametrize("browser", ["no system fonts"], indirect=True)
@pytest.mark.parametrize("element", ["course-sans", "course-mono", "course-private"])
def test_without_the_machine_s_fonts_the_guard_fails_on_what_no_course_font_has(
    browser, offline_page, tmp_path, element
):
    found, system = probe(offline_page, tmp_path, element)
    assert system == {PLACEHOLDER_FONT}, found
