"""A student's workspace in JupyterLab: opening a lesson leaves it clean, running and saving it
leaves it the course's, editing a cell makes it the student's.

JupyterLab writes the kernel's name and ``language_info`` into a notebook as soon as its kernel
starts: when they differ from what the notebook carries, the lesson is marked unsaved at once and
autosave rewrites it. With the kernel installed under the name the notebooks carry
(``course_tools.build.source.KERNELSPEC``, the Makefile's ``ipykernel install``), opening changes
nothing. And whatever JupyterLab's save writes (outputs, execution counts, cell ids, source as a
list of lines), ``course_tools.workspace`` counts a lesson as the student's only when a cell
changed.
"""

import json

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from course_tools.classroom import workspace
from course_tools.core.config import CONFIG, LANGUAGES, Config
from tests.browser.test_jupyterlab import NOTEBOOK_READY, TIMEOUT_MS
from tests.browser.test_jupyterlab import PANEL as PANEL_EXPRESSION

pytestmark = [pytest.mark.browser, pytest.mark.lab, pytest.mark.usefixtures("notebooks_untouched")]

RUN_ONLY = CONFIG.lesson_names()[0]  # the student runs its first code cell and saves
EDIT = CONFIG.lesson_names()[1]  # the student edits its first code cell and saves
# how long a freshly opened lesson must stay clean: the kernel's info arrives after it is idle
STAYS_CLEAN_MS = 3_000

PANEL = f"({PANEL_EXPRESSION})"
DIRTY = f"() => {PANEL}.context.model.dirty"
FIRST_CODE_CELL = f"() => {PANEL}.content.widgets.findIndex(cell => cell.model.type === 'code')"
SAVED = f"() => !{PANEL}.context.model.dirty"
MINE = 'x = "my answer"'


def _open(page, lab, name: str) -> None:
    page.goto(lab.url(f"lab/tree/en/{name}.ipynb"))
    # JupyterLab restores the lesson opened before as well: wait until this one is the current panel,
    # else an edit meant for it lands in the other (seen in a fresh clone's run: lesson 0 got it)
    page.wait_for_function(
        f"path => {PANEL} && {PANEL}.context && {PANEL}.context.path === path",
        arg=f"en/{name}.ipynb",
        timeout=TIMEOUT_MS,
    )
    page.wait_for_function(NOTEBOOK_READY, timeout=TIMEOUT_MS)


def _save(page) -> None:
    page.evaluate("jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function(SAVED, timeout=TIMEOUT_MS)


def _next_version(root) -> Config:
    """The course's notebooks with the first code cell of every lesson changed: a course update."""
    config = Config(root=root)
    for lang in LANGUAGES:
        config.notebooks_dir(lang).mkdir(parents=True)
        for path in CONFIG.notebooks_dir(lang).glob("*.ipynb"):
            nb = json.loads(path.read_text(encoding="utf-8"))
            cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
            cell["source"] = "".join(cell["source"]) + "\n# the next version"
            config.notebook(path.stem, lang).write_text(json.dumps(nb, indent=1), encoding="utf-8")
    return config


def test_a_lesson_opened_run_and_saved_in_jupyterlab_is_still_the_courses(jupyterlab, guarded_page, tmp_path):
    page, traffic = guarded_page
    lab = jupyterlab()
    # the served copy of the notebooks is the student's workspace, as `make lab` leaves it
    assert workspace.sync(lab.root_dir, CONFIG) == []

    _open(page, lab, RUN_ONLY)
    try:
        page.wait_for_function(DIRTY, timeout=STAYS_CLEAN_MS)
        metadata = page.evaluate(f"() => {PANEL}.context.model.toJSON().metadata")
        pytest.fail(
            "JupyterLab marked the lesson unsaved as soon as it opened it: the kernel's name or language_info "
            f"differs from the notebook's: {metadata['kernelspec']}, {metadata.get('language_info')}"
        )
    except PlaywrightTimeoutError:
        pass  # stayed clean
    page.evaluate(f"() => {{ {PANEL}.content.activeCellIndex = ({FIRST_CODE_CELL})(); }}")
    page.evaluate("jupyterapp.commands.execute('notebook:run-cell')")
    page.wait_for_function(
        f"() => {PANEL}.content.widgets[({FIRST_CODE_CELL})()].model.executionCount !== null"
        f" && {PANEL}.sessionContext.session.kernel.status === 'idle'",
        timeout=TIMEOUT_MS,
    )
    _save(page)
    saved = json.loads((lab.root_dir / "en" / f"{RUN_ONLY}.ipynb").read_text(encoding="utf-8"))
    assert any(c.get("execution_count") for c in saved["cells"]), "the run was not saved"

    _open(page, lab, EDIT)
    page.evaluate(
        f"source => {PANEL}.content.widgets[({FIRST_CODE_CELL})()].model.sharedModel.setSource(source)",
        MINE,
    )
    _save(page)
    traffic.assert_clean()

    said = workspace.sync(lab.root_dir, _next_version(tmp_path / "course"))
    assert f"updated: en/{RUN_ONLY}.ipynb" in said
    assert not (lab.root_dir / "en" / f"{RUN_ONLY}.new.ipynb").exists()
    assert (
        f"a newer version of en/{EDIT}.ipynb exists; your edited copy is kept, the new one is en/{EDIT}.new.ipynb"
        in said
    )
    edited = json.loads((lab.root_dir / "en" / f"{EDIT}.ipynb").read_text(encoding="utf-8"))
    assert "".join(next(c for c in edited["cells"] if c["cell_type"] == "code")["source"]) == MINE
