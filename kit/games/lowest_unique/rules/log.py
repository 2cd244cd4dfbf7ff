"""Lowest Unique Number's game log: every table's rounds, checked and scored (pure data).

The log ``kit report`` reads (and the console builds)::

    game = "lowest-unique"
    # range = "1-10"   (optional: the announced range; default the game's rule)
    # rounds = 5       (optional: the rounds the party plays; default the game's rule)
    # title = "Friday party"   (optional: names the report folder)

    [[table]]
    players = ["Ann", "Bob", "Cy", "Dee"]

    [[round]]          (one per valid round, anywhere after the tables, in any order)
    table = 1
    round = 1
    choices = { Ann = 3, Bob = 1, Cy = 1, Dee = "pass" }

The older form, a table's rounds in order as ``[[table.round]]`` blocks of ``Name = choice``
right after its ``[[table]]``, is still read (its rounds are numbered 1, 2, ... in the order
given). Every player of a table appears in each of its rounds with a whole number in the range
or ``"pass"``; a table seats 3 to 12. Tables may be at different rounds: the standings are then
provisional. Every problem is found in one pass and raised together as ``Problems``, each
naming the table and round, and its line when the TOML text is given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeGuard

from ....errors import ConfigError, GameLogError, Msg, Problems, ngettext, shown
from ....i18n import N_
from ....options import NumberRange
from . import (
    DEFAULT_RANGE,
    DEFAULT_ROUNDS,
    NAME,
    RoundResult,
    Tally,
    final_ranking,
    score_round,
)
from .checks import (
    Entry,
    Found,
    check_choices,
    check_players,
    misplaced,
    round_field,
    table_field,
)
from .lines import Block, LogLines, locate

KEYS = ("game", "title", "range", "rounds", "table", "round")
ROUND_KEYS = ("table", "round", "choices")
MAX_TABLES = 100
MAX_ROUNDS = 12


@dataclass(frozen=True)
class Round:
    """One valid round of a table: each player's choice (None for a pass) and its result."""

    number: int
    choices: tuple[tuple[str, int | None], ...]  # in the table's player order
    result: RoundResult
    winner: str | None  # the player who wrote the lowest single

    @property
    def tally(self) -> Tally:
        """The round as the console shows it (``rules.tally`` of its choices)."""
        r = self.result
        return Tally(r.choices, r.passes, r.cancelled, r.singles, r.winner, self.winner)


@dataclass(frozen=True)
class Table:
    number: int
    players: tuple[str, ...]
    rounds: tuple[Round, ...]  # rounds 1..played, in order

    @property
    def played(self) -> int:
        """How many rounds the table has played so far."""
        return len(self.rounds)

    def points(self, player: str) -> list[int]:
        """1 or 0 per round played."""
        return [1 if r.winner == player else 0 for r in self.rounds]

    @property
    def totals(self) -> dict[str, int]:
        return {p: sum(self.points(p)) for p in self.players}

    @property
    def places(self) -> dict[str, int]:
        """Each player's place at the table; equal totals share a place (1, 1, 3, ...)."""
        return {name: place for place, names in final_ranking(self.totals) for name in names}


@dataclass(frozen=True)
class PartyLog:
    """A checked log: the range and planned rounds, and every table with its scored rounds."""

    range: tuple[int, int]
    rounds: int  # the rounds the party plays
    tables: tuple[Table, ...]

    @property
    def finished(self) -> bool:
        """True once every table has played every planned round: the standings are final."""
        return all(t.played == self.rounds for t in self.tables)

    def progress(self) -> list[tuple[int, list[int]]]:
        """(rounds played, the tables that far), furthest first."""
        by_played: dict[int, list[int]] = {}
        for t in self.tables:
            by_played.setdefault(t.played, []).append(t.number)
        return sorted(by_played.items(), reverse=True)

    def standings(self) -> list[tuple[int, str, int, int]]:
        """(place, player, table, points) over the whole party, most points first; equal
        points share a place (1, 1, 3, ...)."""
        rows = sorted(((points, t.number, p) for t in self.tables
                       for p, points in t.totals.items()), key=lambda r: (-r[0], r[1]))
        out: list[tuple[int, str, int, int]] = []
        for i, (points, table, player) in enumerate(rows):
            place = out[-1][0] if out and out[-1][3] == points else i + 1
            out.append((place, player, table, points))
        return out

    def leaders(self) -> tuple[list[str], int]:
        """Everyone sharing first place, and their points."""
        standings = self.standings()
        top = standings[0][3] if standings else 0
        return [player for place, player, _, _ in standings if place == 1], top


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _header(data: Mapping[str, object], found: Found) -> tuple[tuple[int, int] | None, int]:
    """The range (None when it is broken) and the planned rounds."""
    for key in data:
        if key not in KEYS:
            found.add(ConfigError, str(key), None,
                      Msg(N_("unknown key; allowed keys are %(keys)s"), keys=", ".join(KEYS)))
    if not isinstance(data.get("title", ""), str):
        found.add(ConfigError, "title", None, Msg(N_('must be text, like title = "Friday '
                                                     'party"')))
    number_range: tuple[int, int] | None = DEFAULT_RANGE
    if data.get("range") is not None:
        try:
            number_range = NumberRange().convert("range", data["range"])
        except ConfigError as exc:
            found.found.append((0, len(found.found), exc))
            number_range = None
    if number_range and number_range[1] - number_range[0] + 1 < 4:
        found.add(ConfigError, "range", None, Msg(N_(
            "%(lo)s-%(hi)s holds fewer than 4 numbers; the game needs at least 4, e.g. 1-10"),
            lo=number_range[0], hi=number_range[1]))
        number_range = None
    rounds = data.get("rounds", DEFAULT_ROUNDS)
    if not (_whole(rounds) and 1 <= rounds <= MAX_ROUNDS):
        found.add(ConfigError, "rounds", None, Msg(N_(
            "must be a whole number from 1 to %(max)s; got %(got)s"), max=MAX_ROUNDS,
            got=shown(str(rounds))))
        rounds = MAX_ROUNDS
    return number_range, rounds


