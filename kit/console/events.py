"""The console's event hub: every append to a game's journal wakes the streams that follow it.

A stream (``kit.console.stream``) ``watch``es a game and sleeps on an ``asyncio.Event``: it holds
no thread and no database connection while nothing happens. An append calls ``moved`` (from the
thread that made it) once its transaction is committed, which wakes the game's streams on their
own event loops. On PostgreSQL the append also sends ``NOTIFY`` in its own transaction
(``notify_in``: sent only if it commits), and each server keeps one ``LISTEN`` connection
(``Listener``, psycopg's async connection, started by the first stream and reconnecting after a
drop) that turns the notifications of every server's appends into ``moved`` here. A version is
only a wake-up: the stream reads what its viewer may see from the game's views.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy.engine import URL

log = logging.getLogger("kit.console.events")

# PostgreSQL's notification channel; a payload is "<game id> <version>", or "<game id> seen"
# when a seat's page opened or closed on a server (``presence``)
CHANNEL = "kit_journal"
RECONNECT_S = (0.5, 1.0, 2.0, 5.0)  # pauses between the listener's tries, then the last again


@dataclass(eq=False)
class Waiter:
    """One stream's place in the hub: the newest journal version it was told of, and the
    event that wakes it on its own loop."""

    game_id: str
    loop: asyncio.AbstractEventLoop
    woken: asyncio.Event = field(default_factory=asyncio.Event)
    version: int = 0
    seat: str = ""  # "player:Ann", "table:2": whose page this is (told to the game master)
    gm: bool = False  # the game master's stream: also woken when a seat comes or goes

    def wake(self, version: int) -> None:
        """Called on the waiter's loop: note ``version``, wake the stream."""
        self.version = max(self.version, version)
        self.woken.set()


class Hub:
    """The streams waiting on each game of one server, and the listener that tells them of
    other servers' appends (``listen_url``: PostgreSQL's, None on SQLite)."""

    def __init__(self, listen_url: str | None = None) -> None:
        self.listen_url = listen_url
        self._lock = threading.Lock()  # appends call ``moved`` from the server's threads
        self._waiting: dict[str, set[Waiter]] = {}
        self._listener: Listener | None = None
        # per game: each seat's open streams on this server, and when its last one closed
        self._open: dict[str, dict[str, int]] = {}
        self._closed_at: dict[str, dict[str, float]] = {}
        self._presence: dict[str, int] = {}  # per game: a count of comings and goings

    def watch(self, game_id: str, seat: str = "", gm: bool = False) -> Waiter:
        """A waiter for ``game_id`` on the running loop (``drop`` it when the stream ends);
        the first one starts the server's listener, on PostgreSQL. A ``seat``'s stream
        makes that seat "here now" until it ends, and wakes the game master's streams."""
        waiter = Waiter(game_id, asyncio.get_running_loop(), seat=seat, gm=gm)
        with self._lock:
            self._waiting.setdefault(game_id, set()).add(waiter)
            if seat:
                seats = self._open.setdefault(game_id, {})
                seats[seat] = seats.get(seat, 0) + 1
                self._presence[game_id] = self._presence.get(game_id, 0) + 1
            if self.listen_url is not None and (self._listener is None
                                                or self._listener.loop is not waiter.loop
                                                or self._listener.done()):
                self._listener = Listener(self, self.listen_url, waiter.loop)
        return waiter

    def drop(self, waiter: Waiter) -> None:
        with self._lock:
            waiting = self._waiting.get(waiter.game_id)
            if waiting is not None and waiter in waiting:
                waiting.discard(waiter)
                if not waiting:
                    del self._waiting[waiter.game_id]
                if waiter.seat:
                    self._left(waiter.game_id, waiter.seat)
        if waiter.seat:
            self._wake_gm(waiter.game_id)

    def _left(self, game_id: str, seat: str) -> None:
        """Under the lock: one of ``seat``'s streams ended."""
        seats = self._open.get(game_id, {})
        seats[seat] = seats.get(seat, 1) - 1
        if seats[seat] <= 0:
            del seats[seat]
            self._closed_at.setdefault(game_id, {})[seat] = time.time()
        self._presence[game_id] = self._presence.get(game_id, 0) + 1

    def _wake_gm(self, game_id: str) -> None:
        """Wake the game master's streams of ``game_id``: a seat came or went."""
        with self._lock:
            gms = [w for w in self._waiting.get(game_id, ()) if w.gm]
        for waiter in gms:
            with contextlib.suppress(RuntimeError):
                waiter.loop.call_soon_threadsafe(waiter.wake, 0)

    def seen_elsewhere(self, game_id: str) -> None:
        """A seat's page opened or closed, as written to the database (by another server, or
        by this one on SQLite): tell the game master's streams here (``presence``)."""
        with self._lock:
            self._presence[game_id] = self._presence.get(game_id, 0) + 1
        self._wake_gm(game_id)

    def arrived(self, waiter: Waiter) -> None:
        """The seat's stream is answering: tell the game master's streams."""
        if waiter.seat:
            self._wake_gm(waiter.game_id)

    def presence(self, game_id: str) -> tuple[int, dict[str, str | float]]:
        """How many times seats came or went (a stream compares it), and each seat's state
        on this server: ``"here"`` while a stream of it is open, else when the last one
        ended (seconds since the epoch); a seat never seen is absent."""
        with self._lock:
            state: dict[str, str | float] = dict(self._closed_at.get(game_id, {}))
            state.update({seat: "here" for seat in self._open.get(game_id, {})})
            return self._presence.get(game_id, 0), state

    def seat_streams(self, game_id: str) -> int:
        """How many streams of the game's seats' pages (players, tables) are open here."""
        with self._lock:
            return sum(self._open.get(game_id, {}).values())

    def streams(self) -> int:
        """How many streams are waiting (all games)."""
        with self._lock:
            return sum(len(w) for w in self._waiting.values())

    def moved(self, game_id: str, version: int) -> None:
        """The game's journal is at ``version`` (or beyond): wake its streams. Any thread."""
        with self._lock:
            waiting = list(self._waiting.get(game_id, ()))
        for waiter in waiting:
            with contextlib.suppress(RuntimeError):  # its loop has closed: the stream is gone
                waiter.loop.call_soon_threadsafe(waiter.wake, version)

    def wake_all(self) -> None:
        """Wake every stream to look again (the listener was away: it may have missed some)."""
        with self._lock:
            waiting = [w for ws in self._waiting.values() for w in ws]
        for waiter in waiting:
            with contextlib.suppress(RuntimeError):
                waiter.loop.call_soon_threadsafe(waiter.wake, 0)

    def close(self) -> None:
        """Stop the listener (the server is stopping)."""
        with self._lock:
            listener, self._listener = self._listener, None
        if listener is not None:
            listener.stop()


