"""Interactive heatmaps for the lessons: sliders and buttons that redraw a figure of :mod:`course_lib.plots`.

Each builder returns one ipywidgets box, labelled in the language ``lang`` (None: the
language set by :func:`course_lib.set_language`); :func:`vocab_explorer` shows an HTML
table, the others a figure. The figure is drawn once by the
matching function of :mod:`course_lib.plots`; a slider move changes the existing artists
(``set_data``, ``set_extent``, the title) and sends a new PNG to the ``Image`` widget.
Nothing is printed and no ``Output`` widget is used, so a notebook with these widgets
re-runs cleanly under nbval.

The boxes keep their parts as attributes (``explorer.d_model``, ``explorer.image``,
``explorer.table`` ...), so a test -- or a curious student -- can move a slider by
setting ``.value`` and look at what was drawn:

    >>> from course_lib import sinusoidal_table
    >>> explorer = table_explorer(d_model=32, num_positions=50, lang="ru")
    >>> explorer.d_model.value = 16
    >>> bool((explorer.axes_image.get_array() == sinusoidal_table(50, 16).numpy()).all())
    True
    >>> explorer.num_positions.description
    'позиции'
"""

import contextlib
import html
import math

import ipywidgets as widgets
import numpy as np
import torch
from matplotlib.layout_engine import ConstrainedLayoutEngine

from . import plots
from .embedding import TransformerEmbedding, _positive_base, _positive_int, sinusoidal_table
from .i18n import resolve, tr
from .vocab import Vocab, tokenize

__all__ = [
    "vocab_explorer",
    "table_explorer",
    "embedding_explorer",
    "rotation_explorer",
    "position_strength_explorer",
]

# small and light: the image is redrawn on every slider move and kept in the notebook
FIGSIZE = (6.4, 3.6)  # inches, at DPI: 512 x 288 pixels
DPI = 80
_SLIDER_STYLE = {"description_width": "initial"}
_SLIDER_LAYOUT = {"width": "480px"}


def _slider(kind, **options):
    """A slider of the given ipywidgets class, styled like every other slider of the course."""
    return kind(style=_SLIDER_STYLE, layout=_SLIDER_LAYOUT, **options)


class _FigureWidget(widgets.VBox):
    """A box whose ``image`` shows ``figure``; ``redraw`` sends the figure's current state.

    Constrained layout takes more than half the drawing time, and the margins only move
    when the tick labels change width, so it runs on demand (``redraw(layout=True)``),
    not on every slider move.
    """

    def _attach(self, figure) -> None:
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
        for ax in self.figure.axes:
            # a long (Russian) title at full size is wider than the small figure
            ax.title.set_fontsize("medium")
        if layout:
            self._layout.execute(self.figure)
        self.image.value = plots.to_png(self.figure, palette=True)


@contextlib.contextmanager
def _one_thread():
    """Run torch on one thread, then restore the caller's setting.

    A table of a few hundred thousand numbers takes ~1 ms on one core. Split over two
    threads, it first wakes a worker that went to sleep during the ~50 ms of drawing, and
    on a busy two-core machine that wake-up alone was measured at ~50 ms.
    """
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def _format_length(x: float) -> str:
    # 6.3 and 35333, not 6.283185307179586 and 3.533e+04
    return f"{x:.1f}" if x < 100 else f"{x:.0f}"


