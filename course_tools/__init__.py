"""The course's build tools, run from the repository root as ``python -m course_tools.<tool>``.

=============  ==================================================================
tool           what it does
=============  ==================================================================
``lessons``    lesson sources -> executed notebooks per language; ``check``, ``stamp``
``slides``     the committed notebooks -> one reveal.js deck per lesson and language
``site``       the committed notebooks and the decks -> the course as an offline website
``workspace``  the students' own copies of the lessons, never overwritten (``make lab``)
``hub``        JupyterHub for a class on one machine (``make hub``); each server's start
``hub_load``   a class of N on that hub, a hub restart under it, timed (``make hub-test``)
=============  ==================================================================

The modules beneath them: ``config`` (where everything is, per language and lesson),
``source`` (one lesson source: read, check, render, stamp), ``tables`` (the lesson tables),
``course`` (all lessons at once: problems, freshness, renders), ``execute`` (running a
notebook), ``files`` (writes that are atomic, and all-or-nothing); the site's own pages are
``site_pages``, its Sphinx side ``site_theme``.

Not installed with ``course_lib``: these tools build the course, and students never import them, except
``workspace`` and ``hub``, which start each student's server on a hub.
"""
