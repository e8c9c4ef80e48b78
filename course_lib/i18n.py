"""Languages and messages: one switch for the whole course, each area's messages beside its code.

``LANGUAGES`` is the one list of the course's languages: the lesson build, the slides,
the workspace and the tests all read it. A student chooses one with
:func:`set_language`; every message, plot label, widget label and exercise verdict
follows.

Each area of the course keeps its own messages next to the code that uses them, as a
:class:`Messages` catalogue: the input checks in ``validate.py``, the figure labels in
``plots``, each exercise's feedback in its own module. A catalogue is called like a
function::

    >>> MESSAGES = Messages("demo", {
    ...     "too_long": {
    ...         "en": "sequence length {n} exceeds max_len={max_len}",
    ...         "ru": "длина последовательности {n} больше max_len={max_len}",
    ...     },
    ... })
    >>> MESSAGES("too_long", n=20, max_len=16)
    'sequence length 20 exceeds max_len=16'
    >>> set_language("ru"); MESSAGES("too_long", n=20, max_len=16)
    'длина последовательности 20 больше max_len=16'
    >>> tr("demo.too_long", "en", n=3, max_len=2)  # any catalogue, by its full key
    'sequence length 3 exceeds max_len=2'
    >>> set_language("en")

Adding a language is data only: its code in ``LANGUAGES``, its text in every catalogue
entry (``tests/unit/test_messages.py`` lists what is missing) and its prose twins in the
lesson sources. ``PSEUDO`` is a pseudo-language for tests: every message is the English
one accented and bracketed, so a string that bypasses the catalogues shows up as plain
English in a lesson built in it.

This module imports nothing but the standard library: the workspace script reads it to
greet a student before torch is ever loaded.
"""

import string

__all__ = ["LANGUAGES", "PSEUDO", "Messages", "set_language", "get_language", "pick", "tr", "catalogues"]

#: The course's languages, in order. Everything that exists per language reads this.
LANGUAGES = ("en", "ru")

#: The pseudo-language of the tests (Microsoft's name for pseudo-localisation): English
#: text with accented letters, in brackets. Accepted by :func:`set_language`, never built
#: as part of the course.
PSEUDO = "qps"

_language = "en"
_CATALOGUES: dict[str, "Messages"] = {}


def _check_language(lang) -> str:
    if lang not in LANGUAGES and lang != PSEUDO:
        raise ValueError(f"language must be one of {LANGUAGES}, got {lang!r}")
    return lang


def set_language(lang: str) -> None:
    """Choose the language of every message, label and hint: one of ``LANGUAGES``."""
    global _language
    _language = _check_language(lang)


def get_language() -> str:
    """The language set by :func:`set_language` (English until it is called)."""
    return _language


def resolve(lang: str | None) -> str:
    """``lang`` itself, or the current language when it is None."""
    return _language if lang is None else _check_language(lang)


# ----------------------------------------------------------------------------- pseudo-language

_ACCENTED = str.maketrans(
    "aceinorsuyACEINORSUY",
    "áçéîñöŕšüýÁÇÉÎÑÖŔŠÜÝ",
)


def pseudo(text: str) -> str:
    """``text`` accented and bracketed, keeping ``{placeholders}``, `code` and $maths$ as they are.

    >>> pseudo("position {pos} of `x`")
    '⟦pöšîtîöñ {pos} öf `x`⟧'
    """
    out, protected = [], False
    for i, part in enumerate(_split_protected(text)):
        protected = i % 2 == 1
        out.append(part if protected else part.translate(_ACCENTED))
    return "⟦" + "".join(out) + "⟧"


def _split_protected(text: str) -> list[str]:
    """``text`` cut into [plain, protected, plain, protected, ...] pieces."""
    pieces, plain, i = [], [], 0
    closers = {"{": "}", "`": "`", "$": "$"}
    while i < len(text):
        ch = text[i]
        end = text.find(closers[ch], i + 1) if ch in closers else -1
        if end > i:
            pieces += ["".join(plain), text[i : end + 1]]
            plain, i = [], end + 1
        else:
            plain.append(ch)
            i += 1
    pieces.append("".join(plain))
    return pieces


# ----------------------------------------------------------------------------- catalogues


class Messages:
    """The messages of one area of the course, in every language of ``LANGUAGES``.

    Args:
        area: the catalogue's name; its messages are also reachable as ``tr("area.key")``.
        entries: ``{key: {language: text}}``; texts are :meth:`str.format` templates.
    """

    def __init__(self, area: str, entries: dict[str, dict[str, str]]):
        if area in _CATALOGUES:
            raise ValueError(f"a message catalogue named {area!r} already exists")
        self.area = area
        self.entries = entries
        _CATALOGUES[area] = self

    def __call__(self, key: str, lang: str | None = None, /, **values) -> str:
        """Message ``key`` in ``lang`` (default: the current language), filled with ``values``."""
        entry = self.entries[key]
        lang = resolve(lang)
        template = pseudo(entry["en"]) if lang == PSEUDO else entry[lang]
        return template.format(**values)

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def problems(self) -> list[str]:
        """Entries that lack a language, or whose languages disagree on their ``{placeholders}``."""
        found = []
        for key, entry in self.entries.items():
            where = f"{self.area}.{key}"
            missing = [lang for lang in LANGUAGES if not str(entry.get(lang, "")).strip()]
            if missing:
                found.append(f"{where}: no text in {', '.join(missing)}")
            extra = sorted(set(entry) - set(LANGUAGES))
            if extra:
                found.append(f"{where}: languages {extra} are not in LANGUAGES")
            fields = {lang: placeholders(text) for lang, text in entry.items()}
            if len(set(map(tuple, fields.values()))) > 1:
                found.append(f"{where}: the placeholders differ between languages: {fields}")
        return found

    def __repr__(self) -> str:
        return f"<Messages {self.area!r}: {len(self.entries)} entries>"


def placeholders(template: str) -> list[str]:
    """The names of a template's ``{placeholders}``, sorted."""
    return sorted({field for _, field, _, _ in string.Formatter().parse(template) if field})


def catalogues() -> dict[str, Messages]:
    """Every catalogue created so far, by area (import a module to register its catalogue)."""
    return dict(_CATALOGUES)


