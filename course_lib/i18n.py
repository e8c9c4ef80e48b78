"""Languages and messages: one switch for the whole course, each area's messages beside its code.

``LANGUAGES`` is the one list of the course's languages: the lesson build, the slides,
the workspace and the tests all read it. A student chooses one with
:func:`set_language`; every message, plot label, widget label and exercise verdict
follows.

Each area of the course keeps its own messages in a ``messages`` module beside the code
that uses them, as a :class:`Messages` catalogue: the input checks, RoPE's and the
tokenizer's in ``course_lib/messages.py``, the figure labels in ``plots/messages.py``, each
exercise's feedback in its own module. The code holds the English, the source; the other
languages are gettext catalogues, ``course_lib/locale/<lang>/LC_MESSAGES/course_lib.po`` (and
``course_tools``' own), each entry's msgctxt the message's full key ``area.key``, its msgid the
English it translates. A catalogue is called like a function::

    >>> import course_lib.messages  # importing an area's module registers its catalogue
    >>> INPUT = catalogues()["input"]
    >>> INPUT.english["not_positive_int"]
    '{name} must be a positive integer, got {value!r}'
    >>> INPUT("not_positive_int", name="d_model", value=0)
    'd_model must be a positive integer, got 0'
    >>> set_language("ru"); INPUT("not_positive_int", name="d_model", value=0)
    'аргумент `d_model` должен быть целым положительным числом, а получено 0'
    >>> tr("input.not_positive_int", "en", name="n", value=-1)  # any catalogue, by its full key
    'n must be a positive integer, got -1'
    >>> set_language("en")

When an English text changes, its translations no longer match their msgid: they are stale,
the English shows in their place, and ``Messages.problems`` (run on every catalogue by
``tests/unit/test_messages.py``) names them until ``python -m course_tools.translations update``
marks them fuzzy and a translator revises them.

Adding a language is data only: its entry in ``locale/languages.json``, its .po files
(``python -m course_tools.translations init <code>`` writes them from the English, for a
translator to fill) and its prose twins in the lesson sources (``python -m course_tools.lessons
check`` lists them); CONTRIBUTING.md's "Add a language" says what else a language may bring.
``PSEUDO`` is a pseudo-language for tests:
every message is the English one accented and bracketed, so a string that bypasses the
catalogues shows up as plain English in a lesson built in it.

This module imports nothing but the standard library when it loads (Babel's locale data
only with the first number it writes): the workspace script reads it to greet a student
before torch is ever loaded.
"""

import functools
import gettext
import hashlib
import json
import string
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

