"""Fixtures for the browser tests: headless Debian Chromium that may only talk to 127.0.0.1,
and a JupyterLab started from the course's own environment on a throwaway copy of the notebooks.

``browser`` (one per session) and ``offline_page`` (one per test) are generic: any browser test
can use them. ``offline_page`` blocks and counts every request that leaves what the page may load,
and collects missing files and JavaScript errors; the test asserts on all three
(``Traffic.assert_clean``). ``guarded_page`` is JupyterLab's: 127.0.0.1 only.

The server side is watched too: ``jupyterlab`` starts the server with ``netguard/`` on its
``PYTHONPATH``, whose ``sitecustomize`` records every lookup of, or connection to, another machine
made by the server or its kernels (``Lab.outside_requests``).
"""

import functools
import hashlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from course_tools.core.config import LAB_OFFLINE_OPTIONS

# the browser and its flags as the handouts' PDF build launches it: Chromium's own background traffic
# (updates, field trials) would otherwise show up as blocked requests that the page never made
from course_tools.publish.handouts import CHROMIUM, CHROMIUM_ARGS, chromium_missing

ROOT = Path(__file__).resolve().parents[2]
NETGUARD = Path(__file__).resolve().parent / "netguard"
# netguard/sitecustomize.py is loaded by the servers the tests start, never imported by pytest
collect_ignore = ["netguard"]
NOTEBOOKS = ROOT / "notebooks"
LOCAL_HOSTS = {"127.0.0.1"}
# not network traffic: the page's own objects and inline data
LOCAL_SCHEMES = {"blob", "data", "about"}
SERVER_START_TIMEOUT_S = 60


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in LOCAL_SCHEMES or parts.hostname in LOCAL_HOSTS


# ----------------------------------------------------------------------------- workers

# `make test`'s browser stages hand their tests out to two workers one by one (pytest-xdist, `--dist
# loadgroup`: the scheduler below), except that a module whose module-scoped fixture is costly goes to
# one worker whole, so that the fixture is made once: test_site_deep_dives.py builds a small site with
# Sphinx, test_explorers_data.py trains the course's BPE and runs the extrapolation experiment. (xdist's
# own loadgroup, by `xdist_group` marks, grouped nothing with pytest 9.2 and xdist 3.8: the ids it
# renames to carry the group came back unchanged.)
ONE_WORKER = ("test_site_deep_dives.py", "test_explorers_data.py")


