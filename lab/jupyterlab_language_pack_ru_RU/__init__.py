"""JupyterLab's Russian language pack with the course's additions (lab/README.md).

The catalogues under ``locale/`` are written at build time: the official pack's, plus ``po/*.po``.
"""

__version__ = "4.5.post3+course"
