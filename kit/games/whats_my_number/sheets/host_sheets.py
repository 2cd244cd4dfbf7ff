"""What's My Number? host form pages as layout models: the turn-report grids (the secret
register is in ``register``).

Every page function returns the items of one page body, placed in that page's body frame (mm;
a landscape grid is drawn in ``sheet.turned().body``). The layout maths (rows and columns per
sheet, orientation, column splits, row heights) is in small pure functions tested on numbers
alone.

The turn-report grid keeps the previous design's decisions:

* Every player has a block of four rows per turn: guess 1, guess 2, one bonus guess and a list
  row ("list: ______ correct"). Further bonus guesses go on blank "Player ____ +__" rows at the
  foot of each turn's last sheet (at most ``MAX_EXTRA_ROWS``) and on the spare bonus sheet at
  the end of the host file (copy it as needed). Turn 1 has no bonus row and no extra rows: a
  bonus guess is earned by a hit, so none can be made before turn 2.
* Rows are 7.5 mm high, player columns 7.2 to 15 mm wide (7 mm inside the rules), text 8 pt
  or larger.
* Portrait when every player column fits the sheet's width; otherwise whichever of landscape
  or a column split (row labels repeated on each part) needs fewer sheets, landscape on a tie.
  Player blocks that do not fit one sheet continue on further sheets.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ....errors import LayoutError
from ....fonts import ASCENT
from ....i18n import Words
from ....layout.fit import (
    LEADING,
    Fitted,
    break_lines,
    ellipsize,
    fit,
    fit_in,
    fits,
    hyphen_wrap,
    letter_wrap,
    place,
    sizes,
)
from ....layout.model import Item, Place, baseline_in, box, hline, pt, rich, text, text_width, vline
from ....layout.table import in_cell
from ....paper import Frame, Paper
from .. import rules
from .people import MIN_CELL_MM, MIN_TEXT_PT, Person, answer, one_line, range_words, split

LINE_MM = 0.3  # ordinary rules
HEAVY_MM = 0.6  # between player blocks, under the header
EDGE_MM = HEAVY_MM / 2  # half the heaviest rule: strokes stay inside the body frame

# --- turn-report grid (host) ---------------------------------------------------------------------

GRID_ROW_MM = 7.5
GRID_HEAD_MM = 8.0
GRID_TOP_MM = 17.0  # title, legend and the winner box above the grid
GRID_PLAYER_MM = 23.0  # the player's letter, then their name on the rows below
GRID_KIND_MM = 8.0  # "1", "2", "+1", "list"
GRID_GUESS_MM = 11.0  # the GM writes the guessed number here
GRID_LABEL_MM = GRID_PLAYER_MM + GRID_KIND_MM + GRID_GUESS_MM
GRID_MIN_CELL_MM = MIN_CELL_MM + 0.2  # 7 mm inside the 0.3 mm rules
GRID_MAX_CELL_MM = 15.0
GRID_SLACK_MM = 1.0  # room for the rules' width and rounding, each way
BONUS_ROWS = 1  # bonus rows per player on the grid
KINDS = ("1", "2") + tuple(f"+{n}" for n in range(1, BONUS_ROWS + 1)) + ("list",)
FIRST_TURN_KINDS = ("1", "2", "list")  # no bonus guess before a hit has earned one
ROWS_PER_PLAYER = len(KINDS)
MAX_EXTRA_ROWS = 6  # blank extra-bonus rows at most on a turn's last sheet

TITLE_PT = (13.0, 10.0)  # the grid title shrinks from 13 pt to 10 pt to fit its line
LEGEND_PT = (9.0, MIN_TEXT_PT)
CELL_PT = 9.0
LETTER_PT = 13.0  # the player's letter at the top of their block
NAME_PT = (10.0, MIN_TEXT_PT)
HEAD_PT = 10.0
PAD_MM = 1.2  # between text and the rules
NAME_PAD_MM = 1.0  # a name may come a little closer
WINNER_BOX_MM = (24.0, 9.0)
LEGEND_TOP_MM = 7.0  # below the title line
LEGEND_SEP = (" · ", "regular")


def legend(words: Words) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The legend's entries (each kept whole on a line, between them " · "): the answers as
    the turn reports print them, and what to write on a list's row."""
    _ = words.gettext
    return (
        ((answer(rules.HIGHER, words), "bold"), (" " + _("higher"), "regular")),
        ((answer(rules.LOWER, words), "bold"), (" " + _("lower"), "regular")),
        ((answer(rules.HIT, words), "bold"), (" " + _("the guess is that number"), "regular")),
        ((answer(rules.NO_INFO, words), "bold"),
         (" " + _("no information: own number or already identified"), "regular")),
        ((_("list:"), "bold"), (" " + _("write only how many are correct"), "regular")),
    )


