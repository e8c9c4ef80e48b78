"""A deck's handout: every slide in order, its speaker notes under it, as one plain page.

reveal.js shows one slide at a time inside ``role="application"``, which keeps a screen reader from
reading the deck line by line (reveal.js issue 3772), and a reader who reads rather than watches
wants the whole lecture in one page. The handout is made from the same deck notebook as the deck
(:func:`course_tools.publish.slides.deck_notebook`: the committed outputs) by nbconvert's plain HTML template
(``slides/handout/``), after :func:`handout_notebook` has put each slide's notes after its content
and marked where each slide starts. ``course_tools.handouts`` prints the handouts to PDF.
"""

import copy

from ..build.lecture import is_notes, slide_groups
from .messages import SLIDES_INDEX as TEXT

__all__ = [
    "HANDOUT_SUFFIX",
    "PDF_SUFFIX",
    "SLIDE_KEY",
    "NOTES_KEY",
    "handout_name",
    "pdf_name",
    "handout_notebook",
]

HANDOUT_SUFFIX = ".handout.html"
PDF_SUFFIX = ".pdf"
#: cell metadata the handout template reads: the label of the slide a cell opens; notes
SLIDE_KEY = "course_handout_slide"
NOTES_KEY = "course_handout_notes"


def handout_name(name: str) -> str:
    """The handout of lesson ``name``'s deck, beside the deck: ``05_x.handout.html``."""
    return name + HANDOUT_SUFFIX


def pdf_name(name: str) -> str:
    """The handout printed: ``05_x.pdf``."""
    return name + PDF_SUFFIX


def handout_notebook(deck, lang: str):
    """The deck's cells slide by slide, each slide's content then its notes, the first cell of each
    slide labelled "Slide N of T" in ``lang``; a new notebook (the deck is left as it was)."""
    out = copy.deepcopy(deck)
    groups = slide_groups(out)
    out.cells = []
    for number, group in enumerate(groups, 1):
        content = [c for c in group if not is_notes(c)]
        notes = [c for c in group if is_notes(c)]
        ordered = content + notes
        ordered[0].metadata[SLIDE_KEY] = TEXT("slide", lang, number=number, total=len(groups))
        if number == 1:
            ordered[0].metadata["course_handout_first"] = True
        for cell in notes:
            cell.metadata[NOTES_KEY] = True
        out.cells += ordered
    return out
