"""Numbers as each language writes them: ``course_lib.i18n.format_number`` and its helpers.

The locale data (decimal mark, minus sign) comes from Babel, the course's own additions (a
space between thousands, Russian's typographic minus and powers of ten) from ``NUMBER_STYLE``.
``frozen_format_number`` is the rule as it was written before Babel, kept as the reference:
the output must stay the same, byte for byte, for every number and every format.
"""

import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from course_lib import i18n
from course_lib.i18n import PSEUDO, format_number

# ----------------------------------------------------------------------------- the rule before Babel

_FROZEN = {"en": (".", "-"), "ru": (",", "−")}
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def frozen_format_number(x, spec: str, lang: str) -> str:
    text = f"{x:{spec}}".replace(",", " ")
    lang = "en" if lang == PSEUDO else lang
    if lang == "en":
        return text

    def localise(part: str) -> str:
        point, minus = _FROZEN[lang]
        return part.replace("-", minus).replace(".", point)

    mantissa, e, exponent = text.partition("e")
    if e:
        return f"{localise(mantissa)}·10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    return localise(text)


# the formats the course's code calls format_number with (git grep "format_number(")
SPECS_IN_USE = [".2f", ".4g", "g", ".4f", ",.1f", "d", ".3f", ",.0f", ".1f", ".1e", ".0f", ".0e", " .3f"]
SPECS_IN_USE += [f".{digits}f" for digits in range(8)] + [f".{digits}e" for digits in range(8)]
LANGS = ["en", "ru", PSEUDO]


def same_as_before(x, spec: str, lang: str) -> None:
    try:
        expected = frozen_format_number(x, spec, lang)
    except (ValueError, TypeError) as error:
        with pytest.raises(type(error)):
            format_number(x, spec, lang)
        return
    assert format_number(x, spec, lang) == expected, (x, spec, lang)


def test_every_format_in_use_writes_what_it_wrote_before():
    numbers = [
        0,
        1,
        -1,
        7,
        -12345,
        0.0,
        -0.0,
        0.5,
        -0.9565,
        4.6412,
        2.675,
        1234567.0,
        -2.5e-16,
        1e300,
        3.5e-310,
    ]
    numbers += [math.inf, -math.inf, math.nan, 2 * math.pi * 100 ** (6 / 16), 0.0001234, -35000]
    for spec in SPECS_IN_USE:
        for x in numbers:
            if spec == "d" and not isinstance(x, int):
                continue
            for lang in LANGS:
                same_as_before(x, spec, lang)


# Python's format specs for numbers: [sign][z][#][0][width][grouping][.precision][type]
specs = st.builds(
    lambda sign, alt, zero, width, grouping, precision, kind: (
        f"{sign}{alt}{zero}{width}{grouping}{precision}{kind}"
    ),
    st.sampled_from(["", "+", "-", " "]),
    st.sampled_from(["", "#"]),
    st.sampled_from(["", "0"]),
    st.sampled_from(["", "1", "8", "15"]),
    st.sampled_from(["", ",", "_"]),
    st.sampled_from(["", *(f".{n}" for n in range(0, 13))]),
    st.sampled_from(["", "e", "E", "f", "F", "g", "G", "%"]),
)


@given(
    x=st.floats(allow_nan=True, allow_infinity=True) | st.integers(-(10**20), 10**20),
    spec=specs,
    lang=st.sampled_from(LANGS),
)
@example(x=-0.0012, spec=".1e", lang="ru")
@example(x=1234567.0, spec=",.1f", lang="ru")
def test_any_number_in_any_format_is_written_as_before(x, spec, lang):
    same_as_before(x, spec, lang)


# ----------------------------------------------------------------------------- a third language


def test_a_third_language_takes_its_locale_and_no_other_languages_rule(monkeypatch):
    monkeypatch.setattr(i18n, "LANGUAGES", (*i18n.LANGUAGES, "de"))
    # German (CLDR): a decimal comma and a hyphen-minus; Python's e-notation, not Russian's ·10ⁿ
    assert i18n.decimal_mark("de") == "," and i18n.minus_sign("de") == "-"
    assert format_number(-1234.5, ",.1f", "de") == "-1 234,5"
    assert format_number(-0.0012, ".1e", "de") == "-1,2e-03"


def test_the_course_adds_to_the_locale_only_what_it_writes_differently():
    assert i18n.decimal_mark("en") == "." and i18n.minus_sign("en") == "-"
    assert i18n.decimal_mark("ru") == "," and i18n.minus_sign("ru") == "\u2212"
    assert i18n.decimal_mark(PSEUDO) == "." and format_number(-1.5, ".1e", PSEUDO) == "-1.5e+00"
