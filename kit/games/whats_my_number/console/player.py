"""What's My Number? players in the console: the orders a player sends from their own link,
the game master's close, reopen and deadline of the open turn, and what the player's view adds
of their own (this turn's allowance, their orders as received with the rulings they will get,
the deadline, a slip per published turn).

A forecast is played by the rules engine on the handed-out turns plus this player's orders
alone: it reads the player's rulings, never an answer (an answer before the turn is published
would be a free guess) and never another player's orders.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from ....errors import ConfigError, KitError, Msg, Problems, ngettext, shown
from ....game import EntryKind, View, match_names, to_json
from ....game.refusals import Closed
from ....i18n import N_, Words, words
from .. import rules
from ..report.slips import slip_lines
from .limits import check_orders
from .record import record, with_turn
from .state import Turns, check_chosen, handed_out, replacing, shared

KEPT = 512  # handed-out games and slips kept (a publish or an amendment makes new ones)
_KEPT: OrderedDict[Any, Any] = OrderedDict()
_LOCK = threading.Lock()
MAX_GUESSES = 40  # a player's post: more than any allowance (2 + the players found last turn)
BODY_KEYS = frozenset({"guesses", "list", "turn", "version"})
DEADLINE_MAX = 40


def stamp(at: float | None) -> str | None:
    """A journal time as ISO 8601 in UTC ("2026-12-03T20:14:05Z"), or None."""
    if at is None:
        return None
    return datetime.fromtimestamp(float(at), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _kept(key: Any, make: Any) -> Any:
    """``make()``, kept by ``key``: what the handed-out turns give changes only on a publish or
    an amendment, not with each player's post (the views themselves are kept per version)."""
    with _LOCK:
        if key in _KEPT:
            _KEPT.move_to_end(key)
            return _KEPT[key]
    value = make()
    with _LOCK:
        _KEPT[key] = value
        while len(_KEPT) > KEPT:
            _KEPT.popitem(last=False)
    return value


class Same:
    """A key that is one object itself (equal only to a key of the very same object): a
    record of the handed-out turns, which the key keeps alive, so its id is never reused."""

    __slots__ = ("of",)

    def __init__(self, of: object) -> None:
        self.of = of

    def __hash__(self) -> int:
        return id(self.of)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.of is self.of


def handed(state: Turns) -> tuple[dict[str, Any], Same, rules.GameResult, rules.GameLog]:
    """The handed-out log, its key, the game it plays and the log parsed: from the kept
    record of the handed-out turns (the one the game's pages play), which is the same object
    until a publish or an amendment, so a key of it costs nothing (writing out a 200-turn
    log to key it cost 50 ms a post)."""
    data = handed_out(state)
    kept = record(data)
    return data, Same(kept), kept.result(), kept.checked.log


def won(state: Turns) -> bool:
    """Whether a handed-out turn was won (no more orders go anywhere)."""
    return bool(handed(state)[2].winners)


def _still_open(state: Turns, body: Mapping[str, Any]) -> None:
    """Refuse (409) a post for a turn that is closed, over, or not the open one."""
    sent_for = body.get("turn")
    if sent_for is not None and (isinstance(sent_for, bool) or not isinstance(sent_for, int)):
        raise Problems([ConfigError("turn", Msg(N_(
            "must be a whole number (the turn your orders are for)")))])
    if won(state):
        raise Closed("turn", Msg(N_("the game is over: it takes no more orders")))
    if sent_for is not None and sent_for != state.open_turn:
        raise Closed("turn", Msg(N_(
            "your orders were for turn %(sent)s, which is over; turn %(turn)s is open"),
            sent=sent_for, turn=state.open_turn))
    if state.closed:
        raise Closed("turn", Msg(N_(
            "turn %(turn)s is closed: the game master takes no more changes"),
            turn=state.open_turn))


