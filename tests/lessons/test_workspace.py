"""Students keep their work: course updates never overwrite, or write through, anything of theirs."""

import json
import os
import re
import subprocess
import sys
import threading

import pytest

from course_tools import workspace as workspace_cli
from course_tools.classroom import workspace
from course_tools.core import files
from course_tools.core.config import LANGUAGES, Config
from tests.support import ROOT


@pytest.fixture
def course(tmp_path):
    """``course(version)`` ships lesson 01 (and, with ``extra``, lesson 02) in every language."""
    config = Config(root=tmp_path / "course")

    def ship(version: str, names=("01_lesson",), renamed=None) -> Config:
        for lang in LANGUAGES:
            folder = config.notebooks_dir(lang)
            folder.mkdir(parents=True, exist_ok=True)
            for old in folder.glob("*.ipynb"):
                old.unlink()
            for name in names:
                (folder / f"{name}.ipynb").write_text(f"{name} {version} {lang}")
        return Config(root=config.root, renamed=renamed or {})

    return ship


@pytest.fixture
def ws(tmp_path):
    return tmp_path / "workspace"


def sync(ws, config, lang="en"):
    return workspace.sync(ws, config, lang)


# ----------------------------------------------------------------------------- the usual updates


def test_first_start_copies_every_lesson(course, ws):
    config = course("v1")
    said = sync(ws, config)
    assert [(ws / lang / "01_lesson.ipynb").read_text() for lang in LANGUAGES] == [
        f"01_lesson v1 {lang}" for lang in LANGUAGES
    ]
    assert said == [f"new lesson: {lang}/01_lesson.ipynb" for lang in LANGUAGES]
    assert sync(ws, config) == []  # nothing new the second time


def test_untouched_lesson_is_updated(course, ws):
    sync(ws, course("v1"))
    said = sync(ws, course("v2"))
    assert (ws / "en" / "01_lesson.ipynb").read_text() == "01_lesson v2 en"
    assert "updated: en/01_lesson.ipynb" in said


def test_edited_lesson_is_kept_and_the_update_announced_once(course, ws):
    sync(ws, course("v1"))
    (ws / "ru" / "01_lesson.ipynb").write_text("my answers")
    said = sync(ws, course("v2"), lang="ru")
    assert (ws / "ru" / "01_lesson.ipynb").read_text() == "my answers"
    assert (ws / "ru" / "01_lesson.new.ipynb").read_text() == "01_lesson v2 ru"
    assert any("вышла новая версия ru/01_lesson.ipynb" in line for line in said)
    assert sync(ws, course("v2")) == []  # announced once, then quiet
    assert (ws / "ru" / "01_lesson.ipynb").read_text() == "my answers"


def test_work_done_in_the_new_copy_is_never_overwritten(course, ws):
    """Before: the next version was copied over NN.new.ipynb, and the student's work there was lost."""
    sync(ws, course("v1"))
    (ws / "en" / "01_lesson.ipynb").write_text("my answers")
    sync(ws, course("v2"))
    (ws / "en" / "01_lesson.new.ipynb").write_text("my answers in the new copy")
    said = sync(ws, course("v3"))
    assert (ws / "en" / "01_lesson.new.ipynb").read_text() == "my answers in the new copy"
    assert (ws / "en" / "01_lesson.new-2.ipynb").read_text() == "01_lesson v3 en"
    assert (
        "a newer version of en/01_lesson.ipynb exists; your edited copy is kept, the new one is "
        "en/01_lesson.new-2.ipynb" in said
    )


def test_an_untouched_new_copy_is_the_courses_to_update(course, ws):
    sync(ws, course("v1"))
    (ws / "en" / "01_lesson.ipynb").write_text("my answers")
    sync(ws, course("v2"))
    said = sync(ws, course("v3"))
    assert (ws / "en" / "01_lesson.new.ipynb").read_text() == "01_lesson v3 en"
    assert not (ws / "en" / "01_lesson.new-2.ipynb").exists()
    assert any("the new one is en/01_lesson.new.ipynb" in line for line in said)


