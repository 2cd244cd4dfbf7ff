"""A player's own page, ``/console/{id}/p/{token}``: the game's player template, filled from
that player's view alone (``Console.view``, ``player:<name>``), and its form posted as the
game's player entry with the player's name.

The token in the address is the player's key (the access log redacts it; pages send no
referrer). A post must come from this site and carry the turn it was for: a refused entry
comes back as the same page with status 422 and every problem, a turn closed or over since
the page was loaded gets 409 with the entry kept in its boxes; an accepted one redirects (303)
back to the page, which echoes what was received and the rulings it will get (and, when the
game master asks for receipts, a letter says the same: ``kit.console.mail.receipts``).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from functools import partial
from typing import Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ...errors import Problems
from ...game import FormRead, View
from ...game.refusals import Closed
from ...i18n import N_, words
from ...server.http import client_of
from ...server.packing import encoded, pack, unpack
from ..addressing import base_url
from ..mail.receipts import acknowledge
from ..quota import TooFast
from ..specs import console_of, site_environment
from ..store import GameRow
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
from .public import being_made, game_templates, links_now, waited_file

OWN_FILE = re.compile(r"slips-turn-[1-9][0-9]{0,3}\.pdf")  # a turn's own slip, as PDF
WRONG_LINK = (N_("This link does not work"),
              N_("It is not a player's link of this game, or the game master has replaced it "
                 "with a new one. Ask the game master for your link."))


async def _player(request: Request) -> tuple[str, str, str]:
    """The game id, its kind and the player whose token the address holds; else a 404 page
    (a wrong token counts toward the guard's limit)."""
    return await seat_in_address(request, "player", WRONG_LINK)


def _address(request: Request, game_id: str) -> str:
    return f"/console/{game_id}/p/{request.path_params['token']}"


async def _page(request: Request, game_id: str, kind: str, player: str, status: int = 200,
                posted: FormRead | None = None, refusal: str = "") -> Response:
    """The player's page; a plain one (no post answered, no echo of one in its address) is
    kept compressed per journal version, language, minute (its deadline's time left) and
    where the report files stand, and sent compressed (``kit.server.packing``): made in one
    call off the event loop, as 300 phones ask for it after a publish."""
    if status == 200 and posted is None and not refusal and set(request.query_params) <= {"lang"}:
        kept = await call(_kept_page, request, game_id, kind, player)
        return encoded(request, lambda: unpack(kept.packed), lambda: kept.packed,
                       lambda body: HTMLResponse(body, headers=kept.headers))
    row, data, files = await call(_seen, request, game_id, kind, player)
    return await call(_made, request, game_id, kind, data, files, status, posted, refusal, row)


@dataclass(frozen=True)
class KeptPage:
    """A player's page as sent: its compressed bytes and its headers."""

    packed: bytes
    headers: dict[str, str]


def _seen(request: Request, game_id: str, kind: str, player: str
          ) -> tuple[GameRow, dict[str, Any], list[dict[str, object]]]:
    """The game's row (read once, before the view: never newer than it), the player's view
    and the report files' links."""
    service = console(request)
    row = service.game_row(game_id)
    data = service.player_state(game_id, player, row)
    return row, data, links_now(request, game_id, kind, private=False,
                                published=int(data.get("published", 1)), row=row)


def _kept_page(request: Request, game_id: str, kind: str, player: str) -> KeptPage:
    """The plain page, kept (``_page``): made once however many of the player's phones ask
    at once."""
    lang = language(request)
    row, data, files = _seen(request, game_id, kind, player)
    # (its link too: the page holds it, and the host may hand the seat a new one)
    key = ("player page", game_id, row.version, player, _address(request, game_id),
           lang["lang"], lang["keep"], int(time.time() // 60),
           tuple(tuple(sorted(f.items())) for f in files))

    def make() -> tuple[KeptPage, int]:
        answer = _made(request, game_id, kind, data, files, 200, None, "", row)
        kept = KeptPage(pack(bytes(answer.body)), {
            k: v for k, v in answer.headers.items() if k not in ("content-length",
                                                                 "content-type")})
        return kept, len(kept.packed) + 500

    kept: KeptPage = console(request).answers.once(key, make)
    return kept


def _made(request: Request, game_id: str, kind: str, data: dict[str, Any],
          files: list[dict[str, object]], status: int, posted: FormRead | None,
          refusal: str, row: GameRow | None = None) -> Response:
    """The player's page made from their view's ``data`` and the report ``files`` (in a
    thread: it reads the game, unless given its ``row``)."""
    w = words(language(request)["lang"])
    game = console_of(kind)
    if game.player_page is None:
        raise PageProblem(404, *WRONG_LINK)
    own = _address(request, game_id) + "/files/" if game.player_files else ""
    made = game.player_page(data, w, dict(request.query_params), posted, refusal, own=own)
    address = _address(request, game_id)
    files = [*files, {"href": f"{address}/report.txt", "private": True,
                      "text": w.gettext("Your reports and slips (text)")}]
    # the standings and shared reports: the public view's, made once for every player
    shared = console(request).answer(game_id, ("seat-shared", w.lang),
                                     partial(_shared, kind, w.lang), row=row)
    return render(request, game_templates(kind) + made.template, status, me=data,
                  game_id=game_id, action=address + language(request)["keep"], files=files,
                  game_templates=game_templates(kind), shared=Markup(shared.body.decode()),
                  live_events=address + "/events", live_version=data.get("version", ""),
                  **made.context)


def _shared(kind: str, lang: str, view: View) -> bytes:
    """The part of a player's page every player shares (``console/_shared.html``), from the
    public ``view``: a 100-player game's latest report is 20,000 answers, laid out once per
    public version and language rather than once a player and view."""
    board = console_of(kind).board(view.data, words(lang))
    return site_environment(lang).get_template("console/_shared.html").render(
        game_templates=game_templates(kind), **board).encode()


async def player_page(request: Request) -> Response:
    game_id, kind, player = await _player(request)
    return await _page(request, game_id, kind, player)


async def player_post(request: Request) -> Response:
    """The player's form: their orders for the open turn."""
    values = await read_post_or_refuse(request, 400)
    game_id, kind, player = await _player(request)
    game = console_of(kind)
    if game.player_form is None:
        raise PageProblem(404, *WRONG_LINK)
    w = words(language(request)["lang"])
    service = console(request)
    data = await call(service.player_state, game_id, player)
    posted = game.player_form(values, data, w)
    params = {**posted.params, "player": player}
    if not posted.ok():
        if posted.sound is not None:  # the engine's problems of the rest: all at once
            try:
                await call(service.check, game_id, posted.kind, posted.sound, params)
            except (Problems, Closed) as found:
                for problem in getattr(found, "problems", [found]):
                    if posted.absorb is not None:
                        posted.absorb(problem, w)
        return await _page(request, game_id, kind, player, 422, posted)
    seat = (game_id, "player", player)
    try:
        service.pace.check(seat)
        entered = await call(service.enter, game_id, posted.kind, posted.body, params)
        service.pace.note(seat)
        if entered.recorded:
            await call(acknowledge, service, game_id, player, posted.kind,
                       base_url(request) + _address(request, game_id))
    except TooFast as fast:
        answer = await _page(request, game_id, kind, player, 429, posted, fast.text(w))
        answer.headers["retry-after"] = str(fast.retry_after)
        return answer
    except Closed as closed:
        return await _page(request, game_id, kind, player, 409, posted, closed.text(w))
    except Problems as problems:
        for problem in problems.problems:
            if posted.absorb is not None:
                posted.absorb(problem, w)
        return await _page(request, game_id, kind, player, 422, posted)
    keep = language(request)["keep"]
    return see_other(_address(request, game_id) + (f"{keep}&" if keep else "?") +
                     posted.done)


async def player_file(request: Request) -> Response:
    """One of the player's own files of a handed-out turn (their slip as PDF), made from
    their view in a folder holding their own files alone; never kept by the browser."""
    game_id, kind, player = await _player(request)
    name = request.path_params["name"]
    if not console_of(kind).player_files or not OWN_FILE.fullmatch(name):
        raise PageProblem(404, N_("Not found"), N_("There is no such report file."))
    made = await waited_file(console(request).read_own, game_id, name, player,
                             client_of(request))
    if made is None:
        return being_made(request)
    return Response(made.body, media_type="application/pdf",
                    headers={"cache-control": "private, no-store"})


async def player_text(request: Request) -> Response:
    """The player's reports and own slips as text (for a note or an e-mail)."""
    game_id, kind, player = await _player(request)
    game = console_of(kind)
    if game.player_text is None:
        raise PageProblem(404, *WRONG_LINK)
    data = await call(console(request).player_state, game_id, player)
    text = game.player_text(data, words(str(data.get("lang", "en"))))
    return Response(text, media_type="text/plain; charset=utf-8",
                    headers={"cache-control": "no-store"})
