"""The messages of :mod:`course_lib.widgets`: slider descriptions, buttons, readouts and input errors.

``LIVE`` holds what every explorer shares (a setting out of its range, a saved value replaced);
``MESSAGES`` holds the texts of the explorers of lessons 3–5 (``table``, ``embeddings``,
``attention``), grouped by the module that uses each entry; the explorers of lessons 1, 2, 6, 7
and 8 each have their own catalogue below (``VOCAB`` … ``ROTARY``), imported by their module as
``MESSAGES``. The labels of the figures inside the widgets come from :mod:`course_lib.plots.messages`.

    >>> MESSAGES("slider_base", "ru")
    'основание base'
"""

from ..i18n import Messages

__all__ = [
    "LIVE",
    "MESSAGES",
    "VOCAB",
    "TOKENS",
    "COMPARATOR",
    "POSITIONS",
    "EXTRAPOLATION",
    "ROTARY",
    "SCALING",
]

# live.py: every explorer's settings (Checked) and what the browser writes when it clamped a saved value
LIVE = Messages(
    "widgets_live",
    {
        "int_range": "{name} must be an integer from {low} to {high} (the explorer's range), got {value!r}",
        "number_range": "{name} must be a number from {low} to {high} (the explorer's range), got {value!r}",
        "text_too_long": "{name} must be at most {longest} characters long (the explorer's limit), got {length}",
        # written by the browser (js/common.js, guard) when a saved notebook held a value outside the bounds
        "clamped": "The saved notebook held values this explorer cannot show; it shows these instead: {changes}.",
        # under an explorer in a notebook whose kernel is not connected (js/common.js, kernelStatus), in
        # place of JupyterLab's unexplained red "disconnected" icon
        "no_kernel": "Live in the page; run the lesson's cells to connect it to Python.",
    },
)

MESSAGES = Messages(
    "widgets",
    {
        # table.py: table_explorer (lesson 5)
        "slider_positions": "positions",
        "slider_base": "base",
        "table_readout": (
            "d_model = {d_model}, {num_positions} positions, base = {base}. "
            "Wavelength, in positions: from {shortest} (i = 0) to {longest} (i = {last_i})."
        ),
        "table_slow": (
            "{slow} of {d_model} columns ({percent}%) have a wavelength longer than the "
            "{num_positions} positions shown: they change slowly."
        ),
        # table.py: rotation_explorer (lesson 5)
        "slider_pos": "position pos",
        "slider_pair": "pair i",
        "rotation_readout": (
            "ω = base^(-2i/d_model) = {omega}, angle k·ω = {angle} rad. "
            "Turning the pair of P[{pos}] by it gives the pair of P[{pos_k}] "
            "(largest difference {err})."
        ),
        # embeddings.py: embedding_explorer (lesson 3)
        "sentence": "sentence",
        "show": "show",
        "show_tokens": "token embeddings",
        "show_sum": "+ positional encoding",
        "explorer_tokens_title": "Token embeddings × √d_model",
        "explorer_sum_title": "Token embeddings × √d_model + positional encoding",
        "embedding_readout": "{seq} tokens, d_model = {d_model}. RMS of the values shown: {rms}.",
        "embedding_repeat": '"{token}" at positions {first} and {second}: its two rows differ by at most {diff}.',
        "embedding_no_repeat": "No token comes twice in this sentence.",
        "sentence_range": "sentence must be the index of a sentence, an integer from 0 to {last} ({count} sentences), got {value!r}",
        "sentences_invalid": "sentences must be a non-empty list of non-empty strings, got {value!r}",
        # attention.py: balance_explorer (lesson 4)
        "slider_token_scale": "token scale c",
        "balance_title": "input = {scale} · token vectors + P",
        "balance_rms": "c = {scale}. RMS of the token vectors × c: {tokens}, of P: {positions} (ratio {ratio}).",
        "balance_effects": (
            "Attention weight that moves — effect of the positions: {positions} "
            "(0: attention sees only the words); effect of the words: {words} "
            "(0: it sees only the positions)."
        ),
        "balance_fixed": (
            "{name} is fixed when the explorer is built (the weights are computed for it): "
            "call balance_explorer again for other sentences, got {value!r}"
        ),
        "balance_slider_range": "scale must be a number from 0.01 to 100, the slider's range, got {value!r}",
    },
)


