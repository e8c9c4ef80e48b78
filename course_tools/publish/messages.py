"""What the published course says to its readers, in every language of ``LANGUAGES``: the decks' index
pages (``SLIDES_INDEX``) and the website's own pages and chrome (``SITE``). Adding a language adds a
line to every entry (``tests/unit/test_messages.py`` lists what is missing)."""

from course_lib.i18n import Messages

__all__ = ["SLIDES_INDEX", "SITE"]

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
        "full_code": {"en": "Full code: in the notebook", "ru": "Полный код — в ноутбуке"},
        "handout": {"en": "handout", "ru": "конспект"},
        "pdf": {"en": "PDF", "ru": "PDF"},
        "notes_heading": {"en": "Speaker notes", "ru": "Заметки докладчика"},
        "slide": {"en": "Slide {number} of {total}", "ru": "Слайд {number} из {total}"},
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
        # the download link's name for screen readers and speech input: it must contain what the link
        # shows (".ipynb", WCAG 2.2, 2.5.3 Label in Name), and words in parentheses do not count
        "download_label": {"en": "Download the notebook .ipynb", "ru": "Скачать ноутбук .ipynb"},
    },
)
