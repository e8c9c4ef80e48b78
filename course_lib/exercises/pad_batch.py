"""Lesson 1: pad a batch of id sequences on the right and build its mask.

The student writes a function ``my_pad(seqs, pad_id) -> (ids, mask)``, as ``Vocab.encode_batch`` pads.
"""

import copy

import torch

from ..i18n import Messages
from .checks import (
    Feedback,
    Foreign,
    describe,
    feedback,
    first_difference,
    require_function,
    require_tensor,
    type_name,
    wrong,
)
from .exercise import Exercise
from .runner import Run

MESSAGES = Messages(
    "pad",
    {
        "correct": (
            "`ids` is padded on the right with `pad_id` up to the longest sequence, "
            "and `mask` marks the real tokens."
        ),
        "not_pair": "`{name}` must return a pair of tensors, `ids, mask`; it returned {got}.",
        "not_tensor": (
            "`ids` and `mask` must be tensors; yours are `{ids_type}` and `{mask_type}`. "
            "`torch.tensor(...)` turns a list of lists into a tensor."
        ),
        "ids_shape": (
            "A batch of {batch} sequences, the longest of length {longest}, gives `ids` of "
            "shape ({batch}, {longest}): one row per sequence, as long as the longest one. "
            "Yours has shape {got}."
        ),
        "ids_dtype": (
            "`ids` has dtype {got}, but token ids are row numbers of the embedding table: "
            "integers, torch.long. `torch.zeros(...)` makes floats unless you pass "
            "`dtype=torch.long`."
        ),
        "left_padded": (
            "The padding is on the left. Here we pad on the right, like `Vocab.encode_batch`: "
            "every sequence starts at position 0, and `pad_id` fills the end of its row."
        ),
        "ignores_pad_id": (
            "With pad_id = {pad_id} the padding is still {got}: fill with the `pad_id` "
            "argument, not a fixed number."
        ),
        "ids_mismatch": (
            "`ids[{row}, {pos}]` is {got}, but it should be {expected}. That is the first value that differs."
        ),
        "mask_shape": "`mask` must have the same shape as `ids`, {expected}; yours has shape {got}.",
        "mask_dtype": (
            "`mask` has dtype {got}; a mask is boolean, torch.bool: True on real tokens, "
            "False on padding. A comparison such as `<` or `!=` gives a boolean tensor."
        ),
        "mask_inverted": "The mask is inverted: it must be True on real tokens and False on padding.",
        "mask_mismatch": (
            "`mask[{row}, {pos}]` is {got}, but sequence {row} has length {length}, so it "
            "should be {expected}."
        ),
        "mask_from_ids": (
            "Row {row} is {seq} and pad_id = {pad_id}: the {pad_id} at position {pos} is a real "
            "token, but your mask says False there. A mask built as `ids != pad_id` cannot tell the "
            "padding from a real token with the same ID, and that happens: GPT-2 has no pad token, "
            "and a common recipe pads batches with its end-of-text token, which every document also ends "
            "with. Build the mask from the lengths: position pos of row b is real if pos < len(seqs[b])."
        ),
        "modifies_input": (
            "The result is right, but `{name}` changed the lists it was given: "
            "`s.extend(...)` or `s += ...` pads the caller's own lists, and the rest of the "
            "program then sees padded data. Leave the input alone and build a new tensor."
        ),
        "hint1": (
            "A batch is as long as its longest sequence: `seq = max(len(s) for s in seqs)`, "
            "and `ids` has shape `(len(seqs), seq)`."
        ),
        "hint2": (
            "Start from a tensor filled with padding, `torch.full((len(seqs), seq), pad_id, "
            "dtype=torch.long)`, and copy each sequence into the beginning of its row: "
            "`ids[row, : len(s)] = torch.tensor(s)`."
        ),
        "hint3": (
            "The mask is True where a real token stands: position pos of row b is real if "
            "pos < len(seqs[b]). Comparing the row `torch.arange(seq)` with the column of lengths "
            "`lengths.unsqueeze(1)` gives the whole mask at once."
        ),
        "solution": (
            "A tensor full of `pad_id`, each sequence copied to the start of its row, and the "
            "mask from comparing positions with lengths."
        ),
    },
)


# the longest sequence is neither first nor last, and no real id equals a pad id used below
SEQS = [[5, 6, 7], [8], [9, 10, 11, 12, 13], [14, 15]]
# a batch whose pad value is also a real token (GPT-2 padded with its end-of-text token):
# only a mask built from the lengths keeps that token
PAD_IS_A_TOKEN = [[5, 2, 7], [8]]


