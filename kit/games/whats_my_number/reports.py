"""Plan filled What's My Number? turn reports from a game log (the GM assistant).

The rules engine (``kit.games.whats_my_number.play``) answers every order; this module only
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

from ... import fonts
from ...errors import shown
from ...game import KitConfig
from ...i18n import Words
from ...layout.blocks import heading, para, title
from ...layout.fit import LEADING, Part, ellipsize, fit, fit_in, fits, paragraph, wrap
from ...layout.model import Item, box, pt, text, text_width
from ...layout.table import PAD_MM, Cell, ruled_table
from ...options import printable_text
from ...paper import Frame, Paper, paper
from ...plan import Document, Form, KitPlan, Page
from . import rules
from .people import MIN_CELL_MM, MIN_TEXT_PT, answer, range_words, split
from .people import title as game_title

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


def row_label(row: rules.Row, words: Words) -> str:
    """"A 1", "B 3 (bonus)", "C List": a row of the turn report."""
    if isinstance(row, rules.GuessRow):
        if row.bonus:
            return words.gettext("%(player)s %(index)s (bonus)", player=row.player,
                                 index=row.index)
        return words.gettext("%(player)s %(index)s", player=row.player, index=row.index)
    return words.gettext("%(player)s List", player=row.player)


def correct_text(correct: int, words: Words) -> str:
    """"3 correct.": all a list's row says."""
    return words.ngettext("%(num)s correct.", "%(num)s correct.", correct)


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


def reserved_mm(width: float, words: Words) -> tuple[float, float]:
    """(above, below) the table on a report page ``width`` mm wide: title and intro line;
    the gap and the legend."""
    _, title_mm = title(0.0, 0.0, turn_title(1, words))
    _, intro_mm = para(0.0, 0.0, width, intro(words), INTRO_PT)
    _, legend_mm = paragraph(0.0, 0.0, width, legend(words), LEGEND_PT)
    return title_mm + intro_mm + 1.0, GAP_MM + legend_mm + SLACK_MM


def rows_fit(body: Frame, head_mm: float, words: Words, below_extra: float = 0.0) -> int:
    """Table rows (7.5 mm) that fit a report page's body under the header row."""
    above, below = reserved_mm(body.w, words)
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


def box_height(content: str, width: float, size: float = WIN_PT) -> float:
    return bold_box(0.0, 0.0, width, content, size)[1]


def report_title(body: Frame, caption: str, note: str) -> tuple[list[Item], float]:
    """The page title, with the column note ("columns A–AI") fitted to its right."""
    items, used = title(body.x, body.y, caption)
    if note:
        room = body.w - text_width(caption, 20.0, "bold") - 8.0
        items += fit_in(note, body.right - room, body.y, room, 7.5, NOTE_PT, MIN_TEXT_PT,
                        "bold", "right", max_lines=1)
    return items, used


def report_page(body: Frame, layout: ReportLayout, caption: str, note: str,
                players: Sequence[str], rows: Sequence[rules.Row], part: tuple[int, int],
                winner: str, words: Words) -> list[Item]:
    """One page of a turn report: the rows given, for the player columns of ``part``."""
    x, y, w = body.x, body.y, body.w
    items, used = report_title(body, caption, note)
    y += used
    more, used = para(x, y, w, intro(words), INTRO_PT)
    items += more
    y += used + 1.0
    c0, c1 = part
    columns = c1 - c0
    lines = 2 if layout.head_mm > HEAD_MM else 1
    head = [Cell(words.gettext("Guess"), "bold", size=LABEL_PT)] + [
        Cell(label, "bold", "center", layout.head_pt, MIN_TEXT_PT, lines=lines)
        for label in players[c0:c1]]
    table: list[list[Cell]] = [head]
    for row in rows:
        label = Cell(row_label(row, words), size=layout.label_pt, least=MIN_TEXT_PT)
        if isinstance(row, rules.GuessRow):
            table.append([label] + [Cell(answer(cell, words), align="center", size=CELL_PT)
                                    for cell in row.cells[c0:c1]])
        else:
            table.append([label, Cell(correct_text(row.correct, words), "bold", size=CELL_PT,
                                      span=columns)])
    widths = [layout.label_mm] + [layout.cell_mm] * columns
    heights = [layout.head_mm] + [ROW_MM] * len(rows)
    items += ruled_table(x, y, widths, heights, table, heavy=(1,))
    y += sum(heights) + GAP_MM
    more, used = paragraph(x, y, w, legend(words), LEGEND_PT)
    items += more
    y += used
    if winner:
        more, _ = bold_box(x, y + GAP_MM, w, winner)
        items += more
    return items