@pytest.hookimpl(optionalhook=True)  # an xdist hook: grade-test runs these files with -p no:xdist
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class OneWorkerModules(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module.rsplit("/", 1)[-1] in ONE_WORKER else nodeid

    return OneWorkerModules(config, log)


# ----------------------------------------------------------------------------- JupyterLab's stage


# Every test that starts JupyterLab (the `jupyterlab` fixture below), in whichever file, is marked `lab`,
# as are the JupyterLab files' own tests (their pytestmark): `make browser-lab` runs them all, alone, and
# every other browser stage leaves them out (-m "... and not lab"). Beside a second browser stage (load
# 10 on 2 cores) JupyterLab's widget manager declared a lesson's saved explorers missing ("widget model
# not found"; three tests failed in the CI run of 2026-12-07), which no run alone has shown: an upstream
# race (jupyterlab_widgets 3.0.17) when the kernel's socket reconnects while the notebook's saved widgets
# are being restored, reproduced by holding a reply and closing the socket once.
def pytest_itemcollected(item):
    if "jupyterlab" in getattr(item, "fixturenames", ()):
        item.add_marker(pytest.mark.lab)


# ----------------------------------------------------------------------------- browser


# `make browser-slides` and `make browser-site` (COURSE_NO_SYSTEM_FONTS=1): the browser runs under a
# fontconfig that offers none of the machine's fonts, only a placeholder of our own (a name of its own,
# and every code point from U+0020 drawn by one blank glyph), so that a page which needs a font of the
# machine shows it (blank text, other line breaks). Every character that no font of the page's list has
# goes to the system's fallback, which is then always the placeholder, and the font probe names it, a
# system font: the guard fails on it where the machine's fonts would have drawn it, and also where none
# of them has the character (with the machine's fonts such a character is drawn as an empty box by a
# course font, which the guard cannot tell). tests/browser/test_fonts.py holds the probe to both kinds
# of browser. Not caught here, caught with the machine's fonts: a declaration naming one of the machine's
# families before the course's (the family is missing here, the course's font draws); no source of the
# course's names any (tests/lessons/test_fonts.py), and a package's list that ends with a generic family
# (sans-serif, monospace) comes to the placeholder on every page these tests probe. Without any font
# Chromium loads no web font either ("NetworkError"), hence a placeholder rather than none.
# The configuration keeps fontconfig's default rendering, slight hinting (upstream's 10-hinting-slight.conf,
# on by default): without it FreeType hints fully, glyphs advance by whole pixels, and a line of code at
# 16 px comes out about 6 % wider (lesson 3's longest code slide: 720 px tall instead of 678) — a change
# of rendering, not of fonts, which these tests are not about.
NO_SYSTEM_FONTS = os.environ.get("COURSE_NO_SYSTEM_FONTS") == "1"
PLACEHOLDER_FONT = "No System Font"
EMPTY_FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig><dir>{fonts}</dir><cachedir>{cache}</cachedir>
<match target="pattern"><edit name="hintstyle" mode="append"><const>hintslight</const></edit></match>
</fontconfig>
"""


@functools.cache
def placeholder_font() -> bytes:
    """A TrueType font whose one blank glyph (DejaVu Sans Mono's space, from the course's npm
    dejavu-fonts-ttf) draws every code point from U+0020 on (a cmap of format 13: many to one). Made once
    a process (about 2 CPU-seconds: the cmap's million entries), written beside each browser that needs it."""
    import io

    from fontTools import subset
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

    source = ROOT / "node_modules" / "dejavu-fonts-ttf" / "ttf" / "DejaVuSansMono.ttf"
    if not source.exists():
        pytest.fail(f"{source.relative_to(ROOT)} is missing: run `npm ci` (`make slides` does it)")
    font = TTFont(source)
    subsetter = subset.Subsetter(subset.Options(drop_tables=["FFTM"]))
    subsetter.populate(unicodes=[0x20])
    subsetter.subset(font)
    for record in font["name"].names:
        if record.nameID in (1, 4, 6, 16):
            record.string = PLACEHOLDER_FONT if record.nameID != 6 else PLACEHOLDER_FONT.replace(" ", "")
    blank = font.getBestCmap()[0x20]
    every = CmapSubtable.newSubtable(13)
    every.platformID, every.platEncID, every.language = 3, 10, 0  # Windows, full Unicode
    every.cmap = {code: blank for code in range(0x20, 0x110000) if not 0xD800 <= code <= 0xDFFF}
    font["cmap"].tables.append(every)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def chromium_env(tmp: Path, no_system_fonts: bool = NO_SYSTEM_FONTS) -> dict[str, str] | None:
    """The browser's environment: ours, or one whose fontconfig (in ``tmp``) offers only the placeholder."""
    if not no_system_fonts:
        return None
    (tmp / "fonts").mkdir(exist_ok=True)
    (tmp / "fonts" / "placeholder.ttf").write_bytes(placeholder_font())
    config = tmp / "fonts.conf"
    config.write_text(EMPTY_FONTCONFIG.format(fonts=tmp / "fonts", cache=tmp / "cache"), encoding="utf-8")
    return dict(os.environ, FONTCONFIG_FILE=str(config))


@pytest.fixture(scope="session")
def playwright():
    """Playwright's driver, once a worker (its sync API cannot be started twice in one thread)."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(chromium_missing())
    with sync_playwright() as pw:
        yield pw


def launch_chromium(playwright, tmp: Path, no_system_fonts: bool = NO_SYSTEM_FONTS):
    """Debian's headless Chromium; with the machine's fonts or (``no_system_fonts``) the placeholder only."""
    env = chromium_env(tmp, no_system_fonts)
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, env=env)


@pytest.fixture(scope="session")
def browser(playwright, tmp_path_factory):
    """Debian's headless Chromium (CHROMIUM) driven by Playwright; never a downloaded browser."""
    browser = launch_chromium(playwright, tmp_path_factory.mktemp("fontconfig"))
    try:
        yield browser
    finally:
        browser.close()


def is_file(url: str) -> bool:
    return urlsplit(url).scheme == "file"


def browser_locale(lang: str) -> str:
    """The browser's locale for a course language (MathJax and the site read the browser's language)."""
    return {"en": "en-US", "ru": "ru-RU"}.get(lang, lang)


@dataclass
class Traffic:
    """What a page tried beyond what it may load: requests blocked, local files missing, JavaScript errors."""

    what: str = "page"
    outside: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert self.outside == [], f"{len(self.outside)} requests tried to leave the machine: {self.outside}"
        assert self.failed == [], f"files the {self.what} loads are missing: {self.failed}"
        assert self.errors == [], f"the {self.what} raised JavaScript errors: {self.errors}"


@pytest.fixture
def offline_page(browser):
    """``open(lang, viewport, allowed, what, sockets)`` -> (page, traffic): a fresh browser context
    in ``lang`` whose requests to URLs that ``allowed`` refuses are blocked and counted, and its
    websockets too unless ``sockets`` allows them (none by default); closed after the test."""
    contexts = []

    def open_page(lang: str, viewport: dict, allowed=is_local, what: str = "page", sockets=lambda url: False):
        context = browser.new_context(
            viewport=viewport, device_scale_factor=1, locale=browser_locale(lang), reduced_motion="reduce"
        )
        contexts.append(context)
        traffic = Traffic(what)

        def route(route):
            if allowed(route.request.url):
                route.continue_()
            else:
                traffic.outside.append(route.request.url)
                route.abort("blockedbyclient")

        context.route("**/*", route)
        # a mocked socket that is never connected to its server: blocked
        context.route_web_socket(
            lambda url: not sockets(url), lambda ws: (traffic.outside.append(ws.url), ws.close())
        )
        # a request cut short when the page moved on (net::ERR_ABORTED: the page summaries that
        # Sphinx's search is still fetching when the test opens the next search) is no missing file
        context.on(
            "requestfailed",
            lambda req: (
                traffic.failed.append(f"{req.url} ({req.failure})")
                if allowed(req.url) and req.failure != "net::ERR_ABORTED"
                else None
            ),
        )
        page = context.new_page()
        page.on("pageerror", lambda exc: traffic.errors.append(str(exc)))
        page.on(
            "console",
            lambda msg: (
                traffic.errors.append(f"{msg.text} at {msg.location}") if msg.type == "error" else None
            ),
        )
        return page, traffic

    yield open_page
    for context in contexts:
        context.close()


# A screenshot is rewritten only when it shows something else: a pixel counts as changed when no
# pixel within one of its place in the other picture is near it (the browser may lay a line of text
# out a pixel lower from one run to the next, as it may finish typesetting a formula a moment later).
SHIFT_TOLERANCE_PX = 1
CHANGED_LEVEL = 64  # of 255, in grey
CHANGED_PIXELS = 50


def changed_pixels(old: bytes, new: bytes) -> int | None:
    """How many pixels of ``new`` differ from ``old`` beyond a one-pixel shift; None if the sizes differ."""
    import io

    import numpy as np
    from PIL import Image

    a, b = (np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=np.int16) for png in (old, new))
    if a.shape != b.shape:
        return None
    t = SHIFT_TOLERANCE_PX
    padded = np.pad(a, t, mode="edge")
    nearest = np.full(b.shape, 255, dtype=np.int16)
    for dy in range(2 * t + 1):
        for dx in range(2 * t + 1):
            shifted = padded[dy : dy + b.shape[0], dx : dx + b.shape[1]]
            nearest = np.minimum(nearest, np.abs(b - shifted))
    return int((nearest > CHANGED_LEVEL).sum())


# Chromium's rendering cannot be pinned (fonts aside, its antialiasing and layout change between versions
# and machines): screenshots are written by `make screenshots` alone, never by a test run
WRITE_SCREENSHOTS = os.environ.get("COURSE_SCREENSHOTS") == "1"


def save_screenshot(path: Path, png: bytes) -> bool:
    """Under `make screenshots` (``COURSE_SCREENSHOTS=1``), write ``png`` to ``path`` unless the picture
    there already shows the same; True if written. A test run never writes: it leaves the checkout clean.
    """
    if not WRITE_SCREENSHOTS:
        return False
    if path.exists():
        changed = changed_pixels(path.read_bytes(), png)
        if changed is not None and changed < CHANGED_PIXELS:
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)
    return True


