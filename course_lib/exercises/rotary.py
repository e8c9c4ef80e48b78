"""Lesson 8: rotary position embeddings (RoPE), written as two functions.

The student writes ``apply_rotary(x, positions, base)``, which turns each neighbouring pair
(2i, 2i+1) of a vector at position ``m`` by ``m * base^(-2i/head_dim)``, and ``rotate_qk(q, k, v, positions)``,
which prepares the inputs of attention with it. ``check`` takes either function and tells
them apart by their parameters: four or more (or one named ``v``) is ``rotate_qk``. Checking
``rotate_qk`` also checks the ``apply_rotary`` it calls (all but a hard-coded base, since
``rotate_qk`` passes none), so a lesson may check the two steps or only the last.
"""

import inspect

import torch

from ..core import model as core
from ..i18n import Messages, format_decimal, format_scientific
from .checks import (
    TOL,
    Feedback,
    Foreign,
    close,
    describe,
    feedback,
    first_difference,
    require_finite,
    require_function,
    require_tensor,
    wrong,
)
from .exercise import Exercise
from .runner import Run

MESSAGES = Messages(
    "rope",
    {
        "correct": (
            "Your `apply_rotary` turns each pair (2i, 2i+1) of a vector at position m by "
            "m · θ^(−2i/head_dim), in float64, and returns x's dtype. Now check `rotate_qk` the same way: "
            "`exercises.rotary.check(rotate_qk)`."
        ),
        "correct_qk": (
            "Queries and keys are rotated, the values left as they are: the score q_m · k_n now "
            "depends on m − n only, and attention still averages the tokens' own values. Well done!"
        ),
        "half_split": (
            "Your pairs are columns (i, i + head_dim/2), the `rotate_half` layout of GPT-NeoX and "
            "Hugging Face: the same rotations, in another layout, which a checkpoint fixes. This "
            "lesson pairs neighbours, (2i, 2i+1), as lesson 5's table does: `x[..., 0::2]` and "
            "`x[..., 1::2]`."
        ),
        "wrong_direction": (
            "Each pair turns the wrong way, by −angle: the sign of the sine is flipped. Scores "
            "would still depend on m − n, but a model trained with +angle would read every offset "
            "backwards. The pair (a, b) turned by +angle is (a·cos − b·sin, a·sin + b·cos), the "
            "complex product (a + jb)·e^(j·angle)."
        ),
        "exponent_i": (
            "The frequency of pair i uses i instead of 2i, so the frequencies fall too slowly. "
            "In θ^(−2i/head_dim), `torch.arange(0, head_dim, 2)` already gives 2i, while "
            "`torch.arange(head_dim // 2)` gives i, which you must double."
        ),
        "base_ignored": (
            "Your rotation uses base 10 000, but this call passed base = {base}: use the `base` "
            "argument in base ** (−2i / head_dim) rather than a fixed number."
        ),
        "positions_ignored": (
            "Your rotation uses positions 0, 1, 2, … instead of the `positions` argument, here "
            "{positions}. With a cache, a newly generated token keeps its true position even when "
            "it is alone in x: take the angles from `positions`."
        ),
        "same_angle": (
            "Every token is turned by the same angle, whatever its position, so the rotation "
            "carries no position at all. The angle of pair i at position m is m · "
            "θ^(−2i/head_dim): one row of angles per token, `positions[:, None] * inv_freq`, "
            "shape (seq, head_dim/2)."
        ),
        "dtype": (
            "x came in as {expected}, but the output is {got}. Compute in float64 if you like, "
            "but cast the result back at the end: `return out.to(x.dtype)`."
        ),
        "float64": (
            "With x in {dtype} at position {position}, your values are off by {err}: the "
            "angles were computed in too low a precision. There m · θ^(−2i/head_dim) is a large "
            "number, which float32 rounds by up to about 4e-3 near position 100 000 (half of "
            "float32's step of 1/128 there; lesson 6), and float16 far worse. Compute the angles, cos and sin in float64 (`positions.double()`) "
            "and cast only the result to `x.dtype`."
        ),
        "wrong_shape": "For {name} of shape {expected} the output must have the same shape; yours has shape {got}.",
        "mismatch": (
            "At batch row {row}, head {head}, position {position}, dimension {dim}, your output is "
            "{got}, but the rotation gives {expected}. That is the first value that differs."
        ),
        "modifies_input": (
            "The values are right, but your code changed the caller's `{name}` in place "
            "(`x[..., 0::2] = ...`): the vectors that came in are overwritten. Build a new tensor: "
            "`torch.stack((a * cos - b * sin, a * sin + b * cos), dim=-1).flatten(-2)`."
        ),
        "qk_not_triple": "`rotate_qk` must return three tensors, `(q, k, v)`, ready for attention; it returned {got}.",
        "keys_not_rotated": (
            "The queries are rotated, but the keys come back as they were. The score q_m · k_n "
            "depends on m − n only when both are turned by their positions: rotate k too."
        ),
        "rotated_values": (
            "The values are rotated as well as the queries and keys. RoPE turns q and k so that "
            "their score depends on m − n; the values are what attention then averages, and "
            "turning them by absolute positions would mix positions into the output. Return `v` "
            "untouched."
        ),
        "values_changed": (
            "The values come back changed: `rotate_qk` only prepares queries and keys, and "
            "returns `v` itself."
        ),
        "hint1": (
            "Pair neighbours: `a, b = x[..., 0::2], x[..., 1::2]` (pair i is coordinates 2i and "
            "2i+1). Pair i at position m turns by m · θ^(−2i/head_dim), θ = `base`: `two_i = torch.arange(0, "
            "head_dim, 2)`, `angle = positions[:, None] * base ** (-two_i / head_dim)`, of shape "
            "(seq, head_dim/2), which broadcasts over batch and heads."
        ),
        "hint2": (
            "Turn (a, b) by the angle: (a·cos − b·sin, a·sin + b·cos), the complex product (a + "
            "jb)·e^(j·angle). Put the pairs back side by side in a new tensor: "
            "`torch.stack((new_a, new_b), dim=-1).flatten(-2)`."
        ),
        "hint3": (
            "Near position 100 000 the angle is a large number that float32 rounds by up to ~4e-3: "
            "compute in float64 (`positions.double()`, `x.double()`) and return `.to(x.dtype)`. In "
            "`rotate_qk`, rotate q and k and return v as it is: attention averages the values, "
            "they carry no position."
        ),
        "solution": (
            "`apply_rotary` builds the angles, cos and sin in float64, turns each neighbouring "
            "pair and casts back to x's dtype; `rotate_qk` rotates only queries and keys."
        ),
    },
)


