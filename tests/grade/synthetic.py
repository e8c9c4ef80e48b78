"""A synthetic class for the grader's tests: students, their notebooks, and what each one should get.

Every exercise of the course is submitted right, untouched (the template) and with one known mistake
(a small edit of the reference solution that its checker names), and a few students hand in the bad
cases the grader must survive. ``make_class`` writes the notebooks and returns the expected summary,
``{(exercise, diagnosis or status): count}``, in the form ``course_tools.grading.grade.counts`` gives.
"""

import json
from pathlib import Path

import nbformat

from course_lib import exercises
from course_tools.grading.grade import lesson_checks

# exercise -> (edits of the reference solution: (text, what replaces it), ...; the checker's diagnosis)
MISTAKES = {
    "pad_batch": ((("torch.arange(seq) < lengths", "torch.arange(seq) >= lengths"),), "pad.mask_inverted"),
    "bpe_merge": ((("counts[pair] += count", "counts[pair] += 1"),), "merge.frequency_ignored"),
    "token_embedding": ((("self.embedding(ids) * self.scale", "self.embedding(ids)"),), "tok.missing_scale"),
    "permutation": ((("torch.allclose(permute_then_f, f_then_permute, atol=1e-6)",
                      "torch.equal(permute_then_f, f_then_permute)"),), "perm.exact_equality"),
    "positional_encoding": ((("torch.sin(angle)  #", "torch.cos(angle)  #"),
                             ("torch.cos(angle[:, : d_model // 2])", "torch.sin(angle[:, : d_model // 2])")),
                            "pe.sin_cos_swapped"),
    "input_layer": ((("self.embedding(ids) * self.scale", "self.embedding(ids)"),), "inp.missing_scale"),
    "learned_positions": ((("self.weight[:seq]", "self.weight[1 : seq + 1]"),), "lp.rows_from_one"),
    "rotary": ((("apply_rotary(k, positions), v", "k, v"),), "rope.keys_not_rotated"),
    "alibi": ((("bias = -s * (m - n)", "bias = s * (m - n)"),), "alibi.sign"),
    "llama3": ((("wavelength > L / low_freq_factor", "wavelength > L / high_freq_factor"),
                ("wavelength < L / high_freq_factor", "wavelength < L / low_freq_factor")),
               "llama3.thresholds_swapped"),
}  # fmt: skip

# the bad cases: what the student's cell does, and the (status, diagnosis) every exercise of it gets
BAD_CODE = {
    "endless_loop": ("while True:\n    pass\n", "timeout", "grade.timeout"),
    "crash": ("import os\nos._exit(3)\n", "error", "grade.kernel_died"),
    "gigabyte": ("for _ in range(1024):\n    print('x' * 2**20)\n", "error", "grade.output_too_large"),
    "other_student": ("open({other!r}).read()\n", "error", "grade.other_student"),
    "outside_dir": ("open('/etc/hostname').read()\n", "error", "grade.outside_dir"),
    "socket": (
        "import socket\nsocket.create_connection(('192.0.2.1', 80), timeout=1)\n",
        "error",
        "grade.network",
    ),
}
REAL_LESSON, NBGRADER = 12, 5  # which students hand in the whole lesson, and in nbgrader's layout
BAD_FILES = {
    "not_json": (b"this is not JSON {", "grade.not_json"),
    "not_a_notebook": (json.dumps({"cells": 3}).encode(), "grade.not_a_notebook"),
}


def lesson_of(exercise: str) -> str:
    return next(name for name, checks in lesson_checks().items() if exercise in checks)


def notebook(exercise: str, code: str, lang: str) -> nbformat.NotebookNode:
    """A student's notebook, reduced to what grading needs: the language, their code, the check."""
    arg = lesson_checks()[lesson_of(exercise)][exercise]
    cells = [
        nbformat.v4.new_code_cell(f"import course_lib\n\ncourse_lib.set_language({lang!r})"),
        nbformat.v4.new_code_cell(code),
        nbformat.v4.new_code_cell(f"from course_lib import exercises\n\nexercises.{exercise}.check({arg})"),
    ]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def real_lesson(exercise: str, code: str, lang: str) -> nbformat.NotebookNode:
    """The committed lesson notebook as a student hands it in: ``code`` in its template cell."""
    from course_tools.core.config import CONFIG

    nb = nbformat.read(CONFIG.notebook(lesson_of(exercise), lang), as_version=4)
    (cell,) = [c for c in nb.cells if c.metadata.get("exercise_template") == exercise]
    cell.source = code
    return nb


