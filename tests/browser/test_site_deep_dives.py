"""A deep dive on the site in Chromium, from file://: folded under its heading, one click (or Enter)
opens it, a link from the page's contents opens it, readable in the light and the dark theme.

Today's lessons may have no deep dive yet, so this builds the small two-lesson course of
``tests/lessons/test_site.py`` (its second lesson has one) and opens its pages.
"""

import pytest

from course_tools.core.config import LANGUAGES
from course_tools.publish import site
from tests.browser.conftest import is_file
from tests.lessons.test_site import small_course

pytestmark = pytest.mark.browser

HEADING = {"en": "Deep dive: the history", "ru": "Подробнее: история"}
INSIDE = {"en": "Old text.", "ru": "Старый текст."}

# WCAG's contrast ratio of an element's text against the first opaque background behind it
CONTRAST = """el => {
    const rgb = s => s.match(/[\\d.]+/g).map(Number);
    const lum = c => { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
    let bg = null;
    for (let n = el; n && !bg; n = n.parentElement) {
        const c = rgb(getComputedStyle(n).backgroundColor);
        if (c.length < 4 || c[3] > 0) bg = c;
    }
    bg = bg || [255, 255, 255];
    const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(bg)];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.fixture(scope="module")
def small_site(tmp_path_factory):
    config = small_course(tmp_path_factory.mktemp("course"))
    site.build(config, say=lambda _: None)
    return config.site_dir


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_deep_dive_is_folded_and_opens_with_one_click(small_site, offline_page, lang):
    page, _ = offline_page(lang, {"width": 1280, "height": 900}, is_file, "site")
    page.goto((small_site / lang / "02_second.html").as_uri())
    fold = page.locator("details.course-deep-dive").first
    summary = fold.locator("summary")
    assert summary.inner_text().strip().startswith(HEADING[lang])
    assert not fold.evaluate("d => d.open")
    assert not page.get_by_text(INSIDE[lang]).is_visible()
    summary.click()
    assert fold.evaluate("d => d.open") and page.get_by_text(INSIDE[lang]).is_visible()
    summary.focus()
    page.keyboard.press("Enter")  # the keyboard folds it again
    assert not fold.evaluate("d => d.open")
    for theme in ("light", "dark"):
        page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
        ratio = summary.locator("h3").evaluate(CONTRAST)
        assert ratio >= 4.5, f"the deep dive's heading at contrast {ratio:.2f} in the {theme} theme"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_contents_list_the_deep_dive_and_their_link_opens_it(small_site, offline_page, lang):
    page, _ = offline_page(lang, {"width": 1400, "height": 900}, is_file, "site")
    page.goto((small_site / lang / "02_second.html").as_uri())
    link = page.locator(".bd-toc a.nav-link", has_text=HEADING[lang])
    assert link.count() == 1
    link.click()
    page.wait_for_function("document.querySelector('details.course-deep-dive').open")
    assert page.get_by_text(INSIDE[lang]).is_visible()
    # arriving from another page at the deep dive's address opens it too
    href = link.get_attribute("href")
    page.goto((small_site / lang / "index.html").as_uri())
    page.goto((small_site / lang / "02_second.html").as_uri() + href)
    page.wait_for_function("document.querySelector('details.course-deep-dive').open")
