"""Where the server's kits come from: a fair render line, and the service the routes share.

- ``RenderPool`` renders in worker processes (``spawn``: a clean interpreter each, and no
  ``pymp-*`` folder in the temp folder, which a fork server would keep until exit). Renders
  wait in one line per client (a client is its address, ``guard.TrustedProxies``); a free
  worker takes the first render of the waiting client served longest ago (round robin), a
  client with a render already running only when no other client waits, so one client delays
  another's kit by at most one render. A client may have ``per_client`` renders running or
  waiting (past that ``ClientBusy``: 429); at most ``queue`` renders wait in all (past that
  ``Overloaded``: 503 with ``Retry-After``). A request for a kit already waiting or running
  joins it. Background renders (ready-made kits) run only when no client waits, and leave a
  worker free.
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
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from ..cache import RenderCache
from ..config import KitConfig
from ..errors import ConfigError, KitError, LayoutError, RenderError
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import N_
from .kept import KEEP_S, Entry, Full, KitCache, Ticket, Tickets
from .kits import PREVIEW_PAGES, Rendered, config_key, keep_kit, load_kit

log = logging.getLogger("kit.web")

RENDER_TIMEOUT_S = 120.0
RETRY_AFTER_S = 5
STOP_GRACE_S = 10.0  # a running render may finish this long before its worker is ended
MAX_FAILURES = 1000  # configs remembered as failing, so a repeat is refused without a render
PER_CLIENT = 3  # renders one client may have running and waiting
QUEUE = 100  # renders that may wait in all before new ones get 503
REMEMBERED = (ConfigError, LayoutError)  # the same config fails the same way: no new render

Render = Callable[[KitConfig, int], Rendered]


# --- worker processes -------------------------------------------------------------------------

def _stop_on_term(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds: a render's temporary folder is removed


def _watch_parent(parent: int) -> None:
    """A worker whose server is gone (killed with SIGKILL, say) ends itself: an idle worker
    would otherwise wait for work for ever, an orphan."""
    while os.getppid() == parent:
        time.sleep(1.0)
    # A clean exit may never come: a render's result waits to be written to the gone server
    # and Python's exit waits for that. The kernel's alarm (default action: end the process)
    # ends it after a grace period, whatever Python is doing.
    signal.alarm(int(STOP_GRACE_S))
    os.kill(os.getpid(), signal.SIGTERM)  # as if the server had stopped it: clean exit


def _worker_setup(warm: bool, server: int) -> None:
    """In each worker: Ctrl-C is the server's to handle; SIGTERM exits cleanly; an orphan
    ends itself; imports once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_on_term)
    # the server's pid, given by the server: it may already be gone when this runs
    threading.Thread(target=_watch_parent, args=(server,), daemon=True,
                     name="watch-server").start()
    if warm:
        import pypdf  # noqa: F401
        import weasyprint  # noqa: F401


def process_pool(workers: int, warm: bool = True) -> ProcessPoolExecutor:
    """Worker processes started with ``spawn``: clean interpreters, nothing left in /tmp."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_setup, initargs=(warm, os.getpid()),
                               max_tasks_per_child=200)


def stop_executor(executor: Executor, grace: float = STOP_GRACE_S) -> None:
    """Cancel waiting work, let running renders finish for ``grace`` seconds, end the rest."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.terminate()
            process.join(5)
        if process.is_alive():
            process.kill()
            process.join(5)
    executor.shutdown(wait=True)


# --- the fair render queue ----------------------------------------------------------------------

class Overloaded(Exception):
    """The render line is full (the app answers 503 with ``Retry-After``)."""


class ClientBusy(Exception):
    """This client already has its share of renders running and waiting (429)."""


@dataclass(eq=False)
class Job:
    """One render: which kit, for which client; ``future`` gets the ``Rendered``."""

    key: str
    config: KitConfig
    client: str
    background: bool = False
    future: Future = field(default_factory=Future)
    started: float = 0.0
    seconds: float = 0.0  # how long the render took


