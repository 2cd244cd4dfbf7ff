"""About how many pages a What's My Number? report folder has, from the game's size alone
(players and handed-out turns), before it is rendered: the console's render line charges a
client that many pages (``kit.web.pool.RenderPool``'s page budget)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

REPORT_ROWS = 25  # a turn report's player rows on one page, about
REGISTER_ROWS = 40  # the register's (player, turn) rows on one page, about
SLIPS = 8  # private slips on one page


def _ceil(count: int, per_page: int) -> int:
    return -(-count // per_page)


def report_pages(log: Mapping[str, Any], turn: int | None, player: str | None = None) -> int:
    """The pages of the folder of ``log`` (``turn``: that turn's report and slips alone;
    ``player``: that player's own slips alone, a page a turn)."""
    players = len(log.get("players", ()))
    turns = 1 if turn is not None else int(log.get("published", 0))
    if not players or not turns:
        return 1
    if player is not None:
        return turns
    reports = turns * _ceil(players, REPORT_ROWS)
    slips = _ceil(players * turns, SLIPS)
    register = 0 if turn is not None else 1 + _ceil(players * turns, REGISTER_ROWS)
    return reports + slips + register