# ----------------------------------------------------------------------------- links and odd files


def test_a_dangling_link_in_place_of_a_lesson_is_never_written_through(course, ws, tmp_path):
    """Before: copying onto the dangling link wrote the lesson outside workspace/."""
    outside = tmp_path / "outside" / "lesson.ipynb"
    outside.parent.mkdir()
    (ws / "en").mkdir(parents=True)
    (ws / "en" / "01_lesson.ipynb").symlink_to(outside)
    said = sync(ws, course("v1"))
    assert not outside.exists()
    assert (ws / "en" / "01_lesson.ipynb").is_symlink()
    assert (ws / "en" / "01_lesson.new.ipynb").read_text() == "01_lesson v1 en"
    assert any(line.startswith("en/01_lesson.ipynb is a link, so it is yours") for line in said)
    assert sync(ws, course("v1")) == []


def test_a_link_to_a_file_outside_is_left_alone(course, ws, tmp_path):
    outside = tmp_path / "mine.ipynb"
    outside.write_text("my notebook")
    sync(ws, course("v1"))
    (ws / "en" / "01_lesson.ipynb").unlink()
    (ws / "en" / "01_lesson.ipynb").symlink_to(outside)
    sync(ws, course("v2"))
    assert outside.read_text() == "my notebook"


