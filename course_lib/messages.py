"""The texts of the package's own modules, in every language: what ``validate``, ``vocab``,
``rotary``, ``extrapolation`` and ``scaling`` say, beside the code rather than inside it.

Each catalogue is its module's ``MESSAGES`` (``validate.MESSAGES`` is :data:`INPUT`); the
plots, widgets, BPE and each exercise keep theirs in their own ``messages`` modules. Adding a
language adds a line to every entry here (``tests/unit/test_messages.py`` lists what is missing).
"""

from .i18n import Messages

__all__ = ["INPUT", "VOCAB", "ROTARY", "EXTRAPOLATION", "SCALING"]

# the input checks of ``validate.py``, shared by every module that checks its arguments
INPUT = Messages(
    "input",
    {
        "not_positive_int": "{name} must be a positive integer, got {value!r}",
        "not_non_negative_int": "{name} must be a non-negative integer, got {value!r}",
        "table_too_large": (
            "a table of {rows} × {d_model} = {entries} entries is too large: building it takes {need} GiB "
            "of memory at its peak, and the limit is {limit} GiB; lower max_len or d_model"
        ),
        "vocab_table_too_large": (
            "a token table of vocab_size × d_model = {vocab_size} × {d_model} = {entries} entries is too "
            "large: it takes {need} GiB of memory, and the limit is {limit} GiB; lower vocab_size or d_model"
        ),
        "nested_tensor": (
            "{name} must be one rectangular tensor, got a nested tensor (torch.nested) of {count} "
            "sequences: pad them to one length first (course_lib.vocab.pad_batch)"
        ),
        "sparse_tensor": "{name} must be a dense tensor, got layout {layout}: convert it with .to_dense()",
        "base_invalid": (
            "base must be a finite number greater than 1, got {value!r}: the wavelengths run from 2π "
            "to 2π·base, so with base ≤ 1 they no longer grow from column to column (base = 1 makes every "
            "column pair the same)"
        ),
        "dropout_range": "dropout must be a probability between 0 and 1, got {value!r}",
        "dtype_not_dtype": "dtype must be a torch.dtype such as torch.float32, got {value!r}",
        "dtype_not_float": (
            "dtype must be a floating-point dtype (torch.float32, torch.float64, ...), got {value}: "
            "the table holds sines and cosines between -1 and 1"
        ),
        "not_a_choice": "{name} must be one of {allowed}, got {value!r}",
        "not_a_flag": "{name} must be True or False, got {value!r}",
        "padding_idx_type": "padding_idx must be an integer or None, got {value!r}",
        "padding_idx_range": "padding_idx={value!r} is outside the vocabulary: it must be in [0, {vocab_size})",
        "no_torchscript": (
            "{name} cannot be compiled by torch.jit.script: its input checks, which speak the student's "
            "language, are plain Python; use torch.compile(model) instead (TorchScript is in maintenance mode)"
        ),
        "ids_not_tensor": "token ids must be a torch.Tensor of integers, got {type_name}",
        "ids_not_integer": (
            "token ids must be integers (torch.long), got dtype {dtype}: "
            "ids are row numbers of the embedding table, not values"
        ),
        "ids_meta": (
            "token ids are on the meta device, which holds shapes but no values, while the embedding "
            "table is on {device}: put the ids on {device}"
        ),
        "ids_device": "token ids are on {got}, the embedding table on {device}: move the ids with ids.to({device!r})",
        "id_too_large": (
            "token id {value} is out of range: the vocabulary has {vocab_size} tokens, "
            "so ids must be in [0, {vocab_size})"
        ),
        "id_negative": "token id {value} is negative: ids must be in [0, {vocab_size})",
        "ids_bad_ndim": "token ids must have shape (batch, seq), got shape {shape}",
        "x_not_tensor": "x must be a torch.Tensor of shape (batch, seq, d_model), got {type_name}",
        "x_not_float": "x must hold floating-point vectors, got dtype {dtype}: embed the token ids first",
        "x_bad_ndim": "x must have shape (batch, seq, d_model), got shape {shape}",
        "last_dim": "the last dimension of x is {got}, but this module was built with d_model={d_model}",
        "seq_too_long": "sequence length {seq_len} exceeds max_len={max_len}: build the module with a larger max_len",
        "tensor_not_tensor": "{name} must be a torch.Tensor of shape {layout}, got {type_name}",
        "tensor_not_float": "{name} must hold floating-point numbers, got dtype {dtype}",
        "tensor_bad_ndim": "{name} must have shape {layout}, got shape {shape}",
        "positions_not_tensor": "positions must be a torch.Tensor of integers, shape (seq,) or (batch, seq), got {type_name}",
        "positions_not_integer": "positions must be integers, got dtype {dtype}: a position is a row number of the table",
        "positions_shape": (
            "positions must have shape ({seq},) or ({batch}, {seq}) for {name} of shape {x_shape}, "
            "got shape {shape}"
        ),
        "positions_meta": (
            "positions {value!r} are on the meta device, which holds shapes but no values, while this "
            "module computes on {device}: put the positions on {device}"
        ),
        "position_too_large": (
            "position {value} is out of range: this module was built with max_len={max_len}, "
            "so positions must be in [0, {max_len})"
        ),
        "position_negative": "position {value} is negative: positions must be in [0, {max_len})",
    },
)

