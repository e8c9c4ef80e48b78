"""Input event -> drawing complete for each live explorer in Chromium, beside the kernel-backed redraw.

A live explorer (course_lib/widgets/live.py) draws synchronously in its slider's ``input``
handler, so the time from dispatching the event to the handler's return is the time to the
finished picture and readout. Measured in headless Debian Chromium on a page made as the site
and the decks make theirs (the widget renderer, anywidget from node_modules, the saved state):

1. live, keyboard steps: ``MOVES`` slider moves of every control in turn, at the lessons'
   settings (the table at 256 positions x 512 dimensions); p50 and p95 of event -> drawn.
2. live, drag: ``DRAG`` moves, one per animation frame, on the explorer's slowest control
   (d_model at 512 for the table); the frames whose handler overran 16.7 ms are counted.
3. kernel-backed, measured in the same run: what the kernel explorers did on every move before
   (course_lib/widgets/ at b0c6a5d): recompute in Python, change the matplotlib figure, render
   its PNG. The kernel round trip and the PNG's trip to the browser come on top, so the ratio
   is a floor of the real gain.

Every measurement is taken ``ROUNDS`` times in turn (drift on a shared machine hits all alike)
and the median round reported, with the load average. Targets: live p95 <= 16 ms (one frame) for every explorer, and live p95 <= 0.25 x the
kernel-backed p95. Not part of the unit tests: ``make bench`` runs it.

    python benchmarks/bench_explorers.py      # prints a table, exits 1 if a target is missed
"""

import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch
from ipywidgets.embed import embed_data
from matplotlib.layout_engine import ConstrainedLayoutEngine

from course_lib import plots, sinusoidal_table, widgets

ROOT = Path(__file__).resolve().parents[1]
NODE = ROOT / "node_modules"
CHROMIUM = "/usr/bin/chromium"
MOVES = 20
DRAG = 60
ROUNDS = 5  # every measurement taken in turn ROUNDS times; the median round's p95 is reported
FRAME_MS = 1000 / 60
TARGET_MS = 16.0
TARGET_RATIO = 0.25
FIGSIZE, DPI = (6.4, 3.6), 80  # the kernel explorers' figure: 512 x 288 pixels

# name -> (explorer, {control: (value a, value b)}, drag control and its two ends)
EXPLORERS = {
    "table": (
        lambda: widgets.table_explorer(d_model=512, num_positions=256, base=10000.0),
        {"d_model": (512, 511), "num_positions": (256, 255), "base": (4.0, 3.7)},
        ("d_model", 256, 512),
    ),
    "rotation": (
        lambda: widgets.rotation_explorer(d_model=16, pos=3, k=2, i=0),
        {"pos": (3, 4), "k": (2, 7), "i": (0, 1)},
        ("pos", 0, 100),
    ),
}