# vocab.py: vocab_explorer (lesson 1)
VOCAB = Messages(
    "widgets_vocab",
    {
        "text": "text",
        "min_freq": "min_freq",
        "readout": (
            "Vocabulary with min_freq = {min_freq}: {size} tokens. "
            "The held-out text: {unknown} of its {n} tokens are <unk>, {share} %."
        ),
        "plot_title": "The smaller the vocabulary, the more of the held-out text becomes <unk>",
        "plot_size": "vocabulary size",
        "plot_share": "<unk> share, %",
        "plot_no_heldout": "The vocabulary's size for each min_freq",
        "not_texts": "heldout must be a list of strings, got {type_name}",
    },
)


# tokens.py: token_explorer (lesson 2)
TOKENS = Messages(
    "widgets_tokens",
    {
        "text": "text",
        "readout": (
            "{n_tokens} tokens for {n_words} words: {per_word} tokens per word. "
            "The text has {n_chars} characters, {n_bytes} bytes in UTF-8."
        ),
        "bad_sizes": "sizes must be a non-empty list of vocabulary sizes, got {value!r}",
        "not_a_size": "size must be one of the sizes of the slider, {sizes}, got {value!r}",
    },
)


# comparator.py: tokenizer_comparator (lesson 2)
COMPARATOR = Messages(
    "widgets_comparator",
    {
        "text": "text",
        "english": "the same in English",
        "course": "the course's BPE ({size} tokens)",
        "readout": "The text: {n_words} words, {n_chars} characters; in English: {n_english} words.",
        "row": "{name}: {n_tokens} tokens, {per_word} per word, ×{ratio} against the English text",
        "loading": "loading its vocabulary…",
        "unavailable": "not in this copy of the course: gpt-tokenizer's files are installed by make (npm ci)",
        "no_kernel_data": "its vocabulary comes from the kernel: run this cell",
        "hint": "A number under a token is its id. Click a token of the course's BPE to see the merges that built it.",
        "tree": "How «{token}» (id {id}) was built, merge by merge, down to its bytes:",
        "merge": "{token} (id {id}) = merge of",
        "byte": "{token} (id {id}): byte {hex}",
    },
)


# positions.py: left_padding_explorer (lesson 6)
POSITIONS = Messages(
    "widgets_positions",
    {
        "padding": "padding on the left",
        "positions": "positions",
        "default": "0 .. seq-1",
        "mask": "from the mask",
        "readout": "{padding} × <pad>, then the text at positions {positions}: {verdict}.",
        "padding_range": "padding must be an integer from 0 to max_padding = {max_padding}, got {value!r}",
    },
)


# extrapolation.py: extrapolation_explorer (lesson 7)
EXTRAPOLATION = Messages(
    "extrapolation_widget",
    {
        "slider_length": "length",
        "title": (
            "Accuracy at each position of sequences of {n} tokens\n"
            "dashed: the accuracy over the whole sequence"
        ),
        "readout": (
            "{variant}: {total} % right at length {n}; {seen} % on positions below {train_len}; "
            "beyond: {unseen}"
        ),
        # the share beyond the training length, with the percent sign as the language writes it
        "unseen_share": "{share} %",
        "no_unseen": "no positions",
        "no_target": "–",
        "variants": "variants shown",
        "not_causal": (
            "the explorer reads shorter sequences as the first tokens of the longest ones, which "
            "holds for a causal model only: run the experiment with Config(causal=True)"
        ),
        "length_range": "length must be an integer in 2 .. {test_len} (the test length), got {value!r}",
    },
)


