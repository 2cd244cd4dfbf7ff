"""``kit serve``: the download page of ready-made kits plus a custom-kit form, over HTTP.

Built on Starlette (ASGI toolkit) served by uvicorn. Why these two: a kit takes about a second of
CPU in WeasyPrint, so the web layer must never render on the event loop or let renders pile up.
An async app lets every request wait on a bounded worker pool while the loop keeps answering
(index, cached files, 503s); Starlette is small, typed, has no ORM/template/session baggage we
would not use, and its ``TestClient`` drives the app in-process for fast tests. uvicorn is the
reference ASGI server, pure pip, with a connection cap (``limit_concurrency``) and keep-alive
timeouts. Flask/WSGI would tie up a thread per render; Django brings far more than one form.

Behaviour:
- Form errors come from ``kit.config.resolve`` (``KitError``): shown next to the field and in a
  summary, in the CLI's words (``<field>: <message>``), with status 422. Other bad requests get
  400/404/413/415; none reach 500.
- Built kits are cached in memory by a SHA-256 of the normalized ``KitConfig``; a repeat is
  served from the cache, and concurrent requests for the same kit share one render. Prose pages
  and built ready-made kits are also kept in the persistent render cache (``kit.cache``), so a
  restarted server has its ready-made kits and their thumbnails at once.
- Renders run in worker processes behind a counter of capacity workers + queue; past that a
  request gets 503 with ``Retry-After`` instead of waiting in an unbounded line.
- URLs and file names carry only the cache key and the kit folder name (game, counts, paper,
  language), never user text; every response carries CSP, nosniff, frame and referrer headers.
- Pages speak the user's language (``kit.i18n.LANGUAGES``): ``?lang=xx`` when given (links to
  the site's other pages then carry it on), else the best match of ``Accept-Language``, else
  English (``pages.negotiate``). Every page has a language switcher. The form's ``lang`` (the
  kit's language) defaults to the page language; the index lists the ready-made kits in the
  page language (all languages are ready-made kits: rendered on demand and kept in the
  persistent render cache; only English ones are prewarmed).

Endpoints are module-level functions; what they share is ``request.app.state``: ``service``
(``pool.KitService``), ``css`` and ``icon``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from collections.abc import Iterable
from functools import partial

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..cache import RenderCache, default_cache
from ..config import resolve
from ..errors import KitError
from ..fonts import FONT_FILES, LICENCE_FILES
from ..i18n import LANGUAGES, N_
from ..resources import fonts_dir
from .http import (
    HTTPProblem,
    SecurityHeaders,
    file_response,
    page_response,
    problem_response,
    read_form,
    static_response,
    zip_kit,
)
from .kits import config_key, download_name, ready_configs, render_kit
from .limits import CACHE_MB, QUEUE, WORKERS
from .pages import (
    WEB_MAX_PLAYERS,
    build_form,
    check_web_limits,
    form_formats,
    kit_card,
    language_links,
    negotiate,
    raw_from_form,
    render_index,
    result_context,
    site_css,
    site_icon,
)
from .pool import Busy, Entry, KitService, Render

log = logging.getLogger("kit.web")


def _service(request: Request) -> KitService:
    return request.app.state.service


def page_language(request: Request) -> dict[str, object]:
    """What every page gets about its language: ``lang``, the switcher, the query to keep.

    ``?lang=xx`` when it names a language, else ``Accept-Language``, else English. A chosen
    ``?lang`` is carried on to the site's other pages (home link, form, result page).
    """
    lang, chosen = negotiate(request.query_params.get("lang"),
                             request.headers.get("accept-language"))
    keep = f"?lang={lang}" if chosen else ""
    return {"lang": lang, "languages": language_links(lang), "keep": keep, "home": "/" + keep}


# --- pages and static files -------------------------------------------------------------------

async def index_page(request: Request) -> Response:
    service = _service(request)
    language = page_language(request)
    lang = language["lang"]
    cards = []
    for config in service.ready.values():
        if config.lang == lang:
            entry = service.cache.get(config_key(config))
            cards.append(kit_card(config, entry.rendered if entry else None))
    html = render_index(cards, root="/", form=build_form(lang=lang), **language)
    return HTMLResponse(html, headers={"cache-control": "no-store", "vary": "accept-language",
                                       "content-language": lang})


async def stylesheet(request: Request) -> Response:
    return static_response(request.app.state.css, ".css", 3600)


async def favicon(request: Request) -> Response:
    if request.url.path.endswith(".ico"):  # kit HTML pages link no icon; browsers ask
        return Response(status_code=204, headers={"cache-control": "public, max-age=86400"})
    return static_response(request.app.state.icon, ".svg")


async def font(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in FONT_FILES + LICENCE_FILES:
        raise HTTPProblem(404, N_("Not found"), N_("No such font."))
    return static_response((fonts_dir() / name).read_bytes(), "." + name.rsplit(".", 1)[-1])


# --- kits -------------------------------------------------------------------------------------

async def kit_path(service: KitService, key: str, entry: Entry, path: str) -> Response:
    """A file of a built kit: ``kit.zip``, a thumbnail, or one of the kit's own files."""
    rendered = entry.rendered
    folder = download_name(rendered.kit.folder, key)
    if path == "kit.zip":
        data = entry.zip
        if data is None:
            data = await run_in_threadpool(zip_kit, rendered, folder)
            service.cache.set_zip(key, data)
        return file_response(data, path, folder)
    if path.startswith("thumbs/") and path.removeprefix("thumbs/") in rendered.thumbs:
        return file_response(rendered.thumbs[path.removeprefix("thumbs/")], path, folder)
    if path in rendered.kit.files:
        return file_response(rendered.kit.files[path], path, folder)
    raise HTTPProblem(404, N_("Not found"), N_("That kit has no such file."))


