"""Lesson 9: Llama 3's rule for RoPE's frequencies (``rope_type: "llama3"``), written by the student.

The student writes ``my_llama3_frequencies(inv_freq, factor, low_freq_factor, high_freq_factor,
original_max_position_embeddings)``: each pair's frequency ``ω_i`` (``inv_freq``, shape
``(head_dim/2,)``) kept when its wavelength ``2π/ω_i`` is shorter than ``L/high_freq_factor``,
divided by ``factor`` when it is longer than ``L/low_freq_factor``, and a blend of the two
between (Meta's ``apply_scaling``; the course's core is
:func:`course_lib.core.model.llama3_frequencies`). The check calls it with Llama 3.1 8B's config
and with a second, smaller one whose numbers all differ, and compares the answer with the right
one and with what the usual mistakes give: the two thresholds swapped (or the band kept), the band
divided instead of blended, the blend reversed or linear in the wavelength, every pair divided by the
factor (which is position interpolation), nothing scaled; a list (Meta's loop) or an array returned,
and a pair's ``inf`` or ``nan``, get verdicts of their own.
"""

import math

import torch

from ..core import model as core
from ..i18n import Messages, format_number, format_positions
from .checks import Feedback, Foreign, describe, feedback, require_function, require_tensor, wrong
from .exercise import Exercise
from .runner import Run

MESSAGES = Messages(
    "llama3",
    {
        "correct": (
            "Your rule is Llama 3's: pairs whose wavelength 2π/ω_i is below L/high_freq_factor are kept, "
            "those above L/low_freq_factor are divided by the factor, and the ones between are blended, "
            "the faster a pair, the more of its own frequency it keeps."
        ),
        "shape": (
            "For `inv_freq` of shape {expected} your function returned {got}: one frequency per pair, "
            "the same shape as `inv_freq`."
        ),
        "not_tensor": (
            "`{name}` returned {got}, not a tensor: wrap it, `torch.stack(new_freqs)` or "
            "`torch.tensor(new_freqs)`, or compute all pairs at once with `torch.where`."
        ),
        "nonfinite": (
            "Your function gives pair {pair} (wavelength {wavelength} positions) `{value}`: some number "
            "was divided by zero or grew too large. Print `wavelength` and `smooth` for that pair to find "
            "where it first appears."
        ),
        "unchanged": (
            "Your function returns `inv_freq` unchanged: no pair is scaled. The thresholds "
            "L/high_freq_factor and L/low_freq_factor are wavelengths, in positions ({high} and {low} "
            "here): compare them with each pair's wavelength `2 * math.pi / inv_freq`, not with the "
            "frequency itself, which is never above 1."
        ),
        "linear": (
            "Your function divides every pair by the factor {factor}: that is position interpolation "
            '(`rope_type: "linear"`), and it slows the fast pairs too. Llama 3 keeps the pairs whose '
            "wavelength is below L/high_freq_factor = {high} positions as they are."
        ),
        "multiplied": (
            "Your slow pairs are multiplied by the factor {factor}, so they turn faster. The rule "
            "slows them down: a pair whose wavelength is above L/low_freq_factor = {low} positions gets "
            "ω_i / factor, and its wavelength grows {factor} times."
        ),
        "thresholds_swapped": (
            "Every pair with a wavelength up to L/low_freq_factor = {low} positions is kept and the rest "
            "divided: either your thresholds are swapped (the pairs kept are the fast ones, wavelength below "
            "L/high_freq_factor = {high}; low frequency means a long wavelength), or the pairs between {high} "
            "and {low} positions are not blended."
        ),
        "no_blend": (
            "Your fast pairs are right, but every pair with a wavelength above L/high_freq_factor = {high} "
            "positions is divided by {factor}: the pairs between {high} and {low} positions are to be blended, "
            "not divided. Only the pairs above L/low_freq_factor = {low} get ω_i / factor."
        ),
        "smooth_reversed": (
            "Outside the band your pairs are right, but inside it the blend runs the wrong way: pair "
            "{pair} (wavelength {wavelength} positions) gets {got}, not {expected}. With smooth = "
            "(L/wavelength − low_freq_factor) / (high_freq_factor − low_freq_factor), the new frequency is "
            "(1 − smooth)·ω_i/factor + smooth·ω_i: smooth is 1 at the fast end of the band, where pairs are kept."
        ),
        "wavelength_blend": (
            "Outside the band your pairs are right, but your blend is linear in the wavelength: pair "
            "{pair} (wavelength {wavelength} positions) gets {got}, not {expected}. Llama 3's is linear in "
            "L/wavelength, the turns within L: smooth = (L/wavelength − low_freq_factor) / "
            "(high_freq_factor − low_freq_factor)."
        ),
        "values": (
            "For factor {factor}, low_freq_factor {low_factor}, high_freq_factor {high_factor} and L = {L}, "
            "pair {pair} (wavelength {wavelength} positions) gets {got}, Llama 3's rule gives {expected}."
        ),
        "hint1": (
            "Work with wavelengths: `wavelength = 2 * math.pi / inv_freq` is how many positions a pair "
            "takes for one turn. The thresholds are wavelengths too: L / high_freq_factor (short: fast "
            "pairs) and L / low_freq_factor (long: slow pairs)."
        ),
        "hint2": (
            "Three cases: wavelength below L / high_freq_factor: keep `inv_freq`; above "
            "L / low_freq_factor: `inv_freq / factor`; between: a blend of the two. `torch.where` does "
            "all pairs at once."
        ),
        "hint3": (
            "The blend: `smooth = (L / wavelength - low_freq_factor) / (high_freq_factor - "
            "low_freq_factor)`, 0 at the slow end of the band and 1 at the fast end, and "
            "`(1 - smooth) * inv_freq / factor + smooth * inv_freq`."
        ),
        "solution": (
            "Wavelengths, the three cases with `torch.where`, and the blend between the two thresholds, "
            "as Meta's `apply_scaling` does it pair by pair."
        ),
    },
)


