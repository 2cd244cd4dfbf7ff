"""A What's My Number? log checked turn by turn: ``parse_game_log``'s check, resumed from an
earlier check of the same game, so a log one turn longer (or whose last turn changed) costs
that turn, not the game.

The check keeps the log's turn tables as given and the replay's running state before and
after its last turn (``engine.Progress``). A newer log whose header is the same and whose
turns before the last kept one are the same tables (the console's states share every turn an
entry did not touch) resumes from there; any other log is checked whole. The result, and every
problem raised, is what ``parse_game_log`` gives for that log
(``tests/console/test_console_kept.py`` compares them over random games).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from ....errors import KitError
from .engine import Progress, play_on
from .logfile import _raise, _turn_of, read_header, read_turns
from .model import MAX_LOG_TURNS, GameLog, TurnReport


@dataclass(frozen=True)
class Checked:
    """A log that passed the check: the log, its header and turn tables as given, and the
    replay's running state before its last turn and after it."""

    log: GameLog
    header: tuple[object, object, object]  # players, range and secrets as given
    raw: tuple[object, ...]
    before_last: Progress | None
    after: Progress

    @property
    def last_report(self) -> TurnReport | None:
        """The report of the log's last turn (None: no turn, or one after the win)."""
        last = self.after.last
        return last if last is not None and last.number == len(self.log.turns) else None


def _header(data: Mapping) -> tuple[object, object, object]:
    return data.get("players"), data.get("range"), data.get("secrets", {})


def check_game_log(data: object, kept: object = None,
                   reports: list[TurnReport | None] | None = None) -> Checked:
    """``data`` checked as ``parse_game_log`` checks it, resumed from ``kept`` (an earlier
    ``Checked``) where the two logs share their first turns; raises the same problems.
    ``reports``: the reports of the turns this check played (the last ones of the log; None
    for a turn after the win), appended to it; the turns before them are ``kept``'s."""
    start = _resumable(data, kept)
    if start is None:
        return _whole(data, reports)
    progress, before, kept, data = start
    raw: list = data["turn"]
    problems: list[KitError] = []
    head = read_header(data, problems)  # no problem: the same header passed before
    played = progress.turns
    turns = kept.log.turns[:played] + read_turns(raw[played:], head.names, problems,
                                                 first=played + 1)
    log = GameLog(players=head.names.players, range=head.range, secrets=head.secrets,
                  turns=turns, title=head.title)
    progress = progress.copy()
    found: list = []
    before = play_on(log, progress, False, found, reports) or before
    _raise(sorted([*problems, *found], key=_turn_of))
    return Checked(log, _header(data), tuple(raw), before, progress)


def _resumable(data: object, kept: object
               ) -> tuple[Progress, Progress | None, Checked, Mapping] | None:
    """Where checking ``data`` can resume from ``kept``: the running state and the one
    before its last turn (with ``kept`` and ``data``, as the types they were found to be);
    None when it must be checked whole."""
    if not isinstance(kept, Checked) or not isinstance(data, Mapping):
        return None
    raw = data.get("turn", [])
    if not isinstance(raw, list) or not 2 <= len(raw) <= MAX_LOG_TURNS:
        return None
    if _header(data) != kept.header or not read_header(data, []).ok:
        return None
    have = kept.raw
    same = 0
    for new, old in zip(raw, have, strict=False):
        if new is not old and new != old:
            break
        same += 1
    if same >= len(have) and len(raw) > len(have):
        return kept.after, None, kept, data
    if same == len(have) == len(raw):
        return kept.after, kept.before_last, kept, data
    if same >= len(have) - 1 and kept.before_last is not None and len(raw) >= len(have):
        return kept.before_last, None, kept, data
    return None


def _whole(data: object, reports: list[TurnReport | None] | None = None) -> Checked:
    """``data`` checked from its first turn (``parse_game_log``'s steps, keeping the running
    state)."""
    problems: list[KitError] = []
    head = read_header(data, problems)  # raises unless data is a Mapping
    raw = cast(Mapping, data).get("turn", [])
    turns = read_turns(raw, head.names, problems)
    if not head.ok:
        _raise(problems)
    log = GameLog(players=head.names.players, range=head.range, secrets=head.secrets,
                  turns=turns, title=head.title)
    progress = Progress(log.players)
    found: list = []
    before = play_on(log, progress, False, found, reports)
    _raise(sorted([*problems, *found], key=_turn_of))
    return Checked(log, _header(cast(Mapping, data)), tuple(raw), before, progress)
