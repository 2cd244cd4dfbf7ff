"""``kit serve``: the download page of ready-made kits plus a custom-kit form, over HTTP.

Built on Starlette (ASGI toolkit) served by Hypercorn. Why these two: a kit takes about a second
of CPU in WeasyPrint, so the web layer must never render on the event loop or let renders pile
up. An async app lets every request wait on a bounded worker pool while the loop keeps answering
(index, cached files, "being made" pages); Starlette is small, typed, has no ORM/template/session
baggage we would not use, and its ``TestClient`` drives the app in-process for fast tests.
Hypercorn, not uvicorn: uvicorn's only timeout starts after a first answer, so a connection that
never sends a request is held for ever (``server_config``). Flask/WSGI would tie up a thread per
render; Django brings far more than one form. Everything a request passes before the app, and
what every answer carries, is ``guard.Guard``'s (outermost: ``KitApp``).

Behaviour:
- Form errors come from ``kit.config.resolve`` (``KitError``): shown next to the field and in a
  summary, in the CLI's words (``<field>: <message>``), with status 422. Other bad requests get
  400/404/413/415; none reach 500.
- Built kits are cached in memory by a SHA-256 of the normalized ``KitConfig``; a repeat is
  served from the cache, and concurrent requests for the same kit share one render. Prose pages
  and built ready-made kits are also kept in the persistent render cache (``kit.cache``), so a
  restarted server has its ready-made kits and their thumbnails at once.
- A sent form is answered at once (303) with a random result id (``kit_cache.Tickets``); its page
  says "being made" with its place in line (202, reloading itself) until the kit is ready.
  The id is also a row of the console's database and the kit is kept in the render cache
  folder (``shared``), so every server behind one database and one cache folder answers it.
  Renders wait in a fair line per client (``pool.RenderPool``): past a client's share 429, past
  the bounded line 503, both with ``Retry-After``.
- Every response carries CSP, nosniff, frame and referrer headers (``guard.Guard``).
- Pages speak the user's language (``kit.i18n.LANGUAGES``): ``?lang=xx`` when given (links to
  the site's other pages then carry it on), else the best match of ``Accept-Language``, else
  English (``language.negotiate``). Every page has a language switcher. The form's ``lang`` (the
  kit's language) defaults to the page language; the index lists the ready-made kits in the
  page language (all languages are ready-made kits: rendered on demand and kept in the
  persistent render cache; only English ones are prewarmed).

The site's endpoints are ``kit.site.routes``; this module wires them, ``/healthz``, the
console's routes, the guard and the mail sender into one app (``create_app``) and serves it
(``serve``). What the endpoints share is ``request.app.state``: ``service``
(``site.service.KitService``), ``css`` and ``icon``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hmac
import ipaddress
import logging
import os
import sys
import time
from collections.abc import Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..cache import RenderCache, default_cache

if TYPE_CHECKING:
    from hypercorn.config import Config as HypercornConfig
from ..console.mail.postbox import game_titles, report_files
from ..i18n import LANGUAGES
from ..mail.commands import MailSetup, check_in_background
from ..mail.outbox import Sender, SenderThread
from ..server.addresses import start_lines
from ..server.answers import (
    on_body_timeout,
    on_busy,
    on_error,
    on_http_error,
    on_problem,
    on_unavailable,
)
from ..server.guard import (
    LOOPBACK_HOSTS,
    BodyTimeout,
    Guard,
    StreamShare,
    TrustedProxies,
)
from ..server.http import (
    HTTPProblem,
    client_of,
)
from ..server.limits import CACHE_MB, QUEUE, WEB_MAX_PAGES, WORKERS
from ..server.pool import QUEUE as DEFAULT_QUEUE
from ..server.pool import STOP_GRACE_S, Busy, Render
from ..server.share import listen
from ..server.wire import close_when_clients_leave, open_files_limit, strict_heads
from ..site.kits import ready_configs, render_kit
from ..site.pages import (
    WEB_MAX_PLAYERS,
    site_css,
    site_icon,
)
from ..site.routes import routes as site_routes
from ..site.service import KitService
from ..site.shared import install as share_tickets
from .settings import ServeSettings

log = logging.getLogger("kit.web")

HEAD_TIMEOUT_S = 5.0  # a connection's whole request head must arrive within this


def _service(request: Request) -> KitService:
    return request.app.state.service


def may_see_details(request: Request) -> bool:
    """Whether ``/healthz`` shows its figures: to this machine (a loopback client that no
    trusted proxy forwarded) or to ``Authorization: Bearer $KIT_HEALTH_TOKEN``."""
    token = os.environ.get("KIT_HEALTH_TOKEN", "")
    given = request.headers.get("authorization", "")
    if token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return True
    try:
        return ipaddress.ip_address(client_of(request)).is_loopback
    except ValueError:
        return False


async def health(request: Request) -> Response:
    """Whether the server is up; its load only for ``may_see_details``."""
    body: dict[str, object] = {"status": "ok"}
    if may_see_details(request):
        body.update(_service(request).health())
    return JSONResponse(body, headers={"cache-control": "no-store"})


# --- the application --------------------------------------------------------------------------

@contextlib.asynccontextmanager
async def lifespan(app: Starlette):
    """At start: ready-made kits kept by an earlier run, then prewarm; at stop: the workers."""
    service: KitService = app.state.service
    loaded = await run_in_threadpool(service.load_kept)
    if loaded:
        log.info("%d ready-made kits loaded from the render cache", loaded)
    task = asyncio.create_task(service.run_prewarm()) if service.prewarm else None
    mail = app.state.mail
    if mail is not None:
        mail.start()
    try:
        yield
    finally:
        if mail is not None:  # a message being sent may finish (an SMTP command's timeout)
            await run_in_threadpool(mail.stop, STOP_GRACE_S)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await run_in_threadpool(service.pool.shutdown)
        log.info("render workers stopped")


ROUTES = [*site_routes(), Route("/healthz", health)]


class KitApp(Starlette):
    """Starlette with ``guard.Guard`` outside its own error middleware, so every answer (a 500
    included) passes the guard's checks and gets its headers."""

    guard_options: dict[str, object]

    def build_middleware_stack(self):  # noqa: ANN201 - Starlette's own signature
        # guard_options holds Guard's own keywords, as create_app sets them
        return Guard(super().build_middleware_stack(), **self.guard_options)  # type: ignore[arg-type]


