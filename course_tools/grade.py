"""Grade a class's notebooks and show which mistakes the class makes.

    python -m course_tools.grade SUBMISSIONS/ --out REPORT/ [--lang ru] [--jobs 2]

``SUBMISSIONS/<student>/<NN_lesson>.ipynb`` (either language), or nbgrader's
``submitted/<student>/<assignment>/*.ipynb``. Each notebook runs in its own kernel
(:mod:`course_tools.grade_run`), copied alone into a temporary folder, with a time, memory and
output limit, at most ``--jobs`` at once. Cells tagged ``grade-skip`` in a lesson (training,
demos) are not run. The exercises of the notebook's lesson are checked by
``course_lib.exercises``; a notebook that cannot be graded gets ``error`` or ``timeout`` with a
``grade.*`` diagnosis that says why (``course_tools.grade_messages``), and never stops the rest.

Where Linux namespaces are available (root, ``unshare``), each kernel runs without network, in
its own process tree (killed whole at the deadline), with the submissions folder and the report
hidden. Elsewhere the grader says so: it is then not a security boundary. In both cases an audit
hook (:mod:`course_tools.grade_guard`) names a submission that opens another student's file, a
path outside its folder or a socket.

Output, all or nothing: ``REPORT/verdicts.csv`` (``student,lesson,exercise,status,diagnosis``,
one row per exercise of each submitted notebook), ``REPORT/students/<student>.json`` and
``REPORT/index.html`` (:mod:`course_tools.grade_report`).
"""

import argparse
import csv
import io
import json
import os
import re
import secrets
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

import nbformat

from course_lib import exercises
from course_lib.exercises.checks import message

from . import grade_messages
from .config import CONFIG, LANGUAGES, SOURCE_LANGUAGE

__all__ = ["Limits", "Verdict", "Notebook", "discover", "sandbox_available", "grade", "main"]

COLUMNS = ("student", "lesson", "exercise", "status", "diagnosis")
STATUSES = ("correct", "incorrect", "not_attempted", "timeout", "error")
LESSON_FILE = re.compile(r"^(\d\d)_")
CHECK_CALL = re.compile(r"exercises\.(\w+)\.check\((\w+)\)")


@dataclass(frozen=True)
class Limits:
    """What one notebook may take; the defaults fit a lesson with its ``grade-skip`` cells skipped."""

    seconds: int = 120  # a cell (nbclient); the whole notebook gets 30 s more (a lesson takes 5-20 s here)
    memory_bytes: int = 4 * 2**30  # address space (RLIMIT_AS): torch alone maps about 1.5 GiB
    output_bytes: int = 10 * 2**20  # everything the notebook prints
    file_bytes: int = 50 * 2**20  # the submitted file itself


@dataclass
class Verdict:
    """One row of ``verdicts.csv``, with what the student read (``message``) and its ``values``."""

    student: str
    lesson: str
    exercise: str
    status: str
    diagnosis: str
    message: str = ""
    values: dict = field(default_factory=dict)


@dataclass
class Notebook:
    """One submitted file and what grading it gave."""

    student: str
    path: Path
    lesson: str = ""
    seconds: float = 0.0
    verdicts: list[Verdict] = field(default_factory=list)


# ----------------------------------------------------------------------------- what there is to grade


@cache
def lesson_checks() -> dict[str, dict[str, str]]:
    """Each lesson's exercises and the name each check is called with, from the committed notebooks."""
    found: dict[str, dict[str, str]] = {}
    registry = exercises.registry()
    for name in CONFIG.lesson_names():
        nb = nbformat.read(CONFIG.notebook(name, SOURCE_LANGUAGE), as_version=4)
        for cell in nb.cells:
            for exercise, arg in CHECK_CALL.findall(cell.source if cell.cell_type == "code" else ""):
                if exercise in registry and registry[exercise].lesson == int(name[:2]):
                    found.setdefault(name, {})[exercise] = arg
    return found


def discover(root: Path) -> list[Notebook]:
    """Every ``*.ipynb`` of every student: ``<student>/*.ipynb`` and ``<student>/<assignment>/*.ipynb``."""
    if not root.is_dir():
        raise ValueError(f"the submissions folder {str(root)!r} does not exist or is not a folder")
    found = []
    for student in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        files = sorted(student.glob("*.ipynb")) + sorted(student.glob("*/*.ipynb"))
        found += [Notebook(student.name, path) for path in files if ".ipynb_checkpoints" not in path.parts]
    return found


def which_lesson(path: Path, nb) -> str:
    """The lesson's name, from the file name's number or else from the notebook's check cells."""
    checks = lesson_checks()
    number = LESSON_FILE.match(path.name)
    for name in checks:
        if number and name.startswith(number.group(1)):
            return name
    called = {
        e for cell in (nb.cells if nb else []) for e, _ in CHECK_CALL.findall(str(cell.get("source", "")))
    }
    return next((name for name, ex in checks.items() if called & set(ex)), "")


