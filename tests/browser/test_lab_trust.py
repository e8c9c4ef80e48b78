"""`make lab` trusts the course's lessons and nothing else: a notebook sent by a classmate, put beside
the lessons, runs none of its saved JavaScript when the student opens it in JupyterLab.

The workspace is prepared by the Makefile's own step (the first line of ``lab``'s recipe, run on the
served folder) with this user's signatures in a Jupyter data folder of the test's own. Each sent
notebook carries a script that sets a window variable and writes a file through JupyterLab's contents
API (what the issue reproduced: it could as well start a terminal). The test then signs them as the
Makefile did before (``jupyter trust``) and opens them again: the same scripts run then, so the test
sees a script that runs.
"""

import json
import re
import shlex
import subprocess
import sys
import time

import pytest

from course_tools.core.config import CONFIG
from tests.browser.conftest import ROOT
from tests.browser.test_explorers import LESSON, explorers_on
from tests.browser.test_jupyterlab import NOTEBOOK_READY, TIMEOUT_MS
from tests.browser.test_jupyterlab import PANEL as PANEL_EXPRESSION

pytestmark = [pytest.mark.browser, pytest.mark.lab, pytest.mark.usefixtures("notebooks_untouched")]

PANEL = f"({PANEL_EXPRESSION})"
# a script had time to run: the outputs are drawn, the saved widgets restored once the kernel is ready
SETTLE_S = 4

# Sets window.courseForeignRan and writes NAME.ran through the contents API, as the page's own code
# would (its token, or the _xsrf cookie of the logged-in page)
PAYLOAD = """(function () {
  window.courseForeignRan = (window.courseForeignRan || []).concat(['NAME']);
  const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
  const xsrf = (document.cookie.match(/_xsrf=([^;]+)/) || [])[1] || '';
  const headers = {'Content-Type': 'application/json', 'X-XSRFToken': xsrf};
  if (config.token) headers['Authorization'] = 'token ' + config.token;
  fetch(config.baseUrl + 'api/contents/en/NAME.ran', {
    method: 'PUT', headers, credentials: 'same-origin',
    body: JSON.stringify({type: 'file', format: 'text', content: 'ran'}),
  });
})();"""


def payload(name: str) -> str:
    return PAYLOAD.replace("NAME", name)


