"""What several ``kit serve`` processes share: custom kits' result ids in the database, built
kits in the render cache folder.

A result id (``kept.Ticket``) is also a row of ``kit_requests`` in the console's database
(SQLite or PostgreSQL, migration ``0002``): its config as JSON, the config's key, the client,
when it was asked for, and a render lease. A built custom kit is kept in the render cache
folder (``KIT_CACHE_DIR``, which servers may share) like a ready-made one. So a result URL
asked of another server than the one that took the form works there too (``locate``): that
server reads the id from the database, then the kit from the shared cache; if the cache does
not have it and no other server holds the lease (is making it), it takes the lease and renders
the kit itself. A lease runs out after ``LEASE_S`` (a server that died while rendering holds
nothing for long); it is given back when the render ends, whatever its outcome.

The in-memory ``KitCache``, the tickets held in memory and the render line stay per process:
they only spare a database read or a render. Coordination is the database's own: a row per
id and one conditional ``UPDATE`` for the lease, as the console's row versions.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import threading
import time

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ..config import KitConfig
from ..errors import KitError
from .kit_cache import KEEP_S, MAX_TICKETS, Entry, Ticket, Tickets
from .kits import PREVIEW_PAGES, config_text, kept_key, load_kit
from .service import Busy, KitService, Status

log = logging.getLogger("kit.web")

LEASE_S = 120.0  # a render's lease; as long as the app waits for any render
RETAIN_S = 30 * 24 * 3600.0  # a result id's row is dropped this long after it was made
PRUNE_EVERY = 500  # rows added by this process between two prunes
WAIT_STEP_S = 0.1  # how often a kit another server makes is looked for in the shared cache
IDENT = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16)

metadata = sa.MetaData()

kit_requests = sa.Table(  # the schema is migrations/versions/0002_kit_requests.py
    "kit_requests", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("key", sa.String(32), nullable=False),
    sa.Column("config", sa.Text, nullable=False),  # kits.config_text
    sa.Column("client", sa.String(64), nullable=False),
    sa.Column("created", sa.Float, nullable=False),  # wall-clock seconds (time.time())
    sa.Column("borrowed", sa.Boolean, nullable=False),
    sa.Column("seconds", sa.Float, nullable=True),  # how long the kit's render took
    sa.Column("owner", sa.String(32), nullable=False),  # the server holding the lease
    sa.Column("lease", sa.Float, nullable=False),  # wall-clock end of the lease; 0: none
)


def config_from_text(text: str, key: str) -> KitConfig | None:
    """``kits.config_text``'s JSON back into the ``KitConfig`` whose key is ``key``; None if it
    does not give exactly that config back (a row from another version of the program)."""
    from ..registry import game_spec

    try:
        data = json.loads(text)
        spec = game_spec(data["game"])
        settings = data["settings"]
        config = KitConfig(**{
            **data, "names": tuple(data["names"]), "range": tuple(data["range"]),
            "sizes": tuple(data["sizes"]),
            "settings": None if settings is None else spec.settings(**settings)})
    except (KitError, KeyError, TypeError, ValueError):
        return None
    from .kits import config_key

    return config if config_key(config) == key and config_text(config) == text else None


class SharedTickets(Tickets):
    """``kept.Tickets`` whose ids live in the database too: ``get`` and ``find`` answer from
    memory (this server's ids, and those ``load`` read), ``add`` writes the row first."""

    def __init__(self, engine: Engine, service: KitService | None = None,
                 limit: int = MAX_TICKETS) -> None:
        super().__init__(limit)
        self.engine = engine
        self.service = service  # its render line, memory and render cache
        self.owner = secrets.token_hex(16)  # this process, as a lease holder
        self._added = 0
        self._prune_lock = threading.Lock()

    def _writer(self) -> sa.Connection:
        # on SQLite a BEGIN IMMEDIATE (kit.console.store): no lock upgrade between writers
        return self.engine.connect().execution_options(write=True)

    def _remember(self, ident: str, ticket: Ticket) -> None:
        """Hold ``ticket`` in memory; past ``limit`` the oldest go (the database keeps them)."""
        with self._lock:
            while len(self._by_id) >= self.limit:
                old, oldest = self._by_id.popitem(last=False)
                if self._by_client.get((oldest.client, oldest.key)) == old:
                    del self._by_client[(oldest.client, oldest.key)]
            self._by_id[ident] = ticket
            self._by_client[(ticket.client, ticket.key)] = ident

    def add(self, ticket: Ticket) -> str:
        ident = secrets.token_urlsafe(16)
        now = time.time()
        entry = self.service.cache.get(ticket.key) if self.service is not None else None
        lease = entry is None and self.rendering(ticket.key)
        with self._writer() as conn, conn.begin():
            conn.execute(kit_requests.insert().values(
                id=ident, key=ticket.key, config=config_text(ticket.config),
                client=ticket.client[:64], created=now - (time.monotonic() - ticket.created),
                borrowed=ticket.borrowed, seconds=entry.seconds if entry else None,
                owner=self.owner, lease=now + LEASE_S if lease else 0.0))
        if lease and self._ended(ticket.key):  # its render ended while the row was written
            with self._writer() as conn, conn.begin():
                made = self.service.cache.get(ticket.key)  # type: ignore[union-attr]
                conn.execute(kit_requests.update().where(kit_requests.c.id == ident).values(
                    lease=0.0, seconds=made.seconds if made else None))
        self._remember(ident, ticket)
        self._added += 1
        if self._added % PRUNE_EVERY == 0:
            self.prune()
        return ident

    def _ended(self, key: str) -> bool:
        """Whether the render of ``key`` here has ended (the service records its kit or its
        failure before ``ended`` is called)."""
        service = self.service
        return service is not None and (service.cache.get(key) is not None
                                        or key in service.failures or key in service.transient)

    def rendering(self, key: str) -> bool:
        """Whether this server is making the kit of ``key`` (then its new ids hold a lease)."""
        return self.service is not None and self.service.pool.job(key) is not None

    def shared_entry(self, config: KitConfig, key: str) -> Entry | None:
        """The kit of ``config`` from the shared render cache, into memory, as made by the
        client that first asked for it, in its render time (so a kit someone else made shows
        after as long on every server); None if the cache does not have it, or no server has
        recorded making it (not yet, or its rows are gone: then it is made again)."""
        service = self.service
        if service is None or service.store is None:
            return None
        with self.engine.connect() as conn:
            maker = conn.execute(
                sa.select(kit_requests.c.client, kit_requests.c.seconds)
                .where(kit_requests.c.key == key, kit_requests.c.seconds.is_not(None))
                .order_by(kit_requests.c.created).limit(1)).first()
        rendered = load_kit(service.store, config, PREVIEW_PAGES) if maker else None
        if maker is None or rendered is None:
            return None
        entry = Entry(rendered, keep_until=time.monotonic() + KEEP_S, seconds=maker.seconds,
                      client=maker.client)
        service.cache.put(key, entry)
        return entry

    def load(self, ident: str) -> Ticket | None:
        """The id's ticket from the database (then held in memory); None if there is none."""
        if not IDENT.fullmatch(ident):
            return None
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(kit_requests).where(kit_requests.c.id == ident)).first()
        config = config_from_text(row.config, row.key) if row is not None else None
        if row is None or config is None:
            return None
        created = time.monotonic() - max(0.0, time.time() - row.created)
        ticket = Ticket(row.key, config, row.client, created, bool(row.borrowed))
        self._remember(ident, ticket)
        return ticket

    def claim(self, ident: str, key: str) -> bool:
        """Take the render lease of ``ident`` unless another server holds one for its kit."""
        now = time.time()
        other = kit_requests.alias("other")
        making = sa.select(other.c.id).where(other.c.key == key, other.c.owner != self.owner,
                                             other.c.lease > now)
        with self._writer() as conn, conn.begin():
            done = conn.execute(kit_requests.update()
                                .where(kit_requests.c.id == ident, ~sa.exists(making))
                                .values(owner=self.owner, lease=now + LEASE_S))
        return done.rowcount == 1

    def elsewhere(self, key: str) -> str | None:
        """The client another server holds a render lease of ``key`` for, if one does."""
        with self.engine.connect() as conn:
            return conn.execute(sa.select(kit_requests.c.client).where(
                kit_requests.c.key == key, kit_requests.c.owner != self.owner,
                kit_requests.c.lease > time.time()).limit(1)).scalar()

    def ended(self, key: str, seconds: float | None) -> None:
        """A render of ``key`` here ended: its leases go; ``seconds`` (None if it failed) is
        recorded for the kit's later result ids on any server."""
        with self._writer() as conn, conn.begin():
            conn.execute(kit_requests.update().where(kit_requests.c.key == key,
                                                     kit_requests.c.owner == self.owner)
                         .values(lease=0.0))
            if seconds is not None:
                conn.execute(kit_requests.update().where(kit_requests.c.key == key,
                                                         kit_requests.c.seconds.is_(None))
                             .values(seconds=seconds))

    def prune(self) -> None:
        """Drop rows older than ``RETAIN_S`` (their kits may be gone from every cache)."""
        with self._prune_lock, self._writer() as conn, conn.begin():
            conn.execute(kit_requests.delete().where(
                kit_requests.c.created < time.time() - RETAIN_S))


