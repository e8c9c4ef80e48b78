"""Lesson 4: test whether a function of a sequence is permutation-equivariant.

The student writes ``is_equivariant(f, x, perm) -> bool``; the check runs it on a suite of
functions (attention with and without positions, a running sum, ...) whose answers are known.
"""

import math
import random
import types

import torch

from ..embedding import sinusoidal_table
from ..i18n import Messages
from .checks import Feedback, describe, feedback, randn, require_function, wrong
from .exercise import Exercise
from .runner import Run

MESSAGES = Messages(
    "perm",
    {
        "correct": (
            "Your test gives the right answer for all {count} functions, equivariant or not. "
            "Self-attention without positions is permutation-equivariant; with positional "
            "encodings added, it no longer is."
        ),
        "not_bool": (
            "Your function must return True or False; it returned {got}. A tensor of many "
            "values, like `a == b`, has to be reduced to one answer: `torch.allclose(a, b)`."
        ),
        "exact_equality": (
            "Your test says that `{fn}` is not equivariant, but it is: the same numbers "
            "summed in another order differ in the last bits (float32 rounding), so an exact "
            "comparison (`torch.equal`, `==`) fails. Compare with a tolerance: "
            "`torch.allclose(a, b, atol=1e-6)`."
        ),
        "invariance": (
            "You compare f(x[:, perm]) with f(x) itself, so `{fn}` fails your test. "
            "Equivariance means that the output is permuted together with the input: compare "
            "with f(x)[:, perm]. (An output that does not change at all is invariance, a "
            "different property.)"
        ),
        "wrong_axis": (
            "Your test calls every function equivariant, even `{fn}`, which is not. Does the "
            "permutation go to the right axis? Tokens are on axis 1 of x, (batch, seq, "
            "d_model): `x[:, perm]`, not `x[perm]`, which permutes the batch."
        ),
        "token_summary": (
            "Your test calls `{fn}` equivariant, but it only reverses the order of the tokens: "
            "f(x[:, perm]) and f(x)[:, perm] hold the same tokens in different orders. A summary over "
            "the tokens (their sum, their mean, their sorted norms) does not see the order, so it cannot "
            "tell the two apart. Compare the outputs position by position: "
            "`torch.allclose(a, b, atol=1e-6)`."
        ),
        "f_never_called": (
            "Your function gives the right answers, but for `{fn}` it never called f. "
            "The answer has to come from f itself: compute `f(x[:, perm])` and `f(x)[:, perm]` and "
            "compare them."
        ),
        "mismatch": "For f = `{fn}` your function returned {got}, but the right answer is {expected}.",
        "hint1": (
            "f is permutation-equivariant if permuting the tokens and then applying f gives "
            "the same as applying f and then permuting its output: f(x[:, perm]) = f(x)[:, "
            "perm]. The tokens are on axis 1."
        ),
        "hint2": (
            "Compute both sides, `permute_then_f = f(x[:, perm])` and `f_then_permute = "
            "f(x)[:, perm]`, and compare them."
        ),
        "hint3": (
            "Compare with a tolerance, `torch.allclose(a, b, atol=1e-6)`, not with "
            "`torch.equal` or `==`: the same numbers summed in another order round "
            "differently in float32. `torch.allclose` already returns a Python bool."
        ),
        "solution": (
            "Apply f before and after permuting the tokens (axis 1) and compare the two with a tolerance."
        ),
    },
)


def attention(x):
    """Self-attention without weights or positions: softmax(x x^T / sqrt(d)) x. Equivariant."""
    scores = x @ x.transpose(1, 2) / math.sqrt(x.size(-1))  # (batch, seq, seq)
    return torch.softmax(scores, dim=-1) @ x  # (batch, seq, d_model)


def attention_with_positions(x):
    """The same attention after adding the positional encoding. Not equivariant."""
    return attention(x + sinusoidal_table(x.size(1), x.size(2)))


def running_sum(x):
    """Each token plus all tokens before it. Not equivariant: order matters."""
    return torch.cumsum(x, dim=1)


def mean_context(x):
    """Each token plus the mean of its sequence. Equivariant, but only up to float32 rounding:
    summed one token after the other, the same numbers in another order round differently."""
    total = x[:, 0]
    for t in range(1, x.size(1)):
        total = total + x[:, t]
    return x + total.unsqueeze(1) / x.size(1)


def max_over_tokens(x):
    """The largest value over the sequence, at every position. Equivariant and invariant."""
    return x.amax(dim=1, keepdim=True).expand_as(x)


def tanh(x):
    """Token by token. Equivariant, exactly."""
    return torch.tanh(x)


def reverse_tokens(x):
    """The tokens in reverse order. Not equivariant; yet its output holds the same tokens whatever
    the input's order, so a test that compares a summary over the tokens (a sum, sorted norms)
    calls it equivariant."""
    return x.flip(1)


SUITE = (
    attention,
    mean_context,
    attention_with_positions,
    running_sum,
    max_over_tokens,
    tanh,
    reverse_tokens,
)
# batch > seq, so that permuting the batch axis by mistake runs (and is caught) instead of crashing;
# the permutation is a 5-cycle, not its own inverse
_PERM_BATCH, _PERM_SEQ, _PERM_D = 7, 5, 8
_PERM = torch.tensor([2, 0, 3, 4, 1])


def _perm_answers(compare, permute_axis: int = 1) -> list[bool]:
    """What ``is_equivariant`` answers for each function of the suite, given its ``compare``."""
    x = randn(_PERM_BATCH, _PERM_SEQ, _PERM_D)
    index = (slice(None),) * permute_axis + (_PERM,)
    return [bool(compare(f(x[index]), f(x)[index], f(x))) for f in SUITE]


