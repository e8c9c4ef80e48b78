"""The explorer registry (course_lib/widgets/registry.py) names every explorer, and what it says of each is so.

The tests, the benchmark and the documents read the registry instead of lists of their own: an explorer
left out of it would go untested by them, so here the package itself is held against it.
"""

import re

import pytest

from course_lib import widgets
from course_lib.widgets import registry
from course_lib.widgets.live import JS, LiveExplorer
from course_tools.core.config import CONFIG

ENTRIES = registry.EXPLORERS


def test_every_public_explorer_builder_and_widget_has_an_entry():
    builders = {name for name in widgets.__all__ if name[0].islower()}
    assert sorted(builders - {e.factory for e in ENTRIES}) == [], (
        "builders of course_lib.widgets with no entry"
    )
    assert sorted({e.factory for e in ENTRIES} - builders) == [], "entries naming no public builder"
    classes = {
        name
        for name in widgets.__all__
        if isinstance(getattr(widgets, name), type)
        and issubclass(getattr(widgets, name), LiveExplorer)
        and getattr(widgets, name) is not LiveExplorer
    }
    assert sorted(classes ^ {e.widget for e in ENTRIES}) == []
    for field in ("name", "factory", "widget", "js", "root"):
        values = [getattr(e, field) for e in ENTRIES]
        assert len(set(values)) == len(values), f"two entries share a {field}"


def test_every_javascript_explorer_module_has_an_entry():
    # an explorer's module exports the renderer (`export default {render}`); the shared parts do not
    modules = {
        p.stem
        for p in JS.glob("*.js")
        if re.search(r"^export default\b", p.read_text(encoding="utf-8"), re.M)
    }
    assert len(modules) >= 13
    assert sorted(modules - {e.js for e in ENTRIES}) == [], (
        "js/ modules that render an explorer with no entry"
    )
    assert sorted({e.js for e in ENTRIES} - modules) == [], "entries whose js/ module renders nothing"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_an_entry_is_what_its_explorer_is(entry):
    builder, widget = getattr(widgets, entry.factory), getattr(widgets, entry.widget)
    assert builder.__module__ == widget.__module__, "the builder and its widget live in one module"
    source = (JS / f"{entry.js}.js").read_text(encoding="utf-8")
    # its class loads the module (live.module: common, the parts, then js/<name>.js last)
    assert widget.__dict__["_esm"].startswith((JS / "common.js").read_text(encoding="utf-8"))
    assert source in widget.__dict__["_esm"], f"{entry.widget} does not load js/{entry.js}.js"
    assert re.search(rf'\bframe\(el, [^,]+, "{re.escape(entry.root)}"\)', source), entry.root
    # no picture: its canvas is hidden as soon as its frame is made, whatever it is given
    hidden = re.search(
        rf'\bframe\(el, [^,]+, "{re.escape(entry.root)}"\);\n\s*canvas\.hidden = true;', source
    )
    assert bool(hidden) == (not entry.picture), f"{entry.name}: picture={entry.picture}"
    lesson = [p for p in CONFIG.lessons_dir.glob(f"{entry.lesson:02d}_*.md")]
    assert len(lesson) == 1, f"lesson {entry.lesson}"
    assert f"{entry.factory}(" in lesson[0].read_text(encoding="utf-8"), (
        f"{lesson[0].name} shows no {entry.factory}"
    )
    for name, _, _ in entry.absurd:
        assert name in widgets.live.bounds_of(widget), f"{entry.name}.{name} has no bounds"


# the count of explorers in words, as the documents write it ("all thirteen", «все тринадцать»)
NUMBERS = {
    "en": "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty",
    "ru": "десять одиннадцать двенадцать тринадцать четырнадцать пятнадцать шестнадцать семнадцать"
    " восемнадцать девятнадцать двадцать",
}
WORDS = {lang: dict(zip(words.split(), range(10, 21), strict=True)) for lang, words in NUMBERS.items()}


def counts(text: str) -> list[tuple[str, int]]:
    """Each count of explorers the text writes: (what it says, the number)."""
    flat = " ".join(text.split())
    found = []
    for lang, prefix, near in (("en", "all", r"explorer"), ("ru", "все", r"график|виджет")):
        for match in re.finditer(rf"\b{prefix} ({'|'.join(WORDS[lang])})\b", flat):
            window = flat[max(0, match.start() - 80) : match.end() + 80]
            if re.search(near, window, re.I):
                found.append((match.group(0), WORDS[lang][match.group(1)]))
    return found


def test_counts_of_explorers_are_read_on_known_texts():
    assert counts("The explorers — all thirteen: lesson 1's") == [("all thirteen", 13)]
    assert counts("Графики — все\nдвенадцать: словарь") == [("все двенадцать", 12)]
    assert counts("all twelve runs of the tokenizer") == []


def test_the_documents_count_every_explorer_of_the_registry():
    documents = [
        *CONFIG.root.glob("README*.md"),
        CONFIG.root / "CONTRIBUTING.md",
        *(CONFIG.root / "docs").glob("*.md"),
        CONFIG.root / "Makefile",
        *(CONFIG.root / "benchmarks").glob("*.py"),
    ]
    said = {CONFIG.relative(p): counts(p.read_text(encoding="utf-8")) for p in documents if p.exists()}
    assert said["docs/PACKAGE.md"] and said["docs/PACKAGE.ru.md"], (
        "the package's documents count the explorers"
    )
    wrong = {where: found for where, found in said.items() if any(n != len(ENTRIES) for _, n in found)}
    assert wrong == {}, f"the registry has {len(ENTRIES)} explorers"
