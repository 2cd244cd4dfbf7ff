"""The game-night console's HTML pages (``kit serve``): start, GM link, GM console, public page,
big-screen standings, report files, a player's own page, a table scorer's page, new seat
links. This module is the router; the pages are ``start``, ``gm``, ``public``,
``player``, ``scorer``, ``links``, ``handed`` and ``mail``, over ``base`` and ``auth`` (none
imports back). A game's own pages are its templates (``<package>/console/``), filled
from its views.

Pages are the site's Jinja2 environment (``kit.console.specs.site_environment``: autoescaped, one
per language, ``jinja2.ext.i18n``) rendering ``templates/console/``; their language is
negotiated like the site's (``?lang=``, then ``Accept-Language``). Every word is marked for
translation; the engine's and the service's problems are ``kit.errors.Msg``s, said in the
page's language with their translated field ("tour 3, joueur Eve"), by ``views.said``.

Who may do what: the GM link sets the game's cookie (``pages.auth``); every GM page checks it
against the game's token hash (``Console.authorize``) and every GM post also carries the signed
CSRF token and must come from this site. The public page and the standings read
the public view only (``Console.view``): what the game lets everyone see, never a secret.

The pages use no inline script, except two small ones allowed by a per-response nonce or their
hash: Enter moves on in the entry grid, and the standings fit their text to the screen. The
live pages' script (``/console/live.js``, a file) follows a page's event stream and swaps in
the regions that changed, never a form being typed in (without it the pages work as before,
with a reload link; the standings refresh themselves). Every action posts, then redirects
(303) back to a page (no form is sent twice by a reload); a stale form gets a 409 page
saying what changed.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ...resources import templates_dir
from . import gm, handed, join, links, player, public, scorer, start
from .mail import mail_routes

CSS_PATH = "console/console.css"
LIVE_PATH = "console/live.js"


async def stylesheet(request: Request) -> Response:
    body = (templates_dir() / CSS_PATH).read_bytes()
    return Response(body, media_type="text/css; charset=utf-8",
                    headers={"cache-control": "public, max-age=3600"})


async def live_script(request: Request) -> Response:
    """The live pages' script (``templates/console/live.js``): a file, so that the pages'
    CSP allows it as ``'self'`` with no inline script."""
    body = (templates_dir() / LIVE_PATH).read_bytes()
    return Response(body, media_type="text/javascript; charset=utf-8",
                    headers={"cache-control": "public, max-age=3600"})


def routes() -> list[Route]:
    """Every console page's route under ``/console`` (``/console`` itself is the start page's
    route beside the mount: ``kit.console.routes``); the JSON API's are ``kit.console.api``'s."""
    return [
        Route("/", start.start_page, methods=["GET"]),
        Route("/console.css", stylesheet),
        Route("/live.js", live_script),
        Route("/new/{kind}", start.start_submit, methods=["POST"]),
        Route("/{id}/gm", gm.gm_page, methods=["GET"]),
        Route("/{id}/gm/links", links.new_links, methods=["POST"]),
        Route("/{id}/gm/joins", join.gm_joins, methods=["POST"]),
        Route("/{id}/gm/join-screen", join.join_screen, methods=["GET"]),
        Route("/{id}/gm/{action}", gm.gm_action, methods=["POST"]),
        Route("/{id}/gm/links", handed.link_cards, methods=["GET"]),
        Route("/{id}/gm/links/{seats}", handed.link_cards, methods=["GET"]),
        Route("/{id}/gm/sheets/{file}", handed.seat_sheet, methods=["GET"]),
        Route("/{id}/gm/{token}", gm.gm_link, methods=["GET"]),
        *mail_routes(),
        Route("/{id}/log.toml", gm.export_log),
        Route("/{id}/files/{name:path}", public.report_file),
        Route("/{id}/standings", public.standings_page),
        Route("/{id}/p/{token}", player.player_page, methods=["GET"]),
        Route("/{id}/p/{token}", player.player_post, methods=["POST"]),
        Route("/{id}/p/{token}/report.txt", player.player_text),
        Route("/{id}/p/{token}/files/{name:path}", player.player_file),
        Route("/{id}/t/{token}", scorer.scorer_page, methods=["GET"]),
        Route("/{id}/t/{token}/{action}", scorer.scorer_post, methods=["POST"]),
        Route("/{id}", public.public_page),
    ]


def join_routes() -> list[Route]:
    """The pages of joining by room code, at ``/join`` (beside ``/console``)."""
    return [
        Route("/join", join.join_form, methods=["GET"]),
        Route("/join/wait", join.wait_page, methods=["GET"]),
        Route("/join/{code}", join.seats_page, methods=["GET"]),
        Route("/join/{code}", join.ask, methods=["POST"]),
    ]
