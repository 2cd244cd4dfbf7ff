"""The What's My Number? kit: config rules, layout maths on numbers, and the PDFs read back."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from kit import render
from kit.cli import main
from kit.config import resolve
from kit.errors import LayoutError
from kit.games import whats_my_number as rules
from kit.pages import whats_my_number as wmn
from kit.paper import FOOTER_MM, MARGIN_MM, Paper, paper
from kit.registry import GAMES, game_spec

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
PT_PER_MM = 72 / 25.4
MIN_MM = 7.0
MIN_PT = 8.0
A5 = Paper("a5", "A5", 148.0, 210.0, "148mm 210mm")  # narrow: forces column splits


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


def grid_pdf(out: Path, players: int, paper_name: str, turns: int,
             keep: tuple[int, ...] | None = None) -> Path:
    """Only report-grid pages (``keep`` of them), rendered on their own: quicker than a kit."""
    config = resolve({"game": "whats-my-number", "players": players, "paper": paper_name,
                      "turns": turns})
    plan = game_spec(config.game).plan(config)
    host = plan.documents[1]
    grids = [p for p in host.pages if p.template == "whats_my_number/grid.html"]
    host = dataclasses.replace(host, pages=tuple(
        grids if keep is None else [grids[i] for i in keep]))
    path = out / f"grid-{players}-{paper_name}.pdf"
    path.write_bytes(render.html_to_pdf(render.render_html(plan, host, config),
                                        [p.label for p in host.pages]))
    return path


@pytest.fixture(scope="module")
def grids_30(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("wmn30")
    # turn 1's first and last sheets, then the spare sheet
    return {name: grid_pdf(out, 30, name, 1, (0, 7, 8)) for name in ("a4", "letter")}


@pytest.fixture(scope="module")
def grids_12(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return grid_pdf(tmp_path_factory.mktemp("wmn12"), 12, "a4", 2)


@cache
def texts(pdf: Path) -> list[str]:
    """Each page's text in content order (pypdf), one string per page."""
    return [" ".join((page.extract_text() or "").split()) for page in PdfReader(pdf).pages]


@dataclass(frozen=True)
class PageData:
    width: float
    height: float
    text: str  # in reading position: top to bottom, left to right
    chars: tuple[tuple[float, float, float, float, float], ...]  # x0, x1, top, bottom, size
    foot: str  # the text below the page body (the footer band)
    grid: tuple[list[list[str | None]], list[tuple], tuple] | None  # rows, cells, bbox


@cache
def read(pdf: Path) -> list[PageData]:
    """Everything the tests look at, read once per PDF with pdfplumber."""
    out = []
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            text = " ".join((page.extract_text() or "").split())
            grid = None
            if re.search(r"Turn \d+ report|Spare bonus rows", text):
                tables = [t for t in page.find_tables()
                          if (t.extract()[0] or [None])[0] == "Player"]
                assert len(tables) == 1
                grid = (tables[0].extract(), list(tables[0].cells), tables[0].bbox)
            body_bottom = page.height - (MARGIN_MM + FOOTER_MM) * PT_PER_MM
            foot = page.crop((0, body_bottom, page.width, page.height)).extract_text() or ""
            out.append(PageData(
                page.width, page.height, text,
                tuple((c["x0"], c["x1"], c["top"], c["bottom"], c["size"]) for c in page.chars),
                " ".join(foot.split()), grid))
    return out


def lines(pdf: Path) -> list[str]:
    return [page.text for page in read(pdf)]


def page_sizes(pdf: Path) -> set[tuple[float, float]]:
    return {(round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2))
            for p in PdfReader(pdf).pages}


# --- config: range, players, errors --------------------------------------------------------------


def test_registered() -> None:
    spec = GAMES["whats-my-number"]
    assert spec is wmn.SPEC
    assert spec.title == "What's My Number?"
    assert (spec.min_players, spec.max_players) == (4, 30)


