"""A game's report files in the console: the very files ``kit report`` writes for the log a
viewer's view gives (``View.log``), made on first request into a folder named after that
content, so they change only when it does; and the same reports as text for an email."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from ..cache import private_tree, staging_folder
from ..errors import Msg
from ..game import View
from ..i18n import N_, words
from ..output import MANIFEST
from ..published import RECORD, check_published, record_bytes
from ..registry import game_spec
from . import engine
from .journal import Played, step
from .refusals import NotFound
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
    snapshots = game_spec(game_row.kind).report.snapshots  # type: ignore[union-attr]
    record: dict[str, Any] = {"turns": {}, "amendments": []}
    played: Played | None = None
    for row in rows:
        played = step(game, game_row.public, played, row)
        entry = game.entry(row.kind)
        if entry is None or not entry.publishes:
            continue
        log = game.public_view(played.state, game_row.public).log or {}
        record, _ = check_published(record, snapshots(engine.check(log)),  # type: ignore[misc]
                                    int(log.get("published", 0)), amend=True)
    return record


# one turn's files, as ``kit report --turn N`` writes them (the turn report, its private slips)
TURN_FILE = re.compile(r"(?:slips-)?turn-([1-9][0-9]{0,3})\.(?:pdf|html)")


def _made(target: Path, game: Path, write: Callable[[Path, str], object],
          seed: Callable[[Path], None] | None = None) -> None:
    """The report folder ``target`` made once: written by ``write(staging, name)`` into a
    staging folder in the game's folder ``game`` (``seed`` fills it first), then moved into
    place."""
    if target.is_dir():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = staging_folder(game)  # a killed process's is swept at start
    try:
        if seed is not None:
            seed(staging / target.name)
        write(staging, target.name)
        private_tree(staging / target.name)  # served by us alone, GM-only files among them
        with contextlib.suppress(OSError):  # another request made it first: same bytes
            os.rename(staging / target.name, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _write(data: dict[str, Any], paper: str, lang: str, out: Path, folder: str,
           turn: int | None = None) -> list[Path]:
    return engine.write(data, out=out, folder=folder, paper=paper, lang=lang, turn=turn)


def report_file(files: Path, game_row: GameRow, rows: Sequence[Row], view: View, name: str) -> Path:
    """The file ``name`` of the report folder of ``view``'s log, made on first request (one
    turn's files in a folder of their own, as ``kit report --turn N`` makes them); NotFound
    when the folder has no such file."""
    if view.log is None:
        raise NotFound("file", NO_FILE)
    data = dict(view.log)
    folder = files / game_row.id / f"v{_content_name(view, game_row.public)}"
    name_of = engine.folder_name(data)
    write = partial(_write, data, game_row.public["paper"], game_row.public["lang"])
    one_turn = TURN_FILE.fullmatch(name)
    if one_turn is not None:
        turn = int(one_turn[1])
        if turn > int(data.get("published", 0)):
            raise NotFound("file", NO_FILE)
        target = folder / f"turn-{turn}" / name_of
        _made(target, folder.parent, partial(write, turn=turn))
    else:
        def seed(seeded: Path) -> None:  # the reports as first handed out: the erratum is made
            if amended(game_row, rows):
                seeded.mkdir()
                (seeded / RECORD).write_bytes(record_bytes(published_record(game_row, rows)))
                (seeded / MANIFEST).write_text(f"{RECORD}\n", encoding="utf-8")  # the kit's

        target = folder / name_of
        _made(target, folder.parent, write, seed)
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
