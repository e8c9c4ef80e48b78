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
        "not_positive_int": {
            "en": "{name} must be a positive integer, got {value!r}",
            "ru": "аргумент `{name}` должен быть целым положительным числом, а получено {value!r}",
        },
        "not_non_negative_int": {
            "en": "{name} must be a non-negative integer, got {value!r}",
            "ru": "аргумент `{name}` должен быть целым неотрицательным числом, а получено {value!r}",
        },
        "table_too_large": {
            "en": "a table of {rows} × {d_model} = {entries} entries is too large: building it takes {need} GiB "
            "of memory at its peak, and the limit is {limit} GiB; lower max_len or d_model",
            "ru": "таблица {rows} × {d_model} = {entries} элементов слишком велика: на её построение нужно "
            "до {need} ГиБ памяти, а предел — {limit} ГиБ; уменьшите max_len или d_model",
        },
        "vocab_table_too_large": {
            "en": "a token table of vocab_size × d_model = {vocab_size} × {d_model} = {entries} entries is too "
            "large: it takes {need} GiB of memory, and the limit is {limit} GiB; lower vocab_size or d_model",
            "ru": "таблица токенов vocab_size × d_model = {vocab_size} × {d_model} = {entries} элементов "
            "слишком велика: ей нужно {need} ГиБ памяти, а предел — {limit} ГиБ; уменьшите vocab_size "
            "или d_model",
        },
        "nested_tensor": {
            "en": "{name} must be one rectangular tensor, got a nested tensor (torch.nested) of {count} "
            "sequences: pad them to one length first (course_lib.vocab.pad_batch)",
            "ru": "аргумент `{name}` должен быть одним прямоугольным тензором, а получен вложенный тензор (torch.nested) "
            "из {count} последовательностей: сначала дополните их паддингом до одной длины (course_lib.vocab.pad_batch)",
        },
        "sparse_tensor": {
            "en": "{name} must be a dense tensor, got layout {layout}: convert it with .to_dense()",
            "ru": "аргумент `{name}` должен быть плотным тензором, а получен разреженный тензор (layout {layout}): "
            "преобразуйте его методом .to_dense()",
        },
        "base_invalid": {
            "en": "base must be a finite number greater than 1, got {value!r}: the wavelengths run from 2π "
            "to 2π·base, so with base ≤ 1 they no longer grow from column to column (base = 1 makes every "
            "column pair the same)",
            "ru": "основание base должно быть конечным числом больше 1, а получено {value!r}: длины волн идут от 2π "
            "до 2π·base, и при base ≤ 1 они перестают расти от столбца к столбцу (при base = 1 все пары "
            "столбцов одинаковы)",
        },
        "dropout_range": {
            "en": "dropout must be a probability between 0 and 1, got {value!r}",
            "ru": "аргумент `dropout` — вероятность дропаута, он должен лежать в диапазоне от 0 до 1, а получено {value!r}",
        },
        "dtype_not_dtype": {
            "en": "dtype must be a torch.dtype such as torch.float32, got {value!r}",
            "ru": "аргумент `dtype` должен быть типом данных torch.dtype, например torch.float32, а получено {value!r}",
        },
        "dtype_not_float": {
            "en": "dtype must be a floating-point dtype (torch.float32, torch.float64, ...), got {value}: "
            "the table holds sines and cosines between -1 and 1",
            "ru": "аргумент `dtype` должен быть вещественным типом (torch.float32, torch.float64, ...), а получен {value}: "
            "в таблице синусы и косинусы от −1 до 1",
        },
        "not_a_choice": {
            "en": "{name} must be one of {allowed}, got {value!r}",
            "ru": "аргумент `{name}` должен быть одним из значений {allowed}, а получено {value!r}",
        },
        "not_a_flag": {
            "en": "{name} must be True or False, got {value!r}",
            "ru": "аргумент `{name}` должен быть True или False, а получено {value!r}",
        },
        "padding_idx_type": {
            "en": "padding_idx must be an integer or None, got {value!r}",
            "ru": "аргумент `padding_idx` должен быть целым числом или None, а получено {value!r}",
        },
        "padding_idx_range": {
            "en": "padding_idx={value!r} is outside the vocabulary: it must be in [0, {vocab_size})",
            "ru": "padding_idx={value!r} вне словаря: индекс паддинга должен лежать в [0, {vocab_size})",
        },
        "no_torchscript": {
            "en": "{name} cannot be compiled by torch.jit.script: its input checks, which speak the student's "
            "language, are plain Python; use torch.compile(model) instead (TorchScript is in maintenance mode)",
            "ru": "модуль {name} нельзя скомпилировать через torch.jit.script: его проверки входных данных, которые "
            "пишут сообщения на языке студента, написаны на обычном Python; используйте torch.compile(model) (TorchScript больше не развивается)",
        },
        "ids_not_tensor": {
            "en": "token ids must be a torch.Tensor of integers, got {type_name}",
            "ru": "индексы токенов должны быть тензором torch.Tensor из целых чисел, а получен {type_name}",
        },
        "ids_not_integer": {
            "en": "token ids must be integers (torch.long), got dtype {dtype}: "
            "ids are row numbers of the embedding table, not values",
            "ru": "индексы токенов должны быть целыми (torch.long), а получен dtype {dtype}: "
            "индекс — это номер строки таблицы эмбеддингов, а не значение",
        },
        "ids_meta": {
            "en": "token ids are on the meta device, which holds shapes but no values, while the embedding "
            "table is on {device}: put the ids on {device}",
            "ru": "индексы токенов лежат на устройстве meta, где есть формы, но нет значений, а таблица "
            "эмбеддингов — на {device}: перенесите индексы на {device}",
        },
        "ids_device": {
            "en": "token ids are on {got}, the embedding table on {device}: move the ids with ids.to({device!r})",
            "ru": "индексы токенов лежат на {got}, а таблица эмбеддингов — на {device}: "
            "перенесите их через ids.to({device!r})",
        },
        "id_too_large": {
            "en": "token id {value} is out of range: the vocabulary has {vocab_size} tokens, "
            "so ids must be in [0, {vocab_size})",
            "ru": "индекс токена {value} вне диапазона: в словаре {vocab_size} токенов, "
            "поэтому индексы должны лежать в [0, {vocab_size})",
        },
        "id_negative": {
            "en": "token id {value} is negative: ids must be in [0, {vocab_size})",
            "ru": "индекс токена {value} отрицателен: индексы должны лежать в [0, {vocab_size})",
        },
        "ids_bad_ndim": {
            "en": "token ids must have shape (batch, seq), got shape {shape}",
            "ru": "индексы токенов должны иметь форму (batch, seq), а получена форма {shape}",
        },
        "x_not_tensor": {
            "en": "x must be a torch.Tensor of shape (batch, seq, d_model), got {type_name}",
            "ru": "аргумент `x` должен быть тензором torch.Tensor формы (batch, seq, d_model), а получен {type_name}",
        },
        "x_not_float": {
            "en": "x must hold floating-point vectors, got dtype {dtype}: embed the token ids first",
            "ru": "аргумент `x` должен содержать вещественные векторы, а получен dtype {dtype}: "
            "сначала превратите индексы токенов в эмбеддинги",
        },
        "x_bad_ndim": {
            "en": "x must have shape (batch, seq, d_model), got shape {shape}",
            "ru": "аргумент `x` должен иметь форму (batch, seq, d_model), а получена форма {shape}",
        },
        "last_dim": {
            "en": "the last dimension of x is {got}, but this module was built with d_model={d_model}",
            "ru": "размер `x` по последней оси равен {got}, а модуль создан с d_model={d_model}",
        },
        "seq_too_long": {
            "en": "sequence length {seq_len} exceeds max_len={max_len}: build the module with a larger max_len",
            "ru": "длина последовательности {seq_len} больше max_len={max_len}: "
            "создайте модуль с бо́льшим max_len",
        },
        "tensor_not_tensor": {
            "en": "{name} must be a torch.Tensor of shape {layout}, got {type_name}",
            "ru": "аргумент `{name}` должен быть тензором torch.Tensor формы {layout}, а получен {type_name}",
        },
        "tensor_not_float": {
            "en": "{name} must hold floating-point numbers, got dtype {dtype}",
            "ru": "аргумент `{name}` должен содержать вещественные числа, а получен dtype {dtype}",
        },
        "tensor_bad_ndim": {
            "en": "{name} must have shape {layout}, got shape {shape}",
            "ru": "аргумент `{name}` должен иметь форму {layout}, а получена форма {shape}",
        },
        "positions_not_tensor": {
            "en": "positions must be a torch.Tensor of integers, shape (seq,) or (batch, seq), got {type_name}",
            "ru": "аргумент `positions` должен быть тензором torch.Tensor из целых чисел формы (seq,) или (batch, seq), "
            "а получен {type_name}",
        },
        "positions_not_integer": {
            "en": "positions must be integers, got dtype {dtype}: a position is a row number of the table",
            "ru": "аргумент `positions` должен содержать целые числа, а получен dtype {dtype}: позиция — это номер строки "
            "таблицы",
        },
        "positions_shape": {
            "en": "positions must have shape ({seq},) or ({batch}, {seq}) for {name} of shape {x_shape}, "
            "got shape {shape}",
            "ru": "аргумент `positions` должен иметь форму ({seq},) или ({batch}, {seq}) для `{name}` формы {x_shape}, "
            "а получена форма {shape}",
        },
        "positions_meta": {
            "en": "positions {value!r} are on the meta device, which holds shapes but no values, while this "
            "module computes on {device}: put the positions on {device}",
            "ru": "аргумент `positions` {value!r} лежит на устройстве meta, где есть формы, но нет значений, а этот "
            "модуль считает на {device}: перенесите позиции на {device}",
        },
        "position_too_large": {
            "en": "position {value} is out of range: this module was built with max_len={max_len}, "
            "so positions must be in [0, {max_len})",
            "ru": "позиция {value} вне диапазона: модуль создан с max_len={max_len}, "
            "поэтому позиции должны лежать в [0, {max_len})",
        },
        "position_negative": {
            "en": "position {value} is negative: positions must be in [0, {max_len})",
            "ru": "позиция {value} отрицательна: позиции должны лежать в [0, {max_len})",
        },
    },
)