def variant(exercise: str, kind: str, lang: str = "en") -> tuple[str, str, str]:
    """(code, status, diagnosis) of one kind of submission: correct, template or mistake; an
    untouched template is the one of the student's notebook, its comments in ``lang``."""
    e = exercises.registry()[exercise]
    if kind == "correct":
        return e.solution_code, "correct", "correct"
    if kind == "template":
        return e.template_in(lang), "not_attempted", "not_attempted"
    edits, key = MISTAKES[exercise]
    code = e.solution_code
    for old, new in edits:
        assert code.count(old) == 1, (exercise, old)  # the reference solution changed: update the edit
        code = code.replace(old, new)
    return code, "incorrect", key


def make_class(root: Path, size: int = 30) -> dict[tuple[str, str], int]:
    """``size`` students under ``root``: every bad case once, the others cycling through every exercise."""
    names = list(exercises.registry())
    expected: dict[tuple[str, str], int] = {}

    def expect(exercise, key):
        expected[(exercise, key)] = expected.get((exercise, key), 0) + 1

    def write(student: str, filename: str, data: bytes):
        (root / student).mkdir(parents=True, exist_ok=True)
        (root / student / filename).write_bytes(data)

    bad = list(BAD_CODE) + list(BAD_FILES)
    good = size - len(bad)
    first_file = None
    for i in range(good):
        exercise, kind = names[i % len(names)], ("mistake", "correct", "template")[i // len(names) % 3]
        student = f"student{i:02d}"
        lang = ("en", "ru")[i % 2]
        code, status, key = variant(exercise, kind, lang)
        # one whole lesson as committed (its grade-skip cells skipped), one in nbgrader's layout
        nb = real_lesson(exercise, code, lang) if i == REAL_LESSON else notebook(exercise, code, lang)
        filename = f"{lesson_of(exercise)}.ipynb"
        if i == NBGRADER:
            filename = f"assignment1/{filename}"
            (root / student / "assignment1").mkdir(parents=True)
        write(student, filename, nbformat.writes(nb).encode())
        first_file = first_file or root / student / filename
        expect(exercise, key)
        for other in lesson_checks()[lesson_of(exercise)]:  # a lesson's other exercises (lesson 8 has two)
            if other != exercise:  # the whole lesson holds its template; the reduced notebook nothing
                expect(other, "not_attempted" if i == REAL_LESSON else "grade.not_defined")
    exercise = "positional_encoding"
    for j, case in enumerate(bad):
        student = f"student{good + j:02d}"
        filename = f"{lesson_of(exercise)}.ipynb"
        if case in BAD_FILES:
            data, key = BAD_FILES[case]
            write(student, filename, data)
        else:
            code, _, key = BAD_CODE[case]
            nb = notebook(
                exercise, code.format(other=str(first_file.resolve())) + variant(exercise, "correct")[0], "en"
            )
            write(student, filename, nbformat.writes(nb).encode())
        expect(exercise, key)
    return expected


def checked_in_process(size: int = 30):
    """A graded class without kernels, for the report's own tests: each student's verdict from running
    the check here, on the same variants as ``make_class`` (a few bad cases as the grader words them)."""
    from course_lib import set_language
    from course_tools.grading.grade import Notebook, Result, Verdict, localised

    books = []
    names = list(exercises.registry())
    set_language("en")
    for i in range(size):
        exercise = names[i % 4 + 4]  # lessons 5-8: a report of four sections
        kind = ("mistake", "correct", "mistake", "template", "correct")[i % 5]
        code, _, _ = variant(exercise, kind)
        namespace: dict = {}
        exec(code, namespace)
        feedback = exercises.registry()[exercise].check(
            namespace[lesson_checks()[lesson_of(exercise)][exercise]]
        )
        book = Notebook(f"s{i:02d}", Path(f"{lesson_of(exercise)}.ipynb"), lesson_of(exercise))
        key = "" if feedback.status == "correct" else feedback.key
        book.verdicts = [Verdict(book.student, book.lesson, exercise, feedback.status, key, feedback.message,
                                 dict(feedback.values))]  # fmt: skip
        if i % 10 == 9:
            book.verdicts = [
                Verdict(book.student, book.lesson, exercise, "timeout", "grade.timeout", "", {"seconds": 120})
            ]
            book.verdicts[0].message = localised(book.verdicts[0], "en")
        books.append(book)
    from course_tools.grading.sandbox import ISOLATED

    return Result(books, 42.0, ISOLATED)
