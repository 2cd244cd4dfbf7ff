"""A new game's spec and an imported log, checked for the console: the keys every game takes
(``lang``, ``paper``, ``title``), then the game's own (``ConsoleGame.create`` and
``imported``). Every problem is raised at once; the engine judges every rule."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..errors import ConfigError, KitError, Msg, Problems
from ..game import ConsoleGame, one_of
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import LANGUAGES, N_
from ..paper import PAPERS
from ..registry import GAMES, template_folders
from ..server import templates

TITLE_MAX = 80


def console_games() -> dict[str, ConsoleGame]:
    """The registered games that have a console part, by name."""
    found = {name: spec.console_part() for name, spec in GAMES.items()}
    return {name: game for name, game in found.items() if game is not None}


def site_environment(lang: str = DEFAULT_LANGUAGE) -> Any:
    """The server's templates in ``lang`` with every registered game's own, as
    "<package>/<file>" (the console's game pages)."""
    return templates.site_environment(lang, template_folders)


def console_of(name: str) -> ConsoleGame:
    """The console part of a stored game (its kind was checked when it was made)."""
    game = console_games().get(name)
    if game is None:
        raise Problems([ConfigError("game", one_of(list(console_games()), name))])
    return game


def common(spec: Mapping[str, Any], problems: list[KitError]) -> dict[str, Any]:
    """The facts every game has: its language, paper and title (checked)."""
    lang = spec.get("lang") or DEFAULT_LANGUAGE
    paper = spec.get("paper") or "a4"
    title = spec.get("title") or ""
    if lang not in LANGUAGES:
        problems.append(ConfigError("lang", one_of(list(LANGUAGES), lang)))
    if paper not in PAPERS:
        problems.append(ConfigError("paper", one_of(PAPERS, paper)))
    if not isinstance(title, str) or len(title) > TITLE_MAX:
        problems.append(ConfigError("title", Msg(N_("must be text of at most %(max)s "
                                                    "characters"), max=TITLE_MAX)))
        title = ""
    return {"lang": lang, "paper": paper, "title": title}


def check_new_game(spec: Mapping[str, Any], rng: random.Random
                   ) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A new game's name, public facts and log header; raises Problems (every one found)."""
    if not isinstance(spec, Mapping):
        raise Problems([ConfigError("game", Msg(N_("the request must be a JSON object")))])
    name = spec.get("game")
    games = console_games()
    if not isinstance(name, str) or name not in games:
        raise Problems([ConfigError("game", one_of(list(games), name))])
    game = games[name]
    problems: list[KitError] = [
        ConfigError(str(k), Msg(N_("unknown key; allowed keys are %(keys)s"),
                                keys=", ".join(sorted(game.spec_keys))))
        for k in spec if k not in game.spec_keys]
    facts = common(spec, problems)
    log = game.create(spec, facts, rng, problems)
    if problems:
        raise Problems(problems)
    facts["title"] = facts["title"].strip()
    if facts["title"]:
        log["title"] = facts["title"]  # kit report names its folder after it, as we do
    return name, facts, log


def games_limits(data: object) -> list[KitError]:
    """The console's caps an imported log breaks, as its game says (``ConsoleGame.limits``);
    none for a log the engine will refuse anyway (no such game, not a table)."""
    if not isinstance(data, Mapping):
        return []
    game = console_games().get(str(data.get("game")))
    return game.limits(data) if game is not None and game.limits is not None else []


def import_entries(data: Mapping[str, Any], settings: Mapping[str, Any] | None = None
                   ) -> tuple[str, dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    """The name, public facts and journal entries of an imported (engine-checked) log;
    ``settings`` may give the console's ``lang`` and ``paper`` (checked as for a new game)."""
    name = str(data.get("game"))
    game = console_of(name)
    problems: list[KitError] = []
    facts = common({**(settings or {}), "title": None}, problems)
    if problems:
        raise Problems(problems)
    facts["title"] = str(data.get("title", ""))
    return name, facts, game.imported(data, facts)


def unknown_entry(game_kind: str, kind: str) -> Problems:
    """An entry a ``game_kind`` game does not take (a kind or an API path), naming the games
    that do."""
    takes = [name for name, game in console_games().items()
             if any(kind in (e.kind, e.path) for e in game.entries)]
    return Problems([ConfigError("game", Msg(N_(
        "this is a %(kind)s game; that action is for %(wanted)s"), kind=game_kind,
        wanted=" or ".join(takes)))])
