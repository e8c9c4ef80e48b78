"""The Russian text uses the glossary's terms, not the words it rules out: lessons, README.ru.md, docs/*.ru.md and every message."""

import re

import pytest

from course_tools.build import tables
from course_tools.build.lesson_code import localize
from course_tools.build.source import cell_lang, read_source
from course_tools.classroom import workspace
from course_tools.core.config import CONFIG
from course_tools.publish import site_pages, slides
from tests.unit.test_messages import all_catalogues


def forbidden_words():
    words = {}
    for line in (CONFIG.lessons_dir / "GLOSSARY.md").read_text(encoding="utf-8").splitlines():
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cols) == 3 and cols[2] and not set(cols[2]) <= set("-") and cols[0] != "English":
            for word in cols[2].split(","):
                words[word.strip().lower()] = cols[1]
    return words


FORBIDDEN = forbidden_words()


# A word of the text: Cyrillic or Latin letters, hyphens inside ("sequence-first").
WORD = re.compile(r"[a-zа-яё]+(?:-[a-zа-яё]+)*")
# A parenthesis with no parenthesis inside: "(causal)" in "причинной (causal) модели".
PARENTHESIS = re.compile(r"\([^()]*\)")


def without_parentheses(text):
    """``text`` with every parenthesis removed, nested ones too."""
    while True:
        shorter = PARENTHESIS.sub(" ", text)
        if shorter == text:
            return text
        text = shorter


def offending(text):
    """The forbidden words in ``text``: a word, two adjacent words ("режим оценки"), or every
    word that starts with a prefix written with a trailing ellipsis ("занул…"). Two words are
    adjacent also when only a parenthesis stands between them ("причинной (causal) модели")."""
    candidates = set()
    for version in (text, without_parentheses(text)):
        words = WORD.findall(version.lower())
        candidates |= set(words) | {f"{a} {b}" for a, b in zip(words, words[1:], strict=False)}
    found = set()
    for rule in FORBIDDEN:
        if rule.endswith("…"):
            if any(w.startswith(rule[:-1]) for w in candidates):
                found.add(rule)
        elif rule in candidates:
            found.add(rule)
    return sorted(found)


def test_glossary_lists_forbidden_words():
    assert "вложение" in FORBIDDEN and "жетон" in FORBIDDEN
    assert {"режим оценки", "sequence-first", "занул…"} <= set(FORBIDDEN)


def test_offending_finds_words_and_phrases():
    assert offending("Каждое вложение токена") == ["вложение"]
    assert offending("Позиционная кодировка") == ["позиционная кодировка"]
    assert offending("Эмбеддинг токена") == []


def test_offending_finds_a_phrase_wherever_it_starts():
    # the pair of words starting at an odd word is a phrase too
    assert offending("Эта позиционная кодировка") == ["позиционная кодировка"]
    assert offending("модуль в режиме оценки") == ["режиме оценки"]


def test_offending_sees_through_a_parenthesis_between_two_words():
    assert offending("верно только для причинной (causal) модели") == ["причинной модели"]
    assert offending("для причинной (то есть (causal)) модели") == ["причинной модели"]
    # a word inside the parenthesis is still a word of the text
    assert offending("каузальная модель (не «причинная модель»)") == ["причинная модель"]
    assert offending("каузальной (causal) модели") == []


def test_offending_finds_latin_words_and_prefixes():
    assert offending("это формат sequence-first из туториалов") == ["sequence-first", "формат sequence-first"]
    assert offending("модуль в режиме eval, если") == ["режиме eval"]
    assert offending("`F.dropout` зануляет значения") == ["занул…"]
    assert offending("строка занулена, вектор занулён") == ["занул…"]
    assert offending("`F.dropout` обнуляет значения в режиме инференса (`model.eval()`)") == []


def test_offending_finds_the_imperative_of_throwing_an_exception_but_not_an_outlier():
    assert offending("прибавлять нечего: выбросьте исключение `ValueError`") == ["выбрось…"]
    assert offending("выбросьте `ValueError`") == ["выбрось…"]
    assert offending("модуль выбросил исключение") == ["выбросил исключение"]
    assert offending("вызовите исключение `ValueError`") == []
    # «выброс» (an outlier) and «выбросить» a folder are other words
    assert offending("один выброс в данных; не даёт Jekyll выбросить `_static/`") == []


@pytest.mark.parametrize("path", CONFIG.sources(), ids=lambda p: p.stem)
def test_russian_prose_follows_the_glossary(path):
    src = read_source(path)
    for i, cell in enumerate(src.cells):
        if cell_lang(cell) == "ru":
            assert offending(cell.source) == [], f"{src.where(i)}: use the glossary's terms"


@pytest.mark.parametrize("path", CONFIG.sources(), ids=lambda p: p.stem)
def test_russian_code_follows_the_glossary(path):
    """The Russian notebook's code: its comments and the strings pick() chose."""
    src = read_source(path)
    for i, cell in enumerate(src.cells):
        if cell.cell_type == "code":
            assert offending(localize(cell.source, "ru").code) == [], (
                f"{src.where(i)}: use the glossary's terms"
            )


# The Russian documents beside the lessons: the README and the guides in docs/.
RUSSIAN_DOCUMENTS = [CONFIG.readme("ru"), *sorted((CONFIG.root / "docs").glob("*.ru.md"))]
# Their one word in another sense: «пакет» there is a software package (Python, npm, Debian),
# the glossary's term for it; the lessons have no packages, so there it could only be a batch.
DOCUMENT_SENSES = {"пакет", "пакета"}


def test_the_russian_documents_are_found():
    assert len(RUSSIAN_DOCUMENTS) >= 2 and all(path.is_file() for path in RUSSIAN_DOCUMENTS)


def test_the_documents_sense_of_a_forbidden_word_is_the_glossarys():
    assert DOCUMENT_SENSES <= set(FORBIDDEN)
    package = [
        line
        for line in (CONFIG.lessons_dir / "GLOSSARY.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| package")
    ]
    assert len(package) == 1 and "| пакет" in package[0], package


@pytest.mark.parametrize("path", RUSSIAN_DOCUMENTS, ids=lambda p: p.name)
def test_russian_documents_follow_the_glossary(path):
    text = path.read_text(encoding="utf-8")  # whole: a phrase may wrap onto the next line
    found = sorted(set(offending(text)) - DOCUMENT_SENSES)
    lines = text.splitlines() + [""]
    where = [
        n for n in range(1, len(lines)) if set(offending(lines[n - 1] + " " + lines[n])) - DOCUMENT_SENSES
    ]
    assert found == [], f"{CONFIG.relative(path)}, lines {where} (or the next): use the glossary's terms"


def test_russian_messages_follow_the_glossary():
    for area, catalogue in all_catalogues().items():
        for key, entry in catalogue.entries.items():
            assert offending(entry["ru"]) == [], f"catalogue entry {area}.{key}"


@pytest.mark.parametrize(
    "catalogue", [workspace.TEXT, slides.TEXT, site_pages.TEXT, tables.HEADERS], ids=lambda c: c.area
)
def test_the_tools_messages_are_complete_and_follow_the_glossary(catalogue):
    assert catalogue.problems() == []
    for key, entry in catalogue.entries.items():
        assert offending(entry["ru"]) == [], f"{catalogue.area}.{key}"
