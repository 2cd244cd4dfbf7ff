"""The What's My Number? kit: config rules, layout maths on numbers, and the PDFs read back."""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest
from pypdf import PdfReader
from support.helpers import A4, LETTER, bundled_font_names, embedded_fonts, page_sizes, plain

from kit.cli import main
from kit.config import resolve
from kit.games.whats_my_number import planner
from kit.games.whats_my_number.sheets import examples
from kit.games.whats_my_number.sheets.people import people
from kit.i18n import words
from kit.registry import GAMES

EN = words("en")
CREDIT = "What's My Number? — a game by Allan Stagg (2000)"

# --- building ------------------------------------------------------------------------------------


def build(out: Path, *argv: str) -> Path:
    """``kit build whats-my-number ...`` in-process; returns the kit folder."""
    assert main(["build", "whats-my-number", *argv, "--out", str(out)]) == 0
    (folder,) = [p for p in out.iterdir() if not p.name.startswith(".")]
    return folder


@pytest.fixture(scope="module")
def six(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("wmn6"), "--players", "6")


@pytest.fixture(scope="module")
def letter_named(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("wmn-letter"), "--paper", "letter", "--names",
                 "Ann,Bartholomew Fitzgerald-X,Cy,Dee,Eve", "--range", "5-60", "--turns", "2")


@cache
def texts(pdf: Path) -> list[str]:
    """Each page's text in content order (pypdf), one string per page."""
    return [" ".join((page.extract_text() or "").split()) for page in PdfReader(pdf).pages]


# --- config: range, players, errors --------------------------------------------------------------


def test_registered() -> None:
    spec = GAMES["whats-my-number"]
    assert spec.name == "whats-my-number"
    assert spec.title == "What's My Number?"
    assert (spec.min_players, spec.max_players) == (4, 30)


@pytest.mark.parametrize("players", range(4, 13))
def test_default_range_is_ten_times_players_minus_one(players: int) -> None:
    config = resolve({"game": "whats-my-number", "players": players})
    assert config.range == (1, 10 * (players - 1))
    assert not config.custom_range
    assert planner.banner(config) == f"Secret numbers: whole numbers from 1 to {10 * (players - 1)}"


def test_six_players_play_one_to_fifty() -> None:
    config = resolve({"game": "whats-my-number", "players": "6"})
    assert config.range == (1, 50)
    assert config.folder_name == "whats-my-number-6p-a4"
    assert config.settings.turns == 8


def test_custom_range_is_announced() -> None:
    config = resolve({"game": "whats-my-number", "players": 4, "range": "1-4"})
    assert config.range == (1, 4) and config.custom_range
    assert planner.banner(config) == "Announced range: secret numbers from 1 to 4"


def test_labels_letters_then_names() -> None:
    letters = people(resolve({"game": "whats-my-number", "players": 28}))
    assert [p.text for p in letters][:3] == ["A", "B", "C"]
    # H, L and X are answers, never labels: 23 letters, then AA ...
    assert "H" not in [p.letter for p in letters]
    assert [p.letter for p in letters][-6:] == ["Z", "AA", "AB", "AC", "AD", "AE"]
    named = people(resolve({"game": "whats-my-number", "names": "Ann,Bob,Cy,Di"}))
    assert [plain(p.text) for p in named] == ["A · Ann", "B · Bob", "C · Cy", "D · Di"]


CAP = ("What's My Number? kits are made for 4 to 30 players (the game needs at least 4; the "
       "upper limit is the kit's, the rules set none); got ")
BAD_INPUT = [
    (["--players", "3"], "players: " + CAP + "3"),
    (["--players", "31"], "players: " + CAP + "31"),
    (["--players", "many"], "players: " + CAP + "“many”"),
    (["--names", ",".join(f"P{i}" for i in range(31))], "players: " + CAP + "31"),
    (["--range", "1-0"], "range: 1-0 cannot be used: give the lowest and the highest number, e.g."
     " 1-20, the lowest at least 1 and the highest above it, at most 999"),
    (["--players", "6", "--range", "1-5"], "range: 1-5 holds 5 numbers, but 6 players need at "
     "least 6, so the highest number must be at least 6 (the default for 6 players is 1-50)"),
    (["--players", "4", "--range", "20-22"], "range: 20-22 holds 3 numbers, but 4 players need "
     "at least 4, so the highest number must be at least 23 (the default for 4 players is 1-30)"),
    (["--turns", "0"], "turns: must be a whole number from 1 to 30; got “0”"),
]


@pytest.mark.parametrize(("argv", "expected"), BAD_INPUT)
def test_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str],
                   expected: str) -> None:
    out = tmp_path / "out"
    code = main(["build", "whats-my-number", *argv, "--out", str(out)])
    stdout, stderr = capsys.readouterr()
    assert code == 2
    assert stdout == ""
    assert stderr == f"Error: {expected}\n"
    assert not out.exists() or not any(out.iterdir())