@pytest.fixture
def guarded_page(offline_page):
    """(page, traffic) for JupyterLab: only 127.0.0.1, its kernel's websockets included."""
    return offline_page("en", {"width": 1280, "height": 860}, is_local, sockets=is_local)


# ----------------------------------------------------------------------------- JupyterLab


def _tree_hashes(root: Path, skip: set[str]) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not skip & set(p.relative_to(root).parts)
    }


@pytest.fixture(scope="session")
def notebooks_untouched() -> Iterator[None]:
    """Fails the session if anything under notebooks/ (bar the screenshots the tests save) changed."""
    skip = {"screenshots", "__pycache__"}
    before = _tree_hashes(NOTEBOOKS, skip)
    yield
    after = _tree_hashes(NOTEBOOKS, skip)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert not changed, f"the browser tests changed the repository's notebooks: {changed}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_settings(settings_dir: Path, locale: str) -> None:
    # The locale as `make lab-ru` writes it. No news prompt and no update check come from the settings
    # the course installs into its environment (lab/settings/), which this test proves, so not from here.
    settings = {"@jupyterlab/translation-extension/plugin.jupyterlab-settings": {"locale": locale}}
    for name, value in settings.items():
        path = settings_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))


@dataclass
class Lab:
    base_url: str
    token: str
    root_dir: Path
    log: Path
    network_log: Path

    def url(self, path: str = "lab") -> str:
        return f"{self.base_url}/{path}?token={self.token}"

    def outside_requests(self) -> list[str]:
        """What the server and its kernels tried to reach off this machine, one line per attempt."""
        if not self.network_log.exists():
            return []
        return self.network_log.read_text(encoding="utf-8").splitlines()


