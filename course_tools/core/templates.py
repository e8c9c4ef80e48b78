"""The course's HTML pages, from the Jinja2 templates of ``course_tools`` (``*.html.j2``, each beside its tool).

One environment serves them all, so every page is written by the same rules: every value is
escaped unless it is marked safe (``markupsafe.Markup``), a name the template uses but is not
given is an error rather than an empty string, and a block tag's own line break is dropped.
The pages, named by their path below ``course_tools/``: the decks' index
(``publish/slides_index.html.j2``), the site's root page (``publish/site_root.html.j2``) and the grade
report (``grading/report.html.j2``).
"""

from functools import cache
from pathlib import Path

import jinja2

__all__ = ["render"]


@cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parents[1]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        keep_trailing_newline=True,
    )


def render(name: str, **values) -> str:
    """The template ``name`` (its path below ``course_tools/``, e.g. ``publish/slides_index.html.j2``) filled with ``values``, autoescaped."""
    return environment().get_template(name).render(**values)
