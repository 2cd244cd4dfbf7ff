"""Lowest Unique Number's game log: every table's rounds, checked and scored (pure data).

The log ``kit report`` reads (and the console builds)::

    game = "lowest-unique"
    # range = "1-10"   (optional: the announced range; default the game's rule)
    # rounds = 5       (optional: the rounds the party plays; default the game's rule)
    # title = "Friday party"   (optional: names the report folder)
    # cooperative = true          (optional: the table plays together; no points)
    # sudden_death_announced = true   (optional: announced before round one; not with
    #                                  cooperative)

    [[table]]
    players = ["Ann", "Bob", "Cy", "Dee"]

    [[round]]          (one per valid round, anywhere after the tables, in any order)
    table = 1
    round = 1
    choices = { Ann = 3, Bob = 1, Cy = 1, Dee = "pass" }

    [[tiebreak]]       (sudden death only: once a table has played every round and several
    table = 1           players share its top, those players alone play it; another
    round = 1           follows, round = 2, while nobody scores)
    choices = { Ann = 2, Bob = 2 }

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
from ....names import LookAlikes
from ....options import NumberRange
from . import (
    BOTH_VARIANTS,
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
    clean,
    misplaced,
    table_field,
)
from .lines import Block, LogLines, locate

KEYS = ("game", "title", "range", "rounds", "cooperative", "sudden_death_announced", "table",
        "round", "tiebreak")
ROUND_KEYS = ("table", "round", "choices")
MAX_TABLES = 100
MAX_ROUNDS = 12
MAX_TIEBREAKS = 12  # sudden death repeats while nobody scores; a log stops somewhere


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


def scored_round(number: int, choices: tuple[tuple[str, int | None], ...]) -> Round:
    """A round of checked choices, scored."""
    result = score_round(c for _, c in choices)
    winner = next((p for p, c in choices if c is not None and c == result.winner), None)
    return Round(number, choices, result, winner)


@dataclass(frozen=True)
class Table:
    number: int
    players: tuple[str, ...]
    rounds: tuple[Round, ...]  # rounds 1..played, in order
    tiebreaks: tuple[Round, ...] = ()  # sudden death: the tied players' rounds, in order

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
    def tied(self) -> tuple[str, ...]:
        """The players sharing the table's most points, when two or more do (else none)."""
        totals = self.totals
        best = max(totals.values(), default=0)
        names = tuple(p for p in self.players if totals[p] == best)
        return names if len(names) > 1 else ()

    @property
    def decider(self) -> str | None:
        """The player whose single won a tie-break round: first at the table, alone."""
        return next((r.winner for r in self.tiebreaks if r.winner), None)

    def lost_tiebreak(self, player: str) -> bool:
        """True for a tied player once another one won the tie-break."""
        decider = self.decider
        return decider is not None and player != decider and player in self.tied

    @property
    def score(self) -> int:
        """The cooperative table's score: the rounds that left exactly one single."""
        return sum(1 for r in self.rounds if len(r.result.singles) == 1)

    @property
    def places(self) -> dict[str, int]:
        """Each player's place at the table; equal totals share a place (1, 1, 3, ...) unless
        a tie-break round put one of them first."""
        if not self.tiebreaks:
            return {name: place for place, names in final_ranking(self.totals)
                    for name in names}
        keys = {p: (total, not self.lost_tiebreak(p)) for p, total in self.totals.items()}
        ordered = sorted(keys.values(), reverse=True)
        return {p: ordered.index(key) + 1 for p, key in keys.items()}


@dataclass(frozen=True)
class PartyLog:
    """A checked log: the range and planned rounds, and every table with its scored rounds."""

    range: tuple[int, int]
    rounds: int  # the rounds the party plays
    tables: tuple[Table, ...]
    cooperative: bool = False  # no points: each table counts its rounds with one single
    sudden_death: bool = False  # announced before round one: a tie at a table's top is played

    @property
    def finished(self) -> bool:
        """True once every table has played every planned round (and every tie-break due):
        the standings are final."""
        return all(t.played == self.rounds and not self.due(t) for t in self.tables)

    def due(self, table: Table) -> tuple[str, ...]:
        """The players who play a tie-break round at ``table`` now (none unless sudden death
        was announced, the table has played every round, several share its top and no
        tie-break round has decided it)."""
        if not self.sudden_death or table.played < self.rounds or table.decider:
            return ()
        return table.tied

    def progress(self) -> list[tuple[int, list[int]]]:
        """(rounds played, the tables that far), furthest first."""
        by_played: dict[int, list[int]] = {}
        for t in self.tables:
            by_played.setdefault(t.played, []).append(t.number)
        return sorted(by_played.items(), reverse=True)

    def standings(self) -> list[tuple[int, str, int, int]]:
        """(place, player, table, points) over the whole party, most points first; equal
        points share a place (1, 1, 3, ...), save that a player who lost a tie-break round
        comes after the players with as many points who did not."""
        rows = sorted(((points, t.lost_tiebreak(p), t.number, p) for t in self.tables
                       for p, points in t.totals.items()), key=lambda r: (-r[0], r[1], r[2]))
        out: list[tuple[int, str, int, int]] = []
        for i, (points, lost, table, player) in enumerate(rows):
            same = i and rows[i - 1][:2] == (points, lost)
            out.append((out[-1][0] if same else i + 1, player, table, points))
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


