"""Lowest Unique Number's game log: every table's rounds, checked and scored (pure data).

The log ``kit report`` reads::

    game = "lowest-unique"
    # range = "1-10"   (optional: the announced range; default the game's rule)
    # rounds = 5       (optional: the rounds played; default the game's rule)

    [[table]]
    players = ["Ann", "Bob", "Cy", "Dee"]

    [[table.round]]    (one per valid round, in order; a replayed round is logged once)
    Ann = 3
    Bob = 1
    Cy = 1
    Dee = "pass"

Every player of a table appears in each of its rounds with a whole number in the range or
``"pass"``; a table seats 3 to 12; every table plays the logged number of rounds. A rule break
is a ``GameLogError`` naming the table and round.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...errors import ConfigError, GameLogError, shown
from ...options import NAME_MAX, NumberRange
from .rules import (
    DEFAULT_RANGE,
    DEFAULT_ROUNDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    RoundResult,
    final_ranking,
    score_round,
)

KEYS = ("game", "range", "rounds", "table")
MAX_TABLES = 100
MAX_ROUNDS = 12
PASS = "pass"


@dataclass(frozen=True)
class Round:
    """One valid round of a table: each player's choice (None for a pass) and its result."""

    number: int
    choices: tuple[tuple[str, int | None], ...]  # in the table's player order
    result: RoundResult
    winner: str | None  # the player who wrote the lowest single


@dataclass(frozen=True)
class Table:
    number: int
    players: tuple[str, ...]
    rounds: tuple[Round, ...]

    def points(self, player: str) -> list[int]:
        """1 or 0 per round."""
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
    """A checked log: the range and rounds, and every table with its scored rounds."""

    range: tuple[int, int]
    rounds: int
    tables: tuple[Table, ...]

    def standings(self) -> list[tuple[int, str, int, int]]:
        """(place, player, table, points) over the whole party, most points first; equal
        points share a place (1, 1, 3, ...)."""
        rows = sorted(((points, t.number, p) for t in self.tables
                       for p, points in t.totals.items()), key=lambda r: (-r[0], r[1]))
        out = []
        for i, (points, table, player) in enumerate(rows):
            place = out[-1][0] if out and out[-1][3] == points else i + 1
            out.append((place, player, table, points))
        return out

    def leaders(self) -> tuple[list[str], int]:
        """Everyone sharing first place, and their points."""
        standings = self.standings()
        top = standings[0][3] if standings else 0
        return [player for place, player, _, _ in standings if place == 1], top


