"""The players' turn report as a blank form: one page (or more for a large game) a turn, in
the player kit, for the game master to fill in from the grid and pin up or copy.

It is the table ``kit report`` fills from a game log (``reports``), with the same row labels
("A 1", "A 3 (bonus)", "A List"), columns and legend, so a paper game and a computed one read
alike. It holds no guessed number and no secret: only the X every guesser gets in their own
column is printed. Turn 1 has no bonus rows (a bonus is earned by a hit in an earlier turn);
later turns have one a player, and spare bonus rows fill the room left on the turn's last page.

It lives in the player kit because its pages are public (no game master's footer) and each
table of a split party gets its own players' columns with its kit.
"""

from __future__ import annotations

from collections.abc import Sequence

from ....i18n import Words
from ....layout.blocks import para
from ....layout.fit import paragraph
from ....layout.model import Item
from ....layout.table import Cell, ruled_table
from ....paper import Frame, Paper
from .. import rules
from ..sheets.people import MIN_TEXT_PT, Person, answer
from .reports import (
    CELL_MAX_MM,
    CELL_PT,
    GAP_MM,
    INTRO_PT,
    LABEL_PT,
    LEGEND_PT,
    ROW_MM,
    ReportLayout,
    column_note,
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
                words: Words) -> list[list[Cell]]:
    """The cells: the label; X in the guesser's own column; a list row's count to fill in."""
    c0, c1 = part
    no_info = answer(rules.NO_INFO, words)
    cells: list[list[Cell]] = []
    for label, kind, own in rows:
        head = Cell(label, size=layout.label_pt, least=MIN_TEXT_PT)
        if kind == "spare":
            cells.append([head])
        elif kind == "list":
            cells.append([head, Cell(words.gettext("______ correct"), "bold", size=CELL_PT,
                                     least=MIN_TEXT_PT, span=c1 - c0, lines=1)])
        else:
            cells.append([head] + [Cell(no_info if p == own else "", "bold", "center",
                                        CELL_PT) for p in range(c0, c1)])
    return cells


def sheet_body(body: Frame, layout: ReportLayout, people: Sequence[Person],
               rows: Sequence[Row], part: tuple[int, int], caption: str,
               words: Words) -> list[Item]:
    """One page: the title, the intro line, the table and the legend."""
    note = column_note([p.letter for p in people], part, words) if layout.split else ""
    items, y = report_title(body, caption, note)
    y += body.y
    more, used = para(body.x, y, body.w, intro(words), INTRO_PT)
    items += more
    y += used + 1.0
    c0, c1 = part
    head = [Cell(words.gettext("Guess"), "bold", size=LABEL_PT)] + [
        Cell(p.letter, "bold", "center", layout.head_pt, MIN_TEXT_PT, lines=1)
        for p in people[c0:c1]]
    widths = [layout.label_mm] + [layout.cell_mm] * (c1 - c0)
    heights = [layout.head_mm] + [ROW_MM] * len(rows)
    # a heavy rule under the header and under each list row: one block a player
    heavy = [1] + [i + 2 for i, row in enumerate(rows) if row[1] == "list"]
    items += ruled_table(body.x, y, widths, heights,
                         [head, *table_cells(rows, part, layout, words)], heavy=heavy)
    y += sum(heights) + GAP_MM
    items += paragraph(body.x, y, body.w, legend(words), LEGEND_PT)[0]
    return items


def sheets_per_turn(people: Sequence[Person], sheet: Paper, words: Words, turn: int) -> int:
    """How many pages ``turn``'s blank report takes."""
    layout = sheet_layout(people, sheet, words)
    per_page = rows_fit(sheet.oriented(layout.landscape).body, layout.head_mm, words)
    return len(page_blocks(people, turn, per_page, words)) * len(layout.parts)


def report_sheet_pages(sheet: Paper, people: Sequence[Person], turns: int, words: Words
                       ) -> list[tuple[str, bool, list[Item]]]:
    """Every turn's blank report pages: (label, landscape, items), turn after turn."""
    layout = sheet_layout(people, sheet, words)
    body = sheet.oriented(layout.landscape).body
    per_page = rows_fit(body, layout.head_mm, words)
    out: list[tuple[str, bool, list[Item]]] = []
    for turn in range(1, turns + 1):
        pages = [(rows, part) for rows in page_blocks(people, turn, per_page, words)
                 for part in layout.parts]
        for number, (rows, part) in enumerate(pages, start=1):
            caption = turn_title(turn, words, number, len(pages))
            out.append((caption, layout.landscape,
                        sheet_body(body, layout, people, rows, part, caption, words)))
    return out
