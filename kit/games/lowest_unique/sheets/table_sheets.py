"""Lowest Unique Number form pages as layout models: slips, the round tally, the score sheet.

Every function returns the items of one page body, placed in the page's body frame (mm);
the layout maths (slip sizes, row heights, column widths) is in small pure functions tested
on numbers alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ....i18n import Words
from ....layout import slip
from ....layout.blocks import BODY_PT, HEADING_PT, TITLE_PT, heading, note, para, title
from ....layout.fit import fit_in
from ....layout.model import Item, box, hline, text, text_width
from ....layout.slip import SlipGrid
from ....layout.table import Cell, cut_grid, ruled_table
from ....paper import Frame
from ..rules import RoundResult

SLIP_COLUMNS = 2
SLIP_ROWS = 4
LARGE_SLIP_ROWS = 3  # large print: six slips a page, their instructions at 12 pt
SLIP_MIN_MM = (80.0, 55.0)
NAME_PT = (14.0, 9.0)  # a printed name shrinks from 14 pt down to 9 pt before it is cut
LARGE_PT = 12.0  # the least size of any text of a large-print form


def slip_grid(body: Frame, columns: int = SLIP_COLUMNS, rows: int = SLIP_ROWS) -> SlipGrid:
    """The body cut into equal slips, eight a page (six in large print)."""
    width = round(body.w / columns, 2)
    height = round(body.h / rows, 2)
    return SlipGrid(columns, rows, width, height)


@dataclass(frozen=True)
class Slip:
    name: str | None  # printed on the slip, or None for a blank name line
    round: int | None  # the round it is for, or None for a spare (replays)


def slip_items(s: Slip, left: float, top: float, width: float, height: float,
               range_text: str, rounds: int, words: Words, large: bool = False) -> list[Item]:
    """One slip; in ``large`` print every word at 12 pt or more and a bigger number box."""
    _ = words.gettext
    small = LARGE_PT if large else 8.5  # the instructions and the box's label
    label_pt = LARGE_PT if large else 11.0
    b = slip.bands(left, top, width, height)
    x = left + slip.PAD_MM
    inner = width - 2 * slip.PAD_MM
    items: list[Item] = []
    name_top = top + 2.0
    if s.name:
        most, least = (16.0, LARGE_PT) if large else NAME_PT
        items += fit_in(s.name, x, name_top, inner, 7.0, most, least, "bold", max_lines=1)
    else:
        label = _("Name or symbol:")
        items += text(x, name_top + 5.2, label, 12, "bold")
        start = x + text_width(label + " ", 12, "bold")
        items.append(hline(start, left + width - slip.PAD_MM, name_top + 5.6, 0.3))
    base = name_top + 12.5
    if s.round is not None:
        items += text(x, base, _("Round %(round)s of %(rounds)s", round=s.round,
                                 rounds=rounds), label_pt)
    else:
        blank = _("Replay of round") if s.name else _("Round")
        items += text(x, base, blank, label_pt)
        start = x + text_width(blank + " ", label_pt)
        items.append(hline(start, start + 14, base + 0.5, 0.3))
    items += slip.instructions(
        b, _("One whole number from %(range)s. Fold the bottom strip up along the dashed "
             "line, so your number is inside and your name outside. You may pass until the "
             "host says “locked”.", range=range_text), small)
    items += slip.fold(b, _("fold the strip up · number inside"), LARGE_PT if large else None)
    flap = b.flap
    label = _("My number (%(range)s)", range=range_text)
    label_y = flap.y + (7.0 if large else 4.2)
    items += text(x, label_y, label, small)
    box_top = label_y + 1.4
    box_h = min(18.0 if large else 13.0, flap.y + flap.h - 2.0 - box_top)
    items.append(box(x, box_top, 32.0 if large else 24.0, box_h, 0.5))
    tick = 4.5 if large else 3.4
    pass_pt = LARGE_PT if large else 9.0
    passing = _("I pass")
    pass_x = left + width - slip.PAD_MM - text_width(passing, pass_pt) - tick - 1.5
    pass_base = box_top + box_h
    items.append(box(pass_x, pass_base - tick + 0.2, tick, tick, 0.3))
    items += text(pass_x + tick + 1.5, pass_base, passing, pass_pt)
    return items


@lru_cache(maxsize=256)
def slips_page(body: Frame, grid: SlipGrid, slips: tuple[Slip, ...], range_text: str,
               rounds: int, words: Words, large: bool = False) -> tuple[Item, ...]:
    """A page of slips (cached: the tables of a party print the same blank slips)."""

    def draw(i: int, left: float, top: float) -> list[Item]:
        return slip_items(slips[i], left, top, grid.width_mm, grid.height_mm, range_text,
                          rounds, words, large)

    return tuple(cut_grid(body.x, body.y, grid.columns, grid.rows, grid.width_mm,
                          grid.height_mm, len(slips), draw))


# --- the round tally --------------------------------------------------------------------------

TALLY_FIXED_MM = 96.0  # title, notes and the check examples
LARGE_TALLY_FIXED_MM = 128.0  # the same in large print


def tally_row_mm(body: Frame, rows: int, large: bool = False) -> float:
    """Tall rows for handwriting, shrunk (never below 8 mm) so every row fits one page; in
    large print up to 16 mm."""
    room = body.h - (LARGE_TALLY_FIXED_MM if large else TALLY_FIXED_MM)
    return round(max(8.0, min(16.0 if large else 13.0, room / (rows + 1))), 1)


def _cell(words: str, large: bool, style: str = "regular", align: str = "left",
          size: float = 10.0) -> Cell:
    """A table cell, at 12 pt at least in large print."""
    if large:
        return Cell(words, style, align, max(size, LARGE_PT), LARGE_PT)
    return Cell(words, style, align, size)


HAND_MM = 2.6  # a handwritten digit or separator (2.5 to 3 mm, as hosts write)
LEAST_SIDE_MM = 28.0  # the surviving singles, and the winner's name


def tally_widths(w: float, rows: tuple[str, ...], players: int, number_range: tuple[int, int],
                 words: Words, large: bool = False) -> list[float]:
    """Round, all choices, surviving singles, winner: the round column as wide as its labels,
    the choices column as wide as a whole round of choices needs in handwriting on one line
    ("12, 305, 999, ..."), never less than two fifths of the page; the rest shared."""
    size = LARGE_PT if large else 10.0
    labels = (*rows, words.gettext("Round"))
    round_mm = max(12.0, max(text_width(label, size, "bold") for label in labels) + 4.0)
    digits = len(str(number_range[1]))
    need = (players * digits + (players - 1) * 2) * HAND_MM + 4.0
    choices = min(max(need, 0.38 * w), w - round_mm - 2 * LEAST_SIDE_MM)
    side = (w - round_mm - choices) / 2
    return [round(round_mm, 2), round(choices, 2), round(side, 2), round(side, 2)]


@dataclass(frozen=True)
class Tally:
    """What a round tally shows: its row labels, the check examples and the game it is for."""

    rows: tuple[str, ...]
    examples: tuple[RoundResult, ...]
    rounds: int
    cooperative: bool
    players: int
    number_range: tuple[int, int]


def tally_block(x: float, y: float, w: float, tally: Tally, row_mm: float, words: Words,
                large: bool = False, scoring: bool = True) -> tuple[list[Item], float]:
    """The round tally from ``y`` down, its rows ``row_mm`` high: a row per round, replay and
    tie-break, the scoring rule (unless ``scoring`` is off: a score sheet below says it),
    then two checked examples; returns the items and the height they take."""
    _ = words.gettext
    body_pt = LARGE_PT if large else BODY_PT
    head_mm = 11.0 if large else 8.0
    top = y
    items, used = title(x, y, _("Round tally"))
    y += used
    lead = (_("Write every round here as it is revealed: all choices in order, then the "
              "numbers left after cancelling, then who (if anyone) left the only single. A "
              "replayed round goes on a “Replay” line.") if tally.cooperative else
            _("Write every round here as it is revealed: all choices in order, then the "
              "numbers left after cancelling, then who scores. A replayed round goes on a "
              "“Replay” line."))
    more, used = para(x, y, w, lead, body_pt)
    items += more
    y += used + 1.0
    rows = tally.rows
    widths = tally_widths(w, rows, tally.players, tally.number_range, words, large)
    last = _("Exactly one single?") if tally.cooperative else _("Winner")
    head = [_cell(label, large, "bold", size=9.5) for label in (
        _("Round"), _("All choices (sorted)"), _("Surviving singles"), last)]
    table = [head] + [[_cell(label, large, align="center")] for label in rows]
    items += ruled_table(x, y, widths, [head_mm] + [row_mm] * len(rows), table)
    y += head_mm + row_mm * len(rows) + (3.0 if scoring else 0.0)
    if scoring:
        more, used = para(x, y, w, [(_("One point to the lowest single. No single, no point."),
                                     "bold"), (" ", "regular"),
                                    (_("After %(rounds)s valid rounds, compare totals.",
                                       rounds=tally.rounds), "regular")], body_pt)
        items += more
        y += used
    more, used = heading(x, y, _("Check examples"))
    items += more
    y += used
    more, used = _examples(x, y, w, tally.examples, words, large)
    return items + more, y + used - top


def _examples(x: float, y: float, w: float, examples: tuple[RoundResult, ...], words: Words,
              large: bool) -> tuple[list[Item], float]:
    """The checked examples' table and its height."""
    _ = words.gettext
    head_mm = 11.0 if large else 8.0
    widths = [w * 0.30, w * 0.22, w * 0.22, w * 0.26]
    head = [_cell(label, large, "bold", size=9.5) for label in (
        _("All choices"), _("Cancelled"), _("Surviving singles"), _("Result"))]
    table = [head]
    none = _("none")
    for ex in examples:
        choices = words.numbers(ex.choices)  # "1, 1" reads as 1.1 where "," is the decimal mark
        short = words.numbers(ex.choices, compact=True)
        result = (_("%(number)s wins", number=ex.winner) if ex.winner is not None
                  else _("no winner"))
        table.append([_cell(choices, large), _cell(words.numbers(ex.cancelled) or none, large),
                      _cell(words.numbers(ex.singles) or none, large),
                      _cell(f"{short} → {result}", large)])
    # two lines of 12 pt in a cell need 13 mm
    heights = [head_mm] + [13.0 if large else 8.0] * (len(table) - 1)
    return ruled_table(x, y, widths, heights, table), sum(heights)


