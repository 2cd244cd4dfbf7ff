"""The service the server's routes share, over the fair render line (``pool.RenderPool``);
``Busy`` when no kit can be had right now, ``Status`` where a result id stands.

- What is kept (``kept.py``): built kits in memory (``KitCache``; a custom kit at least 10
  minutes after it is made, whatever others ask: when kept kits fill the cache, new renders
  wait, 503) and the random result ids (``Tickets``). An id for a kit another client had made
  shows "being made" for as long as that kit took to render, so whether someone built a config
  is not observable.
- ``KitService`` ties them together for the app, and keeps built ready-made kits in the
  persistent render cache too (``kits.keep_kit``), so a restarted server loads the English ones
  at start (``load_kept``) and the other languages' on first ask, instead of rendering them
  again. Deterministic failures (``ConfigError``, ``LayoutError``) are remembered; others (a
  full disk: ``RenderError``) are not, so the next ask renders again.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from ..cache import RenderCache
from ..config import KitConfig
from ..errors import KitError, RenderError
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import N_
from ..server.pool import (
    MAX_FAILURES,
    PER_CLIENT,
    REMEMBERED,
    RENDER_TIMEOUT_S,
    Busy,
    ClientBusy,
    Job,
    Overloaded,
    Render,
    RenderPool,
    log,
)
from .kit_cache import KEEP_S, Entry, Full, KitCache, Ticket, Tickets
from .kits import PREVIEW_PAGES, Rendered, config_key, keep_kit, load_kit


def _busy(error: Exception) -> Busy:
    if isinstance(error, ClientBusy):
        return Busy(N_("Your kits are being made"),
                    N_("Several of your kits are being made already. Please wait until one is "
                       "ready, then ask again."), status=429)
    return Busy(N_("Busy right now"), N_("Many kits are being made at the moment. Please try "
                                         "again in a few seconds."))


@dataclass
class Status:
    """Where a result id stands: ``state`` is ready, waiting, failed or gone."""

    state: str
    ticket: Ticket | None = None
    entry: Entry | None = None
    place: int = 0  # waiting: 0 being made, 1 next, ...
    error: KitError | None = None


class KitService:
    """What the routes share: the ready-made kits, the in-memory cache, the pool, the store."""

    def __init__(self, *, workers: int, queue: int, cache_mb: int, executor: str,
                 render: Render, ready: list[KitConfig], prewarm: bool,
                 store: RenderCache | None, per_client: int = PER_CLIENT) -> None:
        self.cache = KitCache(cache_mb * 1024 * 1024)
        self.ready = {c.folder_name: c for c in ready}
        self.ready_keys = {config_key(c): c for c in ready}
        # prewarmed, loaded at start and pinned in memory: the English ones; the other
        # languages' are rendered on demand and kept in the persistent cache
        self.warm_keys = {k for k, c in self.ready_keys.items() if c.lang == DEFAULT_LANGUAGE}
        self.failures: dict[str, KitError] = {}
        self.transient: dict[str, KitError] = {}  # the last try's error, until the next try
        self.tickets = Tickets()
        self.cards: dict = {}  # the index card of each ready-made kit rendered here
        self.pool = RenderPool(workers, queue, executor, render, on_done=self._finished,
                               lookup=self._cached, per_client=per_client,
                               preview_pages=PREVIEW_PAGES)
        self.prewarm, self.store = prewarm, store

    def load_kept(self) -> int:
        """English ready-made kits an earlier run kept in the render cache, into memory; how
        many."""
        loaded = 0
        for key, config in self.ready_keys.items():
            if key in self.warm_keys and self.cache.get(key) is None:
                rendered = load_kit(self.store, config, PREVIEW_PAGES)
                if rendered is not None:
                    self.cache.put(key, Entry(rendered, pinned=True))
                    loaded += 1
        return loaded

    def _cached(self, key: str) -> Rendered | None:
        entry = self.cache.get(key)
        return entry.rendered if entry is not None else None

    def _finished(self, job: Job, future: Future) -> None:
        if future.cancelled():
            return
        error = future.exception()
        if isinstance(error, REMEMBERED):
            self.failures[job.key] = error
            if len(self.failures) > MAX_FAILURES:
                self.failures.pop(next(iter(self.failures)))
        elif error is not None:  # not remembered: the next ask renders again
            if not isinstance(error, KitError):
                name = job.config.folder_name if job.config is not None else job.key
                log.error("rendering %s failed: %r", name, error)
                error = RenderError("kit", "the server could not make this kit; please try "
                                    "again")
            self.transient[job.key] = error
            if len(self.transient) > MAX_FAILURES:
                self.transient.pop(next(iter(self.transient)))
            self.tickets.failed(job.key, error)
        else:
            rendered = future.result()
            custom = job.key not in self.ready_keys
            # custom kits too, and first: a server behind the same cache folder serves it
            keep_kit(self.store, rendered, PREVIEW_PAGES)
            self.cache.put(job.key, Entry(rendered, pinned=job.key in self.warm_keys,
                                          keep_until=time.monotonic() + KEEP_S if custom
                                          else 0.0, seconds=job.seconds, client=job.client))
        # last (shared.SharedTickets.add relies on it): other servers learn it is made or failed
        self.tickets.ended(job.key, None if error is not None else job.seconds)

    async def kept(self, config: KitConfig) -> Entry | None:
        """The built kit of ``config`` in memory or, for a ready-made kit, in the persistent
        cache (then into memory); None if neither has it. Never renders."""
        key = config_key(config)
        entry = self.cache.get(key)
        if entry is not None or key not in self.ready_keys or self.store is None:
            return entry
        rendered = await asyncio.to_thread(load_kit, self.store, config, PREVIEW_PAGES)
        if rendered is None:
            return None
        self.cache.put(key, Entry(rendered, pinned=key in self.warm_keys))
        return self.cache.get(key) or Entry(rendered)

    def _submit(self, key: str, config: KitConfig, client: str, background: bool) -> Future:
        failure = self.failures.get(key)
        if failure is not None:
            raise failure
        if not background and self.pool.owner(key) is None:
            wait = self.cache.full_for(client)
            if wait:  # one client's kept kits may fill a quarter of the memory, no more
                raise Busy(N_("Your kits are being kept"), N_(
                    "The kits you made in the last minutes fill your share of the server's "
                    "memory. Please try again in a few minutes."), status=429, retry_after=wait)
            wait = self.cache.full_for()
            if wait:
                raise Busy(N_("Busy right now"), N_("Many kits are kept for their makers at the "
                                                    "moment. Please try again in a few "
                                                    "minutes."), retry_after=wait)
        try:
            future = self.pool.submit(key, config, client, background)
        except (ClientBusy, Overloaded) as exc:
            raise _busy(exc) from None
        self.cache.misses += 1
        return future

    async def kit(self, config: KitConfig, *, client: str = "",
                  background: bool = False) -> tuple[Entry, bool]:
        """The built kit for ``config`` (from the cache when there), and whether it was cached;
        waits for its render. Raises the kit's ``KitError``, or ``Busy``."""
        key = config_key(config)
        entry = await self.kept(config)
        if entry is not None:
            self.cache.hits += 1
            return entry, True
        future = self._submit(key, config, client, background)
        try:
            result = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)),
                                            RENDER_TIMEOUT_S)
        except TimeoutError:
            raise Busy(N_("Taking too long"), N_("The kit is still being made. Please try again "
                                                 "shortly.")) from None
        except BrokenProcessPool:
            raise Busy(N_("Worker restarted"), N_("Please try again.")) from None
        return self.cache.get(key) or Entry(result), False

    def order(self, config: KitConfig, client: str) -> str:
        """A result id for ``config`` asked for by ``client``: its render lined up (or joined,
        or already done). Never waits. Raises the kit's remembered ``KitError``, or ``Busy``."""
        key = config_key(config)
        failure = self.failures.get(key)
        if failure is not None:
            raise failure
        known = self.tickets.find(client, key)
        ticket = self.tickets.get(known) if known else None
        if ticket is not None and known and self.status(known).state != "failed":
            self.cache.keep(key, time.monotonic() + KEEP_S)
            return known
        entry = self.cache.get(key)
        if entry is None and not self.pool.job(key):  # made by another server (shared.py)?
            entry = self.tickets.shared_entry(config, key)
        # another server behind the same database making it now: its client (shared.locate)
        other = self.tickets.elsewhere(key) if entry is None and not self.pool.job(key) else None
        if other is not None:
            borrowed = other != client
        elif entry is None:
            if self.pool.owner(key) is None:
                self.transient.pop(key, None)  # a new try
            self._submit(key, config, client, background=False)
            owner = self.pool.owner(key)
            entry = self.cache.get(key)  # a render may finish at once
            borrowed = (entry.client if entry else owner) not in (client, None)
        else:
            self.cache.hits += 1
            self.cache.keep(key, time.monotonic() + KEEP_S)
            borrowed = entry.client != client
        try:
            return self.tickets.add(Ticket(key, config, client, time.monotonic(), borrowed))
        except Full:
            raise _busy(Overloaded()) from None

    async def settle(self, ident: str, seconds: float) -> None:
        """Wait up to ``seconds`` for the render of result id ``ident`` to end, if one runs
        (an id shown late on purpose, ``Ticket.borrowed``, is not waited for)."""
        ticket = self.tickets.get(ident)
        job = self.pool.job(ticket.key) if ticket is not None and not ticket.borrowed else None
        if job is not None:
            with contextlib.suppress(Exception):  # its error is the status's to show
                await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(job.future)),
                                       seconds)

    def status(self, ident: str) -> Status:
        """Where the result id ``ident`` stands (see ``Status``)."""
        ticket = self.tickets.get(ident)
        if ticket is None:
            return Status("gone")
        entry = self.cache.get(ticket.key)
        if entry is not None:
            shown = ticket.created + (entry.seconds if ticket.borrowed else 0.0)
            if time.monotonic() >= shown:
                return Status("ready", ticket, entry)
            return Status("waiting", ticket, place=0)
        error = (ticket.error or self.failures.get(ticket.key)
                 or self.transient.get(ticket.key))
        if error is not None:
            return Status("failed", ticket, error=error)
        place = self.pool.place(ticket.key)
        return Status("gone", ticket) if place is None else Status("waiting", ticket,
                                                                   place=place)

    async def run_prewarm(self) -> None:
        """Render the ready-made kits one at a time, behind every client's request: English
        first, then every other language's (so their cards get thumbnails and sizes)."""
        configs = sorted(self.ready.values(), key=lambda c: config_key(c) not in self.warm_keys)
        for config in configs:
            while True:
                try:
                    await self.kit(config, background=True)
                    break
                except Busy:
                    await asyncio.sleep(1.0)
                except KitError as exc:
                    log.error("ready-made kit %s cannot be built: %s", config.folder_name, exc)
                    break

    def health(self) -> dict[str, object]:
        pool = self.pool
        return {"pool": {"active": pool.active, "queued": pool.queued, "workers": pool.workers,
                         "capacity": pool.capacity, "started": pool.started, "shed": pool.shed},
                "cache": self.cache.stats(), "ready": len(self.ready),
                "results": len(self.tickets)}
