"""Lesson 9's explorer: RoPE's per-pair frequencies before and after each ``rope_scaling`` method.

Live (:mod:`course_lib.widgets.live`): the browser computes the frequencies of every method
(``js/rope_scaling.js``, the JavaScript copy of :mod:`course_lib.core.model`'s ``linear_frequencies``,
``dynamic_frequencies``, ``yarn_frequencies``, ``yarn_attention_factor`` and ``llama3_frequencies``)
and draws how many turns each pair makes within a context of ``C`` positions, before and after
scaling, beside the turns it made within the training length ``L``. The reference for every number
it shows is :func:`course_lib.rope_frequencies`, tested equal to transformers' own; the presets are
:data:`course_lib.rotary.PUBLISHED`, the published configs the tests check.

>>> explorer = rope_scaling_explorer(preset="Llama 3.1 8B")
>>> explorer.method, explorer.factor, explorer.original_len, explorer.context
('llama3', 8.0, 8192, 131072)
>>> explorer.rope_scaling["low_freq_factor"], explorer.rope_scaling["high_freq_factor"]
(1.0, 4.0)
"""

import math

import numpy as np
import traitlets

from .. import validate
from ..core.model import dynamic_factor
from ..i18n import format_number, format_positions, resolve
from ..messages import ROTARY as ROTARY_ERRORS
from ..plots.rotary import even_head_dim
from ..rotary import PUBLISHED, as_float, check_rope_scaling, rope_frequencies
from ..scaling import METHODS
from .live import Checked, Choice, LiveExplorer, PositiveInt, module, template
from .messages import SCALING as MESSAGES

__all__ = [
    "MESSAGES",
    "METHODS",
    "PRESETS",
    "preset_settings",
    "scaling_dict",
    "RopeScalingExplorer",
    "rope_scaling_explorer",
]

#: the published configs the explorer offers: every one of PUBLISHED that its settings can write
#: (DeepSeek-V3's YaRN has its own attention factor, mscale / mscale_all_dim, which the explorer has no slider for)
PRESETS = tuple(
    name
    for name, p in PUBLISHED.items()
    if set(p.rope_scaling or {})
    <= set(
        (
            "type",
            "rope_type",
            "factor",
            "original_max_position_embeddings",
            "low_freq_factor",
            "high_freq_factor",
        )
    )
)
#: the settings without a preset: a small head with lesson 8's base, stretched 8 times as Llama 3.1 is
DEFAULTS = {
    "head_dim": 64,
    "base": 10000.0,
    "context": 32768,
    "method": "llama3",
    "factor": 8.0,
    "original_len": 4096,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
}
# the settings' ranges: the sliders' ends (powers of two for the lengths), each preset within them
FACTOR_MAX = 64.0
FREQ_MAX = 16.0
LENGTH_EXPONENTS = (7, 20)  # 128 .. 1 048 576 positions
# two numbers closer than this relatively are equal: a pair keeps its frequency, or is divided by s, or
# reaches further than in training (JavaScript's pow and torch's may differ in the last bit)
RELATIVE = 1e-9


def scaling_dict(method, factor, original_len, low_freq_factor=1.0, high_freq_factor=4.0) -> dict | None:
    """The ``rope_scaling`` dict of ``method`` as a config.json writes it (None for ``"none"``), checked.

    >>> scaling_dict("linear", 4.0, 2048)
    {'rope_type': 'linear', 'factor': 4.0}
    """
    method = validate.choice("method", method, METHODS)
    if method == "none":
        return None
    scaling = {"rope_type": method, "factor": factor}
    if method != "linear":
        scaling["original_max_position_embeddings"] = original_len
    if method == "llama3":
        scaling.update(low_freq_factor=low_freq_factor, high_freq_factor=high_freq_factor)
    return scaling