def column_note(players: Sequence[str], part: tuple[int, int], words: Words) -> str:
    """"columns A–AI"; spaced ("columns Ann Lee – Zoë Roy") when labels hold spaces."""
    first, last = players[part[0]], players[part[1] - 1]
    if " " in first + last:
        return words.gettext("columns %(first)s – %(last)s", first=first, last=last)
    return words.gettext("columns %(first)s–%(last)s", first=first, last=last)


def turn_pages(report: rules.TurnReport, players: Sequence[str], layout: ReportLayout,
               body: Frame, words: Words) -> list[Page]:
    """Every page of one turn's report."""
    winner = (win_text(report.winners, report.reason, report.number, words)
              if report.winners else "")
    last = layout.rows_per_page
    if winner:
        last = rows_fit(body, layout.head_mm, words, GAP_MM + box_height(winner, body.w))
    runs = row_pages(len(report.rows), layout.rows_per_page, last)
    total = len(runs) * len(layout.parts)
    pages: list[Page] = []
    for start, stop in runs:
        for part in layout.parts:
            number = len(pages) + 1
            caption = turn_title(report.number, words, number, total)
            note = column_note(players, part, words) if layout.split else ""
            items = report_page(body, layout, caption, note, players, report.rows[start:stop],
                                part, winner if number == total else "", words)
            pages.append(Page(caption, Form(tuple(items)), landscape=layout.landscape))
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
             for page in turn_pages(report, players, layout, body, words)]
    if not pages:
        items, used = title(sheet.body.x, sheet.body.y, _("No turns played yet"))
        more, _used = para(sheet.body.x, sheet.body.y + used, sheet.body.w,
                           _("The game log holds no turns yet, so there is nothing to report."),
                           INTRO_PT)
        pages.append(Page(_("No turns yet"), Form(tuple(items + more))))
    return pages


# --- the GM register --------------------------------------------------------------------------

REG_PT = 10.0  # register text
REG_HEAD_PT = 9.5
REG_HEAD_MM = 11.0  # two lines of header text
REG_PAD_MM = 1.6  # above the first and below the last line of a register cell
REG_MIN_ROW_MM = 7.5
SECRET_MM = 16.0
NEXT_MM = 21.0
PLAYER_MIN_MM = 16.0
PLAYER_SHARE = 0.24  # of the body width, at most, for the player column
FOUND_SHARE = 0.58  # of what is left, for "Has identified"; "Still to find" takes the rest
MAX_LISTED = 12  # "Still to find" names at most this many players, else counts them
LIST_TURN_MM = 18.0  # "Lists submitted": turn | player (as wide as the register's) | correct
LIST_CORRECT_MM = 24.0


def register_header(words: Words) -> tuple[str, ...]:
    _ = words.gettext
    return (_("Player"), _("Secret"), _("Has identified (turn.guess)"), _("Still to find"),
            _("Guesses next turn"))


def register_widths(width: float, players: Sequence[str]) -> list[float]:
    """Player | Secret | Has identified | Still to find | Guesses next turn, in mm."""
    widest = max((text_width(label, REG_PT) for label in players), default=0.0)
    player = min(width * PLAYER_SHARE, max(PLAYER_MIN_MM, widest + 2 * PAD_MM + 0.6))
    player = round(player, 1)
    rest = width - player - SECRET_MM - NEXT_MM
    found = round(rest * FOUND_SHARE, 1)
    return [player, SECRET_MM, found, round(rest - found, 1), NEXT_MM]


