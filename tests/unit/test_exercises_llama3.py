"""The Llama 3 frequency exercise (lesson 9): each usual mistake gets its own diagnosis, in the student's language."""

import math

import numpy as np
import torch

from course_lib import exercises, rope_frequencies
from course_lib.core import model as core
from tests.unit.verdicts import assert_numbers_in_language, assert_verdict, verdict_tests

LLAMA3 = exercises.llama3.EXERCISE


def student(name, keep_below="high", divide_above="low", blend=None, fast=None, slow=None):
    """A student's ``my_llama3_frequencies`` written as Meta's loop, with one piece changed.

    ``keep_below`` / ``divide_above`` name the factor whose threshold each case uses; ``blend(smooth,
    freq, factor)`` the frequency inside the band; ``fast`` / ``slow`` what the kept and divided pairs get.
    """
    blend = blend or (lambda smooth, freq, factor: (1 - smooth) * freq / factor + smooth * freq)
    fast = fast or (lambda freq, factor: freq)
    slow = slow or (lambda freq, factor: freq / factor)

    def my_llama3_frequencies(
        inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings
    ):
        L = original_max_position_embeddings
        given = {"low": low_freq_factor, "high": high_freq_factor}
        out = []
        for freq in inv_freq.tolist():
            wavelength = 2 * math.pi / freq
            if wavelength < L / given[keep_below]:
                out.append(fast(freq, factor))
            elif wavelength > L / given[divide_above]:
                out.append(slow(freq, factor))
            else:
                smooth = (L / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
                out.append(blend(smooth, freq, factor))
        return torch.tensor(out, dtype=inv_freq.dtype)

    my_llama3_frequencies.__qualname__ = name
    my_llama3_frequencies.__name__ = name
    return my_llama3_frequencies


def mlx_907_blend(inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings):
    """The blend weighted as mlx-examples pull request 907 weighted it (commit cd8efc7f), linear in the
    wavelength: ``smooths = (wavelen - high_freq_wavelen) / (low_freq_wavelen - high_freq_wavelen)``."""
    L = original_max_position_embeddings
    wavelen = 2 * math.pi / inv_freq
    low_wavelen, high_wavelen = L / low_freq_factor, L / high_freq_factor
    smooths = (wavelen - high_wavelen) / (low_wavelen - high_wavelen)
    blended = (1 - smooths) * inv_freq + smooths * inv_freq / factor
    out = torch.where(wavelen > low_wavelen, inv_freq / factor, blended)
    return torch.where(wavelen < high_wavelen, inv_freq, out)


def loop_list(inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings):
    """Meta's ``apply_scaling`` copied as it is: ``new_freqs`` a list of 64 tensors, never stacked."""
    L = original_max_position_embeddings
    new_freqs = []
    for freq in inv_freq:
        wavelen = 2 * math.pi / freq
        if wavelen < L / high_freq_factor:
            new_freqs.append(freq)
        elif wavelen > L / low_freq_factor:
            new_freqs.append(freq / factor)
        else:
            smooth = (L / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
            new_freqs.append((1 - smooth) * freq / factor + smooth * freq)
    return new_freqs


def loop_list_short(inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings):
    """Meta's loop that skips the last pair: a list of 63 tensors for Llama 3.1 8B, still not a tensor."""
    return loop_list(
        inv_freq[:-1], factor, low_freq_factor, high_freq_factor, original_max_position_embeddings
    )


def as_numpy(inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings):
    """Right numbers, as a NumPy array."""
    return through_course_lib(
        inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings
    ).numpy()


def nan_in_band(inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings):
    """A blend divided by zero: ``nan`` from the first pair of the band on (pair 29 for Llama 3.1 8B)."""
    L = original_max_position_embeddings
    wavelen = 2 * math.pi / inv_freq
    out = torch.where(wavelen > L / low_freq_factor, inv_freq / factor, inv_freq)
    return torch.where((wavelen >= L / high_freq_factor) & (wavelen <= L / low_freq_factor), math.nan, out)


def nan_last(inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings):
    """Right but for the slowest pair, ``nan``: far outside the band, its wavelength in the millions."""
    out = through_course_lib(
        inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings
    )
    out[-1] = math.nan
    return out


def vectorised(inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings):
    """Right, as transformers writes it: a factor on the wavelengths, then the frequencies back."""
    L = original_max_position_embeddings
    wavelen = 2 * math.pi / inv_freq
    inv_freq_llama = torch.where(wavelen > L / low_freq_factor, inv_freq / factor, inv_freq)
    smooth = (L / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed = (1 - smooth) * inv_freq_llama / factor + smooth * inv_freq_llama
    medium = ~(wavelen < L / high_freq_factor) & ~(wavelen > L / low_freq_factor)
    return torch.where(medium, smoothed, inv_freq_llama)


def through_course_lib(inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings):
    """Right, through the course's checked layer: the head width and base read back from ``inv_freq``."""
    head_dim = 2 * len(inv_freq)
    base = float(inv_freq[1]) ** (-head_dim / 2)
    scaling = {
        "rope_type": "llama3",
        "factor": factor,
        "low_freq_factor": low_freq_factor,
        "high_freq_factor": high_freq_factor,
        "original_max_position_embeddings": original_max_position_embeddings,
    }
    return rope_frequencies(head_dim, base, scaling)[0].float()


WRONG = [
    (LLAMA3, student("swapped", keep_below="low", divide_above="high"), "llama3.thresholds_swapped"),
    (
        LLAMA3,
        student("reversed", blend=lambda smooth, freq, factor: (1 - smooth) * freq + smooth * freq / factor),
        "llama3.smooth_reversed",
    ),
    (LLAMA3, lambda inv_freq, *args: inv_freq / args[0], "llama3.linear"),
    (LLAMA3, lambda inv_freq, *args: inv_freq.clone(), "llama3.unchanged"),
    (
        LLAMA3,
        student(
            "times_factor",
            slow=lambda freq, factor: freq * factor,
            blend=lambda smooth, freq, factor: (1 - smooth) * freq * factor + smooth * freq,
        ),
        "llama3.multiplied",
    ),
    (LLAMA3, student("band_kept", blend=lambda smooth, freq, factor: freq), "llama3.thresholds_swapped"),
    (LLAMA3, student("band_divided", blend=lambda smooth, freq, factor: freq / factor), "llama3.no_blend"),
    (
        LLAMA3,
        student(
            "half_blend", blend=lambda smooth, freq, factor: (1 - smooth) * freq / factor + smooth * freq / 2
        ),
        "llama3.values",
    ),
    (LLAMA3, lambda inv_freq, *args: inv_freq[:-1], "llama3.shape"),
    (LLAMA3, mlx_907_blend, "llama3.wavelength_blend"),
    (LLAMA3, loop_list, "llama3.not_tensor"),
    (LLAMA3, loop_list_short, "llama3.not_tensor"),
    (LLAMA3, as_numpy, "llama3.not_tensor"),
    (LLAMA3, nan_in_band, "llama3.nonfinite"),
]
RIGHT = [(LLAMA3, student("loop")), (LLAMA3, vectorised), (LLAMA3, through_course_lib)]

test_each_mistake_gets_its_own_diagnosis, test_right_implementations_in_any_style_pass = verdict_tests(
    WRONG, RIGHT
)


def test_the_template_is_not_attempted_and_the_solution_passes():
    namespace = {}
    exec(LLAMA3.template, namespace)
    assert LLAMA3.check(namespace["my_llama3_frequencies"]).status == "not_attempted"
    exec(LLAMA3.solution_code, namespace)
    assert LLAMA3.check(namespace["my_llama3_frequencies"]).key == "llama3.correct"


def test_each_mistake_differs_from_the_right_answer_in_both_cases():
    """A diagnosis can fire only if the mistake changes the answer: it must, in each checked config."""
    from course_lib.exercises.llama3 import CASES, smooth_reversed

    for head_dim, base, case in CASES:
        inv_freq = core.inverse_frequencies(head_dim, base)
        args = (case["factor"], case["low_freq_factor"], case["high_freq_factor"], case["L"])
        right = core.llama3_frequencies(inv_freq, args[0], args[3], args[1], args[2])
        wavelength = 2 * math.pi / inv_freq
        band = (wavelength >= case["L"] / case["high_freq_factor"]) & (
            wavelength <= case["L"] / case["low_freq_factor"]
        )
        assert int(band.sum()) >= 2  # the blend is checked on more than one pair
        assert not torch.allclose(smooth_reversed(inv_freq, *args), right, rtol=1e-3)
        assert not torch.allclose(inv_freq / args[0], right, rtol=1e-3)


def test_the_reversed_blend_verdict_names_the_pair_and_its_numbers(lang):
    verdict = LLAMA3.check(WRONG[1][1])
    assert_verdict(verdict, "incorrect", "llama3.smooth_reversed", lang)
    assert_numbers_in_language(verdict.message, lang)
    assert verdict.values["pair"] == 29  # Llama 3.1 8B keeps pairs 0-28: pair 29 opens the band


def my_llama3_frequencies(
    inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings
):
    """Right numbers, but a list: the verdict names this function, not another one."""
    return through_course_lib(
        inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings
    ).tolist()


def test_a_list_returned_is_blamed_on_the_students_function(lang):
    verdict = LLAMA3.check(my_llama3_frequencies)
    assert_verdict(verdict, "incorrect", "llama3.not_tensor", lang)
    assert "my_llama3_frequencies" in verdict.message and "forward" not in verdict.message


def test_a_list_or_an_array_is_named_by_its_type_and_length_and_how_to_wrap_it(lang):
    """Meta's loop returns a list of 64 tensors: the verdict counts them instead of naming each, and
    says how to make a tensor of them; it does not ask whether a `return` is missing."""
    expected = {
        "en": "`loop_list` returned `list` (64 × `Tensor`), not a tensor: wrap it, `torch.stack(new_freqs)`",
        "ru": "`loop_list` вернула `list` (64 × `Tensor`), а не тензор: соберите из результата тензор — `torch.stack(new_freqs)`",
    }
    assert LLAMA3.check(loop_list).message.startswith(expected[lang])
    # a loop that skips a pair: not "Is a `return` missing?", but the same advice, with its count
    assert "`list` (63 × `Tensor`), " in LLAMA3.check(loop_list_short).message
    array = LLAMA3.check(as_numpy).message
    assert array.startswith(
        {"en": "`as_numpy` returned `ndarray`, not", "ru": "`as_numpy` вернула `ndarray`, а не"}[lang]
    )
    assert "return" not in array.replace("returned", "")
    assert isinstance(as_numpy(core.inverse_frequencies(8, 10000.0), 2.0, 1.0, 4.0, 64), np.ndarray)


def test_a_nan_is_located_by_its_pair(lang):
    verdict = LLAMA3.check(nan_in_band)
    assert_verdict(verdict, "incorrect", "llama3.nonfinite", lang)
    assert verdict.values["pair"] == 29 and verdict.values["value"] == "nan"
    assert {"en": "pair 29 (wavelength", "ru": "паре 29 (длина волны"}[lang] in verdict.message
    assert "row" not in verdict.message and "строка" not in verdict.message
    # what first appears is the value itself (in Russian, not «оно», which would point at «число»)
    assert verdict.message.endswith(
        {"en": "where it first appears.", "ru": "где `nan` появляется впервые."}[lang]
    )


def test_a_wavelength_is_written_as_the_lesson_writes_it(lang):
    """Pair 63 of Llama 3.1 8B: 2 559 196 positions, grouped as in the lesson's prose, not 2.559e+06."""
    verdict = LLAMA3.check(nan_last)
    assert_verdict(verdict, "incorrect", "llama3.nonfinite", lang)
    assert verdict.values["pair"] == 63
    assert verdict.values["wavelength"] == "2 559 196"
    assert "10⁶" not in verdict.message and "e+06" not in verdict.message


def test_the_mlx_907_blend_is_named_linear_in_the_wavelength(lang):
    """The blend weighted linearly in the wavelength, as MLX's first Llama 3.1 support did, gets its own
    verdict, which names the pair where it first differs and gives Llama 3's weight."""
    verdict = LLAMA3.check(mlx_907_blend)
    assert_verdict(verdict, "incorrect", "llama3.wavelength_blend", lang)
    assert verdict.values["pair"] == 29
    assert "smooth = (L/" in verdict.message
    assert {"en": "linear in the wavelength", "ru": "линейно по длине волны"}[lang] in verdict.message


def test_the_missing_blend_verdicts_name_both_thresholds(lang):
    """Kept up to L/low or divided from L/high: each message gives 2048 and 8192, Llama 3.1 8B's thresholds."""
    for wrong, key in ((WRONG[5][1], "llama3.thresholds_swapped"), (WRONG[6][1], "llama3.no_blend")):
        verdict = LLAMA3.check(wrong)
        assert_verdict(verdict, "incorrect", key, lang)
        digits = verdict.message.replace("\u00a0", "").replace(" ", "").replace(",", "")
        assert "2048" in digits and "8192" in digits
