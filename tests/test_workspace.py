"""Students keep their work: course updates never overwrite an edited lesson."""

from tests.support import load_script

workspace = load_script("notebooks/workspace.py")


def course_with(tmp_path, text):
    course = tmp_path / "course"
    for lang in ("en", "ru"):
        (course / lang).mkdir(parents=True, exist_ok=True)
        (course / lang / "01_lesson.ipynb").write_text(f"{text} {lang}")
    return course


def test_first_start_copies_every_lesson(tmp_path):
    course, ws = course_with(tmp_path, "v1"), tmp_path / "ws"
    said = workspace.sync(ws, course)
    assert (ws / "en" / "01_lesson.ipynb").read_text() == "v1 en"
    assert (ws / "ru" / "01_lesson.ipynb").read_text() == "v1 ru"
    assert said == ["new lesson: en/01_lesson.ipynb", "new lesson: ru/01_lesson.ipynb"]
    assert workspace.sync(ws, course) == []  # nothing new the second time


def test_untouched_lesson_is_updated(tmp_path):
    course, ws = course_with(tmp_path, "v1"), tmp_path / "ws"
    workspace.sync(ws, course)
    course_with(tmp_path, "v2")
    said = workspace.sync(ws, course)
    assert (ws / "en" / "01_lesson.ipynb").read_text() == "v2 en"
    assert "updated: en/01_lesson.ipynb" in said


def test_edited_lesson_is_kept_and_the_update_announced(tmp_path):
    course, ws = course_with(tmp_path, "v1"), tmp_path / "ws"
    workspace.sync(ws, course)
    (ws / "ru" / "01_lesson.ipynb").write_text("my answers")
    course_with(tmp_path, "v2")
    said = workspace.sync(ws, course, lang="ru")
    assert (ws / "ru" / "01_lesson.ipynb").read_text() == "my answers"
    assert (ws / "ru" / "01_lesson.new.ipynb").read_text() == "v2 ru"
    assert any("вышла новая версия ru/01_lesson.ipynb" in line for line in said)
    assert workspace.sync(ws, course) == []  # announced once, then quiet
    assert (ws / "ru" / "01_lesson.ipynb").read_text() == "my answers"