def _tables(data: Mapping[str, object], lines: LogLines | None, found: Found, seen: dict[str, int]
            ) -> tuple[list[tuple[str, ...] | None], list[Entry]]:
    """Each table's players (None when its list is broken) and its [[table.round]] entries;
    ``seen`` gets every player's table, by case-folded name."""
    raw_tables = data.get("table")
    if not isinstance(raw_tables, list) or not raw_tables:
        found.add(ConfigError, "table", None, Msg(N_("give one or more [[table]] entries, each "
                                                     "with its players")))
        return [], []
    if len(raw_tables) > MAX_TABLES:
        found.add(ConfigError, "table", None, Msg(N_(
            "%(count)s tables logged; a log takes at most %(max)s"), count=len(raw_tables),
            max=MAX_TABLES))
        return [], []
    players: list[tuple[str, ...] | None] = []
    entries: list[Entry] = []
    for index, raw in enumerate(raw_tables):
        number, where = index + 1, table_field(index + 1)
        block = lines.table(index, len(raw_tables)) if lines else None
        if not isinstance(raw, Mapping):
            found.add(GameLogError, where, block.line if block else None, Msg(N_(
                "must be a [[table]] with players")))
            players.append(None)
            continue
        for key in raw:
            if key not in ("players", "round"):
                found.add(GameLogError, where, block.key_line(str(key)) if block else None,
                          Msg(N_("unknown key %(key)s; a table has players (and, in the older "
                                 "form, [[table.round]] entries)"), key=shown(str(key))))
        line = block.key_line("players") if block else None
        players.append(check_players(where, line, raw.get("players"), seen, number, found))
        raw_rounds = raw.get("round", [])
        if not isinstance(raw_rounds, list):
            found.add(GameLogError, where, block.key_line("round") if block else None, Msg(N_(
                "rounds must be [[table.round]] tables, one per round")))
            continue
        for n, choices in enumerate(raw_rounds, start=1):
            at = lines.table_round(index, n - 1, len(raw_rounds)) if lines else None
            entries.append(Entry(number, n, choices, at, None,
                                 f"[[table.round]] {n} of table {number}"))
    return players, entries


def _round_entry(index: int, raw: object, block: Block | None, tables: int, rounds: int,
                 found: Found) -> Entry | None:
    """A top-level [[round]] entry, or None when its table or round cannot be told."""
    where, line = Msg(N_("[[round]] #%(index)s"), index=index + 1), block.line if block else None
    if not isinstance(raw, Mapping):
        found.add(GameLogError, where, line, Msg(N_("must be a [[round]] table with table, round "
                                                    "and choices")))
        return None
    for key in raw:
        if key not in ROUND_KEYS:
            found.add(GameLogError, where, block.key_line(str(key)) if block else None,
                      Msg(N_("unknown key %(key)s; a [[round]] has table, round and choices"),
                          key=shown(str(key))))
    table, number = raw.get("table"), raw.get("round")
    if not (_whole(table) and 1 <= table <= tables):
        found.add(GameLogError, where, block.key_line("table") if block else None, Msg(N_(
            "table must be the number of a [[table]] above, 1 to %(max)s; got %(got)s"),
            max=tables, got=shown(str(table))))
        table = None
    if not (_whole(number) and 1 <= number <= rounds):
        found.add(GameLogError, where, block.key_line("round") if block else None, Msg(N_(
            "round must be a whole number from 1 to %(max)s (the game's rounds); got %(got)s"),
            max=rounds, got=shown(str(number))))
        number = None
    if table is None or number is None:
        return None
    return Entry(table, number, raw.get("choices"), block, "choices", f"[[round]] #{index + 1}")


