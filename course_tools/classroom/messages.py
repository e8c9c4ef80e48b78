"""What a student's workspace says (``make lab``, and each hub server's start), in every language of
``LANGUAGES``: it ships in the students' image, the hub's own texts (``hub_messages.py``) do not.
Adding a language adds a line to every entry (``tests/unit/test_messages.py``)."""

from course_lib.i18n import Messages

__all__ = ["WORKSPACE"]

#: workspace.py: what `make lab` tells a student about their copies of the lessons
WORKSPACE = Messages(
    "workspace",
    {
        "new": {"en": "new lesson: {path}", "ru": "новый урок: {path}"},
        "updated": {"en": "updated: {path}", "ru": "обновлён: {path}"},
        "kept": {
            "en": "a newer version of {path} exists; your edited copy is kept, the new one is {new}",
            "ru": "вышла новая версия {path}; ваша изменённая копия сохранена, новая лежит рядом: {new}",
        },
        "link_kept": {
            "en": "{path} is a link, so it is yours and the course never writes through it; "
            "the course's version is {new}",
            "ru": "{path} — ссылка, поэтому курс считает её вашей и никогда не пишет через неё; "
            "версия курса лежит рядом: {new}",
        },
        "renamed_moved": {
            "en": "lesson {old} is now {new}: your copy, which you had not changed, moved to the new name",
            "ru": "урок {old} теперь называется {new}: вашу копию, которую вы не меняли, перенесли под новое имя",
        },
        "renamed_kept": {
            "en": "lesson {old} is now {new}: your edited copy stays under the old name, the new lesson is {new}",
            "ru": "урок {old} теперь называется {new}: ваша изменённая копия осталась под старым именем, "
            "а новый урок лежит рядом: {new}",
        },
        "not_a_file": {
            "en": "{path} is a folder, not a lesson: that lesson is skipped; rename or remove the folder "
            "to get it",
            "ru": "на месте урока {path} лежит папка, а не ноутбук: этот урок пропущен; переименуйте или "
            "удалите папку, чтобы его получить",
        },
        "not_a_folder": {
            "en": "{path} should be the folder of the lessons, but it is a file or a link, so those lessons "
            "are skipped; move it away and they appear at the next start",
            "ru": "на месте папки {path} лежит файл или ссылка, поэтому уроки из неё пропущены; уберите "
            "или переименуйте этот файл, и при следующем запуске уроки появятся",
        },
        "manifest_unreadable": {
            "en": "the course's list of the files it wrote, {path}, cannot be read ({error}): every lesson "
            "already in your workspace is treated as yours and kept; the list is written anew",
            "ru": "список файлов, которые записал курс ({path}), не читается ({error}): все уроки, что уже "
            "лежат в рабочей папке, считаются вашими и сохраняются; список записан заново",
        },
        "cannot_write": {
            "en": "could not update {path} ({error}): that lesson is skipped",
            "ru": "не удалось обновить {path} ({error}): этот урок пропущен",
        },
        "settings_failed": {
            "en": "JupyterLab's interface language could not be set in {path} ({error}; a link there "
            "is yours, and the course never writes through one): JupyterLab opens in English",
            "ru": "язык интерфейса JupyterLab не удалось записать в {path} ({error}; ссылка там — ваша, "
            "и курс никогда не пишет через неё): JupyterLab откроется по-английски",
        },
        "failed": {
            "en": "the lessons could not be updated ({error}); JupyterLab starts with what is there",
            "ru": "уроки обновить не удалось ({error}); JupyterLab откроется с тем, что уже есть",
        },
        "trust_failed": {
            "en": "the course's lessons could not be marked trusted ({error}): their explorers show as text "
            "until you run their cells",
            "ru": "уроки курса не удалось отметить как доверенные ({error}): их интерактивные графики "
            "будут показаны текстом, пока вы не выполните их ячейки",
        },
        "ready": {"en": "your workspace: {root}", "ru": "ваша рабочая папка: {root}"},
    },
)