class TableExplorer(_FigureWidget):
    """Sliders for ``d_model``, the number of positions and ``base`` over a heatmap of the table.

    Attributes: ``d_model``, ``num_positions`` (IntSlider), ``base`` (FloatLogSlider),
    ``readout`` (HTML), ``image`` (Image, PNG bytes), ``figure``, ``axes_image`` (the
    heatmap's AxesImage) and ``table``, the tensor drawn now.
    """

    def __init__(self, d_model: int = 128, num_positions: int = 256, base: float = 10000.0, lang=None):
        self.lang = resolve(lang)
        d_model = _positive_int("d_model", d_model)
        num_positions = _positive_int("num_positions", num_positions)
        base = _positive_base(base)
        self.d_model = _slider(
            widgets.IntSlider,
            value=d_model,
            min=1,
            max=max(512, d_model),
            description="d_model",
        )
        self.num_positions = _slider(
            widgets.IntSlider,
            value=num_positions,
            min=1,
            max=max(1024, num_positions),
            description=tr("slider_positions", self.lang),
        )
        exponent = math.log10(base)
        self.base = _slider(
            widgets.FloatLogSlider,
            value=base,
            base=10,
            min=min(1.0, math.floor(exponent)),
            max=max(6.0, math.ceil(exponent)),
            step=0.05,
            readout_format=".0f",
            description=tr("slider_base", self.lang),
        )
        self.readout = widgets.HTML()
        self.table = sinusoidal_table(num_positions, d_model, base)  # (num_positions, d_model)
        figure = plots.plot_table(self.table, lang=self.lang, figsize=FIGSIZE, dpi=DPI)
        self.axes_image = figure.axes[0].images[0]
        self._label_width = len(str(num_positions - 1))
        self._attach(figure)
        self._update_readout()
        for slider in (self.d_model, self.num_positions, self.base):
            slider.observe(self._on_change, names="value")
        super().__init__([self.d_model, self.num_positions, self.base, self.readout, self.image])

    def _on_change(self, _change=None) -> None:
        n, d, base = self.num_positions.value, self.d_model.value, self.base.value
        with _one_thread():
            self.table = sinusoidal_table(n, d, base)  # (n, d)
        self.axes_image.set_data(self.table.numpy())
        # the same pixel-centred extent imshow gives a new image, row 0 on top
        self.axes_image.set_extent((-0.5, d - 0.5, n - 0.5, -0.5))
        self.axes_image.set_clim(-1.0, 1.0)
        self.axes_image.axes.set_title(tr("table_title", self.lang, num_positions=n, d_model=d))
        self._update_readout()
        # wider position numbers on the y axis need a wider margin
        width = len(str(n - 1))
        self.redraw(layout=width != self._label_width)
        self._label_width = width

    def _update_readout(self) -> None:
        d, base = self.d_model.value, self.base.value
        last_i = (d - 1) // 2  # the last sine/cosine pair, a lone sine when d is odd
        text = tr(
            "table_readout",
            self.lang,
            d_model=d,
            num_positions=self.num_positions.value,
            base=_format_length(base),
            shortest=_format_length(plots.wavelength(0, d, base)),
            longest=_format_length(plots.wavelength(last_i, d, base)),
            last_i=last_i,
        )
        self.readout.value = html.escape(text)


def table_explorer(
    d_model: int = 128, num_positions: int = 256, base: float = 10000.0, lang: str | None = None
) -> TableExplorer:
    """An interactive heatmap of :func:`~course_lib.sinusoidal_table` (lesson 4).

    Sliders: ``d_model`` (1 to 512), number of positions (1 to 1024) and ``base`` (on a
    log scale, 10 to 10^6). Under them, a line with the wavelengths and the heatmap,
    drawn by :func:`course_lib.plots.plot_table`. The static figure to show beside it is
    ``plot_table(sinusoidal_table(num_positions, d_model, base))``.
    """
    return TableExplorer(d_model, num_positions, base, lang)


