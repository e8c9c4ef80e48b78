"""The course's own fonts: what every deck and site page draws its text with, on any machine.

A fresh machine may have no fonts but DejaVu (Debian's headless Chromium installed without recommends), and
another machine other fonts: if the system's fonts drew the text, each machine would break lines elsewhere.
So the pages draw their text only with web fonts copied from pinned npm packages (``@fontsource/*``, SIL
Open Font License), and the browser tests check it (``CSS.getPlatformFontsForNode``).

- text: **Source Sans 3** (Latin, Cyrillic, Greek; regular, italic, bold, bold italic), the open
  successor of reveal.js's own Source Sans Pro, narrow enough for a 960 px slide, open shapes that read
  well projected and on a phone;
- code: **JetBrains Mono** (Latin, Cyrillic, Greek; the same four styles): 0/O and 1/l/I distinct at a
  glance, a tall x-height for the back row;
- a script neither has, the faces its language names in ``course_lib/locale/languages.json`` (``fonts``:
  ``@fontsource`` packages pinned in package.json), as fallbacks in both stacks (:data:`SCRIPT_FACES`);
- what neither has, as fallbacks in both stacks: Noto Sans Math (→ √ ≈ ≤ ≠, superscripts), Noto Sans
  Symbols 2 (✎), Noto Sans Hebrew and Noto Sans Arabic (lesson 2's bytes of other scripts), Noto Emoji
  (its emoji), and for the superscripts and modifier letters the lessons print (2⁻²⁴, Wᵀ) DejaVu Sans Mono
  (npm ``dejavu-fonts-ttf``), loaded from the course's files like the others, never from the system.

:func:`copy_fonts` writes ``fonts/course-fonts.css`` and the font files it names into a build's assets.
That one stylesheet defines the faces and two CSS custom properties, ``--course-sans`` and
``--course-mono``, which the decks' template, the site's CSS and the widgets use
(``font-family: var(--course-sans, sans-serif)``). Only woff2 is copied: every browser the course
supports reads it; each face's ``unicode-range`` makes a browser fetch only the subsets a page needs.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from course_lib.i18n import LANGUAGE_FONTS, LANGUAGES

__all__ = [
    "Face",
    "FACES",
    "SCRIPT_FACES",
    "SANS",
    "MONO",
    "STYLESHEET",
    "FontsError",
    "stylesheet",
    "copy_fonts",
]


@dataclass(frozen=True)
class Face:
    """One family from one ``@fontsource`` package: the styles (its CSS files) and subsets used."""

    family: str
    package: str  # in node_modules/
    styles: tuple[str, ...] = ("400",)
    subsets: tuple[str, ...] | None = None  # None: every subset the package has
    # the whole font for every character it has, not only its subsets' unicode-range: Noto Sans Math's
    # one file (named "latin") holds every glyph of the font, its range names only the Latin ones
    whole: bool = False
    # a package that is a font, not a @fontsource one: its file and the characters it is used for
    file: str | None = None
    unicode_range: str | None = None

    @property
    def folder(self) -> str:
        return self.package.rsplit("/", 1)[-1]


FOUR_STYLES = ("400", "400-italic", "700", "700-italic")
SOURCE_SANS = Face("Source Sans 3", "@fontsource/source-sans-3", FOUR_STYLES)
JETBRAINS_MONO = Face("JetBrains Mono", "@fontsource/jetbrains-mono", FOUR_STYLES)
FALLBACKS = (
    Face("Noto Sans Math", "@fontsource/noto-sans-math", whole=True),
    Face("Noto Sans Symbols 2", "@fontsource/noto-sans-symbols-2", subsets=("symbols", "math")),
    Face("Noto Sans Hebrew", "@fontsource/noto-sans-hebrew", subsets=("hebrew",)),
    Face("Noto Sans Arabic", "@fontsource/noto-sans-arabic", subsets=("arabic",)),
    Face("Noto Emoji", "@fontsource/noto-emoji"),
    # the superscripts the lessons print (2⁻²⁴) and modifier letters (Wᵀ): in none of the above
    Face(
        "DejaVu Sans Mono",
        "dejavu-fonts-ttf",
        file="ttf/DejaVuSansMono.ttf",
        unicode_range="U+1D00-1DBF,U+2070-209F,U+2580-259F",
    ),
)
#: the faces the languages' scripts need beyond these (``fonts`` in course_lib/locale/languages.json):
#: fallbacks too, after the others
SCRIPT_FACES = tuple(
    Face(font["family"], font["package"], subsets=tuple(font["subsets"]) if "subsets" in font else None)
    for lang in LANGUAGES
    for font in LANGUAGE_FONTS[lang]
)
FALLBACKS = (*FALLBACKS, *(face for face in SCRIPT_FACES if face not in FALLBACKS))
FACES = (SOURCE_SANS, JETBRAINS_MONO, *FALLBACKS)


def _stack(*faces: Face, generic: str) -> str:
    # the generic family last: never used for the course's text (the tests check), but a page whose
    # fonts failed to load stays readable
    return ", ".join([f'"{face.family}"' for face in (*faces, *FALLBACKS)] + [generic])


SANS = _stack(SOURCE_SANS, generic="sans-serif")
# what JetBrains Mono lacks and Source Sans 3 has (Wᵀ) in the text face rather than a third one
MONO = _stack(JETBRAINS_MONO, SOURCE_SANS, generic="monospace")

#: Where the stylesheet lies inside a build's assets folder; the fonts sit beside it, one folder per package.
STYLESHEET = "fonts/course-fonts.css"

FONT_FACE = re.compile(r"/\* (?P<name>[a-z0-9\[\]-]+) \*/\s*@font-face \{(?P<body>.*?)\}", re.S)
WOFF2 = re.compile(r"url\(\./files/([^)]+\.woff2)\) format\('woff2'\)")


class FontsError(ValueError):
    """node_modules/ lacks a font package or a file the course's fonts need."""