def _wait_until_up(proc: subprocess.Popen, lab: Lab) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                f"JupyterLab exited with code {proc.returncode}:\n{lab.log.read_text()[-3000:]}"
            )
        try:
            with urllib.request.urlopen(lab.url("api/status"), timeout=2) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(
        f"JupyterLab did not answer in {SERVER_START_TIMEOUT_S} s:\n{lab.log.read_text()[-3000:]}"
    )


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()  # the server shuts its kernels down on SIGTERM
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    # kernels live in the server's own process group: none may outlive it
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


# Servers being stopped: a server takes seconds to shut its kernels down, which the next test need not
# wait for; the session waits for every one of them at its end (``lab_servers_stopped``).
STOPPING: list[threading.Thread] = []
STOP_TIMEOUT_S = 60

# A server whose test was killed before its teardown (pytest or an xdist worker stopped by a signal:
# the server runs in a session of its own) stops by itself: a kernel idle and with no connection for
# 5 minutes is culled (checked each minute), and the server shuts down once it has no kernel and 5
# minutes have passed since the last request or kernel activity (checked each minute): an orphan lives
# some 6 to 7 minutes. A live test's kernel is never culled: its page is connected to it (connected
# kernels are not culled), and the page's requests keep its server up. Measured with 10 s in place of
# the 5 minutes: a kernel started and left alone was culled after 15 s, and the server, its last
# activity the kernel's start ("No kernels for 50 seconds; shutting down"), was gone 51 s after it.
# An orphan of a killed browser-explorers run had kept its server and kernel for 22 minutes and more.
SELF_STOP_OPTIONS = (
    "--MappingKernelManager.cull_idle_timeout=300",
    "--MappingKernelManager.cull_interval=60",
    "--ServerApp.shutdown_no_activity_timeout=300",
)


