"""Which row of the positional table each token gets (lesson 6): a text alone, and left-padded.

Left padding puts ``padding`` tokens ``<pad>`` before a text. With the default positions
``0 .. seq-1`` the text's tokens then get rows ``padding, padding + 1, ...``: the same text
gets other vectors because of its neighbours' lengths. Positions from the mask,
``(mask.cumsum(-1) - 1).clamp(min=0)``, give them rows ``0, 1, ...`` again.

    >>> left_padded_positions(3, 2, "default").tolist(), left_padded_positions(3, 2, "mask").tolist()
    ([0, 1, 2, 3, 4], [0, 0, 0, 1, 2])
"""

import torch
from matplotlib.figure import Figure

from .. import validate
from ..embedding import sinusoidal_table
from ..i18n import resolve
from .figure import draw_heatmap, new_figure
from .messages import POSITIONS as MESSAGES

__all__ = [
    "MESSAGES",
    "POSITION_MODES",
    "PAD",
    "left_padded_positions",
    "check_tokens",
    "draw_left_padding",
    "plot_left_padding",
]

#: how a left-padded text is numbered: the default positions 0 .. seq-1, or positions from the mask
POSITION_MODES = ("default", "mask")
PAD = "<pad>"


def left_padded_positions(length: int, padding: int, mode: str) -> torch.Tensor:
    """The positions of ``padding`` pads followed by ``length`` tokens: ``(padding + length,)`` int64."""
    length = validate.positive_int("length", length)
    padding = validate.non_negative_int("padding", padding)
    mode = validate.choice("mode", mode, POSITION_MODES)
    mask = torch.arange(padding + length) >= padding  # (seq,): True on the text
    if mode == "default":
        return torch.arange(padding + length)
    return (mask.cumsum(dim=0) - 1).clamp(min=0)


def check_tokens(tokens) -> list[str]:
    """``tokens`` as a list, or a ValueError if it is not a non-empty list of strings."""
    if isinstance(tokens, str) or not isinstance(tokens, list | tuple) or not tokens:
        raise ValueError(MESSAGES("tokens_invalid", value=tokens))
    if not all(isinstance(t, str) for t in tokens):
        raise ValueError(MESSAGES("tokens_invalid", value=tokens))
    return list(tokens)


def draw_left_padding(fig: Figure, tokens, padding: int, mode: str | None, d_model: int, lang: str):
    """One heatmap on ``fig``: the rows ``tokens`` receive, alone (``mode=None``) or left-padded.

    Returns ``(ax, image, same)``: ``same`` says whether the text's tokens get the rows they get alone.
    """
    tokens = check_tokens(tokens)
    d_model = validate.positive_int("d_model", d_model)
    if mode is None:
        positions, labels, title = torch.arange(len(tokens)), tokens, MESSAGES("alone", lang)
    else:
        positions = left_padded_positions(len(tokens), padding, mode)
        labels = [PAD] * padding + tokens
        title = MESSAGES(mode, lang, padding=padding)
    table = sinusoidal_table(int(positions.max()) + 1, d_model)  # rows 0 .. the largest position
    rows = table[positions].numpy()  # (seq, d_model)
    ax, image = draw_heatmap(
        fig,
        rows,
        xlabel=MESSAGES("dimension", lang),
        ylabel=MESSAGES("token", lang),
        title=title,
        colorbar_label=MESSAGES("value", lang),
    )
    ax.set_yticks(
        range(len(labels)), labels=[f"{t} · {int(p)}" for t, p in zip(labels, positions, strict=True)]
    )
    same = bool((positions[-len(tokens) :] == torch.arange(len(tokens))).all())
    return ax, image, same


def plot_left_padding(
    tokens, padding: int = 2, d_model: int = 8, lang: str | None = None, *, figsize=None, dpi=None
) -> Figure:
    """Three heatmaps of the positional rows a text receives: alone, and left-padded with each numbering.

    With the default positions the padded text's rows are shifted by ``padding``; with
    positions from the mask they are the rows it gets alone. The static twin of
    :func:`course_lib.widgets.left_padding_explorer`.

        >>> fig = plot_left_padding(["the", "dog", "sat"], padding=2, lang="ru")
        >>> [t.get_text() for t in fig.subfigs[1].axes[0].get_yticklabels()]
        ['<pad> · 0', '<pad> · 1', 'the · 2', 'dog · 3', 'sat · 4']
        >>> [t.get_text() for t in fig.subfigs[2].axes[0].get_yticklabels()]
        ['<pad> · 0', '<pad> · 0', 'the · 0', 'dog · 1', 'sat · 2']
        >>> fig.subfigs[2].axes[0].get_xlabel()
        'координата'
    """
    lang = resolve(lang)
    tokens = check_tokens(tokens)
    padding = validate.non_negative_int("padding", padding)
    fig = new_figure(figsize or (12.0, 1.6 + 0.3 * (len(tokens) + padding)), dpi, lang)
    fig.set_layout_engine("constrained")
    grid = fig.add_gridspec(1, 3)
    for column, mode in enumerate((None, "default", "mask")):
        draw_left_padding(fig.add_subfigure(grid[column]), tokens, padding, mode, d_model, lang)
    fig.suptitle(MESSAGES("suptitle", lang))
    return fig
