"""Lesson 3: a token embedding, a lookup table whose rows are scaled by √d_model.

The student writes a class ``MyTokenEmbedding(vocab_size, d_model)``. The check runs it at a
small size, where every value can be compared with the student's own table, then builds it at
the paper's size and measures how large its vectors start: the initialisation and the factor
must together give vectors the size of the positional encoding added to them (lesson 3's
argument), so nn.Embedding's default N(0, 1) is a diagnosis, and so is Xavier's much smaller
init.
"""

import math

import torch
from torch import nn

from ..i18n import Messages, format_decimal
from .checks import (
    Feedback,
    close,
    feedback,
    first_difference,
    plain_tensors,
    require_finite,
    require_module_class,
    require_tensor,
    same,
    wrong,
)
from .exercise import Exercise
from .runner import Run

MESSAGES = Messages(
    "tok",
    {
        "correct": (
            "Each token id picks its row of the table, and the row is multiplied by √d_model "
            "(here {scale}); at the paper's size your vectors start with RMS {rms}, the "
            "scale of the positional encoding added to them. Well done!"
        ),
        "embedding_shape": (
            "`nn.Embedding` takes the number of rows first: your table has shape ({rows}, "
            "{cols}), but vocab_size = {vocab_size} and d_model = {d_model}. Write "
            "`nn.Embedding(vocab_size, d_model)`."
        ),
        "wrong_shape": (
            "For ids of shape {ids_shape} the output must have shape {expected}, one vector "
            "of size d_model per token; yours has shape {got}."
        ),
        "table_in_forward": (
            "Two calls with the same ids gave different vectors, although the module is in "
            "eval mode. Is the table created inside `forward`? Create `nn.Embedding` once, in "
            "`__init__`, so that every call reads the same learned table."
        ),
        "table_not_parameter": (
            "The table `{name}` is a plain tensor, not a parameter: the optimizer never sees "
            "it, so it never learns. Use `nn.Embedding(vocab_size, d_model)`, or wrap the "
            "tensor in `nn.Parameter`."
        ),
        "no_table": (
            "There is no table of shape ({vocab_size}, {d_model}) among the module's "
            "parameters. A token embedding is a learned lookup table, created once, in "
            "`__init__`: `nn.Embedding(vocab_size, d_model)`."
        ),
        "missing_scale": (
            "The vectors are the rows of the table as they are: multiply them by √d_model = "
            "{scale}, as in section 3.4 of the paper."
        ),
        "divided": (
            "The vectors are divided by √d_model, but the paper multiplies them: `* "
            "math.sqrt(d_model)`, here × {scale}."
        ),
        "scaled_by_d_model": (
            "The vectors are multiplied by d_model = {d_model} itself, not by its square root "
            "√d_model = {scale}: use `math.sqrt(d_model)`."
        ),
        "wrong_scale": "The vectors are the rows of the table times {got}; the factor must be √d_model = {scale}.",
        "no_gradient": (
            "The values are right, but no gradient reaches the table, so it would never "
            "learn. Look for `torch.no_grad()`, `.detach()`, `.data`, or a frozen table "
            "(`requires_grad=False`, or `nn.Embedding.from_pretrained`, which freezes by "
            "default)."
        ),
        "zero_table": (
            "Your table starts at zeros, so every token gets the same vector (all zeros): the model could "
            "not tell two tokens apart, and the gradients of all rows would stay equal. Start from random "
            "numbers, e.g. `nn.init.normal_(weight, std=d_model ** -0.5)`."
        ),
        "init_too_large": (
            "The lookup, the factor and the gradients are right; now the scale. Built at the "
            "paper's size (vocab_size = {vocab_size}, d_model = {d_model}), your module returns "
            "vectors of RMS {rms} = {ratio} × the RMS of the positional encoding (1/√2 "
            "≈ 0.71) that will be added to them: the positions would hardly change the sum. "
            "`nn.Embedding`'s default, N(0, 1), gives exactly that after × √d_model. Draw the "
            "table from N(0, 1/d_model), the small init that weight tying asks for: "
            "`nn.init.normal_(self.embedding.weight, std=d_model ** -0.5)`; × √d_model then "
            "brings the vectors to RMS 1."
        ),
        "init_too_small": (
            "The lookup, the factor and the gradients are right; now the scale. Built at the "
            "paper's size (vocab_size = {vocab_size}, d_model = {d_model}), your module returns "
            "vectors of RMS {rms} = only {ratio} × the RMS of the positional encoding "
            "(1/√2 ≈ 0.71) that will be added to them: the positions would drown the words. Xavier "
            "init (the Annotated Transformer), `nn.Linear`'s default and std = 1/d_model all "
            "start this small; N(0, 1/d_model) names the variance, so its standard deviation "
            "is d_model ** -0.5. Write `nn.init.normal_(self.embedding.weight, std=d_model ** "
            "-0.5)`; × √d_model then brings the vectors to RMS 1."
        ),
        "mismatch": (
            "The first value that differs from the row of the table × √d_model: batch row "
            "{row}, position {pos}, dimension {dim} (token id {token}): expected "
            "{expected}, got {got}."
        ),
        "hint1": (
            "A lookup table of `vocab_size` rows, each a vector of size `d_model`, is "
            "`nn.Embedding(vocab_size, d_model)`. Create it in `__init__`, after "
            "`super().__init__()`: its weights then become parameters of your module and are "
            "trained with it."
        ),
        "hint2": (
            "In `forward`, `self.embedding(ids)` replaces every id by its row of the table: "
            "ids of shape `(batch, seq)` become vectors of shape `(batch, seq, d_model)`. "
            "Then scale them: the paper multiplies the embeddings by √d_model (section 3.4). "
            "The factor and the table's init go together: `nn.Embedding` starts at N(0, 1), "
            "√d_model times too large once scaled; the lesson starts it at N(0, 1/d_model)."
        ),
        "hint3": (
            "Right after creating the table, draw it again: `nn.init.normal_(self.embedding.weight, "
            "std=d_model ** -0.5)` (the variance is 1/d_model, so the std is its square root). "
            "The factor is a plain number, so compute it once, in `__init__`: `self.scale = "
            "math.sqrt(d_model)`. Multiply, don't divide, and take the square root of "
            "d_model, not d_model itself: `return self.embedding(ids) * self.scale`."
        ),
        "solution": (
            "A lookup table made once, in `__init__`, and drawn from N(0, 1/d_model); "
            "`forward` reads the rows of the ids and multiplies them by √d_model, which brings "
            "them to RMS 1."
        ),
    },
)


