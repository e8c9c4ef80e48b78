"""A lesson's code in the notebook's language: bilingual comments, ``pick()`` and ``set_language``.

Code is written once in a lesson source; the build (:func:`localize`) makes each language's code
from it, so that a reader reads only the lesson's language:

- **A comment in words** is written in every language: the source language's text first, each
  translation on the line right below it, every line marked with its language. A notebook keeps
  its own language's text, without the marker, where the English stands (after the code, or on
  lines of its own); the other languages' lines go::

      x = W[ids]  # en: one row of the table per token
      # ru: по строке таблицы на токен

      # en: the paper's scale (section 3.4)
      # ru: масштаб из статьи (раздел 3.4)
      x = x * math.sqrt(d_model)

  A comment after code has one line per language; a comment on lines of its own may have
  several (each marked). A comment that is not marked must have nothing to translate
  (:func:`is_neutral`).
- **``pick(en="...", ru="...")``** (string literals or f-strings, one per language) becomes the
  literal of the notebook's language; inside an f-string, ``{pick(en="a", ru="б")}`` becomes
  the text itself. When no ``pick`` is left in a lesson, the build drops ``pick`` from its
  ``from course_lib import ...`` line (:func:`drop_import`). The source keeps the calls and the
  import, so it also runs as it is: ``course_lib.pick`` chooses the same text at run time (and
  the pseudo-language of the tests, whose notebooks keep the calls, relies on that).
- ``set_language("en")`` becomes ``set_language("ru")``.

The code is read with Python's own tokenizer and parser, never with patterns over its text. The
comments are read and resolved by :mod:`course_lib.code_comments`, which also translates the
comments of course_lib's own code that a student reads (the exercises' templates and solutions, written
in English, translated by the catalogues) and owns :func:`is_neutral` (``course_lib`` must not import
the course's tools).
:func:`code_problems` says what the build cannot do as the author meant, line by line, and
checks the result: every language's code, without its comments, is the English code token for
token, except the string literals the build resolved (:func:`twin_problems`).
"""

import ast
import re
import subprocess
import tokenize
from dataclasses import dataclass
from itertools import zip_longest

import nbformat

from course_lib.code_comments import (
    CodeError,
    Comment,
    _groups,
    _tokens,
    code_names,
    comments,
    is_neutral,
    localize_comments,
)

from ..core.config import CONFIG, LANGUAGE_DATA, LANGUAGES, PSEUDO, SOURCE_LANGUAGE, TRANSLATIONS

__all__ = [
    "PICK",
    "Comment",
    "Localized",
    "comments",
    "is_neutral",
    "code_names",
    "code_problems",
    "localize",
    "uses_name",
    "drop_import",
    "ruff_format",
    "twin_problems",
    "compare",
]

#: The function whose calls the build resolves to one language's literal.
PICK = "pick"
SET_LANGUAGE = "set_language"

FSTRING_START = getattr(tokenize, "FSTRING_START", None)  # Python 3.12+: f-strings are tokenized inside
FSTRING_END = getattr(tokenize, "FSTRING_END", None)
STRING_OPENING = re.compile(r"([A-Za-z]*)('''|\"\"\"|'|\")")


# ----------------------------------------------------------------------------- comments
def _comment_problems(code: str, names: frozenset[str]) -> list[tuple[int, str]]:
    found = comments(code)
    groups, problems = _groups(found)
    for c in found:
        if c.lang is None and not is_neutral(c.text, names, first_line=c.line == 1):
            problems.append(
                (
                    c.line,
                    f"the comment {c.text[:60]!r} is in one language only: write it as `# {SOURCE_LANGUAGE}: ...` "
                    f"with {' then '.join(f'`# {lang}: ...`' for lang in TRANSLATIONS)} on the line"
                    f"{'s' if len(TRANSLATIONS) > 1 else ''} below"
                    " (a comment with nothing to translate needs none: a shape like `# (batch, seq)`, "
                    "code, a tool's directive; notebooks/LESSON_GUIDE.md)",
                )
            )
        elif c.lang is not None and not c.text:
            problems.append((c.line, f"the `# {c.lang}:` comment is empty"))
    for group in groups:
        english = " ".join(c.text for c in group.texts[SOURCE_LANGUAGE])
        for lang in TRANSLATIONS:
            text = " ".join(c.text for c in group.texts[lang])
            if text and text != english and not LANGUAGE_DATA[lang].script.search(text):
                problems.append(
                    (
                        group.texts[lang][0].line,
                        f"the `# {lang}:` comment {text[:60]!r} has no text in {LANGUAGE_DATA[lang].name}: "
                        "translate it (a comment the same in every language repeats the English exactly)",
                    )
                )
    return problems


