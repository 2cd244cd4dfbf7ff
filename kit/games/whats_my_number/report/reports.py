"""Plan filled What's My Number? turn reports from a game log (the GM assistant).

The rules engine (``rules.play``) answers every order; this module only
lays its answers out as form pages (layout-model items in mm): one shareable file of turn
reports, and a GM-only register.

Layout decisions for a turn report:

* A ruled table: the row-label column ("A 1", "B 3 (bonus)", "C List"), then one column per
  player headed by the player's label. Rows are 7.5 mm; player cells at least 7 mm wide and at
  most 14 mm (up to 40 mm when labels are names and there is room). Labels share one size,
  shrunk from 10 pt to 8 pt, then take two lines, and are cut with "…" only as a last resort.
* Portrait when every player column fits the body's width; else landscape; else the player
  columns are split over several landscape pages (as equal as possible, row labels repeated,
  "columns A–AI" by the title). Rows that do not fit continue on further pages; each run of
  rows is printed for every column part before the next run, so the parts of one run can be
  laid side by side.
* The winner line, in a bold box, closes the turn's last page; room for it is kept on every
  page of the turn's last run of rows.

The GM register: the status in a bold box, the range, then one row per player whose
"Has identified" and "Still to find" texts wrap between entries (never inside a label, unless
one label is wider than its column); rows grow with their text, move to the next page when they
do not fit, and a row taller than a page is cut between lines ("(continued)"). "Still to find"
names the players while at most 12 are left and counts them before that (the identified column
says who is found). Then "Lists submitted", if any.

The pure layout maths (``label_width``, ``cell_width``, ``report_layout``, ``row_pages``,
``register_widths``, ``wrap_entries``, ``still_to_find``) is tested on numbers alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ....fonts import isolate
from ....i18n import Words
from ....layout.blocks import para, title
from ....layout.fit import LEADING, Part, fit, fit_in, fits, paragraph
from ....layout.model import Item, box, pt, text_width
from ....layout.table import PAD_MM, Cell, ruled_table
from ....paper import Frame, Paper
from ....plan import Form, Page
from .. import rules
from ..sheets.people import MIN_CELL_MM, MIN_TEXT_PT, answer, split
from . import turn_notes as notes

# --- the turn report: sizes -------------------------------------------------------------------

ROW_MM = 7.5
HEAD_MM = 8.0  # header row when every player label fits one line
HEAD_TALL_MM = 11.0  # header row when a label (a name) needs two lines
CELL_MAX_MM = 14.0  # widest player cell for letter labels
NAME_CELL_MAX_MM = 40.0  # widest player cell when labels are names
LABEL_MIN_MM = 20.0
LABEL_MAX_MM = 50.0  # a 24-character name with "12 (bonus)" fits at 8 pt
LABEL_PT = 9.0  # row labels ("B 3 (bonus)")
HEAD_PT = 10.0  # player labels in the header row
CELL_PT = 10.5  # H, L, ✓, X
INTRO_PT = 10.0
LEGEND_PT = 9.5
WIN_PT = 13.0
WIN_PAD_MM = 2.5
GAP_MM = 2.5  # between the table and the text above or below it
NOTE_PT = 12.0  # "columns A–AI" beside the title
SLACK_MM = 0.5  # kept free at the foot of the body

NBSP = "\u00a0"  # keeps a symbol with its meaning when the legend wraps


def intro(words: Words) -> str:
    return words.gettext("Each row answers one guess, in the order made. Guessed numbers are "
                         "not shown (they would give secrets away); a list shows only how many "
                         "are right.")


def legend(words: Words) -> tuple[Part, ...]:
    """The answers, as printed in the report's cells, and what they mean."""
    _ = words.gettext
    meanings = ((rules.HIGHER, _("higher")), (rules.LOWER, _("lower")),
                (rules.HIT, _("the guess is that player’s number")),
                (rules.NO_INFO, _("no information: own number or one already found")))
    parts: list[Part] = []
    for i, (code, meaning) in enumerate(meanings):
        more = f"{NBSP}· " if i < len(meanings) - 1 else ""
        parts += [(answer(code, words), "bold"), (NBSP + meaning + more, "regular")]
    return tuple(parts)


def win_text(result_winners: Sequence[str], reason: str | None, turn: int, words: Words
             ) -> str:
    """"B wins in turn 2, by identifying every other number." (or by a list; or several)."""
    who = words.join(list(result_winners))
    if reason == "list":
        return words.ngettext("%(players)s wins in turn %(turn)s, by a fully correct list.",
                              "%(players)s share the win in turn %(turn)s, by a fully correct "
                              "list.", len(result_winners), players=who, turn=turn)
    return words.ngettext("%(players)s wins in turn %(turn)s, by identifying every other "
                          "number.",
                          "%(players)s share the win in turn %(turn)s, by identifying every "
                          "other number.", len(result_winners), players=who, turn=turn)


