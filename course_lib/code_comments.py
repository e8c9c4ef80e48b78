"""Comments in code, in each language: the lessons' marked comments, and course_lib's from the catalogues.

Two ways to write a comment that a reader reads in their own language:

- **In a lesson's code** (``notebooks/NN_name.md``), every language is written in the source: the
  source language's text first, each translation on the line right below it, every line marked
  with its language::

      x = W[ids]  # en: one row of the table per token
      # ru: по строке таблицы на токен

  :func:`localize_comments` keeps one language's text, without its marker, where the English
  stands, and drops the other languages' lines. The lesson build (``course_tools.build.lesson_code``)
  resolves a lesson's code with it and checks the pairing (every comment has its twins, each
  language the same code).

- **In course_lib's own code that a student reads** -- the exercises' templates and solutions
  (``course_lib/exercises/templates/<name>.py``, ``solutions/<name>.py``) and the functions a lesson
  prints (:func:`show`) -- the comments are written once, in English, and translated like the
  messages: each comment in words (:func:`prose`) is an entry of the package's gettext catalogue,
  msgctxt ``code:<its file>`` (:func:`context`), msgid its English, msgstr the translation
  (``python -m course_tools.translations update`` extracts them, ``check`` names the missing and the
  stale ones). :func:`translated` puts each language's text where the English stands.

One reader of comments serves both, with Python's own tokenizer, never with patterns over the text.

    >>> in_language("x = 1  # en: one\\n# ru: один", "ru")
    'x = 1  # один'
    >>> [c.text for c in prose("x = W[ids]  # (batch, seq, d_model)\\n# the paper's scale\\n# (section 3.4)\\ny = 2")]
    ["the paper's scale\\n(section 3.4)"]
"""

import ast
import builtins
import inspect
import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from .i18n import (
    LANGUAGES,
    PSEUDO,
    SOURCE_LANGUAGE,
    TRANSLATIONS,
    po_messages,
    pseudo,
    resolve,
    translations,
)

__all__ = [
    "SOURCE_LANGUAGE",
    "TRANSLATIONS",
    "MARKED",
    "CodeError",
    "Comment",
    "comments",
    "localize_comments",
    "in_language",
    "is_neutral",
    "code_names",
    "Prose",
    "prose",
    "context",
    "register",
    "show",
    "registered",
    "translated",
    "problems",
]

# a marked comment: "# en: text"; the language is checked against LANGUAGES
MARKED = re.compile(r"#\s*([a-z]{2,3}):(?:\s(.*)|\s*)$", re.S)
# directives for the tools that read code; they stay as they are in every language
DIRECTIVE = re.compile(r"#\s*(noqa\b|type:|fmt:|ruff:|isort:|pragma\b|pyright:|mypy:|NBVAL_)")
CODING = re.compile(r"#.*coding[:=]")
BUILTINS = frozenset(dir(builtins))
#: the package whose catalogues translate the comments of its code (course_lib/locale/<lang>/...)
PACKAGE = "course_lib"
_ROOT = Path(__file__).parent


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


def in_language(code: str, lang: str | None = None, context: str | None = None) -> str:
    """``code`` with its comments in ``lang`` (the current language when None).

    Its marked comments (a lesson's ``# en:`` / ``# ru:``) keep ``lang``'s text; its English comments
    are translated by the catalogue under ``context`` (:func:`translated`), or, when ``context`` is
    None, under the context of the code :func:`show` registered that is ``code`` itself (lesson 7
    prints ``in_language(inspect.getsource(TinyTransformer.forward))``). Code that Python cannot
    tokenize is returned as it is.
    """
    lang = resolve(lang)
    try:
        code = localize_comments(code, lang)[0]
    except CodeError:
        return code
    if context is None:
        context = next((c for c, codes in _REGISTERED.items() if code in codes), None)
    return code if context is None else translated(code, context, lang)


# ----------------------------------------------------------------------------- what has no words


def code_names(codes) -> frozenset[str]:
    """Every name the code ``codes`` uses (a lesson's cells, a file): variables, functions, attributes."""
    names = set()
    for code in codes:
        try:
            names |= {t.string for t in _tokens(code) if t.type == tokenize.NAME}
        except CodeError:
            continue
    return frozenset(names)


def _is_size(node) -> bool:
    """A tensor axis as a shape comment writes it: a name, a number, ``...``, or arithmetic of those."""
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Constant):
        return node.value is Ellipsis or type(node.value) in (int, float)
    if isinstance(node, ast.BinOp):
        return _is_size(node.left) and _is_size(node.right)
    if isinstance(node, ast.UnaryOp | ast.Starred):
        return _is_size(node.operand if isinstance(node, ast.UnaryOp) else node.value)
    return False


