"""Private slips of What's My Number? (``kit report``): one per player and turn, for that player
alone: their orders as the game master received them, the rulings applied to them, the answers
to their guesses (with the numbers they guessed), and how many guesses they may make next turn.

A slip holds nothing another player told the game master: no other player's secret, no other
player's orders. The numbers on it are the player's own, the range, positions and counts.

``slip_lines`` gives a slip's text (plain strings, for the pages here and for text and email
outputs); ``slip_pages`` lays the slips out two across, as many rows as fit, with solid cut
lines between them like the kits' other slips (``kit.layout.table.cut_grid``). Each turn starts
a page, with its own outline entry; a slip too tall for a page goes on over the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ....fonts import isolate
from ....fonts import lines as fonts_lines
from ....i18n import Words
from ....layout.fit import LEADING, Part, break_lines
from ....layout.model import Item, hline, place_runs, pt, vline
from ....layout.table import CUT_LINE_MM
from ....paper import Frame, Paper
from ....plan import Form, Page
from .. import rules
from ..sheets.people import answers, range_words
from . import turn_notes as notes
from .reports import win_text

SLIP_PT = 9.5
HEAD_PT = 11.0
PAD_MM = 3.0  # inside the cut lines
GAP_MM = 1.0  # between a slip's paragraphs
COLUMNS = 2
SEP = " · "


# --- the words of a slip -------------------------------------------------------------------------


def _numbers(values: Sequence[int | str]) -> str:
    # numbers stop at 999 (``rules.MAX_NUMBER``): no language groups their digits; a line
    # left blank is a dash
    return ", ".join("—" if value == rules.BLANK else str(value) for value in values)


def orders_text(order: rules.Orders | None, words: Words) -> str:
    """"Orders received: guesses 63, 36, 10" (as written, ignored ones too), a list, or none."""
    if order is None:
        return words.gettext("Orders received: none.")
    if isinstance(order, rules.Guesses):
        return words.ngettext("Orders received: guess %(numbers)s.",
                              "Orders received: guesses %(numbers)s.", len(order.as_written()),
                              numbers=_numbers(order.as_written()))
    entries = ", ".join(f"{isolate(target)} {value}" for target, value in order.entries.items())
    return words.gettext("Orders received: a list: %(entries)s.", entries=entries)


def private_ruling(ruling: rules.Ruling, number_range: tuple[int, int], words: Words) -> str:
    """A ruling as its player reads it, with their own numbers."""
    guesses = words.join([words.gettext("%(place)s (%(number)s)", place=place, number=number)
                          for place, number in zip(ruling.positions, ruling.numbers,
                                                   strict=False)])
    count = len(ruling.positions)
    if ruling.kind == "extra-guesses":
        return words.ngettext(
            "You were allowed %(allowed)s guesses: guess %(guesses)s is ignored.",
            "You were allowed %(allowed)s guesses: guesses %(guesses)s are ignored.",
            count, allowed=ruling.allowed, guesses=guesses)
    if ruling.kind == "out-of-range":
        return words.ngettext(
            "Guess %(guesses)s is outside the range %(range)s: void, no answers; your later "
            "guesses keep their places.",
            "Guesses %(guesses)s are outside the range %(range)s: void, no answers; your "
            "later guesses keep their places.",
            count, guesses=guesses, range=range_words(number_range, words))
    if ruling.kind == "partial-list":
        return words.gettext("Your list does not name %(missing)s: it gets only its count and "
                             "cannot win.",
                             missing=words.join([isolate(m) for m in ruling.missing]))
    return words.gettext("No orders from you arrived this turn; orders that arrive late count "
                         "for the next turn.")


def answer_text(row: rules.Row, players: Sequence[str], words: Words) -> str:
    """"Guess 2 (36): Ann X · Bob H · Fay ✓", "Guess 1 (63): no answers (void)", "Your list:
    5 correct."; the player's own column is left out (always X)."""
    if isinstance(row, rules.ListRow):
        return words.gettext("Your list: %(answer)s",
                             answer=words.after_colon(notes.list_text(row, words)))
    head = words.gettext("Guess %(place)s (%(number)s):", place=row.index, number=row.number)
    if row.status != "ok":
        return f"{head} {notes.no_answer_text(row, words)} {notes.status_mark(row.status, words)}"
    printed = answers(words)
    cells = SEP.join(f"{isolate(target)}\u00a0{printed[cell]}"
                     for target, cell in zip(players, row.cells, strict=True)
                     if target != row.player)
    return f"{head} {cells}"


def next_text(report: rules.TurnReport, player: str, words: Words) -> list[tuple[str, str]]:
    """The next turn's allowance; on the winning turn, the winner and why (in bold, then the
    explanation when several finished)."""
    if report.winners:
        explained = notes.finish_explanation(report, words)
        won = [(win_text(report.winners, report.reason, report.number, words), "bold")]
        return won + ([(explained, "regular")] if explained else [])
    return [(words.ngettext("Next turn you may make %(num)s guess.",
                            "Next turn you may make %(num)s guesses.",
                            report.next_allowance.get(player, rules.BASE_GUESSES)), "bold")]


def slip_title(player: str, turn: int, words: Words) -> str:
    return words.gettext("%(player)s · turn %(turn)s · private", player=isolate(player),
                         turn=turn)