# the word-level tokenizer, ``vocab.py``
VOCAB = Messages(
    "vocab",
    {
        "texts_not_list": {
            "en": "texts must be a list of strings, got {type_name}",
            "ru": "аргумент `texts` должен быть списком строк, а получен {type_name}",
        },
        "text_not_str": {
            "en": "each text must be a str, got {type_name}",
            "ru": "каждый текст должен быть строкой str, а получен {type_name}",
        },
        "empty_batch": {
            "en": "encode_batch needs at least one text, got an empty list",
            "ru": "методу encode_batch нужен хотя бы один текст, а получен пустой список",
        },
        "tokens_not_list": {
            "en": "a vocabulary is built from a list of token strings, got {type_name}: "
            "use Vocab.build(texts) to build one from texts",
            "ru": "словарь строится из списка строк-токенов, а получен {type_name}: "
            "чтобы построить его по текстам, вызовите Vocab.build(texts)",
        },
        "specials_first": {
            "en": "a vocabulary starts with the special tokens {specials}, got {first!r}",
            "ru": "словарь начинается со специальных токенов {specials}, а получено {first!r}",
        },
        "duplicate_token": {
            "en": "token {token!r} appears twice in the vocabulary (ids {first} and {second}): "
            "each token needs exactly one id",
            "ru": "токен {token!r} встречается в словаре дважды (индексы {first} и {second}): "
            "у каждого токена должен быть ровно один индекс",
        },
        "decode_not_ids": {
            "en": "decode takes a list or a 1-d tensor of integer ids, got {got}",
            "ru": "метод decode принимает список или одномерный тензор целых индексов, а получено {got}",
        },
        "decode_meta": {
            "en": "decode needs the ids' values, but {value!r} is on the meta device, which holds shapes only: "
            "decode ids computed on a real device (cpu, cuda)",
            "ru": "методу decode нужны значения индексов, а {value!r} лежит на устройстве meta, где есть только формы: "
            "декодируйте индексы, вычисленные на настоящем устройстве (cpu, cuda)",
        },
        "decode_id_range": {
            "en": "id {value!r} is not in the vocabulary: ids must be in [0, {vocab_size})",
            "ru": "индекса {value!r} нет в словаре: индексы должны лежать в [0, {vocab_size})",
        },
        "min_freq": {
            "en": "min_freq must be a positive integer, got {value!r}",
            "ru": "аргумент `min_freq` должен быть целым положительным числом, а получено {value!r}",
        },
        "no_counts": {
            "en": "this vocabulary was made from a list of tokens, so it has no word counts to cut by "
            "min_freq: build it with Vocab.build(texts)",
            "ru": "этот словарь создан из списка токенов, и у него нет частот слов, чтобы отсечь редкие слова "
            "порогом min_freq: постройте его вызовом Vocab.build(texts)",
        },
    },
)

