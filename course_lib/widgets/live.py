"""Explorers that compute and draw in the browser: anywidget front-end widgets, live with no kernel.

An explorer here is an :class:`anywidget.AnyWidget`: its parameters are synced traits (a
notebook or a test sets and reads ``explorer.d_model``), and a JavaScript module, shipped
with the package in ``course_lib/widgets/js/``, computes and draws what they show. The
module is part of the widget's saved state, so the explorer moves in JupyterLab before a
cell runs, on the website and in the decks, offline, and a slider move never waits for a
kernel.

Each explorer's module is ``js/common.js`` (numbers in the lesson's language, the sliders,
the canvas, the course's font), the shared parts it draws with (``axes``, ``heatmap``,
``plane``, ...), then ``js/<name>.js`` (its maths and its drawing, the one intended second
copy of a course_lib formula, tested equal to it in ``tests/browser/test_explorers.py``).
Its texts come from the catalogues as templates in the language ``lang``, the ``labels``
trait, and how that language writes numbers from :func:`course_lib.i18n.number_symbols`,
the ``numbers`` trait. Each setting is checked where its trait is declared (:class:`Checked`).

>>> from course_lib.widgets import MESSAGES
>>> template(MESSAGES, "table_slow", "ru")[:32]
'У {slow} из {d_model} столбцов ('
>>> format_length(6.283185307179586, "en"), format_length(6.283185307179586, "ru"), format_length(35332.9)
('6.3', '6,3', '35 333')
"""

import json
import math
from pathlib import Path

import anywidget
import numpy as np
import traitlets
from matplotlib import colormaps

from .. import validate
from ..i18n import Messages, format_number, number_symbols, placeholders
from ..portable import rounded
from .messages import LIVE

__all__ = [
    "JS",
    "module",
    "template",
    "colormap_hex",
    "format_length",
    "Checked",
    "bounds_of",
    "PositiveInt",
    "NonNegativeInt",
    "Choice",
    "computed",
    "LiveExplorer",
]

JS = Path(__file__).with_name("js")


def module(name: str, *parts: str) -> str:
    """The ES module of explorer ``name``: ``js/common.js``, the shared ``js/<part>.js``, then ``js/<name>.js``.

    ``parts`` are files that several explorers use and others do not (``axes``, ``heatmap``,
    ``plane``, ``frequencies``, ``sinusoidal``, ``choice``, ``textbox``): one module string, so they need no
    import. ``heatmap`` draws with ``axes``'s functions: an explorer that takes one takes both.
    """
    files = ["common", *parts, name]
    return "\n".join((JS / f"{file}.js").read_text(encoding="utf-8") for file in files)


def template(catalogue: Messages, key: str, lang: str) -> str:
    """Message ``key`` of ``catalogue`` in ``lang`` with its ``{placeholders}`` left for the JavaScript to fill."""
    names = placeholders(catalogue.english[key])
    return catalogue(key, lang, **{name: "{" + name + "}" for name in names})


def colormap_hex(name: str) -> str:
    """Matplotlib's colormap ``name`` as 256 colours, ``rrggbb`` each, one string (what the heatmaps draw with)."""
    # the bytes matplotlib itself paints an image with
    rgba = colormaps[name].resampled(256)(np.arange(256), bytes=True)  # (256, 4) uint8
    return rgba[:, :3].tobytes().hex()


def format_length(x: float, lang: str | None = None) -> str:
    """A wavelength for a readout: 6.3 and 35 333, not 6.283185307179586 and 3.533e+04."""
    return format_number(x, ".1f" if x < 100 else ",.0f", lang)


class Checked(traitlets.TraitType):
    """A synced trait whose every value is ``check(value)``: the value to keep, or the course's error.

    One check per setting, written where the trait is declared, for both ways a reader sets it:
    an explorer's constructor checks its arguments with :meth:`LiveExplorer.checked` before it
    computes anything from them, and a notebook's ``explorer.base = 0.5`` gets the same message
    (``check`` raises ValueError or TypeError naming the value and the limit, in the reader's
    language, where ``traitlets.Float`` would only say which type it expected). A check that
    needs another trait (a pair within ``head_dim``) is a ``@traitlets.validate`` of the explorer.

    ``low`` and ``high`` bound a number (the range of its slider, or for a setting with no
    slider the range the browser draws in one frame); ``longest`` bounds a text's length. The
    same bounds go to the browser (:func:`bounds_of`), which clamps a saved notebook's values to
    them before it computes anything: a saved notebook is input.

    >>> class Demo(traitlets.HasTraits):
    ...     base = Checked(10000.0, validate.base, low=10.0, high=1e6)
    >>> Demo(base=100).base
    100.0
    >>> Demo().base = 0.5  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: base must be a finite number greater than 1, got 0.5: ...
    >>> Demo().base = 1e9  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: base must be a number from 10 to 1...000...000 (the explorer's range), got 1000000000.0
    """

    def __init__(self, default_value, check, low=None, high=None, longest=None):
        super().__init__(default_value)
        self.check = check
        self.low, self.high, self.longest = low, high, longest
        self.tag(sync=True)

    def validate(self, obj, value):
        value = self.check(value)
        lang = getattr(obj, "lang", None) or None
        if self.high is not None and not self.low <= value <= self.high:
            key = "int_range" if isinstance(self.default_value, int) else "number_range"
            # 1 000 000 and 0,01, not 1e+06
            low, high = (
                format_number(int(x) if x == int(x) else x, "," if x == int(x) else "g", lang)
                for x in (self.low, self.high)
            )
            raise ValueError(LIVE(key, lang, name=self.name, low=low, high=high, value=value))
        if self.longest is not None and len(value) > self.longest:
            longest = format_number(self.longest, ",", lang)
            raise ValueError(LIVE("text_too_long", lang, name=self.name, longest=longest, length=len(value)))
        return value

    def bounds(self) -> dict:
        """What the browser clamps a saved value to: ``{default, low, high}``, ``{default, longest}`` or ``{default}``."""
        found = {"default": self.default_value}
        if self.high is not None:
            found.update(low=self.low, high=self.high, integer=isinstance(self.default_value, int))
        if self.longest is not None:
            found["longest"] = self.longest
        return found


