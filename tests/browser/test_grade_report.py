"""The grader's report (REPORT/index.html) in headless Chromium, from file://, in English and Russian:
the bar chart drawn, the page in its language, no request leaves the machine. Refreshes the
instructors' guide's screenshots (docs/screenshots/grade_report_<lang>.png)."""

from pathlib import Path

import pytest

from course_tools.grading.report import write_report
from tests.grade.synthetic import checked_in_process

from .conftest import is_file, is_local, save_screenshot

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TITLE = {"en": "Mistakes of the class", "ru": "Ошибки группы"}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    result = checked_in_process()
    out = tmp_path_factory.mktemp("report")
    for lang in TITLE:
        write_report(result, out / lang, lang)
    return out


@pytest.mark.parametrize("lang", sorted(TITLE))
def test_report_draws_its_chart_offline_in_its_language(report, offline_page, lang):
    page, traffic = offline_page(lang, {"width": 1000, "height": 900}, lambda u: is_file(u) or is_local(u))
    page.goto((report / lang / "index.html").as_uri())
    assert page.locator("h1").inner_text() == TITLE[lang]
    assert page.locator("html").get_attribute("lang") == lang
    bars = page.locator("svg.chart rect.bar")
    assert bars.count() >= 8
    widths = [bars.nth(i).bounding_box()["width"] for i in range(bars.count())]
    assert min(widths) >= 2 and max(widths) > 100  # drawn, and in proportion to the shares
    assert page.locator("section.exercise").count() == 4
    traffic.assert_clean()
    save_screenshot(SCREENSHOTS / f"grade_report_{lang}.png", page.screenshot(full_page=False))