# ----------------------------------------------------------------------------- pick() and set_language


class _Offsets:
    """Character offsets in ``code`` of the positions that ``ast`` (UTF-8 bytes) and ``tokenize`` give."""

    def __init__(self, code: str):
        self.lines = code.split("\n")
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def chars(self, row: int, col: int) -> int:
        """From a line (from 1) and a column in characters (tokenize)."""
        return self.starts[row - 1] + col

    def node(self, row: int, col_bytes: int) -> int:
        """From a line (from 1) and a column in UTF-8 bytes (ast)."""
        return self.starts[row - 1] + len(self.lines[row - 1].encode()[:col_bytes].decode())

    def span(self, node) -> tuple[int, int]:
        return self.node(node.lineno, node.col_offset), self.node(node.end_lineno, node.end_col_offset)


def _is_pick(func) -> bool:
    """``pick`` or ``course_lib.pick``."""
    if isinstance(func, ast.Attribute):
        return func.attr == PICK and isinstance(func.value, ast.Name) and func.value.id == "course_lib"
    return isinstance(func, ast.Name) and func.id == PICK


def _fields(node) -> list[str]:
    """The replacement fields of an f-string (what ``{...}`` computes and how it is formatted), sorted."""
    if not isinstance(node, ast.JoinedStr):
        return []
    return sorted(ast.dump(v) for v in node.values if isinstance(v, ast.FormattedValue))


def _pick_calls(tree) -> list[ast.Call]:
    """The calls of ``pick``, outermost only (a pick inside another's argument goes with it)."""
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _is_pick(n.func)]
    ids = {id(n) for n in calls}
    inner = {id(m) for n in calls for arg in n.keywords for m in ast.walk(arg.value) if id(m) in ids}
    return [n for n in calls if id(n) not in inner]


def _pick_problem(call: ast.Call, code: str) -> str | None:
    """Why the build cannot resolve this call of ``pick``, or None."""
    got = {k.arg for k in call.keywords}
    literal = all(
        isinstance(k.value, ast.JoinedStr)
        or isinstance(k.value, ast.Constant)
        and isinstance(k.value.value, str)
        for k in call.keywords
    )
    segment = " ".join((ast.get_source_segment(code, call) or "pick(...)").split())
    if call.args or None in got or got != set(LANGUAGES) or not literal:
        wanted = ", ".join(f'{lang}="..."' for lang in LANGUAGES)
        return (
            f"{segment[:80]!r}: the build resolves pick() to one language's string, so it takes one string "
            f"literal or f-string per language, by name, and nothing else: pick({wanted})"
        )
    if len({tuple(_fields(k.value)) for k in call.keywords}) > 1:
        return (
            f"{segment[:80]!r}: the f-strings of pick() compute different {{fields}} in each language, "
            "but the code must be the same in every language: the same fields, in any order (a number "
            "written the language's way is course_lib.i18n.format_decimal or format_number, which follow "
            "set_language)"
        )
    return None


