"""The messages every exercise shares, in every language: verdict headings, hints and solutions,
and what a check says when the student's code cannot be run or compared.

Each exercise's own diagnoses stay beside its checker (its module, or the ``messages.py`` of
an exercise that is a package). :mod:`~course_lib.exercises.checks` imports this catalogue as
its ``MESSAGES``: ``checks.message("timeout")``, a key without an exercise's area, is one of these.
"""

from ..i18n import Messages

__all__ = ["MESSAGES"]

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
            "ru": "`{where}` всё ещё вызывает исключение `NotImplementedError`: замените эту строку своим "
            "кодом и снова запустите ячейку.",
        },
        "not_a_class": {
            "en": "`check` expects your class itself, e.g. `check(MyPositionalEncoding)`; it got a "
            "value of type `{type_name}`.",
            "ru": "Функции `check` нужен сам класс, например `check(MyPositionalEncoding)`, а она получила "
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
            "ru": "Функции `check` нужна сама ваша функция, например `check(my_pad)`, без вызова, а она получила "
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
            "ru": "Ваш `__init__` вызвал исключение `{error}`: `{detail}`.",
        },
        "error_forward": {
            "en": "Your `forward` raised `{error}` on an input of shape {shape} and dtype {dtype}: "
            "`{detail}`.",
            "ru": "Ваш `forward` вызвал исключение `{error}` на входе формы {shape} с типом данных {dtype}: "
            "`{detail}`.",
        },
        "error_call": {
            "en": "Your function `{name}` raised `{error}`: `{detail}`.",
            "ru": "Ваша функция `{name}` вызвала исключение `{error}`: `{detail}`.",
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
            "`torch.as_tensor(...)` от обычных чисел или результат обычных операций над тензорами.",
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
        "course_class_inside": {
            "en": "`{name}` uses `{original}`, the course's own solution, inside it (`{part}`): of course "
            "it passes, but the check would be judging the course's code, not yours. The exercise is to "
            "write it yourself: fill in the template above without the course's finished classes.",
            "ru": "`{name}` использует внутри себя `{original}` — готовое решение из курса (`{part}`): "
            "такой класс, конечно, прошёл бы проверку, но проверялся бы код курса, а не ваш. Задача упражнения — "
            "написать такое решение самостоятельно: заполните заготовку выше, не используя готовые "
            "классы курса.",
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
        "no_fork": {
            "en": "Note: on {platform} the notebook's process cannot be forked safely, so the check ran your code "
            "in the notebook itself, without a child process's limits: a Python loop is stopped at the "
            "time limit, but one long call (`time.sleep`, a big C operation) is not; memory is not limited; "
            "what your code changes in modules (a monkeypatch) stays changed in the notebook; `os._exit` or "
            "a crash in C code ends the kernel.",
            "ru": "Обратите внимание: в {platform} процесс ноутбука нельзя безопасно скопировать (fork), "
            "поэтому проверка выполнила ваш код в самом ноутбуке, без ограничений дочернего процесса: цикл "
            "на Python останавливается по истечении времени, а один долгий вызов (`time.sleep`, большая "
            "операция на C) — нет; память не ограничена; то, что ваш код меняет в модулях (monkeypatch), "
            "остаётся изменённым в ноутбуке; `os._exit` или падение кода на C завершают ядро.",
        },
        "output_cut": {
            "en": "… your code printed {size} in all; the rest is not shown.",
            "ru": "… всего ваш код напечатал {size}; остальное не показано.",
        },
        "how.signal": {"en": "signal {n}", "ru": "сигнал {n}"},
        "how.exit": {"en": "exit code {n}", "ru": "код выхода {n}"},
        "how.unknown": {"en": "no reply", "ru": "ответа нет"},
        "how.too_large": {"en": "a reply over {size} MB", "ru": "ответ больше {size} МБ"},
        "how.malformed": {
            "en": "a reply the check could not read: something else was written on its pipe",
            "ru": "ответ, который проверка не смогла прочитать: в её канал записали что-то постороннее",
        },
        "unit.B": {"en": "B", "ru": "Б"},
        "unit.kB": {"en": "kB", "ru": "КБ"},
        "unit.MB": {"en": "MB", "ru": "МБ"},
        "check_failed": {
            "en": "The check itself failed on your code with `{error}`: `{detail}`. That is a bug "
            "in the course, not in your code: please tell your instructor.",
            "ru": "Сама проверка вызвала исключение `{error}` на вашем коде: `{detail}`. Это ошибка "
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