def notebook(cells: list, widgets: dict | None = None) -> str:
    meta = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}}
    if widgets:
        meta["widgets"] = {"application/vnd.jupyter.widget-state+json": widgets}
    return json.dumps({"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def code_cell(source: str, *outputs: dict) -> dict:
    return {
        "cell_type": "code",
        "id": f"c{abs(hash(source)) % 10**8}",
        "metadata": {},
        "source": source,
        "execution_count": 1,
        "outputs": list(outputs),
    }


def shown(data: dict) -> dict:
    return {"output_type": "display_data", "data": data, "metadata": {}}


def scripted_outputs(name: str) -> list[dict]:
    """The saved outputs a trusted notebook runs: JavaScript, and HTML with a script."""
    return [
        shown({"application/javascript": payload(f"{name}-js"), "text/plain": "<js>"}),
        shown({"text/html": f"<b>solution</b><script>{payload(f'{name}-html')}</script>", "text/plain": "x"}),
    ]


def solutions() -> str:
    """A "solutions" notebook from a classmate: outputs with scripts."""
    return notebook([code_cell("answer = 42", *scripted_outputs("solutions"))])


def with_widget(name: str) -> str:
    """A notebook whose saved widget state holds an anywidget model with a module of its own (``_esm``)
    and an output that shows it, as a course explorer is saved."""
    lesson = json.loads(CONFIG.notebook(LESSON, "en").read_text(encoding="utf-8"))
    state = lesson["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
    model_id, model = next((k, v) for k, v in state["state"].items() if v["model_name"] == "AnyModel")
    layout = model["state"]["layout"].removeprefix("IPY_MODEL_")
    model = json.loads(json.dumps(model))
    model["state"]["_esm"] = payload(name) + "\nexport default { render() {} };\n"
    view = shown({"application/vnd.jupyter.widget-view+json": {"model_id": model_id, "version_major": 2}})
    widgets = {
        "state": {model_id: model, layout: state["state"][layout]},
        "version_major": 2,
        "version_minor": 0,
    }
    return notebook([code_cell("explorer", view)], widgets)


def tampered_lesson() -> tuple[str, str]:
    """Lesson 0 as the course ships it, its cells unchanged, a script added to a code cell's outputs:
    the manifest's fingerprint (cells only) still calls it the course's."""
    name = CONFIG.lesson_names()[0]
    nb = json.loads(CONFIG.notebook(name, "en").read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
    cell["outputs"] = cell.get("outputs", []) + scripted_outputs("lesson")
    return name, json.dumps(nb, indent=1, ensure_ascii=False)


def make_lab_step(root) -> list[str]:
    """The first command of the Makefile's ``lab`` recipe, on the workspace ``root``."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^lab: .*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    first = recipe.splitlines()[0].strip()
    assert first.startswith("$(BIN)/python -m course_tools.workspace "), first
    args = shlex.split(first.removeprefix("$(BIN)/python"))
    return [sys.executable, *args, "--workspace", str(root)]


def open_notebook(page, lab, rel: str, settle: bool = True) -> None:
    """Open ``rel`` and wait until it is shown; then, where the test asserts that nothing ran (``settle``),
    give a script time to run. Where it waits for scripts that must run, that wait is the test's own."""
    page.goto(lab.url(f"lab/tree/{rel}"))
    page.wait_for_function(
        f"path => {PANEL} && {PANEL}.context && {PANEL}.context.path === path", arg=rel, timeout=TIMEOUT_MS
    )
    page.wait_for_function(NOTEBOOK_READY, timeout=TIMEOUT_MS)
    if settle:
        time.sleep(SETTLE_S)


NOTHING = {"window": [], "files": []}


def ran(page, lab) -> dict[str, list[str]]:
    """What the scripts did: the window variable, and the files written through the contents API."""
    return {
        "window": page.evaluate("() => window.courseForeignRan || []"),
        # a record written twice passes through jupyter_server's backup copy, `.~NAME` (fileio's
        # atomic_writing keeps it while it rewrites NAME): it is the same script's record, not another's
        "files": sorted({p.name.removeprefix(".~") for p in (lab.root_dir / "en").glob("*.ran")}),
    }


def test_a_notebook_sent_by_a_classmate_runs_nothing_and_the_lessons_stay_trusted(
    jupyterlab, guarded_page, tmp_path, monkeypatch
):
    page, traffic = guarded_page
    # this user's signatures (the server's and `make lab`'s), in a folder of the test's own
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter-data"))
    lab = jupyterlab()
    root = lab.root_dir
    sent = {"en/solutions.ipynb": solutions(), "en/explorer_solutions.ipynb": with_widget("widget")}
    lesson_0, tampered = tampered_lesson()
    sent[f"en/{lesson_0}.ipynb"] = tampered
    for rel, data in sent.items():
        (root / rel).write_text(data, encoding="utf-8")

    step = subprocess.run(make_lab_step(root), capture_output=True, text=True, timeout=120, check=True)
    assert "could not be marked trusted" not in step.stdout, step.stdout

    # every sent notebook opens with nothing run; then the lesson, trusted: its explorers drawn from the
    # saved state (JupyterLab restores the notebooks open before beside it: a late script shows there)
    for rel in sent:
        open_notebook(page, lab, rel)
        assert ran(page, lab) == NOTHING, f"{rel} ran its saved JavaScript"
    open_notebook(page, lab, f"en/{LESSON}.ipynb")
    explorers_on(page)
    assert ran(page, lab) == NOTHING
    traffic.assert_clean()

    # the same notebooks signed as the Makefile did before: their scripts run, and the test sees them
    subprocess.run(
        [sys.executable, "-m", "jupyter", "trust", *(str(root / rel) for rel in sent)],
        check=True,
        capture_output=True,
    )
    expected = {
        "en/solutions.ipynb": ["solutions-html", "solutions-js"],
        "en/explorer_solutions.ipynb": ["widget"],
        f"en/{lesson_0}.ipynb": ["lesson-html", "lesson-js"],
    }
    for rel, names in expected.items():
        open_notebook(page, lab, rel, settle=False)
        page.wait_for_function(
            "names => names.every(n => (window.courseForeignRan || []).includes(n))",
            arg=names,
            timeout=TIMEOUT_MS,
        )
    files = sorted(f"{name}.ran" for names in expected.values() for name in names)
    deadline = time.monotonic() + 10
    while ran(page, lab)["files"] != files and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ran(page, lab)["files"] == files
    assert lab.outside_requests() == []
