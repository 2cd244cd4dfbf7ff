"""What a What's My Number? game shows the GM: the open turn's allowances, entries and rulings,
and each published turn's report rows, all from the rules engine replaying the game's log.
Nothing here decides a rule.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from ....errors import KitError
from ....game import to_json
from ....i18n import Words
from .. import rules
from ..report import turn_notes as notes
from ..report.reports import row_label, win_text
from ..sheets.people import answer
from .record import record, with_turn


@dataclass
class TurnView:
    """The open turn as the GM sees it."""

    number: int
    players: tuple[str, ...]
    allowance: dict[str, int]
    entries: dict[str, Any]
    rulings: list[str] = field(default_factory=list)
    # the guesses a ruling set aside, by player and position: "void" or "ignored"
    marks: dict[str, dict[int, str]] = field(default_factory=dict)
    winners: tuple[str, ...] = ()
    over: bool = False  # the game was won in a published turn


MARKS = {"out-of-range": "void", "extra-guesses": "ignored"}  # ruling -> its boxes' mark


RECENT_TURNS = 10  # published turns laid out on the GM page; older ones are in the files
# answers laid out on the GM page, all those turns together (the latest turn always): ten turns
# of a 36-player night, one of a 100-player game, whose turn alone is 20,000 answers
RECENT_CELLS = 30_000
_PLAYED_KEPT = 8  # replays kept: a page and its forms read one log a few times
_played_kept: OrderedDict[tuple[int, int], tuple[Mapping[str, Any], Any]] = OrderedDict()
_played_lock = threading.Lock()


def _played(log: Mapping[str, Any], turns: int) -> Any:
    """The game ``log`` plays over its first ``turns`` turns, replayed once per log: a GM
    view's log is one object per version, so the page and its forms share the replay."""
    key = (id(log), turns)
    with _played_lock:
        kept = _played_kept.get(key)
        if kept is not None and kept[0] is log:  # the log itself is kept: its id is not reused
            _played_kept.move_to_end(key)
            return kept[1]
    result = _replay(log, turns)
    with _played_lock:
        _played_kept[key] = (log, result)
        while len(_played_kept) > _PLAYED_KEPT:
            _played_kept.popitem(last=False)
    return result


def _replay(log: Mapping[str, Any], turns: int) -> Any:
    """The first ``turns`` turns played: the published ones from their kept record (each
    played once), a turn after them (the open one) played on it."""
    head = {k: v for k, v in log.items() if k not in ("published", "turn")}
    kept = list(log.get("turn", []))[:turns]
    base = min(turns, int(log.get("published", turns)))
    played = record({**head, **({"turn": kept[:base]} if kept[:base] else {})})
    if len(kept) > base:
        played = with_turn(played, {**head, "turn": kept})
    return played.result()


def ruling_text(ruling: Any, w: Words) -> str:
    """One house ruling in the page's words."""
    numbers = w.join([str(n) for n in getattr(ruling, "numbers", ())])
    name = ruling.player
    if ruling.kind == "extra-guesses":
        return w.gettext("%(name)s wrote more guesses than the %(allowed)s allowed: %(numbers)s "
                         "ignored.", name=name, allowed=ruling.allowed, numbers=numbers)
    if ruling.kind == "out-of-range":
        return w.gettext("%(name)s: %(numbers)s outside the range, so void (the other guesses "
                         "keep their places).", name=name, numbers=numbers)
    if ruling.kind == "partial-list":
        return w.gettext("%(name)s’s list leaves out %(missing)s: its right numbers are counted, "
                         "but it cannot win.", name=name, missing=w.join(list(ruling.missing)))
    if ruling.kind == "no-orders":
        return w.gettext("%(name)s: no orders.", name=name)
    return f"{name}: {ruling.kind}"


def open_turn(log: Mapping[str, Any], published: int, w: Words) -> TurnView:
    """The open turn: allowances from the published turns, entries so far, their rulings."""
    players = tuple(log.get("players", ()))
    turns = list(log.get("turn", []))
    number = published + 1
    entries = dict(turns[published]) if len(turns) > published else {}
    result = played(log, published)
    if len(result.turns) >= number:  # the open turn played too: its report has its allowance
        report = result.turns[number - 1]
        won = next((tuple(t.winners) for t in result.turns[:published] if t.winners), ())
        view = TurnView(number, players, dict(report.allowance), entries, winners=won,
                        over=bool(won))
        view.rulings = [ruling_text(r, w) for r in report.rulings if r.kind != "no-orders"]
        for r in report.rulings:
            mark = MARKS.get(r.kind, "")
            for position in getattr(r, "positions", ()) if mark else ():
                view.marks.setdefault(r.player, {})[int(position)] = mark
        return view
    return TurnView(number, players, dict(result.next_allowance), entries,
                    winners=tuple(result.winners), over=bool(result.winners))


