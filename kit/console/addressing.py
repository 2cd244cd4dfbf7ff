"""The address the links a game hands out carry (players' links, the GM's, the public page).

``kit serve --public-url URL`` decides when given (a server behind a proxy knows its name
only from it). Else the address the game master's request came in on, except that a request
to this machine's loopback address while the server listens on every address gets the
machine's own network address instead: a link to 127.0.0.1 opens nothing on a player's phone.
"""

from __future__ import annotations

import ipaddress

from starlette.requests import Request

from ..server.addresses import WILDCARDS, network_addresses


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host.lower() == "localhost"


def base_url(request: Request) -> str:
    """``scheme://host[:port]`` for the links a response hands out, without a final slash."""
    public = getattr(request.app.state, "public_url", None)
    if public:
        return str(public).rstrip("/")
    scheme, host, port = request.url.scheme, request.url.hostname or "", request.url.port
    if _loopback(host) and getattr(request.app.state, "listen_host", None) in WILDCARDS:
        found = network_addresses()
        if found:
            host = found[0]
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}" + (f":{port}" if port else "")

