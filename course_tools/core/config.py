"""The one configuration of the build tools: where everything is, per language and per lesson.

Every tool of ``course_tools`` reads its paths from a :class:`Config` (``CONFIG`` is the
repository's own); tests build one on a temporary folder. The languages are those of
``course_lib.i18n.LANGUAGES``, the course's one list; what the tools need to know about each
language (``LANGUAGE_DATA``) is derived from ``course_lib.i18n.LANGUAGE_INFO``, so a new
language is data: one line there, its messages, its twins in the lesson sources.

    >>> CONFIG.lesson_names()[:2]
    ['00_start_here', '01_text_to_ids']
    >>> CONFIG.notebook("05_sinusoidal_encoding", "ru").relative_to(CONFIG.root).as_posix()
    'notebooks/ru/05_sinusoidal_encoding.ipynb'
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from course_lib.i18n import LANGUAGES, NAMES, PSEUDO, SCRIPTS, SOURCE_LANGUAGE, TRANSLATIONS

__all__ = [
    "LANGUAGES",
    "PSEUDO",
    "SOURCE_LANGUAGE",
    "TRANSLATIONS",
    "Language",
    "LANGUAGE_DATA",
    "LESSON_NAME",
    "RENAMED",
    "LAB_OFFLINE_OPTIONS",
    "Config",
    "CONFIG",
]


@dataclass(frozen=True)
class Language:
    """What the tools need to know about one of the course's languages.

    Attributes:
        name: the language's name in itself, as a link to it reads ("Русский").
        script: matches a letter of the language's script; prose in this language has one.
        readme: the README written in this language, relative to the repository root.
    """

    name: str
    script: re.Pattern
    readme: str


#: Derived from course_lib.i18n.LANGUAGE_INFO; the README of the source language is README.md,
#: each other language's README.<code>.md.
LANGUAGE_DATA: Mapping[str, Language] = MappingProxyType(
    {
        lang: Language(
            NAMES[lang],
            re.compile(f"[{SCRIPTS[lang]}]"),
            "README.md" if lang == SOURCE_LANGUAGE else f"README.{lang}.md",
        )
        for lang in LANGUAGES
    }
)

#: A lesson's name: two digits, its number, then words: ``05_sinusoidal_encoding``.
LESSON_NAME = re.compile(r"(\d\d)_[a-z0-9_]+")

#: Lessons renamed (renumbered) since students first copied them: old name -> new name.
#: ``make lab`` moves a student's untouched copy to the new name and keeps an edited one.
RENAMED: Mapping[str, str] = MappingProxyType(
    {
        # a lesson on subword tokens came in as lesson 2, after lesson 1
        "02_token_embeddings": "03_token_embeddings",
        "03_why_position": "04_why_position",
        "04_sinusoidal_encoding": "05_sinusoidal_encoding",
        "05_putting_it_together": "06_putting_it_together",
    }
)

#: JupyterLab options that keep the server from asking the internet anything: no update check,
#: no extension manager asking PyPI, no news feed (the feed's host is looked up as soon as the
#: page opens ``/lab/api/news``). ``make lab`` passes them, and so does the browser test.
LAB_OFFLINE_OPTIONS = (
    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    "--LabApp.extension_manager=readonly",
    "--LabApp.news_url=None",
)


@dataclass(frozen=True)
class Config:
    """Where the course's files live, below one repository root.

    Args:
        root: the repository root.
        renamed: old lesson name -> new lesson name (see ``RENAMED``).
    """

    root: Path
    renamed: Mapping[str, str] = field(default_factory=dict)

    # --- sources and notebooks

    @property
    def lessons_dir(self) -> Path:
        """The lesson sources, ``NN_name.md``, one per lesson."""
        return self.root / "notebooks"

    def sources(self) -> list[Path]:
        """Every lesson source, in lesson order: the one list of lessons."""
        return sorted(p for p in self.lessons_dir.glob("*.md") if LESSON_NAME.fullmatch(p.stem))

    def lesson_names(self) -> list[str]:
        """The lessons' names, ``["00_start_here", ...]``, in lesson order."""
        return [p.stem for p in self.sources()]

    def source(self, name: str) -> Path:
        return self.lessons_dir / f"{name}.md"

    def notebooks_dir(self, lang: str) -> Path:
        """The generated, executed notebooks of one language."""
        return self.lessons_dir / lang

    def notebook(self, name: str, lang: str) -> Path:
        return self.notebooks_dir(lang) / f"{name}.ipynb"

    def readme(self, lang: str) -> Path:
        return self.root / LANGUAGE_DATA[lang].readme

    # --- slides, the website and the students' workspace

    @property
    def slides_dir(self) -> Path:
        """Decks per language (``slides/<lang>/``), their assets, the template, the screenshots."""
        return self.root / "slides"

    @property
    def slides_template(self) -> Path:
        return self.slides_dir / "template"

    @property
    def site_dir(self) -> Path:
        """The website, one folder per language and a copy of the decks (built, git-ignored)."""
        return self.root / "site"

    @property
    def node_modules(self) -> Path:
        return self.root / "node_modules"

    @property
    def workspace(self) -> Path:
        """The students' own copies of the lessons (git-ignored)."""
        return self.root / "workspace"

    def relative(self, path: Path) -> str:
        """``path`` as written in messages: relative to the root when it is below it."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)


#: The repository's own configuration.
CONFIG = Config(root=Path(__file__).resolve().parents[2], renamed=RENAMED)