def mistakes() -> dict[str, list[bool]]:
    """The answers of the right test and of the usual wrong ones."""
    return {
        "correct": _perm_answers(lambda a, b, _: torch.allclose(a, b, atol=1e-6)),
        "perm.exact_equality": _perm_answers(lambda a, b, _: torch.equal(a, b)),
        "perm.invariance": _perm_answers(lambda a, _, unpermuted: torch.allclose(a, unpermuted, atol=1e-6)),
        "perm.wrong_axis": _perm_answers(lambda a, b, _: torch.allclose(a, b, atol=1e-6), permute_axis=0),
        "perm.token_summary": _perm_answers(lambda a, b, _: torch.allclose(a.sum(1), b.sum(1), atol=1e-5)),
    }


def _anonymous(fn):
    """``fn`` as a function called ``f``: its name, qualified name and docstring give nothing away."""
    code = fn.__code__.replace(co_name="f", co_qualname="f")
    anonymous = types.FunctionType(code, fn.__globals__, "f", fn.__defaults__, fn.__closure__)
    anonymous.__qualname__, anonymous.__doc__ = "f", None
    return anonymous


_ANONYMOUS = tuple(_anonymous(fn) for fn in SUITE)
_MAX_SEEN = 16  # the inputs f keeps of one check of one function


class Function:
    """One function of the suite as the student's code gets it: called ``f``, without a name, a
    docstring or an index that would give the answer away (the suite's order is shuffled on
    every check too), keeping the inputs it was called on.

    The function runs where the student's code runs, so a determined student can still tell it
    apart (by its code, or by comparing its outputs with the suite's); what the check asks in
    addition is that the answer come from f: f called at least once (:func:`_answer`).
    """

    __slots__ = ("_f", "_seen")

    def __init__(self, fn):
        self._f = fn
        self._seen = []

    def __reduce__(self):  # in the child the function is rebuilt from its place in the suite
        return (_function, (_ANONYMOUS.index(self._f),))

    def __call__(self, x):
        if len(self._seen) < _MAX_SEEN and isinstance(x, torch.Tensor):
            self._seen.append(x.detach().clone())
        return self._f(x)

    def __repr__(self) -> str:
        return "<function f>"

    __name__ = "f"
    __doc__ = None


def _function(place: int) -> Function:
    return Function(_ANONYMOUS[place])


def _seen(inputs: list, x: torch.Tensor, perm: torch.Tensor) -> str:
    """Which of x and x[:, perm] f was applied to: "both", "x", "permuted", "other" or "none"."""

    def among(target) -> bool:
        return any(
            t.shape == target.shape and t.dtype == target.dtype and torch.allclose(t, target, atol=1e-6)
            for t in inputs
        )

    if not inputs:
        return "none"
    on_x, on_permuted = among(x), among(x[:, perm])
    return {(True, True): "both", (True, False): "x", (False, True): "permuted"}.get(
        (on_x, on_permuted), "other"
    )


def _answer(student, f: Function, x: torch.Tensor, perm: torch.Tensor):
    """In the child: the student's answer for ``f``, and what ``f`` was applied to."""
    given, order = x.clone(), perm.clone()
    answer = student(f, x, perm)
    return answer, _seen(f._seen, given, order)


def _as_bool(answer) -> bool:
    if isinstance(answer, torch.Tensor) and answer.numel() == 1 and answer.dtype == torch.bool:
        return bool(answer)
    if type(answer).__name__ in {"bool", "bool_"}:  # Python's bool or numpy's
        return bool(answer)
    raise wrong("perm.not_bool", got=describe(answer))


def diagnose(student, run: Run) -> Feedback:
    require_function(student)
    name = getattr(student, "__name__", "is_equivariant")
    x = randn(_PERM_BATCH, _PERM_SEQ, _PERM_D)
    order = random.SystemRandom().sample(range(len(SUITE)), len(SUITE))
    answers = [None] * len(SUITE)
    seen = [None] * len(SUITE)
    for i in order:
        answer, seen[i] = run.call(
            name, _answer, student, Function(_ANONYMOUS[i]), x.clone(), _PERM.clone(), name=name
        )
        answers[i] = _as_bool(answer)
    known = mistakes()
    right = known.pop("correct")
    if answers == right:
        # right answers for a function it never called came from elsewhere (its code, the suite's
        # order); f applied to anything counts: a test of its own (other inputs, another dtype, more
        # permutations first) is as right as the lesson's
        blind = next((i for i, s in enumerate(seen) if s == "none"), None)
        if blind is not None:
            raise wrong("perm.f_never_called", fn=SUITE[blind].__name__)
        return feedback("correct", "perm.correct", count=len(right))
    first = next(i for i, (a, r) in enumerate(zip(answers, right, strict=True)) if a != r)
    fn = SUITE[first].__name__
    for key, pattern in known.items():
        if answers == pattern:
            raise wrong(key, fn=fn)
    raise wrong("perm.mismatch", fn=fn, expected=right[first], got=answers[first])


EXERCISE = Exercise("permutation", 4, diagnose, MESSAGES)
# what a lesson calls: exercises.<name>.check(...), .hint(n), .solution(), and the build's .template
check, hint, solution = EXERCISE.check, EXERCISE.hint, EXERCISE.solution
__getattr__ = EXERCISE.module_attribute  # .template, in the current language
