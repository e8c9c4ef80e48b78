"""The messages' gettext catalogues: a stale or missing translation is named, a .mo is read only
when compiled from its .po as it is, and a new language is data only (no Python).

The demo package below is a package of its own (``demo_pkg/``, its ``locale/``), built in a
temporary folder: the course's own catalogues are checked by ``test_messages.py``.
"""

import filecmp
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from course_lib import i18n
from course_tools.core import translations

DEMO_MODULE = """
from course_lib.i18n import Messages

MESSAGES = Messages("demo_pkg_area", {
    "hello": "Hello, {name}",
    "bye": "Goodbye",
    "count": "{n} tokens",
})
"""

DEMO_PO = """
msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"

msgctxt "demo_pkg_area.hello"
msgid "Hello, {name}"
msgstr "Привет, {name}"

msgctxt "demo_pkg_area.bye"
msgid "Goodbye"
msgstr "До свидания"

msgctxt "demo_pkg_area.count"
msgid "{n} tokens"
msgstr "токенов: {n}"
"""


@pytest.fixture
def demo(tmp_path, monkeypatch):
    """A package ``demo_pkg`` with one catalogue and its Russian .po; its module, freshly imported."""
    package = tmp_path / "demo_pkg"
    (package / "locale" / "ru" / "LC_MESSAGES").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "messages.py").write_text(DEMO_MODULE, encoding="utf-8")
    po = package / "locale" / "ru" / "LC_MESSAGES" / "demo_pkg.po"
    po.write_text(DEMO_PO, encoding="utf-8")
    monkeypatch.syspath_prepend(tmp_path)
    monkeypatch.setattr(i18n, "_CATALOGUES", dict(i18n.catalogues()))  # forgotten after the test
    monkeypatch.setattr(i18n, "_LOADED", {})
    for name in ("demo_pkg", "demo_pkg.messages"):
        sys.modules.pop(name, None)
    import demo_pkg.messages

    yield demo_pkg.messages.MESSAGES, po
    for name in ("demo_pkg", "demo_pkg.messages"):
        sys.modules.pop(name, None)


def edit(po: Path, old: str, new: str) -> None:
    text = po.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    po.write_text(text.replace(old, new), encoding="utf-8")
    i18n.reload_translations()


def test_a_complete_catalogue_reads_its_translations(demo):
    messages, _ = demo
    assert messages.problems() == []
    assert messages("hello", "ru", name="Ада") == "Привет, Ада"
    assert messages("count", "en", n=3) == "3 tokens"
    assert messages("bye", i18n.PSEUDO) == "⟦Göödbýé⟧"


def test_a_changed_english_makes_its_translation_stale_by_name(demo):
    messages, po = demo
    edit(po, 'msgid "Goodbye"', 'msgid "Good bye"')  # the translation of an English that is no more
    assert messages.problems() == [
        "demo_pkg_area.bye (ru): stale, translates 'Good bye' but the English is now 'Goodbye'"
    ]
    assert messages("bye", "ru") == "Goodbye"  # a stale translation is not shown: the English is
    assert messages.entries["bye"] == {"en": "Goodbye"}


def test_update_marks_a_changed_english_fuzzy_and_the_check_still_names_it(demo):
    messages, po = demo
    messages.english["bye"] = "Farewell"  # as if the code's English had changed
    pot = translations.merged(translations.read(po), _template(messages), "ru")
    translations.write(po, pot)
    i18n.reload_translations()
    text = po.read_text(encoding="utf-8")
    assert (
        '#, fuzzy\n#| msgid "Goodbye"\nmsgctxt "demo_pkg_area.bye"\nmsgid "Farewell"\nmsgstr "До свидания"'
        in text
    )
    assert messages.problems() == [
        "demo_pkg_area.bye (ru): stale, translates 'Farewell' (fuzzy) but the English is now 'Farewell'"
    ]
    assert messages("bye", "ru") == "Farewell"


