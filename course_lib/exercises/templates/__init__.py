"""The exercises' templates: ``<name>.py`` is the code a student starts from in exercise ``<name>``.

Each file is what the English notebook shows, byte for byte: its functions and classes raise
``NotImplementedError``, and its comments are English. The other languages' comments are entries of
the catalogues (msgctxt ``code:exercises/templates/<name>.py``, :mod:`course_lib.code_comments`);
:attr:`course_lib.exercises.Exercise.template` is the file in the current language.
"""
