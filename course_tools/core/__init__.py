"""The shared core of the course's tools: where everything is (:mod:`.config`), files written whole and all
or nothing (:mod:`.files`), the HTML pages from their Jinja2 templates (:mod:`.templates`). It imports no
other part of ``course_tools``."""
