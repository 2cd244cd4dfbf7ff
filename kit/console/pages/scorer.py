"""A table's scorer's page, ``/console/{id}/t/{token}``: the host's page reduced to that table
(the game's ``table_page``), its forms posted as the game's entries for that table alone.

The token in the address is the scorer's key (the access log redacts it; pages send no
referrer). A post must come from this site; it is checked as the host's would be, then made
with the table's seat (``seats.seat_params``): a form for another table is refused (403). A
refused entry comes back as the same page with status 422 and every problem beside its box;
a round entered meanwhile from another page (the host's, another phone) gets 409 with the
typed choices kept; an accepted one redirects (303) back to the page, which shows the tally to
read aloud. Posts carry no journal version: the tables' scorers post at once, each for their
own table, and the round a form is for is what keeps a round from being entered twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ...errors import KitError, Problems
from ...game import FormRead
from ...game.refusals import Closed
from ...i18n import N_, Words, words
from ..seat_access import NotYours, seat_params
from ..service import PUBLIC
from ..specs import console_of
from .base import (
    PageProblem,
    call,
    console,
    language,
    read_post_or_refuse,
    render,
    seat_in_address,
    see_other,
)
from .public import game_templates

SEAT = "table"
WRONG_LINK = (N_("This link does not work"),
              N_("It is not a table’s link of this game, or the host has made new links since. "
                 "Ask the host for your table’s link."))


async def _table(request: Request) -> tuple[str, str, str]:
    """The game id, its kind and the table whose token the address holds; else a 404 page
    (a wrong token counts toward the guard's limit)."""
    game_id, kind, table = await seat_in_address(request, SEAT, WRONG_LINK)
    if console_of(kind).table_page is None:
        raise PageProblem(404, *WRONG_LINK)
    return game_id, kind, table


def _address(request: Request, game_id: str) -> str:
    return f"/console/{game_id}/t/{request.path_params['token']}"


async def _page(request: Request, game_id: str, kind: str, table: str, status: int = 200,
                posted: FormRead | None = None) -> Response:
    w = words(language(request)["lang"])
    state = await call(console(request).state, game_id)
    made = console_of(kind).table_page(state.seen(), table, w, dict(request.query_params),
                                       posted)  # type: ignore[misc]
    address = _address(request, game_id)
    public = await call(console(request).view, game_id, PUBLIC)
    # the table's stream: the host sees the scorer's page "here now" while it is open
    return render(request, game_templates(kind) + made.template, status, script=True,
                  game_id=game_id, action=address + "/", gm_url=address, csrf="",
                  live_events=address + "/events", live_version=public.data["version"],
                  **made.context)


async def scorer_page(request: Request) -> Response:
    game_id, kind, table = await _table(request)
    return await _page(request, game_id, kind, table)


async def scorer_post(request: Request) -> Response:
    """``POST /console/{id}/t/{token}/{action}``: one of the game's table forms."""
    values = await read_post_or_refuse(request)
    game_id, kind, table = await _table(request)
    game = console_of(kind)
    reader = game.table_forms.get(request.path_params["action"])
    if reader is None:
        raise PageProblem(404, N_("Not found"), N_("There is no page here."))
    w = words(language(request)["lang"])
    service = console(request)
    posted = reader(values, (await call(service.state, game_id)).seen(), w)
    try:
        params = seat_params(game, posted.kind, (SEAT, table), posted.params)
    except NotYours:
        raise PageProblem(403, N_("Form refused"), N_("This link enters its own table’s "
                                                      "rounds only. Nothing changed.")) from None
    address = _address(request, game_id)
    keep = language(request)["keep"]
    if posted.unchanged:
        return see_other(address + (f"{keep}&" if keep else "?") + posted.unchanged)
    if not posted.ok():
        if posted.sound is not None:  # the engine's problems of the rest: all at once
            await _absorbed(posted, w, service.check, game_id, posted.sound, params)
        return await _page(request, game_id, kind, table, 422, posted)
    try:
        await call(service.enter, game_id, posted.kind, posted.body, params)
    except (Problems, Closed) as refused:
        if posted.absorb is not None:
            posted.absorb(refused, w)
        return await _page(request, game_id, kind, table,
                           409 if isinstance(refused, Closed) else 422, posted)
    return see_other(address + (f"{keep}&" if keep else "?") + posted.done)


async def _absorbed(posted: FormRead, w: Words, check: Callable[..., Any], game_id: str,
                    body: dict[str, Any], params: dict[str, Any]) -> None:
    """The engine's problems with the form's sound boxes, put beside them (nothing saved)."""
    try:
        await call(check, game_id, posted.kind, body, params)
    except KitError as found:
        if posted.absorb is not None:
            posted.absorb(found, w)
