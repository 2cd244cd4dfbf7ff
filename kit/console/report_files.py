"""A game's report files in the console: the very files ``kit report`` writes for the log a
viewer's view gives (``View.log``), made on first request into a folder named after that
content, so they change only when it does; and the same reports as text for an email."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..cache import private_tree, staging_folder
from ..errors import Msg
from ..game import View
from ..game.refusals import NotFound
from ..i18n import N_, words
from ..output import MANIFEST
from ..published import RECORD, check_published, record_bytes
from ..registry import game_spec
from . import engine
from .journal import Played, step
from .specs import console_of
from .store import GameRow, Row

NO_FILE = Msg(N_("there is no such report file"))


def _content_name(view: View, facts: Mapping[str, Any]) -> str:
    """A name for what the reports show: they change only when it does."""
    return hashlib.sha256(json.dumps([view.log, facts], sort_keys=True).encode()
                          ).hexdigest()[:16]


def amended(game_row: GameRow, rows: Sequence[Row]) -> bool:
    """Whether the journal changed what was handed out (then ``kit report`` keeps a record)."""
    game = console_of(game_row.kind)
    return any((entry := game.entry(row.kind)) is not None and entry.publishes
               and not entry.closes for row in rows)


def published_record(game_row: GameRow, rows: Sequence[Row]) -> dict[str, Any]:
    """The record of handed-out turns ``kit report`` keeps in its folder, rebuilt from the
    journal: each turn as first handed out, then each change to it, in order."""
    game = console_of(game_row.kind)
    report = game_spec(game_row.kind).report_part()
    if report is None or report.by_turn is None:
        raise TypeError(f"{game_row.kind} publishes turns but its reports are not turn by turn")
    snapshots = report.by_turn.snapshots
    record: dict[str, Any] = {"turns": {}, "amendments": []}
    played: Played | None = None
    for row in rows:
        played = step(game, game_row.public, played, row)
        entry = game.entry(row.kind)
        if entry is None or not entry.publishes:
            continue
        log = game.public_view(played.state, game_row.public).log or {}
        record, _ = check_published(record, snapshots(engine.check(log)),
                                    int(log.get("published", 0)), amend=True)
    return record


# one turn's files, as ``kit report --turn N`` writes them (the turn report, its private slips)
TURN_FILE = re.compile(r"(?:slips-)?turn-([1-9][0-9]{0,3})\.(?:pdf|html)")


def viewer_tag(who: str) -> str:
    """The viewer's part of a report folder's name: ``gm``, ``public`` or ``player-<digest>``
    (a name may hold any letter; its folder name does not)."""
    if who.startswith("player:"):
        return "player-" + hashlib.sha256(who.encode()).hexdigest()[:12]
    return who


def own_player(who: str) -> str | None:
    """The player whose own files a viewer's folders hold (``player:<name>``: that player's
    slips alone, never the shared or another's), else None."""
    return who.partition(":")[2] if who.startswith("player:") else None


def file_turn(name: str) -> int | None:
    """The turn of a one-turn file (``turn-3.pdf``, ``slips-turn-3.html``), else None."""
    one_turn = TURN_FILE.fullmatch(name)
    return int(one_turn[1]) if one_turn is not None else None


def report_folder(files: Path, game_row: GameRow, view: View, who: str,
                  turn: int | None = None) -> Path:
    """Where the report folder of ``who``'s view is (made or not): a folder named after the
    viewer and the content, holding the folder ``kit report`` makes (with ``turn``, the one
    ``kit report --turn N`` makes, in a folder of its own); NotFound for a turn not handed
    out."""
    if view.log is None:
        raise NotFound("file", NO_FILE)
    data = dict(view.log)
    content = files / game_row.id / f"{viewer_tag(who)}-{_content_name(view, game_row.public)}"
    if turn is None:
        return content / engine.folder_name(data)
    if turn > int(data.get("published", 0)):
        raise NotFound("file", NO_FILE)
    return content / f"turn-{turn}" / engine.folder_name(data)


def make_folder(target: Path, game: Path, data: Mapping[str, Any], game_row: GameRow,
                rows: Sequence[Row] | None, turn: int | None = None,
                player: str | None = None) -> None:
    """Write the report folder ``target`` of the log ``data`` (in a worker process; ``turn``:
    that turn's files only; ``player``: that player's own files alone): staged in the game's
    folder ``game``, then moved into place whole. ``rows``: the journal, when it changed what
    was handed out (then the record of what was, and the erratum, are made)."""
    game.mkdir(parents=True, exist_ok=True)
    with _making(game, target) as first:
        if first:
            _make(target, game, data, game_row, rows, turn, player)


@contextlib.contextmanager
def _making(game: Path, target: Path) -> Iterator[bool]:
    """Held while ``target`` is being made by this process: servers sharing the folder make
    it once (the others wait, then find it made: False). Its lock file goes with it."""
    lock = game / f".making-{hashlib.sha256(str(target).encode()).hexdigest()[:16]}"
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield not target.is_dir()
        finally:
            with contextlib.suppress(OSError):  # a waiter then finds the folder made
                os.unlink(lock)


def _make(target: Path, game: Path, data: Mapping[str, Any], game_row: GameRow,
          rows: Sequence[Row] | None, turn: int | None, player: str | None) -> None:
    staging = staging_folder(game)  # a killed process's is swept at start
    try:
        if rows is not None and turn is None and player is None:  # as first handed out
            seeded = staging / target.name
            seeded.mkdir()
            (seeded / RECORD).write_bytes(record_bytes(published_record(game_row, rows)))
            (seeded / MANIFEST).write_text(f"{RECORD}\n", encoding="utf-8")  # the kit's
        engine.write(data, out=staging, folder=target.name, paper=game_row.public["paper"],
                     lang=game_row.public["lang"], turn=turn, player=player)
        private_tree(staging / target.name)  # served by us alone, GM-only files among them
        target.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):  # another server made it first: same bytes
            os.rename(staging / target.name, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def served_path(target: Path, name: str) -> Path:
    """The file ``name`` of the made folder ``target``; NotFound when it has no such file."""
    path = (target / name).resolve()
    if not path.is_file() or target.resolve() not in path.parents:
        raise NotFound("file", NO_FILE)
    return path


def text_report(view: View, lang: str, files: str = "") -> str:
    """``view``'s reports as text for an email (``kit report --format text``), after a line
    for each turn changed since it was handed out (with the erratum's address under
    ``files``), so a player who printed it learns of it."""
    if view.log is None:
        return ""
    w = words(lang)
    data = {k: v for k, v in view.log.items() if k != "published"}
    notes = [w.gettext("Turn %(turn)s was amended after it was handed out.", turn=n) + " "
             + w.gettext("Erratum: %(link)s", link=files + "erratum.pdf")
             for n in view.data.get("amended", [])]
    text = engine.text(data, lang)
    return "\n".join(notes) + "\n\n" + text if notes else text
