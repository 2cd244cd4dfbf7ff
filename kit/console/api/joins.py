"""The JSON API of joining by room code (``kit.console.join_desk``).

- ``POST /api/join`` ``{"code", "name"}`` -> 202 ``{"request", "status": "waiting"}``: the
  request id is the asking phone's secret; a wrong or expired code is 404 (and repeated wrong
  codes from one client 429, the guard's count of wrong tokens); a seat another phone holds
  is 409; a name that is not one of the game's players 422
- ``GET /api/join/{request}`` -> ``{"status": "waiting" | "admitted" | "refused", "name"}``,
  with ``"link"`` (the player's own page) once admitted
- ``POST /api/games/{id}/joins/{handle}/admit`` and ``.../refuse`` (GM) -> 200 ``{"request",
  "name", "status"}``: ``handle`` is the request's handle in ``state.json``'s ``"joins"``
- ``POST /api/games/{id}/joins`` (GM) ``{"open"?, "admit_all"?}`` -> 200 the desk: open or
  close joining; admit every asking phone (on the host's next call) or not
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...game.refusals import NotFound
from ...server.guard import refuse_wrong_token
from .. import join_desk
from .games import NO_STORE, ApiError, _gm, _same_site, handled, opener, read_json
from .seats import seat_link


@handled
async def ask(request: Request) -> Response:
    """A phone asks for a seat with the room code."""
    _same_site(request)
    body = await read_json(request)
    code = body.get("code")
    if not isinstance(code, str):
        raise ApiError(422, "code", "give the room code the host shows, as text")
    console = request.app.state.console
    try:
        _, secret = await run_in_threadpool(join_desk.ask, console, code, body.get("name"))
    except NotFound:
        refuse_wrong_token(request.scope)  # 429 past the guard's limit of wrong tokens
        raise
    return JSONResponse({"request": secret, "status": "waiting"}, 202, headers=NO_STORE)


@handled
async def status(request: Request) -> Response:
    """The asking phone's request: waiting, admitted (with the player's link) or refused."""
    console = request.app.state.console
    try:
        found = await run_in_threadpool(join_desk.request, console,
                                        request.path_params["request"])
    except NotFound:
        refuse_wrong_token(request.scope)
        raise
    answer: dict[str, Any] = {"status": found.status, "name": found.seat}
    if found.status == "admitted" and found.token:
        answer["link"] = seat_link(request, found.game_id, "player", found.token)
    return JSONResponse(answer, headers=NO_STORE)


def settle_endpoint(admit: bool):  # noqa: ANN201 (a Starlette endpoint)
    """The GM's admit (or refuse) of one waiting request."""

    @handled
    async def endpoint(request: Request) -> Response:
        _same_site(request)
        console, game_id = await _gm(request)
        settled = await run_in_threadpool(join_desk.settle, console, game_id,
                                          request.path_params["handle"],
                                          opener(request).gm_token, admit)
        return JSONResponse({"request": settled.handle, "name": settled.seat,
                             "status": settled.status}, headers=NO_STORE)

    endpoint.__name__ = "admit_join" if admit else "refuse_join"
    return endpoint


@handled
async def desk(request: Request) -> Response:
    """The GM opens or closes joining, and admits everyone who asks or not."""
    _same_site(request)
    console, game_id = await _gm(request)
    body = await read_json(request)
    values = {}
    for key in ("open", "admit_all"):
        if key in body:
            if not isinstance(body[key], bool):
                raise ApiError(422, key, "must be true or false")
            values[key] = body[key]
    gm_token = opener(request).gm_token
    if not await run_in_threadpool(join_desk.players, console, game_id):
        raise ApiError(404, "game", "this game's players have no links to join with")
    await run_in_threadpool(join_desk.desks(console).ensure_desk, game_id, gm_token)
    await run_in_threadpool(lambda: join_desk.desks(console).set_desk(game_id, **values))
    seen = await run_in_threadpool(join_desk.host_view, console, game_id, gm_token)
    return JSONResponse(seen, headers=NO_STORE)


def join_routes() -> list[Route]:
    """The asking phone's calls of joining by room code (``/api/join``, beside the games')."""
    return [
        Route("/api/join", ask, methods=["POST"]),
        Route("/api/join/{request}", status, methods=["GET"]),
    ]


def desk_routes() -> list[Route]:
    """The host's calls of joining, under ``/api/games`` (``kit.console.routes``' mount)."""
    post = ["POST"]
    return [
        Route("/{id}/joins", desk, methods=post),
        Route("/{id}/joins/{handle}/admit", settle_endpoint(True), methods=post),
        Route("/{id}/joins/{handle}/refuse", settle_endpoint(False), methods=post),
    ]
