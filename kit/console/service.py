"""The game-night console's service: games kept as journals, checked by the one engine.

Used by the JSON API (``kit.console.api``) and the HTML pages alike. A game's state is its
journal replayed (``replay.fold``) into the TOML-shaped log dict that ``kit report`` reads and
checked by the same engine (``engine.check``). Every state-changing call takes the journal
version the caller saw (``None``: whatever is current); a stale one raises ``Conflict`` with the
entries since, and changes nothing.
"""

from __future__ import annotations

import contextlib
import copy
import os
import secrets as random_source
import shutil
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from ..errors import ConfigError, GameLogError, KitError, Msg, Problems
from ..i18n import N_
from ..output import MANIFEST
from ..published import RECORD, record_bytes
from ..tomlhelp import explained
from . import engine
from .games import check_new_game, import_entries, match_names
from .replay import LUN, WMN, Folded, apply_orders, apply_round, describe, fold, said
from .store import Missing, Stale, Store, database_url, make_engine, migrate
from .tokens import new_game_id, new_token, token_hash, token_matches

RETRIES = 30  # an append without a version retries this often on a race, then reports 409
REPORT_FOLDER = "game-reports"  # what `kit report game.toml` names its folder (no title)
NO_GAME = Msg(N_("there is no game with that id"))


class NotFound(KitError):
    """No game with that id (404)."""


class Conflict(KitError):
    """A stale version (409): ``version`` is the current one, ``changes`` what came since."""

    def __init__(self, version: int, changes: list[dict[str, Any]],
                 said: list[Msg] | None = None) -> None:
        super().__init__("version", Msg(N_("the game changed since you loaded it (now version "
                                           "%(version)s); reload and enter again"),
                                        version=str(version)))
        self.version = version
        self.changes = changes
        self.said = said or []  # the changes, each a Msg a page says in its language

    def __reduce__(self):
        return (type(self), (self.version, self.changes, self.said))


@dataclass(frozen=True)
class Created:
    """A new game: its id, the GM token (shown once, never stored) and the journal version."""

    id: str
    gm_token: str
    version: int


@dataclass(frozen=True)
class Entry:
    """What an accepted entry did: the new version and what the GM should see at once."""

    version: int
    turn: int | None = None  # What's My Number?: the open turn the orders went to
    table: int | None = None  # Lowest Unique Number: the table and round entered
    round: int | None = None
    received: tuple[str, ...] = ()  # players with orders in the open turn
    missing: tuple[str, ...] = ()  # players without
    tally: dict[str, Any] | None = None  # the round's tally (choices, cancelled, winner, ...)
    report: dict[str, Any] | None = None  # the engine's report of the open turn (GM view)


@dataclass(frozen=True)
class GameState:
    """Everything the GM sees: the game's facts, its log dict, and the engine's result."""

    id: str
    kind: str
    title: str
    lang: str
    paper: str
    version: int
    log: dict[str, Any]
    published: int
    open_turn: int
    players: tuple[str, ...]
    received: tuple[str, ...]
    tables: tuple[tuple[str, ...], ...] = ()
    rounds_entered: dict[int, int] = field(default_factory=dict)  # LU: table -> rounds
    result: Any = None  # What's My Number?: GameResult; Lowest Unique Number: PartyLog
    entries: tuple[dict[str, Any], ...] = ()  # the journal, described (English: the API's)
    journal: tuple[tuple[int, Msg], ...] = ()  # (version, what it did) for pages
    last_entry: dict[str, Any] | None = None  # what undo takes back: kind, turn/table, round

    @property
    def missing(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.received)


def _undoable(folded: Folded, rows: list) -> dict[str, Any] | None:
    """The entry ``undo`` would take back (kind, and its turn or table and round), or None."""
    if not folded.open_entries:
        return None
    last = next(r for r in rows if r.seq == folded.open_entries[-1])
    keys = ("turn", "table", "round")
    return {"kind": last.kind, **{k: last.payload[k] for k in keys if k in last.payload}}


