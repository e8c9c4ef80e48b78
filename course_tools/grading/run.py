"""One submission's code, inside its sandbox: ``python -I -c "...run.main()"`` (started by
:mod:`course_tools.grading.sandbox`).

Everything in this process is the student's: it runs their notebook's code, so anything it says
may be forged. It decides nothing. The grader (:mod:`course_tools.grade`) sends the job on stdin
(the notebook as JSON, already read and validated outside, and the names to check), and talks to
this process over one socket (its file descriptor in the job), in length-prefixed frames
(:mod:`course_lib.exercises.child`'s protocol):

1. this process runs every code cell of the notebook except those tagged ``grade-skip``, in an
   IPython shell (the same one ipykernel runs, without a kernel), errors allowed, and sends
   ``("cell", i)`` as each cell starts (the grader keeps each cell's time limit) and ``("ready", lang)``
   at the end (the language the notebook set, which the verdict is written in);
2. then it answers the grader's calls on the student's objects exactly as a check's child answers
   a notebook (``("begin", name)`` names the object of the next check), with plain values only;
   the grader compares them with its own reference and writes the verdict.

The audit hook (:mod:`course_tools.grading.guard`) is installed before the first cell and sends each
rule the code breaks as ``("violation", key, detail)`` the moment it happens, so a later cell cannot
take it back. What the code prints goes to stdout/stderr, which the grader counts and discards.
"""

import functools
import json
import os
import pickle
import sys

SKIP_TAG = "grade-skip"

__all__ = ["SKIP_TAG", "code_cells", "main"]


def code_cells(nb: dict) -> list[str]:
    """The sources of the cells the grader runs: code cells, not tagged ``grade-skip``."""
    cells = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code" or SKIP_TAG in (cell.get("metadata", {}).get("tags") or []):
            continue
        source = cell.get("source", "")
        cells.append("".join(source) if isinstance(source, list) else str(source))
    return cells


def _shell():
    """IPython's shell as ipykernel runs it, minus the kernel: no history file, figures drawn off-screen."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False  # no SQLite file, no history thread
    config.InteractiveShell.colors = "NoColor"
    config.InteractiveShell.xmode = "Plain"
    return InteractiveShell.instance(config=config)


def main() -> None:
    from course_lib.exercises.child import _facts, _guarded, _receive, _send, _serve, dumps_plain

    from . import guard

    job = json.loads(sys.stdin.read())
    channel = job["channel"]

    def send(message) -> None:
        _send(channel, dumps_plain(message))

    # Babel's locale data, read before the guard: unpickling it imports babel.dates, whose import reads
    # the machine's time zone, a file no lesson asks for; the numbers' symbols are cached afterwards;
    # and the messages' translations (course_lib/locale/), which the verdicts read
    import course_lib.i18n as i18n

    for lang in i18n.LANGUAGE_INFO:
        i18n.decimal_mark(lang)
        i18n.load_translations(lang)
    os.chdir(job["workdir"])
    os.makedirs(os.environ["MPLCONFIGDIR"], exist_ok=True)
    for name, text in job.get("mpl_cache", {}).items():  # matplotlib's font list, built once by the grader
        if "/" not in name:
            with open(os.path.join(os.environ["MPLCONFIGDIR"], name), "w", encoding="utf-8") as f:
                f.write(text)
    shell = _shell()
    namespace = shell.user_ns
    guard.install(
        [*job["read_roots"], job["workdir"], *(p for p in sys.path if p)], [job["workdir"]], job["hidden"],
        report=lambda key, detail: send(("violation", key, detail)),
    )  # fmt: skip
    for index, source in enumerate(code_cells(job["notebook"])):
        send(("cell", index))
        try:
            shell.run_cell(source, store_history=False, silent=False)
        except BaseException:  # SystemExit and the like: the cell failed, the notebook goes on
            pass
        for stream in (sys.stdout, sys.stderr):  # counted by the grader as it comes, not at the end
            try:
                stream.flush()
            except Exception:
                pass
    send(("ready", i18n.get_language()))  # the language the student's notebook set: the verdict's
    objects: list = []
    while True:
        request = _receive(channel)
        if request is None:
            break
        message = pickle.loads(request)  # from the grader, the one side this process can trust
        if isinstance(message, tuple) and message and message[0] == "begin":
            name = message[1]
            if name not in namespace:
                send(("missing",))
                continue
            objects = [namespace[name]]
            send(_guarded(functools.partial(_facts, objects[0])))
        else:
            _send(channel, _serve(message, objects))
    sys.stdout.flush()
    os._exit(0)  # the student's threads and atexit handlers get no say


if __name__ == "__main__":
    main()
