"""Writes the pack's catalogues: the official pack's, with the course's strings (po/DOMAIN.po) added.

JupyterLab reads a pack twice: its browser side loads ``locale/ru_RU/LC_MESSAGES/DOMAIN.json``
(gettext messages as JSON, a context joined to its message by U+0004), its server side translates
the settings' schemas (menu labels among them) with ``DOMAIN.mo``. Both get the same changes:

- ``po/DOMAIN.po``: strings the official pack lacks. One it already translates is an error here: when a
  newer pack translates it, the course's copy goes.
- ``po/replaced/DOMAIN.po``: strings the official pack translates, translated again (the course's terms:
  «ноутбук», never «блокнот»). One the official pack lacks is an error (it belongs in ``po/DOMAIN.po``),
  and so is one whose translation is the official pack's own (nothing to replace).
"""

import json
import shutil
from pathlib import Path

from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

MESSAGES = Path("locale", "ru_RU", "LC_MESSAGES")
CONTEXT_GLUE = "\x04"


def key(message) -> str:
    msgid = message.id[0] if message.pluralizable else message.id
    return f"{message.context}{CONTEXT_GLUE}{msgid}" if message.context else msgid


def additions(po: Path) -> list:
    """The messages of ``po``, each with a translation (else ValueError naming it)."""
    with po.open("rb") as f:
        catalog = read_po(f)
    messages = [m for m in catalog if m.id]
    for m in messages:
        strings = m.string if m.pluralizable else (m.string,)
        if not all(strings):
            raise ValueError(f"{po.name}: {key(m)!r} has no translation")
    return messages


def translation(message) -> list[str]:
    return list(message.string) if message.pluralizable else [message.string]


def write(official: Path, po_dir: Path, out: Path) -> list[str]:
    """Copies the official pack's ``locale/`` into ``out``, adds every po_dir/DOMAIN.po to DOMAIN's
    catalogues and replaces there the translations of po_dir/replaced/DOMAIN.po; returns the domains
    changed."""
    shutil.copytree(official / "locale", out / "locale", dirs_exist_ok=True)
    changes: dict[str, list[tuple[Path, object, bool]]] = {}
    for replaced, folder in ((False, po_dir), (True, po_dir / "replaced")):
        for po in sorted(folder.glob("*.po")):
            changes.setdefault(po.stem, []).extend((po, m, replaced) for m in additions(po))
    for domain, messages in sorted(changes.items()):
        json_path, mo_path = out / MESSAGES / f"{domain}.json", out / MESSAGES / f"{domain}.mo"
        data = json.loads(json_path.read_text(encoding="utf-8"))
        with mo_path.open("rb") as f:
            catalog = read_mo(f)
        for po, m, replaced in messages:
            where = f"{po.parent.name}/{po.name}" if replaced else po.name
            if not replaced and key(m) in data:
                raise ValueError(f"{where}: {key(m)!r} is already in the official pack: delete it here")
            if replaced and key(m) not in data:
                raise ValueError(f"{where}: {key(m)!r} is not in the official pack: move it to {po.name}")
            if replaced and data[key(m)] == translation(m):
                raise ValueError(f"{where}: {key(m)!r} is translated so by the official pack: delete it here")
            data[key(m)] = translation(m)
            if replaced:  # (Catalog.add keeps an existing message's translation)
                catalog.delete(m.id, context=m.context)
            catalog.add(m.id, m.string, context=m.context)
        json_path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
        with mo_path.open("wb") as f:
            write_mo(f, catalog)
    return sorted(changes)