# the word-level tokenizer, ``vocab.py``
VOCAB = Messages(
    "vocab",
    {
        "texts_not_list": "texts must be a list of strings, got {type_name}",
        "text_not_str": "each text must be a str, got {type_name}",
        "empty_batch": "encode_batch needs at least one text, got an empty list",
        "tokens_not_list": (
            "a vocabulary is built from a list of token strings, got {type_name}: "
            "use Vocab.build(texts) to build one from texts"
        ),
        "specials_first": "a vocabulary starts with the special tokens {specials}, got {first!r}",
        "duplicate_token": (
            "token {token!r} appears twice in the vocabulary (ids {first} and {second}): "
            "each token needs exactly one id"
        ),
        "decode_not_ids": "decode takes a list or a 1-d tensor of integer ids, got {got}",
        "decode_meta": (
            "decode needs the ids' values, but {value!r} is on the meta device, which holds shapes only: "
            "decode ids computed on a real device (cpu, cuda)"
        ),
        "decode_id_range": "id {value!r} is not in the vocabulary: ids must be in [0, {vocab_size})",
        "min_freq": "min_freq must be a positive integer, got {value!r}",
        "no_counts": (
            "this vocabulary was made from a list of tokens, so it has no word counts to cut by "
            "min_freq: build it with Vocab.build(texts)"
        ),
    },
)

# RoPE and ALiBi, ``rotary.py``
ROTARY = Messages(
    "rotary",
    {
        "odd_head_dim": "head_dim must be even, got {value}: RoPE rotates the coordinates of a head in pairs",
        "last_dim": "the last dimension of {name} is {got}, but this module was built with head_dim={head_dim}",
        "qk_mismatch": (
            "q and k must have the same batch size and sequence length (their numbers of heads may "
            "differ, as in grouped-query attention), got q of shape {q_shape} and k of shape {k_shape}"
        ),
        "bias_too_large": (
            "an ALiBi bias of {heads} × {seq} × {seq} = {entries} entries is too large: building it takes "
            "{need} GiB of memory at its peak, and the limit is {limit} GiB; lower seq_len"
        ),
        "heads_too_many": (
            "num_heads={value!r} is too large: its slopes take {need} GiB of memory at their peak, and the "
            "limit is {limit} GiB"
        ),
        # rope_scaling: Hugging Face's dict, as a model's config.json writes it
        "scaling_not_dict": (
            "rope_scaling must be None or a dict as a model's config.json writes it, such as "
            "{{'rope_type': 'linear', 'factor': 2.0}}, got {value!r}"
        ),
        "scaling_unknown_type": "rope_scaling's rope_type must be one of {allowed}, got {value!r}",
        "scaling_type_conflict": (
            "rope_scaling names two methods: rope_type={value!r} and the older type={older!r}; "
            "keep one of the two keys"
        ),
        "scaling_unknown_key": "rope_scaling of rope_type {rope_type!r} has no key {key!r}: its keys are {allowed}",
        "scaling_missing_key": "rope_scaling of rope_type {rope_type!r} needs the key {key!r} ({meaning})",
        "scaling_meaning_factor": "how many times longer than the training length the context becomes",
        "scaling_meaning_original": (
            "the training length: config.json's max_position_embeddings before scaling, as transformers "
            "copies it"
        ),
        "scaling_meaning_freq": (
            "the wavelength thresholds are original_max_position_embeddings divided by low_freq_factor "
            "and by high_freq_factor"
        ),
        "scaling_not_positive": "rope_scaling's {key} must be a finite number greater than 0, got {value!r}",
        "scaling_original_len": (
            "rope_scaling's original_max_position_embeddings must be an integer greater than 0 "
            "(the training length), got {value!r}"
        ),
        "scaling_freq_order": (
            "rope_scaling's low_freq_factor must be less than high_freq_factor, got low_freq_factor={low!r} "
            "and high_freq_factor={high!r}: the pairs whose wavelength is between "
            "original_max_position_embeddings / high_freq_factor and original_max_position_embeddings / "
            "low_freq_factor get a frequency between θ / factor and θ, so the first must be the shorter"
        ),
        "scaling_beta_order": (
            "rope_scaling's beta_fast must be greater than beta_slow, got beta_fast={fast!r} and "
            "beta_slow={slow!r}: pairs making more than beta_fast turns within the training length keep "
            "their frequency, those making fewer than beta_slow are interpolated"
        ),
        "scaling_theta": (
            "rope_scaling's rope_theta={value!r} differs from base={base!r}: they are the same number "
            "(transformers writes the base as rope_theta); give it once, as base"
        ),
        "scaling_dynamic_head_dim": (
            "rope_type 'dynamic' needs head_dim of at least 4, got {value!r}: it multiplies the base by "
            "factor to the power head_dim / (head_dim - 2)"
        ),
    },
)