def read_notebook(path: Path, limits: Limits):
    """The notebook, or the ``grade.*`` key (and its values) that says why it cannot be one."""
    size = path.stat().st_size
    if size > limits.file_bytes:
        return None, ("grade.too_large", {"size": size, "limit": limits.file_bytes})
    text = path.read_bytes()
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return None, ("grade.not_json", {})
    try:
        nb = nbformat.reads(json.dumps(data), as_version=4)
        nbformat.validate(nb)
    except Exception as error:  # nbformat raises several types for a dict that is no notebook
        return None, ("grade.not_a_notebook", {"detail": str(error).splitlines()[0][:200]})
    return nb, None


# ----------------------------------------------------------------------------- running one notebook


@cache
def sandbox_available() -> bool:
    """Whether this process may run a kernel in new network, mount and process namespaces."""
    if not sys.platform.startswith("linux") or shutil.which("unshare") is None:
        return False
    probe = ["unshare", "--net", "--mount", "--pid", "--fork", "--kill-child", "--mount-proc", "true"]
    return subprocess.run(probe, capture_output=True).returncode == 0


@cache
def matplotlib_dir() -> str:
    """matplotlib's font cache, built once here; each kernel gets a copy of its own (rebuilding it takes seconds)."""
    path = tempfile.mkdtemp(prefix="grade-mpl-")
    env = dict(os.environ, MPLCONFIGDIR=path, MPLBACKEND="Agg")
    subprocess.run([sys.executable, "-c", "import matplotlib.pyplot"], env=env, check=True)
    return path


def read_roots(workdir: str) -> list[str]:
    import course_lib

    return [sys.prefix, sys.base_prefix, os.path.dirname(course_lib.__file__), "/usr/share/fonts", workdir]