def preset_settings(name: str) -> dict:
    """The explorer's settings for the published config ``name`` (one of :data:`PRESETS`).

    A config with no scaling trains on the context it serves (``L = C``); Llama 2's linear example
    names no training length: it is Llama 2's, ``C / factor``. The Llama 3 factors of a config that
    is not "llama3" are the explorer's defaults.
    """
    name = validate.choice("preset", name, PRESETS)
    head_dim, base, rope_scaling, context = PUBLISHED[name]
    scaling = rope_scaling or {}
    factor = float(scaling.get("factor", 1.0))
    return {
        "head_dim": head_dim,
        "base": base,
        "context": context,
        "method": scaling.get("rope_type", scaling.get("type", "none")),
        "factor": factor,
        "original_len": scaling.get("original_max_position_embeddings", round(context / factor)),
        "low_freq_factor": float(scaling.get("low_freq_factor", DEFAULTS["low_freq_factor"])),
        "high_freq_factor": float(scaling.get("high_freq_factor", DEFAULTS["high_freq_factor"])),
    }


def positive(key: str):
    """The check of a positive number of a rope_scaling dict, with rope_scaling's message."""

    def check(value) -> float:
        if isinstance(value, bool) or not as_float(value) > 0:
            raise ValueError(ROTARY_ERRORS("scaling_not_positive", key=key, value=value))
        return float(value)

    return check


