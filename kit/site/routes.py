"""The download site's endpoints: the index of ready-made kits, their files and thumbnails, the
custom-kit form and its result pages (``kit serve`` mounts them: ``kit.serve.app``).

Endpoints are module-level functions; what they share is ``request.app.state``: ``service``
(``service.KitService``), ``css`` and ``icon``.
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from ..errors import KitError
from ..fonts import FONT_FILES, LICENCE_FILES
from ..i18n import N_, words
from ..resources import fonts_dir
from ..server.answers import page_language
from ..server.http import (
    HTTPProblem,
    client_of,
    file_response,
    page_response,
    read_form,
    static_response,
)
from .kit_cache import Entry
from .kits import config_key, could_be_file, zip_kit
from .pages import (
    build_form,
    check,
    download_base,
    form_formats,
    format_problem,
    kit_card,
    regional_paper,
    render_index,
    result_context,
    served_alternates,
    settings_query,
    url_settings,
    values_from_query,
)
from .service import KitService, Status
from .shared import locate

log = logging.getLogger("kit.web")


def _service(request: Request) -> KitService:
    return request.app.state.service


# --- pages and static files -------------------------------------------------------------------

async def index_page(request: Request) -> Response:
    service = _service(request)
    language = page_language(request)
    lang = language["lang"]
    cards = []
    for config in service.ready.values():
        if config.lang == lang:
            entry = service.cache.get(config_key(config))
            cards.append(kit_card(config, entry.rendered if entry else None, service.cards))
    paper = regional_paper(request.headers.get("accept-language"))
    html = render_index(cards, root="/", form=build_form(lang=lang, paper=paper), paper=paper,
                        alternates=served_alternates(), **language)
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
    folder = download_base(rendered.config)
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
    if not could_be_file(config, request.path_params["path"]):  # a 404 costs no render
        raise HTTPProblem(404, N_("Not found"), N_("That kit has no such file."))
    entry, _ = await service.kit(config, client=client_of(request))
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
    """The form, filled in from a settings URL (``/custom?game=...&names=Ann,Bob``)."""
    values = values_from_query(request.query_params)
    language = page_language(request, settings_query(values, values.get("format", "")))
    paper = regional_paper(request.headers.get("accept-language"))
    return page_response("site/form.html", form=build_form(values, lang=str(language["lang"]),
                                                           paper=paper), **language)


async def custom_page(request: Request) -> Response:
    """``/custom``: the form (GET), or a filled-in form sent (POST)."""
    return await (custom_submit if request.method == "POST" else custom_form)(request)


async def custom_submit(request: Request) -> Response:
    values = await read_form(request)
    lang = str(page_language(request)["lang"])
    if not values.get("lang", "").strip():
        values["lang"] = lang  # the kit's language: the page's, unless the form says
    formats = dict(form_formats())
    chosen = values.get("format", "") or "player-kit"
    settings = settings_query(values, chosen)
    language = page_language(request, settings)
    if values.pop("edit", "") == "1":  # "Edit these settings" of settings too long for a URL
        return page_response("site/form.html", form=build_form(values, lang=lang), **language)

    def refused(**form: Any) -> Response:  # build_form's errors= or format_error=
        return page_response("site/form.html", 422, form=build_form(values, lang=lang, **form),
                             **language)

    format_error = "" if chosen in formats else format_problem(chosen, words(lang))
    try:
        config = await run_in_threadpool(check, values)
    except KitError as exc:
        return refused(errors=[exc], format_error=format_error)
    if format_error:
        return refused(format_error=format_error)
    try:  # lined up, never waited for: the result page says "being made" until it is ready
        # in a thread: the result id is written to the database
        ident = await run_in_threadpool(_service(request).order, config, client_of(request))
    except KitError as exc:
        return refused(errors=[exc])
    ui = f"&ui={lang}" if lang != config.lang else ""
    return RedirectResponse(f"/custom/{ident}?get={chosen}&{url_settings(values, chosen)}{ui}",
                            status_code=303)


def _kept(status: Status) -> Entry:
    """The built kit of a result id, or the problem to answer instead."""
    if status.state == "ready" and status.entry is not None:
        return status.entry
    if status.state == "waiting":
        raise HTTPProblem(503, N_("Kit being made"), N_("That kit is still being made. Please "
                                                        "wait a moment."), {"Retry-After": "2"})
    raise HTTPProblem(404, N_("Kit no longer kept"),
                      N_("Kits are kept for a while only. Please fill in the form again."))


QUEUE_REFRESH_S = 2  # the "being made" page reloads itself this often
SETTLE_S = 1.5  # a result page whose kit is being made waits this long for it before "being made"


def queued_page(request: Request, status: Status) -> Response:
    """The "being made" page: its place in line, reloading itself (a ``Refresh`` header: no
    script needed) until it is the result page. The language menu keeps the address's
    settings."""
    language = page_language(request, request.url.query)
    again = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return page_response("site/queued.html", 202, {"cache-control": "no-store",
                                                   "refresh": str(QUEUE_REFRESH_S)},
                         **language, place=status.place, refresh=QUEUE_REFRESH_S, again=again)


async def custom_result(request: Request) -> Response:
    """A result id's page: "being made" (with its place in line) until the kit is ready, then
    the kit's result page; its errors on the form; the form again when it is no longer kept."""
    service = _service(request)
    status = await locate(service, request.path_params["key"])  # whichever server took it
    if status.state == "waiting" and status.place == 0:  # being made: most take about a second
        await service.settle(request.path_params["key"], SETTLE_S)
        status = await locate(service, request.path_params["key"], wait=SETTLE_S)
    if status.state == "waiting":
        return queued_page(request, status)
    values = values_from_query(request.query_params)
    if status.state == "failed" and status.error is not None:
        language = page_language(request, settings_query(values))
        return page_response("site/form.html", 422, form=build_form(
            values, errors=[status.error], lang=str(language["lang"])), **language)
    if values.get("game") and status.state == "gone":
        # no longer kept: the form again, filled in from the settings the URL carries
        language = page_language(request, settings_query(values))
        return page_response("site/form.html", 404, expired=True, form=build_form(
            values, lang=str(language["lang"])), **language)
    key, entry = request.path_params["key"], _kept(status)
    chosen = request.query_params.get("get", "")
    language = page_language(request, request.url.query)  # the menu keeps get= and settings
    return page_response("site/result.html", **language,
                         **result_context(key, entry.rendered, chosen, str(language["lang"]),
                                          str(language["lang"])))


async def custom_file(request: Request) -> Response:
    # another server making it: its file waits a moment, as its page does
    status = await locate(_service(request), request.path_params["key"], wait=SETTLE_S)
    entry = _kept(status)
    key = status.ticket.key if status.ticket else ""
    return await kit_path(_service(request), key, entry, request.path_params["path"])


def routes() -> list[Route]:
    """The site's routes, at the root of ``kit serve``."""
    return [
        Route("/", index_page),
        Route("/index.html", index_page),
        Route("/site.css", stylesheet),
        Route("/favicon.svg", favicon),
        Route("/favicon.ico", favicon),
        Route("/fonts/{name}", font),
        Route("/kits/{folder}/{path:path}", ready_file),
        Route("/thumbs/{folder}.png", ready_thumb),
        Route("/custom", custom_page, methods=["GET", "POST"]),  # one route: 405 allows both
        Route("/custom/{key:str}", custom_result),
        Route("/custom/{key:str}/{path:path}", custom_file),
    ]
