"""The students' own copies of the lessons, which course updates never overwrite: what
``python -m course_tools.workspace`` (``make lab``) and each hub server's start (:mod:`.server`) run.

- a lesson not yet in the workspace is copied there;
- a lesson the student has not changed is replaced by the newer course version;
- a lesson the student has changed is kept as it is, and the newer course version is put
  beside it as ``NN_name.new.ipynb`` (``NN_name.new-2.ipynb`` when the student works in that
  one too, and so on), with a message saying so;
- a lesson renamed by the course (``RENAMED`` in the configuration) moves to its new name if
  the student never changed it; a changed copy stays under its old name beside the new lesson.

"Changed" means what a student changes: a cell's source, type or attachments (a picture pasted
into a markdown cell), or the number or order of the cells. Outputs, execution counts, widget
state and metadata (the kernel's name, ``language_info``, a cell's tags) are what running a lesson
and JupyterLab's autosave write: they alone never make a lesson the student's, so a lesson that was
only run still gets every update. The manifest (``workspace/.course-manifest.json``) records, for
every file the course wrote (the ``.new`` copies included), the hash of its cells
(:func:`fingerprint`; of its bytes for a file that is not a notebook). Nothing is ever written through a symbolic link (a link in
the workspace is the student's), nothing outside the workspace is touched, and every file is
written whole (a temporary file, then a rename).

:func:`trust` signs, for this user, the notebooks that are the course's as the course wrote them,
and no other: a notebook a student saved or was sent stays untrusted, so its saved JavaScript does
not run when it opens. :func:`write_lab_settings` writes JupyterLab's interface language into a
settings folder, never through a link (:func:`write_no_follow`). :func:`update` does what the
command line asks, in that order, and returns what to tell the student.

Whatever is wrong (an unreadable manifest: corrupt, nested too deeply, a FIFO; a folder where
a lesson should be, a file where a language's folder should be), the student is told in their
language, that lesson is skipped and JupyterLab still starts. With an unreadable manifest every
file already there counts as the student's, unless its cells are those of the course's current
version. A lock on ``workspace/.course-lock`` (``filelock``) keeps two ``make lab`` started at once
from updating the same lessons twice.

This module imports neither torch nor any notebook library (nbformat only inside :func:`trust`,
after the update): ``make lab`` greets a student before anything heavy is loaded.
"""

import contextlib
import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from filelock import FileLock

from course_lib.i18n import LANGUAGE_INFO

from ..core.config import CONFIG, LANGUAGES, Config
from ..core.files import write_all
from .messages import WORKSPACE as TEXT

__all__ = [
    "MANIFEST",
    "LOCK",
    "TEXT",
    "LAB_LOCALES",
    "fingerprint",
    "Manifest",
    "read_manifest",
    "save_manifest",
    "locked",
    "sync",
    "Trust",
    "trust",
    "write_no_follow",
    "write_lab_settings",
    "update",
]

MANIFEST = ".course-manifest.json"
LOCK = ".course-lock"
# 3: the hashes of the files the course wrote are fingerprints (their cells); 2: hashes of their bytes
MANIFEST_VERSION = 3
# the JupyterLab locale of each course language (the language packs' names); the file that sets it
LAB_LOCALES = {lang: info.lab_locale for lang, info in LANGUAGE_INFO.items()}
LAB_LOCALE_FILE = "@jupyterlab/translation-extension/plugin.jupyterlab-settings"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fingerprint(data: bytes) -> str:
    """What a student edits in a notebook: each cell's type, source and attachments, in order.

    Returns ``"cells:<sha256>"``.

    Outputs, execution counts, cell ids and every metadata are left out. A cell's attachments (the
    pictures pasted into a markdown cell) count whatever its source says: a picture replaced under
    the same name is an edit; none and an empty ``attachments`` are the same, and an attachment's data
    counts joined (nbformat allows a string or a list of lines). A cell without attachments counts as
    before attachments did, so the manifests written then still match. Data that is not a notebook
    (not JSON, no list of cells, nested too deeply to read) is fingerprinted by its bytes.
    """
    try:
        kept = [_cell(c) for c in json.loads(data)["cells"]]
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):  # not JSON, not a notebook
        return digest(data)
    return "cells:" + digest(json.dumps(kept, ensure_ascii=False).encode("utf-8"))


