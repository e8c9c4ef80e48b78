"""Languages and messages: one switch for the whole course, each area's messages beside its code.

``LANGUAGES`` is the one list of the course's languages: the lesson build, the slides,
the workspace and the tests all read it. A student chooses one with
:func:`set_language`; every message, plot label, widget label and exercise verdict
follows.

Each area of the course keeps its own messages in a ``messages`` module beside the code
that uses them, as a :class:`Messages` catalogue: the input checks, RoPE's and the
tokenizer's in ``course_lib/messages.py``, the figure labels in ``plots/messages.py``, each
exercise's feedback in its own module. A catalogue is called like a function::

    >>> MESSAGES = Messages("demo", {
    ...     "too_long": {
    ...         "en": "sequence length {n} exceeds max_len={max_len}",
    ...         "ru": "длина последовательности {n} больше max_len={max_len}",
    ...     },
    ... })
    >>> MESSAGES("too_long", n=20, max_len=16)
    'sequence length 20 exceeds max_len=16'
    >>> set_language("ru"); MESSAGES("too_long", n=20, max_len=16)
    'длина последовательности 20 больше max_len=16'
    >>> tr("demo.too_long", "en", n=3, max_len=2)  # any catalogue, by its full key
    'sequence length 3 exceeds max_len=2'
    >>> set_language("en")

Adding a language is data only: its line in ``LANGUAGE_INFO``, its text in every catalogue
entry (``tests/unit/test_messages.py`` lists what is missing) and its prose twins in the
lesson sources (``python -m course_tools.lessons check`` lists them); CONTRIBUTING.md's "Add a
language" says what else a language may bring. ``PSEUDO`` is a pseudo-language for tests:
every message is the English one accented and bracketed, so a string that bypasses the
catalogues shows up as plain English in a lesson built in it.

This module imports nothing but the standard library when it loads (Babel's locale data
only with the first number it writes): the workspace script reads it to greet a student
before torch is ever loaded.
"""

import functools
import string
import sys
from collections.abc import Iterable
from typing import NamedTuple

__all__ = [
    "LANGUAGE_INFO",
    "LanguageInfo",
    "LANGUAGES",
    "SOURCE_LANGUAGE",
    "TRANSLATIONS",
    "NAMES",
    "SCRIPTS",
    "PSEUDO",
    "Messages",
    "set_language",
    "get_language",
    "pick",
    "tr",
    "catalogues",
    "script_problems",
    "format_decimal",
    "format_scientific",
    "format_number",
    "number_symbols",
    "decimal_mark",
    "join_numbers",
    "minus_sign",
    "NUMBER_STYLE",
]


class LanguageInfo(NamedTuple):
    """What the course needs to know about one of its languages."""

    #: the language's name in itself, as a link to it reads
    name: str
    #: the letters its text is written in, as character ranges of a regex class
    letters: str
    #: JupyterLab's locale for its interface (`make lab-<code>`): the name of the language pack,
    #: "en" for JupyterLab's own English
    lab_locale: str


#: The course's languages, in order, by code. Everything that exists per language reads this: a
#: new language is one line here, plus its text in the catalogues and its twins in the lessons.
LANGUAGE_INFO = {
    "en": LanguageInfo("English", "A-Za-z", "en"),
    "ru": LanguageInfo("Русский", "А-Яа-яЁё", "ru_RU"),
}
LANGUAGES = tuple(LANGUAGE_INFO)
#: The language the lessons and the code's comments are written in; the others translate it.
SOURCE_LANGUAGE = "en"
#: The languages that translate the source language: their twins of its prose and its code's comments.
TRANSLATIONS = tuple(lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE)
SCRIPTS = {lang: info.letters for lang, info in LANGUAGE_INFO.items()}
NAMES = {lang: info.name for lang, info in LANGUAGE_INFO.items()}

#: The pseudo-language of the tests (Microsoft's name for pseudo-localisation): English
#: text with accented letters, in brackets. Accepted by :func:`set_language`, never built
#: as part of the course.
PSEUDO = "qps"

# Kept when this module is reloaded (importlib.reload, %autoreload): the language chosen, and
# the catalogues of the modules that are not reloaded with it, which would otherwise be lost.
_language = globals().get("_language", "en")
_CATALOGUES: dict[str, "Messages"] = globals().get("_CATALOGUES", {})


