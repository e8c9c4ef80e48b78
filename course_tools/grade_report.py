"""The class's mistakes as one offline page: ``REPORT/index.html`` (Jinja2, autoescaped, no scripts).

For each exercise: how many students got each verdict, their diagnoses ranked by share as an inline
SVG bar chart, a few of the messages they read (without their names) and the exercise's hints, which
say what to re-teach, all in the report's language.
"""

import re
from collections import Counter

from markupsafe import Markup, escape

from course_lib import exercises
from course_lib.i18n import NAMES

from . import templates
from .grade_messages import GRADE, REPORT

EXAMPLES = 3  # distinct messages shown per diagnosis
CODE = re.compile(r"`([^`]+)`")


def inline_code(text: str) -> Markup:
    """Escaped text with its `code` spans as <code>; nothing else of Markdown."""
    return Markup(CODE.sub(r"<code>\1</code>", str(escape(text))))


def exercise_sections(result, lang: str) -> list[dict]:
    from .grade import STATUSES, localised

    sections = []
    registry = exercises.registry()
    order = list(registry)
    names = sorted(
        {v.exercise for v in result.verdicts}, key=lambda e: (order.index(e) if e in order else len(order), e)
    )
    for name in names:
        rows = [v for v in result.verdicts if v.exercise == name]
        statuses = Counter(v.status for v in rows)
        ranked = Counter(v.diagnosis or "correct" for v in rows).most_common()
        diagnoses = []
        for key, count in ranked:
            examples = list(
                dict.fromkeys(localised(v, lang) for v in rows if (v.diagnosis or "correct") == key)
            )
            diagnoses.append(
                {
                    "key": key,
                    "label": REPORT("correct_label", lang) if key == "correct" else key,
                    "status": next(v.status for v in rows if (v.diagnosis or "correct") == key),
                    "count": count,
                    "share": count / len(rows),
                    "percent": round(100 * count / len(rows)),
                    "examples": [e for e in examples if e][:EXAMPLES],
                }
            )
        exercise = registry.get(name)
        hints = []
        if exercise is not None:
            hints = [exercise.messages(f"hint{n}", lang) for n in range(1, exercise.num_hints + 1)]
        sections.append(
            {
                "name": name or GRADE("unknown_lesson", lang),
                "lesson": int(rows[0].lesson[:2]) if rows[0].lesson[:2].isdigit() else rows[0].lesson,
                "total": len(rows),
                "statuses": {s: statuses.get(s, 0) for s in STATUSES},
                "diagnoses": diagnoses,
                "hints": hints,
            }
        )
    return sections


def render(result, lang: str) -> str:
    students = len({b.student for b in result.notebooks})

    def t(key, **values):
        return REPORT(key, lang, **values)

    return templates.render(
        "grade_report.html.j2",
        code=inline_code,
        lang=lang,
        language_name=NAMES[lang],
        t=t,
        summary=t(
            "summary",
            students=students,
            notebooks=len(result.notebooks),
            rows=len(result.verdicts),
            seconds=f"{result.seconds:.0f}",
        ),
        sandbox=t("sandbox_on" if result.sandboxed else "sandbox_off"),
        sections=exercise_sections(result, lang),
    )
