"""The course's fonts: one stylesheet with the two families' variables, every face pointing to a file that
is copied beside it, from the pinned packages' own CSS; a missing package is an error that names it."""

import re

import pytest

from course_tools.publish import fonts


def write_font_packages(node_modules):
    """Stand-ins for the @fontsource packages (their CSS per style, a woff and a woff2 per subset) and
    dejavu-fonts-ttf, in the layout the real ones have."""
    for face in fonts.FACES:
        package = node_modules / face.package
        (package / "files").mkdir(parents=True, exist_ok=True)
        (package / "LICENSE").write_text("SIL Open Font License 1.1")
        if face.file:
            (package / face.file).parent.mkdir(parents=True, exist_ok=True)
            (package / face.file).write_bytes(b"ttf")
            continue
        for style in face.styles:
            weight, _, italic = style.partition("-")
            rules = []
            for subset in (*(face.subsets or ("latin", "cyrillic")), "vietnamese"):
                name = f"{face.folder}-{subset}-{weight}-{italic or 'normal'}"
                for ext in ("woff", "woff2"):
                    (package / "files" / f"{name}.{ext}").write_bytes(ext.encode())
                rules.append(
                    f"/* {name} */\n@font-face {{\n  font-family: '{face.family}';\n  font-style: "
                    f"{italic or 'normal'};\n  font-display: swap;\n  font-weight: {weight};\n  src: "
                    f"url(./files/{name}.woff2) format('woff2'), url(./files/{name}.woff) format('woff');\n"
                    "  unicode-range: U+0000-00FF;\n}\n"
                )
            (package / f"{style}.css").write_text("\n".join(rules))


def test_one_stylesheet_defines_the_variables_and_every_face_it_names_is_copied(tmp_path):
    write_font_packages(tmp_path / "node_modules")
    css = fonts.copy_fonts(tmp_path / "node_modules", tmp_path / "assets").read_text()
    assert (
        css.startswith("/*")
        and f"--course-sans: {fonts.SANS};" in css
        and f"--course-mono: {fonts.MONO};" in css
    )
    assert fonts.SANS.startswith('"Source Sans 3"') and fonts.SANS.endswith("sans-serif")
    assert fonts.MONO.startswith('"JetBrains Mono"') and fonts.MONO.endswith("monospace")
    urls = re.findall(r"url\(([^)]+)\)", css)
    assert urls and all((tmp_path / "assets" / "fonts" / url).is_file() for url in urls)
    # woff2 only, never a system font, never a fallback text drawn while a face loads
    assert all(url.endswith((".woff2", ".ttf")) for url in urls)
    assert "local(" not in css and "font-display: swap" not in css
    # the subsets a fallback face is used for, and no other
    assert "noto-sans-hebrew-hebrew-400-normal.woff2" in css
    assert "noto-sans-hebrew-vietnamese" not in css
    # Noto Sans Math is used for every glyph it has, not only its file's nominal Latin range
    math = next(rule for rule in css.split("@font-face")[1:] if "Noto Sans Math" in rule)
    assert "unicode-range" not in math
    for face in fonts.FACES:
        assert (tmp_path / "assets" / "fonts" / face.folder / "LICENSE").is_file()


def test_a_missing_package_names_itself_and_the_command(tmp_path):
    write_font_packages(tmp_path / "node_modules")
    (tmp_path / "node_modules" / "@fontsource/jetbrains-mono" / "700.css").unlink()
    with pytest.raises(
        fonts.FontsError, match=r"node_modules/ lacks @fontsource/jetbrains-mono/700\.css.*npm ci"
    ):
        fonts.copy_fonts(tmp_path / "node_modules", tmp_path / "assets")
    write_font_packages(tmp_path / "node_modules")
    (tmp_path / "node_modules" / "dejavu-fonts-ttf" / "ttf" / "DejaVuSansMono.ttf").unlink()
    with pytest.raises(fonts.FontsError, match=r"lacks dejavu-fonts-ttf/ttf/DejaVuSansMono\.ttf"):
        fonts.copy_fonts(tmp_path / "node_modules", tmp_path / "assets")


def test_a_language_s_script_brings_its_face_as_data(monkeypatch):
    """A language whose script the course's fonts lack names its face in languages.json (``fonts``): the
    decks and the site fall back to it, with no change to this module."""
    import importlib

    from course_lib import i18n

    georgian = {
        "family": "Noto Sans Georgian",
        "package": "@fontsource/noto-sans-georgian",
        "subsets": ["georgian"],
    }
    monkeypatch.setattr(i18n, "LANGUAGE_FONTS", {**i18n.LANGUAGE_FONTS, "ru": (georgian,)})
    try:
        with_script = importlib.reload(fonts)
        face = fonts.Face("Noto Sans Georgian", "@fontsource/noto-sans-georgian", subsets=("georgian",))
        assert with_script.SCRIPT_FACES == (face,) and with_script.FACES[-1] == face
        assert with_script.SANS.endswith('"Noto Sans Georgian", sans-serif')
    finally:
        monkeypatch.undo()
        importlib.reload(fonts)
    assert fonts.SCRIPT_FACES == ()


