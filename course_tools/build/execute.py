"""Run a rendered lesson in a fresh kernel, as a student's JupyterLab would.

The kernel is ``python3`` (the course's environment), started in the notebook's own folder
(``notebooks/<lang>/``) with ``PYTHONHASHSEED=0``, so that the outputs are the same on every
run; widget state is stored in the notebook, so the sliders render on GitHub and in the
decks, under ids made from the lesson and the widget's place in it (:func:`stable_widget_ids`),
so that building a lesson again writes the same file. A cell that fails raises :class:`ExecutionError`, whose message names the lesson, the
language, the cell (its number and its first line) and the error, without the traceback's
pages of colour codes.
"""

import hashlib
import json
import os
import re
from pathlib import Path

import nbformat

__all__ = ["ExecutionError", "execute", "coalesce_streams", "stable_widget_ids", "CELL_TIMEOUT_S"]

#: The longest a lesson cell may run; every cell takes a few seconds at most on a laptop.
CELL_TIMEOUT_S = 120

ANSI = re.compile(r"\x1b\[[0-9;]*m")
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
MODEL_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


class ExecutionError(RuntimeError):
    """A lesson that did not run to the end."""


def lesson_client(nb: nbformat.NotebookNode, cwd: Path, **hooks):
    """An nbclient ``NotebookClient`` for ``nb`` as the lesson build runs it: the course's cell
    timeout, the kernel started in ``cwd``, widget state kept, no cell allowed to fail; ``hooks``
    are nbclient's callbacks (``on_cell_start=...``). ``benchmarks/bench_lessons.py`` times lessons with it."""
    from nbclient import NotebookClient

    return NotebookClient(
        nb,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(cwd)}},
        record_timing=False,
        store_widget_state=True,
        allow_errors=False,
        **hooks,
    )


def kernel_env(root: Path | None = None, env: dict[str, str] | None = None) -> dict[str, str]:
    """The kernel's environment: this process's, plus ``env``, with a fixed hash seed (set ordering
    in printed outputs depends on it) and ``root`` first on ``PYTHONPATH`` when given."""
    env = dict(os.environ, **(env or {}), PYTHONHASHSEED="0")
    if root is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH", "")]))
    return env


def execute(
    nb: nbformat.NotebookNode,
    *,
    lesson: str,
    lang: str,
    cwd: Path,
    root: Path | None = None,
    where=None,
    env: dict[str, str] | None = None,
) -> nbformat.NotebookNode:
    """Run every cell of ``nb`` in place, keeping outputs and widget state; return ``nb``.

    Args:
        nb: the rendered, unexecuted notebook.
        lesson: the lesson's name, for messages.
        lang: the notebook's language, for messages.
        cwd: the folder the kernel starts in.
        root: a folder put first on the kernel's ``PYTHONPATH``: the checkout whose
            ``course_lib`` the lessons are built with (whatever else is installed).
        where: ``where(index)`` names the source line of notebook cell ``index`` in messages.
        env: variables set in the kernel's environment besides this process's (the portability
            test's rebuild runs the kernel as on another machine: ``tests/portability/rebuild.py``).
    """
    from nbclient.exceptions import CellExecutionError

    running: dict = {}

    def started(cell, cell_index, **_):
        running["index"] = cell_index

    client = lesson_client(nb, cwd, on_cell_start=started)
    cwd.mkdir(parents=True, exist_ok=True)
    try:
        client.execute(env=kernel_env(root, env))
    except CellExecutionError as error:
        raise ExecutionError(
            _describe(nb, lesson, lang, running.get("index"), where, f"{error.ename}: {error.evalue}")
        ) from None
    except Exception as error:  # a timeout, a kernel that died or is not installed
        detail = ANSI.sub("", str(error)).strip().splitlines()
        raise ExecutionError(
            _describe(
                nb,
                lesson,
                lang,
                running.get("index"),
                where,
                f"{type(error).__name__}: {detail[0] if detail else ''}",
            )
        ) from None
    return stable_widget_ids(coalesce_streams(nb), f"{lesson}/{lang}")


def stable_widget_ids(nb: nbformat.NotebookNode, seed: str) -> nbformat.NotebookNode:
    """Give every saved widget an id made from ``seed`` and its place in ``nb``, in place.

    A kernel names its widgets with random UUIDs, so each build of a lesson would rewrite
    every widget of the committed notebook under new names (and in a new order: the state is
    saved sorted by id). Here the widgets are numbered in the order a reader meets them: the
    outputs, cell by cell, each followed by the widgets it refers to, depth first; a widget no
    output refers to comes after, in the order of its saved state with references blanked.
    """
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    if not state:
        return nb
    order: list[str] = []

    def visit(model_id: str) -> None:
        if model_id in state and model_id not in order:
            order.append(model_id)
            for ref in MODEL_REF.findall(json.dumps(state[model_id], sort_keys=True)):
                visit(ref)

    for cell in nb.cells:
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(WIDGET_VIEW)
            if view:
                visit(view["model_id"])

    def content(model_id: str) -> str:
        return MODEL_REF.sub("IPY_MODEL_", json.dumps(state[model_id], sort_keys=True))

    for model_id in sorted(set(state) - set(order), key=content):
        visit(model_id)
    new_ids = {old: hashlib.sha256(f"{seed}/{n}".encode()).hexdigest()[:32] for n, old in enumerate(order)}
    text = re.sub(
        r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])",
        lambda m: new_ids.get(m.group(0), m.group(0)),
        json.dumps(nb),
    )
    renamed = nbformat.from_dict(json.loads(text))
    nb.clear()
    nb.update(renamed)
    return nb


def coalesce_streams(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Join consecutive pieces of the same stream in each cell's outputs, in place.

    How a kernel cuts one cell's printout into stream messages depends on timing (a busy
    machine flushes mid-print), so the same cell may come back as one stdout output or
    two. Joined, the committed notebook is the same whatever the machine did.
    """
    for cell in nb.cells:
        merged = []
        for out in cell.get("outputs", []):
            last = merged[-1] if merged else None
            if (
                out.get("output_type") == "stream"
                and last is not None
                and last.get("output_type") == "stream"
                and last.get("name") == out.get("name")
            ):
                last["text"] += out["text"]
            else:
                merged.append(out)
        if "outputs" in cell:
            cell["outputs"] = merged
    return nb


def _describe(nb, lesson: str, lang: str, index: int | None, where, error: str) -> str:
    if index is None:
        return f"{lesson} [{lang}]: the kernel did not start: {error}"
    lines = nb.cells[index].source.strip().splitlines()
    first = lines[0] if lines else ""
    place = f" ({where(index)})" if where else ""
    return f"{lesson} [{lang}], notebook cell {index + 1}{place}, `{first}`: {error}"
