"""The players' links as the game master hands them out, without making new ones: opened
from the game's book with the GM cookie's token (``kit.mail.book``), shown on the GM page
(open on the first page after the game is made) and as cards to print, each with its QR
code, at ``GET /console/{id}/gm/links``. The links carry the address ``addressing.base_url``
gives (``kit serve --public-url``). Tokens appear only on these GM pages, never in an
address the players or the log see."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..i18n import N_, Words, words
from .addressing import base_url
from .page_kit import call, console, language, opener, render, require_gm
from .pages_links import qr_svg

PLAYER_HINT = N_("Open it on a phone: your own page of this game, to send your orders.")


def handed_links(service: Any, game_id: str, request: Request) -> dict[str, Any]:
    """The players' current links the GM token opens (none for a game without them), the
    cards page, and the address they carry."""
    opened = service.mail.links(game_id, opener(request))
    if not opened:
        return {}
    return {"players": [{"label": name, "href": href} for name, href in opened.items()],
            "cards": f"/console/{game_id}/gm/links{language(request)['keep']}",
            "address": base_url(request)}


def _cards(opened: dict[str, str], w: Words) -> list[dict[str, Any]]:
    return [{"label": name, "link": href, "qr": qr_svg(href), "hint": w.gettext(PLAYER_HINT)}
            for name, href in opened.items()]


async def link_cards(request: Request) -> Response:
    """``GET /console/{id}/gm/links``: a card with its QR code for each player's link."""
    game_id = await require_gm(request)
    opened = await call(console(request).mail.links, game_id, opener(request))
    w = words(language(request)["lang"])
    response = render(request, "console/seat_links.html", cards=_cards(opened, w),
                      back=f"/console/{game_id}/gm{language(request)['keep']}", kept=True,
                      address=base_url(request))
    response.headers["cache-control"] = "no-store"
    response.headers["referrer-policy"] = "no-referrer"
    return response
