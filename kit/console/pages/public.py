"""What anyone with the public link sees: the public page, the big-screen standings and the
report files the public view lets them fetch (the rest only with the GM cookie).

Both pages read the public view alone (``Console.view``), through the game's ``board``, and
are made once per public version and language (``Console.answer``), with an ETag (a 304 when
the browser holds it). Both follow the public event stream with the live pages' script
(``/console/live.js``), which fetches the page again when the game moves and swaps in what
changed; without script the standings refresh themselves (``<noscript>`` meta refresh) and
the public page offers a reload link. The standings' own small script (allowed by its hash)
fits their text to the screen. The report files are made in the render pool: a page whose files
are being made says so instead of waiting, and a file link waits a few seconds, then says so
and comes back by itself.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import mimetypes
import re
from collections.abc import Callable, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ...game import View
from ...game.refusals import NotFound
from ...i18n import N_, words
from ...registry import game_spec
from ...server.guard import refuse_wrong_token
from ...server.http import client_of
from ..answer_cache import Made
from ..report_render import BeingMade, NotMade, Queued, TooLarge
from ..service import GM, PUBLIC, Answer, Console
from ..specs import console_of, site_environment
from ..store import GameRow
from . import auth
from .base import (
    PageProblem,
    call,
    conditional,
    conditional_answer,
    console,
    language,
    page_csp,
    page_headers,
    render,
)

REFRESH_SECONDS = 5
LIVE_CSP = page_csp(live=True)  # the public page: the live pages' script, no inline one
FILE_WAIT_S = 30.0  # a file link waits this long for its render, then says it is being made
RETRY_S = 5
MAKING = N_("The report files are being made. Reload this page in a few seconds to get them.")
MAKING_HEADING = N_("Report files being made")
MAKING_FILE = N_("This file is being made. This page reloads itself in a few seconds and "
                 "then shows it.")
SERVED = re.compile(r"[a-z0-9-]+\.(?:pdf|html)|report\.txt|fonts/[A-Za-z0-9_.-]+\.ttf")
KINDS = {".pdf": N_("%(document)s (PDF, to print)"), ".html": N_("%(document)s (HTML, for a "
                                                                  "screen)")}


def game_templates(kind: str) -> str:
    """Where a game's console templates are: "<package>/console/"."""
    return f"{game_spec(kind).package}/console/"


def _listing(service: Console, game_id: str, kind: str, who: str,
             client: str, row: GameRow | None = None) -> list[str] | None:
    """The report folder's files; None while they are being made (their render started)."""
    game = console_of(kind)
    if game.named_reports:  # made when a link is followed: the page needs not wait
        return list(game.named_reports)
    names = service.report_listing(game_id, who, client, row=row)
    return None if names is None else [n for n in names if "." + n.rpartition(".")[2] in KINDS]


def making_notice(request: Request) -> dict[str, object]:
    """The link shown instead of the files while they are being made: this page again."""
    w = words(language(request)["lang"])
    return {"href": request.url.path + language(request)["keep"], "private": False,
            "making": True, "text": w.gettext(MAKING)}


def links_now(request: Request, game_id: str, kind: str, *, private: bool,
              published: int = 1, row: GameRow | None = None) -> list[dict[str, object]]:
    """Links to the report files the viewer may fetch (the GM's own ones only when
    ``private``), and the text for an email; in the game's order, PDF first; the first
    report only once something is in it (``published``). While the files are being made, one
    link instead: this page again, saying so (the page does not wait for them). ``row``:
    the game's row, when the caller just read it."""
    w = words(language(request)["lang"])
    service = console(request)
    who = GM if private else PUBLIC
    game = console_of(kind)
    names = _listing(service, game_id, kind, who, client_of(request), row)
    if names is None:
        return [making_notice(request)]
    hidden = game.private_reports
    order = list(game.report_names)
    first = game.first_report.rsplit(".", 1)[0]
    names.sort(key=lambda n: (order.index(n.rsplit(".", 1)[0]) if n.rsplit(".", 1)[0] in order
                              else len(order), n.endswith(".html"), n))  # PDF first
    links: list[dict[str, object]] = []
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


async def report_links(request: Request, game_id: str, kind: str, *, private: bool,
                       published: int = 1) -> list[dict[str, object]]:
    """``links_now``, off the event loop."""
    return await call(links_now, request, game_id, kind, private=private, published=published)


