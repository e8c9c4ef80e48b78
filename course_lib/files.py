"""Writing a file so that a reader never sees half of it: :func:`write_atomic`.

The data goes to a new temporary file beside the target, is flushed to the disk, and the
temporary file is renamed over the target (``os.replace`` is atomic on one file system): an
interrupted write leaves the old file whole and no temporary file behind. ``BPETokenizer.save``
writes with it, and so do the course's build tools (``course_tools.core.files.write_all`` stages
many files with :func:`temporary_sibling` and renames them only when all are written).
"""

import os
import secrets
from pathlib import Path

__all__ = ["temporary_sibling", "write_atomic"]


def temporary_sibling(path: Path, data: bytes) -> Path:
    """Write ``data`` to a new temporary file in ``path``'s folder and return its path.

    The file gets ``path``'s permissions if ``path`` exists, else those the umask gives any new
    file (``tempfile.mkstemp`` would make it private to its owner).
    """
    # a fresh name, created here (O_EXCL: never an existing file, never through a link)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as out:
            if path.is_file():
                os.chmod(tmp, path.stat().st_mode & 0o777)
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def write_atomic(path: str | os.PathLike, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` (a str is written as UTF-8) in one step."""
    path = Path(path)
    tmp = temporary_sibling(path, data.encode("utf-8") if isinstance(data, str) else data)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