def _is_shape(node) -> bool:
    """A shape, ``(batch, seq, d_model)``, or several, ``(seq, d_model), (seq, seq)``."""
    if not isinstance(node, ast.Tuple):
        return False
    return all(_is_size(e) for e in node.elts) or all(_is_shape(e) for e in node.elts)


def is_neutral(comment: str, names: frozenset[str] = frozenset(), *, first_line: bool = False) -> bool:
    """Whether a comment (with its ``#``) has nothing to translate: the same in every language.

    Such a comment is a directive for a tool (``# noqa: E731``, ``# type: ignore``,
    ``# fmt: off``, ``# NBVAL_SKIP``; on the first line a shebang or a coding line), or it is
    Python without words: it parses as Python and is

    - a shape, ``# (batch, seq, d_model)``, several, ``# (seq, d_model), (seq, seq)``, or one
      with its name, ``# x: (seq, d_model)``: names, numbers, ``...`` and arithmetic in parentheses;
    - or code whose every bare name is one the code around it uses (``names``) or a builtin, and
      that holds no string: ``# exercises.alibi.hint(1)``, ``# self.scale = math.sqrt(d_model)``.

    A word alone (``# degrees``) is prose, and so is what only happens to parse:
    ``# 13.1 in English`` (``English`` is no name of the code), ``# misses: neighbours``.

        >>> is_neutral("# (batch, seq, d_model)"), is_neutral("# noqa: E731"), is_neutral("# degrees")
        (True, True, False)
        >>> is_neutral("# tok = train(texts)", frozenset({"tok", "train", "texts"}))
        True
    """
    if first_line and (comment.startswith("#!") or CODING.match(comment)):
        return True
    if DIRECTIVE.match(comment):
        return True
    text = comment[1:].strip()
    if not text:
        return True
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return False
    if len(tree.body) != 1:
        return False
    statement = tree.body[0]
    if isinstance(statement, ast.Expr) and _is_shape(statement.value):
        return True
    if (
        isinstance(statement, ast.AnnAssign)
        and isinstance(statement.target, ast.Name)
        and statement.value is None
        and _is_shape(statement.annotation)
    ):
        return True
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Name):
        return False
    nodes = list(ast.walk(tree))
    if any(isinstance(n, ast.Constant) and isinstance(n.value, str) for n in nodes):
        return False
    return {n.id for n in nodes if isinstance(n, ast.Name)} <= names | BUILTINS


# ----------------------------------------------------------------------------- comments from the catalogue


@dataclass(frozen=True)
class Prose:
    """A comment in words of code written in English: what the catalogue translates as one entry.

    Attributes:
        line: its first line in the code, from 1.
        end: its last line (``line`` for a comment after code).
        col: the column of its ``#`` (of every line's, for a comment on lines of its own).
        own_line: on lines of its own (otherwise it follows code, on one line).
        text: its English, the msgid: its lines without their ``#`` and one space, joined by newlines.
    """

    line: int
    end: int
    col: int
    own_line: bool
    text: str


def _words(comment: str) -> str:
    """A comment's text: without its ``#`` and the one space after it."""
    text = comment[1:]
    return text[1:] if text.startswith(" ") else text


def prose(code: str) -> list[Prose]:
    """The comments in words of ``code`` (:class:`CodeError` if it does not tokenize), in order.

    Each is a comment after code, or a run of comments on lines of their own, one right below the
    other at the same column (a paragraph, translated as a whole: its translation may have more or
    fewer lines). A tool's directive is never part of one, and a comment or a run with nothing to
    translate (:func:`is_neutral`: a shape, code of the file's own names) is not one.
    """
    names = code_names([code])
    found = [c for c in comments(code) if c.lang is None]
    runs: list[list[Comment]] = []
    for c in found:
        directive = DIRECTIVE.match(c.text) or (
            c.line == 1 and (c.text.startswith("#!") or CODING.match(c.text))
        )
        previous = runs[-1][-1] if runs else None
        if (
            c.own_line
            and not directive
            and previous is not None
            and previous.own_line
            and previous.line == c.line - 1
            and previous.col == c.col
            and not DIRECTIVE.match(previous.text)
        ):
            runs[-1].append(c)
        else:
            runs.append([c])
    return [
        Prose(run[0].line, run[-1].line, run[0].col, run[0].own_line, "\n".join(_words(c.text) for c in run))
        for run in runs
        if not all(is_neutral(c.text, names, first_line=c.line == 1) for c in run)
    ]


def context(path: str | Path) -> str:
    """The msgctxt of the comments of a file of the package: ``code:`` and its path in the package.

    >>> context(Path(__file__).parent / "exercises" / "templates" / "alibi.py")
    'code:exercises/templates/alibi.py'
    """
    return "code:" + Path(path).resolve().relative_to(_ROOT).as_posix()