class RenderPool:
    """Renders kits in workers, one line per client, taken in turn (see the module's doc).

    ``submit`` never blocks: it returns the render's future, or raises ``ClientBusy`` /
    ``Overloaded`` at once.
    """

    def __init__(self, workers: int, queue: int = QUEUE, kind: str = "process",
                 render: Render | None = None,
                 on_done: Callable[[Job, Future], None] | None = None,
                 lookup: Callable[[str], Rendered | None] | None = None,
                 per_client: int = PER_CLIENT) -> None:
        self.workers, self.queue_max, self.kind = workers, queue, kind
        self.capacity = workers + queue
        self.per_client = per_client
        self.render, self.on_done, self.lookup = render, on_done, lookup
        self._lock = threading.Lock()
        self._waiting: OrderedDict[str, deque[Job]] = OrderedDict()
        self._last: dict[str, float] = {}  # when each client's last render started
        self._background: deque[Job] = deque()
        self._running: dict[str, Job] = {}
        self._jobs: dict[str, Job] = {}  # waiting or running, by key
        self._executor: Executor | None = None
        self.started = self.shed = 0

    @property
    def active(self) -> int:
        """Renders running or waiting."""
        return len(self._jobs)

    @property
    def queued(self) -> int:
        """Renders waiting for a worker (clients' only)."""
        return sum(map(len, self._waiting.values()))

    def job(self, key: str) -> Job | None:
        """The render of ``key`` waiting or running, if any."""
        return self._jobs.get(key)

    def owner(self, key: str) -> str | None:
        """The client whose request started the render of ``key``; None if none runs."""
        job = self._jobs.get(key)
        return job.client if job is not None else None

    def _make_executor(self) -> Executor:
        if self.kind == "thread":
            return ThreadPoolExecutor(self.workers, thread_name_prefix="kit-render")
        return process_pool(self.workers)

    def submit(self, key: str, config: KitConfig, client: str = "",
               background: bool = False) -> Future:
        """Line up (or join) the render of ``config`` for ``client``."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None:
                if not background and job.background and job in self._background:
                    self._background.remove(job)  # a client asks for it: no longer background
                    job.background, job.client = False, client
                    self._waiting.setdefault(client, deque()).append(job)
                return job.future
            found = self.lookup(key) if self.lookup is not None else None
            if found is not None:  # finished since the caller looked: not started again
                done: Future = Future()
                done.set_result(found)
                return done
            if not background:
                self._admit(client)
            job = Job(key, config, client, background)
            self._jobs[key] = job
            if background:
                self._background.append(job)
            else:
                self._waiting.setdefault(client, deque()).append(job)
            started = self._dispatch()
        self._watch(started)
        return job.future

    def _admit(self, client: str) -> None:
        mine = sum(1 for j in self._jobs.values() if j.client == client and not j.background)
        if mine >= self.per_client:
            self.shed += 1
            raise ClientBusy
        if len(self._running) >= self.workers and self.queued >= self.queue_max:
            self.shed += 1
            raise Overloaded

    @staticmethod
    def _turn(waiting: Iterable[str], busy: set[str], last: dict[str, float]) -> str | None:
        """Whose turn it is: of the waiting clients (those with no render running, if any),
        the one served longest ago (never served: first), the earliest in line among equals."""
        clients = list(waiting)
        free = [c for c in clients if c not in busy]
        return min(free or clients, key=lambda c: last.get(c, 0.0)) if clients else None

    def _next(self) -> Job | None:
        """The next render to start: the client whose turn it is (``_turn``); else a
        background one, leaving a worker free for clients."""
        busy = {j.client for j in self._running.values() if not j.background}
        client = self._turn(self._waiting, busy, self._last)
        if client is not None:
            jobs = self._waiting[client]
            job = jobs.popleft()
            if not jobs:
                del self._waiting[client]
            self._last[client] = time.monotonic()
            if len(self._last) > 4 * MAX_FAILURES:  # forget clients no longer here
                here = set(self._waiting) | {j.client for j in self._jobs.values()}
                self._last = {c: t for c, t in self._last.items() if c in here}
            return job
        if self._background and len(self._running) < max(1, self.workers - 1):
            return self._background.popleft()
        return None

    def _dispatch(self) -> list[tuple[Job, Future]]:
        """Start renders while workers are free (lock held); the caller watches them."""
        started = []
        while len(self._running) < self.workers:
            job = self._next()
            if job is None:
                break
            if self._executor is None:
                self._executor = self._make_executor()
            try:
                running = self._executor.submit(self.render, job.config, PREVIEW_PAGES)
            except (BrokenProcessPool, RuntimeError):
                self._executor = self._make_executor()  # a worker died: start afresh
                running = self._executor.submit(self.render, job.config, PREVIEW_PAGES)
            job.started = time.monotonic()
            self._running[job.key] = job
            self.started += 1
            started.append((job, running))
        return started

    def _watch(self, started: list[tuple[Job, Future]]) -> None:
        # outside the lock: a render that is already done calls back at once
        for job, running in started:
            running.add_done_callback(lambda f, job=job: self._finished(job, f))

    def _finished(self, job: Job, running: Future) -> None:
        job.seconds = time.monotonic() - job.started
        if self.on_done is not None:
            try:
                self.on_done(job, running)
            except Exception:  # never leave the line stuck
                log.exception("storing the kit %s failed", job.key)
        with self._lock:
            self._running.pop(job.key, None)
            self._jobs.pop(job.key, None)
            if not running.cancelled() and isinstance(running.exception(), BrokenProcessPool):
                self._executor = None
            started = self._dispatch()
        self._watch(started)
        if running.cancelled():
            job.future.cancel()
        elif running.exception() is not None:
            job.future.set_exception(running.exception())
        else:
            job.future.set_result(running.result())

    def place(self, key: str) -> int | None:
        """``key``'s place in line: 0 while it renders, 1 for the next to start; None if it is
        neither waiting nor running."""
        with self._lock:
            if key in self._running:
                return 0
            if key not in self._jobs:
                return None
            for number, job in enumerate(self._order(), start=1):
                if job.key == key:
                    return number
        return None

    def _order(self) -> Iterator[Job]:
        """The waiting renders in the order they would start (each client's turn takes one)."""
        lines = OrderedDict((c, deque(jobs)) for c, jobs in self._waiting.items())
        busy = {j.client for j in self._running.values() if not j.background}
        last, now = dict(self._last), time.monotonic()
        while lines:
            if all(c in busy for c in lines):
                busy = set()  # a round is over: their renders will have finished
            client = self._turn(lines, busy, last)
            busy.add(client)  # type: ignore[arg-type]
            now += 1.0
            last[client] = now  # type: ignore[index]
            yield lines[client].popleft()  # type: ignore[index]
            if not lines[client]:  # type: ignore[index]
                del lines[client]  # type: ignore[arg-type]
        yield from list(self._background)

    def shutdown(self) -> None:
        """Stop the workers (none is left running, nothing is left in the temp folder)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            stop_executor(executor)


# --- the service ------------------------------------------------------------------------------

class Busy(Exception):
    """No kit right now; the app answers ``status`` (503, or 429 for one client's share) with
    ``Retry-After``."""

    def __init__(self, heading: str, text: str, status: int = 503,
                 retry_after: float = RETRY_AFTER_S) -> None:
        super().__init__(text)
        self.heading, self.text, self.status = heading, text, status
        self.retry_after = max(1, round(retry_after))


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
                               lookup=self._cached, per_client=per_client)
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
                log.error("rendering %s failed: %r", job.config.folder_name, error)
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
            return known  # type: ignore[return-value]
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
