"""Cut guides: the cut lines across a page of slips run into the side margins, and a named kit's
host card says how its slips are ordered."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
from support.helpers import MM, texts

from kit.cli import main

MARK_MM = 3.0  # how far each cut line across runs past the slips, into the side margins
ORDER = "Slips come player by player, each player’s rounds in order, then their spares"


def _kit(out: Path, *argv: str) -> Path:
    assert main(["build", "lowest-unique", *argv, "--out", str(out)]) == 0
    (folder,) = [p for p in out.iterdir() if p.is_dir()]
    return folder


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cut_lines_across_run_into_the_margins(paper: str, tmp_path: Path) -> None:
    folder = _kit(tmp_path, "--players", "3", "--paper", paper)
    with pdfplumber.open(folder / "player-kit.pdf") as pdf:
        page = pdf.pages[1]  # the first page of slips
        solid = [e for e in page.edges if round(e["linewidth"] / MM, 2) == 0.35]
        # the cut lines across span the page; the fold lines (0.35 mm too) one slip
        across = [e for e in solid if e["orientation"] == "h" and e["width"] > page.width / 2]
        down = [e for e in solid if e["orientation"] == "v" and e["height"] > 40 * MM]
        left, right = min(e["x0"] for e in down), max(e["x1"] for e in down)
        assert len(across) == 5  # four rows of slips
        for edge in across:
            assert edge["x0"] == pytest.approx(left - MARK_MM * MM, abs=0.05)
            assert edge["x1"] == pytest.approx(right + MARK_MM * MM, abs=0.05)
            assert edge["x0"] >= 6 * MM  # inked, even by a printer that leaves 6 mm bare
            assert page.width - edge["x1"] >= 6 * MM


def test_a_named_kit_says_how_its_slips_are_ordered(tmp_path: Path) -> None:
    named = _kit(tmp_path / "named", "--names", "Ann,Bob,Cy")
    blank = _kit(tmp_path / "blank", "--players", "3")
    assert ORDER in texts(named / "host-answers.pdf")[0]
    assert ORDER not in " ".join(texts(blank / "host-answers.pdf"))
    assert "Cut along the solid lines" in texts(blank / "host-answers.pdf")[0]


STACKED = "Slips come a round a page, each player in the same place on every page"


@pytest.mark.parametrize("names", ["Ann,Bob,Cy,Dee,Eve,Fay,Gus", "Ann,Bob,Cy,Dee,Eve,Fay,Gus,Hal"])
def test_a_stack_of_slip_pages_cut_together_gives_one_pile_per_player(names: str,
                                                                       tmp_path: Path) -> None:
    """A table that fits a page gets a round a page, each player in the same place, when that
    takes no more paper: each place on the pages is one player's pile, in round order, and
    the places left over are blank spares."""
    folder = _kit(tmp_path, "--names", names)
    players = names.split(",")
    with pdfplumber.open(folder / "player-kit.pdf") as pdf:
        slip_pages = [p for p in pdf.pages
                      if re.search(r"Slips \d+ of \d+", p.extract_text() or "")]
        piles: dict[int, list[str]] = {}
        for page in slip_pages:
            words = [w for w in page.extract_words() if w["text"] in players]
            for place, word in enumerate(sorted(words, key=lambda w: (round(w["top"]),
                                                                       w["x0"]))):
                piles.setdefault(place, []).append(word["text"])
    assert [pile[0] for pile in piles.values()] == players
    assert all(len(set(pile)) == 1 and len(pile) == 6 for pile in piles.values())  # 5 + spare
    card = texts(folder / "host-answers.pdf")[0]
    assert STACKED in card.replace("\n", " ") and ORDER not in card


def test_a_small_table_keeps_player_by_player_on_less_paper(tmp_path: Path) -> None:
    folder = _kit(tmp_path, "--names", "Ann,Bob,Cy,Dee")
    pages = texts(folder / "player-kit.pdf")
    assert sum("Slips " in t for t in pages) == 3  # 24 slips, 8 a page: not 6 pages
    assert STACKED not in texts(folder / "host-answers.pdf")[0]
