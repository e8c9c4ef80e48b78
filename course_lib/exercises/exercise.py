"""The exercise object: what a lesson calls -- ``check(student)``, ``hint(n)``, ``solution()``.

An exercise's module builds one :class:`Exercise` from its checker and messages, and binds its
methods as the module's own functions, so that ``exercises.rotary.check(rotate_qk)`` is a call of
the module ``course_lib.exercises.rotary``. Its template and reference solution are Python files
beside it, ``templates/<name>.py`` and ``solutions/<name>.py``, their comments in English and
translated by the catalogues (:mod:`course_lib.code_comments`). The check itself runs in a
:class:`~course_lib.exercises.runner.Run`.
"""

from pathlib import Path

from .. import code_comments
from ..i18n import Messages
from ..validate import is_integer
from .checks import MESSAGES, Feedback, Markdown
from .runner import Run

__all__ = ["Exercise", "TEMPLATES", "SOLUTIONS"]

#: the exercises' templates and reference solutions, ``<name>.py`` each
TEMPLATES = Path(__file__).parent / "templates"
SOLUTIONS = Path(__file__).parent / "solutions"


class Exercise:
    """One exercise: ``check(student)``, ``hint(n)``, ``solution()`` and the ``template`` to start from.

    Its template, the code a student starts from, is ``templates/<name>.py``: it raises
    ``NotImplementedError``, and the lesson build puts it into the lesson, so it is written only
    there. Its reference solution, shown by :meth:`solution` and run by the tests, is
    ``solutions/<name>.py``; a string it raises or prints is the English text of a
    ``solution_<name>`` message, which :attr:`solution_code` replaces with that message in the
    current language. The comments of both are English, each comment in words an entry of the
    catalogues (:func:`course_lib.code_comments.translated`): :attr:`template` and
    :attr:`solution_code` are in the current language.

    Args:
        name: the exercise's name: its module is ``course_lib.exercises.<name>``.
        lesson: the lesson (its number) where students meet it.
        checker: ``(student, run) -> Feedback``; may raise :class:`~course_lib.exercises.checks.Stop`
            to give its verdict early.
        messages: the exercise's own catalogue: its diagnoses, ``correct``, ``hint1`` ...
            ``hintN``, ``solution`` and the solution's strings ``solution_<name>``; its area is the
            prefix of the diagnosis keys.
        finished: the course's finished classes that answer the exercise (``"course_lib.TokenEmbedding"``):
            a student's module that keeps one of them inside (``self.inner = ...``) is told so
            (``course_class_inside``) instead of being judged on that class's outputs. The checker
            carries them (``checker.finished``), so that a :class:`Run` given only the checker knows them.
    """

    def __init__(
        self,
        name: str,
        lesson: int,
        checker,
        messages: Messages,
        finished: tuple[str, ...] = (),
    ):
        self.name = name
        self.lesson = lesson
        self.template_file = TEMPLATES / f"{name}.py"
        self.solution_file = SOLUTIONS / f"{name}.py"
        #: the template and the solution as written, in English
        self.template_source = self.template_file.read_text(encoding="utf-8")
        self.solution_source = self.solution_file.read_text(encoding="utf-8")
        self.template_context = code_comments.register(self.template_source, self.template_file)
        self.solution_context = code_comments.register(self.solution_source, self.solution_file)
        self.messages = messages
        self.prefix = messages.area
        self.num_hints = sum(1 for key in messages.english if key.startswith("hint"))
        self._checker = checker
        self.finished = checker.finished = tuple(finished)
        for key in self.solution_strings:
            english = messages(key, "en")
            if self.solution_source.count(english) != 1:
                raise ValueError(
                    f"message {messages.area}.{key} must occur once in the solution of {name!r}: {english!r}"
                )

    @property
    def template(self) -> str:
        """The code a student starts from, its comments in the current language."""
        return self.template_in()

    @property
    def solution_strings(self) -> list[str]:
        """The keys of the messages that are strings of the reference solution (``solution_error``)."""
        return [key for key in self.messages.english if key.startswith("solution_")]

    @property
    def solution_code(self) -> str:
        """The reference solution, its comments and the strings it raises in the current language."""
        code = code_comments.translated(self.solution_source, self.solution_context)
        for key in self.solution_strings:
            code = code.replace(self.messages(key, "en"), self.messages(key))
        return code

    def template_in(self, lang: str | None = None) -> str:
        """The template with its comments in ``lang`` (the current language when None): what the
        lesson build puts into each language's notebook."""
        return code_comments.translated(self.template_source, self.template_context, lang)

    def module_attribute(self, name: str):
        """An exercise module's ``__getattr__``: ``exercises.<name>.template`` read at each access,
        so that it follows :func:`course_lib.set_language`."""
        if name == "template":
            return self.template
        raise AttributeError(f"module 'course_lib.exercises.{self.name}' has no attribute {name!r}")

    @property
    def diagnoses(self) -> list[str]:
        """The keys of this exercise's verdicts, e.g. ``["pe.correct", "pe.halves", ...]``."""
        texts = {"solution", *self.solution_strings} | {f"hint{n}" for n in range(1, self.num_hints + 1)}
        return [f"{self.prefix}.{key}" for key in self.messages.english if key not in texts]

    def check(self, student) -> Feedback:
        """Run the student's class or function and say what is right or wrong with it. Never raises."""
        return Run().check(self._checker, student)

    def run_check(self, student, run: Run) -> Feedback:
        """The check in a given :class:`Run`: the grader's, whose child is a sandbox that ran the notebook."""
        return run.check(self._checker, student)

    def hint(self, n: int = 1) -> Markdown:
        """Hint ``n`` (1, 2, ...): each one says more than the one before."""
        if not is_integer(n) or not 1 <= n <= self.num_hints:
            raise ValueError(MESSAGES("hint_range", value=n, count=self.num_hints))
        title = MESSAGES("hint_title", n=n, count=self.num_hints)
        return Markdown(f"**{title}** {self.messages(f'hint{n}')}")

    def solution(self) -> Markdown:
        """The reference solution: a sentence on the idea, then the code."""
        text = self.messages("solution")
        return Markdown(f"**{MESSAGES('solution_title')}** {text}\n\n```python\n{self.solution_code}```")

    def __repr__(self) -> str:
        return f"<exercise {self.name}: check(...), hint(1..{self.num_hints}), solution()>"