# all different; the positions of a cached generation, not 0..seq-1
_ROPE_SHAPE = (2, 3, 5, 8)  # (batch, heads, seq, head_dim)
_ROPE_POSITIONS = torch.tensor([2, 3, 5, 8, 13])
_ROPE_BASE = 500.0  # not the default, so that a hard-coded 10 000 shows
# far positions, where the angles need float64: float16 inputs (whose own rounding is ~1e-3) up to
# 999, float32 inputs near 100 000 (float32 rounds angles there by up to 1/256, ~4e-3)
_ROPE_PRECISION = (
    (torch.float16, torch.tensor([100, 300, 500, 700, 999]), 1e-2),
    (torch.float32, torch.tensor([99_990, 99_991, 99_995, 99_998, 100_000]), TOL),
)


def _inputs(count: int) -> list[torch.Tensor]:
    """``count`` different tensors of the check's shape, the same every run."""
    g = torch.Generator().manual_seed(8)
    return list(torch.randn(count, *_ROPE_SHAPE, generator=g).unbind(0))


def _rotated(x, positions, base, *, half=False, sign=1.0, two=2.0) -> torch.Tensor:
    """RoPE in float64 by the core's rotations, or the answer of a mistake: half-split pairs, -angle, i for 2i."""
    i = torch.arange(x.shape[-1] // 2, dtype=torch.float64)  # (head_dim/2,)
    # RoPE's angle m * base^(-2i/head_dim), or a mistaken one
    angle = sign * positions.double().unsqueeze(1) * base ** (-two * i / x.shape[-1])  # (seq, head_dim/2)
    rotate = core.rotate_halves if half else core.rotate_interleaved
    return rotate(x.double(), torch.cos(angle), torch.sin(angle))  # (batch, heads, seq, head_dim)


def _same_angle(got: torch.Tensor, x: torch.Tensor) -> bool:
    """Whether every position's pairs are turned by one rotation (the ratio of complex numbers)."""
    z = torch.complex(x[..., 0::2], x[..., 1::2])  # (batch, heads, seq, head_dim/2)
    ratio = torch.complex(got[..., 0::2], got[..., 1::2]) / z
    same = ratio[..., :1, :].expand_as(ratio)
    return bool(
        torch.allclose(ratio.abs(), torch.ones_like(ratio.abs()), atol=1e-3)
        and torch.allclose(ratio, same, atol=1e-3)
    )


def _rope_values(
    out,
    x: torch.Tensor,
    positions: torch.Tensor,
    base: float,
    name: str = "x",
    returned: str = "apply_rotary",
) -> None:
    """Checks ``out == RoPE(x)`` in x's dtype, or names the mistake that explains ``out`` (returned by ``returned``)."""
    out = require_tensor(out, returned)
    if out.shape != x.shape:
        raise wrong("rope.wrong_shape", name=name, expected=tuple(x.shape), got=tuple(out.shape))
    if out.dtype != x.dtype:
        raise wrong("rope.dtype", expected=x.dtype, got=out.dtype)
    got = out.detach().double()
    require_finite(got)
    expected = _rotated(x, positions, base)
    if close(got, expected):
        return
    seq = torch.arange(len(positions))
    candidates = {
        "rope.half_split": _rotated(x, positions, base, half=True),
        "rope.wrong_direction": _rotated(x, positions, base, sign=-1.0),
        "rope.exponent_i": _rotated(x, positions, base, two=1.0),
        "rope.base_ignored": _rotated(x, positions, 10000.0) if base != 10000.0 else None,
        "rope.positions_ignored": _rotated(x, seq, base),
    }
    for key, candidate in candidates.items():
        if candidate is not None and close(got, candidate):
            raise wrong(key, base=base, positions=positions.tolist())
    if _same_angle(got, x.double()):
        raise wrong("rope.same_angle")
    row, head, pos, dim = first_difference(got, expected)
    values = dict(row=row, head=head, position=int(positions[pos]), dim=dim)
    raise wrong(
        "rope.mismatch",
        got=format_decimal(float(got[row, head, pos, dim]), 4),
        expected=format_decimal(float(expected[row, head, pos, dim]), 4),
        **values,
    )


def _call(run: Run, student, tensors: dict[str, torch.Tensor], *rest) -> tuple:
    """The student's result for copies of ``tensors`` (then ``rest``), and the first tensor it changed in place."""
    name = getattr(student, "__name__", "apply_rotary")
    given = {key: t.clone() for key, t in tensors.items()}
    result = run.call(name, student, *given.values(), *rest, name=name)
    return result, next((key for key in tensors if not torch.equal(tensors[key], given[key])), None)


def _qk_triple(result) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    if (
        not isinstance(result, tuple | list)
        or len(result) != 3
        or not all(isinstance(t, torch.Tensor) for t in result)
    ):
        for t in result if isinstance(result, tuple | list) else ():
            if isinstance(t, Foreign) and t.kind in ("subclass", "meta"):
                require_tensor(t, "rotate_qk")  # names the subclass or the meta device
        raise wrong("rope.qk_not_triple", got=describe(result))
    return tuple(result)


def _check_precision(rotate, base: float) -> None:
    """``rotate(x, positions)`` at far positions, in float16 and float32: x's dtype, float64 angles."""
    (x,) = _inputs(1)
    for dtype, positions, tolerance in _ROPE_PRECISION:
        far = x.to(dtype)
        out = require_tensor(*rotate(far, positions))
        if out.shape != far.shape or out.dtype != dtype:
            _rope_values(out, far, positions, base)  # names the shape or dtype
        require_finite(out.detach().double())
        error = (
            out.detach().double() - _rotated(far, positions, base)
        ).abs()  # (batch, heads, seq, head_dim)
        if not error.max() <= tolerance:
            pos = int(error.amax(dim=(0, 1, 3)).argmax())
            err = format_scientific(float(error.max()), 1)  # 1.2e-03, 1,2·10⁻³
            raise wrong("rope.float64", dtype=dtype, position=int(positions[pos]), err=err)


def _check_apply(student, run: Run) -> Feedback:
    (x,) = _inputs(1)
    name = getattr(student, "__name__", "apply_rotary")
    out, changed = _call(run, student, {"x": x, "positions": _ROPE_POSITIONS}, _ROPE_BASE)
    _rope_values(out, x, _ROPE_POSITIONS, _ROPE_BASE, returned=name)
    if changed:
        raise wrong("rope.modifies_input", name=changed)
    _check_precision(
        lambda far, positions: (_call(run, student, {"x": far, "positions": positions}, _ROPE_BASE)[0], name),
        _ROPE_BASE,
    )
    return feedback("correct", "rope.correct")


def _check_qk(student, run: Run) -> Feedback:
    """rotate_qk, and through its queries all of apply_rotary but the base (rotate_qk passes none)."""
    q, k, v = _inputs(3)
    result, changed = _call(run, student, {"q": q, "k": k, "v": v, "positions": _ROPE_POSITIONS})
    q_out, k_out, v_out = _qk_triple(result)
    _rope_values(q_out, q, _ROPE_POSITIONS, 10000.0, name="q")
    if close(k_out.detach().double(), k.double()):
        raise wrong("rope.keys_not_rotated")
    _rope_values(k_out, k, _ROPE_POSITIONS, 10000.0, name="k")
    if not close(v_out.detach().double(), v.double()):
        if close(v_out.detach().double(), _rotated(v, _ROPE_POSITIONS, 10000.0)):
            raise wrong("rope.rotated_values")
        raise wrong("rope.values_changed")
    if changed:
        raise wrong("rope.modifies_input", name=changed)

    def queries(far: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        tensors = {"q": far, "k": far.flip(-1), "v": far.flip(-2), "positions": positions}
        return _qk_triple(_call(run, student, tensors)[0])[0], "rotate_qk"

    _check_precision(queries, 10000.0)
    return feedback("correct", "rope.correct_qk")


def _is_rotate_qk(student) -> bool:
    """``rotate_qk(q, k, v, positions)`` rather than ``apply_rotary(x, positions, base)``."""
    try:
        parameters = inspect.signature(student).parameters
    except (TypeError, ValueError):
        return False
    positional = [p for p in parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    return "v" in parameters or len(required) >= 4


def diagnose(student, run: Run) -> Feedback:
    require_function(student)
    return _check_qk(student, run) if run.inspect(_is_rotate_qk, student) else _check_apply(student, run)


EXERCISE = Exercise("rotary", 8, diagnose, MESSAGES)
# what a lesson calls: exercises.<name>.check(...), .hint(n), .solution(), and the build's .template
check, hint, solution = EXERCISE.check, EXERCISE.hint, EXERCISE.solution
__getattr__ = EXERCISE.module_attribute  # .template, in the current language
