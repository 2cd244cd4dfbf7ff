"""What a screen reader gets of a form page in the HTML kit (``kit.layout.reading``): each ruled
table as a real table of the same rows and columns, each cut grid as a list of its pieces,
their drawn words hidden from it in the SVG, and the PDF drawn exactly as before."""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

from support.helpers import build_kit

from kit.layout import pdf as pdf_backend
from kit.layout import reading
from kit.layout.fit import fit_in
from kit.layout.model import Text, hline
from kit.layout.table import Cell, cut_grid, ruled_table

WIDTHS = (20.0, 40.0, 30.0)
HEIGHTS = (8.0, 8.0, 8.0, 8.0)
ROWS = [[Cell("Round", "bold"), Cell("All choices (sorted)", "bold"), Cell("Winner", "bold")],
        [Cell("1")], [Cell("2"), Cell("spans two", span=2)]]


class Cells(HTMLParser):
    """The rows of the first table or list of some HTML: each a list of (tag, colspan, text)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, int, str]]] = []
        self.names: list[str] = []
        self.cell: list[str] | None = None
        self.tag, self.span = "", 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in ("table", "ul"):
            self.names.append(found.get("aria-label") or "")
        if tag in ("tr", "li"):
            self.rows.append([])
        if tag in ("th", "td", "li"):
            self.cell, self.tag, self.span = [], tag, int(found.get("colspan") or 1)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("th", "td", "li") and self.cell is not None:
            self.rows[-1].append((self.tag, self.span, "".join(self.cell)))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def parsed(html: str) -> Cells:
    parser = Cells()
    parser.feed(html)
    return parser


def test_a_ruled_table_reads_as_a_table_of_its_rows_and_columns() -> None:
    items = ruled_table(10, 20, WIDTHS, HEIGHTS, ROWS)
    table = parsed(reading.alternative(items, "Round tally"))
    assert table.names == ["Round tally"]
    assert table.rows == [
        [("th", 1, "Round"), ("th", 1, "All choices (sorted)"), ("th", 1, "Winner")],
        [("td", 1, "1"), ("td", 1, ""), ("td", 1, "")],
        [("td", 1, "2"), ("td", 2, "spans two")],
        [("td", 1, ""), ("td", 1, ""), ("td", 1, "")],  # an empty row to write in stays
    ]


def test_a_cut_grid_reads_as_a_list_of_its_pieces_in_order() -> None:
    def slip(i: int, left: float, top: float) -> list:
        return [*fit_in(f"Slip {i + 1}", left + 2, top + 2, 30, 6, 10, 8),
                *fit_in("My number", left + 2, top + 10, 30, 6, 10, 8),
                hline(left, left + 40, top + 20)]

    items = cut_grid(10, 20, 2, 2, 45, 30, 3, slip)
    grid = parsed(reading.alternative(items, "Slips 1 of 6"))
    assert grid.names == ["Slips 1 of 6"]
    assert [row for row in grid.rows] == [[("li", 1, f"Slip {n} My number")] for n in (1, 2, 3)]


def test_a_page_without_tables_or_grids_has_nothing_more_to_read() -> None:
    assert reading.alternative(fit_in("Deduction sheet", 10, 10, 50, 8, 12, 8), "x") == ""


def test_the_pdf_is_drawn_the_same_with_or_without_places() -> None:
    items = tuple(ruled_table(10, 20, WIDTHS, HEIGHTS, ROWS))
    assert any(isinstance(i, Text) and i.place for i in items)
    bare = tuple(replace(i, place=None) if isinstance(i, Text) else i for i in items)
    assert bare != items
    page = pdf_backend.PdfPage(210, 297, (), items)
    assert (pdf_backend.draw([page], "t") ==
            pdf_backend.draw([replace(page, body=bare)], "t"))


def read_forms(html: str) -> dict[str, Cells]:
    """Each table and list a screen reader is given on the form pages of ``html``, by name,
    once every word the drawing hides from it is found in them."""
    sections = re.findall(r'<section[^>]*aria-label="([^"]*)"(.*?)</section>', html, re.S)
    read = {}
    for label, body in sections:
        hidden = re.findall(r'<text [^>]*aria-hidden="true"[^>]*>([^<]*)</text>', body)
        each = [parsed(m.group(0)) for m in re.finditer(
            r'<(table|ul) class="sr-only".*?</\1>', body, re.S)]
        if not hidden:
            assert each == [], label
            continue
        words = " ".join(text for part in each for row in part.rows
                         for _, _, text in row).split()
        for run in hidden:
            assert run.split() and all(w in words for w in run.split()), (label, run)
        # one table takes the page's name; several on a page, each the heading above it
        names = [part.names[0] for part in each]
        assert names == [label] if len(each) == 1 else len(set(names)) == len(names), names
        read.update(zip(names, each, strict=True))
    return read


def test_every_hidden_word_of_a_kit_form_is_in_its_table_or_list(lun_a4: Path) -> None:
    read = read_forms((lun_a4 / "player-kit.html").read_text(encoding="utf-8"))
    assert {"Slips 1 of 6", "Round tally", "Check examples", "Score sheet"} <= set(read)
    tally = read["Round tally"]
    assert [text for _, _, text in tally.rows[0]] == [
        "Round", "All choices (sorted)", "Surviving singles", "Winner"]
    assert [row[0][2] for row in tally.rows[1:7]] == ["1", "2", "3", "4", "5", "Replay"]
    assert len(read["Score sheet"].rows) == 1 + 8  # a header, a row per player


def test_a_deduction_sheet_reads_as_a_table_of_turns_and_players(tmp_path: Path) -> None:
    folder = build_kit(tmp_path, "whats-my-number", "--players", "5")
    read = read_forms((folder / "player-kit.html").read_text(encoding="utf-8"))
    assert {f"Deduction sheet · {p}" for p in "ABCD"} | {"Deduction sheet E"} <= set(read)
    sheet = read["Deduction sheet · A"]
    assert sheet.rows[0] == [("th", 1, "Player"), ("th", 2, "Start")] + [
        ("th", 2, f"Turn {n}") for n in range(1, 9)]
    assert [text for _, _, text in sheet.rows[1]] == ["", *["low", "high"] * 9]
    assert [row[0][2] for row in sheet.rows[2:]] == ["My guesses", "B", "C", "D", "E"]
    assert [[text for _, _, text in row[:3]] for row in sheet.rows[3:]] == [
        [p, "1", "40"] for p in "BCDE"]  # each opponent's bounds at the start: the range


def test_the_game_masters_grid_reads_as_a_table_of_rows_and_players(tmp_path: Path) -> None:
    folder = build_kit(tmp_path, "whats-my-number", "--names", "Ann,Bob,Cy,Dee,Eve")
    read = read_forms((folder / "host-answers.html").read_text(encoding="utf-8"))
    grid = read["Turn 2 report"]
    assert [text for _, _, text in grid.rows[0]] == ["Player", "Guess", *"ABCDE"]
    block = [[text for _, _, text in row] for row in grid.rows[1:5]]
    assert block == [["A Ann", "1", "X", "", "", "", ""], ["", "2", "X", "", "", "", ""],
                     ["", "+1", "X", "", "", "", ""], ["", "list", "list: ______ correct"]]
    assert grid.rows[4][2] == ("td", 5, "list: ______ correct")  # across the players
    assert [row[0][2] for row in grid.rows[1::4]][:5] == ["A Ann", "B Bob", "C Cy", "D Dee",
                                                         "E Eve"]