def _order(state: Turns, player: str, body: Mapping[str, Any], problems: list[KitError]
           ) -> Any:
    """The orders of a player's body, as the log writes them; raises every problem found
    when there are none to check further."""
    if ("guesses" in body) == ("list" in body):
        problems.append(ConfigError("orders", Msg(N_(
            'give your guesses, like "guesses": [17, 33], or a list, like "list": '
            '{"Ann": 12, "Bob": 30}; one of the two'))))
        raise Problems(problems)
    if "guesses" in body:
        guesses = body["guesses"]
        if not isinstance(guesses, list):
            problems.append(ConfigError("guesses", Msg(N_(
                "give a list of whole numbers, like [17, 33]; got %(got)s"),
                got=shown(str(guesses)))))
        elif len(guesses) > MAX_GUESSES:
            problems.append(ConfigError("guesses", Msg(N_(
                "%(count)s guesses; a post takes at most %(max)s"), count=len(guesses),
                max=MAX_GUESSES)))
        if not isinstance(guesses, list) or len(guesses) > MAX_GUESSES:
            raise Problems(problems)
        return list(guesses)
    if not isinstance(body["list"], Mapping) or len(body["list"]) > len(state.players):
        problems.append(ConfigError("list", Msg(N_(
            "give each other player's number once, like {\"Ann\": 12, \"Bob\": 30}"))))
        raise Problems(problems)
    return {"list": match_names(body["list"], state.players, "list")}


def sent_payload(state: Turns, body: Mapping[str, Any], params: Mapping[str, Any]
                 ) -> dict[str, Any]:
    """A player's own post -> the journal's payload: their orders for the open turn."""
    player = str(params["player"])
    problems: list[KitError] = [
        ConfigError(str(key)[:40], Msg(N_("is not a field here; give guesses or a list")))
        for key in body if key not in BODY_KEYS]
    order = _order(state, player, body, problems)  # a bad body is 422, open turn or not
    check_orders(state.log, state.open_turn, {player: order})  # before any play
    if problems:  # with the engine's own problems of these orders: every problem at once
        data = handed_out(state)
        trial = {**data, "turn": [*data.get("turn", []), {player: order}]}
        try:  # the open turn played on the kept record: a bad post costs that turn
            with_turn(record(data), trial)
        except Problems as exc:
            problems += exc.problems
        raise Problems(problems)
    _still_open(state, body)
    check_chosen(state)
    return {"turn": state.open_turn, "orders": {player: order}, "by": "player",
            "at": round(time.time(), 3), **replacing(state, player, order)}


def forecast(state: Turns, player: str) -> tuple[int | None, list[rules.Ruling]]:
    """The player's allowance this turn and the rulings their orders as received will get."""
    data, _, before, _ = handed(state)
    if before.winners:
        return None, []
    allowance = int(dict(before.next_allowance).get(player, rules.BASE_GUESSES))
    order = state.orders(state.open_turn).get(player)
    if order is None:
        return allowance, []
    # the open turn with this player's orders alone, played on the kept record of the handed-out
    # turns: a forecast costs that turn, not the game (the engine reads the tables, never
    # changes them)
    trial = {**data, "turn": [*data.get("turn", []), {player: order}]}
    try:
        report = with_turn(record(data), trial).played[state.open_turn - 1]
    except (KitError, IndexError):  # orders the engine refused are never recorded
        return allowance, []
    return allowance, [r for r in report.rulings if r.player == player and r.kind != "no-orders"]


def ruling_said(ruling: rules.Ruling, lo: int, hi: int) -> list[Msg]:
    """A forecast ruling as the player reads it, one line per fact."""
    if ruling.kind == "extra-guesses":
        count = ruling.allowed + len(ruling.positions)
        return [ngettext("%(guesses)s guesses, %(allowed)s allowed: guess %(positions)s will be "
                         "ignored", "%(guesses)s guesses, %(allowed)s allowed: guesses "
                         "%(positions)s will be ignored", len(ruling.positions), guesses=count,
                         allowed=ruling.allowed,
                         positions=", ".join(str(p) for p in ruling.positions))]
    if ruling.kind == "out-of-range":
        return [Msg(N_("%(number)s is outside %(lo)s to %(hi)s: void"), number=str(number),
                    lo=lo, hi=hi) for number in ruling.numbers]
    if ruling.kind == "partial-list":
        return [Msg(N_("your list leaves out %(names)s: its right numbers count, but it cannot "
                       "win"), names=", ".join(ruling.missing))]
    return []


