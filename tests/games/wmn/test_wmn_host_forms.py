"""What's My Number? host form pages (secret register, turn-report grids): the layout maths on
numbers alone, the drawn items against the print rules, and one real kit read back."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from pypdf import PdfReader

from kit import fonts
from kit.errors import LayoutError
from kit.games.whats_my_number import rules
from kit.games.whats_my_number.sheets import host_sheets as host
from kit.games.whats_my_number.sheets import register as reg
from kit.games.whats_my_number.sheets.people import MIN_CELL_MM, MIN_TEXT_PT, Person
from kit.i18n import words as language
from kit.layout.fit import hyphen_wrap
from kit.layout.model import Box, Item, Line, Text, pt, text_width
from kit.paper import Frame, Paper, paper

EN = language("en")

PAPERS = ("a4", "letter")
PLAYERS = range(4, 31)
A5 = Paper("a5", "A5", 148.0, 210.0, "148mm 210mm")  # narrow: forces a column split
LONG_NAMES = ("Maximiliana Konstantinos", "Ångström-Øre sund Müller", "Bartholomew Fitzgerald",
              "Jean-Christophe Beaumont", "Oluwaseunfunmi Adeyemi", "Wolfgang Amadeus Mozart")


def everyone(count: int, names: Sequence[str] = ()) -> list[Person]:
    names = (list(names) * count)[:count] if names else [""] * count
    return [Person(i, letter, name)
            for i, (letter, name) in enumerate(zip(rules.player_labels(count), names,
                                                   strict=True))]


def default_range(count: int) -> tuple[int, int]:
    return rules.default_range(count)


# --- item geometry ------------------------------------------------------------------------------


def extent(item: Item) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) mm of what the item inks: strokes with half their width,
    text from its ascent to its descent."""
    if isinstance(item, Text):
        width = fonts.run_width_pt(item.text, item.face, item.size) * 25.4 / 72
        return (item.x, item.y - pt(item.size) * fonts.ASCENT, item.x + width,
                item.y + pt(item.size) * fonts.DESCENT)
    half = item.width / 2
    if isinstance(item, Box):
        return item.x - half, item.y - half, item.x + item.w + half, item.y + item.h + half
    assert isinstance(item, Line)
    return (min(item.x1, item.x2) - half, min(item.y1, item.y2) - half,
            max(item.x1, item.x2) + half, max(item.y1, item.y2) + half)


def check_items(items: Sequence[Item], body: Frame) -> None:
    """Every text 8 pt or more, and everything inside the body frame."""
    assert items
    for item in items:
        if isinstance(item, Text):
            assert item.size >= MIN_TEXT_PT, item
        left, top, right, bottom = extent(item)
        assert left >= body.x - 1e-6 and right <= body.right + 1e-6, item
        assert top >= body.y - 1e-6 and bottom <= body.bottom + 1e-6, item


def lines_of_text(items: Sequence[Item]) -> list[str]:
    """The text runs joined into lines: runs that continue one another on one baseline (the
    pieces ``rich`` cut a styled line into); separate cells stay separate."""
    texts = sorted((i for i in items if isinstance(i, Text)), key=lambda t: (t.y, t.x))
    out: list[tuple[float, float, str]] = []  # baseline, right end, text
    for t in texts:
        width = fonts.run_width_pt(t.text, t.face, t.size) * 25.4 / 72
        if out and abs(out[-1][0] - t.y) < 0.01 and abs(t.x - out[-1][1]) < 0.01:
            base, _, words = out[-1]
            out[-1] = (base, t.x + width, words + t.text)
        else:
            out.append((t.y, t.x + width, t.text))
    return [words for _, _, words in out]


# --- the turn-report grid: layout maths --------------------------------------------------------


@pytest.mark.parametrize("paper_name", PAPERS)
@pytest.mark.parametrize("players", PLAYERS)
def test_grid_layout_is_legible_and_fits(players: int, paper_name: str) -> None:
    sheet = paper(paper_name)
    layout = host.grid_layout(sheet, players)
    body = sheet.oriented(layout.landscape).body
    assert layout.body == body
    assert layout.cell_mm >= host.GRID_MIN_CELL_MM >= MIN_CELL_MM + 0.2
    assert host.GRID_ROW_MM >= 7.5 and host.GRID_HEAD_MM >= MIN_CELL_MM
    # every column and every player block exactly once
    assert [i for a, b in layout.column_parts for i in range(a, b)] == list(range(players))
    assert [i for a, b in layout.row_parts for i in range(a, b)] == list(range(players))
    assert 0 <= layout.extra_rows <= host.MAX_EXTRA_ROWS
    # width: the widest part, with the rules' half widths on both sides
    assert layout.grid_width(layout.max_columns) + 2 * host.EDGE_MM <= body.w
    # height: every sheet of a turn and the spare sheet
    sheets = host.grid_sheets(layout, 1) + host.grid_sheets(layout, None)
    for s in sheets:
        assert s.rows <= layout.rows_per_sheet
        assert host.GRID_TOP_MM + layout.grid_height(s.rows) + host.EDGE_MM <= body.h
    assert len(host.grid_sheets(layout, 1)) == layout.sheets_per_turn
    assert sheets[-1].rows == layout.rows_per_sheet  # the spare sheet is full of bonus rows


