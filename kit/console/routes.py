"""Everything the console adds to ``kit serve``: the JSON API and the HTML pages."""

from __future__ import annotations

import importlib.util

from starlette.routing import BaseRoute

from .api import api_routes
from .tokens import install_log_filter


def routes() -> list[BaseRoute]:
    """The console's routes (API first, then the pages when present); also keeps GM tokens
    out of the access log."""
    install_log_filter()
    found: list[BaseRoute] = list(api_routes())
    if importlib.util.find_spec(f"{__package__}.pages") is None:  # the pages not there yet
        return found
    from . import pages

    page_routes = getattr(pages, "routes", None)
    found += list(page_routes() if callable(page_routes) else getattr(pages, "ROUTES", []))
    return found
