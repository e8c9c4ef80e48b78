"""A third language is data only, measured end to end: a pseudo-language added to a copy of the course.

In a temporary copy of the course (its packages, lesson sources, READMEs and settings), a script plays
the translator of a new language, ``xx``: English with accented letters (``Déép dîvé``), everything a
translator writes, written where a translator writes it --

- its entry in ``course_lib/locale/languages.json``;
- its two catalogues, ``python -m course_tools.translations init xx`` then every msgstr filled: the
  messages, the exercises' template and solution comments, reveal.js's words;
- the site theme's ``course_tools/publish/site_theme/locales/xx/LC_MESSAGES/sphinx.po``;
- its twin of every prose cell, its ``# xx:`` line under every comment and its ``xx=`` in every
  ``pick()`` of each lesson source, ``notebooks/NN_name.md``.

Then the course's own tools take the language up with no change to any ``.py`` or ``.js`` file: no
message or code comment is missing or stale, every lesson source is complete in it (what
``python -m course_tools.lessons check`` asks of a source), every lesson renders in it as a notebook
and as a deck, the exercises' templates and solutions and reveal.js's chrome read in it, and a
lesson executes in it, its exercise verdict in the new language. The files that differ from the
course's are counted: at most 20, none of them Python or JavaScript.
"""

import ast
import filecmp
import io
import json
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import jupytext
import nbformat

from course_lib.code_comments import _groups, comments
from course_tools.build.source import FENCE, cell_lang, fingerprint, read_source

ROOT = Path(__file__).resolve().parents[2]
CODE = "xx"
LANGUAGE = {"name": "Pseudo", "letters": "A-Za-záçéîñöŕšüýÁÇÉÎÑÖŔŠÜÝ", "lab_locale": "en", "cldr": "en"}
#: what the copy holds: the packages, the lesson sources and what the build reads beside them
COPIED = ("course_lib", "course_tools", "notebooks", "README.md", "README.ru.md", "pyproject.toml")
IGNORED = shutil.ignore_patterns("__pycache__", "*.mo", "*.pyc")
#: at most this many files a translator edits (the issue's measure)
MOST_FILES = 20

_ACCENTED = str.maketrans("aceinorsuyACEINORSUY", "áçéîñöŕšüýÁÇÉÎÑÖŔŠÜÝ")
# kept as they are: placeholders and MyST roles, code, formulas, HTML tags and comments, link targets,
# addresses, escapes
_PROTECTED = re.compile(
    r"\{[^{}]*\}|`[^`]*`|\$\$.*?\$\$|\$[^$\n]*\$|<[^>]*>|\]\([^)]*\)|https?://\S+|\\.", re.S
)


def accent(text: str) -> str:
    """The translator's English: its letters accented, what is not prose kept.

    >>> accent("### Deep dive: {title}, `x` and $a_i$")
    '### Déép dîvé: {title}, `x` áñd $a_i$'
    """
    out, last = [], 0
    for found in _PROTECTED.finditer(text):
        out += [text[last : found.start()].translate(_ACCENTED), found.group(0)]
        last = found.end()
    return "".join(out) + text[last:].translate(_ACCENTED)


def prose_twin(text: str) -> str:
    """A prose cell in the new language: every line accented, fenced blocks kept."""
    out, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line.strip()):
            fenced = not fenced
            out.append(line)
        else:
            out.append(line if fenced else accent(line))
    return "\n".join(out)


def _string(literal: str) -> str:
    """A string literal (or f-string) of the source, its text accented: ``"rows"`` -> ``"ŕöwš"``."""
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(literal).readline) if t.type == tokenize.STRING]
    out, last = [], 0
    for tok in tokens:
        start = literal.index(tok.string, last)
        head = re.match(r"[A-Za-z]*('''|\"\"\"|'|\")", tok.string)
        opening, quote = head.group(0), head.group(1)
        body = tok.string[len(opening) : len(tok.string) - len(quote)]
        out += [literal[last:start], opening + accent(body) + quote]
        last = start + len(tok.string)
    return "".join(out) + literal[last:]


