"""The messages of the input-layer exercise (lesson 6): its diagnoses, hints and solution, in every language.

They sit beside the checker in this package because there are many: the checker is ``__init__.py``.
"""

from ...i18n import Messages

MESSAGES = Messages(
    "inp",
    {
        "correct": (
            "Your input layer scales the token vectors by √d_model once, adds the paper's table "
            "from a buffer that no checkpoint holds, gives every token the row of its own position "
            "(with a cache and with left padding too), keeps √d_model exact in bfloat16 and works "
            "for an odd d_model. Well done!"
        ),
        "no_token_table": (
            "Your module has no parameter of shape (vocab_size, d_model) = ({vocab_size}, "
            "{d_model}): where are the token vectors? Create them in `__init__`: "
            "`self.embedding = nn.Embedding(vocab_size, d_model)`."
        ),
        "wrong_shape": (
            "For ids of shape {ids_shape} the output must have shape {expected}, one vector of "
            "d_model numbers per token; yours has shape {got}."
        ),
        "dtype": (
            "The model's weights are {expected}, but the output is {got}: a table of another "
            "dtype added to the token vectors promotes the sum. Keep the table in a buffer "
            "(`.to()` converts it with the weights) or add `self.pe[positions].to(x.dtype)`."
        ),
        "random_output": (
            "Two calls on the same ids gave different outputs, although the module is in "
            "inference mode (`model.eval()`). Is something drawn in `forward`, or `F.dropout` "
            "called without `training=self.training`? An `nn.Dropout` layer is switched off by "
            "`.eval()`."
        ),
        "missing_scale": (
            "The token vectors are added as they are: multiply them by √d_model = {scale} "
            "first, as section 3.4 of the paper does."
        ),
        "scaled_twice": (
            "The token vectors are multiplied by √d_model twice, that is by d_model = {d_model}: "
            "they are then √d_model times too large and drown the positions. Scale once. (A "
            "`TokenEmbedding` from `course_lib` already scales: don't multiply its output again.)"
        ),
        "scaled_positions": (
            "The positional table is multiplied by √d_model too. Section 3.4 scales the "
            "embedding weights only: `self.embedding(ids) * self.scale + self.pe[positions]`, the "
            "scale applied before the sum, to the tokens alone."
        ),
        "same_frequency": (
            "All sine columns of your table are the same, and so are all cosine columns: every "
            "frequency is equal. Usually the culprit is integer division: `two_i // d_model` is 0 "
            "for every 2i < d_model, and `10000 ** 0 == 1`. Divide with `/`."
        ),
        "other_layout": (
            "Your table holds the right sines and cosines in another order (cosines first, or "
            "all sines then all cosines, as tensor2tensor and fairseq do). That is a convention, "
            "not a bug in itself, but this course and its checkpoints use the paper's: sin in "
            "column 2i, cos in column 2i+1. Fill `pe[:, 0::2]` with sines and `pe[:, 1::2]` with "
            "cosines."
        ),
        "mismatch": (
            "At batch row {row}, position {pos}, coordinate {dim} your layer gives {got}, "
            "but token vector × √d_model + P({pos}, {dim}) = {expected}. That is the first "
            "value that differs."
        ),
        "table_is_parameter": (
            "The positional table `{name}` is an `nn.Parameter`: an optimizer changes it, and "
            "even frozen it is saved in every checkpoint, which then fits only a model with the "
            "same max_len. The table is computed from d_model and max_len: "
            "`self.register_buffer('pe', pe, persistent=False)`."
        ),
        "table_saved": (
            "The positional table `{name}` is a buffer, but a persistent one: every checkpoint "
            "carries its {size} numbers, which the code rebuilds anyway, and loading it into a "
            "model with another max_len fails with a size mismatch. Register it with "
            "`persistent=False`."
        ),
        "not_buffer": (
            "The positional table `{name}` is a plain attribute, not a registered buffer: "
            "`model.to(device)` and `model.to(torch.bfloat16)` leave it behind, and the model "
            "fails on a GPU. Register it as a buffer: `self.register_buffer('pe', pe, persistent=False)`."
        ),
        "no_positions_parameter": (
            "`forward` takes no `positions`: write `def forward(self, ids, positions=None):`. A "
            "model that generates text one token at a time must say where the new token stands."
        ),
        "positions_ignored": (
            "With `positions=torch.tensor({positions})` your layer still adds rows 0, 1, … of "
            "the table: the positions are ignored. That is what happens to a model generating "
            "with a cache, whose new token arrives alone: every new token gets row P(0). Use the "
            "rows of the positions: `self.pe[positions]`, and `torch.arange(seq)` only when "
            "`positions is None`."
        ),
        "positions_error": (
            "With `positions=torch.tensor({positions})` (tokens {positions} of a text generated "
            "with a cache) your `forward` raised `{error}`: `{detail}`."
        ),
        "positions_mismatch": (
            "With `positions=torch.tensor({positions})`, at batch row {row}, coordinate {dim} of "
            "the token at position {position}, your layer gives {got}, but token vector × "
            "√d_model + P({position}, {dim}) = {expected}. Position pos must get row pos: "
            "`self.pe[positions]`."
        ),
        "positions_batch_error": (
            "Right for positions of shape (seq,), but with positions of shape (batch, seq) = "
            "{shape}, one row per sequence as a left-padded batch needs, your `forward` raised "
            "`{error}`: `{detail}`. `self.pe[positions]` works for both shapes: (seq, d_model) or "
            "(batch, seq, d_model), and either adds to the token vectors."
        ),
        "positions_batch_shape": (
            "Right for positions of shape (seq,), but with positions of shape (batch, seq) = "
            "{shape}, as a left-padded batch needs, the output has shape {got} instead of "
            "{expected}: an extra axis. Indexing a (max_len, d_model) table with them, "
            "`self.pe[positions]`, already gives (batch, seq, d_model): add it as it is (for a (1, "
            "max_len, d_model) buffer, `self.pe[0, positions]`)."
        ),
        "positions_batch_values": (
            "Right for positions of shape (seq,), but with positions of shape (batch, seq), "
            "here {positions}, sequence {row} gets the wrong row in column {pos}: coordinate {dim} "
            "is {got} instead of token vector × √d_model + P({position}, {dim}) = "
            "{expected}. Each sequence has positions of its own: index the table with the "
            "whole tensor, `self.pe[positions]`."
        ),
        "scale_rounded": (
            "In bfloat16 your layer multiplies by {rounded}, √d_model rounded to 8 significant "
            "bits, not by √{d_model} = {scale}: the scale is a tensor in the model's dtype (a "
            "buffer that `.to(torch.bfloat16)` converts, or `torch.tensor(..., dtype=x.dtype)`). "
            "Keep it a Python float, `self.scale = math.sqrt(d_model)`: PyTorch then multiplies in "
            "float32. (Gemma is the opposite case: trained with the rounded value, so its code "
            "must round: compute as the checkpoint was trained.)"
        ),
        "odd_d_model_crash": (
            "Almost: right for d_model = {even}, but with an odd d_model = {odd} your `{where}` "
            "raised `{error}`: `{detail}`. With an odd d_model there is one cosine column fewer "
            "than sine columns: `pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])`."
        ),
        "odd_d_model_values": (
            "Almost: right for d_model = {even}, but with an odd d_model = {odd}, at position "
            "{pos}, coordinate {dim}, your layer gives {got} instead of {expected}. With an "
            "odd d_model the last column is a sine, and the exponents are still divided by "
            "d_model = {odd}."
        ),
        "hint1": (
            "Two tables, both made once in `__init__`: the token vectors, "
            "`nn.Embedding(vocab_size, d_model)`, a parameter; and the positional table of shape "
            "`(max_len, d_model)`, computed in float64 from the formula (`/`, never `//`) and "
            "registered as a buffer that no checkpoint holds: `self.register_buffer('pe', "
            "pe.float(), persistent=False)`."
        ),
        "hint2": (
            "Scale the token vectors, and only them, by √d_model: `self.embedding(ids) * "
            "self.scale` with `self.scale = math.sqrt(d_model)`, a Python float, which stays exact "
            "whatever dtype the model is converted to. The positional rows are added after the "
            "scaling, unscaled."
        ),
        "hint3": (
            "Positions pick the rows: `if positions is None: positions = "
            "torch.arange(ids.size(1), device=ids.device)`, then `self.pe[positions]`. For "
            "positions of shape (seq,) that is (seq, d_model), the same rows for every sequence; "
            "for (batch, seq) it is (batch, seq, d_model), each sequence its own rows. Both add "
            "to `(batch, seq, d_model)`; cast with `.to(tokens.dtype)`."
        ),
        "solution": (
            "A token table (a parameter) and the positional table (a non-persistent buffer, "
            "built in float64); `forward` scales the tokens by a Python float √d_model and adds "
            "the rows of the positions, 0 .. seq-1 unless given."
        ),
    },
)
