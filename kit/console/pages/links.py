"""The game master's new links: ``POST /console/{id}/gm/links`` (GM cookie, CSRF token, same
origin) with ``seat`` = ``player:NAME`` (that player's), ``players`` (every player's, to
hand out), ``tables`` (every table's scorer's link) or ``gm`` (the game master's own). Each
old link stops at once; the new ones are shown once, on the answer itself (never in an
address: a redirect would put them in one), at the address ``addressing.base_url`` gives. A
new GM link also becomes this browser's cookie. The tables' links come on cards to print and
cut out, each with a QR code of its link (``segno``, drawn as an inline SVG path, so the page
loads nothing else).
"""

from __future__ import annotations

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response

from ...i18n import N_, words
from ..addressing import base_url
from ..join_desk import hand_over
from ..tokens import SEAT_LINKS, new_token, token_hash
from . import auth
from .base import PageProblem, call, console, gm_post, language, render

COOKIE_DAYS = 120
TABLE_HINT = N_("Open it on a phone: type each round’s choices, read the tally back.")


def qr_svg(link: str) -> Markup:
    """The QR code of ``link`` as inline SVG (error correction M, 4-module quiet zone)."""
    import segno

    code = segno.make(link, error="m", micro=False, boost_error=False)
    return Markup(code.svg_inline(scale=1, omitsize=True, title=None, svgclass="qr",
                                  lineclass=None))


def _rotate(service, game_id: str, seats: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """New tokens for ``seats`` (the old ones stop): seat -> token."""
    made = {}
    for seat in seats:
        token = new_token()
        if not service.store.set_seat_hash(game_id, seat, token_hash(token)):
            raise PageProblem(404, N_("Not found"), N_("There is no such player."))
        if seat[0] == "player":  # the phone that joined as this player stops too
            hand_over(service, game_id, seat[1])
        made[seat] = token
    return made


def _seats(service, game_id: str, wanted: str) -> list[tuple[str, str]]:
    """The seats ``wanted`` names: one player's, or every seat the game gives a link."""
    loaded = service.load(game_id)
    named = loaded.game.token_seats
    seats = list(named(loaded.facts)) if named else []
    if wanted in ("players", "tables"):
        return [s for s in seats if s[0] == wanted.removesuffix("s")]
    kind, _, name = wanted.partition(":")
    return [s for s in seats if s == (kind, name)]


async def new_links(request: Request) -> Response:
    """Make the links the post asks for and show them once."""
    game_id, values = await gm_post(request)
    service = console(request)
    wanted = values.get("seat", "")
    w = words(language(request)["lang"])
    base = base_url(request)
    back = f"/console/{game_id}/gm{language(request)['keep']}"
    if wanted == "gm":
        token = new_token()
        await call(service.store.set_gm_hash, game_id, token_hash(token))
        # the seats' sealed links open with the GM token: sealed again under the new one
        await call(service.sealed.gm_rotated, game_id, auth.gm_token(request) or "", token)
        link = f"{base}/console/{game_id}/gm/{token}"
        response = render(request, "console/links.html", links=[
            {"label": w.gettext("Game master link (keep it secret)"), "href": link}],
            heading=w.gettext("Your new game master link"), back=back, address="")
        response.set_cookie(auth.COOKIE, token, path=auth.cookie_path(game_id),
                            httponly=True, samesite="strict",
                            secure=request.url.scheme == "https",
                            max_age=60 * 60 * 24 * COOKIE_DAYS)
        return response
    seats = await call(_seats, service, game_id, wanted)
    if not seats:
        raise PageProblem(404, N_("Not found"), N_("There is no such player."))
    made = await call(_rotate, service, game_id, seats)
    # their sealed copies follow: the GM page, the cards and the letters carry the new ones
    await call(service.sealed.sealed_again, game_id, auth.gm_token(request) or "", made)
    links = [{"label": name, "href": f"{base}/console/{game_id}/{SEAT_LINKS[k]}/{token}"}
             for (k, name), token in made.items()]
    if wanted == "tables":
        cards = await call(lambda: [
            {"label": w.gettext("Table %(name)s", name=link["label"]), "link": link["href"],
             "qr": qr_svg(link["href"]), "hint": w.gettext(TABLE_HINT)} for link in links])
        return render(request, "console/seat_links.html", cards=cards, back=back)
    heading = w.gettext("A new link for %(name)s", name=links[0]["label"]) if len(links) == 1 \
        else w.ngettext("New link for %(num)s player", "New links for %(num)s players",
                        len(links))
    return render(request, "console/links.html", links=links, heading=heading, back=back,
                  address=base)
