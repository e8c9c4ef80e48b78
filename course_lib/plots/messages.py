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
        "positions": {"en": "position", "ru": "позиция"},
        # "размерность" is the size of a vector (d_model); one of its coordinates is a "координата"
        # ("измерение" is kept for the axes of a tensor: notebooks/GLOSSARY.md)
        "dimension": {"en": "dimension", "ru": "координата"},
        "value": {"en": "value", "ru": "значение"},
        "token": {"en": "token", "ru": "токен"},
        "offset": {"en": "offset k", "ru": "сдвиг k"},
        "dot_product": {"en": "dot product", "ru": "скалярное произведение"},
        # input checks (figure.py)
        "plot_not_array": {
            "en": "{name} must be a torch.Tensor or a numpy array, got {type_name}",
            "ru": "аргумент `{name}` должен быть тензором torch.Tensor или массивом numpy, а получен {type_name}",
        },
        "plot_not_numeric": {
            "en": "{name} must hold numbers, got dtype {dtype}",
            "ru": "аргумент `{name}` должен содержать числа, а получен dtype {dtype}",
        },
        "plot_bad_ndim": {
            "en": "{name} must have {ndim} dimensions (rows, columns), got shape {shape}",
            "ru": "аргумент `{name}` должен быть {ndim}-мерным (строки, столбцы), а получена форма {shape}",
        },
        "plot_empty": {
            "en": "{name} is empty (shape {shape}): there is nothing to draw",
            "ru": "аргумент `{name}` пуст (форма {shape}): рисовать нечего",
        },
        "plot_no_dims": {
            "en": "dims is empty: give at least one column of the table to draw",
            "ru": "список `dims` пуст: укажите хотя бы один столбец таблицы",
        },
        "plot_dim_range": {
            "en": "dimension {dim!r} is out of range: with d_model={d_model} the columns are 0 .. {last}",
            "ru": "столбец {dim!r} вне диапазона: при d_model={d_model} столбцы нумеруются от 0 до {last}",
        },
        "plot_positions": {
            "en": "positions must be non-negative integers, got {value!r}",
            "ru": "позиции должны быть целыми неотрицательными числами, а получено {value!r}",
        },
        # table.py: plot_table, plot_waves, plot_similarity, plot_rotation
        "table_title": {
            # two lines: on one, the Russian title is wider than the heatmap and its first letter was cut off
            "en": "Positional encoding table: {num_positions} × {d_model}\n(positions × dimensions)",
            "ru": "Таблица позиционного кодирования: {num_positions} × {d_model}\n(позиции × координаты)",
        },
        "waves_title": {
            "en": "Columns of the table (d_model = {d_model}): each is a wave of length {formula}",
            "ru": "Столбцы таблицы (d_model = {d_model}): каждый — волна длиной {formula}",
        },
        "wave_label": {
            "en": "dimension {dim}: {func}, i = {i}, λ = {wavelength}",
            "ru": "столбец {dim}: {func}, i = {i}, λ = {wavelength}",
        },
        "similarity_title": {
            "en": "The dot product of the rows P[pos] and P[pos + k] depends only on the offset k:\n"
            "constant along each diagonal, the same curve for every pos",
            "ru": "Скалярное произведение строк P[pos] и P[pos + k] зависит только от сдвига k:\n"
            "оно постоянно вдоль каждой диагонали, и кривая одна и та же при любом pos",
        },
        "rotation_at_pos": {"en": "position pos = {pos}", "ru": "позиция pos = {pos}"},
        "rotation_at_pos_k": {"en": "position pos + k = {pos}", "ru": "позиция pos + k = {pos}"},
        "rotation_title": {
            "en": "Pair i = {i}: the offset k = {k} turns the point by k·ω = {angle} rad",
            "ru": "Пара i = {i}: сдвиг k = {k} поворачивает точку на k·ω = {angle} рад",
        },
        "rotation_matrix": {
            "en": "the same rotation\nfor every pos:",
            "ru": "один и тот же поворот\nпри любом pos:",
        },
        "plot_pair_range": {
            "en": "pair i={i!r} is out of range: with d_model={d_model} there are {pairs} sine/cosine pairs, "
            "so i = 0 .. {last}",
            "ru": "пара i={i!r} вне диапазона: при d_model={d_model} пар «синус, косинус» всего {pairs}, "
            "поэтому i от 0 до {last}",
        },
        # embeddings.py: plot_embeddings, plot_magnitudes
        "embeddings_title": {
            "en": "Vectors of the sentence: {seq} × {d_model} (tokens × dimensions)",
            "ru": "Векторы предложения: {seq} × {d_model} (токены × координаты)",
        },
        "plot_tokens_count": {
            "en": "got {n_tokens} tokens for {n_rows} vectors: give one token per row",
            "ru": "токенов передано {n_tokens}, а векторов {n_rows}: нужен ровно один токен на строку",
        },
        "magnitude_default": {
            "en": "nn.Embedding, default init\nN(0, 1), × √d_model",
            "ru": "nn.Embedding, инициализация\nпо умолчанию N(0, 1), × √d_model",
        },
        "magnitude_course_lib": {
            "en": "course_lib TokenEmbedding\nN(0, 1/d_model), × √d_model",
            "ru": "TokenEmbedding из course_lib\nN(0, 1/d_model), × √d_model",
        },
        "magnitude_positions": {
            "en": "positional encoding\n(sinusoidal table)",
            "ru": "позиционное кодирование\n(синусоидальная таблица)",
        },
        "rms": {"en": "RMS of the entries", "ru": "среднеквадратичное значение элементов (RMS)"},
        "magnitudes_title": {
            "en": "Token vectors and the positional encoding added to them\n(d_model = {d_model}, vocab_size = {vocab_size})",
            "ru": "Векторы токенов и прибавляемое к ним позиционное кодирование\n(d_model = {d_model}, vocab_size = {vocab_size})",
        },
        # precision.py: plot_precision
        "precision_float32": {
            "en": "computed in float32 throughout (common tutorial code)",
            "ru": "всё вычислено во float32 (как во многих туториалах)",
        },
        "precision_course_lib": {
            "en": "course_lib.sinusoidal_table: float64, cast to float32 at the end",
            "ru": "course_lib.sinusoidal_table: float64, приведение к float32 в конце",
        },
        "max_error": {
            "en": "largest |error| in the row",
            "ru": "наибольшая |погрешность| в строке",
        },
        "precision_title": {
            "en": "float32 table against exact values (d_model = {d_model})",
            "ru": "Погрешность таблицы во float32 (d_model = {d_model})",
        },
        # attention.py: plot_attention
        "attention_title": {
            "en": "Attention weights\nrow: the token that asks (query); column: the token it looks at (key)",
            "ru": "Веса внимания\nстрока — токен, от которого идёт запрос; столбец — токен, на который он смотрит",
        },
        "attention_weight": {"en": "attention weight", "ru": "вес внимания"},
        "attention_query": {"en": "query", "ru": "запрос"},
        "attention_key": {"en": "key", "ru": "ключ"},
        "plot_attention_list": {
            "en": "weights must be a non-empty list of (seq, seq) tensors, one per heatmap, got {value}",
            "ru": "аргумент `weights` должен быть непустым списком тензоров формы (seq, seq), по одному на тепловую карту, "
            "а получено {value}",
        },
        "plot_attention_square": {
            "en": "weights[{j}] must be a square (seq, seq) matrix of attention weights, got shape {shape}",
            "ru": "элемент weights[{j}] должен быть квадратной матрицей весов внимания (seq, seq), "
            "а получена форма {shape}",
        },
        "plot_attention_count": {
            "en": "{name} has {got} items for {n} weight matrices: give one per heatmap",
            "ru": "в `{name}` элементов: {got}, а матриц весов: {n}; нужно по одному элементу на тепловую карту",
        },
        # attention.py: attention_balance, plot_balance
        "balance_position_effect": {
            "en": "effect of the positions (0: attention sees only the words)",
            "ru": "влияние позиций (0: внимание видит только слова)",
        },
        "balance_word_effect": {
            "en": "effect of the words (0: attention sees only the positions)",
            "ru": "влияние слов (0: внимание видит только позиции)",
        },
        "balance_course_lib": {"en": " c = 1: course_lib", "ru": " c = 1: course_lib"},
        "balance_default": {
            "en": " c = √d_model = {c:.0f}: PyTorch's N(0, 1) × √d_model",
            "ru": " c = √d_model = {c:.0f}: N(0, 1) из PyTorch × √d_model",
        },
        "balance_scale": {
            "en": "c, the factor in front of the token vectors",
            "ru": "c — множитель перед векторами токенов",
        },
        "balance_moved": {
            "en": "attention weight that moves",
            "ru": "доля веса внимания, которая сдвигается",
        },
        "balance_title": {
            "en": 'Input c · tokens + P: "{first}" against "{second}"',
            "ru": "Вход c · токены + P: «{first}» и «{second}»",
        },
        "balance_not_permutation": {
            "en": "the two sentences must have the same tokens in another order, each token once; "
            "got {first!r} and {second!r}",
            "ru": "в двух предложениях должны быть одни и те же токены в разном порядке, каждый по одному разу, "
            "а получено {first!r} и {second!r}",
        },
        "balance_scale_range": {
            "en": "scale must be a finite number >= 0, got {value!r}",
            "ru": "аргумент `scale` должен быть конечным числом ≥ 0, а получено {value!r}",
        },
        "plot_attention_tokens": {
            "en": "tokens[{j}] has {n_tokens} tokens for a {seq} × {seq} matrix: give one token per row",
            "ru": "в tokens[{j}] токенов: {n_tokens}, а матрица {seq} × {seq}: нужен ровно один токен на строку",
        },
    },
)

