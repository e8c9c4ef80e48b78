"""What every explorer shares: the slider style, the box that shows a figure, one torch thread, numbers.

``one_thread`` lives in :mod:`course_lib.plots.figure`, whose figures need it too, and
``format_number`` (a number as the language writes it) in :mod:`course_lib.i18n`.

>>> format_length(6.283185307179586, "en"), format_length(6.283185307179586, "ru"), format_length(35332.9)
('6.3', '6,3', '35 333')
"""

import ipywidgets as widgets
from matplotlib.layout_engine import ConstrainedLayoutEngine

from ..i18n import format_number
from ..plots import one_thread, to_png

__all__ = [
    "FIGSIZE",
    "DPI",
    "SLIDER_STYLE",
    "SLIDER_LAYOUT",
    "slider",
    "FigureWidget",
    "one_thread",
    "format_number",
    "format_length",
]

# small and light: the image is redrawn on every slider move and kept in the notebook
FIGSIZE = (6.4, 3.6)  # inches, at DPI: 512 x 288 pixels
DPI = 80
#: every slider and toggle of the course: the whole description shown, one width
SLIDER_STYLE = {"description_width": "initial"}
SLIDER_LAYOUT = {"width": "480px"}


def slider(kind, **options):
    """A slider of the ipywidgets class ``kind``, styled like every other slider of the course."""
    return kind(style=SLIDER_STYLE, layout=SLIDER_LAYOUT, **options)


class FigureWidget(widgets.VBox):
    """A box whose ``image`` shows ``figure``; ``redraw`` sends the figure's current state.

    A subclass draws its figure, calls ``attach_figure(figure)`` to create ``image``, then
    ``super().__init__(children)``; after changing the figure it calls ``redraw``.

    Constrained layout takes more than half the drawing time, and the margins only move
    when the tick labels change width, so it runs on demand (``redraw(layout=True)``),
    not on every slider move.
    """

    def attach_figure(self, figure) -> None:
        """Show ``figure`` in a new ``image`` widget, laid out and rendered once."""
        self.figure = figure
        self._layout = ConstrainedLayoutEngine()
        figure.set_layout_engine("none")
        # A box stretches its children to the notebook's width (~1100 px in JupyterLab), which
        # would show the 512-px PNG blurred: an explicit width in pixels shows it 1:1 and sharp,
        # and a narrower window still shrinks it without distorting it.
        width, _ = figure.canvas.get_width_height()
        self.image = widgets.Image(
            format="png",
            layout=widgets.Layout(width=f"{width}px", max_width="100%", height="auto", object_fit="contain"),
        )
        self.redraw(layout=True)

    def redraw(self, layout: bool = False) -> None:
        """Render ``figure`` into ``image``; ``layout=True`` first recomputes the margins."""
        for ax in self.figure.axes:
            # a long (Russian) title at full size is wider than the small figure
            ax.title.set_fontsize("medium")
        if layout:
            self._layout.execute(self.figure)
        self.image.value = to_png(self.figure, palette=True)


def format_length(x: float, lang: str | None = None) -> str:
    """A wavelength for a readout: 6.3 and 35 333, not 6.283185307179586 and 3.533e+04."""
    return format_number(x, ".1f" if x < 100 else ",.0f", lang)
