"""What every console page shares: the page language, rendering a console template, the short
problem pages, service calls off the event loop, and the game master's guard (cookie, same
origin, signed CSRF token) of ``pages.auth``; the HTTP half of the answer cache (ETags
answered with a 304) and the downloads made for one request."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from ...game.refusals import NotFound
from ...i18n import DEFAULT as DEFAULT_LANGUAGE
from ...i18n import N_, words
from ...server.guard import refuse_wrong_token
from ...server.language import language_links, negotiate
from ...server.packing import accepts_gzip, encoded, packed_tag, vary
from ..addressing import base_url
from ..mail.book import Opener
from ..results import Answer
from ..service import Console
from ..specs import site_environment
from . import auth

# answers made for one request (they may hold links or tokens): never cached
NO_STORE = {"cache-control": "no-store"}
# stored by the browser, asked again every time (a 304 when unchanged): public answers only
REVALIDATE = "no-cache"
LIVE_SCRIPT = "/console/live.js"  # follows a page's event stream (templates/console/live.js)
PAGE_CSP = ("default-src 'none'; style-src 'self'; img-src 'self'; font-src 'self'; "
            "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


class PageProblem(Exception):
    """A request answered with a short console page: status, heading and text (msgids)."""

    def __init__(self, status: int, heading: str, text: str, **values: object) -> None:
        super().__init__(text)
        self.status, self.heading, self.text, self.values = status, heading, text, values


def console(request: Request) -> Console:
    """The game-night console this app serves (``kit.serve`` sets it on the app's state)."""
    console: Console = request.app.state.console  # Starlette's state holds Any
    return console


def language(request: Request) -> dict[str, Any]:
    """``lang``, the switcher, and ``keep``: the ``?lang=`` query a chosen language carries.
    On a game's pages, a visitor whose languages are none of ours reads the game's."""
    game_id = request.path_params.get("id")
    own = console(request).language_of(game_id) if isinstance(game_id, str) else None
    lang, chosen = negotiate(request.query_params.get("lang"),
                             request.headers.get("accept-language"), own or DEFAULT_LANGUAGE)
    return {"lang": lang, "languages": language_links(lang),
            "keep": f"?lang={lang}" if chosen else ""}


def page_csp(*, nonce: str = "", script_sha: str = "", connect: bool = False,
             live: bool = False) -> str:
    """The page's Content-Security-Policy: one inline script allowed by ``nonce`` or by its
    hash (``script_sha``, base64 SHA-256: the same page may be sent again, from a cache);
    ``connect``: it may fetch from this site; ``live``: it runs the live pages' script
    (``LIVE_SCRIPT``, a file of this site), which follows the page's event stream."""
    allowed = ["'self'"] if live else []
    if nonce:
        allowed.append(f"'nonce-{nonce}'")
    elif script_sha:
        allowed.append(f"'sha256-{script_sha}'")
    if not allowed:
        return PAGE_CSP
    return (PAGE_CSP + "; script-src " + " ".join(allowed)
            + ("; connect-src 'self'" if connect or live else ""))


def page_headers(lang: str, csp: str) -> dict[str, str]:
    """The headers of every console page in ``lang``."""
    return {"cache-control": "no-store", "content-language": lang,
            "vary": "accept-language, cookie", "content-security-policy": csp}


def render(request: Request, template: str, status: int = 200, *, script: bool = False,
           connect: bool = False, headers: dict[str, str] | None = None,
           script_sha: str = "", **context: Any) -> HTMLResponse:
    """A console page in the request's language; ``script`` allows one inline script by nonce,
    ``script_sha`` one by its hash (``connect``: it may fetch from this site). A page whose
    context names its event stream (``live_events``, with ``live_version`` the version it
    shows) runs the live pages' script."""
    page = language(request)
    service = getattr(request.app.state, "console", None)
    page["stored_locally"] = bool(getattr(service, "stored_locally", False))  # the footer's
    page.update(context)
    nonce = secrets.token_urlsafe(16) if script else ""
    csp = page_csp(nonce=nonce, script_sha=script_sha, connect=connect,
                   live=bool(page.get("live_events")))
    html = site_environment(page["lang"]).get_template(template).render(
        nonce=nonce, live_script=LIVE_SCRIPT, **page)
    return HTMLResponse(html, status_code=status,
                        headers={**page_headers(page["lang"], csp), **(headers or {})})


def problem_page(request: Request, problem: PageProblem) -> HTMLResponse:
    """The short page of ``problem``, in the request's language."""
    w = words(language(request)["lang"])
    values = {k: w.number(v) if isinstance(v, int) else v for k, v in problem.values.items()}
    return render(request, "console/message.html", problem.status,
                  heading=w.gettext(problem.heading), text=w.gettext(problem.text, **values))


async def on_page_problem(request: Request, exc: Exception) -> Response:
    """The app's handler of ``PageProblem``: its short page (async, so that Starlette runs it
    on the event loop as the handlers did, not in a thread)."""
    assert isinstance(exc, PageProblem)
    return problem_page(request, exc)


async def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """A service call off the event loop; unknown games become a 404 page."""
    try:
        return await run_in_threadpool(fn, *args, **kwargs)
    except NotFound:
        raise PageProblem(404, N_("No such game"), N_("There is no game at this address. "
                                                       "Check the link you were given.")) from None


async def require_gm(request: Request) -> str:
    """The game id, once the browser's cookie holds this game's GM token; else a 403 page."""
    game_id = request.path_params["id"]
    token = auth.gm_token(request)
    if not token or not await call(console(request).authorize, game_id, token):
        if not await call(console(request).exists, game_id):
            raise PageProblem(404, N_("No such game"), N_("There is no game at this address."))
        if token:  # a wrong cookie counts; a page asked for without one does not
            refuse_wrong_token(request.scope)
        raise PageProblem(403, N_("Game master only"),
                          N_("This page is for the game master. Open your game master link "
                             "(the one the console gave you when the game was made) in this "
                             "browser."))
    return game_id


async def read_post_or_refuse(request: Request, status: int | None = None) -> dict[str, str]:
    """A form post (``auth.read_post``); refused, a short page with the refusal's status,
    or ``status`` when given."""
    try:
        return await auth.read_post(request)
    except auth.Refused as refused:
        raise PageProblem(status or refused.status, N_("Form refused"),
                          N_("This form was not accepted (it came from another site, or was "
                             "too large or unreadable). Nothing changed.")) from None


async def gm_post(request: Request) -> tuple[str, dict[str, str]]:
    """A GM form post: same origin, the GM cookie, and this game's signed CSRF token."""
    values = await read_post_or_refuse(request)
    game_id = await require_gm(request)
    if not auth.csrf_ok(game_id, auth.gm_token(request), values.get(auth.CSRF_FIELD, "")):
        raise PageProblem(403, N_("Form refused"),
                          N_("This form’s security token is missing or belongs to another game "
                             "or browser. Nothing changed. Reload the game master page and "
                             "try again."))
    return game_id, values


def opener(request: Request) -> Opener:
    """The GM cookie's token and the address players reach us at: what opens the players'
    links for their letters (``kit.console.mail.book``)."""
    return Opener(auth.gm_token(request) or "", base_url(request))


def see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


async def seat_in_address(request: Request, seat: str, wrong: tuple[str, str]
                          ) -> tuple[str, str, str]:
    """The game id, its kind and the name of the ``seat`` (a kind of seat: "player",
    "table") whose token the address holds; else a 404 page saying ``wrong`` (a wrong token
    counts toward the guard's limit)."""
    game_id, token = request.path_params["id"], request.path_params["token"]
    found = await call(_seat_and_kind, console(request), game_id, token)
    if found is None or found[0][0] != seat:
        refuse_wrong_token(request.scope)
        raise PageProblem(404, *wrong)
    return game_id, found[1], found[0][1]


def _seat_and_kind(service: Console, game_id: str, token: str
                   ) -> tuple[tuple[str, str], str] | None:
    """The seat whose token ``token`` is, and the game's kind (one call off the loop)."""
    found = service.seat_of(game_id, token)
    return None if found is None else (found, service.kind(game_id))


def matches(request: Request, tag: str) -> bool:
    """Whether the request's ``If-None-Match`` names ``tag`` (or is ``*``)."""
    given = request.headers.get("if-none-match")
    if not given:
        return False
    tags = {t.strip().removeprefix("W/") for t in given.split(",")}
    return "*" in tags or tag in tags


def conditional(request: Request, tag: str, make: Callable[[], Response]) -> Response:
    """A 304 when the request already holds ``tag``, else ``make()``; either way with the
    ETag and ``Cache-Control: no-cache`` (kept by the browser, asked again each time)."""
    answer = Response(status_code=304) if matches(request, tag) else make()
    answer.headers["etag"] = tag
    answer.headers["cache-control"] = REVALIDATE
    return answer


def conditional_answer(request: Request, made: Answer,
                       build: Callable[[bytes], Response]) -> Response:
    """``conditional`` for a kept public answer: ``build`` makes the response of its body,
    sent compressed to a client that takes it (made once: ``Answer.gzipped``), with the
    compressed form's own ETag."""
    packed = accepts_gzip(request)
    tag = packed_tag(made.etag) if packed else made.etag
    answer = conditional(request, tag, lambda: encoded(
        request, lambda: made.body, lambda: made.gzipped, build))
    answer.headers["vary"] = vary(answer.headers)
    return answer


def pdf_response(data: bytes, name: str) -> Response:
    """A PDF made for this request (it holds links: never cached)."""
    return Response(data, media_type="application/pdf", headers={
        **NO_STORE, "content-disposition": f'attachment; filename="{name}"'})


def eml_response(data: bytes, name: str) -> Response:
    """A ``.eml`` draft as a download."""
    return Response(data, media_type="message/rfc822", headers={
        **NO_STORE, "content-disposition": f'attachment; filename="{name}"'})
