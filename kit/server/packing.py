"""Answers sent gzip-compressed, made once and served many times.

A 100-player game's player page is 630 KB of HTML and its ``public.json`` 150 KB: after a
publish, 300 phones behind one Wi-Fi router ask for them within a second or two, which is
190 MB through one access point. Compressed they are 3 % of that. Each answer is
compressed once, where it is kept (``kit.console.results.Answer.gzipped``, the player page's
own cache), never per request: so not by a middleware.

Only answers that a third party cannot make a browser ask for with its own cookie are
compressed, so that compression tells no secret by the size of the answer (BREACH): public
answers (nothing secret in them) and pages whose address is their key (a player's or a
table's link: whoever can ask for the page holds the token already). The game master's
pages, which a cookie opens, are sent as they are.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (the console's answers compress without the HTTP stack)
    from starlette.requests import Request
    from starlette.responses import Response

LEVEL = 1  # a 630 KB page in 0.9 ms, to 18 KB (level 6: 2 ms, to 13 KB)


def pack(body: bytes) -> bytes:
    """``body`` gzip-compressed, the same bytes for the same body (no time stamp)."""
    return gzip.compress(body, compresslevel=LEVEL, mtime=0)


def unpack(packed: bytes) -> bytes:
    """What ``pack`` compressed."""
    return gzip.decompress(packed)


def _quality(params: str) -> float:
    """The ``q`` of an Accept-Encoding item's parameters (1 when absent; 0 when malformed)."""
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                return float(value.strip())
            except ValueError:
                return 0.0
    return 1.0


def accepts_gzip(request: Request) -> bool:
    """Whether the request's ``Accept-Encoding`` takes gzip (by name, else by ``*``), with a
    quality above zero."""
    found: dict[str, float] = {}
    for item in request.headers.get("accept-encoding", "").split(","):
        name, _, params = item.partition(";")
        found[name.strip().lower()] = _quality(params)
    quality = found.get("gzip", found.get("x-gzip", found.get("*", 0.0)))
    return quality > 0


def vary(headers: Mapping[str, str]) -> str:
    """``headers``' ``Vary`` with ``accept-encoding`` added (once)."""
    given = [v.strip() for v in headers.get("vary", "").split(",") if v.strip()]
    if "accept-encoding" not in (v.lower() for v in given):
        given.append("accept-encoding")
    return ", ".join(given)


def packed_tag(tag: str) -> str:
    """The ETag of the compressed form of the answer tagged ``tag`` (a strong ETag names
    one set of bytes)."""
    return tag[:-1] + '-gzip"' if tag.endswith('"') else tag + "-gzip"


def encoded(request: Request, plain: Callable[[], bytes], packed: Callable[[], bytes],
            build: Callable[[bytes], Response]) -> Response:
    """The answer ``build`` makes of the body: ``packed()`` with ``Content-Encoding: gzip``
    when the request takes it, else ``plain()``; ``Vary`` says so either way."""
    if accepts_gzip(request):
        answer = build(packed())
        answer.headers["content-encoding"] = "gzip"
    else:
        answer = build(plain())
    answer.headers["vary"] = vary(answer.headers)
    return answer
