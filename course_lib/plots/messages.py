"""The messages of :mod:`course_lib.plots`: titles, axis labels, legends and input errors.

One catalogue for the package, grouped by the module that uses each entry. A figure
function takes ``lang`` (None: the current language) and passes it on; an error message
always follows :func:`course_lib.set_language`.

    >>> MESSAGES("positions", "ru"), MESSAGES("table_title", "en", num_positions=4, d_model=8)
    ('позиция', 'Positional encoding table: 4 × 8 (positions × dimensions)')
"""

from ..i18n import Messages

__all__ = ["MESSAGES"]

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
            "ru": "{name} должен быть тензором torch.Tensor или массивом numpy, а получен {type_name}",
        },
        "plot_not_numeric": {
            "en": "{name} must hold numbers, got dtype {dtype}",
            "ru": "{name} должен содержать числа, а получен dtype {dtype}",
        },
        "plot_bad_ndim": {
            "en": "{name} must have {ndim} dimensions (rows, columns), got shape {shape}",
            "ru": "{name} должен быть {ndim}-мерным (строки, столбцы), а получена форма {shape}",
        },
        "plot_empty": {
            "en": "{name} is empty (shape {shape}): there is nothing to draw",
            "ru": "{name} пуст (форма {shape}): рисовать нечего",
        },
        "plot_no_dims": {
            "en": "dims is empty: give at least one column of the table to draw",
            "ru": "dims пуст: укажите хотя бы один столбец таблицы",
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
            "en": "Positional encoding table: {num_positions} × {d_model} (positions × dimensions)",
            "ru": "Таблица позиционного кодирования: {num_positions} × {d_model} (позиции × координаты)",
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
            "en": "The dot product of two positions depends only on the offset k = q − p:\n"
            "constant along each diagonal, the same curve for every p",
            "ru": "Скалярное произведение двух позиций зависит только от сдвига k = q − p:\n"
            "оно постоянно вдоль каждой диагонали, и кривая одна и та же при любом p",
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
            "ru": "пара i={i!r} вне диапазона: при d_model={d_model} число пар синус/косинус: {pairs}, "
            "поэтому i = 0 .. {last}",
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
        "rms": {"en": "RMS of the entries", "ru": "среднеквадратичное значение (RMS)"},
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
            "ru": "weights должен быть непустым списком тензоров (seq, seq), по одному на тепловую карту, "
            "а получено {value}",
        },
        "plot_attention_square": {
            "en": "weights[{j}] must be a square (seq, seq) matrix of attention weights, got shape {shape}",
            "ru": "weights[{j}] должен быть квадратной матрицей весов внимания (seq, seq), "
            "а получена форма {shape}",
        },
        "plot_attention_count": {
            "en": "{name} has {got} items for {n} weight matrices: give one per heatmap",
            "ru": "в {name} элементов: {got}, а матриц весов: {n}; нужно по одному на тепловую карту",
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
            "en": " c = √d_model = {c:.0f}: PyTorch's N(0, 1)",
            "ru": " c = √d_model = {c:.0f}: N(0, 1) из PyTorch",
        },
        "balance_scale": {
            "en": "c, the factor in front of the token vectors",
            "ru": "c — множитель перед векторами токенов",
        },
        "balance_moved": {"en": "attention weight that moves", "ru": "доля сдвинутого веса внимания"},
        "balance_title": {
            "en": 'Input c · tokens + PE: "{first}" against "{second}"',
            "ru": "Вход c · токены + PE: «{first}» и «{second}»",
        },
        "balance_not_permutation": {
            "en": "the two sentences must have the same tokens in another order, each token once; "
            "got {first!r} and {second!r}",
            "ru": "в двух предложениях должны быть одни и те же токены в разном порядке, каждый по одному разу, "
            "а получено {first!r} и {second!r}",
        },
        "balance_scale_range": {
            "en": "scale must be a finite number >= 0, got {value!r}",
            "ru": "scale должен быть конечным числом >= 0, а получено {value!r}",
        },
        "plot_attention_tokens": {
            "en": "tokens[{j}] has {n_tokens} tokens for a {seq} × {seq} matrix: give one token per row",
            "ru": "в tokens[{j}] токенов: {n_tokens}, а матрица {seq} × {seq}: нужен ровно один токен на строку",
        },
    },
)
