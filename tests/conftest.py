"""Shared fixtures: kits are built once per test session and read back many times."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit.cli import main

# The reference turn report as a game log: A guessed 17 and 33, B hit C with its first guess,
# C's list had three right.
REFERENCE_LOG_TURN_1 = """\
game = "whats-my-number"
players = ["A", "B", "C", "D", "E", "F"]
[secrets]
A = 45
B = 5
C = 40
D = 20
E = 22
F = 30
[[turn]]
A = [17, 33]
B = [40, 25]
C = { list = { A = 45, B = 5, D = 20, E = 1, F = 2 } }
"""


def build_kit(out: Path, *argv: str) -> Path:
    """Run ``kit build`` in-process; returns the one kit folder it wrote."""
    code = main(["build", *argv, "--out", str(out)])
    assert code == 0
    (folder,) = [p for p in out.iterdir() if not p.name.startswith(".")]
    return folder


@pytest.fixture(scope="session")
def lun_a4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kit(tmp_path_factory.mktemp("lun-a4"), "lowest-unique", "--players", "8")


@pytest.fixture(scope="session")
def lun_letter_named(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kit(
        tmp_path_factory.mktemp("lun-letter"), "lowest-unique", "--paper", "letter",
        "--names", "<b>Ann</b>,{{x}},Cy,Dee", "--range", "1-20", "--title", "Club night",
        "--date", "5 Dec 2026", "--sudden-death-announced",
    )


def page_fonts(resources: object) -> list[object]:
    """Every font dictionary a page uses, looking inside Form XObjects (stacked pages)."""
    found = []
    resources = resources.get_object()  # type: ignore[attr-defined]
    for font in resources.get("/Font", {}).values():
        found.append(font.get_object())
    for xobject in resources.get("/XObject", {}).values():
        xobject = xobject.get_object()
        if "/Resources" in xobject:
            found += page_fonts(xobject["/Resources"])
    return found


@pytest.fixture(scope="session")
def chromium_printer():
    """One headless Chromium for the whole session, printing HTML files to PDF bytes."""
    from chromium_print import ChromiumPrinter, available

    reason = available()
    if reason:
        pytest.skip(reason)
    with ChromiumPrinter() as printer:
        yield printer
