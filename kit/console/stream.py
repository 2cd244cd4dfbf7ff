"""Server-sent events of a game (``sse-starlette``): each open page follows its game live.

- ``GET /api/games/{id}/events``: the public view's stream; with ``Authorization: Bearer`` the
  game master's, a player's (their own view) or a table's (the public view), the token checked
  as on every other call of the API (401/403 as there, a wrong one counted by the guard)
- ``GET /console/{id}/events``, ``/console/{id}/gm/events`` (the GM's cookie),
  ``/console/{id}/p/{token}/events`` and ``/console/{id}/t/{token}/events``: the same streams
  under each page's own address, for the browser's ``EventSource`` (it sets no header); a
  wrong token there is the page's own 404

An event is sent when what the viewer may see changed: ``id:`` is the version of the viewer's
view (the journal's for the game master; the public version, which counts no unpublished entry,
for everyone else, so that a stream tells no one of others' unpublished posts), ``event:`` what
changed (``EVENTS``) and ``data:`` the scalar fields of the viewer's own view (``summary``);
a page's stream (a player's, a table's, the public page's) adds ``spread_ms``, the time
within which the page fetches itself again, at a random moment (``spread_ms``: a crowd's
pages do not all ask at once).
A stream resumed with ``Last-Event-ID`` (or ``?version=``) gets one ``version`` event if that
version moved, nothing otherwise. While nothing happens a stream holds no thread and no
database connection (``events.Hub``); a comment every ``HEARTBEAT_S`` keeps proxies from
closing it. A player's or a table's page stream makes its seat "here now" on the game
master's page while it is open, on this server (``Hub.presence``) and on the others sharing
its database (``presence``: a write when it opens, on a heartbeat at most once a minute, and
when it closes), and the game master's stream hears ``seen`` when one comes or goes.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..game import View
from ..game.refusals import NotFound
from ..i18n import N_
from .api.games import ApiError, _caller, handled
from .events import Hub
from .join_desk import desks
from .joins import WAITING
from .journal import UNDO
from .pages.base import PageProblem, call, require_gm, seat_in_address
from .results import Loaded
from .service import GM, PUBLIC, Console

HEARTBEAT_S = 15  # a comment this often: proxies close a connection silent for a minute
RETRY_MS = 2000  # how soon a browser's EventSource connects again after a drop
# a seat's page fetches itself again at a random moment within ``spread_ms``: this much per
# seat stream open here, at most SPREAD_MOST_MS (300 phones do not all ask in one instant)
SPREAD_PER_STREAM_MS = 20
SPREAD_MOST_MS = 3000
SCREEN_SHARE = 0.2  # a public page's (a big screen's) share of it: after the events go out
# what changed, the ``event:`` of each event
EVENTS = {
    "version": "where the game stands: a new stream's first event, or a resumed one's catch-up",
    "published": "a turn or round was published",
    "undone": "the game master took an entry back",
    "entered": "any other entry the viewer sees (an order, a round, a closed turn, ...)",
    "joined": "the game master's only: the phones now waiting to join, by the names asked for",
    "seen": "the game master's stream only: a player's or a table's page opened or closed",
}
# the pages' own words for a wrong link (the same messages, already translated)
WRONG_TABLE = (N_("This link does not work"),
               N_("It is not a table’s link of this game, or the host has made new links since. "
                  "Ask the host for your table’s link."))
WRONG_PLAYER = (N_("This link does not work"),
                N_("It is not a player's link of this game, or the game master has replaced it "
                   "with a new one. Ask the game master for your link."))
NO_GAME = (N_("No such game"), N_("There is no game at this address."))


ENDING = ("winners", "secrets")  # once the view says the game is over, the events carry these


def summary(view: View) -> dict[str, Any]:
    """An event's data: the viewer's own view's top-level scalars (version, turn, over, ...),
    never its tables: a page fetches the rest (``public.json``, ``me.json``) with its ETag.
    Once the view says the game is ``over``, its ``ENDING`` too (who won, and what the
    game's view reveals then, such as every secret number)."""
    data = {key: value for key, value in view.data.items()
            if value is None or isinstance(value, str | int | float | bool)}
    if view.data.get("over") is True:
        data.update({key: view.data[key] for key in ENDING if key in view.data})
    return data


def _what_changed(console: Console, game_id: str, who: str, seen: int | None,
                  told: int = 0) -> tuple[View, int, str]:
    """The viewer's view now, the journal version it is of, and what the entries after
    journal version ``seen`` did (``EVENTS``; ``version`` when ``seen`` is None). ``told``:
    the version the stream was woken with (0: none); the game read and what changed are
    shared by every stream woken with it after ``seen`` (300 phones, one read)."""
    if seen is None or told <= seen:
        loaded, name = _changes(console, game_id, seen)
    else:
        loaded, name = console.answers.once(("what changed", game_id, seen, told),
                                            lambda: (_changes(console, game_id, seen), 200))
    return console.view(game_id, who, loaded), loaded.row.version, name


def _changes(console: Console, game_id: str, seen: int | None) -> tuple[Loaded, str]:
    """The game as it is now, and what the entries after journal version ``seen`` did."""
    loaded = console.load(game_id)
    if seen is None:
        return loaded, "version"
    kinds = {row.kind for row in loaded.rows if row.seq > seen}  # seqs have gaps
    published = any(e.publishes and e.kind in kinds for e in loaded.game.entries)
    return loaded, "published" if published else "undone" if UNDO in kinds else "entered"


def _asking(console: Console, game_id: str) -> tuple[str, ...]:
    """The names the phones waiting to join asked for (what the game master's ``joined``
    event says; no request's id or link)."""
    return tuple(a.seat for a in desks(console).asked(game_id) if a.status == WAITING)


def spread_ms(hub: Hub, game_id: str, share: float = 1.0) -> int:
    """Within how many milliseconds a seat's page fetches what an event says changed (at a
    random moment): ``SPREAD_PER_STREAM_MS`` per seat stream of the game open here, at most
    ``SPREAD_MOST_MS``; ``share`` of it for a page every viewer shares."""
    return int(min(SPREAD_MOST_MS, SPREAD_PER_STREAM_MS * hub.seat_streams(game_id)) * share)


def _event(view: View, name: str, spread: int | None = None) -> ServerSentEvent:
    """The event ``name`` of ``view``; a page's stream's says ``spread_ms`` (``spread``)."""
    said = summary(view) if spread is None else {**summary(view), "spread_ms": spread}
    data = json.dumps(said, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return ServerSentEvent(data, event=name, id=str(view.data["version"]),
                           retry=RETRY_MS)


async def follow(console: Console, game_id: str, who: str, since: int | None,
                 seat: str = "", share: float | None = None
                 ) -> AsyncIterator[ServerSentEvent]:
    """The events of ``who``'s view of the game, from version ``since`` (None: a new stream,
    which starts with where the game stands); ``seat`` ("player:Ann", "table:2"): whose
    page holds the stream, "here now" for the game master while it is open; ``share``: the
    share of ``spread_ms`` its events say (None: they say none)."""
    hub = console.store.events

    def spread() -> int | None:
        return None if share is None else spread_ms(hub, game_id, share)

    # before the first look: no change falls between
    waiter = hub.watch(game_id, seat=seat, gm=who == GM)
    try:
        hub.arrived(waiter)
        if seat:  # "here now" for the other servers too
            await run_in_threadpool(console.presence.streaming, game_id, seat)
        view, seen, _ = await run_in_threadpool(_what_changed, console, game_id, who, None)
        if since is None or since != view.data["version"]:
            # (after a restart every page asks again at once: spread too)
            yield _event(view, "version", spread())
        shown: Mapping[str, Any] = view.data
        asking = await run_in_threadpool(_asking, console, game_id) if who == GM else ()
        comings = hub.presence(game_id)[0]
        while True:
            await waiter.woken.wait()
            waiter.woken.clear()
            if who == GM and asking != (now := await run_in_threadpool(_asking, console,
                                                                         game_id)):
                asking = now
                yield ServerSentEvent(json.dumps({"waiting": list(now)}, ensure_ascii=False),
                                      event="joined", retry=RETRY_MS)
            try:
                view, seen, name = await run_in_threadpool(
                    _what_changed, console, game_id, who, seen, waiter.version)
            except NotFound:  # the game is gone: so is its stream
                return
            if view.data is not shown and view.data != shown:
                shown = view.data
                yield _event(view, name, spread())
            elif waiter.gm and hub.presence(game_id)[0] != comings:
                yield _event(view, "seen")
            if waiter.gm:
                comings = hub.presence(game_id)[0]
    finally:
        hub.drop(waiter)
        if seat and hub.presence(game_id)[1].get(seat) != "here":
            # not awaited: a closing stream's task is being cancelled
            console.presence.later(console.presence.closed, game_id, seat)


def _since(request: Request) -> int | None:
    """The version a resumed stream saw: ``Last-Event-ID`` (the browser's), else
    ``?version=``; a 422 naming ``version`` when it is not a whole number."""
    given = request.headers.get("last-event-id") or request.query_params.get("version")
    if given is None or given == "":
        return None
    if not given.isascii() or not given.isdigit() or len(given) > 9:
        raise ApiError(422, "version", "Last-Event-ID or ?version= must be a whole number "
                       "(the id of the last event received)")
    return int(given)


def heartbeat(console: Console, game_id: str, seat: str) -> Callable[[], ServerSentEvent]:
    """The comment a seat's stream sends every ``HEARTBEAT_S``, which also keeps the seat
    "here now" for the other servers (a write at most once a minute, behind the stream)."""

    def ping() -> ServerSentEvent:
        if console.presence.stream_due(game_id, seat):
            console.presence.later(console.presence.streaming, game_id, seat)
        return ServerSentEvent(comment="ping")

    return ping


def _stream(request: Request, game_id: str, who: str, since: int | None,
            seat: str = "", share: float | None = None) -> Response:
    console: Console = request.app.state.console
    return EventSourceResponse(follow(console, game_id, who, since, seat, share),
                               ping=HEARTBEAT_S,
                               ping_message_factory=heartbeat(console, game_id, seat)
                               if seat else None, headers={"cache-control": "no-store"})


@handled
async def api_events(request: Request) -> Response:
    """``GET /api/games/{id}/events``: public without a token, else the token's view."""
    since, game_id = _since(request), request.path_params["id"]
    if "authorization" not in request.headers:
        if not await run_in_threadpool(request.app.state.console.exists, game_id):
            raise ApiError(404, "game", "there is no game with that id")
        return _stream(request, game_id, PUBLIC, since)
    _, game_id, seat = await _caller(request, frozenset({"player", "table"}))
    who = GM if seat is None else f"player:{seat[1]}" if seat[0] == "player" else PUBLIC
    return _stream(request, game_id, who, since)


@handled
async def public_events(request: Request) -> Response:
    since, game_id = _since(request), request.path_params["id"]
    if not await call(request.app.state.console.exists, game_id):
        raise PageProblem(404, *NO_GAME)
    # a big screen's page: its answers are made once for every screen, so a short spread
    return _stream(request, game_id, PUBLIC, since, share=SCREEN_SHARE)


@handled
async def gm_events(request: Request) -> Response:
    since = _since(request)
    return _stream(request, await require_gm(request), GM, since)


@handled
async def player_events(request: Request) -> Response:
    since = _since(request)
    game_id, _, name = await seat_in_address(request, "player", WRONG_PLAYER)
    return _stream(request, game_id, f"player:{name}", since, seat=f"player:{name}", share=1.0)


@handled
async def table_events(request: Request) -> Response:
    since = _since(request)
    game_id, _, name = await seat_in_address(request, "table", WRONG_TABLE)
    return _stream(request, game_id, PUBLIC, since, seat=f"table:{name}", share=1.0)


def api_stream_routes() -> list[Route]:
    """The API's event stream, under ``/api/games``."""
    return [Route("/{id}/events", api_events, methods=["GET"])]


def page_stream_routes() -> list[Route]:
    """The pages' event streams, under ``/console`` (before the pages' routes: ``/gm/events``
    is no GM token)."""
    return [
        Route("/{id}/events", public_events, methods=["GET"]),
        Route("/{id}/gm/events", gm_events, methods=["GET"]),
        Route("/{id}/p/{token}/events", player_events, methods=["GET"]),
        Route("/{id}/t/{token}/events", table_events, methods=["GET"]),
    ]
