"""The lessons tool on small courses: all languages or nothing, clear failures, every problem listed."""

import os

import nbformat
import pytest

from course_lib.files import write_atomic
from course_tools.build import lessons
from course_tools.build.course import Course, LessonSelectionError
from course_tools.build.tables import README_BEGIN, README_END
from course_tools.core.config import LANGUAGES
from course_tools.core.files import write_all
from course_tools.lessons import main as lessons_main
from tests.lessons.support import course, title, twins, write_lesson

# runs in English, fails in every other language: the render switches the call's argument
FAILS_IN_TRANSLATION = """def set_language(lang):
    if lang != "en":
        raise RuntimeError(f"no text in {lang}")


set_language("en")
print("ran in English")"""


def with_readmes(config):
    for lang in LANGUAGES:
        config.readme(lang).write_text(f"# README {lang}\n\n{README_BEGIN}\n{README_END}\n", encoding="utf-8")
    return config


def quiet(_line: str) -> None:
    pass


def test_build_writes_every_language_marked_generated_and_the_readme_tables(tmp_path):
    config = with_readmes(course(tmp_path))
    write_lesson(tmp_path, "01_first", *title(1), ("code", 'print("hello")', {}))
    written = lessons.build([], config, say=quiet)
    assert sorted(p.name for p in written) == sorted(
        ["01_first.ipynb"] * len(LANGUAGES) + [config.readme(other).name for other in LANGUAGES]
    )
    for lang in LANGUAGES:
        nb = nbformat.read(config.notebook("01_first", lang), as_version=4)
        assert nb.cells[-1].outputs[0]["text"] == "hello\n"
        assert nb.metadata["course"]["generated_from"]["command"] == "python -m course_tools.lessons build 01"
        assert "| 1 | " in config.readme(lang).read_text(encoding="utf-8")
    assert lessons.check(config) == []
    assert not [p for p in tmp_path.rglob("*.tmp")], "temporary files left behind"


def test_a_cell_failing_in_one_language_writes_no_language(tmp_path):
    """Before: the English notebook was rewritten and the Russian one left stale, with a bare traceback."""
    config = course(tmp_path)
    write_lesson(tmp_path, "01_first", *title(1), ("code", FAILS_IN_TRANSLATION, {}))
    old = {lang: config.notebook("01_first", lang) for lang in LANGUAGES}
    for path in old.values():
        path.write_text("old notebook", encoding="utf-8")
    with pytest.raises(lessons.BuildError) as raised:
        lessons.build(["01"], config, say=quiet)
    message = str(raised.value)
    assert (
        "01_first [ru], notebook cell 2 (notebooks/01_first.md, line " in message
        and "`def set_language(lang):`: RuntimeError: no text in ru" in message
    )
    assert "Traceback" not in message and "\x1b[" not in message
    assert "nothing was written" in message
    assert all(path.read_text(encoding="utf-8") == "old notebook" for path in old.values())


@pytest.mark.parametrize("blocked", ["notebooks/ru/01_first.ipynb", "README.ru.md"])
def test_a_folder_in_place_of_an_output_is_a_clear_error_before_anything_runs(tmp_path, monkeypatch, blocked):
    """Before: a raw IsADirectoryError after executing everything, with the English notebook rewritten
    and a .tmp file left beside the folder."""
    config = with_readmes(course(tmp_path))
    write_lesson(tmp_path, "01_first", *title(1), ("code", 'print("hello")', {}))
    for lang in LANGUAGES:
        config.notebook("01_first", lang).write_text("old notebook", encoding="utf-8")
    (tmp_path / blocked).unlink()
    (tmp_path / blocked).mkdir()
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    monkeypatch.setattr(lessons, "execute", lambda *a, **k: pytest.fail("executed with an output blocked"))
    with pytest.raises(
        lessons.BuildError, match=f"{blocked} is a folder, not a file: move it away"
    ) as raised:
        lessons.build(["01"], config, say=quiet)
    assert "nothing was executed or written" in str(raised.value)
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    assert not [p for p in tmp_path.rglob("*.tmp")], "temporary files left behind"


def test_check_names_a_folder_in_place_of_a_notebook(tmp_path):
    config = course(tmp_path)
    write_lesson(tmp_path, "01_first", *title(1))
    config.notebook("01_first", "ru").mkdir()
    assert "notebooks/ru/01_first.ipynb is a folder, not a notebook: move it away, then run " in "\n".join(
        lessons.check(config)
    )


def test_check_reports_a_misnamed_source(tmp_path):
    """Before: `99_Bad-Name.md` was silently not a lesson."""
    config = course(tmp_path)
    write_lesson(tmp_path, "01_first", *title(1))
    write_lesson(tmp_path, "99_Bad-Name", *title(99))
    (tmp_path / "notebooks" / "NOTES.md").write_text("# notes, not a lesson\n", encoding="utf-8")
    problems = [p for p in lessons.check(config) if "Bad-Name" in p or "NOTES" in p]
    assert problems == [
        "notebooks/99_Bad-Name.md is not a lesson: a lesson's name is two digits, then lowercase letters, "
        "digits and _ (e.g. 05_sinusoidal_encoding.md); rename it"
    ]


