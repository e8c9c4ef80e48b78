"""Static half of the portability guard: no compared output prints a float in scientific notation
with more than one significant digit.

Numbers printed as 2.80e-07 are errors and tiny differences: results of cancellation whose
leading digits change with the CPU (issue 9). Print an exact bound instead (``≤ 2⁻²⁵``), an
order of magnitude computed from exact quantities, or assert in the cell and print the conclusion.
The dynamic half, tests/portability/run.py (`make nbval-portable`), re-runs the lessons as on other machines.
"""

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted(Path(__file__).resolve().parents[2].glob("notebooks/[a-z][a-z]/*.ipynb"))
# a mantissa with a fractional part: 2.80e-07, 1.5E+03 (1e-07 and 3e-08 pass)
SCIENTIFIC = re.compile(r"(?<![\w.])[-+]?\d\.\d+[eE][-+]?\d+")
IGNORED = ("nbval-ignore-output", "nbval-skip")


def compared_text(cell) -> str:
    tags = cell.get("metadata", {}).get("tags", [])
    source = "".join(cell["source"])
    if cell.get("execution_count") is None or any(t in tags for t in IGNORED) or "NBVAL_" in source:
        return ""
    parts = []
    for out in cell.get("outputs", []):
        parts.append("".join(out.get("text", "")))
        parts.append("".join(out.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_many_digit_scientific_floats(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = [
        f"cell {i}: {', '.join(sorted(set(SCIENTIFIC.findall(compared_text(c)))))}"
        for i, c in enumerate(cells)
        if c["cell_type"] == "code" and SCIENTIFIC.search(compared_text(c))
    ]
    assert not found, "floats printed with more digits than survive another CPU:\n" + "\n".join(found)