@pytest.fixture(scope="session")
def lab_servers_stopped() -> Iterator[None]:
    """At the session's end, every JupyterLab the tests started has stopped, its kernels with it."""
    yield
    for thread in STOPPING:
        thread.join(timeout=STOP_TIMEOUT_S)
    assert not [thread for thread in STOPPING if thread.is_alive()], "a JupyterLab did not stop"


def _stop_later(proc: subprocess.Popen) -> None:
    thread = threading.Thread(target=_stop, args=(proc,), name=f"stop JupyterLab {proc.pid}", daemon=True)
    thread.start()
    STOPPING.append(thread)


@pytest.fixture
def jupyterlab(tmp_path, notebooks_untouched, lab_servers_stopped):
    """``jupyterlab(locale="en")`` starts a fresh JupyterLab and returns a ``Lab``; stopped at teardown.

    The server comes from the course's environment (this interpreter), listens on 127.0.0.1 on a
    free port with a random token, serves a temporary copy of notebooks/ (autosave writes outputs
    back into what it serves) and keeps its settings, workspaces and runtime files in tmp_path. It
    runs with ``make lab``'s offline options (``options`` replaces them) and records what it tries
    to reach off the machine. It is stopped after the test, while the next one runs; the session
    ends once every server has stopped. Should the test be killed first, it stops by itself
    (``SELF_STOP_OPTIONS``).
    """
    started: list[subprocess.Popen] = []

    def start(locale: str = "en", options: tuple[str, ...] = LAB_OFFLINE_OPTIONS) -> Lab:
        home = tmp_path / f"lab-{len(started)}"
        root_dir = home / "notebooks"
        shutil.copytree(NOTEBOOKS, root_dir, ignore=shutil.ignore_patterns("screenshots", "__pycache__"))
        settings = home / "settings"
        _write_settings(settings, locale)
        env = dict(
            os.environ,
            JUPYTERLAB_SETTINGS_DIR=str(settings),
            JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
            JUPYTER_CONFIG_DIR=str(home / "config"),
            JUPYTER_RUNTIME_DIR=str(home / "runtime"),
            IPYTHONDIR=str(home / "ipython"),
            PYTHONHASHSEED="0",
            PYTHONPATH=os.pathsep.join(filter(None, [str(NETGUARD), os.environ.get("PYTHONPATH", "")])),
            COURSE_NETWORK_LOG=str(home / "network.log"),
        )
        lab = Lab(
            f"http://127.0.0.1:{_free_port()}",
            secrets.token_hex(16),
            root_dir,
            home / "server.log",
            home / "network.log",
        )
        cmd = [
            sys.executable,
            "-m",
            "jupyter",
            "lab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={lab.base_url.rsplit(':', 1)[1]}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={lab.token}",
            f"--ServerApp.root_dir={root_dir}",
            "--LabApp.expose_app_in_browser=True",
            *SELF_STOP_OPTIONS,
            *options,
        ]
        if os.geteuid() == 0:  # CI containers run as root; JupyterLab refuses without this
            cmd.append("--allow-root")
        with lab.log.open("wb") as log:
            proc = subprocess.Popen(
                cmd, cwd=home, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        started.append(proc)
        _wait_until_up(proc, lab)
        return lab

    try:
        yield start
    finally:
        for proc in started:  # stopped while the next test runs; the session waits for them
            _stop_later(proc)


def pytest_terminal_summary(terminalreporter):
    """Show the timings the browser tests record, also when their output is captured."""
    lines = [
        f"{report.nodeid}: {value}"
        for report in terminalreporter.stats.get("passed", [])
        for name, value in report.user_properties
        if name == "timings"
    ]
    if lines:
        terminalreporter.section("browser timings")
        for line in lines:
            terminalreporter.write_line(line)


# ----------------------------------------------------------------------------- fonts


# MathJax's copies of each formula for screen readers, as MathML, clipped to nothing: never seen, so
# whichever font the system has may draw them
ASSISTIVE = ".MJX_Assistive_MathML, mjx-assistive-mml"
# Every rendered element under ``root`` with text of its own gets a probe mark (getPlatformFontsForNode
# counts the glyphs of an element's own text), one element per kind of text and page: the same computed
# font, weight, style and language and the same characters beyond ASCII are drawn by the same fonts.
MARK_TEXT = """([root, mark]) => {
    const HIDDEN = 'HIDDEN_SELECTOR';
    document.querySelectorAll(`[${mark}]`).forEach(el => el.removeAttribute(mark));
    const texts = [];
    // kinds of text already probed on this page (a deck is probed slide by slide)
    const seen = window.courseFontKinds = window.courseFontKinds || new Set();
    const elements = new Set();
    for (const scope of document.querySelectorAll(root))
        for (const el of [scope, ...scope.querySelectorAll('*')]) elements.add(el);
    for (const el of elements) {
        if (el.closest(`script, style, noscript, ${HIDDEN}`) || !el.getClientRects().length) continue;
        const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.nodeValue).join('').trim();
        if (!own) continue;
        const style = getComputedStyle(el);
        const wide = [...new Set(own.replace(/[\\x00-\\x7f]/g, ''))].sort().join('');
        const key = [style.fontFamily, style.fontWeight, style.fontStyle, el.closest('[lang]')?.lang, wide].join('|');
        if (seen.has(key)) continue;
        seen.add(key);
        el.setAttribute(mark, '');
        texts.push(own.slice(0, 40));
    }
    return texts;
}""".replace("HIDDEN_SELECTOR", ASSISTIVE)
PROBE = "data-course-font-probe"


class FontProbe:
    """Which fonts drew the text of a page, through Chromium's DevTools protocol
    (``CSS.getPlatformFontsForNode``: each font's family, whether it is a web font, its glyph count)."""

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("DOM.enable")
        self.cdp.send("CSS.enable")

    def fonts(self, root: str) -> dict[tuple[str, bool], list[str]]:
        """{(family, is web font): examples of the text it drew} for the text under the elements ``root`` selects."""
        texts = self.page.evaluate(MARK_TEXT, [root, PROBE])
        document = self.cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        nodes = self.cdp.send("DOM.querySelectorAll", {"nodeId": document, "selector": f"[{PROBE}]"})[
            "nodeIds"
        ]
        found: dict[tuple[str, bool], list[str]] = {}
        for node, text in zip(nodes, texts, strict=True):
            for font in self.cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]:
                examples = found.setdefault((font["familyName"], font["isCustomFont"]), [])
                if len(examples) < 3:
                    examples.append(text)
        return found


