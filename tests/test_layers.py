"""The layers hold: no import cycle in src/, no import against the allowed directions, no file
over 400 lines, no function-local import of the project's own modules left to dodge a cycle.

The graph is built with `ast` from the source text (nothing is imported), so a violation fails
here with the two files named, before anyone has to follow a traceback.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "forethought"
MAX_LINES = 400
FRONT_ENDS = ("cli", "server", "web", "mcp_server")

# Function-local imports of the project's own modules that are there for a reason other than a
# cycle: each loads something heavy or optional only when the command that needs it runs.
LAZY_ON_PURPOSE = {
    "forethought/cli/mcp.py",  # the MCP SDK loads only for `forethought mcp`
    "forethought/cli/serve.py",  # FastAPI and uvicorn load only for `forethought serve`
    "forethought/store/lazy.py",  # psycopg loads only when a PostgreSQL database is opened
}


@dataclass(frozen=True)
class Edge:
    source: str  # a module name, e.g. forethought.pipeline.turn
    target: str
    where: str  # file:line
    local: bool  # inside a function (a deferred import)


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_of(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module `name` refers to (itself, or the package an attribute import names)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _edges(modules: dict[str, Path]) -> Iterator[Edge]:
    for module, path in modules.items():
        tree = ast.parse(path.read_text("utf-8"))
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        local_nodes = {id(n) for f in functions for n in ast.walk(f) if n is not f}
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parent, base]).strip(".")
                names = [f"{base}.{alias.name}" for alias in node.names] or [base]
            else:
                continue
            if _type_checking_only(tree, node):
                continue
            for name in names:
                target = _resolve(name, modules)
                if target is not None and target != module and target.startswith(PACKAGE):
                    where = f"{path.relative_to(SRC)}:{node.lineno}"
                    yield Edge(module, target, where, id(node) in local_nodes)


def _type_checking_only(tree: ast.Module, node: ast.AST) -> bool:
    for block in ast.walk(tree):
        guarded = isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
        if guarded and any(child is node for stmt in block.body for child in ast.walk(stmt)):  # type: ignore[attr-defined]
            return True
    return False


@pytest.fixture(scope="module")
def graph() -> list[Edge]:
    return list(_edges(_modules()))


def _area(module: str) -> str:
    """The top-level part of the package a module belongs to: `pipeline`, `memory`, `facade`, ..."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_graph_sees_the_package(graph: list[Edge]) -> None:
    sources = {e.source for e in graph}
    assert {"forethought.facade", "forethought.pipeline.turn", "forethought.memory.core"} <= sources
    assert any(e.source == "forethought.facade" and _area(e.target) == "pipeline" for e in graph)


def test_there_is_no_import_cycle(graph: list[Edge]) -> None:
    """Deferred (function-local) imports count too: a cycle hidden in a function is still one."""
    successors: dict[str, set[str]] = {}
    for edge in graph:
        successors.setdefault(edge.source, set()).add(edge.target)
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(successors.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(successors):
        if node not in state:
            visit(node)
    assert cycles == [], "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_package_inits_are_not_counted_as_their_modules_importers() -> None:
    """A sanity check of the resolver the other tests rely on."""
    modules = _modules()
    assert _resolve("forethought.memory.Memory", modules) == "forethought.memory"
    assert _resolve("forethought.memory.core.Memory", modules) == "forethought.memory.core"
    assert _resolve("numpy.linalg", modules) is None


@pytest.mark.parametrize(
    ("importer", "imported", "why"),
    [
        ("memory", "facade", "the memory core runs under the façade"),
        ("pipeline", "facade", "stages receive a Memory, never the façade"),
        ("memory", "pipeline", "the memory core sits under the pipeline"),
        ("apps", "pipeline", "apps plug into the pipeline; they never reach into it"),
        ("apps", "memory", "apps declare kinds and policies; the core calls them"),
        ("apps", "facade", "apps are below the façade"),
        ("text", "pipeline", "text helpers sit just above the domain"),
        ("domain", "pipeline", "the domain is the bottom layer"),
        ("store", "memory", "stores know nothing of the memory core"),
        ("store", "pipeline", "stores know nothing of the pipeline"),
    ],
)
def test_no_import_against_the_layers(graph: list[Edge], importer: str, imported: str, why: str) -> None:
    wrong = [e for e in graph if _area(e.source) == importer and _area(e.target) == imported]
    assert wrong == [], f"{why}: " + ", ".join(f"{e.where} imports {e.target}" for e in wrong)


def test_front_ends_never_import_a_store_backend(graph: list[Edge]) -> None:
    wrong = [e for e in graph if _area(e.source) in FRONT_ENDS and e.target.startswith("forethought.store.sqlite")]
    assert wrong == [], ", ".join(f"{e.where} imports {e.target}" for e in wrong)


def test_the_facade_is_the_only_top_level_module_that_imports_the_pipeline(graph: list[Edge]) -> None:
    top_level = {m for m in _modules() if m.count(".") == 1 and not (SRC / m.replace(".", "/")).is_dir()}
    importers = {e.source for e in graph if e.source in top_level and _area(e.target) == "pipeline"}
    assert importers == {"forethought.facade"}


def test_no_function_local_import_of_the_project_outside_the_lazy_loaders(graph: list[Edge]) -> None:
    local = sorted({e.where for e in graph if e.local and e.where.split(":")[0] not in LAZY_ON_PURPOSE})
    assert local == [], "function-local imports (move them to the top, or break the cycle they dodge): " + ", ".join(
        local
    )


def test_no_source_file_is_over_the_size_limit() -> None:
    long = {
        str(p.relative_to(SRC)): n
        for p in (SRC / PACKAGE).rglob("*.py")
        if (n := len(p.read_text("utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"files over {MAX_LINES} lines: {long}"