# lesson 7's experiment, ``extrapolation.py``
EXTRAPOLATION = Messages(
    "extrapolation",
    {
        "head_dim": (
            "d_model={d_model} must split into n_heads={n_heads} heads of an even width "
            "(RoPE turns the coordinates of a head in pairs)"
        ),
        "lengths": (
            "the lengths must not decrease, and k must be smaller: k={k} < min_len={min_len} <= train_len={train_len} <= "
            "test_len={test_len} (every training sequence needs a target after position k)"
        ),
        "lookup_k": (
            "the lookup task needs k + 1 < min_len, got k={k}, min_len={min_len}: "
            "y[i] = x[k] is a target only after position k"
        ),
        "lr": "lr must be a positive number, got {value!r}",
        "dtype": "dtype must be torch.float32 or torch.float64, got {value!r}",
        "pairs_or_weights": "by_pair splits scores, and weights are not a sum of pair terms: ask for one of the two",
        "test_length": "a test length must be in 2 .. test_len={test_len}, got {value!r}",
    },
)

# course_lib.scaling (lesson 9): RoPE's scaling methods on lesson 7's tiny model
SCALING = Messages(
    "scaling",
    {
        "no_model": (
            "no model for seed {seed!r} ships with the package: it has seeds {seeds}; "
            "train one with course_lib.scaling.train_model({seed!r}) (about 4 s)"
        ),
        "not_rotary": (
            "model must be a TinyTransformer with rotary positions, got {value}: "
            "rope_scaling changes the angles of RoPE, and this model has none"
        ),
        "no_models": "models must map each seed to its trained model, got {value!r}",
        "not_fine_tune": "tune must be a course_lib.scaling.FineTune (steps, lr, batch_size), got {value!r}",
        # check_claims: what held in every seed, printed by lesson 9 (the thresholds are the code's)
        "claim_none": "plain RoPE: ≥ 90 % at 2L, below 90 % at 4L, below 75 % at 8L",
        "claim_linear": "linear: below plain RoPE at every length, below 35 % at 4L and 8L",
        "claim_yarn": "yarn: ≥ 95 % at 2L and 4L, ≥ 75 % at 8L, above plain RoPE at 4L and 8L",
        "claim_dynamic": "dynamic: ≥ 70 % at every length, above plain RoPE at 4L and 8L",
        "claim_llama3": "llama3 (low 1, high 4): below yarn at 4L and 8L",
        "claim_tuned": (
            "after fine-tuning at {lengths}: plain RoPE, dynamic, yarn, llama3 ≥ 98 % in every seed; "
            "linear below 95 %"
        ),
        "claim_failed": "{claim}: not in every seed; min-max {table}",
        "not_measured": (
            "nothing was measured for method={method!r}, factor={factor!r}, tuned={tuned!r}: "
            "the measurement has {measured}"
        ),
    },
)
