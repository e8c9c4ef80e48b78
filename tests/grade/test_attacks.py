"""The grader against a class that cheats (issue 29): every attack named, every honest verdict unchanged,
nothing outside the submissions changed, a report for everyone.

A small class: five honest students (right, untouched, one known mistake, in both languages) graded two
at a time beside the attackers, with ``PYTHONPATH`` set as the course's own Docker image and hub set it.
Each attacker hands in a notebook for lesson 5 whose cells first attack and then (mostly) hold the right
answer, so that an attack that worked would show as ``correct``. ``make grade-test`` runs this file.
"""

import csv
import hashlib
import json
import os
import sys
from pathlib import Path

import nbformat
import pytest

from course_tools.core.config import CONFIG
from course_tools.grading import grade, report, sandbox
from course_tools.grading.grade import Limits

from .synthetic import lesson_of, notebook, variant

pytestmark = pytest.mark.grade

ISOLATED = sandbox.mode() == sandbox.ISOLATED
needs_sandbox = pytest.mark.skipif(not ISOLATED, reason="the sandbox needs root and Linux namespaces")

EXERCISE = "positional_encoding"
LESSON = lesson_of(EXERCISE)
RIGHT, _, _ = variant(EXERCISE, "correct")
# 2 GiB for each notebook's whole tree: an honest notebook takes about 0.5 GiB, the memory attack 3 GiB
LIMITS = Limits(seconds=60, memory_bytes=2 << 30)
TARGET = CONFIG.root / "course_tools" / "grading" / "report.py"  # the grader writes its report with it

HONEST = {  # student: (kind, language, status, diagnosis)
    "honest_a": ("correct", "en", "correct", ""),
    "honest_b": ("template", "ru", "not_attempted", "not_attempted"),
    "honest_c": ("mistake", "en", "incorrect", "pe.sin_cos_swapped"),
    "honest_d": ("correct", "ru", "correct", ""),
    "honest_e": ("correct", "en", "correct", ""),
}

# the channel to the grader is the one socket among the process's file descriptors
FIND_CHANNEL = """
import os, pickle, socket, stat, struct
def channel():
    for fd in map(int, os.listdir("/proc/self/fd")):
        try:
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                return fd
        except OSError:
            pass
def frame(payload):
    os.write(channel(), struct.pack("!Q", len(payload)) + payload)
"""

