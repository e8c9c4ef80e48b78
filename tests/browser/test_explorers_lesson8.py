"""Lesson 8's live explorers in headless Chromium: their numbers, and live on the website, in the decks
and in JupyterLab, with no kernel (the lesson-5 explorers' tests are tests/browser/test_explorers.py,
whose helpers these use).

- **The same numbers**: each explorer's JavaScript module is imported in a blank page and evaluated
  at several parameter points, in English and Russian, against course_lib. RoPE: q and k turned
  within 1e-12 of ``plots.rotary.rope_rotate`` (float64; angles up to 80 rad), the score and the whole
  curve of scores within 1e-12 of ``plots.rotary.rope_score``, the shift check's count equal and its
  residual below 1e-12 on both sides, and the readout exactly Python's but for that residual's
  last digits (libm's). ALiBi: the slopes within
  1e-15 relative of ``alibi_slopes(dtype=float64)`` (both compute ``2^x`` of the same exact
  exponent; a last-bit difference of ``pow`` is 2.2e-16), one head's bias within 1e-15 of
  ``alibi_bias(float64)``, the last query's weights within 1e-15 of ``plots.alibi_weights``, the
  slope's label exactly ``plots.slope_label``'s, and every readout exactly what Python writes.
  RoPE's angles: cos of every angle within 1e-12 of ``maths.angle_table`` (float64;
  angles up to 2047 rad, where one ulp of the angle is 4.5e-13), the pairs that meet new angles
  exactly ``plots.new_angle_pairs``, and the readout exactly Python's. The frequencies ω_i that every
  explorer turns by: written once in JavaScript (``js/frequencies.js``), within 1e-12 of
  ``core.model.inverse_frequencies``.
- **Live from saved state**: lesson 8 on the site from ``file://`` (English and Russian), in its
  decks from ``file://`` (both languages), and in JupyterLab before its cells run (the notebook's
  saved widget state) and after running its cells up to the last explorer's (the kernel's widgets). Each control is moved from the keyboard and must change the canvas's pixels
  and the readout; the controls are labelled in the page's language. The RoPE explorer's checkbox
  *move m and n together*, ticked from the keyboard, makes a move of m move n by as much (and stop
  both at the end of a slider), keeping the offset and the score. The time from a control's
  input event to the picture and readout drawn is reported (p95 of 20 moves per control, the
  slowest control's).
- **Nothing leaves the machine**: every request is routed, anything not local is blocked and counted
  (0), and no page error or console error.

Run after ``make site`` (which builds the decks): ``make browser-explorers`` does both.
"""

import re

import numpy as np
import pytest
import torch

from course_lib import alibi_bias, alibi_slopes, plots, widgets
from course_lib.core.model import inverse_frequencies
from course_lib.i18n import LANGUAGES
from course_lib.maths import angle_table
from course_lib.widgets.live import JS
from course_tools.core.config import CONFIG
from tests.browser import test_explorers as lesson5
from tests.browser.conftest import is_file

pytestmark = pytest.mark.browser

LESSON = next(name for name in CONFIG.lesson_names() if name.endswith("_rotary_alibi"))
SITE = CONFIG.site_dir
SLIDES = CONFIG.slides_dir
VIEWPORT = lesson5.VIEWPORT
LAB_TIMEOUT_MS = 90_000  # as test_explorers_more's
# the lesson's explorers: the class of each one's root element, and its controls (input names)
EXPLORERS = {
    "rope-explorer": ["m", "n", "pair"],
    "alibi-explorer": ["num_heads", "head"],
    "rope-angles-explorer": ["base", "scale"],
}
BUILDERS = {
    "rope-explorer": widgets.rope_explorer,
    "alibi-explorer": widgets.alibi_explorer,
    "rope-angles-explorer": widgets.rope_angles_explorer,
}

module_page = lesson5.module_page  # the explorer's module imported in a blank page: (page, load)


def labels_of(lang: str) -> dict:
    labels = {}
    for build in BUILDERS.values():
        labels.update(build(lang=lang).labels)
    return labels


# ----------------------------------------------------------------------------- the same numbers

# (head_dim, m, n, pair, base, max_position, seed): the lesson's, the ends of the sliders, m < n,
# a wide head, a small base
ROPE_POINTS = [
    (8, 5, 2, 0, 10000.0, 40, 0),
    (8, 40, 0, 3, 10000.0, 40, 0),
    (8, 0, 40, 1, 10000.0, 40, 0),
    (8, 13, 29, 2, 10000.0, 40, 3),
    (64, 77, 80, 17, 10000.0, 80, 1),
    (4, 9, 9, 1, 10.0, 12, 2),
]


