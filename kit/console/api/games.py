"""The console's JSON API, over ``Console`` (``request.app.state.console``).

- ``POST /api/games`` (JSON spec) and ``POST /api/games/import`` (a TOML log: ``application/toml``
  with optional ``?lang=&paper=``, or JSON ``{"log": "...", "lang"?, "paper"?}``)
  -> 201 ``{"id", "gm_token", "gm_url", "public_url", "version"}``, and for a game whose
  players have their own links (What's My Number?) ``"player_tokens"`` and ``"player_links"``
  (name -> token, name -> ``/console/{id}/p/{token}``), shown once: only hashes are stored;
  with a mail server, ``"invited"``: the players whose invitation was queued
  (``kit.console.mail.invitations``)
- ``POST /api/games/{id}/<path>`` for each entry a game declares (``ConsoleGame.entries``:
  e.g. ``turns``, ``turns/{n}/publish``, ``tables/{t}/rounds``) ``{..., "version"?}`` -> its
  status and the game's answer with the new ``version``
- ``POST /api/games/{id}/undo`` -> 200 ``{"version"}``
- the calls of seats with their own links (a player's ``me.json`` and orders) and the links'
  rotation are ``kit.console.api.seats``
- ``GET /api/games/{id}/log.toml`` (GM), ``GET /api/games/{id}/state.json`` (GM: the game
  master's view and the journal), ``GET /api/games/{id}/public.json`` (anyone: the public view)
  and ``GET /api/games/{id}/version.json`` (anyone: ``{"version"}``, the public version alone);
  both carry an ETag and answer 304 to a request whose ``If-None-Match`` holds it

GM calls need ``Authorization: Bearer <gm_token>``: 401 without, 403 wrong (nothing changes);
404 an unknown game; 422 ``{"errors": [every problem]}``; 409 a stale ``version`` with
``{"errors", "version", "changes"}``; 413 a body over 64 KB; 415 not JSON. A POST whose
``Origin`` (or ``Sec-Fetch-Site``) says another site is refused with 403.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import KitError, Problems
from ...game.refusals import Closed, Conflict, NotFound
from ...server.guard import refuse_wrong_token
from ...server.http import BodyError, parse_json
from .. import presence
from ..addressing import base_url
from ..join_desk import host_view
from ..mail.book import Opener
from ..mail.invitations import invite_new
from ..pages.base import NO_STORE, conditional, conditional_answer
from ..quota import TooFast
from ..seat_access import NotYours, seat_params, shared_seats
from ..service import Console, Created
from ..specs import console_games, console_of
from ..tokens import SEAT_LINKS

BODY_LIMIT = 64 * 1024
JSON = "application/json"


class ApiError(Exception):
    """An HTTP error with the JSON ``errors`` list to send."""

    def __init__(self, status: int, field: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"errors": [problem(field, message)]}


def problem(field: str, message: str) -> dict[str, str]:
    return {"field": field, "message": message, "text": f"{field}: {message}"}


def _console(request: Request) -> Console:
    return request.app.state.console


def _same_site(request: Request) -> None:
    """Refuse a state-changing request sent by a page of another site."""
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        raise ApiError(403, "origin", "cross-site requests are refused")
    origin = request.headers.get("origin")
    if origin is not None:
        own = f"{request.url.scheme}://{request.url.netloc}"
        if origin != own:
            raise ApiError(403, "origin", "cross-site requests are refused")


async def read_body(request: Request, limit: int = BODY_LIMIT) -> bytes:
    """The request body, at most ``limit`` bytes (413 past it, before reading it all)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise ApiError(413, "body", f"the request body is over {limit // 1024} KB")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "body", f"the request body is over {limit // 1024} KB")
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request: Request, limit: int = BODY_LIMIT) -> dict[str, Any]:
    """A JSON object body: 415 when not ``application/json``, 400 when not JSON, 422 when
    not an object (or nested too deeply, or with a number too long)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(415, "body", "send JSON (Content-Type: application/json)")
    raw = await read_body(request, limit)
    try:
        data = parse_json(raw or b"{}")
    except BodyError as exc:  # not JSON (400), nested too deeply or a number too long (422)
        raise ApiError(exc.status, "body", exc.message) from None
    if not isinstance(data, dict):
        raise ApiError(422, "body", "the body must be a JSON object")
    return data


def _version(body: dict[str, Any]) -> int | None:
    version = body.get("version")
    if version is None:
        return None
    if isinstance(version, bool) or not isinstance(version, int):
        raise ApiError(422, "version", "must be a whole number (the version you loaded)")
    return version


async def _gm(request: Request) -> tuple[Console, str]:
    """The console and game id of a GM request: 404 unknown game, 401 no token, 403 wrong."""
    console, game_id, _ = await _caller(request)
    return console, game_id


async def _caller(request: Request, seats: frozenset[str] = frozenset()
                  ) -> tuple[Console, str, tuple[str, str] | None]:
    """The console, game id and seat of a request made with the GM's token (seat None) or
    with the token of a seat of one of the kinds ``seats``: 404 unknown game, 401 no token,
    403 any other token."""
    console, game_id = _console(request), request.path_params["id"]
    if not await run_in_threadpool(console.exists, game_id):
        raise ApiError(404, "game", "there is no game with that id")
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "authorization", "give the game master's token: Authorization: "
                       "Bearer <gm_token>")
    if await run_in_threadpool(console.authorize, game_id, token.strip()):
        return console, game_id, None
    seat = await run_in_threadpool(console.seat_of, game_id, token.strip()) if seats else None
    if seat is not None and seat[0] in seats:
        return console, game_id, seat
    refuse_wrong_token(request.scope)  # 429 past the guard's limit of wrong tokens
    raise ApiError(403, "authorization", "that is not this game's game master token")


def opener(request: Request) -> Opener:
    """A GM request's token (checked by ``_gm``) and the address players reach us at: what
    opens the players' links for their letters (``kit.console.mail.book``)."""
    token = request.headers.get("authorization", "").partition(" ")[2].strip()
    return Opener(token, base_url(request))


