"""`kit report`: filled What's My Number? turn reports from a game log, in-process."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from conftest import REFERENCE_LOG_TURN_1
from pypdf import PdfReader

from kit.cli import main
from kit.games import whats_my_number as rules
from kit.pages.wmn_reports import report_layout
from kit.paper import paper

# The reference example: A guessed 17 and 33, B hit C with its first guess, C's list had three
# right. Then B finds A and D (turn 2) and E and F (turn 3), and wins.
LOG = REFERENCE_LOG_TURN_1 + """\
[[turn]]
B = [5, 45, 20]
A = [10, 38]
[[turn]]
B = [22, 30, 45]
"""

TURN_1 = """\
Turn 1

| Guess | A | B | C | D | E | F |
| A 1 | X | L | H | H | H | H |
| A 2 | X | L | H | L | L | L |
| B 1 | H | X | ✓ | L | L | L |
| B 2 | H | X | X | L | L | H |
| C List - 3 correct. | | | | | | |
"""


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.toml"
    path.write_text(LOG)
    return path


def test_text_reports_follow_the_reference_layout(capsys: pytest.CaptureFixture[str],
                                                  log_file: Path) -> None:
    assert main(["report", str(log_file), "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(TURN_1)
    assert "| B 3 | X | X | X | ✓ | H | H |" in out  # bonus guess after two hits in turn 1+2
    assert out.endswith("B wins in turn 3, by identifying every other number.\n")


def test_a_correct_list_wins_over_guesses_in_the_same_turn(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "list.toml"
    path.write_text(LOG.split("[[turn]]")[0] + "[[turn]]\n"
                    "A = { list = { B = 5, C = 40, D = 20, E = 22, F = 30 } }\n"
                    "B = [45, 40]\n")
    assert main(["report", str(path), "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "| A List - 5 correct. | | | | | | |" in out
    assert out.endswith("A wins in turn 1, by a fully correct list.\n")


def test_too_many_guesses_is_a_one_line_error(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(LOG.replace("A = [10, 38]", "A = [10, 38, 12]"))
    out_dir = tmp_path / "out"
    assert main(["report", str(path), "--out", str(out_dir)]) == 2
    assert capsys.readouterr().err == (
        "Error: turn 2, player A: 3 guesses, but 2 are allowed this turn (2 + 0 hits last turn)\n")
    assert not out_dir.exists()


def test_report_files_for_players_and_for_the_gm(capsys: pytest.CaptureFixture[str],
                                                 log_file: Path, tmp_path: Path) -> None:
    assert main(["report", str(log_file), "--out", str(tmp_path)]) == 0
    folder = tmp_path / "game-reports"
    assert capsys.readouterr().out.splitlines() == [str(folder / f) for f in (
        "gm-register.html", "gm-register.pdf", "turn-reports.html", "turn-reports.pdf")]
    reports = [" ".join(p.extract_text().split())
               for p in PdfReader(folder / "turn-reports.pdf").pages]
    assert [t.split(" · ")[1].split()[:3] for t in reports] == [
        ["Turn", "1", "report"], ["Turn", "2", "report"], ["Turn", "3", "report"]]
    assert "B 1 H X ✓ L L L" in reports[0]
    assert "(40)" not in reports[0]  # a guessed number would tell everyone C's secret
    assert "C List 3 correct." in reports[0]
    assert "Secret" not in " ".join(reports).replace("Secret numbers from", "")
    register = " ".join(PdfReader(folder / "gm-register.pdf").pages[0].extract_text().split())
    assert "B wins in turn 3" in register
    assert "A (2.2); C (1.1); D (2.3); E (3.1); F (3.2)" in register
    assert "HOST ONLY" in register


@pytest.mark.parametrize(("players", "landscape"), [(6, False), (20, False), (30, True)])
def test_report_layout_keeps_cells_legible(players: int, landscape: bool) -> None:
    for name in ("a4", "letter"):
        turned, cell, rows = report_layout(players, paper(name))
        assert cell >= 7.0 and rows >= 15
        assert turned == landscape or name == "letter"


def test_thirty_players_print_landscape_with_seven_millimetre_cells(tmp_path: Path) -> None:
    labels = rules.player_labels(30)
    secrets = "\n".join(f"{label} = {i * 9 + 3}" for i, label in enumerate(labels))
    orders = "\n".join(f"{label} = [{i + 1}, {i + 100}]" for i, label in enumerate(labels))
    path = tmp_path / "big.toml"
    path.write_text(f'game = "whats-my-number"\nplayers = {labels!r}\n[secrets]\n{secrets}\n'
                    f"[[turn]]\n{orders}\n".replace("'", '"'))
    assert main(["report", str(path), "--out", str(tmp_path)]) == 0
    with pdfplumber.open(tmp_path / "big-reports" / "turn-reports.pdf") as pdf:
        rows = report_layout(30, paper("a4"))[2]
        assert len(pdf.pages) == -(-60 // rows) > 1  # 60 guess rows, continued over pages
        text = " ".join(page.extract_text() for page in pdf.pages)
        assert "AD 2" in text  # the last row made it onto the last page
        for page in pdf.pages:
            assert page.width > page.height
            assert min(c["size"] for c in page.chars) >= 8 - 0.01
            cells = [r for r in page.rects if r["height"] > 5]
            assert cells and min(r["width"] for r in cells) * 25.4 / 72 >= 7.0 - 0.05
