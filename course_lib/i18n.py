"""Language switch and the one message catalogue of the course, English and Russian.

Every sentence a student can read from `course_lib` -- error messages, plot titles and
axis labels, widget labels, exercise feedback -- lives in ``CATALOGUE`` in both
languages. ``tests/test_i18n.py`` fails when a key lacks a language or when the two
versions of a message do not use the same ``{placeholders}``.

    >>> set_language("ru")
    >>> tr("positions")
    'позиция'
    >>> set_language("en")
    >>> tr("seq_too_long", seq_len=20, max_len=16)
    'sequence length 20 exceeds max_len=16: build the module with a larger max_len'
"""

LANGUAGES = ("en", "ru")
_language = "en"


def set_language(lang: str) -> None:
    """Choose the language of every message, label and hint: ``"en"`` or ``"ru"``."""
    global _language
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {lang!r}")
    _language = lang


def get_language() -> str:
    """The language set by :func:`set_language` (English until it is called)."""
    return _language


def resolve(lang: str | None) -> str:
    """``lang`` itself, or the current language when it is None."""
    if lang is None:
        return _language
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {lang!r}")
    return lang


def tr(key: str, lang: str | None = None, /, **values) -> str:
    """The catalogue message ``key`` in ``lang`` (default: current), filled with ``values``."""
    return CATALOGUE[key][resolve(lang)].format(**values)


def pick(*, en: str, ru: str) -> str:
    """The argument for the current language: one line of lesson code serves both.

    >>> set_language("ru"); pick(en="positions", ru="позиции")
    'позиции'
    >>> set_language("en")
    """
    return {"en": en, "ru": ru}[_language]


