"""Each command imports what it needs: ``kit build``, ``kit report``, ``kit --help`` and
``kit --version`` load no server-side module and no web or database library, and a game's
console part loads only when the console asks for it. Read from ``sys.modules`` at the exit of
a real ``python -m kit`` process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
# Runs ``python -m kit ARGS`` and writes every module loaded by its end to the file it is given.
WRAPPER = """\
import atexit, runpy, sys
out = sys.argv.pop(1)
atexit.register(lambda: open(out, "w").write("\\n".join(sorted(sys.modules))))
sys.argv[0] = "kit"
runpy.run_module("kit", run_name="__main__")
"""
SERVER_SIDE = ("kit.console", "kit.server", "kit.site", "kit.serve", "kit.mail", "kit.db")
LIBRARIES = ("starlette", "sqlalchemy", "alembic", "hypercorn", "sse_starlette", "psycopg")


def loaded(tmp_path: Path, *args: str) -> set[str]:
    """The modules a ``kit`` process with ``args`` has loaded when it exits (it must succeed)."""
    wrapper, out = tmp_path / "wrapper.py", tmp_path / "modules.txt"
    wrapper.write_text(WRAPPER, encoding="utf-8")
    subprocess.run([sys.executable, str(wrapper), str(out), *args], cwd=tmp_path, check=True,
                   capture_output=True)
    return set(out.read_text(encoding="utf-8").split())


def unwanted(modules: set[str]) -> list[str]:
    """The server-side modules, web and database libraries and games' console parts."""
    return sorted(m for m in modules
                  if any(m == p or m.startswith(p + ".") for p in (*SERVER_SIDE, *LIBRARIES))
                  or (m.startswith("kit.games.") and ".console" in m))


@pytest.mark.parametrize("args", [
    ("--version",),
    ("--help",),
    ("build", "lowest-unique", "--players", "4", "--out", "kits"),
    ("build", "whats-my-number", "--players", "5", "--out", "kits"),
    ("report", str(DATA / "wmn-7p-4t.toml"), "--out", "reports"),
    ("report", str(DATA / "lun-finished.toml"), "--format", "text"),
], ids=["version", "help", "build-lun", "build-wmn", "report-wmn", "report-lun-text"])
def test_a_command_loads_no_server_side_module(tmp_path: Path, args: tuple[str, ...]) -> None:
    modules = loaded(tmp_path, *args)
    assert "kit.cli" in modules and "kit.registry" in modules  # the run is seen
    assert unwanted(modules) == []


def test_the_server_side_commands_load_their_modules(tmp_path: Path) -> None:
    """The check above sees what it looks for: ``kit serve --help`` loads its package."""
    modules = loaded(tmp_path, "serve", "--help")
    assert "kit.serve.commands" in modules
    assert unwanted(modules) != []


def test_the_console_loads_a_games_console_part_when_it_asks() -> None:
    from kit.console.specs import console_games
    from kit.game import ConsoleGame
    from kit.registry import GAMES

    assert all(isinstance(spec.console, str) for spec in GAMES.values())  # where, not what
    games = console_games()
    assert set(games) == set(GAMES)
    assert all(isinstance(game, ConsoleGame) for game in games.values())
    assert games["lowest-unique"] is console_games()["lowest-unique"]  # imported once
