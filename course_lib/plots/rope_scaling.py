"""RoPE's per-pair frequencies before and after a ``rope_scaling`` method (lesson 9).

Each method of Hugging Face's ``rope_scaling`` (position interpolation, dynamic NTK, YaRN,
Llama 3) changes pair ``i``'s frequency ``ω_i`` (:func:`course_lib.rope_frequencies`, one home
for each formula). The figure shows, pair by pair, the wavelength ``2π/ω_i`` (the positions a
pair takes for one turn) before and after, against the training length, and the ratio
``ω'_i/ω_i``: 1 where a pair is kept, ``1/κ`` where it is interpolated.

    >>> fig = plot_rope_scaling(16, 10000.0, {"rope_type": "linear", "factor": 4.0})
    >>> [round(float(y), 2) for y in fig.axes[1].lines[0].get_ydata()[:2]]
    [0.25, 0.25]
"""

import math

from matplotlib.figure import Figure

from .. import validate
from ..core import model as core
from ..i18n import format_number, format_positions, resolve
from ..rotary import check_rope_scaling, rope_frequencies
from .figure import new_figure
from .messages import LONG_CONTEXT as MESSAGES
from .rotary import even_head_dim

__all__ = ["format_positions", "plot_rope_scaling"]  # format_positions: course_lib.i18n's


def plot_rope_scaling(
    head_dim: int = 128,
    base: float = 10000.0,
    rope_scaling: dict | None = None,
    seq_len: int | None = None,
    lang: str | None = None,
    *,
    figsize=None,
    dpi=None,
) -> Figure:
    """Each pair's wavelength before and after ``rope_scaling`` (left) and its frequency ratio ``ω'_i/ω_i`` (right).

    A dashed line marks the training length ``original_max_position_embeddings`` when the dict
    has one; for ``llama3``, dotted lines mark its two wavelength thresholds ``L/high_freq_factor``
    and ``L/low_freq_factor``. ``rope_scaling`` is a config.json's dict, checked as
    :class:`~course_lib.RotaryEmbedding` checks it; ``seq_len``, the sequence length, is read by
    ``dynamic`` only (None: the training length, where dynamic changes nothing); the title then gives
    the factor dynamic runs with there, ``κ_ℓ``.

        >>> fig = plot_rope_scaling(128, 10000.0, {"rope_type": "dynamic", "factor": 2.0,
        ...     "original_max_position_embeddings": 4096}, seq_len=8192, lang="en")
        >>> fig._suptitle.get_text()
        'dynamic, κ = 2, ℓ = 8192 → κ_ℓ = 3, base = 10 000, head_dim = 128; factor on cos and sin 1.000'

        >>> fig = plot_rope_scaling(128, 500000.0, {"rope_type": "llama3", "factor": 8.0,
        ...     "original_max_position_embeddings": 8192, "low_freq_factor": 1.0, "high_freq_factor": 4.0})
        >>> ratio = fig.axes[1].lines[0].get_ydata()
        >>> float(ratio[0]), float(ratio[-1])  # the fastest pair kept, the slowest divided by 8
        (1.0, 0.125)
    """
    lang = resolve(lang)
    head_dim = even_head_dim(head_dim)
    base = validate.base(base)
    check_rope_scaling(rope_scaling, head_dim, base)
    theta = core.inverse_frequencies(head_dim, base)  # (head_dim/2,)
    scaled, attention_factor = rope_frequencies(head_dim, base, rope_scaling, seq_len)  # (head_dim/2,)
    pairs = range(head_dim // 2)
    method = core.rope_type(rope_scaling)
    fig = new_figure(figsize or (9.0, 3.8), dpi, lang)
    left, right = fig.subplots(1, 2)
    left.plot(pairs, (2 * math.pi / theta).numpy(), color="grey", label=MESSAGES("scaling_before", lang))
    left.plot(pairs, (2 * math.pi / scaled).numpy(), color="tab:blue", label=MESSAGES("scaling_after", lang))
    original = (rope_scaling or {}).get("original_max_position_embeddings")
    if original is not None:
        left.axhline(original, color="black", linestyle="--", linewidth=1.0)
        shown = format_positions(original, lang)
        left.text(0, original, MESSAGES("scaling_train", lang, L=shown), va="bottom", fontsize="small")
    if method == "llama3":
        for key in ("high_freq_factor", "low_freq_factor"):
            left.axhline(original / rope_scaling[key], color="tab:red", linestyle=":", linewidth=1.0)
    left.set_yscale("log")
    left.set_xlabel(MESSAGES("angles_pair", lang))
    left.set_ylabel(MESSAGES("scaling_wavelength", lang))
    left.legend(loc="upper left", fontsize="small")
    ratio = (scaled / theta).numpy()
    right.plot(pairs, ratio, color="tab:blue", marker=".", markersize=4)
    right.set_ylim(0, 1.05)
    right.set_xlabel(MESSAGES("angles_pair", lang))
    right.set_ylabel(MESSAGES("scaling_ratio", lang))
    factor = (rope_scaling or {}).get("factor", 1.0)
    dynamic = ""  # dynamic runs with κ_ℓ at the length ℓ, not with κ: the title says both
    if method == "dynamic" and seq_len is not None:
        kl = format_number(core.dynamic_factor(factor, original, seq_len), "g", lang)
        dynamic = f", ℓ = {format_positions(seq_len, lang)} → κ_ℓ = {kl}"
    fig.suptitle(
        MESSAGES(
            "scaling_title",
            lang,
            method=method,
            factor=format_number(factor, "g", lang),
            dynamic=dynamic,
            base=format_positions(base, lang),
            head_dim=head_dim,
            attention=format_number(attention_factor, ".3f", lang),
        ),
        fontsize="medium",
    )
    return fig
