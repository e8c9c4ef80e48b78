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
>>> template(MESSAGES, "table_slow", "ru")[:30]
'{slow} из {d_model} столбцов ('
>>> format_length(6.283185307179586, "en"), format_length(6.283185307179586, "ru"), format_length(35332.9)
('6.3', '6,3', '35 333')
"""

from pathlib import Path

import anywidget
import numpy as np
import traitlets
from matplotlib import colormaps

from .. import validate
from ..i18n import Messages, format_number, number_symbols, placeholders

__all__ = [
    "JS",
    "module",
    "template",
    "colormap_hex",
    "format_length",
    "Checked",
    "PositiveInt",
    "NonNegativeInt",
    "Choice",
    "LiveExplorer",
]

JS = Path(__file__).with_name("js")


def module(name: str, *parts: str) -> str:
    """The ES module of explorer ``name``: ``js/common.js``, the shared ``js/<part>.js``, then ``js/<name>.js``.

    ``parts`` are files that several explorers use and others do not (``axes``, ``heatmap``,
    ``plane``, ``sinusoidal``, ``choice``, ``textbox``): one module string, so they need no
    import. ``heatmap`` draws with ``axes``'s functions: an explorer that takes one takes both.
    """
    files = ["common", *parts, name]
    return "\n".join((JS / f"{file}.js").read_text(encoding="utf-8") for file in files)


def template(catalogue: Messages, key: str, lang: str) -> str:
    """Message ``key`` of ``catalogue`` in ``lang`` with its ``{placeholders}`` left for the JavaScript to fill."""
    names = placeholders(catalogue.entries[key]["en"])
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

    >>> class Demo(traitlets.HasTraits):
    ...     base = Checked(10000.0, validate.base)
    >>> Demo(base=100).base
    100.0
    >>> Demo().base = 0.5  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: base must be a finite number greater than 1, got 0.5: ...
    """

    def __init__(self, default_value, check):
        super().__init__(default_value)
        self.check = check
        self.tag(sync=True)

    def validate(self, obj, value):
        return self.check(value)


class PositiveInt(Checked):
    """An integer > 0 (:func:`course_lib.validate.positive_int`), the error naming the trait."""

    def __init__(self, default_value: int):
        super().__init__(default_value, lambda value: validate.positive_int(self.name, value))


class NonNegativeInt(Checked):
    """An integer >= 0 (:func:`course_lib.validate.non_negative_int`), the error naming the trait."""

    def __init__(self, default_value: int):
        super().__init__(default_value, lambda value: validate.non_negative_int(self.name, value))


class Choice(Checked):
    """One of the strings ``allowed`` (:func:`course_lib.validate.choice`), the error naming the trait."""

    def __init__(self, default_value: str, allowed: tuple[str, ...]):
        super().__init__(default_value, lambda value: validate.choice(self.name, value, allowed))


class LiveExplorer(anywidget.AnyWidget):
    """What every live explorer syncs besides its parameters: its language, its texts and numbers in it."""

    lang = traitlets.Unicode("en").tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)
    #: how ``lang`` writes numbers (:func:`course_lib.i18n.number_symbols`): the JavaScript's
    #: ``formatNumber`` writes them with these symbols, so it knows no language of its own
    numbers = traitlets.Dict().tag(sync=True)
    #: the traits a reader sets, in the order ``repr`` names them
    parameters: tuple[str, ...] = ()

    def __init__(self, lang: str, labels: dict[str, str], **traits):
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
