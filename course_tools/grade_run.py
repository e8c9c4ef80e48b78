"""Grade one submission in one kernel: ``python -m course_tools.grade_run < job.json``.

``course_tools.grade`` starts this once per notebook, inside its sandbox, with the job on stdin:
the notebook's path (a copy, alone in a temporary folder), the exercises to check and the name each
check is called with, the limits, and a nonce. It runs every code cell of the notebook except
those tagged ``grade-skip`` (nbclient, errors allowed, a time limit per cell), then one cell of its
own that calls ``course_lib.exercises.<name>.check`` on the student's object, and prints one line:
the nonce and the verdicts as JSON. The nonce is sent after the student's code has run, so nothing
the notebook prints can pass for a verdict.

The memory limit (``RLIMIT_AS``) is set on this process and so on the kernel it starts; the output
limit is counted here, as the kernel's messages arrive (past it, the kernel is killed); the time limit
is nbclient's, per cell. The whole run's deadline is the parent's.
"""

import json
import os
import resource
import sys
from pathlib import Path
from subprocess import DEVNULL

import nbformat
from jupyter_client import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

SKIP_TAG = "grade-skip"
GUARD_SOURCE = (Path(__file__).parent / "grade_guard.py").read_text()


class GradingClient(NotebookClient):
    """nbclient, counting the bytes of every output message: past the limit, the kernel is killed."""

    def __init__(self, nb, max_output_bytes: int, **kwargs):
        super().__init__(nb, **kwargs)
        self.max_output_bytes = max_output_bytes
        self.output_bytes = 0

    @property
    def too_much_output(self) -> bool:
        return self.output_bytes > self.max_output_bytes

    def output(self, outs, msg, display_id, cell_index):
        content = msg["content"]
        self.output_bytes += len(content.get("text", "")) + sum(
            map(len, map(str, content.get("data", {}).values()))
        )
        if not self.too_much_output:
            return super().output(outs, msg, display_id, cell_index)
        process = getattr(self.km.provisioner, "process", None)
        if process is not None and process.poll() is None:
            process.kill()  # nbclient then reports a dead kernel
        return None


def checks_cell(checks: dict[str, str], nonce: str) -> str:
    """The grader's last cell: each exercise checked on the student's object, printed after the nonce."""
    return f"""
import json as _grade_json
from course_lib import exercises as _grade_exercises

def _grade_plain(value):
    return value if isinstance(value, (bool, int, float, str)) or value is None else str(value)

_grade_out = []
for _grade_name, _grade_arg in {sorted(checks.items())!r}:
    if _grade_arg not in globals():
        _grade_out.append(dict(exercise=_grade_name, status="not_attempted", key="grade.not_defined",
                               message=_grade_arg, values={{}}))
        continue
    _grade_fb = getattr(_grade_exercises, _grade_name).check(globals()[_grade_arg])
    _grade_out.append(dict(exercise=_grade_name, status=_grade_fb.status, key=_grade_fb.key,
                           message=_grade_fb.message,
                           values={{k: _grade_plain(v) for k, v in _grade_fb.values.items()}}))
import sys as _grade_sys
_grade_sys.stdout.write({nonce!r} + " " + _grade_json.dumps(dict(verdicts=_grade_out, violations=_GRADE_GUARD.violations)) + "\\n")
_grade_sys.stdout.flush()
"""


# Babel's locale data, read before the guard: unpickling it imports babel.dates, whose import reads the
# machine's time zone (/etc/localtime, /usr/share/zoneinfo), a file no lesson asks for; the numbers'
# symbols are cached, so a lesson's format_number reads nothing afterwards
WARM_UP = "import course_lib.i18n as _grade_i18n\nfor _grade_lang in _grade_i18n.LANGUAGE_INFO:\n    _grade_i18n.decimal_mark(_grade_lang)\n"


def guard_cell(job: dict) -> str:
    roots = job["read_roots"]
    return (
        f"{WARM_UP}{GUARD_SOURCE}\n"
        f"_GRADE_GUARD = install({roots!r}, {[job['workdir']]!r}, {job['submissions']!r})\n"
    )


def verdict_line(outputs: list, nonce: str) -> dict | None:
    """The JSON after the nonce in a cell's stdout; the kernel may send one line in several messages."""
    printed = "".join(o.get("text", "") for o in outputs if o.get("name") == "stdout")
    for line in printed.splitlines():
        if line.startswith(nonce + " "):
            return json.loads(line[len(nonce) + 1 :])
    return None


def run(job: dict) -> dict:
    """The verdicts of one notebook, or ``{"error": key}`` when it could not be graded to the end."""
    workdir = job["workdir"]
    nb = nbformat.read(job["notebook"], as_version=4)
    nb.cells = [c for c in nb.cells if c.cell_type == "code" and SKIP_TAG not in c.metadata.get("tags", [])]
    nb.cells.insert(0, nbformat.v4.new_code_cell(guard_cell(job)))
    nb.cells.append(nbformat.v4.new_code_cell(checks_cell(job["checks"], job["nonce"])))
    limit = job["memory_bytes"]
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "JPY"))}
    env.update(
        HOME=workdir, TMPDIR=f"{workdir}/tmp", IPYTHONDIR=f"{workdir}/.ipython", MPLBACKEND="Agg",
        MPLCONFIGDIR=job["mpl_dir"], OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
    )  # fmt: skip
    os.makedirs(env["TMPDIR"], exist_ok=True)
    # Unix sockets rather than TCP: the kernel's sandbox has no network at all
    km = AsyncKernelManager(kernel_name="python3", transport="ipc", ip=f"{workdir}/kernel")
    client = GradingClient(
        nb, job["max_output_bytes"], km=km, timeout=job["cell_seconds"], allow_errors=True,
        resources={"metadata": {"path": workdir}}, startup_timeout=120,
    )  # fmt: skip
    try:
        client.execute(env=env, stdout=DEVNULL, stderr=DEVNULL, cleanup_kc=True)
    except CellTimeoutError:
        return {"error": "grade.timeout"}
    except DeadKernelError:
        return {"error": "grade.output_too_large" if client.too_much_output else "grade.kernel_died"}
    found = verdict_line(nb.cells[-1].get("outputs", []), job["nonce"])
    if found is not None:
        return found
    seen = [o.get("ename") or o.get("text", "")[-300:] for o in nb.cells[-1].get("outputs", [])]
    return {"error": "grade.no_verdict", "outputs": seen}


if __name__ == "__main__":
    job = json.loads(sys.stdin.read())
    result = run(job)
    sys.stdout.write(f"\n{job['nonce']} {json.dumps(result)}\n")
