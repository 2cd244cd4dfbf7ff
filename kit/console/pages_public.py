"""What anyone with the public link sees: the public page, the big-screen standings and the
report files the public view lets them fetch (the rest only with the GM cookie).

Both pages read the public view alone (``Console.view``), through the game's ``board``. The
standings page refreshes itself without a script (``<noscript>`` meta refresh); with its small
script it polls ``public.json`` and swaps in the new standings when the game's version changes,
without reloading the page.
"""

from __future__ import annotations

import mimetypes
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..i18n import N_, words
from ..registry import game_spec
from ..web.guard import refuse_wrong_token
from .page_kit import PageProblem, call, console, language, render
from .refusals import NotFound
from .service import GM, PUBLIC, Console
from .specs import console_of
from .views import guard

REFRESH_SECONDS = 5
POLL_MS = 2000
SERVED = re.compile(r"[a-z0-9-]+\.(?:pdf|html)|report\.txt|fonts/[A-Za-z0-9_.-]+\.ttf")
KINDS = {".pdf": N_("%(document)s (PDF, to print)"), ".html": N_("%(document)s (HTML, for a "
                                                                  "screen)")}


def game_templates(kind: str) -> str:
    """Where a game's console templates are: "<package>/console/"."""
    return f"{game_spec(kind).package}/console/"


def _listing(service: Console, game_id: str, kind: str, who: str) -> list[str]:
    """The report folder's files (made on first request for the content shown)."""
    game = console_of(kind)
    if game.named_reports:
        return list(game.named_reports)
    try:
        first = service.report_file(game_id, game.first_report, who)
    except Exception:  # noqa: BLE001 - no reports yet (nothing published), or none to make
        return []
    return sorted(p.name for p in first.parent.iterdir() if p.suffix in KINDS)


async def report_links(request: Request, game_id: str, kind: str, *, private: bool,
                       published: int = 1) -> list[dict[str, object]]:
    """Links to the report files the viewer may fetch (the GM's own ones only when
    ``private``), and the text for an email; in the game's order, PDF first; the first
    report only once something is in it (``published``)."""
    w = words(language(request)["lang"])
    service = console(request)
    who = GM if private else PUBLIC
    game = console_of(kind)
    names = await call(_listing, service, game_id, kind, who)
    hidden = (await call(service.view, game_id, PUBLIC)).hidden
    order = list(game.report_names)
    first = game.first_report.rsplit(".", 1)[0]
    names.sort(key=lambda n: (order.index(n.rsplit(".", 1)[0]) if n.rsplit(".", 1)[0] in order
                              else len(order), n.endswith(".html"), n))  # PDF first
    links = []
    for name in names:
        stem, suffix = name.rsplit(".", 1)
        mine = any(word in name for word in hidden)
        if (mine and not private) or (stem == first and not published):
            continue  # (before anything is handed out, the first report says only "nothing")
        label = w.gettext(game.report_names[stem]) if stem in game.report_names else stem
        links.append({"href": f"/console/{game_id}/files/{name}", "private": mine,
                      "text": w.gettext(KINDS["." + suffix], document=label)})
        if stem == first and suffix == "html":
            links.append({"href": f"/console/{game_id}/files/report.txt", "private": False,
                          "text": w.gettext("%(document)s (text, for an email)",
                                            document=label)})
    return links


def _board(public: dict[str, Any], lang: str) -> dict[str, Any]:
    """The game's board context, and where its templates are."""
    kind = str(public["game"])
    return {**console_of(kind).board(public, words(lang)), "game_templates": game_templates(kind)}


async def public_page(request: Request) -> Response:
    game_id = request.path_params["id"]
    public = await call(console(request).public_state, game_id)
    context = _board(public, language(request)["lang"])
    files = await report_links(request, game_id, str(public["game"]), private=False) \
        if context.get("shown") else []
    return render(request, "console/public.html", public=public, game_id=game_id, files=files,
                  **context)


async def standings_page(request: Request) -> Response:
    game_id = request.path_params["id"]
    public = await call(console(request).public_state, game_id)
    context = _board(public, language(request)["lang"])
    return render(request, "console/standings.html", script=True, connect=True, public=public,
                  game_id=game_id, refresh=REFRESH_SECONDS, poll=POLL_MS, **context)


async def _viewer(request: Request, game_id: str) -> str:
    """``gm`` when the browser holds this game's GM cookie, else ``public``."""
    token = guard.gm_token(request)
    return GM if token and await call(console(request).authorize, game_id, token) else PUBLIC


async def report_file(request: Request) -> Response:
    """A report file the viewer may fetch; the GM's own (register, slips) need the GM cookie."""
    game_id, name = request.path_params["id"], request.path_params["name"]
    service = console(request)
    if not SERVED.fullmatch(name):  # the documents and their fonts; no record or other file
        raise PageProblem(404, N_("Not found"), N_("There is no such report file."))
    who = await _viewer(request, game_id)
    hidden = (await call(service.view, game_id, PUBLIC)).hidden
    if who != GM and any(word in name for word in hidden):
        if guard.gm_token(request):  # a wrong cookie counts; asking without one does not
            refuse_wrong_token(request.scope)
        raise PageProblem(403, N_("Game master only"), N_("This file is for the game master."))
    if name == "report.txt":
        base = f"{request.url.scheme}://{request.url.netloc}/console/{game_id}/files/"
        text = await call(service.report_text, game_id, PUBLIC, base)
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"cache-control": "no-store"})
    try:
        path = await call(service.report_file, game_id, name, who)
    except NotFound:
        raise PageProblem(404, N_("Not found"), N_("There is no such report file.")) from None
    media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    headers = {"cache-control": "no-store"}
    if path.suffix == ".html":
        headers["content-security-policy"] = (
            "default-src 'none'; style-src 'unsafe-inline'; font-src 'self'; img-src 'self' "
            "data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")
        media = "text/html; charset=utf-8"
    return Response(path.read_bytes(), media_type=media, headers=headers)
