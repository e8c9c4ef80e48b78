"""Exercises with instant feedback: ``check``, ``hint`` and ``solution``, in English and Russian.

Every exercise of the course is an :class:`Exercise`::

    from course_lib import exercises
    exercises.positional_encoding.check(MyPositionalEncoding)  # a verdict that names the mistake
    exercises.positional_encoding.hint(1)                      # hints 1, 2, 3: each says a bit more
    exercises.positional_encoding.solution()                   # the reference code

=======================  ======  ===================================================
exercise                 lesson  what the student writes
=======================  ======  ===================================================
``pad_batch``            1       ``my_pad(seqs, pad_id) -> (ids, mask)``
``token_embedding``      2       ``MyTokenEmbedding(vocab_size, d_model)``
``permutation``          3       ``is_equivariant(f, x, perm) -> bool``
``positional_encoding``  4       ``MyPositionalEncoding(d_model, max_len)``
=======================  ======  ===================================================

How a check works: it builds the student's class (or calls the student's function) on
small inputs whose sizes all differ -- batch != seq != d_model -- so that swapped axes
cannot hide, in eval mode, and compares the output with the right answer and with the
answers that common mistakes give (a table with sine and cosine swapped, a missing
sqrt(d_model), ...). The first one that matches names the diagnosis. Comparing outputs
rather than reading the code accepts any correct implementation: any attribute names, a
float32 table, a dropout layer, a slow Python loop.

A check returns a :class:`Feedback`: ``status`` ("correct", "incorrect" or
"not_attempted"), a stable ``key`` such as ``"pe.sin_cos_swapped"`` and a ``message``
in the language chosen with :func:`course_lib.set_language`. ``check`` never raises: an
exception in the student's code is a verdict too, and the untouched template, which
raises ``NotImplementedError``, is "not attempted".

Example::

    >>> import course_lib
    >>> from course_lib import exercises
    >>> exercises.token_embedding.check(course_lib.TokenEmbedding).status
    'correct'
    >>> namespace = {}
    >>> exec(exercises.token_embedding.template, namespace)
    >>> exercises.token_embedding.check(namespace["MyTokenEmbedding"])
    ✎ Not attempted yet [not_attempted]: `__init__` still raises `NotImplementedError`: replace that line with your code and run this cell again.
"""

import copy
import math
import os
import re
import traceback
from dataclasses import dataclass, field

import torch
from torch import nn

from .embedding import sinusoidal_table
from .i18n import tr

__all__ = [
    "Feedback",
    "Markdown",
    "Exercise",
    "pad_batch",
    "token_embedding",
    "permutation",
    "positional_encoding",
]

STATUSES = ("correct", "incorrect", "not_attempted")

# icon and colour of each status, as GitHub draws success, failure and notes
_LOOK = {"correct": ("✔", "#1a7f37"), "incorrect": ("✘", "#cf222e"), "not_attempted": ("✎", "#0969da")}

# Absolute and relative tolerance of every value comparison: far above float32 rounding of
# a table computed in float32 (~1e-6 here), far below the smallest difference between the
# right answer and a mistake (~1e-2).
_TOL = 1e-4


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
        icon, colour = _LOOK[self.status]
        return f'<span style="color:{colour}"><b>{icon} {self.title}.</b></span> {self.message}'

    def __repr__(self) -> str:
        icon, _ = _LOOK[self.status]
        return f"{icon} {self.title} [{self.key}]: {self.message}"


