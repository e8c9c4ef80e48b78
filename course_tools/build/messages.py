"""The lesson build's texts in every language of ``LANGUAGES``: the headers of the lesson tables
(READMEs, lesson 0). Adding a language adds a line to every entry (``tests/unit/test_messages.py``)."""

from course_lib.i18n import Messages

__all__ = ["LESSON_SOURCE", "LESSON_TABLES"]

#: source.py: the first line of a deep dive (``title``: its title)
LESSON_SOURCE = Messages(
    "lesson_source",
    {
        "deep_dive_heading": "### Deep dive: {title}",
    },
)

#: tables.py: the headers of the lesson tables (READMEs, lesson 0)
LESSON_TABLES = Messages(
    "lesson_tables",
    {
        "number": "#",
        "lesson": "lesson",
        "goal": "you will be able to",
        "budget": "run time",
        # the budget is an upper bound: the whole run, measured, took less (benchmarks/bench_lessons.py)
        "seconds": "≤ {n} s",
    },
)
