"""The decks' chrome in the deck's language: reveal.js's help overlay, arrows and speaker view, translated at build time.

reveal.js 4.0.2 writes its own words in English and offers no option to change them: the core
(``dist/reveal.js``) its help overlay (the ? key: "Keyboard Shortcuts", "KEY", "ACTION", "Next
slide", ...) and its arrows' accessible names ("next slide"), the notes plugin
(``plugin/notes/notes.js``) its speaker window ("Upcoming", "Time", "Click to Reset", "Notes",
"Layout", ...). For a language other than English the slides build writes a copy of each,
``reveal-<lang>.js`` and ``notes-<lang>.js``, with exactly the texts of :data:`REVEAL_TEXTS` and
:data:`NOTES_TEXTS` replaced, and each deck of that language loads its copies. The words are the
messages of ``REVEAL`` (``publish/messages.py``: the English here, each language's in the catalogue);
the page's language, the clock's locale and whether it counts 12 hours come from the language's
code and its locale data (Babel's CLDR). Every text must be found exactly as many times as listed: a
reveal.js upgrade that changes one is a build error (:class:`SpeakerViewError`), never a deck left
half in English. The key names of the help overlay (Home, End, Shift, ESC and the letters) are the
ones printed on the keys, so they stay.
"""

import functools

from course_lib.i18n import SOURCE_LANGUAGE, cldr_locale, locale_tag

from .messages import REVEAL

__all__ = [
    "NOTES_TEXTS",
    "REVEAL_TEXTS",
    "SpeakerViewError",
    "clock",
    "notes_file",
    "notes_strings",
    "reveal_file",
    "reveal_strings",
    "translate_notes",
    "translate_reveal",
]

#: notes.js's texts to translate: (the text as notes.js writes it, JavaScript escapes included, with
#: ``{key}`` where a message of ``REVEAL`` stands, how many times it occurs). Besides the messages:
#: ``{lang}`` the page's language, ``{locale}`` and ``{hour12}`` the clock's, ``{am}`` its first reading.
NOTES_TEXTS: tuple[tuple[str, int], ...] = (
    ('<html lang=\\"{lang}\\">', 1),
    ("<title>{title}</title>", 1),
    (">{loading}<", 1),
    (">{upcoming}<", 1),
    ('>{time} <span class=\\"reset-button\\">{reset}</span><', 1),
    (">0:00{am}<", 1),
    (">{pacing}<", 1),
    (">{notes}<", 1),
    ("'default': '{layout_default}'", 1),
    ("'wide': '{layout_wide}'", 1),
    ("'tall': '{layout_tall}'", 1),
    ("'notes-only': '{layout_notes_only}'", 1),
    ("layoutLabel.innerHTML = '{layout}' +", 1),
    ("'{no_connection}'", 1),
    ("toLocaleTimeString( '{locale}', {{ hour12: {hour12},", 1),
    ('\\"{pacing_minimum}\\"', 1),
    ('"{popup_failed}"', 1),
    # the key's line in reveal.js's help overlay (?)
    ('description:"{speaker_notes_view}"', 1),
)

#: as :data:`NOTES_TEXTS`, for reveal.js's core (dist/reveal.js): the help overlay that the ? key opens,
#: its keys' actions (two of them written twice: linear and grid navigation), the arrows' accessible
#: names (each written twice: for left-to-right and right-to-left decks)
REVEAL_TEXTS: tuple[tuple[str, int], ...] = (
    ('<p class="title">{keyboard_shortcuts}</p>', 1),
    ("<th>{key}</th><th>{action}</th>", 1),
    ("  ,  {space}  ,  N  ,", 1),
    ('["N  ,  {space}"]', 1),
    ('="{next_slide}"', 2),
    ('="{previous_slide}"', 2),
    ('="{navigate_left}"', 1),
    ('="{navigate_right}"', 1),
    ('="{navigate_up}"', 1),
    ('="{navigate_down}"', 1),
    ('="{first_slide}"', 1),
    ('="{last_slide}"', 1),
    ('="{pause}"', 1),
    ('="{fullscreen}"', 1),
    ('="{slide_overview}"', 1),
    ('"{arrow_next}"', 2),
    ('"{arrow_previous}"', 2),
    ('aria-label="{arrow_above}"', 1),
    ('aria-label="{arrow_below}"', 1),
)

