"""Bilingual comments in code: each language's text on its own line, resolved to one language.

A comment in words is written in every language: the source language's text first, each
translation on the line right below it, every line marked with its language::

    x = W[ids]  # en: one row of the table per token
    # ru: по строке таблицы на токен

:func:`localize_comments` keeps one language's text, without its marker, where the English
stands, and drops the other languages' lines. The lesson build (``course_tools.build.lesson_code``)
resolves a lesson's code with it, and an exercise (``course_lib.exercises``) its template and
solution, in the language of :func:`course_lib.set_language` (:func:`in_language`): one reader
of the comments for both. The code is read with Python's own tokenizer, never with patterns
over its text; what the build checks of the comments (every one has its twins, each language
the same code) is ``course_tools.build.lesson_code``'s.

    >>> in_language("x = 1  # en: one\\n# ru: один", "ru")
    'x = 1  # один'
"""

import io
import re
import tokenize
from dataclasses import dataclass, field

from .i18n import LANGUAGES, PSEUDO, SOURCE_LANGUAGE, TRANSLATIONS, pseudo, resolve

__all__ = [
    "SOURCE_LANGUAGE",
    "TRANSLATIONS",
    "MARKED",
    "CodeError",
    "Comment",
    "comments",
    "localize_comments",
    "in_language",
]

# a marked comment: "# en: text"; the language is checked against LANGUAGES
MARKED = re.compile(r"#\s*([a-z]{2,3}):(?:\s(.*)|\s*)$", re.S)


class CodeError(ValueError):
    """Code the build cannot read: it does not tokenize or parse as Python."""


# ----------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Comment:
    """One comment of a cell's code.

    Attributes:
        line: its line in the code, from 1.
        col: the column of its ``#``.
        own_line: alone on its line (otherwise it follows code).
        lang: the language it is marked with, ``None`` when it is not marked.
        text: what it says: after the marker, or the whole comment with its ``#`` when unmarked.
    """

    line: int
    col: int
    own_line: bool
    lang: str | None
    text: str


def _tokens(code: str) -> list[tokenize.TokenInfo]:
    try:
        return list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError) as error:
        raise CodeError(f"Python cannot read this code: {error}") from None


def comments(code: str) -> list[Comment]:
    """The comments of ``code``, in order (:class:`CodeError` if it does not tokenize)."""
    lines = code.split("\n")
    found = []
    for tok in _tokens(code):
        if tok.type != tokenize.COMMENT:
            continue
        row, col = tok.start
        own = not lines[row - 1][:col].strip()
        marked = MARKED.match(tok.string)
        if marked and marked.group(1) in LANGUAGES:
            found.append(Comment(row, col, own, marked.group(1), (marked.group(2) or "").strip()))
        else:
            found.append(Comment(row, col, own, None, tok.string))
    return found


# ----------------------------------------------------------------------------- comments


@dataclass
class _Group:
    """One bilingual comment: each language's lines (the source language's first)."""

    texts: dict[str, list[Comment]] = field(default_factory=dict)

    @property
    def first(self) -> Comment:
        return self.texts[SOURCE_LANGUAGE][0]


def _groups(found: list[Comment]) -> tuple[list[_Group], list[tuple[int, str]]]:
    """The bilingual comments among ``found``, and what is wrong with their pairing."""
    groups, problems = [], []
    i = 0
    while i < len(found):
        c = found[i]
        i += 1
        if c.lang is None:
            continue
        if c.lang != SOURCE_LANGUAGE:
            where = "on a line of its own, " if not c.own_line else ""
            problems.append(
                (
                    c.line,
                    f"a `# {c.lang}:` comment belongs {where}right below the `# {SOURCE_LANGUAGE}:` "
                    "comment it translates (or below the other translations of it)",
                )
            )
            continue
        run = [c]
        while c.own_line and i < len(found) and _follows(found[i], run[-1], SOURCE_LANGUAGE):
            run.append(found[i])
            i += 1
        group = _Group({SOURCE_LANGUAGE: run})
        last = run[-1]
        for lang in TRANSLATIONS:
            twin: list[Comment] = []
            while i < len(found) and _follows(found[i], last, lang) and (c.own_line or not twin):
                twin.append(found[i])
                last = found[i]
                i += 1
            group.texts[lang] = twin
            if not twin:
                problems.append(
                    (
                        c.line,
                        f"this `# {SOURCE_LANGUAGE}:` comment has no `# {lang}:` twin on the line below it",
                    )
                )
        groups.append(group)
    return groups, problems


def _follows(c: Comment, previous: Comment, lang: str) -> bool:
    """``c`` is a line of ``lang`` on its own line right below ``previous``."""
    return c.own_line and c.lang == lang and c.line == previous.line + 1


def localize_comments(code: str, lang: str) -> tuple[str, list[int]]:
    """``code`` with each bilingual comment in ``lang``; and, for each line of the result, its line in ``code``."""
    found = comments(code)
    groups, _ = _groups(found)
    lines = code.split("\n")
    new: dict[int, list[str]] = {}  # line (from 1) -> the lines that replace it ([] removes it)
    for group in groups:
        chosen = group.texts.get(lang) or group.texts[SOURCE_LANGUAGE]
        texts = [c.text for c in chosen]
        if lang == PSEUDO:
            texts = [pseudo(t) for t in texts]
        first = group.first
        line = lines[first.line - 1]
        if first.own_line:
            indent = line[: first.col]
            replacement = [f"{indent}# {t}" for t in texts]
        else:
            replacement = [f"{line[: first.col]}# {texts[0]}"]
        new[first.line] = replacement
        for c in [c for cs in group.texts.values() for c in cs]:
            if c.line != first.line:
                new.setdefault(c.line, [])
    out, origin = [], []
    for number, line in enumerate(lines, start=1):
        for text in new.get(number, [line]):
            out.append(text)
            origin.append(number)
    return "\n".join(out), origin


def in_language(code: str, lang: str | None = None) -> str:
    """``code`` with its bilingual comments in ``lang`` (the current language when None).

    Code that Python cannot tokenize is returned as it is.
    """
    lang = resolve(lang)
    try:
        return localize_comments(code, lang)[0]
    except CodeError:
        return code
