"""Where each seat's page is, for every server on one database: "here now", "last seen" or
never opened.

A server knows the streams it holds itself (``events.Hub``); the others learn of them from
two columns of ``seat_tokens``: ``last_seen`` (a request or a stream of the seat's page) and
``live_at`` (a stream of it is open: written when it opens and then by its heartbeat, cleared
when this server's last stream of the seat closes). A seat is "here now" when this server
holds a stream of it, or when ``live_at`` is at most ``HERE_S`` old: a stream writes at most
every ``WRITE_EVERY_S`` and its heartbeat comes every 15 s, so an open stream's ``live_at``
is never older than 75 s, and a server that died with a stream open stops counting within
two minutes.

Writes are bounded per seat and server, whatever the traffic: at most one a minute for a
stream (its opening, then its heartbeats), one a minute for requests (none while a stream of
the seat was written within the minute), and one when the seat's last stream here closes
after a stream's write. Each is one short transaction; a stream holds no connection between
them. On PostgreSQL an opening or a closing also tells the other servers' game master streams
(``NOTIFY``, heard as ``seen``).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import sqlalchemy as sa

from .events import CHANNEL
from .store import Store, seat_tokens

log = logging.getLogger("kit.console")

WRITE_EVERY_S = 60.0  # a seat's sign is written at most this often
HERE_S = 120.0  # a stream's sign this fresh makes its seat "here now" on every server


@dataclass
class _Written:
    """What this server last wrote of a seat: when (any sign), and when a stream's sign
    (None: none since its last stream here closed)."""

    at: float = float("-inf")
    live: float | None = None


@dataclass(frozen=True)
class Seen:
    """A seat's page as every server sees it: ``here`` now, and when it was last seen
    (seconds since the epoch; None: never)."""

    here: bool
    last_seen: float | None


class Presence:
    """The seats' signs of one console: written at most once a minute each, read for the
    game master. ``clock`` gives seconds since the epoch (a test gives its own)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store, self.clock = store, clock
        self._lock = threading.Lock()
        self._written: dict[tuple[str, str], _Written] = {}
        # signs are written here, never by a request or a stream's loop: a page asked for
        # while the database's writer is busy (a publish) does not wait for it
        self._behind = ThreadPoolExecutor(1, thread_name_prefix="presence")

    def _due(self, game_id: str, seat: str, stream: bool) -> float | None:
        """Under the lock: now, if a sign of this kind is due for the seat (and noted as
        written), else None."""
        now = self.clock()
        written = self._written.setdefault((game_id, seat), _Written())
        if stream:
            if written.live is not None and now - written.live < WRITE_EVERY_S:
                return None
            written.live = now
        elif now - written.at < WRITE_EVERY_S:  # a stream's sign counts too
            return None
        written.at = now
        return now

    def requested(self, game_id: str, seat: str) -> None:
        """A request of the seat's page or of its JSON (``seat``: "player:Ann")."""
        with self._lock:
            now = self._due(game_id, seat, stream=False)
        if now is not None:
            self.later(self._write, game_id, seat, {"last_seen": now})

    def later(self, write: Callable[..., None], *args: str | dict[str, float | None]) -> None:
        """``write(*args)`` on this console's one writing thread, in the order asked: a
        request's sign, a stream's heartbeat, a closing (never a closing before the
        heartbeat that came first). Once the console is closed, nothing more."""
        with contextlib.suppress(RuntimeError):  # (closed: the server is stopping)
            self._behind.submit(write, *args).add_done_callback(_logged)

    def settled(self) -> None:
        """Once the requests' signs handed over so far are written."""
        self._behind.submit(lambda: None).result()

    def close(self) -> None:
        """The requests' signs written; no more taken."""
        self._behind.shutdown(wait=True)

    def stream_due(self, game_id: str, seat: str) -> bool:
        """Whether a stream's sign of the seat would be written now (a heartbeat asks
        before it spends a thread on ``streaming``)."""
        with self._lock:
            live = self._written.get((game_id, seat), _Written()).live
        return live is None or self.clock() - live >= WRITE_EVERY_S

    def streaming(self, game_id: str, seat: str) -> None:
        """A stream of the seat's page is open here: on its opening and each heartbeat."""
        with self._lock:
            opened = self._written.get((game_id, seat), _Written()).live is None
            now = self._due(game_id, seat, stream=True)
        if now is not None:
            self._write(game_id, seat, {"last_seen": now, "live_at": now}, tell=opened)

    def closed(self, game_id: str, seat: str) -> None:
        """This server's last stream of the seat closed: no longer "here now" anywhere
        (nothing written when no stream's sign was)."""
        with self._lock:
            written = self._written.get((game_id, seat))
            if written is None or written.live is None:
                return
            now = written.at = self.clock()
            written.live = None
        self._write(game_id, seat, {"last_seen": now, "live_at": None}, tell=True)

    def _write(self, game_id: str, seat: str, values: dict[str, float | None],
               tell: bool = False) -> None:
        """One short transaction: the seat's row updated; ``tell``: the game master streams
        told once it is written (on PostgreSQL every server's, by ``NOTIFY`` on commit; on
        SQLite this server's), so that a page shows the seat as written."""
        kind, _, name = seat.partition(":")
        with self.store.engine.connect().execution_options(write=True) as conn, conn.begin():
            conn.execute(seat_tokens.update().where(
                seat_tokens.c.game_id == game_id, seat_tokens.c.kind == kind,
                seat_tokens.c.seat == name).values(**values))
            notify = tell and conn.dialect.name == "postgresql"
            if notify:
                conn.execute(sa.select(sa.func.pg_notify(CHANNEL, f"{game_id} seen")))
        if tell and not notify:  # one server (SQLite): its own game master streams, now
            self.store.events.seen_elsewhere(game_id)

    def seats(self, game_id: str) -> dict[str, Seen]:
        """Every seat of the game with its own link ("player:Ann": ``Seen``), as the
        database and this server's own streams tell."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(
                seat_tokens.c.kind, seat_tokens.c.seat, seat_tokens.c.last_seen,
                seat_tokens.c.live_at).where(seat_tokens.c.game_id == game_id)).all()
        now = self.clock()
        seen = {f"{r.kind}:{r.seat}": Seen(r.live_at is not None and now - r.live_at <= HERE_S,
                                           r.last_seen)
                for r in rows}
        with self._lock:  # this server's own signs, written or on their way
            mine = {seat: w.at for (game, seat), w in self._written.items()
                    if game == game_id and w.at > float("-inf")}
        for seat, at in mine.items():
            if (known := seen.get(seat)) and (known.last_seen or 0) < at:
                seen[seat] = Seen(known.here, at)
        for seat, state in self.store.events.presence(game_id)[1].items():
            if state == "here":
                seen[seat] = Seen(True, now)
            elif (known := seen.get(seat)) and (known.last_seen or 0) < float(state):
                seen[seat] = Seen(known.here, float(state))
        return seen


def _logged(done: Future) -> None:
    """A sign that could not be written is only logged: the next one tries again."""
    if not done.cancelled() and (error := done.exception()) is not None:
        log.warning("a seat's sign was not written: %r", error)


def said(seats: dict[str, Seen]) -> list[dict[str, object]]:
    """``state.json``'s ``presence``: each seat with its own link, ``"state"`` ``"here"``,
    ``"seen"`` or ``"never"``, and ``"last_seen"`` in seconds since the epoch (or null)."""
    listed: list[dict[str, object]] = []
    for key, seen in sorted(seats.items()):
        kind, _, name = key.partition(":")
        state = "here" if seen.here else "never" if seen.last_seen is None else "seen"
        listed.append({"seat": kind, "name": name, "state": state,
                       "last_seen": seen.last_seen})
    return listed