def rope_values(explorer) -> dict:
    """What the browser's module reads from the model to compute the readout."""
    return {
        "q": explorer.q,
        "k": explorer.k,
        "m": explorer.m,
        "n": explorer.n,
        "pair": explorer.pair,
        "base": explorer.base,
        "last": explorer.last,
    }


def test_rope_js_equals_course_lib(module_page):
    page, load = module_page
    assert {"theta", "ropeRotate", "ropeScore", "scoreCurve", "shiftCheck", "readout"} <= set(
        load(widgets.rope_explorer())
    )
    for d, m, n, pair, base, top, seed in ROPE_POINTS:
        explorer = widgets.rope_explorer(d, m, n, pair, base, top, seed)
        q, k = np.array(explorer.q), np.array(explorer.k)
        turned, score, curve, check = page.evaluate(
            """([q, k, m, n, base, top, last]) => [Array.from(explorer.ropeRotate(q, m, base)),
                explorer.ropeScore(q, k, m, n, base), explorer.scoreCurve(q, k, top, base),
                explorer.shiftCheck(q, k, m, n, last, base)]""",
            [explorer.q, explorer.k, m, n, base, top, explorer.last],
        )
        np.testing.assert_allclose(turned, plots.rotary.rope_rotate(q, [m], base)[0], rtol=0, atol=1e-12)
        assert abs(score - explorer.score) <= 1e-12
        offsets = np.arange(-top, top + 1)
        expected = (
            plots.rotary.rope_rotate(q, top + offsets, base) @ plots.rotary.rope_rotate(k, [top], base)[0]
        )
        np.testing.assert_allclose(curve, expected, rtol=0, atol=1e-12)
        assert check["shifts"] == explorer.last - max(m, n) + min(m, n) + 1
        assert check["error"] < 1e-12 and explorer.error < 1e-12


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rope_readout_is_pythons(module_page, lang):
    page, load = module_page
    load(widgets.rope_explorer())
    # the check ends with its residual, whose last digits are libm's: the rest must be Python's
    cut = re.compile(r"\S+\.$")
    for d, m, n, pair, base, top, seed in ROPE_POINTS:
        explorer = widgets.rope_explorer(d, m, n, pair, base, top, seed, lang=lang)
        js = page.evaluate(
            "([v, labels, numbers]) => explorer.readout(v, labels, numbers)",
            [rope_values(explorer), explorer.labels, explorer.numbers],
        )
        python = explorer.readout()
        assert cut.sub("", js[0]) == cut.sub("", python[0]), (js[0], python[0])
        assert js[1] == python[1]


# (num_heads, head, seq_len): powers of two and not, the first and last head, one head, a long context
ALIBI_POINTS = [
    (8, 1, 32),
    (8, 8, 32),
    (1, 1, 5),
    (3, 3, 16),
    (12, 10, 32),
    (16, 16, 64),
    (6, 5, 1),
    (64, 33, 40),
]


def test_alibi_js_equals_course_lib(module_page):
    page, load = module_page
    assert {"alibiSlopes", "headBias", "alibiWeights", "halfKeys", "slopeLabel", "readout"} <= set(
        load(widgets.alibi_explorer())
    )
    for heads, head, seq in ALIBI_POINTS:
        slopes, bias, weights = page.evaluate(
            """([heads, head, seq]) => {
                const slopes = explorer.alibiSlopes(heads);
                return [slopes, Array.from(explorer.headBias(slopes[head - 1], seq)),
                        Array.from(explorer.alibiWeights(slopes[head - 1], seq))];
            }""",
            [heads, head, seq],
        )
        expected = alibi_slopes(heads, dtype=torch.float64)
        assert slopes == pytest.approx(expected.tolist(), rel=1e-15, abs=0), heads
        reference = alibi_bias(heads, seq, dtype=torch.float64)[head - 1].flatten()
        assert (torch.tensor(bias, dtype=torch.float64) - reference).abs().max().item() <= 1e-15
        np.testing.assert_allclose(
            weights, plots.alibi_weights(expected[head - 1].item(), seq), rtol=0, atol=1e-15
        )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_alibi_readout_is_pythons(module_page, lang):
    page, load = module_page
    load(widgets.alibi_explorer())
    for heads, head, seq in ALIBI_POINTS:
        explorer = widgets.alibi_explorer(num_heads=heads, head=head, seq_len=seq, lang=lang)
        js, labels = page.evaluate(
            """([v, labels, numbers, slopes]) => [explorer.readout(v, labels, numbers),
                                               slopes.map(m => explorer.slopeLabel(m, numbers))]""",
            [
                {"num_heads": heads, "head": head, "seq_len": seq},
                explorer.labels,
                explorer.numbers,
                alibi_slopes(heads, dtype=torch.float64).tolist(),
            ],
        )
        assert js == explorer.readout()
        assert labels == [
            plots.slope_label(m, lang) for m in alibi_slopes(heads, dtype=torch.float64).tolist()
        ]