def slip_lines(log: rules.GameLog, report: rules.TurnReport, player: str, words: Words
               ) -> list[tuple[str, str]]:
    """A slip's paragraphs, (text, style), its title first: orders received, rulings,
    answers, next turn."""
    order = log.turns[report.number - 1].get(player) if report.number <= len(log.turns) \
        else None
    lines = [(slip_title(player, report.number, words), "bold"),
             (orders_text(order, words), "regular")]
    lines += [(private_ruling(r, log.range, words), "regular") for r in report.rulings
              if r.player == player]
    lines += [(answer_text(row, log.players, words), "regular") for row in report.rows
              if row.player == player]
    lines += next_text(report, player, words)
    return lines


# --- laying slips out ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Slip:
    """A slip's paragraphs broken into lines for its width (a long one may be cut in two)."""

    lines: tuple[tuple[tuple[Part, ...], float, bool], ...]  # parts, size, starts a paragraph

    @property
    def height(self) -> float:
        inner = sum(pt(size) * LEADING + (GAP_MM if first else 0.0)
                    for _parts, size, first in self.lines)
        return 2 * PAD_MM + inner - GAP_MM


def laid_out(paragraphs: Sequence[tuple[str, str]], width: float) -> Slip:
    lines = []
    for i, (content, style) in enumerate(paragraphs):
        size = HEAD_PT if i == 0 else SLIP_PT
        for n, line in enumerate(break_lines(((content, style),), round(width, 3), size)):
            lines.append((line, size, n == 0 and i > 0))
    return Slip(tuple(lines))


def cut_slip(slip: Slip, room: float, continued: str) -> tuple[Slip, Slip]:
    """The lines of ``slip`` that fit ``room`` mm, and the rest under a "(continued)" title."""
    take = 1
    while take < len(slip.lines) and Slip(slip.lines[:take + 1]).height <= room:
        take += 1
    title = slip.lines[0]
    rest = ((((continued, "bold"),), title[1], False),) + slip.lines[take:]
    return Slip(slip.lines[:take]), Slip(rest)


def slip_items(slip: Slip, x: float, top: float, width: float) -> list[Item]:
    items: list[Item] = []
    y = top + PAD_MM
    for parts, size, first in slip.lines:
        if first:
            y += GAP_MM
        # already broken to the width: drawn as one line, as ``paragraph`` places its lines
        # (a run a word: the words recur from slip to slip, and their layout is cached)
        items += place_runs(x + PAD_MM, y + pt(size) * 0.95,
                            fonts_lines((tuple(p for p in parts if p[0]),))[0], size)
        y += pt(size) * LEADING
    return items


def cut_lines(x: float, top: float, width: float, heights: Sequence[float],
              counts: Sequence[int]) -> list[Item]:
    """Solid cut lines around rows of slips (row r: ``counts[r]`` slips, ``heights[r]`` mm),
    every line drawn once."""
    items: list[Item] = []
    y = top
    for r, (height, count) in enumerate(zip(heights, counts, strict=True)):
        above = counts[r - 1] if r else 0
        items.append(hline(x, x + max(count, above) * width, y, CUT_LINE_MM))
        items += [vline(x + c * width, y, y + height, CUT_LINE_MM) for c in range(count + 1)]
        y += height
    if counts:
        items.append(hline(x, x + counts[-1] * width, y, CUT_LINE_MM))
    return items


def turn_slip_pages(slips: Sequence[Slip], body: Frame, continued: str
                    ) -> list[list[Item]]:
    """One turn's slips, two across, row by row onto as many pages as they need."""
    width = body.w / COLUMNS
    pending = list(slips)
    pages: list[list[Item]] = []
    while pending:
        y = body.y
        heights: list[float] = []
        counts: list[int] = []
        items: list[Item] = []
        while pending:
            row = pending[:COLUMNS]
            height = max(slip.height for slip in row)
            room = body.bottom - y
            if height > room:
                if heights:
                    break
                # at the top of a page: the first slip alone, cut if taller than the page
                first = pending.pop(0)
                if first.height > room:
                    first, rest = cut_slip(first, room, continued)
                    pending.insert(0, rest)
                row, height = [first], first.height
            else:
                del pending[:len(row)]
            for c, slip in enumerate(row):
                items += slip_items(slip, body.x + c * width, y, width)
            heights.append(height)
            counts.append(len(row))
            y += height
        pages.append(cut_lines(body.x, body.y, width, heights, counts) + items)
    return pages


def slip_pages(log: rules.GameLog, result: rules.GameResult, sheet: Paper, words: Words,
               turns: Sequence[int] | None = None, players: Sequence[str] | None = None
               ) -> list[Page]:
    """The private slips of every turn (or of ``turns``; of every player, or of
    ``players``): a turn starts a page, bookmarked "Turn N slips" (HTML id
    ``slips-turn-N``)."""
    body = sheet.body
    width = body.w / COLUMNS - 2 * PAD_MM
    pages: list[Page] = []
    for report in result.turns:
        if turns is not None and report.number not in turns:
            continue
        slips = [laid_out(slip_lines(log, report, player, words), width)
                 for player in log.players if players is None or player in players]
        continued = words.gettext("(continued)")
        bodies = turn_slip_pages(slips, body, continued)
        for n, items in enumerate(bodies, start=1):
            label = (words.gettext("Private slips, turn %(turn)s (%(page)s of %(pages)s)",
                                   turn=report.number, page=n, pages=len(bodies))
                     if len(bodies) > 1 else
                     words.gettext("Private slips, turn %(turn)s", turn=report.number))
            first = n == 1
            pages.append(Page(label, Form(tuple(items)), audience="host",
                              bookmark=words.gettext("Turn %(turn)s slips", turn=report.number)
                              if first else None,
                              anchor=f"slips-turn-{report.number}" if first else None))
    return pages
