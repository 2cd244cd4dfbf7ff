"""Where the server's kits are rendered: worker processes and a fair render line.

- ``RenderPool`` renders in worker processes (``spawn``: a clean interpreter each, and no
  ``pymp-*`` folder in the temp folder, which a fork server would keep until exit). Renders
  wait in one line per client (a client is its address, ``guard.TrustedProxies``); a free
  worker takes the first render of the waiting client served longest ago (round robin), a
  client with a render already running only when no other client waits, so one client delays
  another's kit by at most one render. A client may have ``per_client`` renders running or
  waiting (past that ``ClientBusy``: 429); at most ``queue`` renders wait in all (past that
  ``Overloaded``: 503 with ``Retry-After``). A request for a kit already waiting or running
  joins it. Background renders (ready-made kits) run only when no client waits, and leave a
  worker free. Other renders (the console's report files: ``submit_work``, any picklable
  call) take the same line, share and workers, and join one of the same key the same way;
  each says about how many pages it makes, and a client may have ``page_budget`` pages running
  and waiting (past that ``ClientBusy``, as past its share; a client with nothing in line is
  never refused for pages: one render's own cap is its caller's, ``limits.WEB_MAX_PAGES``).
- ``KitService`` (``service.py``) ties the line to what is kept for the app.
"""

from __future__ import annotations

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
from functools import partial
from typing import Any

from ..config import KitConfig
from ..errors import ConfigError, LayoutError
from .limits import WEB_MAX_PAGES

log = logging.getLogger("kit.web")

RENDER_TIMEOUT_S = 120.0
RETRY_AFTER_S = 5
STOP_GRACE_S = 10.0  # a running render may finish this long before its worker is ended
# a render takes seconds, a page milliseconds: on a laptop of two cores the pages come first
# (300 phones asking for their page after a publish while its report files are made)
WORKER_NICENESS = 10
MAX_FAILURES = 1000  # configs remembered as failing, so a repeat is refused without a render
PER_CLIENT = 3  # renders one client may have running and waiting
QUEUE = 100  # renders that may wait in all before new ones get 503
PAGE_BUDGET = 2 * WEB_MAX_PAGES  # pages one client's renders may make, running and waiting
REMEMBERED = (ConfigError, LayoutError)  # the same config fails the same way: no new render

# a kit of the config with that many preview pages; the pool only hands it on
Render = Callable[[KitConfig, int], Any]


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
    ends itself; it yields the processor to the server's pages (``WORKER_NICENESS``);
    imports once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(WORKER_NICENESS)
    signal.signal(signal.SIGTERM, _stop_on_term)
    # the server's pid, given by the server: it may already be gone when this runs
    threading.Thread(target=_watch_parent, args=(server,), daemon=True,
                     name="watch-server").start()
    if warm:
        import pypdf  # noqa: F401

        from ..loader import import_weasyprint

        import_weasyprint()


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

class Busy(Exception):
    """No answer right now; the app answers ``status`` (503, or 429 for one client's share)
    with ``Retry-After``."""

    def __init__(self, heading: str, text: str, status: int = 503,
                 retry_after: float = RETRY_AFTER_S) -> None:
        super().__init__(text)
        self.heading, self.text, self.status = heading, text, status
        self.retry_after = max(1, round(retry_after))


class Overloaded(Exception):
    """The render line is full (the app answers 503 with ``Retry-After``)."""


class ClientBusy(Exception):
    """This client already has its share of renders running and waiting (429)."""


@dataclass(eq=False)
class Job:
    """One render: which kit (or, for ``work``, which other render), for which client;
    ``future`` gets the ``Rendered`` (or what ``work`` returns)."""

    key: str
    config: KitConfig | None
    client: str
    background: bool = False
    work: Callable[[], object] | None = None  # a render of the console's (picklable)
    future: Future = field(default_factory=Future)
    started: float = 0.0
    seconds: float = 0.0  # how long the render took
    pages: int = 0  # about how many pages it makes (``work``'s, said by its caller)


class RenderPool:
    """Renders kits in workers, one line per client, taken in turn (see the module's doc).

    ``submit`` never blocks: it returns the render's future, or raises ``ClientBusy`` /
    ``Overloaded`` at once.
    """

    def __init__(self, workers: int, queue: int = QUEUE, kind: str = "process",
                 render: Render | None = None,
                 on_done: Callable[[Job, Future], None] | None = None,
                 lookup: Callable[[str], Any] | None = None,
                 per_client: int = PER_CLIENT, page_budget: int = PAGE_BUDGET,
                 preview_pages: int = 1) -> None:
        self.workers, self.queue_max, self.kind = workers, queue, kind
        self.capacity = workers + queue
        self.per_client, self.page_budget = per_client, page_budget
        self.render, self.on_done, self.lookup = render, on_done, lookup
        self.preview_pages = preview_pages
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

    def _render(self) -> Render:
        if self.render is None:  # the service sets it before any submit
            raise RuntimeError("the render pool was started without its render function")
        return self.render

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

    def submit_work(self, key: str, work: Callable[[], object],
                    client: str = "", pages: int = 0) -> tuple[Future, bool]:
        """Line up (or join) ``work`` (a picklable call: a render that is not a kit, such as a
        game's report files, of about ``pages`` pages) for ``client``, under the same share,
        page budget and line as kits; its future, and whether this call started it (False: it
        joined the one of ``key``, charged to the client that started it)."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None:
                return job.future, False
            self._admit(client, pages)
            job = Job(key, None, client, work=work, pages=pages)
            self._jobs[key] = job
            self._waiting.setdefault(client, deque()).append(job)
            started = self._dispatch()
        self._watch(started)
        return job.future, True

    def _admit(self, client: str, pages: int = 0) -> None:
        mine = [j for j in self._jobs.values() if j.client == client and not j.background]
        over = mine and sum(j.pages for j in mine) + pages > self.page_budget
        if len(mine) >= self.per_client or over:
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
            call = (job.work,) if job.work is not None else (
                self._render(), job.config, self.preview_pages)
            try:
                running = self._executor.submit(*call)
            except (BrokenProcessPool, RuntimeError):
                self._executor = self._make_executor()  # a worker died: start afresh
                running = self._executor.submit(*call)
            job.started = time.monotonic()
            self._running[job.key] = job
            self.started += 1
            started.append((job, running))
        return started

    def _watch(self, started: list[tuple[Job, Future]]) -> None:
        # outside the lock: a render that is already done calls back at once
        for job, running in started:
            running.add_done_callback(partial(self._finished, job))

    def _finished(self, job: Job, running: Future) -> None:
        job.seconds = time.monotonic() - job.started
        if self.on_done is not None and job.work is None:  # a kit's: the service keeps it
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
