"""The grader's messages: why a submission could not be graded (``grade.*``), and the report's text.

The ``grade.*`` keys are diagnoses like the checkers' own (``pe.sin_cos_swapped``): they appear in
``verdicts.csv`` and the report, and each says in a sentence what happened to the submission.
"""

from course_lib.i18n import Messages

GRADE = Messages(
    "grade",
    {
        "not_json": "The file is not JSON, so it is not a notebook: was it saved from JupyterLab?",
        "not_a_notebook": "The file is JSON but not a Jupyter notebook (nbformat 4): {detail}",
        "too_large": "The file has {size} bytes, more than the limit of {limit}: clear the outputs and save again.",
        "symlink": "`{detail}` is a link, not a file or folder of the student's own: links are never graded.",
        "not_a_file": "`{detail}` is not an ordinary file (a pipe, a device or an unreadable file): it is not graded.",
        "too_many_cells": "The notebook has {cells} cells, more than the limit of {limit}: is it a lesson of the course?",
        "duplicate": (
            "`{detail}` is not graded: another notebook of this student for the same lesson was "
            "(one per lesson, at most 18 per student)."
        ),
        "unknown_lesson": "Neither the file name (NN_name.ipynb) nor a check cell says which lesson this is.",
        "timeout": "A cell ran longer than {seconds} s, or the notebook much longer, and was stopped: a loop that never ends?",
        "kernel_died": "The kernel died while running the notebook (a crash, `os._exit`, or out of memory).",
        "memory": "The notebook's processes together used more than {memory} MiB of memory and were stopped.",
        "processes": "The notebook started more than {processes} processes or threads and was stopped: a fork bomb?",
        "output_too_large": "The notebook printed more than {limit} bytes and was stopped.",
        "no_verdict": (
            "The notebook ran, but its process did not answer the grader's check as the course does "
            "(`{detail}`): did the code write to the grader's channel or replace the course's functions?"
        ),
        "not_defined": "The notebook never defines `{name}`, the name its check cell checks.",
        "other_student": "The code tried to open another student's file: `{detail}`.",
        "outside_dir": "The code tried to open a path outside its own folder: `{detail}`.",
        "network": "The code tried to use the network: `{detail}`. Graded notebooks run offline.",
        "process": "The code tried to start a program: `{detail}`. Graded notebooks run Python only.",
        "grader_failed": "The grader itself failed on this notebook ({code}): please report it.",
    },
)

REPORT = Messages(
    "report",
    {
        "title": "Mistakes of the class",
        "summary": "{students} students, {notebooks} notebooks, {rows} exercise verdicts; graded in {seconds} s.",
        "sandbox_on": (
            "Mode: isolated. Each notebook ran as a user of its own, without network, on a read-only "
            "filesystem with the other submissions out of sight, its processes limited together; every "
            "verdict was decided by the grader, outside the notebook's reach."
        ),
        "sandbox_off": (
            "Mode: unprotected (no root or no Linux namespaces here). The notebooks ran as the grader's "
            "user, with the network and that user's files; the verdicts were still decided by the grader, "
            "but a malicious notebook could reach other files. Grade untrusted work as root on Linux."
        ),
        "lesson": "Lesson {lesson}. {title}: exercise `{exercise}`",
        "statuses": (
            "{correct} correct, {incorrect} not yet, {not_attempted} not attempted, "
            "{timeout} timed out, {error} could not be graded"
        ),
        "chart_label": "Share of the class's diagnoses for {exercise}",
        "students": "{count} of {total} ({percent} %)",
        "what_they_read": "What the students read",
        "reteach": "To re-teach",
        "correct_label": "correct",
    },
)
