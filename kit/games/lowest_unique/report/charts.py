"""The night in charts: how many chose each number, round by round over every table, and over
the whole party with the numbers that won; each player's points after each round; as layout
model, so the results PDF (``kit report``) and the public page (inline SVG) draw the same
chart from the same rounds.

A chart reads the rules engine's round results (``RoundResult``: the choices, the cancelled
numbers, the winning single), from the log or from the public view, and never scores a round
itself. A range of more than 20 numbers is grouped into at most 20 bins of a round width
(1 to 999: 1-50, 51-100, ...).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ....fonts import isolate
from ....i18n import Words
from ....layout.blocks import heading, para, title
from ....layout.chart import CANCELLED, MARKED, PLAIN, Bar, Series, bar_chart, step_chart
from ....layout.model import Item
from ....paper import Frame
from ..rules.log import PartyLog

MOST_BARS = 20
WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100)


@dataclass(frozen=True)
class Played:
    """One table's round as the engine scored it: the sorted choices, the cancelled numbers
    and the winning single (None when none survived)."""

    round: int
    choices: tuple[int, ...]
    cancelled: tuple[int, ...]
    winner: int | None


@dataclass(frozen=True)
class Row:
    """One bar and its line in the text equivalent: the numbers it counts and its kind."""

    lo: int
    hi: int
    count: int
    kind: str


def from_log(log: PartyLog) -> list[Played]:
    """Every round of every table of a checked log."""
    return [Played(r.number, r.result.choices, r.result.cancelled, r.result.winner)
            for t in log.tables for r in t.rounds]


def from_public(public: Mapping[str, Any]) -> list[Played]:
    """Every round of every table of the public view (the engine's results, as JSON)."""
    return [Played(int(r["number"]), tuple(r["result"]["choices"]),
                   tuple(r["result"]["cancelled"]), r["result"]["winner"])
            for t in public.get("tables", []) for r in t.get("rounds", [])]


def bins(lo: int, hi: int) -> list[tuple[int, int]]:
    """The range cut into bars: one per number up to 20 numbers, else bins of a round width."""
    size = next((w for w in WIDTHS if -(-(hi - lo + 1) // w) <= MOST_BARS), WIDTHS[-1])
    return [(start, min(hi, start + size - 1)) for start in range(lo, hi + 1, size)]


def rows(played: Iterable[Played], number_range: tuple[int, int]) -> list[Row]:
    """The bars of these rounds: how many chose a number in each bin; a bin holding a
    winning single is marked, else one holding a cancelled number is cancelled."""
    played = list(played)
    counts = Counter(n for p in played for n in p.choices)
    won = {p.winner for p in played if p.winner is not None}
    cancelled = {n for p in played for n in p.cancelled}
    out = []
    for lo, hi in bins(*number_range):
        inside = range(lo, hi + 1)
        kind = (MARKED if any(n in won for n in inside)
                else CANCELLED if any(n in cancelled for n in inside) else PLAIN)
        out.append(Row(lo, hi, sum(counts[n] for n in inside), kind))
    return out


def label(row: Row, w: Words) -> str:
    """A bar's numbers: "7", or "51–100" for a bin."""
    if row.lo == row.hi:
        return w.number(row.lo)
    return f"{w.number(row.lo)}\u2013{w.number(row.hi)}"


def bars(chart_rows: Sequence[Row], w: Words) -> list[Bar]:
    return [Bar(label(r, w), r.count, r.kind) for r in chart_rows]


def winning(played: Iterable[Played]) -> list[tuple[int, int]]:
    """The numbers that won, each with how many rounds it won, lowest first."""
    return sorted(Counter(p.winner for p in played if p.winner is not None).items())


def night(played: Sequence[Played], number_range: tuple[int, int]
          ) -> tuple[list[Row], list[tuple[int, list[Row]]]]:
    """The whole party's bars, and each round's (over every table that played it)."""
    numbers = sorted({p.round for p in played})
    return (rows(played, number_range),
            [(n, rows((p for p in played if p.round == n), number_range)) for n in numbers])


def won_line(played: Sequence[Played], w: Words) -> str:
    """"Numbers that won: 2 (3 rounds), 4 (1 round)." or that none has won yet."""
    won = winning(played)
    if not won:
        return w.gettext("No number has won a round yet.")
    each = [w.ngettext("%(number)s (%(num)s round)", "%(number)s (%(num)s rounds)", times,
                       number=w.number(n)) for n, times in won]
    return w.gettext("Numbers that won: %(numbers)s.", numbers=w.join(each))


@dataclass(frozen=True)
class Points:
    """One player's line of the points chart: their points after each round their table
    played, and the rounds they won."""

    player: str
    after: tuple[int, ...]
    won: tuple[int, ...]


def points(tables: Iterable[tuple[Sequence[str], Sequence[str | None]]]) -> list[Points]:
    """Each player's running total from their table's round winners, in table order; a
    line ends with the last round its table played."""
    out = []
    for players, winners in tables:
        for player in players:
            won = tuple(n for n, who in enumerate(winners, 1) if who == player)
            after = tuple(sum(1 for n in won if n <= k) for k in range(1, len(winners) + 1))
            out.append(Points(player, after, won))
    return out


def points_from_log(log: PartyLog) -> list[Points]:
    """The points lines of a checked log."""
    return points((t.players, [r.winner for r in t.rounds]) for t in log.tables)


def points_from_public(public: Mapping[str, Any]) -> list[Points]:
    """The points lines of the public view (its rounds carry the winning player)."""
    return points((t.get("players", []), [r.get("winner") for r in t.get("rounds", [])])
                  for t in public.get("tables", []))


def points_chart(x: float, y: float, w: float, h: float, lines: Sequence[Points],
                 words: Words) -> list[Item]:
    """The points lines as a step chart over the rounds, from 0 up to the most points."""
    played = max((len(p.after) for p in lines), default=0)
    top = max((p.after[-1] for p in lines if p.after), default=0) or 1
    return step_chart(x, y, w, h, [Series(p.player, p.after) for p in lines], top,
                      [words.number(n) for n in range(1, played + 1)])


def points_line(lines: Sequence[Points], w: Words) -> str:
    """The points chart in words: each player with points, how many and the rounds they
    won, then those without a point."""
    scored = sorted((p for p in lines if p.won), key=lambda p: -len(p.won))
    each = [w.ngettext("%(player)s %(num)s (round %(rounds)s)",
                       "%(player)s %(num)s (rounds %(rounds)s)", len(p.won),
                       player=isolate(p.player), rounds=w.join([w.number(n) for n in p.won]))
            for p in scored]
    others = [isolate(p.player) for p in lines if not p.won]
    if not each:
        return w.gettext("No player has a point yet.")
    out = w.gettext("Points: %(players)s.", players=w.join(each))
    if others:
        out += " " + w.gettext("No point: %(players)s.", players=w.join(others))
    return out


def points_part(body: Frame, y: float, lines: Sequence[Points], words: Words
                ) -> tuple[list[Item], float]:
    """The chart page's points chart under its heading, with its text equivalent; the
    height it takes."""
    items, used = heading(body.x, y, words.gettext("Points after each round"))
    items += points_chart(body.x, y + used, body.w, POINTS_MM, lines, words)
    more, said = para(body.x, y + used + POINTS_MM + 1.0, body.w, points_line(lines, words),
                      KEY_PT)
    return items + more, used + POINTS_MM + 1.0 + said + GAP_MM


KEY_PT = 9.0
PARTY_MM = 55.0
POINTS_MM = 45.0
GAP_MM = 4.0


MIN_ROUND_MM = 30.0  # a row of round charts lower than this goes to a page of its own


def chart_pages(body: Frame, log: PartyLog, words: Words) -> list[list[Item]]:
    """The results' chart page: the party's distribution with the numbers that won, each
    player's points after each round, then each round's distribution, two or three a row;
    the rounds on a second page when their rows would be lower than ``MIN_ROUND_MM``."""
    _ = words.gettext
    played = from_log(log)
    party, by_round = night(played, log.range)
    items, used = title(body.x, body.y, _("The night in charts"))
    y = body.y + used
    key = _("How many players chose each number. Dashed bars: a number cancelled (two or "
            "more chose it); ruled bars: a winning single.")
    more, used = para(body.x, y, body.w, key, KEY_PT)
    items += more
    y += used
    more, used = heading(body.x, y, _("The whole party"))
    items += more
    y += used
    more, used = para(body.x, y, body.w, won_line(played, words), KEY_PT)  # wraps when many won
    items += more
    y += used
    items += bar_chart(body.x, y, body.w, PARTY_MM, bars(party, words))
    y += PARTY_MM + GAP_MM
    if not log.cooperative:  # a cooperative party keeps no points
        more, used = points_part(body, y, points_from_log(log), words)
        items += more
        y += used
    columns = 2 if len(by_round) <= 6 else 3
    lines = -(-len(by_round) // columns) or 1
    if (body.bottom - y) / lines >= MIN_ROUND_MM:
        return [items + round_charts(body, y, by_round, columns, words)]
    top, used = title(body.x, body.y, _("The night in charts"))
    return [items, top + round_charts(body, body.y + used, by_round, columns, words)]


def round_charts(body: Frame, y: float, by_round: Sequence[tuple[int, list[Row]]],
                 columns: int, words: Words) -> list[Item]:
    """Each round's bars under its heading, ``columns`` a row, in the page's rest from y."""
    items: list[Item] = []
    lines = -(-len(by_round) // columns) or 1
    cell_w = (body.w - GAP_MM * (columns - 1)) / columns
    cell_h = min(45.0, (body.bottom - y) / lines)
    for i, (number, chart_rows) in enumerate(by_round):
        x = body.x + (i % columns) * (cell_w + GAP_MM)
        top = y + (i // columns) * cell_h
        more, used = heading(x, top - 3.5, words.gettext("Round %(round)s", round=number))
        items += more
        items += bar_chart(x, top - 3.5 + used, cell_w, cell_h - used, bars(chart_rows, words))
    return items


# mm: the charts' boxes, scaled by the page
WEB_W, WEB_PARTY_H, WEB_ROUND_H, WEB_POINTS_H = 170.0, 55.0, 40.0, 70.0


def web_chart(chart_rows: Sequence[Row], height: float, caption: str, w: Words
              ) -> dict[str, Any]:
    """A chart for a web page: its inline SVG, and its text equivalent (one line a bar)."""
    from ....layout.svg import figure

    svg = figure(WEB_W, height, bar_chart(0.0, 0.0, WEB_W, height, bars(chart_rows, w)),
                 caption)
    state = {MARKED: w.gettext("won"), CANCELLED: w.gettext("cancelled"), PLAIN: ""}
    return {"svg": svg, "caption": caption,
            "rows": [{"numbers": label(r, w), "count": w.number(r.count), "state": state[r.kind]}
                     for r in chart_rows]}


def web_points(lines: Sequence[Points], w: Words) -> dict[str, Any]:
    """The points chart for a web page: its inline SVG, and its text equivalent (a row a
    player: their points and the rounds they won)."""
    from ....layout.svg import figure

    caption = w.gettext("Points after each round")
    items = points_chart(0.0, 0.0, WEB_W, WEB_POINTS_H, lines, w)
    return {"svg": figure(WEB_W, WEB_POINTS_H, items, caption), "caption": caption,
            "rows": [{"player": p.player, "points": w.number(p.after[-1] if p.after else 0),
                      "won": w.join([w.number(n) for n in p.won]) if p.won else "—"}
                     for p in lines]}


def web_charts(public: Mapping[str, Any], w: Words) -> dict[str, Any]:
    """The public page's charts of the night, from the public view: each round's, the
    whole party's with the numbers that won, and each player's points."""
    played = from_public(public)
    number_range = tuple(public.get("range") or (1, 10))
    party, by_round = night(played, (int(number_range[0]), int(number_range[1])))
    return {"party": web_chart(party, WEB_PARTY_H, w.gettext("The whole party"), w),
            "won": won_line(played, w),
            # a cooperative party keeps no points
            "points": None if public.get("cooperative") else web_points(
                points_from_public(public), w),
            "rounds": [web_chart(r, WEB_ROUND_H, w.gettext("Round %(round)s", round=n), w)
                       for n, r in by_round]} if played else {}