def test_grid_rows_and_columns_per_sheet() -> None:
    a4, letter = paper("a4"), paper("letter")
    assert (host.grid_columns_fit(a4.body), host.grid_rows_fit(a4.body)) == (20, 30)
    assert (host.grid_columns_fit(a4.turned().body), host.grid_rows_fit(a4.turned().body)) == (
        32, 18)
    assert (host.grid_columns_fit(letter.body), host.grid_rows_fit(letter.body)) == (21, 28)
    assert (host.grid_columns_fit(letter.turned().body),
            host.grid_rows_fit(letter.turned().body)) == (30, 19)
    assert host.ROWS_PER_PLAYER == 4  # guess 1, guess 2, one bonus row, a list row


@pytest.mark.parametrize("landscape", [False, True])
@pytest.mark.parametrize("paper_name", PAPERS)
def test_the_top_band_fits_above_the_grid(paper_name: str, landscape: bool) -> None:
    body = paper(paper_name).oriented(landscape).body
    width = host.band_width(body, EN)
    size = host.legend_size(width, EN)
    assert size == 9.0
    lines = host.legend_lines(width, size, EN)
    assert len(lines) <= 2
    bottom = host.LEGEND_TOP_MM + pt(size) * (fonts.ASCENT + (len(lines) - 1) * 1.22
                                              + fonts.DESCENT)
    assert bottom + 1.0 <= host.GRID_TOP_MM
    # the longest title of a 30-turn game keeps its largest size
    head, tail = "Turn 30 report · sheet 8 of 8", " · range 1 to 290"
    assert host.title_size(head, tail, width) == host.TITLE_PT[0]


@pytest.mark.parametrize(
    ("players", "paper_name", "landscape", "sheets", "extra"),
    [
        (4, "a4", False, 1, 6),
        (6, "a4", False, 1, 6),
        (7, "a4", False, 1, 2),  # seven blocks fill 28 of 30 rows
        (7, "letter", False, 1, 0),  # ... and all 28 of Letter's
        (12, "a4", False, 2, 6),
        (20, "a4", False, 3, 6),
        (21, "a4", True, 6, 6),  # 21 columns do not fit portrait A4: a column split would
        # need 2 x 3 = 6 sheets too, and landscape wins the tie
        (21, "letter", False, 3, 0),  # ... but do fit portrait Letter
        (22, "letter", True, 6, 6),  # landscape 6 beats a split portrait 2 x 4
        (30, "a4", True, 8, 6),
        (30, "letter", True, 8, 6),  # 30 columns of exactly 7.2 mm on landscape Letter
    ],
)
def test_grid_layout_choices(players: int, paper_name: str, landscape: bool, sheets: int,
                             extra: int) -> None:
    layout = host.grid_layout(paper(paper_name), players)
    assert layout.landscape is landscape
    assert layout.sheets_per_turn == sheets
    assert not layout.split_columns
    assert layout.extra_rows == extra


@pytest.mark.parametrize("paper_name", PAPERS)
def test_portrait_whenever_every_column_fits(paper_name: str) -> None:
    sheet = paper(paper_name)
    fit = host.grid_columns_fit(sheet.body)
    for players in PLAYERS:
        assert host.grid_layout(sheet, players).landscape is (players > fit)


