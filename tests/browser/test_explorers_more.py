"""The live explorers of lessons 3, 4 and 6 in headless Chromium: their numbers, and live on the site,
in the decks and in JupyterLab, with no kernel (lesson 5's are in test_explorers.py, whose helpers
this file uses).

- **The same numbers**: each explorer's JavaScript module (the string Python sends the browser) is
  imported in a blank page and evaluated at several parameter points, in English and Russian,
  against course_lib: positions exactly equal, every value drawn within 1e-12 of course_lib's
  float64 result (the lessons' float32 tensors hold 6e-8: this is far finer), every readout
  exactly the text Python writes, numbers as ``course_lib.i18n.format_number`` writes them.
- **Live from saved state**: each lesson's page on the site from ``file://`` in both languages,
  its deck from ``file://`` in both languages, and the English notebook in JupyterLab before any
  cell runs (the saved widget state alone) and after running its cells up to the last explorer's (the kernel's widgets). Every control (slider, radio buttons, drop-down list)
  is moved from the keyboard and must change the canvas's pixels and the readout; the controls are
  labelled in the page's language.
- **Nothing leaves the machine**: every request not local is blocked and counted (0), and no page
  error or console error.

Input event -> drawn, the 95th percentile over 20 moves of each control, is printed per explorer
(the slowest of its controls). Run after ``make site`` (which builds the decks).
"""

import pytest
import torch

from course_lib import sinusoidal_table, widgets
from course_lib.i18n import LANGUAGES
from course_lib.plots.positions import left_padded_positions
from course_tools.core.config import CONFIG
from tests.browser.conftest import is_file
from tests.browser.test_explorers import (
    SHOW_SLIDE,
    SLIDES,
    TIMEOUT_MS,
    VIEWPORT,
    local_or_file,
    module_page,  # noqa: F401 (a fixture)
    open_in_lab,
    report,
    run_in_lab,
    site_root,  # noqa: F401 (a fixture)
)

pytestmark = pytest.mark.browser

LAB_TIMEOUT_MS = 90_000
#: the largest difference allowed between a value the JavaScript computes and course_lib's float64 one
TOLERANCE = 1e-12


def lesson(suffix: str) -> str:
    return next(name for name in CONFIG.lesson_names() if name.endswith(suffix))


def padding_explorer(lang: str):
    # as lesson 6 calls it
    return widgets.left_padding_explorer(["the", "dog", "sat"], padding=3, lang=lang)


def embedding_explorer(lang: str):
    # as lesson 3 calls it
    sentences = [
        "The cat sat on the mat.",
        "Кошка сидит на ковре, собака сидит на бревне.",
        "The dog sat on the log.",
    ]
    return widgets.embedding_explorer(sentences, d_model=64, lang=lang)


def balance_explorer(lang: str, d_model: int = 8):
    # lesson 4's setting: a random single head and unit-variance token vectors
    from tests.unit.test_plots import balance_setup

    return widgets.balance_explorer(*balance_setup(d_model), "dog bites man", "man bites dog", lang=lang)


#: lesson -> its explorers: the class of each one's root element, its controls (names), and a
#: builder of the same explorer in a language (whose labels the page must show)
EXPLORERS = {
    lesson("_why_position"): {
        "balance-explorer": (["scale"], balance_explorer),
    },
    lesson("_token_embeddings"): {
        "embedding-explorer": (["sentence", "show"], embedding_explorer),
    },
    lesson("_putting_it_together"): {
        "left-padding-explorer": (["padding", "positions"], padding_explorer),
    },
}


# ----------------------------------------------------------------------------- the same numbers