class PositiveInt(Checked):
    """An integer from ``low`` (> 0) to ``high`` (:func:`course_lib.validate.positive_int`), the error naming the trait."""

    def __init__(self, default_value: int, high: int, low: int = 1):
        super().__init__(default_value, lambda value: validate.positive_int(self.name, value), low, high)


class NonNegativeInt(Checked):
    """An integer from 0 to ``high`` (:func:`course_lib.validate.non_negative_int`), the error naming the trait."""

    def __init__(self, default_value: int, high: int):
        super().__init__(default_value, lambda value: validate.non_negative_int(self.name, value), 0, high)


class Choice(Checked):
    """One of the strings ``allowed`` (:func:`course_lib.validate.choice`), the error naming the trait."""

    def __init__(self, default_value: str, allowed: tuple[str, ...]):
        super().__init__(default_value, lambda value: validate.choice(self.name, value, allowed))
        self.allowed = tuple(allowed)

    def bounds(self) -> dict:
        return {"default": self.default_value, "allowed": list(self.allowed)}


def bounds_of(cls) -> dict[str, dict]:
    """The bounds of each :class:`Checked` setting of explorer class ``cls``, as the browser clamps to them."""
    # the class dictionaries, not class_traits(): this runs while traitlets is still setting the class up
    traits = {
        name: v
        for klass in reversed(cls.__mro__)
        for name, v in vars(klass).items()
        if isinstance(v, Checked)
    }
    return {name: traits[name].bounds() for name in sorted(traits)}


def bounds_module(cls) -> str:
    """The JavaScript that gives ``cls``'s module its settings' bounds, ``BOUNDS``: put at the module's end
    (a ``const`` read when the explorer renders, as every function of the module)."""
    bounds = bounds_of(cls)
    for entry in bounds.values():  # JSON has no infinity: a bound is always finite
        assert all(math.isfinite(v) for k, v in entry.items() if k in ("low", "high")), entry
    return f"\n// the settings' bounds (course_lib/widgets/live.py, Checked)\nconst BOUNDS = {json.dumps(bounds)};\n"


def _rounded_json(value, _widget):
    return rounded(value)


def computed(trait: traitlets.TraitType) -> traitlets.TraitType:
    """``trait`` synced, its floats sent to the browser rounded by :func:`course_lib.portable.rounded`.

    For the numbers Python computes in float32 for the browser to draw from (an embedding's
    weights, attention weights): their last bits differ from one CPU to another, and what the
    browser receives is also what the notebook saves (its widget state), so that a lesson rebuilt
    on another machine saves the same numbers. The kernel keeps them whole (``explorer.weight``):
    only the JSON is rounded, to 4 significant digits of the largest, past what the explorer draws
    and reads out. Never for what the browser sends back (a slider's stops, a setting): Python
    must find it again as it sent it.

    >>> class Demo(traitlets.HasTraits):
    ...     weights = computed(traitlets.List())
    >>> demo = Demo(weights=[0.3333333432674408, 1e-44])
    >>> Demo.class_traits()["weights"].metadata["to_json"](demo.weights, demo), demo.weights[0]
    ([0.3333, 0.0], 0.3333333432674408)
    """
    return trait.tag(sync=True, to_json=_rounded_json)


class LiveExplorer(anywidget.AnyWidget):
    """What every live explorer syncs besides its parameters: its language, its texts and numbers in it."""

    lang = traitlets.Unicode("en").tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)
    #: how ``lang`` writes numbers (:func:`course_lib.i18n.number_symbols`): the JavaScript's
    #: ``formatNumber`` writes them with these symbols, so it knows no language of its own
    numbers = traitlets.Dict().tag(sync=True)
    #: the traits a reader sets, in the order ``repr`` names them
    parameters: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # the module with its settings' bounds in front: the browser clamps saved values to them
        # (traitlets' add_traits makes a subclass per instance whose _esm is the synced trait: left alone)
        if isinstance(cls.__dict__.get("_esm"), str):
            cls._esm = cls.__dict__["_esm"] + bounds_module(cls)

    def __init__(self, lang: str, labels: dict[str, str], **traits):
        # what the browser writes when it replaced a saved value out of bounds (js/common.js, guard)
        # (a language being added, with no text in the catalogue yet: the browser names the values alone)
        # and under it in a notebook with no kernel connected (js/common.js, kernelStatus)
        if lang in LIVE.entries["clamped"]:
            labels = {**labels, "clamped": template(LIVE, "clamped", lang)}
        if lang in LIVE.entries["no_kernel"]:
            labels = {**labels, "no_kernel": LIVE("no_kernel", lang)}
        super().__init__(lang=lang, labels=labels, numbers=number_symbols(lang), **traits)

    @classmethod
    def checked(cls, **settings) -> list:
        """The values of ``settings`` as their traits' checks (:class:`Checked`) return them, in order.

        A constructor checks its arguments so before it computes anything from them.
        """
        traits = cls.class_traits()
        return [traits[name].validate(None, value) for name, value in settings.items()]

    def __repr__(self) -> str:
        """``TableExplorer(d_model=128, ...)``: the text a notebook keeps beside the widget (no memory address)."""
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.parameters)
        return f"{type(self).__name__}({values})"
