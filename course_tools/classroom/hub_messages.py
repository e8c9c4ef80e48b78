"""What ``make hub`` says on the instructor's terminal, in every language of ``LANGUAGES`` (the language
``COURSE_LANG`` names). Adding a language adds a line to every entry (``tests/unit/test_messages.py``)."""

from course_lib.i18n import Messages

__all__ = ["HUB"]

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
