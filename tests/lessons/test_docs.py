"""The documents by reader: every relative link resolves, and the READMEs stay a five-minute read.

README.md and README.ru.md are for a newcomer (what the course is, the two commands, the lessons, where to
go next); docs/INSTRUCTORS*.md for teaching, docs/PACKAGE*.md for the package, docs/MAINTAINERS.md and
CONTRIBUTING.md for changing the course. A link between them names a file, and often a heading: both must
exist, or a reader sent there finds nothing.
"""

import re
import unicodedata
from pathlib import Path

import pytest

from course_tools.core.config import CONFIG

ROOT = CONFIG.root
DOCUMENTS = sorted(
    [*ROOT.glob("README*.md"), ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")],
    key=lambda p: p.relative_to(ROOT).as_posix(),
)
# a README a newcomer reads in five minutes (the Russian one counts its bytes too: two a letter)
README_MAX_BYTES = 15_000

LINK = re.compile(r"\]\(([^)\s]+)\)|<img[^>]*\bsrc=\"([^\"]+)\"|<a[^>]*\bhref=\"([^\"]+)\"")
FENCE = re.compile(r"^(```|~~~)")


def prose(text: str) -> str:
    """``text`` without its fenced code blocks and inline code, where brackets are not links."""
    lines, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            inside = not inside
            continue
        lines.append("" if inside else re.sub(r"`[^`]*`", "", line))
    return "\n".join(lines)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`", "", heading.strip()).lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for line in prose(path.read_text(encoding="utf-8")).splitlines():
        heading = re.match(r"#{1,6} (.+)", line)
        if heading:
            base = slug(heading.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(path: Path) -> list[str]:
    text = prose(path.read_text(encoding="utf-8"))
    return [next(g for g in m.groups() if g) for m in LINK.finditer(text)]


def broken(path: Path, root: Path = ROOT) -> list[str]:
    """Each relative link of ``path`` whose file, or heading in that file, does not exist."""
    problems = []
    for target in links(path):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...: not ours to check offline
            continue
        file, _, anchor = target.partition("#")
        where = (path.parent / file).resolve() if file else path
        if not where.exists():
            problems.append(
                f"{target}: no file {where.relative_to(root) if where.is_relative_to(root) else where}"
            )
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            problems.append(f"{target}: no heading with the anchor #{anchor} in {where.relative_to(root)}")
    return problems


def test_the_documents_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in DOCUMENTS}
    assert {"README.md", "README.ru.md", "CONTRIBUTING.md", "docs/INSTRUCTORS.md", "docs/PACKAGE.md"} <= names
    assert all(p.is_file() for p in DOCUMENTS)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_points_to_a_file_and_heading_that_exist(path):
    assert broken(path) == []


def test_the_link_check_can_fail(tmp_path):
    (tmp_path / "a.md").write_text("# Title\n\n## Section two\n", encoding="utf-8")
    doc = tmp_path / "b.md"
    doc.write_text(
        "[ok](a.md#section-two) [gone](missing.md) [no heading](a.md#section-three) "
        '<img src="nothing.png"> `[code](not-a-link.md)`\n```\n[fenced](nor-this.md)\n```\n',
        encoding="utf-8",
    )
    found = [p.split(":")[0] for p in broken(doc, root=tmp_path)]
    assert found == ["missing.md", "a.md#section-three", "nothing.png"]


def test_headings_become_githubs_anchors():
    assert slug("5. Run a class on JupyterHub") == "5-run-a-class-on-jupyterhub"
    assert slug("`make test`, stage by stage") == "make-test-stage-by-stage"
    assert slug("Группа на JupyterHub") == "группа-на-jupyterhub"


@pytest.mark.parametrize("name", ["README.md", "README.ru.md"])
def test_each_readme_is_a_five_minute_read(name):
    size = len((ROOT / name).read_bytes())
    assert size <= README_MAX_BYTES, f"{name} is {size} bytes: move what is not for a newcomer into docs/"
