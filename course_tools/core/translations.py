"""The messages' gettext catalogues: extract the English, update and compile each language's .po.

The English of every message is in the code (:class:`course_lib.i18n.Messages`); each other
language's text is in ``<package>/locale/<lang>/LC_MESSAGES/<package>.po`` for the packages
``course_lib`` and ``course_tools``, an entry per message: msgctxt ``"area.key"``, msgid the English,
msgstr the translation. course_lib's catalogue also holds the comments of the code a student reads
(the exercises' templates and solutions, the functions a lesson prints: :mod:`course_lib.code_comments`),
an entry per comment in words: msgctxt ``"code:<its file>"``, msgid the comment's English. Commands::

    python -m course_tools.translations pot DIR     # the templates, DIR/<package>.pot, for a translator's tool
    python -m course_tools.translations update      # each .po follows the English: new entries empty,
                                                    # changed English fuzzy (with the old as #| msgid),
                                                    # removed messages obsolete (#~)
    python -m course_tools.translations init CODE   # the .po files of a new language, every msgstr empty
    python -m course_tools.translations compile     # the .mo files (make does it: .mo are not committed)
    python -m course_tools.translations check       # what is missing, stale or obsolete; exit 1 if anything

``tests/unit/test_messages.py`` fails on the same problems, by name. The command is
:mod:`course_tools.translations`.
"""

import difflib
import hashlib
import importlib
import io
import pkgutil
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from course_lib import code_comments, i18n

__all__ = ["PACKAGES", "all_catalogues", "template", "update", "compile_all", "init", "problems"]

#: the packages whose modules hold messages, each with its own catalogues (its locale/ folder)
PACKAGES = ("course_lib", "course_tools")


def all_catalogues() -> dict[str, i18n.Messages]:
    """Every catalogue of the packages (importing each module registers its own)."""
    for name in PACKAGES:
        package = importlib.import_module(name)
        for info in pkgutil.walk_packages(package.__path__, f"{name}."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)
    return {area: c for area, c in i18n.catalogues().items() if c.package in PACKAGES}


#: the comment at the top of each .po
HEADER = (
    "# The messages of {package} (course_tools/translations.py): msgctxt is the message's key in the\n"
    "# code, msgid its English, msgstr the translation; a changed English makes its translation fuzzy."
)


def template(package: str) -> Catalog:
    """The English of ``package``'s messages as a gettext template: msgctxt ``area.key``, msgid the English;
    then, in course_lib's, the comments of its registered code: msgctxt ``code:<file>``, msgid the comment."""
    pot = Catalog(domain=package, project=package, fuzzy=False)
    catalogues = sorted(
        (c for c in all_catalogues().values() if c.package == package), key=lambda c: c.module
    )
    for catalogue in catalogues:
        location = (catalogue.module.replace(".", "/") + ".py", None)
        for key, english in catalogue.english.items():
            pot.add(english, context=catalogue.context(key), locations=[location])
    if package == code_comments.PACKAGE:
        for where, codes in sorted(code_comments.registered().items()):
            path = f"{package}/{where.removeprefix('code:')}"
            for code in codes:
                for comment in code_comments.prose(code):
                    note = [] if comment.own_line else ["a comment after code: its translation is one line"]
                    if pot.get(comment.text, context=where) is not None:
                        continue  # the same comment twice in one file: one translation
                    # the file, not the line: code moved in it leaves the catalogue as it is (with line
                    # numbers, a line added above a comment made every .po "not follow the English")
                    pot.add(comment.text, context=where, locations=[(path, None)], auto_comments=note)
    return pot


def po_files(package: str) -> list[Path]:
    """The .po files of ``package``, one per language that translates the English."""
    folder = i18n.locale_dir(package)
    return sorted(folder.glob(f"*/LC_MESSAGES/{package}.po")) if folder else []


def read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=path.parent.parent.name, domain=path.stem)


def write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    write_po(out, catalog, width=0, include_previous=True, sort_output=False)
    path.write_bytes(out.getvalue())


