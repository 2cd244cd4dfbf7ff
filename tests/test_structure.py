"""The shape of ``kit/``, read from its source with ``ast``: no import cycle (imports inside
functions count: a late import hides a cycle, it does not break it), every module under 500
code lines, every function under 80 lines, and the console and the web naming no game."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KIT = ROOT / "kit"
MAX_CODE_LINES = 500
MAX_FUNCTION_LINES = 80
# what only a game's own package may say: its name, its short names, an import of a game
GAME_WORDS = re.compile(r"whats-my-number|lowest-unique|WMN|LUN|kit\.games|\.\.games")
GAME_FREE = ("console", "site")


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


def test_the_console_and_the_web_name_no_game() -> None:
    said = []
    for folder in GAME_FREE:
        for path in sorted((KIT / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".html", ".mako", ".ini"):
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if GAME_WORDS.search(line):
                        said.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert GAME_WORDS.search("from ..games import x") and GAME_WORDS.search('"lowest-unique"')
    assert said == []