@lru_cache(maxsize=64)
def tally_page(body: Frame, tally: Tally, words: Words, large: bool = False
               ) -> tuple[Item, ...]:
    """The round tally alone on a page, its rows as tall as the page allows."""
    items, _ = tally_block(body.x, body.y, body.w, tally,
                           tally_row_mm(body, len(tally.rows), large), words, large)
    return tuple(items)


# --- the score sheet --------------------------------------------------------------------------

SCORE_ROW_MM = 10.0
LARGE_SCORE_ROW_MM = 12.0
SCORE_HEAD_PT = 9.5


def score_widths(width: float, rounds: int, words: Words, head_pt: float = SCORE_HEAD_PT
                 ) -> list[float]:
    """Player, one column per round, total and place; the name column takes what is left."""
    _ = words.gettext
    fixed = text_width(_("Total"), head_pt, "bold") + 6.0
    place = text_width(_("Place"), head_pt, "bold") + 6.0
    per_round = max(10.0, text_width(_("R%(round)s", round=rounds), head_pt, "bold") + 4.0)
    name = width - fixed - place - rounds * per_round
    return [name] + [per_round] * rounds + [fixed, place]


def scores_block(x: float, y: float, w: float, names: tuple[str, ...], rounds: int,
                 sudden_death: bool, words: Words, large: bool = False, *,
                 row_mm: float | None = None, title_pt: float = TITLE_PT
                 ) -> tuple[list[Item], float]:
    """The score sheet from ``y`` down: a row per player (``row_mm`` high, else the sheet's
    own), a column per round, total and place, then how the game ends; returns the items
    and the height they take."""
    _ = words.gettext
    head_pt = LARGE_PT if large else SCORE_HEAD_PT
    body_pt = LARGE_PT if large else BODY_PT
    head_mm, own_row = (11.0, LARGE_SCORE_ROW_MM) if large else (8.0, SCORE_ROW_MM)
    row_mm = own_row if row_mm is None else row_mm
    top = y
    items, used = title(x, y, _("Score sheet"), title_pt)
    y += used
    more, used = para(x, y, w, _("One point for the lowest single of each round; nothing when "
                                 "every number cancels. A replayed round takes the place of "
                                 "the one discarded: its point goes in that round’s column."),
                      body_pt)
    items += more
    y += used + 1.0
    widths = score_widths(w, rounds, words, head_pt)
    head = [_cell(_("Player"), large, "bold", size=head_pt)]
    head += [_cell(_("R%(round)s", round=r), large, "bold", "center", head_pt)
             for r in range(1, rounds + 1)]
    head += [_cell(_("Total"), large, "bold", "center", head_pt),
             _cell(_("Place"), large, "bold", "center", head_pt)]
    table = [head] + [[_cell(name, large, size=10.5)] for name in names]
    items += ruled_table(x, y, widths, [head_mm] + [row_mm] * len(names), table)
    y += head_mm + row_mm * len(names) + 4.0
    more, used = note(x, y, w, _game_end(rounds, sudden_death, words), body_pt)
    return items + more, y + used - top


