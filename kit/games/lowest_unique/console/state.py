"""Lowest Unique Number in the game-night console: a party made from a spec or an imported log,
its state (every table's rounds so far), the entries it takes (a table's next round, the
correction of a round already entered, a tie-break round when sudden death was announced and
one is due, a table's round timer), and the three views of a
state: every round is shown to everyone once it is entered, so the public and each player
see the same standings (a player's view also names their table).
"""

from __future__ import annotations

import copy
import datetime
import json
import random
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ....errors import SHOWN_MAX, ConfigError, KitError, Msg, Problems
from ....game import EntryKind, View, match_names, name_problem, to_json
from ....game.refusals import Closed
from ....i18n import N_
from ....tables import deal, table_sizes
from ..rules import BOTH_VARIANTS, DEFAULT_ROUNDS, MAX_PLAYERS, MIN_PLAYERS, NAME
from ..rules.log import PartyLog, Table, parse_party_log

VARIANTS = ("cooperative", "sudden_death_announced")  # the log's own keys, said when true
SPEC_KEYS = frozenset({"game", "tables", "players", "rounds", "range", "lang", "paper", "title",
                       "shuffle", *VARIANTS})


def variant(spec: Mapping[str, Any], problems: list[KitError]) -> dict[str, bool]:
    """The announced variant of a new party: the flags given true (never both)."""
    flags = {}
    for key in VARIANTS:
        value = spec.get(key, False)
        if not isinstance(value, bool):
            problems.append(ConfigError(key, Msg(N_("must be true or false; got %(got)s"),
                                                 got=json.dumps(value)[:SHOWN_MAX])))
        elif value:
            flags[key] = True
    if len(flags) == len(VARIANTS):
        problems.append(ConfigError("sudden_death_announced", Msg(BOTH_VARIANTS)))
    return flags


def create(spec: Mapping[str, Any], facts: dict[str, Any], rng: random.Random,
           problems: list[KitError]) -> dict[str, Any]:
    """The log's header of a new party: its tables (given, or the players seated by the kit's
    rule), rounds and range."""
    tables = spec.get("tables")
    if tables is None or isinstance(tables, int):
        names = spec.get("players")
        if not isinstance(names, list) or not all(isinstance(p, str) for p in names):
            problems.append(ConfigError("tables", Msg(N_(
                "give tables as lists of names, or players (names) and optionally a number of "
                "tables"))))
            return {}
        try:
            sizes = table_sizes(len(names), MIN_PLAYERS, MAX_PLAYERS, tables)
        except KitError as exc:
            problems.append(exc)
            return {}
        shuffle = spec.get("shuffle")
        tables = deal(names, sizes, shuffle if isinstance(shuffle, int) else None)
    if not isinstance(tables, list) or not all(
            isinstance(t, list) and all(isinstance(p, str) for p in t) for t in tables):
        problems.append(ConfigError("tables", Msg(N_("give tables as lists of names"))))
        return {}
    tables = [[unicodedata.normalize("NFC", " ".join(p.split())) for p in t] for t in tables]
    problems += [found for t in tables for p in t
                 if (found := name_problem("tables", p)) is not None]
    rounds = spec.get("rounds", DEFAULT_ROUNDS)
    facts.update(tables=tables, players=[p for t in tables for p in t], rounds=rounds)
    log: dict[str, Any] = {"game": NAME, "rounds": rounds, **variant(spec, problems),
                           "table": [{"players": t} for t in tables]}
    if spec.get("range") is not None:
        log["range"] = spec["range"]
    return log


def log_limits(data: Mapping[str, Any]) -> list[KitError]:
    """The names of an imported log checked as the start form's are (before the engine)."""
    tables = data.get("table")
    if not isinstance(tables, list):
        return []
    names = [p for t in tables if isinstance(t, Mapping) and isinstance(t.get("players"), list)
             for p in t["players"] if isinstance(p, str)]
    return [found for p in names if (found := name_problem("players", p)) is not None]