# what notes.js computes where pacing_minimum's {slides} and {seconds} stand (inside a JavaScript string)
PACING_VALUES = {"slides": '\\" + slidesUnderMinimum + \\"', "seconds": '\\" + minTimePerSlide + \\"'}
# a translation goes into JavaScript strings as it is
UNSAFE = set("\"'\\\n")


class SpeakerViewError(ValueError):
    """reveal.js is not the file the texts were written for, or a translation cannot go into it."""


@functools.cache
def clock(lang: str) -> dict[str, str]:
    """The speaker view's clock in ``lang``: its locale and whether it counts 12 hours, from CLDR (Babel).

    >>> clock("en"), clock("ru")
    ({'locale': 'en-US', 'hour12': 'true', 'am': ' AM'}, {'locale': 'ru-RU', 'hour12': 'false', 'am': ''})
    """
    from babel import Locale

    pattern = Locale.parse(cldr_locale(lang)).time_formats["short"].pattern  # "h:mm a": 12 hours; "HH:mm": 24
    twelve = "h" in pattern or "K" in pattern
    return {
        "locale": locale_tag(lang),
        "hour12": "true" if twelve else "false",
        "am": " AM" if twelve else "",
    }


def _fields(lang: str) -> dict[str, str]:
    """What each ``{field}`` of the texts reads in ``lang``."""
    fields = {"lang": lang, **clock(lang)}
    for key in REVEAL.english:
        text = REVEAL(key, lang, **(PACING_VALUES if key == "pacing_minimum" else {}))
        unsafe = sorted(UNSAFE & set(REVEAL(key, lang, slides="", seconds="")))
        if unsafe:
            raise SpeakerViewError(
                f"the {lang} text of reveal.{key} goes into reveal.js's JavaScript strings as it is, so it "
                f"cannot hold {''.join(unsafe)!r}: {text!r}"
            )
        fields[key] = text
    return fields


def _strings(texts: tuple[tuple[str, int], ...], lang: str) -> list[tuple[str, str, int]]:
    english, translated = _fields(SOURCE_LANGUAGE), _fields(lang)
    return [(text.format(**english), text.format(**translated), times) for text, times in texts]


def notes_strings(lang: str) -> list[tuple[str, str, int]]:
    """(the text in notes.js, its translation into ``lang``, how many times it occurs) for each of :data:`NOTES_TEXTS`."""
    return _strings(NOTES_TEXTS, lang)


def reveal_strings(lang: str) -> list[tuple[str, str, int]]:
    """As :func:`notes_strings`, for reveal.js's core: :data:`REVEAL_TEXTS`."""
    return _strings(REVEAL_TEXTS, lang)


def notes_file(lang: str) -> str:
    """The notes plugin a deck of ``lang`` loads, relative to reveal.js's ``plugin/notes/``."""
    return "notes.js" if lang == SOURCE_LANGUAGE else f"notes-{lang}.js"


def reveal_file(lang: str) -> str:
    """The reveal.js core a deck of ``lang`` loads, relative to reveal.js's ``dist/``."""
    return "reveal.js" if lang == SOURCE_LANGUAGE else f"reveal-{lang}.js"


def _translate(text: str, strings: list[tuple[str, str, int]], what: str, table: str, lang: str) -> str:
    problems = []
    for english, translated, times in strings:
        found = text.count(english)
        if found != times:
            problems.append(f"{english!r} occurs {found} times, expected {times}")
        text = text.replace(english, translated)
    if problems:
        raise SpeakerViewError(
            f"reveal.js's {what} is not the one the {lang} decks were written for "
            f"(course_tools/publish/speaker_view.py {table}): " + "; ".join(problems)
        )
    return text


def translate_notes(text: str, lang: str) -> str:
    """notes.js with its speaker view in ``lang``; :class:`SpeakerViewError` names every string not found as expected."""
    return _translate(text, notes_strings(lang), "plugin/notes/notes.js", "NOTES_TEXTS", lang)


def translate_reveal(text: str, lang: str) -> str:
    """reveal.js with its help overlay and arrows in ``lang``; :class:`SpeakerViewError` as :func:`translate_notes`."""
    return _translate(text, reveal_strings(lang), "dist/reveal.js", "REVEAL_TEXTS", lang)