def _check_language(lang) -> str:
    if not isinstance(lang, str) or (lang not in LANGUAGES and lang != PSEUDO):
        choices = ", ".join(f"{code!r} ({name})" for code, name in NAMES.items())
        raise ValueError(LANGUAGE_MESSAGES("unknown_language", value=lang, choices=choices))
    return lang


def set_language(lang: str) -> None:
    """Choose the language of every message, label and hint: one of ``LANGUAGES``."""
    global _language
    _language = _check_language(lang)


def get_language() -> str:
    """The language set by :func:`set_language` (English until it is called)."""
    return _language


def resolve(lang: str | None) -> str:
    """``lang`` itself, or the current language when it is None."""
    return _language if lang is None else _check_language(lang)


# ----------------------------------------------------------------------------- pseudo-language

_ACCENTED = str.maketrans(
    "aceinorsuyACEINORSUY",
    "áçéîñöŕšüýÁÇÉÎÑÖŔŠÜÝ",
)


def pseudo(text: str) -> str:
    """``text`` accented and bracketed, keeping ``{placeholders}``, `code` and $maths$ as they are.

    >>> pseudo("position {pos} of `x`")
    '⟦pöšîtîöñ {pos} öf `x`⟧'
    """
    out, protected = [], False
    for i, part in enumerate(_split_protected(text)):
        protected = i % 2 == 1
        out.append(part if protected else part.translate(_ACCENTED))
    return "⟦" + "".join(out) + "⟧"


def _split_protected(text: str) -> list[str]:
    """``text`` cut into [plain, protected, plain, protected, ...] pieces."""
    pieces, plain, i = [], [], 0
    closers = {"{": "}", "`": "`", "$": "$"}
    while i < len(text):
        ch = text[i]
        end = text.find(closers[ch], i + 1) if ch in closers else -1
        if end > i:
            pieces += ["".join(plain), text[i : end + 1]]
            plain, i = [], end + 1
        else:
            plain.append(ch)
            i += 1
    pieces.append("".join(plain))
    return pieces


# ----------------------------------------------------------------------------- catalogues


class Messages:
    """The messages of one area of the course, in every language of ``LANGUAGES``.

    Args:
        area: the catalogue's name; its messages are also reachable as ``tr("area.key")``.
            One module owns it: another module that names a catalogue the same is an error,
            while the same module, reloaded, replaces its own catalogue with the new texts.
        entries: ``{key: {language: text}}``; texts are :meth:`str.format` templates.
    """

    def __init__(self, area: str, entries: dict[str, dict[str, str]]):
        # the module that defines the catalogue, found as collections.namedtuple finds it: a
        # module reloaded (importlib.reload, IPython's %autoreload) defines its catalogue again
        module = sys._getframe(1).f_globals.get("__name__")
        taken = _CATALOGUES.get(area)
        if taken is not None and taken.module != module:
            raise ValueError(f"a message catalogue named {area!r} already exists, in {taken.module}")
        self.area = area
        self.entries = entries
        self.module = module
        _CATALOGUES[area] = self

    def __call__(self, key: str, lang: str | None = None, /, **values) -> str:
        """Message ``key`` in ``lang`` (default: the current language), filled with ``values``."""
        entry = self.entries[key]
        lang = resolve(lang)
        template = pseudo(entry["en"]) if lang == PSEUDO else entry[lang]
        return template.format(**values)

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def problems(self) -> list[str]:
        """Entries that lack a language, or whose languages disagree on their ``{placeholders}``."""
        found = []
        for key, entry in self.entries.items():
            where = f"{self.area}.{key}"
            missing = [lang for lang in LANGUAGES if not str(entry.get(lang, "")).strip()]
            if missing:
                found.append(f"{where}: no text in {', '.join(missing)}")
            extra = sorted(set(entry) - set(LANGUAGES))
            if extra:
                found.append(f"{where}: languages {extra} are not in LANGUAGES")
            fields = {lang: placeholders(text) for lang, text in entry.items()}
            if len(set(map(tuple, fields.values()))) > 1:
                found.append(f"{where}: the placeholders differ between languages: {fields}")
        return found

    def __repr__(self) -> str:
        return f"<Messages {self.area!r}: {len(self.entries)} entries>"


