"""Lesson 8: ALiBi's bias for a causal model, for any number of heads.

The student writes ``my_alibi_bias(num_heads, seq_len)``: a tensor ``(num_heads, seq_len,
seq_len)`` whose entry ``[h, m, n]`` is ``-s_h (m - n)`` for a key ``n <= m`` and ``-inf`` for
a key after the query, ready to be added to the scores. The check calls it for 8 heads (a
power of two) and for 12 (the paper's rule for the others), on 7 positions, and reads the
slopes back from the answer, so a diagnosis can say which slope is wrong and why: the sign,
the mask, an off-by-one in the distance, the order of the heads, the rule for other head counts.
"""

import math

import torch

from ..i18n import Messages, format_number
from ..rotary import alibi_bias, alibi_slopes
from .checks import Feedback, describe, feedback, require_function, require_tensor, wrong
from .exercise import Exercise
from .runner import Run

MESSAGES = Messages(
    "alibi",
    {
        "correct": (
            "Your bias is ALiBi's for 8 and for 12 heads: slopes from `2^(-8/H)`, a penalty "
            "s_h·(m − n) for each key before the query, and −inf for the keys after it."
        ),
        "shape": (
            "For {heads} heads and {seq} positions your function returned {got}; the bias "
            "is added to scores (batch, heads, seq, seq), so it must be ({heads}, {seq}, {seq}): "
            "head, query m, key n."
        ),
        "not_float": (
            "Your bias has dtype {dtype}: it holds fractions like 1/256 and −inf, so it "
            "must be a floating-point tensor (float32)."
        ),
        "no_mask": (
            "Query {i} gets a finite bias, {value}, for key {j}, which comes after it. A "
            "causal model must not see the future: put −inf at every n > m, so that softmax "
            "gives those keys weight 0."
        ),
        "finite_mask": (
            "Query {i} gets {value} for key {j}, which comes after it, not −inf. That works in "
            "practice, and much code masks so (`torch.finfo(dtype).min`): softmax gives the key a "
            "weight that rounds to 0. This exercise asks for −inf at every n > m: added to any "
            "score it stays −inf, so the weight is exactly 0."
        ),
        "symmetric": (
            "Your bias is the symmetric −s_h·|m − n| that an encoder uses: query {i} gets "
            "{value} for key {j}, which comes after it. A causal model must not see the future: "
            "keep −s_h·(m − n) for n ≤ m and put −inf at every n > m."
        ),
        "masked_diagonal": (
            "Your bias is −inf on the diagonal, n = m: each query would not see its own "
            "token. Mask only the keys after the query, n > m; the distance to itself is 0, "
            "and so is its penalty."
        ),
        "masked_past": (
            "Query {i} gets −inf for key {j}, which comes before it: ALiBi never hides a "
            "past key, it only lowers its score, the more the further back it is."
        ),
        "offset": (
            "For query {i} and its own key, n = m, your bias is {value}, not 0. The distance "
            "from a token to itself is 0, and so is its penalty −s_h·(m − n). An off-by-one (m − n + 1, "
            "or positions counted from 1 for the queries only) shifts every entry by one slope."
        ),
        "sign": (
            "Your bias for key {j} of query {i} is {value}, above 0: a bonus for distance. "
            "ALiBi's is a penalty, −s_h·(m − n), below 0 for every key before the query, so "
            "that near keys win when the contents are equal."
        ),
        "not_linear": (
            "In head {head} your bias is not −s_h·(m − n): at distance 1 it is "
            "{one}, at distance {d} it is {value}, not {expected}. The penalty grows linearly "
            "with the distance m − n, the same slope at every distance."
        ),
        "slopes_reversed": (
            "Your slopes for {heads} heads are ALiBi's in reverse order: head 1 must be "
            "the steepest, `2^(-8/{heads})` = {first}, and each next one smaller."
        ),
        "slopes_from_one": (
            "Your slopes for {heads} heads start at 1: h runs from 1, not from 0, so "
            "the first slope is `2^(-8/{heads})` = {first} and the last `2^(-8)` = 1/256."
        ),
        "slopes_not_power_of_two": (
            "For 8 heads your slopes are right; for {heads}, not a power of two, you used "
            "`2^(-8h/{heads})`. The paper's code takes the {closest} slopes of {closest} heads, then "
            "every other slope of {double} heads (the 1st, 3rd, ...) until there are {heads}: "
            "the first extra one is {extra}."
        ),
        "slopes_extra": (
            "For {heads} heads your first {closest} slopes are right, those of {closest} heads, "
            "but head {head} has {got}, not {expected}. The paper's code takes the other {rest} "
            "from the slopes of {double} heads, every other one starting with the first (the 1st, "
            "3rd, 5th, ...): the even ones would repeat slopes you already have."
        ),
        "slopes_rounded_up": (
            "For {heads} heads you took the first {heads} slopes of {double} heads, the next "
            "power of two: head 1 gets {got} instead of `2^(-8/{closest})` = {first}. The paper's "
            "code rounds down: all {closest} slopes of {closest} heads first, then every other "
            "slope of {double} heads (the 1st, 3rd, ...) until there are {heads}."
        ),
        "slopes": (
            "For {heads} heads your slope of head {head} is {got}, ALiBi's is {expected} "
            "(read from your bias at query 1, key 0). The slopes are `2^(-8h/H)`, h = 1 .. H, "
            "for H a power of two."
        ),
        "hint1": (
            "Slopes first. For H heads, H a power of two, s_h = `2^(-8h/H)` for h = 1 .. H: "
            "8 heads get 1/2, 1/4, ..., 1/256. For other H, take the slopes of the closest power "
            "of two below, H', then every other slope of 2H' (the 1st, 3rd, ...) until you have H."
        ),
        "hint2": (
            "Then the distances by broadcasting: `m = torch.arange(seq_len)[:, None]` (the "
            "query) and `n = torch.arange(seq_len)[None, :]` (the key) give `m - n`, shape (seq, "
            "seq); multiply by the slopes shaped (heads, 1, 1) and negate it."
        ),
        "hint3": (
            "Last, the causal mask: `bias.masked_fill(n > m, float('-inf'))`. Only the "
            "keys after the query are masked; the diagonal, the query's own token, keeps 0."
        ),
        "solution": (
            "The slopes by the paper's rule, the penalty −s_h·(m − n) by broadcasting, and "
            "−inf after the query."
        ),
    },
)


