"""nbval again, as if on other machines: every printed number must survive them.

    python tests/portability/run.py [--pass NAME ...] [pytest args, e.g. notebooks/en/04_*.ipynb]

Each pass re-runs the lessons against their committed outputs with the float paths changed
(`make test` runs other-machine, which is both below at once; name one to see which moves a number):

- other-cpu: MKL's generic code path (what MKL takes on AMD CPUs: this reproduced, digit for digit,
  the 2.76e-07 of issue 9), ATen's scalar kernels instead of AVX-512, one thread (reduction order);
- faithful-libm: tests/portability/float_jitter.py in the kernel moves every inexact float32 result
  by up to one ulp, as a different libm/BLAS of < 1 ulp error may.

A cell that fails here prints more digits than its computation guarantees: round it to what
survives, print an exact quantity, or assert inside the cell and print the conclusion.
"""

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

JITTER_STARTUP = f"""
import importlib.util as _u
_spec = _u.spec_from_file_location("_course_float_jitter", {str(HERE / "float_jitter.py")!r})
_m = _u.module_from_spec(_spec)
_spec.loader.exec_module(_m)
_m.install()
"""

OTHER_CPU = {"MKL_CBWR": "COMPATIBLE", "ATEN_CPU_CAPABILITY": "default", "OMP_NUM_THREADS": "1"}
PASSES = {
    "other-cpu": {"env": OTHER_CPU, "startup": ""},
    "faithful-libm": {"env": {}, "startup": JITTER_STARTUP},
    "other-machine": {"env": OTHER_CPU, "startup": JITTER_STARTUP},  # both at once: what make test runs
}
DEFAULT = ["other-machine"]


@contextlib.contextmanager
def kernel_settings(name: str):
    """The variables that make a kernel run as pass ``name`` says: its float settings and an IPython
    folder (temporary, removed after) whose startup file installs the pass's jitter, if any."""
    spec = PASSES[name]
    with tempfile.TemporaryDirectory(prefix=f"ipython-{name}-") as ipython_dir:
        startup = Path(ipython_dir, "profile_default", "startup")
        startup.mkdir(parents=True)
        (startup / "00-portability.py").write_text(spec["startup"])
        yield {**spec["env"], "IPYTHONDIR": ipython_dir}


def run_pass(name: str, pytest_args: list[str]) -> int:
    with kernel_settings(name) as settings:
        env = {**os.environ, **settings}
        cmd = [sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadfile", "--nbval", *pytest_args]
        start = time.monotonic()
        rc = subprocess.call(cmd, cwd=ROOT, env=env)
        print(
            f"portability pass {name!r}: {'ok' if rc == 0 else 'FAILED'} in {time.monotonic() - start:.0f} s"
        )
        return rc


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pass", dest="passes", action="append", choices=sorted(PASSES))
    args, pytest_args = parser.parse_known_args()
    if not any(not a.startswith("-") for a in pytest_args):
        pytest_args.append("notebooks")  # no notebook or folder named: all lessons, both languages
    failed = [name for name in args.passes or DEFAULT if run_pass(name, pytest_args)]
    if failed:
        print("printed numbers that depend on the machine, in passes:", ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
