"""The course's tools, run from the repository root as ``python -m course_tools.<tool>``.

The modules at the top are the entry points, and nothing else: each parses its command line and calls
the subpackage that does the work (its docstring is the command's ``--help``).

================  ===============================================================================
entry point       what it does
================  ===============================================================================
``lessons``       lesson sources -> executed notebooks per language; ``check``, ``stamp``, ``words``
``slides``        the committed notebooks -> one reveal.js deck per lesson and language, and handouts
``handouts``      each deck's handout printed to PDF by headless Chromium (``make handouts``)
``site``          the committed notebooks and the decks -> the course as an offline website
``workspace``     the students' own copies of the lessons, never overwritten (``make lab``)
``hub``           JupyterHub for a class on one machine (``start``, ``stop``; ``make hub``), and each
                  student's server start (``singleuser``)
``hub_kernel``    the kernel of the hub's servers: ipykernel without its debugger (a kernel spec's command)
``grade``         a class's notebooks graded in sandboxes, and the report of its mistakes
``stages``        ``make test``'s stages one after the other, each timed
``translations``  the messages' gettext catalogues: ``update``, ``init``, ``compile``, ``check``, ``pot``
================  ===============================================================================

The subpackages, one per job:

=============  ==================================================================================
subpackage     what is in it
=============  ==================================================================================
``core``       where everything is (``config``), files written whole (``files``), the HTML pages
               from their Jinja2 templates (``templates``), the messages' catalogues (``translations``)
``build``      the lesson-source language (``source``, ``lesson_code``), all lessons at once
               (``course``), the lesson tables, a lecture's budgets, running a notebook (``execute``),
               and the lessons tool's commands (``lessons``)
``publish``    the decks (``slides``, ``speaker_view``, ``handout_pages``, ``handouts``), the fonts,
               the website (``site``, ``site_pages``, ``site_theme``)
``classroom``  the students' workspace (``workspace``), each student's server (``server``), the hub
               (``hub``, ``hub_users``)
``grading``    the grader (``grade``, its sandbox ``sandbox``, ``run`` and ``guard``), its ``report``
=============  ==================================================================================

The dependency rule: a subpackage imports only those to its left here, and no entry point::

    core <- build <- publish        (a deck and a page are a lesson rendered: publish reads the build)
    core <- classroom               (a student's server needs the workspace and nothing built)
    core <- grading                 (the grader reads notebooks as data and runs course_lib's checkers)

and inside a subpackage no two modules import each other (the grader's ``report`` reads ``grade``'s
results; ``grade`` never imports it). ``tests/unit/test_tool_layout.py`` reads every import with ``ast``
and fails on any other. Each subpackage's texts for people are its ``messages`` (the hub's own,
``classroom.hub_messages``). The hub's load test and its attacks are ``tests/hub/load.py`` and
``tests/hub/attack.py``.

Not installed with ``course_lib``: these tools build the course, and students never import them, except
what a student's server runs on a hub (``hub singleuser``: ``classroom.server``, ``classroom.workspace``,
``classroom.messages`` and the core's ``config`` and ``files``), which is all the students' image
(deploy/Dockerfile) holds of ``course_tools``, with the translations of their messages (``locale/``).
"""
