"""The package's import graph has no cycle and no upward import.

Every module of every layer is read with `ast` (nothing is imported), and an
edge is drawn for each import anywhere in it (module level, inside a
function, under TYPE_CHECKING) and for each module named in a string:
"alienworlds.x.y" or "aliencode.x:attr" (registries, `import_module`
calls), f"{__package__}.x:attr", a relative ".x" and, in a package's
`__init__`, the bare name of one of its submodules (a lazy-attribute map).
`from package import name` is an edge to the submodule when `name` is one,
else to the package.

LAYERS is the layer order of docs/architecture.md ("Packaging and layers"),
lowest first: a module may import its own package and the layers below it,
never a layer above it nor another package of its own layer.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# repository folder -> import name (pyproject's package-dir)
FOLDERS = {
    "aliencode": "aliencode",
    "alienlogic": "alienlogic",
    "alienworlds": "alienworlds",
    **{
        folder: f"alienworlds.{folder}"
        for folder in (
            "ruleset",
            "manuals",
            "tasks",
            "repl",
            "porting",
            "generate",
            "episode",
            "explore",
            "sweep",
            "serve",
            "inspect_eval",
            "cli",
        )
    },
}

# The episode's agent interface sits below the explorers, which implement it;
# the rest of the episode (driver, registry, reports) sits above them.
EPISODE_INTERFACE = frozenset(
    f"alienworlds.episode.{name}"
    for name in ("agent", "protocol", "environment", "scripted_agents")
)

LAYERS: tuple[tuple[str, ...], ...] = (
    ("ruleset",),
    ("aliencode", "alienlogic"),
    ("manuals", "porting"),
    ("tasks", "repl"),
    ("generate",),
    ("episode interface",),
    ("explore",),
    ("episode",),
    ("sweep", "serve"),
    ("inspect_eval",),
    ("cli", "alienworlds"),
)

_ABSOLUTE = re.compile(r"(alienworlds|aliencode|alienlogic)(\.\w+)+(:\w+)?")
_RELATIVE = re.compile(r"\.\w+(\.\w+)*(:\w+)?")


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int


def module_names(root: Path, folders: dict[str, str]) -> dict[str, Path]:
    """Every module's import name, with its file."""
    out = {}
    for folder, package in folders.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = list(path.relative_to(root / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([package, *parts])] = path
    return out


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The module `name` names: itself, or the nearest enclosing module."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _string_targets(node: ast.AST, package: str, is_package: bool, modules) -> list[str]:
    """Modules a string names; a relative or bare name counts only when it
    is exactly a module (".class" in an error message is none)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
        if _ABSOLUTE.fullmatch(text):
            return [text.partition(":")[0]]
        relative = package + text.partition(":")[0] if _RELATIVE.fullmatch(text) else None
        if relative in modules:
            return [relative]
        if is_package and f"{package}.{text}" in modules:
            return [f"{package}.{text}"]
    if isinstance(node, ast.JoinedStr) and len(node.values) == 2:
        head, tail = node.values
        if (
            isinstance(head, ast.FormattedValue)
            and isinstance(head.value, ast.Name)
            and head.value.id in ("__package__", "__name__")
            and isinstance(tail, ast.Constant)
            and _RELATIVE.fullmatch(tail.value)
            and package + tail.value.partition(":")[0] in modules
        ):
            return [package + tail.value.partition(":")[0]]
    return []


def edges_of(name: str, path: Path, modules: dict[str, Path]) -> list[Edge]:
    """The modules `name` imports or names in a string (see module doc)."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # the literal pieces of an f-string are read with the f-string, not alone
    pieces = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
    }
    out = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if id(node) in pieces:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            targets = _string_targets(node, package, is_package, modules)
        for target in targets:
            found = _resolve(target, modules)
            if found is not None and found != name:
                out.append(Edge(name, found, getattr(node, "lineno", 0)))
    return out