# rotary.py: rope_explorer, alibi_explorer, rope_angles_explorer (lesson 8)
ROTARY = Messages(
    "widgets_rotary",
    {
        # rope_explorer
        "slider_m": "query position m",
        "slider_n": "key position n",
        "slider_pair": "pair i",
        "together": "move m and n together",
        "rope_readout": (
            "m − n = {offset}, q_m · k_n = {score}. Shifting both positions by the same amount, keeping "
            "them in 0 … {last}, gives the same score: {shifts} shifts checked, largest difference {err}."
        ),
        # alibi_explorer
        "slider_heads": "number of heads",
        "slider_head": "head h",
        "alibi_power": "{heads} heads: the slopes are 2^(−8h/{heads}) for h = 1 … {heads}, a geometric sequence.",
        "alibi_other": (
            "{heads} heads is not a power of two: heads 1 … {closest} take the slopes of {closest} "
            "heads, heads {next} … {heads} every other slope of {double} heads (the 1st, 3rd, …)."
        ),
        "alibi_one": "1 head: its slope is 2^(−8).",
        "alibi_readout": (
            "Head {head}: s_h = {slope} = {value}. With equal content scores the last query gives "
            "half of its attention to the nearest {half} of {seq} keys."
        ),
        # rope_angles_explorer
        "slider_base": "base",
        "slider_scale": "interpolation κ",
        "angles_readout": (
            "Trained on positions 0 … {last_train} with base = 10 000. Now positions 0 … {last} are "
            "divided by κ = {scale} and turned with base = {base}: {new} of {pairs} pairs reach angles "
            "they never saw in training (▼). The slowest pair turns by {slow_now} rad in all (in "
            "training: {slow_train} rad)."
        ),
    },
)

# scaling.py: rope_scaling_explorer (lesson 9)
SCALING = Messages(
    "widgets_scaling",
    {
        # rope_scaling_explorer (lesson 9)
        "preset": "a published config",
        "method": "method",
        "method_none": "no scaling",
        "method_linear": "position interpolation",
        "method_dynamic": "NTK-aware (dynamic)",
        "method_yarn": "YaRN",
        "method_llama3": "Llama 3",
        "slider_base": "base",
        "slider_factor": "factor κ",
        "slider_original": "training length L",
        "slider_context": "context C",
        "slider_low": "low_freq_factor (Llama 3)",
        "slider_high": "high_freq_factor (Llama 3)",
        "readout": (
            "{method}, base = {base}, κ = {factor}, L = {original}, C = {context}: of {pairs} pairs, {kept} keep their "
            "frequency, {divided} turn κ times slower, {between} in between.{attention}{llama3}{dynamic} Pairs that meet angles "
            "never seen in training within C positions (▼): {unseen} (without scaling: {unseen_before})."
        ),
        "attention": " YaRN multiplies cos and sin by {value}.",
        "llama3": (
            " Pairs with wavelengths below L / high_freq_factor = {short} positions keep their frequency, "
            "those above L / low_freq_factor = {long} turn κ times slower."
        ),
        # dynamic's factor at the length C: what it runs with, not κ (lesson 9: κ_ℓ)
        "dynamic": " At ℓ = C, dynamic runs with κ_ℓ = max(1, κ·C/L − (κ − 1)) = {kl}.",
        # after "dynamic" once C passes L: "in between" then spans 1 to κ_ℓ, past κ when κ_ℓ > κ
        "dynamic_range": " The pairs in between are slowed 1 to {kl} times, {beyond} of them more than κ times.",
        "title": "Turns of each pair within C = {context} positions: {method}",
        "xlabel": "pair i",
        "ylabel": "turns within C, C·ω_i / 2π",
        "ylabel_right": "frequency ω_i, rad per position",
        "before": "before scaling",
        "after": "after scaling",
        "trained": "in training: L·ω_i / 2π",
    },
)
