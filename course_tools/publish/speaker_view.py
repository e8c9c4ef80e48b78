"""The decks' chrome in the deck's language: reveal.js's help overlay, arrows and speaker view, translated at build time.

reveal.js 4.0.2 writes its own words in English and offers no option to change them: the core
(``dist/reveal.js``) its help overlay (the ? key: "Keyboard Shortcuts", "KEY", "ACTION", "Next
slide", ...) and its arrows' accessible names ("next slide"), the notes plugin
(``plugin/notes/notes.js``) its speaker window ("Upcoming", "Time", "Click to Reset", "Notes",
"Layout", ...). For a language other than English the slides build writes a copy of each,
``reveal-<lang>.js`` and ``notes-<lang>.js``, with exactly the strings of :data:`REVEAL_STRINGS`
and :data:`STRINGS` replaced, and each deck of that language loads its copies. Every string must be
found exactly as many times as listed: a reveal.js upgrade that changes one is a build error
(:class:`SpeakerViewError`), never a deck left half in English. The key names of the help overlay
(Home, End, Shift, ESC and the letters) are the ones printed on the keys, so they stay.
"""

__all__ = [
    "REVEAL_STRINGS",
    "STRINGS",
    "SpeakerViewError",
    "notes_file",
    "reveal_file",
    "translate_notes",
    "translate_reveal",
]

#: by language: (the text in notes.js as it is written there, JavaScript escapes included, its
#: translation, how many times it occurs)
STRINGS: dict[str, list[tuple[str, str, int]]] = {
    "ru": [
        ('<html lang=\\"en\\">', '<html lang=\\"ru\\">', 1),
        ("<title>reveal.js - Speaker View</title>", "<title>Режим докладчика</title>", 1),
        (">Loading speaker view...<", ">Режим докладчика загружается…<", 1),
        (">Upcoming<", ">Следующий слайд<", 1),
        (
            '>Time <span class=\\"reset-button\\">Click to Reset</span><',
            '>Время <span class=\\"reset-button\\">нажмите, чтобы сбросить</span><',
            1,
        ),
        (">0:00 AM<", ">0:00<", 1),
        (">Pacing – Time to finish current slide<", ">Темп — время до конца слайда<", 1),
        (">Notes<", ">Заметки<", 1),
        ("'default': 'Default'", "'default': 'Обычный'", 1),
        ("'wide': 'Wide'", "'wide': 'Широкий'", 1),
        ("'tall': 'Tall'", "'tall': 'Высокий'", 1),
        ("'notes-only': 'Notes only'", "'notes-only': 'Только заметки'", 1),
        ("layoutLabel.innerHTML = 'Layout' +", "layoutLabel.innerHTML = 'Вид' +", 1),
        (
            "'Error connecting to main window.<br>Please try closing and reopening the speaker view.'",
            "'Нет связи с окном презентации.<br>Закройте режим докладчика и откройте его снова.'",
            1,
        ),
        # the clock: 24 hours, as a Russian reader reads the time
        ("toLocaleTimeString( 'en-US', { hour12: true,", "toLocaleTimeString( 'ru-RU', { hour12: false,", 1),
        ('\\"The pacing time for \\"', '\\"Время на \\"', 1),
        (
            '\\" slide(s) is under the configured minimum of \\"',
            '\\" слайд(ов) меньше заданного минимума, \\"',
            1,
        ),
        (
            '\\" seconds. Check the data-timing attribute on individual slides, or consider increasing the '
            'totalTime or minimumTimePerSlide configuration options (or removing some slides).\\"',
            '\\" с. Проверьте атрибут data-timing у слайдов или увеличьте totalTime или minimumTimePerSlide '
            '(или уберите часть слайдов).\\"',
            1,
        ),
        (
            '"Speaker view popup failed to open. Please make sure popups are allowed and reopen the speaker view."',
            '"Окно режима докладчика не открылось. Разрешите всплывающие окна и откройте его снова."',
            1,
        ),
        # the key's line in reveal.js's help overlay (?)
        ('description:"Speaker notes view"', 'description:"Режим докладчика"', 1),
    ],
}


#: by language, as :data:`STRINGS`, for reveal.js's core (dist/reveal.js): the help overlay that the ?
#: key opens, its keys' actions (two of them written twice: linear and grid navigation), the arrows'
#: accessible names (each written twice: for left-to-right and right-to-left decks)
REVEAL_STRINGS: dict[str, list[tuple[str, str, int]]] = {
    "ru": [
        ('<p class="title">Keyboard Shortcuts</p>', '<p class="title">Горячие клавиши</p>', 1),
        ("<th>KEY</th><th>ACTION</th>", "<th>Клавиша</th><th>Действие</th>", 1),
        ("  ,  SPACE  ,  N  ,", "  ,  пробел  ,  N  ,", 1),
        ('["N  ,  SPACE"]', '["N  ,  пробел"]', 1),
        ('="Next slide"', '="Следующий слайд"', 2),
        ('="Previous slide"', '="Предыдущий слайд"', 2),
        ('="Navigate left"', '="Слайд слева"', 1),
        ('="Navigate right"', '="Слайд справа"', 1),
        ('="Navigate up"', '="Слайд выше"', 1),
        ('="Navigate down"', '="Слайд ниже"', 1),
        ('="First slide"', '="Первый слайд"', 1),
        ('="Last slide"', '="Последний слайд"', 1),
        ('="Pause"', '="Пауза (чёрный экран)"', 1),
        ('="Fullscreen"', '="Полноэкранный режим"', 1),
        ('="Slide overview"', '="Обзор слайдов"', 1),
        ('"next slide"', '"следующий слайд"', 2),
        ('"previous slide"', '"предыдущий слайд"', 2),
        ('aria-label="above slide"', 'aria-label="слайд выше"', 1),
        ('aria-label="below slide"', 'aria-label="слайд ниже"', 1),
    ],
}


class SpeakerViewError(ValueError):
    """notes.js is not the file :data:`STRINGS` was written for."""


def notes_file(lang: str) -> str:
    """The notes plugin a deck of ``lang`` loads, relative to reveal.js's ``plugin/notes/``."""
    return f"notes-{lang}.js" if lang in STRINGS else "notes.js"


def reveal_file(lang: str) -> str:
    """The reveal.js core a deck of ``lang`` loads, relative to reveal.js's ``dist/``."""
    return f"reveal-{lang}.js" if lang in REVEAL_STRINGS else "reveal.js"


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
    return _translate(text, STRINGS.get(lang, []), "plugin/notes/notes.js", "STRINGS", lang)


def translate_reveal(text: str, lang: str) -> str:
    """reveal.js with its help overlay and arrows in ``lang``; :class:`SpeakerViewError` as :func:`translate_notes`."""
    return _translate(text, REVEAL_STRINGS.get(lang, []), "dist/reveal.js", "REVEAL_STRINGS", lang)