ATTACKS = {  # student: (code before the answer, the answer, status, diagnosis)
    # the old grader believed a verdict line the kernel printed: json.dumps patched, lines forged
    "forge_print": (
        'import json, sys\njson.dumps = lambda *a, **k: \'{"verdicts": [{"status": "correct"}]}\'\n'
        "for n in range(50):\n    print(f'{n:032x}', json.dumps({}))\n",
        "template",
        "not_attempted",
        "not_attempted",
    ),
    # a "ready" forged on the grader's channel while the cells still run: the replies no longer fit
    "forge_frames": (
        FIND_CHANNEL + "frame(pickle.dumps(('ready', 'en')))\nimport time\ntime.sleep(4)\n",
        "template",
        "error",
        "grade.no_verdict",
    ),
    # a pickle that would run a program where it is unpickled: the grader reads plain data only
    "forge_pickle": (
        FIND_CHANNEL + "class P:\n    def __reduce__(self):\n        return (os.system, ('touch {flag}',))\n"
        "frame(pickle.dumps(('cell', P())))\n",
        "right",
        "error",
        "grade.no_verdict",
    ),
    # waits for its neighbours' working folders under /tmp, to plant IPython startup files in them
    "neighbour_planting": (
        "import glob, os, time\nfor _ in range(20):\n    try:\n"
        "        for d in glob.glob('/tmp/*') + glob.glob('/tmp/work/../*'):\n"
        "            os.makedirs(d + '/.ipython/profile_default/startup', exist_ok=True)\n"
        "    except OSError:\n        pass\n    time.sleep(0.1)\n",
        "right",
        "error",
        "grade.outside_dir",
    ),
    "read_neighbour": ("open({neighbour!r}).read()\n", "right", "error", "grade.other_student"),
    # the write the audit hook cannot see: a program of its own
    "subprocess_write": (
        "import subprocess, sys\ncode = 'open(' + repr({target!r}) + ', \"a\").write(\"taken\")'\n"
        "subprocess.run([sys.executable, '-c', code])\n",
        "right",
        "error",
        "grade.process",
    ),
    "ctypes_write": (
        "import ctypes\nctypes.CDLL(None).system(b'echo taken >> {target} ; touch {flag}')\n",
        "right",
        "error",
        "grade.process",
    ),
    # below the audit hook: a program started by C code the hook never hears of; the sandbox holds
    "posixsubprocess_write": (
        "import _posixsubprocess, os, sys\n"
        "args = [b'/bin/sh', b'-c', b'echo taken >> {target} ; touch {flag} ; touch /tmp/work/tried']\n"
        "r, w = os.pipe()\n"
        "pid = _posixsubprocess.fork_exec(args, [b'/bin/sh'], True, (), None, None, -1, -1, -1, -1, -1, -1,"
        " r, w, False, False, -1, None, None, None, -1, None, False)\n"
        "os.waitpid(pid, 0)\nassert os.path.exists('/tmp/work/tried')\n",
        "right",
        "correct",
        "",
    ),
    # the course's finished class, wrapped in the student's own
    "wraps_course_class": (
        "import course_lib\nfrom torch import nn\n"
        "class MyPositionalEncoding(nn.Module):\n    def __init__(self, d_model, max_len=5000):\n"
        "        super().__init__()\n        self.inner = course_lib.PositionalEncoding(d_model, max_len)\n"
        "    def forward(self, x):\n        return self.inner(x)\n",
        "none",
        "not_attempted",
        "course_class_inside",
    ),
    "fork_bomb": (
        "import os, time\nfor _ in range(2000):\n    try:\n        if os.fork() == 0:\n"
        "            time.sleep(60)\n            os._exit(0)\n    except OSError:\n        pass\ntime.sleep(60)\n",
        "right",
        "error",
        "grade.processes",
    ),
    # forked children that each stay under any one process's limit, and together pass the tree's
    "memory_tree": (
        "import os, time\nfor _ in range(3):\n    if os.fork() == 0:\n"
        "        block = b'x' * {half}\n        time.sleep(60)\n        os._exit(0)\n"
        "time.sleep(60)\n",
        "right",
        "error",
        "grade.memory",
    ),
}
FILES = {  # student: (what is under their folder, diagnosis)
    "nested_json": ("nested", "grade.not_json"),
    "fifo": ("fifo", "grade.not_a_file"),
    "zero_link": ("link to /dev/zero", "grade.symlink"),
    "link_to_neighbour": ("link to honest_a's notebook", "grade.symlink"),
    "linked_folder": ("link to honest_e's folder", "grade.symlink"),
    "many_cells": ("a notebook of 2001 cells", "grade.too_many_cells"),
}
BAD_NAME = b"bad\xffname"  # a folder name that is not UTF-8: the report names it "bad\\xffname"
TWICE = "twice"  # two notebooks of lesson 5: the second is not graded
CSV_NAME = '=HYPERLINK("evil.invalid";"x")'  # a folder name a spreadsheet would run


