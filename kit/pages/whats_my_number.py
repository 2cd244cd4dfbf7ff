"""Plan the What's My Number? kit: player pages and separate host (game master) pages.

The layout maths (how many forms, rows and columns fit a sheet, cell sizes, sheets per turn) is
in pure functions here, tested on numbers alone; the templates only draw what they are given.

Layout decisions for the host's turn-report grid:

* Every player gets four rows per turn: guess 1, guess 2, one bonus guess and a list row
  ("__ correct"). Further bonus guesses go on the blank "extra bonus" rows that fill the rest of
  the turn's last sheet (at most ``MAX_EXTRA_ROWS``) and on the spare bonus sheet at the end of
  the host file (copy it as needed).
* Rows are 7.5 mm high and player columns 7.2 to 15 mm wide (7 mm inside the lines); text is
  8 pt or larger.
* Portrait when every player column fits the sheet's width; otherwise whichever of landscape or
  a column split (row labels repeated on each part) needs fewer sheets, landscape on a tie.
  Player blocks that do not fit one sheet continue on further sheets, with the header repeated.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ..config import KitConfig
from ..errors import ConfigError, LayoutError
from ..games import whats_my_number as rules
from ..options import PAPERS
from ..paper import MM_PER_PT, Paper, SlipGrid, chunks, paper
from ..plan import GameSpec, KitPlan, Page, kit_plan
from ..resources import font_path

MAX_PLAYERS = 30  # the kit's cap, not the rules' (they set none)
DEFAULT_PLAYERS = 6

MIN_CELL_MM = 7.0  # smallest cell a pen can write a letter in
GRID_MIN_CELL_MM = 7.2  # 7 mm inside the 0.3 mm border lines
MIN_TEXT_PT = 8.0  # smallest text on any grid page
BANNER_MM = 15.0  # the range banner on player pages: 12 mm box and 3 mm below it
FIT_SLACK_MM = 2.0  # room left for borders and rounding

# Turn-report grid (host)
GRID_ROW_MM = 7.5
GRID_HEAD_MM = 8.0
GRID_TOP_MM = 17.0  # title, legend and winner box above the grid
GRID_PLAYER_MM = 22.0  # the player's letter, then their name on the rows below
GRID_KIND_MM = 8.0  # "1", "2", "+1", "list"
GRID_GUESS_MM = 11.0  # the GM writes the guessed number here
GRID_SLACK_MM = 1.0
MAX_CELL_MM = 15.0
BONUS_ROWS = 1  # bonus rows per player on the grid
MAX_EXTRA_ROWS = 6  # blank extra-bonus rows at most on a turn's last sheet

# Order forms (player)
FORM_COLUMNS = 2
FORM_FIXED_MM = 37.0  # padding, name line, guess line, bonus line, "or a list" line
FORM_LIST_ROW_MM = 9.0
FORM_LIST_ENTRY_MM = 21.0  # letter (two for AA..), box and gap
FORM_LIST_INDENT_MM = 3.0
FORM_PAD_MM = 3.0  # left and right padding inside a form
FORM_BONUS_BOXES = 3
FORM_TURN_MM = 34.0  # "order form · turn 30" at the right of the head line
_NARROWEST_MM = min(paper(name).content_width_mm for name in PAPERS)
FORM_NAME_MM = _NARROWEST_MM / FORM_COLUMNS - 2 * FORM_PAD_MM - FORM_TURN_MM - 1.0

# Secret-number slips (player)
SLIP_COLUMNS = 2
SLIP_ROWS = 4
SLIP_NAME_MM = _NARROWEST_MM / SLIP_COLUMNS - 7.0 - 1.0  # inside the slip's 3.5 mm padding

# Deduction sheets (player)
DED_LABEL_MM = 26.0
DED_ROW_MM = 7.5
DED_HEAD_MM = 11.0  # two header rows: turn numbers, then low / high
DED_TOP_MM = 17.0  # heading and the line of instructions
DED_GAP_MM = 5.0
DED_MAX_SUB_MM = 14.0
DED_MAX_ROW_MM = 12.0

# Secret register (host)
REG_ROW_MM = 7.0
REG_HEAD_MM = 10.0
REG_TOP_MM = 23.0  # heading and instructions
REG_MAX_ROW_MM = 14.0
REG_NAME_MM = 30.0

# The reference example (secrets consistent with the reference report and its explanation).
EXAMPLE_PLAYERS = ("A", "B", "C", "D", "E", "F")
EXAMPLE_SECRETS = {"A": 45, "B": 5, "C": 40, "D": 20, "E": 22, "F": 30}
EXAMPLE_TURN = {
    "A": rules.Guesses((17, 33)),
    "B": rules.Guesses((40, 25)),
    "C": rules.GuessList({"A": 45, "B": 5, "D": 20, "E": 1, "F": 2}),
}


# --- players and setup ---------------------------------------------------------------------------


@cache
def _advances(bold: bool) -> tuple[dict[int, int], int]:
    """Advance widths of the kit's text face (regular or bold), by code point."""
    from fontTools.ttLib import TTFont  # WeasyPrint depends on fontTools already

    face = "AtkinsonHyperlegible-Bold.ttf" if bold else "AtkinsonHyperlegible-Regular.ttf"
    font = TTFont(font_path(face), lazy=True)
    hmtx = font["hmtx"]
    return ({cp: hmtx[glyph][0] for cp, glyph in font.getBestCmap().items()},
            font["head"].unitsPerEm)


