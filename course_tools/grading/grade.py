"""The grader behind ``python -m course_tools.grade`` (whose docstring says what it does for an
instructor): each notebook read as data, its code run in a sandbox of its own (:mod:`.sandbox`, the
code inside it :mod:`.run`, watched by :mod:`.guard`), the exercise's checker run here on what the
sandbox sends back, and a :class:`Verdict` per exercise; :mod:`.report` writes them out.
"""

import errno
import json
import os
import re
import stat
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import nbformat

from course_lib import exercises, i18n
from course_lib.exercises.checks import MESSAGES, message
from course_lib.exercises.child import ErrorInfo, Handle
from course_lib.exercises.runner import TIME_LIMIT_S, Run

from ..core.config import CONFIG, LANGUAGES, SOURCE_LANGUAGE
from . import messages, sandbox

__all__ = ["Limits", "Verdict", "Notebook", "RemoteChild", "discover", "read_notebook", "grade"]

STATUSES = ("correct", "incorrect", "not_attempted", "timeout", "error")
LESSON_FILE = re.compile(r"^(\d\d)_")
CHECK_CALL = re.compile(r"exercises\.(\w+)\.check\((\w+)\)")
# what the sandbox's audit hook may report; anything else it sends is not believed
VIOLATIONS = ("grade.other_student", "grade.outside_dir", "grade.network", "grade.process")
# one check at a time in this process: a check sets torch's global state (seed, default dtype)
CHECK_LOCK = threading.Lock()
MAX_REPLY_ITEMS = 1_000_000  # numbers and containers in one reply, counted as decoding would build them
MAX_REPLY_BYTES = 256 << 20  # tensors' bytes in one reply, the same way
MAX_CELLS = 2000  # of one notebook: a lesson has about 100; reading 100 000 took the grader 17 s
MAX_NOTEBOOKS = (
    2 * 9
)  # of one student (two per lesson): one student cannot make the class's grading take hours


@dataclass(frozen=True)
class Limits:
    """What one notebook may take; the defaults fit a lesson with its ``grade-skip`` cells skipped."""

    seconds: int = 120  # a cell; the whole notebook gets 30 s more (a lesson takes 5-20 s here)
    memory_bytes: int = 4 * 2**30  # the notebook's whole process tree (torch alone: about 0.4 GiB resident)
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
    """One submitted file and what grading it gave; ``problem`` is why it cannot be read, found at discovery."""

    student: str
    path: Path
    lesson: str = ""
    seconds: float = 0.0
    verdicts: list[Verdict] = field(default_factory=list)
    problem: tuple | None = None
    lang: str = SOURCE_LANGUAGE  # the notebook's language: its problems are said in it


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