async def ready_file(request: Request) -> Response:
    service = _service(request)
    config = service.ready.get(request.path_params["folder"])
    if config is None:
        raise HTTPProblem(404, N_("Not found"), N_("There is no ready-made kit of that name."))
    entry, _ = await service.kit(config)
    return await kit_path(service, config_key(config), entry, request.path_params["path"])


async def ready_thumb(request: Request) -> Response:
    service = _service(request)
    config = service.ready.get(request.path_params["folder"])
    entry = await service.kept(config) if config else None
    thumb = entry.rendered.first_thumb if entry else None
    if thumb is None:
        raise HTTPProblem(404, N_("Not found"), N_("No preview of that kit yet."))
    return file_response(thumb, "thumb.png", "")


async def custom_form(request: Request) -> Response:
    language = page_language(request)
    return page_response("site/form.html", form=build_form(lang=language["lang"]), **language)


async def custom_submit(request: Request) -> Response:
    values = await read_form(request)
    language = page_language(request)
    lang = str(language["lang"])
    if not values.get("lang", "").strip():
        values["lang"] = lang  # the kit's language: the page's, unless the form says
    formats = dict(form_formats())
    chosen = values.get("format", "zip") or "zip"

    def refused(**form: object) -> Response:
        return page_response("site/form.html", 422, form=build_form(values, lang=lang, **form),
                             **language)

    try:
        config = await run_in_threadpool(resolve, raw_from_form(values), "the form")
        check_web_limits(config)
    except KitError as exc:
        return refused(errors=[exc])
    if chosen not in formats:
        return refused(format_error=f"must be one of: {', '.join(formats)}; got {chosen!r}")
    try:
        _, cached = await _service(request).kit(config)
    except KitError as exc:
        return refused(errors=[exc])
    keep = str(language["keep"]).replace("?", "&")
    return RedirectResponse(f"/custom/{config_key(config)}?get={chosen}{keep}", status_code=303,
                            headers={"x-kit-cache": "hit" if cached else "miss"})


def _kept(request: Request) -> tuple[str, Entry]:
    """The cached kit the URL names, or a 404 that asks for the form again."""
    key = request.path_params["key"]
    entry = _service(request).cache.get(key)
    if entry is None:
        raise HTTPProblem(404, N_("Kit no longer kept"),
                          N_("Kits are kept for a while only. Please fill in the form again."))
    return key, entry


async def custom_result(request: Request) -> Response:
    key, entry = _kept(request)
    chosen = request.query_params.get("get", "")
    language = page_language(request)
    return page_response("site/result.html", **language,
                         **result_context(key, entry.rendered, chosen, str(language["lang"])))


async def custom_file(request: Request) -> Response:
    key, entry = _kept(request)
    return await kit_path(_service(request), key, entry, request.path_params["path"])


async def health(request: Request) -> Response:
    return JSONResponse(_service(request).health(), headers={"cache-control": "no-store"})


# --- errors -----------------------------------------------------------------------------------

async def on_problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPProblem)
    return problem_response(exc, **page_language(request))


async def on_busy(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Busy)
    return problem_response(HTTPProblem(503, exc.heading, exc.text,
                                        {"Retry-After": str(exc.retry_after)}),
                            **page_language(request))


