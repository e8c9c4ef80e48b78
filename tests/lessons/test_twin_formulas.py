"""Twins' formulas: the same formula, written the way each language writes numbers and words.

A Russian formula writes ``0{,}1`` where the English writes ``0.1``, and its ``\\text{}`` words
are Russian; everything else must be the same in both twins.
"""

import pytest

from course_tools.build.source import formula_key, formula_problems, translation_problems
from course_tools.core.config import TRANSLATIONS
from tests.lessons.support import source, twins


def problems(en, ru):
    """The problems of the English and Russian twins (any other language's twin is the English)."""
    others = [f"lang-{lang}" for lang in TRANSLATIONS if lang != "ru"]
    found = translation_problems(source(*twins(en, ru)))
    return [p for p in found if not any(other in p for other in others)]


def test_twins_may_differ_in_the_decimal_mark_and_text_words():
    assert (
        problems(
            r"Here $c = 0.01$ and $$\text{mask}_t = [t < n]$$",
            r"Здесь $c = 0{,}01$ и $$\text{маска}_t = [t < n]$$",
        )
        == []
    )
    assert formula_key(r"$55{,}4256\ldots$") == formula_key(r"$55.4256\ldots$")


def test_twins_that_differ_elsewhere_are_reported():
    found = problems(r"$c = 0.01$", r"формула $c = 0{,}02$")
    assert len(found) == 1 and "the formulas differ between lang-en and lang-ru" in found[0]
    found = problems(r"$\text{mask}_t$", r"формула $\text{маска}_s$")
    assert len(found) == 1 and "the formulas differ" in found[0]


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        (r"$2\pi \approx 6.3$", r"writes '6.3': in lang-ru the decimal mark is {,}"),
        (r"$\text{mask}_{b,t}$", r"has \text{mask}: a word in lang-ru belongs there"),
    ],
)
def test_a_russian_formula_must_write_numbers_and_words_in_russian(formula, message):
    found = problems(formula, "формула " + formula)
    assert len(found) == 1 and message in found[0]
    assert message in formula_problems(formula, "ru")[0]


def test_an_english_formula_must_write_numbers_and_words_in_english():
    assert "in lang-en the decimal mark is ." in formula_problems(r"$0{,}5$", "en")[0]
    assert r"has \text{маска}" in formula_problems(r"$\text{маска}$", "en")[0]


def test_what_is_not_a_decimal_number_or_a_word_passes():
    for formula in (
        r"$x_{1}$",
        r"$1, 2, \dots$",
        r"$10\,000$",
        r"$\mathrm{softmax}(x)$",
        r"$\text{ }$",
        r"$e^{-m_h d}$",
    ):
        assert formula_problems(formula, "ru") == formula_problems(formula, "en") == [], formula
