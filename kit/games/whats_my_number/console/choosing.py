"""Secret numbers chosen before turn 1: a player's own choice from their link
(``POST /api/games/ID/secret``) and the game master's for a player on paper
(``POST /api/games/ID/secrets``, a number or "draw").

Two players may hold the same number (the kit's house rules: each column is answered on its
own), so a choice is never refused for being another's: no answer tells a player anything of
another's number. A choice may change until turn 1 takes its first orders.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....errors import ConfigError, KitError, Msg, Problems, shown
from ....game import EntryKind, match_names
from ....game.refusals import Closed
from ....i18n import N_
from ..rules.model import is_int
from .player import log_range
from .state import Turns, secret_open

DRAW = "draw"  # the game master's value: keep the number drawn for that player


def _open(state: Turns) -> None:
    """Refuse (409) a choice once turn 1 has begun (orders entered, or a turn published)."""
    if not secret_open(state):
        raise Closed("secret", Msg(N_(
            "turn 1 has begun: the secret numbers can no longer change")))


def _number(state: Turns, field: str, value: object) -> int:
    """A secret number in the game's range, or the problem naming ``field`` and the range."""
    lo, hi = log_range(state)
    if not is_int(value) or not lo <= value <= hi:
        raise Problems([ConfigError(field, Msg(N_(
            "give a whole number from %(lo)s to %(hi)s; got %(got)s"), lo=lo, hi=hi,
            got=str(value) if is_int(value) else shown(str(value))))])
    return value


def player_payload(state: Turns, body: Mapping[str, Any], params: Mapping[str, Any]
                   ) -> dict[str, Any]:
    """A player's own ``{"secret": n}`` -> the journal's payload."""
    player = str(params["player"])
    problems: list[KitError] = [
        ConfigError(str(key)[:40], Msg(N_("is not a field here; give your secret number")))
        for key in body if key not in ("secret", "version")]
    if problems:
        raise Problems(problems)
    number = _number(state, "secret", body.get("secret"))
    _open(state)
    return {"secrets": {player: number}, "by": "player"}


def gm_payload(state: Turns, body: Mapping[str, Any], params: Mapping[str, Any]
               ) -> dict[str, Any]:
    """The game master's ``{"secrets": {"Ann": 12, "Bob": "draw"}}`` -> the payload: the
    number typed, or the one drawn for that player at the start."""
    given = body.get("secrets")
    if not isinstance(given, Mapping) or not given:
        raise Problems([ConfigError("secrets", Msg(N_(
            'give an object of name: number or "draw", like {"Ann": 12, "Bob": "draw"}')))])
    named = match_names(given, state.players, "secrets")
    drawn = state.log.get("secrets", {})
    chosen: dict[str, int] = {}
    problems: list[KitError] = []
    for player, value in named.items():
        if player not in state.players:
            problems.append(ConfigError(f"secrets.{player[:40]}", Msg(N_(
                "is not a player; players are %(players)s"), players=", ".join(state.players))))
            continue
        try:
            chosen[player] = int(drawn[player]) if value == DRAW else \
                _number(state, f"secrets.{player}", value)
        except Problems as exc:
            problems += exc.problems
    if problems:
        raise Problems(problems)
    _open(state)
    return {"secrets": chosen, "by": "gm"}


def _answer(before: Turns, after: Turns, payload: Mapping[str, Any], recorded: bool
            ) -> dict[str, Any]:
    if payload.get("by") == "player":  # the player's own number, and who is still choosing
        (player, number), = payload["secrets"].items()
        return {"player": player, "secret": number, "waiting": bool(after.choosing)}
    return {"secrets": dict(payload["secrets"]), "choosing": list(after.choosing)}


ENTRIES = (
    # a changed choice replaces the player's earlier one: one row a player, not a post
    EntryKind("secret", "secret", player_payload, _answer, by=("player",),
              replaces=lambda p: tuple(sorted(p["secrets"])),
              said=lambda p: Msg(N_("secret number chosen by %(names)s"),
                                 names=", ".join(p["secrets"]))),
    EntryKind("secrets", "secrets", gm_payload, _answer, status=200,
              said=lambda p: Msg(N_("secret number set by the game master for %(names)s"),
                                 names=", ".join(p["secrets"]))),
)