#: vocab.py: show_words (lesson 1)
VOCAB = Messages(
    "plots_vocab",
    {
        "id": {"en": "ID", "ru": "индекс"},
        "decoded": {"en": "decodes to", "ru": "после декодирования"},
        "summary": {
            "en": "{n} tokens; the vocabulary ({size} tokens) does not know {unknown} of them.",
            "ru": "Токенов: {n}, из них словарь размером {size} не знает {unknown}.",
        },
        "not_vocab": {
            "en": "vocab must be a course_lib.Vocab, e.g. Vocab.build(corpus), got {type_name}",
            "ru": "аргумент `vocab` должен быть объектом course_lib.Vocab, например Vocab.build(corpus), а получен {type_name}",
        },
    },
)

#: tokens.py: show_tokens, plot_fertility (lesson 2)
TOKENS = Messages(
    "plots_tokens",
    {
        "vocab_size": {"en": "vocabulary size", "ru": "размер словаря"},
        "tokens_per_word": {"en": "tokens per word (fertility)", "ru": "токенов на слово (фертильность)"},
        "fertility_title": {
            "en": "Tokens per word of a text the tokenizer never saw",
            "ru": "Токенов на слово в тексте, которого токенизатор не видел",
        },
        "row_label": {
            "en": "vocabulary size {size}, tokens in the text: {n}",
            "ru": "размер словаря {size}, токенов в тексте: {n}",
        },
        "cut_bytes": {
            "en": "Dashed: a byte of a character that no token holds whole, shown as \\xNN.",
            "ru": "Пунктир: байт символа, который ни один токен не содержит целиком, показан как \\xNN.",
        },
        "not_tokenizer": {
            "en": "{name} must be a course_lib.BPETokenizer, got {type_name}",
            "ru": "аргумент `{name}` должен быть объектом course_lib.BPETokenizer, а получен {type_name}",
        },
        "not_text": {
            "en": "text must be a str, got {type_name}",
            "ru": "аргумент `text` должен быть строкой str, а получен {type_name}",
        },
        "no_tokenizers": {
            "en": "tokenizers must be a non-empty list of course_lib.BPETokenizer, got {value!r}",
            "ru": "аргумент `tokenizers` должен быть непустым списком объектов course_lib.BPETokenizer, а получено {value!r}",
        },
        "bad_curves": {
            "en": "curves must map each label to a non-empty {{vocabulary size: tokens per word}} dict, with "
            "sizes positive integers and values positive numbers; the problem is {value!r}",
            "ru": "аргумент `curves` должен сопоставлять каждой подписи непустой `dict` {{размер словаря: токенов на "
            "слово}}, где размеры — целые положительные числа, а значения — положительные числа; "
            "ошибка в {value!r}",
        },
    },
)

