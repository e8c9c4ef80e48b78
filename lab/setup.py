"""Builds the pack: the official Russian pack (a build requirement) with the course's strings added."""

import sys
from importlib.metadata import distribution
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import catalogs  # noqa: E402


class BuildPack(build_py):
    def run(self):
        super().run()
        # the build environment's pinned official pack (not by import: this folder has a module of that name)
        official = Path(
            distribution("jupyterlab-language-pack-ru-RU").locate_file("jupyterlab_language_pack_ru_RU")
        )
        catalogs.write(official, HERE / "po", Path(self.build_lib) / "jupyterlab_language_pack_ru_RU")


setup(cmdclass={"build_py": BuildPack})