# (head_dim, num_positions, train_len, base, scale): the lesson's, a larger base, interpolation,
# the slider's log steps, a small head, training longer than shown
ANGLES_POINTS = [
    (64, 2048, 512, 10000.0, 1.0),
    (64, 2048, 512, 10**5.5, 1.0),
    (64, 2048, 512, 10000.0, 4.0),
    (64, 2048, 512, 10**4.1, 2.5),
    (8, 100, 30, 10**3.0, 8.0),
    (32, 400, 100, 10**7, 1.5),
    (2, 10, 20, 500.0, 1.0),
]


def test_rope_angles_js_equals_course_lib(module_page):
    page, load = module_page
    assert {"angleTable", "newAnglePairs", "readout", "title"} <= set(load(widgets.rope_angles_explorer()))
    for d, n, train_len, base, scale in ANGLES_POINTS:
        table, new = page.evaluate(
            """([d, n, trainLen, base, scale]) => [Array.from(explorer.angleTable(d, n, base, scale)),
                                                   explorer.newAnglePairs(d, n, trainLen, base, scale)]""",
            [d, n, train_len, base, scale],
        )
        expected = angle_table(d, n, base, scale).flatten()
        assert np.abs(np.array(table) - expected).max() <= 1e-12, (d, n, base, scale)
        assert new == plots.new_angle_pairs(d, n, train_len, base, scale).tolist()


# (d, base): even and odd widths, the sliders' bases and a small one
FREQUENCY_POINTS = [
    (1, 10000.0),
    (8, 10000.0),
    (33, 123.4),
    (64, 10**5.5),
    (128, 500000.0),
    (512, 1e6),
    (2, 10.0),
]


def test_the_frequencies_are_written_once_in_js_and_equal_the_cores(module_page):
    # every explorer that turns pairs (tables, rotations, RoPE) takes ω_i = base^(-2i/d) from frequencies.js
    written = sorted(
        path.name for path in JS.glob("*.js") if re.search(r"[bB]ase \*\* ", path.read_text("utf-8"))
    )
    assert written == ["frequencies.js"]
    page, load = module_page
    assert {"inverseFrequency", "inverseFrequencies"} <= set(load(widgets.rope_angles_explorer()))
    for d, base in FREQUENCY_POINTS:
        js = page.evaluate("([d, b]) => Array.from(explorer.inverseFrequencies(d, b))", [d, base])
        assert np.abs(np.array(js) - inverse_frequencies(d, base).numpy()).max() <= 1e-12, (d, base)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rope_angles_readout_is_pythons(module_page, lang):
    page, load = module_page
    load(widgets.rope_angles_explorer())
    for d, n, train_len, base, scale in ANGLES_POINTS:
        explorer = widgets.rope_angles_explorer(d, n, train_len, base, scale, lang=lang)
        values = {"head_dim": d, "num_positions": n, "train_len": train_len, "base": base, "scale": scale}
        js, title = page.evaluate(
            "([v, labels, numbers]) => [explorer.readout(v, labels, numbers), explorer.title(v, labels, numbers)]",
            [values, explorer.labels, explorer.numbers],
        )
        assert js == explorer.readout()
        # the picture's title is the static figure's
        figure = plots.plot_rope_angles(d, n, train_len, settings=[(base, scale)], lang=lang)
        assert title == figure.axes[0].get_title()


# ----------------------------------------------------------------------------- live in a page


def explorers_on(page, timeout: int = lesson5.TIMEOUT_MS) -> dict:
    page.wait_for_function(
        """classes => classes.every(cls => {
            const canvas = document.querySelector(`.${cls} canvas`);
            return canvas && canvas.width > 0;
        })""",
        arg=list(EXPLORERS),
        timeout=timeout,
    )
    return {cls: page.locator(f".{cls}").first for cls in EXPLORERS}


