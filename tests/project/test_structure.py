"""The shape of ``kit/``, read from its source with ``ast``: no import cycle between modules or
between packages (imports inside functions count: a late import hides a cycle, it does not break
it), packages layered one way, every module under 500 code lines, every function under 80
lines, and the server side naming no game."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KIT = ROOT / "kit"
MAX_CODE_LINES = 500
MAX_FUNCTION_LINES = 80
# what only a game's own package may say: its name, its short names, an import of a game
GAME_WORDS = re.compile(r"whats-my-number|lowest-unique|WMN|LUN|kit\.games|\.\.games")
GAME_FREE = ("console", "server", "site", "db", "mail", "serve")
ENTRY = frozenset({"kit.cli", "kit.clidoc", "kit.entry", "kit.__main__"})  # commands: any
SERVER_SIDE = ("server", "site", "console", "mail", "db", "serve")
# What each package may not import. Core is kit/*.py and kit/layout; a game is looked up
# through kit.registry, which core may import (the kit pipeline plans a game's pages).
FORBIDDEN = {
    "core": {*SERVER_SIDE, "entry"},
    "games": {"server", "site", "mail", "db", "serve", "entry", "console"},
    "server": {"site", "console", "mail", "db", "games", "serve", "entry", "kit.registry"},
    "mail": {"console", "site", "server", "games", "serve", "entry"},
    "db": {"server", "site", "console", "mail", "games", "serve", "entry"},
    "site": {"console", "mail", "serve", "entry"},
    "console": {"site", "serve", "entry"},
    "serve": {"entry"},
}
NEVER_IN_GAMES = ("starlette", "sqlalchemy", "alembic", "hypercorn")


def modules(root: Path = KIT) -> dict[str, Path]:
    """Every module of the package under ``root``, by its dotted name."""
    found = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that module ``name`` imports, anywhere in it (only what
    ``if TYPE_CHECKING:`` imports is left out: it is never run). ``from . import x`` imports
    the module x, not its package's ``__init__`` again."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            subs = [f"{target}.{alias.name}" for alias in node.names
                    if f"{target}.{alias.name}" in known]
            found.update(subs if len(subs) == len(node.names) else [target, *subs])
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in known and m != name}


def import_graph(root: Path = KIT) -> dict[str, set[str]]:
    found = modules(root)
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), and self-imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return groups


def code_lines(path: Path) -> int:
    """Lines that are neither blank nor only a comment."""
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.strip().startswith("#"))


def long_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({span} lines)"
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (span := (node.end_lineno or node.lineno) - node.lineno + 1) > MAX_FUNCTION_LINES]


def test_the_import_graph_has_no_cycle() -> None:
    graph = import_graph()
    assert "kit.console.service" in graph and "kit.registry" in graph["kit.console.specs"]
    assert cycles(graph) == []


def test_a_late_import_cycle_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("def f():\n    from .a import x\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from . import a\n")
    assert cycles(import_graph(package)) == [["pkg.a", "pkg.b"]]


def test_every_module_is_under_500_code_lines() -> None:
    sizes = {name: code_lines(path) for name, path in modules().items()}
    assert sizes["kit.console.service"] > 100  # counted, not skipped
    assert {name: n for name, n in sizes.items() if n > MAX_CODE_LINES} == {}


def test_no_function_is_over_80_lines() -> None:
    found = [line for path in sorted(KIT.rglob("*.py")) for line in long_functions(path)]
    assert found == []


def package_of(module: str) -> str:
    """The layer a module belongs to: a server-side package, ``games``, ``entry`` or ``core``."""
    parts = module.split(".")
    if module in ENTRY:
        return "entry"
    if len(parts) > 1 and parts[1] in (*SERVER_SIDE, "games"):
        return parts[1]
    return "core"


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Which packages import which (``package_of``), leaving out the games' lookup through the
    registry (core's plug-in)."""
    found: dict[str, set[str]] = {package_of(m): set() for m in graph}
    for module, imported in graph.items():
        for other in imported:
            source, target = package_of(module), package_of(other)
            if source != target and not (source == "core" and target == "games"):
                found[source].add(target)
    return found


def layering_problems(graph: dict[str, set[str]]) -> list[str]:
    """Every import a package may not make (``FORBIDDEN``), as "module -> module"."""
    problems = []
    for module, imported in sorted(graph.items()):
        banned = FORBIDDEN.get(package_of(module), set())
        for other in sorted(imported):
            if package_of(other) in banned or other in banned:
                problems.append(f"{module} -> {other}")
    return problems


def outside_imports(path: Path) -> set[str]:
    """The top-level names of the libraries a module imports (absolute imports only)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_packages_form_no_cycle() -> None:
    graph = package_graph(import_graph())
    assert {"core", "games", "server", "site", "console", "mail", "db", "serve"} <= set(graph)
    assert cycles(graph) == []


def test_a_package_cycle_is_found() -> None:
    graph = {"kit.site.a": {"kit.console.b"}, "kit.console.b": {"kit.site.c"}, "kit.site.c": set(),
             "kit.games.g": {"kit.game.start_form", "kit.console.b"},
             "kit.game.start_form": {"kit.registry"}, "kit.registry": {"kit.games.g"}}
    assert cycles(package_graph(graph)) == [["console", "site"]]
    assert layering_problems(graph) == ["kit.console.b -> kit.site.c",
                                        "kit.games.g -> kit.console.b",
                                        "kit.site.a -> kit.console.b"]


def test_packages_are_layered() -> None:
    """Core knows no server side; games only their contract (kit.game) and core, no console; the
    server no site, console, mail, database or game; mail no console; the database nothing
    above it; the site no console or mail; only kit.serve takes site, console and mail."""
    graph = import_graph()
    assert layering_problems(graph) == []
    together = {package_of(m) for m, imported in graph.items()
                if {"site", "console", "mail"} <= {package_of(o) for o in imported}}
    assert together <= {"serve"}
    assert "serve" in {package_of(m) for m, imported in graph.items()
                       if "kit.console.routes" in imported}


def test_the_games_import_no_web_or_database_library() -> None:
    found = [f"{path.relative_to(ROOT)}: {name}" for path in sorted((KIT / "games").rglob("*.py"))
             for name in sorted(outside_imports(path)) if name in NEVER_IN_GAMES]
    assert "sqlalchemy" in outside_imports(KIT / "db" / "engine.py")  # the walk sees them
    assert found == []


def test_the_server_side_names_no_game() -> None:
    said = []
    for folder in GAME_FREE:
        for path in sorted((KIT / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".html", ".mako", ".ini"):
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if GAME_WORDS.search(line):
                        said.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert GAME_WORDS.search("from ..games import x") and GAME_WORDS.search('"lowest-unique"')
    assert said == []