HEADS = (8, 12)  # a power of two, then the paper's rule for the others
SEQ = 7  # neither head count, so that swapped axes show
FINITE_MASK = -1e4  # below any penalty of SEQ positions (|m (i - j)| <= 3): a masking number


def reference(num_heads: int, seq_len: int) -> torch.Tensor:
    """The right answer: ``alibi_bias`` with ``-inf`` above the diagonal, ``(heads, seq, seq)``."""
    future = torch.ones(seq_len, seq_len, dtype=torch.bool).triu(1)  # (seq, seq): j > i
    return alibi_bias(num_heads, seq_len).masked_fill(future, -math.inf)


def _number(x: float) -> str:
    """``x`` with 4 significant digits, as the current language writes it: 0.7071, 0,7071; −inf."""
    return "−inf" if x == -math.inf else format_number(x, ".4g")


def _check_mask(got: torch.Tensor, heads: int) -> None:
    """−inf exactly after each query, nowhere else."""
    seq = got.shape[-1]
    i, j = torch.arange(seq)[:, None], torch.arange(seq)[None, :]
    minus_inf = got == -math.inf  # (heads, seq, seq)
    if minus_inf.diagonal(dim1=-2, dim2=-1).any():
        raise wrong("alibi.masked_diagonal")
    past = minus_inf & (j < i)
    if past.any():
        _, qi, kj = (int(v) for v in past.nonzero()[0])
        raise wrong("alibi.masked_past", i=qi, j=kj)
    open_future = ~minus_inf & (j > i)
    if open_future.any():
        h, qi, kj = (int(v) for v in open_future.nonzero()[0])
        if (got[open_future] <= FINITE_MASK).all():  # -1e9, finfo.min: a mask, but not -inf
            raise wrong("alibi.finite_mask", i=qi, j=kj, value=_number(float(got[h, qi, kj])))
        symmetric = torch.allclose(got, alibi_bias(heads, seq).to(got.dtype), atol=1e-6)
        key = "alibi.symmetric" if symmetric else "alibi.no_mask"
        raise wrong(key, i=qi, j=kj, value=_number(float(got[h, qi, kj])))