def listen_url(url: URL) -> str | None:
    """psycopg's connection string for the database at ``url``; None when it is not
    PostgreSQL (SQLite: every append is made in this process)."""
    if url.get_backend_name() != "postgresql":
        return None
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def notify_in(conn: sa.Connection, game_id: str, version: int) -> None:
    """Tell every server's listener of the append, in the caller's transaction: PostgreSQL
    sends it when (and only if) the transaction commits. Nothing on SQLite."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.select(sa.func.pg_notify(CHANNEL, f"{game_id} {version}")))


class Listener:
    """The server's one ``LISTEN`` connection: notifications become ``Hub.moved``; after a
    drop it connects again; each time ``LISTEN`` is in force it wakes every stream once (what
    it missed, they read)."""

    def __init__(self, hub: Hub, url: str, loop: asyncio.AbstractEventLoop) -> None:
        self.hub, self.url, self.loop = hub, url, loop
        self.task = loop.create_task(self._run(), name="kit-events-listener")

    def done(self) -> bool:
        return self.task.done()

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError):  # its loop has closed: so has the task
            self.loop.call_soon_threadsafe(self.task.cancel)

    async def _run(self) -> None:
        import psycopg

        tries = 0
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    # every time, the first too: a stream that opened before LISTEN was in
                    # force may have missed a change another server made meanwhile
                    self.hub.wake_all()
                    tries = 0
                    async for note in conn.notifies():
                        self._note(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # never the URL: it may hold a password
                log.warning("event listener: %s; connecting again", type(exc).__name__)
            pause = RECONNECT_S[min(tries, len(RECONNECT_S) - 1)]
            tries += 1
            await asyncio.sleep(pause)

    def _note(self, payload: str) -> None:
        game_id, _, version = payload.partition(" ")
        if version == "seen":
            self.hub.seen_elsewhere(game_id)
        elif version.isdigit():
            self.hub.moved(game_id, int(version))
