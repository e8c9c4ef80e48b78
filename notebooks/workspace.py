"""The student's own copies of the lessons, which course updates never overwrite.

`make lab` runs this before opening JupyterLab on ``workspace/`` (git-ignored):

- a lesson not yet in the workspace is copied there;
- a lesson the student has not changed is replaced by the newer course version;
- a lesson the student has changed is kept as it is, and the newer course version is put
  beside it as ``NN_name.new.ipynb``, with a message saying so.

"Changed" means the file differs from the copy the course last put there, whose hash is
kept in ``workspace/.course-manifest.json``. Running cells changes a notebook too, so a
lesson the student has merely run counts as theirs and is never overwritten.

    python notebooks/workspace.py [--workspace DIR] [--lang ru]
"""

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

from course_lib.i18n import tr

HERE = Path(__file__).resolve().parent
LANGS = ("en", "ru")
MANIFEST = ".course-manifest.json"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sync(workspace: Path, course: Path = HERE, lang: str = "en") -> list[str]:
    """Bring ``workspace`` up to date with the course notebooks; return what was done."""
    manifest_path = workspace / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    said = []
    for lesson_lang in LANGS:
        for lesson in sorted((course / lesson_lang).glob("*.ipynb")):
            rel = f"{lesson_lang}/{lesson.name}"
            mine = workspace / rel
            shipped = digest(lesson)
            if not mine.exists():
                mine.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(lesson, mine)
                said.append(tr("ws_new", lang, path=rel))
            elif shipped == manifest.get(rel) or digest(mine) == shipped:
                pass  # the course has not changed this lesson, or the copy already equals it
            elif digest(mine) == manifest.get(rel):
                shutil.copyfile(lesson, mine)  # untouched by the student: safe to update
                said.append(tr("ws_updated", lang, path=rel))
            else:
                new = mine.with_suffix(".new.ipynb")
                shutil.copyfile(lesson, new)
                said.append(tr("ws_kept", lang, path=rel, new=f"{lesson_lang}/{new.name}"))
            manifest[rel] = shipped
    workspace.mkdir(parents=True, exist_ok=True)
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return said


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workspace", type=Path, default=HERE.parent / "workspace")
    parser.add_argument("--lang", choices=LANGS, default="en", help="language of the messages")
    args = parser.parse_args(argv)
    for line in sync(args.workspace, lang=args.lang):
        print(line)
    print(tr("ws_ready", args.lang, root=args.workspace))
    return 0


if __name__ == "__main__":
    sys.exit(main())