def display_name(name: str) -> str:
    """A file or folder name as the report writes it: bytes that are not UTF-8 as ``\\xff``."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def discover(root: Path) -> list[Notebook]:
    """Every ``*.ipynb`` of every student: ``<student>/*.ipynb`` and ``<student>/<assignment>/*.ipynb``.

    A link (to a file or to a folder) is listed with its ``grade.symlink`` problem: never graded as
    the work of the student whose folder holds it. One notebook per lesson (by its file name's number)
    and at most ``MAX_NOTEBOOKS`` per student are graded; the others are listed with ``grade.duplicate``.
    """
    if not root.is_dir():
        raise ValueError(f"the submissions folder {str(root)!r} does not exist or is not a folder")
    found = []
    for student in sorted(os.scandir(root), key=lambda e: e.name):
        if student.name.startswith("."):
            continue
        name = display_name(student.name)
        if student.is_symlink():
            found.append(Notebook(name, Path(student.path), problem=("grade.symlink", {"detail": name})))
            continue
        if not student.is_dir(follow_symlinks=False):
            continue
        mine: list[Notebook] = []
        for entry in sorted(os.scandir(student.path), key=lambda e: e.name):
            if entry.name.startswith(".") or entry.name == ".ipynb_checkpoints":
                continue
            if entry.is_dir(follow_symlinks=False):
                mine += [Notebook(name, Path(e.path)) for e in sorted(os.scandir(entry.path), key=lambda e: e.name)
                         if e.name.endswith(".ipynb")]  # fmt: skip
            elif entry.is_symlink() and not entry.name.endswith(".ipynb"):
                problem = ("grade.symlink", {"detail": display_name(entry.name)})
                mine.append(Notebook(name, Path(entry.path), problem=problem))
            elif entry.name.endswith(".ipynb"):
                mine.append(Notebook(name, Path(entry.path)))
        lessons: set[str] = set()
        for count, book in enumerate(mine):
            number = LESSON_FILE.match(book.path.name)
            if count >= MAX_NOTEBOOKS or (number and number.group(1) in lessons and book.problem is None):
                book.problem = ("grade.duplicate", {"detail": display_name(book.path.name)})
            elif number and book.problem is None:
                lessons.add(number.group(1))
        found += mine
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


def read_bytes(path: Path, root: Path, limit: int):
    """The file's bytes, or the ``grade.*`` key (and its values) that says why it is not read.

    Opened one folder at a time below ``root`` without following any link (``O_NOFOLLOW``), without
    waiting (``O_NONBLOCK``: a FIFO does not hang the grader), a regular file only (``fstat``), and
    at most ``limit`` + 1 bytes read (a link to ``/dev/zero`` or a growing file cannot fill memory).
    """
    parts = path.relative_to(root).parts
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in parts[:-1]:
            next_fd = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = next_fd
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
        file_fd = os.open(parts[-1], flags, dir_fd=fd)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):
            return None, ("grade.symlink", {"detail": path.name})
        return None, ("grade.not_a_file", {"detail": path.name})
    finally:
        os.close(fd)
    try:
        info = os.fstat(file_fd)
        if not stat.S_ISREG(info.st_mode):
            return None, ("grade.not_a_file", {"detail": path.name})
        if info.st_size > limit:
            return None, ("grade.too_large", {"size": info.st_size, "limit": limit})
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(file_fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            return None, ("grade.too_large", {"size": size, "limit": limit})
        return b"".join(chunks), None
    finally:
        os.close(file_fd)


def read_notebook(path: Path, limits: Limits, root: Path | None = None):
    """The notebook, or the ``grade.*`` key (and its values) that says why it cannot be one."""
    text, problem = read_bytes(path, root or path.parent, limits.file_bytes)
    if problem is not None:
        return None, problem
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError, MemoryError):  # '[' * 100000: too deep
        return None, ("grade.not_json", {})
    cells = data.get("cells") if isinstance(data, dict) else None
    if isinstance(cells, list) and len(cells) > MAX_CELLS:
        return None, ("grade.too_many_cells", {"cells": len(cells), "limit": MAX_CELLS})
    try:
        nb = nbformat.reads(json.dumps(data), as_version=4)
        nbformat.validate(nb)
    except Exception as error:  # nbformat raises several types for a dict that is no notebook
        detail = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        return None, ("grade.not_a_notebook", {"detail": detail})
    return nb, None


# ----------------------------------------------------------------------------- the student's objects, from afar


class RemoteChild:
    """A :class:`~course_lib.exercises.runner.Run`'s child that is the notebook's sandbox: each call is
    sent to it, and each reply validated here (plain data of the shape the run expects, within size)."""

    def __init__(self, session, facts: dict):
        self.session = session
        self.facts = facts

    def ask(self, request, deadline: float):
        if request is None:  # the facts of the student's object, already fetched with ("begin", name)
            return ("ok", self.facts)
        if self.session.dead or not self.session.send(request):
            return self._died()
        try:
            reply = self.session.receive(deadline)
        except TimeoutError:
            self.session.dead = True
            return ("timeout",)
        except (ValueError, EOFError, OSError):
            return self._died()
        return self._validated(reply, keep=bool(request[2]), mirror=len(request[3]))

    def _died(self):
        self.session.dead = True
        return ("died", MESSAGES("how.unknown"))

    def _validated(self, reply, keep: bool, mirror: int):
        if (
            type(reply) is not tuple
            or not reply
            or reply[0] not in ("ok", "not_implemented", "exit", "raised")
        ):
            return self._died()  # "interrupted" too: no KeyboardInterrupt comes from a sandbox
        kind = reply[0]
        if kind == "not_implemented" and len(reply) == 1:
            return reply
        if kind == "exit" and len(reply) == 2 and type(reply[1]) is str:
            return ("exit", reply[1][:300])
        if kind == "raised" and len(reply) == 2 and valid_error(reply[1]):
            error = reply[1]  # its texts go into messages, the report and the JSON: bounded here
            return ("raised", ErrorInfo(error.type_name[:100], tuple(t[:100] for t in error.types[:64]),
                                        error.text[:300], error.line[:300]))  # fmt: skip
        if kind == "ok" and len(reply) == 2 and type(reply[1]) is tuple and len(reply[1]) == 2:
            result, after = reply[1]
            if keep and type(result) is Handle and type(result.index) is int and valid_facts(result.facts):
                return ("ok", (Handle(result.index, bounded_facts(result.facts)), after))
            if not keep and type(after) is list and len(after) == mirror and within_budget(reply[1]):
                return reply
        return self._died()

    def printed(self) -> str:
        return ""  # what the sandbox printed was counted, not kept

    def close(self) -> None:
        pass  # the sandbox outlives one check: the next exercise's check asks it too

    def release(self) -> None:
        pass


FACT_TYPES = {"name": str, "type_name": str, "is_class": bool, "is_module_class": bool, "is_module": bool,
              "callable": bool}  # fmt: skip


def valid_facts(facts) -> bool:
    """The facts a check reads of the student's object, each of its type (``course`` a name or None)."""
    if type(facts) is not dict or any(type(facts.get(k)) is not t for k, t in FACT_TYPES.items()):
        return False
    if not (facts.get("course") is None or type(facts.get("course")) is str):
        return False
    missing = facts.get("missing_forward", None)
    parts = facts.get("course_parts", [])  # a built module's attributes that are the course's classes
    return (missing is None or type(missing) is str) and (
        type(parts) is list and len(parts) <= 64 and all(
            type(p) is tuple and len(p) == 2 and all(type(x) is str for x in p) for p in parts)
    )  # fmt: skip


def bounded_facts(facts: dict) -> dict:
    """The facts with their texts cut to what a message shows."""
    kept = {
        k: v[:100] if type(v) is str else v
        for k, v in facts.items()
        if k in (*FACT_TYPES, "course", "missing_forward")
    }
    if "course_parts" in facts:  # a built module's attributes that are the course's classes (validated)
        kept["course_parts"] = [(a[:200], b[:200]) for a, b in facts["course_parts"]]
    return kept


def valid_error(error) -> bool:
    """An error record; its fields' types were checked when the frame was read (``child.load_plain``)."""
    return type(error) is ErrorInfo


def within_budget(value) -> bool:
    """Whether decoding ``value`` builds at most ``MAX_REPLY_ITEMS`` items and ``MAX_REPLY_BYTES`` of tensors
    (a shared object is counted each time it is referred to: decoding copies it each time)."""
    from course_lib.exercises.child import TensorData

    items = tensor_bytes = 0
    stack = [value]
    while stack:
        item = stack.pop()
        items += 1
        if items > MAX_REPLY_ITEMS:
            return False
        if type(item) is TensorData:
            tensor_bytes += len(item.data) if type(item.data) is bytes else 1 << 40
            if tensor_bytes > MAX_REPLY_BYTES or type(item.shape) is not tuple:
                return False
        elif type(item) in (tuple, list):
            stack.extend(item)
        elif type(item) is dict:
            stack.extend(item.keys())
            stack.extend(item.values())
    return True


# ----------------------------------------------------------------------------- one notebook


@cache
def matplotlib_cache() -> dict[str, str]:
    """matplotlib's font cache, built once here and handed to every sandbox (rebuilding it takes seconds)."""
    import subprocess

    with tempfile.TemporaryDirectory(prefix="grade-mpl-") as path:
        env = dict(os.environ, MPLCONFIGDIR=path, MPLBACKEND="Agg")
        subprocess.run([sys.executable, "-c", "import matplotlib.pyplot"], env=env, check=True)
        return {f.name: f.read_text() for f in Path(path).glob("fontlist-*.json")}


def read_roots() -> list[str]:
    import course_lib

    # /proc: a check's own child walks it to end every process it started (in the sandbox, a PID
    # namespace's /proc shows the notebook's processes only)
    return [sys.prefix, sys.base_prefix, os.path.dirname(course_lib.__file__), "/usr/share/fonts", "/proc"]


def run_cells(session, limits: Limits):
    """Wait for the notebook's cells, each within ``limits.seconds``: (the notebook's language, None) or (None, problem)."""
    start = time.monotonic()
    end = start + limits.seconds + 30
    cell_end = start + limits.seconds
    while True:
        try:
            message_ = session.receive(min(cell_end, end))
        except TimeoutError:
            session.stop("timeout")
            return None, ("grade.timeout", {})
        except (ValueError, EOFError, OSError) as error:
            session.stop()
            return None, ("grade.no_verdict", {"detail": str(error)[:200]})
        if message_ is None:
            session.close()
            return None, ended(session)
        if (
            type(message_) is tuple
            and len(message_) == 2
            and message_[0] == "cell"
            and type(message_[1]) is int
        ):
            cell_end = time.monotonic() + limits.seconds
        elif type(message_) is tuple and len(message_) == 2 and message_[0] == "ready":
            lang = message_[1] if message_[1] in LANGUAGES else SOURCE_LANGUAGE
            return lang, None
        else:
            session.stop()
            return None, ("grade.no_verdict", {"detail": "?"})


def ended(session) -> tuple:
    """Why the sandbox ended before its notebook did."""
    why = session.stopped_for or session.limits_hit()
    if why in ("output_too_large", "memory", "processes"):
        return (f"grade.{why}", {})
    if session.violations:
        return violation(session)
    return ("grade.kernel_died", {})


def violation(session) -> tuple | None:
    if not session.violations:
        return None
    key, detail = session.violations[0]
    return (key, {"detail": detail}) if key in VIOLATIONS else ("grade.no_verdict", {"detail": key})


def check_one(session, exercise: str, arg: str, lang: str, book: Notebook) -> Verdict:
    """The verdict of one exercise, decided here on what the sandbox sends back."""
    e = exercises.registry()[exercise]
    if not session.send(("begin", arg)):
        return None
    try:  # the facts of the student's object: its name, whether it is a class (a few attribute reads)
        reply = session.receive(time.monotonic() + TIME_LIMIT_S)
    except (TimeoutError, ValueError, EOFError, OSError):
        session.dead = True
        return None
    if reply == ("missing",):
        text = messages.GRADE("not_defined", lang, name=arg)
        return Verdict(
            book.student, book.lesson, exercise, "not_attempted", "grade.not_defined", text, {"name": arg}
        )
    if type(reply) is not tuple or len(reply) != 2 or reply[0] != "ok" or not valid_facts(reply[1]):
        session.dead = True
        return None
    with CHECK_LOCK:
        i18n.set_language(lang)
        facts = bounded_facts(reply[1])
        run = Run(child=lambda student: RemoteChild(session, facts))
        feedback = e.run_check(None, run)
    status = "timeout" if feedback.key == "timeout" else feedback.status
    values = {
        k: v if isinstance(v, (bool, int, float, str)) or v is None else str(v)
        for k, v in feedback.values.items()
    }
    return Verdict(book.student, book.lesson, exercise, status, "" if status == "correct" else feedback.key,
                   feedback.message, values)  # fmt: skip


def run_and_check(nb, checks: dict[str, str], limits: Limits, hidden: list[Path], book: Notebook):
    """Every exercise's verdict, or the problem that stopped the notebook; a sandbox that one check
    leaves stuck is replaced by a new one (the notebook run again) for the exercises after it."""
    job = {"notebook": nb, "read_roots": read_roots(), "hidden": [str(p) for p in hidden]}
    remaining = sorted(checks.items())
    verdicts: list[Verdict] = []
    while remaining:
        session = sandbox.start(job, limits, hidden, matplotlib_cache())
        try:
            lang, problem = run_cells(session, limits)
            if problem is None:
                problem = violation(session)
            if problem is not None:
                return problem
            while remaining and not session.dead:
                exercise, arg = remaining.pop(0)
                verdict = check_one(session, exercise, arg, lang, book)
                hit = session.limits_hit()  # reads the cgroup's files: once
                problem = violation(session) or (("grade." + hit, {}) if hit else None)
                if problem is not None:
                    return problem
                if verdict is None:
                    verdict = Verdict(book.student, book.lesson, exercise, "error", "grade.no_verdict",
                                      messages.GRADE("no_verdict", lang, detail="?"), {"detail": "?"})  # fmt: skip
                verdicts.append(verdict)
        finally:
            session.close()
        if session.stopped_for == "output_too_large":
            return ("grade.output_too_large", {})
    return verdicts


def grade_notebook(book: Notebook, limits: Limits, hidden: list[Path], root: Path) -> Notebook:
    """``book`` graded; whatever goes wrong is this student's row, never the class's."""
    start = time.perf_counter()
    try:
        _grade_notebook(book, limits, hidden, root)
    except Exception as error:  # a bug of the grader's: said as such, for this student only
        problem = ("grade.grader_failed", {"code": type(error).__name__})
        set_problem(book, problem, lesson_checks().get(book.lesson, {}), limits)
    book.seconds = time.perf_counter() - start
    return book


def _grade_notebook(book: Notebook, limits: Limits, hidden: list[Path], root: Path) -> None:
    nb, problem = (None, book.problem) if book.problem else read_notebook(book.path, limits, root)
    book.lesson = which_lesson(book.path, nb)
    lang = (nb.metadata.get("course") or {}).get("lang") if nb is not None else None
    book.lang = lang if lang in LANGUAGES else SOURCE_LANGUAGE
    checks = lesson_checks().get(book.lesson, {})
    if problem is None and not checks:
        problem = ("grade.unknown_lesson", {})
    if problem is None:
        result = run_and_check(dict(nb), checks, limits, hidden, book)
        if isinstance(result, list):
            book.verdicts = result
            return
        problem = result
    set_problem(book, problem, checks, limits)


def set_problem(book: Notebook, problem: tuple, checks: dict, limits: Limits) -> None:
    """Every exercise of the notebook gets ``problem``'s ``grade.*`` key: it could not be graded."""
    key, values = problem
    values = {"seconds": limits.seconds, "limit": limits.output_bytes, "memory": limits.memory_bytes >> 20,
              "processes": sandbox.NPROC, **values}  # fmt: skip
    status = "timeout" if key == "grade.timeout" else "error"
    text = messages.GRADE(key.removeprefix("grade."), book.lang, **values_for(key, values))
    book.verdicts = [Verdict(book.student, book.lesson, e, status, key, text, values) for e in checks or [""]]


def values_for(key: str, values: dict) -> dict:
    """The values that ``key``'s message needs, from what grading one notebook gave."""
    from course_lib.i18n import placeholders

    return {name: values.get(name, "") for name in placeholders(messages.GRADE.english[key[6:]])}


def localised(verdict: Verdict, lang: str) -> str:
    """What the student read, in the report's language (the notebook may have been in another)."""
    if not verdict.diagnosis:
        return ""
    try:
        if verdict.diagnosis.startswith("grade."):
            return messages.GRADE(
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
    mode: str  # sandbox.ISOLATED or UNPROTECTED: what kept the submissions apart

    @property
    def sandboxed(self) -> bool:
        return self.mode == sandbox.ISOLATED

    @property
    def verdicts(self) -> list[Verdict]:
        return [v for book in self.notebooks for v in book.verdicts]


def grade(root: Path, limits: Limits = Limits(), jobs: int = 2, hide: tuple[Path, ...] = ()) -> Result:
    """Grade every notebook under ``root``, ``jobs`` at once; ``hide`` lists more folders the kernels must not see."""
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    hidden = [root.resolve(), *(p.resolve() for p in hide)]
    # what the grader's machine may hold of other people: a hub's homes and secrets, a workspace
    hidden += [p for p in (CONFIG.root / "hub" / "state", CONFIG.root / "workspace") if p.is_dir()]
    needed = {"the course": CONFIG.root, "Python": Path(sys.prefix).resolve(), "the temporary folder":
              Path(tempfile.gettempdir()).resolve()}  # fmt: skip
    for path in hidden:
        for what, inner in needed.items():
            if inner == path or path in inner.parents:
                raise ValueError(f"{str(path)!r} holds {what} ({str(inner)!r}), so the kernels cannot run "
                                 "with it hidden: keep the submissions and the report in folders of their own")  # fmt: skip
    books = discover(root)
    if sandbox.mode() == sandbox.ISOLATED:
        sandbox.remove_stale_groups()
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        graded = list(pool.map(lambda book: grade_notebook(book, limits, hidden, root), books))
    return Result(graded, time.perf_counter() - start, sandbox.mode())


def counts(verdicts: list[Verdict]) -> dict[tuple[str, str], int]:
    """How many verdicts of each (exercise, diagnosis or status) there are: the summary the tests compare."""
    found: dict[tuple[str, str], int] = {}
    for v in verdicts:
        key = (v.exercise, v.diagnosis or v.status)
        found[key] = found.get(key, 0) + 1
    return found