def test_smallest_custom_range_is_allowed() -> None:
    config = resolve({"game": "whats-my-number", "players": 6, "range": "10-15"})
    assert config.range == (10, 15)


# --- the example is computed by the rules module -------------------------------------------------


def test_example_is_the_reference_turn() -> None:
    ex = examples.example(EN)
    rows = [(r["player"], r.get("index"), tuple(r.get("cells", ()))) for r in ex["rows"]]
    assert rows == [
        ("A", 1, ("X", "L", "H", "H", "H", "H")),
        ("A", 2, ("X", "L", "H", "L", "L", "L")),
        ("B", 1, ("H", "X", "✓", "L", "L", "L")),
        ("B", 2, ("H", "X", "X", "L", "L", "H")),
        ("C", None, ()),
    ]
    assert ex["rows"][-1] == {"list": True, "player": "C", "correct": 3}
    readings = {r["player"]: r for r in ex["readings"]}
    # the reference's own reading: B below 17, C above 33, D, E and F between 17 and 33
    assert readings["A"]["parts"] == ["B is from 1 to 16", "C is from 34 to 50",
                                      "D, E and F are from 18 to 32"]
    assert readings["B"]["parts"][:2] == ["A is from 41 to 50", "C is 40"]
    assert (readings["B"]["hits"], readings["B"]["next"]) == (1, 3)
    assert ex["lists"] == [{"player": "C", "correct": 3, "wrong": 2}]


def test_tie_examples_follow_the_rules() -> None:
    ties = examples.tie_examples(EN)
    assert [(t["winners"], t["reason"]) for t in ties] == [
        ("B", "guesses"), ("C", "list"), ("A and B", "guesses")]


# --- the PDFs ------------------------------------------------------------------------------------


def test_files_and_page_sizes(six: Path, letter_named: Path) -> None:
    assert six.name == "whats-my-number-6p-a4"
    assert {p.name for p in six.iterdir() if p.is_file() and p.name != ".kit-files"} == {
        "player-kit.pdf", "player-kit.html", "host-answers.pdf", "host-answers.html"}
    assert re.fullmatch(r"whats-my-number-5p-letter-range5-60-[0-9a-f]{6}", letter_named.name)
    for stem in ("player-kit", "host-answers"):
        assert page_sizes(six / f"{stem}.pdf") == {A4}
        assert page_sizes(letter_named / f"{stem}.pdf") == {LETTER}
        fonts = embedded_fonts(six / f"{stem}.pdf")
        assert set(fonts) <= bundled_font_names() and all(fonts.values())


def test_thirty_players_grids_turn_landscape(tmp_path: Path) -> None:
    folder = build(tmp_path, "--players", "30", "--turns", "1")
    sizes = page_sizes(folder / "host-answers.pdf")
    assert sizes == {A4, A4[::-1]}  # cards and register portrait, the grids landscape
    host = texts(folder / "host-answers.pdf")
    assert sum("Turn 1 report" in t for t in host) == 8


def test_player_kit_pages(six: Path) -> None:
    pages = texts(six / "player-kit.pdf")
    assert len(pages) == 15
    labels = [re.search(r"What's My Number\? · (.+?) Secret numbers", t)[1] for t in pages]
    assert labels == (["Rules", "Reading the turn report", "Secret-number slips 1 of 1"]
                      + [f"Order forms {i} of 5" for i in range(1, 6)]
                      + [f"Deduction sheets {a} and {b}" for a, b in ("AB", "CD", "EF")]
                      + [f"Turn {t} and {t + 1} reports" for t in (1, 3, 5, 7)])  # blank
    banner = "Secret numbers: whole numbers from 1 to 50"
    assert all(banner in t for t in pages)  # in the header of every player page
    assert all("This bar should measure 50 mm" in t for t in pages)


def test_rules_sheet(six: Path) -> None:
    text = texts(six / "player-kit.pdf")[0]
    for phrase in (
        "at least 4 players", "1 to 10 × (players − 1)", "For 6 players that is 1 to 50",
        "Two players may hold the same number", "one bonus guess for each secret number you "
        "hit in your previous turn", "A list: one number for every other player",
        "higher than the guess", "lower than the guess", "✓", "no information",
        "A correct list beats guesses made in the same turn", "guess 1 comes before guess 2",
        "share the win", CREDIT,
    ):
        assert phrase in text, phrase
    assert text.index(CREDIT) > text.index("share the win")  # last on the page, present


def test_legend_and_example_in_player_kit(six: Path) -> None:
    text = texts(six / "player-kit.pdf")[1]
    for phrase in ("H The player’s secret number is higher than the guess",
                   "L The player’s secret number is lower than the guess",
                   "✓ The guess is that player’s number", "X No information"):
        assert phrase in text, phrase
    # the computed example table, row by row
    assert "Guess A B C D E F A 1 X L H H H H A 2 X L H L L L B 1 H X ✓ L L L " \
           "B 2 H X X L L H C List 3 correct" in text
    assert "B is from 1 to 16; C is from 34 to 50; D, E and F are from 18 to 32" in text
    assert "list of 5 numbers: 3 right, 2 wrong" in text