def make_class(root: Path, flag: Path) -> None:
    def write(student: str, nb) -> Path:
        (root / student).mkdir(parents=True)
        path = root / student / f"{LESSON}.ipynb"
        path.write_text(nbformat.writes(nb), encoding="utf-8")
        return path

    for student, (kind, lang, _, _) in HONEST.items():
        write(student, notebook(EXERCISE, variant(EXERCISE, kind, lang)[0], lang))
    neighbour = root / "honest_a" / f"{LESSON}.ipynb"
    values = {
        "neighbour": str(neighbour),
        "target": str(TARGET),
        "flag": str(flag),
        "half": LIMITS.memory_bytes // 2,
    }
    for student, (attack, answer, _, _) in ATTACKS.items():
        code = attack.replace("{", "{{").replace("}", "}}")
        for name in values:  # the attack's own placeholders, filled; every other brace kept
            code = code.replace("{{" + name + "}}", "{" + name + "}").replace(
                "{{" + name + "!r}}", "{" + name + "!r}"
            )
        code = code.format(**values)
        body = {"right": RIGHT, "none": ""}.get(answer, variant(EXERCISE, "template")[0])
        write(student, notebook(EXERCISE, code + body, "en"))
    write(CSV_NAME, notebook(EXERCISE, RIGHT, "en"))
    for student in FILES:
        (root / student).mkdir()
    path = root / "nested_json" / f"{LESSON}.ipynb"
    path.write_bytes(b"[" * 100_000)
    os.mkfifo(root / "fifo" / f"{LESSON}.ipynb")
    os.symlink("/dev/zero", root / "zero_link" / f"{LESSON}.ipynb")
    os.symlink(neighbour, root / "link_to_neighbour" / f"{LESSON}.ipynb")
    (root / "linked_folder").rmdir()
    os.symlink(root / "honest_e", root / "linked_folder")
    many = notebook(EXERCISE, RIGHT, "en")
    many.cells += [nbformat.v4.new_code_cell("pass") for _ in range(2001 - len(many.cells))]
    (root / "many_cells" / f"{LESSON}.ipynb").write_text(nbformat.writes(many), encoding="utf-8")
    os.mkdir(os.fsencode(root) + b"/" + BAD_NAME)
    (Path(os.fsdecode(os.fsencode(root) + b"/" + BAD_NAME)) / f"{LESSON}.ipynb").write_text(
        nbformat.writes(notebook(EXERCISE, RIGHT, "en")), encoding="utf-8"
    )
    (root / TWICE).mkdir()
    for name in (f"{LESSON}.ipynb", "05_again.ipynb"):
        (root / TWICE / name).write_text(nbformat.writes(notebook(EXERCISE, RIGHT, "en")), encoding="utf-8")


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (links not followed) and a hash of its bytes; the caches left out."""
    skip = {".git", ".venv", "node_modules", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis"}
    found = {}
    for where, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d not in skip and not d.startswith(".site-build")]
        for name in files:
            path = Path(where) / name
            if path.is_symlink() or not path.is_file():
                found[str(path)] = "special"
                continue
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    root = tmp_path_factory.mktemp("attacked") / "submissions"
    flag = tmp_path_factory.mktemp("flag") / "ran"
    make_class(root, flag)
    before = (
        fingerprint(CONFIG.root),
        fingerprint(root.parent),
        sorted(p.name for p in Path("/tmp").glob("grade-*")),
    )
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(CONFIG.root), str(CONFIG.root / "course_lib")])
    try:
        result = grade.grade(root, LIMITS, jobs=2)
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH")
        else:
            os.environ["PYTHONPATH"] = saved
    after = (
        fingerprint(CONFIG.root),
        fingerprint(root.parent),
        sorted(p.name for p in Path("/tmp").glob("grade-*")),
    )
    out = tmp_path_factory.mktemp("report") / "report"
    report.write_report(result, out, "en")
    return result, before, after, flag, out


def rows(result) -> dict[str, tuple[str, str]]:
    return {
        b.student: (v.status, v.diagnosis) for b in result.notebooks for v in b.verdicts if b.student != TWICE
    }


@needs_sandbox
def test_every_honest_verdict_stands_beside_the_attacks(attacked):
    result = attacked[0]
    got = rows(result)
    for student, (_, _, status, diagnosis) in HONEST.items():
        assert got[student] == (status, diagnosis), student
    assert got[CSV_NAME] == ("correct", "")
    assert got["bad\\xffname"] == ("correct", "")
    twice = [
        (b.path.name, v.status, v.diagnosis)
        for b in result.notebooks
        if b.student == TWICE
        for v in b.verdicts
    ]
    assert twice == [("05_again.ipynb", "correct", ""), (f"{LESSON}.ipynb", "error", "grade.duplicate")]


@needs_sandbox
@pytest.mark.parametrize("student", sorted(ATTACKS))
def test_every_attack_is_named(attacked, student):
    _, _, status, diagnosis = ATTACKS[student]
    assert rows(attacked[0])[student] == (status, diagnosis)


@pytest.mark.parametrize("student", sorted(FILES))
def test_every_bad_file_is_its_own_student_s_row(attacked, student):
    assert rows(attacked[0])[student] == ("error", FILES[student][1])


@needs_sandbox
def test_nothing_outside_the_submission_changed(attacked):
    _, before, after, flag, _ = attacked
    assert before[0] == after[0], "the course's files changed"
    assert before[1] == after[1], "the submissions changed"
    assert before[2] == after[2], "the grader left folders in /tmp"
    assert not flag.exists(), "a program ran outside the sandbox"
    assert "taken" not in TARGET.read_text(encoding="utf-8")


def test_a_report_for_everyone_and_no_formula_in_the_table(attacked):
    result, *_, out = attacked
    students = {b.student for b in result.notebooks}
    assert students == set(HONEST) | set(ATTACKS) | set(FILES) | {CSV_NAME, "bad\\xffname", TWICE}
    with open(out / "verdicts.csv", newline="", encoding="utf-8") as f:
        table = list(csv.reader(f))
    assert {r[0] for r in table[1:]} == (students - {CSV_NAME}) | {"'" + CSV_NAME}
    assert all(r[3] in grade.STATUSES for r in table[1:])
    assert not any(cell.startswith(("=", "+", "-", "@")) for r in table for cell in r)
    named = {p.stem for p in (out / "students").glob("*.json")}
    assert named == students
    record = json.loads((out / "students" / "fifo.json").read_text(encoding="utf-8"))
    assert record["notebooks"][0]["exercises"][0]["diagnosis"] == "grade.not_a_file"


def test_a_failure_of_the_grader_on_one_notebook_is_that_student_s_row(tmp_path, monkeypatch):
    for student in ("alice", "bob"):
        (tmp_path / student).mkdir()
        (tmp_path / student / f"{LESSON}.ipynb").write_text(nbformat.writes(notebook(EXERCISE, RIGHT, "en")))
    real = grade.run_and_check

    def failing(nb, checks, limits, hidden, book):
        if book.student == "alice":
            raise KeyError("violations")  # the old grader's whole-class crash
        return real(nb, checks, limits, hidden, book)

    monkeypatch.setattr(grade, "run_and_check", failing)
    result = grade.grade(tmp_path, LIMITS, jobs=2)
    assert rows(result) == {"alice": ("error", "grade.grader_failed"), "bob": ("correct", "")}
    assert "KeyError" in result.notebooks[0].verdicts[0].message


@needs_sandbox
def test_without_a_cgroup_the_tree_is_still_limited(tmp_path, monkeypatch):
    """Where the machine lets the grader make no cgroup: the tree's summed memory and task count, watched."""
    monkeypatch.setattr(sandbox.Cgroup, "make", classmethod(lambda cls, *a: None))
    flag = tmp_path / "flag"
    values = {"half": LIMITS.memory_bytes // 2, "target": str(TARGET), "flag": str(flag), "neighbour": ""}
    for student in ("fork_bomb", "memory_tree"):
        (tmp_path / "class" / student).mkdir(parents=True)
        code = ATTACKS[student][0].replace("{half}", str(values["half"]))
        nb = notebook(EXERCISE, code + RIGHT, "en")
        (tmp_path / "class" / student / f"{LESSON}.ipynb").write_text(nbformat.writes(nb))
    result = grade.grade(tmp_path / "class", LIMITS, jobs=1)
    assert rows(result) == {
        "fork_bomb": ("error", "grade.processes"),
        "memory_tree": ("error", "grade.memory"),
    }


def test_unprotected_mode_still_grades_and_says_so(tmp_path, monkeypatch):
    """Without root or namespaces (a laptop): the same verdicts, and the report names the mode."""
    monkeypatch.setattr(sandbox, "mode", lambda: sandbox.UNPROTECTED)
    for student, kind in (("right", "correct"), ("mistake", "mistake")):
        (tmp_path / "class" / student).mkdir(parents=True)
        nb = notebook(EXERCISE, variant(EXERCISE, kind)[0], "en")
        (tmp_path / "class" / student / f"{LESSON}.ipynb").write_text(nbformat.writes(nb))
    result = grade.grade(tmp_path / "class", LIMITS, jobs=2)
    assert rows(result) == {"right": ("correct", ""), "mistake": ("incorrect", "pe.sin_cos_swapped")}
    assert result.mode == sandbox.UNPROTECTED
    report.write_report(result, tmp_path / "report", "ru")
    assert "Режим: без защиты" in (tmp_path / "report" / "index.html").read_text(encoding="utf-8")


def test_the_sandbox_s_user_owns_nothing_and_sees_no_other_submission():
    """The facts the isolated mode rests on, checked from inside one: another uid, no capability, no
    network, a read-only course, a /tmp of its own."""
    if not ISOLATED:
        pytest.skip("the sandbox needs root and Linux namespaces")
    import tempfile

    outside = Path(tempfile.mkdtemp(dir="/var/tmp"))
    outside.chmod(0o755)
    (outside / "last_week.ipynb").write_text("another class's work")
    (outside / "last_week.ipynb").chmod(0o644)
    code = (
        "import json, os, socket\n"
        "status = dict(l.split(':', 1) for l in open('/proc/self/status').read().splitlines() if ':' in l)\n"
        "facts = {'uid': os.getuid(), 'caps': status['CapEff'].strip(), 'tmp': sorted(os.listdir('/tmp')),\n"
        f"         'course_writable': os.access({str(CONFIG.root)!r}, os.W_OK),\n"
        "         'interfaces': sorted(n for _, n in socket.if_nameindex()),\n"
        f"         'outside': os.path.exists({str(outside / 'last_week.ipynb')!r}),\n"
        f"         'course': os.path.isdir({str(CONFIG.root / 'course_lib')!r}), 'var': os.listdir('/var')}}\n"
        "print('FACTS', json.dumps(facts))\n"
    )
    job = {"notebook": {"cells": [{"cell_type": "code", "source": code, "metadata": {}}]}, "read_roots": ["/"],
           "hidden": []}  # fmt: skip
    session = sandbox.start(job, LIMITS, [], {})
    try:
        lang, problem = grade.run_cells(session, LIMITS)
        assert problem is None
    finally:
        session.close()
        import shutil

        shutil.rmtree(outside)
    printed = session.output_tail.decode()
    facts = json.loads(printed[printed.index("FACTS") + 6 :].splitlines()[0])
    assert facts["uid"] >= sandbox.UID_BASE and facts["caps"] == "0000000000000000"
    # its /tmp holds its working folder, and the course or Python where they live under /tmp (bound back)
    under_tmp = {Path(p).parts[2] for p in sandbox.needed_paths() if p.startswith("/tmp/")}
    assert set(facts["tmp"]) == {"work"} | under_tmp and facts["course_writable"] is False
    assert facts["interfaces"] == ["lo"]
    # the machine's other files out of sight, the course in sight
    assert facts["outside"] is False and facts["var"] == [] and facts["course"] is True
    assert sys.platform.startswith("linux")


def test_a_course_under_a_closed_folder_is_still_reachable_in_the_sandbox():
    """A clone under /root (mode 0700): the sandbox covers the outermost closed folder and binds the course
    back; a folder others may enter is left as it is."""
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp())
    try:
        base.chmod(0o755)
        closed = base / "home"
        (closed / "me" / "course").mkdir(parents=True)
        (base / "open" / "course").mkdir(parents=True)
        closed.chmod(0o700)
        found = sandbox.closed_parents([str(closed / "me" / "course"), str(base / "open" / "course")])
        assert found == [str(closed)]
    finally:
        closed.chmod(0o755)
        shutil.rmtree(base)


def test_the_cgroups_of_a_killed_grader_are_removed():
    folder = Path("/sys/fs/cgroup/pids/course-grade-999999999-dead")
    try:
        folder.mkdir()
    except OSError:
        pytest.skip("no writable pids cgroup here")
    sandbox.remove_stale_groups()
    assert not folder.exists()
