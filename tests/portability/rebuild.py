"""Lessons built again as on another machine, and compared with the committed notebooks byte for byte.

    python -m tests.portability.rebuild [--pass NAME] [--keep DIR] [NN ...]

nbval (``make nbval-portable``) compares what a lesson prints; a build saves more: the explorers'
widget state (the numbers Python sends them: embeddings, attention weights, vectors) and the figures'
PNGs. Each lesson here is rendered and executed as ``python -m course_tools.lessons build`` does, in a
kernel that runs as the pass says (``run.PASSES``: ``other-machine`` by default; ``native`` for this
machine as it is), and nothing in the repository is written (``--keep DIR`` writes the rebuilt
notebooks there, ``DIR/<lang>/NN_name.ipynb``). Every place where a rebuilt notebook differs from the
committed one is named by its path in the notebook's JSON, and counted by kind; exit 1 if any differs.
"""

import argparse
import contextlib
import json
import sys
import time
from collections import Counter
from pathlib import Path

from course_tools.build import execute as execution
from course_tools.build.course import Course
from course_tools.build.execute import WIDGET_STATE, execute
from course_tools.build.lessons import notebook_text
from course_tools.core.config import CONFIG, LANGUAGES, Config

from .run import PASSES, kernel_settings

__all__ = ["NATIVE", "SLOWER", "rebuild", "differences", "kind", "compare", "report", "main"]

#: no pass: the kernel as ``python -m course_tools.lessons build`` starts it on this machine
NATIVE = "native"
#: how much longer a cell may run under a pass than in a build: the jitter computes every inexact
#: float32 op twice, and once more in float64 (lesson 7's training cell: 120 s were not enough)
SLOWER = 5


def rebuild(
    names: list[str],
    pass_name: str = "other-machine",
    config: Config = CONFIG,
    keep: Path | None = None,
    langs=LANGUAGES,
    say=print,
) -> dict[Path, str]:
    """Each lesson of ``names`` in each of ``langs``, executed under pass ``pass_name``: committed path -> text.

    ``keep``: a folder where each rebuilt notebook is also written, ``keep/<lang>/NN_name.ipynb``, as soon as it ran.
    """
    course = Course.load(config)
    texts = {}
    for name in names:
        for lang in langs:
            nb = course.render(name, lang)
            say(f"executing {name} [{lang}] ({pass_name})")
            where = dict(lesson=name, lang=lang, cwd=config.notebooks_dir(lang), root=config.root)
            if pass_name == NATIVE:
                execute(nb, **where)
            else:
                with kernel_settings(pass_name) as settings, _longer_cells():
                    execute(nb, **where, env=settings)
            texts[config.notebook(name, lang)] = text = notebook_text(nb)
            if keep is not None:
                target = keep / lang / f"{name}.ipynb"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
    return texts


@contextlib.contextmanager
def _longer_cells():
    usual = execution.CELL_TIMEOUT_S
    execution.CELL_TIMEOUT_S = usual * SLOWER
    try:
        yield
    finally:
        execution.CELL_TIMEOUT_S = usual


def differences(committed, rebuilt, path: str = "") -> list[str]:
    """The JSON paths (``cells[12].outputs[0].data["image/png"]``) where two parsed notebooks differ."""
    if isinstance(committed, dict) and isinstance(rebuilt, dict):
        found = [f"{path}[{key!r}]" for key in sorted(set(committed) ^ set(rebuilt))]
        for key in sorted(set(committed) & set(rebuilt)):
            found += differences(committed[key], rebuilt[key], f"{path}[{key!r}]")
        return found
    if isinstance(committed, list) and isinstance(rebuilt, list) and len(committed) == len(rebuilt):
        return [
            p
            for n, (a, b) in enumerate(zip(committed, rebuilt, strict=True))
            for p in differences(a, b, f"{path}[{n}]")
        ]
    same = committed == rebuilt and type(committed) is type(rebuilt)
    return [] if same else [path]


def kind(path: str) -> str:
    """What a differing path holds: ``widget state: weight``, ``image/png``, ``text/plain``, ..."""
    if f"[{WIDGET_STATE!r}]" in path:
        trait = path.split("['state']")[-1].split("]")[0].strip("['")
        return f"widget state: {trait}"
    for mime in ("image/png", "image/svg+xml", "text/html", "text/plain", "text/markdown"):
        if f"[{mime!r}]" in path:
            return mime
    if "['text']" in path:
        return "stream"
    return "other"


def compare(texts: dict[Path, str], config: Config = CONFIG) -> dict[Path, list[str]]:
    """For each rebuilt notebook that is not byte for byte its committed one, the paths that differ."""
    found = {}
    for path, text in texts.items():
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if text != old:
            found[path] = differences(json.loads(old or "{}"), json.loads(text)) or ["(formatting only)"]
    return found


def report(found: dict[Path, list[str]], config: Config = CONFIG, limit: int = 12) -> list[str]:
    lines = []
    for path, paths in found.items():
        counts = Counter(kind(p) for p in paths)
        summary = ", ".join(f"{n} {k}" for k, n in counts.most_common())
        lines.append(f"{config.relative(path)}: {len(paths)} places differ ({summary})")
        lines += [f"    {p}" for p in paths[:limit]]
        if len(paths) > limit:
            lines.append(f"    ... and {len(paths) - limit} more")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--pass", dest="pass_name", default="other-machine", choices=[NATIVE, *sorted(PASSES)]
    )
    parser.add_argument("--keep", type=Path, help="write the rebuilt notebooks below this folder")
    parser.add_argument("--all", action="store_true", help="list every differing place, not the first 12")
    parser.add_argument(
        "--lang", action="append", choices=LANGUAGES, help="only this language (default: all)"
    )
    parser.add_argument("lessons", nargs="*", help="lesson name prefixes (default: all)")
    args = parser.parse_args(argv)
    names = Course.load().select(args.lessons)
    start = time.monotonic()
    texts = rebuild(names, args.pass_name, keep=args.keep, langs=args.lang or LANGUAGES)
    print(f"rebuilt {len(texts)} notebooks in {time.monotonic() - start:.0f} s")
    found = compare(texts)
    print(
        "\n".join(report(found, limit=10**9 if args.all else 12))
        or "every rebuilt notebook is the committed one"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
