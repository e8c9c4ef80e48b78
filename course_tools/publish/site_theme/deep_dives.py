"""Deep dives folded on the site: each one a ``<details>`` that one click opens, under its heading.

A deep dive (:func:`course_tools.build.source.deep_dives`) is a run of notebook cells that opens with a
``### Deep dive: ...`` heading. myst-nb passes prose cells through without a trace of their tags, and
the heading makes a section that runs on to the next heading, past the deep dive's last cell. So the
site's copy of each notebook gets two marker cells, :data:`START` before each deep dive and
:data:`END` after it (:func:`mark`); at read time :class:`FoldDeepDives` turns the section after each
START into a :class:`deep_dive` node, moves what follows END out of it, and drops the markers. Sphinx's
table of contents, collected after the transforms, lists the deep dive like any section (the node is
a section); the HTML writer wraps its content in ``<details>``, its heading in the ``<summary>``.
course-site.js opens a deep dive when a link (the table of contents, a search hit) leads into it.
"""

import nbformat
from docutils import nodes
from sphinx.transforms import SphinxTransform

from ...build.source import deep_dives

__all__ = ["START", "END", "CLASS", "mark", "deep_dive", "FoldDeepDives", "visit_deep_dive", "setup"]

START = "<!-- course-deep-dive-start -->"
END = "<!-- course-deep-dive-end -->"
CLASS = "course-deep-dive"


def mark(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook with a :data:`START` cell before each deep dive and an :data:`END` cell after it."""
    runs = {run.start: run for run in deep_dives(nb.cells)}
    ends = {run.stop for run in runs.values()}
    out = nbformat.v4.new_notebook(metadata=nb.metadata)
    for index, cell in enumerate([*nb.cells, None]):
        if index in ends:
            out.cells.append(nbformat.v4.new_markdown_cell(END))
        if index in runs:
            out.cells.append(nbformat.v4.new_markdown_cell(START))
        if cell is not None:
            out.cells.append(cell)
    return out


class deep_dive(nodes.section):
    """A section shown folded: ``<section><details><summary><h3>title</h3></summary>...</details></section>``."""


def _is_marker(node, text: str) -> bool:
    return isinstance(node, nodes.raw) and node.astext().strip() == text


class FoldDeepDives(SphinxTransform):
    """Each section right after a START marker becomes a :class:`deep_dive` ending at its END marker."""

    default_priority = 900  # after the sections are made; before the table of contents is collected

    def apply(self, **kwargs) -> None:
        for start in list(self.document.findall(lambda n: _is_marker(n, START))):
            section = next(
                start.findall(nodes.section, include_self=False, descend=False, siblings=True, ascend=True),
                None,
            )
            end = next(section.findall(lambda n: _is_marker(n, END)), None) if section is not None else None
            if end is None:
                raise ValueError(
                    f"{self.env.docname}: a deep dive has no ### heading of its own "
                    "(`python -m course_tools.lessons check` says where)"
                )
            # what follows the deep dive's last cell, at every level up to the section, moves out after it
            moved, node = [], end
            while node is not section:
                parent = node.parent
                following = parent.children[parent.index(node) + 1 :]
                for child in following:
                    parent.remove(child)
                moved += following
                node = parent
            end.parent.remove(end)
            start.parent.remove(start)
            folded = deep_dive("", *section.children, **section.attributes)
            folded["classes"].append(CLASS)
            parent = section.parent
            at = parent.index(section)
            parent.replace(section, folded)
            for offset, child in enumerate(moved, 1):
                parent.insert(at + offset, child)


def visit_deep_dive(self, node) -> None:
    """HTML: the section, its content in ``<details>``, its title (the ``<h3>``) the ``<summary>``."""
    self.visit_section(node)
    self.body.append(f'<details class="{CLASS}">\n<summary>')
    node[0].walkabout(self)
    self.body.append("</summary>\n")
    for child in node.children[1:]:
        child.walkabout(self)
    self.body.append("</details>\n")
    self.depart_section(node)
    raise nodes.SkipNode


def setup(app) -> None:
    app.add_node(deep_dive, html=(visit_deep_dive, None))
    app.add_transform(FoldDeepDives)
