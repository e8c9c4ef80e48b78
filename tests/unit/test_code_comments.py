"""Comments of course_lib's code in each language: written once in English, translated by the catalogue.

The exercises' templates and solutions, and the methods lesson 7 prints, keep English comments;
each comment in words is an entry of course_lib's .po (msgctxt ``code:<file>``). The rules are
checked here on small code, with a catalogue given by the test; the course's own files are checked
by ``test_exercises.py`` (each language is the English file with its comments translated) and by
``tests/lessons/test_exercise_cells.py`` (the committed notebooks show exactly the templates).
"""

import inspect

import pytest
from babel.messages.catalog import Catalog

from course_lib import code_comments, extrapolation, i18n
from course_lib.code_comments import Prose, problems, prose, translated
from course_tools.core import translations

CODE = """\
import torch


def scale(x, d_model):  # x: (batch, seq, d_model)
    # the paper's scale (section 3.4),
    # so that the positions do not drown the tokens
    y = x * d_model**0.5  # a Python float: exact in any dtype
    # noqa: E501
    return y  # (batch, seq, d_model)
"""
WHERE = "code:exercises/templates/demo.py"
RUSSIAN = {
    (WHERE, "the paper's scale (section 3.4),\nso that the positions do not drown the tokens"): (
        "масштаб из статьи (раздел 3.4):\nпозиции не заглушают\nтокены"
    ),
    (WHERE, "a Python float: exact in any dtype"): "float Python: точен в любом dtype",
}


@pytest.fixture
def catalogue(monkeypatch):
    """The Russian of CODE's comments, as the .po would give it."""
    monkeypatch.setattr(code_comments, "translations", lambda package, lang: dict(RUSSIAN))


def test_the_comments_in_words_are_a_paragraph_or_a_comment_after_code():
    assert prose(CODE) == [
        Prose(
            5, 6, 4, True, "the paper's scale (section 3.4),\nso that the positions do not drown the tokens"
        ),
        Prose(7, 7, 26, False, "a Python float: exact in any dtype"),
    ]  # the shapes and the tool's directive have nothing to translate


def test_each_comment_is_its_translation_where_the_english_stands(catalogue):
    assert translated(CODE, WHERE, "ru") == CODE.replace(
        "    # the paper's scale (section 3.4),\n    # so that the positions do not drown the tokens\n",
        "    # масштаб из статьи (раздел 3.4):\n    # позиции не заглушают\n    # токены\n",
    ).replace("# a Python float: exact in any dtype", "# float Python: точен в любом dtype")
    assert translated(CODE, WHERE, "en") == CODE


def test_a_missing_translation_or_a_comment_after_code_on_two_lines_stays_english(monkeypatch):
    two_lines = {**RUSSIAN, (WHERE, "a Python float: exact in any dtype"): "float Python:\nточен"}
    monkeypatch.setattr(code_comments, "translations", lambda package, lang: two_lines)
    assert "# a Python float: exact in any dtype" in translated(CODE, WHERE, "ru")
    assert translated(CODE, "code:exercises/templates/other.py", "ru") == CODE  # another file's context


def test_the_pseudo_language_brackets_each_line_of_words():
    code = translated(CODE, WHERE, i18n.PSEUDO)
    assert (
        "    # ⟦thé pápéŕ'š šçálé (šéçtîöñ 3.4),⟧\n    # ⟦šö thát thé pöšîtîöñš dö ñöt dŕöwñ thé tökéñš⟧\n"
        in code
    )
    assert "# (batch, seq, d_model)" in code and "# noqa: E501" in code


def test_the_check_names_a_missing_a_stale_a_long_and_an_obsolete_translation(monkeypatch):
    po = [
        (WHERE, "the paper's scale (section 3.4),\nso that the positions do not drown the tokens", "", False),
        (WHERE, "a Python float: exact in any dtype", "float Python:\nточен", False),
        (WHERE, "a comment since removed", "удалённый комментарий", False),
    ]
    monkeypatch.setattr(code_comments, "po_messages", lambda package, lang: po)
    monkeypatch.setattr(code_comments, "TRANSLATIONS", ("ru",))
    found = problems({WHERE: {CODE: 1}})
    assert found == [
        f'{WHERE} (ru) "the paper\'s scale (section 3.4),": no text in ru, in course_lib/locale/ru/LC_MESSAGES/course_lib.po',
        f"{WHERE} (ru) 'a Python float: exact in any dtype': a comment after code takes one line, the "
        "translation has several",
        f"{WHERE} (ru) 'a comment since removed': obsolete, no such comment in the code",
    ]
    po[1] = (WHERE, "a Python float: exact in any dtype", "float Python", True)
    assert (
        f"{WHERE} (ru) 'a Python float: exact in any dtype': stale (fuzzy): its English changed, revise the translation"
        in problems({WHERE: {CODE: 1}})
    )


def test_update_carries_a_changed_comment_s_translation_as_fuzzy_and_retires_a_removed_one():
    old = Catalog(locale="ru")
    old.add("a Python float: exact in any dtype", "float Python: точен в любом dtype", context=WHERE)
    old.add("a comment since removed", "удалённый комментарий", context=WHERE)
    old.add("kept as it is", "без изменений", context=WHERE)
    pot = Catalog()
    pot.add("a Python float: exact in every dtype", context=WHERE)  # its English changed
    pot.add("kept as it is", context=WHERE)
    pot.add("a new comment", context=WHERE)
    new = translations.merged(old, pot, "ru")
    changed = new.get("a Python float: exact in every dtype", context=WHERE)
    assert changed.string == "float Python: точен в любом dtype" and changed.fuzzy
    assert changed.previous_id == ["a Python float: exact in any dtype"]
    kept = new.get("kept as it is", context=WHERE)
    assert kept.string == "без изменений" and not kept.fuzzy
    assert not new.get("a new comment", context=WHERE).string
    assert list(new.obsolete) == [("a comment since removed", WHERE)]


def test_the_course_s_catalogue_translates_every_comment_it_extracts():
    """The comments ``translations update`` extracts are the registered code's, each translated (none
    missing or stale), and lesson 7's printed methods are among them."""
    translations.all_catalogues()  # every module imported: every exercise's code registered
    assert problems() == []
    where = code_comments.context(inspect.getsourcefile(extrapolation))
    method = inspect.getsource(extrapolation.TinyTransformer.forward)
    assert method in code_comments.registered()[where]
    russian = code_comments.in_language(method, "ru")
    assert "# x: (batch, seq) — индексы токенов" in russian and "token ids" not in russian
    pot = translations.template("course_lib")
    assert pot.get("x: (batch, seq) token ids", context=where) is not None


def test_code_registered_again_replaces_what_it_was(monkeypatch):
    """A module reloaded (%autoreload) registers its template again: the catalogue extracts the new one only."""
    monkeypatch.setattr(code_comments, "_REGISTERED", {})
    path = code_comments._ROOT / "exercises" / "templates" / "demo.py"
    assert code_comments.register("x = 1  # one\n", path) == WHERE
    code_comments.register("x = 1  # one, again\n", path)
    code_comments.register("y = 2  # a method further down\n", path, line=7)
    assert code_comments.registered() == {
        WHERE: {"x = 1  # one, again\n": 1, "y = 2  # a method further down\n": 7}
    }


def test_code_python_cannot_read_is_returned_as_it_is(catalogue):
    assert translated("x = (  # a comment\n", WHERE, "ru") == "x = (  # a comment\n"