def text_width_mm(text: str, size_pt: float, bold: bool = False) -> float:
    """How wide ``text`` prints, from the font's own metrics (no kerning, so a little wide)."""
    widths, units = _advances(bold)
    return sum(widths.get(ord(ch), units) for ch in text) / units * size_pt * MM_PER_PT


def _fits(text: str, width_mm: float, size_pt: float, bold: bool) -> bool:
    return text_width_mm(text, size_pt, bold) <= width_mm * 0.97


def fit_lines(text: str, width_mm: float, size_pt: float, lines: int, bold: bool = False
              ) -> list[str]:
    """``text`` wrapped into at most ``lines`` lines of ``width_mm``; cut with "…" if longer."""
    out: list[str] = []
    current = ""
    for word in text.split():
        joined = f"{current} {word}" if current else word
        if _fits(joined, width_mm, size_pt, bold):
            current = joined
            continue
        if current:
            out.append(current)
        current = ""
        for ch in word:  # a word too long for a line is broken where it must be
            if current and not _fits(current + ch, width_mm, size_pt, bold):
                out.append(current)
                current = ""
            current += ch
    if current:
        out.append(current)
    if len(out) > lines:
        last = " ".join(out[lines - 1:])
        out = out[:lines]
        while last and not _fits(last + "…", width_mm, size_pt, bold):
            last = last[:-1]
        out[-1] = last.rstrip() + "…"
    return out


def fit_size(text: str, width_mm: float, largest: float, smallest: float, bold: bool = False
             ) -> tuple[str, float]:
    """The largest size (0.5 pt steps) at which ``text`` fits one line; else cut at the smallest."""
    size = largest
    while size > smallest and not _fits(text, width_mm, size, bold):
        size -= 0.5
    return fit_lines(text, width_mm, size, 1, bold)[0], size


def label_lines(text: str, width_mm: float) -> list[str]:
    """A table label: one line at 9 pt if it fits, else up to two lines at 8 pt."""
    if _fits(text, width_mm, 9.0, False):
        return [text]
    return fit_lines(text, width_mm, 8.0, 2)


def name_lines(name: str, lines: int, width_mm: float = GRID_PLAYER_MM - 2.5) -> list[str]:
    """A name cut into exactly ``lines`` short lines (8 pt) for the grid's label cells."""
    out = fit_lines(name, width_mm, 8.0, lines) if name else []
    return out + [""] * (lines - len(out))