@pytest.mark.parametrize("players", range(4, 13))
def test_default_range_is_ten_times_players_minus_one(players: int) -> None:
    config = resolve({"game": "whats-my-number", "players": players})
    assert config.range == (1, 10 * (players - 1))
    assert not config.custom_range
    assert wmn.banner(config) == f"Secret numbers: whole numbers from 1 to {10 * (players - 1)}"


def test_six_players_play_one_to_fifty() -> None:
    config = resolve({"game": "whats-my-number", "players": "6"})
    assert config.range == (1, 50)
    assert config.folder_name == "whats-my-number-6p-a4"
    assert config.turns == 8


def test_custom_range_is_announced() -> None:
    config = resolve({"game": "whats-my-number", "players": 4, "range": "1-4"})
    assert config.range == (1, 4) and config.custom_range
    assert wmn.banner(config) == "Announced range: secret numbers from 1 to 4"


def test_labels_letters_then_names() -> None:
    plain = wmn.players(resolve({"game": "whats-my-number", "players": 28}))
    assert [p["text"] for p in plain][:3] == ["A", "B", "C"]
    assert [p["letter"] for p in plain][-2:] == ["AA", "AB"]
    named = wmn.players(resolve({"game": "whats-my-number", "names": "Ann,Bob,Cy,Di"}))
    assert [p["text"] for p in named] == ["A · Ann", "B · Bob", "C · Cy", "D · Di"]


def test_names_are_fitted_by_font_metrics() -> None:
    assert wmn.name_lines("Bartholomew Fitzgerald-X", 3) == ["Bartholomew", "Fitzgerald-X", ""]
    assert wmn.name_lines("", 3) == ["", "", ""]
    wide = "W" * 24  # the widest letters: broken, then cut with an ellipsis
    cut = wmn.name_lines(wide, 3)
    assert len(cut) == 3 and cut[-1].endswith("…") and "".join(cut)[:-1] == wide[:len(
        "".join(cut)) - 1]
    width = wmn.GRID_PLAYER_MM - 2.5
    assert all(wmn.text_width_mm(line, 8.0) <= width for line in cut)
    assert wmn.text_width_mm("iiii", 10) < wmn.text_width_mm("WWWW", 10)
    assert wmn.label_lines("A · Ann", 23.5) == ["A · Ann"]
    assert wmn.label_lines("B · Bartholomew Fitzgerald-X", 23.5) == ["B · Bartholomew",
                                                                     "Fitzgerald-X"]
    text, size = wmn.fit_size("B · Bartholomew Fitzgerald-X", wmn.FORM_NAME_MM, 12, 8, True)
    assert text == "B · Bartholomew Fitzgerald-X" and 8 <= size < 12
    assert wmn.text_width_mm(text, size, bold=True) <= wmn.FORM_NAME_MM
    assert wmn.fit_size("Ann", wmn.FORM_NAME_MM, 12, 8, True) == ("Ann", 12)
    text, size = wmn.fit_size("B · " + wide, wmn.FORM_NAME_MM, 12, 8, True)
    assert size == 8 and text.startswith("B · WWW") and text.endswith("…")


CAP = ("What's My Number? kits are made for 4 to 30 players (the game needs at least 4; the "
       "upper limit is the kit's, the rules set none); got ")