def row_label(row: rules.Row, words: Words, isolated: bool = False) -> str:
    """"A 1", "B 3 (bonus)", "C List"; "E 3 (void)", "G 4 (ignored)", "F List (partial)"
    where a house ruling applied: a row of the turn report. ``isolated``: the player's name
    in its own direction (``fonts.isolate``), as the printed table draws it, so that a
    right-to-left name keeps the number after it."""
    player = isolate(row.player) if isolated else row.player
    if isinstance(row, rules.GuessRow):
        if row.status != "ok":
            return words.gettext("%(player)s %(index)s %(mark)s", player=player,
                                 index=row.index, mark=notes.status_mark(row.status, words))
        if row.bonus:
            return words.gettext("%(player)s %(index)s (bonus)", player=player,
                                 index=row.index)
        return words.gettext("%(player)s %(index)s", player=player, index=row.index)
    if row.partial:
        return words.gettext("%(player)s List %(mark)s", player=player,
                             mark=notes.status_mark("partial", words))
    return words.gettext("%(player)s List", player=player)


def turn_mark(turn: int, words: Words) -> str:
    """"Turn 3": the turn's entry in the PDF's outline."""
    return words.gettext("Turn %(turn)s", turn=turn)


def turn_title(turn: int, words: Words, page: int = 1, pages: int = 1) -> str:
    if pages > 1:
        return words.gettext("Turn %(turn)s report (%(page)s of %(pages)s)", turn=turn,
                             page=page, pages=pages)
    return words.gettext("Turn %(turn)s report", turn=turn)


# --- the turn report: layout maths ------------------------------------------------------------


def label_width(labels: Sequence[str]) -> float:
    """The row-label column: the widest label at 9 pt, between 20 and 50 mm (wider labels
    shrink, then wrap in it)."""
    widest = max((text_width(label, LABEL_PT) for label in labels), default=0.0)
    return round(min(LABEL_MAX_MM, max(LABEL_MIN_MM, widest + 2 * PAD_MM + 0.6)), 1)


def two_line_width(label: str, size: float = HEAD_PT, style: str = "bold") -> float:
    """The narrowest width (mm) that holds ``label`` on at most two lines, broken between
    words."""
    words = label.split()
    best = text_width(label, size, style)
    for cut in range(1, len(words)):
        best = min(best, max(text_width(" ".join(words[:cut]), size, style),
                             text_width(" ".join(words[cut:]), size, style)))
    return best


def cell_cap(players: Sequence[str]) -> float:
    """The widest a player cell needs to be: 14 mm for letters, up to 40 mm for names, so
    that every label fits on two lines at 10 pt when there is room."""
    widest = max((two_line_width(label) for label in players), default=0.0)
    return round(min(NAME_CELL_MAX_MM, max(CELL_MAX_MM, widest + 2 * PAD_MM + 0.4)), 1)


def cell_width(room: float, columns: int, cap: float = CELL_MAX_MM) -> float:
    """Equal player cells sharing ``room`` mm, rounded down to 0.1 mm, at most ``cap``."""
    return min(cap, math.floor(room / columns * 10 + 1e-6) / 10)


def columns_fit(room: float, columns: int) -> bool:
    return room / columns >= MIN_CELL_MM - 1e-9


def legend_height(width: float, words: Words, marks: Sequence[str] = ()) -> float:
    """The legend's height: the answers, and the line of the ruling marks a turn uses."""
    height = paragraph(0.0, 0.0, width, legend(words), LEGEND_PT)[1]
    if marks:
        height += paragraph(0.0, 0.0, width, notes.rulings_legend(marks, words), LEGEND_PT)[1]
    return height


def reserved_mm(width: float, words: Words, marks: Sequence[str] = ()) -> tuple[float, float]:
    """(above, below) the table on a report page ``width`` mm wide: title and intro line;
    the gap and the legend."""
    _, title_mm = title(0.0, 0.0, turn_title(1, words))
    _, intro_mm = para(0.0, 0.0, width, intro(words), INTRO_PT)
    return title_mm + intro_mm + 1.0, GAP_MM + legend_height(width, words, marks) + SLACK_MM