def _cell(cell: dict) -> list:
    """[type, source] of a cell, and its attachments sorted ([name, [[mime type, data], ...]], ...) if any."""
    kept = [cell["cell_type"], _text(cell["source"])]
    attachments = cell.get("attachments") or {}
    if attachments:
        kept.append(
            sorted(
                [name, sorted([mime, _text(value)] for mime, value in bundle.items())]
                for name, bundle in attachments.items()
            )
        )
    return kept


def _text(value) -> str:
    """A notebook's multi-line string, saved as one string or as a list of lines."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(value)
    raise TypeError(f"expected a string or a list of strings, got {type(value).__name__}")


# ----------------------------------------------------------------------------- manifest


@dataclass
class Manifest:
    """What the course knows about a workspace.

    Attributes:
        written: workspace path -> fingerprint of what the course wrote there (lessons and ``.new``
            copies; a version 2 manifest has hashes of the bytes). A file whose fingerprint (or
            bytes) still match is the course's; any other file is the student's.
        offered: lesson path -> hash of the latest course version handled for it (copied, updated,
            or offered as a ``.new`` copy), so that each version is announced once.
        signatures_reset: whether :func:`trust` has once removed the signatures of every notebook in
            the lessons' folders that is not the course's (``make lab`` signed them all before).
    """

    written: dict[str, str] = field(default_factory=dict)
    offered: dict[str, str] = field(default_factory=dict)
    signatures_reset: bool = False

    def to_json(self) -> str:
        data = {"version": MANIFEST_VERSION, "written": self.written, "offered": self.offered}
        if self.signatures_reset:
            data["signatures_reset"] = True
        return json.dumps(data, indent=1, sort_keys=True) + "\n"


def read_manifest(workspace: Path) -> tuple[Manifest, str | None]:
    """The workspace's manifest, and why it could not be read (None when it could).

    An unreadable manifest gives an empty one: then no file counts as the course's, and
    nothing already in the workspace is overwritten. The first manifests (a flat
    ``{path: hash}``) are read as they were meant.
    """
    path = workspace / MANIFEST
    if not path.exists() and not path.is_symlink():
        return Manifest(), None
    try:
        data = json.loads(_read_regular_file(path).decode("utf-8"))
        if not isinstance(data, dict):
            raise ValueError(f"expected a JSON object, got {type(data).__name__}")
        if "version" not in data:  # version 1: the hash of the course version last seen per lesson
            written, offered = dict(data), dict(data)
        else:
            written, offered = data.get("written"), data.get("offered")
        for table in (written, offered):
            if not isinstance(table, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in table.items()
            ):
                raise ValueError("expected {path: hash} tables")
    except (OSError, UnicodeDecodeError, ValueError) as error:  # JSONDecodeError is a ValueError
        return Manifest(), str(error) or type(error).__name__
    except RecursionError:
        return Manifest(), "it is nested too deeply to be the course's list"
    return Manifest(written, offered, data.get("signatures_reset") is True), None


def _read_regular_file(path: Path) -> bytes:
    """The bytes of ``path``; ValueError if it is a link, a FIFO, a device or anything but a file.

    Opened without following a link and without blocking (a FIFO would wait for a writer
    forever), and read only once ``fstat`` says it is a regular file.
    """
    if path.is_symlink():
        raise ValueError("it is a link")
    flags = (
        os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    )
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("it is not a regular file")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)


def save_manifest(workspace: Path, manifest: Manifest) -> None:
    write_all({workspace / MANIFEST: manifest.to_json()})


def locked(workspace: Path) -> FileLock:
    """The workspace's lock, held in a ``with``: one update at a time, across processes (filelock)."""
    return FileLock(workspace / LOCK)


# ----------------------------------------------------------------------------- sync


