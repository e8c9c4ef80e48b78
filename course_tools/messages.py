"""The texts the build tools write for people, in every language of ``LANGUAGES``: beside the
tools rather than inside them.

One catalogue per tool, which that tool imports under its old name: the decks' index pages
(``slides.TEXT``), the website's own pages (``site_pages.TEXT``), the READMEs' lesson tables
(``tables.HEADERS``) and what ``make lab`` tells a student (``workspace.TEXT``). The grader's
texts are in ``grade_messages.py``. Adding a language adds a line to every entry here
(``tests/unit/test_messages.py`` lists what is missing).
"""

from course_lib.i18n import Messages

__all__ = ["SLIDES_INDEX", "SITE", "LESSON_TABLES", "WORKSPACE"]

#: slides.py: the decks' index page of each language. ``version`` is what a link to that
#: language's index says.
SLIDES_INDEX = Messages(
    "slides_index",
    {
        "title": {
            "en": "The input layer of a Transformer — slides",
            "ru": "Входной слой трансформера — слайды",
        },
        "lessons": {"en": "Lessons", "ru": "Уроки"},
        "keys": {"en": "Keys", "ru": "Клавиши"},
        "version": {"en": "English version", "ru": "Русская версия"},
        "offline": {
            "en": "Everything here works offline: the decks load nothing from the network.",
            "ru": "Всё здесь работает без сети: слайды ничего не загружают из интернета.",
        },
        "key_next": {"en": "→, Space", "ru": "→, пробел"},
        "does_next": {"en": "next slide", "ru": "следующий слайд"},
        "key_previous": {"en": "←", "ru": "←"},
        "does_previous": {"en": "previous slide", "ru": "предыдущий слайд"},
        "key_section": {"en": "↓ ↑", "ru": "↓ ↑"},
        "does_section": {"en": "slides within a section", "ru": "слайды внутри раздела"},
        "key_notes": {"en": "S", "ru": "S"},
        "does_notes": {
            "en": "speaker notes, in a window of their own",
            "ru": "заметки докладчика в отдельном окне",
        },
        "key_full_screen": {"en": "F", "ru": "F"},
        "does_full_screen": {"en": "full screen (Esc leaves it)", "ru": "полноэкранный режим (выход — Esc)"},
        "key_overview": {"en": "Esc", "ru": "Esc"},
        "does_overview": {"en": "overview of all slides", "ru": "обзор всех слайдов"},
        "key_black": {"en": "B", "ru": "B"},
        "does_black": {"en": "black screen and back", "ru": "затемнить экран и вернуть"},
    },
)

#: site_pages.py and site_theme: the website's home and glossary pages, and its page chrome
SITE = Messages(
    "site",
    {
        "title": {"en": "The input layer of a Transformer", "ru": "Входной слой трансформера"},
        "intro": {
            "en": "Text → token IDs → token embeddings scaled by √d_model → positional encodings added: "
            "the input side of a Transformer (Vaswani et al., 2017, §3.4–3.5), built step by step. "
            "Each lesson here is its executed notebook: every output, formula and figure as it ran. "
            "The explorers are live in the page, with no kernel: move a slider and the browser redraws the "
            "picture beside the static figure of the same thing.",
            "ru": "Текст → индексы токенов → эмбеддинги токенов, умноженные на √d_model → плюс позиционное "
            "кодирование: входная часть трансформера (Vaswani et al., 2017, §3.4–3.5), шаг за шагом. "
            "Каждый урок здесь — его выполненный ноутбук: все выводы, формулы и рисунки. "
            "Интерактивные графики работают прямо на странице, без ядра: сдвиньте слайдер, и браузер "
            "перерисует график рядом со статичным рисунком того же.",
        },
        "lessons": {"en": "Lessons", "ru": "Уроки"},
        "slides": {"en": "slides", "ru": "слайды"},
        "notebook": {"en": "notebook", "ru": "ноутбук"},
        "all_slides": {"en": "All the slides", "ru": "Все слайды"},
        "glossary": {"en": "Glossary", "ru": "Глоссарий"},
        "glossary_intro": {
            "en": "The course's terms in English and Russian; the last column lists the words "
            "the Russian text does not use.",
            "ru": "Термины курса по-английски и по-русски; в последнем столбце — слова, "
            "которых в русском тексте нет.",
        },
        "run_title": {
            "en": "Run the course on your computer",
            "ru": "Как запустить курс на своём компьютере",
        },
        "run": {
            "en": "You need Python 3.11 and `make`; everything else is installed from pinned versions, "
            "and nothing is downloaded while you work. In the folder of the course's repository:\n\n"
            "```bash\n"
            "make lab      # the lessons in JupyterLab (the first run creates .venv and installs the course)\n"
            "make lab-ru   # the Russian lessons, in JupyterLab's Russian interface\n"
            "```\n\n"
            "JupyterLab opens on 127.0.0.1; the address with its token is printed in the terminal. "
            "Your copies of the lessons live in `workspace/`: updating the course never overwrites them.",
            "ru": "Нужны Python 3.11 и `make`; всё остальное ставится из зафиксированных версий, "
            "и во время работы ничего не скачивается. В папке репозитория курса:\n\n"
            "```bash\n"
            "make lab-ru   # русские уроки в JupyterLab с русским интерфейсом (первый запуск создаёт .venv и ставит курс)\n"
            "make lab      # английские уроки\n"
            "```\n\n"
            "JupyterLab открывается на 127.0.0.1; адрес с токеном печатается в терминале. "
            "Ваши копии уроков лежат в `workspace/`: обновление курса их не перезаписывает.",
        },
        "offline": {
            "en": "This website needs no network: copy its folder anywhere and open `index.html`.",
            "ru": "Этому сайту не нужна сеть: скопируйте его папку куда угодно и откройте `index.html`.",
        },
        "search": {"en": "Search the course…", "ru": "Поиск по курсу…"},
        # on a page in another language, the link to this one
        "this_page": {"en": "This page in English", "ru": "Эта страница по-русски"},
        "download": {"en": "Download the notebook (.ipynb)", "ru": "Скачать ноутбук (.ipynb)"},
    },
)

#: tables.py: the headers of the lesson tables (READMEs, lesson 0)
LESSON_TABLES = Messages(
    "lesson_tables",
    {
        "number": {"en": "#", "ru": "№"},
        "lesson": {"en": "lesson", "ru": "урок"},
        "goal": {"en": "you will be able to", "ru": "вы научитесь"},
        "budget": {"en": "run time", "ru": "время"},
        # the budget is an upper bound: the whole run, measured, took less (benchmarks/bench_lessons.py)
        "seconds": {"en": "≤ {n} s", "ru": "≤ {n} с"},
    },
)

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
        "ready": {"en": "your workspace: {root}", "ru": "ваша рабочая папка: {root}"},
    },
)