def _padded(seqs: list[list[int]], pad_id: int, left: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    seq = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), seq), pad_id, dtype=torch.long)  # (batch, seq)
    mask = torch.zeros(len(seqs), seq, dtype=torch.bool)  # (batch, seq)
    for row, s in enumerate(seqs):
        cols = slice(seq - len(s), seq) if left else slice(0, len(s))
        ids[row, cols] = torch.tensor(s, dtype=torch.long)
        mask[row, cols] = True
    return ids, mask


def _pad_outputs(student, run: Run, pad_id: int, seqs: list[list[int]] = SEQS) -> None:
    """``student(seqs, pad_id)`` checked to be a pair of right tensors, and the lists checked untouched."""
    name = getattr(student, "__name__", "my_pad")
    given = copy.deepcopy(seqs)
    result = run.call(name, student, given, pad_id, name=name)
    if not isinstance(result, tuple | list) or len(result) != 2:
        raise wrong("pad.not_pair", name=name, got=describe(result))
    ids, mask = result
    for value in (ids, mask):
        if isinstance(value, Foreign) and value.kind in ("subclass", "meta"):
            require_tensor(value, name)  # names the subclass or the meta device
    if not isinstance(ids, torch.Tensor) or not isinstance(mask, torch.Tensor):
        raise wrong("pad.not_tensor", ids_type=type_name(ids), mask_type=type_name(mask))
    _check_pad_ids(ids, pad_id, seqs)
    _check_pad_mask(mask, ids, pad_id, seqs)
    if given != seqs:
        raise wrong("pad.modifies_input", name=name)


def _check_pad_ids(ids: torch.Tensor, pad_id: int, seqs: list[list[int]]) -> None:
    expected, real = _padded(seqs, pad_id)
    batch, longest = expected.shape
    if ids.shape != expected.shape:
        raise wrong("pad.ids_shape", batch=batch, longest=longest, got=tuple(ids.shape))
    if ids.dtype != torch.long:
        raise wrong("pad.ids_dtype", got=ids.dtype)
    if torch.equal(ids, expected):
        return
    if torch.equal(ids, _padded(seqs, pad_id, left=True)[0]):
        raise wrong("pad.left_padded")
    if torch.equal(ids[real], expected[real]) and ids[~real].unique().numel() == 1:
        raise wrong("pad.ignores_pad_id", pad_id=pad_id, got=int(ids[~real][0]))
    row, pos = first_difference(ids.double(), expected.double())
    raise wrong(
        "pad.ids_mismatch", row=row, pos=pos, expected=int(expected[row, pos]), got=int(ids[row, pos])
    )


def _check_pad_mask(mask: torch.Tensor, ids: torch.Tensor, pad_id: int, seqs: list[list[int]]) -> None:
    _, expected = _padded(seqs, pad_id)
    if mask.shape != expected.shape:
        raise wrong("pad.mask_shape", expected=tuple(expected.shape), got=tuple(mask.shape))
    if mask.dtype != torch.bool:
        raise wrong("pad.mask_dtype", got=mask.dtype)
    if torch.equal(mask, expected):
        return
    if torch.equal(mask, ~expected):
        raise wrong("pad.mask_inverted")
    row, pos = first_difference(mask.double(), expected.double())
    values = dict(row=row, pos=pos, expected=bool(expected[row, pos]), got=bool(mask[row, pos]))
    if torch.equal(mask, ids != pad_id):
        raise wrong("pad.mask_from_ids", pad_id=pad_id, seq=seqs[row], row=row, pos=pos)
    raise wrong("pad.mask_mismatch", length=len(seqs[row]), **values)


def diagnose(student, run: Run) -> Feedback:
    require_function(student)
    _pad_outputs(student, run, pad_id=0)  # the course's Vocab pads with 0 ...
    _pad_outputs(student, run, pad_id=2)  # ... but a padding hard-coded to 0 is a mistake
    _pad_outputs(student, run, pad_id=2, seqs=PAD_IS_A_TOKEN)  # and `ids != pad_id` hides a real 2
    return feedback("correct", "pad.correct")


EXERCISE = Exercise("pad_batch", 1, diagnose, MESSAGES)
# what a lesson calls: exercises.<name>.check(...), .hint(n), .solution(), and the build's .template
check, hint, solution = EXERCISE.check, EXERCISE.hint, EXERCISE.solution
__getattr__ = EXERCISE.module_attribute  # .template, in the current language
