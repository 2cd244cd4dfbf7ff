"""The players' turn report as a blank form: one page (or more for a large game) a turn, in
the player kit, for the game master to fill in from the grid and pin up or copy; two turns a
page, side by side with a cut line between them, when a turn fits half a page (4 to 6 players).

It is the table ``kit report`` fills from a game log (``reports``), with the same row labels
("A 1", "A 3 (bonus)", "A List"), columns and legend, so a paper game and a computed one read
alike. It holds no guessed number and no secret: only the X every guesser gets in their own
column is printed. Turn 1 has no bonus rows (a bonus is earned by a hit in an earlier turn);
later turns have one a player, and spare bonus rows fill the room left on the turn's last page.

It lives in the player kit because its pages are public (no game master's footer) and each
table of a split party gets its own players' columns with its kit.

In large print every word is at 12 pt or more and rows and player cells are 1.3 times the
usual (``LARGE``): fewer rows a page, and landscape or split columns sooner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ....i18n import Words
from ....layout.blocks import para, title
from ....layout.fit import paragraph
from ....layout.model import Item, text_width, vline
from ....layout.table import CUT_LINE_MM, PAD_MM, Cell, ruled_table
from ....paper import Frame, Paper
from .. import rules
from ..sheets.people import LARGE_PT, MIN_CELL_MM, MIN_TEXT_PT, Person, answer, split
from .reports import (
    CELL_MAX_MM,
    CELL_PT,
    GAP_MM,
    HEAD_MM,
    INTRO_PT,
    LABEL_PT,
    LEGEND_PT,
    ROW_MM,
    SLACK_MM,
    ReportLayout,
    cell_width,
    column_note,
    columns_fit,
    intro,
    label_size,
    label_width,
    legend,
    report_layout,
    report_title,
    rows_fit,
    turn_title,
)

MAX_SPARE_ROWS = 4  # blank bonus rows on a turn's last page, room allowing
BLANK_PLAYER = "____"
BLANK_INDEX = "__"

Row = tuple[str, str, int]  # (label, kind: "guess", "list" or "spare", the player's column)


@dataclass(frozen=True)
class SheetSizes:
    """The type sizes (pt) and heights (mm) of the blank report: the usual or large print."""

    label_pt: float  # "Guess" over the row labels
    cell_pt: float  # the X, "______ correct"
    intro_pt: float
    legend_pt: float
    least_pt: float  # no word of the form smaller
    row_mm: float


SHEET = SheetSizes(LABEL_PT, CELL_PT, INTRO_PT, LEGEND_PT, MIN_TEXT_PT, ROW_MM)
LARGE = SheetSizes(LARGE_PT, LARGE_PT, LARGE_PT, LARGE_PT, LARGE_PT, 9.8)
LARGE_CELL_MIN_MM = round(MIN_CELL_MM * 1.3, 1)  # a player's cell, for a bigger hand
LARGE_CELL_MAX_MM = round(CELL_MAX_MM * 1.3, 1)
LARGE_HEAD_MM = round(HEAD_MM * 1.3, 1)
LARGE_LABEL_MM = (26.0, 65.0)  # the row labels' column, at 12 pt: least and most


def block_rows(person: Person, turn: int, words: Words) -> list[Row]:
    """One player's rows: guess 1 and 2, a bonus guess after turn 1, then the list row."""
    _ = words.gettext
    rows: list[Row] = [(_("%(player)s %(index)s", player=person.letter, index=index),
                        "guess", person.index) for index in (1, 2)]
    if turn > 1:
        rows.append((_("%(player)s %(index)s (bonus)", player=person.letter,
                       index=rules.BASE_GUESSES + 1), "guess", person.index))
    rows.append((_("%(player)s List", player=person.letter), "list", person.index))
    return rows


def spare_label(words: Words) -> str:
    """"____ __ (bonus)": a bonus row the game master heads with the player and the guess."""
    return words.gettext("%(player)s %(index)s (bonus)", player=BLANK_PLAYER,
                         index=BLANK_INDEX)


def sheet_layout(people: Sequence[Person], sheet: Paper, words: Words) -> ReportLayout:
    """The report's layout for these players, row labels sized for the longest label."""
    labels = [row[0] for person in people for row in block_rows(person, 2, words)]
    labels.append(spare_label(words))
    label_mm = label_width(labels)
    layout = report_layout(len(people), sheet, words, label_mm, CELL_MAX_MM)
    return ReportLayout(layout.landscape, layout.label_mm, layout.cell_mm, layout.parts,
                        layout.head_mm, layout.rows_per_page, layout.head_pt,
                        label_size(labels, label_mm))


