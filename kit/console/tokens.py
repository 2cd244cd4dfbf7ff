"""Game ids, game-master tokens and players' tokens: drawn at random, stored only as a hash,
compared in constant time, and kept out of the access log.

A GM token is ``secrets.token_urlsafe(32)`` (256 bits, over the 128 the issue asks for); the
store keeps its SHA-256 only, so a leaked database holds no working link.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets

TOKEN_BYTES = 32
ID_BYTES = 9  # 12 URL-safe characters: a game id is public, it only has to be unguessable-ish
REDACTED = "[redacted]"
# a seat kind -> its link's path segment: ``/console/ID/p/TOKEN`` is a player's own page,
# ``/console/ID/t/TOKEN`` a table's scorer's
SEAT_LINKS = {"player": "p", "table": "t"}
_SEGMENTS = "|".join(["gm", *SEAT_LINKS.values()])
_GM_PATH = re.compile(rf"(/console/[^/?#\s]+/(?:{_SEGMENTS})/)[^/?#\s\"]+")


def new_token() -> str:
    """A fresh game-master or player token (URL-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_game_id() -> str:
    """A fresh public game id (URL-safe, no secret)."""
    return secrets.token_urlsafe(ID_BYTES)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str | None, stored_hash: str) -> bool:
    """Whether ``token`` is the one whose hash is stored; constant time in the hash."""
    if not token:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def redact(text: str) -> str:
    """``text`` with any GM or player link's token replaced by ``[redacted]``."""
    return _GM_PATH.sub(lambda m: m.group(1) + REDACTED, text)


class RedactTokens(logging.Filter):
    """A log filter that removes GM and player tokens from messages and their arguments
    (access log)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def install_log_filter(names: tuple[str, ...] = ("uvicorn.access", "uvicorn.error",
                                                "kit.web", "kit.console")) -> None:
    """Put ``RedactTokens`` on the named loggers and their handlers, once."""
    for name in names:
        logger = logging.getLogger(name)
        targets = [logger, *logger.handlers]
        for target in targets:
            if not any(isinstance(f, RedactTokens) for f in target.filters):
                target.addFilter(RedactTokens())