class Markdown:
    """Text that a notebook renders as Markdown and a console prints as it is."""

    def __init__(self, text: str):
        self.text = text

    def _repr_markdown_(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text


def _feedback(status: str, key: str, suffix: str = "", **values) -> Feedback:
    message = tr(f"ex.{key}", **values) + suffix
    return Feedback(status, key, message, tr(f"ex.status.{status}"), values)


class _Stop(Exception):
    """Ends a check early with its verdict; ``error`` is the student's exception, if any."""

    def __init__(self, feedback: Feedback, error: Exception | None = None):
        super().__init__(feedback.key)
        self.feedback = feedback
        self.error = error


def _wrong(key: str, **values) -> _Stop:
    return _Stop(_feedback("incorrect", key, **values))


# ----------------------------------------------------------------------------- running student code

# frames in these folders are never the student's line
_LIBRARY_DIRS = tuple(os.path.dirname(path) + os.sep for path in (torch.__file__, os.__file__, __file__))


def _student_line(exc: BaseException) -> str:
    """The last line of the traceback that is the student's own code, or ''."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.line and not frame.filename.startswith(_LIBRARY_DIRS):
            return _code_safe(frame.line.strip())
    return ""


def _code_safe(text: str, limit: int = 300) -> str:
    """One line, no backticks, so that it sits inside a Markdown code span."""
    lines = text.strip().splitlines() or [""]
    line = lines[0].replace("`", "'")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _crash(key: str, exc: Exception, **values) -> Feedback:
    """The verdict for an exception in the student's code: its type, message and line."""
    values = dict(values, error=type(exc).__name__, detail=_code_safe(str(exc) or repr(exc)))
    line = _student_line(exc)
    if line:
        values["line"] = line
    suffix = " " + tr("ex.error_line", line=line) if line else ""
    return _feedback("incorrect", key, suffix, **values)


def _call(where: str, fn, *args, **values):
    """``fn(*args)``: ``NotImplementedError`` means not attempted, any other exception is a verdict."""
    try:
        return fn(*args)
    except NotImplementedError:
        raise _Stop(_feedback("not_attempted", "not_attempted", where=where)) from None
    except Exception as exc:
        key = {"__init__": "error_init", "forward": "error_forward"}.get(where, "error_call")
        raise _Stop(_crash(key, exc, **values), error=exc) from None


def _require_module_class(student) -> None:
    if isinstance(student, nn.Module):
        raise _wrong("instance_not_class", name=type(student).__name__)
    if not isinstance(student, type):
        raise _wrong("not_a_class", type_name=type(student).__name__)
    if not issubclass(student, nn.Module):
        raise _wrong("not_module", name=student.__name__)


def _require_function(student) -> None:
    if isinstance(student, type) or not callable(student):
        raise _wrong("not_a_function", type_name=type(student).__name__)


def _build(student: type, *args) -> nn.Module:
    """The student's module built with ``args``, in eval mode (dropout off)."""
    try:
        module = _call("__init__", student, *args)
    except _Stop as stop:
        if stop.error is not None and "before Module.__init__() call" in str(stop.error):
            raise _wrong("missing_super_init", detail=_code_safe(str(stop.error))) from None
        raise
    module.eval()
    return module


def _forward(module: nn.Module, inputs: torch.Tensor):
    """The module's output for a copy of ``inputs``, and whether it changed that copy in place."""
    given = inputs.clone()
    out = _call("forward", module, given, shape=tuple(inputs.shape), dtype=inputs.dtype)
    return out, not torch.equal(given, inputs)


def _describe(value) -> str:
    """A short, language-neutral description of what the student's code returned."""
    if isinstance(value, torch.Tensor):
        return f"`Tensor` {tuple(value.shape)}"
    if isinstance(value, tuple | list):
        return "`(" + ", ".join(type(v).__name__ for v in value) + ")`"
    return f"`{type(value).__name__}`" if value is not None else "`None`"


def _require_tensor(out) -> torch.Tensor:
    if not isinstance(out, torch.Tensor):
        raise _wrong("not_tensor", got=_describe(out))
    return out


# ----------------------------------------------------------------------------- comparing outputs


def _close(got: torch.Tensor, expected: torch.Tensor) -> bool:
    return got.shape == expected.shape and torch.allclose(got, expected, rtol=_TOL, atol=_TOL)


def _same(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bit for bit the same, NaN included: two calls of a deterministic module."""
    return a.shape == b.shape and torch.allclose(a, b, rtol=0, atol=0, equal_nan=True)


def _first_difference(got: torch.Tensor, expected: torch.Tensor) -> tuple[int, ...]:
    """The index of the first element (row-major order) where two same-shaped tensors differ."""
    differs = ~torch.isclose(got, expected, rtol=_TOL, atol=_TOL)
    return tuple(int(i) for i in differs.nonzero()[0])


def _randn(*shape: int) -> torch.Tensor:
    # a generator of its own: the inputs are the same whatever the student's code drew before
    return torch.randn(*shape, generator=torch.Generator().manual_seed(sum(shape)))


# ----------------------------------------------------------------------------- the exercise object


class Exercise:
    """One exercise: ``check(student)``, ``hint(n)``, ``solution()`` and the ``template`` to start from.

    Args:
        name: the attribute of :mod:`course_lib.exercises` that holds it.
        checker: ``student -> Feedback``; may raise ``_Stop`` to give its verdict early.
        template: the code a student starts from; it raises ``NotImplementedError``.
        solution_code: the reference solution, shown by :meth:`solution` and run by the tests.
        num_hints: how many hints (catalogue keys ``ex.<prefix>.hint1`` ...).
        prefix: the prefix of this exercise's diagnosis keys, e.g. ``"pe"``.
    """

    def __init__(
        self, name: str, checker, template: str, solution_code: str, prefix: str, num_hints: int = 3
    ):
        self.name = name
        self.template = template
        self.solution_code = solution_code
        self.prefix = prefix
        self.num_hints = num_hints
        self._checker = checker

    def check(self, student) -> Feedback:
        """Run the student's class or function and say what is right or wrong with it. Never raises."""
        # the student's RNG stream is left as it was, and the check sees the same weights every run
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            try:
                return self._checker(student)
            except _Stop as stop:
                return stop.feedback
            except Exception as exc:  # a bug in a checker must not reach the student as a traceback
                return _crash("check_failed", exc)

    def hint(self, n: int = 1) -> Markdown:
        """Hint ``n`` (1, 2, ...): each one says more than the one before."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= self.num_hints:
            raise ValueError(tr("ex.hint_range", value=n, count=self.num_hints))
        title = tr("ex.hint_title", n=n, count=self.num_hints)
        return Markdown(f"**{title}** {tr(f'ex.{self.prefix}.hint{n}')}")

    def solution(self) -> Markdown:
        """The reference solution: a sentence on the idea, then the code."""
        text = tr(f"ex.{self.prefix}.solution")
        return Markdown(f"**{tr('ex.solution_title')}** {text}\n\n```python\n{self.solution_code}```")

    def __repr__(self) -> str:
        return f"<exercise {self.name}: check(...), hint(1..{self.num_hints}), solution()>"


# ----------------------------------------------------------------------------- lesson 1: padding a batch

PAD_BATCH_TEMPLATE = """\
import torch


def my_pad(seqs, pad_id):  # seqs: list of lists of ids -> ids (batch, seq) long, mask (batch, seq) bool
    raise NotImplementedError
"""

PAD_BATCH_SOLUTION = """\
import torch


def my_pad(seqs, pad_id):
    seq = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), seq), pad_id, dtype=torch.long)  # (batch, seq)
    for row, s in enumerate(seqs):
        ids[row, : len(s)] = torch.tensor(s, dtype=torch.long)
    lengths = torch.tensor([len(s) for s in seqs])  # (batch,)
    mask = torch.arange(seq) < lengths.unsqueeze(1)  # (batch, seq)
    return ids, mask
