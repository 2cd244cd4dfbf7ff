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
- Built kits are cached in memory by a SHA-256 of the normalized ``KitConfig``
  (``dataclasses.asdict``), least recently used dropped first; a repeat is served from the cache,
  and concurrent requests for the same kit share one render.
- Renders run in a ``ProcessPoolExecutor`` behind a counter of capacity workers + queue; past
  that a request gets 503 with ``Retry-After`` instead of waiting in an unbounded line.
- URLs and file names carry only the cache key and the kit folder name (game, counts, paper),
  never user text; every response carries CSP, nosniff, frame and referrer headers.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import logging
import multiprocessing
import re
import sys
import threading
import time
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from functools import cache
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .config import KitConfig, resolve
from .errors import KitError
from .fonts import FONT_FILES, LICENCE_FILES
from .options import NAME_MAX, OPTIONS
from .paper import paper as paper_by_name
from .resources import fonts_dir, templates_dir
from .site import (
    PREVIEW_PAGES,
    SITE_ICON,
    Failure,
    Rendered,
    document_label,
    kit_card,
    ready_configs,
    render_index,
    render_kit,
    site_css,
    site_environment,
)

log = logging.getLogger("kit.server")

WEB_MAX_PLAYERS = 120  # one request may not ask for an unbounded render; bigger: `kit build`
MAX_BODY = 512 * 1024  # 10,000 names of 24 characters fit, so they get a field error, not 413
MAX_FIELDS = 100
RENDER_TIMEOUT_S = 120.0
RETRY_AFTER_S = 5

