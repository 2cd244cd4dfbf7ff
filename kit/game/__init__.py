"""The game contract: what a game is given (a validated ``KitConfig``) and what it provides (a
``GameSpec``: its kit, its log for ``kit report``, and its part of the game-night console,
``ConsoleGame``), with the helpers every game builds on (``names``, ``json_data``, and for its
console part ``start_form``, ``said`` and ``refusals``).

A game imports this package and the layers below it (``kit`` core, ``kit.layout``); never the
console, the server or a web library.
"""

from __future__ import annotations

from .config import KitConfig
from .console import ConsoleGame, EntryKind, FormRead, GmPage, SeatSheet, StartForm, View
from .json_data import to_json
from .names import match_names, name_problem, one_of
from .spec import GameReport, GameSpec, TurnReports

__all__ = ["ConsoleGame", "EntryKind", "FormRead", "GameReport", "GameSpec", "GmPage",
           "KitConfig", "SeatSheet", "StartForm", "View", "match_names", "name_problem",
           "TurnReports", "one_of", "to_json"]
