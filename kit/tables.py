"""Seating a large party at separate tables: pure maths, tested on numbers alone.

A game with a per-table cap (lowest-unique: 3 to 12) splits a bigger party into the fewest
tables that fit, sizes differing by at most one. The number range never changes because of this.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .errors import ConfigError, Msg
from .i18n import N_


def balanced(players: int, tables: int) -> list[int]:
    """``players`` split over ``tables`` with sizes differing by at most one, largest first."""
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def table_sizes(players: int, low: int, high: int | None, tables: int | None = None) -> list[int]:
    """Table sizes for a party; ``tables`` asks for that many explicitly.

    Without ``tables``: one table when the game has no cap or the party fits, else the fewest
    tables of at most ``high`` players. With it: exactly that many, or a ``tables`` error.
    """
    if tables is None:
        if high is None or players <= high:
            return [players]
        tables = math.ceil(players / high)
    sizes = balanced(players, tables)
    if sizes[-1] < low or (high is not None and sizes[0] > high):
        fewest = math.ceil(players / high) if high is not None else 1
        most = players // low
        per_table = (Msg(N_("%(lo)s to %(hi)s"), lo=low, hi=high) if high is not None
                     else Msg(N_("at least %(lo)s"), lo=low))
        values = {"players": players, "tables": str(tables), "seats": per_table}
        if fewest > most:
            said = Msg(N_("%(players)s players cannot be seated at tables of %(seats)s players; "
                          "got %(tables)s"), **values)
        elif fewest == most:
            said = Msg(N_("%(players)s players need exactly %(fewest)s tables of %(seats)s "
                          "players; got %(tables)s (or leave it empty)"), fewest=fewest, **values)
        else:
            said = Msg(N_("%(players)s players need %(fewest)s to %(most)s tables of %(seats)s "
                          "players; got %(tables)s (or leave it empty)"), fewest=fewest, most=most,
                       **values)
        raise ConfigError("tables", said)
    return sizes


def deal(names: Sequence[str], sizes: Sequence[int], seed: int | None = None) -> list[list[str]]:
    """Seat names at tables in the order given (table 1 first), or shuffled by ``seed``."""
    order = list(names)
    if seed is not None:
        random.Random(seed).shuffle(order)
    seated: list[list[str]] = []
    start = 0
    for size in sizes:
        seated.append(order[start:start + size])
        start += size
    return seated


def seating_pages(
    tables: Sequence[tuple[str, Sequence[str]]], lines_per_page: int = 40, chars_per_line: int = 90
) -> list[list[tuple[str, list[str]]]]:
    """Split a seating list into pages by an estimate of printed lines (heading + names)."""
    pages: list[list[tuple[str, list[str]]]] = [[]]
    used = 0
    for label, names in tables:
        lines = 2 + math.ceil(len(" · ".join(names)) / chars_per_line)
        if pages[-1] and used + lines > lines_per_page:
            pages.append([])
            used = 0
        pages[-1].append((label, list(names)))
        used += lines
    return pages
