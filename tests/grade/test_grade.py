"""The grader on a synthetic class of 30 (tests/grade/synthetic.py): every exercise right, untouched and
with a known mistake, one whole lesson, one nbgrader layout, and every bad case; the summary's counts
must equal what was injected. Its own stage of `make test` (`make grade-test`), within STAGE_SECONDS.
"""

import csv
import json
import time
from pathlib import Path

import pytest

from course_tools.grading import grade, report
from course_tools.grading.grade import Limits, Notebook, Result, Verdict, lesson_checks
from course_tools.grading.report import COLUMNS

from .synthetic import make_class

pytestmark = pytest.mark.grade

# The stage's budget: 30 notebooks, 2 at once, each a kernel that imports torch; measured 5 min on
# this 2-core machine under a load of 14 (eight builds at once), about 1.5 min when it is idle.
STAGE_SECONDS = 600
# the endless loop costs this much; a cell here takes under 1 s when idle, over 20 s under load
LIMITS = Limits(seconds=60)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("class") / "submissions"
    expected = make_class(root)
    start = time.perf_counter()
    result = grade.grade(root, LIMITS, jobs=2)
    seconds = time.perf_counter() - start
    out = tmp_path_factory.mktemp("report")
    for lang in ("en", "ru"):
        report.write_report(result, out / lang, lang)
    print(f"\ngraded 30 notebooks in {seconds:.0f} s (sandbox: {result.sandboxed})")
    return expected, result, out, seconds


def test_the_summary_counts_equal_what_was_injected(graded):
    expected, result, _, seconds = graded
    assert grade.counts(result.verdicts) == expected
    assert seconds < STAGE_SECONDS


def test_verdicts_csv_has_exactly_the_columns_and_one_row_per_exercise(graded):
    _, result, out, _ = graded
    with open(out / "en" / "verdicts.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert tuple(rows[0]) == COLUMNS
    # one row per exercise of each submitted lesson: one notebook per student, lesson 8 has two exercises
    assert len(rows) == 1 + sum(len(lesson_checks()[book.lesson]) for book in result.notebooks)
    assert {r[3] for r in rows[1:]} == {"correct", "incorrect", "not_attempted", "timeout", "error"}
    assert all((r[3] == "correct") == (r[4] == "") for r in rows[1:])


def test_a_json_per_student(graded):
    _, result, out, _ = graded
    files = sorted((out / "en" / "students").glob("*.json"))
    assert [f.stem for f in files] == [f"student{i:02d}" for i in range(30)]
    record = json.loads((out / "en" / "students" / "student05.json").read_text(encoding="utf-8"))
    assert record["notebooks"][0]["file"] == "06_putting_it_together.ipynb"  # nbgrader's layout
    assert record["notebooks"][0]["exercises"][0]["diagnosis"] == "inp.missing_scale"


def test_the_report_names_no_student_and_follows_its_language(graded):
    _, _, out, _ = graded
    en = (out / "en" / "index.html").read_text(encoding="utf-8")
    ru = (out / "ru" / "index.html").read_text(encoding="utf-8")
    assert "Mistakes of the class" in en and "Ошибки группы" in ru
    assert "pe.sin_cos_swapped" in en and en.count("<rect") >= 8
    for page in (en, ru):
        assert not any(f"student{i:02d}" in page for i in range(30))
        assert "http://" not in page and "https://" not in page
    # the Russian page shows the messages in Russian, whatever language the notebook was in
    assert "Ядро Jupyter аварийно завершилось" in ru and "The kernel died" in en


def fake_result(message: str) -> Result:
    book = Notebook("alice", Path("05_sinusoidal_encoding.ipynb"), "05_sinusoidal_encoding")
    book.verdicts = [Verdict("alice", book.lesson, "positional_encoding", "incorrect", "x.y", message)]
    return Result([book], 1.0, True)


def test_the_report_escapes_what_students_wrote():
    page = report.render(fake_result("<script>alert(1)</script> `<b>`"), "en")
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert "<code>&lt;b&gt;</code>" in page


def test_bad_arguments_are_named(tmp_path):
    with pytest.raises(ValueError, match=r"the submissions folder '.*nowhere' does not exist"):
        grade.grade(tmp_path / "nowhere")
    with pytest.raises(ValueError, match=r"jobs must be a positive integer, got 0"):
        grade.grade(tmp_path, jobs=0)


def test_submissions_around_the_course_are_refused(tmp_path):
    with pytest.raises(ValueError, match=r"holds the course .*folders of their own"):
        grade.grade(Path(grade.CONFIG.root).parent)


def test_a_folder_that_is_no_report_is_never_replaced(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="holds no previous report"):
        report.write_report(fake_result("m"), tmp_path, "en")
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.parent.iterdir() if p.name.startswith(f".{tmp_path.name}-")) == []


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_report_names_lessons_and_mistakes_in_its_language_and_its_counts_are_its_bars(lang):
    from html.parser import HTMLParser

    from tests.grade.synthetic import checked_in_process

    result = checked_in_process()
    page = report.render(result, lang)

    class Visible(HTMLParser):  # the text a reader sees: not the tooltips (<title>, title="...")
        def __init__(self):
            super().__init__()
            self.text, self.skip, self.sections, self.in_statuses = [], 0, [], False

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            self.skip += tag in ("title", "style")
            self.in_statuses = tag == "p" and attrs.get("class") == "statuses"
            if tag == "section":
                self.sections.append({"statuses": None, "bars": {}})
            if tag == "rect" and "data-status" in attrs:
                bars = self.sections[-1]["bars"]
                bars[attrs["data-status"]] = bars.get(attrs["data-status"], 0) + int(attrs["data-count"])

        def handle_endtag(self, tag):
            self.skip -= tag in ("title", "style")

        def handle_data(self, data):
            if not self.skip:
                self.text.append(data)
                if self.in_statuses:
                    self.sections[-1]["statuses"] = data
                    self.in_statuses = False

    import re

    seen = Visible()
    seen.feed(page)
    visible = " ".join(seen.text)
    # no internal key where a reader reads: the keys are tooltips only
    keys = {v.diagnosis for v in result.verdicts if v.diagnosis}
    assert len(keys) >= 4
    assert not [key for key in keys if key in visible]
    assert {"en": "Lesson 5. Sinusoidal", "ru": "Урок 5. Синусоид"}[lang] in visible
    words = {"en": ("correct", "not yet", "not attempted", "timed out", "could not be graded"),
             "ru": ("верно", "пока не так", "не решали", "не уложились во время", "не проверены")}[lang]  # fmt: skip
    for section in seen.sections:
        counts = dict(zip(grade.STATUSES, map(int, re.findall(r"\d+", section["statuses"])), strict=True))
        assert counts == {s: section["bars"].get(s, 0) for s in grade.STATUSES}, section
        assert all(w in section["statuses"] for w in words)


