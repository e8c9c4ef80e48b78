"""lab/course_jupyterlab.py: a notebook that is not trusted is served without its saved widget state.

Before: JupyterLab's widget manager restored the saved state of any notebook it opened, trusted or not,
and an anywidget model imports its saved module (``_esm``) when it is made: a sent notebook ran its
module on being opened, whatever ``make lab`` signed (tests/browser/test_lab_trust.py shows it in
JupyterLab).
"""

import asyncio
import json
import subprocess
import sys

import course_jupyterlab  # lab/, the package course-jupyterlab that make installs
import nbformat
import pytest
import yaml
from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from nbformat.sign import NotebookNotary

STATE = {
    "application/vnd.jupyter.widget-state+json": {
        "state": {
            "m": {
                "model_module": "anywidget",
                "model_name": "AnyModel",
                "model_module_version": "~0.11.*",
                "state": {"_esm": "window.courseForeignRan = true; export default {};"},
            }
        },
        "version_major": 2,
        "version_minor": 0,
    }
}


def notebook() -> str:
    cell = {
        "cell_type": "code",
        "id": "c",
        "metadata": {},
        "source": "x",
        "execution_count": None,
        "outputs": [],
    }
    nb = {"cells": [cell], "metadata": {"widgets": STATE}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1)


OTHER = {"application/vnd.jupyter.widget-state+json": {"state": {}, "version_major": 2, "version_minor": 0}}


@pytest.fixture
def manager(tmp_path, monkeypatch):
    """The course's contents manager as every server has it (over Jupytext's) on ``tmp_path/root``, with
    this user's signatures in ``tmp_path``; ``sign(text)`` signs a notebook as JupyterLab does."""
    data_dir = tmp_path / "jupyter-data"
    data_dir.mkdir()
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(data_dir))
    (tmp_path / "root").mkdir()
    cls = course_jupyterlab.contents_manager_class(AsyncLargeFileManager, jupytext=True)

    def sign(text: str) -> None:
        with NotebookNotary(data_dir=str(data_dir)) as notary:
            notary.sign(nbformat.reads(text, as_version=4))

    return cls(root_dir=str(tmp_path / "root")), sign


def served(manager, path: str) -> dict:
    return asyncio.run(manager.get(path, content=True))["content"]


def test_an_untrusted_notebook_is_served_without_its_saved_widget_state(manager, tmp_path):
    cm, _ = manager
    (tmp_path / "root" / "sent.ipynb").write_text(notebook(), encoding="utf-8")
    content = served(cm, "sent.ipynb")
    assert "widgets" not in content["metadata"]
    assert content["cells"][0]["metadata"]["trusted"] is False
    assert json.loads((tmp_path / "root" / "sent.ipynb").read_text(encoding="utf-8")) == json.loads(
        notebook()
    )


def test_a_trusted_notebook_keeps_its_saved_widget_state(manager, tmp_path):
    cm, sign = manager
    (tmp_path / "root" / "lesson.ipynb").write_text(notebook(), encoding="utf-8")
    sign(notebook())
    content = served(cm, "lesson.ipynb")
    assert content["metadata"]["widgets"] == STATE
    assert content["cells"][0]["metadata"]["trusted"] is True


def text_notebook(state: dict) -> str:
    """A Jupytext Markdown notebook whose header carries widget state (Jupytext reads it as metadata)."""
    header = yaml.safe_dump({"jupyter": {"widgets": state}})
    return f"---\n{header}---\n\n```python\nx\n```\n"


def test_a_text_notebook_s_header_brings_no_widget_state(manager, tmp_path):
    """A text notebook has no signature: opened as a notebook (Jupytext), its header's state is left out."""
    cm, _ = manager
    (tmp_path / "root" / "sent.md").write_text(text_notebook(STATE), encoding="utf-8")
    content = served(cm, "sent.md")
    assert "widgets" not in content["metadata"] and content["cells"][0]["source"] == "x"


def test_a_signed_notebook_paired_with_a_text_file_serves_its_own_state_only(manager, tmp_path):
    """lesson.ipynb signed, paired (Jupytext) with lesson.md whose header carries other state: whichever
    file Jupytext reads the metadata from, the state served is never the text file's."""
    cm, sign = manager
    nb = json.loads(notebook())
    nb["metadata"]["jupytext"] = {"formats": "ipynb,md"}
    signed = json.dumps(nb, indent=1)
    (tmp_path / "root" / "lesson.ipynb").write_text(signed, encoding="utf-8")
    sign(signed)
    (tmp_path / "root" / "lesson.md").write_text(text_notebook(OTHER), encoding="utf-8")
    for path in ("lesson.ipynb", "lesson.md"):
        assert served(cm, path)["metadata"].get("widgets", STATE) == STATE, path


def test_every_server_of_the_environment_uses_it_over_jupytext():
    """Enabled by lab/jupyter_server_config.d/ for every server (make lab, the hub, the browser tests): the
    server's contents manager is the course's, over Jupytext's, which Jupytext's extension keeps."""
    code = (
        "from jupyter_server.serverapp import ServerApp\n"
        "app = ServerApp()\n"
        "app.initialize(argv=['--ServerApp.open_browser=False', '--ServerApp.port=0'])\n"
        "mro = [f'{c.__module__}.{c.__name__}' for c in type(app.contents_manager).__mro__]\n"
        "print(mro[0], mro[1], 'jupytext.async_contentsmanager.AsyncJupytextContentsManager' in mro)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.split() == [
        "course_jupyterlab.CourseAsyncJupytextContentsManager",
        "course_jupyterlab.UntrustedWithoutWidgetState",
        "True",
    ], out.stdout + out.stderr[-2000:]
    assert "already - OK" in out.stderr  # Jupytext kept the class: it did not derive its own over it