def test_check_reports_a_deleted_russian_title_as_a_missing_title(tmp_path):
    """Before: only "the first prose cell must start with the lesson's title", about a cell that is no title."""
    config = course(tmp_path)
    cells = [cell for cell in title(1) if "lang-ru" not in cell[2]["tags"]]
    write_lesson(tmp_path, "01_first", *cells, *twins("Some text."), ("code", "x = 1", {}))
    problems = lessons.check(config)
    assert (
        "notebooks/01_first.md, line 14 (cell 1): the title has no lang-ru twin, so the lesson has no title "
        "in ru: translate the title and its summary in a lang-ru cell right below it"
    ) in problems
    assert not [p for p in problems if "must start with the lesson's title" in p]


def test_building_a_lesson_that_does_not_exist_names_the_lessons(tmp_path):
    config = course(tmp_path)
    write_lesson(tmp_path, "01_first", *title(1))
    write_lesson(tmp_path, "02_second", *title(2))
    with pytest.raises(
        LessonSelectionError, match=r"no lesson matches '99': the lessons are 01_first, 02_second"
    ):
        lessons.build(["99"], config, say=quiet)


def test_the_command_line_says_why_and_exits_1(capsys):
    assert lessons_main(["build", "99"]) == 1
    err = capsys.readouterr().err
    assert "no lesson matches '99': the lessons are 00_start_here, 01_text_to_ids" in err
    assert "Traceback" not in err


def test_a_source_with_problems_is_not_executed(tmp_path, monkeypatch):
    config = course(tmp_path)
    write_lesson(tmp_path, "01_first", *title(1), ("code", "print('slides')", {"tags": ["slides-only"]}))
    monkeypatch.setattr(lessons, "execute", lambda *a, **k: pytest.fail("executed a source with problems"))
    with pytest.raises(lessons.BuildError, match="only prose may be slides-only"):
        lessons.build([], config, say=quiet)


def test_check_lists_every_problem_of_every_lesson(tmp_path):
    """Before: the check stopped at the first source it could not read."""
    config = with_readmes(course(tmp_path))
    broken = write_lesson(tmp_path, "01_broken", *title(1), ("code", "x = 1", {}))
    broken.write_text(broken.read_text(encoding="utf-8").replace("x = 1\n```", "x = 1"), encoding="utf-8")
    stale = twins("The English changed.", "Старый перевод.")
    stale[1][2]["translation_of"] = "0000000000"
    write_lesson(tmp_path, "02_stale", *title(2), *stale, ("code", "print(2)", {"tags": ["slides-only"]}))
    write_lesson(tmp_path, "03_unexecuted", *title(3), ("code", "print(3)", {}))
    for lang in LANGUAGES:
        nb = Course.load(config).render("03_unexecuted", lang)
        nbformat.write(nb, config.notebook("03_unexecuted", lang))
    (config.notebooks_dir("en") / "09_orphan.ipynb").write_text("{}", encoding="utf-8")
    problems = "\n".join(lessons.check(config))
    expected = [
        "notebooks/01_broken.md, line ",
        "this code cell is never closed",
        "notebooks/02_stale.md, line ",
        "translation is stale or unstamped",
        "only prose may be slides-only",
        "notebooks/en/02_stale.ipynb is missing",
        "notebooks/ru/02_stale.ipynb is missing",
        "notebooks/en/03_unexecuted.ipynb: cells [2] were never executed",
        "notebooks/en/09_orphan.ipynb has no source notebooks/09_orphan.md",
        "the lesson tables cannot be made: no title and summary for 01_broken",
        "README.md: the lesson table is out of date",
    ]
    for part in expected:
        assert part in problems
    assert lessons_main(["check"]) == 0  # and the repository's own course is clean


def test_stamp_reports_an_unreadable_source_and_leaves_it(tmp_path):
    config = course(tmp_path)
    path = write_lesson(tmp_path, "01_first", *title(1), ("code", "x = 1", {}))
    path.write_text(path.read_text(encoding="utf-8").replace("x = 1\n```", "x = 1"), encoding="utf-8")
    before = path.read_bytes()
    problems = lessons.stamp_lessons(["01"], config, say=quiet)
    assert any("this code cell is never closed" in p for p in problems)
    assert "notebooks/01_first.md was not changed" in problems[-1]
    assert path.read_bytes() == before


# ----------------------------------------------------------------------------- files


def test_write_all_writes_nothing_when_one_file_fails(tmp_path):
    keep = tmp_path / "keep.txt"
    keep.write_text("old")
    (tmp_path / "a_file").write_text("not a folder")
    with pytest.raises(OSError):
        write_all({keep: "new", tmp_path / "a_file" / "x.txt": "new"})
    assert keep.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file", "keep.txt"]


