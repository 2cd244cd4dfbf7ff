"""The project itself: README commands match CI, lint is clean, the wheel carries its assets."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    head = text[: text.index("\n## ")]  # the commands come before the first section
    return re.findall(r"```sh\n(.+?)\n```", head)


def test_readme_starts_with_exactly_two_commands_and_ci_runs_the_second() -> None:
    commands = readme_commands()
    assert commands == ["pip install . && kit build", "pip install '.[test]' && pytest"]
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands[1] in ci


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is missing: it is in the [test] extra")
    result = subprocess.run([ruff, "check", "kit", "tests", "bench"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_wheel_carries_templates_fonts_and_licences(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = {p.relative_to(ROOT).as_posix() for p in (ROOT / "templates").rglob("*")
                 if p.is_file()}
    fonts = {p.relative_to(ROOT).as_posix() for p in (ROOT / "fonts").iterdir()}
    assert {f"kit/{t}" for t in templates} <= names
    assert {f"kit/{f}" for f in fonts} <= names
    assert "kit/fonts/AtkinsonHyperlegible-OFL.txt" in names
    package = {p.relative_to(ROOT).as_posix() for p in (ROOT / "kit").rglob("*")
               if p.suffix in (".po", ".html", ".css")}  # catalogs, the games' own templates
    assert package and package <= names
    assert wheel.stat().st_size < 25 * 2**20  # every script's fonts included


def test_assets_are_found_where_kit_is_imported_from() -> None:
    import kit
    from kit.resources import asset_root

    root = asset_root()
    assert root in (Path(kit.__file__).parent, Path(kit.__file__).parent.parent)
    assert (root / "templates" / "document.html").is_file()
    assert (root / "fonts" / "AtkinsonHyperlegible-Regular.ttf").is_file()


def test_readme_config_reference_is_the_option_declarations() -> None:
    from kit.registry import options_table

    assert options_table() in (ROOT / "README.md").read_text()