# Llama 3.1 8B's config.json (head_dim 128, rope_theta 500 000), then a smaller one whose numbers all differ
CASES = (
    (128, 500000.0, {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "L": 8192}),
    (64, 10000.0, {"factor": 4.0, "low_freq_factor": 2.0, "high_freq_factor": 16.0, "L": 1024}),
)
RTOL = 1e-6  # far above float64 rounding, far below any mistake's difference (>= 1e-2 relative)


def reference(inv_freq: torch.Tensor, factor, low, high, L) -> torch.Tensor:
    """The right answer: the course's core."""
    return core.llama3_frequencies(inv_freq, factor, L, low, high)


def smooth_reversed(inv_freq: torch.Tensor, factor, low, high, L) -> torch.Tensor:
    """The blend the other way round: (1 - smooth) ω + smooth ω / factor inside the band."""
    wavelength = 2 * math.pi / inv_freq
    smooth = (L / wavelength - low) / (high - low)
    inside = (wavelength >= L / high) & (wavelength <= L / low)
    return torch.where(
        inside,
        (1 - smooth) * inv_freq + smooth * inv_freq / factor,
        reference(inv_freq, factor, low, high, L),
    )


def wavelength_blend(inv_freq: torch.Tensor, factor, low, high, L) -> torch.Tensor:
    """A blend linear in the wavelength (as mlx-examples pull request 907 weighted it): its weight goes from 0
    at ``L/high`` to 1 at ``L/low``, where Llama 3's is linear in ``L/wavelength``."""
    wavelength = 2 * math.pi / inv_freq
    weight = (wavelength - L / high) / (L / low - L / high)
    inside = (wavelength >= L / high) & (wavelength <= L / low)
    return torch.where(
        inside,
        (1 - weight) * inv_freq + weight * inv_freq / factor,
        reference(inv_freq, factor, low, high, L),
    )


def _number(x: float) -> str:
    return format_number(x, ".4g")


def diagnose(student, run: Run) -> Feedback:
    require_function(student)
    name = getattr(student, "__name__", "my_llama3_frequencies")
    for head_dim, base, case in CASES:
        factor, low, high, L = case["factor"], case["low_freq_factor"], case["high_freq_factor"], case["L"]
        inv_freq = core.inverse_frequencies(head_dim, base)  # (head_dim/2,)
        got = run.call(name, student, inv_freq.clone(), factor, low, high, L, name=name)
        # Meta's loop appends each pair's frequency to a list (one that skips a pair too: the shape
        # check counts them once it is a tensor); NumPy gives an array
        if isinstance(got, tuple | list) or (isinstance(got, Foreign) and got.name == "ndarray"):
            raise wrong("llama3.not_tensor", name=name, got=describe(got))
        got = require_tensor(got, name=name)
        if tuple(got.shape) != tuple(inv_freq.shape):
            raise wrong("llama3.shape", expected=str(tuple(inv_freq.shape)), got=describe(got))
        got = got.detach().cpu().double()
        bad = (~torch.isfinite(got)).nonzero()
        if len(bad):
            pair = int(bad[0])
            raise wrong(
                "llama3.nonfinite",
                pair=pair,
                wavelength=format_positions(2 * math.pi / float(inv_freq[pair])),
                value=str(float(got[pair])),
            )
        right = reference(inv_freq, factor, low, high, L)
        if torch.allclose(got, right, rtol=RTOL, atol=0):
            continue
        values = {"factor": _number(factor), "low": _number(L / low), "high": _number(L / high)}
        mistakes = {
            "llama3.unchanged": inv_freq,
            "llama3.linear": inv_freq / factor,
            "llama3.multiplied": core.llama3_frequencies(inv_freq, 1 / factor, L, low, high),
            "llama3.thresholds_swapped": core.llama3_frequencies(inv_freq, factor, L, high, low),
            "llama3.no_blend": torch.where(2 * math.pi / inv_freq < L / high, inv_freq, inv_freq / factor),
        }
        for key, answer in mistakes.items():
            if torch.allclose(got, answer, rtol=RTOL, atol=0):
                raise wrong(key, **values)
        pair = int((~torch.isclose(got, right, rtol=RTOL, atol=0)).nonzero()[0])
        detail = {
            "pair": pair,
            "wavelength": format_positions(2 * math.pi / float(inv_freq[pair])),  # as the lesson writes it
            "got": _number(float(got[pair])),
            "expected": _number(float(right[pair])),
        }
        if torch.allclose(got, smooth_reversed(inv_freq, factor, low, high, L), rtol=RTOL, atol=0):
            raise wrong("llama3.smooth_reversed", **detail)
        if torch.allclose(got, wavelength_blend(inv_freq, factor, low, high, L), rtol=RTOL, atol=0):
            raise wrong("llama3.wavelength_blend", **detail)
        raise wrong(
            "llama3.values",
            factor=_number(factor),
            low_factor=_number(low),
            high_factor=_number(high),
            L=L,
            **detail,
        )
    return feedback("correct", "llama3.correct")


EXERCISE = Exercise("llama3", 9, diagnose, MESSAGES)
# what a lesson calls: exercises.<name>.check(...), .hint(n), .solution(), and the build's .template
check, hint, solution = EXERCISE.check, EXERCISE.hint, EXERCISE.solution
__getattr__ = EXERCISE.module_attribute  # .template, in the current language
