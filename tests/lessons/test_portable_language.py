"""The portable nbval pass runs the lessons in English only (tests/portability/run.py, ``LANGUAGE``): here,
for every lesson and every other language, the proof that it sees every number the other language prints.

- **The same code**: each code cell is the English one but for its string literals (labels, messages: the
  reader's text; comments are no code either), an f-string's format specs kept. The same computation,
  formatted alike.
- **The same numbers**: each cell nbval compares prints, in both languages, the same digit runs (as a
  multiset: a translation may reorder a sentence; the decimal mark apart), but for the numbers written in
  the literals that differ between the two (a label's "8192"). A literal used as data instead of text (a
  Russian sentence tokenized where English tokenizes an English one) would print other numbers and fail.

So a number that another machine would move in one language moves in English too, where the pass sees it;
nbval runs every language on this machine.
"""

import ast
import json
import re
from collections import Counter

import pytest

from course_lib.i18n import LANGUAGES
from course_tools.core.config import CONFIG
from tests.portability.run import LANGUAGE

NUMBER = re.compile(r"\d+")
# what nbval compares of an output (images and the widgets' views are not text it compares)
TEXT_MIMES = ("text/plain", "text/markdown", "text/html", "text/latex")
IGNORED = {"nbval-ignore-output", "nbval-skip"}


class Texts(ast.NodeTransformer):
    """A cell's syntax tree with every string literal emptied, an f-string's format specs kept."""

    def visit_Constant(self, node):
        return ast.Constant("") if isinstance(node.value, str) else node

    def visit_JoinedStr(self, node):
        node.values = [self.visit(v) for v in node.values if not isinstance(v, ast.Constant)]
        return node

    def visit_FormattedValue(self, node):
        node.value = self.visit(node.value)
        return node  # its format_spec as written


def code_of(source: str) -> str:
    return ast.dump(Texts().visit(ast.parse(source)))


def literals(source: str) -> set[str]:
    return {
        n.value
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def numbers(cell: dict) -> Counter:
    found = Counter()
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            found.update(NUMBER.findall("".join(output["text"])))
        for mime in TEXT_MIMES:
            found.update(NUMBER.findall("".join(output.get("data", {}).get(mime, ""))))
    return found


def code_cells(lang: str, name: str) -> list[dict]:
    cells = json.loads(CONFIG.notebook(name, lang).read_text(encoding="utf-8"))["cells"]
    return [c for c in cells if c["cell_type"] == "code"]


OTHERS = [lang for lang in LANGUAGES if lang != LANGUAGE]


def test_the_pass_language_is_a_course_language_and_another_exists():
    assert LANGUAGE in LANGUAGES and OTHERS


def differences(base: list[dict], other: list[dict]) -> tuple[list[str], int]:
    """What keeps ``other``'s code cells from computing and printing what ``base``'s do; the numbers compared."""
    if len(base) != len(other):
        return [f"{len(base)} code cells, then {len(other)}"], 0
    found, compared = [], 0
    for k, (a, b) in enumerate(zip(base, other, strict=True)):
        source_a, source_b = "".join(a["source"]), "".join(b["source"])
        if code_of(source_a) != code_of(source_b):
            found.append(f"code cell {k}: not the same code")
            continue
        if IGNORED & set(a.get("metadata", {}).get("tags", [])):
            continue
        text = {n for literal in literals(source_a) ^ literals(source_b) for n in NUMBER.findall(literal)}
        printed_a = Counter({n: c for n, c in numbers(a).items() if n not in text})
        printed_b = Counter({n: c for n, c in numbers(b).items() if n not in text})
        if printed_a != printed_b:
            found.append(
                f"code cell {k}: numbers only the first prints {dict(printed_a - printed_b)}, "
                f"only the second {dict(printed_b - printed_a)}"
            )
        compared += sum(printed_a.values())
    return found, compared


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("name", CONFIG.lesson_names())
def test_every_language_computes_and_prints_what_english_does(name, lang):
    found, compared = differences(code_cells(LANGUAGE, name), code_cells(lang, name))
    assert not found, f"{name}, {LANGUAGE} then {lang}: " + "; ".join(found)
    assert compared or name.startswith("00_"), f"{name}: no number compared"


def cell(source: str, printed: str, tags=()) -> dict:
    return {
        "source": source,
        "metadata": {"tags": list(tags)},
        "outputs": [{"output_type": "stream", "name": "stdout", "text": printed}],
    }


def test_what_the_proof_refuses():
    english = cell(
        'print("pairs in 8192 positions:", f(8192, "cat"), f"{x:.2f}")', "pairs in 8192 positions: 17 0.25"
    )
    # a label translated, a sentence reordered, the decimal mark: the same
    russian = cell(
        'print("пар за 8192 позиции:", f(8192, "cat"), f"{x:.2f}")', "пар за 8192 позиции: 17 0,25"
    )
    assert differences([english], [russian]) == ([], 3)  # 17, 0, 25: 8192 is the labels'
    # a literal used as data: other numbers printed
    data = cell('print("пар за 8192 позиции:", f(8192, "кот"), f"{x:.2f}")', "пар за 8192 позиции: 23 0,25")
    assert differences([english], [data])[0] == [
        "code cell 0: numbers only the first prints {'17': 1}, only the second {'23': 1}"
    ]
    # another format spec, another constant: not the same code
    for source in ('print("x", f(8192, "cat"), f"{x:.3f}")', 'print("x", f(4096, "cat"), f"{x:.2f}")'):
        assert differences([english], [cell(source, "")])[0] == ["code cell 0: not the same code"]
    # a cell nbval ignores is compared for its code only
    ignored = cell(english["source"], "17", tags=["nbval-ignore-output"])
    assert differences([ignored], [cell(russian["source"], "18")]) == ([], 0)
    assert differences([english], [])[0] == ["1 code cells, then 0"]
