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
        "symlink": {
            "en": "`{detail}` is a link, not a file or folder of the student's own: links are never graded.",
            "ru": "`{detail}` — ссылка, а не файл или папка самого студента: ссылки не проверяются.",
        },
        "not_a_file": {
            "en": "`{detail}` is not an ordinary file (a pipe, a device or an unreadable file): it is not graded.",
            "ru": "`{detail}` — не обычный файл (канал, устройство или файл, недоступный для чтения): он не проверяется.",
        },
        "too_many_cells": {
            "en": "The notebook has {cells} cells, more than the limit of {limit}: is it a lesson of the course?",
            "ru": "В ноутбуке {cells} ячеек, больше предела в {limit}: точно ли это урок курса?",
        },
        "duplicate": {
            "en": "`{detail}` is not graded: another notebook of this student for the same lesson was "
            "(one per lesson, at most 18 per student).",
            "ru": "`{detail}` не проверяется: у этого студента уже проверен другой ноутбук того же урока "
            "(по одному на урок, не больше 18 на студента).",
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
            "ru": "Ядро Jupyter аварийно завершилось во время работы ноутбука (сбой, `os._exit` или нехватка памяти).",
        },
        "memory": {
            "en": "The notebook's processes together used more than {memory} MiB of memory and were stopped.",
            "ru": "Процессы ноутбука вместе заняли больше {memory} МиБ памяти, и их остановили.",
        },
        "processes": {
            "en": "The notebook started more than {processes} processes or threads and was stopped: a fork bomb?",
            "ru": "Ноутбук запустил больше {processes} процессов или потоков, и его остановили: не fork-бомба ли это?",
        },
        "output_too_large": {
            "en": "The notebook printed more than {limit} bytes and was stopped.",
            "ru": "Ноутбук напечатал больше {limit} байт и был остановлен.",
        },
        "no_verdict": {
            "en": "The notebook ran, but its process did not answer the grader's check as the course does "
            "(`{detail}`): did the code write to the grader's channel or replace the course's functions?",
            "ru": "Ноутбук отработал, но его процесс ответил проверке грейдера не так, как отвечает курс "
            "(`{detail}`): не писал ли код в канал грейдера и не подменял ли функции курса?",
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
        "process": {
            "en": "The code tried to start a program: `{detail}`. Graded notebooks run Python only.",
            "ru": "Код пытался запустить программу: `{detail}`. При проверке ноутбук выполняет только Python.",
        },
        "grader_failed": {
            "en": "The grader itself failed on this notebook ({code}): please report it.",
            "ru": "Сам грейдер завершился с ошибкой на этом ноутбуке ({code}): пожалуйста, сообщите об этом.",
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
            "en": "Mode: isolated. Each notebook ran as a user of its own, without network, on a read-only "
            "filesystem with the other submissions out of sight, its processes limited together; every "
            "verdict was decided by the grader, outside the notebook's reach.",
            "ru": "Режим: изоляция. Каждый ноутбук выполнялся от имени отдельного пользователя, без сети, "
            "в файловой системе только для чтения, не видя чужих работ, с общим пределом на все свои "
            "процессы; каждый вердикт вынес сам грейдер, вне досягаемости кода ноутбука.",
        },
        "sandbox_off": {
            "en": "Mode: unprotected (no root or no Linux namespaces here). The notebooks ran as the grader's "
            "user, with the network and that user's files; the verdicts were still decided by the grader, "
            "but a malicious notebook could reach other files. Grade untrusted work as root on Linux.",
            "ru": "Режим: без защиты (здесь нет прав root или пространств имён Linux). Ноутбуки выполнялись "
            "от имени пользователя грейдера, с доступом к сети и к его файлам; вердикты по-прежнему выносил "
            "грейдер, но злонамеренный ноутбук мог добраться до чужих файлов. Проверяйте чужие работы от "
            "root в Linux.",
        },
        "lesson": {
            "en": "Lesson {lesson}. {title}: exercise `{exercise}`",
            "ru": "Урок {lesson}. {title}: упражнение `{exercise}`",
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
