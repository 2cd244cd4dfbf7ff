"""Reports already handed out: a record of them in the report folder, and what a log change
would alter in them.

A log says how far its reports were handed out (``published = N``). ``kit report`` keeps, in
the report folder, a snapshot of each published turn as it was first printed
(``published.json``: turn -> rows -> columns -> value, as a game's ``GameReport.snapshots``
gives them). A later run compares the log's new snapshots with that record: a change to any
cell of a published turn is refused, every changed cell listed, unless the game master amends
(``--amend``): then the amendment is recorded and the record follows the log.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .errors import GameLogError, OutputError, Problems, shown_path

RECORD = "published.json"
MISSING = "(none)"  # a row or cell a report did not have


@dataclass(frozen=True)
class CellChange:
    """One cell of a published report that a log change alters."""

    turn: int
    row: str
    column: str
    old: str
    new: str

    def __str__(self) -> str:
        return f"turn {self.turn}, row {self.row}, column {self.column}: {self.old} -> {self.new}"


@dataclass(frozen=True)
class Amendment:
    """A correction of a turn already handed out: the cells it changes (the erratum)."""

    turn: int
    changes: tuple[CellChange, ...]


def diff_snapshots(old: Mapping, new: Mapping) -> list[CellChange]:
    """Every cell that differs between two snapshots of one turn, in the old rows' order
    (rows only in the new one after), columns in order."""
    turn = int(old.get("turn", new.get("turn", 0)))
    old_rows, new_rows = old.get("rows", {}), new.get("rows", {})
    changes = []
    for row in [*old_rows, *(r for r in new_rows if r not in old_rows)]:
        before, after = old_rows.get(row, {}), new_rows.get(row, {})
        for column in [*before, *(c for c in after if c not in before)]:
            was = str(before[column]) if column in before else MISSING
            now = str(after[column]) if column in after else MISSING
            if was != now:
                changes.append(CellChange(turn, row, column, was or "-", now or "-"))
    return changes


def read_record(folder: Path) -> dict:
    """The record of published turns in a report folder (empty when there is none yet)."""
    path = folder / RECORD
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"turns": {}, "amendments": []}
    except (OSError, ValueError) as exc:
        raise OutputError("out", f"cannot read {shown_path(path)}: {exc}; move it away to "
                          "start the record of published reports afresh") from None
    if not isinstance(data, dict) or not isinstance(data.get("turns"), dict):
        raise OutputError("out", f"{shown_path(path)} is not a record of published reports; "
                          "move it away to start afresh")
    data.setdefault("amendments", [])
    return data


def check_published(record: Mapping, snapshots: Mapping[int, Mapping], published: int,
                    amend: bool) -> tuple[dict, tuple[Amendment, ...]]:
    """The new record and the amendments of this run; a change to a published turn without
    ``amend`` raises every changed cell at once (``GameLogError`` per cell)."""
    turns = dict(record.get("turns", {}))
    amendments: list[Amendment] = []
    for number in sorted(snapshots):
        if number > published:
            continue
        new = snapshots[number]
        old = turns.get(str(number))
        changes = diff_snapshots(old, new) if old is not None else []
        if changes:
            amendments.append(Amendment(number, tuple(changes)))
        turns[str(number)] = new
    if amendments and not amend:
        problems = [GameLogError(f"turn {c.turn}, row {c.row}, column {c.column}",
                                 f"{c.old} -> {c.new} in a report already handed out "
                                 f"(published = {published}); run again with --amend to "
                                 "print an erratum") for a in amendments for c in a.changes]
        raise problems[0] if len(problems) == 1 else Problems(problems)
    history = [*record.get("amendments", []),
               *({"turn": a.turn, "changes": [vars(c) for c in a.changes]}
                 for a in amendments)]
    ordered = {key: turns[key] for key in sorted(turns, key=int)}
    return {"published": published, "turns": ordered, "amendments": history}, tuple(amendments)


def recorded_amendments(record: Mapping) -> tuple[Amendment, ...]:
    """Every amendment a record holds, oldest first (the register lists them all)."""
    found = []
    for entry in record.get("amendments", []):
        changes = tuple(CellChange(**change) for change in entry.get("changes", []))
        found.append(Amendment(int(entry["turn"]), changes))
    return tuple(found)


def record_bytes(record: Mapping) -> bytes:
    """The record as written (its keys in a fixed order: turns by number, rows as reported)."""
    return (json.dumps(record, ensure_ascii=False, indent=1) + "\n").encode()