# In-process tests: Starlette's TestClient sends ``Host: testserver``; ``serve`` never allows it.
TEST_HOSTS = (*LOOPBACK_HOSTS, "testserver")


def create_app(*, workers: int = 2, queue: int | None = None, cache_mb: int = 256,
               executor: str = "process", prewarm: bool = True,
               games: Iterable[str] | None = None, players: Iterable[int] | None = None,
               papers: Iterable[str] | None = None, render: Render | None = None,
               store: RenderCache | None = None, database: str | None = None,
               console: object | None = None, allowed_hosts: Sequence[str] | None = None,
               forwarded_allow_ips: Sequence[str] = (), per_client: int | None = None,
               mail: MailSetup | None = None, public_url: str | None = None,
               listen_host: str | None = None) -> Starlette:
    """The ASGI app. ``executor='thread'`` renders in this process (tests); 'process' in workers.

    ``store`` is the persistent render cache (default: ``kit.cache.default_cache()``);
    ``render`` replaces ``render_kit`` (tests). ``allowed_hosts``: the ``Host`` names served
    (default ``TEST_HOSTS``); ``forwarded_allow_ips``: proxies whose ``X-Forwarded-For`` names
    the client; ``queue``: renders that may wait; ``per_client``: renders one client may have
    running and waiting. ``mail``: the outbox is sent through it by a background thread.
    """
    workers = WORKERS.convert("workers", workers)
    queue = QUEUE.convert("queue", DEFAULT_QUEUE if queue is None else queue)
    cache_mb = CACHE_MB.convert("cache_mb", cache_mb)
    store = default_cache() if store is None else store
    service = KitService(workers=workers, queue=queue, cache_mb=cache_mb, executor=executor,
                         render=render or partial(render_kit, store=store,
                                                  max_pages=WEB_MAX_PAGES),
                         ready=ready_configs(games, players, papers, langs=tuple(LANGUAGES)),
                         prewarm=prewarm, store=store,
                         **({} if per_client is None else {"per_client": per_client}))
    from ..console.pages.base import PageProblem, on_page_problem
    from ..console.routes import routes as console_routes
    from ..console.service import open_console

    app = KitApp(routes=[*ROUTES, *console_routes()], lifespan=lifespan,
                 exception_handlers={HTTPProblem: on_problem, PageProblem: on_page_problem,
                                     Busy: on_busy,
                                     BodyTimeout: on_body_timeout,
                                     HTTPException: on_http_error,
                                     # on_unavailable lets an OSError that is not a full
                                     # disk (a missing file, say) be the 500 it is
                                     OperationalError: on_unavailable,
                                     PoolTimeout: on_unavailable, OSError: on_unavailable,
                                     Exception: on_error})
    app.router.redirect_slashes = False  # its redirects are absolute, built from Host
    app.guard_options = {"allowed_hosts": TEST_HOSTS if allowed_hosts is None else allowed_hosts,
                         "proxies": TrustedProxies(forwarded_allow_ips),
                         "streams": StreamShare()}
    app.state.streams = app.guard_options["streams"]  # the listener's too (serve)
    app.state.service = service
    # the game-night console: --database / KIT_DATABASE_URL, else the user data folder
    app.state.console = console if console is not None else open_console(database)
    share_tickets(service, app.state.console)  # result ids in its database: any server finds them
    app.state.console.folders.use(service.pool)  # its report renders take the kits' fair line
    app.state.mail = None if mail is None else SenderThread(
        Sender(app.state.console.store.engine, mail.server, mail.mail_from,
               files=report_files(app.state.console),  # a letter's PDFs, when asked for
               name=mail.name, titles=game_titles(app.state.console)))
    if app.state.mail is not None:
        app.state.console.mail.attach(app.state.mail)  # a publish's letters are queued
    app.state.css, app.state.icon = site_css(), site_icon()
    # the address the links a game hands out carry (kit.console.addressing)
    app.state.public_url, app.state.listen_host = public_url, listen_host
    return app


