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
    "dimension": {"en": "dimension", "ru": "размерность"},
    # --- end of plots and widgets ---
    #
    #
    # --- exercises (exercises.py) ---
    # --- end of exercises ---
    #
    #
    # --- notebooks, workspace and slides tooling ---
    # --- end of tooling ---
}
