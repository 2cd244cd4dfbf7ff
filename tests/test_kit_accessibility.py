"""axe-core over every HTML file a kit or a report writes: both games, a party split into tables,
long names, another language and script, US Letter, and both games' reports.

Each file must set ``lang``, give every table header cells and have no serious or critical
axe violation (``helpers.check_page``). The files open from disk, as a host opens them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import LUN_TWO_TABLES_LOG, REFERENCE_LOG_TURN_1, build_kit, check_page
from helpers import axe_source as load_axe

from kit.cli import main

pytestmark = pytest.mark.slow

NAMES = ",".join(["Ångström-Øre Müller", "Зоя Фёдорова", "Bartholomew Fitzgerald-X",
                  "מרים", "Li Wei", "Ana", "Bo", "Cy", "Dee"])

KITS = {
    "lowest-unique split party": ("lowest-unique", "--players", "30", "--title", "Office party"),
    "lowest-unique names, letter": ("lowest-unique", "--names", NAMES, "--paper", "letter"),
    "lowest-unique in Russian": ("lowest-unique", "--lang", "ru", "--rounds", "12"),
    "whats-my-number": ("whats-my-number", "--players", "7"),
    "whats-my-number in German, names": ("whats-my-number", "--names", NAMES, "--lang", "de"),
}

LOGS = {
    "lowest-unique report": LUN_TWO_TABLES_LOG,
    "whats-my-number report": REFERENCE_LOG_TURN_1,
}


@pytest.fixture(scope="module")
def axe() -> str:
    return load_axe()


@pytest.fixture(scope="module")
def page(chromium_printer):
    context = chromium_printer.browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()


def html_files(folder: Path) -> list[Path]:
    """Every HTML file, but of a party's tables only the first: the others are the same pages
    with other names (axe takes a second or two per file)."""
    files = sorted(folder.rglob("*.html"))
    assert files, f"no HTML file in {folder}"
    return [f for f in files if not re.fullmatch(r".*-table-([2-9]|\d\d+)\.html", f.name)]


@pytest.mark.parametrize("kind", KITS)
def test_every_kit_html_file(kind: str, tmp_path: Path, page, axe: str) -> None:
    folder = build_kit(tmp_path, *KITS[kind])
    for file in html_files(folder):
        page.goto(file.as_uri())
        check_page(page, axe)


@pytest.mark.parametrize("kind", LOGS)
def test_every_report_html_file(kind: str, tmp_path: Path, page, axe: str) -> None:
    log = tmp_path / "game.toml"
    log.write_text(LOGS[kind], encoding="utf-8")
    assert main(["report", str(log), "--out", str(tmp_path / "out")]) == 0
    for file in html_files(tmp_path / "out"):
        page.goto(file.as_uri())
        check_page(page, axe)
