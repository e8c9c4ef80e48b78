"""What every figure of the course shares: the Figure class, its PNG, the heatmap and the input checks.

Figures are ``matplotlib.figure.Figure`` objects drawn by the Agg canvas, never by
``pyplot`` (see :mod:`course_lib.plots`). The checks turn what a student passes to a
figure function into the numpy arrays and integers it draws, or raise an error that says
what was wrong, in the student's language.

    >>> check_dims(5, d_model=8), check_positions([0, 10]).tolist()
    ([5], [0, 10])
"""

import contextlib
import io
import numbers
import re

import numpy as np
import PIL.Image
import torch
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.path import Path
from matplotlib.ticker import Formatter, MaxNLocator
from matplotlib.transforms import IdentityTransform

from ..i18n import decimal_mark, resolve
from ..validate import is_integer
from .messages import MESSAGES

__all__ = [
    "DIVERGING",
    "FIGSIZE",
    "DPI",
    "NotebookFigure",
    "LocalisedFormatter",
    "GRID_PX",
    "on_grid",
    "to_png",
    "new_figure",
    "colours",
    "as_array",
    "check_dims",
    "check_positions",
    "draw_heatmap",
    "one_thread",
]

# a diverging map centred on 0: sines and cosines are as often negative as positive
DIVERGING = "RdBu_r"
FIGSIZE = (7.0, 4.0)  # inches; fits a notebook column and a slide
DPI = 100


