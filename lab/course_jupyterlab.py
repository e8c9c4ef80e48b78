"""The course's JupyterLab server: a notebook that is not trusted opens without its saved widget state.

JupyterLab's widget manager (``@jupyter-widgets/jupyterlab-manager``) restores the widget state saved
in a notebook's metadata as soon as the notebook's kernel is ready, whether the notebook is trusted or
not, and an anywidget model (the course's explorers are anywidgets) imports its saved module (``_esm``)
as soon as it is made. Trust decides only whether a widget is *shown*: a notebook sent by a classmate
with a module in its saved state would run that module, with JupyterLab's whole API, on being opened.

This server extension makes every server's contents manager leave the saved state out of a notebook
that is not trusted, when it reads it and checks its signature (``mark_trusted_cells``): none of it
reaches the page. A trusted notebook (the course's lessons, signed by ``make lab``; a notebook the
student ran and saved, which JupyterLab signs) opens with its state, its explorers drawn. An untrusted
one shows its widgets as text, as before, until the student runs its cells.

It is enabled for every server of the environment (``jupyter_server_config.d/course-jupyterlab.json``,
installed into ``{sys.prefix}/etc/jupyter/``): ``make lab``, the hub's servers, the browser tests. It
derives the contents manager from the one configured, when the extensions are linked, before the server
makes it; Jupytext's extension derives its own from that one in turn.
"""

__all__ = ["WIDGET_STATE", "UntrustedWithoutWidgetState", "contents_manager_class"]

#: the notebook metadata's key that holds the saved widget state
WIDGET_STATE = "widgets"


class UntrustedWithoutWidgetState:
    """A contents manager's part: a notebook that is not trusted is read without its saved widget state."""

    def mark_trusted_cells(self, nb, path=""):
        trusted = self.notary.check_signature(nb)
        if not trusted:
            self.log.warning("Notebook %s is not trusted", path)
            if nb.get("metadata", {}).pop(WIDGET_STATE, None) is not None:
                self.log.warning("Notebook %s is not trusted: its saved widget state is left out", path)
        self.notary.mark_cells(nb, trusted)


def contents_manager_class(base: type) -> type:
    """``base`` (a jupyter_server contents manager class) with :class:`UntrustedWithoutWidgetState`."""
    if issubclass(base, UntrustedWithoutWidgetState):
        return base
    return type(f"Course{base.__name__}", (UntrustedWithoutWidgetState, base), {"__module__": __name__})


def _jupyter_server_extension_points():
    return [{"module": "course_jupyterlab"}]


def _link_jupyter_server_extension(serverapp):
    serverapp.contents_manager_class = contents_manager_class(serverapp.contents_manager_class)


def _load_jupyter_server_extension(serverapp):
    serverapp.log.info("course_jupyterlab: untrusted notebooks open without their saved widget state")