PADDING_POINTS = [
    (["the", "dog", "sat"], 0, "default", 8),
    (["the", "dog", "sat"], 3, "default", 8),
    (["the", "dog", "sat"], 3, "mask", 8),
    (["a"], 5, "mask", 1),
    (["x", "y", "z", "w", "v"], 7, "default", 7),
    (["x", "y"], 4, "mask", 64),
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_left_padding_js_equals_course_lib(module_page, lang):  # noqa: F811
    page, load = module_page
    exported = load(padding_explorer(lang))
    assert {"leftPaddedPositions", "paddedRows", "positionalRow", "readout", "sameAsAlone"} <= set(exported)
    for tokens, padding, mode, d in PADDING_POINTS:
        explorer = widgets.left_padding_explorer(tokens, padding=padding, d_model=d, lang=lang)
        explorer.positions = mode
        values = {"tokens": tokens, "padding": padding, "positions": mode, "d_model": d}
        positions, rows, same, text = page.evaluate(
            """([v, labels]) => {
                const p = explorer.leftPaddedPositions(v.tokens.length, v.padding, v.positions);
                return [p, Array.from(explorer.paddedRows(v.tokens.length, v.padding, v.positions, v.d_model)),
                        explorer.sameAsAlone(p, v.tokens.length), explorer.readout(v, labels)];
            }""",
            [values, explorer.labels],
        )
        assert positions == left_padded_positions(len(tokens), padding, mode).tolist()
        got = torch.tensor(rows, dtype=torch.float64).reshape(len(positions), d)
        assert (got - explorer.rows).abs().max().item() <= TOLERANCE, (tokens, padding, mode, d)
        assert same == explorer.same
        assert text == explorer.readout()


@pytest.mark.parametrize(
    ("n", "d", "base"), [(1, 1, 10000.0), (50, 8, 10000.0), (300, 33, 10.0), (9, 512, 1e6)]
)
def test_positional_rows_equal_sinusoidal_table(module_page, n, d, base):  # noqa: F811
    page, load = module_page
    load(padding_explorer("en"))
    js = page.evaluate(
        "([n, d, b]) => Array.from(explorer.positionalRows(Array.from({length: n}, (_, p) => p), d, b))",
        [n, d, base],
    )
    expected = sinusoidal_table(n, d, base, dtype=torch.float64).flatten()
    assert (torch.tensor(js, dtype=torch.float64) - expected).abs().max().item() <= TOLERANCE


EMBEDDING_POINTS = [
    (["the cat sat on the mat", "a dog"], 16, 0),
    (["x y x", "y"], 1, 5),
    (["кот и кот"], 64, 1),
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_embeddings_js_equals_course_lib(module_page, lang):  # noqa: F811
    page, load = module_page
    exported = load(embedding_explorer(lang))
    assert {"sentenceVectors", "colourScale", "readout", "repeatedToken"} <= set(exported)
    for sentences, d, seed in EMBEDDING_POINTS:
        explorer = widgets.embedding_explorer(sentences, d_model=d, seed=seed, lang=lang)
        data = {"weight": explorer.weight, "ids": explorer.ids, "tokens": explorer.tokens}
        vmax = page.evaluate("v => explorer.colourScale(v.weight, v.ids)", data)
        assert vmax == pytest.approx(explorer.vmax, abs=TOLERANCE)
        for j in range(len(sentences)):
            for show in ("tokens", "sum"):
                explorer.sentence, explorer.show = j, show
                rows, text = page.evaluate(
                    """([v, j, show, labels, numbers]) => [
                        Array.from(explorer.sentenceVectors(v.weight, v.ids[j], show)),
                        explorer.readout({...v, sentence: j, show}, labels, numbers)]""",
                    [data, j, show, explorer.labels, explorer.numbers],
                )
                got = torch.tensor(rows, dtype=torch.float64).reshape(-1, d)
                assert (got - explorer.vectors).abs().max().item() <= TOLERANCE, (sentences, j, show)
                # and the model's own float32 output, within float32 rounding
                with torch.no_grad():
                    ids = torch.tensor([explorer.ids[j]])
                    model = (
                        explorer.model(ids)[0] if show == "sum" else explorer.model.token_embedding(ids)[0]
                    )
                assert (got - model.double()).abs().max().item() <= 1e-6
                assert text == explorer.readout()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("d_model", [8, 16])
def test_balance_js_equals_course_lib(module_page, lang, d_model):  # noqa: F811
    page, load = module_page
    explorer = balance_explorer(lang, d_model)
    assert {"moved", "permuted", "balance", "stopOf", "readout"} <= set(load(explorer))
    data = {key: getattr(explorer, key) for key in ("stops", "weights", "vectors", "perm")}
    vectors = torch.tensor(explorer.vectors[0] + explorer.vectors[1], dtype=torch.float64)
    table = sinusoidal_table(3, d_model, dtype=torch.float64)
    for k in (0, 7, 15, 20, 26, 33, 40):
        explorer.scale = explorer.stops[k]
        js, text, stop = page.evaluate(
            "([data, k, labels, numbers]) => [explorer.balance(data, k), explorer.readout(data, k, labels, numbers),"
            " explorer.stopOf(data.stops, data.stops[k] * 1.01)]",
            [data, k, explorer.labels, explorer.numbers],
        )
        assert stop == k
        # against the same sums in float64 ...
        w_a, w_b = (torch.tensor(w, dtype=torch.float64) for w in explorer.weights[k])
        perm = torch.tensor(explorer.perm)
        expected = {
            "tokenRms": explorer.stops[k] * vectors.pow(2).mean().sqrt().item(),
            "positionRms": table.pow(2).mean().sqrt().item(),
            "positionEffect": 0.5 * (w_b - w_a[perm][:, perm]).abs().sum(-1).mean().item(),
            "wordEffect": 0.5 * (w_b - w_a).abs().sum(-1).mean().item(),
        }
        assert js == pytest.approx({"scale": explorer.stops[k], **expected}, abs=TOLERANCE)
        # ... and against course_lib's attention_balance, which sums in the model's float32 (relative
        # precision 6e-8, a few roundings)
        b = explorer.balance
        assert [js["tokenRms"], js["positionRms"], js["positionEffect"], js["wordEffect"]] == pytest.approx(
            [b.token_rms, b.position_rms, b.position_effect, b.word_effect], rel=1e-6, abs=1e-6
        )
        assert text == explorer.readout()


# ----------------------------------------------------------------------------- live in a page

# what a reader sees of an explorer: its picture, its readout, its controls with their labels
STATE = """root => ({
    pixels: root.querySelector('canvas').toDataURL(),
    readout: root.querySelector('.course-explorer-readout').textContent,
    labels: [...root.querySelectorAll('input[type=range], [role=radiogroup], select')].map(c =>
        [c.name || c.dataset.name, c.getAttribute('aria-label')]),
    lang: root.closest('[lang]').lang,
})"""

# the element that takes the keyboard for control `name`: a slider, the checked radio button of a
# group, a drop-down list
FOCUS = """(root, name) => {
    const group = root.querySelector(`[role=radiogroup][data-name=${name}]`);
    const target = group ? group.querySelector('input:checked') : root.querySelector(`[name=${name}]`);
    target.focus();
    if (target.type === 'range') return Number(target.value) >= Number(target.max) ? 'ArrowLeft' : 'ArrowRight';
    if (target.tagName === 'SELECT') return target.selectedIndex === target.options.length - 1 ? 'ArrowUp' : 'ArrowDown';
    return 'ArrowRight';  // a radio group wraps around
}"""

# input event -> picture and readout drawn (the handler draws before it returns), 20 moves of a
# control between two of its values: the 95th percentile, in ms
FRAME_TIMES = """(root, name) => {
    const group = root.querySelector(`[role=radiogroup][data-name=${name}]`);
    let set, values;
    if (group) {
        const radios = [...group.querySelectorAll('input')];
        const at = radios.findIndex(r => r.checked);
        values = [at, (at + 1) % radios.length];
        set = k => { radios[k].checked = true; return radios[k]; };
    } else {
        const c = root.querySelector(`[name=${name}]`);
        if (c.tagName === 'SELECT') {
            values = [c.selectedIndex, (c.selectedIndex + 1) % c.options.length];
            set = k => { c.selectedIndex = k; return c; };
        } else {
            values = [c.value, String(Math.min(Number(c.max), Number(c.value) + Number(c.step)))];
            if (values[1] === values[0]) values[1] = String(Number(c.value) - Number(c.step));
            set = v => { c.value = v; return c; };
        }
    }
    const times = [];
    for (let k = 0; k < 20; k++) {
        const target = set(values[k % 2 ? 0 : 1]);
        const t0 = performance.now();
        target.dispatchEvent(new Event('input', {bubbles: true}));
        times.push(performance.now() - t0);
    }
    set(values[0]).dispatchEvent(new Event('input', {bubbles: true}));
    return times.sort((x, y) => x - y)[18];
}"""


def check_live(page, root, lang: str, controls: list[str], labels: dict) -> float:
    """Every control of the explorer ``root`` moves the picture and the readout, from the keyboard.

    Returns the slowest control's 95th percentile, in ms, from input event to drawing done.
    """
    root.scroll_into_view_if_needed()
    state = root.evaluate(STATE)
    assert state["lang"] == lang
    assert state["labels"] == [[name, labels[name]] for name in controls]
    for name in controls:
        key = root.evaluate(FOCUS, name)
        page.keyboard.press(key)
        after = root.evaluate(STATE)
        assert after["pixels"] != state["pixels"], f"moving {name} did not change the picture"
        assert after["readout"] != state["readout"], f"moving {name} did not change the readout"
        state = after
    return max(root.evaluate(FRAME_TIMES, name) for name in controls)


def explorers_on(page, name: str, timeout: int = TIMEOUT_MS) -> dict:
    found = {}
    for cls in EXPLORERS[name]:
        page.wait_for_function(
            "cls => { const c = document.querySelector(`.${cls} canvas`); return c !== null && c.width > 0; }",
            arg=cls,
            timeout=timeout,
        )
        found[cls] = page.locator(f".{cls}").first
    return found


def run_every_control(page, found: dict, name: str, lang: str, show=None) -> dict:
    times = {}
    for cls, (controls, build) in EXPLORERS[name].items():
        if show:
            found[cls].evaluate(show)
        times[cls] = check_live(page, found[cls], lang, controls, build(lang).labels)
    return times


@pytest.mark.parametrize("name", sorted(EXPLORERS))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_explorers_live_on_the_site(site_root, offline_page, name, lang, record_property):  # noqa: F811
    page, traffic = offline_page(lang, VIEWPORT, local_or_file, "site page")
    page.goto(f"{site_root['file']}/{lang}/{name}.html")
    times = run_every_control(page, explorers_on(page, name), name, lang)
    report(record_property, f"site file {lang} {name[:2]}", times)
    traffic.assert_clean()


@pytest.mark.parametrize("name", sorted(EXPLORERS))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_explorers_live_in_the_deck(offline_page, name, lang, record_property):
    deck = SLIDES / lang / f"{name}.html"
    if not deck.exists():
        pytest.fail(f"{CONFIG.relative(deck)} is missing: run `make slides`")
    page, traffic = offline_page(lang, VIEWPORT, is_file, "deck")
    page.goto(deck.as_uri())
    page.wait_for_function("document.querySelector('.reveal.ready') !== null", timeout=TIMEOUT_MS)
    times = run_every_control(page, explorers_on(page, name), name, lang, show=SHOW_SLIDE)
    report(record_property, f"deck {lang} {name[:2]}", times)
    traffic.assert_clean()


@pytest.mark.parametrize("name", sorted(EXPLORERS))
def test_explorers_live_in_jupyterlab_before_and_after_running(
    jupyterlab, guarded_page, name, record_property
):
    page, traffic = guarded_page
    lab = jupyterlab(locale="en")
    open_in_lab(page, lab, name)
    # no cell has run: the saved state alone draws the explorers, and they move
    # (JupyterLab renders a long notebook's cells in the background, a minute under load)
    found = explorers_on(page, name, LAB_TIMEOUT_MS)
    times = run_every_control(page, found, name, "en")
    report(record_property, f"JupyterLab, before running {name[:2]}", times)
    # after running the lesson's cells: the kernel's own widgets, drawn by the same module, move too
    run_in_lab(page, list(found.values()))
    times = run_every_control(page, explorers_on(page, name, LAB_TIMEOUT_MS), name, "en")
    report(record_property, f"JupyterLab, after running {name[:2]}", times)
    traffic.assert_clean()
    assert lab.outside_requests() == [], f"the server tried to reach: {lab.outside_requests()}"