def wrap_entries(entries: Sequence[str], sep: str, width: float, size: float = REG_PT
                 ) -> list[str]:
    """``entries`` joined by ``sep`` (";" or ","), in lines no wider than ``width``, broken
    only between entries; an entry wider than a whole line breaks between its words, and a
    word wider than a line is cut with "…"."""
    lines: list[str] = []
    current = ""
    for i, entry in enumerate(entries):
        piece = entry + (sep if i < len(entries) - 1 else "")
        trial = f"{current} {piece}" if current else piece
        if current and not fits(trial, width, size):
            lines.append(current)
            current = piece
        else:
            current = trial
        if not fits(current, width, size):
            parts = [ellipsize(part, width, size) for part in wrap(current, width, size)]
            lines += parts[:-1]
            current = parts[-1]
    if current:
        lines.append(current)
    return lines


def still_to_find(missing: Sequence[str], found_any: bool, words: Words) -> list[str]:
    """The "Still to find" entries: the labels while there are at most 12 of them (the end
    of the game, when they matter), else a count (the "Has identified" column says who)."""
    if not missing:
        return [words.gettext("nobody")]
    if not found_any:
        return [words.ngettext("all %(num)s others", "all %(num)s others", len(missing))]
    if len(missing) <= MAX_LISTED:
        return list(missing)
    return [words.ngettext("%(num)s others", "%(num)s others", len(missing))]


def line_step(size: float = REG_PT) -> float:
    return pt(size) * LEADING


def row_height(lines: int, size: float = REG_PT) -> float:
    return max(REG_MIN_ROW_MM, 2 * REG_PAD_MM + lines * line_step(size))


@dataclass(frozen=True)
class RegisterRow:
    """One register row as lines of text per column (a long row may be cut into several)."""

    cells: tuple[tuple[str, ...], ...]

    @property
    def lines(self) -> int:
        return max((len(cell) for cell in self.cells), default=1) or 1

    @property
    def height(self) -> float:
        return row_height(self.lines)


def register_rows(log: rules.GameLog, result: rules.GameResult, widths: Sequence[float],
                  words: Words) -> list[RegisterRow]:
    players = list(log.players)
    won = result.winning_turn is not None
    inner = [w - 2 * PAD_MM for w in widths]
    rows = []
    for label in players:
        found = result.identified[label]
        identified = [f"{target} ({f.turn}.{f.guess})" for target, f in found.items()]
        missing = [p for p in players if p != label and p not in found]
        missing_lines = wrap_entries(still_to_find(missing, bool(found), words), ",",
                                     inner[3])
        rows.append(RegisterRow((
            tuple(ellipsize(line, inner[0], REG_PT) for line in wrap(label, inner[0], REG_PT)),
            (str(log.secrets[label]),),
            tuple(wrap_entries(identified, ";", inner[2]) or [words.gettext("nobody yet")]),
            tuple(missing_lines),
            ("–" if won else str(result.next_allowance[label]),),
        )))
    return rows


def continued(words: Words) -> str:
    """Under a player's label where their register row goes on from the page before."""
    return words.gettext("(continued)")


def cut_row(row: RegisterRow, lines: int, words: Words) -> tuple[RegisterRow, RegisterRow]:
    """A row too tall for the page: its first ``lines`` lines, then the rest (the first line
    of the player's label repeated, "(continued)" below it)."""
    head = RegisterRow(tuple(cell[:lines] for cell in row.cells))
    rest = RegisterRow((row.cells[0][:1] + (continued(words),),)
                       + tuple(cell[lines:] for cell in row.cells[1:]))
    return head, rest


