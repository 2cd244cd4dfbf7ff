"""A game's journal replayed into its state, one entry at a time, by the game's own ``apply``.

Entries: ``create`` (``{"log": {...}}``, the log's header) first, then the kinds the game
declares (``ConsoleGame.entries``), and ``undo`` (``{"undoes": seq}``), which takes back the
last undoable entry since the last closing one (a published turn is amended, not undone).
Every step makes a new ``Played`` from the previous one and one row; none is changed. A row
of a kind the game lets replace (``EntryKind.replaces``: a player's repost of their orders)
takes the place of the earlier ones it replaces, here and in the store, in one transaction:
seqs only grow, with gaps where replaced rows were.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import Msg
from ..game import ConsoleGame
from ..i18n import N_
from .store import Row

CREATE = "create"
UNDO = "undo"


@dataclass(frozen=True)
class Played:
    """The game's state at one journal version, and what ``undo`` works from: the state
    after the last closing entry and the rows entered since (undone ones left out)."""

    version: int
    state: Any
    base: Any
    since: tuple[Row, ...] = ()

    def undoable(self, game: ConsoleGame) -> Row | None:
        """The row ``undo`` would take back, or None."""
        return next((row for row in reversed(self.since)
                     if (entry := game.entry(row.kind)) is not None and entry.undoable), None)


def step(game: ConsoleGame, facts: Mapping[str, Any], played: Played | None, row: Row
         ) -> Played:
    """The state after ``row``: the game's ``apply`` of it on ``played`` (None before
    ``create``); an ``undo`` replays the rows since the last closing entry without the one
    it takes back."""
    if row.kind == UNDO:
        if played is None:
            raise ValueError("a journal starts with create")
        since = tuple(r for r in played.since if r.seq != row.payload["undoes"])
        state = played.base
        for kept in since:
            state = game.apply(state, facts, kept.kind, kept.payload)
        return Played(row.seq, state, played.base, since)
    state = game.apply(played.state if played else None, facts, row.kind, row.payload)
    entry = game.entry(row.kind)
    if played is None or row.kind == CREATE or (entry is not None and entry.closes):
        return Played(row.seq, state, state)
    gone = replaced(game, played, row)
    standing = tuple(r for r in played.since if r.seq not in gone) if gone else played.since
    return Played(row.seq, state, played.base, (*standing, row))


def replaced(game: ConsoleGame, played: Played | None, row: Row) -> tuple[int, ...]:
    """The seqs of the rows ``row`` replaces in the journal (``EntryKind.replaces``): the
    earlier rows of its kind with its key in the run of rows of that kind that ends the
    entries since the last closing one. A row of another kind (the game master's orders, a
    deadline) ends the run, so that a replaced row never changes what another row read."""
    entry = game.entry(row.kind)
    if played is None or entry is None or entry.replaces is None:
        return ()
    key = entry.replaces(row.payload)
    if key is None:
        return ()
    gone: list[int] = []
    for earlier in reversed(played.since):
        if earlier.kind != row.kind:
            break
        if entry.replaces(earlier.payload) == key:
            gone.append(earlier.seq)
    return tuple(reversed(gone))


def replay(game: ConsoleGame, facts: Mapping[str, Any], rows: Iterable[Row]) -> Played:
    """The state a whole journal (rows in seq order) ends in."""
    played: Played | None = None
    for row in rows:
        played = step(game, facts, played, row)
    if played is None:
        raise ValueError("an empty journal")
    return played


def said(game: ConsoleGame, row: Row) -> Msg:
    """One line for a journal entry (what a stale client missed), said in any language; never
    a secret."""
    if row.kind == UNDO:
        return Msg(N_("entry %(entry)s undone"), entry=row.payload["undoes"])
    entry = game.entry(row.kind)
    if entry is None:
        return Msg(N_("game created"))
    return entry.said(row.payload)


def describe(game: ConsoleGame, row: Row) -> str:
    """``said`` in English (the JSON API's words)."""
    return str(said(game, row))