def placeholders(template: str) -> list[str]:
    """The names of a template's ``{placeholders}``, sorted."""
    return sorted({field for _, field, _, _ in string.Formatter().parse(template) if field})


def letters(lang: str) -> set[str]:
    """The letters of ``lang``'s script, from its ranges in ``SCRIPTS``."""
    ranges, found, i = SCRIPTS[lang], set(), 0
    while i < len(ranges):
        if i + 2 < len(ranges) and ranges[i + 1] == "-":
            found |= {chr(c) for c in range(ord(ranges[i]), ord(ranges[i + 2]) + 1)}
            i += 3
        else:
            found.add(ranges[i])
            i += 1
    return found


_LATIN = {chr(c) for c in range(ord("A"), ord("z") + 1) if chr(c).isalpha()}


def script_problems(text: str, lang: str) -> list[str]:
    """Why ``text`` does not look written in ``lang``: none of its letters, or another script's letters.

    Latin letters are never foreign: code, names and formulas are written in them everywhere.

    >>> script_problems("позиция", "en")
    ['no letters of en', 'letters of ru: п, о, з']
    """
    own = letters(lang)
    problems = [] if own & set(text) else [f"no letters of {lang}"]
    for other in LANGUAGES:
        foreign = letters(other) - own - _LATIN
        if other != lang and foreign:
            found = list(dict.fromkeys(ch for ch in text if ch in foreign))
            if found:
                problems.append(f"letters of {other}: {', '.join(found[:3])}")
    return problems


def catalogues() -> dict[str, Messages]:
    """Every catalogue created so far, by area (import a module to register its catalogue)."""
    return dict(_CATALOGUES)


def tr(key: str, lang: str | None = None, /, **values) -> str:
    """The message ``"area.key"`` of any catalogue, in ``lang`` (default: current), filled with ``values``."""
    area, _, name = key.partition(".")
    if area not in _CATALOGUES or name not in _CATALOGUES[area]:
        raise KeyError(f"no message {key!r}: catalogues are {sorted(_CATALOGUES)}")
    return _CATALOGUES[area](name, lang, **values)


def pick(**by_language: str) -> str:
    """The argument for the current language: one line of lesson code serves every language.

    >>> set_language("ru"); pick(en="positions", ru="позиции")
    'позиции'
    >>> set_language("en")
    """
    if _language == PSEUDO and "en" in by_language:
        return pseudo(by_language["en"])
    if _language not in by_language:
        raise ValueError(
            f"pick() has no text for the current language {_language!r}: got {sorted(by_language)}"
        )
    return by_language[_language]


LANGUAGE_MESSAGES = Messages(
    "language",
    {
        # in the language set so far: set_language("de") after set_language("ru") answers in Russian
        "unknown_language": {
            "en": "the course speaks {choices}: language must be one of them, got {value!r}",
            "ru": "курс доступен на языках {choices}: язык должен быть одним из них, а получено {value!r}",
        },
    },
)


# ----------------------------------------------------------------------------- numbers in prose

#: The course's own ways with numbers, on top of each language's locale data (the Unicode
#: CLDR, through Babel), which gives the decimal mark and the minus sign. Thousands are
#: separated by a space in every language. Russian prose writes the typographic minus
#: (U+2212, where CLDR has a hyphen) and a power of ten, 1,2·10⁻³, where other languages keep
#: Python's e-notation, 1.2e-03. A language that is not here takes its locale's symbols and
#: e-notation: nothing of another language's rule.
NUMBER_STYLE = {
    "ru": {"minus": "−", "power_of_ten": True},
}
THOUSANDS = " "

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


@functools.cache
def _symbols(lang: str) -> tuple[str, str, bool]:
    """``lang``'s decimal mark, minus sign, and whether it writes powers of ten (the pseudo-language: English's)."""
    from babel import Locale  # on the first number: greeting a student needs no locale data

    lang = "en" if lang == PSEUDO else lang
    cldr = Locale.parse(lang).number_symbols["latn"]
    style = NUMBER_STYLE.get(lang, {})
    return cldr["decimal"], style.get("minus", cldr["minusSign"]), style.get("power_of_ten", False)


