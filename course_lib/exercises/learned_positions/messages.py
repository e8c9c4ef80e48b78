"""The messages of the learned-positions exercise (lesson 7): its diagnoses, hints and solution, in every language.

They sit beside the checker in this package because there are many: the checker is ``__init__.py``.
"""

from ...i18n import Messages

MESSAGES = Messages(
    "lp",
    {
        "correct": {
            "en": "Your module adds a trained row per position, starts the table within a factor 2 "
            "of the sinusoidal table's scale (RMS {rms}; the sinusoidal table: 1/√2 ≈ 0.71) and "
            "refuses a sequence longer than max_len with a clear error. Well done!",
            "ru": "Ваш модуль прибавляет обучаемую строку для каждой позиции, начальный масштаб таблицы "
            "отличается от масштаба синусоидальной не больше чем вдвое (RMS {rms}; у "
            "синусоидальной 1/√2 ≈ 0,71), а на последовательность длиннее max_len модуль "
            "отвечает понятной ошибкой. Отлично!",
        },
        "not_sliced": {
            "en": "`forward` adds the whole table, so the module works only when a sequence is "
            "exactly max_len long; on x of shape {shape} it fails. Add only the first seq = "
            "x.size(1) rows: `self.weight[:x.size(1)]`.",
            "ru": "`forward` прибавляет всю таблицу, поэтому модуль работает, только когда длина "
            "последовательности ровно max_len; на x формы {shape} он вызывает исключение. Прибавляйте "
            "только первые seq = x.size(1) строк: `self.weight[:x.size(1)]`.",
        },
        "sequence_first": {
            "en": "The table is cut by x.size(0), the batch size, instead of the sequence length. x "
            "has shape (batch, seq, d_model), here {shape}: position pos of every sequence "
            "gets row pos, `self.weight[:x.size(1)]`.",
            "ru": "Таблица обрезается по x.size(0), то есть по размеру батча, а не по длине "
            "последовательности. x имеет форму (batch, seq, d_model), здесь {shape}: позиция "
            "pos каждой последовательности получает строку pos, `self.weight[:x.size(1)]`.",
        },
        "random_output": {
            "en": "Two calls on the same x gave different outputs, although the module is in eval "
            "mode. Is the table drawn in `forward`? `torch.randn` there makes a new table on "
            "every call, which nothing can learn: draw it once, in `__init__`. (`F.dropout` "
            "without `training=self.training` does this too.)",
            "ru": "Два вызова с одним и тем же x дали разные результаты, хотя модуль в режиме "
            "инференса (`model.eval()`). Не создаётся ли таблица в `forward`? `torch.randn` там даёт новую таблицу при "
            "каждом вызове, и обучить её нельзя: создайте её один раз, в `__init__`. (То же "
            "делает `F.dropout` без `training=self.training`.)",
        },
        "no_table": {
            "en": "Your module has no tensor of shape (max_len, d_model) = ({max_len}, {d_model}): "
            "where is the table? Create it in `__init__`: `self.weight = "
            "nn.Parameter(torch.randn(max_len, d_model) / 2**0.5)`.",
            "ru": "В вашем модуле нет тензора формы (max_len, d_model) = ({max_len}, {d_model}): где "
            "таблица? Создайте её в `__init__`: `self.weight = "
            "nn.Parameter(torch.randn(max_len, d_model) / 2**0.5)`.",
        },
        "table_without_x": {
            "en": "`forward` returns the table's rows alone, and x is lost. Return the sum `x + "
            "self.weight[:x.size(1)]`: the vector of each token plus the vector of its "
            "position.",
            "ru": "`forward` возвращает одни строки таблицы, а x теряется. Верните сумму `x + "
            "self.weight[:x.size(1)]`: вектор каждого токена плюс вектор его позиции.",
        },
        "wrong_shape": {
            "en": "For x of shape {expected} the output must have the same shape; yours has shape {got}.",
            "ru": "Для x формы {expected} выход должен иметь ту же форму, а у вас форма {got}.",
        },
        "rows_from_one": {
            "en": "Position pos gets row pos + 1: the slice starts at 1. Position 0 has row 0: "
            "`self.weight[:x.size(1)]`.",
            "ru": "Позиция pos получает строку pos + 1: срез начинается с 1. У позиции 0 — строка 0: "
            "`self.weight[:x.size(1)]`.",
        },
        "mismatch": {
            "en": "At position {pos}, dimension {dim} (batch row {row}) your module adds {got}, but "
            "row {pos} of your table `{name}` holds {expected}. That is the first value that "
            "differs: position pos must get row pos.",
            "ru": "На позиции {pos}, в координате {dim} (пример {row} в батче) ваш модуль прибавляет "
            "{got}, а в строке {pos} вашей таблицы `{name}` стоит {expected}. Это первое "
            "расхождение: позиция pos должна получать строку pos.",
        },
        "modifies_input": {
            "en": "The values are right, but `forward` changed the caller's x in place (`x += "
            "...`): the embeddings that came in are overwritten. Return a new tensor: `return "
            "x + self.weight[:x.size(1)]`.",
            "ru": "Значения верные, но `forward` изменил переданный x на месте (`x += ...`): "
            "входные эмбеддинги затёрты. Верните новый тензор: `return x + "
            "self.weight[:x.size(1)]`.",
        },
        "not_parameter": {
            "en": "The table `{name}` holds the right rows, but it is not a parameter (a buffer, or "
            "a plain tensor attribute): `model.parameters()` does not list it, so an optimizer "
            "never changes it, and the positions are never learned. Make it one: `self.{name} = "
            "nn.Parameter(...)`, or use `nn.Embedding(max_len, d_model)`.",
            "ru": "В таблице `{name}` верные строки, но это не параметр (а буфер или обычный "
            "атрибут-тензор): `model.parameters()` её не видит, оптимизатор её не меняет, и "
            "позиции так и не обучаются. Сделайте её параметром: `self.{name} = "
            "nn.Parameter(...)` — или возьмите `nn.Embedding(max_len, d_model)`.",
        },
        "no_gradient": {
            "en": "No gradient from the output reaches the table `{name}`: it is frozen "
            "(`requires_grad=False`, `nn.Embedding.from_pretrained`) or cut off (`torch.no_grad()`, "
            "`.detach()`), so training never changes it. Leave the parameter trainable and "
            "compute `x + self.weight[:x.size(1)]` directly.",
            "ru": "Градиент от выхода не доходит до таблицы `{name}`: она заморожена "
            "(`requires_grad=False`, `nn.Embedding.from_pretrained`) или отрезана от графа "
            "(`torch.no_grad()`, `.detach()`), поэтому обучение её не меняет. Оставьте параметр "
            "обучаемым и вычисляйте `x + self.weight[:x.size(1)]` напрямую.",
        },
        "init_not_centred": {
            "en": "The table starts with mean {mean}, not 0: every position adds about {mean} "
            "to every coordinate of every token, a shift the model must first unlearn. "
            "`torch.rand` draws from [0, 1); `torch.randn` draws from N(0, 1), centred on 0.",
            "ru": "Начальное среднее таблицы — {mean}, а не 0: каждая позиция прибавляет "
            "примерно {mean} к каждой координате каждого токена — сдвиг, от которого модели "
            "придётся сначала отучиться. `torch.rand` берёт числа из [0, 1), а `torch.randn` — "
            "из N(0, 1) с центром в 0.",
        },
        "init_too_small": {
            "en": "The table starts with RMS {rms}, while the token vectors it is added to have "
            "RMS 1 (N(0, 1/d_model) times √d_model): at the start the model hardly sees the "
            "positions, and they must grow in training before word order counts. GPT-2 starts its "
            "positions at 0.01 and its tokens at 0.02 (Hugging Face: both at 0.02), and never "
            "scales the tokens. Start at the sinusoidal table's scale, RMS 1/√2 ≈ 0.71: "
            "`torch.randn(max_len, d_model) / 2**0.5`.",
            "ru": "Начальный RMS таблицы — {rms}, а векторы токенов, к которым она "
            "прибавляется, имеют RMS 1 (N(0, 1/d_model), умноженное на √d_model): в начале "
            "модель почти не видит позиций, и им придётся вырасти за время обучения, прежде "
            "чем порядок слов начнёт что-то значить. GPT-2 начинает позиции со стандартного "
            "отклонения 0,01, а токены — с 0,02 (в Hugging Face обе таблицы — с 0,02) и токены "
            "не масштабирует. Начните с масштаба синусоидальной таблицы, RMS 1/√2 ≈ 0,71: "
            "`torch.randn(max_len, d_model) / 2**0.5`.",
        },
        "init_too_large": {
            "en": "The table starts with RMS {rms}, while the token vectors it is added to have "
            "RMS 1: the positions drown the tokens, and at the start the inputs at one position "
            "look almost the same whatever the word there. Start at the sinusoidal table's scale, RMS 1/√2 ≈ 0.71: "
            "`torch.randn(max_len, d_model) / 2**0.5`.",
            "ru": "Начальный RMS таблицы — {rms}, а векторы токенов, к которым она "
            "прибавляется, имеют RMS 1: позиции заглушают токены, и в начале обучения входы "
            "на одной позиции почти одинаковы, какое бы слово там ни стояло. Начните с масштаба "
            "синусоидальной таблицы, RMS 1/√2 ≈ 0,71: `torch.randn(max_len, d_model) / "
            "2**0.5`.",
        },
        "no_length_check": {
            "en": "For a sequence of {seq} tokens, longer than max_len = {max_len}, your module "
            "returned {got} instead of an error: the table has no row for position {max_len} "
            "or beyond, so whatever it added there is not a learned position. Check first: `if "
            'x.size(1) > self.max_len: raise ValueError(f"sequence length {{x.size(1)}} exceeds '
            'max_len={{self.max_len}}")`.',
            "ru": "Для последовательности из {seq} токенов, длиннее max_len = {max_len}, ваш модуль "
            "вернул {got} вместо ошибки: у таблицы нет строки для позиции {max_len} и дальше, "
            "так что прибавленное там — не выученная позиция. Проверяйте заранее: `if "
            'x.size(1) > self.max_len: raise ValueError(f"длина последовательности {{x.size(1)}} '
            'больше max_len={{self.max_len}}")`.',
        },
        "rejects_full_length": {
            "en": "A sequence of exactly max_len = {max_len} tokens was refused (`{detail}`), but the "
            "table has a row for each of its positions 0 .. {last}: only a longer sequence must "
            "fail. Compare with `>`, not `>=`.",
            "ru": "Последовательность ровно из max_len = {max_len} токенов отклонена (`{detail}`), "
            "хотя у таблицы есть строка для каждой её позиции 0 .. {last}: ошибкой должна "
            "заканчиваться только более длинная. Сравнивайте через `>`, а не `>=`.",
        },
        "length_error_type": {
            "en": "For a sequence of {seq} tokens, longer than max_len = {max_len}, your module "
            "failed with `{error}`: `{detail}`. Whoever reads that has to guess what went "
            "wrong. Raise a `ValueError` that names both numbers: `if x.size(1) > "
            'self.max_len: raise ValueError(f"sequence length {{x.size(1)}} exceeds '
            'max_len={{self.max_len}}")`.',
            "ru": "На последовательности из {seq} токенов, длиннее max_len = {max_len}, ваш модуль "
            "вызвал исключение `{error}`: `{detail}`. По такому сообщению трудно понять, что "
            "пошло не так. Вызывайте исключение `ValueError`, которое называет оба числа: `if "
            'x.size(1) > self.max_len: raise ValueError(f"длина последовательности {{x.size(1)}} '
            'больше max_len={{self.max_len}}")`.',
        },
        "length_error_vague": {
            "en": "Right to raise a `ValueError` for a sequence of {seq} tokens, but its message, "
            "`{detail}`, does not name both numbers, the length {seq} and max_len = {max_len}. "
            'Put them in: `f"sequence length {{x.size(1)}} exceeds max_len={{self.max_len}}"`.',
            "ru": "`ValueError` для последовательности из {seq} токенов — верно, но его сообщение, "
            "`{detail}`, не называет обоих чисел: длины {seq} и max_len = {max_len}. Добавьте их: "
            '`f"длина последовательности {{x.size(1)}} больше max_len={{self.max_len}}"`.',
        },
        "hint1": {
            "en": "A learned table is a weight like any other: create it once, in `__init__`, as an "
            "`nn.Parameter` of shape `(max_len, d_model)`. Row pos is the vector of position pos, "
            "and training changes it. (`nn.Embedding(max_len, d_model)` holds such a table too.)",
            "ru": "Обучаемая таблица — такой же вес, как любой другой: создайте её один раз, в "
            "`__init__`, как `nn.Parameter` формы `(max_len, d_model)`. Строка pos — это "
            "вектор позиции pos, и обучение его меняет. (Такую же таблицу хранит и `nn.Embedding(max_len, "
            "d_model)`.)",
        },
        "hint2": {
            "en": "Start the table at about the scale of the vectors it is added to: the course's token "
            "vectors have RMS 1, the sinusoidal table RMS 1/√2 ≈ 0.71. `torch.randn(max_len, "
            "d_model) / 2**0.5` starts it at the sinusoidal table's scale; GPT-2's 0.01 would "
            "make the positions 100 times smaller than the tokens.",
            "ru": "Задайте таблице начальный масштаб, близкий к масштабу векторов, к которым она прибавляется: у векторов "
            "токенов курса RMS 1, у синусоидальной таблицы RMS 1/√2 ≈ 0,71. `torch.randn(max_len, "
            "d_model) / 2**0.5` даёт масштаб синусоидальной таблицы, а 0,01 из GPT-2 сделало бы "
            "позиции в 100 раз меньше токенов.",
        },
        "hint3": {
            "en": "In `forward`, add only the first `seq = x.size(1)` rows: `x + self.weight[:seq]`. "
            "The table has no row for position max_len or beyond, so check first: `if seq > "
            'self.max_len: raise ValueError(f"sequence length {{seq}} exceeds '
            'max_len={{self.max_len}}")` (keep `self.max_len = max_len` in `__init__`).',
            "ru": "В `forward` прибавляйте только первые `seq = x.size(1)` строк: `x + "
            "self.weight[:seq]`. Для позиции max_len и дальше строки в таблице нет, поэтому "
            'сначала проверьте: `if seq > self.max_len: raise ValueError(f"длина последовательности '
            '{{seq}} больше max_len={{self.max_len}}")` (и сохраните `self.max_len = max_len` в '
            "`__init__`).",
        },
        "solution": {
            "en": "The table is a parameter drawn from N(0, 1/2), the sinusoidal table's scale; "
            "`forward` refuses a sequence longer than max_len with a `ValueError`, then adds the "
            "first seq rows.",
            "ru": "Таблица — параметр из N(0, 1/2), в масштабе синусоидальной таблицы; `forward` "
            "отвечает на последовательность длиннее max_len ошибкой `ValueError`, а иначе "
            "прибавляет первые seq строк.",
        },
        "solution_error": {
            "en": "sequence length {{seq}} exceeds max_len={{self.max_len}}",
            "ru": "длина последовательности {{seq}} больше max_len={{self.max_len}}",
        },
    },
)
