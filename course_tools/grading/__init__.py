"""The grader: a class's notebooks graded, each in a sandbox of its own (:mod:`.grade`, :mod:`.sandbox`,
:mod:`.run`, :mod:`.guard`), and the report of the class's mistakes (:mod:`.report`, which reads the grader's
results; the grader never imports it). Imports the core only."""