def run_notebook(book: Notebook, checks: dict[str, str], limits: Limits, hide: list[Path]) -> dict:
    """The worker's result for one notebook: ``{"verdicts": ..., "violations": ...}`` or ``{"error": key}``."""
    with tempfile.TemporaryDirectory(prefix="grade-") as workdir:
        notebook = f"{workdir}/submission.ipynb"
        shutil.copyfile(book.path, notebook)
        shutil.copytree(matplotlib_dir(), f"{workdir}/.matplotlib")
        nonce = secrets.token_hex(16)
        job = dict(
            workdir=workdir, notebook=notebook, checks=checks, nonce=nonce, memory_bytes=limits.memory_bytes,
            cell_seconds=limits.seconds, max_output_bytes=limits.output_bytes, mpl_dir=f"{workdir}/.matplotlib",
            submissions=str(hide[0]), read_roots=read_roots(workdir),
        )  # fmt: skip
        command = [sys.executable, "-m", "course_tools.grade_run"]
        if sandbox_available():
            mounts = " && ".join(
                f"mount -t tmpfs -o size=1m none {shlex.quote(str(p))}" for p in hide if p.exists()
            )
            inner = " ".join(map(shlex.quote, command))
            command = ["unshare", "--net", "--mount", "--pid", "--fork", "--kill-child", "--mount-proc",
                       "sh", "-c", f"{mounts} && exec {inner}"]  # fmt: skip
        try:
            done = subprocess.run(
                command, input=json.dumps(job), capture_output=True, text=True, cwd=CONFIG.root,
                timeout=limits.seconds + 30, start_new_session=True,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return {"error": "grade.timeout"}
        for line in done.stdout.splitlines():
            if line.startswith(nonce + " "):
                return json.loads(line[len(nonce) + 1 :])
        return {"error": "grade.grader_failed", "code": done.returncode, "stderr": done.stderr[-2000:]}


def grade_notebook(book: Notebook, limits: Limits, hide: list[Path]) -> Notebook:
    start = time.perf_counter()
    nb, problem = read_notebook(book.path, limits)
    book.lesson = which_lesson(book.path, nb)
    checks = lesson_checks().get(book.lesson, {})
    if problem is None and not checks:
        problem = ("grade.unknown_lesson", {})
    if problem is None:
        result = run_notebook(book, checks, limits, hide)
        if "error" in result:
            values = {"seconds": limits.seconds, "limit": limits.output_bytes, "code": result.get("code", "")}
            problem = (result["error"], values)
        elif result["violations"]:
            key, detail = result["violations"][0]
            problem = (key, {"detail": detail})
    if problem is not None:
        key, values = problem
        status = "timeout" if key == "grade.timeout" else "error"
        message = grade_messages.GRADE(key.removeprefix("grade."), **values_for(key, values))
        book.verdicts = [
            Verdict(book.student, book.lesson, e, status, key, message, values) for e in checks or [""]
        ]
    else:
        book.verdicts = [
            Verdict(book.student, book.lesson, v["exercise"], v["status"],
                    "" if v["status"] == "correct" else v["key"], v["message"], v["values"])
            for v in result["verdicts"]
        ]  # fmt: skip
    book.seconds = time.perf_counter() - start
    return book


def values_for(key: str, values: dict) -> dict:
    """The values that ``key``'s message needs, from what grading one notebook gave."""
    from course_lib.i18n import placeholders

    return {name: values.get(name, "") for name in placeholders(grade_messages.GRADE.entries[key[6:]]["en"])}


def localised(verdict: Verdict, lang: str) -> str:
    """What the student read, in the report's language (the notebook may have been in another)."""
    if not verdict.diagnosis:
        return ""
    try:
        if verdict.diagnosis.startswith("grade."):
            return grade_messages.GRADE(
                verdict.diagnosis[6:], lang, **values_for(verdict.diagnosis, verdict.values)
            )
        return message(verdict.diagnosis, lang, **verdict.values)
    except (KeyError, ValueError, IndexError):  # a value that came back as text where a number was formatted
        return verdict.message


# ----------------------------------------------------------------------------- the whole class


@dataclass
class Result:
    notebooks: list[Notebook]
    seconds: float
    sandboxed: bool

    @property
    def verdicts(self) -> list[Verdict]:
        return [v for book in self.notebooks for v in book.verdicts]


def grade(root: Path, limits: Limits = Limits(), jobs: int = 2, hide: tuple[Path, ...] = ()) -> Result:
    """Grade every notebook under ``root``, ``jobs`` at once; ``hide`` lists more folders the kernels must not see."""
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    hidden = [root.resolve(), *(p.resolve() for p in hide)]
    needed = {"the course": CONFIG.root, "Python": Path(sys.prefix).resolve(), "the temporary folder":
              Path(tempfile.gettempdir()).resolve()}  # fmt: skip
    for path in hidden:
        for what, inner in needed.items():
            if inner == path or path in inner.parents:
                raise ValueError(f"{str(path)!r} holds {what} ({str(inner)!r}), so the kernels cannot run "
                                 "with it hidden: keep the submissions and the report in folders of their own")  # fmt: skip
    books = discover(root)
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        graded = list(pool.map(lambda book: grade_notebook(book, limits, hidden), books))
    return Result(graded, time.perf_counter() - start, sandbox_available())


def write_report(result: Result, out: Path, lang: str) -> None:
    """``verdicts.csv``, ``students/*.json`` and ``index.html`` into ``out``, all or nothing.

    ``out`` must not exist, or hold a previous report (its ``verdicts.csv``): nothing else is replaced.
    """
    from . import grade_report

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
        writer.writerows([getattr(v, c) for c in COLUMNS] for v in result.verdicts)
        (staging / "verdicts.csv").write_text(table.getvalue(), encoding="utf-8")
        (staging / "students").mkdir()
        for student in sorted({b.student for b in result.notebooks}):
            books = [b for b in result.notebooks if b.student == student]
            record = {
                "student": student,
                "notebooks": [
                    {"file": b.path.name, "lesson": b.lesson, "seconds": round(b.seconds, 2),
                     "exercises": [{k: v for k, v in asdict(x).items() if k != "student"} for x in b.verdicts]}
                    for b in books
                ],
            }  # fmt: skip
            text = json.dumps(record, ensure_ascii=False, indent=1)
            (staging / "students" / f"{student}.json").write_text(text, encoding="utf-8")
        (staging / "index.html").write_text(grade_report.render(result, lang), encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def counts(verdicts: list[Verdict]) -> dict[tuple[str, str], int]:
    """How many verdicts of each (exercise, diagnosis or status) there are: the summary the tests compare."""
    found: dict[tuple[str, str], int] = {}
    for v in verdicts:
        key = (v.exercise, v.diagnosis or v.status)
        found[key] = found.get(key, 0) + 1
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course_tools.grade", description=__doc__.splitlines()[0])
    parser.add_argument("submissions", type=Path, help="SUBMISSIONS/<student>/<NN_lesson>.ipynb")
    parser.add_argument("--out", type=Path, required=True, help="the report's folder")
    parser.add_argument("--lang", choices=LANGUAGES, default=SOURCE_LANGUAGE, help="the report's language")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks at once (default 2)")
    parser.add_argument("--seconds", type=int, default=Limits.seconds, help="time limit per notebook")
    args = parser.parse_args(argv)
    if not sandbox_available():
        print("grade: Linux namespaces are not available here: the notebooks run with network and can read "
              "other files; this grader is not a security boundary.", file=sys.stderr)  # fmt: skip
    result = grade(args.submissions, Limits(seconds=args.seconds), args.jobs, hide=(args.out,))
    write_report(result, args.out, args.lang)
    statuses = {s: sum(v.status == s for v in result.verdicts) for s in STATUSES}
    print(
        f"graded {len(result.notebooks)} notebooks in {result.seconds:.1f} s: {statuses}; report in {args.out}/"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