def _top_rounds(data: Mapping[str, object], lines: LogLines | None, tables: int, rounds: int,
                found: Found) -> list[Entry]:
    raw = data.get("round")
    if raw is None:
        return []
    if not isinstance(raw, list):
        found.add(ConfigError, "round", None, Msg(N_(
            "rounds are [[round]] tables (double brackets), one per round, each with table, "
            "round and choices")))
        return []
    entries = []
    for i, item in enumerate(raw):
        block = lines.round(i, len(raw)) if lines else None
        entry = _round_entry(i, item, block, tables, rounds, found)
        if entry is not None:
            entries.append(entry)
    return entries


def _order(entries: list[Entry], rounds: int, found: Found) -> dict[int, list[Entry]]:
    """Each table's entries by round number; a round logged twice, a round past the game's
    rounds or a round missing before a logged one is a problem."""
    by_table: dict[int, dict[int, Entry]] = {}
    for entry in entries:
        where = round_field(entry.table, entry.number)
        if entry.number > rounds:
            found.add(GameLogError, where, entry.line, ngettext(
                "the game has %(num)s round (set rounds = %(round)s if the party plays that many)",
                "the game has %(num)s rounds (set rounds = %(round)s if the party plays that "
                "many)", rounds, round=entry.number))
            continue
        first = by_table.setdefault(entry.table, {}).setdefault(entry.number, entry)
        if first is not entry:
            both = (Msg(N_("lines %(first)s and %(second)s"), first=str(first.line),
                        second=str(entry.line)) if first.line and entry.line
                    else Msg(N_("%(first)s and %(second)s"), first=first.place,
                             second=entry.place))
            found.add(GameLogError, where, entry.line, Msg(N_("logged twice, at %(both)s; keep "
                                                              "one"), both=both))
    ordered: dict[int, list[Entry]] = {}
    for table, by_number in by_table.items():
        ordered[table] = [by_number[n] for n in sorted(by_number)]
        gap = next((n for n in range(1, max(by_number) + 1) if n not in by_number), None)
        if gap is not None:
            later = next(e for e in ordered[table] if e.number > gap)
            found.add(GameLogError, round_field(table, later.number), later.line, Msg(N_(
                "round %(gap)s is not logged; log every round of a table, 1, 2, 3, ..."),
                gap=gap))
    return ordered


def parse_party_log(data: Mapping[str, object], *, source: str | None = None,
                    strict: bool = False) -> PartyLog:
    """Check a log loaded from TOML and score every round; every problem is raised at once as
    ``Problems``. ``source``, the TOML text, lets each problem name its line. ``strict`` is
    accepted for the common report interface; this game has no house rulings to refuse."""
    del strict
    found = Found()
    if data.get("game") != NAME:
        found.add(ConfigError, "game", None, Msg(N_('this kind of game log needs game = '
                                                    '"%(name)s"'), name=NAME))
        found.raise_any()
    lines = locate(source) if source is not None else None
    number_range, rounds = _header(data, found)
    seats: dict[str, int] = {}
    players, entries = _tables(data, lines, found, seats)
    entries += _top_rounds(data, lines, len(players), rounds, found)
    entries = [e for e in entries if not misplaced(e, seats, found)]
    ordered = _order(entries, rounds, found)
    scored: dict[tuple[int, int], Round] = {}
    for entry in (e for table in ordered.values() for e in table):
        names = players[entry.table - 1]
        if names is None:  # its player list is already a problem
            continue
        choices = check_choices(entry, names, number_range, found, seats)
        if choices is not None:
            result = score_round(c for _, c in choices)
            winner = next((p for p, c in choices if c is not None and c == result.winner), None)
            scored[entry.table, entry.number] = Round(entry.number, choices, result, winner)
    found.raise_any()
    tables = tuple(Table(n, names or (), tuple(scored[n, e.number]
                                                for e in ordered.get(n, [])))
                   for n, names in enumerate(players, start=1))
    return PartyLog(number_range or DEFAULT_RANGE, rounds, tables)


def read_party_log(source: str) -> PartyLog:
    """Parse a log's TOML text (a syntax error is a ``Problems`` of one ``ConfigError``)."""
    import tomllib

    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        raise Problems([ConfigError("log", Msg(N_("not valid TOML: %(error)s"),
                                               error=str(exc)))]) from None
    return parse_party_log(data, source=source)


_SAFE = re.compile(r"[|\\]")


def cell(text: str) -> str:
    """Text for a Markdown table cell: pipes and backslashes escaped."""
    return _SAFE.sub(lambda m: "\\" + m[0], text)
