"""A lesson's code in each language: bilingual comments, pick() resolved, the twin check, where problems are."""

import pytest

from course_lib.i18n import pseudo
from course_tools.build import lessons
from course_tools.build.lesson_code import (
    Localized,
    code_names,
    code_problems,
    compare,
    drop_import,
    is_neutral,
    localize,
    uses_name,
)
from course_tools.build.source import code_cell_problems, read_source, render
from course_tools.core.config import CONFIG, PSEUDO
from tests.lessons.support import course, source, title, write_lesson


def messages(code: str, names=frozenset()) -> list[str]:
    return [f"line {line}: {message}" for line, message in code_problems(code, frozenset(names))]


# ----------------------------------------------------------------------------- comments


TRAILING = "x = W[ids]  # en: one row per token\n# ru: по строке на токен\ny = 1"
BLOCK = """def f(x):
    # en: the paper's scale,
    # en: section 3.4
    # ru: масштаб из статьи,
    # ru: раздел 3.4
    return x  # (batch, seq)"""


def test_a_comment_after_code_keeps_its_language_where_the_english_stands():
    assert localize(TRAILING, "en").code == "x = W[ids]  # one row per token\ny = 1"
    assert localize(TRAILING, "ru").code == "x = W[ids]  # по строке на токен\ny = 1"
    assert code_problems(TRAILING) == []


def test_a_comment_on_lines_of_its_own_keeps_its_lines_and_indentation():
    assert localize(BLOCK, "ru").code == (
        "def f(x):\n    # масштаб из статьи,\n    # раздел 3.4\n    return x  # (batch, seq)"
    )
    assert localize(BLOCK, "en").code == (
        "def f(x):\n    # the paper's scale,\n    # section 3.4\n    return x  # (batch, seq)"
    )
    assert code_problems(BLOCK) == []


def test_the_pseudo_language_gets_the_english_comment_accented():
    assert localize(TRAILING, PSEUDO).code == f"x = W[ids]  # {pseudo('one row per token')}\ny = 1"


def test_an_english_comment_without_its_twin_is_a_problem():
    assert messages("x = 1  # en: one\ny = 2") == [
        "line 1: this `# en:` comment has no `# ru:` twin on the line below it"
    ]
    # a blank line between them is not "right below"
    problems = messages("# en: one\n\n# ru: один\nx = 1")
    assert problems[0] == "line 1: this `# en:` comment has no `# ru:` twin on the line below it"
    assert problems[1].startswith("line 3: a `# ru:` comment belongs right below the `# en:` comment")


def test_a_translation_after_code_or_without_english_is_a_problem():
    assert messages("x = 1  # ru: один") == [
        "line 1: a `# ru:` comment belongs on a line of its own, right below the `# en:` comment it "
        "translates (or below the other translations of it)"
    ]
    (problem,) = messages("# ru: один\n# en: one\nx = 1")[:1]
    assert problem.startswith("line 1: a `# ru:` comment belongs right below")


def test_a_comment_after_code_has_one_line_per_language():
    problems = messages("x = 1  # en: one\n# ru: один\n# ru: ещё\ny = 2")
    assert problems == [
        "line 3: a `# ru:` comment belongs right below the `# en:` comment it translates "
        "(or below the other translations of it)"
    ]


def test_a_comment_in_words_without_marks_is_a_problem():
    (problem,) = messages("x = f(y)  # the first k letters")
    assert problem.startswith(
        "line 1: the comment '# the first k letters' is in one language only: write it as `# en: ...` "
        "with `# ru: ...` on the line below"
    )


def test_an_empty_or_untranslated_twin_is_a_problem():
    assert messages("x = 1  # en:\n# ru: один") == ["line 1: the `# en:` comment is empty"]
    assert messages("x = 1  # en: one row\n# ru: one row, sorry") == [
        "line 2: the `# ru:` comment 'one row, sorry' has no text in Русский: translate it (a comment "
        "the same in every language repeats the English exactly)"
    ]
    assert messages("x = 1  # en: PE(pos, 2i)\n# ru: PE(pos, 2i)") == []


@pytest.mark.parametrize(
    "comment",
    [
        "# (batch, seq, d_model)",
        "# (seq,)",
        "# (d_model / 2,)",
        "# (seq, d_model), (seq, seq)",
        "# x: (batch, seq, d_model)",
        "# 0, 2, ..., 1, 3, ...",
        "# (..., seq, head_dim/2)",
        "# noqa: E731",
        "# type: ignore",
        "# fmt: off",
        "# NBVAL_IGNORE_OUTPUT",
        "# exercises.alibi.hint(1)",
        "# tok = train(texts, vocab_size=1000)",
        "#",
    ],
)
def test_comments_with_nothing_to_translate_need_no_twin(comment):
    assert is_neutral(comment, frozenset({"exercises", "tok", "train", "texts"}))