class Console:
    """The console over one store; thread-safe (each call is its own transaction)."""

    def __init__(self, store: Store, files: Path) -> None:
        self.store = store
        self.files = files
        self._cache: OrderedDict[tuple[str, int, str], Any] = OrderedDict()
        self._lock = threading.Lock()

    # --- games -------------------------------------------------------------------------------


    @property
    def stored_locally(self) -> bool:
        """Whether the games are kept in a SQLite file on the computer running the console
        (not in a PostgreSQL server that may be elsewhere)."""
        return self.store.engine.dialect.name == "sqlite"

    def create_game(self, spec: Mapping[str, Any]) -> Created:
        """A new game from an API/form spec (see ``games.check_new_game``); raises Problems."""
        kind, public, log = check_new_game(spec, random_source.SystemRandom())
        engine.check(log)
        return self._insert(kind, public, [("create", {"log": log})])

    def import_log(self, toml_text: str, *, lang: str | None = None,
                   paper: str | None = None) -> Created:
        """A new game whose journal reproduces the TOML log (turns, publishes, rounds); its
        pages and reports in ``lang`` on ``paper`` (default: English, A4)."""
        import tomllib

        try:
            data = tomllib.loads(toml_text)
        except tomllib.TOMLDecodeError as exc:
            explanation = explained(toml_text, str(exc))  # line, column and the usual trap
            raise Problems([ConfigError("log", Msg(N_("not valid TOML: %(error)s"),
                                                   error=explanation))]) from None
        engine.check(data)
        kind, public, entries = import_entries(data, {"lang": lang, "paper": paper})
        return self._insert(kind, public, entries)

    def _insert(self, kind: str, public: dict[str, Any], entries: list) -> Created:
        token = new_token()
        game_id = new_game_id()
        version = self.store.create(game_id, kind, public, token_hash(token), entries)
        return Created(game_id, token, version)

    def authorize(self, game_id: str, token: str | None) -> bool:
        """Whether ``token`` is the game's GM token (hash compare, constant time)."""
        return token_matches(token, self._row(game_id).gm_hash)

    def exists(self, game_id: str) -> bool:
        try:
            self._row(game_id)
        except NotFound:
            return False
        return True

    def _row(self, game_id: str):
        try:
            return self.store.game(game_id)
        except Missing:
            raise NotFound("game", NO_GAME) from None

    def _load(self, game_id: str) -> tuple[Any, Folded, list]:
        try:
            row, rows = self.store.load(game_id)
        except Missing:
            raise NotFound("game", NO_GAME) from None
        return row, fold(row.kind, rows), rows

    # --- what the GM and the public see --------------------------------------------------------

    def state(self, game_id: str) -> GameState:
        """The GM's view, replayed from the journal."""
        row, folded, rows = self._load(game_id)
        result = self._result(game_id, row.version, "gm", row.kind, folded.log)
        public = row.public
        players = tuple(public.get("players", ()))
        received: tuple[str, ...] = ()
        tables = tuple(tuple(t) for t in public.get("tables", ()))
        entered: dict[int, int] = {}
        if row.kind == WMN:
            turns = folded.log.get("turn", [])
            open_orders = turns[folded.open_turn - 1] if len(turns) >= folded.open_turn else {}
            received = tuple(p for p in players if p in open_orders)
        else:
            for item in folded.log.get("round", []):
                entered[item["table"]] = max(entered.get(item["table"], 0), item["round"])
        return GameState(
            id=row.id, kind=row.kind, title=public.get("title", ""), lang=public["lang"],
            paper=public["paper"], version=row.version, log=folded.export_log(),
            published=folded.published, open_turn=folded.open_turn, players=players,
            received=received, tables=tables, rounds_entered=entered, result=result,
            entries=tuple({"version": r.seq, "kind": r.kind, "text": describe(r), "at": r.at}
                          for r in rows),
            journal=tuple((r.seq, said(r)) for r in rows),
            last_entry=_undoable(folded, rows))

    def _result(self, game_id: str, version: int, view: str, kind: str,
                data: Mapping[str, Any]) -> Any:
        """The engine's result for a view of a game version (cached: versions never change)."""
        key = (game_id, version, view)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        checked = engine.check(data)
        result = engine.wmn_result(checked) if kind == WMN else checked
        with self._lock:
            self._cache[key] = result
            while len(self._cache) > 512:
                self._cache.popitem(last=False)
        return result

    def public_state(self, game_id: str) -> dict[str, Any]:
        """What public.json returns: published turns and standings only, never a secret."""
        row, folded, _ = self._load(game_id)
        public = row.public
        data = folded.public_log()
        result = self._result(game_id, row.version, "public", row.kind, data)
        out: dict[str, Any] = {"id": row.id, "game": row.kind, "title": public.get("title", ""),
                               "lang": public["lang"], "version": row.version}
        if row.kind == WMN:
            from .games import wmn_public

            out.update(wmn_public(public, folded, result))
        else:
            from .games import lun_public

            out.update(lun_public(public, result))
        return out

    # --- entries -----------------------------------------------------------------------------

    def _append(self, game_id: str, version: int | None, build) -> tuple[int, Folded, Any]:
        """Check and append one entry. ``build(row, folded)`` returns ``(kind, payload, log)``:
        the candidate log is checked by the engine first. Stale versions raise ``Conflict``."""
        for attempt in range(RETRIES):
            row, folded, _rows = self._load(game_id)
            if version is not None and version != row.version:
                raise self._conflict(game_id, version, row.version)
            kind, payload, candidate = build(row, folded)
            checked = engine.check(candidate)
            try:
                new = self.store.append(game_id, row.version, kind, payload)
            except Stale as stale:
                if version is not None:
                    raise self._conflict(game_id, version, stale.current) from None
                # no version given: check again on the newer state, after a short random
                # pause so that racing writers spread out
                time.sleep(random_source.SystemRandom().uniform(0, 0.002 * (attempt + 1)))
                continue
            return new, fold(row.kind, [*_rows, _row_of(new, kind, payload)]), checked
        raise self._conflict(game_id, row.version, self._row(game_id).version)

    def _conflict(self, game_id: str, seen: int, current: int) -> Conflict:
        rows = self.store.since(game_id, seen)
        changes = [{"version": r.seq, "kind": r.kind, "text": describe(r)} for r in rows]
        return Conflict(current, changes, [said(r) for r in rows])

    def enter_turn(self, game_id: str, orders: Mapping[str, Any], *,
                   version: int | None = None) -> Entry:
        """Record What's My Number? orders for the open turn (a player again: replaced)."""

        def build(row, folded: Folded):
            _expect(row.kind, WMN)
            named = match_names(orders, row.public["players"], "orders")
            candidate = copy.deepcopy(folded.log)
            apply_orders(candidate, folded.open_turn, named)
            return "orders", {"turn": folded.open_turn, "orders": named}, candidate

        new, folded, checked = self._append(game_id, version, build)
        players = self._row(game_id).public["players"]
        turns = folded.log.get("turn", [])
        got = turns[folded.open_turn - 1] if len(turns) >= folded.open_turn else {}
        result = engine.wmn_result(checked)
        report = next((t for t in getattr(result, "turns", ()) if
                       getattr(t, "number", None) == folded.open_turn), None)
        return Entry(new, turn=folded.open_turn,
                     received=tuple(p for p in players if p in got),
                     missing=tuple(p for p in players if p not in got),
                     report=engine.to_json(report) if report is not None else None)

    def enter_round(self, game_id: str, table: int, choices: Mapping[str, Any], *,
                    version: int | None = None) -> Entry:
        """Record a table's next Lowest Unique Number round; the Entry carries its tally."""

        def build(row, folded: Folded):
            _expect(row.kind, LUN)
            tables = row.public["tables"]
            if not isinstance(table, int) or not 1 <= table <= len(tables):
                raise Problems([ConfigError("table", Msg(N_(
                    "no table %(table)s; tables are 1 to %(count)s"), table=str(table),
                    count=len(tables)))])
            named = match_names(choices, tables[table - 1], "choices")
            number = 1 + sum(1 for r in folded.log.get("round", []) if r["table"] == table)
            candidate = copy.deepcopy(folded.log)
            apply_round(candidate, table, number, named)
            return "round", {"table": table, "round": number, "choices": named}, candidate

        new, folded, checked = self._append(game_id, version, build)
        number = sum(1 for r in folded.log.get("round", []) if r["table"] == table)
        played = next((t for t in getattr(checked, "tables", ()) if t.number == table), None)
        found = next((r for r in getattr(played, "rounds", ()) if r.number == number), None)
        return Entry(new, table=table, round=number,
                     tally=engine.to_json(found) if found is not None else None)

    def undo(self, game_id: str, *, version: int | None = None) -> Entry:
        """Take back the last entry of the open turn (or the last round entered)."""

        def build(row, folded: Folded):
            if not folded.open_entries:
                raise Problems([GameLogError("undo", Msg(N_(
                    "nothing to undo: no entry since the last publish")))])
            last = folded.open_entries[-1]
            rows = self.store.load(game_id)[1]
            candidate = fold(row.kind, [r for r in rows if r.seq != last]).log
            return "undo", {"undoes": last}, candidate

        new, _, _ = self._append(game_id, version, build)
        return Entry(new)

    def publish(self, game_id: str, turn: int, *, version: int | None = None) -> Entry:
        """Close the open turn: its report goes to everyone; players without orders made none."""

        def build(row, folded: Folded):
            _expect(row.kind, WMN)
            if turn != folded.open_turn:
                raise Problems([GameLogError("turn", Msg(N_(
                    "turn %(turn)s cannot be published; the open turn is %(open)s"),
                    turn=str(turn), open=folded.open_turn))])
            candidate = copy.deepcopy(folded.log)
            turns = candidate.setdefault("turn", [])
            while len(turns) < turn:
                turns.append({})
            return "publish", {"turn": turn}, candidate

        new, folded, _ = self._append(game_id, version, build)
        return Entry(new, turn=turn)

    def amend(self, game_id: str, turn: int, orders: Mapping[str, Any], *,
              version: int | None = None, confirm: bool = False) -> list[dict[str, Any]]:
        """Change a published turn's orders (``None``: no orders). Returns the report cells
        that change in published turns; only ``confirm=True`` records the amendment."""
        row, folded, _ = self._load(game_id)
        _expect(row.kind, WMN)
        if version is not None and version != row.version:
            raise self._conflict(game_id, version, row.version)
        if not 1 <= turn <= folded.published:
            raise Problems([GameLogError("turn", Msg(N_(
                "only a published turn can be amended; published: 1 to %(published)s"),
                published=folded.published))])
        named = match_names(orders, row.public["players"], "orders", allow_none=True)
        candidate = copy.deepcopy(folded.log)
        apply_orders(candidate, turn, named)
        before = engine.wmn_result(engine.check(folded.public_log()))
        after_log = Folded(WMN, candidate, folded.published).public_log()
        after = engine.wmn_result(engine.check(after_log))
        changes = _changed_cells(before, after, folded.published)
        if confirm:
            self._append(game_id, row.version,
                         lambda r, f: ("amend", {"turn": turn, "orders": named}, candidate))
        return changes

    # --- files -------------------------------------------------------------------------------

    def export_log(self, game_id: str) -> str:
        """The game as a TOML log (``published = N`` included) that ``kit report`` reads."""
        _, folded, _ = self._load(game_id)
        return tomli_w.dumps(folded.export_log())

    def report_file(self, game_id: str, name: str) -> Path:
        """A report file of the published game (``name`` inside the report folder), made on
        first request; NotFound when the folder has no such file."""
        row, folded, rows = self._load(game_id)
        data = folded.public_log() if row.kind == WMN else folded.export_log()
        folder = self.files / row.id / f"v{self._published_version(row, folded)}"
        name_of = engine.folder_name(data, REPORT_FOLDER)
        target = folder / name_of
        if not target.is_dir():
            folder.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=".render-", dir=folder.parent))
            try:
                if folded.amended:  # the reports as first handed out, so the erratum is made
                    seeded = staging / name_of
                    seeded.mkdir()
                    (seeded / RECORD).write_bytes(record_bytes(published_record(row.kind, rows)))
                    (seeded / MANIFEST).write_text(f"{RECORD}\n", encoding="utf-8")  # the kit's
                engine.write(data, out=staging, folder=name_of,
                             paper=row.public["paper"], lang=row.public["lang"])
                folder.mkdir(exist_ok=True)
                with contextlib.suppress(OSError):  # another request made it first: same bytes
                    os.rename(staging / name_of, target)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        path = (target / name).resolve()
        if not path.is_file() or target.resolve() not in path.parents:
            raise NotFound("file", Msg(N_("there is no such report file")))
        return path

    def _published_version(self, row, folded: Folded) -> str:
        """A name for the published content: the reports change only when it does."""
        import hashlib
        import json

        data = folded.public_log() if row.kind == WMN else folded.export_log()
        return hashlib.sha256(json.dumps([data, row.public], sort_keys=True).encode()
                              ).hexdigest()[:16]

    def close(self) -> None:
        self.store.close()