def code_twin(code: str) -> str:
    """A code cell with the new language in it: a ``# xx:`` line under each comment's translations,
    an ``xx=`` in each ``pick()``."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    lines = code.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    inserts = []  # (offset, text)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == "pick"
        ):
            english = next(k.value for k in node.keywords if k.arg == "en")
            last = node.keywords[-1].value  # the new language's argument goes right after the last one
            row = lines[last.end_lineno - 1]
            end = starts[last.end_lineno - 1] + len(row.encode()[: last.end_col_offset].decode())
            segment = ast.get_source_segment(code, english)
            inserts.append((end, f", {CODE}={_string(segment)}"))
    text = code
    for offset, addition in sorted(inserts, reverse=True):
        text = text[:offset] + addition + text[offset:]
    groups, _ = _groups(comments(text))
    lines = text.split("\n")
    below: dict[int, list[str]] = {}
    for group in groups:
        last = max(c.line for cs in group.texts.values() for c in cs)
        twin = group.texts["ru"][-1] if group.texts.get("ru") else group.texts["en"][-1]
        indent = (
            lines[twin.line - 1][: twin.col] if twin.own_line else re.match(r"\s*", lines[last - 1]).group(0)
        )
        below[last] = [f"{indent}# {CODE}: {accent(c.text)}" for c in group.texts["en"]]
    out = []
    for number, line in enumerate(lines, start=1):
        out += [line, *below.get(number, [])]
    return "\n".join(out)


def translate_source(path: Path) -> None:
    """A lesson source with the new language's twins, comment lines and picks."""
    src = read_source(path)
    cells = []
    for cell in src.cells:
        if cell.cell_type == "code":
            cell.source = code_twin(cell.source)
        cells.append(cell)
        if cell.cell_type == "markdown" and cell_lang(cell) == "ru":
            english = cells[-2]
            twin = nbformat.v4.new_markdown_cell(prose_twin(english.source))
            meta = {k: v for k, v in english.metadata.items() if k != "run_budget_s"}
            meta["tags"] = [f"lang-{CODE}" if t == "lang-en" else t for t in english.metadata["tags"]]
            meta["translation_of"] = fingerprint(english.source)
            twin.metadata = meta
            cells.append(twin)
    src.nb.cells = cells
    path.write_text(jupytext.writes(src.nb, fmt="md:myst"), encoding="utf-8")


def sphinx_po(ru: Path) -> str:
    """The site theme's strings in the new language, from the Russian file's English."""
    from babel.messages.pofile import read_po

    with ru.open("rb") as f:
        catalog = read_po(f)
    out = [
        'msgid ""',
        'msgstr ""',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        f'"Language: {CODE}\\n"',
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
        "",
    ]
    quoted = lambda text: json.dumps(text, ensure_ascii=False)  # noqa: E731
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            out += [f"msgid {quoted(message.id[0])}", f"msgid_plural {quoted(message.id[1])}"]
            out += [f"msgstr[{i}] {quoted(accent(message.id[i]))}" for i in (0, 1)]
        else:
            out += [f"msgid {quoted(message.id)}", f"msgstr {quoted(accent(message.id))}"]
        out.append("")
    return "\n".join(out)


FILL = f"""
from course_tools.core import translations
from tests.lessons.test_new_language import accent
for package in translations.PACKAGES:
    path = translations.i18n.locale_dir(package) / {CODE!r} / "LC_MESSAGES" / f"{{package}}.po"
    catalog = translations.read(path)
    for message in catalog:
        if message.id:
            message.string = "\\n".join(accent(line) for line in message.id.split("\\n"))
    translations.write(path, catalog)
"""

REPORT = f"""
import json, sys
from pathlib import Path
from course_lib import code_comments, exercises, i18n
from course_tools.build.course import Course
from course_tools.core import translations
from course_tools.core.config import CONFIG
from course_tools.publish import speaker_view

course = Course.load(CONFIG)
rendered = 0
for name in course.names:
    for target in ("notebook", "slides"):
        course.render(name, {CODE!r}, target)
        rendered += 1
i18n.set_language({CODE!r})
english = []  # a comment in words of a template or a solution still in English
for name, exercise in exercises.registry().items():
    for source, shown in ((exercise.template_source, exercise.template), (exercise.solution_source, exercise.solution_code)):
        lines = set(c.text[1:].strip() for c in code_comments.comments(shown))
        english += [(name, p.text) for p in code_comments.prose(source) if p.text.split(chr(10))[0].strip() in lines]
reveal = Path(sys.argv[1])
speaker_view.translate_notes((reveal / "plugin" / "notes" / "notes.js").read_text(encoding="utf-8"), {CODE!r})
speaker_view.translate_reveal((reveal / "dist" / "reveal.js").read_text(encoding="utf-8"), {CODE!r})
chrome = [e for e, t, _ in speaker_view.notes_strings({CODE!r}) + speaker_view.reveal_strings({CODE!r}) if e == t]
print(json.dumps({{
    "languages": i18n.LANGUAGES,
    "translations": translations.problems(),
    "sources": [p for name in course.names for p in course.source_problems(name)] + course.table_problems(),
    "rendered": rendered,
    "english_comments": english,
    "chrome_untranslated": chrome,
    "number": i18n.format_decimal(-1.5, 2),
    "deep_dive": i18n.tr("lesson_source.deep_dive_heading", title="X"),
}}))
"""