def test_a_missing_translation_fails_by_name(demo):
    messages, po = demo
    edit(po, 'msgstr "До свидания"', 'msgstr ""')
    assert messages.problems() == [
        "demo_pkg_area.bye (ru): no text in ru, in demo_pkg/locale/ru/LC_MESSAGES/demo_pkg.po"
    ]
    edit(po, 'msgctxt "demo_pkg_area.bye"\nmsgid "Goodbye"\nmsgstr ""\n', "")
    assert messages.problems() == [
        "demo_pkg_area.bye (ru): no text in ru, in demo_pkg/locale/ru/LC_MESSAGES/demo_pkg.po"
    ]
    assert messages("bye", "ru") == "Goodbye"


def test_different_placeholders_and_an_obsolete_translation_are_named(demo):
    messages, po = demo
    edit(po, 'msgstr "токенов: {n}"', 'msgstr "токенов: {count}"')
    po.write_text(
        po.read_text(encoding="utf-8") + '\nmsgctxt "demo_pkg_area.gone"\nmsgid "Gone"\nmsgstr "Нет"\n',
        encoding="utf-8",
    )
    i18n.reload_translations()
    assert messages.problems() == [
        "demo_pkg_area.count (ru): the placeholders differ between languages: {'en': ['n'], 'ru': ['count']}",
        "demo_pkg_area.gone (ru): obsolete, no such message in demo_pkg.messages",
    ]


def test_an_old_style_entry_is_refused_with_where_its_translations_go(demo):
    with pytest.raises(TypeError, match=r"message demo_pkg_area2.x must be its English text, got dict"):
        i18n.Messages("demo_pkg_area2", {"x": {"en": "x", "ru": "х"}})


def test_a_mo_is_read_only_when_compiled_from_the_po_as_it_is(demo):
    messages, po = demo
    mo = translations.compile_po(po)
    table = i18n._read_mo(mo, _sha(po))
    assert table[("demo_pkg_area.hello", "Hello, {name}")] == "Привет, {name}"
    assert len(table) == 3  # the source's hash is not a message
    edit(po, 'msgstr "До свидания"', 'msgstr "Пока"')  # the .po changed after the .mo was compiled
    assert i18n._read_mo(mo, _sha(po)) is None
    assert messages("bye", "ru") == "Пока"  # read from the .po, not from the out-of-date .mo


