"""The font probe the decks' and the site's tests rely on, with the machine's fonts and without any.

The probe (``conftest.FontProbe``, Chromium's ``CSS.getPlatformFontsForNode``) must see a system font
when one draws text, else the guard could never fail. `make browser-slides` and `make browser-site` run
their tests in a browser that has no system font at all (``COURSE_NO_SYSTEM_FONTS=1``: an empty
fontconfig but for a placeholder of one blank glyph). There, text that only a machine's font could draw
is drawn by the placeholder, and the probe names it, a system font, so the guard fails on it as it fails
on any font of the machine: one run in that browser checks what a run with the machine's fonts checks
(which of them draws the text depends on the machine: DejaVu Sans on this one), and also that the pages
need none of them. This test holds the probe to both, in a browser of each kind.
"""

import pytest

from tests.browser.conftest import PLACEHOLDER_FONT, FontProbe, course_font, foreign_fonts, launch_chromium

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><html lang="ru"><body>
<p id="sans" style="font-family: sans-serif">Системный шрифт, system font</p>
<p id="mono" style="font-family: monospace">print("код")</p>
<p id="unknown" style="font-family: 'No Such Family'">∮ ⅏ text in a family no page ships</p>
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


@pytest.mark.parametrize("element", ["sans", "mono", "unknown"])
def test_the_guard_fails_on_text_no_course_font_draws(browser, offline_page, element):
    page, traffic = offline_page("ru", {"width": 800, "height": 400})
    page.set_content(PAGE)
    found = FontProbe(page).fonts(f"#{element}")
    assert found, f"the probe saw no font draw #{element}"
    system = {family for family, custom in found if not custom}
    assert system, f"the probe saw no system font drawing #{element}: {found}"
    if browser.fonts == "no system fonts":
        assert system == {PLACEHOLDER_FONT}, f"the browser found fonts beside the placeholder: {found}"
    else:
        assert PLACEHOLDER_FONT not in system, found
    assert foreign_fonts(found, course_font), f"the guard would accept {found}"
    traffic.assert_clean()
