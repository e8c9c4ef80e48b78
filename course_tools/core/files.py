"""Writing files so that a reader never sees half of one, and a build writes all or nothing;
copying the pinned npm packages' files that a build ships.

``course_lib.files.write_atomic`` writes a temporary file next to the target and renames it
into place (``os.replace`` is atomic on one file system). ``write_all`` does that for many
files, creating their folders: every temporary file is written first, and only when all of them are complete are they
renamed into place, so an error while producing the outputs leaves the old ones untouched.
A folder where one of the files should go (or a file where one of their folders should be) is
found before anything is written (:func:`blocked`: builds ask it first, to say so before they
run anything), and a rename that fails still leaves no temporary file behind.
"""

import os
import shutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from course_lib.files import temporary_sibling

__all__ = ["write_all", "blocked", "missing_sources", "copy_sources"]


def blocked(paths: Iterable[Path], label: Callable[[Path], str] = str) -> list[str]:
    """Why a file cannot be renamed onto each of ``paths`` that cannot take one (``label`` names the paths).

    A folder in its place (a link is fine: the rename replaces the link), or a file where one of
    its folders should be.
    """
    problems = []
    for path in paths:
        if path.is_dir() and not path.is_symlink():
            problems.append(f"{label(path)} is a folder, not a file: move it away")
            continue
        parent = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
        if parent is not None:
            problems.append(f"{label(path)} cannot be written: {label(parent)} is a file, not a folder")
    return problems


def write_all(files: Mapping[Path, bytes | str]) -> None:
    """Write every file, or, if writing any of them fails, none of them.

    FileExistsError (nothing written) when :func:`blocked` finds a folder in the way.
    """
    problems = blocked(files)
    if problems:
        raise FileExistsError("\n".join(problems + ["nothing was written"]))
    staged: list[tuple[Path, Path]] = []
    try:
        for path, data in files.items():
            raw = data.encode("utf-8") if isinstance(data, str) else data
            path.parent.mkdir(parents=True, exist_ok=True)
            staged.append((temporary_sibling(path, raw), path))
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    for done, (tmp, path) in enumerate(staged):
        try:
            os.replace(tmp, path)
        except BaseException:
            for left, _ in staged[done:]:
                left.unlink(missing_ok=True)
            raise


def missing_sources(root: Path, files: Sequence[tuple[str, str]]) -> list[str]:
    """The sources of ``(source, target)`` pairs that ``root`` (e.g. node_modules/) lacks."""
    return [src for src, _ in files if not (root / src).exists()]


def copy_sources(root: Path, files: Sequence[tuple[str, str]], dest: Path, ignore=None) -> None:
    """Copy each ``root/source`` to ``dest/target``: a folder with its tree (less ``ignore``), a file as it is."""
    for src, target in files:
        src, target = root / src, dest / target
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, target, ignore=ignore)
        else:
            shutil.copy2(src, target)
