"""Every message a student can read exists in every language, with the same placeholders.

The catalogues live beside the code that uses them (``Messages`` in each module); importing
every module of the package registers them all, and these tests walk the lot.
"""

import importlib
import json
import pkgutil
import re
import subprocess
import sys

import pytest

import course_lib
from course_lib import i18n
from course_lib.i18n import LANGUAGES, PSEUDO, Messages, pick, placeholders, pseudo, script_problems, tr


def all_catalogues() -> dict[str, Messages]:
    """Every catalogue of the package and of the course's tools (importing each module registers its own)."""
    import course_tools

    for package in (course_lib, course_tools):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)
    return i18n.catalogues()


CATALOGUES = all_catalogues()


def test_every_area_of_the_package_has_its_catalogue():
    assert {
        "input",
        "vocab",
        "bpe",
        "ex",
        "pad",
        "tok",
        "perm",
        "pe",
        "merge",
        "rotary",
        "lp",
        "rope",
        "inp",
        "plots",
        "plots_vocab",
        "plots_tokens",
        "plots_positions",
        "extrapolation_plot",
        "plots_rotary",
        "plots_long_context",
        "plots_alibi",
        "widgets_positions",
        "slides_index",
        "site",
        "lesson_tables",
        "workspace",
        "grade",
        "report",
    } <= set(CATALOGUES)


def test_texts_live_beside_the_code_in_messages_modules():
    """Each area's catalogue is in a ``messages`` module, not inside the code that uses it.

    The exceptions, each on purpose: an exercise keeps its diagnoses, hints and solution in its
    own module, beside its checker (``course_lib/exercises/__init__.py``); ``i18n`` defines the
    mechanism and its one message.
    """
    from course_lib import exercises

    exercise_modules = {f"{exercises.__name__}.{name}" for name in exercises.registry()}
    inside = [
        f"{area} in {catalogue.module}"
        for area, catalogue in sorted(CATALOGUES.items())
        if catalogue.module.rpartition(".")[2] not in {"messages", "hub_messages"}
        and catalogue.module not in exercise_modules | {"course_lib.i18n"}
        and not catalogue.module.startswith("reload_demo")
    ]
    assert inside == [], "catalogues inside code modules: " + ", ".join(inside)


@pytest.mark.parametrize("area", sorted(CATALOGUES))
def test_catalogue_is_complete_in_every_language(area):
    assert CATALOGUES[area].problems() == []


