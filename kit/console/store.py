"""The console's store: its tables (SQLAlchemy Core) in the one database of ``kit.db``.

Tables: ``games`` (public facts, the GM token's hash, the journal version), ``journal`` (every
action of a game, unique per ``(game_id, seq)``: appended, and a row deleted only by the one
that replaces it, a player's repost) and ``seat_tokens`` (a token hash
per seat that has its own link: a player, a table; a token names one game and one seat).
Each append wakes the game's event streams (``events``: in process, and on PostgreSQL through
a ``NOTIFY`` sent by its transaction). Appending takes the version the caller saw; a stale one
changes nothing and raises ``Stale`` (optimistic concurrency: the ``UPDATE ... WHERE version =
:seen`` is the row-version check on both databases).

The engine's settings on SQLite and PostgreSQL (a commit on disk before the answer, writes
``BEGIN IMMEDIATE``, lock waits) and the migrations are ``kit.db.engine``'s.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from .events import Hub, listen_url, notify_in

metadata = sa.MetaData()

games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("public", sa.Text, nullable=False),  # JSON: title, lang, paper, players/tables
    sa.Column("gm_hash", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

journal = sa.Table(
    "journal", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),  # (game_id, seq) unique: one per version
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("payload", sa.Text, nullable=False),  # JSON
    sa.Column("at", sa.Float, nullable=False),
)

seat_tokens = sa.Table(
    "seat_tokens", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("kind", sa.String(20), primary_key=True),  # "player", "table"
    sa.Column("seat", sa.String(100), primary_key=True),  # the player's or table's name
    sa.Column("token_hash", sa.String(64), nullable=False),  # SHA-256 hex, never the token
    # the seat's page: when last seen, and when a stream of it last said it is open
    # (``presence``: written at most once a minute, read by the game master's pages)
    sa.Column("last_seen", sa.Float, nullable=True),
    sa.Column("live_at", sa.Float, nullable=True),
    sa.Index("seat_tokens_hash", "game_id", "token_hash", unique=True),
)

Seat = tuple[str, str]  # (kind, name): ("player", "Ann")
Also = Callable[[sa.Connection], object]  # more writes in a transaction of the store's


@dataclass(frozen=True)
class Row:
    """One journal entry as stored."""

    seq: int
    kind: str
    payload: dict[str, Any]
    at: float


@dataclass(frozen=True)
class GameRow:
    """A game's row: its facts and the journal version."""

    id: str
    kind: str
    public: dict[str, Any]
    gm_hash: str
    version: int


class Stale(Exception):
    """An append based on an old version: ``current`` is the version now stored."""

    def __init__(self, current: int) -> None:
        super().__init__(current)
        self.current = current


class Missing(Exception):
    """No game with that id."""