#: positions.py: plot_left_padding (lesson 6)
POSITIONS = Messages(
    "plots_positions",
    {
        "dimension": {"en": "dimension", "ru": "координата"},
        "token": {"en": "token · its position", "ru": "токен · его позиция"},
        "value": {"en": "value added", "ru": "прибавленное значение"},
        "alone": {"en": "The text alone", "ru": "текст отдельно"},
        "default": {
            "en": "{padding} × <pad> on the left, positions 0 .. seq-1",
            "ru": "{padding} × <pad> слева, позиции 0 .. seq-1",
        },
        "mask": {
            "en": "{padding} × <pad> on the left, positions from the mask",
            "ru": "{padding} × <pad> слева, позиции из маски",
        },
        "same": {
            "en": "the text gets the rows it gets alone",
            "ru": "текст получает те же строки, что и отдельно",
        },
        "differ": {
            "en": "the text gets other rows than alone",
            "ru": "текст получает не те строки, что отдельно",
        },
        "suptitle": {
            "en": "Rows of the positional table each token receives",
            "ru": "Строки таблицы позиций, которые получает каждый токен",
        },
        "tokens_invalid": {
            "en": "tokens must be a non-empty list of strings, got {value!r}",
            "ru": "аргумент `tokens` должен быть непустым списком строк, а получено {value!r}",
        },
    },
)