def players(config: KitConfig) -> list[dict[str, object]]:
    """Letters A, B, C, ... (AA after Z); with names, "A · Ann"; and how each label fits."""
    letters = rules.player_labels(config.players)
    names = list(config.names) or [""] * config.players
    people = []
    for letter, name in zip(letters, names, strict=True):
        text = f"{letter} · {name}" if name else letter
        form_text, form_pt = fit_size(text, FORM_NAME_MM, 12.0, 8.0, bold=True)
        slip_text, slip_pt = fit_size(text, SLIP_NAME_MM, 15.0, 9.0, bold=True)
        people.append({
            "letter": letter, "name": name, "text": text,
            "lines": name_lines(name, 2 + BONUS_ROWS),
            "label": label_lines(text, DED_LABEL_MM - 2.5),
            "name_lines": label_lines(name, REG_NAME_MM - 3.5) if name else [],
            "form": (form_text, form_pt), "slip": (slip_text, slip_pt),
        })
    return people


def banner(config: KitConfig) -> str:
    if config.custom_range:
        return f"Announced range: secret numbers from {config.range_text}"
    return f"Secret numbers: whole numbers from {config.range_text}"


def check_players(count: int | None, given: object = None) -> None:
    if count is None or not rules.MIN_PLAYERS <= count <= MAX_PLAYERS:
        shown = count if count is not None else repr(given)
        raise ConfigError(
            "players", f"{rules.TITLE} kits are made for {rules.MIN_PLAYERS} to {MAX_PLAYERS} "
            f"players (the game needs at least {rules.MIN_PLAYERS}; the upper limit is the "
            f"kit's, the rules set none); got {shown}"
        )


def check_config(config: KitConfig) -> None:
    """Game-specific checks: a custom range must hold a number for every player."""
    if config.custom_range:
        lo, hi = config.range
        rules.parse_range(f"{lo}-{hi}", config.players)  # raises "range: ..." when too small


@dataclass(frozen=True)
class _Spec(GameSpec):
    """The game's own player-count message (the rules set no cap; the kit's is 30).

    A bigger group is an error, never split into tables behind the host's back: declared here
    so it holds whether or not the base ``GameSpec`` has this field.
    """

    splits_large_parties: bool = False

    def check_players(self, players: int | None, given: object = None) -> None:
        check_players(players, given)


def _split(count: int, parts: int) -> list[tuple[int, int]]:
    """``range(count)`` cut into ``parts`` runs as equal as possible, larger runs first."""
    size, extra = divmod(count, parts)
    out, start = [], 0
    for i in range(parts):
        stop = start + size + (1 if i < extra else 0)
        out.append((start, stop))
        start = stop
    return out


# --- turn-report grid (host) ---------------------------------------------------------------------


@dataclass(frozen=True)
class GridLayout:
    """How one turn's report grid is cut into sheets."""

    players: int
    landscape: bool
    sheet_width_mm: float
    sheet_height_mm: float
    column_parts: tuple[tuple[int, int], ...]  # player columns [start, stop) on each part
    row_parts: tuple[tuple[int, int], ...]  # player blocks (rows) [start, stop) on each sheet
    cell_width_mm: float
    row_height_mm: float
    rows_per_player: int
    rows_per_sheet: int  # grid rows (below the header) that fit one sheet
    extra_rows: int  # blank extra-bonus rows on the turn's last sheet(s)

    @property
    def label_width_mm(self) -> float:
        return GRID_PLAYER_MM + GRID_KIND_MM + GRID_GUESS_MM

    @property
    def sheets_per_turn(self) -> int:
        return len(self.column_parts) * len(self.row_parts)

    @property
    def max_columns(self) -> int:
        return max(stop - start for start, stop in self.column_parts)

    def grid_width_mm(self, columns: int) -> float:
        return self.label_width_mm + columns * self.cell_width_mm

    def grid_height_mm(self, rows: int) -> float:
        return GRID_HEAD_MM + rows * self.row_height_mm