def test_a_column_split_when_landscape_needs_more_sheets() -> None:
    layout = host.grid_layout(A5, 30)  # portrait split 3 x 8 = 24 sheets, landscape 2 x 15
    assert not layout.landscape and layout.split_columns
    assert layout.sheets_per_turn == 24
    assert layout.cell_mm >= host.GRID_MIN_CELL_MM
    assert layout.grid_width(layout.max_columns) + 2 * host.EDGE_MM <= A5.body.w
    sheets = host.grid_sheets(layout, 2)
    assert len(sheets) == 24
    assert [s.first_part for s in sheets[:3]] == [True, False, False]
    assert sheets[-1].last and not any(s.last for s in sheets[:-1])
    assert [s.extra_rows for s in sheets[-3:]] == [layout.extra_rows] * 3
    assert not any(s.extra_rows for s in sheets[:-3])
    assert not any(s.extra_rows for s in host.grid_sheets(layout, 1))  # no bonus in turn 1
    # every (block, column) pair on exactly one sheet
    pairs = [(b, c) for s in sheets for b in range(*s.blocks) for c in range(*s.columns)]
    assert sorted(pairs) == [(b, c) for b in range(30) for c in range(30)]
    spare = host.grid_sheets(layout, None)
    assert len(spare) == 3 and all(s.rows == layout.rows_per_sheet for s in spare)
    # a tie between landscape and a split goes to landscape
    tie = host.grid_layout(A5, 20)  # landscape 10 x 1, portrait 5 x 2
    assert tie.landscape and not tie.split_columns and tie.sheets_per_turn == 10


def test_grid_layout_refuses_paper_that_cannot_be_legible() -> None:
    with pytest.raises(LayoutError):
        host.grid_layout(Paper("tiny", "Tiny", 60.0, 80.0, "60mm 80mm"), 6)


def test_grid_summary_for_the_gm_card() -> None:
    summary = host.grid_summary(paper("a4"), 12, 8)
    assert summary == host.GridSummary(2, False, False, 6, 2 * 8 + 1)
    summary = host.grid_summary(paper("letter"), 30, 30)
    assert (summary.sheets_per_turn, summary.landscape, summary.total_sheets) == (8, True, 241)
    assert host.grid_summary(A5, 30, 2).split_columns


def test_sheet_labels() -> None:
    layout = host.grid_layout(paper("a4"), 12)
    assert [host.sheet_label(s, EN) for s in host.grid_sheets(layout, 3)] == [
        "Turn 3 report · sheet 1 of 2", "Turn 3 report · sheet 2 of 2"]
    assert [host.sheet_label(s, EN) for s in host.grid_sheets(layout, None)] == [
        "Spare bonus rows"]
    one = host.grid_layout(paper("a4"), 6)
    assert host.sheet_label(host.grid_sheets(one, 1)[0], EN) == "Turn 1 report"


# --- the turn-report grid: drawn ----------------------------------------------------------------


@pytest.mark.parametrize("paper_name", PAPERS)
@pytest.mark.parametrize("players", PLAYERS)
def test_grid_pages_are_legible_and_inside_the_body(players: int, paper_name: str) -> None:
    sheet = paper(paper_name)
    people = everyone(players, LONG_NAMES)
    pages = host.grid_pages(sheet, people, 2, (1, 290), EN)
    layout = host.grid_layout(sheet, players)
    assert len(pages) == 2 * layout.sheets_per_turn + 1
    for _, landscape, items in pages:
        assert landscape is layout.landscape
        check_items(items, sheet.oriented(landscape).body)
    assert [label for label, _, _ in pages][-1] == "Spare bonus rows"


def test_grid_sheet_contents() -> None:
    people = everyone(12)
    pages = host.grid_pages(paper("a4"), people, 1, (1, 110), EN)
    (first_label, _, first), (second_label, _, second), (spare_label, _, spare) = pages
    assert (first_label, second_label, spare_label) == (
        "Turn 1 report · sheet 1 of 2", "Turn 1 report · sheet 2 of 2", "Spare bonus rows")
    lines = lines_of_text(first)
    assert lines[0] == "Turn 1 report · sheet 1 of 2 · range 1 to 110"
    assert "Continued on sheet 2" in lines
    legend = " ".join(lines[1:4])
    for words in ("H higher", "L lower", "✓ the guess is that number",
                  "X no information: own number or already identified",
                  "list: write only how many are correct"):
        assert words in legend, words
    assert "Winner?" in lines_of_text(second) and "Winner?" not in lines
    assert "Copy as needed" in lines_of_text(spare)
    assert lines_of_text(spare)[0] == "Spare bonus rows · turn ____ · range 1 to 110"
    assert lines_of_text(first).count("list: ______ correct") == 6
    # X pre-printed in the guesser's own column, in bold, on the guess rows: two in turn 1,
    # which has no bonus row (no hit has earned one yet), three from turn 2
    xs = [t for t in first if isinstance(t, Text) and t.text == "X"
          and t.y > paper("a4").body.y + host.GRID_TOP_MM]  # not the legend's
    assert len(xs) == 6 * 2 and all(t.face == "bold" for t in xs)
    assert "+1" not in lines and "Player ____" not in lines_of_text(second)
    later = host.grid_pages(paper("a4"), people, 2, (1, 110), EN)[2][2]  # turn 2, sheet 1
    assert sum(t.text == "X" and t.y > paper("a4").body.y + host.GRID_TOP_MM
               for t in later if isinstance(t, Text)) == 6 * 3
    assert lines_of_text(later).count("+1") == 6
    # the first sheet has no extra rows, turn 2's last has six (turn 1's none); the spare
    # sheet is all extra rows
    assert sum(t.text == "Player" for t in first if isinstance(t, Text)) == 1  # the header
    last = host.grid_pages(paper("a4"), people, 2, (1, 110), EN)[3][2]  # turn 2, sheet 2
    assert lines_of_text(last).count("Player ____") == 6
    assert lines_of_text(spare).count("Player ____") == host.grid_layout(
        paper("a4"), 12).rows_per_sheet
    # heavy rules: under the header, and below each of the six blocks
    heavy = [i for i in first if isinstance(i, Line) and i.width == host.HEAVY_MM]
    assert len(heavy) == 1 + 6