@pytest.mark.parametrize(
    "comment",
    [
        "# degrees",  # a word alone
        "# 13.1 in English, 13,1 in Russian",  # parses, but English is no name of the code
        "# misses: neighbours",
        "# forgot [: x.size(1)]",
        "# queries or keys",
        '# "so that .to() moves it"',  # a string is text
        "# (n, d_model), interleaved",  # a shape and a word
        "# (seq,) vs (batch, 1) -> (batch, seq)",  # not Python
        "# N(0, 1/d_model)",  # N is no name of the code
    ],
)
def test_comments_in_words_need_twins(comment):
    assert not is_neutral(comment, frozenset({"x", "d_model", "n"}))


def test_a_shebang_is_neutral_on_the_first_line_only():
    assert is_neutral("#!/usr/bin/env python", first_line=True)
    assert not is_neutral("#!/usr/bin/env python")


def test_the_names_of_a_lesson_are_those_its_code_uses():
    assert code_names(["import torch\nx = torch.zeros(3)  # a comment", "y = 'a string'"]) == {
        "import",
        "torch",
        "x",
        "zeros",
        "y",
    }


# ----------------------------------------------------------------------------- pick()


def test_pick_becomes_the_literal_of_the_language():
    code = (
        'print(pick(en="rows:", ru="строки:"), n)\nlabel = course_lib.pick(en=f"row {b}", ru=f"строка {b}")'
    )
    assert localize(code, "en").code == 'print("rows:", n)\nlabel = f"row {b}"'
    assert localize(code, "ru").code == 'print("строки:", n)\nlabel = f"строка {b}"'
    assert localize(code, "ru").picks == 2


def test_pick_inside_an_f_string_becomes_its_text():
    code = """print(f"{lang}: {pick(en='vocabulary', ru='словарь')} {n}, {pick(en='{x}', ru='{икс}')}")"""
    assert localize(code, "ru").code == 'print(f"{lang}: словарь {n}, {{икс}}")'


def test_pick_inside_an_f_string_stays_a_literal_where_text_would_change_the_meaning():
    # a format spec, a conversion, a quote of the f-string's own
    code = (
        'f\'\'\'{pick(en="a", ru="токены"):>7} {pick(en="b", ru="б")!r} {pick(en="it", ru="это \'б\'")}\'\'\''
    )
    assert localize(code, "ru").code == "f'''{\"токены\":>7} {\"б\"!r} {\"это 'б'\"}'''"


def test_an_f_string_left_without_fields_becomes_a_plain_string():
    assert (
        localize("""print(f"{pick(en='rows', ru='строк')}: {{n}}", n)""", "ru").code
        == 'print("строк: {n}", n)'
    )


def test_the_pseudo_language_keeps_pick_for_course_lib_to_resolve():
    code = 'from course_lib import pick\nprint(pick(en="rows", ru="строки"))'
    assert localize(code, PSEUDO).code == code


def test_set_language_is_switched_in_calls_only():
    code = 'course_lib.set_language("en")\nprint(\'set_language("en")\')'
    assert localize(code, "ru").code == 'course_lib.set_language("ru")\nprint(\'set_language("en")\')'


@pytest.mark.parametrize(
    "call",
    [
        'pick("rows", "строки")',
        'pick(en="rows")',
        'pick(en="rows", ru="строки", de="Zeilen")',
        'pick(en=label, ru=label.replace(".", ","))',
        "pick(**texts)",
    ],
)
def test_a_pick_the_build_cannot_resolve_is_a_problem(call):
    (problem,) = messages(f"x = 1\nprint({call})")
    assert problem.startswith(f"line 2: {call!r}: the build resolves pick() to one language's string")
    assert problem.endswith('pick(en="...", ru="...")')


def test_pick_f_strings_must_compute_the_same_fields():
    (problem,) = messages("""print(pick(en=f"{gb} GB", ru=f"{gb.replace('.', ',')} ГБ"))""")
    assert "the f-strings of pick() compute different {fields} in each language" in problem
    # the same fields in another order are a translation
    assert messages('print(pick(en=f"{a} of {b}", ru=f"{b}: {a}"))') == []


def test_pick_leaves_the_import_when_no_call_is_left():
    assert (
        drop_import("from course_lib import pick, plots, widgets", "pick")
        == "from course_lib import plots, widgets"
    )
    assert drop_import("from course_lib import plots, pick\n", "pick") == "from course_lib import plots\n"
    assert drop_import("import torch\nfrom course_lib import pick\nx = 1", "pick") == "import torch\nx = 1"
    assert drop_import("from other import pick", "pick") == "from other import pick"
    assert not uses_name("from course_lib import pick", "pick")


def test_code_python_cannot_read_is_a_problem():
    (problem,) = messages("x = (1,\ny = 2  # en: two\n# ru: два")
    assert problem.startswith(
        "line 1: Python cannot read this code, so the build cannot put it in each language"
    )