# RoPE and ALiBi, ``rotary.py``
ROTARY = Messages(
    "rotary",
    {
        "odd_head_dim": {
            "en": "head_dim must be even, got {value}: RoPE rotates the coordinates of a head in pairs",
            "ru": "аргумент `head_dim` должен быть чётным, а получено {value}: RoPE поворачивает координаты головы парами",
        },
        "last_dim": {
            "en": "the last dimension of {name} is {got}, but this module was built with head_dim={head_dim}",
            "ru": "размер `{name}` по последней оси равен {got}, а модуль создан с head_dim={head_dim}",
        },
        "qk_mismatch": {
            "en": "q and k must have the same batch size and sequence length (their numbers of heads may "
            "differ, as in grouped-query attention), got q of shape {q_shape} and k of shape {k_shape}",
            "ru": "у q и k должны совпадать размер батча и длина последовательности (число голов может "
            "различаться, как во внимании с группами запросов — grouped-query attention), "
            "а получены q формы {q_shape} и k формы {k_shape}",
        },
        "bias_too_large": {
            "en": "an ALiBi bias of {heads} × {seq} × {seq} = {entries} entries is too large: building it takes "
            "{need} GiB of memory at its peak, and the limit is {limit} GiB; lower seq_len",
            "ru": "смещение ALiBi из {heads} × {seq} × {seq} = {entries} элементов слишком велико: на его "
            "построение нужно до {need} ГиБ памяти, а предел — {limit} ГиБ; уменьшите seq_len",
        },
        "heads_too_many": {
            "en": "num_heads={value!r} is too large: its slopes take {need} GiB of memory at their peak, and the "
            "limit is {limit} GiB",
            "ru": "num_heads={value!r} — слишком много голов: их наклонам нужно до {need} ГиБ памяти, а предел — {limit} ГиБ",
        },
        # rope_scaling: Hugging Face's dict, as a model's config.json writes it
        "scaling_not_dict": {
            "en": "rope_scaling must be None or a dict as a model's config.json writes it, such as "
            "{{'rope_type': 'linear', 'factor': 2.0}}, got {value!r}",
            "ru": "аргумент `rope_scaling` должен быть None или словарём Python (`dict`) — таким, как его "
            "записывает config.json модели, например {{'rope_type': 'linear', 'factor': 2.0}}, а получено {value!r}",
        },
        "scaling_unknown_type": {
            "en": "rope_scaling's rope_type must be one of {allowed}, got {value!r}",
            "ru": "ключ rope_type в rope_scaling должен быть одним из значений {allowed}, а получено {value!r}",
        },
        "scaling_type_conflict": {
            "en": "rope_scaling names two methods: rope_type={value!r} and the older type={older!r}; "
            "keep one of the two keys",
            "ru": "rope_scaling называет два метода: rope_type={value!r} и устаревший ключ type={older!r}; "
            "оставьте один из двух ключей",
        },
        "scaling_unknown_key": {
            "en": "rope_scaling of rope_type {rope_type!r} has no key {key!r}: its keys are {allowed}",
            "ru": "у rope_scaling с rope_type {rope_type!r} нет ключа {key!r}: его ключи — {allowed}",
        },
        "scaling_missing_key": {
            "en": "rope_scaling of rope_type {rope_type!r} needs the key {key!r} ({meaning})",
            "ru": "в rope_scaling с rope_type {rope_type!r} нужен ключ {key!r} ({meaning})",
        },
        "scaling_meaning_factor": {
            "en": "how many times longer than the training length the context becomes",
            "ru": "во сколько раз контекст длиннее обучающей длины",
        },
        "scaling_meaning_original": {
            "en": "the training length: config.json's max_position_embeddings before scaling, as transformers "
            "copies it",
            "ru": "обучающая длина: max_position_embeddings из config.json до масштабирования — так его "
            "переносит transformers",
        },
        "scaling_meaning_freq": {
            "en": "the wavelength thresholds are original_max_position_embeddings divided by low_freq_factor "
            "and by high_freq_factor",
            "ru": "пороги длины волны — это original_max_position_embeddings, делённое на low_freq_factor "
            "и на high_freq_factor",
        },
        "scaling_not_positive": {
            "en": "rope_scaling's {key} must be a finite number greater than 0, got {value!r}",
            "ru": "значение {key} в rope_scaling должно быть конечным числом больше 0, а получено {value!r}",
        },
        "scaling_original_len": {
            "en": "rope_scaling's original_max_position_embeddings must be an integer greater than 0 "
            "(the training length), got {value!r}",
            "ru": "значение original_max_position_embeddings в rope_scaling должно быть целым числом больше 0 "
            "(обучающая длина), а получено {value!r}",
        },
        "scaling_freq_order": {
            "en": "rope_scaling's low_freq_factor must be less than high_freq_factor, got low_freq_factor={low!r} "
            "and high_freq_factor={high!r}: the pairs whose wavelength is between "
            "original_max_position_embeddings / high_freq_factor and original_max_position_embeddings / "
            "low_freq_factor get a frequency between θ / factor and θ, so the first must be the shorter",
            "ru": "значение low_freq_factor в rope_scaling должно быть меньше high_freq_factor, а получено "
            "low_freq_factor={low!r} и high_freq_factor={high!r}: пары с длиной волны между "
            "original_max_position_embeddings / high_freq_factor и original_max_position_embeddings / "
            "low_freq_factor получают частоту между θ / factor и θ, поэтому первая граница должна быть меньше второй",
        },
        "scaling_beta_order": {
            "en": "rope_scaling's beta_fast must be greater than beta_slow, got beta_fast={fast!r} and "
            "beta_slow={slow!r}: pairs making more than beta_fast turns within the training length keep "
            "their frequency, those making fewer than beta_slow are interpolated",
            "ru": "значение beta_fast в rope_scaling должно быть больше beta_slow, а получено beta_fast={fast!r} и "
            "beta_slow={slow!r}: пары, которые за обучающую длину делают больше beta_fast оборотов, сохраняют "
            "свою частоту, а те, что делают меньше beta_slow, интерполируются",
        },
        "scaling_theta": {
            "en": "rope_scaling's rope_theta={value!r} differs from base={base!r}: they are the same number "
            "(transformers writes the base as rope_theta); give it once, as base",
            "ru": "rope_theta={value!r} в rope_scaling не совпадает с base={base!r}: это одно и то же число "
            "(transformers записывает основание как rope_theta); задайте его один раз, аргументом base",
        },
        "scaling_dynamic_head_dim": {
            "en": "rope_type 'dynamic' needs head_dim of at least 4, got {value!r}: it multiplies the base by "
            "factor to the power head_dim / (head_dim - 2)",
            "ru": "для rope_type 'dynamic' нужен head_dim не меньше 4, а получено {value!r}: основание "
            "умножается на factor в степени head_dim / (head_dim - 2)",
        },
    },
)

