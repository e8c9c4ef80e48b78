"""The texts the build tools write for people, in English (the other languages: gettext catalogues): beside the
tools rather than inside them.

One catalogue per tool, which that tool imports under its old name: the decks' index pages
(``slides.TEXT``), the website's own pages (``site_pages.TEXT``), the READMEs' lesson tables
(``tables.HEADERS``), the deep dives' heading the lesson sources must open with (``source.py``), what ``make lab`` tells a student (``workspace.TEXT``) and what ``make hub`` tells the
instructor on the terminal (``hub.TEXT``). The grader's
texts are in ``grade_messages.py``. The English is here; the other
languages are in ``course_tools/locale/<lang>/LC_MESSAGES/course_tools.po`` (``course_tools.translations``).
"""

from course_lib.i18n import Messages

__all__ = ["SLIDES_INDEX", "SITE", "LESSON_SOURCE", "LESSON_TABLES", "WORKSPACE", "HUB"]

#: slides.py: the decks' index page of each language. ``version`` is what a link to that
#: language's index says.
SLIDES_INDEX = Messages(
    "slides_index",
    {
        "title": "The input layer of a Transformer — slides",
        "lessons": "Lessons",
        "keys": "Keys",
        "version": "English version",
        "offline": "Everything here works offline: the decks load nothing from the network.",
        "full_code": "Full code: in the notebook",
        "handout": "handout",
        "pdf": "PDF",
        "notes_heading": "Speaker notes",
        "slide": "Slide {number} of {total}",
        "key_next": "→, Space",
        "does_next": "next slide",
        "key_previous": "←",
        "does_previous": "previous slide",
        "key_section": "↓ ↑",
        "does_section": "slides within a section",
        "key_notes": "S",
        "does_notes": "speaker notes, in a window of their own",
        "key_full_screen": "F",
        "does_full_screen": "full screen (Esc leaves it)",
        "key_overview": "Esc",
        "does_overview": "overview of all slides",
        "key_black": "B",
        "does_black": "black screen and back",
    },
)

#: site_pages.py and site_theme: the website's home and glossary pages, and its page chrome
SITE = Messages(
    "site",
    {
        "title": "The input layer of a Transformer",
        "intro": (
            "Text → token IDs → token embeddings scaled by √d_model → positional encodings added: "
            "the input side of a Transformer (Vaswani et al., 2017, §3.4–3.5), built step by step. "
            "Each lesson here is its executed notebook: every output, formula and figure as it ran. "
            "The explorers are live in the page, with no kernel: move a slider and the browser redraws the "
            "picture beside the static figure of the same thing."
        ),
        "lessons": "Lessons",
        "slides": "slides",
        "notebook": "notebook",
        "all_slides": "All the slides",
        "glossary": "Glossary",
        "glossary_intro": (
            "The course's terms in English and Russian; the last column lists the words "
            "the Russian text does not use."
        ),
        "run_title": "Run the course on your computer",
        "run": (
            "You need Python 3.11 and `make`; everything else is installed from pinned versions, "
            "and nothing is downloaded while you work. In the folder of the course's repository:\n\n"
            "```bash\n"
            "make lab      # the lessons in JupyterLab (the first run creates .venv and installs the course)\n"
            "make lab-ru   # the Russian lessons, in JupyterLab's Russian interface\n"
            "```\n\n"
            "JupyterLab opens on 127.0.0.1; the address with its token is printed in the terminal. "
            "Your copies of the lessons live in `workspace/`: updating the course never overwrites them."
        ),
        "offline": "This website needs no network: copy its folder anywhere and open `index.html`.",
        "search": "Search the course…",
        # on a page in another language, the link to this one
        "this_page": "This page in English",
        "download": "Download the notebook (.ipynb)",
        # the download link's name for screen readers and speech input: it must contain what the link
        # shows (".ipynb", WCAG 2.2, 2.5.3 Label in Name), and words in parentheses do not count
        "download_label": "Download the notebook .ipynb",
    },
)

#: source.py: the first line of a deep dive in a lesson source (``title``: its title)
LESSON_SOURCE = Messages(
    "lesson_source",
    {
        "deep_dive_heading": "### Deep dive: {title}",
    },
)

#: tables.py: the headers of the lesson tables (READMEs, lesson 0)
LESSON_TABLES = Messages(
    "lesson_tables",
    {
        "number": "#",
        "lesson": "lesson",
        "goal": "you will be able to",
        "budget": "run time",
        # the budget is an upper bound: the whole run, measured, took less (benchmarks/bench_lessons.py)
        "seconds": "≤ {n} s",
    },
)

#: workspace.py: what `make lab` tells a student about their copies of the lessons
WORKSPACE = Messages(
    "workspace",
    {
        "new": "new lesson: {path}",
        "updated": "updated: {path}",
        "kept": "a newer version of {path} exists; your edited copy is kept, the new one is {new}",
        "link_kept": (
            "{path} is a link, so it is yours and the course never writes through it; "
            "the course's version is {new}"
        ),
        "renamed_moved": "lesson {old} is now {new}: your copy, which you had not changed, moved to the new name",
        "renamed_kept": "lesson {old} is now {new}: your edited copy stays under the old name, the new lesson is {new}",
        "not_a_file": (
            "{path} is a folder, not a lesson: that lesson is skipped; rename or remove the folder to get it"
        ),
        "not_a_folder": (
            "{path} should be the folder of the lessons, but it is a file or a link, so those lessons "
            "are skipped; move it away and they appear at the next start"
        ),
        "manifest_unreadable": (
            "the course's list of the files it wrote, {path}, cannot be read ({error}): every lesson "
            "already in your workspace is treated as yours and kept; the list is written anew"
        ),
        "cannot_write": "could not update {path} ({error}): that lesson is skipped",
        "settings_failed": (
            "JupyterLab's interface language could not be set in {path} ({error}; a link there "
            "is yours, and the course never writes through one): JupyterLab opens in English"
        ),
        "failed": "the lessons could not be updated ({error}); JupyterLab starts with what is there",
        "trust_failed": (
            "the course's lessons could not be marked trusted ({error}): their explorers show as text "
            "until you run their cells"
        ),
        "ready": "your workspace: {root}",
    },
)