def install(service: KitService, console: object) -> None:
    """Give ``service`` result ids kept in ``console``'s database, if it has one."""
    engine = getattr(getattr(console, "store", None), "engine", None)
    if isinstance(engine, Engine):
        service.tickets = SharedTickets(engine, service)


async def locate(service: KitService, ident: str, wait: float = 0.0) -> Status:
    """Where result id ``ident`` stands on this server, whichever server took its form: the
    id from the database, the kit from memory, else from the shared render cache, else being
    made by another server (its lease: then its kit is waited for up to ``wait`` seconds),
    else lined up here. Raises ``Busy``."""
    tickets = service.tickets
    if not isinstance(tickets, SharedTickets):
        return service.status(ident)
    if tickets.get(ident) is None:
        await asyncio.to_thread(tickets.load, ident)
    status = service.status(ident)
    ticket = status.ticket
    if status.state != "gone" or ticket is None:
        return status
    if await asyncio.to_thread(tickets.shared_entry, ticket.config, ticket.key):
        return service.status(ident)
    # a read first: while another server makes it, asking again costs no write
    if await asyncio.to_thread(tickets.elsewhere, ticket.key) is not None \
            or not await asyncio.to_thread(tickets.claim, ident, ticket.key):
        # another server is making it: its kit lands in the shared cache when made
        key, deadline = kept_key(ticket.config, PREVIEW_PAGES), time.monotonic() + wait
        while time.monotonic() < deadline:
            await asyncio.sleep(WAIT_STEP_S)
            if service.store is not None and service.store.has(key):
                shared = await asyncio.to_thread(tickets.shared_entry, ticket.config, ticket.key)
                if shared is not None:
                    return service.status(ident)
        return Status("waiting", ticket, place=0)
    if await asyncio.to_thread(tickets.shared_entry, ticket.config, ticket.key):
        # made meanwhile: the lease was free because its maker had just given it back
        await asyncio.to_thread(tickets.ended, ticket.key, None)
        return service.status(ident)
    service.transient.pop(ticket.key, None)  # a new try
    try:
        service._submit(ticket.key, ticket.config, ticket.client, background=False)
    except KitError as exc:  # remembered here: the same config fails the same way
        await asyncio.to_thread(tickets.ended, ticket.key, None)
        return Status("failed", ticket, error=exc)
    except Busy:
        await asyncio.to_thread(tickets.ended, ticket.key, None)
        raise
    return service.status(ident)


__all__ = ["SharedTickets", "install", "kit_requests", "locate"]