"""

# the longest sequence is neither first nor last, and no real id equals a pad id used below
_PAD_SEQS = [[5, 6, 7], [8], [9, 10, 11, 12, 13], [14, 15]]


def _padded(seqs: list[list[int]], pad_id: int, left: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    seq = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), seq), pad_id, dtype=torch.long)  # (batch, seq)
    mask = torch.zeros(len(seqs), seq, dtype=torch.bool)  # (batch, seq)
    for row, s in enumerate(seqs):
        cols = slice(seq - len(s), seq) if left else slice(0, len(s))
        ids[row, cols] = torch.tensor(s, dtype=torch.long)
        mask[row, cols] = True
    return ids, mask


def _pad_outputs(student, pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """``student(seqs, pad_id)`` checked to be a pair of tensors, and the lists checked untouched."""
    name = getattr(student, "__name__", "my_pad")
    given = copy.deepcopy(_PAD_SEQS)
    result = _call(name, student, given, pad_id, name=name)
    if not isinstance(result, tuple | list) or len(result) != 2:
        raise _wrong("pad.not_pair", name=name, got=_describe(result))
    ids, mask = result
    if not isinstance(ids, torch.Tensor) or not isinstance(mask, torch.Tensor):
        raise _wrong("pad.not_tensor", ids_type=type(ids).__name__, mask_type=type(mask).__name__)
    _check_pad_ids(ids, pad_id)
    _check_pad_mask(mask, ids.shape)
    if given != _PAD_SEQS:
        raise _wrong("pad.modifies_input", name=name)
    return ids, mask


def _check_pad_ids(ids: torch.Tensor, pad_id: int) -> None:
    expected, _ = _padded(_PAD_SEQS, pad_id)
    batch, longest = expected.shape
    if ids.shape != expected.shape:
        raise _wrong("pad.ids_shape", batch=batch, longest=longest, got=tuple(ids.shape))
    if ids.dtype != torch.long:
        raise _wrong("pad.ids_dtype", got=ids.dtype)
    if torch.equal(ids, expected):
        return
    if torch.equal(ids, _padded(_PAD_SEQS, pad_id, left=True)[0]):
        raise _wrong("pad.left_padded")
    padding = ~_padded(_PAD_SEQS, pad_id)[1]
    real_ids_right = torch.equal(ids[~padding], expected[~padding])
    if real_ids_right and ids[padding].unique().numel() == 1:
        raise _wrong("pad.ignores_pad_id", pad_id=pad_id, got=int(ids[padding][0]))
    row, pos = _first_difference(ids.double(), expected.double())
    raise _wrong(
        "pad.ids_mismatch", row=row, pos=pos, expected=int(expected[row, pos]), got=int(ids[row, pos])
    )


def _check_pad_mask(mask: torch.Tensor, shape: torch.Size) -> None:
    _, expected = _padded(_PAD_SEQS, 0)
    if mask.shape != expected.shape:
        raise _wrong("pad.mask_shape", expected=tuple(expected.shape), got=tuple(mask.shape))
    if mask.dtype != torch.bool:
        raise _wrong("pad.mask_dtype", got=mask.dtype)
    if torch.equal(mask, expected):
        return
    if torch.equal(mask, ~expected):
        raise _wrong("pad.mask_inverted")
    row, pos = _first_difference(mask.double(), expected.double())
    values = dict(row=row, pos=pos, expected=bool(expected[row, pos]), got=bool(mask[row, pos]))
    raise _wrong("pad.mask_mismatch", length=len(_PAD_SEQS[row]), **values)


def _check_pad_batch(student) -> Feedback:
    _require_function(student)
    _pad_outputs(student, pad_id=0)  # the course's Vocab pads with 0 ...
    _pad_outputs(student, pad_id=2)  # ... but a padding hard-coded to 0 is a mistake
    return _feedback("correct", "pad.correct")


pad_batch = Exercise("pad_batch", _check_pad_batch, PAD_BATCH_TEMPLATE, PAD_BATCH_SOLUTION, prefix="pad")


# ----------------------------------------------------------------------------- lesson 2: token embedding

TOKEN_EMBEDDING_TEMPLATE = """\
import math

