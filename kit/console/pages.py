"""The game-night console's HTML pages (``kit serve``): start, GM link, GM console, public page,
big-screen standings, report files.

Pages are the site's Jinja2 environment (``kit.web.pages.site_environment``: autoescaped, one
per language, ``jinja2.ext.i18n``) rendering ``templates/console/``; their language is
negotiated like the site's (``?lang=``, then ``Accept-Language``). Every word is marked for
translation; the engine's and the service's problems are ``kit.errors.Msg``s, said in the
page's language with their translated field ("tour 3, joueur Eve"), by ``views.said``.

Who may do what: the GM link sets the game's cookie (``views.guard``); every GM page checks it
against the game's token hash (``Console.authorize``) and every GM post also carries the signed
CSRF token and must come from this site. The public page and the standings read
``Console.public_state`` only: published turns and standings, never a secret.

The pages use no script, except two small ones allowed by a per-response nonce: Enter moves on
in the entry grid, and the standings fetch ``public.json`` every few seconds (without script
they refresh themselves). Every action posts, then redirects (303) back to a page (no form is
sent twice by a reload); a stale form gets a 409 page saying what changed.
"""

from __future__ import annotations

import functools
import secrets
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from ..i18n import N_, words
from ..resources import templates_dir
from ..web.pages import language_links, negotiate, site_environment
from .views import guard