def server_config() -> HypercornConfig:
    """Hypercorn's settings for ``kit serve``: the connection timeouts the app cannot set.

    ``keep_alive_timeout`` runs from the moment a connection opens (and again after each
    answer) until a whole request head has arrived: a client that sends nothing, or trickles
    its head, is closed after 5 s. ``guard.Guard`` gives a whole body 10 s, and closes a
    connection whose body was not read whole. No ``read_timeout``: it would also close a
    connection whose client is (rightly) silent while its ready-made kit waits in line.
    """
    from hypercorn.config import Config

    config = Config()
    config.keep_alive_timeout = HEAD_TIMEOUT_S
    config.read_timeout = None
    config.graceful_timeout = STOP_GRACE_S  # a running render may finish and be answered
    config.include_server_header = False
    config.h11_max_incomplete_size = 16 * 1024
    config.backlog = 1024
    config.accesslog = None  # guard.Guard writes the access log, tokens redacted
    config.errorlog = logging.getLogger("hypercorn.error")  # through our handler, once
    return config


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def allowed_host_names(host: str, extra: Iterable[str] = ()) -> list[str]:
    """The ``Host`` names served: loopback names, the address listened on (unless it is every
    address) and ``--allowed-host``."""
    names = [*LOOPBACK_HOSTS, *extra]
    if host not in ("", "0.0.0.0", "::"):
        names.append(host)
    return list(dict.fromkeys(n.strip().lower().strip("[]") for n in names if n.strip()))


def serve(settings: ServeSettings) -> None:
    """Run the app under Hypercorn until interrupted; the render workers stop with it.

    Hypercorn, not uvicorn: uvicorn (0.54) arms its only timeout after a first answer, so a
    connection that never sends a request is held for ever; Hypercorn's ``keep_alive_timeout``
    also covers the time before the first request head (``server_config``).
    """
    from hypercorn.asyncio.run import worker_serve
    from hypercorn.config import Sockets
    from hypercorn.utils import wrap_app

    s = settings
    host, port, mail = s.host, s.port, s.mail
    hosts = allowed_host_names(host, s.allowed_hosts)
    proxies = list(s.forwarded_allow_ips)
    # what the server writes (its database, the console's report files, kits in the render
    # cache, its workers' files) is for this user only: secrets are among them
    os.umask(0o077)
    app = create_app(workers=s.workers, queue=s.queue, cache_mb=s.cache_mb, prewarm=s.prewarm,
                     games=s.games, players=s.players, papers=s.papers, database=s.database,
                     allowed_hosts=hosts, forwarded_allow_ips=proxies, mail=mail,
                     public_url=s.public_url, listen_host=host)
    listener = listen(host, port, proxies=TrustedProxies(proxies),
                      streams=app.state.streams)
    open_files_limit()
    close_when_clients_leave()
    strict_heads()
    config = server_config()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s",
                        stream=sys.stderr)
    pool = app.state.service.pool
    if not _loopback(host):
        print(f"kit: warning: listening on {host}: anyone who can reach this machine can use "
              "this server, and a game master's link works for whoever has it; on a public "
              "network put a TLS proxy in front (docs/explanation/security.md). Browsers that "
              "reach it by a name need --allowed-host NAME.", file=sys.stderr)
    print(f"kit: serving on http://{host}:{port}/ ({s.workers} render workers, up to "
          f"{pool.queue_max} renders waiting; host names: {', '.join(hosts)})", file=sys.stderr)
    if mail is not None:
        print(f"kit: mail goes out through {mail.describe()} (checking that it answers)",
              file=sys.stderr)
    for line in start_lines(host, port):
        print(line, file=sys.stderr)
    if mail is not None:  # a slow mail server must not hold up the start
        check_in_background(mail, lambda line: print(line, file=sys.stderr, flush=True))
    # what is alive now (modules, templates, the app) stays for the server's life: kept out of
    # the cyclic collector, a full collection during a request walks only what came after
    gc.collect()
    gc.freeze()
    started = time.monotonic()
    try:
        # Hypercorn's protocol type of an ASGI app is stricter than Starlette's own signature
        asgi = wrap_app(app, config.wsgi_max_body_size, "asgi")  # type: ignore[arg-type]
        asyncio.run(worker_serve(asgi, config,
                                 sockets=Sockets([], [listener], [])))
    finally:
        listener.close()
    log.info("stopped after %.0f s", time.monotonic() - started)


__all__ = ["WEB_MAX_PLAYERS", "create_app", "serve"]