def imported(data: Mapping[str, Any], facts: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The journal of an imported (engine-checked) log: its tables, then every round entered
    (either form of the log), in the order they were played."""
    base = {k: v for k, v in data.items() if k not in ("round", TIEBREAK)}
    tables = [list(t.get("players", [])) for t in data.get("table", [])]
    base["table"] = [{"players": t} for t in tables]
    rounds = []
    for number, table in enumerate(data.get("table", []), start=1):
        for index, choices in enumerate(table.get("round", []), start=1):
            rounds.append({"table": number, "round": index, "choices": dict(choices)})
    rounds += [dict(r) for r in data.get("round", [])]
    rounds.sort(key=lambda r: (r["round"], r["table"]))
    facts.update(tables=tables, players=[p for t in tables for p in t],
                 rounds=data.get("rounds", DEFAULT_ROUNDS))
    tiebreaks = sorted((dict(r) for r in data.get(TIEBREAK, [])),
                       key=lambda r: (r["table"], r["round"]))
    return ([("create", {"log": base})] + [("round", r) for r in rounds]
            + [(TIEBREAK, r) for r in tiebreaks])


@dataclass(frozen=True)
class Party:
    """A party's state: the log so far (never changed in place), and each table's latest
    round timer (the console's alone: the log ``kit report`` reads has none)."""

    log: Mapping[str, Any]
    timers: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def tables(self) -> list[list[str]]:
        return [list(t["players"]) for t in self.log.get("table", [])]

    def played(self, table: int) -> int:
        """The rounds a table has played."""
        return sum(1 for r in self.log.get("round", []) if r["table"] == table)


def apply(state: Party | None, facts: Mapping[str, Any], kind: str,
          payload: Mapping[str, Any]) -> Party:
    """The state after one journal entry: ``create``, a round (the ``[[round]]`` form), or an
    amended round (its choices replaced where it stands; the other rounds untouched)."""
    if kind == "create":
        return Party(copy.deepcopy(dict(payload["log"])))
    if state is None:
        raise ValueError("a journal starts with create")
    if kind == TIMER:
        return Party(state.log, {**state.timers, int(payload["table"]): dict(payload)})
    entered = {"table": payload["table"], "round": payload["round"],
               "choices": dict(payload["choices"])}
    if kind == TIEBREAK:
        return Party({**state.log, TIEBREAK: [*state.log.get(TIEBREAK, []), entered]},
                     state.timers)
    rounds = list(state.log.get("round", []))
    if kind == AMEND:
        at = next(i for i, r in enumerate(rounds)
                  if (r["table"], r["round"]) == (entered["table"], entered["round"]))
        rounds[at] = entered
    else:
        rounds.append(entered)
    return Party({**state.log, "round": rounds}, state.timers)


def export(state: Party) -> dict[str, Any]:
    """The log as ``kit report`` reads it."""
    return copy.deepcopy(dict(state.log))


def play(data: Mapping[str, Any]) -> PartyLog:
    """The party a log plays (tallies, standings); its problems raised as ``Problems``."""
    try:
        return parse_party_log(data)
    except Problems:
        raise
    except KitError as exc:
        raise Problems([exc]) from None


def _table(state: Party, params: Mapping[str, Any]) -> int:
    """The path's table, one the party has."""
    table, tables = params.get("table"), state.tables
    if not isinstance(table, int) or not 1 <= table <= len(tables):
        raise Problems([ConfigError("table", Msg(N_(
            "no table %(table)s; tables are 1 to %(count)s"), table=str(table),
            count=len(tables)))])
    return table


def token_seats(facts: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Every table gets a scorer's link: it enters and corrects that table's rounds."""
    return [("table", str(n)) for n in range(1, len(facts["tables"]) + 1)]


def _round(state: Party, body: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """The table's next round; ``"round"`` in the body, when given, is the round the sender
    means, refused (409) once it has been entered meanwhile from another page or device."""
    table = _table(state, params)
    meant, number = body.get("round"), state.played(table) + 1
    if meant is not None and (isinstance(meant, bool) or not isinstance(meant, int)):
        raise Problems([ConfigError("round", Msg(N_(
            "must be a whole number, the round you mean (the next one of table %(table)s is "
            "%(next)s); got %(got)s"), table=table, next=number,
            got=json.dumps(meant)[:SHOWN_MAX]))])
    if meant is not None and meant != number:
        if 1 <= meant < number:
            raise Closed("round", Msg(N_(
                "round %(round)s of table %(table)s was entered meanwhile (from another page "
                "or device); the table's next round is round %(next)s"),
                round=meant, table=table, next=number))
        raise Problems([ConfigError("round", Msg(N_(
            "the next round of table %(table)s is round %(next)s; got %(got)s"), table=table,
            next=number, got=str(meant)))])
    named = match_names(body.get("choices"), state.tables[table - 1], "choices")
    return {"table": table, "round": number, "choices": named}


TIEBREAK = "tiebreak"


def _due(state: Party, table: int) -> tuple[PartyLog, Table, tuple[str, ...]]:
    """The party, the table, and the players due to play a tie-break round there (refused
    with the reason when none is due)."""
    party = play(export(state))
    played = party.tables[table - 1]
    due = party.due(played)
    if due:
        return party, played, due
    if not party.sudden_death:
        why = Msg(N_("no tie-break round: sudden death was not announced before round one"))
    elif played.played < party.rounds:
        why = Msg(N_("table %(table)s plays a tie-break round only after its last round "
                     "(round %(rounds)s)"), table=table, rounds=party.rounds)
    elif played.decider:
        why = Msg(N_("table %(table)s’s tie-break is decided: %(player)s scored"), table=table,
                  player=played.decider)
    else:
        why = Msg(N_("nobody shares the top of table %(table)s; there is no tie to break"),
                  table=table)
    raise Problems([ConfigError("table", why)])


def _tiebreak(state: Party, body: Mapping[str, Any], params: Mapping[str, Any]
              ) -> dict[str, Any]:
    """The table's next tie-break round, its tied players' choices; ``"round"`` in the body,
    when given, is the tie-break round the sender means (refused once entered meanwhile)."""
    table = _table(state, params)
    _party, played, due = _due(state, table)
    number, meant = len(played.tiebreaks) + 1, body.get("round")
    if meant is not None and meant != number:
        raise Closed("round", Msg(N_(
            "tie-break %(round)s of table %(table)s was entered meanwhile (from another page "
            "or device); the table's next tie-break round is %(next)s"), round=str(meant),
            table=table, next=number))
    named = match_names(body.get("choices"), due, "choices")
    return {"table": table, "round": number, "choices": named}


def _tiebreak_answer(before: Party, after: Party, payload: Mapping[str, Any],
                     recorded: bool) -> dict[str, Any]:
    """The tie-break round's tally, and who (if anyone) it put first."""
    table, number = payload["table"], payload["round"]
    played = play(export(after)).tables[table - 1]
    found = next(r for r in played.tiebreaks if r.number == number)
    return {"table": table, "round": number, "tiebreak": True, "tally": to_json(found),
            "decider": played.decider}


TIMER = "timer"
TIMER_SECONDS = 20  # the rules: twenty seconds to write, then the host says "locked"
TIMER_RANGE = (5, 600)


def _timer(state: Party, body: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """A round timer for the table's next round, started now: ``"seconds"`` in the body
    (from 5 to 600) sets its length, else the length of the last one started (20 s at
    first). It enters and reveals nothing."""
    table = _table(state, params)
    seconds = body.get("seconds")
    if seconds is None:
        seconds = next((int(t["seconds"]) for t in sorted(
            state.timers.values(), key=lambda t: str(t["started"]), reverse=True)),
            TIMER_SECONDS)
    elif isinstance(seconds, bool) or not isinstance(seconds, int) \
            or not TIMER_RANGE[0] <= seconds <= TIMER_RANGE[1]:
        raise Problems([ConfigError("seconds", Msg(N_(
            "give the timer's length as whole seconds from %(min)s to %(max)s; got %(got)s"),
            min=TIMER_RANGE[0], max=TIMER_RANGE[1], got=str(seconds)))])
    started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    return {"table": table, "round": state.played(table) + 1, "started": started,
            "seconds": seconds}


def entered_choices(state: Party, table: int, number: int) -> dict[str, Any] | None:
    """The choices entered for a table's round, or None when it has not been played."""
    return next((dict(r["choices"]) for r in state.log.get("round", [])
                 if (r["table"], r["round"]) == (table, number)), None)


def _amend(state: Party, body: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """A table's round already entered, with every player's choice given again."""
    table = _table(state, params)
    number, played = params.get("round"), state.played(table)
    was = entered_choices(state, table, number) if isinstance(number, int) else None
    if was is None:
        raise Problems([ConfigError("round", Msg(N_(
            "table %(table)s has no round %(round)s to correct; its rounds entered are 1 to "
            "%(played)s"), table=table, round=str(number), played=played) if played else Msg(N_(
                "table %(table)s has no round entered yet; enter its round 1 first"),
                table=table))])
    if seat_of(params) == ("table", str(table)) and number != played:
        raise Problems([ConfigError("round", Msg(N_(
            "a table's scorer corrects only the table's last round (round %(played)s); ask the "
            "host to correct round %(round)s"), played=played, round=number))])
    named = match_names(body.get("choices"), state.tables[table - 1], "choices")
    if _plain(named) == _plain(was):
        raise Problems([ConfigError("choices", Msg(N_(
            "these are the choices already entered for table %(table)s, round %(round)s; "
            "nothing to correct"), table=table, round=number))])
    return {"table": table, "round": number, "choices": named}


def _plain(choices: Mapping[str, Any]) -> dict[str, Any]:
    """Choices as compared: a pass however it was written."""
    return {name: "pass" if isinstance(v, str) and v.strip().lower() == "pass" else v
            for name, v in choices.items()}


def seat_of(params: Mapping[str, Any]) -> tuple[str, str] | None:
    """The seat (kind, name) whose token made the request, when not the host's."""
    seat = params.get("seat")
    return (str(seat[0]), str(seat[1])) if isinstance(seat, (tuple, list)) else None


def _tally_of(state: Party, table: int, number: int) -> Any:
    played = next((t for t in play(export(state)).tables if t.number == table), None)
    found = next((r for r in getattr(played, "rounds", ()) if r.number == number), None)
    return to_json(found) if found is not None else None


def _round_answer(before: Party, after: Party, payload: Mapping[str, Any],
                  recorded: bool) -> dict[str, Any]:
    table, number = payload["table"], payload["round"]
    return {"table": table, "round": number, "tally": _tally_of(after, table, number)}


def _amend_answer(before: Party, after: Party, payload: Mapping[str, Any],
                  recorded: bool) -> dict[str, Any]:
    """The corrected round's tally, the choices it changed, and the standings it makes."""
    table, number = payload["table"], payload["round"]
    was = entered_choices(before, table, number) or {}
    now = entered_choices(after, table, number) or {}
    changes = [{"player": name, "was": was.get(name), "now": now.get(name)}
               for name in before.tables[table - 1] if was.get(name) != now.get(name)]
    standings = [{"place": place, "player": player, "table": at, "points": points}
                 for place, player, at, points in play(export(after)).standings()]
    return {"table": table, "round": number, "tally": _tally_of(after, table, number),
            "was": _tally_of(before, table, number), "changes": changes,
            "standings": standings}


AMEND = "amend"
ENTRIES = (
    EntryKind("round", "tables/{table:int}/rounds", _round, _round_answer, undoable=True,
              by=("gm", "table"), seat_param="table",
              said=lambda p: Msg(N_("table %(table)s, round %(round)s: choices entered"),
                                 table=p["table"], round=p["round"])),
    EntryKind(AMEND, "tables/{table:int}/rounds/{round:int}/amend", _amend, _amend_answer,
              status=200, undoable=True, by=("gm", "table"), seat_param="table",
              said=lambda p: Msg(N_("table %(table)s, round %(round)s: choices corrected"),
                                 table=p["table"], round=p["round"])),
    EntryKind(TIEBREAK, "tables/{table:int}/tiebreaks", _tiebreak, _tiebreak_answer,
              undoable=True, by=("gm", "table"), seat_param="table",
              said=lambda p: Msg(N_("table %(table)s, tie-break %(round)s: choices entered"),
                                 table=p["table"], round=p["round"])),
    EntryKind(TIMER, "tables/{table:int}/timer", _timer,
              lambda before, after, p, recorded: dict(p), by=("gm", "table"),
              seat_param="table",
              said=lambda p: Msg(N_("table %(table)s, round %(round)s: timer started "
                                    "(%(seconds)s s)"), table=p["table"], round=p["round"],
                                 seconds=p["seconds"])),
)


def _value(attribute: Any) -> Any:
    """A property or a method of the engine's objects, read either way."""
    return attribute() if callable(attribute) else attribute


def _shared(state: Party, facts: Mapping[str, Any]) -> dict[str, Any]:
    """Every entered round, its tally, and the standings: everyone sees them."""
    result = play(export(state))
    tables = [{"table": table.number, "players": list(table.players),
               "rounds": [to_json(r) for r in table.rounds],
               "totals": to_json(_value(table.totals)), **_variant_view(result, table)}
              for table in result.tables]
    # a cooperative party keeps no points: its tables' scores stand instead
    standings = [] if result.cooperative else [
        {"place": place, "player": player, "table": at, "points": points}
        for place, player, at, points in result.standings()]
    # over once every table has played every round (and every tie-break due): final
    over = bool(tables) and result.finished
    return {"tables": tables, "rounds": facts.get("rounds"), "range": list(result.range),
            "cooperative": result.cooperative, "sudden_death": result.sudden_death,
            "standings": standings,
            "rounds_entered": {str(t["table"]): len(t["rounds"]) for t in tables},
            "over": over, "winners": [s["player"] for s in standings if s["place"] == 1]
            if over else [],
            **({"timers": {str(n): dict(t) for n, t in sorted(state.timers.items())}}
               if state.timers else {})}


def _variant_view(party: PartyLog, table: Table) -> dict[str, Any]:
    """A table's part of the variant: its cooperative score, or its tie-break rounds, the
    players due to play one, the tie-break's winner and the places after it."""
    if party.cooperative:
        return {"score": table.score}
    if not party.sudden_death:
        return {}
    return {"tiebreaks": [to_json(r) for r in table.tiebreaks], "due": list(party.due(table)),
            "decider": table.decider, "places": to_json(table.places)}


def gm_view(state: Party, facts: Mapping[str, Any]) -> View:
    """The host's: the rounds and the log."""
    return View({**_shared(state, facts), "log": export(state)}, export(state))


def public_view(state: Party, facts: Mapping[str, Any]) -> View:
    """The public's: every round entered (a round is public once revealed)."""
    return View(_shared(state, facts), export(state))


def player_view(state: Party, facts: Mapping[str, Any], player: str) -> View:
    """One player's: the public view, and the table they sit at."""
    table = next((n for n, t in enumerate(state.tables, start=1) if player in t), None)
    if table is None:
        raise Problems([ConfigError("player", Msg(N_("there is no such player")))])
    return View({**_shared(state, facts), "player": player, "table": table}, export(state))
