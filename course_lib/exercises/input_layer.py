"""Lesson 6: the whole input layer, with the positions a generating model and a left-padded batch need.

The student writes ``MyInputLayer(vocab_size, d_model, max_len)`` whose ``forward(ids,
positions=None)`` returns ``embedding(ids) * sqrt(d_model) + PE[positions]``, positions
``0 .. seq-1`` by default. The check runs it on a whole batch, as a model that generates with a
cache (positions ``(seq,)`` that do not start at 0), on a left-padded batch (positions ``(batch,
seq)``), in bfloat16, and with an odd d_model.
"""

import inspect
import math

import torch
from torch import nn

from ..embedding import sinusoidal_table
from ..i18n import Messages
from .core import (
    Exercise,
    Feedback,
    Stop,
    close,
    feedback,
    first_difference,
    require_finite,
    require_module_class,
    require_tensor,
    same,
    wrong,
)
from .runner import Run, code_safe, safe_str

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
            "ru": "Веса модели в {expected}, а выход получился {got}: таблица другого типа, "
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
            "en": "The token vectors are added as they are: multiply them by √d_model = {scale:.4f} "
            "first, as section 3.4 of the paper does.",
            "ru": "Векторы токенов прибавляются как есть: сначала умножьте их на √d_model = "
            "{scale:.4f}, как в разделе 3.4 статьи.",
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
            "ru": "Позиционная таблица тоже умножается на √d_model. Раздел 3.4 масштабирует только "
            "веса эмбеддинга: `self.embedding(ids) * self.scale + self.pe[positions]` — множитель "
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
            "en": "At batch row {row}, position {pos}, coordinate {dim} your layer gives {got:.4f}, "
            "but token vector × √d_model + PE({pos}, {dim}) = {expected:.4f}. That is the first "
            "value that differs.",
            "ru": "В примере {row} батча, на позиции {pos}, в координате {dim} ваш слой даёт "
            "{got:.4f}, а вектор токена × √d_model + PE({pos}, {dim}) = {expected:.4f}. Это первое "
            "расхождение.",
        },
        "table_is_parameter": {
            "en": "The positional table `{name}` is an `nn.Parameter`: an optimizer changes it, and "
            "even frozen it is saved in every checkpoint, which then fits only a model with the "
            "same max_len. The table is computed from d_model and max_len: "
            "`self.register_buffer('pe', pe, persistent=False)`.",
            "ru": "Позиционная таблица `{name}` — это `nn.Parameter`: оптимизатор её меняет, а даже "
            "замороженная, она сохраняется в каждый чекпоинт, и тот подходит потом только модели с "
            "тем же max_len. Таблица вычисляется из d_model и max_len: "
            "`self.register_buffer('pe', pe, persistent=False)`.",
        },
        "table_saved": {
            "en": "The positional table `{name}` is a buffer, but a persistent one: every checkpoint "
            "carries its {size} numbers, which the code rebuilds anyway, and loading it into a "
            "model with another max_len fails with a size mismatch. Register it with "
            "`persistent=False`.",
            "ru": "Позиционная таблица `{name}` — буфер, но сохраняемый: каждый чекпоинт несёт её "
            "{size} чисел, которые код и так восстанавливает, а загрузка в модель с другим max_len "
            "падает с ошибкой size mismatch. Регистрируйте её с `persistent=False`.",
        },
        "not_buffer": {
            "en": "The positional table `{name}` is a plain attribute, not a registered buffer: "
            "`model.to(device)` and `model.to(torch.bfloat16)` leave it behind, and the model "
            "fails on a GPU. `self.register_buffer('pe', pe, persistent=False)`.",
            "ru": "Позиционная таблица `{name}` — обычный атрибут, а не зарегистрированный буфер: "
            "`model.to(device)` и `model.to(torch.bfloat16)` её не трогают, и на GPU модель "
            "упадёт. `self.register_buffer('pe', pe, persistent=False)`.",
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
            "with a cache, whose new token arrives alone: every new token gets PE(0). Use the "
            "rows of the positions: `self.pe[positions]`, and `torch.arange(seq)` only when "
            "`positions is None`.",
            "ru": "С `positions=torch.tensor({positions})` ваш слой всё равно прибавляет строки 0, 1, "
            "… таблицы: позиции не учитываются. Именно это происходит с моделью, которая генерирует "
            "текст с кэшем: новый токен приходит один и получает PE(0). Берите строки по позициям: "
            "`self.pe[positions]`, а `torch.arange(seq)` — только когда `positions is None`.",
        },
        "positions_error": {
            "en": "With `positions=torch.tensor({positions})` (tokens {positions} of a text generated "
            "with a cache) your `forward` raised `{error}`: `{detail}`.",
            "ru": "С `positions=torch.tensor({positions})` (токены {positions} текста, который "
            "генерируется с кэшем) ваш `forward` упал с ошибкой `{error}`: `{detail}`.",
        },
        "positions_mismatch": {
            "en": "With `positions=torch.tensor({positions})`, at batch row {row}, coordinate {dim} of "
            "the token at position {position}, your layer gives {got:.4f}, but token vector × "
            "√d_model + PE({position}, {dim}) = {expected:.4f}. Position p must get row p: "
            "`self.pe[positions]`.",
            "ru": "С `positions=torch.tensor({positions})` в примере {row} батча, в координате {dim} "
            "токена на позиции {position} ваш слой даёт {got:.4f}, а вектор токена × √d_model + "
            "PE({position}, {dim}) = {expected:.4f}. Позиция p должна получать строку p: "
            "`self.pe[positions]`.",
        },
        "positions_batch_error": {
            "en": "Right for positions of shape (seq,), but with positions of shape (batch, seq) = "
            "{shape}, one row per sequence as a left-padded batch needs, your `forward` raised "
            "`{error}`: `{detail}`. `self.pe[positions]` works for both shapes: (seq, d_model) or "
            "(batch, seq, d_model), and either adds to the token vectors.",
            "ru": "Для позиций формы (seq,) всё верно, но с позициями формы (batch, seq) = {shape}, по "
            "строке на последовательность, как нужно батчу с паддингом слева, ваш `forward` упал с "
            "ошибкой `{error}`: `{detail}`. `self.pe[positions]` годится для обеих форм: получится "
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
            "here {positions}, sequence {row} gets the wrong row at index {pos}: coordinate {dim} "
            "is {got:.4f} instead of token vector × √d_model + PE({position}, {dim}) = "
            "{expected:.4f}. Each sequence has positions of its own: index the table with the "
            "whole tensor, `self.pe[positions]`.",
            "ru": "Для позиций формы (seq,) всё верно, но с позициями формы (batch, seq), здесь "
            "{positions}, последовательность {row} получает не ту строку на индексе {pos}: "
            "координата {dim} равна {got:.4f}, а должна быть вектор токена × √d_model + "
            "PE({position}, {dim}) = {expected:.4f}. У каждой последовательности свои позиции: "
            "индексируйте таблицу всем тензором, `self.pe[positions]`.",
        },
        "scale_rounded": {
            "en": "In bfloat16 your layer multiplies by {rounded}, √d_model rounded to 8 significant "
            "bits, not by √{d_model} = {scale:.4f}: the scale is a tensor in the model's dtype (a "
            "buffer that `.to(torch.bfloat16)` converts, or `torch.tensor(..., dtype=x.dtype)`). "
            "Keep it a Python float, `self.scale = math.sqrt(d_model)`: PyTorch then multiplies in "
            "float32. (Gemma is the opposite case: trained with the rounded value, so its code "
            "must round: compute as the checkpoint was trained.)",
            "ru": "В bfloat16 ваш слой умножает на {rounded} — √d_model, округлённый до 8 значащих "
            "битов, — а не на √{d_model} = {scale:.4f}: множитель хранится тензором в типе модели "
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
            "упал с ошибкой `{error}`: `{detail}`. При нечётном d_model столбцов косинусов на один "
            "меньше, чем синусов: `pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])`.",
        },
        "odd_d_model_values": {
            "en": "Almost: right for d_model = {even}, but with an odd d_model = {odd}, at position "
            "{pos}, coordinate {dim}, your layer gives {got:.4f} instead of {expected:.4f}. With an "
            "odd d_model the last column is a sine, and the exponents are still divided by "
            "d_model = {odd}.",
            "ru": "Почти: с d_model = {even} всё верно, но с нечётным d_model = {odd} на позиции "
            "{pos}, в координате {dim} ваш слой даёт {got:.4f} вместо {expected:.4f}. При нечётном "
            "d_model последний столбец — синус, а показатели степени по-прежнему делятся на "
            "d_model = {odd}.",
        },
        "hint1": {
            "en": "Two tables, both made once in `__init__`: the token vectors, "
            "`nn.Embedding(vocab_size, d_model)`, a parameter; and the positional table of shape "
            "`(max_len, d_model)`, computed in float64 from the formula (`/`, never `//`) and "
            "registered as a buffer that no checkpoint holds: `self.register_buffer('pe', "
            "pe.float(), persistent=False)`.",
            "ru": "Две таблицы, обе создаются один раз в `__init__`: векторы токенов, "
            "`nn.Embedding(vocab_size, d_model)`, — это параметр; и позиционная таблица формы "
            "`(max_len, d_model)`, посчитанная во float64 по формуле (`/`, а не `//`) и "
            "зарегистрированная как буфер, который не попадает в чекпоинт: "
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

TEMPLATE = """\
import math

import torch
from torch import nn


class MyInputLayer(nn.Module):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__()
        raise NotImplementedError

    def forward(self, ids, positions=None):  # ids: (batch, seq); positions: (seq,) or (batch, seq)
        raise NotImplementedError  # -> (batch, seq, d_model)
"""

SOLUTION = """\
import math

import torch
from torch import nn


class MyInputLayer(nn.Module):
    def __init__(self, vocab_size, d_model, max_len):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model)  # (vocab_size, d_model), trained
        nn.init.normal_(self.embedding.weight, std=d_model**-0.5)  # scaled vectors of size 1
        self.scale = math.sqrt(d_model)  # a Python float: exact in any dtype of the model
        pos = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)  # (max_len, 1)
        two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (ceil(d_model / 2),)
        angle = pos / 10000 ** (two_i / d_model)  # (max_len, ceil(d_model / 2))
        pe = torch.zeros(max_len, d_model, dtype=torch.float64)  # (max_len, d_model)
        pe[:, 0::2] = torch.sin(angle)
        pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])  # odd d_model: one cosine fewer
        self.register_buffer("pe", pe.float(), persistent=False)  # derived: never saved

    def forward(self, ids, positions=None):  # ids: (batch, seq)
        if positions is None:
            positions = torch.arange(ids.size(1), device=ids.device)  # (seq,)
        tokens = self.embedding(ids) * self.scale  # (batch, seq, d_model)
        rows = self.pe[positions].to(tokens.dtype)  # (seq, d_model) or (batch, seq, d_model)
        return tokens + rows  # (batch, seq, d_model)
"""

# all different, so that no swapped axis hides; sqrt(24) = 4.899 is 4.906 in bfloat16
_V, _D, _L, _B, _S, _ODD_D = 29, 24, 40, 3, 7, 15
_CACHE = (11, 12)  # two tokens of a text generated with a cache: they arrive without the first 11
_LEFT = ((0, 0, 0, 1, 2), (0, 1, 2, 3, 4), (0, 0, 1, 2, 3))  # (mask.cumsum(1) - 1).clamp(min=0)


def _bfloat16_probe_values(d_model: int) -> torch.Tensor:
    """bfloat16 numbers w in [1, 2) whose product with sqrt(d_model), rounded to bfloat16, differs
    from their product with sqrt(d_model) rounded to bfloat16 first; none near a tie."""
    scale, rounded = math.sqrt(d_model), float(torch.tensor(math.sqrt(d_model), dtype=torch.bfloat16))
    w = torch.arange(128, 256, dtype=torch.float64) / 128  # every bfloat16 number in [1, 2)
    exact = w * scale
    step = 2.0 ** (torch.floor(torch.log2(exact)) - 7)  # bfloat16's spacing at each product
    tie_distance = ((exact / step) % 1 - 0.5).abs()  # 0 at a tie between two bfloat16 numbers
    differs = exact.to(torch.bfloat16) != (w * rounded).to(torch.bfloat16)
    return w[differs & (tie_distance > 0.01)]


def _ids(batch: int, seq: int, seed: int) -> torch.Tensor:
    return torch.randint(0, _V, (batch, seq), generator=torch.Generator().manual_seed(seed))


def _forward(run: Run, module: nn.Module, ids: torch.Tensor, positions=None):
    args = (ids.clone(),) if positions is None else (ids.clone(), positions.clone())
    return run.call("forward", module, *args, shape=tuple(ids.shape), dtype=ids.dtype)


def _token_table(module: nn.Module, d: int) -> tuple[str, bool]:
    """The name of the parameter that holds the token vectors, and whether it is (d, vocab)."""
    for name, p in module.named_parameters():
        if p.shape in ((_V, d), (d, _V)):
            return name, p.shape == (d, _V)  # (d, vocab): an nn.Linear applied to one-hot vectors
    raise wrong("inp.no_token_table", vocab_size=_V, d_model=d)


def _tokens(module: nn.Module, table: tuple[str, bool], ids: torch.Tensor) -> torch.Tensor:
    """The token vectors of ``ids`` times sqrt(d_model), in float64: (batch, seq, d_model)."""
    weight = module.get_parameter(table[0]).detach().double()
    weight = weight.t() if table[1] else weight  # (vocab, d)
    return weight[ids] * math.sqrt(weight.shape[1])


def _output(out, ids: torch.Tensor, d: int) -> torch.Tensor:
    out = require_tensor(out)
    expected = (*ids.shape, d)
    if out.shape != expected:
        raise wrong("inp.wrong_shape", ids_shape=tuple(ids.shape), expected=expected, got=tuple(out.shape))
    got = out.detach().double()
    require_finite(got)
    return got


def _same_frequency(added: torch.Tensor) -> bool:
    """Whether every sine column is the same, and every cosine column (all frequencies equal)."""
    sines, cosines = added[0, :, 0::2], added[0, :, 1::2]  # (seq, d/2) each
    return (
        close(sines, sines[:, :1].expand_as(sines))
        and close(cosines, cosines[:, :1].expand_as(cosines))
        and not close(sines, torch.zeros_like(sines))
    )


def _default_values(got: torch.Tensor, tokens: torch.Tensor, pe: torch.Tensor) -> None:
    """``got == tokens + pe``, or the verdict that names the mistake (pe: the rows of positions 0..seq-1)."""
    if close(got, tokens + pe):
        return
    scale = math.sqrt(got.shape[-1])
    swapped, halves = torch.empty_like(pe), torch.cat([pe[:, 0::2], pe[:, 1::2]], dim=1)
    swapped[:, 0::2], swapped[:, 1::2] = pe[:, 1::2], pe[:, 0::2]
    candidates = {
        "inp.missing_scale": [tokens / scale + pe],
        "inp.scaled_twice": [tokens * scale + pe],
        "inp.scaled_positions": [(tokens + pe) * scale, tokens + pe * scale],
        "inp.other_layout": [tokens + swapped, tokens + halves],
    }
    for key, outputs in candidates.items():
        if any(close(got, candidate) for candidate in outputs):
            raise wrong(key, scale=scale, d_model=got.shape[-1])
    if _same_frequency(got - tokens):
        raise wrong("inp.same_frequency")
    row, pos, dim = first_difference(got, tokens + pe)
    expected = float(tokens[row, pos, dim] + pe[pos, dim])
    raise wrong("inp.mismatch", row=row, pos=pos, dim=dim, expected=expected, got=float(got[row, pos, dim]))


def _storage(module: nn.Module) -> None:
    """The positional table must be a non-persistent buffer: neither trained, nor saved, nor left behind."""

    def is_table(value) -> bool:
        return (
            isinstance(value, torch.Tensor)
            and value.dim() >= 2
            and tuple(value.shape[-2:]) == (_L, _D)
            and all(n == 1 for n in value.shape[:-2])
        )

    for name, p in module.named_parameters():
        if is_table(p):
            raise wrong("inp.table_is_parameter", name=name)
    saved = module.state_dict()
    for name, b in module.named_buffers():
        if is_table(b) and name in saved:
            raise wrong("inp.table_saved", name=name, size=f"{_L} × {_D} = {_L * _D}")
    for prefix, sub in module.named_modules():
        for name, value in vars(sub).items():
            if is_table(value):
                raise wrong("inp.not_buffer", name=f"{prefix}.{name}".lstrip("."))


def _accepts_positions(module: nn.Module) -> None:
    try:
        signature = inspect.signature(module.forward)
    except (TypeError, ValueError):  # a builtin or an odd callable: let the call decide
        return
    try:
        signature.bind(None, None)
    except TypeError:
        raise wrong("inp.no_positions_parameter") from None


def _crash(key: str, stop: Stop, **values) -> Stop:
    if stop.error is None:  # a time-out, an exit: that verdict stands
        return stop
    detail = code_safe(safe_str(stop.error) or repr(stop.error))
    return wrong(key, error=type(stop.error).__name__, detail=detail, **values)


def _cache_positions(run: Run, module: nn.Module, table, pe: torch.Tensor) -> None:
    """Tokens 11 and 12 of a text, arriving alone as when a model generates with a cache."""
    ids, positions = _ids(_B, len(_CACHE), seed=1), torch.tensor(_CACHE)
    shown = list(_CACHE)
    try:
        out = _forward(run, module, ids, positions)
    except Stop as stop:
        raise _crash("inp.positions_error", stop, positions=shown) from None
    got, tokens = _output(out, ids, _D), _tokens(module, table, ids)
    if close(got, tokens + pe[positions]):
        return
    if close(got, tokens + pe[: len(_CACHE)]):
        raise wrong("inp.positions_ignored", positions=shown)
    row, pos, dim = first_difference(got, tokens + pe[positions])
    p = _CACHE[pos]
    expected = float(tokens[row, pos, dim] + pe[p, dim])
    raise wrong(
        "inp.positions_mismatch",
        positions=shown,
        row=row,
        position=p,
        dim=dim,
        expected=expected,
        got=float(got[row, pos, dim]),
    )


def _left_padded_positions(run: Run, module: nn.Module, table, pe: torch.Tensor) -> None:
    """Positions (batch, seq), one row per sequence, as a left-padded batch has them."""
    positions = torch.tensor(_LEFT)
    ids = _ids(*positions.shape, seed=2)
    shape = tuple(positions.shape)
    try:
        out = require_tensor(_forward(run, module, ids, positions))
    except Stop as stop:
        raise _crash("inp.positions_batch_error", stop, shape=shape) from None
    expected_shape = (*shape, _D)
    if out.shape != expected_shape:
        raise wrong("inp.positions_batch_shape", shape=shape, expected=expected_shape, got=tuple(out.shape))
    got, tokens = _output(out, ids, _D), _tokens(module, table, ids)
    expected = tokens + pe[positions]  # (batch, seq, d)
    if close(got, expected):
        return
    row, pos, dim = first_difference(got, expected)
    raise wrong(
        "inp.positions_batch_values",
        positions=[list(r) for r in _LEFT],
        row=row,
        pos=pos,
        position=_LEFT[row][pos],
        dim=dim,
        expected=float(expected[row, pos, dim]),
        got=float(got[row, pos, dim]),
    )


def _bfloat16(run: Run, module: nn.Module, table) -> None:
    """In bfloat16 the output stays bfloat16, and sqrt(d_model) is not rounded to bfloat16 first."""
    run.call("to", module.to, torch.bfloat16, name=f"{type(module).__name__}.to")
    values = _bfloat16_probe_values(_D)
    signs = torch.tensor([1.0, -1.0]).repeat(_V * _D)[: _V * _D]
    weights = (values.repeat(_V * _D // len(values) + 1)[: _V * _D] * signs).reshape(_V, _D)
    weight = module.get_parameter(table[0])
    with torch.no_grad():
        weight.copy_(weights.t() if table[1] else weights)
    ids = torch.arange(_V).unsqueeze(1)  # (vocab, 1): every token, at position 0
    out = require_tensor(_forward(run, module, ids))
    if out.dtype != torch.bfloat16:
        raise wrong("inp.dtype", expected=torch.bfloat16, got=out.dtype)
    # at position 0 every sine is 0: the even coordinates hold the scaled token vectors alone
    got = out.detach()[:, 0, 0::2].double()  # (vocab, ceil(d/2))
    scale, rounded = math.sqrt(_D), float(torch.tensor(math.sqrt(_D), dtype=torch.bfloat16))
    w = weights[:, 0::2]
    exact, with_rounded = (w * scale).to(torch.bfloat16).double(), (w * rounded).to(torch.bfloat16).double()
    if torch.equal(got, with_rounded) and not torch.equal(got, exact):
        raise wrong("inp.scale_rounded", d_model=_D, scale=scale, rounded=f"{rounded:g}")


def _odd_width(student: type, run: Run) -> None:
    """An implementation right for an even d_model must be right for an odd one too."""
    ids, where = _ids(_B, _S, seed=3), "__init__"
    try:
        module = run.build(student, _V, _ODD_D, _L)
        where = "forward"
        out = _forward(run, module, ids)
    except Stop as stop:
        raise _crash("inp.odd_d_model_crash", stop, even=_D, odd=_ODD_D, where=where) from None
    got = _output(out, ids, _ODD_D)
    expected = _tokens(module, _token_table(module, _ODD_D), ids) + sinusoidal_table(
        _S, _ODD_D, dtype=torch.float64
    )
    if not close(got, expected):
        row, pos, dim = first_difference(got, expected)
        values = dict(
            pos=pos, dim=dim, expected=float(expected[row, pos, dim]), got=float(got[row, pos, dim])
        )
        raise wrong("inp.odd_d_model_values", even=_D, odd=_ODD_D, **values)


def check(student, run: Run) -> Feedback:
    require_module_class(student)
    module = run.build(student, _V, _D, _L)
    table = _token_table(module, _D)
    pe = sinusoidal_table(_L, _D, dtype=torch.float64)  # (max_len, d_model)
    ids = _ids(_B, _S, seed=0)
    out = _forward(run, module, ids)
    got = _output(out, ids, _D)
    if not same(out, _forward(run, module, ids)):
        raise wrong("inp.random_output")
    if out.dtype != torch.float32:
        raise wrong("inp.dtype", expected=torch.float32, got=out.dtype)
    _default_values(got, _tokens(module, table, ids), pe[:_S])
    _storage(module)
    _accepts_positions(module)
    _cache_positions(run, module, table, pe)
    _left_padded_positions(run, module, table, pe)
    _bfloat16(run, module, table)
    _odd_width(student, run)
    return feedback("correct", "inp.correct")


EXERCISE = Exercise("input_layer", 6, check, TEMPLATE, SOLUTION, MESSAGES)