class RopeScalingExplorer(LiveExplorer):
    """Controls for a ``rope_scaling`` method and its numbers over RoPE's per-pair frequencies (lesson 9).

    A live explorer (:mod:`course_lib.widgets.live`): the browser computes each pair's frequency
    before and after scaling and draws the turns each makes within the context (``js/rope_scaling.js``).
    Traits: ``method`` (none, linear, dynamic, yarn, llama3), ``factor`` ``s``, ``original_len``
    ``L`` (``original_max_position_embeddings``), ``context`` ``C``, ``low_freq_factor`` and
    ``high_freq_factor`` (llama3's), ``base`` (the controls), ``head_dim`` (set by a preset or from
    Python), and ``presets``, the settings of each published config (:func:`preset_settings`), which
    the page's buttons apply. :attr:`frequencies`, :meth:`turns`, :meth:`unseen` and :meth:`readout`
    are what the browser shows, computed by course_lib. "dynamic" is computed at the length ``C``.
    """

    _esm = module("rope_scaling", "frequencies", "axes", "choice")
    parameters = (
        "head_dim",
        "base",
        "context",
        "method",
        "factor",
        "original_len",
        "low_freq_factor",
        "high_freq_factor",
    )
    # at most 128 pairs: three curves of as many points, drawn in a frame
    head_dim = Checked(64, even_head_dim, low=4, high=256)  # "dynamic" needs head_dim >= 4
    base = Checked(10000.0, validate.base, low=100.0, high=1e8)
    context = PositiveInt(32768, low=2 ** LENGTH_EXPONENTS[0], high=2 ** LENGTH_EXPONENTS[1])
    method = Choice("llama3", METHODS)
    factor = Checked(8.0, positive("factor"), low=1.0, high=FACTOR_MAX)
    original_len = PositiveInt(4096, low=2 ** LENGTH_EXPONENTS[0], high=2 ** LENGTH_EXPONENTS[1])
    low_freq_factor = Checked(1.0, positive("low_freq_factor"), low=0.5, high=FREQ_MAX)
    high_freq_factor = Checked(4.0, positive("high_freq_factor"), low=1.0, high=FREQ_MAX)
    #: the published configs' settings, by name: the buttons that apply them
    presets = traitlets.Dict().tag(sync=True)
    #: base's slider's ends, on a log scale (exponents of 10); the lengths' are their bounds, powers of two
    limits = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        head_dim: int = 64,
        base: float = 10000.0,
        context: int = 32768,
        method: str = "llama3",
        factor: float = 8.0,
        original_len: int = 4096,
        low_freq_factor: float = 1.0,
        high_freq_factor: float = 4.0,
        lang=None,
    ):
        lang = resolve(lang)
        settings = dict(
            zip(
                self.parameters,
                self.checked(
                    head_dim=head_dim,
                    base=base,
                    context=context,
                    method=method,
                    factor=factor,
                    original_len=original_len,
                    low_freq_factor=low_freq_factor,
                    high_freq_factor=high_freq_factor,
                ),
                strict=True,
            )
        )
        self.check_together(settings)
        labels = {
            "preset": MESSAGES("preset", lang),
            "method": MESSAGES("method", lang),
            **{f"method_{m}": MESSAGES(f"method_{m}", lang) for m in METHODS},
            "base": MESSAGES("slider_base", lang),
            "factor": MESSAGES("slider_factor", lang),
            "original_len": MESSAGES("slider_original", lang),
            "context": MESSAGES("slider_context", lang),
            "low_freq_factor": MESSAGES("slider_low", lang),
            "high_freq_factor": MESSAGES("slider_high", lang),
            "readout": template(MESSAGES, "readout", lang),
            "attention": template(MESSAGES, "attention", lang),
            "llama3": template(MESSAGES, "llama3", lang),
            "dynamic": template(MESSAGES, "dynamic", lang),
            "dynamic_range": template(MESSAGES, "dynamic_range", lang),
            "title": template(MESSAGES, "title", lang),
            **{key: MESSAGES(key, lang) for key in ("xlabel", "ylabel", "ylabel_right", "before", "after")},
            "trained": MESSAGES("trained", lang),
        }
        exponent = math.log10(settings["base"])
        limits = {
            "base_exponent_min": min(3.0, math.floor(exponent)),
            "base_exponent_max": max(7.0, math.ceil(exponent)),
        }
        super().__init__(
            lang,
            labels,
            presets={name: preset_settings(name) for name in PRESETS},
            limits=limits,
            **settings,
        )

    @staticmethod
    def check_together(settings: dict) -> None:
        """What no one setting decides: the dict must be one transformers accepts (low_freq_factor < high_freq_factor)."""
        check_rope_scaling(
            scaling_dict(
                settings["method"],
                settings["factor"],
                settings["original_len"],
                settings["low_freq_factor"],
                settings["high_freq_factor"],
            ),
            settings["head_dim"],
            settings["base"],
        )

    @traitlets.validate("low_freq_factor", "high_freq_factor")
    def _check_order(self, proposal):
        # checked against the other one as it is now (a page moving both sends them together,
        # and traitlets checks them once both are set)
        settings = {name: getattr(self, name) for name in self.parameters}
        settings[proposal["trait"].name] = proposal["value"]
        self.check_together({**settings, "method": "llama3"})
        return proposal["value"]

    def use(self, name: str) -> None:
        """Every setting from the published config ``name`` (one of :data:`PRESETS`), as its button in the page."""
        settings = preset_settings(name)
        with self.hold_trait_notifications():
            for key, value in settings.items():
                setattr(self, key, value)

    @property
    def rope_scaling(self) -> dict | None:
        """The ``rope_scaling`` dict the settings make, as a config.json writes it (None for "none")."""
        return scaling_dict(
            self.method, self.factor, self.original_len, self.low_freq_factor, self.high_freq_factor
        )

    @property
    def frequencies(self) -> tuple[np.ndarray, np.ndarray, float]:
        """``(before, after, attention_factor)``: ω_i of every pair, ``(head_dim/2,)`` float64 each, by
        :func:`course_lib.rope_frequencies` without and with :attr:`rope_scaling` ("dynamic" at ``C``)."""
        before, _ = rope_frequencies(self.head_dim, self.base)
        after, attention = rope_frequencies(self.head_dim, self.base, self.rope_scaling, seq_len=self.context)
        return before.numpy(), after.numpy(), attention

    def turns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Turns of each pair: within ``C`` before and after scaling, and within ``L`` before (training)."""
        before, after, _ = self.frequencies
        return (
            self.context * before / (2 * math.pi),
            self.context * after / (2 * math.pi),
            self.original_len * before / (2 * math.pi),
        )

    def unseen(self) -> tuple[np.ndarray, np.ndarray]:
        """Which pairs meet angles never seen in training within ``C``, ``(without, with)`` scaling, bool each.

        Training showed pair ``i`` the angles ``0 .. L ω_i``: all of them if it made a whole turn
        (``L ω_i ≥ 2π``); otherwise a pair whose angle reaches past ``L ω_i`` within ``C`` meets new ones.
        """
        before, after, trained = self.turns()
        partial = trained < 1 - RELATIVE
        return partial & (before > trained * (1 + RELATIVE)), partial & (after > trained * (1 + RELATIVE))

    def counts(self) -> dict[str, int]:
        """How many pairs keep their frequency, are divided by ``s``, or lie between (ratios within 1e-9),
        and how many of those between are slowed more than ``s`` times ("dynamic" past ``κ L``: ``beyond``)."""
        before, after, _ = self.frequencies
        ratio = after / before
        kept = np.abs(ratio - 1) <= RELATIVE
        divided = ~kept & (np.abs(ratio * self.factor - 1) <= RELATIVE)
        between = ~kept & ~divided
        return {
            "kept": int(kept.sum()),
            "divided": int(divided.sum()),
            "between": int(between.sum()),
            "beyond": int((between & (ratio * self.factor < 1 - RELATIVE)).sum()),
        }

    def method_name(self) -> str:
        return MESSAGES(f"method_{self.method}", self.lang)

    def readout(self) -> str:
        """The readout under the controls, as the browser writes it."""
        lang = self.lang
        _, _, attention = self.frequencies
        unseen_before, unseen_after = self.unseen()
        attention_text = (
            MESSAGES("attention", lang, value=format_number(attention, ".4f", lang))
            if self.method == "yarn"
            else ""
        )
        llama3_text = ""
        if self.method == "llama3":
            short, long = self.original_len / self.high_freq_factor, self.original_len / self.low_freq_factor
            llama3_text = MESSAGES(
                "llama3", lang, short=format_positions(short, lang), long=format_positions(long, lang)
            )
        counts = self.counts()
        dynamic_text = ""
        if self.method == "dynamic":
            kl = format_number(dynamic_factor(self.factor, self.original_len, self.context), ".6g", lang)
            dynamic_text = MESSAGES("dynamic", lang, kl=kl)
            if counts["between"]:  # past L: the pairs between are slowed up to κ_ℓ times, which may exceed κ
                dynamic_text += MESSAGES("dynamic_range", lang, kl=kl, beyond=counts["beyond"])
        return MESSAGES(
            "readout",
            lang,
            method=self.method_name(),
            base=format_positions(self.base, lang),
            factor=format_number(self.factor, ".6g", lang),
            original=format_positions(self.original_len, lang),
            context=format_positions(self.context, lang),
            pairs=self.head_dim // 2,
            attention=attention_text,
            llama3=llama3_text,
            dynamic=dynamic_text,
            unseen=int(unseen_after.sum()),
            unseen_before=int(unseen_before.sum()),
            **counts,
        )

    def title(self) -> str:
        """The picture's title, as the browser writes it."""
        context = format_positions(self.context, self.lang)
        return MESSAGES("title", self.lang, context=context, method=self.method_name())


