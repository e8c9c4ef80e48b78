"""The exercises' reference solutions: ``<name>.py`` answers exercise ``<name>``, and the tests run it.

Each file is what ``exercises.<name>.solution()`` shows in English, byte for byte; its comments are
translated as a template's (msgctxt ``code:exercises/solutions/<name>.py``), and a string it raises is
the English of a ``solution_<key>`` message, shown in the current language
(:attr:`course_lib.exercises.Exercise.solution_code`).
"""