def test_slips_forms_and_deduction(six: Path, letter_named: Path) -> None:
    pages = texts(six / "player-kit.pdf")
    slips = pages[2]
    assert [slips.count(f"Secret number slip · player {c}") for c in "ABCDEF"] == [1] * 6
    forms = " ".join(pages[3:8])
    for letter in "ABCDEF":
        for turn in range(1, 9):
            assert re.search(rf"{letter} order form · turn {turn}\b", forms), (letter, turn)
    assert forms.count("order form · turn") == 48
    assert forms.count("— or a list: a number for every other player —") == 48
    deduction_a = pages[8]
    assert "Deduction sheet · A" in deduction_a
    assert "Start low high " + " ".join(f"Turn {t} low high" for t in range(1, 9)) in deduction_a
    assert "My guesses B 1 50 C 1 50 D 1 50 E 1 50 F 1 50" in deduction_a
    named = " ".join(texts(letter_named / "player-kit.pdf"))
    assert "B · Bartholomew Fitzgerald-X" in named
    assert "Announced range: secret numbers from 5 to 60" in named
    assert "This game uses the announced range 5 to 60 instead" in texts(
        letter_named / "player-kit.pdf")[0]


def test_two_deduction_sheets_share_a_page(six: Path) -> None:
    """Read back by Poppler: pages 9 to 11 each hold two players' sheets, the first
    player's table whole before the second's title; the blank reports follow on page 12."""
    def page(number: int) -> str:
        done = subprocess.run(["pdftotext", "-f", str(number), "-l", str(number),
                               str(six / "player-kit.pdf"), "-"],
                              capture_output=True, text=True, check=True)
        return " ".join(done.stdout.split())

    for number, (first, second) in zip((9, 10, 11), ("AB", "CD", "EF"), strict=True):
        text = page(number)
        assert f"What's My Number? · Deduction sheets {first} and {second}" in text
        top, bottom = (text.index(f"Deduction sheet · {who} Keep it private")
                       for who in (first, second))
        others = [c for c in "ABCDEF" if c != first]
        assert top < text.index(f"{others[-1]} 1 50") < bottom
        assert f"{first} 1 50" in text[bottom:] and f"{first} 1 50" not in text[:bottom]
    assert "What's My Number? · Turn 1 and 2 reports" in page(12)


def test_host_file_has_the_register_and_grids_and_the_player_file_does_not(six: Path) -> None:
    host = texts(six / "host-answers.pdf")
    player = " ".join(texts(six / "player-kit.pdf"))
    assert len(host) == 12
    assert "Game master card" in host[0]
    assert "Worked examples" in host[1]
    assert "Secret register" in host[2]
    assert [f"Turn {t} report" in host[2 + t] for t in range(1, 9)] == [True] * 8
    assert "Spare bonus rows" in host[11]
    assert all("GAME MASTER ONLY" in t for t in host)
    for secret in ("Secret register", "Winner?", "Game master card", "Spare bonus rows",
                   "GAME MASTER ONLY", "Player ____"):
        assert secret not in player
    assert all(f"{c} " in host[2] for c in "ABCDEF")


def test_gm_card(six: Path) -> None:
    card, worked = texts(six / "host-answers.pdf")[:2]
    for phrase in ("Bonus guesses", "one bonus guess next turn", "When the game ends",
                   "a correct list beats guesses made in the same turn",
                   "guess 1 before guess 2 before bonus guesses", "share the win",
                   "X in the guesser’s own column", "Two players may hold the same number",
                   "gets ✓ in both columns", "Keep this file away from the players."):
        assert phrase in card, phrase
    for phrase in ("A 45 · B 5 · C 40 · D 20 · E 22 · F 30",
                   "A 1, guess 17: A 45 is the guesser’s own number: X; B 5 is lower: L; "
                   "C 40, D 20, E 22 and F 30 are higher: H.",
                   "C 40 equals the guess: ✓, a hit",
                   "C 40 was already found by B this turn: X",
                   "write “3 correct”", "B may make 3 guesses next turn",
                   "A finds D with guess 2, B finds D with guess 1 B earliest guess position",
                   "C a correct list beats guesses",
                   "A and B same guess position: shared win"):
        assert phrase in worked, phrase


def test_deterministic(tmp_path: Path) -> None:
    first = build(tmp_path / "1", "--players", "4", "--turns", "1")
    second = build(tmp_path / "2", "--players", "4", "--turns", "1", "--no-cache")
    for name in ("player-kit.pdf", "host-answers.pdf", "player-kit.html", "host-answers.html"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
