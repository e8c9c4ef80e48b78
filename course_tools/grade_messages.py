"""The grader's messages: why a submission could not be graded (``grade.*``), and the report's text.

The ``grade.*`` keys are diagnoses like the checkers' own (``pe.sin_cos_swapped``): they appear in
``verdicts.csv`` and the report, and each says in a sentence what happened to the submission.
"""

from course_lib.i18n import Messages

GRADE = Messages(
    "grade",
    {
        "not_json": {
            "en": "The file is not JSON, so it is not a notebook: was it saved from JupyterLab?",
            "ru": "Файл — не JSON, а значит, и не ноутбук: он точно сохранён из JupyterLab?",
        },
        "not_a_notebook": {
            "en": "The file is JSON but not a Jupyter notebook (nbformat 4): {detail}",
            "ru": "Файл — JSON, но не ноутбук Jupyter (nbformat 4): {detail}",
        },
        "too_large": {
            "en": "The file has {size} bytes, more than the limit of {limit}: clear the outputs and save again.",
            "ru": "В файле {size} байт, больше предела в {limit}: очистите выводы и сохраните снова.",
        },
        "unknown_lesson": {
            "en": "Neither the file name (NN_name.ipynb) nor a check cell says which lesson this is.",
            "ru": "Ни имя файла (NN_name.ipynb), ни ячейка проверки не говорят, какой это урок.",
        },
        "timeout": {
            "en": "A cell ran longer than {seconds} s, or the notebook much longer, and was stopped: a loop that never ends?",
            "ru": "Ячейка работала дольше {seconds} с или ноутбук намного дольше, и его остановили: нет ли бесконечного цикла?",
        },
        "kernel_died": {
            "en": "The kernel died while running the notebook (a crash, `os._exit`, or out of memory).",
            "ru": "Ядро упало во время работы ноутбука (сбой, `os._exit` или нехватка памяти).",
        },
        "output_too_large": {
            "en": "The notebook printed more than {limit} bytes and was stopped.",
            "ru": "Ноутбук напечатал больше {limit} байт и был остановлен.",
        },
        "no_verdict": {
            "en": "The notebook ran, but the grader's check did not report: did the code replace `print`?",
            "ru": "Ноутбук отработал, но проверка грейдера ничего не сообщила: код не подменил ли `print`?",
        },
        "not_defined": {
            "en": "The notebook never defines `{name}`, the name its check cell checks.",
            "ru": "В ноутбуке не определено имя `{name}`, которое проверяет его ячейка проверки.",
        },
        "other_student": {
            "en": "The code tried to open another student's file: `{detail}`.",
            "ru": "Код пытался открыть файл другого студента: `{detail}`.",
        },
        "outside_dir": {
            "en": "The code tried to open a path outside its own folder: `{detail}`.",
            "ru": "Код пытался открыть путь за пределами своей папки: `{detail}`.",
        },
        "network": {
            "en": "The code tried to use the network: `{detail}`. Graded notebooks run offline.",
            "ru": "Код пытался выйти в сеть: `{detail}`. Ноутбуки проверяются без сети.",
        },
        "grader_failed": {
            "en": "The grader itself failed on this notebook (exit status {code}): please report it.",
            "ru": "Сам грейдер упал на этом ноутбуке (код выхода {code}): пожалуйста, сообщите об этом.",
        },
    },
)

REPORT = Messages(
    "report",
    {
        "title": {
            "en": "Mistakes of the class",
            "ru": "Ошибки группы",
        },
        "summary": {
            "en": "{students} students, {notebooks} notebooks, {rows} exercise verdicts; graded in {seconds} s.",
            "ru": "Студентов: {students}, ноутбуков: {notebooks}, вердиктов по упражнениям: {rows}; "
            "проверено за {seconds} с.",
        },
        "sandbox_on": {
            "en": "Each notebook ran in its own kernel without network, with the other submissions hidden "
            "(Linux namespaces).",
            "ru": "Каждый ноутбук выполнялся в своём ядре Jupyter без сети, а чужие работы были скрыты "
            "(пространства имён Linux).",
        },
        "sandbox_off": {
            "en": "Namespaces were not available: the notebooks could reach the network and other files. "
            "This grader is not a security boundary there.",
            "ru": "Пространства имён недоступны: ноутбуки могли выйти в сеть и читать другие файлы. "
            "Здесь грейдер не защищает от злонамеренного кода.",
        },
        "lesson": {
            "en": "Lesson {lesson}: `{exercise}`",
            "ru": "Урок {lesson}: `{exercise}`",
        },
        "statuses": {
            "en": "{correct} correct, {incorrect} not yet, {not_attempted} not attempted, "
            "{timeout} timed out, {error} could not be graded",
            "ru": "верно: {correct}, пока не так: {incorrect}, не решали: {not_attempted}, "
            "не уложились во время: {timeout}, не проверены: {error}",
        },
        "chart_label": {
            "en": "Share of the class's diagnoses for {exercise}",
            "ru": "Доли диагнозов группы в упражнении {exercise}",
        },
        "students": {
            "en": "{count} of {total} ({percent} %)",
            "ru": "{count} из {total} ({percent} %)",
        },
        "what_they_read": {
            "en": "What the students read",
            "ru": "Что прочитали студенты",
        },
        "reteach": {
            "en": "To re-teach",
            "ru": "Что объяснить заново",
        },
        "correct_label": {
            "en": "correct",
            "ru": "верно",
        },
    },
)
