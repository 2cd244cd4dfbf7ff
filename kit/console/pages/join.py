"""Joining by room code in the browser, without a script: ``GET /join`` (type the code),
``GET /join/{code}`` (pick your name from the free seats), ``POST /join/{code}`` (ask; the
request's secret becomes this phone's cookie), ``GET /join/wait`` (waiting: the page reloads
itself; admitted: a redirect to the player's own page; refused: says so). The host answers on
the GM page (``POST /console/{id}/gm/joins``): admit or refuse one phone, admit everyone who
asks, open or close joining.

A wrong code is a 404 page like any unknown address, and counts toward the guard's limit of
wrong tokens (429 past it).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from ...errors import KitError
from ...game.refusals import Closed, NotFound
from ...i18n import N_, words
from ...server.guard import refuse_wrong_token
from .. import join_desk
from ..addressing import base_url
from ..tokens import SEAT_LINKS
from . import auth
from .base import (
    PageProblem,
    call,
    console,
    gm_post,
    language,
    render,
    require_gm,
    see_other,
)
from .links import qr_svg

COOKIE = "kit_join"  # the asking phone's request secret
WAIT_SECONDS = 5
NO_CODE_PAGE = (N_("No such game"), N_("There is no open game with that room code. Check the "
                                        "code the host shows."))


def join_address(request: Request, code: str) -> str:
    """The address a phone opens to join with ``code`` (what the QR code carries)."""
    return f"{base_url(request)}/join/{code}"


def desk_context(request: Request, game_id: str) -> dict[str, Any]:
    """The GM page's join section: the code, its QR code and the phones asking."""
    seen = join_desk.host_view(console(request), game_id, auth.gm_token(request))
    if not seen:
        return {}
    address = join_address(request, seen["code"]) if seen["code"] else ""
    return {**seen, "address": address, "short": f"{base_url(request)}/join",
            "qr": qr_svg(address) if address else "",
            "action": f"/console/{game_id}/gm/joins",
            "screen": f"/console/{game_id}/gm/join-screen{language(request)['keep']}",
            "csrf": auth.csrf_token(game_id, auth.gm_token(request))}


async def join_screen(request: Request) -> Response:
    """``GET /console/{id}/gm/join-screen`` (GM cookie): the room code and its QR code, big,
    for the screen the room watches (the code is the host's to show: not on public pages)."""
    game_id = await require_gm(request)
    joining = await call(desk_context, request, game_id)
    if not joining:
        raise PageProblem(404, N_("Not found"), N_("There is no page here."))
    return render(request, "console/join_screen.html", joining=joining,
                  back=f"/console/{game_id}/gm{language(request)['keep']}")


async def join_form(request: Request) -> Response:
    """``GET /join``: the code box (``?code=`` goes on to that code's page)."""
    typed = request.query_params.get("code", "")
    if typed:
        return see_other(f"/join/{quote(typed.strip(), safe='')}{language(request)['keep']}")
    return render(request, "console/join.html", mode="code")


async def _game_of(request: Request) -> str:
    """The game of the code in the address; a 404 page (counted) for a wrong one."""
    try:
        game_id, _ = await run_in_threadpool(join_desk.game_of, console(request),
                                             request.path_params["code"])
    except NotFound:
        refuse_wrong_token(request.scope)
        raise PageProblem(404, *NO_CODE_PAGE) from None
    return game_id


async def seats_page(request: Request) -> Response:
    """``GET /join/{code}``: the free seats to pick from."""
    game_id = await _game_of(request)
    free = await call(join_desk.free_seats, console(request), game_id)
    return render(request, "console/join.html", mode="seats", seats=free,
                  action=f"/join/{request.path_params['code']}{language(request)['keep']}")


async def ask(request: Request) -> Response:
    """``POST /join/{code}``: ask for the seat picked; the phone keeps the request's secret."""
    try:
        values = await auth.read_post(request)
    except auth.Refused as refused:
        raise PageProblem(refused.status, N_("Form refused"), N_(
            "This form was not accepted (it came from another site, or was too large or "
            "unreadable). Nothing changed.")) from None
    await _game_of(request)
    w = words(language(request)["lang"])
    try:
        _, secret = await call(join_desk.ask, console(request), request.path_params["code"],
                               values.get("name", ""))
    except (Closed, KitError) as refused:
        free = await call(join_desk.free_seats, console(request), await _game_of(request))
        return render(request, "console/join.html", 409 if isinstance(refused, Closed)
                      else 422, mode="seats", seats=free, action=request.url.path,
                      problem=refused.text(w))
    response = see_other(f"/join/wait{language(request)['keep']}")
    response.set_cookie(COOKIE, secret, path="/join", httponly=True, samesite="lax",
                        secure=request.url.scheme == "https", max_age=60 * 60 * 24)
    return response


async def wait_page(request: Request) -> Response:
    """``GET /join/wait``: this phone's request, as the host answered it."""
    secret = request.cookies.get(COOKIE, "")
    try:
        found = await run_in_threadpool(join_desk.request, console(request), secret)
    except NotFound:
        if secret:
            refuse_wrong_token(request.scope)
        raise PageProblem(404, N_("Not found"), N_("This phone has not asked to join a game. "
                                                   "Type the room code first.")) from None
    if found.status == "admitted" and found.token:
        return see_other(f"/console/{found.game_id}/{SEAT_LINKS['player']}/{found.token}")
    return render(request, "console/join.html", mode=found.status, name=found.seat,
                  refresh=WAIT_SECONDS, again=f"/join/wait{language(request)['keep']}")


async def gm_joins(request: Request) -> Response:
    """``POST /console/{id}/gm/joins``: admit or refuse one phone, admit everyone, or open
    or close joining; back to the GM page."""
    game_id, values = await gm_post(request)
    service, token = console(request), auth.gm_token(request)
    if values.get("admit") or values.get("refuse"):
        admit = bool(values.get("admit"))
        try:
            await run_in_threadpool(join_desk.settle, service, game_id, values.get("admit") or
                                values.get("refuse", ""), token, admit)
        except (NotFound, Closed) as refused:
            w = words(language(request)["lang"])
            raise PageProblem(409, N_("Not admitted"), refused.text(w)) from None
    else:
        desk = join_desk.desks(service)
        await call(desk.ensure_desk, game_id, token)
        await call(lambda: desk.set_desk(
            game_id, **{k: values[k] == "on" for k in ("open", "admit_all") if k in values}))
    return see_other(f"/console/{game_id}/gm{language(request)['keep']}#joining")
