"""Everything the console adds to ``kit serve``: the JSON API and the HTML pages."""

from __future__ import annotations

from starlette.routing import BaseRoute

from . import pages
from .api.games import api_routes
from .api.joins import join_routes
from .api.mail import mail_routes
from .api.seats import seat_routes
from .stream import stream_routes
from .tokens import install_log_filter


def routes() -> list[BaseRoute]:
    """The console's routes (API first, the event streams, then the pages); also keeps GM
    tokens out of the access log."""
    install_log_filter()
    return [*api_routes(), *seat_routes(), *join_routes(), *mail_routes(), *stream_routes(),
            *pages.routes()]
