"""What's My Number? in the game-night console: its state, the entries it takes, and the three
views of a state (the only place that decides what the game master, the public and a player
may see).

The state is the TOML-shaped log so far, the turns published (handed out) and the turns
amended after that. ``apply`` never changes a state: it makes a new one that shares every turn
it did not touch with the old one.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ....errors import ConfigError, GameLogError, KitError, Msg, Problems
from ....game import EntryKind, View, match_names, to_json
from ....game.refusals import Closed
from ....i18n import N_
from ....published import diff_snapshots
from .. import rules
from ..report.snapshot import snapshot_turn
from ..rules.checking import Checked
from .limits import check_orders
from .record import record as published_record

# What a published row may show: the answers, never the guessed number (a number beside a
# check mark is that player's secret) nor a list's entries.
PUBLIC_ROW_KEYS = ("player", "index", "cells", "bonus", "status", "correct", "partial", "listed")
PRIVATE_FILES = ("register", "slip", "secret")  # report files for the game master only
# an open turn's orders entry "no orders" (the grid's None): recorded as entered, not as
# missing, and left out of the log (kit report reads an absent player as no orders)
NO_ORDERS = "none"


@dataclass(frozen=True)
class Turns:
    """A game night's state: the log (never changed in place), turns published and amended;
    of the open turn, whether it is closed to the players and who entered each row and when
    (``{"by": "player" or "gm", "at": seconds}``); each turn's deadline, if one was set."""

    log: Mapping[str, Any]
    published: int = 0
    amended: tuple[int, ...] = ()
    closed: bool = False
    entered: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    deadlines: Mapping[int, str] = field(default_factory=dict)
    # the players who have not chosen their secret number yet (a game whose players choose):
    # the log holds a drawn one for each, which no view shows and no turn plays
    choosing: tuple[str, ...] = ()

    @property
    def open_turn(self) -> int:
        """The turn that orders go to: the first unpublished one."""
        return self.published + 1

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.log.get("players", ()))

    def orders(self, turn: int) -> Mapping[str, Any]:
        turns = self.log.get("turn", [])
        return turns[turn - 1] if len(turns) >= turn else {}

    @property
    def no_orders(self) -> tuple[str, ...]:
        """The players recorded as sending no orders this open turn (the grid's None)."""
        return tuple(p for p in self.players if self.entered.get(p, {}).get("none"))

    def received(self) -> list[str]:
        """Who has an entry in the open turn: orders, or no orders recorded as such."""
        got = self.orders(self.open_turn)
        return [p for p in self.players if p in got or p in self.no_orders]