class Store:
    """Games and their journals in one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.events = Hub(listen_url(engine.url))  # each append wakes the game's streams
        # one-statement reads outside a transaction on PostgreSQL: the same snapshot as in
        # one, without its BEGIN and ROLLBACK (two round trips of a game's version read)
        self._reader = engine.execution_options(isolation_level="AUTOCOMMIT") \
            if engine.dialect.name == "postgresql" else engine

    def _writer(self):
        return self.engine.connect().execution_options(write=True)

    def create(self, game_id: str, kind: str, public: Mapping[str, Any], gm_hash: str,
               entries: Sequence[tuple[str, Mapping[str, Any]]],
               seat_hashes: Mapping[Seat, str] | None = None,
               also: Also | None = None) -> int:
        """Add a game with its first journal entries and its seats' token hashes (one
        transaction, with ``also``'s writes); returns its version (entries made)."""
        now = time.time()
        with self._writer() as conn, conn.begin():
            conn.execute(games.insert().values(
                id=game_id, kind=kind, public=json.dumps(public), gm_hash=gm_hash,
                version=len(entries), created=now))
            if entries:
                conn.execute(journal.insert(), [
                    {"game_id": game_id, "seq": seq, "kind": kind_, "at": now,
                     "payload": json.dumps(payload)}
                    for seq, (kind_, payload) in enumerate(entries, start=1)])
            if seat_hashes:
                conn.execute(seat_tokens.insert(), [
                    {"game_id": game_id, "kind": kind_, "seat": seat, "token_hash": hashed}
                    for (kind_, seat), hashed in seat_hashes.items()])
            if also is not None:
                also(conn)
        return len(entries)

    def seat_of(self, game_id: str, hashed: str) -> Seat | None:
        """The seat of the game whose token has that hash, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(seat_tokens.c.kind, seat_tokens.c.seat).where(
                seat_tokens.c.game_id == game_id, seat_tokens.c.token_hash == hashed)).first()
        return None if row is None else (row.kind, row.seat)

    def set_seat_hash(self, game_id: str, seat: Seat, hashed: str) -> bool:
        """Replace a seat's token hash (its old token stops at once); False: no such seat."""
        kind, name = seat
        with self._writer() as conn, conn.begin():
            done = conn.execute(seat_tokens.update().where(
                seat_tokens.c.game_id == game_id, seat_tokens.c.kind == kind,
                seat_tokens.c.seat == name).values(token_hash=hashed))
        return done.rowcount == 1

    def set_gm_hash(self, game_id: str, hashed: str) -> None:
        """Replace the game master's token hash (the old link stops at once)."""
        with self._writer() as conn, conn.begin():
            done = conn.execute(games.update().where(games.c.id == game_id)
                                .values(gm_hash=hashed))
        if done.rowcount != 1:
            raise Missing(game_id)

    def game(self, game_id: str) -> GameRow:
        """The game's row, or ``Missing``."""
        with self._reader.connect() as conn:
            row = conn.execute(sa.select(games).where(games.c.id == game_id)).first()
        if row is None:
            raise Missing(game_id)
        return GameRow(row.id, row.kind, json.loads(row.public), row.gm_hash, row.version)

    def load(self, game_id: str) -> tuple[GameRow, list[Row]]:
        """The game and its whole journal, read in one transaction (a consistent version)."""
        with self.engine.connect() as conn, conn.begin():
            row = conn.execute(sa.select(games).where(games.c.id == game_id)).first()
            if row is None:
                raise Missing(game_id)
            entries = conn.execute(
                sa.select(journal.c.seq, journal.c.kind, journal.c.payload, journal.c.at)
                .where(journal.c.game_id == game_id, journal.c.seq <= row.version)
                .order_by(journal.c.seq)).all()
        game = GameRow(row.id, row.kind, json.loads(row.public), row.gm_hash, row.version)
        return game, [Row(e.seq, e.kind, json.loads(e.payload), e.at) for e in entries]

    def append(self, game_id: str, seen: int, kind: str, payload: Mapping[str, Any],
               also: Also | None = None, replaces: Sequence[int] = ()) -> int:
        """Append one entry if the game is still at version ``seen``; returns the new version.
        ``also`` writes more in the same transaction (a publish's letters to the outbox);
        ``replaces``: the seqs of the earlier rows this one takes the place of, deleted in it
        (the caller read them at version ``seen``).

        Raises ``Stale`` (nothing written) when another append came first, ``Missing`` for an
        unknown game.
        """
        with self._writer() as conn, conn.begin():
            done = conn.execute(
                games.update().where(games.c.id == game_id, games.c.version == seen)
                .values(version=seen + 1))
            if done.rowcount != 1:
                current = conn.execute(
                    sa.select(games.c.version).where(games.c.id == game_id)).scalar()
                if current is None:
                    raise Missing(game_id)
                raise Stale(current)
            if replaces:
                conn.execute(journal.delete().where(journal.c.game_id == game_id,
                                                    journal.c.seq.in_(replaces)))
            conn.execute(journal.insert().values(
                game_id=game_id, seq=seen + 1, kind=kind, payload=json.dumps(payload),
                at=time.time()))
            if also is not None:
                also(conn)
            notify_in(conn, game_id, seen + 1)  # other servers' streams, once committed
        self.events.moved(game_id, seen + 1)  # this server's
        return seen + 1

    def since(self, game_id: str, seen: int) -> list[Row]:
        """The entries after version ``seen`` (what a stale client missed)."""
        with self.engine.connect() as conn:
            entries = conn.execute(
                sa.select(journal.c.seq, journal.c.kind, journal.c.payload, journal.c.at)
                .where(journal.c.game_id == game_id, journal.c.seq > seen)
                .order_by(journal.c.seq)).all()
        return [Row(e.seq, e.kind, json.loads(e.payload), e.at) for e in entries]

    def close(self) -> None:
        self.events.close()
        self.engine.dispose()