def test_write_all_writes_nothing_when_a_folder_is_in_the_way(tmp_path):
    keep = tmp_path / "keep.txt"
    keep.write_text("old")
    (tmp_path / "folder.txt").mkdir()
    with pytest.raises(FileExistsError, match=r"folder.txt is a folder, not a file: move it away"):
        write_all({keep: "new", tmp_path / "folder.txt": "new"})
    assert keep.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.txt", "keep.txt"]


def test_write_all_leaves_no_temporary_file_when_a_rename_fails(tmp_path, monkeypatch):
    real_replace = os.replace

    def fails_on_the_second(src, dst):
        if str(dst).endswith("b.txt"):
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", fails_on_the_second)
    with pytest.raises(OSError, match="No space left"):
        write_all({tmp_path / "a.txt": "a", tmp_path / "b.txt": "b", tmp_path / "c.txt": "c"})
    assert not list(tmp_path.glob(".*.tmp"))


def test_write_atomic_replaces_the_file_in_one_step(tmp_path, monkeypatch):
    path = tmp_path / "notebook.ipynb"
    path.write_text("old")
    os.chmod(path, 0o640)
    replaced = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda src, dst: (replaced.append((src, dst)), real_replace(src, dst)))
    write_atomic(path, "new")
    assert path.read_text() == "new" and path.stat().st_mode & 0o777 == 0o640
    ((src, dst),) = replaced
    assert os.path.dirname(src) == str(tmp_path) and dst == path


def test_split_stream_outputs_are_joined():
    """A busy kernel may flush one printout in two pieces: the written notebook has one."""
    import nbformat

    from course_tools.build.execute import coalesce_streams

    cell = nbformat.v4.new_code_cell("print('a'); print('b')")
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="a\n"),
        nbformat.v4.new_output("stream", name="stdout", text="b\n"),
        nbformat.v4.new_output("stream", name="stderr", text="warning\n"),
        nbformat.v4.new_output("execute_result", data={"text/plain": "1"}, execution_count=1),
        nbformat.v4.new_output("stream", name="stdout", text="c\n"),
    ]
    nb = nbformat.v4.new_notebook(cells=[cell])
    outputs = coalesce_streams(nb).cells[0].outputs
    assert [(o.output_type, o.get("name"), o.get("text")) for o in outputs] == [
        ("stream", "stdout", "a\nb\n"),
        ("stream", "stderr", "warning\n"),
        ("execute_result", None, None),
        ("stream", "stdout", "c\n"),
    ]


def _widget_notebook(ids: list[str]):
    """A notebook as nbclient saves it: a slider box shown by one cell, its layout, and a widget no
    output shows, under the kernel's random ``ids`` (box, slider, layout, orphan)."""
    import nbformat

    box, slider, layout, orphan = ids
    cell = nbformat.v4.new_code_cell("explorer", id="explorer")
    view = {"model_id": box, "version_major": 2, "version_minor": 0}
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/plain": "VBox()", EXEC_VIEW: view})]
    state = {
        box: {"model_name": "VBoxModel", "state": {"children": [f"IPY_MODEL_{slider}"]}},
        slider: {"model_name": "IntSliderModel", "state": {"layout": f"IPY_MODEL_{layout}", "value": 3}},
        layout: {"model_name": "LayoutModel", "state": {"width": "90%"}},
        orphan: {"model_name": "LayoutModel", "state": {"width": None}},
    }
    nb = nbformat.v4.new_notebook(cells=[cell])
    nb.metadata["widgets"] = {EXEC_STATE: {"state": dict(sorted(state.items())), "version_major": 2}}
    return nb


EXEC_VIEW = "application/vnd.jupyter.widget-view+json"
EXEC_STATE = "application/vnd.jupyter.widget-state+json"


def test_widget_ids_do_not_depend_on_the_kernel_run():
    """Two builds of a lesson name their widgets alike: the committed notebook changes only with the lesson."""
    import uuid

    from course_tools.build.execute import stable_widget_ids
    from course_tools.build.lessons import notebook_text

    first, second = ([uuid.uuid4().hex for _ in range(4)] for _ in range(2))
    written = [notebook_text(stable_widget_ids(_widget_notebook(ids), "05_x/en")) for ids in (first, second)]
    assert written[0] == written[1]
    for old in first:
        assert old not in written[0]

    nb = stable_widget_ids(_widget_notebook(first), "05_x/en")
    state = nb.metadata.widgets[EXEC_STATE]["state"]
    box = nb.cells[0].outputs[0].data[EXEC_VIEW]["model_id"]
    (slider,) = [ref.removeprefix("IPY_MODEL_") for ref in state[box]["state"]["children"]]
    layout = state[slider]["state"]["layout"].removeprefix("IPY_MODEL_")
    assert state[slider]["state"]["value"] == 3 and state[layout]["state"]["width"] == "90%"
    assert len(state) == 4  # the widget no output shows is kept, renamed too
    assert (
        stable_widget_ids(_widget_notebook(first), "05_x/ru").cells[0].outputs[0].data[EXEC_VIEW]["model_id"]
        != box
    )
