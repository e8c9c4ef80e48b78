"""Every language's lesson runs English's code and prints English's numbers: the code is written once.

For every lesson and every language but English:

- **The same code**: each code cell is English's but for the reader's text in its string literals (labels,
  messages; comments are no code either). What formats a number is kept and compared: an f-string's format
  specs, and the ``{...}`` fields and ``%`` specs of a plain literal (``"{:.3f}".format``).
- **The same numbers**: each cell nbval compares prints the same digit runs, and the same ``True``, ``False``,
  ``None``, ``nan``, ``inf`` (as a multiset: a translation may reorder a sentence; the decimal mark apart),
  once each language's own text is taken out of its output (the pieces of the literals that differ between
  the two, between their fields: a Russian label's "8192" is no number the lesson computed). The cells'
  nbval tags are the same in both.

A cell whose literal feeds a computation (lesson 4 tokenizes "dog bites man" in English, a Russian sentence
in Russian) passes only while what that computation gives is not printed (there: a figure and an
explorer, which nbval does not compare): a Russian number that English does not print fails here. A
Russian superscript power of ten (``2·10⁻¹⁶`` for ``2e-16``) would fail too: none is printed today.
"""

import ast
import configparser
import json
import re
import string
from collections import Counter

import pytest

from course_lib.i18n import LANGUAGES
from course_tools.core.config import CONFIG
from tests.support import ROOT

ENGLISH = "en"
OTHERS = [lang for lang in LANGUAGES if lang != ENGLISH]
NUMBER = re.compile(r"\d+|\b(?:True|False|None|nan|inf)\b")
PERCENT_SPEC = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[diouxXeEfFgGcrsa%]")
# what nbval compares of an output: every data type but images and the widgets' views (nbval 0.11)
TEXT_MIMES = {"text/plain", "text/markdown", "text/html", "text/latex"}
NOT_COMPARED = {"image/png", "image/jpeg", "application/vnd.jupyter.widget-view+json"}
# notebooks/sanitize.cfg (pyproject's --nbval-sanitize-with), as nbval applies it before comparing
SANITIZE = configparser.ConfigParser()
if not SANITIZE.read(ROOT / "notebooks" / "sanitize.cfg", encoding="utf-8"):
    raise FileNotFoundError(ROOT / "notebooks" / "sanitize.cfg")
NBVAL_TAGS = {"nbval-ignore-output", "nbval-skip", "nbval-raises-exception", "nbval-check-output"}
IGNORED = {"nbval-ignore-output", "nbval-skip"}


def format_parts(literal: str) -> list[tuple] | None:
    """``string.Formatter().parse`` of a literal: (text, field, spec, conversion) each; None if it is no
    format string (an unmatched brace)."""
    try:
        return list(string.Formatter().parse(literal))
    except ValueError:
        return None


def fields(literal: str, percent: bool = False) -> tuple:
    """What of a plain literal formats a value: its ``{...}`` fields (name, spec, conversion), and its %
    specs where it is the left of a ``%``."""
    parts = format_parts(literal)
    braces = (
        (literal,) if parts is None else tuple((n, spec, conv) for _, n, spec, conv in parts if n is not None)
    )
    return braces, tuple(PERCENT_SPEC.findall(literal)) if percent else ()


class Texts(ast.NodeTransformer):
    """A cell's syntax tree with every string literal reduced to what formats a value."""

    def visit_BinOp(self, node):
        if (
            isinstance(node.op, ast.Mod)
            and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str)
        ):
            node.right = self.visit(node.right)
            node.left = ast.Name(repr(fields(node.left.value, percent=True)))  # a name: not emptied again
            return node
        return self.generic_visit(node)

    def visit_Constant(self, node):
        return ast.Constant(repr(fields(node.value))) if isinstance(node.value, str) else node

    def visit_JoinedStr(self, node):
        node.values = [self.visit(v) for v in node.values if not isinstance(v, ast.Constant)]
        return node

    def visit_FormattedValue(self, node):
        node.value = self.visit(node.value)
        return node  # its format_spec as written