#: extrapolation.py: the length experiment (lesson 7)
EXTRAPOLATION = Messages(
    "extrapolation_plot",
    {
        "sinusoidal": {"en": "sinusoidal", "ru": "синусоидальные"},
        "learned": {"en": "learned", "ru": "обучаемые"},
        "none": {"en": "none (NoPE)", "ru": "без позиций (NoPE)"},
        "rotary": {"en": "rotary (RoPE)", "ru": "поворотные (RoPE)"},
        "alibi": {"en": "linear biases (ALiBi)", "ru": "ALiBi (линейные смещения)"},
        "accuracy": {"en": "accuracy", "ru": "точность"},
        "test_length": {"en": "test sequence length", "ru": "длина тестовой последовательности"},
        "position": {"en": "position", "ru": "позиция"},
        "by_length_title": {"en": "accuracy against length", "ru": "точность в зависимости от длины"},
        "by_position_title": {
            "en": "accuracy at each position, sequences of {test_len}",
            "ru": "точность на каждой позиции при длине {test_len}",
        },
        "unseen": {"en": "never seen in training", "ru": "не было при обучении"},
        "chance": {"en": "chance", "ru": "случайное угадывание"},
        "task_shift": {
            "en": "task: y[m] = x[m − {k}], trained on lengths {min_len}–{train_len}",
            "ru": "задача: y[m] = x[m − {k}], обучение на длинах {min_len}–{train_len}",
        },
        "task_lookup": {
            "en": "task: y[m] = x[{k}], trained on lengths {min_len}–{train_len}",
            "ru": "задача: y[m] = x[{k}], обучение на длинах {min_len}–{train_len}",
        },
        "distance": {
            "en": "distance m − n (the key m − n places before the query)",
            "ru": "расстояние m − n (ключ на m − n позиций раньше запроса)",
        },
        "mean_score": {"en": "mean score", "ru": "средняя оценка"},
        "head": {"en": "layer {layer}, head {head}", "ru": "слой {layer}, голова {head}"},
        "scores_title_rotary": {
            "en": "The score the rotary model gives a key at each distance",
            "ru": "Оценка, которую модель с RoPE даёт ключу на каждом расстоянии",
        },
        "scores_title_alibi": {
            "en": "The score the ALiBi model gives a key at each distance, its bias included",
            "ru": "Оценка, которую модель с ALiBi даёт ключу на каждом расстоянии, вместе со смещением",
        },
        "pair": {
            "en": "pair i (coordinates 2i, 2i + 1 of the head)",
            "ru": "пара i (координаты 2i, 2i + 1 головы)",
        },
        "pair_score": {"en": "term of the score", "ru": "слагаемое оценки"},
        "at_distance": {"en": "distance m − n = {d}", "ru": "расстояние m − n = {d}"},
        "pairs_title": {
            "en": "The score of the last query, split into the terms of the pairs RoPE turns together",
            "ru": "Оценка последнего запроса, разложенная на слагаемые пар, которые RoPE поворачивает вместе",
        },
        "bad_distance": {
            "en": "a distance must be an integer in 0 .. {last}, got {value!r}",
            "ru": "расстояние должно быть целым числом от 0 до {last}, а получено {value!r}",
        },
        "not_results": {
            "en": "results must be the non-empty dict that extrapolation.run returns, {{variant: Result}}, "
            "got {value}",
            "ru": "аргумент `results` должен быть непустым словарём Python (`dict`) {{вариант: Result}}, который возвращает "
            "extrapolation.run, а получено {value}",
        },
    },
)