def large_rows_fit(body: Frame, words: Words) -> int:
    """Large-print table rows that fit a page's body: below the title, the intro line and the
    header row; above the legend."""
    _, title_mm = title(0.0, 0.0, turn_title(1, words))
    _, intro_mm = para(0.0, 0.0, body.w, intro(words), LARGE.intro_pt)
    legend_mm = paragraph(0.0, 0.0, body.w, legend(words), LARGE.legend_pt)[1]
    room = body.h - title_mm - intro_mm - 1.0 - LARGE_HEAD_MM - GAP_MM - legend_mm - SLACK_MM
    return int(room // LARGE.row_mm)


def large_layout(people: Sequence[Person], sheet: Paper, words: Words) -> ReportLayout:
    """The large-print layout: row labels and player letters at 12 pt, cells of 9.1 mm or
    more; portrait when the player columns fit, else landscape, else split over landscape
    pages."""
    labels = [row[0] for person in people for row in block_rows(person, 2, words)]
    labels.append(spare_label(words))
    widest = max(text_width(label, LARGE_PT) for label in labels) + 2 * PAD_MM + 0.6
    label_mm = round(min(LARGE_LABEL_MM[1], max(LARGE_LABEL_MM[0], widest)), 1)
    count = len(people)
    parts: tuple[tuple[int, int], ...] = ((0, count),)
    for landscape in (False, True):
        body = sheet.oriented(landscape).body
        if (body.w - label_mm) / count >= LARGE_CELL_MIN_MM:
            break
    else:
        per_part = max(1, int((body.w - label_mm) / LARGE_CELL_MIN_MM))
        parts = tuple(split(count, math.ceil(count / per_part)))
    widest_part = max(stop - start for start, stop in parts)
    cell = min(LARGE_CELL_MAX_MM, math.floor((body.w - label_mm) / widest_part * 10) / 10)
    return ReportLayout(landscape, label_mm, cell, parts, LARGE_HEAD_MM,
                        large_rows_fit(body, words), LARGE_PT, LARGE_PT)


def page_blocks(people: Sequence[Person], turn: int, per_page: int, words: Words
                ) -> list[list[Row]]:
    """The turn's rows cut into pages between player blocks (a block never splits), with
    spare bonus rows after turn 1 filling the last page, at most ``MAX_SPARE_ROWS``."""
    pages: list[list[Row]] = [[]]
    for person in people:
        block = block_rows(person, turn, words)
        if pages[-1] and len(pages[-1]) + len(block) > per_page:
            pages.append([])
        pages[-1] += block
    if turn > 1:
        room = min(MAX_SPARE_ROWS, per_page - len(pages[-1]))
        pages[-1] += [(spare_label(words), "spare", -1)] * room
    return pages


def table_cells(rows: Sequence[Row], part: tuple[int, int], layout: ReportLayout,
                words: Words, sizes: SheetSizes = SHEET) -> list[list[Cell]]:
    """The cells: the label; X in the guesser's own column; a list row's count to fill in."""
    c0, c1 = part
    no_info = answer(rules.NO_INFO, words)
    cells: list[list[Cell]] = []
    for label, kind, own in rows:
        head = Cell(label, size=layout.label_pt, least=sizes.least_pt)
        if kind == "spare":
            cells.append([head])
        elif kind == "list":
            cells.append([head, Cell(words.gettext("______ correct"), "bold",
                                     size=sizes.cell_pt, least=sizes.least_pt, span=c1 - c0,
                                     lines=1)])
        else:
            cells.append([head] + [Cell(no_info if p == own else "", "bold", "center",
                                        sizes.cell_pt) for p in range(c0, c1)])
    return cells


def sheet_body(body: Frame, layout: ReportLayout, people: Sequence[Person],
               rows: Sequence[Row], part: tuple[int, int], caption: str,
               words: Words, sizes: SheetSizes = SHEET) -> list[Item]:
    """One page: the title, the intro line, the table and the legend."""
    note = column_note([p.letter for p in people], part, words) if layout.split else ""
    items, y = report_title(body, caption, note)
    y += body.y
    more, used = para(body.x, y, body.w, intro(words), sizes.intro_pt)
    items += more
    y += used + 1.0
    c0, c1 = part
    head = [Cell(words.gettext("Guess"), "bold", size=sizes.label_pt)] + [
        Cell(p.letter, "bold", "center", layout.head_pt, sizes.least_pt, lines=1)
        for p in people[c0:c1]]
    widths = [layout.label_mm] + [layout.cell_mm] * (c1 - c0)
    heights = [layout.head_mm] + [sizes.row_mm] * len(rows)
    # a heavy rule under the header and under each list row: one block a player
    heavy = [1] + [i + 2 for i, row in enumerate(rows) if row[1] == "list"]
    items += ruled_table(body.x, y, widths, heights,
                         [head, *table_cells(rows, part, layout, words, sizes)], heavy=heavy)
    y += sum(heights) + GAP_MM
    items += paragraph(body.x, y, body.w, legend(words), sizes.legend_pt)[0]
    return items


def layout_rows(people: Sequence[Person], sheet: Paper, words: Words, large: bool
                ) -> tuple[ReportLayout, int]:
    """The report's layout and its table rows a page, in large print or not."""
    if large:
        layout = large_layout(people, sheet, words)
        return layout, layout.rows_per_page
    layout = sheet_layout(people, sheet, words)
    return layout, rows_fit(sheet.oriented(layout.landscape).body, layout.head_mm, words)


def sheets_per_turn(people: Sequence[Person], sheet: Paper, words: Words, turn: int,
                    large: bool = False) -> int:
    """How many pages ``turn``'s blank report takes on its own."""
    layout, per_page = layout_rows(people, sheet, words, large)
    return len(page_blocks(people, turn, per_page, words)) * len(layout.parts)


PAIR_GAP_MM = 8.0  # between two turns side by side, the cut line in its middle


def side_by_side(body: Frame) -> tuple[Frame, Frame]:
    """The body's left and right halves, a cut's room apart."""
    w = (body.w - PAIR_GAP_MM) / 2
    return Frame(body.x, body.y, w, body.h), Frame(body.right - w, body.y, w, body.h)


def paired_layout(people: Sequence[Person], sheet: Paper, words: Words, large: bool = False
                  ) -> ReportLayout | None:
    """The layout of a turn's report in half a portrait page's width when every turn fits
    there on one page (a small game), so two turns share a page; else None. Large print
    keeps a page a turn."""
    if large:
        return None
    layout = sheet_layout(people, sheet, words)
    half = side_by_side(sheet.body)[0]
    room = half.w - layout.label_mm
    if layout.landscape or layout.split or not columns_fit(room, len(people)):
        return None
    per_page = rows_fit(half, layout.head_mm, words)
    if len(page_blocks(people, 2, per_page, words)) > 1:  # a later turn: the most rows
        return None
    return replace(layout, cell_mm=cell_width(room, len(people), CELL_MAX_MM),
                   rows_per_page=per_page)


def report_page_count(people: Sequence[Person], sheet: Paper, words: Words, turns: int,
                      large: bool = False) -> int:
    """How many pages the blank reports of every turn take."""
    if paired_layout(people, sheet, words, large) is not None:
        return -(-turns // 2)
    return sum(sheets_per_turn(people, sheet, words, turn, large)
               for turn in range(1, turns + 1))


def paired_pages(sheet: Paper, layout: ReportLayout, people: Sequence[Person], turns: int,
                 words: Words) -> list[tuple[str, bool, list[Item]]]:
    """Two turns a page, side by side with a cut line between them: each half is that
    turn's whole report, to pin up or copy on its own."""
    body = sheet.body
    out: list[tuple[str, bool, list[Item]]] = []
    for first in range(1, turns + 1, 2):
        shown = range(first, min(first + 2, turns + 1))
        items: list[Item] = []
        for frame, turn in zip(side_by_side(body), shown, strict=False):
            (rows,) = page_blocks(people, turn, layout.rows_per_page, words)
            items += sheet_body(frame, layout, people, rows, layout.parts[0],
                                turn_title(turn, words), words)
        if len(shown) == 2:
            middle = body.x + body.w / 2
            items.append(vline(middle, body.y, body.bottom, CUT_LINE_MM))
            label = words.gettext("Turn %(first)s and %(second)s reports", first=first,
                                  second=first + 1)
        else:
            label = turn_title(first, words)
        out.append((label, False, items))
    return out


def report_sheet_pages(sheet: Paper, people: Sequence[Person], turns: int, words: Words,
                       large: bool = False) -> list[tuple[str, bool, list[Item]]]:
    """Every turn's blank report pages: (label, landscape, items), turn after turn; two
    turns a page when they fit side by side."""
    paired = paired_layout(people, sheet, words, large)
    if paired is not None:
        return paired_pages(sheet, paired, people, turns, words)
    layout, per_page = layout_rows(people, sheet, words, large)
    body = sheet.oriented(layout.landscape).body
    sizes = LARGE if large else SHEET
    out: list[tuple[str, bool, list[Item]]] = []
    for turn in range(1, turns + 1):
        pages = [(rows, part) for rows in page_blocks(people, turn, per_page, words)
                 for part in layout.parts]
        for number, (rows, part) in enumerate(pages, start=1):
            caption = turn_title(turn, words, number, len(pages))
            out.append((caption, layout.landscape,
                        sheet_body(body, layout, people, rows, part, caption, words, sizes)))
    return out