@dataclass
class _Sync:
    """One update of one workspace: the manifest it keeps, the messages it says."""

    workspace: Path
    config: Config
    lang: str
    manifest: Manifest
    said: list[str] = field(default_factory=list)

    def say(self, key: str, **values) -> None:
        self.said.append(TEXT(key, self.lang, **values))

    def usable_folder(self, lesson_lang: str) -> bool:
        """Whether the workspace's folder for ``lesson_lang`` may hold lessons (it is created if missing)."""
        folder = self.workspace / lesson_lang
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            return False
        folder.mkdir(exist_ok=True)
        return True

    def write(self, rel: str, data: bytes) -> None:
        """Write a file the course owns from now on, and record it."""
        write_all({self.workspace / rel: data})
        self.manifest.written[rel] = fingerprint(data)

    def is_course_copy(self, rel: str) -> bool:
        """Whether ``rel`` is a plain file the student has not edited since the course wrote it."""
        path = self.workspace / rel
        if not path.is_file() or path.is_symlink() or rel not in self.manifest.written:
            return False
        data = path.read_bytes()
        return self.manifest.written[rel] in (fingerprint(data), digest(data))  # digest: version 2

    def offer(self, rel: str, data: bytes) -> str:
        """Put the course's version of lesson ``rel`` beside the student's copy; return its path."""
        stem = rel.removesuffix(".ipynb")
        n = 1
        while True:
            candidate = f"{stem}.new.ipynb" if n == 1 else f"{stem}.new-{n}.ipynb"
            path = self.workspace / candidate
            n += 1
            if path.is_symlink() or (path.exists() and not path.is_file()):
                continue
            if path.exists() and fingerprint(path.read_bytes()) == fingerprint(data):
                self.manifest.written[candidate] = fingerprint(data)
                return candidate
            if not path.exists() or self.is_course_copy(candidate):
                self.write(candidate, data)
                return candidate
            # the student works in this copy: never overwrite it

    def lesson(self, rel: str, course_file: Path) -> None:
        """Bring one lesson up to date."""
        mine = self.workspace / rel
        data = course_file.read_bytes()
        shipped = digest(data)
        if mine.is_symlink():
            if self.manifest.offered.get(rel) != shipped:
                self.say("link_kept", path=rel, new=self.offer(rel, data))
                self.manifest.offered[rel] = shipped
            return
        if mine.exists() and not mine.is_file():
            self.say("not_a_file", path=rel)
            return
        if not mine.exists():
            self.write(rel, data)
            self.say("new", path=rel)
        elif digest(mine.read_bytes()) == shipped:
            self.manifest.written[rel] = fingerprint(
                data
            )  # equal to the course's version: the course's again
        elif self.manifest.offered.get(rel) == shipped:
            return  # this version was already handled: kept and offered beside
        elif self.is_course_copy(rel):
            self.write(rel, data)
            self.say("updated", path=rel)
        elif fingerprint(mine.read_bytes()) == fingerprint(data):
            self.manifest.written[rel] = fingerprint(data)  # this version's cells, run: the course's again
        else:
            self.say("kept", path=rel, new=self.offer(rel, data))
        self.manifest.offered[rel] = shipped

    def rename(self, old: str, new: str, lesson_lang: str) -> None:
        """Lesson ``old`` is now ``new``: move an untouched copy, keep an edited one."""
        old_rel, new_rel = f"{lesson_lang}/{old}.ipynb", f"{lesson_lang}/{new}.ipynb"
        old_path, new_path = self.workspace / old_rel, self.workspace / new_rel
        course_file = self.config.notebook(new, lesson_lang)
        if not (old_path.exists() or old_path.is_symlink()) or not course_file.is_file():
            return
        if new_path.exists() or new_path.is_symlink():
            return  # done on an earlier start, or the student made that file: the usual update decides
        untouched = self.is_course_copy(old_rel)
        data = course_file.read_bytes()
        self.write(new_rel, data)
        self.manifest.offered[new_rel] = digest(data)
        if untouched:
            old_path.unlink()
            self.manifest.written.pop(old_rel, None)
            self.manifest.offered.pop(old_rel, None)
            self.say("renamed_moved", old=old_rel, new=new_rel)
        else:
            self.say("renamed_kept", old=old_rel, new=new_rel)