BAD_INPUT = [
    (["--players", "3"], "players: " + CAP + "3"),
    (["--players", "31"], "players: " + CAP + "31"),
    (["--players", "many"], "players: " + CAP + "'many'"),
    (["--names", ",".join(f"P{i}" for i in range(31))], "players: " + CAP + "31"),
    (["--range", "1-0"], "range: 1-0 is not allowed; give two whole numbers LO-HI with "
     "1 <= LO < HI <= 999, e.g. 1-20"),
    (["--players", "6", "--range", "1-5"], "range: 1-5 holds 5 numbers, but 6 players need at "
     "least 6, so the highest number must be at least 6 (the default for 6 players is 1-50)"),
    (["--players", "4", "--range", "20-22"], "range: 20-22 holds 3 numbers, but 4 players need "
     "at least 4, so the highest number must be at least 23 (the default for 4 players is 1-30)"),
    (["--turns", "0"], "turns: must be a whole number from 1 to 30; got '0'"),
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


# --- layout maths, on numbers --------------------------------------------------------------------


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
@pytest.mark.parametrize("players", [4, 6, 12, 20, 30])
def test_grid_layout_is_legible_and_fits(players: int, paper_name: str) -> None:
    p = paper(paper_name)
    layout = wmn.grid_layout(p, players)
    sheet = p.turned() if layout.landscape else p
    assert (layout.sheet_width_mm, layout.sheet_height_mm) == (sheet.width_mm, sheet.height_mm)
    # legible
    assert layout.cell_width_mm >= wmn.GRID_MIN_CELL_MM > MIN_MM
    assert layout.row_height_mm >= MIN_MM
    assert wmn.GRID_HEAD_MM >= MIN_MM
    # every column and every player block exactly once
    assert [i for a, b in layout.column_parts for i in range(a, b)] == list(range(players))
    assert [i for a, b in layout.row_parts for i in range(a, b)] == list(range(players))
    assert layout.sheets_per_turn == len(layout.column_parts) * len(layout.row_parts)
    # fits the sheet: width, and height of the fullest sheet with its extra rows
    assert layout.grid_width_mm(layout.max_columns) <= sheet.content_width_mm
    fullest = max(b - a for a, b in layout.row_parts) * layout.rows_per_player
    last = (layout.row_parts[-1][1] - layout.row_parts[-1][0]) * layout.rows_per_player
    for rows in (fullest, last + layout.extra_rows, layout.rows_per_sheet):
        assert rows <= layout.rows_per_sheet
        assert wmn.GRID_TOP_MM + layout.grid_height_mm(rows) <= sheet.body_height_mm
    assert 0 <= layout.extra_rows <= wmn.MAX_EXTRA_ROWS
    assert layout.rows_per_player == 4  # guess 1, guess 2, one bonus row, a list row


@pytest.mark.parametrize(
    ("players", "paper_name", "landscape", "sheets", "extra"),
    [
        (4, "a4", False, 1, 6),
        (6, "a4", False, 1, 6),
        (12, "a4", False, 2, 6),
        (20, "a4", False, 3, 6),
        (21, "a4", True, 6, 6),  # 21 columns do not fit portrait A4 at 7.2 mm
        (21, "letter", False, 3, 0),  # ... but do fit portrait Letter
        (30, "a4", True, 8, 6),
        (30, "letter", True, 8, 6),
    ],
)
def test_grid_layout_choices(players: int, paper_name: str, landscape: bool, sheets: int,
                             extra: int) -> None:
    layout = wmn.grid_layout(paper(paper_name), players)
    assert layout.landscape is landscape
    assert layout.sheets_per_turn == sheets
    assert len(layout.column_parts) == 1
    assert layout.extra_rows == extra


def test_grid_columns_continue_on_a_second_sheet_when_landscape_is_not_enough() -> None:
    layout = wmn.grid_layout(A5, 30)
    assert len(layout.column_parts) > 1
    assert layout.cell_width_mm >= wmn.GRID_MIN_CELL_MM
    sheet = A5.turned() if layout.landscape else A5
    assert layout.grid_width_mm(layout.max_columns) <= sheet.content_width_mm
    sheets = wmn.grid_sheets(layout, [{"letter": c, "name": ""} for c in rules.player_labels(30)],
                             turn=1)
    assert len(sheets) == layout.sheets_per_turn
    assert [s["first_part"] for s in sheets[:2]] == [True, False]
    assert sheets[-1]["last"] and not any(s["last"] for s in sheets[:-1])
    # every (block, column) pair appears on exactly one sheet
    pairs = [(b["index"], c["index"]) for s in sheets for b in s["blocks"] for c in s["columns"]]
    assert sorted(pairs) == [(b, c) for b in range(30) for c in range(30)]


def test_grid_layout_refuses_paper_that_cannot_be_legible() -> None:
    with pytest.raises(LayoutError):
        wmn.grid_layout(Paper("tiny", "Tiny", 60.0, 80.0, "60mm 80mm"), 6)


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
@pytest.mark.parametrize("players", [4, 6, 12, 20, 30])
def test_form_layout_fits(players: int, paper_name: str) -> None:
    p = paper(paper_name)
    form = wmn.form_layout(p, players - 1)
    assert form.list_per_row * form.list_rows >= players - 1
    assert form.list_per_row * wmn.FORM_LIST_ENTRY_MM + wmn.FORM_LIST_INDENT_MM + (
        2 * wmn.FORM_PAD_MM) <= form.width_mm
    assert form.height_mm >= form.content_mm
    assert form.columns * form.width_mm <= p.content_width_mm
    assert wmn.BANNER_MM + form.rows * form.height_mm <= p.body_height_mm
    assert form.per_page >= 4


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
@pytest.mark.parametrize(("players", "turns"), [(4, 8), (6, 8), (12, 8), (20, 30), (30, 8)])
def test_deduction_layout_fits(players: int, turns: int, paper_name: str) -> None:
    p = paper(paper_name)
    number_range = rules.default_range(players)
    ded = wmn.deduction_layout(p, players, turns, number_range)
    assert [t for a, b in ded.turn_parts for t in range(a, b)] == list(range(1, turns + 1))
    assert [o for a, b in ded.opponent_parts for o in range(a, b)] == list(range(players - 1))
    assert ded.sub_width_mm >= wmn.number_width_mm(number_range) >= MIN_MM
    widest = max(b - a for a, b in ded.turn_parts)
    assert wmn.DED_LABEL_MM + 2 * ded.sub_width_mm * (widest + 1) <= p.content_width_mm
    tallest = max(b - a for a, b in ded.opponent_parts)
    block = wmn.DED_HEAD_MM + (tallest + 1) * ded.row_mm
    on_page = min(ded.blocks_per_page, len(ded.blocks))
    used = wmn.BANNER_MM + wmn.DED_TOP_MM + on_page * (block + wmn.DED_GAP_MM)
    assert used <= p.body_height_mm + wmn.DED_GAP_MM
    assert ded.pages_per_player == -(-len(ded.blocks) // ded.blocks_per_page)
    assert ded.row_mm >= wmn.DED_ROW_MM


def test_three_digit_ranges_get_wider_columns() -> None:
    assert wmn.number_width_mm((1, 50)) == MIN_MM
    assert wmn.number_width_mm((1, 290)) > wmn.number_width_mm((1, 50))


def test_register_pages() -> None:
    for name in ("a4", "letter"):
        p = paper(name)
        rows = wmn.register_rows_per_page(p)
        assert rows >= 28
        assert wmn.register_row_mm(p, rows) >= MIN_MM
        assert wmn.REG_TOP_MM + wmn.REG_HEAD_MM + rows * wmn.register_row_mm(p, rows) <= (
            p.body_height_mm)


def test_slip_layout() -> None:
    for name in ("a4", "letter"):
        p = paper(name)
        slips = wmn.slip_layout(p)
        assert slips.per_page == 8
        assert wmn.BANNER_MM + slips.rows * slips.height_mm <= p.body_height_mm


# --- the example is computed by the rules module -------------------------------------------------


def test_example_is_the_reference_turn() -> None:
    ex = wmn.example()
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
    ties = wmn.tie_examples()
    assert [(t["winners"], t["reason"]) for t in ties] == [
        ("B", "guesses"), ("C", "list"), ("A and B", "guesses")]


# --- the PDFs ------------------------------------------------------------------------------------


def test_files_and_page_sizes(six: Path, letter_named: Path, grids_12: Path,
                              grids_30: dict[str, Path]) -> None:
    assert six.name == "whats-my-number-6p-a4"
    assert {p.name for p in six.iterdir() if p.is_file()} == {
        "player-kit.pdf", "player-kit.html", "host-answers.pdf", "host-answers.html"}
    assert letter_named.name == "whats-my-number-5p-letter-range5-60"
    for stem in ("player-kit", "host-answers"):
        assert page_sizes(six / f"{stem}.pdf") == {A4}
        assert page_sizes(letter_named / f"{stem}.pdf") == {LETTER}
    assert page_sizes(grids_12) == {A4}
    assert page_sizes(grids_30["a4"]) == {A4[::-1]}  # landscape
    assert page_sizes(grids_30["letter"]) == {LETTER[::-1]}


def test_player_kit_pages(six: Path) -> None:
    pages = texts(six / "player-kit.pdf")
    labels = [re.search(r"What's My Number\? · (.+?) Secret numbers", t)[1] for t in pages]
    assert labels == (["Rules", "Reading the turn report", "Secret-number slips 1 of 1"]
                      + [f"Order forms {i} of 6" for i in range(1, 7)]
                      + [f"Deduction sheet {c}" for c in "ABCDEF"])
    banner = "Secret numbers: whole numbers from 1 to 50"
    assert all(t.count(banner) >= 2 for t in pages)  # in the header and large on the page


def test_rules_sheet(six: Path) -> None:
    text = texts(six / "player-kit.pdf")[0]
    for phrase in (
        "at least 4 players", "1 to 10 × (players − 1)", "For 6 players that is 1 to 50",
        "Two players may hold the same number", "one bonus guess for each secret number you "
        "hit in your previous turn", "A list: one number for every other player",
        "higher than the guess", "lower than the guess", "✓", "no information",
        "A correct list beats guesses made in the same turn", "guess 1 comes before guess 2",
        "share the win", rules.CREDIT,
    ):
        assert phrase in text, phrase
    assert text.index(rules.CREDIT) > text.index("share the win")  # last on the page, present


def test_legend_and_example_in_player_kit(six: Path) -> None:
    text = texts(six / "player-kit.pdf")[1]
    for phrase in ("H The player’s secret number is higher than the guess",
                   "L The player’s secret number is lower than the guess",
                   "✓ The guess is that player’s number", "X No information"):
        assert phrase in text, phrase
    # the computed example table, row by row
    assert "Guess A B C D E F A 1 X L H H H H A 2 X L H L L L B 1 H X ✓ L L L " \
           "B 2 H X X L L H C list 3 correct" in text
    assert "B is from 1 to 16; C is from 34 to 50; D, E and F are from 18 to 32" in text
    assert "3 of its 5 numbers are right" in text


def test_slips_forms_and_deduction(six: Path, letter_named: Path) -> None:
    pages = lines(six / "player-kit.pdf")
    slips = pages[2]
    assert [slips.count(f"Secret number slip · player {c}") for c in "ABCDEF"] == [1] * 6
    assert slips.count("fold back · number inside") == 6
    forms = " ".join(pages[3:9])
    for letter in "ABCDEF":
        for turn in range(1, 9):
            assert f"{letter} order form · turn {turn}" in forms
    assert forms.count("order form · turn") == 48
    assert forms.count("— or a list: a number for every other player —") == 48
    # the last row of forms on every page is there, list lines labelled by opponent letter
    for page in pages[3:9]:
        assert re.search(r"or a list: a number for every other player — ([A-F] ){5,}"
                         r"This bar should measure", page), page
    assert "F order form · turn 7 F order form · turn 8" in pages[8]
    deduction_a = pages[9]
    assert "Deduction sheet · A" in deduction_a
    assert "Start Turn 1 Turn 2 Turn 3 Turn 4 Turn 5 Turn 6 Turn 7 Turn 8" in deduction_a
    assert "My guesses B 1 50 C 1 50 D 1 50 E 1 50 F 1 50 This bar" in deduction_a
    named = lines(letter_named / "player-kit.pdf")
    assert "B · Bartholomew Fitzgerald-X order form · turn 2" in " ".join(named)
    assert "Announced range: secret numbers from 5 to 60" in named[0]
    assert "This game uses the announced range 5 to 60 instead" in texts(
        letter_named / "player-kit.pdf")[0]
    # deduction rows: long names on two lines, with the range's ends to start from
    assert "B · Bartholomew 5 60 Fitzgerald-X C · Cy 5 60" in " ".join(named)


def test_host_file_has_the_register_and_grids_and_the_player_file_does_not(six: Path) -> None:
    host = texts(six / "host-answers.pdf")
    player = " ".join(texts(six / "player-kit.pdf"))
    assert len(host) == 12
    assert "Game master card" in host[0]
    assert "Worked examples" in host[1]
    assert "Secret register" in host[2]
    assert [f"Turn {t} report" in host[2 + t] for t in range(1, 9)] == [True] * 8
    assert "Spare bonus rows" in host[11]
    assert all("HOST ONLY" in t for t in host)
    for secret in ("Secret register", "Turn 1 report", "Winner?", "Game master card",
                   "Spare bonus rows", "HOST ONLY"):
        assert secret not in player
    # the register: a row per player, the last one (F) above the footer
    assert re.search(r"others in turn A B C D E F HOST ONLY", lines(six / "host-answers.pdf")[2])


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
                   "C a correct list beats guesses", "A and B earliest guess position"):
        assert phrase in worked, phrase


# --- the grid, read back from the PDF ------------------------------------------------------------


def grid_tables(pdf: Path) -> list[tuple[PageData, list[list[str | None]], object]]:
    """(page, rows, (cells, bbox)) for every report-grid page (turn sheets and spare)."""
    return [(page, page.grid[0], page.grid[1:]) for page in read(pdf) if page.grid]


def check_grid_geometry(page: PageData, table: tuple) -> None:
    """Every grid cell at least 7 mm each way; every character 8 pt or more; 10 mm margins."""
    cells, (x0, top, x1, bottom) = table
    assert len(cells) > 20
    for cx0, ctop, cx1, cbottom in cells:
        assert (cx1 - cx0) / PT_PER_MM >= MIN_MM
        assert (cbottom - ctop) / PT_PER_MM >= MIN_MM
    assert min(c[4] for c in page.chars) >= MIN_PT - 0.01
    margin = MARGIN_MM * PT_PER_MM
    assert x0 >= margin - 1 and top >= margin and x1 <= page.width - margin + 1
    assert bottom <= page.height - (MARGIN_MM + FOOTER_MM) * PT_PER_MM  # above the footer


def check_grid_rows(rows: list[list[str | None]], letters: list[str], blocks: list[str],
                    extra: int, first_part: bool = True) -> None:
    header, body = rows[0], rows[1:]
    assert header[:3] == ["Player", None, "Guess"]
    assert header[3:] == letters
    assert len(body) == 4 * len(blocks) + extra
    for i, who in enumerate(blocks):
        block = body[4 * i: 4 * i + 4]
        assert block[0][0] == who
        assert [r[1] for r in block] == ["1", "2", "+1", "list"]
        for r in block[:3]:  # own column pre-marked X, nothing else printed
            assert r[3:] == ["X" if c == who else "" for c in letters]
        assert block[3][2] == ("list: ______ correct" if first_part else "")
    for r in body[4 * len(blocks):]:
        assert r[:2] == ["Player ____", "+__"] and set(r[2:]) == {""}


def test_grid_6_players(six: Path) -> None:
    grids = grid_tables(six / "host-answers.pdf")
    assert len(grids) == 8 + 1  # one sheet per turn, then the spare bonus sheet
    letters = list("ABCDEF")
    for page, rows, table in grids[:-1]:
        check_grid_rows(rows, letters, letters, extra=6)
        check_grid_geometry(page, table)
        assert "Winner?" in page.text
    page, rows, table = grids[-1]
    check_grid_rows(rows, letters, [], extra=wmn.grid_layout(paper("a4"), 6).rows_per_sheet)
    check_grid_geometry(page, table)


def test_grid_12_players_continues_on_a_second_sheet(grids_12: Path) -> None:
    grids = grid_tables(grids_12)
    assert len(grids) == 2 * 2 + 1
    letters = rules.player_labels(12)
    for n, (page, rows, table) in enumerate(grids[:-1]):
        first = n % 2 == 0
        check_grid_rows(rows, letters, letters[:6] if first else letters[6:],
                        extra=0 if first else 6)
        check_grid_geometry(page, table)
        text = page.text
        assert f"sheet {1 if first else 2} of 2" in text
        assert ("Continued on sheet 2" in text) is first
        assert ("Winner?" in text) is not first
        assert page.width < page.height  # portrait


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_grid_30_players_turns_landscape(grids_30: dict[str, Path], paper_name: str) -> None:
    layout = wmn.grid_layout(paper(paper_name), 30)
    assert layout.sheets_per_turn == 8
    grids = grid_tables(grids_30[paper_name])
    assert len(grids) == 3  # sheet 1 and sheet 8 of turn 1, then the spare sheet
    letters = rules.player_labels(30)
    for n, (page, rows, table) in zip((0, 7), grids[:2], strict=True):
        a, b = layout.row_parts[n]
        check_grid_rows(rows, letters, letters[a:b], extra=layout.extra_rows if n == 7 else 0)
        check_grid_geometry(page, table)
        assert page.width > page.height
        assert f"sheet {n + 1} of 8" in page.text
    page, rows, table = grids[-1]
    check_grid_rows(rows, letters, [], extra=layout.rows_per_sheet)
    check_grid_geometry(page, table)


def test_letter_grid_with_names(letter_named: Path) -> None:
    grids = grid_tables(letter_named / "host-answers.pdf")
    assert len(grids) == 2 + 1
    page, rows, table = grids[0]
    check_grid_rows(rows, list("ABCDE"), list("ABCDE"), extra=wmn.grid_layout(
        paper("letter"), 5).extra_rows)
    assert [r[0] for r in rows[5:9]] == ["B", "Bartholomew", "Fitzgerald-X", ""]
    check_grid_geometry(page, table)


# --- every page: margins, nothing lost -----------------------------------------------------------


FOOTER = re.compile(r"^(HOST ONLY — keep these pages away from the players\.|This bar should "
                    r"measure 50 mm\. If not, print at 100% \(actual size\)\.)?\s*(page \d+ of "
                    r"\d+)?$")


@pytest.mark.parametrize("stem", ["player-kit", "host-answers"])
def test_every_page_keeps_its_margins_and_footer(six: Path, stem: str) -> None:
    margin = MARGIN_MM * PT_PER_MM
    for page in read(six / f"{stem}.pdf"):
        assert page.chars
        for x0, x1, top, bottom, _ in page.chars:
            assert x0 >= margin - 0.5 and x1 <= page.width - margin + 0.5
            assert top >= margin - 0.5 and bottom <= page.height - margin + 0.5
        # below the page body there is only the footer: nothing ran over into it
        assert FOOTER.match(page.foot), page.foot


def test_deterministic(tmp_path: Path) -> None:
    first = build(tmp_path / "1", "--players", "4", "--turns", "1")
    second = build(tmp_path / "2", "--players", "4", "--turns", "1")
    for name in ("player-kit.pdf", "host-answers.pdf", "player-kit.html", "host-answers.html"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