__all__ = [
    "LANGUAGE_INFO",
    "LanguageInfo",
    "LANGUAGES",
    "SOURCE_LANGUAGE",
    "TRANSLATIONS",
    "NAMES",
    "SCRIPTS",
    "LANGUAGE_FONTS",
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
    "format_positions",
    "number_symbols",
    "decimal_mark",
    "join_numbers",
    "minus_sign",
    "NUMBER_STYLE",
    "cldr_locale",
    "locale_tag",
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


#: The file of the course's languages: ``{code: {"name", "letters", "lab_locale", "number_style"?, "cldr"?,
#: "fonts"?}}`` (``number_style``: the course's own ways with numbers, :data:`NUMBER_STYLE`; ``cldr``: the
#: locale whose Unicode CLDR data the language takes, when its own code has none: :func:`cldr_locale`;
#: ``fonts``: the web fonts its script needs beyond the course's, :data:`LANGUAGE_FONTS`).
LANGUAGES_FILE = Path(__file__).parent / "locale" / "languages.json"
_LANGUAGES_DATA = json.loads(LANGUAGES_FILE.read_text(encoding="utf-8"))
#: The course's languages, in order, by code. Everything that exists per language reads this: a
#: new language is its entry in ``locale/languages.json``, plus its .po files and its twins in the lessons.
LANGUAGE_INFO = {
    code: LanguageInfo(info["name"], info["letters"], info["lab_locale"])
    for code, info in _LANGUAGES_DATA.items()
}
LANGUAGES = tuple(LANGUAGE_INFO)
#: The language the lessons and the code's comments are written in; the others translate it.
SOURCE_LANGUAGE = "en"
#: The languages that translate the source language: their twins of its prose and its code's comments.
TRANSLATIONS = tuple(lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE)
SCRIPTS = {lang: info.letters for lang, info in LANGUAGE_INFO.items()}
#: By language: the faces its script needs that the course's fonts lack (they have Latin, Cyrillic and
#: Greek), each ``{"family", "package", "subsets"?}``: an ``@fontsource`` npm package pinned in
#: package.json, the subsets of it to load (all when absent). The decks and the site fall back to them
#: (``course_tools.publish.fonts``).
LANGUAGE_FONTS = {code: tuple(info.get("fonts", ())) for code, info in _LANGUAGES_DATA.items()}
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
    """The messages of one area of the course: English here, the other languages in gettext catalogues.

    Args:
        area: the catalogue's name; its messages are also reachable as ``tr("area.key")``.
            One module owns it: another module that names a catalogue the same is an error,
            while the same module, reloaded, replaces its own catalogue with the new texts.
        entries: ``{key: English text}``; texts are :meth:`str.format` templates.

    The other languages' texts are in the package's catalogues,
    ``<package>/locale/<lang>/LC_MESSAGES/<package>.po``, one entry per message: msgctxt
    ``"area.key"``, msgid the English text, msgstr the translation. A translation whose msgid is
    not the English text any more (the English changed) is stale: it is not used (the English
    shows) and :meth:`problems` names it, as it names a missing one.
    """

    def __init__(self, area: str, entries: dict[str, str]):
        # the module that defines the catalogue, found as collections.namedtuple finds it: a
        # module reloaded (importlib.reload, IPython's %autoreload) defines its catalogue again
        module = sys._getframe(1).f_globals.get("__name__")
        taken = _CATALOGUES.get(area)
        if taken is not None and taken.module != module:
            raise ValueError(f"a message catalogue named {area!r} already exists, in {taken.module}")
        for key, text in entries.items():
            if not isinstance(text, str):
                raise TypeError(
                    f"message {area}.{key} must be its English text, got {type(text).__name__} {text!r}: "
                    f"the other languages go into {_PO_PATH}"
                )
        self.area = area
        self.english = dict(entries)
        self.module = module
        self.package = (module or "").partition(".")[0]
        _CATALOGUES[area] = self

    def context(self, key: str) -> str:
        """The msgctxt of message ``key`` in the gettext catalogues: ``"area.key"``."""
        return f"{self.area}.{key}"

    def text(self, key: str, lang: str | None = None) -> str | None:
        """The template of message ``key`` in ``lang``: None where ``lang`` has no current translation."""
        english = self.english[key]
        lang = resolve(lang)
        if lang == SOURCE_LANGUAGE:
            return english
        if lang == PSEUDO:
            return pseudo(english)
        return translations(self.package, lang).get((self.context(key), english))

    def __call__(self, key: str, lang: str | None = None, /, **values) -> str:
        """Message ``key`` in ``lang`` (default: the current language), filled with ``values``.

        A message with no current translation in ``lang`` (missing, or stale) is written in English.
        """
        template = self.text(key, lang)
        return (self.english[key] if template is None else template).format(**values)

    def __contains__(self, key: str) -> bool:
        return key in self.english

    @property
    def entries(self) -> dict[str, dict[str, str]]:
        """``{key: {language: text}}``: each message in the languages that have a current translation."""
        return {
            key: {lang: text for lang in LANGUAGES if (text := self.text(key, lang)) is not None}
            for key in self.english
        }

    def problems(self) -> list[str]:
        """Entries that lack a language, whose translation is stale (of another English text, or
        fuzzy), whose languages disagree on their ``{placeholders}``, and translations of keys
        that are no longer in the catalogue."""
        found = []
        for lang in TRANSLATIONS:
            po = _po_entries(self.package, lang)
            where = _PO_PATH.format(package=self.package, lang=lang)
            for key, english in self.english.items():
                name = f"{self.context(key)} ({lang})"
                msgid, msgstr, fuzzy = po.get(self.context(key), (None, "", False))
                if msgid is None or not msgstr.strip():
                    found.append(f"{name}: no text in {lang}, in {where}")
                elif msgid != english or fuzzy:
                    found.append(
                        f"{name}: stale, translates {msgid!r}{' (fuzzy)' if fuzzy else ''} but the English "
                        f"is now {english!r}"
                    )
                elif placeholders(msgstr) != placeholders(english):
                    fields = {"en": placeholders(english), lang: placeholders(msgstr)}
                    found.append(f"{name}: the placeholders differ between languages: {fields}")
            prefix = f"{self.area}."
            obsolete = sorted(c for c in po if c.startswith(prefix) and c[len(prefix) :] not in self.english)
            found += [
                f"{context} ({lang}): obsolete, no such message in {self.module}" for context in obsolete
            ]
        return found

    def __repr__(self) -> str:
        return f"<Messages {self.area!r}: {len(self.english)} entries>"


# ----------------------------------------------------------------------------- gettext catalogues

#: Where a package's translations are, relative to the folder above the package.
_PO_PATH = "{package}/locale/{lang}/LC_MESSAGES/{package}.po"
#: The .mo compiled from a .po records the .po's SHA-256 as the translation of this context and id
#: (course_tools.translations compile): a .mo older than its .po is never read.
SOURCE_HASH = ("source", "sha256")
_LOADED: dict[tuple[str, str], dict] = globals().get("_LOADED", {})


def locale_dir(package: str) -> Path | None:
    """The ``locale`` folder of ``package`` (a top-level package that is imported), None if it has none."""
    module = sys.modules.get(package)
    file = getattr(module, "__file__", None)
    folder = Path(file).parent / "locale" if file else None
    return folder if folder is not None and folder.is_dir() else None


def po_path(package: str, lang: str) -> Path | None:
    """The .po file of ``package`` for ``lang`` (None: the package has no translations at all)."""
    folder = locale_dir(package)
    return None if folder is None else folder / lang / "LC_MESSAGES" / f"{package}.po"


def translations(package: str, lang: str) -> dict[tuple[str, str], str]:
    """``{(msgctxt, msgid): msgstr}`` of the current (not fuzzy) translations of ``package`` in ``lang``.

    Read from the compiled .mo when it was compiled from the .po as it is now, else from the .po;
    kept until :func:`reload_translations`.
    """
    if (package, lang) not in _LOADED:
        po = po_path(package, lang)
        table: dict[tuple[str, str], str] | None = {}
        if po is not None and po.is_file():
            data = po.read_bytes()
            table = _read_mo(po.with_suffix(".mo"), hashlib.sha256(data).hexdigest())
            if table is None:
                table = {
                    (context, msgid): msgstr
                    for context, msgid, msgstr, fuzzy in po_messages(package, lang)
                    if msgstr and not fuzzy
                }
        _LOADED[package, lang] = table
    return _LOADED[package, lang]


def _read_mo(path: Path, source_hash: str) -> dict[tuple[str, str], str] | None:
    """The translations of the .mo at ``path``, or None where it is missing or not compiled from ``source_hash``."""
    if not path.is_file():
        return None
    with path.open("rb") as f:
        catalog = gettext.GNUTranslations(f)._catalog
    if catalog.get("\x04".join(SOURCE_HASH)) != source_hash:
        return None
    return {
        tuple(key.split("\x04", 1)): text
        for key, text in catalog.items()
        if isinstance(key, str) and "\x04" in key and key != "\x04".join(SOURCE_HASH)
    }


def po_messages(package: str, lang: str) -> list[tuple[str, str, str, bool]]:
    """``(msgctxt, msgid, msgstr, fuzzy)`` of each entry of the .po of ``package`` in ``lang``, read with Babel.

    A message (:class:`Messages`) is the one entry of its msgctxt; the comments of the code a student
    reads (:mod:`course_lib.code_comments`) share one msgctxt per file.
    """
    po = po_path(package, lang)
    if po is None or not po.is_file():
        return []
    from babel.messages.pofile import read_po  # only where a .po is read: greeting a student needs none

    with po.open("rb") as f:
        catalog = read_po(f, locale=None)
    return [(m.context, m.id, m.string, m.fuzzy) for m in catalog if m.id and m.context]


def _po_entries(package: str, lang: str) -> dict[str, tuple[str, str, bool]]:
    """``{msgctxt: (msgid, msgstr, fuzzy)}`` of the messages of the .po of ``package`` in ``lang``."""
    return {context: (msgid, msgstr, fuzzy) for context, msgid, msgstr, fuzzy in po_messages(package, lang)}


def load_translations(lang: str, packages: Iterable[str] = ("course_lib", "course_tools")) -> None:
    """Read ``packages``' translations into ``lang`` now (the grader's sandbox, before its guard forbids files)."""
    for package in packages:
        if package in sys.modules:
            translations(package, _check_language(lang))


def reload_translations() -> None:
    """Forget the translations read so far: the next message reads the catalogues again."""
    _LOADED.clear()


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
        "unknown_language": "the course speaks {choices}: language must be one of them, got {value!r}",
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
    code: info["number_style"] for code, info in _LANGUAGES_DATA.items() if "number_style" in info
}
THOUSANDS = " "

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def cldr_locale(lang: str) -> str:
    """The locale whose CLDR data (Babel's: numbers, the clock) ``lang`` takes: its own code, unless
    ``languages.json`` names another (``"cldr"``); the pseudo-language takes English's.

    >>> cldr_locale("ru"), cldr_locale(PSEUDO)
    ('ru', 'en')
    """
    if lang == PSEUDO:
        return SOURCE_LANGUAGE
    return _LANGUAGES_DATA.get(lang, {}).get("cldr", lang)