def code_and_literals(source: str) -> tuple[str, set[str]]:
    """A cell's code with its literals reduced to what formats a value, and its string literals."""
    tree = ast.parse(source)
    literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return ast.dump(Texts().visit(tree)), literals


def pieces(literal: str) -> list[str]:
    """A literal's text between its fields, the pieces that hold a number (a label's "8192")."""
    parts = format_parts(literal)
    texts = [literal] if parts is None else [text for text, *_ in parts]
    return [text for text in texts if NUMBER.search(text)]


def output_text(cell: dict) -> tuple[str, list[str]]:
    """What nbval compares of a cell's outputs, as text; and the output types this test cannot read."""
    texts, unread = [], []
    for output in cell.get("outputs", []):
        kind = output.get("output_type")
        if kind == "stream":
            texts.append("".join(output["text"]))
        elif kind == "error":
            texts.append(f"{output['ename']}: {output['evalue']}")
        for mime, data in output.get("data", {}).items():
            if mime in TEXT_MIMES:
                texts.append("".join(data))
            elif mime not in NOT_COMPARED:
                unread.append(mime)
    return sanitized("\n".join(texts)), unread


def sanitized(text: str) -> str:
    """``text`` with sanitize.cfg's replacements made, section by section, as nbval makes them."""
    for section in SANITIZE.sections():
        text = re.sub(SANITIZE[section]["regex"], SANITIZE[section]["replace"], text)
    return text


def numbers(text: str, own_text: set[str]) -> Counter:
    """The numbers and truths in a cell's output ``text``, once the pieces of ``own_text`` are out."""
    for piece in sorted({p for literal in own_text for p in pieces(literal)}, key=len, reverse=True):
        text = text.replace(piece, " ")
    return Counter(NUMBER.findall(text))


def differences(base: list[dict], other: list[dict]) -> tuple[list[str], int]:
    """What keeps ``other``'s code cells from computing and printing what ``base``'s do; the numbers compared."""
    if len(base) != len(other):
        return [f"{len(base)} code cells, then {len(other)}"], 0
    found, compared = [], 0
    for k, (a, b) in enumerate(zip(base, other, strict=True)):
        (code_a, text_a), (code_b, text_b) = (code_and_literals("".join(c["source"])) for c in (a, b))
        if code_a != code_b:
            found.append(f"code cell {k}: not the same code")
            continue
        tags_a, tags_b = (NBVAL_TAGS & set(c.get("metadata", {}).get("tags", [])) for c in (a, b))
        if tags_a != tags_b:
            found.append(f"code cell {k}: nbval tags {sorted(tags_a)}, then {sorted(tags_b)}")
            continue
        (output_a, unread_a), (output_b, unread_b) = output_text(a), output_text(b)
        unread = unread_a + unread_b
        if unread:
            found.append(
                f"code cell {k}: outputs nbval compares and this test cannot read: {sorted(set(unread))}"
            )
        if IGNORED & tags_a:
            continue
        printed_a, printed_b = numbers(output_a, text_a - text_b), numbers(output_b, text_b - text_a)
        if printed_a != printed_b:
            found.append(
                f"code cell {k}: numbers only the first prints {dict(printed_a - printed_b)}, "
                f"only the second {dict(printed_b - printed_a)}"
            )
        compared += sum(printed_a.values())
    return found, compared


def code_cells(lang: str, name: str) -> list[dict]:
    cells = json.loads(CONFIG.notebook(name, lang).read_text(encoding="utf-8"))["cells"]
    return [c for c in cells if c["cell_type"] == "code"]


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("name", CONFIG.lesson_names())
def test_every_language_computes_and_prints_what_english_does(name, lang):
    found, compared = differences(code_cells(ENGLISH, name), code_cells(lang, name))
    assert not found, f"{name}, {ENGLISH} then {lang}: " + "; ".join(found)
    assert compared or name.startswith("00_"), f"{name}: no number compared"


def cell(source: str, printed: str, tags=(), data=None) -> dict:
    outputs = [{"output_type": "stream", "name": "stdout", "text": printed}]
    if data:
        outputs.append({"output_type": "execute_result", "data": data, "metadata": {}})
    return {"source": source, "metadata": {"tags": list(tags)}, "outputs": outputs}