class FakeSession:
    """What a forged sandbox could send, one reply per call."""

    def __init__(self, *replies):
        self.replies, self.dead, self.sent = list(replies), False, []

    def send(self, message):
        self.sent.append(message)
        return True

    def receive(self, deadline):
        return self.replies.pop(0)


@pytest.mark.parametrize(
    "reply",
    [
        ("interrupted",),  # would raise KeyboardInterrupt in the grader
        ("ok", "not a pair"),
        ("ok", (1, "not a list")),
        ("raised", "not an ErrorInfo"),
        ("correct",),
        "a string",
        None,
    ],
)
def test_a_forged_reply_is_a_dead_child_never_an_exception(reply):
    from course_tools.grading.grade import RemoteChild

    session = FakeSession(reply)
    child = RemoteChild(session, {})
    got = child.ask(("fn", (), False, []), time.monotonic() + 1)
    assert got[0] == "died" and session.dead


def test_a_reply_that_decodes_into_too_much_is_refused_before_decoding():
    from course_lib.exercises.child import TensorData
    from course_tools.grading.grade import RemoteChild

    block = TensorData("uint8", (1 << 20,), b"\0" * (1 << 20), False)
    bomb = ("ok", ([block] * 1000, []))  # 1 MiB sent once, 1 GiB once decoded
    assert RemoteChild(FakeSession(bomb), {}).ask(("fn", (), False, []), time.monotonic() + 1)[0] == "died"
    fine = ("ok", ([block] * 3, []))
    assert RemoteChild(FakeSession(fine), {}).ask(("fn", (), False, []), time.monotonic() + 1)[0] == "ok"


def test_the_student_s_texts_are_bounded_before_they_reach_a_message():
    from course_lib.exercises.child import ErrorInfo
    from course_tools.grading.grade import RemoteChild

    raised = ("raised", ErrorInfo("E" * 10_000, ("E" * 10_000,), "x" * 10**6, "y" * 10**6))
    got = RemoteChild(FakeSession(raised), {}).ask(("fn", (), False, []), time.monotonic() + 1)
    assert got[0] == "raised" and len(got[1].text) <= 300 and len(got[1].type_name) <= 100
