"""The course's JupyterLab server: a notebook that is not trusted opens without its saved widget state.

JupyterLab's widget manager (``@jupyter-widgets/jupyterlab-manager``) restores the widget state saved
in a notebook's metadata as soon as the notebook's kernel is ready, whether the notebook is trusted or
not, and an anywidget model (the course's explorers are anywidgets) imports its saved module (``_esm``)
as soon as it is made. Trust decides only whether a widget is *shown*: a notebook sent by a classmate
with a module in its saved state would run that module, with JupyterLab's whole API, on being opened.

This server extension makes every server's contents manager serve a notebook's saved widget state only
when it is the state of a signed ``.ipynb`` file, the one at that path: a notebook that is not trusted,
a text notebook (Jupytext's ``.md`` or ``.py``, whose header can carry any metadata and which no
signature covers) and a notebook whose state came from a paired text file open without it; none of it
reaches the page. A trusted notebook (the course's lessons, signed by ``make lab``; a notebook the
student ran and saved, which JupyterLab signs) opens with its state, its explorers drawn. An untrusted
one shows its widgets as text, as before, until the student runs its cells.

It is enabled for every server of the environment (``jupyter_server_config.d/course-jupyterlab.json``,
installed into ``{sys.prefix}/etc/jupyter/``): ``make lab``, the hub's servers, the browser tests. When
the extensions are linked, before the server makes its contents manager, it derives the class from the
one configured, Jupytext's included (built here when Jupytext's extension is on, which then keeps it), so
that its check sees the notebook as it is served, after Jupytext has read it.
"""

import asyncio

import nbformat

__all__ = ["WIDGET_STATE", "UntrustedWithoutWidgetState", "contents_manager_class"]

#: the notebook metadata's key that holds the saved widget state
WIDGET_STATE = "widgets"
JUPYTEXT_EXTENSION = "jupyterlab_jupytext"


class SignedWidgetState:
    """What decides: whether ``state`` is the saved widget state of the signed ``.ipynb`` at ``path``."""

    def signed_widget_state(self, path: str, state) -> bool:
        if not path.endswith(".ipynb"):
            return False  # a text notebook: no signature covers its header
        try:
            with open(self._get_os_path(path), encoding="utf-8") as f:  # refuses a path outside the root
                nb = nbformat.read(f, as_version=4)
        except Exception:
            return False
        return nb.metadata.get(WIDGET_STATE) == state and self.notary.check_signature(nb)

    def without_unsigned_state(self, model: dict, path: str) -> dict:
        content = model.get("content") if model.get("type") == "notebook" else None
        metadata = content.get("metadata") if isinstance(content, dict) else None
        if isinstance(metadata, dict) and WIDGET_STATE in metadata:
            if not self.signed_widget_state(path, metadata[WIDGET_STATE]):
                del metadata[WIDGET_STATE]
                self.log.warning("Notebook %s is not trusted: its saved widget state is left out", path)
        return model


class UntrustedWithoutWidgetState(SignedWidgetState):
    """An asynchronous contents manager's part: a notebook is served with its saved widget state only
    when that state is a signed notebook's."""

    async def get(self, path, content=True, type=None, format=None, **kwargs):
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        return self.without_unsigned_state(model, path)


class UntrustedWithoutWidgetStateSync(SignedWidgetState):
    """The same for a synchronous contents manager."""

    def get(self, path, content=True, type=None, format=None, **kwargs):
        model = super().get(path, content=content, type=type, format=format, **kwargs)
        return self.without_unsigned_state(model, path)


def contents_manager_class(base: type, jupytext: bool = False) -> type:
    """``base`` (a jupyter_server contents manager class) deriving :class:`SignedWidgetState`'s check,
    over Jupytext's manager built on ``base`` when ``jupytext`` (and ``base`` is not one already)."""
    if issubclass(base, SignedWidgetState):
        return base
    asynchronous = asyncio.iscoroutinefunction(base.get)
    if jupytext and not hasattr(base, "formats"):  # what Jupytext's extension checks to keep a class
        if asynchronous:
            from jupytext.async_contentsmanager import build_async_jupytext_contents_manager_class as build
        else:
            from jupytext.sync_contentsmanager import build_sync_jupytext_contents_manager_class as build
        base = build(base)
    part = UntrustedWithoutWidgetState if asynchronous else UntrustedWithoutWidgetStateSync
    return type(f"Course{base.__name__}", (part, base), {"__module__": __name__})


def _jupyter_server_extension_points():
    return [{"module": "course_jupyterlab"}]


def _link_jupyter_server_extension(serverapp):
    jupytext = bool(serverapp.jpserver_extensions.get(JUPYTEXT_EXTENSION))
    serverapp.contents_manager_class = contents_manager_class(serverapp.contents_manager_class, jupytext)


def _load_jupyter_server_extension(serverapp):
    serverapp.log.info(
        "course_jupyterlab: %s serves saved widget state only from signed notebooks",
        type(serverapp.contents_manager).__name__,
    )
