"""The messages of :mod:`course_lib.plots`: titles, axis labels, legends and input errors.

``MESSAGES`` holds what the figures share, grouped by the module that uses each entry; a
module with labels of its own has its own catalogue below (``VOCAB``, ``TOKENS``,
``POSITIONS``, ``EXTRAPOLATION``, ``ROTARY``, ``LONG_CONTEXT``, ``ALIBI``), which that module
calls ``MESSAGES``. A figure function takes ``lang`` (None: the current language) and passes
it on; an error message always follows :func:`course_lib.set_language`.

    >>> MESSAGES("positions", "ru"), MESSAGES("table_title", "en", num_positions=4, d_model=8)
    ('позиция', 'Positional encoding table: 4 × 8\\n(positions × dimensions)')
"""

from ..i18n import Messages

__all__ = ["MESSAGES", "VOCAB", "TOKENS", "POSITIONS", "EXTRAPOLATION", "ROTARY", "LONG_CONTEXT", "ALIBI"]

MESSAGES = Messages(
    "plots",
    {
        # axis labels shared by the figures
        "positions": "position",
        # "размерность" is the size of a vector (d_model); one of its coordinates is a "координата"
        # ("измерение" is kept for the axes of a tensor: notebooks/GLOSSARY.md)
        "dimension": "dimension",
        "value": "value",
        "token": "token",
        "offset": "offset k",
        "dot_product": "dot product",
        # input checks (figure.py)
        "plot_not_array": "{name} must be a torch.Tensor or a numpy array, got {type_name}",
        "plot_not_numeric": "{name} must hold numbers, got dtype {dtype}",
        "plot_bad_ndim": "{name} must have {ndim} dimensions (rows, columns), got shape {shape}",
        "plot_empty": "{name} is empty (shape {shape}): there is nothing to draw",
        "plot_no_dims": "dims is empty: give at least one column of the table to draw",
        "plot_dim_range": "dimension {dim!r} is out of range: with d_model={d_model} the columns are 0 .. {last}",
        "plot_positions": "positions must be non-negative integers, got {value!r}",
        # table.py: plot_table, plot_waves, plot_similarity, plot_rotation
        # two lines: on one, the Russian title is wider than the heatmap and its first letter was cut off
        "table_title": "Positional encoding table: {num_positions} × {d_model}\n(positions × dimensions)",
        "waves_title": "Columns of the table (d_model = {d_model}): each is a wave of length {formula}",
        "wave_label": "dimension {dim}: {func}, i = {i}, λ = {wavelength}",
        "similarity_title": (
            "The dot product of the rows P[pos] and P[pos + k] depends only on the offset k:\n"
            "constant along each diagonal, the same curve for every pos"
        ),
        "rotation_at_pos": "position pos = {pos}",
        "rotation_at_pos_k": "position pos + k = {pos}",
        "rotation_title": "Pair i = {i}: the offset k = {k} turns the point by k·ω = {angle} rad",
        "rotation_matrix": "the same rotation\nfor every pos:",
        "plot_pair_range": (
            "pair i={i!r} is out of range: with d_model={d_model} there are {pairs} sine/cosine pairs, "
            "so i = 0 .. {last}"
        ),
        # embeddings.py: plot_embeddings, plot_magnitudes
        "embeddings_title": "Vectors of the sentence: {seq} × {d_model} (tokens × dimensions)",
        "plot_tokens_count": "got {n_tokens} tokens for {n_rows} vectors: give one token per row",
        "magnitude_default": "nn.Embedding, default init\nN(0, 1), × √d_model",
        "magnitude_course_lib": "course_lib TokenEmbedding\nN(0, 1/d_model), × √d_model",
        "magnitude_positions": "positional encoding\n(sinusoidal table)",
        "rms": "RMS of the entries",
        "magnitudes_title": "Token vectors and the positional encoding added to them\n(d_model = {d_model}, vocab_size = {vocab_size})",
        # precision.py: plot_precision
        "precision_float32": "computed in float32 throughout (common tutorial code)",
        "precision_course_lib": "course_lib.sinusoidal_table: float64, cast to float32 at the end",
        "max_error": "largest |error| in the row",
        "precision_title": "float32 table against exact values (d_model = {d_model})",
        # attention.py: plot_attention
        "attention_title": "Attention weights\nrow: the token that asks (query); column: the token it looks at (key)",
        "attention_weight": "attention weight",
        "attention_query": "query",
        "attention_key": "key",
        "plot_attention_list": "weights must be a non-empty list of (seq, seq) tensors, one per heatmap, got {value}",
        "plot_attention_square": "weights[{j}] must be a square (seq, seq) matrix of attention weights, got shape {shape}",
        "plot_attention_count": "{name} has {got} items for {n} weight matrices: give one per heatmap",
        # attention.py: attention_balance, plot_balance
        "balance_position_effect": "effect of the positions (0: attention sees only the words)",
        "balance_word_effect": "effect of the words (0: attention sees only the positions)",
        "balance_course_lib": " c = 1: course_lib",
        "balance_default": " c = √d_model = {c:.0f}: PyTorch's N(0, 1) × √d_model",
        "balance_scale": "c, the factor in front of the token vectors",
        "balance_moved": "attention weight that moves",
        "balance_title": 'Input c · tokens + P: "{first}" against "{second}"',
        "balance_not_permutation": (
            "the two sentences must have the same tokens in another order, each token once; "
            "got {first!r} and {second!r}"
        ),
        "balance_scale_range": "scale must be a finite number >= 0, got {value!r}",
        "plot_attention_tokens": "tokens[{j}] has {n_tokens} tokens for a {seq} × {seq} matrix: give one token per row",
    },
)

