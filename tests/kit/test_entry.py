"""The ``kit`` entry point starts the prose renderer before the command line's modules load,
for the commands that render, and only for them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kit.entry import _renders

# Runs ``python -m kit ARGS`` and writes, for each renderer started, which modules of the
# command line were loaded at that moment (and whether it could fork).
WRAPPER = """\
import runpy, sys
import kit.prose
out = open(sys.argv.pop(1), "w")
started = kit.prose.Renderer.__init__
def seen(self, cores=0):
    out.write(f"cores={cores} cli={'kit.cli' in sys.modules} "
              f"registry={'kit.registry' in sys.modules}\\n")
    out.flush()
    started(self, cores)
kit.prose.Renderer.__init__ = seen
sys.argv[0] = "kit"
runpy.run_module("kit", run_name="__main__")
"""


def starts(tmp_path: Path, *args: str) -> list[str]:
    wrapper, out = tmp_path / "wrapper.py", tmp_path / "started.txt"
    wrapper.write_text(WRAPPER, encoding="utf-8")
    done = subprocess.run([sys.executable, str(wrapper), str(out), *args], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode in (0, 2), done.stderr
    return out.read_text(encoding="utf-8").splitlines()


def test_a_build_starts_its_renderer_before_the_command_line_loads(tmp_path: Path) -> None:
    lines = starts(tmp_path, "build", "lowest-unique", "--out", "kits", "--no-cache")
    assert len(lines) == 1 and lines[0].endswith("cli=False registry=False")
    assert not lines[0].startswith("cores=0")
    assert sorted(p.suffix for p in (tmp_path / "kits").rglob("*.pdf")) == [".pdf", ".pdf"]


def test_only_the_commands_that_render_start_one(tmp_path: Path) -> None:
    assert starts(tmp_path, "--version") == []
    assert starts(tmp_path, "build", "--help") == []


@pytest.mark.parametrize(("args", "expected"), [
    (["build", "lowest-unique"], True),
    (["report", "log.toml", "--lang", "fr"], True),
    (["build", "--help"], False),
    (["serve", "--port", "8000"], False),
    (["site", "out"], False),
    ([], False),
])
def test_which_command_lines_render(args: list[str], expected: bool) -> None:
    assert _renders(args) is expected