#: hub.py: what ``make hub`` says on the instructor's terminal, in the language ``COURSE_LANG`` names
HUB = Messages(
    "hub",
    {
        "class_unreadable": "cannot read the class list {path}: {error}",
        "class_bad_name": (
            "{where}: {name} is not a user name for the hub (lower-case letters, digits, '.', '_' or "
            "'-', starting with a letter or digit, at most 64)"
        ),
        "class_twice": "{where}: {name} is in the class list twice",
        "class_bad_lang": (
            "{where}: {lang} is not one of the course's languages ({langs}); a line is a user name, then "
            "optionally the student's language"
        ),
        "class_empty": "the class list {path} has no names",
        "class_state_unreadable": "cannot read the hub's class {path}: {error}",
        "running": (
            "JupyterHub: {url}/  ({n} students, each with a password of their own; the names and "
            "passwords are in {where}, readable by root alone: hand each student theirs)"
        ),
        "new_passwords": "New in the class list: {n} students; their passwords were added to {where}.",
        "running_shared": "JupyterHub: {url}/  (any user name; the shared password is in {where})",
        "shared_password": (
            "WARNING: one shared password and any user name (--shared-password): anyone who knows "
            "the password can log in as any student and use their server, and every new name creates a "
            "system user. Fine for a trial, not for a class: give a class list "
            "(`make hub CLASS=students.txt`)."
        ),
        "no_class": (
            "make hub: no class list: give one, a student's user name a line "
            "(`make hub CLASS=students.txt`); each student gets a password of their own. The hub for "
            "{state} has no class from an earlier start. For a trial with one shared password and any "
            "name (not isolated: anyone can log in as anyone), `make hub HUB_SHARED_PASSWORD=1`."
        ),
        "class_or_shared": "make hub: a class list ({path}) and a shared password cannot both be given: choose one",
        "internal_open": (
            "make hub: the hub's API (127.0.0.1:{hub}) and the proxy's API (127.0.0.1:{api}) must be "
            "on ports below {lowest}, which only root can listen on "
            "(net.ipv4.ip_unprivileged_port_start = {lowest}): otherwise, while the hub restarts, any "
            "student could listen there and pose as the hub. Choose `make hub HUB_INTERNAL_PORT=...` "
            "below {lowest} minus 1, or raise that sysctl back to 1024."
        ),
        "ctrl_c": (
            "Ctrl-C stops the hub only; `make hub` again takes the servers back, "
            "`make hub-stop` ends everything."
        ),
        "isolated": (
            "Each student runs as a system user of their own (jupyter-<name>), "
            "their home {homes}/jupyter-<name>/ closed to everyone else (0700)."
        ),
        "not_root": (
            "The hub is not running as root, so it cannot give each student a system user of their "
            "own: every server and kernel would run as {user}, and any student could read, change or "
            "delete every other student's work, run code in their kernels and read the hub's secrets. "
            "Run `sudo make hub` for one user per student, or `make hub HUB_SHARED_USER=1` to accept "
            "this (a trial on your own computer)."
        ),
        "shared": (
            "WARNING: one system user ({user}) for every student: they can read, change and delete "
            "each other's work and reach each other's kernels. Fine for a trial, not for a class."
        ),
        "port_busy": (
            "make hub: cannot start {what}: 127.0.0.1:{port} is already in use by another program "
            "(choose other ports: `make hub HUB_PORT=...` or `HUB_INTERNAL_PORT=...`)"
        ),
        "proxy": "the proxy (configurable-http-proxy)",
        "proxy_api": "the proxy's API",
        "hub": "JupyterHub",
        "proxy_failed": "make hub: the proxy (configurable-http-proxy) did not start: {reason}. The end of {log}:",
        "exited": "it exited with code {code}",
        "port_taken": "it could not take 127.0.0.1:{port} (another program holds it) and was stopped",
        "silent": "it did not listen on 127.0.0.1:{port} within {seconds} s",
        "hub_failed": (
            "make hub: JupyterHub did not start: it exited with code {code} before answering on "
            "{url} (its log is above)"
        ),
        "hub_silent": "make hub: JupyterHub did not answer on {url} within {seconds} s; it is stopped",
        "already": "make hub: a hub for {state} is already running (pid {pid}); `make hub-stop` ends it",
        "no_useradd": (
            "make hub: `useradd` is not installed, so the hub cannot give each student a system user of "
            "their own (Debian and Ubuntu: `apt-get install passwd`)"
        ),
        "unreachable": (
            "make hub: students could not reach {path}: {folder} is closed to other users and this "
            "system does not allow mount namespaces to open it for them ({reason}). Install the course and "
            "its Python where everyone may read them (/opt, /srv), or give others x on {folder}."
        ),
    },
)