def test_a_linked_language_folder_is_skipped(course, ws, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    ws.mkdir()
    (ws / "en").symlink_to(elsewhere)
    said = sync(ws, course("v1"))
    assert list(elsewhere.iterdir()) == []
    assert "en/ should be the folder of the lessons, but it is a file or a link" in said[0]
    assert (ws / "ru" / "01_lesson.ipynb").exists()


def test_a_folder_in_place_of_a_lesson_is_skipped_and_the_lab_starts(course, ws, monkeypatch, capsys):
    """Before: IsADirectoryError, and `make lab` did not start."""
    (ws / "ru" / "01_lesson.ipynb").mkdir(parents=True)
    monkeypatch.setattr(workspace_cli, "CONFIG", course("v1"))
    assert workspace_cli.main(["--workspace", str(ws), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "на месте урока ru/01_lesson.ipynb лежит папка, а не ноутбук" in out
    assert (ws / "en" / "01_lesson.ipynb").read_text() == "01_lesson v1 en"


def test_a_file_in_place_of_a_language_folder_is_skipped_and_the_lab_starts(course, ws, monkeypatch, capsys):
    """Before: NotADirectoryError, and `make lab` did not start."""
    ws.mkdir()
    (ws / "en").write_text("not a folder")
    monkeypatch.setattr(workspace_cli, "CONFIG", course("v1"))
    assert workspace_cli.main(["--workspace", str(ws)]) == 0
    out = capsys.readouterr().out
    assert "en/ should be the folder of the lessons" in out
    assert (ws / "en").read_text() == "not a folder"
    assert (ws / "ru" / "01_lesson.ipynb").exists()


# ----------------------------------------------------------------------------- the manifest


@pytest.mark.parametrize("content", ["", "{not json", "[1, 2]", '{"version": 2, "written": []}'])
def test_an_unreadable_manifest_keeps_every_file_as_the_students(course, ws, monkeypatch, capsys, content):
    """Before: json.loads raised on an empty or corrupt manifest and `make lab` did not start."""
    sync(ws, course("v1"))
    (ws / workspace.MANIFEST).write_text(content)
    monkeypatch.setattr(workspace_cli, "CONFIG", course("v2"))
    assert workspace_cli.main(["--workspace", str(ws), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "список файлов, которые записал курс (.course-manifest.json), не читается" in out
    # safe: the untouched v1 copy counts as the student's, so v2 goes beside it
    assert (ws / "en" / "01_lesson.ipynb").read_text() == "01_lesson v1 en"
    assert (ws / "en" / "01_lesson.new.ipynb").read_text() == "01_lesson v2 en"
    assert workspace.read_manifest(ws)[1] is None  # written anew


def test_a_first_version_manifest_is_understood(course, ws):
    config = course("v1")
    sync(ws, config)
    (ws / "ru" / "01_lesson.ipynb").write_text("my answers")
    manifest, _ = workspace.read_manifest(ws)
    (ws / workspace.MANIFEST).write_text(
        json.dumps(manifest.offered)
    )  # {path: hash}, as the first version wrote
    said = sync(ws, course("v2"))
    assert "updated: en/01_lesson.ipynb" in said
    assert (ws / "ru" / "01_lesson.ipynb").read_text() == "my answers"
    assert (ws / "ru" / "01_lesson.new.ipynb").read_text() == "01_lesson v2 ru"


def test_a_manifest_write_that_fails_leaves_the_old_manifest(course, ws, monkeypatch):
    sync(ws, course("v1"))
    before = (ws / workspace.MANIFEST).read_text()

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        sync(ws, course("v2"))
    assert (ws / workspace.MANIFEST).read_text() == before
    assert not list(ws.glob(".*.tmp"))


def test_two_updates_at_once_offer_the_new_version_once(course, ws, monkeypatch):
    """Two `make lab` during one update: without the lock both saw an edited lesson, both wrote a copy
    (NN.new and NN.new-2) and both said so."""
    sync(ws, course("v1"))
    (ws / "en" / "01_lesson.ipynb").write_text("my answers")
    config = course("v2")
    both_read = threading.Barrier(2, timeout=2)
    real_read = workspace.read_manifest

    def read_then_wait(path):
        manifest = real_read(path)
        try:
            both_read.wait()  # without the lock, the two updates meet here, each with the old manifest
        except threading.BrokenBarrierError:
            pass  # with the lock, the other update waits for this one to finish
        return manifest

    monkeypatch.setattr(workspace, "read_manifest", read_then_wait)
    said = []
    threads = [threading.Thread(target=lambda: said.extend(sync(ws, config))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(p.name for p in (ws / "en").iterdir()) == ["01_lesson.ipynb", "01_lesson.new.ipynb"]
    assert [line for line in said if "your edited copy is kept" in line] == [
        "a newer version of en/01_lesson.ipynb exists; your edited copy is kept, the new one is en/01_lesson.new.ipynb"
    ]


# ----------------------------------------------------------------------------- renamed lessons


def test_an_untouched_renamed_lesson_moves_to_its_new_name(course, ws):
    sync(ws, course("v1", names=("03_old",)))
    config = course("v2", names=("04_new",), renamed={"03_old": "04_new"})
    said = sync(ws, config)
    assert sorted(p.name for p in (ws / "en").iterdir()) == ["04_new.ipynb"]
    assert (ws / "en" / "04_new.ipynb").read_text() == "04_new v2 en"
    assert (
        "lesson en/03_old.ipynb is now en/04_new.ipynb: your copy, which you had not changed, moved to the new name"
        in said
    )
    assert sync(ws, config) == []


def test_an_edited_renamed_lesson_stays_beside_the_new_one(course, ws):
    sync(ws, course("v1", names=("03_old",)))
    (ws / "ru" / "03_old.ipynb").write_text("my answers")
    said = sync(ws, course("v2", names=("04_new",), renamed={"03_old": "04_new"}), lang="ru")
    assert (ws / "ru" / "03_old.ipynb").read_text() == "my answers"
    assert (ws / "ru" / "04_new.ipynb").read_text() == "04_new v2 ru"
    assert (
        "урок ru/03_old.ipynb теперь называется ru/04_new.ipynb: ваша изменённая копия осталась под старым "
        "именем, а новый урок лежит рядом: ru/04_new.ipynb" in said
    )
    assert not (ws / "en" / "03_old.ipynb").exists()  # the untouched English copy moved


# ----------------------------------------------------------------------------- the tool itself


def test_the_workspace_tool_does_not_import_torch(tmp_path):
    code = (
        "import sys, course_tools.workspace as w; "
        f"w.main(['--workspace', {str(tmp_path / 'ws')!r}]); "
        "print('torch' in sys.modules, 'nbformat' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert result.stdout.splitlines()[-1] == "False False"
    assert "your workspace:" in result.stdout


def test_the_workspace_messages_exist_in_every_language():
    assert workspace.TEXT.problems() == []


# ----------------------------------------------------------------------------- what "edited" means


def notebook_json(*sources, run=False, **metadata) -> str:
    """A notebook as JupyterLab saves it: code cells with ``sources``; ``run`` adds what running adds."""
    cells = [
        {
            "cell_type": "code",
            "id": f"cell-{i}",
            "metadata": {"tags": ["exercise"]} if run else {},
            "source": source.splitlines(keepends=True) if run else source,  # JupyterLab saves lines
            "execution_count": i + 1 if run else None,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": f"{i}\n"}] if run else [],
        }
        for i, source in enumerate(sources)
    ]
    meta = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}}
    if run:  # what a kernel and JupyterLab write: another Python, another kernel name, widget state
        meta |= {
            "kernelspec": {"display_name": "Python 3 (course)", "language": "python", "name": "python3"},
            "language_info": {"name": "python", "version": "3.12.1"},
            "widgets": {"application/vnd.jupyter.widget-state+json": {"state": {}}},
        }
    meta |= metadata
    return json.dumps({"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}, indent=1)


@pytest.fixture
def notebooks(tmp_path):
    """``notebooks(*sources)`` ships lesson 01 in every language as a notebook with those code cells."""
    config = Config(root=tmp_path / "course")

    def ship(*sources) -> Config:
        for lang in LANGUAGES:
            config.notebooks_dir(lang).mkdir(parents=True, exist_ok=True)
            config.notebook("01_lesson", lang).write_text(notebook_json(*sources), encoding="utf-8")
        return config

    return ship


def test_a_lesson_the_student_only_ran_is_updated(notebooks, ws):
    """Before: outputs, execution counts, the kernel's name and language_info written by JupyterLab made the
    lesson the student's, and every later version went to a .new copy."""
    sync(ws, notebooks("x = 1", "print(x)"))
    mine = ws / "en" / "01_lesson.ipynb"
    mine.write_text(notebook_json("x = 1", "print(x)", run=True), encoding="utf-8")
    said = sync(ws, notebooks("x = 2", "print(x)"))
    assert "updated: en/01_lesson.ipynb" in said
    assert json.loads(mine.read_text(encoding="utf-8"))["cells"][0]["source"] == "x = 2"
    assert not (ws / "en" / "01_lesson.new.ipynb").exists()


def test_a_run_copy_of_the_current_version_keeps_its_outputs(notebooks, ws):
    config = notebooks("x = 1")
    sync(ws, config)
    mine = ws / "en" / "01_lesson.ipynb"
    ran = notebook_json("x = 1", run=True)
    mine.write_text(ran, encoding="utf-8")
    assert sync(ws, config) == []
    assert mine.read_text(encoding="utf-8") == ran


@pytest.mark.parametrize(
    "edited",
    [("x = 10", "print(x)"), ("x = 1",), ("x = 1", "print(x)", "y = 2"), ("print(x)", "x = 1")],
    ids=["a cell's source", "a cell deleted", "a cell added", "cells reordered"],
)
def test_a_changed_cell_makes_the_lesson_the_students(notebooks, ws, edited):
    sync(ws, notebooks("x = 1", "print(x)"))
    mine = ws / "en" / "01_lesson.ipynb"
    mine.write_text(notebook_json(*edited, run=True), encoding="utf-8")
    said = sync(ws, notebooks("x = 2", "print(x)"))
    assert "".join(json.loads(mine.read_text(encoding="utf-8"))["cells"][0]["source"]) == edited[0]
    assert any("your edited copy is kept" in line for line in said)
    assert json.loads((ws / "en" / "01_lesson.new.ipynb").read_text(encoding="utf-8"))["cells"][0][
        "source"
    ] == ("x = 2")


def test_a_new_copy_the_student_only_ran_is_the_courses_to_update(notebooks, ws):
    sync(ws, notebooks("x = 1"))
    (ws / "en" / "01_lesson.ipynb").write_text(notebook_json("x = 'mine'"), encoding="utf-8")
    sync(ws, notebooks("x = 2"))
    (ws / "en" / "01_lesson.new.ipynb").write_text(notebook_json("x = 2", run=True), encoding="utf-8")
    sync(ws, notebooks("x = 3"))
    assert not (ws / "en" / "01_lesson.new-2.ipynb").exists()
    new = json.loads((ws / "en" / "01_lesson.new.ipynb").read_text(encoding="utf-8"))
    assert new["cells"][0]["source"] == "x = 3"


def test_a_manifest_of_the_previous_version_still_knows_the_courses_files(notebooks, ws):
    """Version 2 recorded the hash of the file's bytes: an untouched lesson is still the course's."""
    sync(ws, notebooks("x = 1"))
    data = (ws / "en" / "01_lesson.ipynb").read_bytes()
    written = {f"{lang}/01_lesson.ipynb": workspace.digest(data) for lang in ("en",)}
    (ws / workspace.MANIFEST).write_text(json.dumps({"version": 2, "written": written, "offered": written}))
    said = sync(ws, notebooks("x = 2"))
    assert "updated: en/01_lesson.ipynb" in said


def test_the_kernel_the_course_installs_is_the_one_the_notebooks_name():
    """Before: the notebooks named "Python 3 (ipykernel)", the Makefile installed "Python 3 (course)",
    and JupyterLab marked every lesson unsaved as soon as it opened it (then autosave rewrote it)."""
    from course_tools.build.source import KERNELSPEC

    install = re.search(
        r"ipykernel install --sys-prefix --name (\S+) --display-name \"([^\"]+)\"",
        (ROOT / "Makefile").read_text(encoding="utf-8"),
    )
    assert install, "the Makefile installs the course's kernel with ipykernel install"
    assert (install.group(1), install.group(2)) == (KERNELSPEC["name"], KERNELSPEC["display_name"])
    for path in sorted((ROOT / "notebooks").glob("*/*.ipynb")):
        kernelspec = json.loads(path.read_text(encoding="utf-8"))["metadata"]["kernelspec"]
        assert kernelspec == KERNELSPEC, path.name
    for path in sorted((ROOT / "notebooks").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        if text.startswith("---"):
            assert f"display_name: {KERNELSPEC['display_name']}\n" in text.split("\n---", 1)[0], path.name


# ----------------------------------------------------------------------------- odd manifests and settings


def test_a_manifest_that_is_a_fifo_does_not_block(course, ws, monkeypatch, capsys):
    """Before: reading the manifest opened the FIFO and waited for a writer forever."""
    sync(ws, course("v1"))
    fifo = ws / workspace.MANIFEST
    fifo.unlink()
    os.mkfifo(fifo)
    monkeypatch.setattr(workspace_cli, "CONFIG", course("v2"))
    done = []
    thread = threading.Thread(
        target=lambda: done.append(workspace_cli.main(["--workspace", str(ws)])), daemon=True
    )
    thread.start()
    thread.join(timeout=10)
    if thread.is_alive():  # let the blocked reader go, so that the test ends
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(timeout=10)
        pytest.fail("reading a FIFO manifest blocked")
    assert done == [0]
    assert ".course-manifest.json, cannot be read (it is not a regular file)" in capsys.readouterr().out
    assert (ws / "en" / "01_lesson.ipynb").read_text() == "01_lesson v1 en"  # kept: may be the student's
    assert workspace.read_manifest(ws)[1] is None  # written anew, as a file


def test_a_deeply_nested_manifest_is_unreadable_and_the_lab_starts(course, ws, monkeypatch, capsys):
    """Before: RecursionError, and `make lab` did not start."""
    sync(ws, course("v1"))
    (ws / workspace.MANIFEST).write_text("[" * 100_000 + "]" * 100_000)
    monkeypatch.setattr(workspace_cli, "CONFIG", course("v2"))
    assert workspace_cli.main(["--workspace", str(ws)]) == 0
    assert "cannot be read (it is nested too deeply to be the course's list)" in capsys.readouterr().out
    assert (ws / "en" / "01_lesson.new.ipynb").read_text() == "01_lesson v2 en"


def test_a_deeply_nested_lesson_counts_by_its_bytes(notebooks, ws):
    sync(ws, notebooks("x = 1"))
    (ws / "en" / "01_lesson.ipynb").write_text("[" * 100_000 + "]" * 100_000)
    said = sync(ws, notebooks("x = 2"))
    assert any("your edited copy is kept" in line for line in said)


def test_the_russian_interface_setting_is_written_for_make_lab_ru(course, ws, monkeypatch):
    monkeypatch.setattr(workspace_cli, "CONFIG", course("v1"))
    settings = ws / ".settings-ru"
    assert workspace_cli.main(["--workspace", str(ws), "--lang", "ru", "--lab-settings", str(settings)]) == 0
    plugin = settings / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings"
    assert json.loads(plugin.read_text(encoding="utf-8")) == {"locale": "ru_RU"}
    assert not list(settings.rglob("*.tmp"))


def test_the_makefile_writes_nothing_into_the_workspace_itself():
    """Before: `make lab-ru` ran `mkdir -p workspace/.settings-ru/...` and `echo ... > workspace/...`,
    which follow links; only course_tools.workspace writes there."""
    recipes = [line.strip() for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()]
    writes = [
        line for line in recipes if re.search(r"(>|\bmkdir\b|\bcp\b|\btouch\b|\btee\b).*\bworkspace/", line)
    ]
    assert writes == []


@pytest.mark.parametrize("link", [".settings-ru", ".settings-ru/@jupyterlab", "plugin"])
def test_the_interface_setting_is_never_written_through_a_link(
    course, ws, monkeypatch, capsys, tmp_path, link
):
    """Before: `make lab-ru` ran `mkdir -p` and `echo >` through a link in workspace/.settings-ru."""
    monkeypatch.setattr(workspace_cli, "CONFIG", course("v1"))
    outside = tmp_path / "outside"
    outside.mkdir()
    settings = ws / ".settings-ru"
    folder = settings / "@jupyterlab" / "translation-extension"
    if link == "plugin":
        folder.mkdir(parents=True)
        (folder / "plugin.jupyterlab-settings").symlink_to(outside / "plugin.jupyterlab-settings")
    else:
        (ws / link).parent.mkdir(parents=True, exist_ok=True)
        (ws / link).symlink_to(outside, target_is_directory=True)
    assert workspace_cli.main(["--workspace", str(ws), "--lang", "ru", "--lab-settings", str(settings)]) == 0
    assert list(outside.iterdir()) == []
    if link == "plugin":  # the link itself is replaced by the course's file, never written through
        assert json.loads((folder / "plugin.jupyterlab-settings").read_text()) == {"locale": "ru_RU"}
    else:
        assert "JupyterLab откроется по-английски" in capsys.readouterr().out


def test_an_update_of_the_outputs_alone_reaches_a_lesson_the_student_only_ran(notebooks, ws, tmp_path):
    config = notebooks("x = 1")
    sync(ws, config)
    mine = ws / "en" / "01_lesson.ipynb"
    mine.write_text(notebook_json("x = 1", run=True), encoding="utf-8")
    shipped = config.notebook("01_lesson", "en")
    shipped.write_text(notebook_json("x = 1", language_info={"version": "3.11.9"}), encoding="utf-8")
    assert "updated: en/01_lesson.ipynb" in sync(ws, config)
    assert mine.read_bytes() == shipped.read_bytes()


def test_one_update_at_a_time_holds_the_workspace_lock(course, ws):
    """A second ``make lab`` waits for the first: the lock (filelock) cannot be taken twice."""
    import filelock

    with workspace.locked(ws):
        with pytest.raises(filelock.Timeout):
            workspace.locked(ws).acquire(timeout=0.2)
    with workspace.locked(ws):  # free again once released
        pass


# ----------------------------------------------------------------------------- attachments


PICTURE = "![diagram](attachment:diagram.png)"


def notebook_with_attachment(picture: str | None, code: str = "x = 1", run=False) -> str:
    """A lesson whose markdown cell shows ``diagram.png`` (base64 ``picture``; None: no attachment)."""
    nb = json.loads(notebook_json(code, run=run))
    cell = {"cell_type": "markdown", "id": "picture", "metadata": {}, "source": PICTURE}
    if picture is not None:
        # JupyterLab saves a long base64 string as one string; nbformat allows a list of lines too
        cell["attachments"] = {"diagram.png": {"image/png": [picture[:4], picture[4:]] if run else picture}}
    nb["cells"].insert(0, cell)
    return json.dumps(nb, indent=1)


@pytest.fixture
def illustrated(tmp_path):
    """``illustrated(picture, code)`` ships lesson 01 with an attached picture in every language."""
    config = Config(root=tmp_path / "course")

    def ship(picture: str | None, code: str = "x = 1") -> Config:
        for lang in LANGUAGES:
            config.notebooks_dir(lang).mkdir(parents=True, exist_ok=True)
            config.notebook("01_lesson", lang).write_text(notebook_with_attachment(picture, code=code))
        return config

    return ship


@pytest.mark.parametrize(
    ("shipped", "mine"),
    [("iVBORcourse", "iVBORmine"), (None, "iVBORmine"), ("iVBORcourse", None)],
    ids=["the picture replaced", "a picture attached", "the picture removed"],
)
def test_an_edited_attachment_in_an_unchanged_cell_is_the_students(illustrated, ws, shipped, mine):
    """Before: the fingerprint read a cell's type and source only, so a picture the student pasted over the
    course's (same name, same source) counted as the course's, and the next update overwrote it."""
    sync(ws, illustrated(shipped))
    lesson = ws / "en" / "01_lesson.ipynb"
    lesson.write_text(notebook_with_attachment(mine), encoding="utf-8")
    said = sync(ws, illustrated(shipped, code="x = 2"))
    assert lesson.read_text(encoding="utf-8") == notebook_with_attachment(mine)
    assert any("your edited copy is kept" in line for line in said)
    new = json.loads((ws / "en" / "01_lesson.new.ipynb").read_text(encoding="utf-8"))
    assert new["cells"][1]["source"] == "x = 2"


def test_an_attachment_saved_as_lines_or_an_empty_one_is_not_an_edit(illustrated, ws):
    """What may be written without the student changing anything: the same picture as a list of lines
    (nbformat allows both), an empty ``attachments``; the lesson stays the course's and gets the update."""
    sync(ws, illustrated("iVBORcourse"))
    lesson = ws / "en" / "01_lesson.ipynb"
    lesson.write_text(notebook_with_attachment("iVBORcourse", run=True), encoding="utf-8")
    assert "updated: en/01_lesson.ipynb" in sync(ws, illustrated("iVBORcourse", code="x = 2"))
    assert json.loads(lesson.read_text(encoding="utf-8"))["cells"][1]["source"] == "x = 2"

    sync(ws, illustrated(None, code="x = 2"))  # the course's next version has no picture
    nb = json.loads(lesson.read_text(encoding="utf-8"))
    assert "attachments" not in nb["cells"][0]
    nb["cells"][0]["attachments"] = {}
    lesson.write_text(json.dumps(nb), encoding="utf-8")
    assert "updated: en/01_lesson.ipynb" in sync(ws, illustrated(None, code="x = 3"))
    assert json.loads(lesson.read_text(encoding="utf-8"))["cells"][1]["source"] == "x = 3"


def test_a_lesson_without_attachments_keeps_the_fingerprint_the_manifest_has():
    """Manifests written before attachments counted still know the course's lessons: a notebook without
    attachments is fingerprinted as it was (its cells' types and sources)."""
    data = notebook_json("x = 1", "print(x)", run=True).encode("utf-8")
    before = json.dumps([["code", "x = 1"], ["code", "print(x)"]], ensure_ascii=False).encode("utf-8")
    assert workspace.fingerprint(data) == "cells:" + workspace.digest(before)