# Kept when this module is reloaded: the code registered by the modules that are not reloaded with it.
_REGISTERED: dict[str, dict[str, int]] = globals().get("_REGISTERED", {})


def register(code: str, path: str | Path, line: int = 1) -> str:
    """Make the comments of ``code``, the file ``path`` or a part of it from its line ``line``, entries of the catalogue.

    Returns their context (:func:`context`). ``python -m course_tools.translations update`` extracts
    every registered code's :func:`prose`; an exercise registers its template and solution.
    """
    where = context(path)
    codes = _REGISTERED.setdefault(where, {})
    for before, start in list(codes.items()):
        if start == line:  # the same part of the file, registered again (its module reloaded)
            del codes[before]
    codes[code] = line
    return where


def show(*objects) -> None:
    """Register the source of functions or classes that a lesson prints, as ``inspect.getsource`` gives it.

    Their comments are English in the code; :func:`in_language` of that source translates them.
    """
    for obj in objects:
        lines, line = inspect.getsourcelines(obj)
        register("".join(lines), inspect.getsourcefile(obj), line)


def registered() -> dict[str, dict[str, int]]:
    """The code whose comments the catalogue translates: ``{context: {code: its first line in the file}}``
    (import a module to register its code)."""
    return {where: dict(codes) for where, codes in _REGISTERED.items()}


def translated(code: str, context: str, lang: str | None = None) -> str:
    """``code``, its comments written in English, with each comment in words (:func:`prose`) in ``lang``.

    A comment's text in ``lang`` is the catalogue's msgstr of msgctxt ``context``, msgid its English;
    where there is none that is current (missing, fuzzy), or where a comment after code would be
    translated on several lines, the English stays, as a message's does. The pseudo-language
    accents and brackets each line. Code that Python cannot tokenize is returned as it is.
    """
    lang = resolve(lang)
    try:
        found = [] if lang == SOURCE_LANGUAGE else prose(code)
    except CodeError:  # not Python: as it is
        return code
    table = {} if lang in (SOURCE_LANGUAGE, PSEUDO) else translations(PACKAGE, lang)
    lines = code.split("\n")
    new: dict[int, list[str]] = {}  # line (from 1) -> the lines that replace it ([] removes it)
    for comment in found:
        english = comment.text.split("\n")
        if lang == PSEUDO:
            texts = [pseudo(t) for t in english]
        else:
            texts = table.get((context, comment.text), comment.text).split("\n")
            if not comment.own_line and len(texts) > 1:
                texts = english
        line = lines[comment.line - 1]
        if comment.own_line:
            new[comment.line] = [
                f"{line[: comment.col]}# {t}" if t else f"{line[: comment.col]}#" for t in texts
            ]
        else:
            new[comment.line] = [f"{line[: comment.col]}# {texts[0]}"]
        for number in range(comment.line + 1, comment.end + 1):
            new[number] = []
    out = []
    for number, line in enumerate(lines, start=1):
        out += new.get(number, [line])
    return "\n".join(out)


def problems(codes: dict[str, dict[str, int]] | None = None) -> list[str]:
    """What the catalogues lack for the registered code's comments (``codes``: :func:`registered`, once
    every module that registers code is imported, as ``python -m course_tools.translations check`` does).

    For each language: a comment with no translation, or a stale one (fuzzy: its English changed), a
    translation of a comment after code written on several lines, and an entry of a ``code:`` context
    (of ``codes``' contexts, when given) that is no comment of the code any more (obsolete:
    ``translations update`` retires it).
    """
    contexts = None if codes is None else set(codes)
    codes = registered() if codes is None else codes
    wanted = {
        (where, comment.text): comment
        for where, texts in codes.items()
        for code in texts
        for comment in prose(code)
    }
    found = []
    for lang in TRANSLATIONS:
        po = {(c, msgid): (msgstr, fuzzy) for c, msgid, msgstr, fuzzy in po_messages(PACKAGE, lang)}
        where_po = f"{PACKAGE}/locale/{lang}/LC_MESSAGES/{PACKAGE}.po"
        for (where, english), comment in wanted.items():
            name = f"{where} ({lang}) {english.splitlines()[0][:60]!r}"
            msgstr, fuzzy = po.get((where, english), ("", False))
            if not msgstr.strip():
                found.append(f"{name}: no text in {lang}, in {where_po}")
            elif fuzzy:
                found.append(f"{name}: stale (fuzzy): its English changed, revise the translation")
            elif not comment.own_line and "\n" in msgstr:
                found.append(f"{name}: a comment after code takes one line, the translation has several")
        found += [
            f"{c} ({lang}) {msgid.splitlines()[0][:60]!r}: obsolete, no such comment in the code"
            for c, msgid in po
            if c.startswith("code:") and (contexts is None or c in contexts) and (c, msgid) not in wanted
        ]
    return found