def foreign_fonts(found: dict[tuple[str, bool], list[str]], allowed) -> dict[str, list[str]]:
    """The fonts in ``found`` that are not web fonts whose family ``allowed(family)`` accepts, with examples;
    a page on which no web font drew anything (none loaded: blank text) is reported too."""
    if not any(custom for _, custom in found):
        return {"no web font drew any text": [f"{family} ({custom})" for family, custom in found]}
    return {
        f"{family} ({'web font' if custom else 'system font'})": examples
        for (family, custom), examples in found.items()
        if not (custom and allowed(family))
    }


# MathJax's own web fonts (2: MathJax_Main, ...; 3: MJXTEX, MJXZERO) and the icon fonts that the site's
# theme and the widget renderer ship draw what the course's fonts do not: formulas and icons
OTHER_WEB_FONTS = ("MathJax_", "MJXTEX", "MJXZERO", "FontAwesome", "Font Awesome")


def course_font(family: str) -> bool:
    """A family of the course's fonts (course_tools.publish.fonts) or of the web fonts the pages' packages ship."""
    from course_tools.publish.fonts import FACES

    # a variable font's instance is reported with its style: "Source Sans 3 ExtraLight"
    return family.startswith(tuple(face.family for face in FACES) + OTHER_WEB_FONTS)


