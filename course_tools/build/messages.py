"""The lesson build's texts in every language of ``LANGUAGES``: the headers of the lesson tables
(READMEs, lesson 0). Adding a language adds a line to every entry (``tests/unit/test_messages.py``)."""

from course_lib.i18n import Messages

__all__ = ["LESSON_TABLES"]

#: tables.py: the headers of the lesson tables (READMEs, lesson 0)
LESSON_TABLES = Messages(
    "lesson_tables",
    {
        "number": {"en": "#", "ru": "№"},
        "lesson": {"en": "lesson", "ru": "урок"},
        "goal": {"en": "you will be able to", "ru": "вы научитесь"},
        "budget": {"en": "run time", "ru": "время"},
        # the budget is an upper bound: the whole run, measured, took less (benchmarks/bench_lessons.py)
        "seconds": {"en": "≤ {n} s", "ru": "≤ {n} с"},
    },
)