# lesson 7's experiment, ``extrapolation.py``
EXTRAPOLATION = Messages(
    "extrapolation",
    {
        "head_dim": {
            "en": "d_model={d_model} must split into n_heads={n_heads} heads of an even width "
            "(RoPE turns the coordinates of a head in pairs)",
            "ru": "размерность модели d_model={d_model} должна делиться на n_heads={n_heads} голов чётной ширины "
            "(RoPE поворачивает координаты головы парами)",
        },
        "lengths": {
            "en": "the lengths must not decrease, and k must be smaller: k={k} < min_len={min_len} <= train_len={train_len} <= "
            "test_len={test_len} (every training sequence needs a target after position k)",
            "ru": "длины не должны убывать, а k должно быть меньше: k={k} < min_len={min_len} <= train_len={train_len} <= "
            "test_len={test_len} (в каждой обучающей последовательности нужна цель после позиции k)",
        },
        "lookup_k": {
            "en": "the lookup task needs k + 1 < min_len, got k={k}, min_len={min_len}: "
            "y[i] = x[k] is a target only after position k",
            "ru": "задаче lookup нужно k + 1 < min_len, а получено k={k}, min_len={min_len}: "
            "цель y[i] = x[k] есть только после позиции k",
        },
        "lr": {
            "en": "lr must be a positive number, got {value!r}",
            "ru": "скорость обучения lr должна быть положительным числом, а получено {value!r}",
        },
        "pairs_or_weights": {
            "en": "by_pair splits scores, and weights are not a sum of pair terms: ask for one of the two",
            "ru": "by_pair раскладывает оценки внимания по парам координат, а веса внимания в такую сумму не "
            "раскладываются: выберите что-то одно",
        },
        "test_length": {
            "en": "a test length must be in 2 .. test_len={test_len}, got {value!r}",
            "ru": "тестовая длина должна лежать в диапазоне от 2 до test_len={test_len}, а получено {value!r}",
        },
    },
)