def tr(key: str, lang: str | None = None, /, **values) -> str:
    """The message ``"area.key"`` of any catalogue, in ``lang`` (default: current), filled with ``values``."""
    if key in CATALOGUE:  # the flat catalogue, while its entries move beside their code
        entry = CATALOGUE[key]
        lang = resolve(lang)
        return (pseudo(entry["en"]) if lang == PSEUDO else entry[lang]).format(**values)
    area, _, name = key.partition(".")
    if area not in _CATALOGUES or name not in _CATALOGUES[area]:
        raise KeyError(f"no message {key!r}: catalogues are {sorted(_CATALOGUES)}")
    return _CATALOGUES[area](name, lang, **values)


def pick(**by_language: str) -> str:
    """The argument for the current language: one line of lesson code serves every language.

    >>> set_language("ru"); pick(en="positions", ru="позиции")
    'позиции'
    >>> set_language("en")
    """
    if _language == PSEUDO and "en" in by_language:
        return pseudo(by_language["en"])
    if _language not in by_language:
        raise ValueError(
            f"pick() has no text for the current language {_language!r}: got {sorted(by_language)}"
        )
    return by_language[_language]


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
        "индекс — это номер строки таблицы эмбеддингов, а не значение",
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
        "ru": "последнее измерение x имеет размер {got}, а модуль создан с d_model={d_model}",
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
        "ru": "для encode_batch нужен хотя бы один текст, а получен пустой список",
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
        "ru": "Столбцы таблицы (d_model = {d_model}): каждый — волна длиной {formula}",
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
        "ru": "Погрешность таблицы во float32 (d_model = {d_model})",
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
        "so i = 0 .. {last}",
        "ru": "пара i={i!r} вне диапазона: при d_model={d_model} число пар синус/косинус: {pairs}, "
        "поэтому i = 0 .. {last}",
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
    # plot_attention, position_strength_explorer (lesson 3)
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
    "plot_attention_tokens": {
        "en": "tokens[{j}] has {n_tokens} tokens for a {seq} × {seq} matrix: give one token per row",
        "ru": "в tokens[{j}] токенов: {n_tokens}, а матрица {seq} × {seq}: нужен ровно один токен на строку",
    },
    "slider_pe_scale": {"en": "PE scale", "ru": "множитель PE"},
    "strength_title": {
        "en": "input = token embeddings + {scale:.2f} · PE",
        "ru": "вход = эмбеддинги токенов + {scale:.2f} · PE",
    },
    "strength_readout": {
        "en": "Positional encoding added × {scale:.2f}. "
        "Largest difference between the outputs of «{second}» and the reordered outputs of «{first}»: "
        "{gap:.4f}.",
        "ru": "Позиционное кодирование прибавлено с множителем {scale:.2f}. "
        "Наибольшая разность между выходами для «{second}» и переставленными выходами для «{first}»: "
        "{gap:.4f}.",
    },
    "strength_same": {
        "en": "Without positions the outputs are the same vectors in another order: attention cannot see it.",
        "ru": "Без позиций выходы — те же векторы в другом порядке: внимание перестановки не видит.",
    },
    "strength_differ": {
        "en": "The outputs are no longer a reordering of each other: the word order reaches the model.",
        "ru": "Выходы больше не получаются друг из друга перестановкой: порядок слов дошёл до модели.",
    },
    "strength_not_permutation": {
        "en": "the two sentences must have the same tokens in another order, each token once; "
        "got {first!r} and {second!r}",
        "ru": "в двух предложениях должны быть одни и те же токены в разном порядке, каждый по одному разу, "
        "а получено {first!r} и {second!r}",
    },
    # vocab_explorer (lesson 1)
    "vocab_text": {"en": "text", "ru": "текст"},
    "vocab_id": {"en": "ID", "ru": "индекс"},
    "vocab_decoded": {"en": "decodes to", "ru": "после декодирования"},
    "vocab_summary": {
        "en": "{n} tokens; the vocabulary ({size} tokens) does not know {unknown} of them.",
        "ru": "Токенов: {n}, из них словарь ({size} токенов) не знает {unknown}.",
    },
    "vocab_not_vocab": {
        "en": "vocab must be a course_lib.Vocab, e.g. Vocab.build(corpus), got {type_name}",
        "ru": "vocab должен быть объектом course_lib.Vocab, например Vocab.build(corpus), а получен {type_name}",
    },
    # --- end of plots and widgets ---
    #
    #
    # --- exercises (exercises.py) ---
    "ex.status.correct": {
        "en": "Correct",
        "ru": "Верно",
    },
    "ex.status.incorrect": {
        "en": "Not yet",
        "ru": "Пока не так",
    },
    "ex.status.not_attempted": {
        "en": "Not attempted yet",
        "ru": "Ещё не решено",
    },
    "ex.hint_title": {
        "en": "Hint {n} of {count}.",
        "ru": "Подсказка {n} из {count}.",
    },
    "ex.hint_range": {
        "en": "the hint number must be an integer from 1 to {count}, got {value!r}",
        "ru": "номер подсказки должен быть целым числом от 1 до {count}, а получено {value!r}",
    },
    "ex.solution_title": {
        "en": "Solution.",
        "ru": "Решение.",
    },
    "ex.error_line": {
        "en": "The line: `{line}`",
        "ru": "Строка: `{line}`",
    },
    "ex.not_attempted": {
        "en": "`{where}` still raises `NotImplementedError`: replace that line with your code and run "
        "this cell again.",
        "ru": "`{where}` всё ещё выбрасывает `NotImplementedError`: замените эту строку своим кодом и "
        "снова запустите ячейку.",
    },
    "ex.not_a_class": {
        "en": "`check` expects your class itself, e.g. `check(MyPositionalEncoding)`; it got a value of "
        "type `{type_name}`.",
        "ru": "`check` ждёт сам класс, например `check(MyPositionalEncoding)`, а получил значение типа "
        "`{type_name}`.",
    },
    "ex.instance_not_class": {
        "en": "Pass the class, not an object built from it: `check({name})`, without parentheses after "
        "`{name}`.",
        "ru": "Передайте сам класс, а не созданный из него объект: `check({name})`, без скобок после "
        "`{name}`.",
    },
    "ex.not_a_function": {
        "en": "`check` expects your function itself, e.g. `check(my_pad)`, without calling it; it got a "
        "value of type `{type_name}`.",
        "ru": "`check` ждёт саму функцию, например `check(my_pad)`, без вызова, а получил значение типа "
        "`{type_name}`.",
    },
    "ex.not_module": {
        "en": "`{name}` must be a PyTorch module: `class {name}(nn.Module):`.",
        "ru": "`{name}` должен быть модулем PyTorch: `class {name}(nn.Module):`.",
    },
    "ex.missing_super_init": {
        "en": "The first line of `__init__` must be `super().__init__()`: it prepares the module to "
        "hold layers, parameters and buffers. PyTorch says: `{detail}`.",
        "ru": "Первой строкой `__init__` должен идти вызов `super().__init__()`: он готовит модуль к "
        "тому, чтобы хранить слои, параметры и буферы. PyTorch сообщает: `{detail}`.",
    },
    "ex.error_init": {
        "en": "Your `__init__` raised `{error}`: `{detail}`.",
        "ru": "Ваш `__init__` упал с ошибкой `{error}`: `{detail}`.",
    },
    "ex.error_forward": {
        "en": "Your `forward` raised `{error}` on an input of shape {shape} and dtype {dtype}: `{detail}`.",
        "ru": "Ваш `forward` упал с ошибкой `{error}` на входе формы {shape} с типом {dtype}: `{detail}`.",
    },
    "ex.error_call": {
        "en": "Your function `{name}` raised `{error}`: `{detail}`.",
        "ru": "Ваша функция `{name}` упала с ошибкой `{error}`: `{detail}`.",
    },
    "ex.not_tensor": {
        "en": "`forward` returned {got} instead of a tensor. Is a `return` missing?",
        "ru": "`forward` вернул {got}, а не тензор. Может быть, забыт `return`?",
    },
    "ex.check_failed": {
        "en": "The check itself failed on your code with `{error}`: `{detail}`. That is a bug in the "
        "course, not in your code: please tell your instructor.",
        "ru": "Сама проверка упала на вашем коде с ошибкой `{error}`: `{detail}`. Это ошибка курса, а "
        "не ваша: пожалуйста, сообщите о ней преподавателю.",
    },
    "ex.pad.correct": {
        "en": "Right: `ids` is padded on the right with `pad_id` up to the longest sequence, and `mask` "
        "marks the real tokens.",
        "ru": "Верно: `ids` дополнен справа значением `pad_id` до самой длинной последовательности, а "
        "`mask` отмечает настоящие токены.",
    },
    "ex.pad.not_pair": {
        "en": "`{name}` must return a pair of tensors, `ids, mask`; it returned {got}.",
        "ru": "`{name}` должна возвращать пару тензоров, `ids, mask`, а вернула {got}.",
    },
    "ex.pad.not_tensor": {
        "en": "`ids` and `mask` must be tensors; yours are `{ids_type}` and `{mask_type}`. "
        "`torch.tensor(...)` turns a list of lists into a tensor.",
        "ru": "`ids` и `mask` должны быть тензорами, а у вас `{ids_type}` и `{mask_type}`. Список "
        "списков превращается в тензор вызовом `torch.tensor(...)`.",
    },
    "ex.pad.ids_shape": {
        "en": "A batch of {batch} sequences, the longest of length {longest}, gives `ids` of shape "
        "({batch}, {longest}): one row per sequence, as long as the longest one. Yours has shape "
        "{got}.",
        "ru": "Батч из {batch} последовательностей, самая длинная из которых имеет длину {longest}, "
        "даёт `ids` формы ({batch}, {longest}): по строке на последовательность, длиной с самую "
        "длинную. А у вас форма {got}.",
    },
    "ex.pad.ids_dtype": {
        "en": "`ids` has dtype {got}, but token ids are row numbers of the embedding table: integers, "
        "torch.long. `torch.zeros(...)` makes floats unless you pass `dtype=torch.long`.",
        "ru": "`ids` имеет тип {got}, а индексы токенов — это номера строк таблицы эмбеддингов, то есть "
        "целые числа, torch.long. `torch.zeros(...)` без `dtype=torch.long` создаёт вещественный "
        "тензор.",
    },
    "ex.pad.left_padded": {
        "en": "The padding is on the left. Here we pad on the right, like `Vocab.encode_batch`: every "
        "sequence starts at position 0, and `pad_id` fills the end of its row.",
        "ru": "Паддинг стоит слева, а мы дополняем справа, как `Vocab.encode_batch`: каждая "
        "последовательность начинается с позиции 0, а `pad_id` заполняет конец её строки.",
    },
    "ex.pad.ignores_pad_id": {
        "en": "With pad_id = {pad_id} the padding is still {got}: fill with the `pad_id` argument, not "
        "a fixed number.",
        "ru": "При pad_id = {pad_id} паддинг всё равно равен {got}: заполняйте значением аргумента "
        "`pad_id`, а не фиксированным числом.",
    },
    "ex.pad.ids_mismatch": {
        "en": "`ids[{row}, {pos}]` is {got}, but it should be {expected}. That is the first value that "
        "differs.",
        "ru": "`ids[{row}, {pos}]` равно {got}, а должно быть {expected}. Это первое расхождение.",
    },
    "ex.pad.mask_shape": {
        "en": "`mask` must have the same shape as `ids`, {expected}; yours has shape {got}.",
        "ru": "`mask` должна иметь ту же форму, что и `ids`, {expected}, а у вас форма {got}.",
    },
    "ex.pad.mask_dtype": {
        "en": "`mask` has dtype {got}; a mask is boolean, torch.bool: True on real tokens, False on "
        "padding. A comparison such as `<` or `!=` gives a boolean tensor.",
        "ru": "`mask` имеет тип {got}, а маска должна быть булевой, torch.bool: True на настоящих "
        "токенах, False на паддинге. Булев тензор получается из сравнения, например `<` или `!=`.",
    },
    "ex.pad.mask_inverted": {
        "en": "The mask is inverted: it must be True on real tokens and False on padding.",
        "ru": "Маска перевёрнута: True должно стоять на настоящих токенах, а False — на паддинге.",
    },
    "ex.pad.mask_mismatch": {
        "en": "`mask[{row}, {pos}]` is {got}, but sequence {row} has length {length}, so it should be "
        "{expected}.",
        "ru": "`mask[{row}, {pos}]` равно {got}, но длина последовательности {row} равна {length}, "
        "поэтому там должно быть {expected}.",
    },
    "ex.pad.modifies_input": {
        "en": "The result is right, but `{name}` changed the lists it was given: `s.extend(...)` or `s "
        "+= ...` pads the caller's own lists, and the rest of the program then sees padded data. "
        "Leave the input alone and build a new tensor.",
        "ru": "Результат верный, но `{name}` изменила переданные ей списки: `s.extend(...)` или `s += "
        "...` дополняют списки вызывающего кода, и дальше вся программа видит уже дополненные "
        "данные. Не трогайте вход, стройте новый тензор.",
    },
    "ex.pad.hint1": {
        "en": "A batch is as long as its longest sequence: `seq = max(len(s) for s in seqs)`, and `ids` "
        "has shape `(len(seqs), seq)`.",
        "ru": "Длина батча равна длине самой длинной последовательности: `seq = max(len(s) for s in "
        "seqs)`, а `ids` имеет форму `(len(seqs), seq)`.",
    },
    "ex.pad.hint2": {
        "en": "Start from a tensor filled with padding, `torch.full((len(seqs), seq), pad_id, "
        "dtype=torch.long)`, and copy each sequence into the beginning of its row: `ids[row, : "
        "len(s)] = torch.tensor(s)`.",
        "ru": "Начните с тензора, заполненного паддингом, `torch.full((len(seqs), seq), pad_id, "
        "dtype=torch.long)`, и скопируйте каждую последовательность в начало её строки: `ids[row, "
        ": len(s)] = torch.tensor(s)`.",
    },
    "ex.pad.hint3": {
        "en": "The mask is True where a real token stands: position t of row b is real if t < "
        "len(seqs[b]). Comparing the row `torch.arange(seq)` with the column of lengths "
        "`lengths.unsqueeze(1)` gives the whole mask at once.",
        "ru": "Маска равна True там, где стоит настоящий токен: позиция t в строке b настоящая, если t "
        "< len(seqs[b]). Сравнение строки `torch.arange(seq)` со столбцом длин "
        "`lengths.unsqueeze(1)` сразу даёт всю маску.",
    },
    "ex.pad.solution": {
        "en": "A tensor full of `pad_id`, each sequence copied to the start of its row, and the mask "
        "from comparing positions with lengths.",
        "ru": "Тензор, заполненный `pad_id`, каждая последовательность скопирована в начало своей "
        "строки, а маска получается сравнением позиций с длинами.",
    },
    "ex.tok.correct": {
        "en": "Each token id picks its row of the table, and the row is multiplied by √d_model (here "
        "{scale:.4f}). Well done!",
        "ru": "Каждый индекс токена выбирает свою строку таблицы, и она умножается на √d_model (здесь "
        "{scale:.4f}). Отлично!",
    },
    "ex.tok.embedding_shape": {
        "en": "`nn.Embedding` takes the number of rows first: your table has shape ({rows}, {cols}), "
        "but vocab_size = {vocab_size} and d_model = {d_model}. Write `nn.Embedding(vocab_size, "
        "d_model)`.",
        "ru": "У `nn.Embedding` первым аргументом идёт число строк: ваша таблица имеет форму ({rows}, "
        "{cols}), а vocab_size = {vocab_size} и d_model = {d_model}. Нужно "
        "`nn.Embedding(vocab_size, d_model)`.",
    },
    "ex.tok.wrong_shape": {
        "en": "For ids of shape {ids_shape} the output must have shape {expected}, one vector of size "
        "d_model per token; yours has shape {got}.",
        "ru": "Для индексов формы {ids_shape} выход должен иметь форму {expected} — по вектору длины "
        "d_model на каждый токен, а у вас форма {got}.",
    },
    "ex.tok.table_in_forward": {
        "en": "Two calls with the same ids gave different vectors, although the module is in eval mode. "
        "Is the table created inside `forward`? Create `nn.Embedding` once, in `__init__`, so "
        "that every call reads the same learned table.",
        "ru": "Два вызова с одними и теми же индексами дали разные векторы, хотя модуль в режиме eval. "
        "Может быть, таблица создаётся внутри `forward`? Создайте `nn.Embedding` один раз, в "
        "`__init__`: тогда каждый вызов читает одну и ту же обучаемую таблицу.",
    },
    "ex.tok.table_not_parameter": {
        "en": "The table `{name}` is a plain tensor, not a parameter: the optimizer never sees it, so "
        "it never learns. Use `nn.Embedding(vocab_size, d_model)`, or wrap the tensor in "
        "`nn.Parameter`.",
        "ru": "Таблица `{name}` — обычный тензор, а не параметр: оптимизатор её не видит, и она никогда "
        "не обучится. Используйте `nn.Embedding(vocab_size, d_model)` или оберните тензор в "
        "`nn.Parameter`.",
    },
    "ex.tok.no_table": {
        "en": "There is no table of shape ({vocab_size}, {d_model}) among the module's parameters. A "
        "token embedding is a learned lookup table, created once, in `__init__`: "
        "`nn.Embedding(vocab_size, d_model)`.",
        "ru": "Среди параметров модуля нет таблицы формы ({vocab_size}, {d_model}). Эмбеддинг токенов — "
        "это обучаемая таблица, которую создают один раз, в `__init__`: `nn.Embedding(vocab_size, "
        "d_model)`.",
    },
    "ex.tok.missing_scale": {
        "en": "The vectors are the rows of the table as they are: multiply them by √d_model = "
        "{scale:.4f}, as in section 3.4 of the paper.",
        "ru": "Векторы — это строки таблицы как есть: умножьте их на √d_model = {scale:.4f}, как в "
        "разделе 3.4 статьи.",
    },
    "ex.tok.divided": {
        "en": "The vectors are divided by √d_model, but the paper multiplies them: `* "
        "math.sqrt(d_model)`, here × {scale:.4f}.",
        "ru": "Векторы делятся на √d_model, а в статье их умножают: `* math.sqrt(d_model)`, здесь × "
        "{scale:.4f}.",
    },
    "ex.tok.scaled_by_d_model": {
        "en": "The vectors are multiplied by d_model = {d_model} itself, not by its square root "
        "√d_model = {scale:.4f}: use `math.sqrt(d_model)`.",
        "ru": "Векторы умножаются на сам d_model = {d_model}, а нужно на квадратный корень из него, "
        "√d_model = {scale:.4f}: используйте `math.sqrt(d_model)`.",
    },
    "ex.tok.wrong_scale": {
        "en": "The vectors are the rows of the table times {got:.4f}; the factor must be √d_model = "
        "{scale:.4f}.",
        "ru": "Векторы равны строкам таблицы, умноженным на {got:.4f}, а множитель должен быть √d_model "
        "= {scale:.4f}.",
    },
    "ex.tok.no_gradient": {
        "en": "The values are right, but no gradient reaches the table, so it would never learn. Look "
        "for `torch.no_grad()`, `.detach()`, `.data`, or a frozen table (`requires_grad=False`, "
        "or `nn.Embedding.from_pretrained`, which freezes by default).",
        "ru": "Значения верные, но градиент не доходит до таблицы, и она никогда не обучится. Поищите в "
        "коде `torch.no_grad()`, `.detach()`, `.data` или замороженную таблицу "
        "(`requires_grad=False` или `nn.Embedding.from_pretrained`, который по умолчанию "
        "замораживает веса).",
    },
    "ex.tok.mismatch": {
        "en": "The first value that differs from the row of the table × √d_model: batch row {row}, "
        "position {pos}, dimension {dim} (token id {token}): expected {expected:.4f}, got "
        "{got:.4f}.",
        "ru": "Первое расхождение со строкой таблицы × √d_model: пример {row} в батче, позиция {pos}, "
        "координата {dim} (индекс токена {token}): ожидалось {expected:.4f}, получено {got:.4f}.",
    },
    "ex.tok.hint1": {
        "en": "A lookup table of `vocab_size` rows, each a vector of size `d_model`, is "
        "`nn.Embedding(vocab_size, d_model)`. Create it in `__init__`, after "
        "`super().__init__()`: its weights then become parameters of your module and are trained "
        "with it.",
        "ru": "Таблица из `vocab_size` строк, каждая из которых — вектор длины `d_model`, — это "
        "`nn.Embedding(vocab_size, d_model)`. Создайте её в `__init__`, после "
        "`super().__init__()`: тогда её веса станут параметрами вашего модуля и будут обучаться "
        "вместе с ним.",
    },
    "ex.tok.hint2": {
        "en": "In `forward`, `self.embedding(ids)` replaces every id by its row of the table: ids of "
        "shape `(batch, seq)` become vectors of shape `(batch, seq, d_model)`. Then scale them: "
        "the paper multiplies the embeddings by √d_model (section 3.4).",
        "ru": "В `forward` вызов `self.embedding(ids)` заменяет каждый индекс его строкой таблицы: из "
        "индексов формы `(batch, seq)` получаются векторы формы `(batch, seq, d_model)`. Осталось "
        "их масштабировать: в статье эмбеддинги умножают на √d_model (раздел 3.4).",
    },
    "ex.tok.hint3": {
        "en": "The factor is a plain number, so compute it once, in `__init__`: `self.scale = "
        "math.sqrt(d_model)`. Multiply, don't divide, and take the square root of d_model, not "
        "d_model itself: `return self.embedding(ids) * self.scale`.",
        "ru": "Множитель — обычное число, поэтому посчитайте его один раз, в `__init__`: `self.scale = "
        "math.sqrt(d_model)`. Умножайте, а не делите, и берите корень из d_model, а не сам "
        "d_model: `return self.embedding(ids) * self.scale`.",
    },
    "ex.tok.solution": {
        "en": "A lookup table made once, in `__init__`; `forward` reads the rows of the ids and "
        "multiplies them by √d_model.",
        "ru": "Таблица создаётся один раз, в `__init__`; `forward` берёт строки для индексов и умножает "
        "их на √d_model.",
    },
    "ex.perm.correct": {
        "en": "Your test gives the right answer for all {count} functions, equivariant or not. "
        "Self-attention without positions is permutation-equivariant; with positional encodings "
        "added, it no longer is.",
        "ru": "Ваша проверка даёт верный ответ для всех {count} функций — и эквивариантных к "
        "перестановкам, и нет. Self-attention без позиций эквивариантен к перестановкам, а с "
        "позиционным кодированием — уже нет.",
    },
    "ex.perm.not_bool": {
        "en": "Your function must return True or False; it returned {got}. A tensor of many values, "
        "like `a == b`, has to be reduced to one answer: `torch.allclose(a, b)`.",
        "ru": "Ваша функция должна вернуть True или False, а вернула {got}. Тензор из многих значений, "
        "вроде `a == b`, нужно свести к одному ответу: `torch.allclose(a, b)`.",
    },
    "ex.perm.exact_equality": {
        "en": "Your test says that `{fn}` is not equivariant, but it is: the same numbers summed in "
        "another order differ in the last bits (float32 rounding), so an exact comparison "
        "(`torch.equal`, `==`) fails. Compare with a tolerance: `torch.allclose(a, b, "
        "atol=1e-6)`.",
        "ru": "По вашей проверке `{fn}` не эквивариантна к перестановкам, хотя на самом деле "
        "эквивариантна: одни и те же числа, сложенные в другом порядке, различаются в последних "
        "битах (округление float32), поэтому точное сравнение (`torch.equal`, `==`) не проходит. "
        "Сравнивайте с допуском: `torch.allclose(a, b, atol=1e-6)`.",
    },
    "ex.perm.invariance": {
        "en": "You compare f(x[:, perm]) with f(x) itself, so `{fn}` fails your test. Equivariance "
        "means that the output is permuted together with the input: compare with f(x)[:, perm]. "
        "(An output that does not change at all is invariance, a different property.)",
        "ru": "Вы сравниваете f(x[:, perm]) с самим f(x), поэтому `{fn}` не проходит вашу проверку. "
        "Эквивариантность означает, что выход переставляется вместе со входом: сравнивайте с "
        "f(x)[:, perm]. (Когда выход вообще не меняется, это инвариантность — другое свойство.)",
    },
    "ex.perm.wrong_axis": {
        "en": "Your test calls every function equivariant, even `{fn}`, which is not. Does the "
        "permutation go to the right axis? Tokens are on axis 1 of x, (batch, seq, d_model): "
        "`x[:, perm]`, not `x[perm]`, which permutes the batch.",
        "ru": "По вашей проверке эквивариантна любая функция, даже `{fn}`, хотя она не эквивариантна. "
        "Та ли ось переставляется? Токены идут по оси 1 тензора x формы (batch, seq, d_model): "
        "`x[:, perm]`, а не `x[perm]` — так переставляется батч.",
    },
    "ex.perm.mismatch": {
        "en": "For f = `{fn}` your function returned {got}, but the right answer is {expected}.",
        "ru": "Для f = `{fn}` ваша функция вернула {got}, а верный ответ — {expected}.",
    },
    "ex.perm.hint1": {
        "en": "f is permutation-equivariant if permuting the tokens and then applying f gives the same "
        "as applying f and then permuting its output: f(x[:, perm]) = f(x)[:, perm]. The tokens "
        "are on axis 1.",
        "ru": "f эквивариантна к перестановкам, если переставить токены и применить f — то же самое, "
        "что применить f и переставить её выход: f(x[:, perm]) = f(x)[:, perm]. Токены идут по "
        "оси 1.",
    },
    "ex.perm.hint2": {
        "en": "Compute both sides, `permute_then_f = f(x[:, perm])` and `f_then_permute = f(x)[:, "
        "perm]`, and compare them.",
        "ru": "Посчитайте обе части, `permute_then_f = f(x[:, perm])` и `f_then_permute = f(x)[:, "
        "perm]`, и сравните их.",
    },
    "ex.perm.hint3": {
        "en": "Compare with a tolerance, `torch.allclose(a, b, atol=1e-6)`, not with `torch.equal` or "
        "`==`: the same numbers summed in another order round differently in float32. "
        "`torch.allclose` already returns a Python bool.",
        "ru": "Сравнивайте с допуском, `torch.allclose(a, b, atol=1e-6)`, а не через `torch.equal` или "
        "`==`: одни и те же числа, сложенные в другом порядке, округляются в float32 по-разному. "
        "`torch.allclose` сразу возвращает bool.",
    },
    "ex.perm.solution": {
        "en": "Apply f before and after permuting the tokens (axis 1) and compare the two with a tolerance.",
        "ru": "Применяем f до и после перестановки токенов (ось 1) и сравниваем результаты с допуском.",
    },
    "ex.pe.correct": {
        "en": "Your positional encoding adds the paper's sinusoidal table to x, keeps the table in a "
        "buffer, returns x's dtype and works for an odd d_model too. Well done!",
        "ru": "Ваше позиционное кодирование прибавляет к x синусоидальную таблицу из статьи, хранит её "
        "в буфере, сохраняет тип данных x и работает даже с нечётным d_model. Отлично!",
    },
    "ex.pe.assigned_before_register_buffer": {
        "en": "`self.{name} = ...` comes before `self.register_buffer('{name}', ...)`: PyTorch refuses "
        "to register a buffer under a name that is already an attribute (KeyError: attribute "
        "'{name}' already exists). Keep the table in a local variable and register it once: "
        "`self.register_buffer('{name}', pe, persistent=False)`.",
        "ru": "`self.{name} = ...` стоит раньше `self.register_buffer('{name}', ...)`: PyTorch не "
        "регистрирует буфер под именем, которое уже занято атрибутом (KeyError: attribute "
        "'{name}' already exists). Держите таблицу в локальной переменной и зарегистрируйте её "
        "один раз: `self.register_buffer('{name}', pe, persistent=False)`.",
    },
    "ex.pe.not_sliced": {
        "en": "`forward` adds the whole table, so the module works only when a sequence is exactly "
        "max_len long; on x of shape {shape} it fails. Add only the first seq = x.size(1) rows: "
        "`self.pe[:x.size(1)]` for a table of shape (max_len, d_model), `self.pe[:, :x.size(1)]` "
        "for (1, max_len, d_model).",
        "ru": "`forward` прибавляет всю таблицу, поэтому модуль работает, только когда длина "
        "последовательности ровно max_len; на x формы {shape} он падает. Прибавляйте только "
        "первые seq = x.size(1) строк: `self.pe[:x.size(1)]` для таблицы формы (max_len, "
        "d_model), `self.pe[:, :x.size(1)]` для (1, max_len, d_model).",
    },
    "ex.pe.sequence_first": {
        "en": "The table is cut by x.size(0), the batch size, instead of the sequence length: that is "
        "the sequence-first layout (seq, batch, d_model) of older PyTorch tutorials. This course "
        "is batch-first: x has shape (batch, seq, d_model), here {shape}, and position t of every "
        "sequence gets row t of the table: `self.pe[:x.size(1)]`.",
        "ru": "Таблица обрезается по x.size(0), то есть по размеру батча, а не по длине "
        "последовательности: это формат sequence-first (seq, batch, d_model) из старых туториалов "
        "PyTorch. В курсе батч идёт первым: x имеет форму (batch, seq, d_model), здесь {shape}, и "
        "позиция t каждой последовательности получает строку t таблицы: `self.pe[:x.size(1)]`.",
    },
    "ex.pe.table_without_x": {
        "en": "`forward` returns the table alone, and x is lost. Return the sum `x + pe`: the vector of "
        "each token plus the encoding of its position.",
        "ru": "`forward` возвращает одну таблицу, а x теряется. Верните сумму `x + pe`: вектор каждого "
        "токена плюс кодирование его позиции.",
    },
    "ex.pe.wrong_shape": {
        "en": "For x of shape {expected} the output must have the same shape; yours has shape {got}.",
        "ru": "Для x формы {expected} выход должен иметь ту же форму, а у вас форма {got}.",
    },
    "ex.pe.dtype": {
        "en": "x came in as {expected}, but the output is {got}: adding a table of another dtype "
        "promotes the sum (float16 + float32 gives float32). Convert the table to x's dtype: "
        "`self.pe[:x.size(1)].to(x.dtype)`.",
        "ru": "x пришёл как {expected}, а выход получился {got}: при сложении с таблицей другого типа "
        "сумма приводится к более широкому типу (float16 + float32 даёт float32). Приведите "
        "таблицу к типу x: `self.pe[:x.size(1)].to(x.dtype)`.",
    },
    "ex.pe.random_output": {
        "en": "Two calls on the same x gave different outputs, although the module is in eval mode. "
        "`F.dropout(x, p)` drops values even in eval mode unless you pass "
        "`training=self.training`; an `nn.Dropout` layer is switched off by `.eval()`.",
        "ru": "Два вызова с одним и тем же x дали разные результаты, хотя модуль в режиме eval. "
        "`F.dropout(x, p)` зануляет значения и в режиме eval, если не передать "
        "`training=self.training`; а слой `nn.Dropout` выключается вызовом `.eval()`.",
    },
    "ex.pe.scaled_inside": {
        "en": "x is multiplied by √d_model inside the positional encoding. That scaling is the token "
        "embedding's job, done once, there; the positional encoding only adds the table: `x + "
        "pe`.",
        "ru": "x умножается на √d_model внутри позиционного кодирования. Это масштабирование — работа "
        "эмбеддинга токенов, и делается оно один раз, там; позиционное кодирование только "
        "прибавляет таблицу: `x + pe`.",
    },
    "ex.pe.sin_cos_swapped": {
        "en": "Sine and cosine are swapped. Columns are numbered from 0, so the even ones (0, 2, 4, …) "
        "hold sines, sin(pos / 10000^(2i/d_model)), and the odd ones (1, 3, 5, …) cosines. The "
        "row of position 0 must start 0, 1, 0, 1, …",
        "ru": "Синус и косинус перепутаны местами. Столбцы нумеруются с 0, поэтому в чётных (0, 2, 4, "
        "…) стоят синусы, sin(pos / 10000^(2i/d_model)), а в нечётных (1, 3, 5, …) — косинусы. "
        "Строка позиции 0 должна начинаться с 0, 1, 0, 1, …",
    },
    "ex.pe.halves": {
        "en": "All sines are in the first half of the columns and all cosines in the second ([sin … | "
        "cos …], as in tensor2tensor). A model can learn with that layout too, but the paper's is "
        "different: the sine and cosine of one frequency sit side by side, sin in column 2i, cos "
        "in column 2i+1. Fill `pe[:, 0::2]` and `pe[:, 1::2]`.",
        "ru": "Все синусы стоят в первой половине столбцов, а все косинусы — во второй ([sin … | cos "
        "…], как в tensor2tensor). Модель справится и с таким порядком, но в статье он другой: "
        "синус и косинус одной частоты стоят рядом, sin в столбце 2i, cos в столбце 2i+1. "
        "Заполните `pe[:, 0::2]` и `pe[:, 1::2]`.",
    },
    "ex.pe.exponent_i": {
        "en": "The exponent uses i instead of 2i, so the frequencies fall too slowly. In pos / "
        "10000^(2i/d_model), 2i is the number of the even column: `torch.arange(0, d_model, 2)` "
        "already gives 2i, while `torch.arange(d_model // 2)` gives i, which you must double.",
        "ru": "В показателе степени стоит i вместо 2i, и частоты убывают слишком медленно. В формуле "
        "pos / 10000^(2i/d_model) 2i — это номер чётного столбца: `torch.arange(0, d_model, 2)` "
        "уже даёт 2i, а `torch.arange(d_model // 2)` даёт i, и его нужно удвоить.",
    },
    "ex.pe.exponent_doubled": {
        "en": "The exponent is doubled, 2 · 2i instead of 2i, so the frequencies fall too fast. "
        "`torch.arange(0, d_model, 2)` (or `range(0, d_model, 2)`) already gives 2i: don't "
        "multiply it by 2 again.",
        "ru": "Показатель степени удвоен, 2 · 2i вместо 2i, и частоты убывают слишком быстро. "
        "`torch.arange(0, d_model, 2)` (или `range(0, d_model, 2)`) уже даёт 2i — умножать его на "
        "2 ещё раз не нужно.",
    },
    "ex.pe.exponent_per_column": {
        "en": "Every column has a frequency of its own, 10000^(column/d_model), but a sine and its "
        "cosine share one: columns 2i and 2i+1 both use 10000^(2i/d_model). For an odd column c, "
        "take c − 1 (in Python, `2 * (c // 2)`).",
        "ru": "У каждого столбца своя частота, 10000^(столбец/d_model), а у синуса и его косинуса она "
        "должна быть общей: столбцы 2i и 2i+1 оба используют 10000^(2i/d_model). Для нечётного столбца "
        "c берите c − 1 (в Python — `2 * (c // 2)`).",
    },
    "ex.pe.same_frequency": {
        "en": "All sine columns are the same, and so are all cosine columns: every frequency is equal. "
        "Usually the culprit is integer division: `2 * i // d_model` is 0 for every i < d_model / "
        "2, and `10000 ** 0 == 1`. Use true division, `/`, on floating-point numbers.",
        "ru": "Все столбцы синусов одинаковы, все столбцы косинусов — тоже: частоты совпадают. Обычно "
        "виновато целочисленное деление: `2 * i // d_model` равно 0 для всех i < d_model / 2, а "
        "`10000 ** 0 == 1`. Делите обычным `/`, в вещественных числах.",
    },
    "ex.pe.mismatch": {
        "en": "At position {pos}, dimension {dim} (batch row {row}, d_model = {d_model}) your module "
        "adds {got:.4f}, but PE({pos}, {dim}) = {expected:.4f}. That is the first value that "
        "differs.",
        "ru": "На позиции {pos}, в координате {dim} (пример {row} в батче, d_model = {d_model}) ваш "
        "модуль прибавляет {got:.4f}, а PE({pos}, {dim}) = {expected:.4f}. Это первое "
        "расхождение.",
    },
    "ex.pe.modifies_input": {
        "en": "The values are right, but `forward` changed the caller's x in place (`x += ...`): the "
        "embeddings that came in are overwritten, and autograd may fail on them. Return a new "
        "tensor: `return x + pe`.",
        "ru": "Значения верные, но `forward` изменил переданный x на месте (`x += ...`): входные "
        "эмбеддинги затёрты, а autograd на таком коде может упасть. Верните новый тензор: `return "
        "x + pe`.",
    },
    "ex.pe.not_buffer": {
        "en": "The table `{name}` is a plain attribute, not a registered buffer: `model.to(device)` and "
        "`model.half()` leave it behind, so the model fails on a GPU. Register it: "
        "`self.register_buffer('pe', pe, persistent=False)`.",
        "ru": "Таблица `{name}` — обычный атрибут, а не зарегистрированный буфер: `model.to(device)` и "
        "`model.half()` её не трогают, и на GPU модель упадёт. Зарегистрируйте её: "
        "`self.register_buffer('pe', pe, persistent=False)`.",
    },
    "ex.pe.table_is_parameter": {
        "en": "The table `{name}` is an `nn.Parameter`, a weight for training to change (and, even "
        "frozen, a weight saved in every checkpoint). The table is computed from d_model and "
        "max_len, so it belongs in a buffer: `self.register_buffer('pe', pe, persistent=False)`.",
        "ru": "Таблица `{name}` — это `nn.Parameter`, то есть вес, который меняется при обучении (и "
        "даже замороженный сохраняется в каждый чекпоинт). Таблица вычисляется из d_model и "
        "max_len, поэтому её место в буфере: `self.register_buffer('pe', pe, persistent=False)`.",
    },
    "ex.pe.odd_d_model_crash": {
        "en": "Almost: right for d_model = {even}, but with an odd d_model = {odd} your `{where}` "
        "raised `{error}`: `{detail}`. With an odd d_model there is one cosine column fewer than "
        "sine columns: `pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])`.",
        "ru": "Почти: с d_model = {even} всё верно, но с нечётным d_model = {odd} ваш `{where}` упал с "
        "ошибкой `{error}`: `{detail}`. При нечётном d_model столбцов косинусов на один меньше, "
        "чем синусов: `pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])`.",
    },
    "ex.pe.odd_d_model_values": {
        "en": "Almost: right for d_model = {even}, but with an odd d_model = {odd}, at position {pos}, "
        "dimension {dim}, your module adds {got:.4f} instead of {expected:.4f}. With an odd "
        "d_model the last column is a sine, and the exponents are still divided by d_model = "
        "{odd}.",
        "ru": "Почти: с d_model = {even} всё верно, но с нечётным d_model = {odd} на позиции {pos}, в "
        "координате {dim} ваш модуль прибавляет {got:.4f} вместо {expected:.4f}. При нечётном "
        "d_model последний столбец — синус, а показатели степени по-прежнему делятся на d_model = "
        "{odd}.",
    },
    "ex.pe.hint1": {
        "en": "Build the table once, in `__init__`: `pe` of shape `(max_len, d_model)`, with PE(pos, "
        "2i) = sin(pos / 10000^(2i/d_model)) and PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model)). "
        "`torch.arange(max_len).unsqueeze(1)` is a column of positions and `torch.arange(0, "
        "d_model, 2)` a row of values 2i: `pos / 10000 ** (two_i / d_model)` broadcasts them into "
        "all the angles at once.",
        "ru": "Постройте таблицу один раз, в `__init__`: `pe` формы `(max_len, d_model)`, где PE(pos, "
        "2i) = sin(pos / 10000^(2i/d_model)) и PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model)). "
        "`torch.arange(max_len).unsqueeze(1)` — это столбец позиций, а `torch.arange(0, d_model, "
        "2)` — строка значений 2i: благодаря broadcasting `pos / 10000 ** (two_i / d_model)` "
        "сразу даёт все углы.",
    },
    "ex.pe.hint2": {
        "en": "Columns are numbered from 0: sines go to the even columns, `pe[:, 0::2] = "
        "torch.sin(angle)`, cosines to the odd ones, `pe[:, 1::2] = torch.cos(angle)`. With an "
        "odd d_model there is one cosine column fewer: take `angle[:, : d_model // 2]` for the "
        "cosines. Compute in float64 and divide with `/`: `//` would make every frequency the "
        "same.",
        "ru": "Столбцы нумеруются с 0: синусы идут в чётные столбцы, `pe[:, 0::2] = torch.sin(angle)`, "
        "косинусы — в нечётные, `pe[:, 1::2] = torch.cos(angle)`. При нечётном d_model столбцов "
        "косинусов на один меньше: для них берите `angle[:, : d_model // 2]`. Считайте в float64 "
        "и делите обычным `/`: с `//` все частоты окажутся одинаковыми.",
    },
    "ex.pe.hint3": {
        "en": "Keep the table in a buffer, which follows `.to(device)` but is neither trained nor "
        "saved: `self.register_buffer('pe', pe, persistent=False)`, without assigning `self.pe` "
        "before. In `forward`, add only the first `x.size(1)` rows, in x's dtype: `return x + "
        "self.pe[: x.size(1)].to(x.dtype)`. No √d_model here: that scaling belongs to the token "
        "embedding.",
        "ru": "Храните таблицу в буфере — он переезжает вместе с `.to(device)`, но не обучается и не "
        "сохраняется: `self.register_buffer('pe', pe, persistent=False)`, и не присваивайте перед "
        "этим `self.pe`. В `forward` прибавляйте только первые `x.size(1)` строк, приведённые к "
        "типу x: `return x + self.pe[: x.size(1)].to(x.dtype)`. На √d_model здесь умножать не "
        "нужно: это делает эмбеддинг токенов.",
    },
    "ex.pe.solution": {
        "en": "The table is built once, in float64, and kept in a buffer with `persistent=False`; "
        "`forward` adds its first seq rows in x's dtype.",
        "ru": "Таблица строится один раз, в float64, и хранится в буфере с `persistent=False`; "
        "`forward` прибавляет её первые seq строк, приведённые к типу x.",
    },
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
