"""The handouts: each deck as one plain page and as a PDF printed by headless Chromium, offline.

The first tests read what ``make handouts`` made (``slides/<lang>/NN_name.handout.html`` and
``NN_name.pdf``): every slide of the deck and its notes in the page, a PDF with a page or more per
slide. The next two print small handouts of a synthetic course: a PDF and the index linking it,
and a handout that asks the network for something, which fails the build and writes nothing; the
last asks for a browser that is not installed, which fails the build naming the package to install.
"""

import html
import re

import pytest

from course_tools.build.course import Course
from course_tools.build.lecture import deck_slides, is_notes, slide_groups
from course_tools.core.config import LANGUAGES
from course_tools.publish import handouts, slides
from tests.lessons.support import course, title, twins, write_lesson
from tests.support import ROOT

pytestmark = pytest.mark.browser

SLIDES = ROOT / "slides"
COURSE = Course.load()
DECKS = [(name, lang) for name in COURSE.names for lang in LANGUAGES]
PAGE = re.compile(rb"/Type\s*/Page\b")


def words(text: str) -> str:
    """The words of a text, one space apart: markup, punctuation and link targets left out."""
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return " ".join(re.findall(r"[^\W_]+", text))


def page_words(page: str) -> str:
    """The words of an HTML page's text (its tags dropped, its entities read)."""
    return words(html.unescape(re.sub(r"<[^>]+>", " ", page)))


def opening(markdown: str) -> str:
    """The first four words of a prose cell's first line that has any."""
    # raw HTML in the prose: its text only (not `<bos>` in code, which the page shows as text)
    markdown = re.sub(r"</?(?:details|summary|div|span|br|p|b|i|em|strong|sub|sup|a)\b[^>]*>", " ", markdown)
    line = next((line for line in markdown.splitlines() if re.search(r"\w", line)), "")
    return " ".join(words(line).split()[:4])


@pytest.mark.parametrize(("name", "lang"), DECKS, ids=[f"{lang}-{name}" for name, lang in DECKS])
def test_handout_has_every_slide_and_its_notes_and_a_pdf_of_a_page_or_more_each(name, lang):
    handout = SLIDES / lang / f"{name}.handout.html"
    pdf = SLIDES / lang / f"{name}.pdf"
    assert handout.exists() and pdf.exists(), "run `make handouts`"
    page = handout.read_text(encoding="utf-8")
    deck = COURSE.render(name, lang, target="slides")
    count = len(deck_slides(deck))
    labels = re.findall(r'<p class="course-slide-label[^"]*">([^<]+)</p>', page)
    assert labels == [slides.TEXT("slide", lang, number=n, total=count) for n in range(1, count + 1)]
    assert 'role="application"' not in page
    text = page_words(page)
    for number, group in enumerate(slide_groups(deck), 1):
        for cell in group:
            if cell.cell_type == "markdown" and opening(cell.source):
                assert opening(cell.source) in text, (
                    f"slide {number}: {cell.source[:60]!r} not in the handout"
                )
    notes = sum(is_notes(cell) for group in slide_groups(deck) for cell in group)
    assert len(re.findall(r'<aside [^>]*class="course-notes"', page)) == notes
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-")
    assert len(PAGE.findall(data)) >= count


# ----------------------------------------------------------------------------- printing, on a small course


FLAG = "<script>document.documentElement.dataset.courseTypeset = 'done';</script>"


@pytest.fixture
def small(tmp_path):
    config = course(tmp_path)
    write_lesson(tmp_path, "01_one", *title(1), *twins("Text.", "Текст."))
    for lang in LANGUAGES:
        (config.slides_dir / lang).mkdir(parents=True)
        (config.slides_dir / lang / "01_one.html").write_text("deck", encoding="utf-8")
    return config


def write_handout(config, body: str) -> None:
    for lang in LANGUAGES:
        labels = "".join(
            f'<p class="course-slide-label" style="break-before: page">{n}</p><p>{lang}</p>' for n in range(3)
        )
        page = f'<!DOCTYPE html><html lang="{lang}"><body>{labels}{body}{FLAG}</body></html>'
        (config.slides_dir / lang / "01_one.handout.html").write_text(page, encoding="utf-8")


def test_a_handout_is_printed_and_the_index_links_it(small, browser):
    write_handout(small, "")
    written = handouts.build([], small, say=lambda _: None, browser=browser)
    assert sorted(p.name for p in written) == ["01_one.pdf"] * len(LANGUAGES)
    for lang in LANGUAGES:
        data = (small.slides_dir / lang / "01_one.pdf").read_bytes()
        assert data.startswith(b"%PDF-") and len(PAGE.findall(data)) >= 3
        index = (small.slides_dir / lang / "index.html").read_text(encoding="utf-8")
        assert '<a href="01_one.pdf">PDF</a>' in index
    assert not list(small.slides_dir.glob(".build-*"))


def test_a_handout_that_asks_the_network_fails_and_writes_nothing(small, browser):
    write_handout(small, '<img src="https://example.org/picture.png" alt="">')
    with pytest.raises(handouts.HandoutError, match=r"network \(blocked\): https://example.org/picture.png"):
        handouts.build([], small, say=lambda _: None, browser=browser)
    assert not list(small.slides_dir.glob("*/*.pdf")) and not list(small.slides_dir.glob(".build-*"))


def test_without_the_browser_the_build_says_which_package_and_writes_nothing(small, tmp_path):
    write_handout(small, "")
    absent = tmp_path / "no" / "chromium-headless-shell"
    with pytest.raises(
        handouts.HandoutError,
        match=rf"{re.escape(str(absent))} is missing: install Debian's chromium-headless-shell package "
        r"\(apt-get install chromium-headless-shell\); the full browser, /usr/bin/chromium, is not used",
    ):
        handouts.build([], small, say=lambda _: None, chromium=str(absent))
    assert not list(small.slides_dir.glob("*/*.pdf")) and not list(small.slides_dir.glob(".build-*"))
