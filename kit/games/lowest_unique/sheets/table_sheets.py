"""Lowest Unique Number form pages as layout models: slips, the round tally, the score sheet.

Every function returns the items of one page body, placed in the page's body frame (mm);
the layout maths (slip sizes, row heights, column widths) is in small pure functions tested
on numbers alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ....i18n import Words
from ....layout import slip
from ....layout.blocks import heading, note, para, title
from ....layout.fit import fit_in
from ....layout.model import Item, box, hline, text, text_width
from ....layout.slip import SlipGrid
from ....layout.table import Cell, cut_grid, ruled_table
from ....paper import Frame
from ..rules import RoundResult

SLIP_COLUMNS = 2
SLIP_ROWS = 4
SLIP_MIN_MM = (80.0, 55.0)
NAME_PT = (14.0, 9.0)  # a printed name shrinks from 14 pt down to 9 pt before it is cut


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
               range_text: str, rounds: int, words: Words) -> list[Item]:
    _ = words.gettext
    b = slip.bands(left, top, width, height)
    x = left + slip.PAD_MM
    inner = width - 2 * slip.PAD_MM
    items: list[Item] = []
    name_top = top + 2.0
    if s.name:
        items += fit_in(s.name, x, name_top, inner, 7.0, NAME_PT[0], NAME_PT[1], "bold",
                        max_lines=1)
    else:
        label = _("Name or symbol:")
        items += text(x, name_top + 5.2, label, 12, "bold")
        start = x + text_width(label + " ", 12, "bold")
        items.append(hline(start, left + width - slip.PAD_MM, name_top + 5.6, 0.3))
    base = name_top + 12.5
    if s.round is not None:
        items += text(x, base, _("Round %(round)s of %(rounds)s", round=s.round,
                                 rounds=rounds), 11)
    else:
        blank = _("Replay of round") if s.name else _("Round")
        items += text(x, base, blank, 11)
        start = x + text_width(blank + " ", 11)
        items.append(hline(start, start + 14, base + 0.5, 0.3))
    items += slip.instructions(
        b, _("One whole number from %(range)s. Fold the bottom strip up along the dashed "
             "line, so your number is inside and your name outside. You may pass until the "
             "host says “locked”.", range=range_text))
    items += slip.fold(b, _("fold the strip up · number inside"))
    flap = b.flap
    label = _("My number (%(range)s)", range=range_text)
    items += text(x, flap.y + 4.2, label, 8.5)
    box_h = min(13.0, flap.h - 7.5)
    items.append(box(x, flap.y + 5.6, 24.0, box_h, 0.5))
    tick = 3.4
    passing = _("I pass")
    pass_x = left + width - slip.PAD_MM - text_width(passing, 9) - tick - 1.5
    pass_base = flap.y + 5.6 + box_h
    items.append(box(pass_x, pass_base - tick + 0.2, tick, tick, 0.3))
    items += text(pass_x + tick + 1.5, pass_base, passing, 9)
    return items


@lru_cache(maxsize=256)
def slips_page(body: Frame, grid: SlipGrid, slips: tuple[Slip, ...], range_text: str,
               rounds: int, words: Words) -> tuple[Item, ...]:
    """A page of slips (cached: the tables of a party print the same blank slips)."""

    def draw(i: int, left: float, top: float) -> list[Item]:
        return slip_items(slips[i], left, top, grid.width_mm, grid.height_mm, range_text,
                          rounds, words)

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
               rounds: int, cooperative: bool, words: Words) -> tuple[Item, ...]:
    _ = words.gettext
    x, y, w = body.x, body.y, body.w
    items, used = title(x, y, _("Round tally"))
    y += used
    lead = (_("Write every round here as it is revealed: all choices in order, then the "
              "numbers left after cancelling, then who (if anyone) left the only single. A "
              "replayed round goes on a “Replay” line.") if cooperative else
            _("Write every round here as it is revealed: all choices in order, then the "
              "numbers left after cancelling, then who scores. A replayed round goes on a "
              "“Replay” line."))
    more, used = para(x, y, w, lead)
    items += more
    y += used + 1.0
    row_mm = tally_row_mm(body, len(rows))
    widths = [w * 0.15, w * 0.38, w * 0.24, w * 0.23]
    last = _("Exactly one single?") if cooperative else _("Winner")
    head = [Cell(_("Round"), "bold", size=9.5),
            Cell(_("All choices (sorted)"), "bold", size=9.5),
            Cell(_("Surviving singles"), "bold", size=9.5), Cell(last, "bold", size=9.5)]
    table = [head] + [[Cell(label, align="center")] for label in rows]
    items += ruled_table(x, y, widths, [8.0] + [row_mm] * len(rows), table)
    y += 8.0 + row_mm * len(rows) + 3.0
    more, used = para(x, y, w, [(_("One point to the lowest single. No single, no point."),
                                 "bold"), (" ", "regular"),
                                (_("After %(rounds)s valid rounds, compare totals.",
                                   rounds=rounds), "regular")])
    items += more
    y += used
    more, used = heading(x, y, _("Check examples"))
    items += more
    y += used
    widths = [w * 0.30, w * 0.22, w * 0.22, w * 0.26]
    head = [Cell(_("All choices"), "bold", size=9.5), Cell(_("Cancelled"), "bold", size=9.5),
            Cell(_("Surviving singles"), "bold", size=9.5), Cell(_("Result"), "bold", size=9.5)]
    table = [head]
    none = _("none")
    for ex in examples:
        choices = words.numbers(ex.choices)  # "1, 1" reads as 1.1 where "," is the decimal mark
        short = words.numbers(ex.choices, compact=True)
        result = (_("%(number)s wins", number=ex.winner) if ex.winner is not None
                  else _("no winner"))
        table.append([Cell(choices), Cell(words.numbers(ex.cancelled) or none),
                      Cell(words.numbers(ex.singles) or none),
                      Cell(f"{short} → {result}")])
    items += ruled_table(x, y, widths, [8.0] * len(table), table)
    return tuple(items)


# --- the score sheet --------------------------------------------------------------------------

SCORE_ROW_MM = 10.0
SCORE_HEAD_PT = 9.5


def score_widths(width: float, rounds: int, words: Words) -> list[float]:
    """Player, one column per round, total and place; the name column takes what is left."""
    _ = words.gettext
    fixed = text_width(_("Total"), SCORE_HEAD_PT, "bold") + 6.0
    place = text_width(_("Place"), SCORE_HEAD_PT, "bold") + 6.0
    per_round = max(10.0, text_width(_("R%(round)s", round=rounds), SCORE_HEAD_PT, "bold")
                    + 4.0)
    name = width - fixed - place - rounds * per_round
    return [name] + [per_round] * rounds + [fixed, place]


@lru_cache(maxsize=256)
def scores_page(body: Frame, names: tuple[str, ...], rounds: int, sudden_death: bool,
                words: Words) -> tuple[Item, ...]:
    _ = words.gettext
    x, y, w = body.x, body.y, body.w
    items, used = title(x, y, _("Score sheet"))
    y += used
    more, used = para(x, y, w, _("One point for the lowest single of each round; nothing when "
                                 "every number cancels. A replayed round counts once, in its "
                                 "own column."))
    items += more
    y += used + 1.0
    widths = score_widths(w, rounds, words)
    head = [Cell(_("Player"), "bold", size=SCORE_HEAD_PT)]
    head += [Cell(_("R%(round)s", round=r), "bold", "center", SCORE_HEAD_PT)
             for r in range(1, rounds + 1)]
    head += [Cell(_("Total"), "bold", "center", SCORE_HEAD_PT),
             Cell(_("Place"), "bold", "center", SCORE_HEAD_PT)]
    table = [head] + [[Cell(name, size=10.5)] for name in names]
    items += ruled_table(x, y, widths, [8.0] + [SCORE_ROW_MM] * len(names), table)
    y += 8.0 + SCORE_ROW_MM * len(names) + 4.0
    end = [[(_("End of the game:"), "bold"), (" ", "regular"),
            (_("after %(rounds)s valid rounds the highest total wins. Equal totals share the "
               "result (two players level on top both win).", rounds=rounds), "regular")]]
    if sudden_death:
        end.append([(_("Sudden death was announced:"), "bold"), (" ", "regular"),
                    (_("tied leaders play one more round among themselves, repeated until one "
                       "scores."), "regular")])
    else:
        end.append([(_("There is no sudden-death round, because none was announced before "
                       "round one."), "regular")])
    more, _ = note(x, y, w, end)
    return tuple(items + more)
