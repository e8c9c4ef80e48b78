"""The core of every exercise: the verdict (:class:`Feedback`), the course-wide messages of the
checkers, and the ways checkers compare outputs.

A checker is a function ``diagnose(student, run) -> Feedback`` in the exercise's own module.
``student`` is a :class:`~course_lib.exercises.runner.Handle`: the student's object stays in the
child process where ``run`` (a :class:`~course_lib.exercises.runner.Run`) runs the student's
code, and the checker gets back plain values only. It may end early with ``raise wrong(key, ...)``.
"""

from dataclasses import dataclass, field

import torch
from torch import nn

from ..i18n import Messages, resolve, tr

__all__ = [
    "MESSAGES",
    "STATUSES",
    "TOL",
    "Feedback",
    "Markdown",
    "Foreign",
    "Stop",
    "feedback",
    "wrong",
    "message",
    "close",
    "same",
    "first_difference",
    "randn",
    "describe",
    "type_name",
    "require_tensor",
    "require_function",
    "require_finite",
    "require_module_class",
    "plain_tensors",
]

STATUSES = ("correct", "incorrect", "not_attempted")

# icon and colour of each status, as GitHub draws success, failure and notes
LOOK = {"correct": ("✔", "#1a7f37"), "incorrect": ("✘", "#cf222e"), "not_attempted": ("✎", "#0969da")}

# Absolute and relative tolerance of every value comparison: far above float32 rounding of
# a table computed in float32 (~1e-6 here), far below the smallest difference between the
# right answer and a mistake (~1e-2).
TOL = 1e-4