def lines_fitting(room: float, size: float = REG_PT) -> int:
    return max(1, int((room - 2 * REG_PAD_MM + 1e-6) // line_step(size)))


def register_cells(x: float, top: float, widths: Sequence[float], row: RegisterRow,
                   words: Words) -> list[Item]:
    """The text of one register row, top-aligned, the tallest cell centred in the row;
    Secret and Guesses centred across their columns."""
    items: list[Item] = []
    step = line_step()
    first = top + (row.height - row.lines * step) / 2
    left = x
    for c, (width, cell) in enumerate(zip(widths, row.cells, strict=True)):
        align = "center" if c in (1, 4) else "left"
        anchor = left + width / 2 if align == "center" else left + PAD_MM
        for i, line in enumerate(cell):
            style = "italic" if line == continued(words) else "regular"
            base = first + i * step + step / 2 + pt(REG_PT) * fonts.CAP_HEIGHT / 2
            items += text(anchor, base, line, REG_PT, style, align)
        left += width
    return items


def status_text(result: rules.GameResult, words: Words) -> str:
    played = len(result.turns)
    if result.winning_turn is not None:
        return win_text(result.winners, result.reason, result.winning_turn, words)
    return words.ngettext("No winner yet after %(num)s turn.",
                          "No winner yet after %(num)s turns.", played)


def register_title(words: Words, page: int = 1, pages: int = 1) -> str:
    if pages > 1:
        return words.gettext("Secret register (%(page)s of %(pages)s)", page=page, pages=pages)
    return words.gettext("Secret register")


class Flow:
    """Register pages filled top to bottom; a new page starts below the title's room."""

    def __init__(self, body: Frame, words: Words) -> None:
        _, self.title_mm = title(body.x, body.y, register_title(words))
        self.top = body.y + self.title_mm
        self.bottom = body.bottom - SLACK_MM
        self.pages: list[list[Item]] = [[]]
        self.y = self.top

    @property
    def items(self) -> list[Item]:
        return self.pages[-1]

    @property
    def fresh(self) -> bool:
        return not self.items

    def room(self) -> float:
        return self.bottom - self.y

    def new_page(self) -> None:
        self.pages.append([])
        self.y = self.top


def register_table(flow: Flow, x: float, widths: Sequence[float], rows: list[RegisterRow],
                   words: Words) -> None:
    """The register table, continued over pages with its header repeated; a row taller than
    a page is cut between lines."""
    head = [Cell(caption, "bold", "center" if c in (1, 4) else "left", REG_HEAD_PT, lines=2)
            for c, caption in enumerate(register_header(words))]
    pending = list(rows)
    while pending:
        if not flow.fresh and flow.room() < REG_HEAD_MM + row_height(2):
            flow.new_page()
        fresh = flow.fresh
        room = flow.room() - REG_HEAD_MM
        placed: list[RegisterRow] = []
        while pending:
            row = pending[0]
            if row.height <= room:
                placed.append(pending.pop(0))
                room -= row.height
                continue
            if REG_HEAD_MM + row.height <= flow.bottom - flow.top and (placed or not fresh):
                break  # the next page takes it whole
            if room >= row_height(2) or not placed:  # taller than a page: cut it at a line
                first, rest = cut_row(row, lines_fitting(room), words)
                pending[0] = rest
                placed.append(first)
            break
        if placed:
            heights = [REG_HEAD_MM] + [row.height for row in placed]
            flow.items.extend(ruled_table(x, flow.y, widths, heights,
                                          [head] + [[] for _ in placed], heavy=(1,)))
            y = flow.y + REG_HEAD_MM
            for row in placed:
                flow.items.extend(register_cells(x, y, widths, row, words))
                y += row.height
            flow.y = y
        if pending:
            flow.new_page()


def lists_table(flow: Flow, x: float, player_mm: float,
                lists: Sequence[tuple[int, str, int]], words: Words) -> None:
    """"Lists submitted": turn, player, how many correct; continued over pages."""
    _ = words.gettext
    widths = [LIST_TURN_MM, player_mm, LIST_CORRECT_MM]
    head = [Cell(_("Turn"), "bold", "center", REG_HEAD_PT),
            Cell(_("Player"), "bold", size=REG_HEAD_PT),
            Cell(_("Correct"), "bold", "center", REG_HEAD_PT)]
    _items, heading_mm = heading(x, 0.0, _("Lists submitted"))
    done = 0
    while done < len(lists):
        if flow.room() < heading_mm + HEAD_MM + ROW_MM:
            flow.new_page()
        more, used = heading(x, flow.y, _("Lists submitted (continued)") if done
                             else _("Lists submitted"))
        flow.items.extend(more)
        flow.y += used
        take = max(1, min(len(lists) - done, int((flow.room() - HEAD_MM + 1e-6) // ROW_MM)))
        chunk = lists[done:done + take]
        table = [head] + [[Cell(str(turn), align="center"), Cell(player, lines=2),
                           Cell(str(correct), align="center")]
                          for turn, player, correct in chunk]
        flow.items.extend(ruled_table(x, flow.y, widths, [HEAD_MM] + [ROW_MM] * len(chunk),
                                      table, heavy=(1,)))
        flow.y += HEAD_MM + ROW_MM * len(chunk)
        done += take
        if done < len(lists):
            flow.new_page()


def register_pages(log: rules.GameLog, result: rules.GameResult, sheet: Paper, words: Words
                   ) -> list[Page]:
    """The GM register: status, range, then the register table and the lists submitted,
    continued over as many pages as they need (table headers repeated)."""
    body = sheet.body
    x, w = body.x, body.w
    flow = Flow(body, words)
    played = len(result.turns)
    more, used = bold_box(x, flow.y, w, status_text(result, words), 12.0)
    flow.items.extend(more)
    flow.y += used + GAP_MM
    more, used = para(x, flow.y, w, words.ngettext(
        "For the game master only. Range %(range)s · %(num)s turn reported.",
        "For the game master only. Range %(range)s · %(num)s turns reported.", played,
        range=range_words(log.range, words)))
    flow.items.extend(more)
    flow.y += used + 1.0
    widths = register_widths(w, log.players)
    register_table(flow, x, widths, register_rows(log, result, widths, words), words)
    lists = [(report.number, row.player, row.correct) for report in result.turns
             for row in report.rows if isinstance(row, rules.ListRow)]
    if lists:
        lists_table(flow, x, widths[0], lists, words)
    total = len(flow.pages)
    out = []
    for i, page_items in enumerate(flow.pages, start=1):
        label = register_title(words, i, total)
        heading_items, _ = title(x, body.y, label)
        out.append(Page(label, Form(tuple(heading_items + page_items)), audience="host"))
    return out


# --- the plan ---------------------------------------------------------------------------------


def plan_reports(log: rules.GameLog, result: rules.GameResult, config: KitConfig) -> KitPlan:
    for label in log.players:  # printed on every page: only what our fonts can draw
        printable_text("players", f"the label {shown(label)}", label, rules.MAX_LABEL_LENGTH)
    sheet = paper(config.paper)
    words = config.words
    _ = words.gettext
    name = game_title(words)
    banner = _("Secret numbers from %(range)s", range=range_words(log.range, words))
    return KitPlan(
        folder=config.folder_name,
        game_title=name,
        banner=banner,
        documents=(
            Document("turn-reports", _("%(game)s — turn reports", game=name),
                     tuple(report_pages(log, result, sheet, words))),
            Document("gm-register", _("%(game)s — GM register", game=name),
                     tuple(register_pages(log, result, sheet, words))),
        ),
        lang=words.lang,
    )


def markdown_table(report: rules.TurnReport, players: Sequence[str], words: Words) -> str:
    """One turn report as the reference's Markdown table (``rules.format_report_markdown``),
    in the kit's language: its words, and the answers as the printed reports show them."""
    lines = ["| " + words.gettext("Guess") + " | " + " | ".join(players) + " |",
             "|" + "---|" * (len(players) + 1)]
    for row in report.rows:
        if isinstance(row, rules.GuessRow):
            label = words.gettext("%(player)s %(index)s", player=row.player, index=row.index)
            lines.append(f"| {label} | " + " | ".join(answer(cell, words) for cell in row.cells)
                         + " |")
        else:
            text = words.ngettext("%(player)s List - %(num)s correct.",
                                  "%(player)s List - %(num)s correct.", row.correct,
                                  player=row.player)
            lines.append(f"| {text} |" + " |" * len(players))
    return "\n".join(lines) + "\n"


def markdown(log: rules.GameLog, result: rules.GameResult, words: Words) -> str:
    """Every turn's report as the reference's Markdown table, then the winner line if won."""
    parts = []
    for report in result.turns:
        parts.append(words.gettext("Turn %(turn)s", turn=report.number) + "\n\n"
                     + markdown_table(report, log.players, words))
    if result.winning_turn is not None:
        parts.append(win_text(result.winners, result.reason, result.winning_turn, words) + "\n")
    return "\n".join(parts)


def plan_report(log: rules.GameLog, config: KitConfig) -> KitPlan:
    """``kit report``'s files for a log, in ``config.words``' language: it is replayed under
    the rules, then laid out."""
    return plan_reports(log, rules.play(log), config)


def text_report(log: rules.GameLog, words: Words) -> str:
    """``kit report --format text``: the same reports as Markdown, in ``words``' language."""
    return markdown(log, rules.play(log), words)
