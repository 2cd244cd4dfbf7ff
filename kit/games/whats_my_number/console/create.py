"""A What's My Number? game night made for the console: from a spec (checks and defaults,
every problem at once) or from an imported game log (the journal entries it holds)."""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from ....errors import ConfigError, GameLogError, KitError, Msg, Problems, ngettext
from ....game import match_names
from ....i18n import N_, words
from ....names import LookAlikes, look_alike_msg
from ....options import parse_range
from ..rules import model
from ..sheets.people import labels

SPEC_KEYS = frozenset({"game", "players", "secrets", "range", "lang", "paper", "title"})
CHOSEN_BY_PLAYERS = "players"  # the spec's "secrets": each player chooses their own


def token_seats(facts: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Every player gets their own link: each sends their orders and reads their slips."""
    return [("player", name) for name in facts["players"]]


def create(spec: Mapping[str, Any], facts: dict[str, Any], rng: random.Random,
           problems: list[KitError]) -> dict[str, Any]:
    """The log's header of a new game: players, range and secrets (the missing ones drawn)."""
    players = spec.get("players")
    if isinstance(players, int) and not isinstance(players, bool) and 2 <= players <= 200:
        players = labels(players, words(facts["lang"]))  # no label reads as an answer
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        problems.append(ConfigError("players", Msg(N_("give a list of names, or a count"))))
        return {}
    players = [unicodedata.normalize("NFC", " ".join(p.split())) for p in players]
    facts["players"] = players
    log: dict[str, Any] = {"game": model.NAME, "players": players}
    _player_problems(players, problems)
    bounds = _bounds(spec.get("range"), len(players), problems)
    if bounds is not None and "range" not in {p.field for p in problems}:
        log["range"] = f"{bounds[0]}-{bounds[1]}"
        facts["range"] = list(bounds)
    given = spec.get("secrets") or {}
    if given == CHOSEN_BY_PLAYERS:  # each player chooses on their own page before turn 1
        facts["secrets_by"] = CHOSEN_BY_PLAYERS
        given = {}
    if not isinstance(given, Mapping):
        problems.append(ConfigError("secrets", Msg(N_(
            'give an object of name: number, or "players" (each player chooses their own)'))))
        given = {}
    given = match_names(given, players, "secrets", problems=problems)
    if bounds is None:
        return log
    _secret_problems(given, players, bounds, problems)
    # Secrets not given are drawn at random, distinct from each other and from given ones; a
    # player who chooses their own replaces the drawn one, which nobody sees and no turn plays
    # (turn 1 opens only once every player has chosen).
    free = [n for n in range(bounds[0], bounds[1] + 1) if n not in given.values()]
    drawn = iter(rng.sample(free, min(len(free), len(players))))
    log["secrets"] = {p: given[p] if p in given else next(drawn, bounds[0]) for p in players}
    return log


def _player_problems(players: list[str], problems: list[KitError]) -> None:
    """Every problem of the names at once: each unusable label, each name given twice (case
    ignored, as the pages read names), and too few players."""
    seen: dict[str, int] = {}
    alike = LookAlikes()  # the names of ``seen``, in its order
    for number, name in enumerate(players, start=1):
        try:
            model.check_label(name)
        except KitError as exc:
            problems.append(exc)
            continue
        first = seen.setdefault(name.casefold(), number)
        if first != number:
            problems.append(ConfigError("players", Msg(N_(
                "“%(name)s” is given twice (names %(first)s and %(second)s); every player "
                "needs a different name, e.g. add an initial"), name=name, first=first,
                second=number)))
            continue
        earlier = alike.like(name)
        if earlier is not None:
            problems.append(ConfigError("players", look_alike_msg(earlier, name)))
        alike.add(name)
    if len(players) < model.MIN_PLAYERS:
        problems.append(ConfigError("players", model.needs_players(ngettext(
            "%(num)s player listed", "%(num)s players listed", len(players)))))
    elif len(players) > model.MAX_LOG_PLAYERS:
        problems.append(ConfigError("players", Msg(N_(
            "%(count)s players listed; a game log takes at most %(max)s"), count=len(players),
            max=model.MAX_LOG_PLAYERS)))


def _bounds(text: object, players: int, problems: list[KitError]) -> tuple[int, int] | None:
    """The range to check secrets against: the one given (its problems added), else the
    rules' default; a range given backwards ("9-2") still bounds the secrets by its numbers."""
    if text is None:
        return model.default_range(players) if players >= model.MIN_PLAYERS else None
    try:
        bounds = parse_range("range", text)
    except KitError as exc:
        problems.append(exc)
        numbers = [int(n) for n in re.findall(r"[0-9]+", str(text))[:3]]
        return (min(numbers), max(numbers)) if len(numbers) == 2 else None
    try:
        model.check_range(bounds, players)
    except KitError as exc:
        problems.append(exc)
    return bounds


def _secret_problems(given: Mapping[str, Any], players: list[str], bounds: tuple[int, int],
                     problems: list[KitError]) -> None:
    """The secrets typed (the missing ones are drawn), each checked against the range."""
    typed = [p for p in players if p in given]
    unknown = {k: v for k, v in given.items() if k not in players}
    try:
        model.check_secrets({**{p: given[p] for p in typed}, **unknown}, tuple(typed), bounds,
                            every=True)
    except Problems as exc:
        problems.extend(exc.problems)
    except KitError as exc:
        problems.append(exc)


def imported(data: Mapping[str, Any], facts: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The journal of an imported (engine-checked) log: its turns' orders, each published turn
    published; at most one unpublished turn."""
    players = list(data["players"])
    bounds = (parse_range("range", data["range"]) if "range" in data
              else model.default_range(len(players)))
    facts.update(players=players, range=list(bounds))
    turns = list(data.get("turn", []))
    published = data.get("published", len(turns))
    if not isinstance(published, int) or not len(turns) - 1 <= published <= len(turns):
        raise Problems([GameLogError("published", Msg(N_(
            "an imported game may have one unpublished turn at most: published is the "
            "number of turns (%(turns)s) or one less"), turns=len(turns)))])
    base = {k: v for k, v in data.items() if k not in ("turn", "published")}
    entries: list[tuple[str, dict[str, Any]]] = [("create", {"log": base})]
    for number, orders in enumerate(turns, start=1):
        if orders:
            entries.append(("orders", {"turn": number, "orders": dict(orders)}))
        if number <= published:
            entries.append(("publish", {"turn": number}))
    return entries