import torch
from torch import nn


class MyTokenEmbedding(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        raise NotImplementedError

    def forward(self, ids):  # ids: (batch, seq) -> (batch, seq, d_model)
        raise NotImplementedError
"""

TOKEN_EMBEDDING_SOLUTION = """\
import math

import torch
from torch import nn


class MyTokenEmbedding(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model)  # (vocab_size, d_model)
        self.scale = math.sqrt(d_model)

    def forward(self, ids):  # ids: (batch, seq)
        return self.embedding(ids) * self.scale  # (batch, seq, d_model)
"""

# d_model is no perfect square, so sqrt(d_model), d_model and 1/sqrt(d_model) all differ
_TOK_VOCAB, _TOK_D, _TOK_BATCH, _TOK_SEQ = 23, 12, 3, 5


def _tok_ids() -> torch.Tensor:
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, _TOK_VOCAB, (_TOK_BATCH, _TOK_SEQ), generator=g)  # (batch, seq)
    ids[0, 0], ids[-1, -1] = _TOK_VOCAB - 1, 0  # the first and last rows of the table
    return ids


def _tok_tables(module: nn.Module) -> list[torch.Tensor]:
    """The module's parameters that can be the lookup table, as (vocab_size, d_model)."""
    tables = []
    for p in module.parameters():
        if p.shape == (_TOK_VOCAB, _TOK_D):
            tables.append(p)
        elif p.shape == (_TOK_D, _TOK_VOCAB):  # an nn.Linear applied to one-hot vectors
            tables.append(p.t())
    return tables


def _plain_tensors(module: nn.Module, last_dim: int) -> list[str]:
    """Names of tensors kept as plain attributes (neither parameters nor buffers) ending in last_dim."""
    return [
        f"{prefix}.{name}".lstrip(".")
        for prefix, sub in module.named_modules()
        for name, value in vars(sub).items()
        if isinstance(value, torch.Tensor) and value.dim() >= 2 and value.shape[-1] == last_dim
    ]


def _check_embedding_args(module: nn.Module) -> None:
    embeddings = [m for m in module.modules() if isinstance(m, nn.Embedding)]
    if embeddings and all((e.num_embeddings, e.embedding_dim) != (_TOK_VOCAB, _TOK_D) for e in embeddings):
        e = embeddings[0]
        raise _wrong(
            "tok.embedding_shape",
            rows=e.num_embeddings,
            cols=e.embedding_dim,
            vocab_size=_TOK_VOCAB,
            d_model=_TOK_D,
        )


def _tok_scale_verdict(scale: float) -> None:
    """Nothing if ``scale`` is sqrt(d_model); otherwise the verdict that names the wrong scale."""
    known = {
        math.sqrt(_TOK_D): None,
        1.0: "tok.missing_scale",
        1 / math.sqrt(_TOK_D): "tok.divided",
        float(_TOK_D): "tok.scaled_by_d_model",
    }
    for value, key in known.items():
        if math.isclose(scale, value, rel_tol=1e-3):
            if key is None:
                return
            raise _wrong(key, scale=math.sqrt(_TOK_D), d_model=_TOK_D)
    raise _wrong("tok.wrong_scale", got=scale, scale=math.sqrt(_TOK_D))


def _tok_values(out: torch.Tensor, ids: torch.Tensor, tables: list[torch.Tensor]) -> torch.Tensor:
    """The table that ``out`` is read from, after checking that it is scaled by sqrt(d_model)."""
    got = out.detach().double()
    for table in tables:
        rows = table.detach().double()[ids]  # (batch, seq, d_model)
        scale = float((got * rows).sum() / (rows * rows).sum())  # least squares: got ~ scale * rows
        if _close(got, scale * rows):
            _tok_scale_verdict(scale)
            return table
    expected = tables[0].detach().double()[ids] * math.sqrt(_TOK_D)
    row, pos, dim = _first_difference(got, expected)
    values = dict(row=row, pos=pos, dim=dim, token=int(ids[row, pos]))
    raise _wrong(
        "tok.mismatch", expected=float(expected[row, pos, dim]), got=float(got[row, pos, dim]), **values
    )


def _check_token_embedding(student) -> Feedback:
    _require_module_class(student)
    module = _build(student, _TOK_VOCAB, _TOK_D)
    _check_embedding_args(module)
    ids = _tok_ids()
    out = _require_tensor(_forward(module, ids)[0])
    expected_shape = (_TOK_BATCH, _TOK_SEQ, _TOK_D)
    if out.shape != expected_shape:
        raise _wrong(
            "tok.wrong_shape", ids_shape=tuple(ids.shape), expected=expected_shape, got=tuple(out.shape)
        )
    if not _same(out, _forward(module, ids)[0]):
        raise _wrong("tok.table_in_forward")
    tables = _tok_tables(module)
    if not tables:
        plain = _plain_tensors(module, _TOK_D)
        if plain:
            raise _wrong("tok.table_not_parameter", name=plain[0])
        raise _wrong("tok.no_table", vocab_size=_TOK_VOCAB, d_model=_TOK_D)
    table = _tok_values(out, ids, tables)
    if not (out.requires_grad and table.requires_grad):
        raise _wrong("tok.no_gradient")
    return _feedback("correct", "tok.correct", scale=math.sqrt(_TOK_D))


token_embedding = Exercise(
    "token_embedding",
    _check_token_embedding,
    TOKEN_EMBEDDING_TEMPLATE,
    TOKEN_EMBEDDING_SOLUTION,
    prefix="tok",
)


# ----------------------------------------------------------------------------- lesson 3: permutations

PERMUTATION_TEMPLATE = """\
import torch


def is_equivariant(f, x, perm):  # x: (batch, seq, d_model), perm: (seq,) -> True or False
    raise NotImplementedError
"""

PERMUTATION_SOLUTION = """\
import torch


def is_equivariant(f, x, perm):
    permute_then_f = f(x[:, perm])  # (batch, seq, d_model)
    f_then_permute = f(x)[:, perm]  # (batch, seq, d_model)
    return torch.allclose(permute_then_f, f_then_permute, atol=1e-6)
"""


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


_PERM_SUITE = (attention, mean_context, attention_with_positions, running_sum, max_over_tokens, tanh)
# batch > seq, so that permuting the batch axis by mistake runs (and is caught) instead of crashing;
# the permutation is a 5-cycle, not its own inverse
_PERM_BATCH, _PERM_SEQ, _PERM_D = 7, 5, 8
_PERM = torch.tensor([2, 0, 3, 4, 1])


def _perm_answers(compare, permute_axis: int = 1) -> list[bool]:
    """What ``is_equivariant`` answers for each function of the suite, given its ``compare``."""
    x = _randn(_PERM_BATCH, _PERM_SEQ, _PERM_D)
    index = (slice(None),) * permute_axis + (_PERM,)
    return [bool(compare(f(x[index]), f(x)[index], f(x))) for f in _PERM_SUITE]


def _perm_mistakes() -> dict[str, list[bool]]:
    """The answers of the right test and of the usual wrong ones."""
    return {
        "correct": _perm_answers(lambda a, b, _: torch.allclose(a, b, atol=1e-6)),
        "perm.exact_equality": _perm_answers(lambda a, b, _: torch.equal(a, b)),
        "perm.invariance": _perm_answers(lambda a, _, unpermuted: torch.allclose(a, unpermuted, atol=1e-6)),
        "perm.wrong_axis": _perm_answers(lambda a, b, _: torch.allclose(a, b, atol=1e-6), permute_axis=0),
    }


def _as_bool(answer) -> bool:
    if isinstance(answer, torch.Tensor) and answer.numel() == 1 and answer.dtype == torch.bool:
        return bool(answer)
    if type(answer).__name__ in {"bool", "bool_"}:  # Python's bool or numpy's
        return bool(answer)
    raise _wrong("perm.not_bool", got=_describe(answer))


def _check_permutation(student) -> Feedback:
    _require_function(student)
    name = getattr(student, "__name__", "is_equivariant")
    x = _randn(_PERM_BATCH, _PERM_SEQ, _PERM_D)
    answers = [_as_bool(_call(name, student, f, x.clone(), _PERM.clone(), name=name)) for f in _PERM_SUITE]
    mistakes = _perm_mistakes()
    right = mistakes.pop("correct")
    if answers == right:
        return _feedback("correct", "perm.correct", count=len(right))
    first = next(i for i, (a, r) in enumerate(zip(answers, right, strict=True)) if a != r)
    fn = _PERM_SUITE[first].__name__
    for key, pattern in mistakes.items():
        if answers == pattern:
            raise _wrong(key, fn=fn)
    raise _wrong("perm.mismatch", fn=fn, expected=right[first], got=answers[first])


permutation = Exercise(
    "permutation", _check_permutation, PERMUTATION_TEMPLATE, PERMUTATION_SOLUTION, prefix="perm"
)


# ----------------------------------------------------------------------------- lesson 4: positional encoding

POSITIONAL_ENCODING_TEMPLATE = """\
import math

import torch
from torch import nn


class MyPositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        raise NotImplementedError

    def forward(self, x):  # x: (batch, seq, d_model) -> (batch, seq, d_model)
        raise NotImplementedError
"""

POSITIONAL_ENCODING_SOLUTION = """\
import math

import torch
from torch import nn


class MyPositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        pos = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)  # (max_len, 1)
        two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (ceil(d_model / 2),)
        angle = pos / 10000 ** (two_i / d_model)  # (max_len, ceil(d_model / 2))
        pe = torch.zeros(max_len, d_model, dtype=torch.float64)  # (max_len, d_model)
        pe[:, 0::2] = torch.sin(angle)  # PE(pos, 2i) = sin(pos / 10000^(2i / d_model))
        pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])  # PE(pos, 2i + 1) = cos(...)
        self.register_buffer("pe", pe.float(), persistent=False)

    def forward(self, x):  # x: (batch, seq, d_model)
        return x + self.pe[: x.size(1)].to(x.dtype)  # (batch, seq, d_model)
"""

# all different, and d_model even first: an implementation for even widths only is judged on
# an even width, then told separately about odd ones
_PE_D, _PE_ODD_D, _PE_MAX_LEN, _PE_BATCH, _PE_SEQ = 16, 15, 50, 3, 10


def _pe_mistakes(n: int, d: int) -> dict[str, torch.Tensor]:
    """The (n, d) tables that common mistakes build, in float64; none for an odd d."""
    if d % 2:
        return {}
    pos = torch.arange(n, dtype=torch.float64).unsqueeze(1)  # (n, 1)
    i = torch.arange(d // 2, dtype=torch.float64)  # (d/2,) the pair index i of the paper
    column = torch.arange(d, dtype=torch.float64)  # (d,)

    def interleaved(angle: torch.Tensor, even=torch.sin, odd=torch.cos) -> torch.Tensor:
        table = torch.empty(n, d, dtype=torch.float64)  # (n, d)
        table[:, 0::2], table[:, 1::2] = even(angle), odd(angle)
        return table

    angle = pos / 10000 ** (2 * i / d)  # (n, d/2) the paper's angles
    per_column = pos / 10000 ** (column / d)  # (n, d)
    return {
        "pe.sin_cos_swapped": interleaved(angle, even=torch.cos, odd=torch.sin),
        "pe.halves": torch.cat([torch.sin(angle), torch.cos(angle)], dim=1),
        "pe.exponent_i": interleaved(pos / 10000 ** (i / d)),
        "pe.exponent_doubled": interleaved(pos / 10000 ** (4 * i / d)),
        "pe.exponent_per_column": torch.where(column % 2 == 0, torch.sin(per_column), torch.cos(per_column)),
    }


def _is_bare_table(out: torch.Tensor, table: torch.Tensor) -> bool:
    """Whether ``out`` is the first rows of the table (repeated over the batch), without x."""
    if not out.is_floating_point():
        return False
    t = out.detach().double().squeeze()
    if t.dim() == 3:
        if not torch.equal(t, t[:1].expand_as(t)):
            return False
        t = t[0]
    return t.dim() == 2 and t.shape[1] == table.shape[1] and _close(t, table[: t.shape[0]])


def _same_frequency(added: torch.Tensor) -> bool:
    """Whether every sine column is the same, and every cosine column (all frequencies equal)."""
    sines, cosines = added[0, :, 0::2], added[0, :, 1::2]  # (seq, d/2) each
    return (
        _close(sines, sines[:, :1].expand_as(sines))
        and _close(cosines, cosines[:, :1].expand_as(cosines))
        and not _close(sines, torch.zeros_like(sines))
    )


def _pe_values(out, x: torch.Tensor, table: torch.Tensor) -> None:
    """Checks ``out == x + table[:seq]``, or names the mistake that explains ``out``."""
    out = _require_tensor(out)
    if _is_bare_table(out, table):
        raise _wrong("pe.table_without_x")
    if out.shape != x.shape:
        raise _wrong("pe.wrong_shape", expected=tuple(x.shape), got=tuple(out.shape))
    if out.dtype != x.dtype:
        raise _wrong("pe.dtype", expected=x.dtype, got=out.dtype)
    got, x = out.detach().double(), x.double()
    batch, seq, d = x.shape
    pe = table[:seq]  # (seq, d)
    if _close(got, x + pe):
        return
    candidates = {
        "pe.scaled_inside": [x * math.sqrt(d) + pe, (x + pe) * math.sqrt(d)],
        "pe.sequence_first": [x + table[:batch].unsqueeze(1)],
        **{key: [x + wrong[:seq]] for key, wrong in _pe_mistakes(table.shape[0], d).items()},
    }
    for key, outputs in candidates.items():
        if any(_close(got, candidate) for candidate in outputs):
            raise _wrong(key, shape=tuple(x.shape))
    if _same_frequency(got - x):
        raise _wrong("pe.same_frequency")
    row, pos, dim = _first_difference(got, x + pe)
    added = float(got[row, pos, dim] - x[row, pos, dim])
    raise _wrong("pe.mismatch", row=row, pos=pos, dim=dim, expected=float(pe[pos, dim]), got=added, d_model=d)


def _pe_layout_probe(student: type, x: torch.Tensor, table: torch.Tensor) -> str | None:
    """After a crash in forward: does the module work when seq == max_len, or when batch == seq?"""
    _, seq, d = x.shape
    square = _randn(seq, seq, d)
    for key, max_len, probe in (("pe.not_sliced", seq, x), ("pe.sequence_first", _PE_MAX_LEN, square)):
        try:
            out = student(d, max_len).eval()(probe.clone())
        except Exception:
            continue
        if isinstance(out, torch.Tensor) and _close(out.detach().double(), probe.double() + table[:seq]):
            return key
    return None


def _pe_output(student: type, module: nn.Module, x: torch.Tensor, table: torch.Tensor):
    """The module's output for x; a crash that a layout mistake explains gets that diagnosis."""
    try:
        return _forward(module, x)
    except _Stop as stop:
        key = _pe_layout_probe(student, x, table) if stop.error is not None else None
        if key is not None:
            raise _wrong(key, shape=tuple(x.shape)) from None
        raise


def _build_pe(student: type, d: int, max_len: int) -> nn.Module:
    try:
        return _build(student, d, max_len)
    except _Stop as stop:
        found = re.search(r"attribute '(\w+)' already exists", str(stop.error or ""))
        if isinstance(stop.error, KeyError) and found:
            raise _wrong("pe.assigned_before_register_buffer", name=found.group(1)) from None
        raise


def _pe_storage(module: nn.Module, d: int) -> None:
    """The table must be a buffer: a parameter would be trained, a plain attribute left behind by .to()."""
    for name, p in module.named_parameters():
        if p.dim() >= 2 and p.shape[-1] == d:
            raise _wrong("pe.table_is_parameter", name=name)
    plain = _plain_tensors(module, d)
    if plain:
        raise _wrong("pe.not_buffer", name=plain[0])


def _pe_odd_width(student: type) -> None:
    """An implementation right for even d_model must also be right for an odd one."""
    d = _PE_ODD_D
    x = _randn(_PE_BATCH, _PE_SEQ, d)
    where = "__init__"
    try:
        module = student(d, _PE_MAX_LEN).eval()
        where = "forward"
        out = module(x.clone())
    except Exception as exc:
        detail = _code_safe(str(exc) or repr(exc))
        raise _wrong(
            "pe.odd_d_model_crash", even=_PE_D, odd=d, where=where, error=type(exc).__name__, detail=detail
        ) from None
    try:
        _pe_values(out, x, sinusoidal_table(_PE_MAX_LEN, d, dtype=torch.float64))
    except _Stop as stop:
        values = stop.feedback.values
        if stop.feedback.key != "pe.mismatch":
            raise
        raise _wrong(
            "pe.odd_d_model_values",
            even=_PE_D,
            odd=d,
            **{k: values[k] for k in ("pos", "dim", "expected", "got")},
        ) from None


def _check_positional_encoding(student) -> Feedback:
    _require_module_class(student)
    d = _PE_D
    table = sinusoidal_table(_PE_MAX_LEN, d, dtype=torch.float64)  # (max_len, d_model)
    module = _build_pe(student, d, _PE_MAX_LEN)
    x = _randn(_PE_BATCH, _PE_SEQ, d)
    out, modified = _pe_output(student, module, x, table)
    if isinstance(out, torch.Tensor) and out.shape == x.shape and out.dtype == x.dtype:
        if not _same(out, _forward(module, x)[0]):
            raise _wrong("pe.random_output")
    _pe_values(out, x, table)
    if modified:
        raise _wrong("pe.modifies_input")
    longest = _randn(2, _PE_MAX_LEN, d)  # every row of the table
    _pe_values(_pe_output(student, module, longest, table)[0], longest, table)
    half = x.half()
    out = _require_tensor(_forward(module, half)[0])
    if out.dtype != half.dtype:
        raise _wrong("pe.dtype", expected=half.dtype, got=out.dtype)
    _pe_storage(module, d)
    _pe_odd_width(student)
    return _feedback("correct", "pe.correct")


positional_encoding = Exercise(
    "positional_encoding",
    _check_positional_encoding,
    POSITIONAL_ENCODING_TEMPLATE,
    POSITIONAL_ENCODING_SOLUTION,
    prefix="pe",
)