def _field_span(code: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of ``{ ... }`` around ``code[start:end]``, when only spaces lie between."""
    before = len(code[:start].rstrip(" "))
    after = end + len(code[end:]) - len(code[end:].lstrip(" "))
    if before > 0 and code[before - 1] == "{" and after < len(code) and code[after] == "}":
        return before - 1, after + 1
    return None


def _fstring_opening(code: str, offset: int, offsets: _Offsets) -> str | None:
    """The prefix and quote (``f"``, ``rf'''``) of the innermost f-string around ``offset``."""
    stack: list[str] = []
    for tok in _tokens(code):
        start, end = offsets.chars(*tok.start), offsets.chars(*tok.end)
        if start > offset:
            break
        if tok.type == tokenize.STRING and start <= offset < end:
            return tok.string  # Python 3.11: an f-string is one token
        if FSTRING_START is not None and tok.type == FSTRING_START:
            stack.append(tok.string)
        elif FSTRING_END is not None and tok.type == FSTRING_END:
            stack.pop()
    return stack[-1] if stack else None


def _inline(value: str, opening: str | None) -> str | None:
    """``value`` as the text of an f-string that opens with ``opening``, or None when it cannot be."""
    found = STRING_OPENING.match(opening or "")
    if found is None or "f" not in found.group(1).lower():
        return None
    quote = found.group(2)
    if not value.isprintable() or "\\" in value or quote[0] in value:
        return None
    return value.replace("{", "{{").replace("}", "}}")


def _edits(code: str, lang: str) -> list[tuple[int, int, str, str]]:
    """What the build replaces in ``code`` for ``lang``: (start, end, new text, ``PICK`` or
    ``SET_LANGUAGE``), by character offsets."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    offsets = _Offsets(code)
    edits = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and (
                getattr(node.func, "id", None) == SET_LANGUAGE
                or getattr(node.func, "attr", None) == SET_LANGUAGE
            )
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value == SOURCE_LANGUAGE
        ):
            start, end = offsets.span(node.args[0])
            edits.append((start, end, code[start:end].replace(SOURCE_LANGUAGE, lang), SET_LANGUAGE))
    if lang == PSEUDO:
        return edits  # the pseudo-language's notebooks keep pick(), which course_lib resolves at run time
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for call in _pick_calls(tree):
        if _pick_problem(call, code) is not None:
            continue
        value = next(k.value for k in call.keywords if k.arg == lang)
        start, end = offsets.span(call)
        parent = parents.get(id(call))
        text = None
        if (
            isinstance(parent, ast.FormattedValue)
            and parent.conversion == -1
            and parent.format_spec is None
            and isinstance(value, ast.Constant)
        ):
            braces = _field_span(code, start, end)
            if braces is not None:
                text = _inline(value.value, _fstring_opening(code, start, offsets))
                if text is not None:
                    start, end = braces
        if text is None:
            value_start, value_end = offsets.span(value)
            text = code[value_start:value_end]
        edits.append((start, end, text, PICK))
    return sorted(edits)


@dataclass(frozen=True)
class Localized:
    """One cell's code in one language.

    Attributes:
        code: the code.
        resolved: the spans of ``code`` (character offsets) that the build wrote: the literals
            of ``pick()`` and ``set_language``.
        origin: for each line of ``code``, its line in the source cell (from 1).
        picks: how many calls of ``pick()`` were resolved.
    """

    code: str
    resolved: tuple[tuple[int, int], ...] = ()
    origin: tuple[int, ...] = ()
    picks: int = 0


def localize(code: str, lang: str) -> Localized:
    """The code of a source cell in ``lang``: its comments, ``pick()`` and ``set_language`` resolved.

    Lenient: what cannot be resolved is left as it is (:func:`code_problems` says what).

        >>> localize('x = f(pick(en="one", ru="один"))  # en: a call\\n# ru: вызов', "ru").code
        'x = f("один")  # вызов'
        >>> localize('print(f"{n} {pick(en=\\'rows\\', ru=\\'строк\\')}")', "ru").code
        'print(f"{n} строк")'
        >>> localize('print(f"{pick(en=\\'rows\\', ru=\\'строк\\')}:", n)', "ru").code
        'print("строк:", n)'
    """
    try:
        code, origin = localize_comments(code, lang)
    except CodeError:
        return Localized(code, (), tuple(range(1, code.count("\n") + 2)))
    edits = _edits(code, lang)
    out, resolved = _apply(code, [(start, end, text) for start, end, text, _ in edits], [])
    out, resolved = _apply(out, _plain_strings(out, resolved), resolved)
    picks = sum(kind == PICK for *_, kind in edits)
    return Localized(out, tuple(resolved), tuple(origin), picks)


def _apply(code: str, edits, spans) -> tuple[str, list[tuple[int, int]]]:
    """``code`` with ``edits`` (start, end, text; apart, in order) made; ``spans`` of ``code`` moved
    along, those an edit touches merged into it, and each edit's text a span of the result."""
    out, result, at, shift = [], [], 0, 0
    moved = list(spans)
    for start, end, text in edits:
        out += [code[at:start], text]
        at = end
        new = (start + shift, start + shift + len(text))
        moved = [s for s in moved if not (s[0] < end and start < s[1])]
        result.append(new)
        shift += len(text) - (end - start)
    out.append(code[at:])
    # spans no edit touched keep their text: moved by the edits before them
    for s_start, s_end in moved:
        before = sum(len(t) - (e - b) for b, e, t in edits if e <= s_start)
        result.append((s_start + before, s_end + before))
    return "".join(out), sorted(result)


def _plain_strings(code: str, spans) -> list[tuple[int, int, str]]:
    """Edits that make a plain string of each resolved f-string with no field left (``f"строк"``
    -> ``"строк"``): ruff would flag the f-string (F541)."""
    edits = []
    try:
        tokens = _significant(code)
    except CodeError:
        return []
    for tok in tokens:
        if tok.kind != "string" or not any(start < tok.end and tok.start < end for start, end in spans):
            continue
        opening = STRING_OPENING.match(tok.text)
        if opening is None or "f" not in opening.group(1).lower():
            continue
        try:
            node = ast.parse(tok.text, mode="eval").body
        except SyntaxError:
            continue
        if isinstance(node, ast.JoinedStr) and not any(
            isinstance(v, ast.FormattedValue) for v in node.values
        ):
            prefix = opening.group(1).replace("f", "").replace("F", "")
            body = tok.text[len(opening.group(1)) :].replace("{{", "{").replace("}}", "}")
            edits.append((tok.start, tok.end, prefix + body))
    return edits


def uses_name(code: str, name: str) -> bool:
    """Whether ``code`` reads the name ``name`` anywhere (an import of it does not count).

    >>> uses_name("from course_lib import pick", "pick"), uses_name("print(pick(en='a'))", "pick")
    (False, True)
    """
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return name in code
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(tree))


def drop_import(code: str, name: str, module: str = "course_lib") -> str:
    """``code`` without ``name`` in its ``from <module> import ...`` statements (the whole line if it was alone).

    >>> drop_import("from course_lib import pick, plots\\nx = 1", "pick")
    'from course_lib import plots\\nx = 1'
    """
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    offsets = _Offsets(code)
    cuts = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.module != module or node.level:
            continue
        names = node.names
        for k, alias in enumerate(names):
            if alias.name != name or alias.asname is not None:
                continue
            if len(names) == 1:
                start, end = offsets.span(node)
                end += code[end:].startswith("\n")
            elif k + 1 < len(names):
                start, end = offsets.span(alias)[0], offsets.span(names[k + 1])[0]
            else:
                start, end = offsets.span(names[k - 1])[1], offsets.span(alias)[1]
            cuts.append((start, end))
    for start, end in sorted(cuts, reverse=True):
        code = code[:start] + code[end:]
    return code


def ruff_format(codes: dict[int, str]) -> dict[int, str]:
    """``codes`` (cell index -> code) formatted by ``ruff format`` with the course's settings, as
    ``make lint`` checks them: a string of another length may fit on fewer lines, or need more.

    One run of ruff for all the cells, given as a notebook (ruff formats each cell on its own).
    """
    if not codes:
        return {}
    try:
        from ruff.__main__ import find_ruff_bin

        ruff = find_ruff_bin()
    except (ImportError, FileNotFoundError):
        raise RuntimeError(
            "the lesson build formats the code whose strings it resolved with ruff, which is not installed: "
            "run `make notebooks` (it installs the course's development tools), or pip install -e '.[dev]'"
        ) from None
    nb = nbformat.v4.new_notebook()
    nb.metadata["language_info"] = {"name": "python"}
    order = sorted(codes)
    nb.cells = [nbformat.v4.new_code_cell(codes[i]) for i in order]
    done = subprocess.run(
        [
            ruff,
            "format",
            "--config",
            str(CONFIG.root / "pyproject.toml"),
            "--stdin-filename",
            "lesson.ipynb",
            "-",
        ],
        input=nbformat.writes(nb),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"ruff format could not format the lesson's code: {done.stderr.strip()}")
    cells = nbformat.reads(done.stdout, as_version=4).cells
    return {i: cell.source for i, cell in zip(order, cells, strict=True)}


# ----------------------------------------------------------------------------- the twin check


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str
    start: int
    end: int
    line: int


def _significant(code: str) -> list[_Token]:
    """The tokens of ``code`` without comments and blank lines; an f-string is one token."""
    offsets = _Offsets(code)
    out: list[_Token] = []
    depth, opened = 0, None
    for tok in _tokens(code):
        start, end = offsets.chars(*tok.start), offsets.chars(*tok.end)
        if FSTRING_START is not None and tok.type == FSTRING_START:
            depth += 1
            opened = opened if depth > 1 else (start, tok.start[0])
            continue
        if FSTRING_END is not None and tok.type == FSTRING_END:
            depth -= 1
            if depth == 0:
                out.append(_Token("string", code[opened[0] : end], opened[0], end, opened[1]))
            continue
        if depth or tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER):
            continue
        kind = "string" if tok.type == tokenize.STRING else tokenize.tok_name[tok.type]
        text = "" if tok.type == tokenize.NEWLINE else tok.string
        out.append(_Token(kind, text, start, end, tok.start[0]))
    return out