def _variant(data: Mapping[str, object], found: Found) -> tuple[bool, bool]:
    """Whether the party plays cooperatively, and whether sudden death was announced."""
    flags = []
    for key in ("cooperative", "sudden_death_announced"):
        value = data.get(key, False)
        if not isinstance(value, bool):
            found.add(ConfigError, key, None, Msg(N_("must be true or false; got %(got)s"),
                                                  got=shown(str(value))))
            value = False
        flags.append(value)
    cooperative, sudden_death = flags
    if cooperative and sudden_death:
        found.add(ConfigError, "sudden_death_announced", None, Msg(BOTH_VARIANTS))
    return cooperative, sudden_death


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
    alike = LookAlikes()  # the names of ``seen``, case folded, in its order
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
        players.append(check_players(where, line, raw.get("players"), seen, number, found,
                                     alike))
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


# What a [[round]] or a [[tiebreak]] is called, and what is said when it is not one.
_WORDS = {
    "round": (N_("[[round]] #%(index)s"),
              N_("must be a [[round]] table with table, round and choices"),
              N_("unknown key %(key)s; a [[round]] has table, round and choices"),
              N_("round must be a whole number from 1 to %(max)s (the game's rounds); "
                 "got %(got)s")),
    "tiebreak": (N_("[[tiebreak]] #%(index)s"),
                 N_("must be a [[tiebreak]] table with table, round and choices"),
                 N_("unknown key %(key)s; a [[tiebreak]] has table, round and choices"),
                 N_("round must be a whole number from 1 to %(max)s (the table's tie-break "
                    "rounds, in order); got %(got)s")),
}


def _round_entry(index: int, raw: object, block: Block | None, tables: int, rounds: int,
                 found: Found, kind: str = "round") -> Entry | None:
    """A top-level [[round]] (or [[tiebreak]]) entry, or None when its table or round cannot
    be told."""
    name, shape, keys, number_words = _WORDS[kind]
    where, line = Msg(name, index=index + 1), block.line if block else None
    if not isinstance(raw, Mapping):
        found.add(GameLogError, where, line, Msg(shape))
        return None
    for key in raw:
        if key not in ROUND_KEYS:
            found.add(GameLogError, where, block.key_line(str(key)) if block else None,
                      Msg(keys, key=shown(str(key))))
    table, number = raw.get("table"), raw.get("round")
    if not (_whole(table) and 1 <= table <= tables):
        found.add(GameLogError, where, block.key_line("table") if block else None, Msg(N_(
            "table must be the number of a [[table]] above, 1 to %(max)s; got %(got)s"),
            max=tables, got=shown(str(table))))
        table = None
    if not (_whole(number) and 1 <= number <= rounds):
        found.add(GameLogError, where, block.key_line("round") if block else None, Msg(
            number_words, max=rounds, got=shown(str(number))))
        number = None
    if table is None or number is None:
        return None
    return Entry(table, number, raw.get("choices"), block, "choices",
                 f"[[{kind}]] #{index + 1}", kind == "tiebreak")


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


def _tiebreak_entries(data: Mapping[str, object], lines: LogLines | None, tables: int,
                      sudden_death: bool, found: Found) -> list[Entry]:
    """The [[tiebreak]] entries; each is a problem unless sudden death was announced."""
    raw = data.get("tiebreak")
    if raw is None:
        return []
    if not isinstance(raw, list):
        found.add(ConfigError, "tiebreak", None, Msg(N_(
            "tie-break rounds are [[tiebreak]] tables (double brackets), each with table, round "
            "and choices")))
        return []
    entries = []
    for i, item in enumerate(raw):
        block = lines.tiebreak(i, len(raw)) if lines else None
        if not sudden_death:
            found.add(GameLogError, Msg(_WORDS["tiebreak"][0], index=i + 1),
                      block.line if block else None, Msg(N_(
                          "a tie-break round is played only when sudden death was announced "
                          "before round one; this log has no sudden_death_announced = true")))
            continue
        entry = _round_entry(i, item, block, tables, MAX_TIEBREAKS, found, "tiebreak")
        if entry is not None:
            entries.append(entry)
    return entries


