"""The Russian text uses the glossary's terms, not the words it rules out."""

import re

import pytest

from course_lib.i18n import CATALOGUE
from tests.support import ROOT, load_script

build = load_script("notebooks/build.py")


def forbidden_words():
    words = {}
    for line in (ROOT / "notebooks" / "GLOSSARY.md").read_text().splitlines():
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cols) == 3 and cols[2] and not set(cols[2]) <= set("-") and cols[0] != "English":
            for word in cols[2].split(","):
                words[word.strip().lower()] = cols[1]
    return words


FORBIDDEN = forbidden_words()


def offending(text):
    found = set(re.findall(r"[а-яё\-]+(?: [а-яё\-]+)?", text.lower()))
    tokens = set(re.findall(r"[а-яё\-]+", text.lower()))
    return sorted(w for w in FORBIDDEN if w in tokens or w in found)


def test_glossary_lists_forbidden_words():
    assert "вложение" in FORBIDDEN and "жетон" in FORBIDDEN


def test_offending_finds_words_and_phrases():
    assert offending("Каждое вложение токена") == ["вложение"]
    assert offending("Позиционная кодировка") == ["позиционная кодировка"]
    assert offending("Эмбеддинг токена") == []


@pytest.mark.parametrize("path", build.sources(), ids=lambda p: p.stem)
def test_russian_prose_follows_the_glossary(path):
    nb = build.read_source(path)
    for i, cell in enumerate(nb.cells):
        if build.cell_lang(cell) == "ru":
            assert offending(cell.source) == [], f"{path.name}, cell {i + 1}: use the glossary's terms"


def test_russian_messages_follow_the_glossary():
    for key, entry in CATALOGUE.items():
        assert offending(entry["ru"]) == [], f"catalogue entry {key}"