def test_what_the_comparison_refuses():
    english = cell(
        'print("pairs in 8192 positions:", f(8192, "cat"), f"{x:.2f}")', "pairs in 8192 positions: 17 0.25"
    )
    # a label translated, a sentence reordered, the decimal mark: the same (8192 taken out with the labels)
    russian = cell(
        'print("пар за 8192 позиции:", f(8192, "cat"), f"{x:.2f}")', "пар за 8192 позиции: 17 0,25"
    )
    assert differences([english], [russian]) == ([], 3)
    # a literal used as data: another number printed, or a truth
    data = cell('print("пар за 8192 позиции:", f(8192, "кот"), f"{x:.2f}")', "пар за 8192 позиции: 23 0,25")
    assert differences([english], [data])[0] == [
        "code cell 0: numbers only the first prints {'17': 1}, only the second {'23': 1}"
    ]
    truth = (
        cell('print("same:", g("cat"))', "same: True"),
        cell('print("то же:", g("кот"))', "то же: False"),
    )
    assert "{'True': 1}" in differences([truth[0]], [truth[1]])[0][0]
    # a number printed through a label's field is no label's: it counts, the label's 8192 does not
    field = (
        cell('print("{} of 8192 ({:.0f})".format(n, r))', "12 of 8192 (3)"),
        cell('print("{} из 8192 ({:.0f})".format(n, r))', "12 из 8192 (4)"),
    )
    assert differences([field[0]], [field[1]])[0] == [
        "code cell 0: numbers only the first prints {'3': 1}, only the second {'4': 1}"
    ]
    # an f-string's text translated: the same; an error's name and value are read as nbval reads them
    fstring = (cell('print(f"{n} tokens")', "12 tokens"), cell('print(f"{n} токенов")', "12 токенов"))
    assert differences([fstring[0]], [fstring[1]]) == ([], 1)
    error = {"output_type": "error", "ename": "ValueError", "evalue": "at most 64, not 65", "traceback": []}
    failing = (
        {**cell('f("x")', ""), "outputs": [error]},
        {**cell('f("х")', ""), "outputs": [{**error, "evalue": "не больше 64, а не 66"}]},
    )
    assert differences([failing[0]], [failing[1]])[0] == [
        "code cell 0: numbers only the first prints {'65': 1}, only the second {'66': 1}"
    ]
    # a literal that is no format string (an unmatched brace) is kept whole: another one is other code
    assert differences([cell('print("{ a")', "")], [cell('print("{ б")', "")])[0] == [
        "code cell 0: not the same code"
    ]
    # another field: not the same code
    template = (
        cell('print("{} tokens".format(n, r))', "12 tokens"),
        cell('print("{} токенов ({:.0f})".format(n, r))', "12 токенов (3)"),
    )
    assert differences([template[0]], [template[1]])[0] == ["code cell 0: not the same code"]
    # another format spec (an f-string's, a plain literal's), another constant: not the same code
    for source in (
        'print("x", f(8192, "cat"), f"{x:.3f}")',
        'print("x", f(4096, "cat"), f"{x:.2f}")',
        'print("{:.3f}".format(y))',
        'print("%.3f" % y)',
    ):
        plain = 'print("{:.2f}".format(y))' if "format" in source else 'print("%.2f" % y)'
        base = english if "f(" in source else cell(plain, "")
        assert differences([base], [cell(source, "")])[0] == ["code cell 0: not the same code"], source
    # tags that differ, an output nbval compares that this test does not read
    ignored = cell(english["source"], "17", tags=["nbval-ignore-output"])
    assert differences([ignored], [cell(russian["source"], "17")])[0][0].startswith("code cell 0: nbval tags")
    assert differences([ignored], [cell(russian["source"], "18", tags=["nbval-ignore-output"])]) == ([], 0)
    svg = cell(russian["source"], "пар за 8192 позиции: 17 0,25", data={"image/svg+xml": "<svg/>"})
    assert "image/svg+xml" in differences([english], [svg])[0][0]
    assert differences([english], [])[0] == ["1 code cells, then 0"]