def number_symbols(lang: str | None = None) -> dict[str, str | bool]:
    """How ``lang`` writes numbers, for code that writes them outside Python (the explorers' JavaScript).

    ``decimal`` and ``minus`` are the language's (:func:`decimal_mark`, :func:`minus_sign`),
    ``group`` separates thousands, and ``power_of_ten`` says whether e-notation becomes a power
    of ten: what :func:`format_number` puts in place of Python's ``.``, ``-`` and ``,``.

    >>> number_symbols("en"), number_symbols("ru")["minus"]
    ({'decimal': '.', 'group': ' ', 'minus': '-', 'power_of_ten': False}, '−')
    """
    point, minus, power_of_ten = _symbols(resolve(lang))
    return {"decimal": point, "group": THOUSANDS, "minus": minus, "power_of_ten": power_of_ten}


def decimal_mark(lang: str | None = None) -> str:
    """The decimal mark of ``lang``'s numbers: ``.`` in English (and the pseudo-language), ``,`` in Russian."""
    return _symbols(resolve(lang))[0]


def join_numbers(texts: Iterable[str], lang: str | None = None) -> str:
    """Numbers already written in ``lang``, joined into a list: ``"; "`` where the decimal mark is a
    comma (``0,5; 0,25`` — a comma would run into the decimals), ``", "`` elsewhere.

    >>> join_numbers(["0.5", "0.25"], "en"), join_numbers(["0,5", "0,25"], "ru")
    ('0.5, 0.25', '0,5; 0,25')
    """
    return ("; " if decimal_mark(lang) == "," else ", ").join(texts)


def minus_sign(lang: str | None = None) -> str:
    """The minus sign of ``lang``'s numbers: ``-`` in English, the typographic ``−`` (U+2212) in Russian."""
    return _symbols(resolve(lang))[1]


def format_decimal(x: float, digits: int, lang: str | None = None) -> str:
    """``x`` with ``digits`` decimals, as the prose of ``lang`` writes it: its decimal mark and minus sign.

    4.64 and -0.96 in English, 4,64 and −0,96 in Russian; the pseudo-language writes English numbers.

    >>> format_decimal(4.6412, 2, "en"), format_decimal(4.6412, 2, "ru"), format_decimal(-0.9565, 2, "ru")
    ('4.64', '4,64', '−0,96')
    """
    return format_number(x, f".{digits}f", lang)


def format_scientific(x: float, digits: int, lang: str | None = None) -> str:
    """``x`` in scientific notation with ``digits`` decimals, as the prose of ``lang`` writes it.

    English keeps Python's e-notation, 1.2e-03; Russian prose writes the power of ten,
    1,2·10⁻³, with its decimal mark and minus sign. The pseudo-language writes English numbers.

    >>> format_scientific(0.0012, 1, "en"), format_scientific(0.0012, 1, "ru"), format_scientific(-35000, 2, "ru")
    ('1.2e-03', '1,2·10⁻³', '−3,50·10⁴')
    """
    return format_number(x, f".{digits}e", lang)


def format_number(x: float, spec: str, lang: str | None = None) -> str:
    """``x`` in the Python format ``spec``, as the prose of ``lang`` writes it: for figures and readouts.

    Python writes the digits (its rounding, its ``spec``); the language gives the decimal mark
    and minus sign (:func:`decimal_mark`, :func:`minus_sign`) and, in Russian, a power of ten
    for e-notation (as :func:`format_scientific`); thousands (a ``,`` in ``spec``) are
    separated by spaces in every language. English text is Python's, but for those spaces.

    >>> format_number(0.0001234, ".4g", "en"), format_number(0.0001234, ".4g", "ru"), format_number(-2.5, "g", "ru")
    ('0.0001234', '0,0001234', '−2,5')
    >>> format_number(1234567.0, ",.1f", "en"), format_number(1234567.0, ",.1f", "ru"), format_number(2e-16, ".0e", "ru")
    ('1 234 567.0', '1 234 567,0', '2·10⁻¹⁶')
    """
    symbols = number_symbols(lang)
    minus = symbols["minus"]
    text = f"{x:{spec}}".translate(
        {ord(","): symbols["group"], ord("."): symbols["decimal"], ord("-"): minus}
    )
    mantissa, e, exponent = text.partition("e")
    if symbols["power_of_ten"] and e:
        return f"{mantissa}·10{str(int(exponent.replace(minus, '-'))).translate(_SUPERSCRIPT)}"
    return text
