"""The size limits count what a build really takes: each builder's peak memory, measured.

A table is built in float64 and cast at the end, so its construction peaks at several
times the table returned (ALiBi's bias used to peak at 6 times its float32 output, and
``alibi_bias(1, 40000)`` passed a limit on entries, then took 39 GB). Each builder counts
its intermediates and refuses a build whose count passes ``validate.MAX_PEAK_BYTES``.
Here a fresh process measures each build's peak from the kernel's high-water mark of its
memory (``VmHWM``, reset through ``/proc/self/clear_refs``), and checks that the count is
not below it (a limit just under the measured peak refuses the build) and not far above it
(a limit 15 % over it lets the build through).
"""

import json
import subprocess
import sys
import textwrap

import pytest

# (name, a build of a few hundred MB): the sinusoidal table, RoPE's tables (unscaled and YaRN's), the learned table,
# ALiBi's bias with one head and with eight, ALiBi's slopes
BUILDS = {
    "sinusoidal_table": "sinusoidal_table(2**15, 1024)",
    "RotaryEmbedding": "RotaryEmbedding(128, max_len=2**18)",
    "RotaryEmbedding, yarn": (
        "RotaryEmbedding(128, max_len=2**18, rope_scaling="
        "{'rope_type': 'yarn', 'factor': 4.0, 'original_max_position_embeddings': 2**16})"
    ),
    "LearnedPositionalEmbedding": "LearnedPositionalEmbedding(2**15, 1024)",
    "alibi_bias, 1 head": "alibi_bias(1, 4096)",
    "alibi_bias, 8 heads": "alibi_bias(8, 2048)",
    "alibi_slopes": "alibi_slopes(2**23)",
}

CHILD = textwrap.dedent(
    """
    import gc, json, sys
    from course_lib import LearnedPositionalEmbedding, RotaryEmbedding, sinusoidal_table, validate
    from course_lib.rotary import alibi_bias, alibi_slopes

    def status(key):
        for line in open("/proc/self/status"):
            if line.startswith(key):
                return int(line.split()[1]) * 1024

    def peak(build):
        gc.collect()
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # the high-water mark starts again from the memory in use now
        before = status("VmRSS")
        out = eval(build)
        used = status("VmHWM") - before
        del out
        return used

    def refused(build, limit):
        validate.MAX_PEAK_BYTES = int(limit)
        try:
            eval(build)
            return False
        except ValueError:
            return True
        finally:
            validate.MAX_PEAK_BYTES = 8 * 2**30

    alibi_bias(2, 8), alibi_slopes(3), sinusoidal_table(4, 4), RotaryEmbedding(8, 8)  # load the kernels
    results = {}
    for name, build in json.loads(sys.argv[1]).items():
        used = peak(build)
        results[name] = (used, refused(build, 0.98 * used), refused(build, 1.15 * used + 2**22))
    print(json.dumps(results))
    """
)


@pytest.fixture(scope="module")
def measured():
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(BUILDS)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize("name", BUILDS)
def test_the_limit_counts_the_measured_peak_of_each_build(measured, name):
    used, refused_below, refused_above = measured[name]
    assert used > 100 * 2**20, f"{name}: {used} bytes is too small a build to measure"
    assert refused_below, f"{name} peaks at {used} bytes, and a limit below that lets it through"
    assert not refused_above, f"{name} peaks at {used} bytes, and a limit 15 % above that refuses it"


def test_the_float32_bias_of_one_head_peaks_at_5_times_its_size_not_6(measured):
    used, _, _ = measured["alibi_bias, 1 head"]
    assert used / (4 * 4096**2) == pytest.approx(5.0, abs=0.1)
