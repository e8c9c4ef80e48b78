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


@pytest.fixture
def manager(tmp_path, monkeypatch):
    """The course's contents manager on ``tmp_path/root``, with this user's signatures in ``tmp_path``."""
    data_dir = tmp_path / "jupyter-data"
    data_dir.mkdir()
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(data_dir))
    (tmp_path / "root").mkdir()
    cls = course_jupyterlab.contents_manager_class(AsyncLargeFileManager)
    return cls(root_dir=str(tmp_path / "root")), data_dir


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
    cm, data_dir = manager
    (tmp_path / "root" / "lesson.ipynb").write_text(notebook(), encoding="utf-8")
    with NotebookNotary(data_dir=str(data_dir)) as notary:
        notary.sign(nbformat.reads(notebook(), as_version=4))
    content = served(cm, "lesson.ipynb")
    assert content["metadata"]["widgets"] == STATE
    assert content["cells"][0]["metadata"]["trusted"] is True


def test_every_server_of_the_environment_uses_it_under_jupytext():
    """Enabled by lab/jupyter_server_config.d/ for every server (make lab, the hub, the browser tests); it
    derives from the configured manager when linked, and Jupytext's own derives from it."""
    code = (
        "from jupyter_server.serverapp import ServerApp\n"
        "from course_jupyterlab import UntrustedWithoutWidgetState\n"
        "app = ServerApp()\n"
        "app.initialize(argv=['--ServerApp.open_browser=False', '--ServerApp.port=0'])\n"
        "mro = type(app.contents_manager).__mro__\n"
        "print(isinstance(app.contents_manager, UntrustedWithoutWidgetState), mro[0].__module__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.split() == ["True", "jupytext.async_contentsmanager"], out.stdout + out.stderr[-2000:]