def merged(old: Catalog, pot: Catalog, lang: str) -> Catalog:
    """``old`` following the template ``pot``: its order, its English; a changed English makes the
    translation fuzzy (the old English kept as its previous msgid), a message gone makes it obsolete."""
    new = Catalog(
        locale=lang,
        domain=pot.domain,
        project=pot.project,
        header_comment=HEADER.format(package=pot.domain),
        fuzzy=False,
        # the dates of the file, not of this run: an update that changes no message changes no byte
        creation_date=old.creation_date,
        revision_date=old.revision_date,
        last_translator=old.last_translator,
        language_team=old.language_team,
    )
    by_context = {m.context: m for m in old if m.id and m.context and not _is_code(m.context)}
    # the code's comments share one msgctxt per file: an entry is its context and its English
    code = {(m.context, m.id): m for m in old if m.id and m.context and _is_code(m.context)}
    unmatched = []
    for message in pot:
        if not message.id:
            continue
        if _is_code(message.context):
            before = code.pop((message.context, message.id), None)
        else:
            before = by_context.pop(message.context, None)
        kept = new.add(
            message.id,
            context=message.context,
            locations=message.locations,
            auto_comments=message.auto_comments,
        )
        if before is not None and before.string:
            kept.string = before.string
            if before.id != message.id or before.fuzzy:
                kept.flags.add("fuzzy")
                kept.previous_id = before.previous_id if before.id == message.id else [before.id]
        elif before is None and _is_code(message.context):
            unmatched.append(kept)
    # a comment whose English changed: the translation of the closest comment gone from its file, fuzzy
    for kept in unmatched:
        gone = {m.id: m for (context, _), m in code.items() if context == kept.context and m.string}
        closest = difflib.get_close_matches(kept.id, list(gone), n=1, cutoff=0.6)
        if closest:
            before = code.pop((kept.context, closest[0]))
            kept.string = before.string
            kept.flags.add("fuzzy")
            kept.previous_id = [before.id]
    for context, message in by_context.items():
        new.obsolete[(message.id, context)] = message
    for (context, msgid), message in code.items():
        new.obsolete[(msgid, context)] = message
    return new


def _is_code(context: str | None) -> bool:
    """An entry of a code comment (:mod:`course_lib.code_comments`), not of a message."""
    return bool(context) and context.startswith("code:")


def update(packages=PACKAGES) -> list[Path]:
    """Every .po of ``packages`` made to follow the English (:func:`merged`); the files changed."""
    changed = []
    for package in packages:
        pot = template(package)
        for path in po_files(package):
            before = path.read_bytes()
            write(path, merged(read(path), pot, path.parent.parent.name))
            if path.read_bytes() != before:
                changed.append(path)
    return changed


def init(lang: str, packages=PACKAGES) -> list[Path]:
    """The .po files of a new language ``lang``, every message's msgstr empty, for a translator."""
    written = []
    for package in packages:
        folder = i18n.locale_dir(package)
        if folder is None:
            raise ValueError(f"package {package!r} has no locale folder")
        path = folder / lang / "LC_MESSAGES" / f"{package}.po"
        if path.exists():
            raise ValueError(f"{path} exists already: `update` brings it up to date")
        write(path, merged(Catalog(), template(package), lang))
        written.append(path)
    return written


def compile_po(path: Path) -> Path:
    """``path`` compiled into the .mo beside it, fuzzy entries left out, the .po's SHA-256 recorded in it."""
    catalog = read(path)
    catalog.add(
        i18n.SOURCE_HASH[1], hashlib.sha256(path.read_bytes()).hexdigest(), context=i18n.SOURCE_HASH[0]
    )
    mo = path.with_suffix(".mo")
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    if not mo.exists() or mo.read_bytes() != out.getvalue():
        mo.write_bytes(out.getvalue())
    return mo


def compile_all(packages=PACKAGES) -> list[Path]:
    return [compile_po(path) for package in packages for path in po_files(package)]


def problems() -> list[str]:
    """Every catalogue's problems (:meth:`course_lib.i18n.Messages.problems`) and the code comments'
    (:func:`course_lib.code_comments.problems`): missing, stale, obsolete."""
    found = []
    for _area, catalogue in sorted(all_catalogues().items()):
        found += catalogue.problems()
    return found + code_comments.problems()