MESSAGES = Messages(
    "ex",
    {
        "status.correct": {
            "en": "Correct",
            "ru": "Верно",
        },
        "status.incorrect": {
            "en": "Not yet",
            "ru": "Пока не так",
        },
        "status.not_attempted": {
            "en": "Not attempted yet",
            "ru": "Ещё не решено",
        },
        "hint_title": {
            "en": "Hint {n} of {count}.",
            "ru": "Подсказка {n} из {count}.",
        },
        "hint_range": {
            "en": "the hint number must be an integer from 1 to {count}, got {value!r}",
            "ru": "номер подсказки должен быть целым числом от 1 до {count}, а получено {value!r}",
        },
        "solution_title": {
            "en": "Solution.",
            "ru": "Решение.",
        },
        "error_line": {
            "en": "The line: `{line}`",
            "ru": "Строка: `{line}`",
        },
        "not_attempted": {
            "en": "`{where}` still raises `NotImplementedError`: replace that line with your code "
            "and run this cell again.",
            "ru": "`{where}` всё ещё выбрасывает `NotImplementedError`: замените эту строку своим "
            "кодом и снова запустите ячейку.",
        },
        "not_a_class": {
            "en": "`check` expects your class itself, e.g. `check(MyPositionalEncoding)`; it got a "
            "value of type `{type_name}`.",
            "ru": "`check` ждёт сам класс, например `check(MyPositionalEncoding)`, а получил "
            "значение типа `{type_name}`.",
        },
        "instance_not_class": {
            "en": "Pass the class, not an object built from it: `check({name})`, without "
            "parentheses after `{name}`.",
            "ru": "Передайте сам класс, а не созданный из него объект: `check({name})`, без скобок "
            "после `{name}`.",
        },
        "not_a_function": {
            "en": "`check` expects your function itself, e.g. `check(my_pad)`, without calling it; "
            "it got a value of type `{type_name}`.",
            "ru": "`check` ждёт саму функцию, например `check(my_pad)`, без вызова, а получил "
            "значение типа `{type_name}`.",
        },
        "not_module": {
            "en": "`{name}` must be a PyTorch module: `class {name}(nn.Module):`.",
            "ru": "`{name}` должен быть модулем PyTorch: `class {name}(nn.Module):`.",
        },
        "missing_super_init": {
            "en": "The first line of `__init__` must be `super().__init__()`: it prepares the "
            "module to hold layers, parameters and buffers. PyTorch says: `{detail}`.",
            "ru": "Первой строкой `__init__` должен идти вызов `super().__init__()`: он готовит "
            "модуль к тому, чтобы хранить слои, параметры и буферы. PyTorch сообщает: "
            "`{detail}`.",
        },
        "error_init": {
            "en": "Your `__init__` raised `{error}`: `{detail}`.",
            "ru": "Ваш `__init__` упал с ошибкой `{error}`: `{detail}`.",
        },
        "error_forward": {
            "en": "Your `forward` raised `{error}` on an input of shape {shape} and dtype {dtype}: "
            "`{detail}`.",
            "ru": "Ваш `forward` упал с ошибкой `{error}` на входе формы {shape} с типом {dtype}: "
            "`{detail}`.",
        },
        "error_call": {
            "en": "Your function `{name}` raised `{error}`: `{detail}`.",
            "ru": "Ваша функция `{name}` упала с ошибкой `{error}`: `{detail}`.",
        },
        "not_tensor": {
            "en": "`{name}` returned {got} instead of a tensor. Is a `return` missing?",
            "ru": "Результат `{name}` — {got}, а не тензор. Может быть, забыт `return`?",
        },
        "tensor_subclass": {
            "en": "`{name}` returned a `{type_name}`, a subclass of `torch.Tensor`: the check compares "
            "plain tensors only. Return the values as a `torch.Tensor` (`torch.as_tensor(...)` of "
            "plain numbers, or the result of ordinary tensor operations).",
            "ru": "Результат `{name}` — объект `{type_name}`, подкласс `torch.Tensor`, а проверка "
            "сравнивает только обычные тензоры. Верните значения как обычный `torch.Tensor`: "
            "результат обычных операций над тензорами.",
        },
        "meta_tensor": {
            "en": "`{name}` returned a tensor on the `meta` device: it has a shape but no values, so "
            'there is nothing to compare. Does your notebook call `torch.set_default_device("meta")`, '
            'or does your code create tensors with `device="meta"`? Compute on the CPU.',
            "ru": "Результат `{name}` — тензор на устройстве `meta`: у него есть форма, но нет значений, "
            'и сравнивать нечего. Нет ли в ноутбуке вызова `torch.set_default_device("meta")` или '
            '`device="meta"` в вашем коде? Считайте на CPU.',
        },
        "course_class": {
            "en": "`{name}` is `{original}`, the course's own solution: of course it passes. The "
            "exercise is to write it yourself: fill in the template above and check your own "
            "class or function.",
            "ru": "`{name}` — это `{original}`, готовое решение из курса: проверку оно, конечно, "
            "проходит. Задача упражнения — написать такое решение самостоятельно: заполните "
            "заготовку выше и проверьте свой класс или функцию.",
        },
        "child_died": {
            "en": "The process that ran your code ended before it answered ({how}): a crash inside "
            "C code, a call of `os._exit`, or too much memory. Run your code on a small input in a "
            "cell of its own to see what happens.",
            "ru": "Процесс, в котором выполнялся ваш код, завершился, не дав ответа ({how}): падение "
            "внутри кода на C, вызов `os._exit` или нехватка памяти. Запустите свой код на "
            "маленьком входе в отдельной ячейке и посмотрите, что происходит.",
        },
        "patched": {
            "en": "Note: your notebook has replaced {names}; the check did not trust the replacement "
            "and used the originals. Restart the kernel to get the originals back in the notebook too.",
            "ru": "Обратите внимание: ваш ноутбук подменил {names}; проверка не стала доверять подмене "
            "и использовала оригиналы. Чтобы вернуть оригиналы и в ноутбуке, перезапустите ядро.",
        },
        "output_cut": {
            "en": "… your code printed {size} in all; the rest is not shown.",
            "ru": "… всего ваш код напечатал {size}; остальное не показано.",
        },
        "how.signal": {"en": "signal {n}", "ru": "сигнал {n}"},
        "how.exit": {"en": "exit code {n}", "ru": "код выхода {n}"},
        "how.unknown": {"en": "no reply", "ru": "ответа нет"},
        "how.too_large": {"en": "a reply over {size} MB", "ru": "ответ больше {size} МБ"},
        "unit.B": {"en": "B", "ru": "Б"},
        "unit.kB": {"en": "kB", "ru": "КБ"},
        "unit.MB": {"en": "MB", "ru": "МБ"},
        "check_failed": {
            "en": "The check itself failed on your code with `{error}`: `{detail}`. That is a bug "
            "in the course, not in your code: please tell your instructor.",
            "ru": "Сама проверка упала на вашем коде с ошибкой `{error}`: `{detail}`. Это ошибка "
            "курса, а не ваша: пожалуйста, сообщите о ней преподавателю.",
        },
        "timeout": {
            "en": "Your code ran longer than {seconds} s and was stopped: is there a loop that "
            "never ends (a `while` whose condition stays true)? The check runs your code on "
            "inputs with a few dozen numbers, so a right answer takes well under a second.",
            "ru": "Ваш код работал дольше {seconds} с и был остановлен: нет ли цикла, который "
            "никогда не заканчивается (`while` с условием, которое всегда истинно)? Проверка "
            "запускает ваш код на входах из нескольких десятков чисел, и верное решение "
            "укладывается в доли секунды.",
        },
        "exited": {
            "en": "Your code called `{call}`, which would stop the whole kernel: remove that call "
            "(a `forward` returns its result with `return`).",
            "ru": "Ваш код вызвал `{call}`, а это остановило бы всё ядро: уберите этот вызов "
            "(`forward` возвращает результат через `return`).",
        },
        "no_forward": {
            "en": "Your class `{name}` has no `forward` method, so PyTorch does not know what it "
            "computes.{suggestion}",
            "ru": "У вашего класса `{name}` нет метода `forward`, поэтому PyTorch не знает, что он "
            "вычисляет.{suggestion}",
        },
        "did_you_mean": {
            "en": " Did you mean `forward` where you wrote `{found}`?",
            "ru": " Может быть, вы написали `{found}` вместо `forward`?",
        },
        "nonfinite": {
            "en": "Your output contains `{value}` (row {row}, position {pos}, dimension {dim}): "
            "some number was divided by zero or grew too large. Print the intermediate "
            "tensors of your code to find where the first `inf` or `nan` appears.",
            "ru": "В вашем выходе есть `{value}` (строка {row}, позиция {pos}, координата {dim}): "
            "какое-то число поделили на ноль, или оно стало слишком большим. Напечатайте "
            "промежуточные тензоры своего кода, чтобы найти, где впервые появляется `inf` или "
            "`nan`.",
        },
        "output_more": {
            "en": "… and {count} more lines your code printed, not shown.",
            "ru": "… и ещё строк, напечатанных вашим кодом: {count} (не показаны).",
        },
    },
)