# d_model is no perfect square, so sqrt(d_model), d_model and 1/sqrt(d_model) all differ
_TOK_VOCAB, _TOK_D, _TOK_BATCH, _TOK_SEQ = 23, 12, 3, 5
# the size check runs at the paper's size, the one lesson 3 measures: Xavier's init depends on
# vocab_size, and at d_model = 512 the default N(0, 1) is 23 times too large once scaled
_INIT_VOCAB, _INIT_D = 32000, 512
_INIT_IDS = (4, 16)  # 64 rows of 512 values: their RMS is measured to about 0.4 % (one sd)
_PE_RMS = 2**-0.5  # every sine-cosine pair has sin² + cos² = 1, so the mean square is 1/2
# accepted: within a factor 2 of RMS 1, what N(0, 1/d_model) × √d_model gives. N(0, 1) gives
# √512 ≈ 22.6; Xavier at this size 0.18, nn.Linear's default 0.07, std = 1/d_model 0.04
_INIT_RMS_RANGE = (0.5, 2.0)


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


def _embedding_shapes(module: nn.Module) -> list[tuple[int, int]]:
    """(num_embeddings, embedding_dim) of every nn.Embedding in the module (run in the child)."""
    return [(m.num_embeddings, m.embedding_dim) for m in module.modules() if isinstance(m, nn.Embedding)]