def compare(base: Localized, other: Localized, lang: str) -> list[tuple[int, str]]:
    """How ``other`` (the code in ``lang``) differs from ``base`` (in the source language) beyond
    comments and the literals the build resolved; the line is the source cell's."""

    def resolved(code: Localized, tok: _Token) -> bool:
        return any(start < tok.end and tok.start < end for start, end in code.resolved)

    def line(code: Localized, tok: _Token | None) -> int:
        return code.origin[tok.line - 1] if tok is not None and tok.line <= len(code.origin) else 1

    try:
        pairs = zip_longest(_significant(base.code), _significant(other.code))
    except CodeError as error:
        return [(1, str(error))]
    for a, b in pairs:
        if a is not None and b is not None and (a.kind, a.text) == (b.kind, b.text):
            continue
        if (
            a is not None
            and b is not None
            and a.kind == b.kind == "string"
            and resolved(base, a)
            and resolved(other, b)
        ):
            continue

        def shown(tok: _Token | None) -> str:
            if tok is None:
                return "the end of the code"
            return "the end of the line" if tok.kind == "NEWLINE" else repr(tok.text)

        return [
            (
                line(base, a) if a is not None else line(other, b),
                f"the code differs between lang-{SOURCE_LANGUAGE} and lang-{lang} beyond comments and the "
                f"strings of pick(): {shown(a)} against {shown(b)}",
            )
        ]
    return []


def twin_problems(code: str) -> list[tuple[int, str]]:
    """Every translation's code against the source language's, without comments (:func:`compare`)."""
    base = localize(code, SOURCE_LANGUAGE)
    return [p for lang in TRANSLATIONS for p in compare(base, localize(code, lang), lang)]


def code_problems(code: str, names: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """What the build cannot do as meant in a cell's ``code``: (line in the cell, message), in line order.

    ``names`` are the names the lesson's code uses (:func:`code_names`), for :func:`is_neutral`.
    """
    try:
        ast.parse(code)
        problems = _comment_problems(code, names)
    except (CodeError, SyntaxError) as error:
        line = getattr(error, "lineno", None) or 1
        return [(line, f"Python cannot read this code, so the build cannot put it in each language: {error}")]
    tree = ast.parse(code)
    problems += [
        (call.lineno, p) for call in _pick_calls(tree) if (p := _pick_problem(call, code)) is not None
    ]
    problems += twin_problems(code)
    return sorted(problems)
