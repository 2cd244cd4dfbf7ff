"""Who may post to the game master's pages: the GM cookie, a signed CSRF token, same origin.

The GM link ``/console/{id}/gm/{token}`` is exchanged for an HttpOnly, SameSite=Strict cookie
whose path is the game's, so the token leaves the address bar at once and no other game's
pages (or the public ones) ever see it.

Every form on a GM page carries a CSRF token: the game's id signed (itsdangerous) with the GM
token from the cookie as the key. It is tied to both: another game's token, a forged one, or a
token without the matching cookie fails, and no server secret has to be kept. A post that a
browser marks as cross-site (``Sec-Fetch-Site``, or an ``Origin`` that is not this host) is
refused before anything else is read.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Mapping
from urllib.parse import parse_qsl, urlsplit

from starlette.requests import Request

COOKIE = "kit_gm"
CSRF_FIELD = "csrf"
CSRF_SALT = "number-party-kit console form"
MAX_FORM_BYTES = 512 * 1024
MAX_FORM_FIELDS = 4000  # a 30-player grid: 30 rows x (guesses + 29 list boxes + toggles)


class Refused(Exception):
    """A request the guard turns away: ``status`` 400/403/413/415, ``reason`` a msgid."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


GAMES_COOKIE = "kit_games"  # the ids of the games this browser holds a GM cookie for
GAMES_KEPT = 20


def games_held(cookies: Mapping[str, str]) -> list[str]:
    """The game ids of the games cookie, newest first (ids only: the keys stay per game)."""
    ids = cookies.get(GAMES_COOKIE, "").split(".")
    return [g for g in ids if re.fullmatch(r"[\w-]{4,40}", g)][:GAMES_KEPT]


def cookie_path(game_id: str) -> str:
    return f"/console/{game_id}"


def gm_token(request: Request) -> str:
    """The GM token the browser holds for this game ('' without the cookie)."""
    return request.cookies.get(COOKIE, "")


def _serializer(token: str):
    from itsdangerous import URLSafeSerializer

    return URLSafeSerializer(token, salt=CSRF_SALT)


def csrf_token(game_id: str, token: str) -> str:
    """The token a GM form of ``game_id`` carries, signed with the GM ``token``."""
    return _serializer(token).dumps(game_id)


def csrf_ok(game_id: str, token: str, sent: str) -> bool:
    """Whether ``sent`` is this game's CSRF token signed with this GM ``token``."""
    from itsdangerous import BadSignature

    if not token or not sent:
        return False
    try:
        value = _serializer(token).loads(sent)
    except BadSignature:
        return False
    return isinstance(value, str) and hmac.compare_digest(value, game_id)


def same_origin(request: Request) -> bool:
    """False when the browser says the post comes from another site.

    ``Sec-Fetch-Site`` decides when sent (every current browser sends it; under our
    ``no-referrer`` policy ``Origin`` is "null" even for our own forms); without it, an
    ``Origin`` naming another host is refused. Clients that send neither (curl, scripts) pass
    here; GM posts still need the cookie and the CSRF token.
    """
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return True
    return urlsplit(origin).netloc == request.headers.get("host", "")


async def read_post(request: Request) -> dict[str, str]:
    """A same-origin urlencoded form, capped in size and fields (first of repeated keys)."""
    if not same_origin(request):
        raise Refused(403, "cross-site")
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/x-www-form-urlencoded":
        raise Refused(415, "encoding")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            raise Refused(413, "size")
    try:
        pairs = parse_qsl(body.decode("ascii"), keep_blank_values=True,
                          max_num_fields=MAX_FORM_FIELDS, encoding="utf-8", errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise Refused(400, "unreadable") from None
    values: dict[str, str] = {}
    for key, value in pairs:
        values.setdefault(key, value)
    return values
