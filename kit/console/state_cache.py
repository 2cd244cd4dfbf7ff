"""Games kept in memory: each game's journal and state at the latest version this server saw.

A load asks the store for the game's version (one row), and steps the kept state forward by
the journal rows since (``Store.since``), so a request costs the entries made since the last
one, not the whole game. The kept copy is never trusted without that version check: several
servers may share one database. Everything kept can be rebuilt from the journal; the kept
games are bounded by an estimate of their size in bytes, the least recently used dropped
first.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..game import ConsoleGame
from .journal import Played, replaced, replay, step
from .store import GameRow, Row

BUDGET_BYTES = 256 * 1024 * 1024  # kept games' estimated size, all games together
# Python objects for a journal byte: the rows' payloads, the state's log and the engine's
# running state built from them (measured with tracemalloc on a 100-player game: about 20)
BYTES_PER_JOURNAL_BYTE = 32
BYTES_PER_ROW = 600  # a row's own objects (its dataclass, dict and the state's step)


def row_size(row: Row) -> int:
    """A row's estimated share of a kept game, in bytes."""
    return BYTES_PER_ROW + BYTES_PER_JOURNAL_BYTE * len(json.dumps(row.payload))


@dataclass(frozen=True)
class KeptGame:
    """A game at one version: its row, its journal, its state, and the engine's running
    check of a state near it (``checked``: what checking one more entry starts from)."""

    row: GameRow
    rows: tuple[Row, ...]
    played: Played
    size: int
    checked: object = None

    @property
    def version(self) -> int:
        return self.row.version


def build(game: ConsoleGame, row: GameRow, rows: list[Row]) -> KeptGame:
    """A game kept from its whole journal."""
    return KeptGame(row, tuple(rows), replay(game, row.public, rows),
                    sum(row_size(r) for r in rows))


def forward(game: ConsoleGame, kept: KeptGame, row: GameRow, new: list[Row]) -> KeptGame:
    """``kept`` stepped by the rows after its version (``new``, in seq order; a row another
    one replaced since is not among them, and the rows each one replaces are dropped);
    ``row``: the game's row as now stored (its version is the last new row's)."""
    played, rows, size = kept.played, list(kept.rows), kept.size
    for entry in new:
        gone = replaced(game, played, entry)
        if gone:  # as the store deleted them when it appended ``entry``
            size -= sum(row_size(r) for r in rows if r.seq in gone)
            rows = [r for r in rows if r.seq not in gone]
        played = step(game, row.public, played, entry)
        rows.append(entry)
        size += row_size(entry)
    return KeptGame(row, tuple(rows), played, size, kept.checked)


class GameCache:
    """The kept games of one console, by id; thread-safe. Each value is immutable: a newer
    version replaces it, never changes it."""

    def __init__(self, budget: int = BUDGET_BYTES) -> None:
        self.budget = budget
        self._games: OrderedDict[str, KeptGame] = OrderedDict()
        self._total = 0
        self._lock = threading.Lock()

    def get(self, game_id: str) -> KeptGame | None:
        """The kept game (most recently used from now on), or None."""
        with self._lock:
            kept = self._games.get(game_id)
            if kept is not None:
                self._games.move_to_end(game_id)
            return kept

    def put(self, game_id: str, kept: KeptGame) -> None:
        """Keep ``kept`` unless a newer version is kept already; drop the least recently
        used games past the budget (a game larger than the whole budget is not kept)."""
        with self._lock:
            old = self._games.get(game_id)
            if old is not None:
                if old.version > kept.version:
                    return
                self._total -= old.size
                del self._games[game_id]
            if kept.size > self.budget:
                return
            self._games[game_id] = kept
            self._total += kept.size
            while self._total > self.budget:
                _gone, dropped = self._games.popitem(last=False)
                self._total -= dropped.size

    def note_checked(self, game_id: str, version: int, checked: object) -> None:
        """Keep the engine's running check beside the game at ``version`` (if still kept)."""
        with self._lock:
            kept = self._games.get(game_id)
            if kept is not None and kept.version == version:
                self._games[game_id] = replace(kept, checked=checked)

    @property
    def size(self) -> int:
        """The kept games' estimated size in bytes."""
        with self._lock:
            return self._total

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)


def load(kept: GameCache, game_id: str, game_of: Callable[[str], ConsoleGame], current: GameRow,
         since: Callable[[str, int], list[Row]],
         whole: Callable[[str], tuple[GameRow, list[Row]]]) -> KeptGame:
    """The game at its stored version: the kept copy when ``current`` (the stored row, read
    just now) has its version, stepped forward by ``since`` when older, else rebuilt from the
    ``whole`` journal."""
    have = kept.get(game_id)
    game = game_of(current.kind)
    fresh: KeptGame | None = None
    if have is not None and have.row.kind == current.kind:
        if have.version == current.version:
            fresh = have if have.row == current else replace(have, row=current)
        elif have.version > current.version:
            fresh = have  # checked by the load that kept it; versions only grow
        else:
            new = since(game_id, have.version)
            seqs = [have.version, *(r.seq for r in new)]
            # gaps are rows replaced since (``journal.replaced``): their replacer is in ``new``
            if new and all(a < b for a, b in zip(seqs, seqs[1:], strict=False)):
                # since() may read entries made after ``current``: the state is at the last
                fresh = forward(game, have, replace(current, version=new[-1].seq), new)
    if fresh is None:
        fresh = build(game, *whole(game_id))
    kept.put(game_id, fresh)
    return fresh
