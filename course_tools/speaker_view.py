"""The speaker view in the deck's language: reveal.js's notes plugin, translated at build time.

reveal.js 4.0.2's notes plugin (``plugin/notes/notes.js``) writes its speaker window from an HTML
string of its own, in English ("Upcoming", "Time", "Click to Reset", "Notes", "Layout", ...), and
offers no option to change it. For a language other than English the slides build writes a copy,
``notes-<lang>.js``, with exactly the strings of :data:`STRINGS` replaced, and each deck of that
language loads its copy. Every string must be found exactly as many times as listed: a reveal.js
upgrade that changes one is a build error (:class:`SpeakerViewError`), never a speaker view left
half in English.
"""

__all__ = ["STRINGS", "SpeakerViewError", "notes_file", "translate_notes"]

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


class SpeakerViewError(ValueError):
    """notes.js is not the file :data:`STRINGS` was written for."""


def notes_file(lang: str) -> str:
    """The notes plugin a deck of ``lang`` loads, relative to reveal.js's ``plugin/notes/``."""
    return f"notes-{lang}.js" if lang in STRINGS else "notes.js"


def translate_notes(text: str, lang: str) -> str:
    """notes.js with its speaker view in ``lang``; :class:`SpeakerViewError` names every string not found as expected."""
    problems = []
    for english, translated, times in STRINGS.get(lang, []):
        found = text.count(english)
        if found != times:
            problems.append(f"{english!r} occurs {found} times, expected {times}")
        text = text.replace(english, translated)
    if problems:
        raise SpeakerViewError(
            f"reveal.js's plugin/notes/notes.js is not the one the {lang} speaker view was written for "
            f"(course_tools/speaker_view.py STRINGS): " + "; ".join(problems)
        )
    return text