POSITIONS = """root => {
    const value = name => Number(root.querySelector(`input[name=${name}]`).value);
    const readout = root.querySelector('.course-explorer-readout').textContent;
    return {m: value('m'), n: value('n'), max: Number(root.querySelector('input[name=n]').max),
            check: readout.split('.')[0], pixels: root.querySelector('canvas').toDataURL()};
}"""


def check_together(page, root, label: str) -> None:
    """Ticked (Space), *move m and n together* moves n with m, and stops both where n's slider ends."""
    box = root.locator("input[name=together]")
    assert root.locator(f"label[for='{box.get_attribute('id')}']").text_content() == label
    box.focus()
    page.keyboard.press("Space")
    assert box.is_checked()
    before = root.evaluate(POSITIONS)
    m = root.locator("input[name=m]")
    m.focus()
    page.keyboard.press("ArrowRight")
    after = root.evaluate(POSITIONS)
    assert (after["m"], after["n"]) == (before["m"] + 1, before["n"] + 1)
    assert after["check"] == before["check"]  # m − n and the score: the same
    assert after["pixels"] != before["pixels"]  # both arrows turned
    page.keyboard.press("End")  # m to the end: n would pass it first, so both stop where n does
    end = root.evaluate(POSITIONS)
    offset = after["m"] - after["n"]
    assert (end["m"], end["n"]) == (
        min(end["max"] + offset, end["max"]),
        min(end["max"], end["max"] - offset),
    )
    assert end["check"] == before["check"]
    box.focus()
    page.keyboard.press("Space")  # apart again: m alone moves
    page.keyboard.press("Tab")
    m.focus()
    page.keyboard.press("Home")
    apart = root.evaluate(POSITIONS)
    assert (apart["m"], apart["n"]) == (0, end["n"])


def check_explorers(page, found: dict, lang: str, show=None) -> dict:
    """Every control of every explorer moved (lesson5.check_live); the slowest control's p95 of each, in ms."""
    labels = labels_of(lang)
    times = {}
    for cls, controls in EXPLORERS.items():
        if show:
            show(found[cls])
        times[cls] = lesson5.check_live(page, found[cls], lang, controls, labels)
        if cls == "rope-explorer":
            check_together(page, found[cls], labels["together"])
    return times


@pytest.mark.parametrize("lang", LANGUAGES)
def test_explorers_live_on_the_site(offline_page, lang, record_property):
    page_file = SITE / lang / f"{LESSON}.html"
    if not page_file.exists():
        pytest.fail(f"{CONFIG.relative(page_file)} is missing: run `make site`")
    page, traffic = offline_page(lang, VIEWPORT, lesson5.local_or_file, "site page")
    page.goto(page_file.as_uri())
    found = explorers_on(page)
    lesson5.report(record_property, f"lesson 8, site file {lang}", check_explorers(page, found, lang))
    traffic.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_explorers_live_in_the_deck(offline_page, lang, record_property):
    deck = SLIDES / lang / f"{LESSON}.html"
    if not deck.exists():
        pytest.fail(f"{CONFIG.relative(deck)} is missing: run `make slides`")
    page, traffic = offline_page(lang, VIEWPORT, is_file, "deck")
    page.goto(deck.as_uri())
    page.wait_for_function("document.querySelector('.reveal.ready') !== null", timeout=lesson5.TIMEOUT_MS)
    found = explorers_on(page)
    times = check_explorers(page, found, lang, show=lambda root: root.evaluate(lesson5.SHOW_SLIDE))
    lesson5.report(record_property, f"lesson 8, deck {lang}", times)
    traffic.assert_clean()


def test_explorers_live_in_jupyterlab_before_and_after_running(jupyterlab, guarded_page, record_property):
    page, traffic = guarded_page
    lab = jupyterlab(locale="en")
    lesson5.open_in_lab(page, lab, LESSON)
    # no cell has run: the saved state alone draws the explorers, and they move (JupyterLab renders a
    # long notebook's cells in the background: more than 30 s at a load average of 9 on 2 cores)
    found = explorers_on(page, LAB_TIMEOUT_MS)
    lesson5.report(record_property, "lesson 8, JupyterLab before running", check_explorers(page, found, "en"))
    # after running the lesson's cells: the kernel's own widgets, drawn by the same modules, move too
    lesson5.run_in_lab(page, list(found.values()))
    found = explorers_on(page, LAB_TIMEOUT_MS)
    lesson5.report(record_property, "lesson 8, JupyterLab after running", check_explorers(page, found, "en"))
    traffic.assert_clean()
    assert lab.outside_requests() == [], f"the server tried to reach: {lab.outside_requests()}"
