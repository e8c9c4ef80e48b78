"""The messages of the learned-positions exercise (lesson 7): its diagnoses, hints and solution, in every language.

They sit beside the checker in this package because there are many: the checker is ``__init__.py``.
"""

from ...i18n import Messages

MESSAGES = Messages(
    "lp",
    {
        "correct": (
            "Your module adds a trained row per position, starts the table within a factor 2 "
            "of the sinusoidal table's scale (RMS {rms}; the sinusoidal table: 1/√2 ≈ 0.71) and "
            "refuses a sequence longer than max_len with a clear error. Well done!"
        ),
        "not_sliced": (
            "`forward` adds the whole table, so the module works only when a sequence is "
            "exactly max_len long; on x of shape {shape} it fails. Add only the first seq = "
            "x.size(1) rows: `self.weight[:x.size(1)]`."
        ),
        "sequence_first": (
            "The table is cut by x.size(0), the batch size, instead of the sequence length. x "
            "has shape (batch, seq, d_model), here {shape}: position pos of every sequence "
            "gets row pos, `self.weight[:x.size(1)]`."
        ),
        "random_output": (
            "Two calls on the same x gave different outputs, although the module is in eval "
            "mode. Is the table drawn in `forward`? `torch.randn` there makes a new table on "
            "every call, which nothing can learn: draw it once, in `__init__`. (`F.dropout` "
            "without `training=self.training` does this too.)"
        ),
        "no_table": (
            "Your module has no tensor of shape (max_len, d_model) = ({max_len}, {d_model}): "
            "where is the table? Create it in `__init__`: `self.weight = "
            "nn.Parameter(torch.randn(max_len, d_model) / 2**0.5)`."
        ),
        "table_without_x": (
            "`forward` returns the table's rows alone, and x is lost. Return the sum `x + "
            "self.weight[:x.size(1)]`: the vector of each token plus the vector of its "
            "position."
        ),
        "wrong_shape": "For x of shape {expected} the output must have the same shape; yours has shape {got}.",
        "rows_from_one": (
            "Position pos gets row pos + 1: the slice starts at 1. Position 0 has row 0: "
            "`self.weight[:x.size(1)]`."
        ),
        "mismatch": (
            "At position {pos}, dimension {dim} (batch row {row}) your module adds {got}, but "
            "row {pos} of your table `{name}` holds {expected}. That is the first value that "
            "differs: position pos must get row pos."
        ),
        "modifies_input": (
            "The values are right, but `forward` changed the caller's x in place (`x += "
            "...`): the embeddings that came in are overwritten. Return a new tensor: `return "
            "x + self.weight[:x.size(1)]`."
        ),
        "not_parameter": (
            "The table `{name}` holds the right rows, but it is not a parameter (a buffer, or "
            "a plain tensor attribute): `model.parameters()` does not list it, so an optimizer "
            "never changes it, and the positions are never learned. Make it one: `self.{name} = "
            "nn.Parameter(...)`, or use `nn.Embedding(max_len, d_model)`."
        ),
        "no_gradient": (
            "No gradient from the output reaches the table `{name}`: it is frozen "
            "(`requires_grad=False`, `nn.Embedding.from_pretrained`) or cut off (`torch.no_grad()`, "
            "`.detach()`), so training never changes it. Leave the parameter trainable and "
            "compute `x + self.weight[:x.size(1)]` directly."
        ),
        "init_not_centred": (
            "The table starts with mean {mean}, not 0: every position adds about {mean} "
            "to every coordinate of every token, a shift the model must first unlearn. "
            "`torch.rand` draws from [0, 1); `torch.randn` draws from N(0, 1), centred on 0."
        ),
        "init_too_small": (
            "The table starts with RMS {rms}, while the token vectors it is added to have "
            "RMS 1 (N(0, 1/d_model) times √d_model): at the start the model hardly sees the "
            "positions, and they must grow in training before word order counts. GPT-2 starts its "
            "positions at 0.01 and its tokens at 0.02 (Hugging Face: both at 0.02), and never "
            "scales the tokens. Start at the sinusoidal table's scale, RMS 1/√2 ≈ 0.71: "
            "`torch.randn(max_len, d_model) / 2**0.5`."
        ),
        "init_too_large": (
            "The table starts with RMS {rms}, while the token vectors it is added to have "
            "RMS 1: the positions drown the tokens, and at the start the inputs at one position "
            "look almost the same whatever the word there. Start at the sinusoidal table's scale, RMS 1/√2 ≈ 0.71: "
            "`torch.randn(max_len, d_model) / 2**0.5`."
        ),
        "no_length_check": (
            "For a sequence of {seq} tokens, longer than max_len = {max_len}, your module "
            "returned {got} instead of an error: the table has no row for position {max_len} "
            "or beyond, so whatever it added there is not a learned position. Check first: `if "
            'x.size(1) > self.max_len: raise ValueError(f"sequence length {{x.size(1)}} exceeds '
            'max_len={{self.max_len}}")`.'
        ),
        "rejects_full_length": (
            "A sequence of exactly max_len = {max_len} tokens was refused (`{detail}`), but the "
            "table has a row for each of its positions 0 .. {last}: only a longer sequence must "
            "fail. Compare with `>`, not `>=`."
        ),
        "length_error_type": (
            "For a sequence of {seq} tokens, longer than max_len = {max_len}, your module "
            "failed with `{error}`: `{detail}`. Whoever reads that has to guess what went "
            "wrong. Raise a `ValueError` that names both numbers: `if x.size(1) > "
            'self.max_len: raise ValueError(f"sequence length {{x.size(1)}} exceeds '
            'max_len={{self.max_len}}")`.'
        ),
        "length_error_vague": (
            "Right to raise a `ValueError` for a sequence of {seq} tokens, but its message, "
            "`{detail}`, does not name both numbers, the length {seq} and max_len = {max_len}. "
            'Put them in: `f"sequence length {{x.size(1)}} exceeds max_len={{self.max_len}}"`.'
        ),
        "hint1": (
            "A learned table is a weight like any other: create it once, in `__init__`, as an "
            "`nn.Parameter` of shape `(max_len, d_model)`. Row pos is the vector of position pos, "
            "and training changes it. (`nn.Embedding(max_len, d_model)` holds such a table too.)"
        ),
        "hint2": (
            "Start the table at about the scale of the vectors it is added to: the course's token "
            "vectors have RMS 1, the sinusoidal table RMS 1/√2 ≈ 0.71. `torch.randn(max_len, "
            "d_model) / 2**0.5` starts it at the sinusoidal table's scale; GPT-2's 0.01 would "
            "make the positions 100 times smaller than the tokens."
        ),
        "hint3": (
            "In `forward`, add only the first `seq = x.size(1)` rows: `x + self.weight[:seq]`. "
            "The table has no row for position max_len or beyond, so check first: `if seq > "
            'self.max_len: raise ValueError(f"sequence length {{seq}} exceeds '
            'max_len={{self.max_len}}")` (keep `self.max_len = max_len` in `__init__`).'
        ),
        "solution": (
            "The table is a parameter drawn from N(0, 1/2), the sinusoidal table's scale; "
            "`forward` refuses a sequence longer than max_len with a `ValueError`, then adds the "
            "first seq rows."
        ),
        "solution_error": "sequence length {{seq}} exceeds max_len={{self.max_len}}",
    },
)
