"""What every exercise's check uses: the verdict (:class:`Feedback`), the course-wide messages of the
checkers, and the ways checkers compare outputs.

A checker is a function ``diagnose(student, run) -> Feedback`` in the exercise's own module.
``student`` is a :class:`~course_lib.exercises.runner.Handle`: the student's object stays in the
child process where ``run`` (a :class:`~course_lib.exercises.runner.Run`) runs the student's
code, and the checker gets back plain values only. It may end early with ``raise wrong(key, ...)``.
"""

from dataclasses import dataclass, field

import torch
from torch import nn

from ..i18n import resolve, tr
from .messages import MESSAGES

__all__ = [
    "MESSAGES",
    "STATUSES",
    "TOL",
    "Feedback",
    "Markdown",
    "Foreign",
    "Stop",
    "feedback",
    "wrong",
    "message",
    "close",
    "same",
    "first_difference",
    "randn",
    "describe",
    "type_name",
    "require_tensor",
    "require_function",
    "require_finite",
    "require_module_class",
    "plain_tensors",
]

STATUSES = ("correct", "incorrect", "not_attempted")

# icon and colours of each status, as GitHub draws success, failure and notes: the colour for a white
# page (at least 5:1 on white), and a middle tone of the same hue (GitHub's for a dark page) that a
# verdict mixes with the text colour around it: darker on a light page, lighter on a dark one
LOOK = {
    "correct": ("✔", "#1a7f37", "#2da44e"),
    "incorrect": ("✘", "#cf222e", "#e5534b"),
    "not_attempted": ("✎", "#0969da", "#4184e4"),
}

# Absolute and relative tolerance of every value comparison: far above float32 rounding of
# a table computed in float32 (~1e-6 here), far below the smallest difference between the
# right answer and a mistake (~1e-2).
TOL = 1e-4


def message(key: str, lang: str | None = None, /, **values) -> str:
    """The text of a diagnosis: ``"pe.halves"`` is the exercise's own, ``"timeout"`` is shared."""
    return tr(key, lang, **values) if "." in key else MESSAGES(key, lang, **values)


# ----------------------------------------------------------------------------- what a check returns


@dataclass(frozen=True)
class Feedback:
    """The verdict of a check.

    Attributes:
        status: ``"correct"``, ``"incorrect"`` or ``"not_attempted"``.
        key: which diagnosis, stable across languages and versions, e.g. ``"pe.sin_cos_swapped"``.
        message: what to do about it, in the language that was current when the check ran.
        title: the status in words, in the same language ("Correct", "Верно", ...).
        values: the numbers and names filled into the message.
    """

    status: str
    key: str
    message: str
    title: str = field(repr=False)
    values: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")

    def _repr_markdown_(self) -> str:
        """The verdict in its status's colour, readable (at least 4.5:1) on a light page and a dark one.

        The colour, in order of what the page allows: the property ``--course-verdict-<status>`` where
        the page sets one (the site, per theme: course_tools/publish/site_theme/_static/course-site.css); else
        the status's middle tone mixed 70:30 with the text colour around it (JupyterLab's light and dark
        themes, the decks: at least 5:1 on white under JupyterLab's text, 7:1 on its dark theme's
        #111); where neither ``var()`` nor ``color-mix()`` survives (JupyterLab's sanitizer, in a
        notebook it does not trust, keeps plain colours only), the white page's colour.
        """
        icon, light, middle = LOOK[self.status]
        status = self.status.replace("_", "-")
        colour = f"var(--course-verdict-{status},color-mix(in srgb,{middle} 70%,currentColor))"
        return (
            f'<span class="course-verdict course-verdict-{status}" style="color:{light};color:{colour}">'
            f"<b>{icon} {self.title}.</b></span> {self.message}"
        )

    def __repr__(self) -> str:
        # the plain line a notebook stores (text/plain) and a console prints: the same words as the
        # Markdown, all in the lesson's language; the key, an English code, stays data (``.key``)
        icon = LOOK[self.status][0]
        return f"{icon} {self.title}. {self.message}"


