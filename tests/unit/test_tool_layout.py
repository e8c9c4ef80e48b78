"""``course_tools`` by job: the entry points at the top, the subpackages beneath them, imports one way only.

Every import of every module of ``course_tools`` is read with ``ast`` (those inside functions too: an
import deferred to a call is still a dependency), and each names the module it reaches. The rule
(``course_tools/__init__.py``): a subpackage imports only the subpackages that ``LAYERS`` gives it, never
an entry point; no module imports itself back through others.
"""

import ast
import importlib
from pathlib import Path

import pytest

import course_tools

PACKAGE = Path(course_tools.__file__).parent
#: what each subpackage may import of course_tools besides itself (course_tools/__init__.py says why)
LAYERS = {
    "core": set(),
    "build": {"core"},
    "publish": {"core", "build"},
    "classroom": {"core"},
    "grading": {"core"},
}
ENTRY_POINTS = {
    "lessons",
    "slides",
    "handouts",
    "site",
    "workspace",
    "hub",
    "hub_kernel",
    "grade",
    "stages",
    "translations",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, source: str | None = None) -> set[str]:
    """The modules of course_tools that the file at ``path`` (or ``source``, as if it were there) imports,
    anywhere in it, as dotted names."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    source = path.read_text(encoding="utf-8") if source is None else source
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            # `from . import x` imports the module x; `from .m import f` the module m
            found |= {f"{base}.{alias.name}" for alias in node.names} | {base}
    modules = {module_name(p) for p in PACKAGE.rglob("*.py")}
    return {m for m in found if m in modules and m != name}


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports(p) for p in PACKAGE.rglob("*.py")}


def part(module: str) -> str:
    """``core``, ``build``, ... for a subpackage's module; the entry point's own name; ``""`` for the package."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer_problems(edges: dict[str, set[str]]) -> list[str]:
    problems = []
    for module, targets in sorted(edges.items()):
        here = part(module)
        for target in sorted(targets):
            there = part(target)
            if here in LAYERS and there != here and there not in LAYERS[here]:
                problems.append(f"{module} imports {target}: {here} may import only {sorted(LAYERS[here])}")
            if here in ENTRY_POINTS and there in ENTRY_POINTS and there != here:
                problems.append(f"{module} imports the entry point {target}")
    return problems


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every set of modules that import one another in a ring (Tarjan's strongly connected components)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            ring = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                ring.append(member)
                if member == node:
                    break
            if len(ring) > 1:
                found.append(sorted(ring))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_top_holds_the_entry_points_and_the_subpackages_only():
    top = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert top == ENTRY_POINTS
    assert {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()} == set(LAYERS)
    for name in ENTRY_POINTS:  # each one a command: `python -m course_tools.NAME`
        assert 'if __name__ == "__main__":' in (PACKAGE / f"{name}.py").read_text(encoding="utf-8"), name
    doc = course_tools.__doc__
    assert all(f"``{name}``" in doc for name in ENTRY_POINTS | set(LAYERS))


def test_each_subpackage_imports_only_what_its_layer_allows_and_no_module_imports_itself_back():
    edges = graph()
    assert edges["course_tools.lessons"] >= {"course_tools.build.lessons"}  # the reading sees every import
    assert "course_tools.classroom.server" in edges["course_tools.hub"]  # those inside a function too
    assert layer_problems(edges) == []
    assert cycles(edges) == []


def test_the_rule_fails_on_an_import_against_it_and_on_a_cycle():
    edges = graph()
    edges["course_tools.core.files"] = edges["course_tools.core.files"] | {"course_tools.build.source"}
    edges["course_tools.classroom.workspace"] = {"course_tools.workspace"}
    problems = layer_problems(edges)
    assert "course_tools.core.files imports course_tools.build.source: core may import only []" in problems
    assert any("course_tools.classroom.workspace imports course_tools.workspace" in p for p in problems)
    # the grader and its report before this layout: each imported the other inside a function
    ring = {
        "course_tools.grading.grade": {"course_tools.grading.report"},
        "course_tools.grading.report": {"course_tools.grading.grade"},
    }
    assert cycles(ring) == [["course_tools.grading.grade", "course_tools.grading.report"]]


def test_the_relative_imports_are_read_as_python_reads_them():
    code = "from . import guard\nfrom ..core.config import CONFIG\nfrom .messages import GRADE\nimport course_tools.build.source\n"
    assert imports(PACKAGE / "grading" / "probe.py", code) == {
        "course_tools.grading.guard",
        "course_tools.core.config",
        "course_tools.grading.messages",
        "course_tools.build.source",
        "course_tools.grading",
    }


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS - {"hub_kernel", "stages"}))
def test_each_entry_point_answers_help(entry, capsys):
    module = importlib.import_module(f"course_tools.{entry}")
    with pytest.raises(SystemExit) as done:
        module.main(["--help"])
    assert done.value.code == 0
    assert f"python -m course_tools.{entry}" in capsys.readouterr().out