#: vocab.py: show_words (lesson 1)
VOCAB = Messages(
    "plots_vocab",
    {
        "id": "ID",
        "decoded": "decodes to",
        "summary": "{n} tokens; the vocabulary ({size} tokens) does not know {unknown} of them.",
        "not_vocab": "vocab must be a course_lib.Vocab, e.g. Vocab.build(corpus), got {type_name}",
    },
)

#: tokens.py: show_tokens, plot_fertility (lesson 2)
TOKENS = Messages(
    "plots_tokens",
    {
        "vocab_size": "vocabulary size",
        "tokens_per_word": "tokens per word (fertility)",
        "fertility_title": "Tokens per word of a text the tokenizer never saw",
        "row_label": "vocabulary size {size}, tokens in the text: {n}",
        "cut_bytes": "Dashed: a byte of a character that no token holds whole, shown as \\xNN.",
        "not_tokenizer": "{name} must be a course_lib.BPETokenizer, got {type_name}",
        "not_text": "text must be a str, got {type_name}",
        "no_tokenizers": "tokenizers must be a non-empty list of course_lib.BPETokenizer, got {value!r}",
        "bad_curves": (
            "curves must map each label to a non-empty {{vocabulary size: tokens per word}} dict, with "
            "sizes positive integers and values positive numbers; the problem is {value!r}"
        ),
    },
)

#: positions.py: plot_left_padding (lesson 6)
POSITIONS = Messages(
    "plots_positions",
    {
        "dimension": "dimension",
        "token": "token · its position",
        "value": "value added",
        "alone": "The text alone",
        "default": "{padding} × <pad> on the left, positions 0 .. seq-1",
        "mask": "{padding} × <pad> on the left, positions from the mask",
        "same": "the text gets the rows it gets alone",
        "differ": "the text gets other rows than alone",
        "suptitle": "Rows of the positional table each token receives",
        "tokens_invalid": "tokens must be a non-empty list of strings, got {value!r}",
    },
)

