"""Entries that the game master and a seat post at one API path (a table's rounds: the host's
token, or that table's own): which seat may post which, checked before the game reads it.

A seat's token posts for its own seat only: the entry names the path parameter that must be
the seat's name (``EntryKind.seat_param``); the seat is then handed to the game as the
parameter ``seat``, ``[kind, name]``, so its rules may ask who is posting (a table's scorer
corrects only the table's last round). Anything else with a seat's token is refused (403).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import KitError, Msg
from ..game import ConsoleGame
from ..i18n import N_

OWN_ONLY = {"table": N_("this link is for table %(name)s only"),
            "player": N_("this link is for %(name)s only")}


class NotYours(KitError):
    """A seat's token on an entry of another seat, or on one only the game master makes
    (403); nothing changes."""


def shared_seats(games: Mapping[str, ConsoleGame], path: str) -> frozenset[str]:
    """The seat kinds whose tokens may post, beside the game master's, at API ``path``."""
    return frozenset(kind for game in games.values() for entry in game.entries
                     if entry.path == path and "gm" in entry.by and entry.seat_param
                     for kind in entry.by if kind != "gm")


def seat_params(game: ConsoleGame, kind: str, seat: tuple[str, str],
                params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with the posting seat, once it may post this entry; else ``NotYours``."""
    entry = game.entry(kind)
    if entry is None or seat[0] not in entry.by or entry.seat_param is None:
        raise NotYours("authorization", Msg(N_("this link cannot make that entry; it is the "
                                               "host's or game master's")))
    if str(params.get(entry.seat_param)) != seat[1]:
        raise NotYours("authorization", Msg(OWN_ONLY.get(seat[0], OWN_ONLY["player"]),
                                            name=seat[1]))
    return {**params, "seat": [seat[0], seat[1]]}