def _slopes_of(got: torch.Tensor) -> torch.Tensor:
    """The slope each head of the student's bias has: ``-bias[h, 1, 0]``, after checking it is linear."""
    seq = got.shape[-1]
    diagonal = got.diagonal(dim1=-2, dim2=-1)  # (heads, seq): each query's own key, distance 0
    if (diagonal.abs() > 1e-6).any():
        h, qi = (int(v) for v in (diagonal.abs() > 1e-6).nonzero()[0])
        raise wrong("alibi.offset", i=qi, value=_number(float(diagonal[h, qi])))
    below = torch.ones(seq, seq, dtype=torch.bool).tril(-1)  # j < i
    positive = (got > 0) & below
    if positive.any():
        h, qi, kj = (int(v) for v in positive.nonzero()[0])
        raise wrong("alibi.sign", i=qi, j=kj, value=_number(float(got[h, qi, kj])))
    slopes = -got[:, 1, 0].double()  # (heads,)
    distance = (torch.arange(seq)[:, None] - torch.arange(seq)[None, :]).double()  # (seq, seq): i - j
    expected = -slopes[:, None, None] * distance  # (heads, seq, seq)
    seen = below | torch.eye(seq, dtype=torch.bool)  # j <= i: the masked keys were checked already
    ok = torch.isclose(got.double(), expected, rtol=1e-4, atol=1e-6) | ~seen
    if not ok.all():
        h, qi, kj = (int(v) for v in (~ok).nonzero()[0])
        raise wrong(
            "alibi.not_linear",
            head=h + 1,
            one=_number(float(got[h, 1, 0])),
            d=qi - kj,
            value=_number(float(got[h, qi, kj])),
            expected=_number(float(expected[h, qi, kj])),
        )
    return slopes


def _check_slopes(slopes: torch.Tensor, heads: int) -> None:
    right = alibi_slopes(heads, dtype=torch.float64)  # (heads,)
    if torch.allclose(slopes, right, rtol=1e-4):
        return
    first = _number(float(right[0]))
    if torch.allclose(slopes, right.flip(0), rtol=1e-4):
        raise wrong("alibi.slopes_reversed", heads=heads, first=first)
    h = torch.arange(heads, dtype=torch.float64)  # 0 .. heads - 1
    if torch.allclose(slopes, torch.exp2(-8 * h / heads), rtol=1e-4):
        raise wrong("alibi.slopes_from_one", heads=heads, first=first)
    closest = 1 << (heads.bit_length() - 1)  # the power of two at or below heads
    if torch.allclose(slopes, torch.exp2(-8 * (h + 1) / heads), rtol=1e-4):  # right only for powers of two
        extra = _number(float(right[closest]))
        raise wrong(
            "alibi.slopes_not_power_of_two", heads=heads, closest=closest, double=2 * closest, extra=extra
        )
    head = int((~torch.isclose(slopes, right, rtol=1e-4)).nonzero()[0])
    if closest < heads:
        double = alibi_slopes(2 * closest, dtype=torch.float64)  # (2 closest,)
        if torch.allclose(slopes, double[:heads], rtol=1e-4):
            raise wrong(
                "alibi.slopes_rounded_up",
                heads=heads,
                closest=closest,
                double=2 * closest,
                got=_number(float(slopes[0])),
                first=_number(float(right[0])),
            )
        if head >= closest:  # the first closest slopes are right, the extra ones are not
            raise wrong(
                "alibi.slopes_extra",
                heads=heads,
                closest=closest,
                double=2 * closest,
                rest=heads - closest,
                head=head + 1,
                got=_number(float(slopes[head])),
                expected=_number(float(right[head])),
            )
    raise wrong(
        "alibi.slopes",
        heads=heads,
        head=head + 1,
        got=_number(float(slopes[head])),
        expected=_number(float(right[head])),
    )


def diagnose(student, run: Run) -> Feedback:
    require_function(student)
    name = getattr(student, "__name__", "my_alibi_bias")
    for heads in HEADS:
        got = require_tensor(run.call(name, student, heads, SEQ, name=name))
        if tuple(got.shape) != (heads, SEQ, SEQ):
            raise wrong("alibi.shape", heads=heads, seq=SEQ, got=describe(got))
        if not got.is_floating_point():
            raise wrong("alibi.not_float", dtype=str(got.dtype).removeprefix("torch."))
        got = got.detach().cpu()
        _check_mask(got, heads)
        _check_slopes(_slopes_of(got), heads)
    return feedback("correct", "alibi.correct")


EXERCISE = Exercise("alibi", 8, diagnose, MESSAGES)
# what a lesson calls: exercises.<name>.check(...), .hint(n), .solution(), and the build's .template
check, hint, solution = EXERCISE.check, EXERCISE.hint, EXERCISE.solution
__getattr__ = EXERCISE.module_attribute  # .template, in the current language