def repeated(order: Any) -> list[Msg]:
    """A hint per number guessed more than once in ``order``: the answers to a number are the
    same each time, so the guess after the first is spent for nothing."""
    if not isinstance(order, list):
        return []
    numbers = [n for n in order if isinstance(n, int) and not isinstance(n, bool)]
    twice = sorted({n for n in numbers if numbers.count(n) > 1}, key=numbers.index)
    return [Msg(N_("%(number)s is guessed twice: the second tells you nothing new"),
                number=str(n)) for n in twice]


def rulings_json(rulings: list[rules.Ruling], lo: int, hi: int) -> list[dict[str, Any]]:
    """The rulings as the API gives them: the engine's fields, and each line in English."""
    out = []
    for ruling in rulings:
        data = {k: v for k, v in to_json(ruling).items() if k not in ("turn", "player")}
        out.append({**data, "text": [str(m) for m in ruling_said(ruling, lo, hi)]})
    return out


def sent_answer(before: Turns, after: Turns, payload: Mapping[str, Any], recorded: bool
                ) -> dict[str, Any]:
    """A player's post -> 201 ``{"turn", "orders", "allowance", "rulings"}``."""
    (player, order), = payload["orders"].items()
    allowance, rulings = forecast(after, player)
    lo, hi = log_range(after)
    return {"turn": payload["turn"], "orders": order, "allowance": allowance,
            "rulings": rulings_json(rulings, lo, hi),
            "hints": [str(m) for m in repeated(order)]}


def log_range(state: Turns) -> tuple[int, int]:
    # the header alone gives the range: parsing the turns too would play the whole game
    return rules.parse_game_log({k: v for k, v in state.log.items()
                                 if k not in ("published", "turn")}).range


def _open_turn(state: Turns, params: Mapping[str, Any]) -> int:
    turn = params.get("turn")
    if turn != state.open_turn or won(state):
        raise Closed("turn", Msg(N_("turn %(turn)s is not the open turn (%(open)s)"),
                                 turn=str(turn), open=state.open_turn))
    return state.open_turn


def close_payload(state: Turns, body: Mapping[str, Any], params: Mapping[str, Any]
                  ) -> dict[str, Any]:
    """Close the open turn to the players (the game master can still enter any row)."""
    return {"turn": _open_turn(state, params)}


def deadline_payload(state: Turns, body: Mapping[str, Any], params: Mapping[str, Any]
                     ) -> dict[str, Any]:
    """The open turn's deadline: an ISO 8601 date and time ("2026-12-04T20:00", an offset
    may follow), or null to remove it; left out, the deadline stays as it is. Shown to the
    players; it closes nothing by itself."""
    turn = _open_turn(state, params)
    if "deadline" not in body:  # only an explicit null or "" removes it
        return {"turn": turn, "deadline": state.deadlines.get(turn)}
    given = body["deadline"]
    if given is None or given == "":
        return {"turn": turn, "deadline": None}
    try:
        if not isinstance(given, str) or len(given) > DEADLINE_MAX:
            raise ValueError
        when = datetime.fromisoformat(given)
    except ValueError:
        raise Problems([ConfigError("deadline", Msg(N_(
            "%(got)s is not a date and time; give one like 2026-12-04T20:00"),
            got=shown(str(given))))]) from None
    return {"turn": turn, "deadline": when.isoformat(timespec="minutes")}


