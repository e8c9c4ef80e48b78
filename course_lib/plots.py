"""The course's figures: each function returns a matplotlib Figure, labelled in the student's language.

Figures are made with ``matplotlib.figure.Figure`` and drawn by the Agg canvas, never by
``pyplot``: no global figure list, so a figure shows once (as the cell's value) and is
never shown a second time by the inline backend, and nothing leaks between cells.
A figure returned as the last value of a notebook cell shows as a PNG image.

Every title, axis label and legend comes from :mod:`course_lib.i18n` in the language
``lang`` (None: the language set by :func:`course_lib.set_language`); error messages,
like all of course_lib's, follow :func:`course_lib.set_language`. Random numbers come
from a fixed ``seed`` under :func:`torch.random.fork_rng`, so a figure is the same on
every run and the caller's random state is left alone.

    >>> from course_lib import sinusoidal_table
    >>> fig = plot_table(sinusoidal_table(64, 32), lang="ru")
    >>> fig.axes[0].get_xlabel(), fig.axes[0].get_ylabel()
    ('измерение', 'позиция')
"""

import io
import math
import numbers

import numpy as np
import PIL.Image
import torch
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from torch import nn

from .embedding import TokenEmbedding, _positive_base, _positive_int, _table_rows, sinusoidal_table
from .i18n import resolve, tr