#: rotary.py: RoPE's rotation and layouts (lesson 8)
ROTARY = Messages(
    "plots_rotary",
    {
        # plot_rope_rotation
        "rope_q": {
            "en": "q at position m = {m}: turned by m·ω_i = {angle} rad",
            "ru": "q на позиции m = {m}: повёрнут на m·ω_i = {angle} рад",
        },
        "rope_k": {
            "en": "k at position n = {n}: turned by n·ω_i = {angle} rad",
            "ru": "k на позиции n = {n}: повёрнут на n·ω_i = {angle} рад",
        },
        "rope_pair_title": {
            "en": "pair i = {i}, ω_i = θ^(−2i/head_dim) = {theta}",
            "ru": "пара i = {i}, ω_i = θ^(−2i/head_dim) = {theta}",
        },
        "rope_offset": {"en": "offset m − n", "ru": "сдвиг m − n"},
        "rope_coordinate": {"en": "coordinate {c}", "ru": "координата {c}"},
        "rope_curve_title": {
            "en": "q_m · k_n at every offset m − n",
            "ru": "q_m · k_n при каждом сдвиге m − n",
        },
        "rope_title": {
            "en": "RoPE, head_dim = {head_dim}: m = {m}, n = {n}, so m − n = {offset} and q_m · k_n = {score}",
            "ru": "RoPE, head_dim = {head_dim}: m = {m}, n = {n}, поэтому m − n = {offset} и q_m · k_n = {score}",
        },
        # plot_rope_layouts
        "layout_interleaved": {
            "en": "interleaved (2i, 2i+1)\nRoFormer, Meta's LLaMA",
            "ru": "пары соседних координат (2i, 2i+1)\nRoFormer, LLaMA от Meta",
        },
        "layout_half": {
            "en": "halves (i, i + d/2)\nGPT-NeoX, Hugging Face",
            "ru": "пары из двух половин (i, i + d/2)\nGPT-NeoX, Hugging Face",
        },
        "layout_coordinate": {"en": "coordinate of q or k", "ru": "координата q или k"},
        "layout_title": {
            "en": "Which coordinates form pair i, head_dim = {head_dim}\n(the number in each cell is its pair i)",
            "ru": "Какие координаты образуют пару i, head_dim = {head_dim}\n(в каждой клетке — номер её пары)",
        },
        "plot_even_head_dim": {
            "en": "head_dim must be even, got {value!r}: RoPE turns the coordinates of a head in pairs",
            "ru": "аргумент `head_dim` должен быть чётным, а получено {value!r}: RoPE поворачивает координаты головы парами",
        },
        "plot_rope_pair": {
            "en": "pair={value!r} is out of range: head_dim={head_dim} has pairs 0 .. {last}",
            "ru": "номер пары pair={value!r} вне диапазона: при head_dim={head_dim} пары нумеруются от 0 до {last}",
        },
    },
)

