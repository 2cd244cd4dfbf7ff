"""What's My Number?'s caps in the console, checked before any work: the guesses one row may
hold (the largest allowance a player can have, plus a few the house ruling ignores) and the
answers a whole game holds (its guesses times its players: what a check and its reports
cost). An entry and an imported log that break one are refused with a 422 naming the field;
``kit report`` reads any log the rules allow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....errors import ConfigError, KitError, Msg, Problems
from ....i18n import N_
from ..rules.model import BASE_GUESSES, MAX_LOG_PLAYERS, order_field

EXTRA_GUESSES = 3  # past the largest allowance: ignored by the house ruling, but typed
# a 100-player, 200-turn night of 3 guesses a row is 6,000,000 answers (guesses x players)
MAX_ANSWERS = 6_000_000


def row_cap(players: int) -> int:
    """The guesses a row may hold: 2, one more per other player (the most hits a turn can
    bring), and ``EXTRA_GUESSES``."""
    return BASE_GUESSES + max(players - 1, 0) + EXTRA_GUESSES


def _count(value: object) -> int:
    return len(value) if isinstance(value, (list, tuple)) else 0


def _row_problem(field: str | Msg, count: int, players: int) -> KitError:
    return ConfigError(field, Msg(N_(
        "%(count)s guesses in one row; a row takes at most %(max)s (the largest allowance "
        "with %(players)s players, and %(extra)s more)"), count=count, max=row_cap(players),
        players=players, extra=EXTRA_GUESSES))


def _game_problem(field: str, guesses: int, players: int) -> KitError:
    return ConfigError(field, Msg(N_(
        "the game would hold %(guesses)s guesses for %(players)s players, %(answers)s "
        "answers; the console takes at most %(max)s answers in a game (guesses x players)"),
        guesses=guesses, players=players, answers=guesses * players, max=MAX_ANSWERS))


def guesses_in(turns: object) -> int:
    """The guesses a log's turns hold (a list counts none)."""
    if not isinstance(turns, list):
        return 0
    return sum(_count(value) for table in turns if isinstance(table, Mapping)
               for value in table.values())


def check_orders(log: Mapping[str, Any], turn: int, orders: Mapping[str, Any]) -> None:
    """Orders for ``turn`` of a game whose log is ``log``: Problems when a row holds more
    guesses than ``row_cap`` or the game would hold more than ``MAX_ANSWERS`` answers."""
    players = len(log.get("players", ()))
    problems = [_row_problem(order_field(turn, str(name)), _count(value), players)
                for name, value in orders.items() if _count(value) > row_cap(players)]
    if not problems:
        turns = log.get("turn", [])
        was = turns[turn - 1] if isinstance(turns, list) and len(turns) >= turn else {}
        guesses = (guesses_in(turns) + sum(_count(v) for v in orders.values())
                   - sum(_count(was.get(name)) for name in orders))
        if guesses * players > MAX_ANSWERS:
            problems.append(_game_problem("orders", guesses, players))
    if problems:
        raise Problems(problems)


def log_limits(data: Mapping[str, Any]) -> list[KitError]:
    """The caps an imported log breaks (before the engine reads it); the rules' own limits
    (players, turns) are the engine's to say."""
    players = data.get("players")
    turns = data.get("turn")
    if not isinstance(players, list) or not isinstance(turns, list):
        return []
    count = min(len(players), MAX_LOG_PLAYERS)
    problems = [_row_problem(order_field(number, str(name)), _count(value), count)
                for number, table in enumerate(turns, start=1) if isinstance(table, Mapping)
                for name, value in table.items() if _count(value) > row_cap(count)]
    guesses = guesses_in(turns)
    if guesses * count > MAX_ANSWERS:
        problems.append(_game_problem("turn", guesses, count))
    return problems
