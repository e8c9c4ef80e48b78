"""The messages of the input-layer exercise (lesson 6): its diagnoses, hints and solution, in every language.

They sit beside the checker in this package because there are many: the checker is ``__init__.py``.
"""

from ...i18n import Messages

MESSAGES = Messages(
    "inp",
    {
        "correct": {
            "en": "Your input layer scales the token vectors by √d_model once, adds the paper's table "
            "from a buffer that no checkpoint holds, gives every token the row of its own position "
            "(with a cache and with left padding too), keeps √d_model exact in bfloat16 and works "
            "for an odd d_model. Well done!",
            "ru": "Ваш входной слой один раз умножает векторы токенов на √d_model, прибавляет таблицу "
            "из статьи, которая хранится в буфере и не попадает в чекпоинт, даёт каждому токену "
            "строку его собственной позиции (и с кэшем, и при паддинге слева), сохраняет √d_model "
            "точным в bfloat16 и работает с нечётным d_model. Отлично!",
        },
        "no_token_table": {
            "en": "Your module has no parameter of shape (vocab_size, d_model) = ({vocab_size}, "
            "{d_model}): where are the token vectors? Create them in `__init__`: "
            "`self.embedding = nn.Embedding(vocab_size, d_model)`.",
            "ru": "В вашем модуле нет параметра формы (vocab_size, d_model) = ({vocab_size}, "
            "{d_model}): где векторы токенов? Создайте их в `__init__`: "
            "`self.embedding = nn.Embedding(vocab_size, d_model)`.",
        },
        "wrong_shape": {
            "en": "For ids of shape {ids_shape} the output must have shape {expected}, one vector of "
            "d_model numbers per token; yours has shape {got}.",
            "ru": "Для индексов формы {ids_shape} выход должен иметь форму {expected} — по вектору из "
            "d_model чисел на каждый токен, а у вас форма {got}.",
        },
        "dtype": {
            "en": "The model's weights are {expected}, but the output is {got}: a table of another "
            "dtype added to the token vectors promotes the sum. Keep the table in a buffer "
            "(`.to()` converts it with the weights) or add `self.pe[positions].to(x.dtype)`.",
            "ru": "Веса модели имеют тип {expected}, а выход — {got}: таблица другого типа, "
            "прибавленная к векторам токенов, расширяет тип суммы. Храните таблицу в буфере "
            "(`.to()` переводит её вместе с весами) или прибавляйте "
            "`self.pe[positions].to(x.dtype)`.",
        },
        "random_output": {
            "en": "Two calls on the same ids gave different outputs, although the module is in "
            "inference mode (`model.eval()`). Is something drawn in `forward`, or `F.dropout` "
            "called without `training=self.training`? An `nn.Dropout` layer is switched off by "
            "`.eval()`.",
            "ru": "Два вызова с одними и теми же индексами дали разные результаты, хотя модуль в "
            "режиме инференса (`model.eval()`). Не создаётся ли что-то случайное в `forward`, не "
            "вызван ли `F.dropout` без `training=self.training`? Слой `nn.Dropout` выключается "
            "вызовом `.eval()`.",
        },
        "missing_scale": {
            "en": "The token vectors are added as they are: multiply them by √d_model = {scale} "
            "first, as section 3.4 of the paper does.",
            "ru": "Векторы токенов прибавляются как есть: сначала умножьте их на √d_model = "
            "{scale}, как в разделе 3.4 статьи.",
        },
        "scaled_twice": {
            "en": "The token vectors are multiplied by √d_model twice, that is by d_model = {d_model}: "
            "they are then √d_model times too large and drown the positions. Scale once. (A "
            "`TokenEmbedding` from `course_lib` already scales: don't multiply its output again.)",
            "ru": "Векторы токенов умножаются на √d_model дважды, то есть на d_model = {d_model}: они "
            "становятся в √d_model раз больше, чем нужно, и заглушают позиции. Умножайте один раз. "
            "(`TokenEmbedding` из `course_lib` уже умножает: не умножайте его выход ещё раз.)",
        },
        "scaled_positions": {
            "en": "The positional table is multiplied by √d_model too. Section 3.4 scales the "
            "embedding weights only: `self.embedding(ids) * self.scale + self.pe[positions]`, the "
            "scale applied before the sum, to the tokens alone.",
            "ru": "Позиционная таблица тоже умножается на √d_model. В разделе 3.4 на √d_model умножают "
            "только веса эмбеддинга: `self.embedding(ids) * self.scale + self.pe[positions]` — множитель "
            "применяется до сложения и только к токенам.",
        },
        "same_frequency": {
            "en": "All sine columns of your table are the same, and so are all cosine columns: every "
            "frequency is equal. Usually the culprit is integer division: `two_i // d_model` is 0 "
            "for every 2i < d_model, and `10000 ** 0 == 1`. Divide with `/`.",
            "ru": "Все столбцы синусов вашей таблицы одинаковы, все столбцы косинусов — тоже: частоты "
            "совпадают. Обычно виновато целочисленное деление: `two_i // d_model` равно 0 для всех "
            "2i < d_model, а `10000 ** 0 == 1`. Делите обычным `/`.",
        },
        "other_layout": {
            "en": "Your table holds the right sines and cosines in another order (cosines first, or "
            "all sines then all cosines, as tensor2tensor and fairseq do). That is a convention, "
            "not a bug in itself, but this course and its checkpoints use the paper's: sin in "
            "column 2i, cos in column 2i+1. Fill `pe[:, 0::2]` with sines and `pe[:, 1::2]` with "
            "cosines.",
            "ru": "В вашей таблице верные синусы и косинусы, но в другом порядке (сначала косинусы "
            "или все синусы, а за ними все косинусы, как в tensor2tensor и fairseq). Это "
            "соглашение, а не ошибка само по себе, но курс и его чекпоинты используют порядок из "
            "статьи: sin в столбце 2i, cos в столбце 2i+1. Заполните `pe[:, 0::2]` синусами, а "
            "`pe[:, 1::2]` — косинусами.",
        },
        "mismatch": {
            "en": "At batch row {row}, position {pos}, coordinate {dim} your layer gives {got}, "
            "but token vector × √d_model + P({pos}, {dim}) = {expected}. That is the first "
            "value that differs.",
            "ru": "В примере {row} батча, на позиции {pos}, в координате {dim} ваш слой даёт "
            "{got}, а вектор токена × √d_model + P({pos}, {dim}) = {expected}. Это первое "
            "расхождение.",
        },
        "table_is_parameter": {
            "en": "The positional table `{name}` is an `nn.Parameter`: an optimizer changes it, and "
            "even frozen it is saved in every checkpoint, which then fits only a model with the "
            "same max_len. The table is computed from d_model and max_len: "
            "`self.register_buffer('pe', pe, persistent=False)`.",
            "ru": "Позиционная таблица `{name}` — это `nn.Parameter`: оптимизатор её меняет, и даже "
            "замороженной она попадает в каждый чекпоинт, а такой чекпоинт подходит только модели с "
            "тем же max_len. Таблица вычисляется из d_model и max_len: "
            "`self.register_buffer('pe', pe, persistent=False)`.",
        },
        "table_saved": {
            "en": "The positional table `{name}` is a buffer, but a persistent one: every checkpoint "
            "carries its {size} numbers, which the code rebuilds anyway, and loading it into a "
            "model with another max_len fails with a size mismatch. Register it with "
            "`persistent=False`.",
            "ru": "Позиционная таблица `{name}` — буфер, но сохраняемый: в каждый чекпоинт попадают "
            "лишние {size} чисел, которые код и так восстанавливает, а загрузка в модель с другим max_len "
            "завершается ошибкой size mismatch. Регистрируйте её с `persistent=False`.",
        },
        "not_buffer": {
            "en": "The positional table `{name}` is a plain attribute, not a registered buffer: "
            "`model.to(device)` and `model.to(torch.bfloat16)` leave it behind, and the model "
            "fails on a GPU. Register it as a buffer: `self.register_buffer('pe', pe, persistent=False)`.",
            "ru": "Позиционная таблица `{name}` — обычный атрибут, а не зарегистрированный буфер: "
            "`model.to(device)` и `model.to(torch.bfloat16)` её не трогают, и на GPU модель "
            "упадёт. Зарегистрируйте её как буфер: `self.register_buffer('pe', pe, persistent=False)`.",
        },
        "no_positions_parameter": {
            "en": "`forward` takes no `positions`: write `def forward(self, ids, positions=None):`. A "
            "model that generates text one token at a time must say where the new token stands.",
            "ru": "`forward` не принимает `positions`: напишите `def forward(self, ids, "
            "positions=None):`. Модель, которая генерирует текст по одному токену, должна сообщать, "
            "на какой позиции стоит новый токен.",
        },
        "positions_ignored": {
            "en": "With `positions=torch.tensor({positions})` your layer still adds rows 0, 1, … of "
            "the table: the positions are ignored. That is what happens to a model generating "
            "with a cache, whose new token arrives alone: every new token gets row P(0). Use the "
            "rows of the positions: `self.pe[positions]`, and `torch.arange(seq)` only when "
            "`positions is None`.",
            "ru": "С `positions=torch.tensor({positions})` ваш слой всё равно прибавляет строки 0, 1, "
            "… таблицы: позиции не учитываются. Именно это происходит с моделью, которая генерирует "
            "текст с кэшем: новый токен приходит один и получает строку P(0). Берите строки по позициям: "
            "`self.pe[positions]`, а `torch.arange(seq)` — только когда `positions is None`.",
        },
        "positions_error": {
            "en": "With `positions=torch.tensor({positions})` (tokens {positions} of a text generated "
            "with a cache) your `forward` raised `{error}`: `{detail}`.",
            "ru": "С `positions=torch.tensor({positions})` (токены {positions} текста, который "
            "генерируется с кэшем) ваш `forward` вызвал исключение `{error}`: `{detail}`.",
        },
        "positions_mismatch": {
            "en": "With `positions=torch.tensor({positions})`, at batch row {row}, coordinate {dim} of "
            "the token at position {position}, your layer gives {got}, but token vector × "
            "√d_model + P({position}, {dim}) = {expected}. Position pos must get row pos: "
            "`self.pe[positions]`.",
            "ru": "С `positions=torch.tensor({positions})` в примере {row} батча, в координате {dim} "
            "токена на позиции {position} ваш слой даёт {got}, а вектор токена × √d_model + "
            "P({position}, {dim}) = {expected}. Позиция pos должна получать строку pos: "
            "`self.pe[positions]`.",
        },
        "positions_batch_error": {
            "en": "Right for positions of shape (seq,), but with positions of shape (batch, seq) = "
            "{shape}, one row per sequence as a left-padded batch needs, your `forward` raised "
            "`{error}`: `{detail}`. `self.pe[positions]` works for both shapes: (seq, d_model) or "
            "(batch, seq, d_model), and either adds to the token vectors.",
            "ru": "Для позиций формы (seq,) всё верно, но с позициями формы (batch, seq) = {shape}, по "
            "строке на последовательность, как нужно батчу с паддингом слева, ваш `forward` вызвал "
            "исключение `{error}`: `{detail}`. `self.pe[positions]` годится для обеих форм: получится "
            "(seq, d_model) или (batch, seq, d_model), и то и другое прибавляется к векторам "
            "токенов.",
        },
        "positions_batch_shape": {
            "en": "Right for positions of shape (seq,), but with positions of shape (batch, seq) = "
            "{shape}, as a left-padded batch needs, the output has shape {got} instead of "
            "{expected}: an extra axis. Indexing a (max_len, d_model) table with them, "
            "`self.pe[positions]`, already gives (batch, seq, d_model): add it as it is (for a (1, "
            "max_len, d_model) buffer, `self.pe[0, positions]`).",
            "ru": "Для позиций формы (seq,) всё верно, но с позициями формы (batch, seq) = {shape}, "
            "как нужно батчу с паддингом слева, выход имеет форму {got} вместо {expected}: лишняя "
            "ось. Индексирование ими таблицы формы (max_len, d_model), `self.pe[positions]`, уже "
            "даёт (batch, seq, d_model): прибавляйте результат как есть (для буфера формы (1, "
            "max_len, d_model) — `self.pe[0, positions]`).",
        },
        "positions_batch_values": {
            "en": "Right for positions of shape (seq,), but with positions of shape (batch, seq), "
            "here {positions}, sequence {row} gets the wrong row in column {pos}: coordinate {dim} "
            "is {got} instead of token vector × √d_model + P({position}, {dim}) = "
            "{expected}. Each sequence has positions of its own: index the table with the "
            "whole tensor, `self.pe[positions]`.",
            "ru": "Для позиций формы (seq,) всё верно, но с позициями формы (batch, seq), здесь "
            "{positions}, последовательность {row} в столбце {pos} получает не ту строку: "
            "координата {dim} равна {got}, а должна равняться вектору токена × √d_model + "
            "P({position}, {dim}) = {expected}. У каждой последовательности свои позиции: "
            "индексируйте таблицу всем тензором, `self.pe[positions]`.",
        },
        "scale_rounded": {
            "en": "In bfloat16 your layer multiplies by {rounded}, √d_model rounded to 8 significant "
            "bits, not by √{d_model} = {scale}: the scale is a tensor in the model's dtype (a "
            "buffer that `.to(torch.bfloat16)` converts, or `torch.tensor(..., dtype=x.dtype)`). "
            "Keep it a Python float, `self.scale = math.sqrt(d_model)`: PyTorch then multiplies in "
            "float32. (Gemma is the opposite case: trained with the rounded value, so its code "
            "must round: compute as the checkpoint was trained.)",
            "ru": "В bfloat16 ваш слой умножает на {rounded} — √d_model, округлённый до 8 значащих "
            "битов, — а не на √{d_model} = {scale}: множитель хранится тензором в типе модели "
            "(буфер, который `.to(torch.bfloat16)` переводит, или `torch.tensor(..., "
            "dtype=x.dtype)`). Оставьте его числом Python, `self.scale = math.sqrt(d_model)`: "
            "тогда PyTorch умножает во float32. (У Gemma обратный случай: она обучена с "
            "округлённым значением, и её код обязан округлять. Считайте так, как обучен чекпоинт.)",
        },
        "odd_d_model_crash": {
            "en": "Almost: right for d_model = {even}, but with an odd d_model = {odd} your `{where}` "
            "raised `{error}`: `{detail}`. With an odd d_model there is one cosine column fewer "
            "than sine columns: `pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])`.",
            "ru": "Почти: с d_model = {even} всё верно, но с нечётным d_model = {odd} ваш `{where}` "
            "вызвал исключение `{error}`: `{detail}`. При нечётном d_model столбцов косинусов на один "
            "меньше, чем синусов: `pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])`.",
        },
        "odd_d_model_values": {
            "en": "Almost: right for d_model = {even}, but with an odd d_model = {odd}, at position "
            "{pos}, coordinate {dim}, your layer gives {got} instead of {expected}. With an "
            "odd d_model the last column is a sine, and the exponents are still divided by "
            "d_model = {odd}.",
            "ru": "Почти: с d_model = {even} всё верно, но с нечётным d_model = {odd} на позиции "
            "{pos}, в координате {dim} ваш слой даёт {got} вместо {expected}. При нечётном "
            "d_model последний столбец — синус, а показатели степени по-прежнему делятся на "
            "d_model = {odd}.",
        },
        "hint1": {
            "en": "Two tables, both made once in `__init__`: the token vectors, "
            "`nn.Embedding(vocab_size, d_model)`, a parameter; and the positional table of shape "
            "`(max_len, d_model)`, computed in float64 from the formula (`/`, never `//`) and "
            "registered as a buffer that no checkpoint holds: `self.register_buffer('pe', "
            "pe.float(), persistent=False)`.",
            "ru": "Обе таблицы создаются один раз в `__init__`: векторы токенов "
            "(`nn.Embedding(vocab_size, d_model)`) — параметр, а позиционная таблица формы "
            "`(max_len, d_model)` — буфер, который не попадает в чекпоинт: её считают во float64 "
            "по формуле (`/`, а не `//`) и регистрируют так: "
            "`self.register_buffer('pe', pe.float(), persistent=False)`.",
        },
        "hint2": {
            "en": "Scale the token vectors, and only them, by √d_model: `self.embedding(ids) * "
            "self.scale` with `self.scale = math.sqrt(d_model)`, a Python float, which stays exact "
            "whatever dtype the model is converted to. The positional rows are added after the "
            "scaling, unscaled.",
            "ru": "Умножьте на √d_model векторы токенов, и только их: `self.embedding(ids) * "
            "self.scale`, где `self.scale = math.sqrt(d_model)` — число Python, которое остаётся "
            "точным, в какой бы тип ни перевели модель. Строки позиций прибавляются после "
            "умножения, без масштабирования.",
        },
        "hint3": {
            "en": "Positions pick the rows: `if positions is None: positions = "
            "torch.arange(ids.size(1), device=ids.device)`, then `self.pe[positions]`. For "
            "positions of shape (seq,) that is (seq, d_model), the same rows for every sequence; "
            "for (batch, seq) it is (batch, seq, d_model), each sequence its own rows. Both add "
            "to `(batch, seq, d_model)`; cast with `.to(tokens.dtype)`.",
            "ru": "Позиции выбирают строки: `if positions is None: positions = "
            "torch.arange(ids.size(1), device=ids.device)`, а затем `self.pe[positions]`. Для "
            "позиций формы (seq,) получится (seq, d_model) — одни и те же строки для всех "
            "последовательностей; для (batch, seq) — (batch, seq, d_model), у каждой "
            "последовательности свои строки. И то и другое прибавляется к `(batch, seq, "
            "d_model)`; приведите тип через `.to(tokens.dtype)`.",
        },
        "solution": {
            "en": "A token table (a parameter) and the positional table (a non-persistent buffer, "
            "built in float64); `forward` scales the tokens by a Python float √d_model and adds "
            "the rows of the positions, 0 .. seq-1 unless given.",
            "ru": "Таблица токенов (параметр) и позиционная таблица (буфер с `persistent=False`, "
            "построенный во float64); `forward` умножает токены на √d_model — число Python — и "
            "прибавляет строки позиций, по умолчанию 0 .. seq-1.",
        },
    },
)