#: long_context.py: RoPE's angles past the training length (lesson 8)
LONG_CONTEXT = Messages(
    "plots_long_context",
    {
        "angles_pair": {"en": "pair i", "ru": "пара i"},
        "angles_position": {"en": "position m", "ru": "позиция m"},
        "angles_colour": {"en": "cos(angle)", "ru": "cos(угла)"},
        "angles_train": {"en": "training length L = {train_len}", "ru": "обучающая длина L = {train_len}"},
        "angles_title": {
            "en": "base = {base}, κ = {scale}: {new} of {pairs} pairs\nreach angles not seen in training",
            "ru": "основание base = {base}, κ = {scale}:\n{new} из {pairs} пар встречают углы,\nкоторых не было при обучении",
        },
        "scaling_before": {"en": "before", "ru": "до"},
        "scaling_after": {"en": "after", "ru": "после"},
        "scaling_train": {"en": "training length L = {L}", "ru": "обучающая длина L = {L}"},
        "scaling_wavelength": {"en": "wavelength 2π/ω_i, positions", "ru": "длина волны 2π/ω_i (в позициях)"},
        "scaling_ratio": {"en": "ω'_i / ω_i (1: kept)", "ru": "ω'_i / ω_i (1: без изменений)"},
        "scaling_title": {
            "en": "{method}, κ = {factor}{dynamic}, base = {base}, head_dim = {head_dim}; factor on cos and sin {attention}",
            "ru": "{method}, κ = {factor}{dynamic}, основание base = {base}, head_dim = {head_dim}; множитель при cos и sin "
            "{attention}",
        },
        "plot_scale": {
            "en": "scale must be a number >= 1 (positions are divided by it), got {value!r}",
            "ru": "аргумент `scale` должен быть числом ≥ 1 (на него делятся позиции), а получено {value!r}",
        },
    },
)

#: alibi.py: ALiBi's bias and weights (lesson 8)
ALIBI = Messages(
    "plots_alibi",
    {
        "alibi_query": {"en": "query m", "ru": "запрос m"},
        "alibi_key": {"en": "key n", "ru": "ключ n"},
        "alibi_head": {"en": "head {h}: {slope}", "ru": "голова {h}: {slope}"},
        "alibi_bias": {"en": "bias $-s_h \\cdot (m - n)$", "ru": "смещение $-s_h \\cdot (m - n)$"},
        "alibi_title": {
            "en": "ALiBi with H = {heads} heads: the bias added to the score of query m and key n",
            "ru": "ALiBi, число голов H = {heads}: смещение, прибавляемое к оценке запроса m и ключа n",
        },
        "alibi_distance": {"en": "distance m − n", "ru": "расстояние m − n"},
        "alibi_weight": {"en": "weight of the last query", "ru": "вес внимания последнего запроса"},
        "alibi_equal": {"en": "all content scores equal", "ru": "все оценки по содержанию равны"},
        "alibi_weights_title": {
            "en": "Weights of the last query when all content scores are equal:\nsoftmax$(-s_h \\cdot (m - n))$",
            "ru": "Веса внимания последнего запроса при равных оценках по содержанию:\nsoftmax$(-s_h \\cdot (m - n))$",
        },
        "plot_alibi_head": {
            "en": "head={value!r} is out of range: with {heads} heads, head is 1 .. {heads}",
            "ru": "head={value!r} вне диапазона: при числе голов {heads} номер головы от 1 до {heads}",
        },
    },
)
