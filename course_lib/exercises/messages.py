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
        "status.correct": "Correct",
        "status.incorrect": "Not yet",
        "status.not_attempted": "Not attempted yet",
        "hint_title": "Hint {n} of {count}.",
        "hint_range": "the hint number must be an integer from 1 to {count}, got {value!r}",
        "solution_title": "Solution.",
        "error_line": "The line: `{line}`",
        "not_attempted": (
            "`{where}` still raises `NotImplementedError`: replace that line with your code "
            "and run this cell again."
        ),
        "not_a_class": (
            "`check` expects your class itself, e.g. `check(MyPositionalEncoding)`; it got a "
            "value of type `{type_name}`."
        ),
        "instance_not_class": (
            "Pass the class, not an object built from it: `check({name})`, without "
            "parentheses after `{name}`."
        ),
        "not_a_function": (
            "`check` expects your function itself, e.g. `check(my_pad)`, without calling it; "
            "it got a value of type `{type_name}`."
        ),
        "not_module": "`{name}` must be a PyTorch module: `class {name}(nn.Module):`.",
        "missing_super_init": (
            "The first line of `__init__` must be `super().__init__()`: it prepares the "
            "module to hold layers, parameters and buffers. PyTorch says: `{detail}`."
        ),
        "error_init": "Your `__init__` raised `{error}`: `{detail}`.",
        "error_forward": (
            "Your `forward` raised `{error}` on an input of shape {shape} and dtype {dtype}: `{detail}`."
        ),
        "error_call": "Your function `{name}` raised `{error}`: `{detail}`.",
        "not_tensor": "`{name}` returned {got} instead of a tensor. Is a `return` missing?",
        "tensor_subclass": (
            "`{name}` returned a `{type_name}`, a subclass of `torch.Tensor`: the check compares "
            "plain tensors only. Return the values as a `torch.Tensor` (`torch.as_tensor(...)` of "
            "plain numbers, or the result of ordinary tensor operations)."
        ),
        "meta_tensor": (
            "`{name}` returned a tensor on the `meta` device: it has a shape but no values, so "
            'there is nothing to compare. Does your notebook call `torch.set_default_device("meta")`, '
            'or does your code create tensors with `device="meta"`? Compute on the CPU.'
        ),
        "course_class": (
            "`{name}` is `{original}`, the course's own solution: of course it passes. The "
            "exercise is to write it yourself: fill in the template above and check your own "
            "class or function."
        ),
        "course_class_inside": (
            "`{name}` uses `{original}`, the course's own solution, inside it (`{part}`): of course "
            "it passes, but the check would be judging the course's code, not yours. The exercise is to "
            "write it yourself: fill in the template above without the course's finished classes."
        ),
        "child_died": (
            "The process that ran your code ended before it answered ({how}): a crash inside "
            "C code, a call of `os._exit`, or too much memory. Run your code on a small input in a "
            "cell of its own to see what happens."
        ),
        "patched": (
            "Note: your notebook has replaced {names}; the check did not trust the replacement "
            "and used the originals. Restart the kernel to get the originals back in the notebook too."
        ),
        "no_fork": (
            "Note: on {platform} the notebook's process cannot be forked safely, so the check ran your code "
            "in the notebook itself, without a child process's limits: a Python loop is stopped at the "
            "time limit, but one long call (`time.sleep`, a big C operation) is not; memory is not limited; "
            "what your code changes in modules (a monkeypatch) stays changed in the notebook; `os._exit` or "
            "a crash in C code ends the kernel."
        ),
        "output_cut": "… your code printed {size} in all; the rest is not shown.",
        "how.signal": "signal {n}",
        "how.exit": "exit code {n}",
        "how.unknown": "no reply",
        "how.too_large": "a reply over {size} MB",
        "how.malformed": "a reply the check could not read: something else was written on its pipe",
        "unit.B": "B",
        "unit.kB": "kB",
        "unit.MB": "MB",
        "check_failed": (
            "The check itself failed on your code with `{error}`: `{detail}`. That is a bug "
            "in the course, not in your code: please tell your instructor."
        ),
        "timeout": (
            "Your code ran longer than {seconds} s and was stopped: is there a loop that "
            "never ends (a `while` whose condition stays true)? The check runs your code on "
            "inputs with a few dozen numbers, so a right answer takes well under a second."
        ),
        "exited": (
            "Your code called `{call}`, which would stop the whole kernel: remove that call "
            "(a `forward` returns its result with `return`)."
        ),
        "no_forward": (
            "Your class `{name}` has no `forward` method, so PyTorch does not know what it "
            "computes.{suggestion}"
        ),
        "did_you_mean": " Did you mean `forward` where you wrote `{found}`?",
        "nonfinite": (
            "Your output contains `{value}` (row {row}, position {pos}, dimension {dim}): "
            "some number was divided by zero or grew too large. Print the intermediate "
            "tensors of your code to find where the first `inf` or `nan` appears."
        ),
        "output_more": "… and {count} more lines your code printed, not shown.",
    },
)
