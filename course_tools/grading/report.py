"""The class's mistakes as one offline page: ``REPORT/index.html`` (Jinja2, autoescaped, no scripts).

For each exercise, under its lesson's title: how many students got each verdict, their diagnoses ranked
by share as an inline SVG bar chart (each bar named by the start of its message, the diagnosis key only
in its tooltip), a few of the messages they read (without their names) and the exercise's hints, which
say what to re-teach, all in the report's language. The counts above a chart are the sums of its bars.

:func:`write_report` writes it with the rest of the report, all or nothing: ``verdicts.csv`` (one row per
exercise of each submitted notebook; a cell a spreadsheet would run as a formula is neutralised) and
``students/<student>.json``. This module reads the grader's results (:mod:`.grade`); the grader never
imports it.
"""

import csv
import io
import json
import re
import shutil
import tempfile
from collections import Counter
from dataclasses import asdict
from functools import cache
from pathlib import Path

import nbformat
from markupsafe import Markup, escape

from course_lib import exercises
from course_lib.i18n import NAMES

from ..core import templates
from ..core.config import CONFIG
from .grade import STATUSES, Result, display_name, localised
from .messages import GRADE, REPORT

__all__ = ["COLUMNS", "render", "write_report", "spreadsheet_safe"]

EXAMPLES = 3  # distinct messages shown per diagnosis
CODE = re.compile(r"`([^`]+)`")
TITLE_CELL = re.compile(r"^#\s*\d+\.\s*(.+?)\s*$", re.MULTILINE)
SHORT = 52  # characters of a diagnosis's short title


@cache
def lesson_title(name: str, lang: str) -> str:
    """The lesson's title in ``lang``, from its committed notebook's first heading ("Sinusoidal encoding")."""
    try:
        nb = nbformat.read(CONFIG.notebook(name, lang), as_version=4)
    except (OSError, ValueError, KeyError):
        return name
    for cell in nb.cells:
        found = TITLE_CELL.search(cell.source) if cell.cell_type == "markdown" else None
        if found:
            return found.group(1)
    return name


def short_title(text: str) -> str:
    """A message's first clause, to name its bar: up to the first ':', '.' or ';' outside a `code` span."""
    in_code = False
    for i, char in enumerate(text):
        if char == "`":
            in_code = not in_code
        elif not in_code and char in ".:;" and (i + 1 == len(text) or text[i + 1] == " "):
            text = text[:i]
            break
    text = text.strip()
    if len(text) > SHORT:
        text = text[: SHORT - 1].rstrip() + "…"
    if text.count("`") % 2:
        text = text.replace("`", "")
    return text


def inline_code(text: str) -> Markup:
    """Escaped text with its `code` spans as <code>; nothing else of Markdown."""
    return Markup(CODE.sub(r"<code>\1</code>", str(escape(text))))


def exercise_sections(result, lang: str) -> list[dict]:
    sections = []
    registry = exercises.registry()
    order = list(registry)
    names = sorted(
        {v.exercise for v in result.verdicts}, key=lambda e: (order.index(e) if e in order else len(order), e)
    )
    for name in names:
        rows = [v for v in result.verdicts if v.exercise == name]
        statuses = Counter(v.status for v in rows)
        # one bar per diagnosis and status: the counts above the chart are the sums of its bars
        ranked = Counter((v.diagnosis or "correct", v.status) for v in rows).most_common()
        diagnoses = []
        for (key, status), count in ranked:
            mine = [v for v in rows if (v.diagnosis or "correct", v.status) == (key, status)]
            examples = list(dict.fromkeys(localised(v, lang) for v in mine))
            diagnoses.append(
                {
                    "key": key,
                    "label": REPORT("correct_label", lang)
                    if key == "correct"
                    else short_title(examples[0] or key),
                    "status": status,
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
        lesson = rows[0].lesson
        sections.append(
            {
                "name": name or GRADE("unknown_lesson", lang),
                "lesson": int(lesson[:2]) if lesson[:2].isdigit() else lesson,
                "lesson_title": lesson_title(lesson, lang) if lesson else "",
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
        "grading/report.html.j2",
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


COLUMNS = ("student", "lesson", "exercise", "status", "diagnosis")


def write_report(result: Result, out: Path, lang: str) -> None:
    """``verdicts.csv``, ``students/*.json`` and ``index.html`` into ``out``, all or nothing.

    ``out`` must not exist, or hold a previous report (its ``verdicts.csv``): nothing else is replaced.
    """
    if out.exists() and not (out / "verdicts.csv").is_file():
        raise ValueError(
            f"{str(out)!r} exists and holds no previous report (no verdicts.csv): not replacing it"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        table = io.StringIO()
        writer = csv.writer(table, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows([spreadsheet_safe(getattr(v, c)) for c in COLUMNS] for v in result.verdicts)
        (staging / "verdicts.csv").write_text(table.getvalue(), encoding="utf-8")
        (staging / "students").mkdir()
        for student in sorted({b.student for b in result.notebooks}):
            books = [b for b in result.notebooks if b.student == student]
            record = {
                "student": student,
                "notebooks": [
                    {"file": display_name(b.path.name), "lesson": b.lesson, "seconds": round(b.seconds, 2),
                     "exercises": [{k: v for k, v in asdict(x).items() if k != "student"} for x in b.verdicts]}
                    for b in books
                ],
            }  # fmt: skip
            text = json.dumps(record, ensure_ascii=False, indent=1)
            (staging / "students" / f"{student}.json").write_text(
                text, encoding="utf-8"
            )  # a folder's name: no "/"
        (staging / "index.html").write_text(render(result, lang), encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def spreadsheet_safe(text: str) -> str:
    """A cell no spreadsheet runs as a formula (OWASP, CSV injection): a leading ``= + - @``, tab or
    line break gets a ``'`` in front."""
    text = str(text)
    return "'" + text if text.startswith(FORMULA_START) else text
