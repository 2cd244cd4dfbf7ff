"""What each game brings to the console: a new game's header, an import's journal, names,
and the public view. Data handling only: the engine (``engine.check``) judges every rule.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ConfigError, GameLogError, KitError, Msg, Problems, ngettext, shown
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import LANGUAGES, N_
from ..options import parse_range
from ..paper import PAPERS
from . import engine
from .replay import LUN, WMN, Folded

TITLE_MAX = 80
SPEC_KEYS = {WMN: {"game", "players", "secrets", "range", "lang", "paper", "title"},
             LUN: {"game", "tables", "players", "rounds", "range", "lang", "paper", "title",
                   "shuffle"}}


def _common(spec: Mapping[str, Any], problems: list[KitError]) -> dict[str, Any]:
    lang = spec.get("lang") or DEFAULT_LANGUAGE
    paper = spec.get("paper") or "a4"
    title = spec.get("title") or ""
    if lang not in LANGUAGES:
        problems.append(ConfigError("lang", one_of(LANGUAGES, lang)))
    if paper not in PAPERS:
        problems.append(ConfigError("paper", one_of(PAPERS, paper)))
    if not isinstance(title, str) or len(title) > TITLE_MAX:
        problems.append(ConfigError("title", Msg(N_("must be text of at most %(max)s "
                                                    "characters"), max=TITLE_MAX)))
        title = ""
    return {"lang": lang, "paper": paper, "title": title}


def one_of(choices: Sequence[str], got: object) -> Msg:
    """"must be one of: en, fr; got 'xx'"."""
    return Msg(N_("must be one of: %(choices)s; got %(got)s"), choices=", ".join(choices),
               got=shown(str(got)))


def check_new_game(spec: Mapping[str, Any], rng: random.Random
                   ) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A new game's kind, public facts and log header; raises Problems (every one found)."""
    if not isinstance(spec, Mapping):
        raise Problems([ConfigError("game", Msg(N_("the request must be a JSON object")))])
    kind = spec.get("game")
    if kind not in SPEC_KEYS:
        raise Problems([ConfigError("game", Msg(N_("must be %(first)s or %(second)s; got "
                                                   "%(got)s"), first=repr(WMN), second=repr(LUN),
                                                got=shown(str(kind))))])
    problems: list[KitError] = [ConfigError(str(k), Msg(N_("unknown key; allowed keys are "
                                                           "%(keys)s"),
                                                        keys=", ".join(sorted(SPEC_KEYS[kind]))))
                                for k in spec if k not in SPEC_KEYS[kind]]
    public = _common(spec, problems)
    log = (_wmn_header if kind == WMN else _lun_header)(spec, public, rng, problems)
    if problems:
        raise Problems(problems)
    public["title"] = public["title"].strip()
    if public["title"]:
        log["title"] = public["title"]  # kit report names its folder after it, as we do
    return kind, public, log


def _wmn_header(spec: Mapping[str, Any], public: dict[str, Any], rng: random.Random,
                problems: list[KitError]) -> dict[str, Any]:
    from ..games.whats_my_number.people import labels
    from ..i18n import words

    players = spec.get("players")
    if isinstance(players, int) and not isinstance(players, bool) and 2 <= players <= 200:
        players = labels(players, words(public["lang"]))  # no label reads as an answer
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        problems.append(ConfigError("players", Msg(N_("give a list of names, or a count"))))
        return {}
    players = [unicodedata.normalize("NFC", " ".join(p.split())) for p in players]
    public["players"] = players
    log: dict[str, Any] = {"game": WMN, "players": players}
    _player_problems(players, problems)
    bounds = _wmn_bounds(spec.get("range"), len(players), problems)
    if bounds is not None and "range" not in {p.field for p in problems}:
        log["range"] = f"{bounds[0]}-{bounds[1]}"
        public["range"] = list(bounds)
    given = spec.get("secrets") or {}
    if not isinstance(given, Mapping):
        problems.append(ConfigError("secrets", Msg(N_("give an object of name: number"))))
        given = {}
    given = match_names(given, players, "secrets", problems=problems)
    if bounds is None:
        return log
    _secret_problems(given, players, bounds, problems)
    # Secrets not given are drawn at random, distinct from each other and from given ones.
    free = [n for n in range(bounds[0], bounds[1] + 1) if n not in given.values()]
    drawn = iter(rng.sample(free, min(len(free), len(players))))
    log["secrets"] = {p: given[p] if p in given else next(drawn, bounds[0]) for p in players}
    return log