ENTRIES = (
    # a repost replaces the player's earlier post of the turn: one row a player, not a post
    EntryKind("sent", "orders", sent_payload, sent_answer, by=("player",),
              replaces=lambda p: (p["turn"], *sorted(p["orders"])),
              said=lambda p: Msg(N_("turn %(turn)s: orders sent by %(names)s"), turn=p["turn"],
                                 names=", ".join(p["orders"]))),
    EntryKind("close", "turns/{turn:int}/close", close_payload,
              lambda before, after, p, recorded: {"closed": p["turn"]}, status=200,
              said=lambda p: Msg(N_("turn %(turn)s closed to the players"), turn=p["turn"])),
    EntryKind("reopen", "turns/{turn:int}/reopen", close_payload,
              lambda before, after, p, recorded: {"reopened": p["turn"]}, status=200,
              said=lambda p: Msg(N_("turn %(turn)s reopened to the players"), turn=p["turn"])),
    EntryKind("deadline", "turns/{turn:int}/deadline", deadline_payload,
              lambda before, after, p, recorded: {"turn": p["turn"], "deadline": p["deadline"]},
              status=200,
              said=lambda p: Msg(N_("turn %(turn)s: deadline %(deadline)s"), turn=p["turn"],
                                 deadline=p["deadline"] or "-")),
)


def player_view(state: Turns, facts: Mapping[str, Any], player: str) -> View:
    """One player's: the shared standings, and of their own only: their secret, the open turn
    (allowance, their orders as received, the rulings they will get, the deadline) and a slip
    per handed-out turn (never another's orders, never an answer to an open turn). The shared
    reports are the public view's, kept once for every player (a 100-player game's are
    megabytes: in each player's view they would be made and kept a hundred times)."""
    if player not in state.players:
        raise Problems([ConfigError("player", Msg(N_("there is no such player")))])
    data, key, result, log = handed(state)
    lang = str(facts.get("lang", "en"))
    mine = own_part(state, player, log, list(result.turns[: state.published]), words(lang),
                    key)
    secret = None if player in state.choosing else state.log.get("secrets", {}).get(player)
    common = _kept((key, "shared", lang, tuple(state.amended)),
                   lambda: {k: v for k, v in shared(state, facts, result).items()
                            if k != "turns"})
    choice = {"secrets_by": facts.get("secrets_by", "gm"),
              "choosing": player in state.choosing,  # their own number still to choose
              "waiting_for_secrets": bool(state.choosing),  # turn 1 waits (never for whom)
              # whether theirs may still change, as far as this player may know: another
              # player's first orders close it too, which no player's view may tell
              "secret_open": facts.get("secrets_by", "gm") == "players"
              and not state.published}
    return View({**common, "secret": secret, **choice, **mine, "published": state.published},
                data)


def own_part(state: Turns, player: str, log: rules.GameLog,
             published: list[rules.TurnReport], words: Words, key: Same) -> dict[str, Any]:
    """What the player's view adds of their own: the open turn, and a slip per published
    turn (their orders, rulings and the slip's text; kept by the handed-out log's ``key``)."""
    lo, hi = log.range
    allowance, rulings = forecast(state, player)
    turn = state.open_turn
    order = state.orders(turn).get(player) if allowance is not None else None
    mark = state.entered.get(player) if order is not None else None
    slips = _kept((key, "slips", player, words.lang), lambda: [
        {"turn": t.number, "orders": to_json(state.orders(t.number).get(player)),
         "rulings": [to_json(r) for r in t.rulings if r.player == player],
         "text": "\n".join(text for text, _ in slip_lines(log, t, player, words))}
        for t in published])
    return {"player": player, "turn": turn if allowance is not None else None,
            "allowance": allowance, "orders": to_json(order),
            "rulings": rulings_json(rulings, lo, hi),
            "entered": None if mark is None else {
                "by": mark.get("by"), "at": stamp(mark.get("at")),
                **({"replaced": {"orders": to_json(mark["replaced"]["orders"]),
                                 "by": mark["replaced"].get("by"),
                                 "at": stamp(mark["replaced"].get("at"))}}
                   if mark.get("replaced") else {})},
            "closed": state.closed or allowance is None, "over": allowance is None,
            "deadline": state.deadlines.get(turn) if allowance is not None else None,
            "slips": slips}
