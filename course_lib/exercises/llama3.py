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
from ..i18n import Messages, format_number
from .checks import Feedback, Foreign, describe, feedback, require_function, require_tensor, wrong
from .exercise import Exercise
from .runner import Run

MESSAGES = Messages(
    "llama3",
    {
        "correct": {
            "en": "Your rule is Llama 3's: pairs whose wavelength 2π/ω_i is below L/high_freq_factor are kept, "
            "those above L/low_freq_factor are divided by the factor, and the ones between are blended, "
            "the faster a pair, the more of its own frequency it keeps.",
            "ru": "Ваше правило совпадает с правилом Llama 3: пары с длиной волны 2π/ω_i меньше "
            "L/high_freq_factor остаются как были, пары с длиной волны больше L/low_freq_factor делятся на "
            "множитель, а промежуточные смешиваются — чем быстрее пара, тем больше в ней от исходной частоты.",
        },
        "shape": {
            "en": "For `inv_freq` of shape {expected} your function returned {got}: one frequency per pair, "
            "the same shape as `inv_freq`.",
            "ru": "Для `inv_freq` формы {expected} ваша функция вернула {got}, а нужна одна частота на пару — "
            "та же форма, что у `inv_freq`.",
        },
        "not_tensor": {
            "en": "`{name}` returned {got}, not a tensor: wrap it, `torch.stack(new_freqs)` or "
            "`torch.tensor(new_freqs)`, or compute all pairs at once with `torch.where`.",
            "ru": "`{name}` вернула {got}, а не тензор: оберните результат, `torch.stack(new_freqs)` или "
            "`torch.tensor(new_freqs)`, или вычислите все пары сразу через `torch.where`.",
        },
        "nonfinite": {
            "en": "Your function gives pair {pair} (wavelength {wavelength} positions) `{value}`: some number "
            "was divided by zero or grew too large. Print `wavelength` and `smooth` for that pair to find "
            "where it first appears.",
            "ru": "Ваша функция даёт паре {pair} (длина волны в позициях — {wavelength}) значение `{value}`: "
            "какое-то число поделили на ноль, или оно стало слишком большим. Напечатайте `wavelength` и "
            "`smooth` для этой пары, чтобы найти, где оно появляется впервые.",
        },
        "unchanged": {
            "en": "Your function returns `inv_freq` unchanged: no pair is scaled. The thresholds "
            "L/high_freq_factor and L/low_freq_factor are wavelengths, in positions ({high} and {low} "
            "here): compare them with each pair's wavelength `2 * math.pi / inv_freq`, not with the "
            "frequency itself, which is never above 1.",
            "ru": "Ваша функция возвращает `inv_freq` без изменений: ни одна пара не масштабирована. "
            "Пороги L/high_freq_factor и L/low_freq_factor — это длины волн в позициях (здесь {high} и "
            "{low}): сравнивайте с ними длину волны каждой пары, `2 * math.pi / inv_freq`, а не саму "
            "частоту, которая не бывает больше 1.",
        },
        "linear": {
            "en": "Your function divides every pair by the factor {factor}: that is position interpolation "
            '(`rope_type: "linear"`), and it slows the fast pairs too. Llama 3 keeps the pairs whose '
            "wavelength is below L/high_freq_factor = {high} positions as they are.",
            "ru": "Ваша функция делит на множитель {factor} каждую пару: это интерполяция позиций "
            '(`rope_type: "linear"`), она замедляет и быстрые пары. Llama 3 оставляет как есть пары '
            "с длиной волны меньше L/high_freq_factor = {high} позиций.",
        },
        "multiplied": {
            "en": "Your slow pairs are multiplied by the factor {factor}, so they turn faster. The rule "
            "slows them down: a pair whose wavelength is above L/low_freq_factor = {low} positions gets "
            "ω_i / factor, and its wavelength grows {factor} times.",
            "ru": "Вы умножили медленные пары на {factor} вместо деления, и они поворачиваются быстрее. Правило их "
            "замедляет: пара с длиной волны больше L/low_freq_factor = {low} позиций получает "
            "ω_i / factor, и её длина волны растёт в {factor} раз.",
        },
        "thresholds_swapped": {
            "en": "Every pair with a wavelength up to L/low_freq_factor = {low} positions is kept and the rest "
            "divided: either your thresholds are swapped (the pairs kept are the fast ones, wavelength below "
            "L/high_freq_factor = {high}; low frequency means a long wavelength), or the pairs between {high} "
            "and {low} positions are not blended.",
            "ru": "У вас каждая пара с длиной волны до L/low_freq_factor = {low} позиций остаётся как была, а "
            "остальные делятся: либо перепутаны пороги (без изменений остаются быстрые пары, с длиной волны "
            "меньше L/high_freq_factor = {high}; низкая частота — это длинная волна), либо пары с длиной волны "
            "между {high} и {low} позициями не смешиваются.",
        },
        "no_blend": {
            "en": "Your fast pairs are right, but every pair with a wavelength above L/high_freq_factor = {high} "
            "positions is divided by {factor}: the pairs between {high} and {low} positions are to be blended, "
            "not divided. Only the pairs above L/low_freq_factor = {low} get ω_i / factor.",
            "ru": "Быстрые пары у вас верны, но каждая пара с длиной волны больше L/high_freq_factor = {high} "
            "позиций делится на {factor}, хотя пары с длиной волны между {high} и {low} позициями нужно "
            "смешивать, а не делить. Частоту ω_i / factor получают только пары с длиной волны больше "
            "L/low_freq_factor = {low}.",
        },
        "smooth_reversed": {
            "en": "Outside the band your pairs are right, but inside it the blend runs the wrong way: pair "
            "{pair} (wavelength {wavelength} positions) gets {got}, not {expected}. With smooth = "
            "(L/wavelength − low_freq_factor) / (high_freq_factor − low_freq_factor), the new frequency is "
            "(1 − smooth)·ω_i/factor + smooth·ω_i: smooth is 1 at the fast end of the band, where pairs are kept.",
            "ru": "Вне промежутка между порогами ваши пары верны, но внутри него смешивание идёт в обратную "
            "сторону: пара "
            "{pair} (длина волны в позициях — {wavelength}) получает {got}, а не {expected}. При smooth = "
            "(L/длина волны − low_freq_factor) / (high_freq_factor − low_freq_factor) новая частота равна "
            "(1 − smooth)·ω_i/factor + smooth·ω_i: smooth равно 1 у быстрого края промежутка, где пары не меняются.",
        },
        "wavelength_blend": {
            "en": "Outside the band your pairs are right, but your blend is linear in the wavelength: pair "
            "{pair} (wavelength {wavelength} positions) gets {got}, not {expected}. Llama 3's is linear in "
            "L/wavelength, the turns within L: smooth = (L/wavelength − low_freq_factor) / "
            "(high_freq_factor − low_freq_factor).",
            "ru": "Вне промежутка между порогами ваши пары верны, но смешивание у вас линейно по длине волны: "
            "пара {pair} (длина волны в позициях — {wavelength}) получает {got}, а не {expected}. У Llama 3 "
            "оно линейно по L/длина волны, то есть по числу оборотов за L: smooth = (L/длина волны − "
            "low_freq_factor) / (high_freq_factor − low_freq_factor).",
        },
        "values": {
            "en": "For factor {factor}, low_freq_factor {low_factor}, high_freq_factor {high_factor} and L = {L}, "
            "pair {pair} (wavelength {wavelength} positions) gets {got}, Llama 3's rule gives {expected}.",
            "ru": "При factor {factor}, low_freq_factor {low_factor}, high_freq_factor {high_factor} и L = {L} "
            "пара {pair} (длина волны в позициях — {wavelength}) получает {got}, а правило Llama 3 даёт {expected}.",
        },
        "hint1": {
            "en": "Work with wavelengths: `wavelength = 2 * math.pi / inv_freq` is how many positions a pair "
            "takes for one turn. The thresholds are wavelengths too: L / high_freq_factor (short: fast "
            "pairs) and L / low_freq_factor (long: slow pairs).",
            "ru": "Работайте с длинами волн: `wavelength = 2 * math.pi / inv_freq` — столько позиций нужно "
            "паре на один оборот. Пороги — тоже длины волн: L / high_freq_factor (короткая волна, быстрые "
            "пары) и L / low_freq_factor (длинная волна, медленные пары).",
        },
        "hint2": {
            "en": "Three cases: wavelength below L / high_freq_factor: keep `inv_freq`; above "
            "L / low_freq_factor: `inv_freq / factor`; between: a blend of the two. `torch.where` does "
            "all pairs at once.",
            "ru": "Три случая: длина волны меньше L / high_freq_factor — оставить `inv_freq`; больше "
            "L / low_freq_factor — `inv_freq / factor`; между ними — смесь этих двух. `torch.where` "
            "обработает все пары сразу.",
        },
        "hint3": {
            "en": "The blend: `smooth = (L / wavelength - low_freq_factor) / (high_freq_factor - "
            "low_freq_factor)`, 0 at the slow end of the band and 1 at the fast end, and "
            "`(1 - smooth) * inv_freq / factor + smooth * inv_freq`.",
            "ru": "Смесь: `smooth = (L / wavelength - low_freq_factor) / (high_freq_factor - "
            "low_freq_factor)` — 0 у медленного края промежутка и 1 у быстрого, и "
            "`(1 - smooth) * inv_freq / factor + smooth * inv_freq`.",
        },
        "solution": {
            "en": "Wavelengths, the three cases with `torch.where`, and the blend between the two thresholds, "
            "as Meta's `apply_scaling` does it pair by pair.",
            "ru": "Длины волн, три случая через `torch.where` и смешивание между двумя порогами — то же, "
            "что функция `apply_scaling` из кода Meta делает пара за парой.",
        },
    },
)