def _board(public: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """The game's board context, and where its templates are."""
    kind = str(public["game"])
    return {**console_of(kind).board(public, words(lang)), "game_templates": game_templates(kind)}


def _page_made(request: Request, game_id: str, view: View) -> Made:
    """The public page's bytes, saying whether its files are being made."""
    public = dict(view.data)
    context = _board(public, language(request)["lang"])
    files = links_now(request, game_id, str(public["game"]), private=False) \
        if context.get("shown") else []
    making = any(f.get("making") for f in files)
    page = render(request, "console/public.html", public=public, game_id=game_id,
                  files=files, making=making, live_events=f"/console/{game_id}/events",
                  live_version=public.get("version", ""), **context)
    return Made(bytes(page.body), making=making)


async def public_page(request: Request) -> Response:
    """Kept per public version, language and where its files stand; while it says they are
    being made, each view sees that their render goes on (started again if it was refused)."""
    game_id = request.path_params["id"]
    page = language(request)
    service = console(request)
    files = await call(service.report_state, game_id, PUBLIC)
    made = await call(service.answer, game_id, ("public", page["lang"], page["keep"], files),
                      lambda view: _page_made(request, game_id, view))
    if made.making:
        await call(service.report_listing, game_id, PUBLIC, client_of(request))
    # a Refresh header, not <meta http-equiv="refresh">: the same reload without a script,
    # and the page keeps saying why (axe refuses a timed meta refresh)
    again = {"refresh": str(REFRESH_SECONDS)} if made.making else {}
    return conditional_answer(request, made, lambda body: HTMLResponse(
        body, headers={**page_headers(page["lang"], LIVE_CSP), **again}))


@functools.lru_cache(maxsize=1024)
def standings_script(game_id: str) -> tuple[str, str]:
    """The standings' script (fit the text to the screen, again after each live swap) and
    its base64 SHA-256 for the page's CSP: made once per game, so a hit renders nothing. It
    has no words: the same in every language."""
    script = site_environment().get_template("console/_standings.js").render(game_id=game_id)
    return script, base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()


async def standings_page(request: Request) -> Response:
    """Kept per public version and language: a hit at an unchanged version is the game's
    version read and a lookup (a 304 when the browser holds its ETag); the script only for a
    game that exists."""
    game_id = request.path_params["id"]
    page = language(request)

    def made(view: View) -> bytes:
        context = _board(view.data, page["lang"])
        return bytes(render(request, "console/standings.html", public=view.data,
                            game_id=game_id, refresh=REFRESH_SECONDS,
                            live_events=f"/console/{game_id}/events",
                            live_version=view.data.get("version", ""),
                            standings_script=standings_script(game_id)[0], **context).body)

    answer = await call(console(request).answer, game_id,
                        ("standings", page["lang"], page["keep"]), made)
    csp = page_csp(script_sha=standings_script(game_id)[1], connect=True, live=True)
    return conditional_answer(request, answer, lambda body: HTMLResponse(
        body, headers=page_headers(page["lang"], csp)))


async def _viewer(request: Request, game_id: str) -> str:
    """``gm`` when the browser holds this game's GM cookie, else ``public``."""
    token = auth.gm_token(request)
    return GM if token and await call(console(request).authorize, game_id, token) else PUBLIC


def being_made(request: Request) -> Response:
    """The answer for a file still being made: say so, and come back by itself."""
    w = words(language(request)["lang"])
    return render(request, "console/message.html", 503, heading=w.gettext(MAKING_HEADING),
                  text=w.gettext(MAKING_FILE),
                  headers={"retry-after": str(RETRY_S), "refresh": str(RETRY_S)})


async def _text(request: Request, game_id: str) -> Response:
    base = f"{request.url.scheme}://{request.url.netloc}/console/{game_id}/files/"
    made = await call(console(request).report_text, game_id, PUBLIC, base)
    return conditional(request, made.etag, lambda: Response(
        made.body, media_type="text/plain; charset=utf-8"))


async def _file(request: Request, game_id: str, name: str, who: str) -> Answer | None:
    """The file's answer, waiting a little for its render; None if it is still being made."""
    return await waited_file(console(request).read_report, game_id, name, who,
                             client_of(request))


async def waited_file(read: Callable[..., Answer], *args: object) -> Answer | None:
    """``read(*args)``, a report file's answer, waiting a little for its render; None if it
    is still being made (or the client's share of renders is taken); the problems' pages."""
    for _ in range(2):
        try:
            return await call(read, *args)
        except BeingMade as making:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(making.future)),
                                       FILE_WAIT_S)
        except Queued:  # this client's share of renders is taken: the page comes back
            return None
        except TooLarge as large:
            raise PageProblem(413, N_("Report files too large"), N_(
                "These report files would have about %(pages)s pages, and report files made "
                "here may have at most %(max)s: make them with kit report on your own "
                "computer."), pages=large.pages, max=large.most) from None
        except NotMade:
            raise PageProblem(500, N_("Report files unavailable"), N_(
                "The report files of this game could not be made.")) from None
        except NotFound:
            raise PageProblem(404, N_("Not found"), N_("There is no such report file.")) from None
    return None


async def report_file(request: Request) -> Response:
    """A report file the viewer may fetch; the GM's own (register, slips) need the GM cookie.
    One still being made after a few seconds: a page saying so, that comes back by itself."""
    game_id, name = request.path_params["id"], request.path_params["name"]
    service = console(request)
    if not SERVED.fullmatch(name):  # the documents and their fonts; no record or other file
        raise PageProblem(404, N_("Not found"), N_("There is no such report file."))
    who = await _viewer(request, game_id)
    hidden = console_of(await call(service.kind, game_id)).private_reports
    if who != GM and any(word in name for word in hidden):
        if auth.gm_token(request):  # a wrong cookie counts; asking without one does not
            refuse_wrong_token(request.scope)
        raise PageProblem(403, N_("Game master only"), N_("This file is for the game master."))
    if name == "report.txt":
        return await _text(request, game_id)
    made = await _file(request, game_id, name, who)
    if made is None:
        return being_made(request)
    media = mimetypes.guess_type(name)[0] or "application/octet-stream"
    headers = {}
    if name.endswith(".html"):
        headers["content-security-policy"] = (
            "default-src 'none'; style-src 'unsafe-inline'; font-src 'self'; img-src 'self' "
            "data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")
        media = "text/html; charset=utf-8"
    if who == GM:  # the GM's answers are never kept by the browser
        return Response(made.body, media_type=media, headers={**headers,
                                                              "cache-control": "no-store"})
    return conditional(request, made.etag, lambda: Response(made.body, media_type=media,
                                                             headers=headers))
