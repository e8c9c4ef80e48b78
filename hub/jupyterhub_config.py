"""JupyterHub's configuration for the course: `make hub` (course_tools/classroom/hub.py says what it sets)."""

from course_tools.classroom.hub import configure

configure(get_config())  # noqa: F821 (JupyterHub defines get_config for its configuration files)
