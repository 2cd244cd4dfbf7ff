"""Lowest Unique Number form pages as layout models: slips, the round tally, the score sheet.

Every function returns the items of one page body, placed in the page's body frame (mm);
the layout maths (slip sizes, row heights, column widths) is in small pure functions tested
on numbers alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...layout import slip
from ...layout.blocks import heading, note, para, title
from ...layout.fit import fit_in
from ...layout.model import Item, box, hline, text, text_width
from ...layout.table import Cell, cut_grid, ruled_table
from ...paper import Frame
from .rules import RoundResult

SLIP_COLUMNS = 2
SLIP_ROWS = 4
SLIP_MIN_MM = (80.0, 55.0)
NAME_PT = (14.0, 9.0)  # a printed name shrinks from 14 pt down to 9 pt before it is cut
FOLD_LABEL = "fold the strip up · number inside"


@dataclass(frozen=True)
class SlipGrid:
    columns: int
    rows: int
    width_mm: float
    height_mm: float

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


def slip_grid(body: Frame, columns: int = SLIP_COLUMNS, rows: int = SLIP_ROWS) -> SlipGrid:
    """The body cut into equal slips, eight a page."""
    width = round(body.w / columns, 2)
    height = round(body.h / rows, 2)
    return SlipGrid(columns, rows, width, height)


@dataclass(frozen=True)
class Slip:
    name: str | None  # printed on the slip, or None for a blank name line
    round: int | None  # the round it is for, or None for a spare (replays)


def slip_items(s: Slip, left: float, top: float, width: float, height: float,
               range_text: str, rounds: int) -> list[Item]:
    b = slip.bands(left, top, width, height)
    x = left + slip.PAD_MM
    inner = width - 2 * slip.PAD_MM
    items: list[Item] = []
    name_top = top + 2.0
    if s.name:
        items += fit_in(s.name, x, name_top, inner, 7.0, NAME_PT[0], NAME_PT[1], "bold",
                        max_lines=1)
    else:
        items += text(x, name_top + 5.2, "Name or symbol:", 12, "bold")
        start = x + text_width("Name or symbol: ", 12, "bold")
        items.append(hline(start, left + width - slip.PAD_MM, name_top + 5.6, 0.3))
    base = name_top + 12.5
    if s.round is not None:
        items += text(x, base, f"Round {s.round} of {rounds}", 11)
    else:
        words = "Replay of round" if s.name else "Round"
        items += text(x, base, words, 11)
        start = x + text_width(words + " ", 11)
        items.append(hline(start, start + 14, base + 0.5, 0.3))
    items += slip.instructions(
        b, f"One whole number from {range_text}. Fold the bottom strip up along the dashed "
        "line, so your number is inside and your name outside. You may pass until the host "
        "says “locked”.")
    items += slip.fold(b, FOLD_LABEL)
    flap = b.flap
    label = f"My number ({range_text})"
    items += text(x, flap.y + 4.2, label, 8.5)
    box_h = min(13.0, flap.h - 7.5)
    items.append(box(x, flap.y + 5.6, 24.0, box_h, 0.5))
    tick = 3.4
    pass_x = left + width - slip.PAD_MM - text_width("I pass", 9) - tick - 1.5
    pass_base = flap.y + 5.6 + box_h
    items.append(box(pass_x, pass_base - tick + 0.2, tick, tick, 0.3))
    items += text(pass_x + tick + 1.5, pass_base, "I pass", 9)
    return items


@lru_cache(maxsize=256)
def slips_page(body: Frame, grid: SlipGrid, slips: tuple[Slip, ...], range_text: str,
               rounds: int) -> tuple[Item, ...]:
    """A page of slips (cached: the tables of a party print the same blank slips)."""

    def draw(i: int, left: float, top: float) -> list[Item]:
        return slip_items(slips[i], left, top, grid.width_mm, grid.height_mm, range_text,
                          rounds)

    return tuple(cut_grid(body.x, body.y, grid.columns, grid.rows, grid.width_mm,
                          grid.height_mm, len(slips), draw))


# --- the round tally --------------------------------------------------------------------------

TALLY_FIXED_MM = 96.0  # title, notes and the check examples


def tally_row_mm(body: Frame, rows: int) -> float:
    """Tall rows for handwriting, shrunk (never below 8 mm) so every row fits one page."""
    room = body.h - TALLY_FIXED_MM
    return round(max(8.0, min(13.0, room / (rows + 1))), 1)


@lru_cache(maxsize=64)
def tally_page(body: Frame, rows: tuple[str, ...], examples: tuple[RoundResult, ...],
               rounds: int, cooperative: bool) -> tuple[Item, ...]:
    x, y, w = body.x, body.y, body.w
    items, used = title(x, y, "Round tally")
    y += used
    who = "(if anyone) left the only single" if cooperative else "scores"
    more, used = para(x, y, w, "Write every round here as it is revealed: all choices in "
                      f"order, then the numbers left after cancelling, then who {who}. A "
                      "replayed round goes on a “Replay” line.")
    items += more
    y += used + 1.0
    row_mm = tally_row_mm(body, len(rows))
    widths = [w * 0.15, w * 0.38, w * 0.24, w * 0.23]
    last = "Exactly one single?" if cooperative else "Winner"
    head = [Cell("Round", "bold", size=9.5), Cell("All choices (sorted)", "bold", size=9.5),
            Cell("Surviving singles", "bold", size=9.5), Cell(last, "bold", size=9.5)]
    table = [head] + [[Cell(label, align="center")] for label in rows]
    items += ruled_table(x, y, widths, [8.0] + [row_mm] * len(rows), table)
    y += 8.0 + row_mm * len(rows) + 3.0
    more, used = para(x, y, w, [("One point to the lowest single. No single, no point.",
                                 "bold"), (f" After {rounds} valid rounds, compare totals.",
                                           "regular")])
    items += more
    y += used
    more, used = heading(x, y, "Check examples")
    items += more
    y += used
    widths = [w * 0.30, w * 0.22, w * 0.22, w * 0.26]
    head = [Cell("All choices", "bold", size=9.5), Cell("Cancelled", "bold", size=9.5),
            Cell("Surviving singles", "bold", size=9.5), Cell("Result", "bold", size=9.5)]
    table = [head]
    for ex in examples:
        choices = ", ".join(map(str, ex.choices))
        short = ",".join(map(str, ex.choices))
        result = f"{ex.winner} wins" if ex.winner is not None else "no winner"
        table.append([Cell(choices), Cell(", ".join(map(str, ex.cancelled)) or "none"),
                      Cell(", ".join(map(str, ex.singles)) or "none"),
                      Cell(f"{short} → {result}")])
    items += ruled_table(x, y, widths, [8.0] * len(table), table)
    return tuple(items)


# --- the score sheet --------------------------------------------------------------------------

SCORE_ROW_MM = 10.0
SCORE_HEAD_PT = 9.5


def score_widths(width: float, rounds: int) -> list[float]:
    """Player, one column per round, total and place; the name column takes what is left."""
    fixed = text_width("Total", SCORE_HEAD_PT, "bold") + 6.0
    place = text_width("Place", SCORE_HEAD_PT, "bold") + 6.0
    per_round = max(10.0, text_width(f"R{rounds}", SCORE_HEAD_PT, "bold") + 4.0)
    name = width - fixed - place - rounds * per_round
    return [name] + [per_round] * rounds + [fixed, place]


@lru_cache(maxsize=256)
def scores_page(body: Frame, names: tuple[str, ...], rounds: int, sudden_death: bool
                ) -> tuple[Item, ...]:
    x, y, w = body.x, body.y, body.w
    items, used = title(x, y, "Score sheet")
    y += used
    more, used = para(x, y, w, "One point for the lowest single of each round; nothing when "
                      "every number cancels. A replayed round counts once, in its own column.")
    items += more
    y += used + 1.0
    widths = score_widths(w, rounds)
    head = [Cell("Player", "bold", size=SCORE_HEAD_PT)]
    head += [Cell(f"R{r}", "bold", "center", SCORE_HEAD_PT) for r in range(1, rounds + 1)]
    head += [Cell("Total", "bold", "center", SCORE_HEAD_PT),
             Cell("Place", "bold", "center", SCORE_HEAD_PT)]
    table = [head] + [[Cell(name, size=10.5)] for name in names]
    items += ruled_table(x, y, widths, [8.0] + [SCORE_ROW_MM] * len(names), table)
    y += 8.0 + SCORE_ROW_MM * len(names) + 4.0
    end = [[("End of the game:", "bold"), (f" after {rounds} valid rounds the highest total "
                                           "wins. Equal totals share the result (two players "
                                           "level on top both win).", "regular")]]
    if sudden_death:
        end.append([("Sudden death was announced:", "bold"), (" tied leaders play one more "
                                                              "round among themselves, "
                                                              "repeated until one scores.",
                                                              "regular")])
    else:
        end.append([("There is no sudden-death round, because none was announced before "
                     "round one.", "regular")])
    more, _ = note(x, y, w, end)
    return tuple(items + more)