# Every @font-face of the page's readable style sheets (MathJax's are inline) that would take a font
# installed on the machine (MathJax 2's CommonHTML declares local('MathJax_Main') first): it would draw
# the page wherever that font is installed.
LOCAL_FONT_FACES = """() => {
    const found = [];
    const walk = rules => {
        for (const rule of rules) {
            if (rule.cssRules) walk(rule.cssRules);
            if (rule.type === CSSRule.FONT_FACE_RULE && /local\\(/.test(rule.cssText)) found.push(rule.cssText.slice(0, 120));
        }
    };
    // a linked sheet from file:// cannot be read (another origin); the course's own say no local() (tests/lessons)
    for (const sheet of document.styleSheets) { try { walk(sheet.cssRules); } catch (e) {} }
    return found;
}"""


# The file each @font-face of the page's readable style sheets would load first: the first url() of its src
# in a format Chromium reads (it skips embedded-opentype and svg), resolved as the browser resolves it.
# A face whose first file is missing costs a failed request whenever the page draws with it — and which of two
# faces of one family wins depends on the order their sheets arrived in, so a page can pass a traffic check
# many times and fail it once (the widget renderer's modules declared Font Awesome at <page>/@jupyter-widgets/).
FONT_FACE_SOURCES = r"""() => {
    const found = [];
    const walk = (rules, base) => {
        for (const rule of rules) {
            if (rule.cssRules) walk(rule.cssRules, base);
            if (rule.type !== CSSRule.FONT_FACE_RULE) continue;
            const src = rule.style.getPropertyValue('src');
            const sources = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)(?:\s*format\(\s*["']?([^"')]*)["']?\s*\))?/g;
            for (const m of src.matchAll(sources)) {
                if (m[4] && !/^(woff2|woff|truetype|opentype)$/.test(m[4])) continue;
                const url = m[1] ?? m[2] ?? m[3];
                if (!url.startsWith('data:'))
                    found.push([rule.style.getPropertyValue('font-family'), new URL(url, base).href]);
                break;
            }
        }
    };
    for (const sheet of document.styleSheets) {
        try { walk(sheet.cssRules, sheet.href || document.baseURI); } catch (e) {}
    }
    return found;
}"""


def missing_font_files(page, served: dict[str, Path]) -> list[str]:
    """The @font-face sources (FONT_FACE_SOURCES) of ``page`` that name no file: file:// URLs are looked up
    as they are, http ones through ``served`` (a server's origin, "http://127.0.0.1:port", -> the folder it
    serves); any other is missing."""
    missing = []
    for family, url in page.evaluate(FONT_FACE_SOURCES):
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme == "file":
            path = Path(urllib.request.url2pathname(parsed.path))
        else:
            folder = served.get(f"{parsed.scheme}://{parsed.netloc}")
            path = None if folder is None else folder / urllib.parse.unquote(parsed.path.lstrip("/"))
        if path is None or not path.is_file():
            missing.append(f"{family}: {url}")
    return sorted(set(missing))
