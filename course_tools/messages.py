"""The texts the build tools write for people, in every language of ``LANGUAGES``: beside the
tools rather than inside them.

One catalogue per tool, which that tool imports under its old name: the decks' index pages
(``slides.TEXT``), the website's own pages (``site_pages.TEXT``), the READMEs' lesson tables
(``tables.HEADERS``), what ``make lab`` tells a student (``workspace.TEXT``) and what ``make hub`` tells the
instructor on the terminal (``hub.TEXT``). The grader's
texts are in ``grade_messages.py``. Adding a language adds a line to every entry here
(``tests/unit/test_messages.py`` lists what is missing).
"""

from course_lib.i18n import Messages

__all__ = ["SLIDES_INDEX", "SITE", "LESSON_TABLES", "WORKSPACE", "HUB"]

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
        "trust_failed": {
            "en": "the course's lessons could not be marked trusted ({error}): their explorers show as text "
            "until you run their cells",
            "ru": "уроки курса не удалось отметить как доверенные ({error}): их интерактивные графики "
            "будут показаны текстом, пока вы не выполните их ячейки",
        },
        "ready": {"en": "your workspace: {root}", "ru": "ваша рабочая папка: {root}"},
    },
)

#: hub.py: what ``make hub`` says on the instructor's terminal, in the language ``COURSE_LANG`` names
HUB = Messages(
    "hub",
    {
        "class_unreadable": {
            "en": "cannot read the class list {path}: {error}",
            "ru": "не удаётся прочитать список группы {path}: {error}",
        },
        "class_bad_name": {
            "en": "{where}: {name} is not a user name for the hub (lower-case letters, digits, '.', '_' or "
            "'-', starting with a letter or digit, at most 64)",
            "ru": "{where}: {name} не годится в имя пользователя хаба (строчные латинские буквы, цифры, '.', "
            "'_' или '-', в начале буква или цифра, не больше 64 знаков)",
        },
        "class_twice": {
            "en": "{where}: {name} is in the class list twice",
            "ru": "{where}: {name} встречается в списке группы дважды",
        },
        "class_bad_lang": {
            "en": "{where}: {lang} is not one of the course's languages ({langs}); a line is a user name, then "
            "optionally the student's language",
            "ru": "{where}: {lang} — не язык курса ({langs}); в строке имя пользователя и, если нужно, язык "
            "студента",
        },
        "class_empty": {
            "en": "the class list {path} has no names",
            "ru": "в списке группы {path} нет ни одного имени",
        },
        "class_state_unreadable": {
            "en": "cannot read the hub's class {path}: {error}",
            "ru": "не удаётся прочитать сохранённый список группы хаба {path}: {error}",
        },
        "running": {
            "en": "JupyterHub: {url}/  ({n} students, each with a password of their own; the names and "
            "passwords are in {where}, readable by root alone: hand each student theirs)",
            "ru": "JupyterHub: {url}/  (студентов: {n}, у каждого свой пароль; имена и пароли — в {where}, "
            "его может читать только root: раздайте каждому студенту его пароль)",
        },
        "new_passwords": {
            "en": "New in the class list: {n} students; their passwords were added to {where}.",
            "ru": "Новых студентов в списке группы: {n}; их пароли дописаны в {where}.",
        },
        "running_shared": {
            "en": "JupyterHub: {url}/  (any user name; the shared password is in {where})",
            "ru": "JupyterHub: {url}/  (имя — любое; общий пароль — в {where})",
        },
        "shared_password": {
            "en": "WARNING: one shared password and any user name (--shared-password): anyone who knows "
            "the password can log in as any student and use their server, and every new name creates a "
            "system user. Fine for a trial, not for a class: give a class list "
            "(`make hub CLASS=students.txt`).",
            "ru": "ВНИМАНИЕ: общий пароль и любое имя (--shared-password): любой, кто знает пароль, может "
            "войти под именем любого студента и работать на его сервере, а каждое новое имя создаёт "
            "системного пользователя. Для пробы годится, для занятий — нет: укажите список группы "
            "(`make hub CLASS=students.txt`).",
        },
        "no_class": {
            "en": "make hub: no class list: give one, a student's user name a line "
            "(`make hub CLASS=students.txt`); each student gets a password of their own. The hub for "
            "{state} has no class from an earlier start. For a trial with one shared password and any "
            "name (not isolated: anyone can log in as anyone), `make hub HUB_SHARED_PASSWORD=1`.",
            "ru": "make hub: не указан список группы: дайте файл, по одному имени студента в строке "
            "(`make hub CLASS=students.txt`), — каждый студент получит собственный пароль. У хаба "
            "{state} нет группы с прошлого запуска. Для пробы с общим паролем и любым именем "
            "(без изоляции: любой может войти под чужим именем) — `make hub HUB_SHARED_PASSWORD=1`.",
        },
        "class_or_shared": {
            "en": "make hub: a class list ({path}) and a shared password cannot both be given: choose one",
            "ru": "make hub: нельзя указать одновременно список группы ({path}) и общий пароль: выберите одно",
        },
        "internal_open": {
            "en": "make hub: the hub's API (127.0.0.1:{hub}) and the proxy's API (127.0.0.1:{api}) must be "
            "on ports below {lowest}, which only root can listen on "
            "(net.ipv4.ip_unprivileged_port_start = {lowest}): otherwise, while the hub restarts, any "
            "student could listen there and pose as the hub. Choose `make hub HUB_INTERNAL_PORT=...` "
            "below {lowest} minus 1, or raise that sysctl back to 1024.",
            "ru": "make hub: API хаба (127.0.0.1:{hub}) и API прокси (127.0.0.1:{api}) должны быть на "
            "портах ниже {lowest}, которые может занять только root "
            "(net.ipv4.ip_unprivileged_port_start = {lowest}); иначе, пока хаб перезапускается, любой "
            "студент может занять этот порт и выдать себя за хаб. Укажите "
            "`make hub HUB_INTERNAL_PORT=...` меньше {lowest} минус 1 или верните этот sysctl к 1024.",
        },
        "ctrl_c": {
            "en": "Ctrl-C stops the hub only; `make hub` again takes the servers back, "
            "`make hub-stop` ends everything.",
            "ru": "Ctrl-C останавливает только хаб; повторный `make hub` подхватит серверы студентов, "
            "`make hub-stop` остановит всё.",
        },
        "isolated": {
            "en": "Each student runs as a system user of their own (jupyter-<name>), "
            "their home {homes}/jupyter-<name>/ closed to everyone else (0700).",
            "ru": "Каждый студент работает под собственным системным пользователем (jupyter-<имя>), "
            "его домашняя папка {homes}/jupyter-<имя>/ закрыта для остальных (0700).",
        },
        "not_root": {
            "en": "The hub is not running as root, so it cannot give each student a system user of their "
            "own: every server and kernel would run as {user}, and any student could read, change or "
            "delete every other student's work, run code in their kernels and read the hub's secrets. "
            "Run `sudo make hub` for one user per student, or `make hub HUB_SHARED_USER=1` to accept "
            "this (a trial on your own computer).",
            "ru": "Хаб запущен не от root и не может выдать каждому студенту отдельного системного "
            "пользователя: все серверы и ядра работали бы от имени {user}, и любой студент мог бы "
            "читать, менять и удалять чужие работы, выполнять код в чужих ядрах и читать секреты хаба. "
            "Запустите `sudo make hub` — тогда у каждого студента будет свой пользователь — или "
            "`make hub HUB_SHARED_USER=1`, если это вас устраивает (проба на своём компьютере).",
        },
        "shared": {
            "en": "WARNING: one system user ({user}) for every student: they can read, change and delete "
            "each other's work and reach each other's kernels. Fine for a trial, not for a class.",
            "ru": "ВНИМАНИЕ: все студенты работают под одним системным пользователем ({user}): они могут "
            "читать, менять и удалять чужие работы и добраться до чужих ядер. Для пробы годится, "
            "для занятий — нет.",
        },
        "port_busy": {
            "en": "make hub: cannot start {what}: 127.0.0.1:{port} is already in use by another program "
            "(choose other ports: `make hub HUB_PORT=...` or `HUB_INTERNAL_PORT=...`)",
            "ru": "make hub: не удаётся запустить {what}: порт 127.0.0.1:{port} уже занят другой программой "
            "(выберите другие порты: `make hub HUB_PORT=...` или `HUB_INTERNAL_PORT=...`)",
        },
        "proxy": {"en": "the proxy (configurable-http-proxy)", "ru": "прокси (configurable-http-proxy)"},
        "proxy_api": {"en": "the proxy's API", "ru": "API прокси"},
        "hub": {"en": "JupyterHub", "ru": "JupyterHub"},
        "proxy_failed": {
            "en": "make hub: the proxy (configurable-http-proxy) did not start: {reason}. The end of {log}:",
            "ru": "make hub: прокси (configurable-http-proxy) не запустился: {reason}. Конец журнала {log}:",
        },
        "exited": {"en": "it exited with code {code}", "ru": "он завершился с кодом {code}"},
        "port_taken": {
            "en": "it could not take 127.0.0.1:{port} (another program holds it) and was stopped",
            "ru": "ему не удалось занять 127.0.0.1:{port} (порт держит другая программа), и он остановлен",
        },
        "silent": {
            "en": "it did not listen on 127.0.0.1:{port} within {seconds} s",
            "ru": "за {seconds} с он так и не начал слушать 127.0.0.1:{port}",
        },
        "hub_failed": {
            "en": "make hub: JupyterHub did not start: it exited with code {code} before answering on "
            "{url} (its log is above)",
            "ru": "make hub: JupyterHub не запустился: он завершился с кодом {code}, так и не ответив "
            "по адресу {url} (его журнал — выше)",
        },
        "hub_silent": {
            "en": "make hub: JupyterHub did not answer on {url} within {seconds} s; it is stopped",
            "ru": "make hub: JupyterHub не ответил по адресу {url} за {seconds} с; он остановлен",
        },
        "already": {
            "en": "make hub: a hub for {state} is already running (pid {pid}); `make hub-stop` ends it",
            "ru": "make hub: хаб для {state} уже запущен (pid {pid}); остановить его — `make hub-stop`",
        },
        "no_useradd": {
            "en": "make hub: `useradd` is not installed, so the hub cannot give each student a system user of "
            "their own (Debian and Ubuntu: `apt-get install passwd`)",
            "ru": "make hub: не установлен `useradd`, поэтому хаб не может дать каждому студенту собственного "
            "системного пользователя (Debian и Ubuntu: `apt-get install passwd`)",
        },
        "unreachable": {
            "en": "make hub: students could not reach {path}: {folder} is closed to other users and this "
            "system does not allow mount namespaces to open it for them ({reason}). Install the course and "
            "its Python where everyone may read them (/opt, /srv), or give others x on {folder}.",
            "ru": "make hub: студентам недоступен {path}: папка {folder} закрыта для других пользователей, "
            "а открыть её через пространство имён монтирования (mount namespace) эта система не даёт ({reason}). Установите курс и его "
            "Python туда, где их могут читать все (/opt, /srv), или дайте остальным право x на {folder}.",
        },
    },
)