def test_split_sheets_repeat_the_row_labels() -> None:
    people = everyone(30)
    pages = host.grid_pages(A5, people, 1, (1, 290), EN)
    layout = host.grid_layout(A5, 30)
    assert len(pages) == layout.sheets_per_turn + 3
    first, second = (items for _, _, items in pages[:2])
    head = A5.body.y + host.GRID_TOP_MM + host.GRID_HEAD_MM  # the header's bottom

    def header(items: list[Item]) -> list[str]:
        return [t.text for t in items if isinstance(t, Text)
                and head - host.GRID_HEAD_MM < t.y < head]

    assert header(first) == ["Player", "Guess", *rules.player_labels(30)[:10]]
    assert header(second) == ["Player", "Guess", *rules.player_labels(30)[10:20]]
    for items in (first, second):
        assert lines_of_text(items).count("list") == 4  # the row labels, on every part
        assert [t.text for t in items if isinstance(t, Text) and t.size == host.LETTER_PT] == [
            "A", "B", "C", "D"]
    assert lines_of_text(first).count("list: ______ correct") == 4
    assert "list: ______ correct" not in lines_of_text(second)


def word_runs(items: Sequence[Item]) -> set[str]:
    return {word for line in lines_of_text(items) for word in line.split()}


@pytest.mark.parametrize("name", LONG_NAMES)
def test_names_shrink_then_wrap_between_words(name: str) -> None:
    assert len(name) <= 24
    width, height = host.name_box()
    fitted = host.fit_name(name, width, height, *host.NAME_PT, 3)
    assert not fitted.cut
    assert fitted.size >= MIN_TEXT_PT
    assert rejoin(fitted.lines) == name  # broken only between words or after a hyphen


def rejoin(lines: Sequence[str]) -> str:
    out = ""
    for line in lines:
        out += line if not out or out.endswith("-") else " " + line
    return out


def test_a_24_character_two_word_name_is_never_split_inside_a_word() -> None:
    name = "Maximiliana Konstantinos"
    assert len(name) == 24 and len(name.split()) == 2
    people = everyone(6, [name])
    _, _, items = host.grid_pages(paper("a4"), people, 1, (1, 50), EN)[0]
    words = word_runs(items)
    assert {"Maximiliana", "Konstantinos"} <= words
    (register,) = reg.register_pages(paper("a4"), people, (1, 50), EN)
    assert name in lines_of_text(register[1]) or {"Maximiliana", "Konstantinos"} <= word_runs(
        register[1])


def test_a_name_shrinks_before_it_wraps() -> None:
    width, height = host.name_box()
    assert host.fit_name("Ann", width, height, *host.NAME_PT, 3).lines == ("Ann",)
    fitted = host.fit_name("Ångström-Øre sund Müller", width, height, *host.NAME_PT, 3)
    assert fitted.lines == ("Ångström-Øre", "sund Müller")


def test_hyphen_wrap_breaks_only_after_hyphens_and_spaces() -> None:
    assert hyphen_wrap("Maximiliana-Konstanze", 20.0, 8.0) == ["Maximiliana-",
                                                                     "Konstanze"]
    assert hyphen_wrap("Ann Lee", 100.0, 8.0) == ["Ann Lee"]


# --- the secret register ------------------------------------------------------------------------


