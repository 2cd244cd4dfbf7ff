"""Where the server's kits come from: a bounded render pool and an in-memory cache of built kits.

- ``RenderPool`` renders in worker processes (``spawn``: a clean interpreter each, and no
  ``pymp-*`` folder in the temp folder, which a fork server would keep until exit). It admits at
  most ``workers + queue`` renders at once; past that ``submit`` raises ``Overloaded`` at once
  (the app answers 503 with ``Retry-After``), and a request for a kit already being rendered
  joins that render instead of starting another. ``shutdown`` stops every worker.
- ``KitCache`` holds built kits by config key, bounded in bytes, least recently used custom kits
  dropped first; English ready-made kits (the prewarmed ones) are pinned.
- ``KitService`` ties them together for the app, and keeps built ready-made kits in the
  persistent render cache too (``kits.keep_kit``), so a restarted server loads the English ones
  at start (``load_kept``) and the other languages' on first ask, instead of rendering them
  again.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from ..cache import RenderCache
from ..config import KitConfig
from ..errors import KitError
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import N_
from .kits import PREVIEW_PAGES, Rendered, config_key, keep_kit, load_kit

log = logging.getLogger("kit.web")

RENDER_TIMEOUT_S = 120.0
RETRY_AFTER_S = 5
STOP_GRACE_S = 10.0  # a running render may finish this long before its worker is ended
MAX_FAILURES = 1000  # configs remembered as failing, so a repeat is refused without a render

Render = Callable[[KitConfig, int], Rendered]


# --- worker processes -------------------------------------------------------------------------

def _stop_on_term(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds: a render's temporary folder is removed


def _worker_setup(warm: bool) -> None:
    """In each worker: Ctrl-C is the server's to handle; SIGTERM exits cleanly; imports once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_on_term)
    if warm:
        import pypdf  # noqa: F401
        import weasyprint  # noqa: F401


def process_pool(workers: int, warm: bool = True) -> ProcessPoolExecutor:
    """Worker processes started with ``spawn``: clean interpreters, nothing left in /tmp."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_setup, initargs=(warm,),
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


# --- the pool ---------------------------------------------------------------------------------

class Overloaded(Exception):
    """No free place in the render pool."""


class RenderPool:
    """Renders kits in workers; at most ``workers + queue`` admitted at once.

    ``submit`` never blocks: over capacity it raises ``Overloaded``. Requests for a kit
    already being rendered join that render instead of starting another.
    """

    def __init__(self, workers: int, queue: int, kind: str = "process",
                 render: Render | None = None,
                 on_done: Callable[[str, Future], None] | None = None,
                 lookup: Callable[[str], Rendered | None] | None = None) -> None:
        self.workers, self.capacity, self.kind = workers, workers + queue, kind
        self.render, self.on_done, self.lookup = render, on_done, lookup
        self._lock = threading.Lock()
        self._active = 0
        self._inflight: dict[str, Future] = {}
        self._executor: Executor | None = None
        self.started = self.shed = 0

    def _make_executor(self) -> Executor:
        if self.kind == "thread":
            return ThreadPoolExecutor(self.workers, thread_name_prefix="kit-render")
        return process_pool(self.workers)

    @property
    def active(self) -> int:
        return self._active

    def _start(self, config: KitConfig) -> Future:
        if self._executor is None:
            self._executor = self._make_executor()
        try:
            return self._executor.submit(self.render, config, PREVIEW_PAGES)
        except (BrokenProcessPool, RuntimeError):
            self._executor = self._make_executor()  # a worker died: start afresh
            return self._executor.submit(self.render, config, PREVIEW_PAGES)

    def submit(self, key: str, config: KitConfig, reserve: int = 0) -> Future:
        """Start (or join) the render of ``config``; ``reserve`` keeps places free for others."""
        with self._lock:
            running = self._inflight.get(key)
            if running is not None:
                return running
            # a render that finished since the caller looked is not started again
            found = self.lookup(key) if self.lookup is not None else None
            if found is not None:
                done: Future = Future()
                done.set_result(found)
                return done
            if self._active >= self.capacity - reserve:
                self.shed += 1
                raise Overloaded
            future = self._start(config)
            self._active += 1
            self.started += 1
            self._inflight[key] = future
        future.add_done_callback(lambda f: self._finished(key, f))
        return future

    def _finished(self, key: str, future: Future) -> None:
        if self.on_done is not None:
            try:
                self.on_done(key, future)
            except Exception:  # never leave the counters wrong
                log.exception("storing the kit %s failed", key)
        with self._lock:
            self._active -= 1
            self._inflight.pop(key, None)
            if not future.cancelled() and isinstance(future.exception(), BrokenProcessPool):
                self._executor = None

    def shutdown(self) -> None:
        """Stop the workers (none is left running, nothing is left in the temp folder)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            stop_executor(executor)


