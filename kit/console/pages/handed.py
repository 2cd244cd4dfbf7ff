"""The seats' links as the game master hands them out, without making new ones: opened from
the game's sealed links with the GM cookie's token (``kit.console.sealed_links``), shown on the GM
page (the players' open on the first page after the game is made), as cards to print, each
with its QR code (``GET /console/{id}/gm/links`` the players', ``.../gm/links/tables`` the
tables' scorers'), and on the game's printed sheets (``GET /console/{id}/gm/sheets/{file}``,
``ConsoleGame.seat_sheets``). The links carry the address ``addressing.base_url`` gives
(``kit serve --public-url``). Tokens appear only on these GM pages, never in an address the
players or the log see."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ...i18n import N_, Words, words
from ..addressing import base_url
from ..specs import console_of
from .base import (
    PageProblem,
    call,
    console,
    language,
    opener,
    pdf_response,
    render,
    require_gm,
)
from .links import TABLE_HINT, qr_svg

PLAYER_HINT = N_("Open it on a phone: your own page of this game, to send your orders.")
CARDS = {"players": "player", "tables": "table"}  # a cards page's address -> its seats


def opened_links(service: Any, game_id: str, request: Request, kind: str) -> dict[str, str]:
    """The current links of the game's seats of ``kind`` that the GM cookie's token opens,
    by seat name, in the game's order of its seats."""
    row = service.store.game(game_id)
    named = console_of(row.kind).token_seats
    keys = opener(request)
    tokens = service.sealed.opened(game_id, keys.gm_token, kind)
    return {name: keys.link(game_id, tokens[name], kind)
            for k, name in (named(row.public) if named else ()) if k == kind and name in tokens}


def handed_links(service: Any, game_id: str, request: Request) -> dict[str, Any]:
    """The players' current links (none for a game without them), the cards pages, the
    game's sheets and the address they carry."""
    keep = language(request)["keep"]
    players = opened_links(service, game_id, request, "player")
    tables = opened_links(service, game_id, request, "table")
    sheets = console_of(service.kind(game_id)).seat_sheets
    w = words(language(request)["lang"])
    return {"players": [{"label": name, "href": href} for name, href in players.items()],
            "cards": f"/console/{game_id}/gm/links{keep}",
            "tables": {"cards": f"/console/{game_id}/gm/links/tables{keep}", "sheets": [
                {"href": f"/console/{game_id}/gm/sheets/{file}", "label": w.gettext(s.label)}
                for file, s in sheets.items() if s.kind == "table"]} if tables else {},
            "address": base_url(request)} if players or tables else {}


def _cards(opened: dict[str, str], kind: str, w: Words) -> list[dict[str, Any]]:
    if kind == "table":
        return [{"label": w.gettext("Table %(name)s", name=name), "link": href,
                 "qr": qr_svg(href), "hint": w.gettext(TABLE_HINT)}
                for name, href in opened.items()]
    return [{"label": name, "link": href, "qr": qr_svg(href), "hint": w.gettext(PLAYER_HINT)}
            for name, href in opened.items()]


def _private(response: Response) -> Response:
    response.headers["cache-control"] = "no-store"
    response.headers["referrer-policy"] = "no-referrer"
    return response


async def link_cards(request: Request) -> Response:
    """``GET /console/{id}/gm/links`` (the players') or ``.../gm/links/tables``: a card with
    its QR code for each seat's current link."""
    game_id = await require_gm(request)
    kind = CARDS.get(request.path_params.get("seats", "players"))
    if kind is None:
        raise PageProblem(404, N_("Not found"), N_("There is no page here."))
    opened = await call(opened_links, console(request), game_id, request, kind)
    w = words(language(request)["lang"])
    # off the event loop: a QR code a seat, a hundred of them for a big game
    cards = await call(_cards, opened, kind, w)
    return _private(await call(render, request, "console/seat_links.html", cards=cards,
                               back=f"/console/{game_id}/gm{language(request)['keep']}",
                               kept=True, tables=kind == "table", address=base_url(request)))


def _sheet(service: Any, game_id: str, request: Request, file: str) -> bytes | None:
    """The game's sheet ``file`` with its seats' current links; None: the game has none."""
    loaded = service.load(game_id)
    sheet = loaded.game.seat_sheets.get(file)
    if sheet is None:
        return None
    return sheet.make(loaded.played.state, loaded.facts,
                      opened_links(service, game_id, request, sheet.kind))


async def seat_sheet(request: Request) -> Response:
    """``GET /console/{id}/gm/sheets/{file}``: one of the game's sheets with the seats'
    links (a table's tally sheet with its scorer's link), as a PDF made for this request."""
    game_id = await require_gm(request)
    file = request.path_params["file"]
    made = await call(_sheet, console(request), game_id, request, file)
    if made is None:
        raise PageProblem(404, N_("Not found"), N_("There is no page here."))
    return pdf_response(made, file)