TEMPLATE = """\
import math

import torch


def my_llama3_frequencies(
    inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings
):
    # en: inv_freq: (head_dim/2,), ω_i of each pair; returns the new ω'_i, the same shape
    # ru: inv_freq: (head_dim/2,), ω_i каждой пары; вернуть новые частоты ω'_i той же формы
    raise NotImplementedError
"""

SOLUTION = """\
import math

import torch


def my_llama3_frequencies(
    inv_freq, factor, low_freq_factor, high_freq_factor, original_max_position_embeddings
):
    L = original_max_position_embeddings
    wavelength = 2 * math.pi / inv_freq  # en: (head_dim/2,): positions per turn
    # ru: (head_dim/2,): позиций на один оборот
    smooth = (L / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    slow_or_between = torch.where(wavelength > L / low_freq_factor, inv_freq / factor, blended)
    return torch.where(wavelength < L / high_freq_factor, inv_freq, slow_or_between)
"""

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
        # Meta's loop appends each pair's frequency to a list; NumPy gives an array
        per_pair = isinstance(got, tuple | list) and len(got) == len(inv_freq)
        if per_pair or (isinstance(got, Foreign) and got.name == "ndarray"):
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
                wavelength=_number(2 * math.pi / float(inv_freq[pair])),
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
            "wavelength": _number(2 * math.pi / float(inv_freq[pair])),
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


EXERCISE = Exercise("llama3", 9, diagnose, TEMPLATE, SOLUTION, MESSAGES)
# what a lesson calls: exercises.<name>.check(...), .hint(n), .solution(), and the build's .template
check, hint, solution = EXERCISE.check, EXERCISE.hint, EXERCISE.solution
__getattr__ = EXERCISE.module_attribute  # .template, in the current language