async def on_http_error(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    text = {404: N_("There is no page here."), 405: N_("That method is not allowed here.")}
    return problem_response(HTTPProblem(status, N_("Not found") if status == 404
                                        else N_("Not allowed"),
                                        text.get(status, N_("The request could not be handled."))),
                            **page_language(request))


async def on_error(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s", request.url.path)
    return problem_response(HTTPProblem(500, N_("Something went wrong"),
                                        N_("The server could not make this page. Please try "
                                           "again.")), **page_language(request))


# --- the application --------------------------------------------------------------------------

@contextlib.asynccontextmanager
async def lifespan(app: Starlette):
    """At start: ready-made kits kept by an earlier run, then prewarm; at stop: the workers."""
    service: KitService = app.state.service
    loaded = await run_in_threadpool(service.load_kept)
    if loaded:
        log.info("%d ready-made kits loaded from the render cache", loaded)
    task = asyncio.create_task(service.run_prewarm()) if service.prewarm else None
    try:
        yield
    finally:
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await run_in_threadpool(service.pool.shutdown)


ROUTES = [
    Route("/", index_page),
    Route("/index.html", index_page),
    Route("/site.css", stylesheet),
    Route("/favicon.svg", favicon),
    Route("/favicon.ico", favicon),
    Route("/fonts/{name}", font),
    Route("/kits/{folder}/{path:path}", ready_file),
    Route("/thumbs/{folder}.png", ready_thumb),
    Route("/custom", custom_form, methods=["GET"]),
    Route("/custom", custom_submit, methods=["POST"]),
    Route("/custom/{key:str}", custom_result),
    Route("/custom/{key:str}/{path:path}", custom_file),
    Route("/healthz", health),
]


def create_app(*, workers: int = 2, queue: int | None = None, cache_mb: int = 256,
               executor: str = "process", prewarm: bool = True,
               games: Iterable[str] | None = None, players: Iterable[int] | None = None,
               papers: Iterable[str] | None = None, render: Render | None = None,
               store: RenderCache | None = None, database: str | None = None,
               console: object | None = None) -> Starlette:
    """The ASGI app. ``executor='thread'`` renders in this process (tests); 'process' in workers.

    ``store`` is the persistent render cache (default: ``kit.cache.default_cache()``);
    ``render`` replaces ``render_kit`` (tests).
    """
    workers = WORKERS.convert("workers", workers)
    queue = QUEUE.convert("queue", 2 * workers if queue is None else queue)
    cache_mb = CACHE_MB.convert("cache_mb", cache_mb)
    store = default_cache() if store is None else store
    service = KitService(workers=workers, queue=queue, cache_mb=cache_mb, executor=executor,
                         render=render or partial(render_kit, store=store),
                         ready=ready_configs(games, players, papers, langs=tuple(LANGUAGES)),
                         prewarm=prewarm,
                         store=store)
    from ..console.routes import routes as console_routes
    from ..console.service import open_console

    app = Starlette(routes=[*ROUTES, *console_routes()], lifespan=lifespan,
                    exception_handlers={HTTPProblem: on_problem, Busy: on_busy,
                                        HTTPException: on_http_error, Exception: on_error})
    app.state.service = service
    # the game-night console: --database / KIT_DATABASE_URL, else the user data folder
    app.state.console = console if console is not None else open_console(database)
    app.state.css, app.state.icon = site_css(), site_icon()
    app.add_middleware(SecurityHeaders)
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 2, queue: int | None = None,
          cache_mb: int = 256, prewarm: bool = True, games: Iterable[str] | None = None,
          players: Iterable[int] | None = None, papers: Iterable[str] | None = None,
          database: str | None = None) -> None:
    """Run the app under uvicorn until interrupted; the render workers stop with it."""
    import uvicorn

    app = create_app(workers=workers, queue=queue, cache_mb=cache_mb, prewarm=prewarm,
                     games=games, players=players, papers=papers, database=database)
    capacity = app.state.service.pool.capacity
    print(f"kit: serving on http://{host}:{port}/ ({workers} render workers, "
          f"{capacity} renders admitted at once)", file=sys.stderr)
    started = time.monotonic()
    uvicorn.run(app, host=host, port=port, log_level="info", server_header=False,
                proxy_headers=False, limit_concurrency=200, timeout_keep_alive=5,
                h11_max_incomplete_event_size=16 * 1024)
    log.info("stopped after %.0f s", time.monotonic() - started)


__all__ = ["WEB_MAX_PLAYERS", "create_app", "serve"]