def grid_rows_fit(body: Frame) -> int:
    """Grid rows (below the header) that fit a body frame's height."""
    return int((body.h - GRID_TOP_MM - GRID_HEAD_MM - GRID_SLACK_MM) // GRID_ROW_MM)


def grid_columns_fit(body: Frame) -> int:
    """Player columns of at least 7.2 mm that fit beside the row labels."""
    return int((body.w - GRID_LABEL_MM - GRID_SLACK_MM) // GRID_MIN_CELL_MM)


def cell_width(body: Frame, columns: int) -> float:
    """Player columns share the width left by the labels, 0.1 mm steps, 15 mm at most."""
    room = body.w - GRID_LABEL_MM - GRID_SLACK_MM
    return min(GRID_MAX_CELL_MM, math.floor(room / max(1, columns) * 10) / 10)


@dataclass(frozen=True)
class GridLayout:
    """How one turn's report grid is cut into sheets."""

    players: int
    landscape: bool
    body: Frame  # the body frame of the (possibly turned) sheet
    column_parts: tuple[tuple[int, int], ...]  # player columns [start, stop) on each part
    row_parts: tuple[tuple[int, int], ...]  # player blocks [start, stop) on each sheet
    cell_mm: float
    rows_per_sheet: int  # grid rows (below the header) that fit one sheet
    extra_rows: int  # blank extra-bonus rows on the turn's last sheet(s)

    @property
    def sheets_per_turn(self) -> int:
        return len(self.column_parts) * len(self.row_parts)

    @property
    def split_columns(self) -> bool:
        return len(self.column_parts) > 1

    @property
    def max_columns(self) -> int:
        return max(b - a for a, b in self.column_parts)

    def grid_width(self, columns: int) -> float:
        return GRID_LABEL_MM + columns * self.cell_mm

    def grid_height(self, rows: int) -> float:
        return GRID_HEAD_MM + rows * GRID_ROW_MM


def grid_layout(sheet: Paper, count: int) -> GridLayout:
    """Choose the orientation and the cuts for ``count`` players on ``sheet``."""
    options: dict[bool, tuple[int, int, int, int]] = {}
    for landscape in (False, True):
        body = sheet.oriented(landscape).body
        columns, rows = grid_columns_fit(body), grid_rows_fit(body)
        blocks = rows // ROWS_PER_PLAYER
        if columns >= 1 and blocks >= 1:
            options[landscape] = (math.ceil(count / columns), math.ceil(count / blocks),
                                  columns, rows)
    if not options:
        raise LayoutError("paper", f"{sheet.label} is too small for a legible turn-report grid")
    portrait = options.get(False)
    if portrait is not None and portrait[0] == 1:
        landscape = False
    else:  # fewest sheets; landscape on a tie
        landscape = min(options, key=lambda k: (options[k][0] * options[k][1], not k))
    column_parts, row_parts, _, rows = options[landscape]
    body = sheet.oriented(landscape).body
    cols = split(count, column_parts)
    row_blocks = split(count, row_parts)
    widest = max(b - a for a, b in cols)
    last = (row_blocks[-1][1] - row_blocks[-1][0]) * ROWS_PER_PLAYER
    return GridLayout(count, landscape, body, tuple(cols), tuple(row_blocks),
                      cell_width(body, widest), rows, min(MAX_EXTRA_ROWS, rows - last))


@dataclass(frozen=True)
class GridSheet:
    """One sheet of one turn's grid (``turn`` None: the spare bonus sheet)."""

    turn: int | None
    number: int  # 1-based within the turn
    total: int
    columns: tuple[int, int]  # player columns [start, stop)
    blocks: tuple[int, int]  # player blocks [start, stop)
    first_part: bool  # the first column part: the list rows carry their label
    extra_rows: int

    @property
    def last(self) -> bool:
        return self.number == self.total

    @property
    def kinds(self) -> tuple[str, ...]:
        """Each player's rows on this sheet."""
        return FIRST_TURN_KINDS if self.turn == 1 else KINDS

    @property
    def rows(self) -> int:
        return (self.blocks[1] - self.blocks[0]) * len(self.kinds) + self.extra_rows


def grid_sheets(layout: GridLayout, turn: int | None) -> list[GridSheet]:
    """The sheets of one turn, row parts in order, each cut into its column parts."""
    if turn is None:  # the spare sheet: all extra rows, one per column part
        row_parts: tuple[tuple[int, int], ...] = ((0, 0),)
    else:
        row_parts = layout.row_parts
    total = len(row_parts) * len(layout.column_parts)
    out: list[GridSheet] = []
    for r, blocks in enumerate(row_parts):
        for c, columns in enumerate(layout.column_parts):
            if turn is None:
                extra = layout.rows_per_sheet
            else:  # no bonus guess in turn 1, so no row for one
                extra = layout.extra_rows if r == len(row_parts) - 1 and turn > 1 else 0
            out.append(GridSheet(turn, len(out) + 1, total, columns, blocks, c == 0, extra))
    return out


@dataclass(frozen=True)
class GridSummary:
    """What the game master card says about the grids."""

    sheets_per_turn: int
    landscape: bool
    split_columns: bool
    extra_rows: int
    total_sheets: int  # every grid sheet of the host file, the spare bonus sheet(s) included


def grid_summary(sheet: Paper, count: int, turns: int) -> GridSummary:
    layout = grid_layout(sheet, count)
    spare = len(layout.column_parts)
    return GridSummary(layout.sheets_per_turn, layout.landscape, layout.split_columns,
                       layout.extra_rows, layout.sheets_per_turn * turns + spare)


SEP = " · "  # between the parts of a grid's title


def sheet_parts(s: GridSheet, words: Words) -> list[str]:
    """"Turn 3 report" (or "Spare bonus rows") and "sheet 1 of 2" when the turn has several."""
    _ = words.gettext
    parts = [_("Turn %(turn)s report", turn=s.turn) if s.turn is not None
             else _("Spare bonus rows")]
    if s.total > 1:
        parts.append(_("sheet %(sheet)s of %(sheets)s", sheet=s.number, sheets=s.total))
    return parts


def sheet_label(s: GridSheet, words: Words) -> str:
    return SEP.join(sheet_parts(s, words))


WINNER_GAP_MM = 2.0
MOST_SHEETS = 99  # "Continued on sheet 99": the widest the corner's note gets


def winner_words(words: Words) -> str:
    return words.gettext("Winner?")


def corner_notes(s: GridSheet, words: Words) -> str:
    """The corner of a sheet that has no winner box: "Copy as needed" on the spare sheet,
    "Continued on sheet N" on the others."""
    if s.turn is None:
        return words.gettext("Copy as needed")
    return words.gettext("Continued on sheet %(sheet)s", sheet=s.number + 1)


def corner_width(words: Words) -> float:
    """The top-right corner's width: the widest of its three contents (the winner box, unless
    a language makes a note longer)."""
    notes = [words.gettext("Copy as needed"),
             words.gettext("Continued on sheet %(sheet)s", sheet=MOST_SHEETS)]
    return max([WINNER_BOX_MM[0] + WINNER_GAP_MM + text_width(winner_words(words), HEAD_PT,
                                                               "bold")]
               + [text_width(note, CELL_PT, "bold") for note in notes])


def band_width(body: Frame, words: Words) -> float:
    """The width left to the title and the legend beside the corner (the same on every sheet,
    so the legend breaks alike everywhere)."""
    return body.w - EDGE_MM - corner_width(words) - 4.0


def title_baseline(body: Frame) -> float:
    return body.y + pt(TITLE_PT[0]) * ASCENT + 0.3


def _corner(body: Frame, s: GridSheet, words: Words) -> list[Item]:
    """The top-right corner: the winner box, "Continued on sheet ..." or "Copy as needed"."""
    right, top = body.right - EDGE_MM, body.y
    if s.turn is not None and s.last:
        w, h = WINNER_BOX_MM
        items: list[Item] = [box(right - w, top + EDGE_MM, w, h, HEAVY_MM)]
        items += text(right - w - WINNER_GAP_MM, baseline_in(top + EDGE_MM, h, HEAD_PT),
                      winner_words(words), HEAD_PT, "bold", "right")
        return items
    return list(text(right, title_baseline(body), corner_notes(s, words), CELL_PT, "bold",
                     "right"))


def _title_parts(s: GridSheet, people: Sequence[Person], split_columns: bool,
                 number_range: tuple[int, int], words: Words) -> tuple[str, str]:
    _ = words.gettext
    parts = sheet_parts(s, words)
    if s.turn is None:  # the spare sheet: the GM writes the turn in
        parts.insert(1, _("turn ____"))
    if split_columns:
        a, b = s.columns
        parts.append(_("columns %(first)s–%(last)s", first=people[a].letter,
                       last=people[b - 1].letter))
    tail = _("range %(range)s", range=range_words(number_range, words))
    return SEP.join(parts), SEP + tail


def title_size(head: str, tail: str, width: float) -> float:
    """The largest title size (0.5 pt steps, 13 down to 10 pt) at which the line fits."""
    size = TITLE_PT[0]
    while size > TITLE_PT[1] and _title_width(head, tail, size) > width:
        size -= 0.5
    return size


def _title_width(head: str, tail: str, size: float) -> float:
    return text_width(head, size, "bold") + text_width(tail, max(MIN_TEXT_PT + 1, size - 3))


def _parts_width(parts: Sequence[tuple[str, str]], size: float) -> float:
    return sum(text_width(words, size, style) for words, style in parts)


def legend_lines(width: float, size: float, words: Words) -> list[list[tuple[str, str]]]:
    """The legend's entries packed into lines of ``width``, never broken inside an entry."""
    lines: list[list[tuple[str, str]]] = []
    for entry in legend(words):
        if lines and _parts_width([*lines[-1], LEGEND_SEP, *entry], size) <= width:
            lines[-1] += [LEGEND_SEP, *entry]
        else:
            lines.append(list(entry))
    return lines


def legend_size(width: float, words: Words) -> float:
    """The legend at 9 pt, smaller (never below 8 pt) when it would need a third line."""
    size = LEGEND_PT[0]
    while size > LEGEND_PT[1] and len(legend_lines(width, size, words)) > 2:
        size -= 0.5
    return size


NBSP = "\u00a0"


def legend_layout(width: float, words: Words) -> tuple[float, list[list[tuple[str, str]]]]:
    """The legend's size and lines: whole entries on at most two lines (9 pt, down to 8 pt);
    when a language's entries are too long for that, broken between words (a symbol stays
    with its meaning) so that the two lines above the grid still hold it."""
    size = legend_size(width, words)
    lines = legend_lines(width, size, words)
    if len(lines) <= 2:
        return size, lines
    parts: list[tuple[str, str]] = []
    for i, ((mark, mark_style), (meaning, style)) in enumerate(legend(words)):
        if i:
            parts.append(LEGEND_SEP)
        parts += [(mark, mark_style), (NBSP + meaning.lstrip(" "), style)]
    for size in sizes(LEGEND_PT[0], LEGEND_PT[1]):
        broken = [list(line) for line in break_lines(tuple(parts), round(width, 3), size)]
        if len(broken) <= 2:
            return size, broken
    return size, broken


def _top_band(body: Frame, s: GridSheet, people: Sequence[Person], split_columns: bool,
              number_range: tuple[int, int], words: Words) -> list[Item]:
    items = _corner(body, s, words)
    width = band_width(body, words)
    x = body.x
    head, tail = _title_parts(s, people, split_columns, number_range, words)
    size = title_size(head, tail, width)
    base = title_baseline(body)
    if _title_width(head, tail, size) > width:  # last resort: never seen on A4 or Letter
        head = ellipsize(head, width - _title_width("", tail, size), size, "bold")
    items += text(x, base, head, size, "bold")
    items += text(x + text_width(head, size, "bold"), base, tail,
                  max(MIN_TEXT_PT + 1, size - 3))
    size, lines = legend_layout(width, words)
    for i, line in enumerate(lines):
        items += rich(x, body.y + LEGEND_TOP_MM + pt(size) * (0.95 + i * LEADING), line, size)
    return items


@dataclass(frozen=True)
class _Row:
    top: float
    kind: str  # one of KINDS, or "extra"
    person: int | None  # the block's player, None for an extra row


def _rows(top: float, s: GridSheet) -> list[_Row]:
    out: list[_Row] = []
    y = top
    for p in range(*s.blocks):
        for kind in s.kinds:
            out.append(_Row(y, kind, p))
            y += GRID_ROW_MM
    for _ in range(s.extra_rows):
        out.append(_Row(y, "extra", None))
        y += GRID_ROW_MM
    return out


def _block_edge(above: _Row | None, below: _Row | None) -> bool:
    """A heavy rule: the top of a block, or under a block's list row."""
    return (below is not None and below.person is not None and below.kind == KINDS[0]) or (
        above is not None and above.kind == "list")


def kind_words(kind: str, words: Words) -> str:
    """A row's label in the kind column: "1", "2", "+1", "list", or "+__" on an extra row."""
    if kind == "extra":
        return "+__"
    if kind == "list":
        return words.pgettext("report grid: the row of a player's list", "list")
    return kind


def grid_items(layout: GridLayout, s: GridSheet, people: Sequence[Person],
               number_range: tuple[int, int], words: Words) -> list[Item]:
    """One grid sheet's body: the top band, then the grid."""
    body = layout.body
    items = _top_band(body, s, people, layout.split_columns, number_range, words)
    c0, c1 = s.columns
    x0 = body.x + EDGE_MM
    xs = [x0, x0 + GRID_PLAYER_MM, x0 + GRID_PLAYER_MM + GRID_KIND_MM, x0 + GRID_LABEL_MM]
    xs += [xs[3] + (i + 1) * layout.cell_mm for i in range(c1 - c0)]
    top = body.y + GRID_TOP_MM
    rows = _rows(top + GRID_HEAD_MM, s)
    # "Guess" takes the kind column too when a language's word is too long
    guess = words.gettext("Guess")
    split = xs[1] if not fits(guess, GRID_GUESS_MM - 2.0, MIN_TEXT_PT, "bold") else xs[2]
    # what a screen reader reads: a column for the player, one for the row's kind, one a
    # player guessed; a row for the header and each drawn row
    table = Place((x0, top), 1 + len(rows), 2 + c1 - c0, 0, 0)
    items += _grid_header(layout, s, people, xs, split, top, words, table)
    items += _grid_rules(xs, split, top, rows)
    items += _grid_labels(layout, s, people, xs, top, rows, words, table)
    return items


def _grid_header(layout: GridLayout, s: GridSheet, people: Sequence[Person], xs: list[float],
                 split: float, top: float, words: Words, table: Place) -> list[Item]:
    c0, c1 = s.columns
    items: list[Item] = [hline(xs[0], xs[-1], top, LINE_MM)]
    items += in_cell(fit_in(words.gettext("Player"), xs[0] + PAD_MM, top,
                            split - xs[0] - 2 * PAD_MM, GRID_HEAD_MM, HEAD_PT, MIN_TEXT_PT,
                            "bold", max_lines=1), table, 0, 0)
    items += in_cell(fit_in(words.gettext("Guess"), split + 1.0, top, xs[3] - split - 2.0,
                            GRID_HEAD_MM, HEAD_PT - 1, MIN_TEXT_PT, "bold", "center", 1),
                     table, 0, 1)
    for i, p in enumerate(range(c0, c1)):
        items += in_cell(fit_in(people[p].letter, xs[3 + i] + 0.6, top, layout.cell_mm - 1.2,
                                GRID_HEAD_MM, HEAD_PT, MIN_TEXT_PT, "bold", "center", 1),
                         table, 0, 2 + i)
    return items


def _grid_rules(xs: list[float], split: float, top: float, rows: list) -> list[Item]:
    """Heavy rules between player blocks, none inside a block's player cell; the list rows'
    label spans the guess and player columns."""
    x0, right = xs[0], xs[-1]
    first = top + GRID_HEAD_MM
    bottom = first + len(rows) * GRID_ROW_MM
    items: list[Item] = []
    for i in range(len(rows) + 1):
        above = rows[i - 1] if i > 0 else None
        below = rows[i] if i < len(rows) else None
        y = below.top if below is not None else bottom
        if i == 0 or _block_edge(above, below):
            items.append(hline(x0, right, y, HEAVY_MM))
        elif above is not None and below is not None and above.person == below.person:
            items.append(hline(xs[1], right, y, LINE_MM))
        else:
            items.append(hline(x0, right, y, LINE_MM))
    for x in (xs[0], split, right):
        items.append(vline(x, top, bottom, LINE_MM))
    if rows:
        items.append(vline(xs[1] if split == xs[2] else xs[2], first, bottom, LINE_MM))
    runs: list[tuple[float, float]] = [(top, first)]
    for row in rows:
        if row.kind == "list":
            runs.append((row.top + GRID_ROW_MM, row.top + GRID_ROW_MM))
        else:
            start, _end = runs[-1]
            runs[-1] = (start, row.top + GRID_ROW_MM)
    for x in xs[3:-1]:
        for y1, y2 in runs:
            if y2 > y1:
                items.append(vline(x, y1, y2, LINE_MM))
    return items


def _grid_labels(layout: GridLayout, s: GridSheet, people: Sequence[Person], xs: list[float],
                 top: float, rows: list, words: Words, table: Place) -> list[Item]:
    """The row labels, the pre-printed X, and each block's letter with the name below it
    (in the block's first row, for a screen reader)."""
    _ = words.gettext
    c0, c1 = s.columns
    right = xs[-1]
    first = top + GRID_HEAD_MM
    no_info = answer(rules.NO_INFO, words)
    items: list[Item] = []
    for r, row in enumerate(rows, 1):
        items += in_cell(one_line((xs[1] + xs[2]) / 2, baseline_in(row.top, GRID_ROW_MM, CELL_PT),
                                  kind_words(row.kind, words), GRID_KIND_MM - 1.2, CELL_PT,
                                  align="center"), table, r, 1)
        if row.kind == "extra":
            items += in_cell(fit_in(_("Player ____"), xs[0] + PAD_MM, row.top,
                                    GRID_PLAYER_MM - 2 * PAD_MM, GRID_ROW_MM, MIN_TEXT_PT,
                                    MIN_TEXT_PT, max_lines=1), table, r, 0)
        elif row.kind == "list":
            if s.first_part:
                items += in_cell(fit_in(_("list: ______ correct"), xs[2] + 2.0, row.top,
                                        right - xs[2] - 2.0 - PAD_MM, GRID_ROW_MM, CELL_PT,
                                        MIN_TEXT_PT, max_lines=1), table, r, 2, c1 - c0)
        elif c0 <= row.person < c1:
            x = xs[3 + row.person - c0] + layout.cell_mm / 2
            items += in_cell(one_line(x, baseline_in(row.top, GRID_ROW_MM, HEAD_PT), no_info,
                                      layout.cell_mm - 1.2, HEAD_PT, style="bold",
                                      align="center"), table, r, 2 + row.person - c0)
    for p in range(*s.blocks):
        r = 1 + (p - s.blocks[0]) * len(s.kinds)
        block = first + (r - 1) * GRID_ROW_MM
        items += in_cell(text(xs[0] + PAD_MM, baseline_in(block, GRID_ROW_MM, LETTER_PT),
                              people[p].letter, LETTER_PT, "bold"), table, r, 0)
        if people[p].name:
            items += in_cell(name_items(people[p].name, xs[0] + NAME_PAD_MM,
                                        block + GRID_ROW_MM, len(s.kinds)), table, r, 0)
    return items


def name_box(rows: int = ROWS_PER_PLAYER) -> tuple[float, float]:
    """(width, height) mm a name may fill: the player cell below the letter, in a block of
    ``rows`` rows."""
    return (GRID_PLAYER_MM - 2 * NAME_PAD_MM, (rows - 1) * GRID_ROW_MM - HEAVY_MM / 2 - PAD_MM)


def fit_name(name: str, width: float, height: float, largest: float, smallest: float,
             max_lines: int) -> Fitted:
    """A name shrunk first, then wrapped between words; a word wider than the box breaks after
    one of its own hyphens, then between its letters (a name is never cut)."""
    fitted = fit(name, width, height, largest, smallest, "regular", max_lines)
    if not fitted.cut:
        return fitted
    for by_letter in (False, True):
        for size in sizes(largest, smallest):
            lines = hyphen_wrap(name, width, size)
            if by_letter:
                lines = [part for line in lines for part in letter_wrap(line, width, size)]
            if (len(lines) <= max_lines and len(lines) * pt(size) * LEADING <= height + 1e-6
                    and all(fits(line, width, size) for line in lines)):
                return Fitted(tuple(lines), size)
    return fitted


def name_items(name: str, x: float, top: float, rows: int = ROWS_PER_PLAYER) -> list[Item]:
    """A name under its letter, top-aligned in the rows below it (a block of ``rows``)."""
    width, height = name_box(rows)
    fitted = fit_name(name, width, height, NAME_PT[0], NAME_PT[1],
                      int(height / (pt(NAME_PT[1]) * LEADING)))
    tall = len(fitted.lines) * pt(fitted.size) * LEADING
    return list(place(fitted, x, top, width, tall))


def grid_pages(sheet: Paper, people: Sequence[Person], turns: int,
               number_range: tuple[int, int], words: Words
               ) -> list[tuple[str, bool, list[Item]]]:
    layout = grid_layout(sheet, len(people))
    out = []
    for turn in [*range(1, turns + 1), None]:
        for s in grid_sheets(layout, turn):
            out.append((sheet_label(s, words), layout.landscape,
                        grid_items(layout, s, people, number_range, words)))
    return out