def _sha(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def _template(messages):
    from babel.messages.catalog import Catalog

    pot = Catalog(domain="demo_pkg")
    for key, english in messages.english.items():
        pot.add(english, context=messages.context(key))
    return pot


def test_every_course_po_follows_the_english_and_its_mo_is_compiled_from_it():
    """`translations update` would change nothing, and the committed .po are what `compile` reads."""
    for package in translations.PACKAGES:
        pot = translations.template(package)
        for po in translations.po_files(package):
            lang = po.parent.parent.name
            expected = translations.merged(translations.read(po), pot, lang)
            import io

            from babel.messages.pofile import write_po

            out = io.BytesIO()
            write_po(out, expected, width=0, include_previous=True, sort_output=False)
            assert out.getvalue().decode("utf-8") == po.read_text(encoding="utf-8"), (
                f"{po} does not follow the English: run python -m course_tools.translations update"
            )


def test_code_moved_within_its_file_leaves_the_template_as_it_is(monkeypatch):
    """A code comment is located by its file, not its line. Before, a line added above one (lesson 7's
    float64 change in extrapolation.py) made course_lib.po "not follow the English" and failed `make test`,
    though no English had changed."""
    import io

    from babel.messages.pofile import write_po

    from course_lib import code_comments

    def po_text() -> bytes:
        out = io.BytesIO()
        write_po(out, translations.template("course_lib"), width=0, include_previous=True, sort_output=False)
        return out.getvalue()

    before = po_text()
    moved = {
        where: {code: first + 3 for code, first in codes.items()}
        for where, codes in code_comments.registered().items()
    }
    assert moved
    monkeypatch.setattr(code_comments, "registered", lambda: moved)
    assert po_text() == before
    assert b"#: course_lib/extrapolation.py\n" in before


# ----------------------------------------------------------------------------- a new language, data only

NEW_LANGUAGE = r"""
import json, sys
from course_lib import i18n
from course_tools.core import translations

catalogues = translations.all_catalogues()
i18n.set_language("eo")
wrong = []
count = 0
for area, catalogue in catalogues.items():
    for key, english in catalogue.english.items():
        count += 1
        if catalogue.text(key) != i18n.pseudo(english):
            wrong.append(f"{area}.{key}")
print(json.dumps({
    "languages": i18n.LANGUAGES,
    "messages": count,
    "wrong": wrong,
    "problems": translations.problems(),
    "number": i18n.format_decimal(-1.5, 2),
    "unknown": str(i18n.LANGUAGE_MESSAGES("unknown_language", value="xx", choices="...")),
}))
"""


def test_a_new_language_is_data_only(tmp_path):
    """Adding a language to the messages: its entry in languages.json and its two .po files, no Python.

    In a copy of the packages: ``translations init eo`` writes the .po files, a "translator" fills
    every msgstr (with the pseudo-language's text: English accented and bracketed), ``compile``
    compiles them; then every message of every catalogue reads in the new language, nothing is
    missing or stale, and the files that differ from the course's are the three data files.
    """
    root = Path(__file__).resolve().parents[2]
    ignore = shutil.ignore_patterns("__pycache__", "*.mo", "*.pt")
    for package in translations.PACKAGES:
        shutil.copytree(root / package, tmp_path / package, ignore=ignore)
    languages = tmp_path / "course_lib" / "locale" / "languages.json"
    data = json.loads(languages.read_text(encoding="utf-8"))
    data["eo"] = {"name": "Esperanto", "letters": "A-Za-zĈĉĜĝĤĥĴĵŜŝŬŭ", "lab_locale": "eo"}
    languages.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}

    def run(*args, code=None):
        command = (
            [sys.executable, "-c", code]
            if code
            else [sys.executable, "-m", "course_tools.translations", *args]
        )
        done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout

    run("init", "eo")
    # the translator's work: every msgstr of the two new files (here, by a script, the pseudo-language's)
    fill = (
        "import sys\nfrom babel.messages.pofile import read_po\nfrom course_lib.i18n import pseudo\n"
        "from course_tools.core import translations\n"
        "for package in translations.PACKAGES:\n"
        "    path = translations.i18n.locale_dir(package) / 'eo' / 'LC_MESSAGES' / f'{package}.po'\n"
        "    catalog = translations.read(path)\n"
        "    for message in catalog:\n"
        "        if message.id:\n"
        "            message.string = pseudo(message.id)\n"
        "    translations.write(path, catalog)\n"
    )
    run(code=fill)
    run("compile")
    report = json.loads(run(code=NEW_LANGUAGE).splitlines()[-1])
    assert report["languages"] == ["en", "ru", "eo"]
    assert report["messages"] > 700 and report["wrong"] == [] and report["problems"] == []
    assert report["unknown"].startswith("⟦")
    # the files that differ from the course's: languages.json and one .po per package, no Python
    changed = []
    for package in translations.PACKAGES:
        changed += _differing(root / package, tmp_path / package, tmp_path)
    assert sorted(changed) == [
        "course_lib/locale/eo/LC_MESSAGES/course_lib.po",
        "course_lib/locale/languages.json",
        "course_tools/locale/eo/LC_MESSAGES/course_tools.po",
    ]


def _differing(original: Path, copy: Path, base: Path) -> list[str]:
    """The files of ``copy`` that are new or differ from ``original``'s (not compiled ones)."""
    found = []
    for path in copy.rglob("*"):
        if path.is_file() and path.suffix not in {".mo", ".pyc"}:
            twin = original / path.relative_to(copy)
            if not twin.exists() or not filecmp.cmp(path, twin, shallow=False):
                found.append(path.relative_to(base).as_posix())
    return found