def _with_orders(state: Turns, turn: int, orders: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The turns with ``orders`` recorded for ``turn`` (``None`` removes a player's); only that
    turn's table is new."""
    turns = list(state.log.get("turn", []))
    while len(turns) < turn:
        turns.append({})
    table = dict(turns[turn - 1])
    for player, value in orders.items():
        # re-entered last: the table's order is that of each player's latest entry, whether
        # the entries a repost replaced are in the journal or not
        table.pop(player, None)
        if value is not None and value != NO_ORDERS:
            table[player] = value
    turns[turn - 1] = table
    return turns


def _tidy(log: dict[str, Any], turns: list[dict[str, Any]], published: int) -> dict[str, Any]:
    """A published turn in which nobody sent orders is still a turn ({}); trailing empty
    turns after the published ones are no turns."""
    keep = max(published, max((i + 1 for i, t in enumerate(turns) if t), default=0))
    del turns[keep:]
    if turns:
        log["turn"] = turns
    else:
        log.pop("turn", None)
    return log


def apply(state: Turns | None, facts: Mapping[str, Any], kind: str,
          payload: Mapping[str, Any]) -> Turns:
    """The state after one journal entry."""
    if kind == "create":
        log = copy.deepcopy(dict(payload["log"]))
        choosing = tuple(log.get("players", ())) if facts.get("secrets_by") == "players" else ()
        return Turns(log, choosing=choosing)
    if state is None:
        raise ValueError("a journal starts with create")
    if kind in ("secret", "secrets"):  # a player's own choice, or the game master's for them
        # a changed choice moves to the end, as a replayed journal without the earlier one has it
        secrets = {**{p: n for p, n in state.log.get("secrets", {}).items()
                      if p not in payload["secrets"]}, **payload["secrets"]}
        return replace(state, log={**state.log, "secrets": secrets},
                       choosing=tuple(p for p in state.choosing if p not in payload["secrets"]))
    if kind == "publish":
        turn = int(payload["turn"])
        turns = _with_orders(state, turn, {})
        return replace(state, log=_tidy(dict(state.log), turns, turn), published=turn,
                       closed=False, entered={})
    if kind in ("close", "reopen"):
        return replace(state, closed=kind == "close")
    if kind == "deadline":
        deadlines = {k: v for k, v in state.deadlines.items() if k != payload["turn"]}
        if payload.get("deadline"):
            deadlines[int(payload["turn"])] = str(payload["deadline"])
        return replace(state, deadlines=deadlines)
    turn = int(payload["turn"])
    turns = _with_orders(state, turn, payload["orders"])
    log = _tidy(dict(state.log), turns, state.published)
    if kind == "amend":
        amended = state.amended if turn in state.amended else (*state.amended, turn)
        return replace(state, log=log, amended=amended)
    by = "player" if kind == "sent" else "gm"  # "sent": a player's own post
    entered = {name: mark for name, mark in state.entered.items()
               if payload["orders"].get(name, ...) is ...}
    entered.update({name: {"by": by, "at": payload.get("at"),
                           **({"none": True} if value == NO_ORDERS else {}),
                           **_replaced(state, turn, name, value, kind, payload)}
                    for name, value in payload["orders"].items() if value is not None})
    return replace(state, log=log, entered=entered)


def _replaced(state: Turns, turn: int, name: str, value: Any, kind: str,
              payload: Mapping[str, Any]) -> dict[str, Any]:
    """What a player's own post replaced of their orders this turn (their earlier post, from
    this phone or another, or the game master's row), so their page can say so; only the
    latest replaced is kept, whatever the number of posts. A post that replaces the
    player's earlier one in the journal carries it (``replacing``): that row is gone."""
    if "replaced" in payload:
        return {"replaced": payload["replaced"]} if payload["replaced"] else {}
    before = state.orders(turn).get(name)
    if kind != "sent" or before in (None, NO_ORDERS) or before == value or turn != state.open_turn:
        return {}
    mark = state.entered.get(name, {})
    return {"replaced": {"orders": before, "at": mark.get("at"), "by": mark.get("by")}}


def replacing(state: Turns, player: str, order: Any) -> dict[str, Any]:
    """What a player's post carries of the earlier post it replaces in the journal (the
    "sent" entry's ``replaces``): when their own post stands for them this turn (no entry of
    the game master's for them since), ``{"replaced": ...}`` (None: nothing to say, as for
    the same orders again); else nothing, and ``apply`` reads the state as it is."""
    if state.entered.get(player, {}).get("by") != "player":
        return {}
    mark = _replaced(state, state.open_turn, player, order, "sent", {})
    return {"replaced": mark.get("replaced")}


def export(state: Turns) -> dict[str, Any]:
    """The whole log (the open turn's orders too) and ``published``, as ``kit report`` reads.
    Its turn tables are the state's own (never changed: ``apply`` makes new ones), so that
    the engine's check of the next state resumes where they are the same tables."""
    data = dict(state.log)
    if "turn" in data:
        data["turn"] = list(data["turn"])
    data["published"] = state.published
    return data


def handed_out(state: Turns) -> dict[str, Any]:
    """The log as handed out: the published turns only. Its turn tables are the state's own
    (never changed), so that the published record resumes where they are the same tables."""
    data = dict(state.log)
    data["turn"] = list(data.get("turn", [])[: state.published])
    if not data["turn"]:
        del data["turn"]
    data["published"] = state.published
    return data


def play(data: Mapping[str, Any]) -> rules.GameResult:
    """The game a log plays (turn reports, winners); its problems raised as ``Problems``."""
    body = {k: v for k, v in data.items() if k != "published"}
    try:
        return rules.play(rules.parse_game_log(body))
    except Problems:
        raise
    except KitError as exc:
        raise Problems([exc]) from None


# --- entries ---------------------------------------------------------------------------------

def secret_open(state: Turns) -> bool:
    """Whether the secret numbers may still change: until turn 1 takes its first orders."""
    return not (state.published or state.orders(1) or state.received())


def check_chosen(state: Turns) -> None:
    """Refuse (409) turn 1's orders and publish while a player has not chosen their secret
    number: the rules have every player choose before the first guesses."""
    if state.choosing:
        raise Closed("secrets", Msg(N_(
            "turn 1 opens once every player has a secret number; still to choose: "
            "%(names)s"), names=", ".join(state.choosing)))


def _orders(state: Turns, body: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    # a player's value: guesses, a list, "none" (no orders, entered as such) or null (the
    # entry taken out: not entered yet)
    named = match_names(body.get("orders"), state.players, "orders", allow_none=True)
    check_orders(state.log, state.open_turn, named)  # before the engine plays them
    check_chosen(state)
    return {"turn": state.open_turn, "orders": named, "at": round(time.time(), 3)}


def _orders_answer(before: Turns, after: Turns, payload: Mapping[str, Any],
                   recorded: bool, checked: object = None) -> dict[str, Any]:
    turn = int(payload["turn"])
    received = after.received()
    if isinstance(checked, Checked) and len(checked.log.turns) == turn:
        report = checked.last_report  # the engine played this turn last: no replay
    else:
        report = next((t for t in play(export(after)).turns if t.number == turn), None)
    return {"turn": turn, "received": received,
            "missing": [p for p in after.players if p not in received],
            "no_orders": list(after.no_orders),
            "report": to_json(report) if report is not None else None}


def _publish(state: Turns, body: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    turn = params.get("turn")
    if turn != state.open_turn:
        raise Problems([GameLogError("turn", Msg(N_(
            "turn %(turn)s cannot be published; the open turn is %(open)s"),
            turn=str(turn), open=state.open_turn))])
    check_chosen(state)
    return {"turn": turn}


def _amend(state: Turns, body: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    turn = params.get("turn")
    if not isinstance(turn, int) or not 1 <= turn <= state.published:
        raise Problems([GameLogError("turn", Msg(N_(
            "only a published turn can be amended; published: 1 to %(published)s"),
            published=state.published))])
    orders = body.get("orders")
    if not isinstance(orders, Mapping):
        raise Problems([ConfigError("orders", Msg(N_("give an object of name: value")))])
    named = match_names(orders, state.players, "orders", allow_none=True)
    check_orders(state.log, turn, named)
    return {"turn": turn, "orders": named}


def changed_cells(before: Turns, after: Turns) -> list[dict[str, Any]]:
    """The cells of handed-out turn reports that an amendment changes."""
    old, new = play(handed_out(before)), play(handed_out(after))
    players = before.players
    out: list[dict[str, Any]] = []
    for was, now in zip(old.turns[: before.published], new.turns[: before.published],
                        strict=False):
        out += [to_json(c) for c in diff_snapshots(snapshot_turn(was, players),
                                                   snapshot_turn(now, players))]
    return out


def _amend_answer(before: Turns, after: Turns, payload: Mapping[str, Any],
                  recorded: bool) -> dict[str, Any]:
    return {"changes": changed_cells(before, after), "amended": recorded}


ENTRIES = (
    EntryKind("orders", "turns", _orders, _orders_answer, undoable=True, reads_check=True,
              said=lambda p: Msg(N_("turn %(turn)s: orders for %(names)s"), turn=p["turn"],
                                 names=", ".join(p["orders"]))),
    EntryKind("publish", "turns/{turn:int}/publish", _publish,
              lambda before, after, p, recorded: {"published": p["turn"]}, status=200,
              closes=True, publishes=True,
              said=lambda p: Msg(N_("turn %(turn)s published"), turn=p["turn"])),
    EntryKind("amend", "turns/{turn:int}/amend", _amend, _amend_answer, status=200,
              publishes=True, confirm=True,
              said=lambda p: Msg(N_("turn %(turn)s amended for %(names)s"), turn=p["turn"],
                                 names=", ".join(p["orders"]))),
)


# --- the three views -------------------------------------------------------------------------

def gm_view(state: Turns, facts: Mapping[str, Any]) -> View:
    """The game master's: everything, the secrets and the open turn's orders too."""
    received = state.received()
    data = {"players": list(state.players), "range": list(facts.get("range", ())),
            "published": state.published, "open_turn": state.open_turn,
            "received": received, "missing": [p for p in state.players if p not in received],
            "no_orders": list(state.no_orders),  # recorded as such (None), not missing
            "amended": list(state.amended), "closed": state.closed,
            # who sets the secrets ("players": each their own; "gm"), who has one, who has
            # not chosen yet; the numbers of those who have (a drawn one waiting for a
            # player's choice is nobody's)
            "secrets_by": facts.get("secrets_by", "gm"), "choosing": list(state.choosing),
            "chosen": [p for p in state.players if p not in state.choosing],
            "secrets": {p: n for p, n in state.log.get("secrets", {}).items()
                        if p not in state.choosing},
            "deadline": state.deadlines.get(state.open_turn),
            # who entered each row of the open turn and when ("player" or "gm", seconds)
            "entered": {p: dict(mark) for p, mark in state.entered.items() if p in received},
            "log": export(state)}
    handed = handed_out(state)
    result = published_record(handed).result()  # kept: the public view plays the same
    ended = ending(state, result)
    return View({**data, **ended, "winners": list(result.winners) if ended["over"] else []},
                handed)


def public_turn(report: rules.TurnReport) -> dict[str, Any]:
    """A published turn report as the players' sheet shows it: rows without guessed numbers."""
    turn = to_json(report)
    turn["rows"] = [{key: row[key] for key in PUBLIC_ROW_KEYS if key in row}
                    for row in turn.get("rows", ())]
    # a ruling says which guesses it set aside by position, never the numbers guessed
    turn["rulings"] = [{k: v for k, v in ruling.items() if k != "numbers"}
                       for ruling in turn.get("rulings", ())]
    return turn


def shared(state: Turns, facts: Mapping[str, Any], result: rules.GameResult,
           shown_as: Callable[[int, rules.TurnReport], dict[str, Any]] | None = None
           ) -> dict[str, Any]:
    """What everyone may see: the published turns' reports, the standings, no secret.
    ``shown_as``: a published turn's report (by index) as ``public_turn`` gives it (a kept
    one)."""
    published = result.turns[: state.published]
    shown = [shown_as(i, t) if shown_as is not None else public_turn(t)
             for i, t in enumerate(published)]
    found = dict.fromkeys(state.players, 0)
    for turn in published:
        for player, hits in turn.hits.items():
            found[player] = found.get(player, 0) + hits
    won = result.winning_turn
    return {"players": list(state.players), "range": list(facts.get("range", ())),
            "published": state.published, "turns": shown,
            "amended": sorted(state.amended),  # turns corrected after they were handed out
            "identified": found,  # numbers found by hits so far, per player
            "winners": list(result.winners) if won else [], "winning_turn": won,
            "next_allowance": to_json(result.next_allowance),
            **ending(state, result)}


def ending(state: Turns, result: rules.GameResult) -> dict[str, Any]:
    """The end as everyone may see it once a handed-out turn is won: ``over``, and then the
    winners, how they won (``"list"``: a fully correct list; ``"guesses"``: the earliest
    guess to find the last number) and every secret number; before: ``over`` false alone."""
    if not result.winning_turn:
        return {"over": False}
    return {"over": True, "won_by": result.reason,
            "secrets": {p: state.log["secrets"][p] for p in state.players}}


def public_view(state: Turns, facts: Mapping[str, Any]) -> View:
    """The public's: handed-out turns only, never a secret, a guessed number or a list."""
    data = handed_out(state)
    kept = published_record(data)  # each published turn played and shown once
    return View(shared(state, facts, kept.result(),
                       lambda i, _report: kept.public(i, public_turn)), data)