@pytest.mark.parametrize("area", sorted(CATALOGUES))
def test_each_text_is_written_in_its_language(area, lang):
    wrong = []
    for key, entry in CATALOGUES[area].entries.items():
        text = entry.get(lang)
        if text is None:
            continue  # missing or stale: test_catalogue_is_complete_in_every_language names it
        if len(set(entry.values())) == 1:
            continue  # the same in every language: a key name or a symbol, not words
        # what a placeholder or a code span holds is not the message's language
        words = re.sub(r"\{[^}]*\}|`[^`]*`", "", text)
        if not any(ch.isalpha() for ch in words):
            continue  # a symbol such as "#" or "№"
        problems = script_problems(words, lang)
        if problems:
            wrong.append(f"{area}.{key} ({lang}): {'; '.join(problems)}: {text!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("area", sorted(CATALOGUES))
def test_each_message_exists_in_the_pseudo_language(area):
    wrong = []
    for key, entry in CATALOGUES[area].entries.items():
        text = pseudo(entry["en"])
        if not (text.startswith("⟦") and text.endswith("⟧")) or placeholders(text) != placeholders(
            entry["en"]
        ):
            wrong.append(f"{area}.{key}: {text!r}")
    assert not wrong, "\n".join(wrong)


def test_pseudo_keeps_placeholders_code_and_formulas():
    assert pseudo("set {name} to `x + 1` where $d_{model}$ is even") == (
        "⟦šét {name} tö `x + 1` whéŕé $d_{model}$ îš évéñ⟧"
    )


def test_tr_reaches_every_catalogue_by_its_full_key():
    assert tr("input.seq_too_long", "ru", seq_len=20, max_len=16).startswith("длина последовательности 20")
    with pytest.raises(KeyError, match=r"no message 'input.nothing'"):
        tr("input.nothing")


def test_a_catalogue_name_is_taken_once():
    with pytest.raises(
        ValueError, match=r"a message catalogue named 'input' already exists, in course_lib.messages"
    ):
        Messages("input", {})


CATALOGUE_MODULE = """
from course_lib.i18n import Messages

MESSAGES = Messages("reload_demo", {"hello": "Hello, {name}"})
"""


def test_a_reloaded_module_defines_its_catalogue_again_and_another_module_still_may_not(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(i18n, "_CATALOGUES", dict(i18n.catalogues()))  # forgotten after the test
    monkeypatch.syspath_prepend(tmp_path)
    (tmp_path / "reload_demo_a.py").write_text(CATALOGUE_MODULE, encoding="utf-8")
    module = importlib.import_module("reload_demo_a")
    monkeypatch.setitem(sys.modules, "reload_demo_a", module)
    # %autoreload after an edit of the text: the new text, no error
    (tmp_path / "reload_demo_a.py").write_text(CATALOGUE_MODULE.replace("Hello", "Hi"), encoding="utf-8")
    importlib.invalidate_caches()
    importlib.reload(module)
    assert tr("reload_demo.hello", "en", name="Ada") == "Hi, Ada"
    assert i18n.catalogues()["reload_demo"] is module.MESSAGES
    # the same name from another module is still a duplicate
    (tmp_path / "reload_demo_b.py").write_text(CATALOGUE_MODULE, encoding="utf-8")
    with pytest.raises(ValueError, match=r"'reload_demo' already exists, in reload_demo_a"):
        importlib.import_module("reload_demo_b")
    sys.modules.pop("reload_demo_b", None)


RELOAD_EVERYTHING = """
import importlib, json, pkgutil, sys
import course_lib, course_tools
from course_lib import i18n

names = []
for package in (course_lib, course_tools):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
            names.append(info.name)
i18n.set_language("ru")
owners = {area: catalogue.module for area, catalogue in i18n.catalogues().items()}
failed = {}
for name in names:  # i18n itself among them, after some of the modules whose catalogues it holds
    try:
        importlib.reload(sys.modules[name])
    except Exception as error:
        failed[name] = repr(error)
after = {area: catalogue.module for area, catalogue in i18n.catalogues().items()}
print(json.dumps({
    "modules": len(names),
    "failed": failed,
    "lost": sorted(set(owners) - set(after)),
    "moved": sorted(area for area in owners if area in after and after[area] != owners[area]),
    "language": i18n.get_language(),
    "message": i18n.tr("input.seq_too_long", "en", seq_len=20, max_len=16),
}))
"""


def test_every_module_of_the_course_survives_a_reload_with_every_catalogue_and_the_language():
    # in a process of its own: a reload redefines the modules' classes, which this process keeps using
    done = subprocess.run(
        [sys.executable, "-c", RELOAD_EVERYTHING], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["modules"] > 50  # the walk found the packages' modules
    assert report["failed"] == {}
    # reloading course_lib.i18n used to forget the catalogues of every module not reloaded after it
    assert report["lost"] == [] and report["moved"] == []
    assert report["language"] == "ru"
    assert report["message"].startswith("sequence length 20")


def test_set_language_accepts_the_languages_and_the_pseudo_language_only():
    for lang in (*LANGUAGES, PSEUDO):
        course_lib.set_language(lang)
        assert course_lib.get_language() == lang
    course_lib.set_language("en")
    with pytest.raises(ValueError, match=r"language must be one of them, got 'xx'"):
        course_lib.set_language("xx")


@pytest.mark.parametrize("value", ["xx", "EN", None, ["ru"]])
def test_an_unknown_language_is_named_with_the_supported_ones_in_the_current_language(value, lang):
    # used to answer in English whatever the language set: now in the one set so far
    choices = ", ".join(f"{code!r} ({name})" for code, name in i18n.NAMES.items())
    assert choices.startswith("'en' (English), 'ru' (Русский)")  # as it reads
    expected = i18n.LANGUAGE_MESSAGES("unknown_language", lang, value=value, choices=choices)
    with pytest.raises(ValueError, match=re.escape(expected)):
        course_lib.set_language(value)
    assert course_lib.get_language() == lang


def test_pick_needs_the_current_language():
    course_lib.set_language("ru")
    assert pick(en="position", ru="позиция") == "позиция"
    with pytest.raises(ValueError, match=r"pick\(\) has no text for the current language 'ru'"):
        pick(en="position")
    course_lib.set_language(PSEUDO)
    assert pick(en="position", ru="позиция") == "⟦pöšîtîöñ⟧"