EXECUTE = f"""
import json, tempfile
from pathlib import Path
from course_tools.build.course import Course
from course_tools.build.execute import execute
from course_tools.core.config import CONFIG

course = Course.load(CONFIG)
name = next(n for n in course.names if n.startswith("01_"))
with tempfile.TemporaryDirectory() as folder:
    nb = execute(course.render(name, {CODE!r}), lesson=name, lang={CODE!r}, cwd=Path(folder), root=CONFIG.root)
template = next(c.source for c in nb.cells if c.metadata.get("exercise_template"))
check = next(c for c in nb.cells if c.cell_type == "code" and ".check(" in c.source)
print(json.dumps({{"template": template, "check": [o.get("text", "") + str(o.get("data", {{}}).get("text/plain", "")) for o in check.outputs]}}))
"""


def test_a_new_language_is_data_only_end_to_end(tmp_path):
    for name in COPIED:
        source = ROOT / name
        if name == "notebooks":  # the sources, not the built notebooks
            (tmp_path / name).mkdir()
            for path in source.iterdir():
                if path.is_file():
                    shutil.copy2(path, tmp_path / name / path.name)
        elif source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=IGNORED)
        else:
            shutil.copy2(source, tmp_path / name)
    (tmp_path / "tests" / "lessons").mkdir(parents=True)
    for part in ("tests/__init__.py", "tests/lessons/__init__.py", "tests/lessons/test_new_language.py"):
        if (ROOT / part).exists():
            shutil.copy2(ROOT / part, tmp_path / part)
    env = {
        "PYTHONPATH": str(tmp_path),
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
        "HOME": str(tmp_path),
    }

    def run(*args, code=None, timeout=300):
        command = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", *args]
        done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=timeout)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    # the translator's work, file by file
    edited = ["course_lib/locale/languages.json"]
    languages = tmp_path / edited[0]
    data = json.loads(languages.read_text(encoding="utf-8"))
    data[CODE] = LANGUAGE
    languages.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    run("course_tools.translations", "init", CODE)
    run(code=FILL)
    edited += [
        f"course_lib/locale/{CODE}/LC_MESSAGES/course_lib.po",
        f"course_tools/locale/{CODE}/LC_MESSAGES/course_tools.po",
    ]
    theme = "course_tools/publish/site_theme/locales/{}/LC_MESSAGES/sphinx.po"
    (tmp_path / theme.format(CODE)).parent.mkdir(parents=True)
    (tmp_path / theme.format(CODE)).write_text(sphinx_po(ROOT / theme.format("ru")), encoding="utf-8")
    edited.append(theme.format(CODE))
    for path in sorted((tmp_path / "notebooks").glob("[0-9][0-9]_*.md")):
        translate_source(path)
        edited.append(path.relative_to(tmp_path).as_posix())
    run("course_tools.translations", "compile")

    # the course's tools take it up
    report = json.loads(run(str(ROOT / "node_modules" / "reveal.js"), code=REPORT).splitlines()[-1])
    assert report["languages"] == ["en", "ru", CODE]
    assert report["translations"] == [], report["translations"][:5]
    assert report["sources"] == [], report["sources"][:5]
    assert report["rendered"] == 2 * len(list((ROOT / "notebooks").glob("[0-9][0-9]_*.md")))
    assert report["english_comments"] == []
    # the clock's, as English's: the pseudo-language takes English's locale data
    assert report["chrome_untranslated"] == [">0:00 AM<", "toLocaleTimeString( 'en-US', { hour12: true,"]
    assert report["number"] == "-1.50" and report["deep_dive"] == "### Déép dîvé: X"
    lesson = json.loads(run(code=EXECUTE, timeout=600).splitlines()[-1])
    assert "# " + accent("seqs: list of lists of ids") in lesson["template"]
    assert accent("Not attempted yet")[:12] in " ".join(lesson["check"]), lesson["check"]

    # what differs from the course: the translator's files, no Python, no JavaScript
    changed = []
    for name in COPIED:
        copy = tmp_path / name
        for path in [copy] if copy.is_file() else sorted(copy.rglob("*")):
            if path.is_file() and path.suffix not in {".mo", ".pyc"}:
                original = ROOT / path.relative_to(tmp_path)
                if not original.exists() or not filecmp.cmp(path, original, shallow=False):
                    changed.append(path.relative_to(tmp_path).as_posix())
    assert sorted(changed) == sorted(edited)
    assert [p for p in changed if p.endswith((".py", ".js"))] == []
    assert len(changed) <= MOST_FILES, changed
    print(f"a new language: {len(changed)} files edited by its translator: {changed}")
