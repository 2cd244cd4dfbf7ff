"""A toy third game, kept under tests/ to show what a game needs for the console: this package
and a registry entry (the test makes it). Highest Number: each round every player names a
number; the highest single number scores a point. Its guesses are secret until the round is
revealed, so the public sees the points, a player their own numbers, the game master all."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kit.errors import ConfigError, KitError, Msg, Problems
from kit.game import (
    ConsoleGame,
    EntryKind,
    FormRead,
    GameReport,
    GameSpec,
    GmPage,
    StartForm,
    View,
    match_names,
)
from kit.game.start_form import Form, field, split_names

NAME = "highest-number"


def parse(data: Mapping[str, Any], **_: object) -> dict[str, Any]:
    """The engine: every problem of a log at once."""
    problems: list[KitError] = []
    players = data.get("players")
    if not isinstance(players, list) or len(players) < 2:
        problems.append(ConfigError("players", "give at least 2 players"))
        players = []
    for number, bids in enumerate(data.get("round", []), start=1):
        for name, value in bids.items():
            if name not in players:
                problems.append(ConfigError(f"round {number}", f"{name} is not a player"))
            elif not isinstance(value, int) or not 1 <= value <= 9:
                problems.append(ConfigError(f"round {number}, {name}", "a number from 1 to 9"))
    if problems:
        raise Problems(problems)
    return {"players": players, "rounds": list(data.get("round", []))}


def points(log: Mapping[str, Any]) -> dict[str, int]:
    checked = parse(log)
    score = dict.fromkeys(checked["players"], 0)
    for bids in checked["rounds"]:
        values = list(bids.values())
        single = [v for v in values if values.count(v) == 1]
        if single:
            score[next(p for p, v in bids.items() if v == max(single))] += 1
    return score


@dataclass(frozen=True)
class State:
    log: Mapping[str, Any]


def create(spec: Mapping[str, Any], facts: dict[str, Any], rng: random.Random,
           problems: list[KitError]) -> dict[str, Any]:
    players = spec.get("players")
    if not isinstance(players, list) or len(players) < 2:
        problems.append(ConfigError("players", "give at least 2 players"))
        return {}
    facts["players"] = list(players)
    return {"game": NAME, "players": list(players)}


def imported(data: Mapping[str, Any], facts: dict[str, Any]) -> list[tuple[str, dict]]:
    facts["players"] = list(data["players"])
    base = {k: v for k, v in data.items() if k != "round"}
    return [("create", {"log": base})] + [("bids", {"bids": dict(b)})
                                          for b in data.get("round", [])]


def apply(state: State | None, facts: Mapping[str, Any], kind: str,
          payload: Mapping[str, Any]) -> State:
    if kind == "create":
        return State(copy.deepcopy(dict(payload["log"])))
    assert state is not None
    return State({**state.log, "round": [*state.log.get("round", []), dict(payload["bids"])]})


def export(state: State) -> dict[str, Any]:
    return copy.deepcopy(dict(state.log))


def _bids(state: State, body: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    return {"bids": match_names(body.get("bids"), state.log["players"], "bids")}


def _answer(before: State, after: State, payload: Mapping[str, Any],
            recorded: bool) -> dict[str, Any]:
    return {"round": len(after.log.get("round", [])), "points": points(after.log)}


ENTRIES = (EntryKind("bids", "bids", _bids, _answer, undoable=True,
                     said=lambda p: Msg("round entered for %(names)s",
                                        names=", ".join(p["bids"]))),)


def gm_view(state: State, facts: Mapping[str, Any]) -> View:
    return View({"players": facts["players"], "points": points(state.log),
                 "log": export(state)}, None)


def public_view(state: State, facts: Mapping[str, Any]) -> View:
    return View({"players": facts["players"], "points": points(state.log),
                 "rounds": len(state.log.get("round", []))}, None)


def player_view(state: State, facts: Mapping[str, Any], player: str) -> View:
    mine = [b.get(player) for b in state.log.get("round", [])]
    return View({**public_view(state, facts).data, "player": player, "bids": mine}, None)


def read_start(values: Mapping[str, str], w: object) -> Form:
    form = Form(values, {"game": NAME, "players": split_names(values.get("names", ""))})
    if len(form.spec["players"]) < 2:
        form.add("names", "give at least 2 players")
    return form


def read_bids(values: Mapping[str, str], seen: Mapping[str, Any], w: object) -> FormRead:
    bids = {p: int(values[p]) for p in seen["players"] if values.get(p, "").isdigit()}
    return FormRead("bids", {"bids": bids}, done="saved=1", values=values)


def gm_page(seen: Mapping[str, Any], w: object, query: Mapping[str, str],
            posted: FormRead | None = None, answer: object = None) -> GmPage:
    return GmPage("gm.html", {"state": seen, "show_files": False})


CONSOLE = ConsoleGame(
    spec_keys=frozenset({"game", "players", "lang", "paper", "title"}), create=create,
    imported=imported, entries=ENTRIES, apply=apply, export=export, gm_view=gm_view,
    public_view=public_view, player_view=player_view,
    start=StartForm("toy", "New Highest Number game", "Two or more players.", "The game",
                    "Start", ("names",),
                    lambda values, problems, w, lang: [field("toy", "names", "Players", "",
                                                             values, problems, "textarea")],
                    read_start),
    gm_page=gm_page, forms={"bids": read_bids},
    board=lambda public, w: {"game_title": "Highest Number", "points": public["points"],
                             "shown": False},
    report_names={}, first_report="results.pdf", named_reports=())

GAME = GameSpec(name=NAME, title="Highest Number", min_players=2, max_players=None,
                default_players=4, default_range=lambda players: (1, 9),
                plan=lambda config: None,  # a toy: no kit to print
                templates=Path(__file__).parent / "templates",
                report=GameReport(parse=parse, plan=lambda log, config: None,
                                  text=lambda log, words: ""),
                console=CONSOLE)