PAGE_CSP = ("default-src 'none'; style-src 'self'; img-src 'self'; font-src 'self'; "
            "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
# Kit HTML files carry their CSS inline and load fonts from beside them; nothing else.
KIT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; font-src 'self'; img-src 'self' data:; "
           "form-action 'none'; base-uri 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "content-security-policy": PAGE_CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}
MEDIA_TYPES = {".pdf": "application/pdf", ".html": "text/html; charset=utf-8",
               ".png": "image/png", ".ttf": "font/ttf", ".txt": "text/plain; charset=utf-8",
               ".zip": "application/zip"}
LABELS = {"names": "Player names", "range": "Custom number range", "title": "Event title",
          "date": "Event date", "players": "Number of players"}
HELP = {"names": f"One name per line, 1 to {NAME_MAX} characters each. Names set the number of "
        "players and are printed on the slips.",
        "range": "Two whole numbers LO-HI, e.g. 1-20. Leave empty for the game’s own range."}
RANGE_WARNING = ("a custom range changes the odds the rules were tuned for. It is printed on every "
                 "player page; announce it before the first round.")


def config_key(config: KitConfig) -> str:
    """The cache key: SHA-256 of the normalized config (every field, sorted keys)."""
    text = json.dumps(asdict(config), sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:32]


def download_name(folder: str, key: str) -> str:
    """The kit's folder name for downloads; only if it is plain (game, counts, paper), as today.

    Guards ``Content-Disposition`` and zip paths should a folder name ever carry user text.
    """
    return folder if re.fullmatch(r"[a-z0-9][a-z0-9-]{0,99}", folder) else f"kit-{key[:12]}"


class HTTPProblem(Exception):
    """A request we answer with a short page and a 4xx/5xx status."""

    def __init__(self, status: int, heading: str, text: str,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(text)
        self.status, self.heading, self.text = status, heading, text
        self.headers = dict(headers or {})


# --- cache ------------------------------------------------------------------------------------

@dataclass
class Entry:
    rendered: Rendered
    pinned: bool = False  # ready-made kits stay; custom kits are evicted first-in-least-used
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


# --- bounded render pool ------------------------------------------------------------------------

def _warm_worker() -> None:
    """Import the heavy modules once per worker process, before the first request needs them."""
    import pypdf  # noqa: F401
    import weasyprint  # noqa: F401


class Overloaded(Exception):
    """No free place in the render pool."""


class RenderPool:
    """Renders kits in worker processes; at most ``workers + queue`` admitted at once.

    ``submit`` never blocks: over capacity it raises ``Overloaded`` (the app answers 503).
    Requests for a kit already being rendered join that render instead of starting another.
    """

    def __init__(self, workers: int, queue: int, kind: str = "process",
                 render: Callable[[KitConfig, int], Rendered | Failure] = render_kit,
                 on_done: Callable[[str, Rendered | Failure], None] | None = None) -> None:
        self.workers, self.capacity, self.kind = workers, workers + queue, kind
        self.render, self.on_done = render, on_done
        self._lock = threading.Lock()
        self._active = 0
        self._inflight: dict[str, Future] = {}
        self._executor: Executor | None = None
        self.started = self.shed = 0

    def _make_executor(self) -> Executor:
        if self.kind == "thread":
            return ThreadPoolExecutor(self.workers, thread_name_prefix="kit-render")
        context = multiprocessing.get_context("forkserver")
        return ProcessPoolExecutor(self.workers, mp_context=context, initializer=_warm_worker,
                                   max_tasks_per_child=200)

    @property
    def active(self) -> int:
        return self._active

    def submit(self, key: str, config: KitConfig, reserve: int = 0) -> Future:
        """Start (or join) the render of ``config``; ``reserve`` keeps places free for others."""
        with self._lock:
            running = self._inflight.get(key)
            if running is not None:
                return running
            if self._active >= self.capacity - reserve:
                self.shed += 1
                raise Overloaded
            if self._executor is None:
                self._executor = self._make_executor()
            try:
                future = self._executor.submit(self.render, config, PREVIEW_PAGES)
            except (BrokenProcessPool, RuntimeError):
                self._executor = self._make_executor()  # a worker died: start afresh
                future = self._executor.submit(self.render, config, PREVIEW_PAGES)
            self._active += 1
            self.started += 1
            self._inflight[key] = future
        future.add_done_callback(lambda f: self._finished(key, f))
        return future

    def _finished(self, key: str, future: Future) -> None:
        if self.on_done is not None and not future.cancelled() and future.exception() is None:
            self.on_done(key, future.result())
        with self._lock:
            self._active -= 1
            self._inflight.pop(key, None)
            if isinstance(future.exception() if not future.cancelled() else None,
                          BrokenProcessPool):
                self._executor = None

    def shutdown(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is None:
            return
        # Worker processes would outlive the server otherwise (they wait on their queue under
        # the forkserver): ask them to stop, give a running render a moment, then end them.
        workers = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + 10
        for process in workers:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in workers:
            if process.is_alive():
                process.terminate()
                process.join(5)
        executor.shutdown(wait=True)


# --- the form ---------------------------------------------------------------------------------

def _widget(option) -> str:
    if option.key == "game" or (option.kind == "choice" and option.choices):
        return "select"
    return {"bool": "checkbox", "names": "textarea", "int": "number"}.get(option.kind, "text")


def _default_text(option) -> str:
    if option.kind == "bool" or option.default in (None, "", ()):
        return ""
    return str(option.default)


@cache
def form_formats() -> list[tuple[str, str]]:
    """'zip' and one PDF per document stem any registered game makes (from its default plan)."""
    from .registry import GAMES

    stems: dict[str, str] = {}
    for name, spec in GAMES.items():
        try:
            plan = spec.plan(resolve({"game": name}))
        except KitError:  # a game whose defaults do not plan still gets the zip choice
            continue
        for document in plan.documents:
            stems.setdefault(document.stem, document_label(document.stem))
    return [("zip", "The whole kit folder (.zip): PDFs, HTML and fonts")] + [
        (stem, f"{label} (PDF)") for stem, label in stems.items()]


def build_form(values: Mapping[str, str] | None = None,
               errors: Iterable[KitError] = (), format_error: str = "") -> dict[str, object]:
    """The form's fields, one per ``kit.options.OPTIONS`` entry (except ``out``), grouped.

    New options appear by themselves: their kind picks the widget, their help is the CLI's.
    """
    from .registry import GAMES

    values = dict(values or {})
    by_field: dict[str, str] = {}
    for error in errors:
        by_field.setdefault(error.field, error.message)
    groups: dict[tuple[str, ...], list[dict[str, object]]] = {}
    for option in OPTIONS:
        if option.key == "out":
            continue  # the server decides where files go
        widget = _widget(option)
        if option.key == "game":
            choices = [(name, f"{spec.title}") for name, spec in GAMES.items()]
        elif widget == "select":
            choices = [(c, paper_by_name(c).label if option.key == "paper" else c)
                       for c in option.choices]
        else:
            choices = []
        if option.key in values:
            value: object = values[option.key]
            if widget == "checkbox":
                value = value.lower() in ("true", "on", "yes")
        else:
            value = False if widget == "checkbox" else _default_text(option)
        groups.setdefault(option.games, []).append({
            "key": option.key, "id": f"f-{option.key}", "widget": widget, "choices": choices,
            "label": LABELS.get(option.key, option.key.replace("_", " ").capitalize()),
            "help": HELP.get(option.key, option.help[:1].upper() + option.help[1:] + "."),
            "warning": RANGE_WARNING if option.kind == "range" else "",
            "value": value, "error": by_field.get(option.key, ""),
        })
    legend_groups = []
    for games, fields in groups.items():
        if not games:
            legend, note = "Your game", ""
        else:
            titles = " and ".join(GAMES[g].title for g in games if g in GAMES) or ", ".join(games)
            legend = f"Only for {titles}"
            note = "Ignored for other games unless changed."
        legend_groups.append({"legend": legend, "note": note, "fields": fields})
    keys = {o.key for o in OPTIONS}
    summary = [{"text": str(e), "anchor": f"f-{e.field}" if e.field in keys else ""}
               for e in errors]
    if format_error:
        summary.append({"text": f"format: {format_error}", "anchor": "f-format-error"})
    formats = list(form_formats())
    chosen = values.get("format", "zip")
    return {"groups": legend_groups, "errors": summary, "formats": formats,
            "format": chosen if chosen in dict(formats) else "zip",
            "format_error": format_error}


def raw_from_form(values: Mapping[str, str]) -> dict[str, object]:
    """Form values -> the raw settings ``resolve`` takes, as the CLI would pass them.

    Empty fields are left out (the game's default applies); names come one per line; an option
    of another game is left out while it still shows its default, and passed on (so ``resolve``
    names the problem) once changed.
    """
    from .registry import GAMES

    game = values.get("game", "").strip()
    raw: dict[str, object] = {"game": game} if game else {}
    spec = GAMES.get(game)
    for option in OPTIONS:
        if option.key in ("game", "out"):
            continue
        text = values.get(option.key, "")
        if option.kind == "bool":
            if text == "":
                continue
            value: object = "true" if text.lower() in ("true", "on", "yes") else text
        elif option.kind == "names":
            lines = [line.strip() for line in text.splitlines()]
            value = [line for line in lines if line]
            if not value:
                continue
        else:
            value = text.strip()
            if value == "":
                continue
        if (option.games and spec is not None and spec.name not in option.games
                and value == _default_text(option)):
            continue  # another game's option, untouched
        raw[option.key] = value
    return raw


async def read_form(request: Request) -> dict[str, str]:
    """The urlencoded body, size-capped before and while reading; 4xx on anything odd."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/x-www-form-urlencoded":
        raise HTTPProblem(415, "Unsupported form encoding",
                          "Send the form as application/x-www-form-urlencoded.")
    length = request.headers.get("content-length")
    too_big = HTTPProblem(413, "Form too large",
                          f"The form may carry at most {MAX_BODY // 1024} KB.")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise too_big
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise too_big
    try:
        pairs = parse_qsl(body.decode("ascii"), keep_blank_values=True,
                          max_num_fields=MAX_FIELDS, encoding="utf-8", errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise HTTPProblem(400, "Unreadable form",
                          "The form data was not valid UTF-8 form encoding, or had too many "
                          "fields.") from None
    values: dict[str, str] = {}
    for key, value in pairs:
        values.setdefault(key, value)  # the first of repeated fields counts
    return values


# --- middleware -----------------------------------------------------------------------------

class SecurityHeaders:
    """Adds the security headers to every response that does not set its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.decode("latin-1").lower() for k, _ in headers}
                for name, value in SECURITY_HEADERS.items():
                    if name not in present:
                        headers.append((name.encode("latin-1"), value.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


# --- the application ------------------------------------------------------------------------

class KitService:
    """State shared by the routes: ready-made kits, cache, pool."""

    def __init__(self, *, workers: int, queue: int, cache_mb: int, executor: str,
                 render: Callable[[KitConfig, int], Rendered | Failure],
                 ready: list[KitConfig], prewarm: bool) -> None:
        self.cache = KitCache(cache_mb * 1024 * 1024)
        self.ready = {c.folder_name: c for c in ready}
        self.ready_keys = {config_key(c) for c in ready}
        self.failures: dict[str, Failure] = {}
        self.pool = RenderPool(workers, queue, executor, render, on_done=self._store)
        self.prewarm = prewarm
        self.css = site_css()

    def _store(self, key: str, result: Rendered | Failure) -> None:
        if isinstance(result, Failure):
            self.failures[key] = result
            if len(self.failures) > 1000:
                self.failures.pop(next(iter(self.failures)))
        else:
            self.cache.put(key, Entry(result, pinned=key in self.ready_keys))

    async def kit(self, config: KitConfig, *, background: bool = False) -> tuple[Entry, bool]:
        """The built kit for ``config`` (from the cache when there), and whether it was cached."""
        key = config_key(config)
        entry = self.cache.get(key)
        if entry is not None:
            self.cache.hits += 1
            return entry, True
        failure = self.failures.get(key)
        if failure is not None:
            raise failure.error()
        try:
            future = self.pool.submit(key, config, reserve=self.pool.capacity - 1
                                      if background else 0)
            self.cache.misses += 1
        except Overloaded:
            raise HTTPProblem(503, "Busy right now",
                              "Several kits are being made at the moment. Please try again in a "
                              "few seconds.", {"Retry-After": str(RETRY_AFTER_S)}) from None
        try:
            result = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)),
                                            RENDER_TIMEOUT_S)
        except TimeoutError:
            raise HTTPProblem(503, "Taking too long", "The kit is still being made. Please try "
                              "again shortly.", {"Retry-After": str(RETRY_AFTER_S)}) from None
        except BrokenProcessPool:
            raise HTTPProblem(503, "Worker restarted", "Please try again.",
                              {"Retry-After": str(RETRY_AFTER_S)}) from None
        if isinstance(result, Failure):
            raise result.error()
        entry = self.cache.get(key) or Entry(result)
        return entry, False

    async def run_prewarm(self) -> None:
        """Render the ready-made kits one at a time, leaving the other places to requests."""
        for config in self.ready.values():
            while True:
                try:
                    await self.kit(config, background=True)
                    break
                except HTTPProblem:
                    await asyncio.sleep(1.0)
                except KitError as exc:
                    log.error("ready-made kit %s cannot be built: %s", config.folder_name, exc)
                    break


def _page(template: str, status: int = 200, headers: Mapping[str, str] | None = None,
          **context: object) -> HTMLResponse:
    html = site_environment().get_template(template).render(root="/", home="/", **context)
    return HTMLResponse(html, status_code=status,
                        headers={"cache-control": "no-store", **(headers or {})})


def _problem(problem: HTTPProblem) -> HTMLResponse:
    return _page("site/message.html", problem.status, problem.headers,
                 heading=problem.heading, text=problem.text)


def _file_response(entry: Entry, path: str, folder: str, data: bytes | None = None,
                   cache_seconds: int = 3600) -> Response:
    """A file of a built kit. ``path`` was already checked to be one of the kit's own names."""
    suffix = "." + path.rsplit(".", 1)[-1] if "." in path else ""
    body = data if data is not None else entry.rendered.kit.files[path]
    headers = {"cache-control": f"private, max-age={cache_seconds}"}
    if suffix == ".html":
        headers["content-security-policy"] = KIT_CSP
    if suffix in (".pdf", ".zip"):
        name = folder + (".zip" if suffix == ".zip" else "-" + path.replace("/", "-"))
        headers["content-disposition"] = f'attachment; filename="{name}"'
    return Response(body, media_type=MEDIA_TYPES.get(suffix, "application/octet-stream"),
                    headers=headers)


def zip_kit(entry: Entry, folder: str) -> bytes:
    """The kit folder as a zip (fixed timestamps: the same kit gives the same bytes)."""
    kit = entry.rendered.kit
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for rel, data in sorted(kit.files.items()):
            info = zipfile.ZipInfo(f"{folder}/{rel}", date_time=(2024, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return out.getvalue()


async def serve_kit_path(service: KitService, key: str, entry: Entry, path: str) -> Response:
    rendered = entry.rendered
    folder = download_name(rendered.kit.folder, key)
    if path == "kit.zip":
        data = entry.zip
        if data is None:
            data = await run_in_threadpool(zip_kit, entry, folder)
            service.cache.set_zip(key, data)
        return _file_response(entry, path, folder, data)
    if path.startswith("thumbs/") and path.removeprefix("thumbs/") in rendered.thumbs:
        return _file_response(entry, path, folder, rendered.thumbs[path.removeprefix("thumbs/")])
    if path in rendered.kit.files:
        return _file_response(entry, path, folder)
    raise HTTPProblem(404, "Not found", "That kit has no such file.")


def create_app(*, workers: int = 2, queue: int | None = None, cache_mb: int = 256,
               executor: str = "process", prewarm: bool = True,
               games: Iterable[str] | None = None, players: Iterable[int] | None = None,
               papers: Iterable[str] | None = None,
               render: Callable[[KitConfig, int], Rendered | Failure] = render_kit) -> Starlette:
    """The ASGI app. ``executor='thread'`` renders in this process (tests); 'process' in workers."""
    if workers < 1:
        raise KitError("workers", f"must be at least 1; got {workers}")
    queue = 2 * workers if queue is None else queue
    if queue < 0:
        raise KitError("queue", f"must be 0 or more; got {queue}")
    service = KitService(workers=workers, queue=queue, cache_mb=cache_mb, executor=executor,
                         render=render, ready=ready_configs(games, players, papers),
                         prewarm=prewarm)

    def cards():
        out = []
        for config in service.ready.values():
            entry = service.cache.get(config_key(config))
            rendered = entry.rendered if entry else None
            thumb = (f"thumbs/{config.folder_name}.png"
                     if rendered and rendered.documents and rendered.thumb_names(
                         rendered.documents[0].stem) else None)
            out.append(kit_card(config, rendered, thumb))
        return out

    async def index_page(request: Request) -> Response:
        html = render_index(cards(), root="/", home="/", form=build_form())
        return HTMLResponse(html, headers={"cache-control": "no-store"})

    async def css(request: Request) -> Response:
        return Response(service.css, media_type="text/css; charset=utf-8",
                        headers={"cache-control": "public, max-age=3600"})

    icon = (templates_dir() / SITE_ICON).read_bytes()

    async def favicon(request: Request) -> Response:
        if request.url.path.endswith(".ico"):  # kit HTML pages link no icon; browsers ask
            return Response(status_code=204, headers={"cache-control": "public, max-age=86400"})
        return Response(icon, media_type="image/svg+xml",
                        headers={"cache-control": "public, max-age=86400"})

    async def font(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in FONT_FILES + LICENCE_FILES:
            raise HTTPProblem(404, "Not found", "No such font.")
        suffix = "." + name.rsplit(".", 1)[-1]
        return Response((fonts_dir() / name).read_bytes(), media_type=MEDIA_TYPES[suffix],
                        headers={"cache-control": "public, max-age=86400"})

    async def ready_file(request: Request) -> Response:
        config = service.ready.get(request.path_params["folder"])
        if config is None:
            raise HTTPProblem(404, "Not found", "There is no ready-made kit of that name.")
        path = request.path_params["path"]
        entry, _ = await service.kit(config)
        return await serve_kit_path(service, config_key(config), entry, path)

    async def ready_thumb(request: Request) -> Response:
        config = service.ready.get(request.path_params["folder"])
        entry = service.cache.get(config_key(config)) if config else None
        if entry is None or not entry.rendered.documents:
            raise HTTPProblem(404, "Not found", "No preview of that kit yet.")
        names = entry.rendered.thumb_names(entry.rendered.documents[0].stem)
        if not names:
            raise HTTPProblem(404, "Not found", "No preview of that kit.")
        return _file_response(entry, "thumb.png", "", entry.rendered.thumbs[names[0]])

    async def custom_form(request: Request) -> Response:
        return _page("site/form.html", form=build_form())

    async def custom_submit(request: Request) -> Response:
        values = await read_form(request)
        formats = dict(form_formats())
        chosen = values.get("format", "zip") or "zip"
        try:
            config = await run_in_threadpool(resolve, raw_from_form(values), "the form")
            if config.players > WEB_MAX_PLAYERS:
                raise KitError("players", f"the web form makes kits for up to {WEB_MAX_PLAYERS} "
                               f"players; got {config.players}. For a bigger party use the "
                               "command line: kit build")
        except KitError as exc:
            return _page("site/form.html", 422, form=build_form(values, [exc]))
        if chosen not in formats:
            return _page("site/form.html", 422, form=build_form(
                values, format_error=f"must be one of: {', '.join(formats)}; got {chosen!r}"))
        try:
            _, cached = await service.kit(config)
        except KitError as exc:
            return _page("site/form.html", 422, form=build_form(values, [exc]))
        key = config_key(config)
        return RedirectResponse(f"/custom/{key}?get={chosen}", status_code=303,
                                headers={"x-kit-cache": "hit" if cached else "miss"})

    def kept(key: str) -> Entry:
        """The cached kit for ``key``, or a 404 that asks for the form again."""
        entry = service.cache.get(key)
        if entry is None:
            raise HTTPProblem(404, "Kit no longer kept",
                              "Kits are kept for a while only. Please fill in the form again.")
        return entry

    async def custom_result(request: Request) -> Response:
        key = request.path_params["key"]
        entry = kept(key)
        rendered = entry.rendered
        config = rendered.config
        base = f"/custom/{key}/"
        downloads = []
        chosen = request.query_params.get("get", "")
        folder = download_name(rendered.kit.folder, key)
        zip_link = {"href": base + "kit.zip", "text": "Whole kit folder (.zip)",
                    "meta": "PDFs, HTML pages and fonts", "download": folder + ".zip",
                    "primary": chosen == "zip"}
        downloads.append(zip_link)
        previews = []
        sheet = paper_by_name(config.paper)
        height = round(160 * sheet.height_mm / sheet.width_mm)
        stems = [doc.stem for doc in rendered.documents]
        if chosen not in stems:
            zip_link["primary"] = bool(chosen)  # e.g. a split party has per-table files instead
        for doc in rendered.documents:
            downloads.append({"href": f"{base}{doc.stem}.pdf", "text": f"{doc.label} (PDF)",
                              "meta": f"{doc.pages} pages, {doc.pdf_bytes // 1024} KB",
                              "download": f"{folder}-{doc.stem}.pdf",
                              "primary": chosen == doc.stem})
            if doc.html:
                downloads.append({"href": f"{base}{doc.stem}.html",
                                  "text": f"{doc.label} (HTML)", "meta": "opens in the browser",
                                  "download": "", "primary": False})
            previews.append({"stem": doc.stem, "label": doc.label, "pages": doc.pages,
                             "thumbs": [{"src": f"{base}thumbs/{n}", "height": height}
                                        for n in rendered.thumb_names(doc.stem)]})
        downloads.sort(key=lambda d: not d["primary"])
        autostart = next((d["href"] for d in downloads if d["primary"]), "")
        from .registry import GAMES

        spec = GAMES.get(config.game)
        return _page("site/result.html", config=config, downloads=downloads, previews=previews,
                     autostart=autostart, paper_label=sheet.label,
                     game_title=spec.title if spec else config.game)

    async def custom_file(request: Request) -> Response:
        key = request.path_params["key"]
        entry = kept(key)
        return await serve_kit_path(service, key, entry, request.path_params["path"])

    async def health(request: Request) -> Response:
        return JSONResponse({"pool": {"active": service.pool.active,
                                      "capacity": service.pool.capacity,
                                      "started": service.pool.started,
                                      "shed": service.pool.shed},
                             "cache": service.cache.stats(),
                             "ready": len(service.ready)},
                            headers={"cache-control": "no-store"})

    async def on_problem(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPProblem)
        return _problem(exc)

    async def on_http_error(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        text = {404: "There is no page here.", 405: "That method is not allowed here."}
        return _problem(HTTPProblem(status, "Not found" if status == 404 else "Not allowed",
                                    text.get(status, "The request could not be handled.")))

    async def on_error(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s", request.url.path)
        return _problem(HTTPProblem(500, "Something went wrong",
                                    "The server could not make this page. Please try again."))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        task = asyncio.create_task(service.run_prewarm()) if service.prewarm else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            service.pool.shutdown()

    from starlette.exceptions import HTTPException

    routes = [
        Route("/", index_page),
        Route("/index.html", index_page),
        Route("/site.css", css),
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
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPProblem: on_problem, HTTPException: on_http_error,
                                        Exception: on_error})
    app.state.service = service
    app.add_middleware(SecurityHeaders)
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 2, queue: int | None = None,
          cache_mb: int = 256, prewarm: bool = True, games: Iterable[str] | None = None,
          players: Iterable[int] | None = None, papers: Iterable[str] | None = None) -> None:
    """Run the app under uvicorn until interrupted."""
    import uvicorn

    app = create_app(workers=workers, queue=queue, cache_mb=cache_mb, prewarm=prewarm,
                     games=games, players=players, papers=papers)
    capacity = app.state.service.pool.capacity
    print(f"kit: serving on http://{host}:{port}/ ({workers} render workers, "
          f"{capacity} renders admitted at once)", file=sys.stderr)
    started = time.monotonic()
    uvicorn.run(app, host=host, port=port, log_level="info", server_header=False,
                proxy_headers=False, limit_concurrency=200, timeout_keep_alive=5,
                h11_max_incomplete_event_size=16 * 1024)
    log.info("stopped after %.0f s", time.monotonic() - started)


__all__ = ["config_key", "create_app", "serve"]