def rows_fit(body: Frame, head_mm: float, words: Words, below_extra: float = 0.0,
             marks: Sequence[str] = ()) -> int:
    """Table rows (7.5 mm) that fit a report page's body under the header row."""
    above, below = reserved_mm(body.w, words, marks)
    return int((body.h - above - head_mm - below - below_extra + 1e-6) // ROW_MM)


@dataclass(frozen=True)
class ReportLayout:
    """How a turn report is laid out on the paper, whatever the turn."""

    landscape: bool
    label_mm: float
    cell_mm: float
    parts: tuple[tuple[int, int], ...]  # player columns [start, stop) on each part
    head_mm: float
    rows_per_page: int
    head_pt: float = HEAD_PT  # the player labels' size in the header row
    label_pt: float = LABEL_PT  # the row labels' size

    @property
    def split(self) -> bool:
        return len(self.parts) > 1

    def width_mm(self, columns: int) -> float:
        return self.label_mm + columns * self.cell_mm


def report_layout(players: int, sheet: Paper, words: Words, label_mm: float = LABEL_MIN_MM,
                  cap: float = CELL_MAX_MM, head_mm: float = HEAD_MM) -> ReportLayout:
    """Portrait when the player columns fit, else landscape, else columns split over
    landscape pages (as equal as possible); every cell at least 7 mm."""
    for landscape in (False, True):
        body = sheet.oriented(landscape).body
        room = body.w - label_mm
        if columns_fit(room, players):
            return ReportLayout(landscape, label_mm, cell_width(room, players, cap),
                                ((0, players),), head_mm, rows_fit(body, head_mm, words))
    body = sheet.turned().body
    room = body.w - label_mm
    per_part = max(1, int(room / MIN_CELL_MM + 1e-9))
    parts = tuple(split(players, math.ceil(players / per_part)))
    widest = max(stop - start for start, stop in parts)
    return ReportLayout(True, label_mm, cell_width(room, widest, cap), parts, head_mm,
                        rows_fit(body, head_mm, words))


def row_pages(rows: int, per_page: int, last_page: int) -> list[tuple[int, int]]:
    """Runs of rows [start, stop), ``per_page`` a page, the last run no more than
    ``last_page`` (the room left beside the winner box); at least one run, and every run but
    an empty turn's holds a row."""
    per_page = max(1, per_page)
    last_page = max(1, min(last_page, per_page))
    out: list[tuple[int, int]] = []
    start = 0
    while rows - start > last_page:
        take = min(per_page, rows - start - 1)
        out.append((start, start + take))
        start += take
    out.append((start, rows))
    return out


def head_height(players: Sequence[str], cell_mm: float) -> float:
    """8 mm when every player label fits one line (at 8 pt or more), else 11 mm."""
    inner = cell_mm - 2 * PAD_MM
    return HEAD_MM if all(fits(label, inner, MIN_TEXT_PT, "bold") for label in players) \
        else HEAD_TALL_MM


def label_size(labels: Sequence[str], label_mm: float) -> float:
    """One size for every row label: 9 pt, or smaller (down to 8 pt) until every label fits
    one line; a label still too wide wraps to two lines at 8 pt."""
    inner = label_mm - 2 * PAD_MM
    return min((fit(label, inner, ROW_MM, LABEL_PT, MIN_TEXT_PT, "regular", 2).size
                for label in labels), default=LABEL_PT)


def head_size(players: Sequence[str], cell_mm: float, head_mm: float) -> float:
    """One size for every player label of the header row: the smallest any label needs
    (10 pt down to 8 pt; at 8 pt a label still too wide wraps, then is cut)."""
    lines = 2 if head_mm > HEAD_MM else 1
    inner = cell_mm - 2 * PAD_MM
    return min((fit(label, inner, head_mm, HEAD_PT, MIN_TEXT_PT, "bold", lines).size
                for label in players), default=HEAD_PT)


# --- the turn report: drawing -----------------------------------------------------------------


def bold_box(x: float, top: float, width: float, content: str, size: float = WIN_PT
             ) -> tuple[list[Item], float]:
    """``content`` in bold in a heavy box (the winner line, the register's status)."""
    items, height = paragraph(x + WIN_PAD_MM, top + WIN_PAD_MM, width - 2 * WIN_PAD_MM,
                              [(content, "bold")], size)
    tall = height + 2 * WIN_PAD_MM - (pt(size) * LEADING - pt(size) * 1.05)
    return [*items, box(x, top, width, tall, 0.6)], tall


def report_title(body: Frame, caption: str, note: str) -> tuple[list[Item], float]:
    """The page title, with the column note ("columns A–AI") fitted to its right."""
    items, used = title(body.x, body.y, caption)
    if note:
        room = body.w - text_width(caption, 20.0, "bold") - 8.0
        items += fit_in(note, body.right - room, body.y, room, 7.5, NOTE_PT, MIN_TEXT_PT,
                        "bold", "right", max_lines=1)
    return items, used


def table_rows(rows: Sequence[rules.Row], layout: ReportLayout, part: tuple[int, int],
               words: Words) -> list[list[Cell]]:
    """The table's cells for the player columns of ``part``: a guess's answers, a list's
    count, or across the columns why a void or ignored guess has no answers."""
    c0, c1 = part
    table: list[list[Cell]] = []
    for row in rows:
        label = Cell(row_label(row, words, isolated=True), size=layout.label_pt,
                     least=MIN_TEXT_PT)
        if isinstance(row, rules.ListRow):
            table.append([label, Cell(notes.list_text(row, words), "bold", size=CELL_PT,
                                      span=c1 - c0)])
        elif row.status != "ok":
            table.append([label, Cell(notes.no_answer_text(row, words), "italic",
                                      size=CELL_PT, least=MIN_TEXT_PT, span=c1 - c0)])
        else:
            table.append([label] + [Cell(answer(cell, words), align="center", size=CELL_PT)
                                    for cell in row.cells[c0:c1]])
    return table


def report_page(body: Frame, layout: ReportLayout, players: Sequence[str],
                rows: Sequence[rules.Row], part: tuple[int, int], marks: Sequence[str],
                words: Words) -> tuple[list[Item], float]:
    """One page of a turn report below its title: the rows given, for the player columns of
    ``part``, and the legend; returns the items and where the legend ends (the closing lines
    go below)."""
    x, y, w = body.x, body.y, body.w
    items: list[Item] = []
    y += title(0.0, 0.0, turn_title(1, words))[1]
    more, used = para(x, y, w, intro(words), INTRO_PT)
    items += more
    y += used + 1.0
    c0, c1 = part
    lines = 2 if layout.head_mm > HEAD_MM else 1
    head = [Cell(words.gettext("Guess"), "bold", size=LABEL_PT)] + [
        Cell(label, "bold", "center", layout.head_pt, MIN_TEXT_PT, lines=lines)
        for label in players[c0:c1]]
    widths = [layout.label_mm] + [layout.cell_mm] * (c1 - c0)
    heights = [layout.head_mm] + [ROW_MM] * len(rows)
    items += ruled_table(x, y, widths, heights, [head, *table_rows(rows, layout, part, words)],
                         heavy=(1,))
    y += sum(heights) + GAP_MM
    for parts in (legend(words), notes.rulings_legend(marks, words)):
        if parts:
            runs, used = paragraph(x, y, w, parts, LEGEND_PT)
            items += runs
            y += used
    return items, y


# --- the lines that close a turn's report ---------------------------------------------------------

LINE_PT = 10.0  # "No orders: Cy", "Next turn: ..."
RULING_PT = 9.5  # a ruling's note, the tie explanation
LINE_GAP_MM = 1.2

Block = tuple[str, str]  # (text, kind): "line" (bold), "note", "win" (the boxed winner line)


def closing_blocks(report: rules.TurnReport, players: Sequence[str],
                   number_range: tuple[int, int], words: Words) -> list[Block]:
    """No orders, each ruling's note, then the allowances for the next turn or, on a winning
    turn, the winner and (when several players finished) why."""
    blocks: list[Block] = []
    if report.no_orders:
        blocks.append((notes.no_orders_line(report.no_orders, words), "line"))
    blocks += [(text, "note") for text in notes.ruling_notes(report, number_range, words)]
    if report.winners:
        blocks.append((win_text(report.winners, report.reason, report.number, words), "win"))
        explained = notes.finish_explanation(report, words)
        if explained:
            blocks.append((explained, "note"))
    else:
        blocks.append((notes.next_turn_line(report.next_allowance, players, words), "line"))
    return blocks


def draw_block(x: float, top: float, width: float, block: Block) -> tuple[list[Item], float]:
    """One closing block at ``top``; returns its items and the height it takes."""
    content, kind = block
    if kind == "win":
        items, used = bold_box(x, top + GAP_MM, width, content)
        return items, used + GAP_MM
    size = LINE_PT if kind == "line" else RULING_PT
    runs, used = paragraph(x, top + LINE_GAP_MM, width, [(content, "bold" if kind == "line"
                                                                 else "regular")], size)
    return list(runs), used + LINE_GAP_MM


def block_height(block: Block, width: float) -> float:
    return draw_block(0.0, 0.0, width, block)[1]


def flow_blocks(blocks: Sequence[Block], body: Frame, start: float
                ) -> tuple[list[Item], list[list[Item]]]:
    """The closing blocks from ``start`` down the last table page, then on pages of their
    own (below the title) when they do not fit: (the last page's items, further pages)."""
    top = body.y + title(0.0, 0.0, "Turn")[1]
    pages: list[list[Item]] = [[]]
    y, fresh = start, False
    for block in blocks:
        height = block_height(block, body.w)
        if y + height > body.bottom - SLACK_MM and not fresh:
            pages.append([])
            y, fresh = top, True
        more, used = draw_block(body.x, y, body.w, block)
        pages[-1] += more
        y += used
        fresh = False
    return pages[0], pages[1:]


def column_note(players: Sequence[str], part: tuple[int, int], words: Words) -> str:
    """"columns A–AI"; spaced ("columns Ann Lee – Zoë Roy") when labels hold spaces."""
    first, last = players[part[0]], players[part[1] - 1]
    if " " in first + last:
        return words.gettext("columns %(first)s – %(last)s", first=first, last=last)
    return words.gettext("columns %(first)s–%(last)s", first=first, last=last)


def turn_pages(report: rules.TurnReport, players: Sequence[str], layout: ReportLayout,
               body: Frame, words: Words, number_range: tuple[int, int]) -> list[Page]:
    """Every page of one turn's report: the table's runs of rows (each for every column
    part), its closing lines on the last page, or on pages of their own when they need more
    room than a page leaves beside a row."""
    marks = notes.marks_used(report.rows)
    blocks = closing_blocks(report, players, number_range, words)
    closing = sum(block_height(block, body.w) for block in blocks)
    per_page = rows_fit(body, layout.head_mm, words, marks=marks)
    last = rows_fit(body, layout.head_mm, words, closing, marks)
    runs = row_pages(len(report.rows), per_page, last if last >= 1 else per_page)
    bodies: list[tuple[list[Item], tuple[int, int] | None]] = []  # items, column part
    end = 0.0
    for start, stop in runs:
        for part in layout.parts:
            items, end = report_page(body, layout, players, report.rows[start:stop], part,
                                     marks, words)
            bodies.append((items, part))
    closing_items, spill = flow_blocks(blocks, body, end)
    bodies[-1][0].extend(closing_items)
    bodies += [(items, None) for items in spill]
    pages: list[Page] = []
    for number, (items, columns) in enumerate(bodies, start=1):
        caption = turn_title(report.number, words, number, len(bodies))
        note = column_note(players, columns, words) if layout.split and columns else ""
        heading, _used = report_title(body, caption, note)
        first = number == 1  # a turn's bookmark and anchor open at its first page
        pages.append(Page(caption, Form(tuple(heading + items)), landscape=layout.landscape,
                          bookmark=turn_mark(report.number, words) if first else None,
                          anchor=f"turn-{report.number}" if first else None))
    return pages


def game_layout(log: rules.GameLog, result: rules.GameResult, sheet: Paper, words: Words
                ) -> ReportLayout:
    """The one layout every turn report of this game uses."""
    labels = ([row_label(row, words) for report in result.turns for row in report.rows]
              or [words.gettext("Guess")])
    players = list(log.players)
    label_mm = label_width(labels)
    cap = cell_cap(players)
    layout = report_layout(len(players), sheet, words, label_mm, cap)
    head = head_height(players, layout.cell_mm)
    if head != layout.head_mm:
        layout = report_layout(len(players), sheet, words, label_mm, cap, head)
    return replace(layout, head_pt=head_size(players, layout.cell_mm, layout.head_mm),
                   label_pt=label_size(labels, label_mm))


def report_pages(log: rules.GameLog, result: rules.GameResult, sheet: Paper, words: Words
                 ) -> list[Page]:
    _ = words.gettext
    players = list(log.players)
    layout = game_layout(log, result, sheet, words)
    body = sheet.oriented(layout.landscape).body
    pages = [page for report in result.turns
             for page in turn_pages(report, players, layout, body, words, log.range)]
    if not pages:
        items, used = title(sheet.body.x, sheet.body.y, _("No turns played yet"))
        more, _used = para(sheet.body.x, sheet.body.y + used, sheet.body.w,
                           _("The game log holds no turns yet, so there is nothing to report."),
                           INTRO_PT)
        pages.append(Page(_("No turns yet"), Form(tuple(items + more))))
    return pages