def _game_end(rounds: int, sudden_death: bool, words: Words) -> list[list[tuple[str, str]]]:
    """The score sheet's closing note: how the game ends, and its sudden death if any."""
    _ = words.gettext
    end = [[(_("End of the game:"), "bold"), (" ", "regular"),
            (_("after %(rounds)s valid rounds the highest total wins. Equal totals share the "
               "result (two players level on top both win).", rounds=rounds), "regular")]]
    if sudden_death:
        end.append([(_("Sudden death was announced:"), "bold"), (" ", "regular"),
                    (_("tied leaders play one more round among themselves, repeated until one "
                       "scores."), "regular")])
        # the tie-break's choices go on the tally's "Tie-break" line; its winner here (a
        # column would leave a twelve-round sheet in large print no room for the names)
        end.append([(_("Tie-break won by:"), "bold"), (" " + "_" * 30, "regular")])
    else:
        end.append([(_("There is no sudden-death round, because none was announced before "
                       "round one."), "regular")])
    return end


@lru_cache(maxsize=256)
def scores_page(body: Frame, names: tuple[str, ...], rounds: int, sudden_death: bool,
                words: Words, large: bool = False) -> tuple[Item, ...]:
    """The score sheet alone on a page."""
    items, _ = scores_block(body.x, body.y, body.w, names, rounds, sudden_death, words, large)
    return tuple(items)