class EmbeddingExplorer(_FigureWidget):
    """A sentence picker and a toggle over the heatmap of the sentence's vectors.

    Attributes: ``sentence`` (Dropdown; its value is the sentence's index), ``show``
    (ToggleButtons: ``"tokens"`` or ``"sum"``), ``image``, ``figure``, ``axes_image``,
    ``vocab``, ``model`` (the :class:`~course_lib.TransformerEmbedding`), and the
    ``tokens`` and ``vectors`` (seq, d_model) drawn now.
    """

    def __init__(self, sentences, d_model: int = 64, seed: int = 0, lang=None):
        self.lang = resolve(lang)
        d_model = _positive_int("d_model", d_model)
        if isinstance(sentences, str) or not isinstance(sentences, (list, tuple)) or not sentences:
            raise ValueError(tr("sentences_invalid", value=sentences))
        for s in sentences:
            if not isinstance(s, str) or not s.strip():
                raise ValueError(tr("sentences_invalid", value=s))
        self.sentences = list(sentences)
        self.vocab = Vocab.build(self.sentences)
        encoded = [self.vocab.encode(s) for s in self.sentences]
        max_len = max(len(e) for e in encoded)
        # the model's weights come from the seed alone; the caller's random state is untouched
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            self.model = TransformerEmbedding(len(self.vocab), d_model, max_len=max_len, dropout=0.0).eval()
        with torch.no_grad():
            self._views = {"tokens": [], "sum": []}
            for ids in encoded:
                ids = torch.tensor([ids])  # (1, seq)
                self._views["tokens"].append(self.model.token_embedding(ids)[0].numpy())  # (seq, d_model)
                self._views["sum"].append(self.model(ids)[0].numpy())  # (seq, d_model)
        self._tokens = [[self.vocab.itos[i] for i in ids] for ids in encoded]
        # one colour scale for every sentence and both views, so they compare by eye
        self.vmax = max(float(np.abs(v).max()) for views in self._views.values() for v in views)

        self.sentence = widgets.Dropdown(
            options=[(s, j) for j, s in enumerate(self.sentences)],
            value=0,
            description=tr("sentence", self.lang),
        )
        self.show = widgets.ToggleButtons(
            options=[(tr("show_tokens", self.lang), "tokens"), (tr("show_sum", self.lang), "sum")],
            value="tokens",
            description=tr("show", self.lang),
            style=_SLIDER_STYLE,
        )
        self.tokens, self.vectors = self._tokens[0], self._views["tokens"][0]
        figure = plots.plot_embeddings(
            self.vectors,
            self.tokens,
            title=self._title(),
            lang=self.lang,
            vmax=self.vmax,
            figsize=(FIGSIZE[0], 1.2 + 0.25 * max(max_len, 4)),
            dpi=DPI,
        )
        self.axes_image = figure.axes[0].images[0]
        self._attach(figure)
        self.sentence.observe(self._on_change, names="value")
        self.show.observe(self._on_change, names="value")
        super().__init__([self.sentence, self.show, self.image])

    def _title(self) -> str:
        return tr("explorer_tokens_title" if self.show.value == "tokens" else "explorer_sum_title", self.lang)

    def _on_change(self, change) -> None:
        j = self.sentence.value
        self.tokens, self.vectors = self._tokens[j], self._views[self.show.value][j]
        seq, d = self.vectors.shape
        self.axes_image.set_data(self.vectors)
        self.axes_image.set_extent((-0.5, d - 0.5, seq - 0.5, -0.5))
        ax = self.axes_image.axes
        ax.set_yticks(range(seq), labels=self.tokens)
        ax.set_title(self._title())
        # other tokens, other label widths: only a new sentence moves the margins
        self.redraw(layout=change["owner"] is self.sentence)


def embedding_explorer(
    sentences, d_model: int = 64, seed: int = 0, lang: str | None = None
) -> EmbeddingExplorer:
    """An interactive heatmap of a sentence's vectors (lesson 2).

    The vocabulary is built from ``sentences`` with :class:`~course_lib.Vocab`, the
    vectors by a :class:`~course_lib.TransformerEmbedding` with ``dropout=0`` whose
    weights come from ``seed``. The toggle shows the scaled token embeddings alone or
    with the positional encoding added: the same word at two positions gets two rows
    that differ only by the positions. The static figure to show beside it is
    :func:`course_lib.plots.plot_embeddings`.
    """
    return EmbeddingExplorer(sentences, d_model, seed, lang)


class RotationExplorer(_FigureWidget):
    """Sliders for ``pos``, the offset ``k`` and the pair ``i`` over :func:`~course_lib.plots.plot_rotation`.

    Attributes: ``pos``, ``k``, ``i`` (IntSlider), ``readout`` (HTML: the angle and the
    check that rotating ``PE[pos]`` gives ``PE[pos + k]``), ``image``, ``figure``, and
    ``error``, the largest difference of that check.
    """

    def __init__(
        self, d_model: int = 16, base: float = 10000.0, pos: int = 3, k: int = 2, i: int = 0, lang=None
    ):
        self.lang = resolve(lang)
        self.d_model_value = _positive_int("d_model", d_model)
        self.base_value = _positive_base(base)
        figure = plots.plot_rotation(pos, k, i, d_model, base, lang=self.lang, figsize=FIGSIZE, dpi=DPI)
        self.pos = _slider(
            widgets.IntSlider,
            value=pos,
            min=0,
            max=max(100, pos),
            description=tr("slider_pos", self.lang),
        )
        self.k = _slider(
            widgets.IntSlider,
            value=k,
            min=0,
            max=max(50, k),
            description=tr("offset", self.lang),
        )
        self.i = _slider(
            widgets.IntSlider,
            value=i,
            min=0,
            max=self.d_model_value // 2 - 1,
            description=tr("slider_pair", self.lang),
        )
        self.readout = widgets.HTML()
        self._attach(figure)
        self._update_readout()
        for slider in (self.pos, self.k, self.i):
            slider.observe(self._on_change, names="value")
        super().__init__([self.pos, self.k, self.i, self.readout, self.image])

    def _on_change(self, _change=None) -> None:
        self.figure.clear()
        plots.draw_rotation(
            self.figure,
            self.pos.value,
            self.k.value,
            self.i.value,
            self.d_model_value,
            self.base_value,
            self.lang,
        )
        self._update_readout()
        self.redraw(layout=True)

    def _update_readout(self) -> None:
        pos, k, i, d = self.pos.value, self.k.value, self.i.value, self.d_model_value
        table = sinusoidal_table(pos + k + 1, d, self.base_value, dtype=torch.float64)  # (pos + k + 1, d)
        omega = self.base_value ** (-2 * i / d)
        angle = k * omega
        c, s = math.cos(angle), math.sin(angle)
        rotation = torch.tensor([[c, s], [-s, c]], dtype=torch.float64)
        pair_at = table[pos, 2 * i : 2 * i + 2]  # (sin, cos) at pos
        pair_later = table[pos + k, 2 * i : 2 * i + 2]  # (sin, cos) at pos + k
        self.error = (rotation @ pair_at - pair_later).abs().max().item()
        self.readout.value = html.escape(
            tr(
                "rotation_readout",
                self.lang,
                omega=omega,
                angle=angle,
                pos=pos,
                pos_k=pos + k,
                err=self.error,
            )
        )