def _links(request: Request, created: Created) -> dict[str, Any]:
    base = base_url(request)
    links = {"id": created.id, "gm_token": created.gm_token,
             "gm_url": f"{base}/console/{created.id}/gm/{created.gm_token}",
             "public_url": f"{base}/console/{created.id}", "version": created.version}
    for kind, segment in SEAT_LINKS.items():  # seats with links of their own: players'
        tokens = created.tokens(kind)
        if tokens:
            links[f"{kind}_tokens"] = tokens
            links[f"{kind}_links"] = {name: f"{base}/console/{created.id}/{segment}/{token}"
                                      for name, token in tokens.items()}
    return links


Handler = Callable[[Request], Awaitable[Response]]


def handled(endpoint: Handler) -> Handler:
    """Turn the console's errors into the API's JSON answers."""

    async def wrapper(request: Request) -> Response:
        try:
            return await endpoint(request)
        except ApiError as exc:
            return JSONResponse(exc.body, exc.status, headers=NO_STORE)
        except NotFound as exc:
            return JSONResponse({"errors": [problem(exc.field, exc.message)]}, 404,
                                headers=NO_STORE)
        except NotYours as exc:  # a seat's token on another seat's entry: nothing changed
            return JSONResponse({"errors": [problem(exc.field, exc.message)]}, 403,
                                headers=NO_STORE)
        except TooFast as exc:  # a player's reposts past the pace: nothing changed
            return JSONResponse({"errors": [problem(exc.field, exc.message)]}, 429,
                                headers={**NO_STORE, "retry-after": str(exc.retry_after)})
        except Closed as exc:  # a turn the game takes no more orders for: nothing changed
            return JSONResponse({"errors": [problem(exc.field, exc.message)]}, 409,
                                headers=NO_STORE)
        except Conflict as exc:
            return JSONResponse({"errors": [problem(exc.field, exc.message)],
                                 "version": exc.version, "changes": exc.changes}, 409,
                                headers=NO_STORE)
        except Problems as exc:
            return JSONResponse({"errors": [problem(p.field, p.message) for p in exc.problems]},
                                422, headers=NO_STORE)
        except KitError as exc:
            return JSONResponse({"errors": [problem(exc.field, exc.message)]}, 422,
                                headers=NO_STORE)

    wrapper.__name__ = endpoint.__name__
    wrapper.__doc__ = endpoint.__doc__
    return wrapper


def _client(request: Request) -> str:
    """The address the guard settled (a trusted proxy's client, or the peer)."""
    return request.client.host if request.client else ""


@handled
async def create_game(request: Request) -> Response:
    _same_site(request)
    body = await read_json(request)
    console = _console(request)
    created = await run_in_threadpool(console.create_game, body, _client(request))
    links = _links(request, created)
    invited = await run_in_threadpool(invite_new, console, created, base_url(request))
    if invited is not None:
        links["invited"] = list(invited.queued)
    return JSONResponse(links, 201, headers=NO_STORE)


