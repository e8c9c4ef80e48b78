"""Exercises with instant feedback: ``check``, ``hint`` and ``solution``, in the student's language.

Every exercise of the course is a module of this package: its hints, checker and messages side
by side (an exercise with many diagnoses is a small package instead, its checker in ``__init__.py``
beside its ``messages.py``), and its :class:`~course_lib.exercises.exercise.Exercise`, ``EXERCISE``,
whose ``check``, ``hint``, ``solution`` and ``template`` are the module's own names. Its template and
reference solution are Python files beside it, ``templates/<name>.py`` and ``solutions/<name>.py``,
with English comments that the catalogues translate. The registry is the list below::

    from course_lib import exercises
    exercises.positional_encoding.check(MyPositionalEncoding)  # a verdict that names the mistake
    exercises.positional_encoding.hint(1)                      # hints 1, 2, 3: each says a bit more
    exercises.positional_encoding.solution()                   # the reference code
    exercises.registry()                                       # every exercise, in lesson order

How a check works: it builds the student's class (or calls the student's function) on
small inputs whose sizes all differ -- batch != seq != d_model -- so that swapped axes
cannot hide, in eval mode, and compares the output with the right answer and with the
answers that common mistakes give (a table with sine and cosine swapped, a missing
sqrt(d_model), ...). The first one that matches names the diagnosis. Comparing outputs
rather than reading the code accepts any correct implementation: any attribute names, a
float32 table, a dropout layer, a slow Python loop. The student's code runs through a
:class:`~course_lib.exercises.runner.Run`, in a child process killed at its deadline: the
check compares, in the notebook's process, only plain values copied out of the child, and
nothing the student's code does there reaches the notebook.

A check returns a :class:`Feedback`: ``status`` ("correct", "incorrect" or
"not_attempted"), a stable ``key`` such as ``"pe.sin_cos_swapped"`` and a ``message``
in the language chosen with :func:`course_lib.set_language`. ``check`` never raises: an
exception in the student's code is a verdict too, and the untouched template, which
raises ``NotImplementedError``, is "not attempted".

Example::

    >>> import course_lib
    >>> from course_lib import exercises
    >>> exercises.token_embedding.check(course_lib.TokenEmbedding).key  # the course's own class
    'course_class'
    >>> namespace = {}
    >>> exec(exercises.token_embedding.template, namespace)
    >>> exercises.token_embedding.check(namespace["MyTokenEmbedding"])
    ✎ Not attempted yet. `__init__` still raises `NotImplementedError`: replace that line with your code and run this cell again.
"""

from . import (
    alibi,
    bpe_merge,
    input_layer,
    learned_positions,
    llama3,
    pad_batch,
    permutation,
    positional_encoding,
    rotary,
    runner,
    token_embedding,
)
from .checks import Feedback, Markdown
from .exercise import Exercise

__all__ = ["Exercise", "Feedback", "Markdown", "registry"]

# every exercise of the course, in lesson order: a new exercise is its module and a line here
_REGISTRY = {
    module.EXERCISE.name: module.EXERCISE
    for module in (
        pad_batch,  # lesson 1
        bpe_merge,  # 2
        token_embedding,  # 3
        permutation,  # 4
        positional_encoding,  # 5
        input_layer,  # 6
        learned_positions,  # 7
        alibi,  # 8
        rotary,  # 8
        llama3,  # 9
    )
}
# what a check compares the notebook's torch, builtins and course with, to name what it replaced
runner.remember_originals()


def registry() -> dict[str, Exercise]:
    """Every exercise of the course by name, in lesson order."""
    return dict(_REGISTRY)