CSS_PATH = "console/console.css"
PAGE_CSP = ("default-src 'none'; style-src 'self'; img-src 'self'; font-src 'self'; "
            "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


class PageProblem(Exception):
    """A request answered with a short console page: status, heading and text (msgids)."""

    def __init__(self, status: int, heading: str, text: str, **values: object) -> None:
        super().__init__(text)
        self.status, self.heading, self.text, self.values = status, heading, text, values


def console(request: Request):
    return request.app.state.console


def language(request: Request) -> dict[str, Any]:
    """``lang``, the switcher, and ``keep``: the ``?lang=`` query a chosen language carries."""
    lang, chosen = negotiate(request.query_params.get("lang"),
                             request.headers.get("accept-language"))
    return {"lang": lang, "languages": language_links(lang),
            "keep": f"?lang={lang}" if chosen else ""}


def render(request: Request, template: str, status: int = 200, *, script: bool = False,
           connect: bool = False, headers: dict[str, str] | None = None,
           **context: Any) -> HTMLResponse:
    """A console page in the request's language; ``script`` allows one inline script by nonce
    (``connect``: it may fetch from this site)."""
    page = language(request)
    service = getattr(request.app.state, "console", None)
    page["stored_locally"] = bool(getattr(service, "stored_locally", False))  # the footer's
    page.update(context)
    csp = PAGE_CSP
    nonce = ""
    if script:
        nonce = secrets.token_urlsafe(16)
        csp += f"; script-src 'nonce-{nonce}'" + ("; connect-src 'self'" if connect else "")
    html = site_environment(page["lang"]).get_template(template).render(nonce=nonce, **page)
    return HTMLResponse(html, status_code=status, headers={
        "cache-control": "no-store", "content-language": page["lang"],
        "vary": "accept-language, cookie", "content-security-policy": csp, **(headers or {})})


def problem_page(request: Request, problem: PageProblem) -> HTMLResponse:
    w = words(language(request)["lang"])
    values = {k: w.number(v) if isinstance(v, int) else v for k, v in problem.values.items()}
    return render(request, "console/message.html", problem.status,
                  heading=w.gettext(problem.heading), text=w.gettext(problem.text, **values))


async def call(fn, *args: Any, **kwargs: Any) -> Any:
    """A service call off the event loop; unknown games become a 404 page."""
    from .service import NotFound

    try:
        return await run_in_threadpool(fn, *args, **kwargs)
    except NotFound:
        raise PageProblem(404, N_("No such game"), N_("There is no game at this address. "
                                                       "Check the link you were given.")) from None


async def require_gm(request: Request) -> str:
    """The game id, once the browser's cookie holds this game's GM token; else a 403 page."""
    game_id = request.path_params["id"]
    token = guard.gm_token(request)
    if not token or not await call(console(request).authorize, game_id, token):
        if not await call(console(request).exists, game_id):
            raise PageProblem(404, N_("No such game"), N_("There is no game at this address."))
        raise PageProblem(403, N_("Game master only"),
                          N_("This page is for the game master. Open your game master link "
                             "(the one the console gave you when the game was made) in this "
                             "browser."))
    return game_id


async def gm_post(request: Request) -> tuple[str, dict[str, str]]:
    """A GM form post: same origin, the GM cookie, and this game's signed CSRF token."""
    try:
        values = await guard.read_post(request)
    except guard.Refused as refused:
        raise PageProblem(refused.status, N_("Form refused"),
                          N_("This form was not accepted (it came from another site, or was "
                             "too large or unreadable). Nothing changed.")) from None
    game_id = await require_gm(request)
    if not guard.csrf_ok(game_id, guard.gm_token(request), values.get(guard.CSRF_FIELD, "")):
        raise PageProblem(403, N_("Form refused"),
                          N_("This form’s security token is missing or belongs to another game "
                             "or browser. Nothing changed. Reload the game master page and "
                             "try again."))
    return game_id, values


def see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


async def stylesheet(request: Request) -> Response:
    body = (templates_dir() / CSS_PATH).read_bytes()
    return Response(body, media_type="text/css; charset=utf-8",
                    headers={"cache-control": "public, max-age=3600"})


async def gm_link(request: Request) -> Response:
    """``/console/{id}/gm/{token}``: the token becomes the game's cookie, then the console."""
    game_id, token = request.path_params["id"], request.path_params["token"]
    if not await call(console(request).authorize, game_id, token):
        raise PageProblem(403, N_("Link not valid"),
                          N_("This game master link is not valid for this game. Check that it "
                             "was copied whole."))
    query = "&".join(f"{k}={v}" for k, v in (("new", "1"), ("lang", language(request)["lang"]))
                     if (k == "new" and request.query_params.get("new") == "1")
                     or (k == "lang" and language(request)["keep"]))
    response = see_other(f"/console/{game_id}/gm" + (f"?{query}" if query else ""))
    response.set_cookie(guard.COOKIE, token, path=guard.cookie_path(game_id), httponly=True,
                        samesite="strict", secure=request.url.scheme == "https",
                        max_age=60 * 60 * 24 * 120)
    response.headers["referrer-policy"] = "no-referrer"
    return response


def page(handler):
    """The handler, with its ``PageProblem`` answered as a short page of the same language."""
    @functools.wraps(handler)
    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except PageProblem as problem:
            return problem_page(request, problem)

    return endpoint


def page_routes() -> list[Route]:
    """Every console page's route; the JSON API's are ``kit.console.api``'s."""
    from . import pages_gm as gm
    from . import pages_public as public
    from . import pages_start as start

    return [
        Route("/console", page(start.start_page), methods=["GET"]),
        Route("/console/", page(start.start_page), methods=["GET"]),
        Route("/console/console.css", stylesheet),
        Route("/console/new/{kind}", page(start.start_submit), methods=["POST"]),
        Route("/console/{id}/gm", page(gm.gm_page), methods=["GET"]),
        Route("/console/{id}/gm/{action}", page(gm.gm_action), methods=["POST"]),
        Route("/console/{id}/gm/{token}", page(gm_link), methods=["GET"]),
        Route("/console/{id}/log.toml", page(gm.export_log)),
        Route("/console/{id}/files/{name:path}", page(public.report_file)),
        Route("/console/{id}/standings", page(public.standings_page)),
        Route("/console/{id}", page(public.public_page)),
    ]


__all__ = ["PageProblem", "call", "gm_post", "language", "page_routes", "problem_page",
           "render", "require_gm", "see_other"]


def routes() -> list[Route]:
    """What ``kit.console.routes`` mounts: the pages' routes."""
    return page_routes()
