"""The font probe the decks' and the site's tests rely on, and the pass without system fonts.

The probe (``conftest.FontProbe``, Chromium's ``CSS.getPlatformFontsForNode``) must see a system font
when one draws text, else the guard could never fail. Under `make browser-no-system-fonts`
(``COURSE_NO_SYSTEM_FONTS=1``) the browser has no system font at all: then the same text is drawn by
none, and the decks' and the site's tests pass all the same, because only the course's fonts draw them.
"""

import pytest

from tests.browser.conftest import NO_SYSTEM_FONTS, PLACEHOLDER_FONT, FontProbe, course_font, foreign_fonts

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><html lang="ru"><body>
<p id="system" style="font-family: sans-serif">Системный шрифт, system font</p>
<p id="mono" style="font-family: monospace">print("код")</p>
</body></html>"""


def test_the_probe_sees_system_fonts_unless_there_are_none(offline_page):
    page, traffic = offline_page("ru", {"width": 800, "height": 400})
    page.set_content(PAGE)
    found = FontProbe(page).fonts("body")
    system = {family for family, custom in found if not custom}
    if NO_SYSTEM_FONTS:
        assert system <= {PLACEHOLDER_FONT}, (
            f"the browser still found system fonts under the empty fontconfig: {found}"
        )
    else:
        assert system, f"the probe saw no system font drawing system-font text: {found}"
        assert foreign_fonts(found, course_font), "the guard would accept system fonts"
    traffic.assert_clean()
