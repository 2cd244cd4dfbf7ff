"""Every seat's link kept sealed under the game master's token, so the GM can hand the links
out again (on the GM page, on cards, on a game's printed sheets) without making new ones.

The store keeps only a hash of a seat's token (``tokens``), yet the GM must be able to read
the link again. So the token is kept sealed (AES-GCM, from ``cryptography``) under a key drawn
from the GM token, which the store does not hold either: a GM request brings the GM token and
so opens the links; a leaked database opens none. The sealed text is bound to its game and
seat (associated data), and an opened token counts only while its hash is still that seat's:
a link made again since is never handed out.

Table ``sealed_links`` (migration ``0006``): ``(game_id, kind, seat)`` -> ``sealed``.
"""

from __future__ import annotations

import base64
import hmac
import secrets
from collections.abc import Mapping

import sqlalchemy as sa
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy.engine import Engine

from .store import Also, Seat, seat_tokens
from .tokens import token_hash

metadata = sa.MetaData()

sealed_links = sa.Table(  # the schema is migrations/versions/0006_sealed_links.py
    "sealed_links", metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("kind", sa.String(20), primary_key=True),  # "player", "table"
    sa.Column("seat", sa.String(100), primary_key=True),
    sa.Column("sealed", sa.String(200), nullable=False),  # nonce + AES-GCM of the token, b64
)

PLAYER = "player"
# the key's info string and a player's binding are those the players' links were first sealed
# with, so the links sealed then still open
_KEY_INFO = b"kit.mail.book: player links"


def _key(gm_token: str) -> AESGCM:
    """The game's sealing key: an HMAC of the GM token (not its stored SHA-256)."""
    return AESGCM(hmac.digest(gm_token.encode("utf-8", "surrogatepass"), _KEY_INFO, "sha256"))


def _bound(game_id: str, seat: Seat) -> bytes:
    kind, name = seat
    text = f"{game_id}\x1f{name}" if kind == PLAYER else f"{game_id}\x1f{kind}\x1f{name}"
    return text.encode("utf-8", "surrogatepass")


def seal(gm_token: str, game_id: str, seat: Seat, token: str) -> str:
    """``token`` sealed for ``seat`` of ``game_id`` under the GM token."""
    nonce = secrets.token_bytes(12)
    box = _key(gm_token).encrypt(nonce, token.encode("ascii"), _bound(game_id, seat))
    return base64.urlsafe_b64encode(nonce + box).decode("ascii")


def unseal(gm_token: str, game_id: str, seat: Seat, sealed: str) -> str | None:
    """The token ``seal`` sealed, or None (another GM token, game or seat, or damaged)."""
    try:
        raw = base64.urlsafe_b64decode(sealed.encode("ascii"))
        return _key(gm_token).decrypt(raw[:12], raw[12:], _bound(game_id, seat)
                                      ).decode("ascii")
    except (InvalidTag, ValueError, UnicodeError):
        return None


def reseal(conn: sa.Connection, game_id: str, gm_token: str, tokens: Mapping[Seat, str]
           ) -> None:
    """Seal ``tokens`` (a new game's, links made again, or every one under a new GM token),
    in ``conn``'s transaction; each replaces its seat's copy."""
    for (kind, name), token in tokens.items():
        sealed = seal(gm_token, game_id, (kind, name), token)
        done = conn.execute(sealed_links.update().where(
            sealed_links.c.game_id == game_id, sealed_links.c.kind == kind,
            sealed_links.c.seat == name).values(sealed=sealed))
        if done.rowcount == 0:
            conn.execute(sealed_links.insert().values(game_id=game_id, kind=kind, seat=name,
                                                      sealed=sealed))


def sealing(game_id: str, gm_token: str, tokens: Mapping[Seat, str], also: Also) -> Also:
    """What seals a new game's ``tokens``, then writes ``also``'s, in the store's transaction."""
    def both(conn: sa.Connection) -> None:
        reseal(conn, game_id, gm_token, tokens)
        also(conn)

    return both


def opened(conn: sa.Connection, game_id: str, gm_token: str, kind: str | None = None
           ) -> dict[Seat, str]:
    """Each seat's token (of ``kind``, or every kind) that the GM token opens and that is
    still its seat's."""
    rows = conn.execute(sa.select(sealed_links.c.kind, sealed_links.c.seat,
                                  sealed_links.c.sealed).where(
        sealed_links.c.game_id == game_id,
        *(() if kind is None else (sealed_links.c.kind == kind,)))).all()
    hashes = {(r.kind, r.seat): r.token_hash for r in conn.execute(
        sa.select(seat_tokens.c.kind, seat_tokens.c.seat, seat_tokens.c.token_hash).where(
            seat_tokens.c.game_id == game_id))}
    out = {}
    for row in rows:
        seat = (row.kind, row.seat)
        token = unseal(gm_token, game_id, seat, row.sealed)
        if token is not None and seat in hashes and hmac.compare_digest(token_hash(token),
                                                                         hashes[seat]):
            out[seat] = token
    return out


def reseal_all(conn: sa.Connection, game_id: str, old_gm: str, new_gm: str) -> None:
    """Every sealed link of the game, sealed again under a new GM token."""
    reseal(conn, game_id, new_gm, opened(conn, game_id, old_gm))


class SealedLinks:
    """The sealed links of one console's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def sealed_again(self, game_id: str, gm_token: str, tokens: Mapping[Seat, str]) -> None:
        """Seal the new tokens of links made again (each seat's copy replaced)."""
        with self.engine.connect().execution_options(write=True) as conn, conn.begin():
            reseal(conn, game_id, gm_token, tokens)

    def gm_rotated(self, game_id: str, old_gm: str, new_gm: str) -> None:
        """Every sealed link sealed again under the game master's new token."""
        with self.engine.connect().execution_options(write=True) as conn, conn.begin():
            reseal_all(conn, game_id, old_gm, new_gm)

    def opened(self, game_id: str, gm_token: str, kind: str) -> dict[str, str]:
        """Each seat of ``kind``'s current token that the GM token opens, by seat name."""
        with self.engine.connect() as conn:
            return {name: token for (_, name), token
                    in opened(conn, game_id, gm_token, kind).items()}
