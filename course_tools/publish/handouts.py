"""The handouts' printing behind ``python -m course_tools.handouts`` (whose docstring says what it
makes): each ``slides/<lang>/NN_name.handout.html`` printed to PDF by Debian's headless Chromium
through Playwright, offline, into a temporary folder moved into place when every PDF is made.
"""

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from course_lib.i18n import locale_tag

from ..build.course import Course
from ..core.config import CONFIG, LANGUAGES, Config
from .handout_pages import handout_name, pdf_name
from .slides import course_index

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "HandoutError", "build", "chromium_missing"]

# Debian's headless Chromium (package chromium-headless-shell, "old headless shell": the chromium source
# package's build of what was Chromium's --headless=old mode, now a binary of its own, the same version as
# the browser; what Playwright itself runs for headless work, as "Chrome Headless Shell"): the same Blink
# and V8 without the browser's own layers, and for each page about a third less CPU than the full browser
# run headless (lesson 5's page, loaded and settled: 3.1 CPU-seconds against 4.4; the explorers' tests 398
# against 653). Never a downloaded browser. The tests, `make handouts`, `make screenshots` and
# benchmarks/bench_explorers.py drive this one.
CHROMIUM = "/usr/lib/chromium/chromium-headless-shell"
CHROMIUM_PACKAGE = "chromium-headless-shell"


def chromium_missing(path: str = CHROMIUM) -> str:
    """What to do when the browser at ``path`` is not installed."""
    return (
        f"{path} is missing: install Debian's {CHROMIUM_PACKAGE} package "
        f"(apt-get install {CHROMIUM_PACKAGE}); the full browser, /usr/bin/chromium, is not used"
    )


# no background traffic of Chromium's own (updates, field trials), which would read as the page's
# (Playwright passes these switches itself; named here so that no launch depends on it)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
# what a page may load: its own files and inline data
LOCAL_SCHEMES = {"file", "data", "blob", "about"}
TYPESET_TIMEOUT_MS = 120_000


class HandoutError(ValueError):
    """A handouts build that wrote nothing; ``problems`` says why."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


def build(
    prefixes: Sequence[str] = (), config: Config = CONFIG, say=print, chromium: str = CHROMIUM, browser=None
) -> list[Path]:
    """Print the handouts of the chosen lessons in every language, then rewrite the index pages; all or nothing.

    ``browser``: a Playwright Chromium already running (the browser tests' own), else one is started.
    """
    course = Course.load(config)
    names = course.select(list(prefixes))
    pages = [
        (lang, name, config.slides_dir / lang / handout_name(name)) for lang in LANGUAGES for name in names
    ]
    missing = [config.relative(page) for _, _, page in pages if not page.is_file()]
    if missing:
        raise HandoutError(
            [f"{path} is missing: run `make slides`" for path in missing] + ["no PDF was written"]
        )
    if browser is None and not Path(chromium).exists():
        raise HandoutError([chromium_missing(chromium)])

    from playwright.sync_api import sync_playwright

    staging = Path(tempfile.mkdtemp(dir=config.slides_dir, prefix=".build-"))
    outside: list[str] = []
    try:
        for lang in LANGUAGES:
            (staging / lang).mkdir()
        if browser is not None:
            for lang, name, page_path in pages:
                _print(browser, lang, page_path, staging / lang / pdf_name(name), outside)
        else:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
                try:
                    for lang, name, page_path in pages:
                        _print(browser, lang, page_path, staging / lang / pdf_name(name), outside)
                finally:
                    browser.close()
        if outside:
            raise HandoutError(
                [f"a handout tried to load from the network (blocked): {url}" for url in outside]
                + ["no PDF was written"]
            )
        written = []
        for lang, name, _ in pages:
            target = config.slides_dir / lang / pdf_name(name)
            (staging / lang / pdf_name(name)).replace(target)
            written.append(target)
        for lang in LANGUAGES:
            index = config.slides_dir / lang / "index.html"
            index.write_text(course_index(course, lang), encoding="utf-8")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    for path in written:
        say(f"printed {config.relative(path)}")
    return written


def _print(browser, lang: str, page_path: Path, pdf: Path, outside: list[str]) -> None:
    """One handout to PDF: every request off the machine blocked and recorded in ``outside``."""
    context = browser.new_context(locale=locale_tag(lang))

    def route(request_route):
        url = request_route.request.url
        if urlsplit(url).scheme in LOCAL_SCHEMES:
            request_route.continue_()
        else:
            outside.append(url)
            request_route.abort("blockedbyclient")

    try:
        context.route("**/*", route)
        page = context.new_page()
        page.goto(page_path.resolve().as_uri(), wait_until="load")
        page.wait_for_function(
            "document.documentElement.dataset.courseTypeset === 'done'", timeout=TYPESET_TIMEOUT_MS
        )
        page.emulate_media(media="print")
        page.pdf(
            path=str(pdf),
            format="A4",
            print_background=True,
            margin={"top": "12mm", "bottom": "12mm", "left": "12mm", "right": "12mm"},
        )
    finally:
        context.close()