def _player_problems(players: list[str], problems: list[KitError]) -> None:
    """Every problem of the names at once: each unusable label, each name given twice (case
    ignored, as the pages read names), and too few players."""
    from ..games.whats_my_number import model

    seen: dict[str, int] = {}
    for number, name in enumerate(players, start=1):
        try:
            model._check_label(name)
        except KitError as exc:
            problems.append(exc)
            continue
        first = seen.setdefault(name.casefold(), number)
        if first != number:
            problems.append(ConfigError("players", Msg(N_(
                "“%(name)s” is given twice (names %(first)s and %(second)s); every player "
                "needs a different name, e.g. add an initial"), name=name, first=first,
                second=number)))
    if len(players) < model.MIN_PLAYERS:
        problems.append(ConfigError("players", model.needs_players(ngettext(
            "%(num)s player listed", "%(num)s players listed", len(players)))))
    elif len(players) > model.MAX_LOG_PLAYERS:
        problems.append(ConfigError("players", Msg(N_(
            "%(count)s players listed; a game log takes at most %(max)s"), count=len(players),
            max=model.MAX_LOG_PLAYERS)))


def _wmn_bounds(text: object, players: int, problems: list[KitError]
                ) -> tuple[int, int] | None:
    """The range to check secrets against: the one given (its problems added), else the
    rules' default; a range given backwards ("9-2") still bounds the secrets by its numbers."""
    from ..games.whats_my_number.model import MIN_PLAYERS, check_range, default_range

    if text is None:
        return default_range(players) if players >= MIN_PLAYERS else None
    try:
        bounds = parse_range("range", text)
    except KitError as exc:
        problems.append(exc)
        numbers = [int(n) for n in re.findall(r"[0-9]+", str(text))[:3]]
        return (min(numbers), max(numbers)) if len(numbers) == 2 else None
    try:
        check_range(bounds, players)
    except KitError as exc:
        problems.append(exc)
    return bounds


def _secret_problems(given: Mapping[str, Any], players: list[str], bounds: tuple[int, int],
                     problems: list[KitError]) -> None:
    """The secrets typed (the missing ones are drawn), each checked against the range."""
    from ..games.whats_my_number.model import check_secrets

    typed = [p for p in players if p in given]
    unknown = {k: v for k, v in given.items() if k not in players}
    try:
        check_secrets({**{p: given[p] for p in typed}, **unknown}, tuple(typed), bounds,
                      every=True)
    except Problems as exc:
        problems.extend(exc.problems)
    except KitError as exc:
        problems.append(exc)


def _lun_header(spec: Mapping[str, Any], public: dict[str, Any], rng: random.Random,
                problems: list[KitError]) -> dict[str, Any]:
    from ..games.lowest_unique.rules import DEFAULT_ROUNDS
    from ..registry import game_spec
    from ..tables import deal, table_sizes

    tables = spec.get("tables")
    if tables is None or isinstance(tables, int):
        names = spec.get("players")
        if not isinstance(names, list) or not all(isinstance(p, str) for p in names):
            problems.append(ConfigError("tables", Msg(N_(
                "give tables as lists of names, or players (names) and optionally a number of "
                "tables"))))
            return {}
        game = game_spec(LUN)
        try:
            sizes = table_sizes(len(names), game.min_players, game.max_players, tables)
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
    public["tables"] = tables
    public["players"] = [p for t in tables for p in t]
    rounds = spec.get("rounds", DEFAULT_ROUNDS)
    log: dict[str, Any] = {"game": LUN, "rounds": rounds,
                           "table": [{"players": t} for t in tables]}
    if spec.get("range") is not None:
        log["range"] = spec["range"]
    public["rounds"] = rounds
    return log


