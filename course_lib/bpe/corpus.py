"""The course's own prose as a training corpus: English and Russian, shipped with the package.

The text is a frozen snapshot of the prose cells of the lesson sources, one file per lesson
and language in ``course_lib/data/corpus/<lang>/``, each line one line of prose as a
student reads it. Nothing is downloaded, and the numbers a lesson prints from it do not
change when a lesson's wording does: the snapshot is refreshed only on purpose, with

    python -m course_lib.bpe.refresh_corpus notebooks/0[013456]_*.md

which rewrites the files from the given sources (see :func:`extract_prose`).

    >>> train = course_corpus("en")
    >>> heldout = course_corpus("en", "heldout")
    >>> len(train) > 5 * len(heldout) > 0
    True
"""

import json
import re
from importlib import resources
from pathlib import Path

from ..i18n import LANGUAGES
from .messages import MESSAGES

__all__ = ["SPLITS", "HELDOUT_LESSON", "course_corpus", "lessons", "extract_prose", "write_corpus"]

#: The lesson whose prose is held out of training: unseen text to measure a tokenizer on.
HELDOUT_LESSON = "04_why_position"
SPLITS = ("train", "heldout", "all")

_FENCE = re.compile(r"^```.*?^```[^\n]*$", re.M | re.S)
_DISPLAY_MATH = re.compile(r"\$\$.+?\$\$", re.S)
_INLINE_MATH = re.compile(r"\$([^$\n]+)\$")
# the LaTeX of inline formulas as it reads rendered; a formula with anything else is left out
_LATEX = {
    "sqrt": "√",
    "cdot": "·",
    "times": "×",
    "top": "ᵀ",
    "approx": "≈",
    "pi": "π",
    "omega": "ω",
    "lambda": "λ",
    "phi": "φ",
    "dots": "…",
    "sum": "Σ",
    "sin": "sin",
    "cos": "cos",
    "to": "→",
    "rightarrow": "→",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "lceil": "⌈",
    "rceil": "⌉",
    "quad": " ",
    ",": " ",
    "!": "",
    "text": "",
    "mathrm": "",
    "mathcal": "",
    "left": "",
    "right": "",
}
_COMMAND = re.compile(r"\\([A-Za-z]+|[,!])")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_CODE = re.compile(r"`([^`]*)`")
_STRONG = re.compile(r"\*\*([^*]+)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])")
_BLOCK_START = re.compile(r"^\s*(?:#+\s+|>\s*|[-*]\s+|\d+\.\s+)")
_TABLE_RULE = re.compile(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$")


def _directory(lang: str):
    return resources.files("course_lib").joinpath("data", "corpus", lang)


def lessons(lang: str) -> list[str]:
    """The names of the lessons whose prose is in the corpus, in lesson order."""
    return sorted(p.name.removesuffix(".txt") for p in _directory(lang).iterdir() if p.name.endswith(".txt"))


def course_corpus(lang: str, split: str = "train") -> list[str]:
    """The course's prose in ``lang``, one line of a lesson per string.

    Args:
        lang: one of ``course_lib.LANGUAGES``.
        split: ``"train"`` (every lesson but ``HELDOUT_LESSON``), ``"heldout"`` (that lesson
            only: text a tokenizer trained on "train" has never seen) or ``"all"``.
    """
    if lang not in LANGUAGES:
        raise ValueError(MESSAGES("corpus_lang", value=lang, languages=LANGUAGES))
    if split not in SPLITS:
        raise ValueError(MESSAGES("corpus_split", value=split, splits=SPLITS))
    lines = []
    for name in lessons(lang):
        if split == "all" or (name == HELDOUT_LESSON) == (split == "heldout"):
            lines += _directory(lang).joinpath(f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return lines


# ----------------------------------------------------------------------------- refreshing the snapshot


def _cells(source: str) -> list[tuple[dict, str]]:
    """The Markdown cells of a MyST lesson source: (metadata, text) in order."""
    cells, meta, lines, in_code = [], None, [], False
    for line in source.split("\n"):
        if in_code:
            in_code = line.strip() != "```"
        elif line.startswith("```{code-cell}") or line.startswith("+++"):
            if meta is not None:
                cells.append((meta, "\n".join(lines)))
            meta, lines = None, []
            in_code = line.startswith("```")
            if line.startswith("+++"):
                meta = json.loads(line[3:].strip() or "{}")
        elif meta is not None:
            lines.append(line)
    if meta is not None:
        cells.append((meta, "\n".join(lines)))
    return cells


def _formula(match: re.Match) -> str:
    """An inline formula as it reads rendered: ``$\\sqrt{d_{model}}$`` reads ``√d_model``."""
    commands = _COMMAND.findall(match.group(1))
    if any(c not in _LATEX for c in commands):
        return ""
    text = _COMMAND.sub(lambda m: _LATEX[m.group(1)], match.group(1))
    return text.replace("{", "").replace("}", "")


def _plain(line: str) -> str:
    """One line of Markdown as it reads rendered: no markup, no formulas."""
    line = _BLOCK_START.sub("", line)
    if line.lstrip().startswith("|"):
        line = " ".join(cell.strip() for cell in line.strip().strip("|").split("|"))
    line = _INLINE_MATH.sub(_formula, line)
    line = _IMAGE.sub(r"\1", line)
    line = _LINK.sub(r"\1", line)
    line = _STRONG.sub(r"\1", line)
    line = _EMPHASIS.sub(r"\1", line)
    line = _CODE.sub(r"\1", line)
    return " ".join(line.split())


def extract_prose(source: str, lang: str) -> list[str]:
    """The prose a student reads in one lesson source (jupytext MyST), in ``lang``: one string per line.

    Kept: the Markdown cells tagged ``lang-<lang>`` that the notebook shows. Left out: code
    cells, speaker notes and slide-only cells, code blocks inside prose, display formulas
    (``$$...$$``), table rules and empty lines. Markup is removed (``**term**`` reads
    ``term``, a link reads its text, a code span its code), an inline formula reads as
    rendered when it is simple (``$\\sqrt{d_{model}}$`` reads ``√d_model``) and is left out
    when it is not (fractions, matrices), and runs of spaces become one.

    >>> extract_prose('+++ {"tags": ["lang-en"]}\\n\\n## Step 1\\nA **token** `<pad>` times $\\\\sqrt{d_{model}}$.\\n', "en")
    ['Step 1', 'A token <pad> times √d_model.']
    """
    found = []
    for meta, text in _cells(source):
        tags = set(meta.get("tags", []))
        notes = meta.get("slideshow", {}).get("slide_type") == "notes"
        if f"lang-{lang}" not in tags or "slides-only" in tags or notes:
            continue
        text = _DISPLAY_MATH.sub("", _FENCE.sub("", text))
        found += [
            plain
            for line in text.split("\n")
            if not _TABLE_RULE.match(line.strip())
            if (plain := _plain(line))
        ]
    return found


def write_corpus(sources: list[Path], root: Path) -> dict[str, int]:
    """Rewrite ``root/<lang>/<lesson>.txt`` from the lesson sources; return the lines written per language."""
    counts = dict.fromkeys(LANGUAGES, 0)
    for path in sorted(sources):
        source = path.read_text(encoding="utf-8")
        for lang in LANGUAGES:
            lines = extract_prose(source, lang)
            (root / lang).mkdir(parents=True, exist_ok=True)
            (root / lang / f"{path.stem}.txt").write_text(
                "".join(f"{line}\n" for line in lines), encoding="utf-8"
            )
            counts[lang] += len(lines)
    return counts