# One entry per message: {"en": ..., "ru": ...}. Grouped by the module that uses it.
CATALOGUE: dict[str, dict[str, str]] = {
    # --- argument checks (embedding.py, vocab.py) ---
    "not_positive_int": {
        "en": "{name} must be a positive integer, got {value!r}",
        "ru": "{name} должен быть целым положительным числом, а получено {value!r}",
    },
    "base_not_positive": {
        "en": "base must be a positive number, got {value!r}",
        "ru": "base должен быть положительным числом, а получено {value!r}",
    },
    "dropout_range": {
        "en": "dropout must be a probability between 0 and 1, got {value!r}",
        "ru": "dropout должен быть вероятностью от 0 до 1, а получено {value!r}",
    },
    "padding_idx_range": {
        "en": "padding_idx={value} is outside the vocabulary: it must be in [0, {vocab_size})",
        "ru": "padding_idx={value} вне словаря: он должен лежать в [0, {vocab_size})",
    },
    "ids_not_tensor": {
        "en": "token ids must be a torch.Tensor of integers, got {type_name}",
        "ru": "индексы токенов должны быть тензором torch.Tensor с целыми числами, а получен {type_name}",
    },
    "ids_not_integer": {
        "en": "token ids must be integers (torch.long), got dtype {dtype}: "
        "ids are row numbers of the embedding table, not values",
        "ru": "индексы токенов должны быть целыми (torch.long), а получен dtype {dtype}: "
        "индекс -- это номер строки таблицы эмбеддингов, а не значение",
    },
    "id_too_large": {
        "en": "token id {value} is out of range: the vocabulary has {vocab_size} tokens, "
        "so ids must be in [0, {vocab_size})",
        "ru": "индекс токена {value} вне диапазона: в словаре {vocab_size} токенов, "
        "поэтому индексы должны лежать в [0, {vocab_size})",
    },
    "id_negative": {
        "en": "token id {value} is negative: ids must be in [0, {vocab_size})",
        "ru": "индекс токена {value} отрицательный: индексы должны лежать в [0, {vocab_size})",
    },
    "x_not_tensor": {
        "en": "x must be a torch.Tensor of shape (batch, seq, d_model), got {type_name}",
        "ru": "x должен быть тензором torch.Tensor формы (batch, seq, d_model), а получен {type_name}",
    },
    "x_not_float": {
        "en": "x must hold floating-point vectors, got dtype {dtype}: embed the token ids first",
        "ru": "x должен содержать вещественные векторы, а получен dtype {dtype}: "
        "сначала получите эмбеддинги токенов",
    },
    "x_bad_ndim": {
        "en": "x must have shape (batch, seq, d_model), got shape {shape}",
        "ru": "x должен иметь форму (batch, seq, d_model), а получена форма {shape}",
    },
    "ids_bad_ndim": {
        "en": "token ids must have shape (batch, seq), got shape {shape}",
        "ru": "индексы токенов должны иметь форму (batch, seq), а получена форма {shape}",
    },
    "last_dim": {
        "en": "the last dimension of x is {got}, but this module was built with d_model={d_model}",
        "ru": "последняя размерность x равна {got}, а модуль создан с d_model={d_model}",
    },
    "seq_too_long": {
        "en": "sequence length {seq_len} exceeds max_len={max_len}: build the module with a larger max_len",
        "ru": "длина последовательности {seq_len} больше max_len={max_len}: "
        "создайте модуль с бо́льшим max_len",
    },
    "texts_not_list": {
        "en": "texts must be a list of strings, got {type_name}",
        "ru": "texts должен быть списком строк, а получен {type_name}",
    },
    "text_not_str": {
        "en": "each text must be a str, got {type_name}",
        "ru": "каждый текст должен быть строкой str, а получен {type_name}",
    },
    "empty_batch": {
        "en": "encode_batch needs at least one text, got an empty list",
        "ru": "encode_batch нужен хотя бы один текст, а получен пустой список",
    },
    "decode_id_range": {
        "en": "id {value} is not in the vocabulary: ids must be in [0, {vocab_size})",
        "ru": "индекса {value} нет в словаре: индексы должны лежать в [0, {vocab_size})",
    },
    "min_freq": {
        "en": "min_freq must be a positive integer, got {value!r}",
        "ru": "min_freq должен быть целым положительным числом, а получено {value!r}",
    },
    # --- plots and widgets (plots.py, widgets.py) ---
    "positions": {"en": "position", "ru": "позиция"},
    # "размерность" is the size of a vector (d_model); one of its coordinates is an "измерение"
    "dimension": {"en": "dimension", "ru": "измерение"},
    "value": {"en": "value", "ru": "значение"},
    "token": {"en": "token", "ru": "токен"},
    "offset": {"en": "offset k", "ru": "сдвиг k"},
    "dot_product": {"en": "dot product", "ru": "скалярное произведение"},
    "wavelength": {"en": "wavelength", "ru": "длина волны"},
    "table_title": {
        "en": "Positional encoding table: {num_positions} × {d_model} (positions × dimensions)",
        "ru": "Таблица позиционного кодирования: {num_positions} × {d_model} (позиции × измерения)",
    },
    "waves_title": {
        "en": "Columns of the table (d_model = {d_model}): each is a wave of length {formula}",
        "ru": "Столбцы таблицы (d_model = {d_model}): каждый — волна длины {formula}",
    },
    "wave_label": {
        "en": "dimension {dim}: {func}, i = {i}, λ = {wavelength:.1f}",
        "ru": "измерение {dim}: {func}, i = {i}, λ = {wavelength:.1f}",
    },
    "similarity_title": {
        "en": "The dot product of two positions depends only on the offset k = q − p:\n"
        "constant along each diagonal, the same curve for every p",
        "ru": "Скалярное произведение двух позиций зависит только от сдвига k = q − p:\n"
        "оно постоянно вдоль каждой диагонали, и кривая одна и та же при любом p",
    },
    "embeddings_title": {
        "en": "Vectors of the sentence: {seq} × {d_model} (tokens × dimensions)",
        "ru": "Векторы предложения: {seq} × {d_model} (токены × измерения)",
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
        "ru": "Таблица во float32 против точных значений (d_model = {d_model})",
    },
    "rotation_at_pos": {"en": "position pos = {pos}", "ru": "позиция pos = {pos}"},
    "rotation_at_pos_k": {"en": "position pos + k = {pos}", "ru": "позиция pos + k = {pos}"},
    "rotation_title": {
        "en": "Pair i = {i}: the offset k = {k} turns the point by k·ω = {angle:.3f} rad",
        "ru": "Пара i = {i}: сдвиг k = {k} поворачивает точку на k·ω = {angle:.3f} рад",
    },
    "rotation_matrix": {
        "en": "the same rotation\nfor every pos:",
        "ru": "один и тот же поворот\nпри любом pos:",
    },
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
        "ru": "измерение {dim!r} вне диапазона: при d_model={d_model} столбцы нумеруются от 0 до {last}",
    },
    "plot_positions": {
        "en": "positions must be non-negative integers, got {value!r}",
        "ru": "позиции должны быть целыми неотрицательными числами, а получено {value!r}",
    },
    "plot_tokens_count": {
        "en": "got {n_tokens} tokens for {n_rows} vectors: give one token per row",
        "ru": "токенов передано {n_tokens}, а векторов {n_rows}: нужен ровно один токен на строку",
    },
    "plot_pair_range": {
        "en": "pair i={i!r} is out of range: with d_model={d_model} there are {pairs} sine/cosine pairs, "
        "i = 0 .. {pairs} - 1",
        "ru": "пара i={i!r} вне диапазона: при d_model={d_model} пар синус/косинус {pairs}, "
        "i = 0 .. {pairs} - 1",
    },
    "plot_non_negative": {
        "en": "{name} must be a non-negative integer, got {value!r}",
        "ru": "{name} должен быть целым неотрицательным числом, а получено {value!r}",
    },
    # widgets.py
    "slider_positions": {"en": "positions", "ru": "позиции"},
    "slider_base": {"en": "base", "ru": "основание"},
    "slider_pos": {"en": "position pos", "ru": "позиция pos"},
    "slider_pair": {"en": "pair i", "ru": "пара i"},
    "table_readout": {
        "en": "d_model = {d_model}, {num_positions} positions, base = {base}. "
        "Wavelength, in positions: from {shortest} (i = 0) to {longest} (i = {last_i}).",
        "ru": "d_model = {d_model}, позиций: {num_positions}, base = {base}. "
        "Длина волны в позициях: от {shortest} (i = 0) до {longest} (i = {last_i}).",
    },
    "sentence": {"en": "sentence", "ru": "предложение"},
    "show": {"en": "show", "ru": "показать"},
    "show_tokens": {"en": "token embeddings", "ru": "эмбеддинги токенов"},
    "show_sum": {"en": "+ positional encoding", "ru": "+ позиционное кодирование"},
    "explorer_tokens_title": {
        "en": "Token embeddings × √d_model",
        "ru": "Эмбеддинги токенов × √d_model",
    },
    "explorer_sum_title": {
        "en": "Token embeddings × √d_model + positional encoding",
        "ru": "Эмбеддинги токенов × √d_model + позиционное кодирование",
    },
    "rotation_readout": {
        "en": "ω = base^(-2i/d_model) = {omega:.4g}, angle k·ω = {angle:.4f} rad. "
        "Turning the pair of PE[{pos}] by it gives the pair of PE[{pos_k}] "
        "(largest difference {err:.1e}).",
        "ru": "ω = base^(-2i/d_model) = {omega:.4g}, угол k·ω = {angle:.4f} рад. "
        "Поворот пары из PE[{pos}] на этот угол даёт пару из PE[{pos_k}] "
        "(наибольшее расхождение {err:.1e}).",
    },
    "sentences_invalid": {
        "en": "sentences must be a non-empty list of non-empty strings, got {value!r}",
        "ru": "sentences должен быть непустым списком непустых строк, а получено {value!r}",
    },
    # --- end of plots and widgets ---
    #
    #
    # --- exercises (exercises.py) ---
    # --- end of exercises ---
    #
    #
    # --- notebooks, workspace and slides tooling ---
    "ws_new": {"en": "new lesson: {path}", "ru": "новый урок: {path}"},
    "ws_updated": {"en": "updated: {path}", "ru": "обновлён: {path}"},
    "ws_kept": {
        "en": "a newer version of {path} exists; your edited copy is kept, the new one is {new}",
        "ru": "вышла новая версия {path}; ваша изменённая копия сохранена, новая лежит рядом: {new}",
    },
    "ws_ready": {"en": "your workspace: {root}", "ru": "ваша рабочая папка: {root}"},
    # --- end of tooling ---
}