# --- the in-memory cache ----------------------------------------------------------------------

@dataclass
class Entry:
    rendered: Rendered
    pinned: bool = False  # ready-made kits stay; custom kits are evicted least recently used
    zip: bytes | None = None

    @property
    def nbytes(self) -> int:
        return self.rendered.nbytes + (len(self.zip) if self.zip else 0)


class KitCache:
    """Built kits by config key, bounded in bytes; least recently used custom kits go first."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: str) -> Entry | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def put(self, key: str, entry: Entry) -> None:
        with self._lock:
            old = self._entries.get(key)
            if old is not None:
                entry.pinned = entry.pinned or old.pinned
            self._entries[key] = entry
            self._entries.move_to_end(key)
            self._evict()

    def set_zip(self, key: str, data: bytes) -> None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry.zip is None:
                entry.zip = data
                self._evict()

    def _evict(self) -> None:
        total = sum(e.nbytes for e in self._entries.values())
        for key in list(self._entries):
            if total <= self.max_bytes:
                break
            entry = self._entries[key]
            if not entry.pinned:
                total -= entry.nbytes
                del self._entries[key]

    def stats(self) -> dict[str, int]:
        with self._lock:
            return {"kits": len(self._entries), "hits": self.hits, "misses": self.misses,
                    "bytes": sum(e.nbytes for e in self._entries.values())}


# --- the service ------------------------------------------------------------------------------

class Busy(Exception):
    """No kit right now; the app answers 503 with ``Retry-After``."""

    def __init__(self, heading: str, text: str) -> None:
        super().__init__(text)
        self.heading, self.text, self.retry_after = heading, text, RETRY_AFTER_S


class KitService:
    """What the routes share: the ready-made kits, the in-memory cache, the pool, the store."""

    def __init__(self, *, workers: int, queue: int, cache_mb: int, executor: str,
                 render: Render, ready: list[KitConfig], prewarm: bool,
                 store: RenderCache | None) -> None:
        self.cache = KitCache(cache_mb * 1024 * 1024)
        self.ready = {c.folder_name: c for c in ready}
        self.ready_keys = {config_key(c): c for c in ready}
        # prewarmed, loaded at start and pinned in memory: the English ones; the other
        # languages' are rendered on demand and kept in the persistent cache
        self.warm_keys = {k for k, c in self.ready_keys.items() if c.lang == DEFAULT_LANGUAGE}
        self.failures: dict[str, KitError] = {}
        self.pool = RenderPool(workers, queue, executor, render, on_done=self._finished,
                               lookup=self._cached)
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

    def _finished(self, key: str, future: Future) -> None:
        if future.cancelled():
            return
        error = future.exception()
        if isinstance(error, KitError):
            self.failures[key] = error
            if len(self.failures) > MAX_FAILURES:
                self.failures.pop(next(iter(self.failures)))
        elif error is None:
            rendered = future.result()
            self.cache.put(key, Entry(rendered, pinned=key in self.warm_keys))
            if key in self.ready_keys:
                keep_kit(self.store, rendered, PREVIEW_PAGES)

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

    async def kit(self, config: KitConfig, *, background: bool = False) -> tuple[Entry, bool]:
        """The built kit for ``config`` (from the cache when there), and whether it was cached.

        Raises the kit's ``KitError``, or ``Busy`` when the pool is full or the render slow.
        """
        key = config_key(config)
        entry = await self.kept(config)
        if entry is not None:
            self.cache.hits += 1
            return entry, True
        failure = self.failures.get(key)
        if failure is not None:
            raise failure
        try:
            future = self.pool.submit(key, config, reserve=self.pool.capacity - 1
                                      if background else 0)
        except Overloaded:
            raise Busy(N_("Busy right now"), N_("Several kits are being made at the moment. "
                                                "Please try again in a few seconds.")) from None
        self.cache.misses += 1
        try:
            result = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)),
                                            RENDER_TIMEOUT_S)
        except TimeoutError:
            raise Busy(N_("Taking too long"), N_("The kit is still being made. Please try again "
                                                 "shortly.")) from None
        except BrokenProcessPool:
            raise Busy(N_("Worker restarted"), N_("Please try again.")) from None
        return self.cache.get(key) or Entry(result), False

    async def run_prewarm(self) -> None:
        """Render the English ready-made kits one at a time, leaving the other places to
        requests (the other languages' are rendered when first asked for)."""
        for config in self.ready.values():
            if config_key(config) not in self.warm_keys:
                continue
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
        return {"pool": {"active": pool.active, "capacity": pool.capacity,
                         "started": pool.started, "shed": pool.shed},
                "cache": self.cache.stats(), "ready": len(self.ready)}