def rotation_explorer(
    d_model: int = 16, base: float = 10000.0, pos: int = 3, k: int = 2, i: int = 0, lang: str | None = None
) -> RotationExplorer:
    """The pair of columns ``(2i, 2i + 1)`` turning on the unit circle as the offset ``k`` grows (lesson 4).

    Whatever ``pos`` is, moving ``k`` positions turns the pair by the same angle
    ``k · base^(-2i/d_model)``: the readout checks it on the table itself. The static
    figure to show beside it is :func:`course_lib.plots.plot_rotation`.
    """
    return RotationExplorer(d_model, base, pos, k, i, lang)


class VocabExplorer(widgets.VBox):
    """A text box over a table of its tokens, their IDs and what the IDs decode back to.

    Attributes: ``text`` (Text), ``table`` (HTML), ``vocab``, and ``tokens`` and ``ids``,
    those of the text shown now.
    """

    def __init__(self, vocab: Vocab, text: str = "The cat sat on the mat.", lang=None):
        self.lang = resolve(lang)
        if not isinstance(vocab, Vocab):
            raise TypeError(tr("vocab_not_vocab", type_name=type(vocab).__name__))
        tokenize(text)  # a text that is not a string fails here, in the student's language
        self.vocab = vocab
        self.text = widgets.Text(
            value=text,
            description=tr("vocab_text", self.lang),
            continuous_update=True,
        )
        self.table = widgets.HTML()
        self._on_change()
        self.text.observe(self._on_change, names="value")
        super().__init__([self.text, self.table])

    def _on_change(self, _change=None) -> None:
        self.tokens = tokenize(self.text.value)
        self.ids = [self.vocab.stoi.get(token, self.vocab.unk_id) for token in self.tokens]
        cell = 'style="padding: 1px 12px; text-align: left"'
        head = "".join(
            f"<th {cell}>{html.escape(tr(key, self.lang))}</th>"
            for key in ("token", "vocab_id", "vocab_decoded")
        )
        rows = []
        for token, i in zip(self.tokens, self.ids, strict=True):
            unknown = i == self.vocab.unk_id
            # the word the model will never see, marked where it is lost
            style = ' style="background: #fde0dc"' if unknown else ""
            back = html.escape(self.vocab.itos[i])
            back = f"<b>{back}</b>" if unknown else back
            rows.append(
                f"<tr{style}><td {cell}><code>{html.escape(token)}</code></td>"
                f"<td {cell}>{i}</td><td {cell}>{back}</td></tr>"
            )
        summary = tr(
            "vocab_summary",
            self.lang,
            n=len(self.tokens),
            unknown=self.ids.count(self.vocab.unk_id),
            size=len(self.vocab),
        )
        self.table.value = (
            f"<p>{html.escape(summary)}</p>"
            f'<table style="border-collapse: collapse"><tr>{head}</tr>{"".join(rows)}</table>'
        )