#: extrapolation.py: the length experiment (lesson 7)
EXTRAPOLATION = Messages(
    "extrapolation_plot",
    {
        "sinusoidal": "sinusoidal",
        "learned": "learned",
        "none": "none (NoPE)",
        "rotary": "rotary (RoPE)",
        "alibi": "linear biases (ALiBi)",
        "accuracy": "accuracy",
        "test_length": "test sequence length",
        "position": "position",
        "by_length_title": "accuracy against length",
        "by_position_title": "accuracy at each position, sequences of {test_len}",
        "unseen": "never seen in training",
        "chance": "chance",
        "task_shift": "task: y[m] = x[m − {k}], trained on lengths {min_len}–{train_len}",
        "task_lookup": "task: y[m] = x[{k}], trained on lengths {min_len}–{train_len}",
        "distance": "distance m − n (the key m − n places before the query)",
        "mean_score": "mean score",
        "head": "layer {layer}, head {head}",
        "scores_title_rotary": "The score the rotary model gives a key at each distance",
        "scores_title_alibi": "The score the ALiBi model gives a key at each distance, its bias included",
        "pair": "pair i (coordinates 2i, 2i + 1 of the head)",
        "pair_score": "term of the score",
        "at_distance": "distance m − n = {d}",
        "pairs_title": "The score of the last query, split into the terms of the pairs RoPE turns together",
        "bad_distance": "a distance must be an integer in 0 .. {last}, got {value!r}",
        "not_results": (
            "results must be the non-empty dict that extrapolation.run returns, {{variant: Result}}, "
            "got {value}"
        ),
    },
)

#: rotary.py: RoPE's rotation and layouts (lesson 8)
ROTARY = Messages(
    "plots_rotary",
    {
        # plot_rope_rotation
        "rope_q": "q at position m = {m}: turned by m·ω_i = {angle} rad",
        "rope_k": "k at position n = {n}: turned by n·ω_i = {angle} rad",
        "rope_pair_title": "pair i = {i}, ω_i = θ^(−2i/head_dim) = {theta}",
        "rope_offset": "offset m − n",
        "rope_coordinate": "coordinate {c}",
        "rope_curve_title": "q_m · k_n at every offset m − n",
        "rope_title": "RoPE, head_dim = {head_dim}: m = {m}, n = {n}, so m − n = {offset} and q_m · k_n = {score}",
        # plot_rope_layouts
        "layout_interleaved": "interleaved (2i, 2i+1)\nRoFormer, Meta's LLaMA",
        "layout_half": "halves (i, i + d/2)\nGPT-NeoX, Hugging Face",
        "layout_coordinate": "coordinate of q or k",
        "layout_title": "Which coordinates form pair i, head_dim = {head_dim}\n(the number in each cell is its pair i)",
        "plot_even_head_dim": "head_dim must be even, got {value!r}: RoPE turns the coordinates of a head in pairs",
        "plot_rope_pair": "pair={value!r} is out of range: head_dim={head_dim} has pairs 0 .. {last}",
    },
)

#: long_context.py: RoPE's angles past the training length (lesson 8)
LONG_CONTEXT = Messages(
    "plots_long_context",
    {
        "angles_pair": "pair i",
        "angles_position": "position m",
        "angles_colour": "cos(angle)",
        "angles_train": "training length L = {train_len}",
        "angles_title": "base = {base}, κ = {scale}: {new} of {pairs} pairs\nreach angles not seen in training",
        "scaling_before": "before",
        "scaling_after": "after",
        "scaling_train": "training length L = {L}",
        "scaling_wavelength": "wavelength 2π/ω_i, positions",
        "scaling_ratio": "ω'_i / ω_i (1: kept)",
        "scaling_title": "{method}, κ = {factor}{dynamic}, base = {base}, head_dim = {head_dim}; factor on cos and sin {attention}",
        "plot_scale": "scale must be a number >= 1 (positions are divided by it), got {value!r}",
    },
)

#: alibi.py: ALiBi's bias and weights (lesson 8)
ALIBI = Messages(
    "plots_alibi",
    {
        "alibi_query": "query m",
        "alibi_key": "key n",
        "alibi_head": "head {h}: {slope}",
        "alibi_bias": "bias $-s_h \\cdot (m - n)$",
        "alibi_title": "ALiBi with H = {heads} heads: the bias added to the score of query m and key n",
        "alibi_distance": "distance m − n",
        "alibi_weight": "weight of the last query",
        "alibi_equal": "all content scores equal",
        "alibi_weights_title": "Weights of the last query when all content scores are equal:\nsoftmax$(-s_h \\cdot (m - n))$",
        "plot_alibi_head": "head={value!r} is out of range: with {heads} heads, head is 1 .. {heads}",
    },
)