@pytest.mark.parametrize("paper_name", PAPERS)
@pytest.mark.parametrize("players", PLAYERS)
def test_register_pages_fit(players: int, paper_name: str) -> None:
    sheet = paper(paper_name)
    body = sheet.body
    top = reg.register_top(body, default_range(players), EN)
    parts = reg.register_parts(body, top, players)
    assert [i for a, b in parts for i in range(a, b)] == list(range(players))
    rows = max(b - a for a, b in parts)
    row = reg.register_row_mm(body, top, rows)
    assert reg.REG_ROW_MM <= row <= reg.REG_MAX_ROW_MM
    assert top + reg.REG_HEAD_MM + rows * row + host.EDGE_MM <= body.h
    pages = reg.register_pages(sheet, everyone(players, LONG_NAMES), default_range(players),
                                EN)
    assert len(pages) == len(parts)
    for _, items in pages:
        check_items(items, body)


def test_register_rows_grow_when_few_players_leave_room() -> None:
    body = paper("a4").body
    top = reg.register_top(body, (1, 50), EN)
    assert reg.register_rows_per_page(body, top) >= 25
    assert reg.register_row_mm(body, top, 6) == reg.REG_MAX_ROW_MM
    assert reg.register_row_mm(body, top, reg.register_rows_per_page(body, top)) >= 7.5
    assert reg.register_parts(body, top, 30) == [(0, 15), (15, 30)]


def test_register_contents() -> None:
    pages = reg.register_pages(paper("letter"), everyone(30, LONG_NAMES), (1, 290), EN)
    assert [label for label, _ in pages] == ["Secret register 1 of 2", "Secret register 2 of 2"]
    lines = lines_of_text(pages[0][1])
    assert lines[0] == "Secret register 1 of 2"
    text = " ".join(lines)
    for words in ("Fill in as the slips come in", "Range 1 to 290",
                  "two players may hold the same number", "turn: count", "B t1 g1",
                  "Letter", "Player", "Secret", "Found all"):
        assert words in text, words
    one = reg.register_pages(paper("a4"), everyone(6), (1, 50), EN)
    assert [label for label, _ in one] == ["Secret register"]


# --- a real kit, read back ----------------------------------------------------------------------


def test_a_built_kit_carries_the_host_forms(tmp_path: Path) -> None:
    from kit.cli import main

    assert main(["build", "whats-my-number", "--players", "12", "--out", str(tmp_path),
                 "--no-cache"]) == 0
    (pdf,) = tmp_path.glob("*/host-answers.pdf")
    data = pdf.read_bytes()
    reader = PdfReader(io.BytesIO(data))
    pages = [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]
    register = [i for i, t in enumerate(pages) if "Secret register" in t and "Fill in" in t]
    assert len(register) == 1
    assert "two players may hold the same number" in pages[register[0]]
    grids = [t for t in pages if "report · sheet" in t or "Spare bonus rows" in t]
    assert len(grids) == 8 * 2 + 1
    assert "Turn 1 report · sheet 1 of 2" in grids[0] and "Continued on sheet 2" in grids[0]
    assert "Turn 1 report · sheet 2 of 2" in grids[1] and "Winner?" in grids[1]
    assert "Turn 8 report · sheet 2 of 2" in grids[15]
    assert "list: ______ correct" in grids[0] and "Player ____" not in grids[1]  # turn 1
    assert "Player ____" in grids[3]  # turn 2's last sheet: the extra bonus rows
    assert "Copy as needed" in grids[-1]
    for page in reader.pages[-17:]:
        assert float(page.mediabox.width) < float(page.mediabox.height)  # portrait A4
    from support.print_lint import lint_pdf  # the lint is part of this test: never skipped

    assert lint_pdf(data, pdf.name) == []


def test_a_name_wider_than_its_cell_breaks_between_letters_never_cut() -> None:
    name = "W" * 24
    width, height = host.name_box()
    fitted = host.fit_name(name, width, height, *host.NAME_PT, 6)
    assert not fitted.cut and "…" not in "".join(fitted.lines)
    assert "".join(fitted.lines) == name and len(fitted.lines) > 1
    assert all(text_width(line, fitted.size) <= width for line in fitted.lines)
    pages = host.grid_pages(paper("a4"), everyone(6, [name]), 2, (1, 50), EN)
    _, _, items = pages[1]  # turn 2: a block of four rows
    assert set(fitted.lines) <= {item.text for item in items if isinstance(item, Text)}
    short = host.fit_name(name, *host.name_box(len(host.FIRST_TURN_KINDS)), *host.NAME_PT, 6)
    assert "".join(short.lines) == name  # turn 1's block of three rows: smaller, never cut
    _, _, first = pages[0]
    assert set(short.lines) <= {item.text for item in first if isinstance(item, Text)}