class NotebookFigure(Figure):
    """A matplotlib Figure that shows itself as a PNG in Jupyter, with no pyplot involved.

    Without pyplot's inline backend, IPython only knows a Figure's text repr
    (``<Figure size 700x400 with 2 Axes>``); ``_repr_png_`` gives it the picture.
    """

    def __init__(self, *args, lang: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        FigureCanvasAgg(self)
        self.lang = resolve(lang)

    def draw(self, renderer):
        """Draw, with the tick labels of every axes written as ``lang`` writes numbers, every point on
        the grid of :func:`on_grid`."""
        if decimal_mark(self.lang) != ".":
            for ax in self.findobj(Axes):
                for axis in (ax.xaxis, ax.yaxis):
                    if not isinstance(axis.get_major_formatter(), LocalisedFormatter):
                        axis.set_major_formatter(LocalisedFormatter(axis.get_major_formatter(), self.lang))
        with on_grid(renderer):
            super().draw(renderer)

    def _repr_png_(self) -> bytes:
        return to_png(self)


# a decimal point: between two digits, so that "nn.Embedding" or "a.b" in a text label stays as it is
_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")


class LocalisedFormatter(Formatter):
    """matplotlib's tick labels (``0.5``, ``−1.0``) with the decimal mark of ``lang``: ``0,5``, ``−1,0``.

    Wraps the axis' own formatter, which still chooses the ticks' digits; matplotlib already
    writes the minus sign. Only a point between two digits is a decimal point: text labels
    (tokens, ``nn.Embedding``, a file name) keep theirs.

        >>> from matplotlib.ticker import FixedFormatter, StrMethodFormatter
        >>> LocalisedFormatter(StrMethodFormatter("{x:.1f}"), "ru").format_ticks([0.0, 0.5])
        ['0,0', '0,5']
        >>> LocalisedFormatter(FixedFormatter(["nn.Embedding, N(0, 1)", "x 2.5"]), "ru").format_ticks([0, 1])
        ['nn.Embedding, N(0, 1)', 'x 2,5']
    """

    def __init__(self, formatter: Formatter, lang: str):
        self.formatter, self.lang = formatter, lang

    def _localise(self, label: str) -> str:
        # mathtext ($10^{-3}$) keeps its minus; its comma needs braces to stay a decimal mark
        point = decimal_mark(self.lang)
        point = "{" + point + "}" if "$" in label else point
        return _DECIMAL_POINT.sub(point, label)

    def set_axis(self, axis):
        super().set_axis(axis)
        self.formatter.set_axis(axis)

    def set_locs(self, locs):
        self.formatter.set_locs(locs)

    def __call__(self, x, pos=None):
        return self._localise(self.formatter(x, pos))

    def format_ticks(self, values):
        return [self._localise(label) for label in self.formatter.format_ticks(values)]

    def get_offset(self):
        return self._localise(self.formatter.get_offset())

    def format_data_short(self, value):
        return self._localise(self.formatter.format_data_short(value))


#: the grid every drawn point is moved to, in pixels (see :func:`on_grid`)
GRID_PX = 0.25


def _snapped(points: np.ndarray) -> np.ndarray:
    # multiply by 4, round, divide: exact IEEE operations; + 0.0 makes -0.0 0.0
    return np.round(points / GRID_PX) * GRID_PX + 0.0


@contextlib.contextmanager
def on_grid(renderer):
    """While drawing: every point of every path and marker moved to the nearest quarter of a pixel.

    A curve or a bar computed in float32 differs in its last bits from one CPU to another, and so
    would the figure's pixels: Agg decides how to join two segments, and which pixel a marker
    falls in, from the exact coordinates, so even a change of 1e-16 (torch's float64 ``pow``,
    vectorised or not) moved 17 pixels of lesson 9's figure. Here each path reaches Agg in pixels
    already on a grid of ``GRID_PX``: a point moves only when its last bits cross the grid's
    rounding edge, about 2 chances in 10 000 for a float32 point (6e-8 of a 700-pixel axis is 4e-5
    pixel), about 1e-12 for a float64 one; and the grid moves a point by an eighth of a pixel at
    most, which no reader sees. Images (heatmaps) are left as they are: their 256 colours step far
    above any last bit, and none moved.
    """
    draw_path, draw_markers = renderer.draw_path, renderer.draw_markers

    def path_on_grid(gc, path, transform, rgbFace=None):  # noqa: N803 (matplotlib's name)
        return draw_path(gc, _moved(path, transform), IdentityTransform(), rgbFace)

    def markers_on_grid(gc, marker_path, marker_trans, path, trans, rgbFace=None):  # noqa: N803
        return draw_markers(gc, marker_path, marker_trans, _moved(path, trans), IdentityTransform(), rgbFace)

    renderer.draw_path, renderer.draw_markers = path_on_grid, markers_on_grid
    try:
        yield renderer
    finally:
        renderer.draw_path, renderer.draw_markers = draw_path, draw_markers


def _moved(path: Path, transform) -> Path:
    """``path`` in pixels (``transform`` applied), each point on the grid."""
    moved = Path(_snapped(transform.transform(path.vertices)), path.codes, closed=False)
    moved.should_simplify = path.should_simplify
    moved.simplify_threshold = path.simplify_threshold
    return moved


def to_png(fig: Figure, palette: bool = False) -> bytes:
    """The figure rendered by the Agg canvas as PNG bytes.

    ``palette=True`` stores at most 256 colours instead of every shade: a third of the
    bytes for a heatmap, which matters for the widgets, whose images travel to the
    browser on every slider move and are saved in the notebook's widget state.
    """
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    buf = io.BytesIO()
    if not palette:
        canvas.print_png(buf)
        return buf.getvalue()
    canvas.draw()
    rgb = PIL.Image.fromarray(np.asarray(canvas.buffer_rgba())[..., :3])
    # fast octree without dithering: ~5 ms, deterministic, no speckle on flat colours
    rgb.quantize(256, method=PIL.Image.Quantize.FASTOCTREE, dither=PIL.Image.Dither.NONE).save(buf, "png")
    return buf.getvalue()


def new_figure(figsize=None, dpi=None, lang: str | None = None) -> NotebookFigure:
    """An empty :class:`NotebookFigure` of ``figsize`` inches at ``dpi`` (default: ``FIGSIZE``, ``DPI``).

    Its tick labels are written as ``lang`` writes numbers (default: the current language).
    """
    # constrained layout keeps long (Russian) labels and the colourbar inside the figure
    return NotebookFigure(figsize=figsize or FIGSIZE, dpi=dpi or DPI, layout="constrained", lang=lang)


def colours(n: int) -> list[str]:
    """``n`` line colours of matplotlib's default cycle, repeating after seven."""
    cycle = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink"]
    return [cycle[j % len(cycle)] for j in range(n)]


# ----------------------------------------------------------------------------- input checks


def as_array(name: str, value, ndim: int) -> np.ndarray:
    """A float numpy copy of a tensor or array ``value``, after checking its type and number of axes.

    ``name`` is how the error messages call the value. Gradients and devices are dropped;
    integers and bools become floats, float16 and bfloat16 float32.
    """
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu()
        if not value.dtype.is_floating_point:
            value = value.double()
        # numpy has no bfloat16, and float16 heatmaps gain nothing: draw in float32 at least
        array = value.to(torch.promote_types(value.dtype, torch.float32)).numpy()
    elif isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":  # bool, integers, floats: nothing else has a colour
            raise TypeError(MESSAGES("plot_not_numeric", name=name, dtype=value.dtype))
        array = value.astype(np.promote_types(value.dtype, np.float32))
    else:
        raise TypeError(MESSAGES("plot_not_array", name=name, type_name=type(value).__name__))
    if array.ndim != ndim:
        raise ValueError(MESSAGES("plot_bad_ndim", name=name, ndim=ndim, shape=tuple(array.shape)))
    if array.size == 0:
        raise ValueError(MESSAGES("plot_empty", name=name, shape=tuple(array.shape)))
    return array


def check_dims(dims, d_model: int) -> list[int]:
    """``dims``, one column number or several, as a non-empty list of columns of a ``d_model``-wide table."""
    if isinstance(dims, numbers.Integral):  # one column; a bool too, which the loop then refuses
        dims = [dims]
    dims = list(dims)
    if not dims:
        raise ValueError(MESSAGES("plot_no_dims"))
    for dim in dims:
        if not is_integer(dim) or not 0 <= dim < d_model:
            raise ValueError(MESSAGES("plot_dim_range", dim=dim, d_model=d_model, last=d_model - 1))
    return [int(d) for d in dims]


def check_positions(positions) -> np.ndarray:
    """``positions``, a non-empty iterable of integers >= 0, as an int64 array."""
    values = list(positions)
    if not values:
        raise ValueError(MESSAGES("plot_positions", value=positions))
    for p in values:
        if not is_integer(p) or p < 0:
            raise ValueError(MESSAGES("plot_positions", value=p))
    return np.array(values, dtype=np.int64)


# ----------------------------------------------------------------------------- heatmaps


def draw_heatmap(
    fig: Figure,
    data: np.ndarray,
    *,
    xlabel: str,
    ylabel: str,
    title: str,
    cmap=DIVERGING,
    vmin=-1.0,
    vmax=1.0,
    colorbar_label=None,
):
    """Draw ``data`` (rows on the y axis, row 0 on top) on a new axes of ``fig``.

    Returns ``(ax, image)``: the widgets keep ``image`` and later change it with
    ``set_data`` / ``set_extent`` instead of drawing a new figure.
    """
    ax = fig.add_subplot()
    image = ax.imshow(data, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto", interpolation="antialiased")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    bar = fig.colorbar(image, ax=ax)
    bar.locator = MaxNLocator(4)  # few tick labels: text is most of the drawing time
    if colorbar_label:
        bar.set_label(colorbar_label)
    return ax, image


# ----------------------------------------------------------------------------- speed


@contextlib.contextmanager
def one_thread():
    """Run torch on one thread, then restore the caller's setting.

    A table of a few hundred thousand numbers takes ~1 ms on one core. Split over two
    threads, it first wakes a worker that went to sleep during the ~50 ms of drawing, and
    on a busy two-core machine that wake-up alone was measured at ~50 ms (and ~16 ms for
    the softmax of a 3 × 3 matrix, which takes 1 µs on one thread).
    """
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)