# course_lib.scaling (lesson 9): RoPE's scaling methods on lesson 7's tiny model
SCALING = Messages(
    "scaling",
    {
        "no_model": {
            "en": "no model for seed {seed!r} ships with the package: it has seeds {seeds}; "
            "train one with course_lib.scaling.train_model({seed!r}) (about 4 s)",
            "ru": "модели для сида {seed!r} в пакете нет: в нём есть сиды {seeds}; "
            "обучите её вызовом course_lib.scaling.train_model({seed!r}) (около 4 с)",
        },
        "not_rotary": {
            "en": "model must be a TinyTransformer with rotary positions, got {value}: "
            "rope_scaling changes the angles of RoPE, and this model has none",
            "ru": "аргумент `model` должен быть моделью TinyTransformer с позициями rotary, а получено {value}: "
            "rope_scaling меняет углы RoPE, а у этой модели их нет",
        },
        "no_models": {
            "en": "models must map each seed to its trained model, got {value!r}",
            "ru": "аргумент `models` должен сопоставлять каждому сиду его обученную модель, а получено {value!r}",
        },
        "not_fine_tune": {
            "en": "tune must be a course_lib.scaling.FineTune (steps, lr, batch_size), got {value!r}",
            "ru": "аргумент `tune` должен быть объектом course_lib.scaling.FineTune (steps, lr, batch_size), "
            "а получено {value!r}",
        },
        # check_claims: what held in every seed, printed by lesson 9 (the thresholds are the code's)
        "claim_none": {
            "en": "plain RoPE: ≥ 90 % at 2L, below 90 % at 4L, below 75 % at 8L",
            "ru": "RoPE без изменений: ≥ 90 % на 2L, меньше 90 % на 4L, меньше 75 % на 8L",
        },
        "claim_linear": {
            "en": "linear: below plain RoPE at every length, below 35 % at 4L and 8L",
            "ru": "linear: хуже RoPE без изменений на любой длине, меньше 35 % на 4L и 8L",
        },
        "claim_yarn": {
            "en": "yarn: ≥ 95 % at 2L and 4L, ≥ 75 % at 8L, above plain RoPE at 4L and 8L",
            "ru": "yarn: ≥ 95 % на 2L и 4L, ≥ 75 % на 8L, лучше RoPE без изменений на 4L и 8L",
        },
        "claim_dynamic": {
            "en": "dynamic: ≥ 70 % at every length, above plain RoPE at 4L and 8L",
            "ru": "dynamic: ≥ 70 % на любой длине, лучше RoPE без изменений на 4L и 8L",
        },
        "claim_llama3": {
            "en": "llama3 (low 1, high 4): below yarn at 4L and 8L",
            "ru": "llama3 (low 1, high 4): хуже yarn на 4L и 8L",
        },
        "claim_tuned": {
            "en": "after fine-tuning at {lengths}: plain RoPE, dynamic, yarn, llama3 ≥ 98 % in every seed; "
            "linear below 95 %",
            "ru": "после дообучения на {lengths}: RoPE без изменений, dynamic, yarn, llama3 — ≥ 98 % для каждого "
            "сида; linear — меньше 95 %",
        },
        "claim_failed": {
            "en": "{claim}: not in every seed; min-max {table}",
            "ru": "{claim}: выполнено не для каждого сида; мин.–макс. {table}",
        },
        "not_measured": {
            "en": "nothing was measured for method={method!r}, factor={factor!r}, tuned={tuned!r}: "
            "the measurement has {measured}",
            "ru": "для method={method!r}, factor={factor!r}, tuned={tuned!r} ничего не измерено: "
            "в измерении есть {measured}",
        },
    },
)