def import_graph(root: Path = ROOT, folders: dict[str, str] = FOLDERS) -> dict[str, list[Edge]]:
    modules = module_names(root, folders)
    return {name: edges_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, list[Edge]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan,
    iterative: the graph is deep enough to trouble recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            edge = next(edges, None)
            if edge is not None:
                target = edge.target
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def package_of(module: str) -> str:
    """The layer package a module belongs to (a module of the namespace root
    itself, such as alienworlds.api, belongs to `alienworlds`)."""
    if module in EPISODE_INTERFACE:
        return "episode interface"
    parts = module.split(".")
    if parts[0] == "alienworlds" and len(parts) > 1 and parts[1] in FOLDERS:
        return parts[1]
    return parts[0]


def layer_of(module: str, layers=LAYERS) -> int:
    package = package_of(module)
    for level, packages in enumerate(layers):
        if package in packages:
            return level
    raise AssertionError(f"{module}: package {package!r} is in no layer")


def upward(graph: dict[str, list[Edge]], layers=LAYERS) -> list[Edge]:
    """Edges to a higher layer, or to another package of the same layer."""
    return [
        edge
        for edges in graph.values()
        for edge in edges
        if package_of(edge.source) != package_of(edge.target)
        and layer_of(edge.target, layers) >= layer_of(edge.source, layers)
    ]


# -- the walker finds what it must ------------------------------------------------------


def _tree(tmp_path: Path, files: dict[str, str]) -> dict[str, list[Edge]]:
    for relative, text in files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return import_graph(tmp_path, {"aliencode": "aliencode", "tasks": "alienworlds.tasks"})


def test_walker_sees_function_level_imports_and_string_references(tmp_path):
    graph = _tree(
        tmp_path,
        {
            "aliencode/__init__.py": '_HOMES = {"run": "runtime"}\n',
            "aliencode/runtime.py": "def f():\n    from . import parser\n",
            "aliencode/parser.py": 'ENTRY = "aliencode.runtime:f"\n',
            "tasks/__init__.py": "",
            "tasks/a.py": 'REGISTRY = {"b": f"{__package__}.b:run"}\n',
            "tasks/b.py": "from aliencode import parser\n",
        },
    )
    targets = {name: {e.target for e in edges} for name, edges in graph.items()}
    assert targets["aliencode"] == {"aliencode.runtime"}
    assert targets["aliencode.runtime"] == {"aliencode.parser"}
    assert targets["aliencode.parser"] == {"aliencode.runtime"}
    assert targets["alienworlds.tasks.a"] == {"alienworlds.tasks.b"}
    assert cycles(graph) == [["aliencode.parser", "aliencode.runtime"]]
    assert upward(graph) == []


def test_walker_reports_an_upward_string_reference(tmp_path):
    graph = _tree(
        tmp_path,
        {
            "aliencode/__init__.py": "",
            "aliencode/grader.py": 'GRADER = "alienworlds.tasks.grading:Grader"\n',
            "tasks/__init__.py": "",
            "tasks/grading.py": "import aliencode\n",
        },
    )
    [edge] = upward(graph)
    assert (edge.source, edge.target, edge.line) == (
        "aliencode.grader",
        "alienworlds.tasks.grading",
        1,
    )
    assert cycles(graph) == []


def test_cycles_are_found_in_long_chains():
    n = 3000  # deeper than the recursion limit
    graph = {
        f"m{i}": [Edge(f"m{i}", f"m{(i + 1) % n}", 1)] + [Edge(f"m{i}", f"x{i}", 1)]
        for i in range(n)
    }
    graph.update({f"x{i}": [] for i in range(n)})
    assert [len(c) for c in cycles(graph)] == [n]
    del graph["m0"]
    graph["m0"] = []
    assert cycles(graph) == []


# -- the package ------------------------------------------------------------------------


def test_every_package_has_a_layer():
    graph = import_graph()
    assert len(graph) > 150
    for module in graph:
        layer_of(module)


def test_no_import_cycle():
    assert cycles(import_graph()) == []


def test_no_upward_import():
    found = [
        f"{e.source} (line {e.line}) -> {e.target}: {package_of(e.source)} is below "
        f"{package_of(e.target)}"
        for e in upward(import_graph())
    ]
    assert found == []
