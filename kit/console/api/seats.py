"""The JSON API of seats with links of their own (a game's players), over ``Console``.

- ``GET /api/games/{id}/me.json`` with ``Authorization: Bearer <player token>``: that player's
  view (``ConsoleGame.player_view``: what the game lets that player see, nothing more)
- ``POST /api/games/{id}/<path>`` for each entry a game lets a player post
  (``EntryKind.by``): the player's token, the body; the player's name is given to the game
  as the path parameter ``player`` -> its status and answer with the new ``version``; a turn
  the game no longer takes orders for is 409; a player's orders get a receipt by e-mail
  when the game master asks for receipts (``kit.console.mail.receipts``)
- ``POST /api/games/{id}/players/{name}/rotate`` (GM) -> 200 ``{"token", "link"}``: a new
  link for that player, the old one stops at once
- ``POST /api/games/{id}/rotate`` (GM) -> 200 ``{"token", "link"}``: the same for the game
  master's link

A seat's token works on its own calls only: on a GM call, ``log.toml`` or ``state.json`` it
is a wrong token (403), and it reads no other seat's view. Links carry the address
``addressing.base_url`` gives (``kit serve --public-url``, else the request's).
"""

from __future__ import annotations

import hashlib
import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import Msg
from ...game.refusals import NotFound
from ...i18n import N_
from ...server.guard import refuse_wrong_token
from ..addressing import base_url
from ..answer_cache import etag
from ..join_desk import hand_over
from ..mail.receipts import acknowledge
from ..pages.base import conditional
from ..service import Console
from ..specs import console_games, console_of
from ..tokens import SEAT_LINKS, new_token, token_hash
from .games import (
    NO_STORE,
    ApiError,
    Handler,
    _gm,
    _has_body,
    _same_site,
    handled,
    opener,
    read_json,
)

NO_SEAT = Msg(N_("there is no such player"))


async def _seat(request: Request, kind: str) -> tuple[Console, str, str]:
    """The console, game id and seat name of a seat's request: 404 unknown game, 401 no
    token, 403 a token that is not one of this game's seats of ``kind``."""
    console, game_id = request.app.state.console, request.path_params["id"]
    if not await run_in_threadpool(console.exists, game_id):
        raise ApiError(404, "game", "there is no game with that id")
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "authorization", f"give your own link's token: Authorization: "
                       f"Bearer <{kind}_token>")
    seat = await run_in_threadpool(console.seat_of, game_id, token.strip())
    if seat is None or seat[0] != kind:
        refuse_wrong_token(request.scope)  # 429 past the guard's limit of wrong tokens
        raise ApiError(403, "authorization", f"that is not a {kind}'s token of this game")
    return console, game_id, seat[1]


def seat_link(request: Request, game_id: str, kind: str, token: str) -> str:
    """A seat's own page: ``/console/{id}/p/{token}`` for a player."""
    return f"{base_url(request)}/console/{game_id}/{SEAT_LINKS[kind]}/{token}"


@handled
async def me_json(request: Request) -> Response:
    console, game_id, name = await _seat(request, "player")
    data = await run_in_threadpool(console.player_state, game_id, name)
    body = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
    # the ETag names what this player sees, nothing else: another player's post leaves it
    answer = conditional(request, etag(game_id, name, hashlib.sha256(body).hexdigest()),
                         lambda: Response(body, media_type="application/json"))
    answer.headers["cache-control"] = "private, no-cache"
    return answer


def seat_entry_endpoint(path: str, kind: str) -> Handler:
    """The endpoint of a game's entry at ``path`` that a seat of ``kind`` posts with its own
    token; no version needed (a seat's post replaces its own row only)."""

    @handled
    async def endpoint(request: Request) -> Response:
        _same_site(request)
        console, game_id, name = await _seat(request, kind)
        body = await read_json(request) if await _has_body(request) else {}
        params = {**{k: v for k, v in request.path_params.items() if k != "id"}, kind: name}
        entry, status = await run_in_threadpool(console.entry_at, game_id, path)
        game = console_of(await run_in_threadpool(console.kind, game_id))
        if kind not in game.entry(entry).by:  # type: ignore[union-attr]
            raise ApiError(403, "authorization", "that is the game master's call")
        seat = (game_id, kind, name)
        if kind == "player":  # a player's reposts, a few a minute; the GM is never counted
            console.pace.check(seat)
        entered = await run_in_threadpool(
            lambda: console.enter(game_id, entry, body, params))
        if kind == "player":
            console.pace.note(seat)
        if kind == "player" and entered.recorded:
            token = request.headers["authorization"].partition(" ")[2].strip()
            await run_in_threadpool(acknowledge, console, game_id, name, entry,
                                    seat_link(request, game_id, kind, token))
        seen = await run_in_threadpool(console.player_state, game_id, name) \
            if kind == "player" else {"version": entered.version}
        return JSONResponse({**entered.answer, "version": seen["version"]}, status,
                            headers=NO_STORE)

    endpoint.__name__ = f"{kind}_entry_" + "".join(c if c.isalnum() else "_" for c in path)
    return endpoint


def _rotate_seat(console: Console, game_id: str, kind: str, name: str) -> str:
    token = new_token()
    if not console.store.set_seat_hash(game_id, (kind, name), token_hash(token)):
        raise NotFound(kind, NO_SEAT)
    hand_over(console, game_id, name)  # the phone that joined as this player stops too
    return token


@handled
async def rotate_player(request: Request) -> Response:
    _same_site(request)
    console, game_id = await _gm(request)
    name = request.path_params["name"]
    token = await run_in_threadpool(_rotate_seat, console, game_id, "player", name)
    await run_in_threadpool(console.sealed.sealed_again, game_id, opener(request).gm_token,
                            {("player", name): token})  # its letters carry the new link
    return JSONResponse({"token": token, "link": seat_link(request, game_id, "player", token)},
                        headers=NO_STORE)


@handled
async def rotate_gm(request: Request) -> Response:
    _same_site(request)
    console, game_id = await _gm(request)
    token = new_token()
    await run_in_threadpool(console.store.set_gm_hash, game_id, token_hash(token))
    await run_in_threadpool(console.sealed.gm_rotated, game_id, opener(request).gm_token,
                            token)  # the seats' links open with the new token
    return JSONResponse({"token": token,
                         "link": f"{base_url(request)}/console/{game_id}/gm/{token}"},
                        headers=NO_STORE)


def seat_routes() -> list[Route]:
    """The seats' routes under ``/api/games``: me.json, the entries seats post, and the GM's
    link rotation."""
    post = ["POST"]
    seat_paths = {(entry.path, kind) for game in console_games().values()
                  for entry in game.entries for kind in entry.by
                  if kind != "gm" and entry.seat_param is None}  # (else the GM's route's)
    return [
        Route("/{id}/me.json", me_json, methods=["GET"]),
        Route("/{id}/rotate", rotate_gm, methods=post),
        Route("/{id}/players/{name}/rotate", rotate_player, methods=post),
        *(Route(f"/{{id}}/{path}", seat_entry_endpoint(path, kind), methods=post)
          for path, kind in sorted(seat_paths)),
    ]