# The decks' and the site's browser tests run in a browser without the machine's fonts
# (tests/browser/conftest.py): a declaration that named one of them before the course's fonts would pass
# there, the course's font drawing what the machine's would draw on a reader's machine. So nothing of the
# course's that writes a page (style sheets, templates, widgets, the Python that writes HTML, the lessons'
# sources) names a family: only the course's two variables and the generic families. (A declaration that
# names only machine families and generic ones ends at the placeholder in those tests, and fails there.)
# A declaration: in CSS first on its line or after { or ; or a quote (a style attribute, a string), any
# case; in SVG an attribute; in JavaScript an assignment to .fontFamily or setProperty("font-family", ...).
FONT_VALUE = re.compile(
    r"""(?:^|([{;"'`]))\s*(?:font-family|--[\w-]*font-family|font)\s*:\s*([^;}\n]+)""", re.M | re.I
)
FONT_ATTRIBUTE = re.compile(r"""\bfont-family\s*=\s*(["'])(.*?)\1""", re.I)
FONT_SCRIPT = re.compile(
    r"""\.fontFamily\s*=(?!=)\s*([^;\n]+)|setProperty\(\s*["']font-family["']\s*,\s*([^)\n]+)\)""", re.I
)
COURSE_VARIABLE = re.compile(r"var\(--course-(?:sans|mono)(?:,\s*[a-z-]+)?\)")
GENERIC = {
    "sans-serif", "serif", "monospace", "cursive", "fantasy", "system-ui", "ui-sans-serif", "ui-serif",
    "ui-monospace", "emoji", "math", "inherit", "initial", "unset",
}  # fmt: skip
SOURCES = ("course_lib", "course_tools", "slides", "notebooks")
SOURCE_FILES = (".css", ".j2", ".js", ".html", ".py", ".md")


def named_families(text: str) -> list[str]:
    """The families that ``text``'s font declarations name beyond the course's variables and the generic ones."""
    values = []
    for opener, value in FONT_VALUE.findall(text):
        if opener in ('"', "'", "`"):
            value = value.split(opener)[0]  # a style attribute or a string ends at its quote
        values.append(re.split(r"""["']\s*/?>""", value)[0])  # an attribute's end, its element's text after
    values += [value for _, value in FONT_ATTRIBUTE.findall(text)]
    values += [a or b for a, b in FONT_SCRIPT.findall(text)]
    named = []
    for value in values:
        rest = COURSE_VARIABLE.sub("", value.replace("!important", ""))
        named += [
            part.strip() for part in rest.split(",") if part.strip() and part.strip().lower() not in GENERIC
        ]
    return named


def test_no_source_of_the_course_names_a_font_of_the_machine():
    import subprocess

    from course_tools.core.config import CONFIG

    listed = subprocess.run(["git", "ls-files", *SOURCES], cwd=CONFIG.root, capture_output=True, text=True)
    files = [f for f in listed.stdout.split() if f.endswith(SOURCE_FILES)]
    assert len(files) > 100, f"`git ls-files {' '.join(SOURCES)}` in {CONFIG.root} listed {len(files)} files"
    found = {f: named_families((CONFIG.root / f).read_text(encoding="utf-8")) for f in files}
    assert {f: names for f, names in found.items() if names} == {}


@pytest.mark.parametrize(
    "text, named",
    [
        ("body { font-family: 'DejaVu Sans', var(--course-sans); }", ["'DejaVu Sans'"]),
        ('code { font-family: "Menlo", var(--course-mono) }', ['"Menlo"']),
        ("p { FONT-FAMILY: Arial }", ["Arial"]),
        ("p { font: 13px Helvetica }", ["13px Helvetica"]),
        ("--jp-code-font-family: Menlo, var(--course-mono);", ["Menlo"]),
        (
            "<p style=\"font-family: 'Liberation Sans', var(--course-sans)\">text, more</p>",
            ["'Liberation Sans'"],
        ),
        ('<p style="color: red; font-family: Menlo">text, more</p>', ["Menlo"]),
        ('<text font-family="DejaVu Serif">1</text>', ["DejaVu Serif"]),
        ("el.style.fontFamily = 'Menlo';", ["'Menlo'"]),
        ("el.style.setProperty('font-family', 'Menlo')", ["'Menlo'"]),
        ("code { font-family: var(--course-mono, monospace) !important; }", []),
        ('<p style="font-family: var(--course-sans)">text, more</p>', []),
        ("// the page's font: no picture", []),
        ("if (a.fontFamily == b.fontFamily) {}", []),
    ],
)
def test_the_font_check_sees_a_named_family(text, named):
    assert named_families(text) == named
