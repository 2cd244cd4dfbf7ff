"""Everything the console adds to ``kit serve``: the JSON API under ``/api/games`` and the HTML
pages under ``/console``, each a ``Mount``."""

from __future__ import annotations

from collections.abc import Sequence

from starlette.routing import BaseRoute, Mount, Route, Router

from . import pages
from .api.games import api_routes, create_game
from .api.joins import desk_routes, join_routes
from .api.mail import mail_routes
from .api.seats import seat_routes
from .pages.start import start_page
from .stream import api_stream_routes, page_stream_routes
from .tokens import install_log_filter


def _mount(path: str, routes: Sequence[BaseRoute]) -> Mount:
    # the app's router redirects no slash (its redirects are absolute, built from Host), so
    # neither does a mount's: /console/ID/standings/ stays a 404
    return Mount(path, app=Router(routes, redirect_slashes=False))


def routes() -> list[BaseRoute]:
    """The console's routes (the API first, then the pages: in each, the event streams before
    the rest); also keeps GM tokens out of the access log. A mount matches no bare path, so
    ``POST /api/games`` and ``/console`` are routes of their own beside theirs."""
    install_log_filter()
    return [
        Route("/api/games", create_game, methods=["POST"]),
        _mount("/api/games", [*api_routes(), *seat_routes(), *desk_routes(), *mail_routes(),
                              *api_stream_routes()]),
        *join_routes(),
        Route("/console", start_page, methods=["GET"]),
        _mount("/console", [*page_stream_routes(), *pages.routes()]),
        *pages.join_routes(),
    ]