def import_entries(data: Mapping[str, Any], settings: Mapping[str, Any] | None = None
                   ) -> tuple[str, dict[str, Any], list]:
    """The kind, public facts and journal entries of an imported (engine-checked) log;
    ``settings`` may give the console's ``lang`` and ``paper`` (checked as for a new game)."""
    kind = data.get("game")
    base = {k: v for k, v in data.items() if k not in ("turn", "round", "published")}
    problems: list[KitError] = []
    lang_paper = _common({**(settings or {}), "title": None}, problems)
    if problems:
        raise Problems(problems)
    lang_paper["title"] = str(data.get("title", ""))
    if kind == WMN:
        from ..games.whats_my_number.rules import default_range

        players = list(data["players"])
        bounds = (parse_range("range", data["range"]) if "range" in data
                  else default_range(len(players)))
        public = {**lang_paper, "players": players, "range": list(bounds)}
        turns = list(data.get("turn", []))
        published = data.get("published", len(turns))
        if not isinstance(published, int) or not len(turns) - 1 <= published <= len(turns):
            raise Problems([GameLogError("published", Msg(N_(
                "an imported game may have one unpublished turn at most: published is the "
                "number of turns (%(turns)s) or one less"), turns=len(turns)))])
        entries: list = [("create", {"log": base})]
        for number, orders in enumerate(turns, start=1):
            if orders:
                entries.append(("orders", {"turn": number, "orders": dict(orders)}))
            if number <= published:
                entries.append(("publish", {"turn": number}))
        return kind, public, entries
    tables = [list(t.get("players", [])) for t in data.get("table", [])]
    base["table"] = [{"players": t} for t in tables]
    rounds = []
    for number, table in enumerate(data.get("table", []), start=1):
        for index, choices in enumerate(table.get("round", []), start=1):
            rounds.append({"table": number, "round": index, "choices": dict(choices)})
    rounds += [dict(r) for r in data.get("round", [])]
    rounds.sort(key=lambda r: (r["round"], r["table"]))
    from ..games.lowest_unique.rules import DEFAULT_ROUNDS

    public = {**lang_paper, "tables": tables, "players": [p for t in tables for p in t],
              "rounds": data.get("rounds", DEFAULT_ROUNDS)}
    return kind, public, [("create", {"log": base})] + [("round", r) for r in rounds]


def match_names(given: Mapping[str, Any], names: Sequence[str], field: str, *,
                allow_none: bool = False, problems: list[KitError] | None = None
                ) -> dict[str, Any]:
    """``given`` with its keys spelt as the game's names (case and spacing ignored). Unknown
    names are left as typed, for the engine to name (with its suggestions)."""
    if not isinstance(given, Mapping):
        error = ConfigError(field, Msg(N_("give an object of name: value")))
        if problems is not None:
            problems.append(error)
            return {}
        raise Problems([error])
    folded = {" ".join(n.split()).casefold(): n for n in names}
    out: dict[str, Any] = {}
    for key, value in given.items():
        name = folded.get(" ".join(str(key).split()).casefold(), str(key))
        if value is None and not allow_none:
            continue
        out[name] = value
    return out


# What a published row may show: the answers, never the guessed number (a number beside a
# check mark is that player's secret) nor a list's entries.
PUBLIC_ROW_KEYS = ("player", "index", "cells", "bonus", "status", "correct", "partial", "listed")


def public_turn(report: Any) -> dict[str, Any]:
    """A published turn report as the players' sheet shows it: rows without guessed numbers."""
    turn = engine.to_json(report)
    turn["rows"] = [{key: row[key] for key in PUBLIC_ROW_KEYS if key in row}
                    for row in turn.get("rows", ())]
    return turn


def wmn_public(public: Mapping[str, Any], folded: Folded, result: Any) -> dict[str, Any]:
    """What's My Number?'s public view: published turns' reports, standings, no secret."""
    turns = [public_turn(t) for t in getattr(result, "turns", ())][: folded.published]
    won = getattr(result, "winning_turn", None)
    found = {p: 0 for p in public["players"]}
    for turn in getattr(result, "turns", ())[: folded.published]:
        for player, hits in getattr(turn, "hits", {}).items():
            found[player] = found.get(player, 0) + hits
    return {"players": list(public["players"]), "range": list(public["range"]),
            "published": folded.published, "turns": turns,
            "amended": sorted(folded.amended),  # turns corrected after they were handed out
            "identified": found,  # numbers found by hits so far, per player
            "winners": list(getattr(result, "winners", ())) if won else [],
            "winning_turn": won,
            "next_allowance": engine.to_json(getattr(result, "next_allowance", {}))}


def _value(attribute: Any) -> Any:
    """A property or a method of the engine's objects, read either way."""
    return attribute() if callable(attribute) else attribute


def lun_public(public: Mapping[str, Any], result: Any) -> dict[str, Any]:
    """Lowest Unique Number's public view: every entered round, tallies and standings."""
    tables = []
    for table in getattr(result, "tables", ()):
        tables.append({"table": table.number, "players": list(table.players),
                       "rounds": [engine.to_json(r) for r in table.rounds],
                       "totals": engine.to_json(_value(table.totals))})
    standings = [{"place": place, "player": player, "table": at, "points": points}
                 for place, player, at, points in result.standings()]
    return {"tables": tables, "rounds": public.get("rounds"), "standings": standings,
            "rounds_entered": {str(t["table"]): len(t["rounds"]) for t in tables}}