# ----------------------------------------------------------------------------- the twin check


def test_the_twin_check_ignores_comments_and_resolved_strings():
    base = Localized('print("rows")  # a comment', resolved=((6, 12),), origin=(1,))
    other = Localized('print("строки")', resolved=((6, 14),), origin=(1,))
    assert compare(base, other, "ru") == []


def test_the_twin_check_finds_code_that_differs():
    base = Localized("x = 1\ny = 2", origin=(1, 3))
    other = Localized("x = 1\ny = 3", origin=(1, 3))
    assert compare(base, other, "ru") == [
        (
            3,
            "the code differs between lang-en and lang-ru beyond comments and the strings of pick(): '2' against '3'",
        )
    ]
    # a string the build did not resolve counts as code
    assert compare(Localized('x = "a"', origin=(1,)), Localized('x = "б"', origin=(1,)), "ru")[0][1].endswith(
        "'\"a\"' against '\"б\"'"
    )
    # and so does code that ends early
    assert compare(Localized("x = 1"), Localized("x"), "ru")[0][1].endswith("'=' against the end of the line")
    assert compare(Localized("x\ny"), Localized("x"), "ru")[0][1].endswith("'y' against the end of the code")


def test_the_build_passes_the_twin_check_on_a_cell_with_everything():
    code = (
        'course_lib.set_language("en")\n'
        "print(\n"
        "    f\"{n} {pick(en='rows', ru='строк')}\",  # en: how many\n"
        "    # ru: сколько\n"
        '    pick(en="done", ru="готово"),\n'
        ")"
    )
    assert code_problems(code) == []


# ----------------------------------------------------------------------------- in a lesson


def test_check_names_the_file_and_line_of_a_comment_without_its_twin(tmp_path):
    path = write_lesson(
        tmp_path, "07_broken", *title(7), ("code", "import math\n\nx = math.pi  # half a turn", {})
    )
    text = path.read_text(encoding="utf-8").splitlines()
    line = text.index("x = math.pi  # half a turn") + 1
    (problem,) = code_cell_problems(read_source(path))
    assert problem.startswith(f"notebooks/07_broken.md, line {line} (cell 3): the comment '# half a turn'")


def test_build_refuses_a_lesson_whose_code_cannot_be_put_in_each_language(tmp_path):
    config = course(tmp_path)
    write_lesson(tmp_path, "01_first", *title(1), ("code", 'print(pick(en="rows"))', {}))
    with pytest.raises(lessons.BuildError, match=r"01_first\.md, line \d+ \(cell 3\): 'pick\(en=\"rows\"\)'"):
        lessons.build(["01"], config, say=lambda line: None)


def test_render_gives_each_notebook_its_language_and_drops_the_unused_import():
    code = (
        "from course_lib import pick, plots\n"
        "\n"
        "print(\n"
        "    pick(\n"
        '        en="the new tokens alone = the last column of the whole batch",\n'
        '        ru="новые токены отдельно = последний столбец всего батча",\n'
        "    )\n"
        ")  # en: checked\n"
        "# ru: проверено"
    )
    src = source(("code", code, {}))
    (cell,) = render(src, "ru").cells
    # ruff formats the cell again: the resolved string fits on one line
    assert cell.source == (
        'from course_lib import plots\n\nprint("новые токены отдельно = последний столбец всего батча")  # проверено'
    )
    (cell,) = render(src, PSEUDO).cells
    assert cell.source.startswith("from course_lib import pick, plots\n")
    assert cell.source.endswith(f")  # {pseudo('checked')}")


def test_render_keeps_the_import_while_a_pick_is_left():
    src = source(("code", "from course_lib import pick\nprint(pick(en=label, ru=label))", {}))
    assert render(src, "ru").cells[0].source == "from course_lib import pick\nprint(pick(en=label, ru=label))"


def test_messages_name_the_line_of_each_code_line():
    """A problem in a cell's code names its own line of the ``.md``, not the cell's opening fence."""
    path = CONFIG.source("05_sinusoidal_encoding")
    src = read_source(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    code_cells = [i for i, cell in enumerate(src.cells) if cell.cell_type == "code"]
    assert code_cells and all(src.code_lines[i] is not None for i in code_cells)
    for i in code_cells:
        first = src.code_lines[i]
        assert (
            lines[first - 1 : first - 1 + len(src.cells[i].source.splitlines())]
            == src.cells[i].source.splitlines()
        )
    assert (
        src.where_code(code_cells[0], 2)
        == f"notebooks/05_sinusoidal_encoding.md, line {src.code_lines[code_cells[0]] + 1} (cell {code_cells[0] + 1})"
    )
    assert source(("code", "x = 1", {})).where_code(0, 1) == "01_test.md, cell 1, line 1 of its code"