def message(key: str, lang: str | None = None, /, **values) -> str:
    """The text of a diagnosis: ``"pe.halves"`` is the exercise's own, ``"timeout"`` is shared."""
    return tr(key, lang, **values) if "." in key else MESSAGES(key, lang, **values)


# ----------------------------------------------------------------------------- what a check returns


@dataclass(frozen=True)
class Feedback:
    """The verdict of a check.

    Attributes:
        status: ``"correct"``, ``"incorrect"`` or ``"not_attempted"``.
        key: which diagnosis, stable across languages and versions, e.g. ``"pe.sin_cos_swapped"``.
        message: what to do about it, in the language that was current when the check ran.
        title: the status in words, in the same language ("Correct", "Верно", ...).
        values: the numbers and names filled into the message.
    """

    status: str
    key: str
    message: str
    title: str = field(repr=False)
    values: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")

    def _repr_markdown_(self) -> str:
        icon, colour = LOOK[self.status]
        return f'<span style="color:{colour}"><b>{icon} {self.title}.</b></span> {self.message}'

    def __repr__(self) -> str:
        icon, _ = LOOK[self.status]
        return f"{icon} {self.title} [{self.key}]: {self.message}"


class Markdown:
    """Text that a notebook renders as Markdown and a console prints as it is."""

    def __init__(self, text: str):
        self.text = text

    def _repr_markdown_(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text


def feedback(status: str, key: str, suffix: str = "", **values) -> Feedback:
    """The verdict ``key`` with its message in the current language (and ``suffix`` after it)."""
    return Feedback(status, key, message(key, **values) + suffix, MESSAGES(f"status.{status}"), values)


class Stop(Exception):
    """Ends a check early with its verdict; ``error`` is the student's exception, if any."""

    def __init__(self, verdict: Feedback, error: BaseException | None = None):
        super().__init__(verdict.key)
        self.feedback = verdict
        self.error = error


def wrong(key: str, **values) -> Stop:
    """``raise wrong("pe.halves", ...)`` ends a check with the diagnosis ``key``."""
    return Stop(feedback("incorrect", key, **values))


# ----------------------------------------------------------------------------- comparing outputs


def close(got: torch.Tensor, expected: torch.Tensor) -> bool:
    return got.shape == expected.shape and torch.allclose(got, expected, rtol=TOL, atol=TOL)


def same(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bit for bit the same, NaN included: two calls of a deterministic module."""
    return a.shape == b.shape and torch.allclose(a, b, rtol=0, atol=0, equal_nan=True)


def first_difference(got: torch.Tensor, expected: torch.Tensor) -> tuple[int, ...]:
    """The index of the first element (row-major order) where two same-shaped tensors differ."""
    differs = ~torch.isclose(got, expected, rtol=TOL, atol=TOL)
    return tuple(int(i) for i in differs.nonzero()[0])


def randn(*shape: int) -> torch.Tensor:
    """Inputs of a check: a generator of their own, so the same whatever the student drew before."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(sum(shape)))


@dataclass(frozen=True)
class Foreign:
    """What came back from the student's code in place of a plain value: a tensor subclass
    (``kind="subclass"``), a tensor on the meta device (``"meta"``), an object of another class
    (``"object"``), or too much (``"too_large"``); ``name`` is its class's name."""

    kind: str
    name: str


def describe(value) -> str:
    """A short, language-neutral description of what the student's code returned."""
    if isinstance(value, Foreign):
        return f"`{value.name}`"
    if isinstance(value, torch.Tensor):
        return f"`Tensor` {tuple(value.shape)}"
    if isinstance(value, tuple | list):
        return "`(" + ", ".join(type_name(v) for v in value) + ")`"
    return f"`{type_name(value)}`" if value is not None else "`None`"


def type_name(value) -> str:
    """The name of the class of what the student's code returned (a :class:`Foreign` names its own)."""
    return value.name if isinstance(value, Foreign) else type(value).__name__


def require_tensor(out, name: str = "forward") -> torch.Tensor:
    """``out`` if it is a tensor; else the verdict that says what ``name`` returned instead."""
    if isinstance(out, Foreign) and out.kind == "subclass":
        raise wrong("tensor_subclass", name=name, type_name=out.name)
    if isinstance(out, Foreign) and out.kind == "meta":
        raise wrong("meta_tensor", name=name)
    if not isinstance(out, torch.Tensor):
        raise wrong("not_tensor", name=name, got=describe(out))
    return out


def require_finite(got: torch.Tensor) -> None:
    """Every value a number: an ``inf`` or ``nan`` gets its own verdict, not a misleading one."""
    bad = ~torch.isfinite(got)
    if bad.any():
        index = tuple(int(i) for i in bad.nonzero()[0])
        row, pos, dim = (index + (0, 0, 0))[:3]
        raise wrong("nonfinite", value=str(float(got[index])), row=row, pos=pos, dim=dim)


def require_module_class(student) -> None:
    """``student`` (a runner's Handle) must be an ``nn.Module`` subclass, not an instance."""
    facts = student.facts
    if facts["is_module"]:
        raise wrong("instance_not_class", name=facts["type_name"])
    if not facts["is_class"]:
        raise wrong("not_a_class", type_name=facts["type_name"])
    if not facts["is_module_class"]:
        raise wrong("not_module", name=facts["name"])


def require_function(student) -> None:
    """``student`` (a runner's Handle) must be a function, not a class."""
    if student.facts["is_class"] or not student.facts["callable"]:
        raise wrong("not_a_function", type_name=student.facts["type_name"])


def plain_tensors(module: nn.Module, last_dim: int) -> list[str]:
    """Names of tensors kept as plain attributes (neither parameters nor buffers) ending in last_dim."""
    return [
        f"{prefix}.{name}".lstrip(".")
        for prefix, sub in module.named_modules()
        for name, value in vars(sub).items()
        if isinstance(value, torch.Tensor) and value.dim() >= 2 and value.shape[-1] == last_dim
    ]


def status_title(status: str, lang: str | None = None) -> str:
    """ "Correct", "Not yet", ... in ``lang``."""
    return MESSAGES(f"status.{status}", resolve(lang))