def _count(key: str, value: object, lo: int, hi: int, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi:
        return value
    raise ConfigError(key, f"must be a whole number from {lo} to {hi}; got {shown(str(value))}")


def _players(where: str, raw: object, seen: dict[str, int], number: int) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise GameLogError(where, 'players must be a list of names, like players = ["Ann", '
                           '"Bob", "Cy"]')
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise GameLogError(where, f"{len(raw)} players; a table seats {MIN_PLAYERS} to "
                           f"{MAX_PLAYERS}")
    players = []
    for item in raw:
        name = unicodedata.normalize("NFC", " ".join(item.split()))
        if not 1 <= len(name) <= NAME_MAX:
            raise GameLogError(where, f"the name {shown(item)} needs 1 to {NAME_MAX} "
                               "characters")
        if name.casefold() in seen:
            other = seen[name.casefold()]
            at = "this table" if other == number else f"tables {other} and {number}"
            raise GameLogError(where, f"{shown(name)} is listed twice ({at}); give every "
                               "player a different name")
        seen[name.casefold()] = number
        players.append(name)
    return tuple(players)


def _choice(where: str, player: str, value: object, lo: int, hi: int) -> int | None:
    if isinstance(value, str) and value.strip().lower() == PASS:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi:
        return value
    got = shown(value) if isinstance(value, str) else shown(str(value))
    raise GameLogError(where, f"{shown(player)} wrote {got}; give a whole number from {lo} to "
                       f'{hi}, or "{PASS}"')


def _round(table: int, number: int, raw: object, players: Sequence[str],
           number_range: tuple[int, int]) -> Round:
    where = f"table {table}, round {number}"
    if not isinstance(raw, Mapping):
        raise GameLogError(where, "must be a [[table.round]] table of choices, one per player")
    by_name = {unicodedata.normalize("NFC", " ".join(str(k).split())): v for k, v in raw.items()}
    for name in by_name:
        if name not in players:
            raise GameLogError(where, f"{shown(name)} does not sit at this table; its players "
                               f"are {', '.join(players)}")
    missing = [p for p in players if p not in by_name]
    if missing:
        raise GameLogError(where, f"no choice for {', '.join(missing)}; every player writes a "
                           f'number or "{PASS}" in every round')
    lo, hi = number_range
    choices = tuple((p, _choice(where, p, by_name[p], lo, hi)) for p in players)
    result = score_round(c for _, c in choices)
    winner = next((p for p, c in choices if c is not None and c == result.winner), None)
    return Round(number, choices, result, winner)


def _table(number: int, raw: object, number_range: tuple[int, int], rounds: int,
           seen: dict[str, int]) -> Table:
    where = f"table {number}"
    if not isinstance(raw, Mapping):
        raise GameLogError(where, "must be a [[table]] with players and its rounds")
    unknown = [k for k in raw if k not in ("players", "round")]
    if unknown:
        raise GameLogError(where, f"unknown key {shown(str(unknown[0]))}; a table has players "
                           "and [[table.round]] entries")
    players = _players(where, raw.get("players"), seen, number)
    raw_rounds = raw.get("round", [])
    if not isinstance(raw_rounds, list):
        raise GameLogError(where, "rounds must be [[table.round]] tables, one per round")
    if len(raw_rounds) != rounds:
        raise GameLogError(where, f"{len(raw_rounds)} rounds logged, but the game has {rounds} "
                           f"(set rounds = {len(raw_rounds)} if every table played that many)")
    return Table(number, players, tuple(_round(number, n, r, players, number_range)
                                        for n, r in enumerate(raw_rounds, start=1)))


def parse_party_log(data: Mapping[str, object]) -> PartyLog:
    """Check a log loaded from TOML and score every round; the first rule break is an error."""
    for key in data:
        if key not in KEYS:
            raise ConfigError(str(key), f"unknown key; allowed keys are {', '.join(KEYS)}")
    if data.get("game") != NAME:
        raise ConfigError("game", f'this kind of game log needs game = "{NAME}"')
    number_range = DEFAULT_RANGE if data.get("range") is None else NumberRange().convert(
        "range", data["range"])
    if number_range[1] - number_range[0] + 1 < 4:
        raise ConfigError("range", f"{number_range[0]}-{number_range[1]} holds fewer than 4 "
                          "numbers; the game needs at least 4, e.g. 1-10")
    rounds = _count("rounds", data.get("rounds"), 1, MAX_ROUNDS, DEFAULT_ROUNDS)
    raw_tables = data.get("table")
    if not isinstance(raw_tables, list) or not raw_tables:
        raise ConfigError("table", "give one or more [[table]] entries, each with its players "
                          "and rounds")
    if len(raw_tables) > MAX_TABLES:
        raise ConfigError("table", f"{len(raw_tables)} tables logged; a log takes at most "
                          f"{MAX_TABLES}")
    seen: dict[str, int] = {}
    tables = tuple(_table(n, raw, number_range, rounds, seen)
                   for n, raw in enumerate(raw_tables, start=1))
    return PartyLog(number_range, rounds, tables)


_SAFE = re.compile(r"[|\\]")


def cell(text: str) -> str:
    """Text for a Markdown table cell: pipes and backslashes escaped."""
    return _SAFE.sub(lambda m: "\\" + m[0], text)
