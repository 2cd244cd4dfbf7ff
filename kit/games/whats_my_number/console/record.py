"""The published turns of a What's My Number? game night, played once and kept: each turn's
report from the rules engine, the engine's running check after them, and each turn's report as
the public sees it (made when first asked for).

A published turn never changes unless an amendment touches it, so a view of a newer version
costs its new turns, not the game: ``published`` resumes the engine's check
(``checking.check_game_log``) from the record kept for the same game, which replays only the
turns after the ones both logs share (an amended turn and those after it; the whole log when
the two share too little). A replayed turn whose report comes out the same keeps the kept
report, and with it its public form. Everything kept is checked against the log asked about
(the engine compares every turn table, the same object or an equal one), so a record is never
trusted for a log it was not made from; the records are bounded by their reports' cells.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import rules
from ..rules.checking import Checked, check_game_log

CELLS_KEPT = 16_000_000  # report cells (a guess row's answers) kept, in all games' records


@dataclass(frozen=True)
class Record:
    """A log's turns played: each turn's report (None for a turn after the win), the engine's
    check of the log, and the public form of a report once made (by turn index)."""

    checked: Checked
    reports: tuple[rules.TurnReport | None, ...]
    cells: int
    shown: dict[int, Any] = field(default_factory=dict, compare=False)

    @property
    def played(self) -> tuple[rules.TurnReport, ...]:
        """The reports of the turns played (none after the win), as ``GameResult.turns``."""
        return tuple(r for r in self.reports if r is not None)

    def result(self) -> rules.GameResult:
        """The game the log plays, as ``rules.play`` gives it."""
        log = self.checked.log
        return self.checked.after.result(log.players, self.played)

    def public(self, index: int, make: Callable[[rules.TurnReport], Any]) -> Any:
        """The public form (``make`` of it) of turn ``index + 1``'s report, made once."""
        found = self.shown.get(index)
        if found is None:
            report = self.reports[index]
            if report is None:
                raise ValueError("no report after the winning turn")
            found = self.shown.setdefault(index, make(report))
        return found


_records: OrderedDict[str, Record] = OrderedDict()
_cells = 0
_lock = threading.Lock()


def _cells_of(report: rules.TurnReport | None) -> int:
    return 0 if report is None else 1 + sum(len(getattr(row, "cells", ())) for row in
                                            report.rows)


def header_key(data: Mapping[str, Any]) -> str:
    """The game a log is of, as far as its reports go: its header (never its turns)."""
    return json.dumps({k: v for k, v in data.items() if k not in ("turn", "published")},
                      sort_keys=True, default=str)


def _resumed(kept: Record | None, checked: Checked, played: list[rules.TurnReport | None]
             ) -> Record:
    """The record of ``checked``: ``kept``'s reports of the turns not played again, then the
    ones played (a report equal to the kept one of its turn stays the kept one)."""
    turns = len(checked.raw)
    first = turns - len(played)
    old = kept.reports if kept is not None else ()
    reports = list(old[:first])
    for index, report in enumerate(played, start=first):
        was = old[index] if index < len(old) else None
        reports.append(was if was is not None and was == report else report)
    shown = {} if kept is None else {i: v for i, v in kept.shown.items()
                                     if i < turns and reports[i] is old[i]}
    return Record(checked, tuple(reports), sum(_cells_of(r) for r in reports), shown)


def record(data: Mapping[str, Any]) -> Record:
    """The turns of log ``data`` (``kit report``'s TOML data; ``published`` ignored) played:
    resumed from the record kept for the same game; raises the log's problems as
    ``rules.parse_game_log`` and ``rules.play`` do."""
    global _cells
    body = {k: v for k, v in data.items() if k != "published"}
    key = header_key(body)
    with _lock:
        kept = _records.get(key)
    raw = body.get("turn", [])
    if kept is not None and isinstance(raw, list) and len(raw) == len(kept.checked.raw) \
            and all(new is old for new, old in zip(raw, kept.checked.raw, strict=True)):
        return kept  # the same header (its key) and the very same tables: the same turns
    played: list[rules.TurnReport | None] = []
    checked = check_game_log(body, kept.checked if kept is not None else None, played)
    made = _resumed(kept, checked, played)
    with _lock:
        old = _records.pop(key, None)
        _cells -= old.cells if old is not None else 0
        if made.cells <= CELLS_KEPT:
            _records[key] = made
            _cells += made.cells
        while _cells > CELLS_KEPT:
            _, dropped = _records.popitem(last=False)
            _cells -= dropped.cells
    return made


def with_turn(kept: Record, data: Mapping[str, Any]) -> Record:
    """``data``'s turns played, resumed from ``kept`` (a record of its turns but the last):
    the open turn played on the published ones, costing that turn; not kept."""
    body = {k: v for k, v in data.items() if k != "published"}
    played: list[rules.TurnReport | None] = []
    checked = check_game_log(body, kept.checked, played)
    return _resumed(kept, checked, played)


def resume(data: Mapping[str, Any], kept: object = None,
           reports: list[rules.TurnReport | None] | None = None) -> Checked:
    """``check_game_log`` of ``data``, resumed from ``kept``, else from the record kept for the
    same game (the published turns a page played): the first entry after a server start, or
    after the game's kept state was dropped, costs its turn, not the game. The engine checks
    that the turns it resumes from are the log's own."""
    if kept is None:
        body = {k: v for k, v in data.items() if k != "published"}
        with _lock:
            found = _records.get(header_key(body))
        kept = found.checked if found is not None else None
    return check_game_log(data, kept, reports)