def sync(workspace: Path, config: Config = CONFIG, lang: str = "en") -> list[str]:
    """Bring ``workspace`` up to date with the course's notebooks; return what was done, in ``lang``."""
    if (workspace.is_symlink() and not workspace.exists()) or (workspace.exists() and not workspace.is_dir()):
        return [TEXT("not_a_folder", lang, path=workspace)]
    workspace.mkdir(parents=True, exist_ok=True)
    with locked(workspace):
        manifest, problem = read_manifest(workspace)
        run = _Sync(workspace, config, lang, manifest)
        if problem:
            run.say("manifest_unreadable", path=MANIFEST, error=problem)
        usable = {}
        for lesson_lang in LANGUAGES:
            usable[lesson_lang] = run.usable_folder(lesson_lang)
            if not usable[lesson_lang]:
                run.say("not_a_folder", path=f"{lesson_lang}/")
        for old, new in config.renamed.items():
            for lesson_lang in LANGUAGES:
                if usable[lesson_lang]:
                    _guarded(
                        run,
                        f"{lesson_lang}/{old}.ipynb",
                        lambda o=old, n=new, ll=lesson_lang: run.rename(o, n, ll),
                    )
        for lesson_lang in LANGUAGES:
            if not usable[lesson_lang]:
                continue
            for course_file in sorted(config.notebooks_dir(lesson_lang).glob("*.ipynb")):
                rel = f"{lesson_lang}/{course_file.name}"
                _guarded(run, rel, lambda r=rel, f=course_file: run.lesson(r, f))
        save_manifest(workspace, run.manifest)
    return run.said


@dataclass
class Trust:
    """What :func:`trust` did, as workspace paths: the notebooks it signed, those it left unsigned, and
    those whose signature it removed if they had one (once, ``Manifest.signatures_reset``)."""

    signed: list[str] = field(default_factory=list)
    untrusted: list[str] = field(default_factory=list)
    unsigned: list[str] = field(default_factory=list)


def trust(workspace: Path, config: Config = CONFIG, notary=None) -> Trust:
    """Sign, for this user, the notebooks of ``workspace`` that are the course's as the course wrote them.

    A notebook is signed only when all of these hold: it is a plain file (never a link, which is not
    followed) in a lesson folder (``<lang>/*.ipynb``, the folder not a link); the manifest lists it as a
    file the course wrote and still holds as its own; and its bytes are those of a notebook the course
    ships now (``config.notebooks_dir``). The manifest's fingerprint alone is not enough: it leaves out
    outputs and widget state, which a student or whoever sent the file may have filled with JavaScript.
    A lesson the student ran or edited is not signed here: JupyterLab signs it itself when the student
    runs it and saves. Nothing else is signed: a notebook from a classmate stays untrusted, so its saved
    JavaScript and HTML do not run when it opens. What is signed is what was read and checked, once
    (never the file read again).

    ``make lab`` used to sign every notebook in the lessons' folders: the first time this runs in a
    workspace (``Manifest.signatures_reset``), the signatures of the notebooks there that are not the
    course's are removed, once (a notebook the student runs and saves again is signed again by
    JupyterLab). ``notary``: an ``nbformat.sign.NotebookNotary`` (default: this user's, in Jupyter's
    data folder); it is closed here.
    """
    from jupyter_core.paths import jupyter_data_dir
    from nbformat import reads
    from nbformat.sign import NotebookNotary

    done = Trust()
    # a link to a folder is a workspace, as sync() takes it (a linked lessons' folder is not)
    if not workspace.is_dir():
        return done
    shipped = {
        digest(path.read_bytes())
        for lesson_lang in LANGUAGES
        for path in sorted(config.notebooks_dir(lesson_lang).glob("*.ipynb"))
        if path.is_file()
    }
    if notary is None:  # a new user's Jupyter data folder (its secret, its database) may not exist yet
        data_dir = jupyter_data_dir()
        os.makedirs(data_dir, mode=0o700, exist_ok=True)
        notary = NotebookNotary(data_dir=data_dir)
    with locked(workspace), notary:
        manifest, problem = read_manifest(workspace)
        course, other = [], []
        for lesson_lang in LANGUAGES:
            folder = workspace / lesson_lang
            if folder.is_symlink() or not folder.is_dir():
                continue
            for path in sorted(folder.glob("*.ipynb")):
                rel = f"{lesson_lang}/{path.name}"
                try:
                    data = _read_regular_file(path)  # a link or a FIFO: ValueError, never followed
                except (OSError, ValueError):
                    done.untrusted.append(rel)
                    continue
                recorded = manifest.written.get(rel)
                if recorded in (fingerprint(data), digest(data)) and digest(data) in shipped:
                    course.append((rel, data))
                else:
                    other.append((rel, data))
                    done.untrusted.append(rel)
        if not manifest.signatures_reset:
            for rel, data in other:
                with contextlib.suppress(Exception):  # not a notebook: nothing to unsign
                    notary.unsign(reads(data.decode("utf-8"), as_version=4))
                    done.unsigned.append(rel)
        for rel, data in course:
            notary.sign(reads(data.decode("utf-8"), as_version=4))
            done.signed.append(rel)
        # once for good: not when the manifest was unreadable, nor when the database fell back to memory
        persistent = getattr(notary.store, "db_file", ":memory:") != ":memory:"  # the store's fallback too
        if not manifest.signatures_reset and not problem and persistent:
            manifest.signatures_reset = True
            save_manifest(workspace, manifest)
    return done


