"""OpenAI's tokenizers in the browser: gpt-tokenizer's encoders as one classic script each, for lesson 2's comparator.

The encoders and their rank tables are npm ``gpt-tokenizer`` (MIT, pinned in lesson 2's own
``vocabularies/package.json``, installed into :data:`course_lib.bpe.vocabularies.NODE_MODULES` by
``make``, which :data:`NODE_MODULES` here is), whose CommonJS modules :func:`encoding_script`
joins into one script that needs no module loader and no network: it runs from a ``<script>``
tag on a page opened from ``file://`` (where Chromium refuses ES modules), and from text the
kernel sends to JupyterLab. It sets ``globalThis.courseTokenizers[name]`` to the encoding's API,
gpt-tokenizer's ``GptEncoding`` (``encode``, ``decode``, and its ``bytePairEncodingCoreProcessor``,
which gives each token's bytes). Nothing of the package is kept in the repository: the site and
the decks write these scripts from there when they are built
(``course_tools/site.py``, ``course_tools/slides.py``), and JupyterLab gets them from the kernel
(:class:`~course_lib.widgets.comparator.TokenizerComparator`).

The rank tables are megabytes (o200k's 2.4 MB), so they are never part of a widget's saved
state: a page loads each once, when a comparator first shows it.
"""

import json
import re
from pathlib import Path

from ..bpe.vocabularies import NODE_MODULES

__all__ = ["ENCODINGS", "FOLDER", "NODE_MODULES", "PACKAGE", "encoding_script", "missing", "write_scripts"]

#: the encodings the comparator shows, by gpt-tokenizer's names, and their rank files
ENCODINGS = {"gpt2": "r50k_base", "cl100k_base": "cl100k_base", "o200k_base": "o200k_base"}
PACKAGE = "gpt-tokenizer"
#: the folder beside the widget renderer's (``html-manager/``) that a page loads them from
FOLDER = "tokenizers"

_REQUIRE = re.compile(r"""require\("(\.{1,2}/[^"]+)"\)""")


def missing(node_modules: Path | None = None) -> list[str]:
    """The encodings whose files ``node_modules`` (:data:`NODE_MODULES` when None) lacks (all of them before ``npm ci``)."""
    cjs = Path(node_modules or NODE_MODULES) / PACKAGE / "cjs"
    return [name for name in ENCODINGS if not (cjs / "encoding" / f"{name}.js").exists()]


def encoding_script(name: str, node_modules: Path | None = None) -> str:
    """gpt-tokenizer's encoding ``name`` (a key of :data:`ENCODINGS`) as one classic script.

    Each CommonJS module the encoding requires, followed from ``cjs/encoding/<name>.js``, becomes
    a function of ``(module, exports, require)`` in a table keyed by its path, its relative
    ``require`` calls rewritten to those keys; the package's licence heads the script.
    """
    if name not in ENCODINGS:
        raise ValueError(f"encoding must be one of {sorted(ENCODINGS)}, got {name!r}")
    node_modules = Path(node_modules or NODE_MODULES)
    root = node_modules / PACKAGE
    cjs = root / "cjs"
    if name in missing(node_modules):
        raise FileNotFoundError(
            f"{cjs / 'encoding' / f'{name}.js'} is missing: run `make vocabularies/node_modules/.installed-stamp` (npm ci)"
        )
    version = json.loads((root / "package.json").read_text(encoding="utf-8"))["version"]
    sources: dict[str, str] = {}
    todo = [f"encoding/{name}.js"]
    while todo:
        path = todo.pop()
        if path in sources:
            continue
        text = (cjs / path).read_text(encoding="utf-8")
        folder = Path(path).parent

        def key(match, folder=folder):
            target = (cjs / folder / match.group(1)).resolve().relative_to(cjs.resolve()).as_posix()
            todo.append(target)
            return f"require({json.dumps(target)})"

        text = _REQUIRE.sub(key, text)
        text = re.sub(r"^//# sourceMappingURL=.*$", "", text, flags=re.M)
        sources[path] = text
    licence = (root / "LICENSE").read_text(encoding="utf-8").strip()
    table = ",\n".join(
        f"{json.dumps(path)}: function (module, exports, require) {{\n{text}\n}}"
        for path, text in sorted(sources.items())
    )
    return f"""/* {PACKAGE} {version}, encoding {name}: its CommonJS modules from node_modules, joined by
course_lib/widgets/encodings.py into one script that sets globalThis.courseTokenizers[{json.dumps(name)}].

{licence.replace("*/", "* /")}
*/
(function () {{
  const files = {{
{table}
  }};
  const loaded = {{}};
  function require(path) {{
    if (!(path in loaded)) {{
      const module = {{ exports: {{}} }};
      loaded[path] = module;
      files[path](module, module.exports, require);
    }}
    return loaded[path].exports;
  }}
  (globalThis.courseTokenizers ||= {{}})[{json.dumps(name)}] = require({json.dumps(f"encoding/{name}.js")}).default;
}})();
"""


def write_scripts(folder: Path, node_modules: Path | None = None) -> list[Path]:
    """Write each encoding's script into ``folder`` (``<name>.js``): the site's and the decks' copies.

    Raises :class:`FileNotFoundError` (naming the file and the command that installs it) before
    writing anything when ``node_modules`` (:data:`NODE_MODULES` when None) lacks an encoding.
    """
    gone = missing(node_modules)
    if gone:
        encoding_script(gone[0], node_modules)  # raises, naming the file and the command
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in ENCODINGS:
        path = folder / f"{name}.js"
        path.write_text(encoding_script(name, node_modules), encoding="utf-8")
        written.append(path)
    return written
