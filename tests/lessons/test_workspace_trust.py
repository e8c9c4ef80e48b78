"""Only the course's notebooks are trusted: ``course_tools.classroom.workspace.trust`` (``make lab``, the hub).

A signed notebook runs its saved JavaScript and HTML with JupyterLab's whole API when it opens. Before,
``make lab`` ran ``jupyter trust workspace/<lang>/*.ipynb`` and the hub signed every notebook in a
student's home: a "solutions" notebook sent by a classmate ran its saved JavaScript. Each test here
plays the one who sends the file.
"""

import json
import os
import re

import nbformat
import pytest
from nbformat.sign import NotebookNotary

from course_tools import workspace as workspace_cli
from course_tools.classroom import server, workspace
from course_tools.core.config import LANGUAGES, Config
from tests.support import ROOT

# what a sent notebook carries: JavaScript that would run with JupyterLab's API in a trusted output
SCRIPT = {"application/javascript": "window.courseForeignRan = true;"}


def lesson(lang: str, code: str = "x = 1", outputs=()) -> str:
    """Lesson 01 in ``lang`` (its bytes differ per language, as the course's lessons do)."""
    cells = [
        {"cell_type": "markdown", "id": "title", "metadata": {}, "source": f"# Lesson 1 ({lang})"},
        {
            "cell_type": "code",
            "id": "code",
            "metadata": {},
            "source": code,
            "execution_count": 1 if outputs else None,
            "outputs": list(outputs),
        },
    ]
    meta = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}}
    return json.dumps({"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def scripted(data: str) -> str:
    """``data`` (a notebook) with an output that runs JavaScript in the first code cell."""
    nb = json.loads(data)
    code = next(c for c in nb["cells"] if c["cell_type"] == "code")
    code["outputs"] = [{"output_type": "display_data", "data": SCRIPT, "metadata": {}}]
    return json.dumps(nb, indent=1)


@pytest.fixture
def course(tmp_path):
    """``course(code)`` ships lesson 01 in every language."""
    config = Config(root=tmp_path / "course")

    def ship(code: str = "x = 1") -> Config:
        for lang in LANGUAGES:
            config.notebooks_dir(lang).mkdir(parents=True, exist_ok=True)
            config.notebook("01_lesson", lang).write_text(lesson(lang, code), encoding="utf-8")
        return config

    return ship


@pytest.fixture
def notary(tmp_path, monkeypatch):
    """This user's signatures, in a Jupyter data folder of the test's own (also for the CLI and the hub)."""
    data_dir = tmp_path / "jupyter-data"
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(data_dir))

    def make() -> NotebookNotary:
        data_dir.mkdir(exist_ok=True)  # as trust() makes it for this user's
        return NotebookNotary(data_dir=str(data_dir))

    return make


@pytest.fixture
def ws(tmp_path):
    return tmp_path / "workspace"


def signed(notary, data: str | bytes) -> bool:
    """Whether JupyterLab would open a notebook of these bytes trusted (it reads it as nbformat 4)."""
    if isinstance(data, bytes):
        data = data.decode("utf-8")
    with notary() as n:
        return n.check_signature(nbformat.reads(data, as_version=4))


def sign(notary, data: str) -> None:
    """What ``jupyter trust`` (the Makefile before) or JupyterLab's save does."""
    with notary() as n:
        n.sign(nbformat.reads(data, as_version=4))


def test_the_course_s_lessons_are_signed(course, ws, notary):
    config = course()
    workspace.sync(ws, config)
    done = workspace.trust(ws, config, notary())
    assert done.signed == [f"{lang}/01_lesson.ipynb" for lang in LANGUAGES]
    for lang in LANGUAGES:
        assert signed(notary, (ws / lang / "01_lesson.ipynb").read_bytes())


def test_a_notebook_sent_by_a_classmate_is_not_signed(course, ws, notary):
    """Before: `jupyter trust workspace/en/*.ipynb` signed it, and its JavaScript ran when it opened."""
    config = course()
    workspace.sync(ws, config)
    foreign = scripted(lesson("en", "answer = 42"))
    (ws / "en" / "solutions.ipynb").write_text(foreign, encoding="utf-8")
    done = workspace.trust(ws, config, notary())
    assert "en/solutions.ipynb" in done.untrusted and "en/solutions.ipynb" not in done.signed
    assert not signed(notary, foreign)
    assert signed(notary, (ws / "en" / "01_lesson.ipynb").read_bytes())  # the lessons still are


def test_a_lesson_the_student_edited_is_not_signed_again(course, ws, notary):
    """JupyterLab signs it itself when the student runs it and saves; the tool never does."""
    config = course()
    workspace.sync(ws, config)
    mine = lesson("en", "x = 'my answer'")
    (ws / "en" / "01_lesson.ipynb").write_text(mine, encoding="utf-8")
    done = workspace.trust(ws, config, notary())
    assert "en/01_lesson.ipynb" in done.untrusted
    assert not signed(notary, mine)


def test_the_course_s_cells_with_someone_else_s_outputs_are_not_signed(course, ws, notary):
    """The manifest's fingerprint leaves outputs out (a lesson only run is still the course's, to update):
    a lesson saved over with the course's cells and a script in an output matches it, and is not signed."""
    config = course()
    workspace.sync(ws, config)
    sent = scripted(lesson("en"))
    (ws / "en" / "01_lesson.ipynb").write_text(sent, encoding="utf-8")
    assert (
        workspace.fingerprint(sent.encode()) == workspace.read_manifest(ws)[0].written["en/01_lesson.ipynb"]
    )
    done = workspace.trust(ws, config, notary())
    assert "en/01_lesson.ipynb" in done.untrusted
    assert not signed(notary, sent)


def test_a_notebook_listed_in_a_forged_manifest_is_not_signed(course, ws, notary):
    """The manifest lives in the student's folder: a file it names is signed only if its bytes are the
    course's."""
    config = course()
    workspace.sync(ws, config)
    foreign = scripted(lesson("en", "answer = 42"))
    (ws / "en" / "solutions.ipynb").write_text(foreign, encoding="utf-8")
    manifest, _ = workspace.read_manifest(ws)
    manifest.written["en/solutions.ipynb"] = workspace.fingerprint(foreign.encode())
    workspace.save_manifest(ws, manifest)
    workspace.trust(ws, config, notary())
    assert not signed(notary, foreign)


def test_a_link_to_a_course_notebook_is_not_followed(course, ws, notary, tmp_path):
    """A link is the student's (the course never writes through one), and it is not read to be signed:
    here it points at a file with the course's very bytes, which would be signed if it were followed."""
    config = course()
    workspace.sync(ws, config)
    target = tmp_path / "elsewhere.ipynb"
    target.write_bytes(config.notebook("01_lesson", "en").read_bytes())
    (ws / "en" / "01_lesson.ipynb").unlink()
    (ws / "en" / "01_lesson.ipynb").symlink_to(target)  # the manifest still names it, with its fingerprint
    done = workspace.trust(ws, config, notary())
    assert "en/01_lesson.ipynb" in done.untrusted and "en/01_lesson.ipynb" not in done.signed
    assert not signed(notary, target.read_bytes())
    assert signed(notary, (ws / "ru" / "01_lesson.ipynb").read_bytes())


def test_a_linked_language_folder_is_not_signed(course, ws, notary, tmp_path):
    config = course()
    workspace.sync(ws, config)
    outside = tmp_path / "outside"
    (ws / "en").rename(outside)
    (ws / "en").symlink_to(outside, target_is_directory=True)
    done = workspace.trust(ws, config, notary())
    assert done.signed == [f"{lang}/01_lesson.ipynb" for lang in LANGUAGES if lang != "en"]
    assert not signed(notary, (outside / "01_lesson.ipynb").read_bytes())


def test_a_workspace_that_is_a_link_to_a_folder_is_trusted_as_it_is_updated(course, tmp_path, notary):
    """The student may keep the workspace elsewhere behind a link: sync() updates it, trust() signs it."""
    config = course()
    (tmp_path / "elsewhere").mkdir()
    ws = tmp_path / "workspace"
    ws.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    workspace.sync(ws, config)
    assert workspace.trust(ws, config, notary()).signed == [f"{lang}/01_lesson.ipynb" for lang in LANGUAGES]


def test_a_fifo_in_place_of_a_lesson_does_not_block(course, ws, notary):
    config = course()
    workspace.sync(ws, config)
    os.mkfifo(ws / "en" / "solutions.ipynb")
    done = workspace.trust(ws, config, notary())  # the test's timeout would end a blocked read
    assert "en/solutions.ipynb" in done.untrusted


def test_the_signatures_the_old_make_lab_gave_are_removed_once(course, ws, notary):
    """Before this version, `make lab` signed every notebook in the lessons' folders: the first trust()
    removes the signatures of those that are not the course's, once. Later signatures (JupyterLab's,
    when the student runs a notebook and saves) are left alone."""
    config = course()
    workspace.sync(ws, config)
    foreign = scripted(lesson("en", "answer = 42"))
    (ws / "en" / "solutions.ipynb").write_text(foreign, encoding="utf-8")
    sign(notary, foreign)  # the old `jupyter trust workspace/en/*.ipynb`
    done = workspace.trust(ws, config, notary())
    assert done.unsigned == ["en/solutions.ipynb"]
    assert not signed(notary, foreign)
    assert workspace.read_manifest(ws)[0].signatures_reset

    mine = lesson("en", "x = 'mine'", outputs=[{"output_type": "stream", "name": "stdout", "text": "1\n"}])
    (ws / "en" / "mine.ipynb").write_text(mine, encoding="utf-8")
    sign(notary, mine)  # JupyterLab signed it when the student ran it and saved
    workspace.sync(ws, config)  # the next `make lab` keeps the flag
    done = workspace.trust(ws, config, notary())
    assert done.unsigned == []
    assert signed(notary, mine) and not signed(notary, foreign)


def test_signatures_kept_in_memory_only_leave_the_reset_to_do(course, ws, tmp_path):
    """A signatures' database that cannot be written (nbformat then keeps it in memory) has removed
    nothing for good: the next start removes the old signatures again."""
    config = course()
    workspace.sync(ws, config)
    # a database file in a folder that does not exist: nbformat warns and falls back to memory
    (tmp_path / "data").mkdir()
    unwritable = NotebookNotary(
        data_dir=str(tmp_path / "data"), db_file=str(tmp_path / "gone" / "signatures.db")
    )
    assert unwritable.store.db_file == ":memory:"
    assert workspace.trust(ws, config, unwritable).signed  # signed for this session's store, at least
    assert not workspace.read_manifest(ws)[0].signatures_reset


def test_make_lab_trusts_through_the_workspace_tool(course, ws, notary, monkeypatch, capsys):
    """`make lab`'s and `make lab-ru`'s step: the update, then the course's lessons signed, no other."""
    config = course()
    monkeypatch.setattr(workspace_cli, "CONFIG", config)
    (ws / "en").mkdir(parents=True)
    foreign = scripted(lesson("en", "answer = 42"))
    (ws / "en" / "solutions.ipynb").write_text(foreign, encoding="utf-8")
    assert workspace_cli.main(["--workspace", str(ws), "--lang", "ru", "--trust"]) == 0
    assert all(signed(notary, (ws / lang / "01_lesson.ipynb").read_bytes()) for lang in LANGUAGES)
    assert not signed(notary, foreign)
    assert "ваша рабочая папка" in capsys.readouterr().out


def test_a_trust_that_fails_is_said_and_the_lab_starts(course, ws, monkeypatch, capsys):
    import sqlite3

    def locked_database(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(workspace_cli, "CONFIG", course())
    monkeypatch.setattr(workspace, "trust", locked_database)
    assert workspace_cli.main(["--workspace", str(ws), "--trust"]) == 0
    out = capsys.readouterr().out
    assert "could not be marked trusted (database is locked)" in out and "your workspace:" in out


def test_the_makefile_trusts_nothing_but_through_the_workspace_tool():
    """Before: `jupyter trust workspace/<lang>/*.ipynb` in `make lab` and `make lab-%`."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "jupyter trust" not in makefile and "$(BIN)/jupyter trust" not in makefile
    for target in ("lab", "lab-%"):
        recipe = re.search(rf"^{re.escape(target)}: .*\n((?:\t.*\n)+)", makefile, re.M).group(1)
        steps = [line.strip() for line in recipe.splitlines()]
        assert steps[0].startswith("$(BIN)/python -m course_tools.workspace ") and steps[0].endswith(
            " --trust"
        )
        assert steps[1:] and all("course_tools.workspace" not in s for s in steps[1:])


def test_the_hub_trusts_the_course_s_lessons_only(course, tmp_path, notary, monkeypatch):
    """Before: hub.trust(home) signed every notebook in the student's home."""
    config = course()
    monkeypatch.setattr(server, "CONFIG", config)
    home = tmp_path / "home"
    workspace.sync(home, config)
    foreign = scripted(lesson("en", "answer = 42"))
    (home / "en" / "solutions.ipynb").write_text(foreign, encoding="utf-8")
    server.trust(home)
    assert signed(notary, (home / "en" / "01_lesson.ipynb").read_bytes())
    assert not signed(notary, foreign)