def grid_rows_per_sheet(sheet: Paper) -> int:
    usable = sheet.body_height_mm - GRID_TOP_MM - GRID_HEAD_MM - FIT_SLACK_MM
    return int(usable // GRID_ROW_MM)


def grid_layout(p: Paper, count: int, bonus_rows: int = BONUS_ROWS) -> GridLayout:
    """Choose the orientation and cuts for ``count`` player columns on paper ``p``."""
    rows_per_player = 2 + bonus_rows + 1
    label = GRID_PLAYER_MM + GRID_KIND_MM + GRID_GUESS_MM
    options = []
    for landscape in (False, True):
        sheet = p.turned() if landscape else p
        usable_w = sheet.content_width_mm - label - GRID_SLACK_MM
        max_columns = int(usable_w // GRID_MIN_CELL_MM)
        rows = grid_rows_per_sheet(sheet)
        blocks = rows // rows_per_player
        if max_columns < 1 or blocks < 1:
            continue
        column_parts = math.ceil(count / max_columns)
        row_parts = math.ceil(count / blocks)
        # fewest sheets; then no column split; then portrait
        options.append(((column_parts * row_parts, column_parts > 1, landscape),
                        landscape, sheet, usable_w, rows, column_parts, row_parts))
    if not options:
        raise LayoutError("paper", f"{p.label} is too small for a legible turn-report grid")
    _, landscape, sheet, usable_w, rows, column_parts, row_parts = min(options,
                                                                       key=lambda o: o[0])
    cols = _split(count, column_parts)
    blocks = _split(count, row_parts)
    widest = max(stop - start for start, stop in cols)
    cell = min(MAX_CELL_MM, math.floor(usable_w / widest * 10) / 10)
    last_rows = (blocks[-1][1] - blocks[-1][0]) * rows_per_player
    extra = min(MAX_EXTRA_ROWS, rows - last_rows)
    return GridLayout(count, landscape, sheet.width_mm, sheet.height_mm, tuple(cols),
                      tuple(blocks), cell, GRID_ROW_MM, rows_per_player, rows, extra)


def grid_sheets(layout: GridLayout, people: Sequence[dict[str, str]], turn: int | None
                ) -> list[dict[str, object]]:
    """The sheets of one turn (or of the spare bonus sheet when ``turn`` is None)."""
    sheets = []
    total = layout.sheets_per_turn if turn is not None else len(layout.column_parts)
    row_parts = layout.row_parts if turn is not None else ((0, 0),)
    number = 0
    for r, (b0, b1) in enumerate(row_parts):
        last_rows = r == len(row_parts) - 1
        for c, (c0, c1) in enumerate(layout.column_parts):
            number += 1
            # the spare sheet is all extra rows; a turn has them on its last sheet(s) only
            extra = layout.rows_per_sheet if turn is None else (
                layout.extra_rows if last_rows else 0)
            sheets.append({
                "turn": turn, "sheet": number, "sheets": total,
                "columns": [dict(people[i], index=i) for i in range(c0, c1)],
                "blocks": [dict(people[i], index=i) for i in range(b0, b1)],
                "first_part": c == 0, "extra_rows": extra,
                "last": number == total,
                "width_mm": layout.grid_width_mm(c1 - c0),
                "column_note": (f"columns {people[c0]['letter']}–{people[c1 - 1]['letter']}"
                                if len(layout.column_parts) > 1 else ""),
            })
    return sheets


# --- order forms (player) ------------------------------------------------------------------------


@dataclass(frozen=True)
class FormLayout:
    columns: int
    rows: int
    width_mm: float
    height_mm: float  # the cell, stretched to share the page evenly
    content_mm: float  # what the form needs
    list_per_row: int
    list_rows: int

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


def form_layout(p: Paper, opponents: int) -> FormLayout:
    width = p.content_width_mm / FORM_COLUMNS
    inner = width - 2 * FORM_PAD_MM - FORM_LIST_INDENT_MM - 1.0  # 1 mm for the cut lines
    per_row = int(inner // FORM_LIST_ENTRY_MM)
    list_rows = math.ceil(opponents / per_row)
    needed = FORM_FIXED_MM + list_rows * FORM_LIST_ROW_MM
    usable = p.body_height_mm - BANNER_MM - FIT_SLACK_MM
    rows = int(usable // needed)
    if rows < 1 or per_row < 1:
        raise LayoutError("paper", f"{p.label} is too small for an order form with "
                          f"{opponents} list lines")
    height = math.floor(usable / rows * 10) / 10
    return FormLayout(FORM_COLUMNS, rows, round(width, 2), height, needed, per_row, list_rows)


# --- secret-number slips (player) ----------------------------------------------------------------


def slip_layout(p: Paper) -> SlipGrid:
    usable = p.body_height_mm - BANNER_MM - FIT_SLACK_MM
    height = math.floor(usable / SLIP_ROWS * 10) / 10
    width = round(p.content_width_mm / SLIP_COLUMNS, 2)
    if height < 45 or width < 80:
        raise LayoutError("paper", f"{p.label} is too small for the secret-number slips")
    return SlipGrid(SLIP_COLUMNS, SLIP_ROWS, width, height)


# --- deduction sheets (player) -------------------------------------------------------------------


@dataclass(frozen=True)
class DeductionLayout:
    turn_parts: tuple[tuple[int, int], ...]  # turns [start, stop), 1-based
    opponent_parts: tuple[tuple[int, int], ...]  # opponents [start, stop)
    sub_width_mm: float  # one "low" or "high" column
    row_mm: float  # 7.5 mm, taller when the sheet has room to spare
    blocks_per_page: int
    pages_per_player: int

    @property
    def blocks(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        return [(t, o) for o in self.opponent_parts for t in self.turn_parts]


def number_width_mm(number_range: tuple[int, int]) -> float:
    """A column wide enough to write the range's largest number by hand."""
    digits = len(str(number_range[1]))
    return max(MIN_CELL_MM, 1.5 + 2.5 * digits)


def deduction_layout(p: Paper, count: int, turns: int, number_range: tuple[int, int]
                     ) -> DeductionLayout:
    opponents = count - 1
    usable_w = p.content_width_mm - DED_LABEL_MM - FIT_SLACK_MM
    # a "start" column and one column per turn, each split into "low" and "high"
    per_block = int(usable_w // (2 * number_width_mm(number_range))) - 1
    if per_block < 1:
        raise LayoutError("paper", f"{p.label} is too narrow for a deduction sheet")
    per_block = min(turns, per_block)
    turn_parts = [(a + 1, b + 1) for a, b in _split(turns, math.ceil(turns / per_block))]
    widest = max(b - a for a, b in turn_parts)
    sub = min(DED_MAX_SUB_MM, math.floor(usable_w / (2 * (widest + 1)) * 10) / 10)
    usable_h = p.body_height_mm - BANNER_MM - DED_TOP_MM - FIT_SLACK_MM
    rows_fit = int((usable_h - DED_HEAD_MM) // DED_ROW_MM) - 1  # less the "my guesses" row
    if rows_fit < 1:
        raise LayoutError("paper", f"{p.label} is too small for a deduction sheet")
    opponent_parts = _split(opponents, math.ceil(opponents / rows_fit))
    tallest = max(b - a for a, b in opponent_parts)
    block_h = DED_HEAD_MM + (tallest + 1) * DED_ROW_MM
    per_page = max(1, int((usable_h + DED_GAP_MM) // (block_h + DED_GAP_MM)))
    blocks = len(turn_parts) * len(opponent_parts)
    on_page = min(blocks, per_page)
    room = usable_h - on_page * (DED_HEAD_MM + DED_GAP_MM)
    row = min(DED_MAX_ROW_MM, max(DED_ROW_MM, math.floor(room / (on_page * (tallest + 1)) * 10)
                                  / 10))
    return DeductionLayout(tuple(turn_parts), tuple(opponent_parts), sub, row, per_page,
                           math.ceil(blocks / per_page))


# --- secret register (host) ----------------------------------------------------------------------


def register_rows_per_page(p: Paper) -> int:
    return int((p.body_height_mm - REG_TOP_MM - REG_HEAD_MM - FIT_SLACK_MM) // REG_ROW_MM)


def register_row_mm(p: Paper, rows: int) -> float:
    """7.5 mm rows, taller (up to 14 mm) when few players leave room for handwriting."""
    room = p.body_height_mm - REG_TOP_MM - REG_HEAD_MM - FIT_SLACK_MM
    return min(REG_MAX_ROW_MM, max(REG_ROW_MM, math.floor(room / max(1, rows) * 10) / 10))


# --- the reference example, computed -------------------------------------------------------------


def _join(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _span(targets: Sequence[str], lo: int, hi: int) -> str:
    verb = "is" if len(targets) == 1 else "are"
    span = f"{lo}" if lo == hi else f"from {lo} to {hi}"
    return f"{_join(targets)} {verb} {span}"


def knowledge(report: rules.TurnReport, players_: Sequence[str], number_range: tuple[int, int]
              ) -> dict[str, dict[str, tuple[int, int]]]:
    """What each guesser can work out from their own rows: target -> (lowest, highest)."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for row in report.rows:
        if not isinstance(row, rules.GuessRow):
            continue
        known = out.setdefault(row.player, {t: number_range for t in players_ if t != row.player})
        for target, cell in zip(players_, row.cells, strict=True):
            if target == row.player or cell == rules.NO_INFO:
                continue
            lo, hi = known[target]
            if cell == rules.HIGHER:
                lo = max(lo, row.number + 1)
            elif cell == rules.LOWER:
                hi = min(hi, row.number - 1)
            else:
                lo = hi = row.number
            known[target] = (lo, hi)
    return out


def example() -> dict[str, object]:
    """The reference turn, replayed by the rules module, with the readings it allows."""
    log = rules.GameLog(players=EXAMPLE_PLAYERS, range=rules.default_range(6),
                        secrets=EXAMPLE_SECRETS, turns=(EXAMPLE_TURN,))
    result = rules.play(log)
    report = result.turns[0]
    rows = []
    for row in report.rows:
        if isinstance(row, rules.GuessRow):
            rows.append({"list": False, "player": row.player, "index": row.index,
                         "number": row.number, "cells": list(row.cells)})
        else:
            rows.append({"list": True, "player": row.player, "correct": row.correct})
    readings = []
    known = knowledge(report, EXAMPLE_PLAYERS, log.range)
    for player, targets in known.items():
        numbers = [r.number for r in report.rows
                   if isinstance(r, rules.GuessRow) and r.player == player]
        groups: dict[tuple[int, int], list[str]] = {}
        for target, span in targets.items():
            groups.setdefault(span, []).append(target)
        parts = [_span(ts, *span) for span, ts in groups.items()]
        hits = report.hits[player]
        readings.append({
            "player": player, "guesses": _join([str(n) for n in numbers]), "parts": parts,
            "hits": hits, "next": result.next_allowance[player],
        })
    lists = [{"player": r.player, "correct": r.correct, "wrong": len(EXAMPLE_PLAYERS) - 1
              - r.correct} for r in report.rows if isinstance(r, rules.ListRow)]
    # For the GM: each guess row explained against the secrets, column by column.
    explained = []
    found: dict[str, set[str]] = {p: set() for p in EXAMPLE_PLAYERS}
    for row in report.rows:
        if not isinstance(row, rules.GuessRow):
            continue
        groups: dict[str, list[str]] = {}
        for target, cell in zip(EXAMPLE_PLAYERS, row.cells, strict=True):
            if target == row.player:
                key = "X own"
            elif cell == rules.NO_INFO:
                key = "X found"
            else:
                key = cell
            groups.setdefault(key, []).append(f"{target} {EXAMPLE_SECRETS[target]}")
        found[row.player] |= {t for t, c in zip(EXAMPLE_PLAYERS, row.cells, strict=True)
                              if c == rules.HIT}
        explained.append({"player": row.player, "index": row.index, "number": row.number,
                          "groups": [(key, _join(items)) for key, items in groups.items()]})
    orders = []
    for player in EXAMPLE_PLAYERS:
        order = EXAMPLE_TURN.get(player)
        if isinstance(order, rules.Guesses):
            orders.append(f"{player} guessed {_join([str(n) for n in order.numbers])}")
        elif isinstance(order, rules.GuessList):
            entries = ", ".join(f"{t} {n}" for t, n in order.entries.items())
            orders.append(f"{player} handed in a list ({entries})")
    idle = [p for p in EXAMPLE_PLAYERS if p not in EXAMPLE_TURN]
    return {"players": list(EXAMPLE_PLAYERS), "secrets": EXAMPLE_SECRETS, "rows": rows,
            "orders": "; ".join(orders), "idle": _join(idle),
            "range": log.range, "readings": readings, "lists": lists, "explained": explained,
            "winners": list(result.winners)}


def tie_examples() -> list[dict[str, object]]:
    """Two short computed end-of-game turns showing the tie rules (four players, 1 to 30)."""
    secrets = {"A": 1, "B": 2, "C": 3, "D": 4}
    first = {"A": rules.Guesses((2, 3)), "B": rules.Guesses((1, 3))}
    cases = [
        ("A finds D with guess 2, B finds D with guess 1",
         {"A": rules.Guesses((10, 4)), "B": rules.Guesses((4,))}),
        ("A finds D with guess 1, C submits a correct list",
         {"A": rules.Guesses((4,)), "C": rules.GuessList({"A": 1, "B": 2, "D": 4})}),
        ("A and B both find D with guess 2",
         {"A": rules.Guesses((10, 4)), "B": rules.Guesses((11, 4))}),
    ]
    out = []
    for text, second in cases:
        log = rules.GameLog(players=("A", "B", "C", "D"), range=(1, 30), secrets=secrets,
                            turns=(first, second))
        result = rules.play(log)
        out.append({"text": text, "winners": _join(list(result.winners)),
                    "reason": result.reason, "turn": result.winning_turn})
    return out


# --- the plan ------------------------------------------------------------------------------------


def plan(config: KitConfig) -> KitPlan:
    sheet = paper(config.paper)
    people = players(config)
    common = {"range": config.range, "range_text": config.range_text,
              "players": config.players, "custom_range": config.custom_range,
              "turns": config.turns, "lo": config.range[0], "hi": config.range[1],
              "default_range_text": "{} to {}".format(*rules.default_range(config.players))}
    ex = example()

    # Player kit
    player_pages = [
        Page("whats_my_number/rules.html", "Rules", {
            **common, "credit": rules.CREDIT, "min_players": rules.MIN_PLAYERS,
            "max_players": MAX_PLAYERS, "base": rules.BASE_GUESSES,
        }),
        Page("whats_my_number/report_legend.html", "Reading the turn report", {
            **common, "example": ex,
        }),
    ]
    slips = slip_layout(sheet)
    slip_pages = chunks(people, slips.per_page)
    for i, chunk in enumerate(slip_pages, start=1):
        player_pages.append(Page("whats_my_number/slips.html",
                                 f"Secret-number slips {i} of {len(slip_pages)}",
                                 {**common, "slips": chunk, "grid": slips}))
    forms = form_layout(sheet, config.players - 1)
    all_forms = [{"player": person, "turn": turn,
                  "opponents": [o["letter"] for o in people if o is not person]}
                 for person in people for turn in range(1, config.turns + 1)]
    form_pages = chunks(all_forms, forms.per_page)
    for i, chunk in enumerate(form_pages, start=1):
        player_pages.append(Page("whats_my_number/forms.html",
                                 f"Order forms {i} of {len(form_pages)}",
                                 {**common, "forms": chunk, "grid": forms,
                                  "bonus_boxes": FORM_BONUS_BOXES, "turn_mm": FORM_TURN_MM}))
    ded = deduction_layout(sheet, config.players, config.turns, config.range)
    for person in people:
        opponents = [o for o in people if o is not person]
        blocks = []
        for (t0, t1), (o0, o1) in ded.blocks:
            blocks.append({"turns": list(range(t0, t1)), "first": t0 == 1,
                           "opponents": opponents[o0:o1]})
        pages = chunks(blocks, ded.blocks_per_page)
        for i, chunk in enumerate(pages, start=1):
            more = f" {i} of {len(pages)}" if len(pages) > 1 else ""
            player_pages.append(Page("whats_my_number/deduction.html",
                                     f"Deduction sheet {person['letter']}{more}",
                                     {**common, "person": person, "blocks": chunk,
                                      "sub_mm": ded.sub_width_mm, "row_mm": ded.row_mm}))

    # Host answers
    layout = grid_layout(sheet, config.players)
    register_pages = [people[a:b] for a, b in _split(
        len(people), math.ceil(len(people) / register_rows_per_page(sheet)))]
    grid_count = layout.sheets_per_turn * config.turns
    host_pages = [Page("whats_my_number/gm_card.html", "Game master card", {
        **common, "layout": layout,
        "bonus_rows": BONUS_ROWS, "grid_count": grid_count,
        "paper_label": sheet.label, "player_pages": [p.label for p in player_pages],
        "credit": rules.CREDIT,
    }, audience="host"), Page("whats_my_number/gm_example.html", "Worked examples", {
        **common, "example": ex, "ties": tie_examples(),
    }, audience="host")]
    for i, chunk in enumerate(register_pages, start=1):
        more = f" {i} of {len(register_pages)}" if len(register_pages) > 1 else ""
        host_pages.append(Page("whats_my_number/register.html", f"Secret register{more}", {
            **common, "people": chunk,
            "row_mm": register_row_mm(sheet, max(len(c) for c in register_pages)),
        }, audience="host"))
    kinds = [str(i) for i in range(1, rules.BASE_GUESSES + 1)]
    kinds += [f"+{n}" for n in range(1, layout.rows_per_player - rules.BASE_GUESSES)]
    grid_common = {**common, "layout": layout, "kinds": kinds,
                   "label_mm": (GRID_PLAYER_MM, GRID_KIND_MM, GRID_GUESS_MM)}
    for turn in range(1, config.turns + 1):
        for s in grid_sheets(layout, people, turn):
            part = f" · sheet {s['sheet']} of {s['sheets']}" if s["sheets"] > 1 else ""
            host_pages.append(Page("whats_my_number/grid.html", f"Turn {turn} report{part}",
                                   {**grid_common, "s": s}, audience="host",
                                   landscape=layout.landscape))
    for s in grid_sheets(layout, people, None):
        part = f" · sheet {s['sheet']} of {s['sheets']}" if s["sheets"] > 1 else ""
        host_pages.append(Page("whats_my_number/grid.html", f"Spare bonus rows{part}",
                               {**grid_common, "s": s}, audience="host",
                               landscape=layout.landscape))

    return kit_plan(config, rules.TITLE, banner(config), player_pages, host_pages,
                    styles=("whats_my_number/style.css",))


SPEC = _Spec(
    name=rules.NAME,
    title=rules.TITLE,
    min_players=rules.MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=DEFAULT_PLAYERS,
    default_range=rules.default_range,
    plan=plan,
    check_config=check_config,
)