def why_won(report: Any, w: Words) -> str:
    """Why a winning turn's winners won: the printed report's lines ("Fay wins in turn 4, by a
    fully correct list. Finished this turn: ..."); "" for a turn nobody won. ``report``: the
    engine's turn report, or its JSON (the public view's)."""
    if not (report.get("winners") if isinstance(report, Mapping) else report.winners):
        return ""  # (a turn's JSON is large: made only for a winning turn)
    data = to_json(report) if not isinstance(report, Mapping) else report
    winners = list(data.get("winners", ()))
    finishers = [SimpleNamespace(**f) for f in data.get("finishers", ())]
    shaped = SimpleNamespace(winners=winners, reason=data.get("reason"), finishers=finishers)
    return " ".join(filter(None, (win_text(winners, shaped.reason, int(data["number"]), w),
                                  notes.finish_explanation(shaped, w))))  # type: ignore[arg-type]


def report_rows(report: Any, players: Sequence[str], w: Words, letters: Words | None = None
                ) -> list[dict[str, object]]:
    """A published turn's report as table rows: guesses with answers, lists with counts, in
    the printed report's words ("Anne 3 (ignored)", "Chloé List (partial)": one wording per
    fact). ``letters``: the game's language, whose answer letters the players' labels avoid
    and the printed reports use (the page's language may have others: a label "H" beside
    H/N)."""
    rows: list[dict[str, object]] = []
    for row in report.rows:
        if isinstance(row, rules.GuessRow):
            rows.append({"label": row_label(row, w), "number": row.number,
                         "cells": [answer(c, letters or w) for c in row.cells]})
        else:
            rows.append({"label": row_label(row, w), "number": "", "cells": [],
                         "list": notes.list_text(row, w)})
    return rows


def played(log: Mapping[str, Any], published: int) -> Any:
    """The game played over the published turns and, when its entries play, the open one:
    one replay per log for the whole page (read ``turns[:published]`` for the published)."""
    turns = list(log.get("turn", []))
    if len(turns) > published and turns[published]:
        try:
            return _played(log, published + 1)
        except KitError:
            pass  # entries the rules refuse yet: the published turns alone
    return _played(log, published)


def latest_count(sizes: Sequence[int], recent: int = RECENT_TURNS,
                 cells: int | None = None) -> int:
    """How many of the latest reports to lay out, given each report's answers (``sizes``,
    oldest first): ``recent`` at most, fewer when their answers pass ``cells`` (by default
    ``RECENT_CELLS``); the latest one always."""
    budget = RECENT_CELLS if cells is None else cells
    count, total = 0, 0
    for size in reversed(sizes[-recent:]):
        total += size
        if count and total > budget:
            break
        count += 1
    return count


def _latest(reports: Sequence[Any], recent: int, cells: int | None) -> Sequence[Any]:
    """The ``recent`` latest ``reports``, fewer when their answers pass ``cells``."""
    sizes = [sum(len(getattr(row, "cells", ())) or 1 for row in report.rows)
             for report in reports[-recent:]]
    return reports[len(reports) - latest_count(sizes, recent, cells):]


def published_reports(log: Mapping[str, Any], published: int, w: Words,
                      letters: Words | None = None, recent: int | None = None,
                      cells: int | None = None) -> tuple[list[dict[str, object]], Any]:
    """The published turns' report rows (newest first; with ``recent``, the latest ones only,
    no more than that many nor, past the latest, more answers than ``cells``, by default
    ``RECENT_CELLS``) and the game result so far; the answers in the letters of ``letters``
    (the game's language)."""
    result = _played(log, published)
    players = tuple(log.get("players", ()))
    # the header alone gives the range: parsing the turns again would cost a replay's share
    number_range = rules.parse_game_log({k: v for k, v in log.items()
                                         if k not in ("published", "turn")}).range
    shown = result.turns[:published]
    turns = []
    for report in _latest(shown, recent, cells) if recent else shown:
        turns.append({"number": report.number, "rows": report_rows(report, players, w, letters),
                      "no_orders": list(getattr(report, "no_orders", ())),
                      # as the printed report says them (which guess, never its number)
                      "rulings": notes.ruling_notes(report, number_range, w),
                      "winners": list(report.winners), "why": why_won(report, w)})
    return list(reversed(turns)), result
