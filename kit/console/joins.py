"""Joining a game by its room code: a phone types the code and picks a free seat, the host
admits it, and the phone then holds that player's own link.

What the database keeps, and why it hands out no seat:

- ``join_desks``: per game, the SHA-256 of its room code (how a typed code finds its game),
  the code itself sealed under the game master's token (``sealed_links.seal``: the host's page
  shows it again), and whether joining is open and whether every asking phone is admitted.
  A code only rings the host's bell: nothing is given without the host's token.
- ``join_requests``: one row a phone's request, keyed by the SHA-256 of the request's secret
  (the id the phone was given). The phone's public key (X25519, drawn from that secret) is
  kept; on admission the player's link is sealed to it (HPKE, ``cryptography``), so only the
  phone that asked can open it, and a leaked database opens nothing.

The host refers to a request by its handle (the first 16 hex digits of that hash), never by
the phone's secret. A seat is taken once a request for it was admitted; only the host frees
it, by handing the seat to a new phone (``release``: a new link, the old one stops).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

import sqlalchemy as sa
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.hpke import AEAD, KDF, KEM, Suite
from sqlalchemy.engine import Engine

from .sealed_links import seal, unseal

metadata = sa.MetaData()

join_desks = sa.Table(  # the schema is migrations/versions/0008_joins.py
    "join_desks", metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("code_hash", sa.String(64), nullable=True, unique=True),  # NULL: expired
    sa.Column("code_sealed", sa.String(200), nullable=False),
    sa.Column("open", sa.Boolean, nullable=False),
    sa.Column("admit_all", sa.Boolean, nullable=False),
)

join_requests = sa.Table(
    "join_requests", metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("seat", sa.String(100), nullable=False),  # the player's name
    sa.Column("status", sa.String(10), nullable=False),  # waiting, admitted, refused
    sa.Column("public_key", sa.String(64), nullable=False),  # the phone's X25519 key, b64
    sa.Column("sealed", sa.String(300), nullable=True),  # the link's token, sealed to it
    sa.Column("at", sa.Float, nullable=False),
)

# no look-alikes: no 0/O/Q/D, 1/I/L, 2/Z, 5/S, 6/G, 8/B, U/V
ALPHABET = "ACEFHJKMNPRTWXY"
CODE_LENGTH = 5  # 15 ** 5: 759,375 codes, each a door bell only
CODE_SEAT = ("join", "code")  # what the sealed code is bound to (beside the game id)
WAITING, ADMITTED, REFUSED = "waiting", "admitted", "refused"
HANDLE = 16
_SUITE = Suite(KEM.X25519, KDF.HKDF_SHA256, AEAD.AES_128_GCM)
_KEY_INFO = b"kit.console.joins: a phone's key"


def new_code() -> str:
    """A fresh room code."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode("ascii")).hexdigest()


def typed_code(text: str) -> str | None:
    """The room code a person typed (any case, spaces and dashes ignored), or None when it
    cannot be one."""
    code = "".join(c for c in text.upper() if c not in " -\t")
    return code if len(code) == CODE_LENGTH and all(c in ALPHABET for c in code) else None


def _phone_key(secret: str) -> X25519PrivateKey:
    """The asking phone's private key, drawn from its request secret (kept by the phone only)."""
    return X25519PrivateKey.from_private_bytes(
        hmac.digest(secret.encode("ascii"), _KEY_INFO, "sha256"))


def _public_text(key: X25519PrivateKey) -> str:
    raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                        serialization.PublicFormat.Raw)
    return base64.urlsafe_b64encode(raw).decode("ascii")


def _bound(game_id: str, seat: str) -> bytes:
    return f"{game_id}\x1f{seat}".encode("utf-8", "surrogatepass")


def seal_to(public_key: str, game_id: str, seat: str, token: str) -> str:
    """``token`` sealed to a phone's public key, bound to its game and seat."""
    key = X25519PublicKey.from_public_bytes(base64.urlsafe_b64decode(public_key))
    box = _SUITE.encrypt(token.encode("ascii"), key, info=_bound(game_id, seat))
    return base64.urlsafe_b64encode(box).decode("ascii")


def open_with(secret: str, game_id: str, seat: str, sealed: str) -> str | None:
    """The token ``seal_to`` sealed for the phone holding ``secret``, or None."""
    try:
        return _SUITE.decrypt(base64.urlsafe_b64decode(sealed), _phone_key(secret),
                              info=_bound(game_id, seat)).decode("ascii")
    except (InvalidTag, ValueError, UnicodeError):
        return None


@dataclass(frozen=True)
class Desk:
    """A game's join desk as the host sees it."""

    code: str | None  # None: expired, or not opened with this GM token
    open: bool
    admit_all: bool


@dataclass(frozen=True)
class Asked:
    """One request, as the host sees it: its handle, the seat and its status."""

    handle: str
    seat: str
    status: str
    at: float


@dataclass(frozen=True)
class Request:
    """One request, as its phone sees it."""

    game_id: str
    seat: str
    status: str
    token: str | None  # the seat's token, once admitted