# --- the tally and the score sheet on one page ------------------------------------------------

SHARED_GAP_MM = 4.0  # between the tally's examples and the score sheet's heading
# the least row heights that keep both tables as easy to write in: a round's choices need a
# taller row than a player's point
SHARED_LEAST_MM = {False: (9.0, 8.0), True: (11.0, 11.0)}  # (tally, scores), by large print
SHARED_MOST_MM = {False: (13.0, SCORE_ROW_MM), True: (16.0, LARGE_SCORE_ROW_MM)}


def shared_rows(room: float, tally_rows: int, players: int, large: bool = False
                ) -> tuple[float, float] | None:
    """Row heights (tally, scores) for both tables in ``room`` mm, or None when they do not
    fit: the score rows keep their own height while the tally's rows can give way to their
    least, then the score rows give way too."""
    least_tally, least_scores = SHARED_LEAST_MM[large]
    most_tally, most_scores = SHARED_MOST_MM[large]
    tally_mm = _tenths((room - most_scores * players) / tally_rows)
    if tally_mm >= least_tally:
        return min(most_tally, tally_mm), most_scores
    scores_mm = _tenths((room - least_tally * tally_rows) / players)
    if scores_mm >= least_scores:
        return least_tally, scores_mm
    return None


def _tenths(mm: float) -> float:
    """``mm`` rounded down to a tenth (a hair's tolerance for the float's last digit), so
    rows never run past their room."""
    return math.floor(mm * 10 + 1e-9) / 10


@lru_cache(maxsize=64)
def tally_and_scores_page(body: Frame, tally: Tally, names: tuple[str, ...],
                          sudden_death: bool, words: Words, large: bool = False
                          ) -> tuple[Item, ...] | None:
    """The round tally with the score sheet under it on one page, or None when they do not
    fit (many rounds, many players, large print): the two are then printed a page each."""
    x, y, w = body.x, body.y, body.w
    _, tally_fixed = tally_block(x, y, w, tally, 0.0, words, large, scoring=False)
    _, scores_fixed = scores_block(x, y, w, names, tally.rounds, sudden_death, words, large,
                                   row_mm=0.0, title_pt=HEADING_PT)
    room = body.h - tally_fixed - scores_fixed - SHARED_GAP_MM
    rows = shared_rows(room, len(tally.rows), len(names), large)
    if rows is None:
        return None
    items, used = tally_block(x, y, w, tally, rows[0], words, large, scoring=False)
    more, _ = scores_block(x, y + used + SHARED_GAP_MM, w, names, tally.rounds, sudden_death,
                           words, large, row_mm=rows[1], title_pt=HEADING_PT)
    return tuple(items + more)