@functools.cache
def locale_tag(lang: str) -> str:
    """``lang``'s locale as a browser names it (BCP 47), its likely region from CLDR: for the clock
    and the dates of a page a browser prints.

    >>> locale_tag("en"), locale_tag("ru")
    ('en-US', 'ru-RU')
    """
    from babel import Locale
    from babel.core import get_global

    code = cldr_locale(lang)
    likely = Locale.parse(get_global("likely_subtags").get(code, code))
    return f"{likely.language}-{likely.territory}" if likely.territory else likely.language


@functools.cache
def _symbols(lang: str) -> tuple[str, str, bool]:
    """``lang``'s decimal mark, minus sign, and whether it writes powers of ten (the pseudo-language: English's)."""
    from babel import Locale  # on the first number: greeting a student needs no locale data

    cldr = Locale.parse(cldr_locale(lang)).number_symbols["latn"]
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


def format_positions(x: float, lang: str | None = None) -> str:
    """A length or a base as lesson 9's prose writes it: 6.3, 2048, 131 072 (thousands grouped from five digits).

    >>> format_positions(6.283185307179586, "ru"), format_positions(2048.0), format_positions(131072)
    ('6,3', '2048', '131 072')
    """
    return format_number(x, ".1f" if x < 100 else ".0f" if x < 10000 else ",.0f", lang)