class Joins:
    """The join desks and requests of one console's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _writer(self) -> sa.Connection:
        return self.engine.connect().execution_options(write=True)

    def open_desk(self, conn: sa.Connection, game_id: str, gm_token: str) -> str:
        """A new room code for ``game_id`` (in ``conn``'s transaction); returns it."""
        for _ in range(20):  # codes of live games are unique: draw again on a clash
            code = new_code()
            taken = conn.execute(sa.select(join_desks.c.game_id).where(
                join_desks.c.code_hash == code_hash(code))).first()
            if taken is None:
                break
        else:
            raise RuntimeError("no free room code")
        conn.execute(join_desks.delete().where(join_desks.c.game_id == game_id))
        conn.execute(join_desks.insert().values(
            game_id=game_id, code_hash=code_hash(code), open=True, admit_all=False,
            code_sealed=seal(gm_token, game_id, CODE_SEAT, code)))
        return code

    def desk(self, game_id: str, gm_token: str) -> Desk | None:
        """The game's desk as the host sees it (its code opened with the GM token)."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(join_desks).where(
                join_desks.c.game_id == game_id)).first()
        if row is None:
            return None
        code = unseal(gm_token, game_id, CODE_SEAT, row.code_sealed) \
            if row.code_hash is not None else None
        return Desk(code, bool(row.open) and code is not None, bool(row.admit_all))

    def ensure_desk(self, game_id: str, gm_token: str) -> Desk:
        """The game's desk, made now for a game that has none (or whose code the GM token
        no longer opens)."""
        desk = self.desk(game_id, gm_token)
        if desk is not None and (desk.code is not None or not desk.open):
            return desk
        with self._writer() as conn, conn.begin():
            self.open_desk(conn, game_id, gm_token)
        return self.desk(game_id, gm_token) or Desk(None, False, False)

    def set_desk(self, game_id: str, *, open: bool | None = None,
                 admit_all: bool | None = None) -> None:
        """Open or close joining; admit everyone who asks, or not."""
        values = {k: v for k, v in (("open", open), ("admit_all", admit_all)) if v is not None}
        with self._writer() as conn, conn.begin():
            conn.execute(join_desks.update().where(join_desks.c.game_id == game_id)
                         .values(**values))

    def expire(self, game_id: str) -> None:
        """The game is over: its code finds it no more (and may be drawn for another)."""
        with self._writer() as conn, conn.begin():
            conn.execute(join_desks.update().where(join_desks.c.game_id == game_id)
                         .values(code_hash=None, open=False))

    def game_of(self, code: str) -> tuple[str, bool] | None:
        """The game a room code opens, and whether it admits everyone; None: no open desk."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(join_desks.c.game_id, join_desks.c.admit_all).where(
                join_desks.c.code_hash == code_hash(code), join_desks.c.open.is_(True))).first()
        return None if row is None else (row.game_id, bool(row.admit_all))

    def taken(self, game_id: str) -> set[str]:
        """The seats an admitted request holds."""
        with self.engine.connect() as conn:
            return set(conn.execute(sa.select(join_requests.c.seat).where(
                join_requests.c.game_id == game_id,
                join_requests.c.status == ADMITTED)).scalars())

    def ask(self, game_id: str, seat: str) -> str:
        """Record a phone's request for ``seat``; returns its secret (the phone's request id)."""
        secret = secrets.token_urlsafe(32)
        with self._writer() as conn, conn.begin():
            conn.execute(join_requests.insert().values(
                id_hash=code_hash(secret), game_id=game_id, seat=seat, status=WAITING,
                public_key=_public_text(_phone_key(secret)), sealed=None, at=time.time()))
        return secret

    def asked(self, game_id: str) -> list[Asked]:
        """Every request of the game, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(join_requests).where(
                join_requests.c.game_id == game_id).order_by(join_requests.c.at)).all()
        return [Asked(r.id_hash[:HANDLE], r.seat, r.status, r.at) for r in rows]

    def request(self, secret: str) -> Request | None:
        """A phone's request found by its secret, with the link's token once admitted."""
        if not secret or len(secret) > 100 or not secret.isascii():
            return None
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(join_requests).where(
                join_requests.c.id_hash == code_hash(secret))).first()
        if row is None:
            return None
        token = open_with(secret, row.game_id, row.seat, row.sealed) if row.sealed else None
        return Request(row.game_id, row.seat, row.status, token)

    def settle(self, game_id: str, handle: str, token: str | None) -> Asked | None:
        """Admit the waiting request ``handle`` with its seat's ``token`` (None: refuse it);
        None when there is no such waiting request. The caller checked the seat is free."""
        with self._writer() as conn, conn.begin():
            row = conn.execute(sa.select(join_requests).where(
                join_requests.c.game_id == game_id, join_requests.c.status == WAITING,
                join_requests.c.id_hash.startswith(handle, autoescape=True))).first()
            if row is None or len(handle) != HANDLE:
                return None
            status = REFUSED if token is None else ADMITTED
            sealed = None if token is None else seal_to(row.public_key, game_id, row.seat,
                                                        token)
            conn.execute(join_requests.update().where(join_requests.c.id_hash == row.id_hash)
                         .values(status=status, sealed=sealed))
        return Asked(handle, row.seat, status, row.at)

    def release(self, game_id: str, seat: str) -> None:
        """The host handed ``seat`` to a new phone: its admitted requests no longer hold it."""
        with self._writer() as conn, conn.begin():
            conn.execute(join_requests.update().where(
                join_requests.c.game_id == game_id, join_requests.c.seat == seat,
                join_requests.c.status == ADMITTED).values(status=REFUSED, sealed=None))