__all__ = [
    "plot_table",
    "plot_waves",
    "plot_similarity",
    "plot_embeddings",
    "plot_magnitudes",
    "plot_precision",
    "plot_rotation",
    "plot_attention",
    "wavelength",
    "magnitudes",
    "precision_errors",
    "NotebookFigure",
    "to_png",
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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        FigureCanvasAgg(self)

    def _repr_png_(self) -> bytes:
        return to_png(self)


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


def _new_figure(figsize, dpi) -> NotebookFigure:
    # constrained layout keeps long (Russian) labels and the colourbar inside the figure
    return NotebookFigure(figsize=figsize or FIGSIZE, dpi=dpi or DPI, layout="constrained")


# ----------------------------------------------------------------------------- input checks


def _as_array(name: str, value, ndim: int) -> np.ndarray:
    """A float numpy copy of a tensor or array, after checking its type and number of axes."""
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu()
        if not value.dtype.is_floating_point:
            value = value.double()
        # numpy has no bfloat16, and float16 heatmaps gain nothing: draw in float32 at least
        array = value.to(torch.promote_types(value.dtype, torch.float32)).numpy()
    elif isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":  # bool, integers, floats: nothing else has a colour
            raise TypeError(tr("plot_not_numeric", name=name, dtype=value.dtype))
        array = value.astype(np.promote_types(value.dtype, np.float32))
    else:
        raise TypeError(tr("plot_not_array", name=name, type_name=type(value).__name__))
    if array.ndim != ndim:
        raise ValueError(tr("plot_bad_ndim", name=name, ndim=ndim, shape=tuple(array.shape)))
    if array.size == 0:
        raise ValueError(tr("plot_empty", name=name, shape=tuple(array.shape)))
    return array


def _check_dims(dims, d_model: int) -> list[int]:
    if isinstance(dims, numbers.Integral):
        dims = [dims]
    dims = list(dims)
    if not dims:
        raise ValueError(tr("plot_no_dims"))
    for dim in dims:
        if isinstance(dim, bool) or not isinstance(dim, numbers.Integral) or not 0 <= dim < d_model:
            raise ValueError(tr("plot_dim_range", dim=dim, d_model=d_model, last=d_model - 1))
    return [int(d) for d in dims]


def _check_positions(positions) -> np.ndarray:
    values = list(positions)
    if not values:
        raise ValueError(tr("plot_positions", value=positions))
    for p in values:
        if isinstance(p, bool) or not isinstance(p, numbers.Integral) or p < 0:
            raise ValueError(tr("plot_positions", value=p))
    return np.array(values, dtype=np.int64)


def wavelength(i: int, d_model: int, base: float = 10000.0) -> float:
    """Wavelength, in positions, of the sine/cosine pair ``i``: ``2π · base^(2i / d_model)``.

    >>> round(wavelength(0, 512), 4), round(wavelength(255, 512))
    (6.2832, 60611)
    """
    return 2 * math.pi * base ** (2 * i / d_model)


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


def plot_table(table, title: str | None = None, lang: str | None = None, *, figsize=None, dpi=None) -> Figure:
    """Heatmap of a positional-encoding table: positions down the y axis, dimensions along x.

    The colour scale is fixed to [-1, 1], the range of every sine and cosine, so two
    tables drawn side by side (or one table after a slider move) compare by eye.

    Args:
        table: ``(num_positions, d_model)`` tensor or array, e.g. :func:`~course_lib.sinusoidal_table`.
        title: the figure title; by default one naming the table's size.
        lang: ``"en"`` or ``"ru"``; None for the current language.
        figsize, dpi: the figure's size in inches and its resolution.

    Example::

        >>> from course_lib import sinusoidal_table
        >>> table = sinusoidal_table(100, 64)
        >>> fig = plot_table(table)
        >>> bool((fig.axes[0].images[0].get_array() == table.numpy()).all())
        True
    """
    lang = resolve(lang)
    data = _as_array("table", table, ndim=2)
    num_positions, d_model = data.shape
    fig = _new_figure(figsize, dpi)
    draw_heatmap(
        fig,
        data,
        xlabel=tr("dimension", lang),
        ylabel=tr("positions", lang),
        title=title
        if title is not None
        else tr("table_title", lang, num_positions=num_positions, d_model=d_model),
        colorbar_label=tr("value", lang),
    )
    return fig


def plot_similarity(table, lang: str | None = None, *, figsize=None, dpi=None) -> Figure:
    """Dot products between the rows of a table, ``table @ table.T``, and the same along offsets.

    Left: the ``(num_positions, num_positions)`` matrix of ``PE[p] · PE[q]``; it is constant
    along every diagonal. Right: ``PE[p] · PE[p + k]`` against the offset ``k`` for a few
    starting positions ``p``; the curves lie on top of each other, because for each
    sine/cosine pair ``sin a sin b + cos a cos b = cos(a - b)`` depends only on ``p - q``.
    """
    lang = resolve(lang)
    data = _as_array("table", table, ndim=2).astype(np.float64)
    sim = data @ data.T  # (n, n)
    n = sim.shape[0]
    fig = _new_figure(figsize or (10.0, 4.3), dpi)
    left, right = fig.subplots(1, 2, width_ratios=(1.15, 1))
    image = left.imshow(sim, cmap="viridis", aspect="equal", interpolation="antialiased")
    left.set_xlabel(tr("positions", lang) + " q")
    left.set_ylabel(tr("positions", lang) + " p")
    left.set_title("PE[p] · PE[q]")
    fig.colorbar(image, ax=left).set_label(tr("dot_product", lang))
    # starting points spread over the first half, so each curve has room for offsets
    starts = sorted({0, n // 8, n // 4, n // 2 - 1} - {-1})
    span = n - max(starts)
    # the curves coincide: the first is drawn thickest so that every one stays visible
    widths = np.linspace(6.0, 1.2, len(starts))
    for p, width, colour in zip(starts, widths, _colours(len(starts)), strict=True):
        right.plot(np.arange(span), sim[p, p : p + span], label=f"p = {p}", linewidth=width, color=colour)
    right.set_xlabel(tr("offset", lang))
    right.set_ylabel(tr("dot_product", lang))
    right.set_title("PE[p] · PE[p + k]")
    right.legend(loc="upper right")
    fig.suptitle(tr("similarity_title", lang))
    return fig


def plot_embeddings(
    vectors, tokens, title: str | None = None, lang: str | None = None, *, vmax=None, figsize=None, dpi=None
) -> Figure:
    """Heatmap of one sentence's vectors: one row per token, labelled with the token.

    Args:
        vectors: ``(seq, d_model)`` tensor or array, e.g. ``TransformerEmbedding(ids)[0]``.
        tokens: ``seq`` strings, one label per row.
        title: the figure title; by default one naming the size.
        lang: ``"en"`` or ``"ru"``; None for the current language.
        vmax: the colour scale runs over ``[-vmax, vmax]``; by default the largest
            absolute value. Give the same ``vmax`` to figures that should compare by eye.
    """
    lang = resolve(lang)
    data = _as_array("vectors", vectors, ndim=2)
    tokens = [str(t) for t in tokens]
    if len(tokens) != data.shape[0]:
        raise ValueError(tr("plot_tokens_count", n_tokens=len(tokens), n_rows=data.shape[0]))
    vmax = float(np.abs(data).max()) if vmax is None else float(vmax)
    vmax = vmax if vmax > 0 else 1.0  # an all-zero sentence (padding) still needs a scale
    fig = _new_figure(figsize or (7.0, 0.9 + 0.3 * max(len(tokens), 4)), dpi)
    ax, _ = draw_heatmap(
        fig,
        data,
        xlabel=tr("dimension", lang),
        ylabel=tr("token", lang),
        title=title
        if title is not None
        else tr("embeddings_title", lang, seq=data.shape[0], d_model=data.shape[1]),
        vmin=-vmax,
        vmax=vmax,
        colorbar_label=tr("value", lang),
    )
    ax.set_yticks(range(len(tokens)), labels=tokens)
    return fig


# ----------------------------------------------------------------------------- curves and bars


def plot_waves(
    dims=(0, 1, 4, 5, 10),
    num_positions: int = 100,
    d_model: int = 64,
    base: float = 10000.0,
    lang: str | None = None,
    *,
    figsize=None,
    dpi=None,
) -> Figure:
    """Chosen columns of the sinusoidal table as curves over the position.

    Column ``2i`` is ``sin(pos / base^(2i/d_model))`` and column ``2i + 1`` its cosine, a
    wave of wavelength ``2π · base^(2i/d_model)`` positions; the legend gives, for each
    column, sin or cos, ``i`` and the wavelength.

        >>> fig = plot_waves(dims=(0, 5), lang="en")
        >>> [ax.get_legend().get_texts()[0].get_text() for ax in fig.axes]
        ['dimension 0: sin, i = 0, λ = 6.3', 'dimension 5: cos, i = 2, λ = 11.2']
    """
    lang = resolve(lang)
    num_positions = _positive_int("num_positions", num_positions)
    d_model = _positive_int("d_model", d_model)
    base = _positive_base(base)
    dims = _check_dims(dims, d_model)
    table = sinusoidal_table(num_positions, d_model, base, dtype=torch.float64).numpy()
    fig = _new_figure(figsize or (8.0, 1.0 + 0.8 * len(dims)), dpi)
    # one row per column: five waves on one axes, several of them short, are a tangle
    axes = fig.subplots(len(dims), 1, sharex=True, squeeze=False)[:, 0]
    pos = np.arange(num_positions)
    for ax, dim, colour in zip(axes, dims, _colours(len(dims)), strict=True):
        i = dim // 2
        label = tr(
            "wave_label",
            lang,
            dim=dim,
            func="sin" if dim % 2 == 0 else "cos",
            i=i,
            wavelength=wavelength(i, d_model, base),
        )
        # the table exists at whole positions only: dots on them, a thin line to guide the eye
        ax.plot(pos, table[:, dim], ".-", color=colour, label=label, linewidth=0.8, markersize=3)
        ax.set_ylim(-1.2, 1.2)
        ax.set_yticks([-1, 0, 1])
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small", frameon=False)
    axes[-1].set_xlabel(tr("positions", lang))
    fig.supylabel(tr("value", lang))
    formula = r"$\lambda = 2\pi \cdot \mathrm{base}^{2i/d_{model}}$"
    fig.suptitle(tr("waves_title", lang, d_model=d_model, formula=formula))
    return fig


def _colours(n: int) -> list:
    cycle = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink"]
    return [cycle[j % len(cycle)] for j in range(n)]


def magnitudes(d_model: int = 512, vocab_size: int = 32000, num_positions: int = 128, seed: int = 0) -> dict:
    """The numbers behind :func:`plot_magnitudes`: RMS of scaled token vectors and of the table.

    Returns ``{"default": ..., "course_lib": ..., "positions": ...}``.

        >>> m = magnitudes(d_model=64, vocab_size=1000, num_positions=32)
        >>> round(m["default"] / m["positions"]), round(m["course_lib"], 1), round(m["positions"], 4)
        (11, 1.0, 0.7071)
    """
    d_model = _positive_int("d_model", d_model)
    vocab_size = _positive_int("vocab_size", vocab_size)
    num_positions = _positive_int("num_positions", num_positions)
    scale = math.sqrt(d_model)
    # fork_rng: the same numbers every time, and the caller's random state stays as it was
    with torch.random.fork_rng(devices=[]), torch.no_grad():
        torch.manual_seed(seed)
        default = nn.Embedding(vocab_size, d_model).weight  # N(0, 1)
        torch.manual_seed(seed)
        ours = TokenEmbedding(vocab_size, d_model).embedding.weight  # N(0, 1/d_model)
        return {
            "default": (default * scale).pow(2).mean().sqrt().item(),
            "course_lib": (ours * scale).pow(2).mean().sqrt().item(),
            "positions": sinusoidal_table(num_positions, d_model).pow(2).mean().sqrt().item(),
        }


def plot_magnitudes(
    d_model: int = 512,
    vocab_size: int = 32000,
    num_positions: int = 128,
    seed: int = 0,
    lang: str | None = None,
    *,
    figsize=None,
    dpi=None,
) -> Figure:
    """How large a scaled token vector is next to the positional encoding it is added to.

    Three bars, the RMS of their entries: token vectors × √d_model with ``nn.Embedding``'s
    default N(0, 1) initialisation (about √d_model, ~23 at 512: they drown the positions
    ~30 times over), the same with :class:`~course_lib.TokenEmbedding`'s N(0, 1/d_model)
    (about 1), and the sinusoidal table (1/√2 ≈ 0.71).
    """
    lang = resolve(lang)
    m = magnitudes(d_model, vocab_size, num_positions, seed)
    fig = _new_figure(figsize or (8.0, 4.0), dpi)
    ax = fig.add_subplot()
    keys = ("default", "course_lib", "positions")
    widths = [m[key] for key in keys]
    # horizontal bars: the long two-line labels sit on the y axis instead of colliding under the bars
    bars = ax.barh(range(3), widths, color=["tab:red", "tab:blue", "tab:green"])
    ax.set_yticks(range(3), labels=[tr(f"magnitude_{key}", lang) for key in keys])
    ax.invert_yaxis()
    notes = [f"{w:.2f} = {w / m['positions']:.1f} × PE" for w in widths[:2]] + [f"{widths[2]:.2f}"]
    ax.bar_label(bars, labels=notes, padding=4)
    ax.axvline(m["positions"], color="tab:green", linestyle="--", linewidth=1)
    ax.set_xlim(0, max(widths) * 1.45)
    ax.set_xlabel(tr("rms", lang))
    fig.suptitle(tr("magnitudes_title", lang, d_model=d_model, vocab_size=vocab_size))
    return fig


def _float32_rows(positions: np.ndarray, d_model: int, base: float) -> torch.Tensor:
    # the code of many tutorials: every step in float32
    pos = torch.from_numpy(positions).to(torch.float32).unsqueeze(1)  # (n, 1)
    div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * -(math.log(base) / d_model))
    angle = pos * div_term  # (n, ceil(d/2))
    rows = torch.empty(len(positions), d_model, dtype=torch.float32)  # (n, d)
    rows[:, 0::2] = torch.sin(angle)
    rows[:, 1::2] = torch.cos(angle[:, : d_model // 2])
    return rows


def precision_errors(positions, d_model: int = 512, base: float = 10000.0) -> dict:
    """Max absolute error per row against the float64 table: float32 arithmetic vs course_lib.

    ``"course_lib"`` is the error of :func:`~course_lib.sinusoidal_table` (float64, cast to
    float32); ``"float32"`` that of the same formula computed in float32 throughout.

        >>> e = precision_errors([10, 100_000], d_model=512)
        >>> bool(e["float32"][1] > 1e-3), bool(e["course_lib"][1] < 1e-7)  # at position 100 000
        (True, True)
    """
    positions = _check_positions(positions)
    d_model = _positive_int("d_model", d_model)
    base = _positive_base(base)
    exact = _table_rows(torch.from_numpy(positions).to(torch.float64), d_model, base)  # (n, d)
    return {
        "positions": positions,
        "float32": (_float32_rows(positions, d_model, base).double() - exact).abs().amax(dim=1).numpy(),
        "course_lib": (exact.to(torch.float32).double() - exact).abs().amax(dim=1).numpy(),
    }


DEFAULT_PRECISION_POSITIONS = tuple(int(p) for p in np.unique(np.geomspace(1, 100_000, 61).round()))


def plot_precision(
    positions=DEFAULT_PRECISION_POSITIONS,
    d_model: int = 512,
    lang: str | None = None,
    *,
    base: float = 10000.0,
    figsize=None,
    dpi=None,
) -> Figure:
    """Max absolute error of a float32-computed table against float64, over the position.

    Computed in float32, the angle ``pos · base^(-2i/d)`` is itself rounded: the error grows
    with the position, to ~1e-2 near position 100 000. :func:`~course_lib.sinusoidal_table`
    computes in float64 and casts at the end, so its error stays at float32's rounding of a
    number in [-1, 1], ~1e-7, at every position. Both axes are logarithmic when every
    position is positive.
    """
    lang = resolve(lang)
    e = precision_errors(positions, d_model, base)
    fig = _new_figure(figsize, dpi)
    ax = fig.add_subplot()
    ax.plot(e["positions"], e["float32"], marker=".", color="tab:red", label=tr("precision_float32", lang))
    ax.plot(
        e["positions"], e["course_lib"], marker=".", color="tab:blue", label=tr("precision_course_lib", lang)
    )
    ax.set_yscale("log")
    if e["positions"].min() > 0:
        ax.set_xscale("log")
    ax.set_xlabel(tr("positions", lang))
    ax.set_ylabel(tr("max_error", lang))
    ax.set_title(tr("precision_title", lang, d_model=d_model))
    # room above the float32 curve (at most ~1e-2) for the legend
    ax.set_ylim(top=1.0)
    ax.legend(loc="upper left")
    ax.grid(True, which="major", alpha=0.3)
    return fig


def draw_rotation(fig: Figure, pos: int, k: int, i: int, d_model: int, base: float, lang: str) -> None:
    """The body of :func:`plot_rotation`, drawn into ``fig`` (the widget redraws into one figure)."""
    omega = base ** (-2 * i / d_model)  # angle per position of the pair (2i, 2i + 1)
    ax = fig.add_subplot()
    t = np.linspace(0, 2 * np.pi, 200)
    ax.plot(np.sin(t), np.cos(t), color="0.85", linewidth=1)
    # every position on the circle: a fixed step of ω
    shown = np.arange(0, pos + k + 1)
    ax.plot(np.sin(shown * omega), np.cos(shown * omega), ".", color="0.6", markersize=4)
    for p, colour, key in (
        (pos, "tab:blue", "rotation_at_pos"),
        (pos + k, "tab:orange", "rotation_at_pos_k"),
    ):
        x, y = math.sin(p * omega), math.cos(p * omega)
        ax.annotate(
            "", xy=(x, y), xytext=(0, 0), arrowprops={"arrowstyle": "->", "color": colour, "linewidth": 2}
        )
        ax.plot([x], [y], "o", color=colour, label=tr(key, lang, pos=p, k=k, i=i))
    ax.set_aspect("equal")
    ax.set_xlim(-1.3, 1.3)
    ax.set_ylim(-1.3, 1.3)
    ax.set_xlabel(f"PE[pos, {2 * i}] = sin")
    ax.set_ylabel(f"PE[pos, {2 * i + 1}] = cos")
    angle = k * omega
    ax.set_title(tr("rotation_title", lang, i=i, k=k, angle=angle))
    c, s = math.cos(angle), math.sin(angle)
    # the matrix that takes (sin a, cos a) to (sin(a + φ), cos(a + φ)) for every a
    matrix = f"φ = k·ω = {angle:.3f}\n[{c: .3f} {s: .3f}]\n[{-s: .3f} {c: .3f}]"
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small")
    ax.text(1.05, 0.6, tr("rotation_matrix", lang), transform=ax.transAxes, va="top", fontsize="small")
    ax.text(1.05, 0.4, matrix, transform=ax.transAxes, va="top", family="monospace", fontsize="small")


def plot_rotation(
    pos: int = 3,
    k: int = 2,
    i: int = 0,
    d_model: int = 16,
    base: float = 10000.0,
    lang: str | None = None,
    *,
    figsize=None,
    dpi=None,
) -> Figure:
    """The pair of columns ``(2i, 2i + 1)`` as a point on the unit circle, at ``pos`` and ``pos + k``.

    Moving ``k`` positions turns the point by the angle ``k · ω_i`` with
    ``ω_i = base^(-2i/d_model)``, whatever ``pos`` is: ``PE[pos + k]`` is a fixed rotation
    of ``PE[pos]``, the reason the paper gives for choosing sinusoids.
    """
    lang = resolve(lang)
    pos = _non_negative_int("pos", pos)
    k = _non_negative_int("k", k)
    d_model = _positive_int("d_model", d_model)
    base = _positive_base(base)
    pairs = d_model // 2  # odd d_model: the last sine has no cosine partner
    if isinstance(i, bool) or not isinstance(i, numbers.Integral) or not 0 <= i < pairs:
        raise ValueError(tr("plot_pair_range", i=i, d_model=d_model, pairs=pairs, last=pairs - 1))
    fig = _new_figure(figsize or (7.0, 4.0), dpi)
    draw_rotation(fig, pos, k, int(i), d_model, base, lang)
    return fig


# ----------------------------------------------------------------------------- attention


def _check_attention(weights, tokens, titles) -> tuple[list[np.ndarray], list[list[str]], list[str] | None]:
    if not isinstance(weights, (list, tuple)) or not weights:
        shown = type(weights).__name__ if isinstance(weights, (torch.Tensor, np.ndarray)) else repr(weights)
        raise TypeError(tr("plot_attention_list", value=shown))
    arrays = []
    for j, w in enumerate(weights):
        array = _as_array(f"weights[{j}]", w, ndim=2)
        if array.shape[0] != array.shape[1]:
            raise ValueError(tr("plot_attention_square", j=j, shape=tuple(array.shape)))
        arrays.append(array)
    for name, items in (("tokens", tokens), ("titles", titles)):
        if items is not None and (isinstance(items, str) or len(items) != len(arrays)):
            got = 1 if isinstance(items, str) else len(items)
            raise ValueError(tr("plot_attention_count", name=name, got=got, n=len(arrays)))
    tokens = [[str(t) for t in row] for row in tokens]
    for j, (array, row) in enumerate(zip(arrays, tokens, strict=True)):
        if len(row) != array.shape[0]:
            raise ValueError(tr("plot_attention_tokens", j=j, n_tokens=len(row), seq=array.shape[0]))
    return arrays, tokens, None if titles is None else [str(t) for t in titles]


def draw_attention(fig: Figure, weights, tokens, titles, lang: str, ncols: int) -> list:
    """The body of :func:`plot_attention`, drawn into ``fig``; returns the heatmaps' AxesImages."""
    n = len(weights)
    ncols = min(ncols, n)
    nrows = math.ceil(n / ncols)
    axes = fig.subplots(nrows, ncols, squeeze=False)
    images = []
    for j, ax in enumerate(axes.flat):
        if j >= n:
            ax.set_axis_off()
            continue
        w, labels = weights[j], tokens[j]
        seq = w.shape[0]
        # weights are in [0, 1]: one fixed scale, so every heatmap of the grid compares by eye
        images.append(ax.imshow(w, cmap="Blues", vmin=0.0, vmax=1.0, interpolation="nearest"))
        ax.set_xticks(range(seq), labels=labels)
        ax.set_yticks(range(seq), labels=labels)
        ax.set_title(titles[j] if titles is not None else " ".join(labels), fontsize="medium")
        if j % ncols == 0:
            ax.set_ylabel(tr("attention_query", lang))
        if j + ncols >= n:
            ax.set_xlabel(tr("attention_key", lang))
        if seq <= 8:  # the numbers themselves, while they still fit in the cells
            for row in range(seq):
                for col in range(seq):
                    colour = "white" if w[row, col] > 0.6 else "black"
                    ax.text(
                        col, row, f"{w[row, col]:.2f}", ha="center", va="center", fontsize=9, color=colour
                    )
    fig.colorbar(images[0], ax=axes, label=tr("attention_weight", lang))
    fig.suptitle(tr("attention_title", lang), fontsize="medium")
    return images


def plot_attention(
    weights, tokens, titles=None, lang: str | None = None, *, ncols: int = 2, figsize=None, dpi=None
) -> Figure:
    """Heatmaps of attention weights, one per sentence, with the tokens on both axes.

    Row ``i`` of a matrix holds the weights with which token ``i`` (the query) looks at
    every token ``j`` (the keys); each row sums to 1. The colour scale is [0, 1] for every
    heatmap, and with at most 8 tokens each cell also shows its number.

    Args:
        weights: a list of ``(seq, seq)`` tensors or arrays, e.g. ``softmax(q @ k.T / √d)``.
        tokens: a list with one list of ``seq`` tokens per matrix.
        titles: one title per matrix; by default the tokens joined by spaces.
        lang: ``"en"`` or ``"ru"``; None for the current language.
        ncols: heatmaps per row of the grid.

        >>> w = torch.tensor([[0.9, 0.1], [0.3, 0.7]])
        >>> fig = plot_attention([w, w.flip(0, 1)], [["dog", "bites"], ["bites", "dog"]], lang="ru")
        >>> [ax.get_title() for ax in fig.axes[:2]], fig.axes[0].get_ylabel()
        (['dog bites', 'bites dog'], 'запрос')
    """
    lang = resolve(lang)
    weights, tokens, titles = _check_attention(weights, tokens, titles)
    ncols = _positive_int("ncols", ncols)
    n = len(weights)
    nrows = math.ceil(n / min(ncols, n))
    fig = _new_figure(figsize or (3.0 * min(ncols, n) + 1.5, 2.7 * nrows + 0.6), dpi)
    draw_attention(fig, weights, tokens, titles, lang, ncols)
    return fig


def _non_negative_int(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(tr("plot_non_negative", name=name, value=value))
    return int(value)