def page_html(explorers) -> str:
    data = embed_data(views=explorers, drop_defaults=False)
    views = "".join(
        f'<div class="bench-view"><script type="application/vnd.jupyter.widget-view+json">{json.dumps(v)}</script></div>'
        for v in data["view_specs"]
    )
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<script src="{(NODE / "requirejs/require.js").as_uri()}"></script>
<script>require.config({{paths: {{anywidget: "{(NODE / "anywidget/dist/index").as_uri()}"}}}});</script>
<script src="{(NODE / "@jupyter-widgets/html-manager/dist/embed-amd.js").as_uri()}" data-jupyter-widgets-cdn="/no-cdn/"></script>
<script type="application/vnd.jupyter.widget-state+json">{json.dumps(data["manager_state"])}</script>
</head><body>{views}</body></html>"""


# one move: set the slider's position, dispatch `input`, time to the handler's return
STEPS = """([root, name, a, b, moves]) => {
    const s = document.querySelector(`.${root} input[name=${name}]`);
    const times = [];
    for (let k = 0; k < moves; k++) {
        s.value = String(k % 2 ? a : b);
        const t0 = performance.now();
        s.dispatchEvent(new Event('input', {bubbles: true}));
        times.push(performance.now() - t0);
    }
    return times;
}"""

# a drag: one move per animation frame from one end to the other
DRAG_JS = """([root, name, lo, hi, moves]) => new Promise(resolve => {
    const s = document.querySelector(`.${root} input[name=${name}]`);
    const times = [];
    let k = 0;
    const step = () => {
        s.value = String(Math.round(lo + (hi - lo) * k / (moves - 1)));
        const t0 = performance.now();
        s.dispatchEvent(new Event('input', {bubbles: true}));
        times.push(performance.now() - t0);
        if (++k < moves) requestAnimationFrame(step); else resolve(times);
    };
    requestAnimationFrame(step);
})"""


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, math.ceil(q * len(xs)) - 1)]


def measure_live(explorers):
    from playwright.sync_api import sync_playwright

    results = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        page_file = Path(tmp) / "bench.html"
        page_file.write_text(page_html([make() for make, _, _ in explorers.values()]), encoding="utf-8")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_file.as_uri())
        page.wait_for_function(
            "n => document.querySelectorAll('.course-explorer canvas').length >= n", arg=len(explorers)
        )
        for _ in range(ROUNDS):
            for name, (_, controls, (drag, lo, hi)) in explorers.items():
                root = f"{name}-explorer"
                times = []
                for control, (a, b) in controls.items():
                    times += page.evaluate(STEPS, [root, control, a, b, MOVES])
                dragged = page.evaluate(DRAG_JS, [root, drag, lo, hi, DRAG])
                results.setdefault(name, []).append((times, dragged))
        browser.close()
        if errors:
            raise RuntimeError(f"the page raised: {errors}")
    return results


def kernel_table_moves():
    """The old table explorer's move: a new table, set_data on the heatmap, a PNG."""
    table = sinusoidal_table(256, 512)
    fig = plots.plot_table(table, figsize=FIGSIZE, dpi=DPI)
    image = fig.axes[0].images[0]
    ConstrainedLayoutEngine().execute(fig)
    fig.set_layout_engine("none")
    state = {"d": 512}

    def move():
        state["d"] = 511 if state["d"] == 512 else 512
        with plots.one_thread():
            new = sinusoidal_table(256, state["d"], 10000.0)
        image.set_data(new.numpy())
        image.set_extent((-0.5, state["d"] - 0.5, 255.5, -0.5))
        return plots.to_png(fig, palette=True)

    return move


def kernel_rotation_moves():
    """The old rotation explorer's move: the figure cleared and redrawn, laid out, a PNG."""
    fig = plots.plot_rotation(3, 2, 0, 16, figsize=FIGSIZE, dpi=DPI)
    layout = ConstrainedLayoutEngine()
    fig.set_layout_engine("none")
    state = {"k": 2}

    def move():
        state["k"] = 7 if state["k"] == 2 else 2
        fig.clear()
        plots.draw_rotation(fig, 3, state["k"], 0, 16, 10000.0, "en")
        layout.execute(fig)
        return plots.to_png(fig, palette=True)

    return move


def measure_kernel(move, repeats):
    move()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        move()
        times.append((time.perf_counter() - t0) * 1000)
    return times


def main() -> int:
    print(f"torch {torch.__version__}, load average {os.getloadavg()[0]:.2f}, Chromium {CHROMIUM}")
    live = measure_live(EXPLORERS)
    kernel = {"table": kernel_table_moves(), "rotation": kernel_rotation_moves()}
    ok = True
    print(
        f"\n  {'explorer':10s} {'live p50':>9s} {'live p95':>9s} {'drag p95':>9s} {'frames >16.7':>12s}"
        f" {'kernel p50':>11s} {'kernel p95':>11s} {'ratio p95':>9s}"
    )
    for name, rounds in live.items():
        before = [measure_kernel(kernel[name], 15) for _ in range(ROUNDS)]
        p50 = statistics.median(statistics.median(t) for t, _ in rounds)
        p95 = statistics.median(percentile(t, 0.95) for t, _ in rounds)
        drag95 = statistics.median(percentile(d, 0.95) for _, d in rounds)
        over = sum(sum(t > FRAME_MS for t in d) for _, d in rounds)
        k50 = statistics.median(statistics.median(t) for t in before)
        k95 = statistics.median(percentile(t, 0.95) for t in before)
        ratio = p95 / k95
        passed = p95 <= TARGET_MS and drag95 <= TARGET_MS and ratio <= TARGET_RATIO
        ok &= passed
        print(
            f"  {name:10s} {p50:7.2f}ms {p95:7.2f}ms {drag95:7.2f}ms"
            f" {over:5d} of {ROUNDS * DRAG:<3d} {k50:9.1f}ms {k95:9.1f}ms"
            f" {ratio:9.3f}  {'ok' if passed else 'MISSED'}"
        )
    print(
        f"\n  targets: live and drag p95 <= {TARGET_MS:.0f} ms, live p95 <= {TARGET_RATIO} x kernel-backed p95"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