def _row_of(seq: int, kind: str, payload: Mapping[str, Any]):
    from .store import Row

    return Row(seq, kind, dict(payload), time.time())


def _expect(kind: str, wanted: str) -> None:
    if kind != wanted:
        raise Problems([ConfigError("game", Msg(N_("this is a %(kind)s game; that action is "
                                                   "for %(wanted)s"), kind=kind, wanted=wanted))])


def _changed_cells(before: Any, after: Any, published: int) -> list[dict[str, Any]]:
    """Cells of published turn reports that differ (H1's diff when present)."""
    try:
        from ..games.whats_my_number.snapshot import snapshot_turn
        from ..published import diff_snapshots
    except ImportError:
        changes = []
        for old, new in zip(before.turns[:published], after.turns[:published], strict=False):
            if engine.to_json(old) != engine.to_json(new):
                changes.append({"turn": old.number, "old": engine.to_json(old),
                                "new": engine.to_json(new)})
        return changes
    out = []
    players = before.players
    for old, new in zip(before.turns[:published], after.turns[:published], strict=False):
        out += [engine.to_json(c) for c in diff_snapshots(snapshot_turn(old, players),
                                                          snapshot_turn(new, players))]
    return out


def published_record(kind: str, rows: list) -> dict[str, Any]:
    """The record of published turns ``kit report`` keeps in its folder, rebuilt from the
    journal: each turn as first published, then each amendment (its changed cells) in order."""
    from ..published import check_published
    from ..registry import game_spec

    snapshots = game_spec(kind).report.snapshots
    record: dict[str, Any] = {"turns": {}, "amendments": []}
    for index, row in enumerate(rows):
        if row.kind in ("publish", "amend"):
            folded = fold(kind, rows[: index + 1])
            played = snapshots(engine.check(folded.public_log()))
            record, _ = check_published(record, played, folded.published, amend=True)
    return record


def open_console(database: str | None = None, files: Path | None = None) -> Console:
    """The console on ``database`` (a SQLite path, a ``postgresql://`` URL, or the default
    file in the user data folder), schema migrated to the newest version. ``files`` holds
    rendered report files, made again from the database whenever missing (default:
    ``console-files`` in the render cache folder)."""
    url = database_url(database or os.environ.get("KIT_DATABASE_URL"))
    engine_ = make_engine(url)
    try:
        migrate(engine_)
    except Exception as exc:  # never echo the URL: it may hold a password
        engine_.dispose()
        raise ConfigError("database", f"cannot open the console database "
                          f"({type(exc).__name__})") from None
    if files is None:  # beside the render cache (KIT_CACHE_DIR: a volume servers may share)
        from ..cache import default_folder

        files = default_folder() / "console-files"
    return Console(Store(engine_), files)