def _order(entries: list[Entry], rounds: int, found: Found) -> dict[int, list[Entry]]:
    """Each table's entries by round number; a round logged twice, a round past the game's
    rounds or a round missing before a logged one is a problem."""
    by_table: dict[int, dict[int, Entry]] = {}
    for entry in entries:
        where = entry.field
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
            found.add(GameLogError, later.field, later.line, Msg(N_(
                "round %(gap)s is not logged; log every round of a table, 1, 2, 3, ..."),
                gap=gap))
    return ordered


def _tied_choices(entry: Entry, table: Table, tied: tuple[str, ...],
                  bounds: tuple[int, int] | None, seats: dict[str, int], found: Found
                  ) -> tuple[tuple[str, int | None], ...] | None:
    """A tie-break round's choices: the tied players' only (a table-mate who is not tied has
    no slip in it)."""
    raw = entry.raw
    if isinstance(raw, Mapping):
        others = {p.casefold() for p in table.players if p not in tied}
        outside = [k for k in raw if clean(str(k)).casefold() in others]
        for key in outside:
            found.add(GameLogError, entry.field, entry.key_line(str(key)), Msg(N_(
                "%(name)s does not share the top; only %(players)s play the tie-break"),
                name=shown(clean(str(key))), players=", ".join(tied)))
        if outside:
            return None
    return check_choices(entry, tied, bounds, found, seats)


def _tiebreaks(ordered: dict[int, list[Entry]], tables: dict[int, Table], rounds: int,
               bounds: tuple[int, int] | None, seats: dict[str, int], found: Found
               ) -> dict[int, tuple[Round, ...]]:
    """Each table's tie-break rounds, checked: only after its last round, only among the
    players sharing its top, and none after one that decided it."""
    out: dict[int, tuple[Round, ...]] = {}
    for number, entries in ordered.items():
        table = tables.get(number)
        if table is None or [e.number for e in entries] != list(range(1, len(entries) + 1)):
            continue  # its rounds (or its tie-breaks' numbers) have problems already
        first = entries[0]
        if table.played < rounds:
            found.add(GameLogError, first.field, first.line, Msg(N_(
                "table %(table)s has played %(played)s of %(rounds)s rounds; a tie-break round "
                "comes after the last round"), table=number, played=table.played,
                rounds=rounds))
            continue
        tied = table.tied
        if not tied:
            (_, leaders), = final_ranking(table.totals)[:1]
            found.add(GameLogError, first.field, first.line, Msg(N_(
                "%(player)s alone has the most points at table %(table)s; there is no tie to "
                "break"), player=leaders[0], table=number))
            continue
        played: list[Round] = []
        for entry in entries:
            decided = next((r for r in played if r.winner), None)
            if decided is not None:
                found.add(GameLogError, entry.field, entry.line, Msg(N_(
                    "tie-break %(round)s already decided it (%(player)s scored); no tie-break "
                    "round follows"), round=decided.number, player=decided.winner))
                break
            choices = _tied_choices(entry, table, tied, bounds, seats, found)
            if choices is None:
                break
            played.append(scored_round(entry.number, choices))
        out[number] = tuple(played)
    return out


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
    cooperative, sudden_death = _variant(data, found)
    seats: dict[str, int] = {}
    players, entries = _tables(data, lines, found, seats)
    entries += _top_rounds(data, lines, len(players), rounds, found)
    entries = [e for e in entries if not misplaced(e, seats, found)]
    extra = [e for e in _tiebreak_entries(data, lines, len(players), sudden_death, found)
             if not misplaced(e, seats, found)]
    ordered = _order(entries, rounds, found)
    scored: dict[tuple[int, int], Round] = {}
    for entry in (e for table in ordered.values() for e in table):
        names = players[entry.table - 1]
        if names is None:  # its player list is already a problem
            continue
        choices = check_choices(entry, names, number_range, found, seats)
        if choices is not None:
            scored[entry.table, entry.number] = scored_round(entry.number, choices)
    whole = {n: Table(n, names, tuple(scored[n, e.number] for e in ordered.get(n, [])))
             for n, names in enumerate(players, start=1) if names is not None
             and all((n, e.number) in scored for e in ordered.get(n, []))}
    tiebreaks = _tiebreaks(_order(extra, MAX_TIEBREAKS, found), whole, rounds, number_range,
                           seats, found)
    found.raise_any()
    tables = tuple(Table(n, names or (), whole[n].rounds if n in whole else (),
                         tiebreaks.get(n, ()))
                   for n, names in enumerate(players, start=1))
    return PartyLog(number_range or DEFAULT_RANGE, rounds, tables, cooperative, sudden_death)


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
