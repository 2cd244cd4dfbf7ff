"""Shared fixtures: kits are built once per test session and read back many times."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit.cli import main


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