def write_no_follow(root: Path, rel: str, data: bytes) -> None:
    """Write ``root/rel`` whole, making its folders, without following a link below ``root``.

    Each folder is opened with ``O_NOFOLLOW`` relative to the one above it (so a link swapped
    in on the way is refused, not followed); the file is written to a new temporary file there
    and renamed over the old one, so a link in its place is replaced, never written through.
    Raises OSError (``ELOOP`` or ``ENOTDIR`` for a link) and then writes nothing.
    """
    *folders, name = PurePosixPath(rel).parts
    directory, no_follow = getattr(os, "O_DIRECTORY", 0), getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(root, os.O_RDONLY | directory)
    try:
        for folder in folders:
            with contextlib.suppress(FileExistsError):
                os.mkdir(folder, 0o755, dir_fd=fd)
            inner = os.open(folder, os.O_RDONLY | directory | no_follow, dir_fd=fd)
            os.close(fd)
            fd = inner
        tmp = f".{name}.{os.getpid()}.tmp"
        out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | no_follow, 0o644, dir_fd=fd)
        try:
            try:
                os.write(out, data)
                os.fsync(out)
            finally:
                os.close(out)
            os.replace(tmp, name, src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            os.unlink(tmp, dir_fd=fd)
            raise
    finally:
        os.close(fd)


def write_lab_settings(settings: Path, lang: str) -> None:
    """Set JupyterLab's interface language to ``lang`` in the settings folder ``settings``
    (``JUPYTERLAB_SETTINGS_DIR``), writing nothing through a link (OSError if one is in the way)."""
    data = json.dumps({"locale": LAB_LOCALES[lang]}).encode("utf-8") + b"\n"
    write_no_follow(settings.parent, f"{settings.name}/{LAB_LOCALE_FILE}", data)


def _guarded(run: _Sync, rel: str, step) -> None:
    """Run one lesson's step; a file that cannot be written skips that lesson only."""
    try:
        step()
    except OSError as error:
        run.say("cannot_write", path=rel, error=error.strerror or error)


def update(
    workspace: Path,
    lang: str,
    config: Config = CONFIG,
    trust_lessons: bool = False,
    lab_settings: Path | None = None,
) -> list[str]:
    """Sync ``workspace`` with the course, then (``trust_lessons``) trust its lessons and (``lab_settings``)
    set JupyterLab's interface to ``lang`` there; what to tell the student, in ``lang``, "ready" last.
    Nothing here stops JupyterLab from starting: every failure is a line of the answer."""
    try:
        said = sync(workspace, config, lang)
    except OSError as error:  # the workspace itself cannot be written: JupyterLab starts anyway
        said = [TEXT("failed", lang, error=error)]
    if trust_lessons:
        try:
            trust(workspace, config)
        except Exception as error:  # the signatures' database: the lessons open untrusted, JupyterLab starts
            said.append(TEXT("trust_failed", lang, error=error))
    if lab_settings is not None:
        try:
            write_lab_settings(lab_settings, lang)
        except OSError as error:  # a link in the way: JupyterLab starts in English
            said.append(TEXT("settings_failed", lang, path=lab_settings, error=error.strerror or error))
    return [*said, TEXT("ready", lang, root=workspace)]