def vocab_explorer(
    vocab: Vocab, text: str = "The cat sat on the mat.", lang: str | None = None
) -> VocabExplorer:
    """Type a sentence, see its tokens and token IDs as you type (lesson 1).

    Each row is a token of :func:`~course_lib.tokenize`, its ID in ``vocab`` and the token
    the ID decodes back to. A word the vocabulary does not know gets ``vocab.unk_id`` and
    comes back as ``<unk>``; its row is highlighted.

        >>> explorer = vocab_explorer(Vocab.build(["the cat sat"]), text="the dog sat", lang="ru")
        >>> explorer.ids, explorer.text.description
        ([6, 1, 5], 'текст')
    """
    return VocabExplorer(vocab, text, lang)


class PositionStrengthExplorer(_FigureWidget):
    """A slider for how much positional encoding is added, over two sentences' attention weights.

    Attributes: ``scale`` (FloatSlider), ``readout`` (HTML), ``image``, ``figure``,
    ``tokens`` (the two token lists), ``perm`` (tensor: ``tokens[1][i] == tokens[0][perm[i]]``),
    and for the scale shown now ``weights`` (the two ``(seq, seq)`` matrices) and ``gap``,
    the largest difference between the outputs of the second sentence and the reordered
    outputs of the first.
    """

    def __init__(self, attention, embed, first: str, second: str, scale: float = 0.0, lang=None):
        self.lang = resolve(lang)
        self.texts = (first, second)
        self.tokens = [tokenize(first), tokenize(second)]
        a, b = self.tokens
        if len(set(a)) != len(a) or sorted(a) != sorted(b):
            raise ValueError(tr("strength_not_permutation", first=first, second=second))
        self.perm = torch.tensor([a.index(token) for token in b])  # (seq,)
        self._attention = attention
        with torch.no_grad():
            self._inputs = [torch.as_tensor(embed(text)) for text in self.texts]  # (seq, d_model) each
        seq, d_model = self._inputs[0].shape
        self._table = sinusoidal_table(seq, d_model, dtype=self._inputs[0].dtype)  # (seq, d_model)
        self.scale = _slider(
            widgets.FloatSlider,
            value=scale,
            min=0.0,
            max=1.0,
            step=0.05,
            description=tr("slider_pe_scale", self.lang),
        )
        self.readout = widgets.HTML()
        self._compute()
        figure = plots._new_figure((FIGSIZE[0], 3.4), DPI)
        self._draw(figure)
        self._attach(figure)
        self.scale.observe(self._on_change, names="value")
        super().__init__([self.scale, self.readout, self.image])

    def _compute(self) -> None:
        s = self.scale.value
        with torch.no_grad():
            outs = [self._attention(x + s * self._table) for x in self._inputs]
        (out_a, w_a), (out_b, w_b) = outs
        self.weights = [w_a, w_b]
        self.gap = (out_b - out_a[self.perm]).abs().max().item()
        verdict = tr("strength_same" if self.gap < 1e-5 else "strength_differ", self.lang)
        first, second = self.texts
        text = tr("strength_readout", self.lang, scale=s, first=first, second=second, gap=self.gap)
        self.readout.value = f"{html.escape(text)}<br>{html.escape(verdict)}"

    def _draw(self, figure) -> None:
        plots.draw_attention(figure, [w.numpy() for w in self.weights], self.tokens, None, self.lang, ncols=2)
        figure.suptitle(tr("strength_title", self.lang, scale=self.scale.value))

    def _on_change(self, _change=None) -> None:
        self._compute()
        self.figure.clear()
        self._draw(self.figure)
        self.redraw(layout=True)


def position_strength_explorer(
    attention, embed, first: str, second: str, scale: float = 0.0, lang: str | None = None
) -> PositionStrengthExplorer:
    """How much positional encoding it takes for attention to tell two word orders apart (lesson 3).

    ``embed(text)`` gives the token vectors ``(seq, d_model)`` of a text, without positions;
    ``attention(x)`` returns ``(outputs, weights)`` for such an input. The slider sets ``s``
    in ``embed(text) + s · PE``, with ``PE`` the :func:`~course_lib.sinusoidal_table`. At
    ``s = 0`` the outputs of ``second`` (the tokens of ``first`` in another order) are
    those of ``first`` reordered; as ``s`` grows they move apart. The static figure to
    show beside it is :func:`course_lib.plots.plot_attention` at ``s = 0`` and ``s = 1``.
    """
    return PositionStrengthExplorer(attention, embed, first, second, scale, lang)
