"""A game's journal folded into the TOML-shaped log dict that ``kit report`` reads.

Only data handling lives here; every rule is the engine's (``engine.check``). Entry kinds:

- ``create``  ``{"log": {...}}``: the log's header (players, range, secrets, tables, ...)
- ``orders``  ``{"turn": n, "orders": {player: orders}}``: What's My Number? orders for the open
  turn; a player posted again is replaced
- ``round``   ``{"table": t, "round": r, "choices": {...}}``: a Lowest Unique Number round
- ``publish`` ``{"turn": n}``; ``amend`` ``{"turn": n, "orders": {player: orders | None}}``
- ``undo``    ``{"undoes": seq}``: takes back one earlier ``orders`` or ``round`` entry
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import Msg
from ..i18n import N_
from .store import Row

WMN = "whats-my-number"
LUN = "lowest-unique"


@dataclass
class Folded:
    """What the journal says: the log dict (every entry), and what was published."""

    kind: str
    log: dict[str, Any]
    published: int = 0
    open_entries: list[int] = field(default_factory=list)  # seqs of undoable entries, in order
    turn_players: dict[int, list[str]] = field(default_factory=dict)  # who sent orders, by turn
    amended: list[int] = field(default_factory=list)  # turns amended after publish, in order

    @property
    def open_turn(self) -> int:
        """The turn that entries go to: the first unpublished one."""
        return self.published + 1

    def public_log(self) -> dict[str, Any]:
        """The log as handed out: What's My Number? turns up to the published one only."""
        if self.kind != WMN:
            return copy.deepcopy(self.log)
        data = copy.deepcopy(self.log)
        data["turn"] = data.get("turn", [])[: self.published]
        if not data["turn"]:
            del data["turn"]
        data["published"] = self.published
        return data

    def export_log(self) -> dict[str, Any]:
        """The whole log (with the open turn's entries) and, for What's My Number?, published."""
        data = copy.deepcopy(self.log)
        if self.kind == WMN:
            data["published"] = self.published
        return data


def _turns(log: dict[str, Any], upto: int) -> list[dict[str, Any]]:
    turns = log.setdefault("turn", [])
    while len(turns) < upto:
        turns.append({})
    return turns


def apply_orders(log: dict[str, Any], turn: int, orders: Mapping[str, Any]) -> None:
    """Record ``orders`` for ``turn`` (``None`` removes a player's orders)."""
    table = _turns(log, turn)[turn - 1]
    for player, value in orders.items():
        if value is None:
            table.pop(player, None)
        else:
            table[player] = value


def apply_round(log: dict[str, Any], table: int, number: int, choices: Mapping[str, Any]) -> None:
    """Record a Lowest Unique Number round (the append-friendly ``[[round]]`` form)."""
    log.setdefault("round", []).append({"table": table, "round": number,
                                        "choices": dict(choices)})


def _tidy(log: dict[str, Any]) -> None:
    """Trailing empty turns are no turns (an undone entry may leave one)."""
    turns = log.get("turn")
    if turns is None:
        return
    while turns and not turns[-1]:
        turns.pop()
    if not turns:
        del log["turn"]


def fold(kind: str, rows: Sequence[Row]) -> Folded:
    """Replay the journal ``rows`` (in seq order) into a ``Folded``."""
    undone = {row.payload["undoes"] for row in rows if row.kind == "undo"}
    folded = Folded(kind, {})
    for row in rows:
        if row.seq in undone or row.kind == "undo":
            continue
        payload = row.payload
        if row.kind == "create":
            folded.log = copy.deepcopy(payload["log"])
        elif row.kind == "orders":
            apply_orders(folded.log, payload["turn"], payload["orders"])
            folded.open_entries.append(row.seq)
            folded.turn_players.setdefault(payload["turn"], [])
            folded.turn_players[payload["turn"]] += list(payload["orders"])
        elif row.kind == "round":
            apply_round(folded.log, payload["table"], payload["round"], payload["choices"])
            folded.open_entries.append(row.seq)
        elif row.kind == "publish":
            folded.published = payload["turn"]
            _turns(folded.log, payload["turn"])
            folded.open_entries.clear()  # a published turn is amended, not undone
        elif row.kind == "amend":
            apply_orders(folded.log, payload["turn"], payload["orders"])
            if payload["turn"] not in folded.amended:
                folded.amended.append(payload["turn"])
    if kind == WMN:
        # A published turn in which nobody sent orders is still a turn: keep it as {}.
        turns = folded.log.get("turn", [])
        keep = max(folded.published, max((i + 1 for i, t in enumerate(turns) if t), default=0))
        if turns:
            del turns[keep:]
        if folded.published == 0:
            _tidy(folded.log)
    return folded


def said(row: Row) -> Msg:
    """One line for a journal entry (what a stale client missed), said in any language; never
    a secret."""
    payload = row.payload
    if row.kind == "orders":
        return Msg(N_("turn %(turn)s: orders for %(names)s"), turn=payload["turn"],
                   names=", ".join(payload["orders"]))
    if row.kind == "round":
        return Msg(N_("table %(table)s, round %(round)s: choices entered"),
                   table=payload["table"], round=payload["round"])
    if row.kind == "publish":
        return Msg(N_("turn %(turn)s published"), turn=payload["turn"])
    if row.kind == "amend":
        return Msg(N_("turn %(turn)s amended for %(names)s"), turn=payload["turn"],
                   names=", ".join(payload["orders"]))
    if row.kind == "undo":
        return Msg(N_("entry %(entry)s undone"), entry=payload["undoes"])
    return Msg(N_("game created"))


def describe(row: Row) -> str:
    """``said`` in English (the JSON API's words)."""
    return str(said(row))