def _faces(node_modules: Path, face: Face) -> list[tuple[str, str]]:
    """(font file, @font-face rule pointing to it) for each subset and style of ``face``."""
    if face.file:
        name = face.file.rsplit("/", 1)[-1]
        rule = (
            f"@font-face {{\n  font-family: '{face.family}';\n  font-style: normal;\n  font-display: block;\n"
            f"  font-weight: 400;\n  src: url({face.folder}/{name}) format('truetype');\n"
            f"  unicode-range: {face.unicode_range};\n}}"
        )
        return [(face.file, rule)]
    rules = []
    for style in face.styles:
        css = node_modules / face.package / f"{style}.css"
        if not css.exists():
            raise FontsError(
                f"node_modules/ lacks {face.package}/{style}.css: run `npm ci` in the repository root "
                "(`make slides` does it)"
            )
        for match in FONT_FACE.finditer(css.read_text(encoding="utf-8")):
            subset = match["name"].removeprefix(f"{face.folder}-").rsplit("-", 2)[0]
            if face.subsets is not None and subset not in face.subsets:
                continue
            woff2 = WOFF2.search(match["body"])
            if woff2 is None:
                raise FontsError(f"{css} has a face without a woff2 file: {match['name']}")
            body = re.sub(
                r"src:[^;]*;", f"src: url({face.folder}/{woff2[1]}) format('woff2');", match["body"]
            )
            if face.whole:
                body = re.sub(r"\s*unicode-range:[^;]*;", "", body)
            # block, not swap: no system font draws the text while a face loads (they load from disk)
            body = body.replace("font-display: swap", "font-display: block")
            rules.append((f"files/{woff2[1]}", f"@font-face {{{body}}}"))
    if not rules:
        raise FontsError(f"{face.package} has none of the subsets {face.subsets} in {face.styles}")
    return rules


def stylesheet(node_modules: Path) -> tuple[str, dict[Path, str]]:
    """``course-fonts.css`` and the files it loads: {path in node_modules: path next to the stylesheet}."""
    parts = [
        "/* The course's fonts (generated by course_tools/publish/fonts.py from the pinned @fontsource packages). */",
        f":root {{\n  --course-sans: {SANS};\n  --course-mono: {MONO};\n}}",
    ]
    files = {}
    for face in FACES:
        for font, rule in _faces(node_modules, face):
            files[node_modules / face.package / font] = f"{face.folder}/{font.rsplit('/', 1)[-1]}"
            parts.append(rule)
        files[node_modules / face.package / "LICENSE"] = f"{face.folder}/LICENSE"
    missing = sorted(str(path.relative_to(node_modules)) for path in files if not path.exists())
    if missing:
        raise FontsError(f"node_modules/ lacks {', '.join(missing)}: run `npm ci` in the repository root")
    return "\n\n".join(parts) + "\n", files


def copy_fonts(node_modules: Path, assets: Path) -> Path:
    """Write ``assets/fonts/course-fonts.css`` and copy the fonts it names beside it; returns the stylesheet."""
    import shutil

    css, files = stylesheet(node_modules)
    target = assets / STYLESHEET
    for source, name in files.items():
        (target.parent / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target.parent / name)
    target.write_text(css, encoding="utf-8")
    return target