@handled
async def import_game(request: Request) -> Response:
    _same_site(request)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    settings: dict[str, Any] = {"lang": request.query_params.get("lang"),
                                "paper": request.query_params.get("paper")}
    if kind == "application/json":
        body = await read_json(request)
        text = body.get("log")
        settings.update({k: body[k] for k in ("lang", "paper") if k in body})
        if not isinstance(text, str):
            raise ApiError(422, "log", "give the TOML log as text: {\"log\": \"...\"}")
    elif kind == "application/toml":
        try:
            text = (await read_body(request)).decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(422, "log", "the log is not UTF-8 text") from None
    else:
        raise ApiError(415, "body", "send the log as application/toml, or JSON {\"log\": ...}")
    created = await run_in_threadpool(lambda: _console(request).import_log(
        text, **settings, client=_client(request)))
    return JSONResponse(_links(request, created), 201, headers=NO_STORE)


def entry_endpoint(path: str) -> Handler:
    """The endpoint of a game's entry at ``path`` (``ConsoleGame.entries``): the GM's token
    (or the token of the seat the path names, for an entry a seat posts too: ``seats``), the
    body (JSON, optional for entries that need none), the version seen."""
    shared = shared_seats(console_games(), path)

    @handled
    async def endpoint(request: Request) -> Response:
        _same_site(request)
        console, game_id, seat = await _caller(request, shared)
        body = await read_json(request) if await _has_body(request) else {}
        params = {k: v for k, v in request.path_params.items() if k != "id"}
        kind, status = await run_in_threadpool(console.entry_at, game_id, path)
        if seat is not None:
            game = console_of(await run_in_threadpool(console.kind, game_id))
            params = seat_params(game, kind, seat, params)
        mail = opener(request) if seat is None else None  # a seat's token opens no links
        entered = await run_in_threadpool(lambda: console.enter(
            game_id, kind, body, params, version=_version(body), opener=mail))
        return JSONResponse({**entered.answer, "version": entered.version}, status,
                            headers=NO_STORE)

    endpoint.__name__ = "entry_" + "".join(c if c.isalnum() else "_" for c in path)
    return endpoint


@handled
async def undo(request: Request) -> Response:
    _same_site(request)
    console, game_id = await _gm(request)
    body = await read_json(request) if await _has_body(request) else {}
    entry = await run_in_threadpool(lambda: console.undo(game_id, version=_version(body)))
    return JSONResponse({"version": entry.version}, headers=NO_STORE)


async def _has_body(request: Request) -> bool:
    return request.headers.get("content-length", "0") != "0" or \
        "chunked" in request.headers.get("transfer-encoding", "")


@handled
async def log_toml(request: Request) -> Response:
    console, game_id = await _gm(request)
    text = await run_in_threadpool(console.export_log, game_id)
    return Response(text, media_type="application/toml; charset=utf-8", headers={
        **NO_STORE, "content-disposition": 'attachment; filename="game.toml"'})


@handled
async def state_json(request: Request) -> Response:
    console, game_id = await _gm(request)
    state = await run_in_threadpool(console.state, game_id)
    joining = await run_in_threadpool(host_view, console, game_id, opener(request).gm_token)
    seats = await run_in_threadpool(console.presence.seats, game_id)
    return JSONResponse({**state.view.data, "entries": list(state.entries),
                         "presence": presence.said(seats),
                         **({"join_code": joining["code"], "joins": joining["requests"]}
                            if joining else {})}, headers=NO_STORE)


@handled
async def public_json(request: Request) -> Response:
    """The public view (a 304 when the request holds its ETag)."""
    made = await run_in_threadpool(_console(request).public_json, request.path_params["id"])
    return conditional_answer(request, made, lambda body: Response(body, media_type=JSON))


@handled
async def version_json(request: Request) -> Response:
    """The public version alone, for a screen that fetches the rest only when it moved."""
    made = await run_in_threadpool(_console(request).version_json, request.path_params["id"])
    return conditional(request, made.etag, lambda: Response(made.body, media_type=JSON))


def api_routes() -> list[Route]:
    """The JSON API's routes under ``/api/games`` (``POST /api/games`` itself is
    ``create_game``'s route beside the mount): the console's own, then every path a game's
    entries declare."""
    post = ["POST"]
    paths = dict.fromkeys(entry.path for game in console_games().values()
                          for entry in game.entries if "gm" in entry.by)
    return [
        Route("/import", import_game, methods=post),
        Route("/{id}/undo", undo, methods=post),
        Route("/{id}/log.toml", log_toml, methods=["GET"]),
        Route("/{id}/state.json", state_json, methods=["GET"]),
        Route("/{id}/public.json", public_json, methods=["GET"]),
        Route("/{id}/version.json", version_json, methods=["GET"]),
        *(Route(f"/{{id}}/{path}", entry_endpoint(path), methods=post)
          for path in paths),
    ]