class Markdown:
    """Text that a notebook renders as Markdown and a console prints as it is."""

    def __init__(self, text: str):
        self.text = text

    def _repr_markdown_(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text


def feedback(status: str, key: str, suffix: str = "", **values) -> Feedback:
    """The verdict ``key`` with its message in the current language (and ``suffix`` after it)."""
    return Feedback(status, key, message(key, **values) + suffix, MESSAGES(f"status.{status}"), values)


class Stop(Exception):
    """Ends a check early with its verdict; ``error`` is the student's exception, if any."""

    def __init__(self, verdict: Feedback, error: BaseException | None = None):
        super().__init__(verdict.key)
        self.feedback = verdict
        self.error = error


def wrong(key: str, **values) -> Stop:
    """``raise wrong("pe.halves", ...)`` ends a check with the diagnosis ``key``."""
    return Stop(feedback("incorrect", key, **values))


# ----------------------------------------------------------------------------- comparing outputs


def close(got: torch.Tensor, expected: torch.Tensor) -> bool:
    return got.shape == expected.shape and torch.allclose(got, expected, rtol=TOL, atol=TOL)


def same(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bit for bit the same, NaN included: two calls of a deterministic module."""
    return a.shape == b.shape and torch.allclose(a, b, rtol=0, atol=0, equal_nan=True)


def first_difference(got: torch.Tensor, expected: torch.Tensor) -> tuple[int, ...]:
    """The index of the first element (row-major order) where two same-shaped tensors differ."""
    differs = ~torch.isclose(got, expected, rtol=TOL, atol=TOL)
    return tuple(int(i) for i in differs.nonzero()[0])


def randn(*shape: int) -> torch.Tensor:
    """Inputs of a check: a generator of their own, so the same whatever the student drew before."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(sum(shape)))


@dataclass(frozen=True)
class Foreign:
    """What came back from the student's code in place of a plain value: a tensor subclass
    (``kind="subclass"``), a tensor on the meta device (``"meta"``), an object of another class
    (``"object"``), or too much (``"too_large"``); ``name`` is its class's name."""

    kind: str
    name: str


def describe(value) -> str:
    """A short, language-neutral description of what the student's code returned.

    >>> describe([1.0, 2.0]), describe([0.5] * 64), describe(None)
    ('`(float, float)`', '`list` (64 × `float`)', '`None`')
    """
    if isinstance(value, Foreign):
        return f"`{value.name}`"
    if isinstance(value, torch.Tensor):
        return f"`Tensor` {tuple(value.shape)}"
    if isinstance(value, tuple | list):
        names = [type_name(v) for v in value]
        if len(names) > 4 and len(set(names)) == 1:  # 64 floats: their count, not 64 names
            return f"`{type(value).__name__}` ({len(names)} × `{names[0]}`)"
        return "`(" + ", ".join(names) + ")`"
    return f"`{type_name(value)}`" if value is not None else "`None`"


def type_name(value) -> str:
    """The name of the class of what the student's code returned (a :class:`Foreign` names its own)."""
    return value.name if isinstance(value, Foreign) else type(value).__name__


def require_tensor(out, name: str = "forward") -> torch.Tensor:
    """``out`` if it is a tensor; else the verdict that says what ``name`` returned instead."""
    if isinstance(out, Foreign) and out.kind == "subclass":
        raise wrong("tensor_subclass", name=name, type_name=out.name)
    if isinstance(out, Foreign) and out.kind == "meta":
        raise wrong("meta_tensor", name=name)
    if not isinstance(out, torch.Tensor):
        raise wrong("not_tensor", name=name, got=describe(out))
    return out


def require_finite(got: torch.Tensor) -> None:
    """Every value a number: an ``inf`` or ``nan`` gets its own verdict, not a misleading one."""
    bad = ~torch.isfinite(got)
    if bad.any():
        index = tuple(int(i) for i in bad.nonzero()[0])
        row, pos, dim = (index + (0, 0, 0))[:3]
        raise wrong("nonfinite", value=str(float(got[index])), row=row, pos=pos, dim=dim)


def require_module_class(student) -> None:
    """``student`` (a runner's Handle) must be an ``nn.Module`` subclass, not an instance."""
    facts = student.facts
    if facts["is_module"]:
        raise wrong("instance_not_class", name=facts["type_name"])
    if not facts["is_class"]:
        raise wrong("not_a_class", type_name=facts["type_name"])
    if not facts["is_module_class"]:
        raise wrong("not_module", name=facts["name"])


def require_function(student) -> None:
    """``student`` (a runner's Handle) must be a function, not a class."""
    if student.facts["is_class"] or not student.facts["callable"]:
        raise wrong("not_a_function", type_name=student.facts["type_name"])


def plain_tensors(module: nn.Module, last_dim: int) -> list[str]:
    """Names of tensors kept as plain attributes (neither parameters nor buffers) ending in last_dim."""
    return [
        f"{prefix}.{name}".lstrip(".")
        for prefix, sub in module.named_modules()
        for name, value in vars(sub).items()
        if isinstance(value, torch.Tensor) and value.dim() >= 2 and value.shape[-1] == last_dim
    ]


def status_title(status: str, lang: str | None = None) -> str:
    """ "Correct", "Not yet", ... in ``lang``."""
    return MESSAGES(f"status.{status}", resolve(lang))