def _check_embedding_args(shapes: list[tuple[int, int]]) -> None:
    if shapes and all(tuple(shape) != (_TOK_VOCAB, _TOK_D) for shape in shapes):
        rows, cols = shapes[0]
        raise wrong(
            "tok.embedding_shape",
            rows=rows,
            cols=cols,
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
            raise wrong(key, scale=_tok_scale(), d_model=_TOK_D)
    raise wrong("tok.wrong_scale", got=format_decimal(scale, 4), scale=_tok_scale())


def _tok_scale() -> str:
    """√d_model of the check's size, as the message writes it (4.7958 in English, 4,7958 in Russian)."""
    return format_decimal(math.sqrt(_TOK_D), 4)


def _tok_values(out: torch.Tensor, ids: torch.Tensor, tables: list[torch.Tensor]) -> torch.Tensor:
    """The table that ``out`` is read from, after checking that it is scaled by sqrt(d_model)."""
    got = out.detach().double()
    require_finite(got)
    if all(not table.detach().any() for table in tables):
        # every token the same (zero) vector: nothing to learn from, and no scale to measure
        raise wrong("tok.zero_table")
    for table in tables:
        rows = table.detach().double()[ids]  # (batch, seq, d_model)
        scale = float((got * rows).sum() / (rows * rows).sum())  # least squares: got ~ scale * rows
        if close(got, scale * rows):
            _tok_scale_verdict(scale)
            return table
    expected = tables[0].detach().double()[ids] * math.sqrt(_TOK_D)
    row, pos, dim = first_difference(got, expected)
    values = dict(row=row, pos=pos, dim=dim, token=int(ids[row, pos]))
    raise wrong(
        "tok.mismatch",
        expected=format_decimal(float(expected[row, pos, dim]), 4),
        got=format_decimal(float(got[row, pos, dim]), 4),
        **values,
    )


def _tok_init_rms(student: type, run: Run) -> float:
    """The RMS of the vectors the student's module returns at the paper's size, if in range."""
    module = run.build(student, _INIT_VOCAB, _INIT_D)
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, _INIT_VOCAB, _INIT_IDS, generator=g)  # (batch, seq)
    out = require_tensor(run.forward(module, ids)[0])
    if out.shape != (*_INIT_IDS, _INIT_D):
        raise wrong(
            "tok.wrong_shape", ids_shape=_INIT_IDS, expected=(*_INIT_IDS, _INIT_D), got=tuple(out.shape)
        )
    got = out.detach().double()
    require_finite(got)
    rms = float(got.pow(2).mean().sqrt())
    sizes = dict(vocab_size=_INIT_VOCAB, d_model=_INIT_D)
    low, high = _INIT_RMS_RANGE
    if rms < low:  # e.g. RMS 0.18 = only 0.25 × PE
        raise wrong(
            "tok.init_too_small", rms=format_decimal(rms, 2), ratio=format_decimal(rms / _PE_RMS, 2), **sizes
        )
    if rms > high:  # e.g. RMS 22.6 = 32 × PE
        raise wrong(
            "tok.init_too_large", rms=format_decimal(rms, 1), ratio=format_decimal(rms / _PE_RMS, 0), **sizes
        )
    return rms


def diagnose(student, run: Run) -> Feedback:
    require_module_class(student)
    module = run.build(student, _TOK_VOCAB, _TOK_D)
    _check_embedding_args(run.inspect(_embedding_shapes, module))
    ids = _tok_ids()
    out = require_tensor(run.forward(module, ids)[0])
    expected_shape = (_TOK_BATCH, _TOK_SEQ, _TOK_D)
    if out.shape != expected_shape:
        raise wrong(
            "tok.wrong_shape", ids_shape=tuple(ids.shape), expected=expected_shape, got=tuple(out.shape)
        )
    if not same(out, run.forward(module, ids)[0]):
        raise wrong("tok.table_in_forward")
    tables = run.inspect(_tok_tables, module)
    if not tables:
        plain = run.inspect(plain_tensors, module, _TOK_D)
        if plain:
            raise wrong("tok.table_not_parameter", name=plain[0])
        raise wrong("tok.no_table", vocab_size=_TOK_VOCAB, d_model=_TOK_D)
    table = _tok_values(out, ids, tables)
    if not (out.requires_grad and table.requires_grad):
        raise wrong("tok.no_gradient")
    rms = _tok_init_rms(student, run)
    return feedback("correct", "tok.correct", scale=_tok_scale(), rms=format_decimal(rms, 2))


# the course's classes that answer this exercise: kept inside a student's module, they are named
FINISHED = ("course_lib.TokenEmbedding", "course_lib.TransformerEmbedding")
EXERCISE = Exercise("token_embedding", 3, diagnose, MESSAGES, finished=FINISHED)
# what a lesson calls: exercises.<name>.check(...), .hint(n), .solution(), and the build's .template
check, hint, solution = EXERCISE.check, EXERCISE.hint, EXERCISE.solution
__getattr__ = EXERCISE.module_attribute  # .template, in the current language