def rope_scaling_explorer(
    head_dim: int | None = None,
    base: float | None = None,
    context: int | None = None,
    method: str | None = None,
    factor: float | None = None,
    original_len: int | None = None,
    low_freq_factor: float | None = None,
    high_freq_factor: float | None = None,
    *,
    preset: str | None = None,
    lang: str | None = None,
) -> RopeScalingExplorer:
    """RoPE's per-pair frequencies before and after a ``rope_scaling`` method (lesson 9), live in the browser.

    Each setting left None is the ``preset``'s (one of :data:`PRESETS`, the published configs of
    :data:`course_lib.rotary.PUBLISHED`), or without a preset :data:`DEFAULTS`': head_dim 64,
    base 10 000, a context of 32 768 positions, "llama3" with factor 8 over a training length of 4 096,
    low_freq_factor 1 and high_freq_factor 4. Controls: the presets (buttons), the method, base
    (10^3 to 10^7 on a log scale), factor (1 to 64), L and C (powers of two, 128 to 1 048 576),
    low_freq_factor (0.5 to 16) and high_freq_factor (1 to 16), the first below the second.
    """
    given = {
        "head_dim": head_dim,
        "base": base,
        "context": context,
        "method": method,
        "factor": factor,
        "original_len": original_len,
        "low_freq_factor": low_freq_factor,
        "high_freq_factor": high_freq_factor,
    }
    settings = dict(DEFAULTS) if preset is None else preset_settings(preset)
    settings.update({name: value for name, value in given.items() if value is not None})
    return RopeScalingExplorer(**settings, lang=lang)
