"""The handouts: each deck as one plain page and as a PDF printed by headless Chromium, offline.

The first tests read what ``make handouts`` made (``slides/<lang>/NN_name.handout.html`` and
``NN_name.pdf``): every slide of the deck and its notes in the page, a PDF with a page or more per
slide. The last two print small handouts of a synthetic course: a PDF and the index linking it,
and a handout that asks the network for something, which fails the build and writes nothing.
"""

import re

import pytest

from course_tools import handouts, slides
from course_tools.config import LANGUAGES
from course_tools.course import Course
from course_tools.lecture import deck_slides, is_notes, slide_groups
from tests.lessons.support import course, title, twins, write_lesson
from tests.support import ROOT

pytestmark = pytest.mark.browser

SLIDES = ROOT / "slides"
COURSE = Course.load()
DECKS = [(name, lang) for name in COURSE.names for lang in LANGUAGES]
PAGE = re.compile(rb"/Type\s*/Page\b")


def text_of(html: str) -> str:
    """The page's text, tags dropped and whitespace folded (enough to find a sentence in it)."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def first_words(markdown: str) -> str:
    """The first few plain words of a prose cell, as its rendering shows them."""
    line = next((line for line in markdown.splitlines() if re.search(r"\w", line)), "")
    line = re.sub(r"^[#>*\-\d. ]+|[*_`]|\$[^$]*\$|\[|\]\([^)]*\)", " ", line)
    words = re.findall(r"[^\W\d_]{3,}", line)
    return " ".join(words[:3])


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
    text = text_of(page)
    for number, group in enumerate(slide_groups(deck), 1):
        for cell in group:
            if cell.cell_type == "markdown" and first_words(cell.source):
                assert first_words(cell.source) in text, (
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


def test_a_handout_is_printed_and_the_index_links_it(small):
    write_handout(small, "")
    written = handouts.build([], small, say=lambda _: None)
    assert sorted(p.name for p in written) == ["01_one.pdf"] * len(LANGUAGES)
    for lang in LANGUAGES:
        data = (small.slides_dir / lang / "01_one.pdf").read_bytes()
        assert data.startswith(b"%PDF-") and len(PAGE.findall(data)) >= 3
        index = (small.slides_dir / lang / "index.html").read_text(encoding="utf-8")
        assert '<a href="01_one.pdf">PDF</a>' in index
    assert not list(small.slides_dir.glob(".build-*"))


def test_a_handout_that_asks_the_network_fails_and_writes_nothing(small):
    write_handout(small, '<img src="https://example.org/picture.png" alt="">')
    with pytest.raises(handouts.HandoutError, match=r"network \(blocked\): https://example.org/picture.png"):
        handouts.build([], small, say=lambda _: None)
    assert not list(small.slides_dir.glob("*/*.pdf")) and not list(small.slides_dir.glob(".build-*"))
