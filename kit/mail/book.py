"""A game's address book: each player's e-mail address (optional) and their private link,
sealed so that only the game master can open it.

The console keeps only a hash of a player's token (``kit.console.tokens``), yet a letter must
carry the player's link. So the token is kept sealed (AES-GCM, from ``cryptography``) under a
key drawn from the game master's token, which the store does not hold either: a GM request
(a publish, a reminder, the drafts, the slips) brings the GM token and so opens the links; a
leaked database opens none. The sealed text is bound to its game and player (associated
data), and an opened token counts only while its hash is still that player's seat hash: a
link rotated since is never mailed.

Table ``mail_players`` (migration ``0005``): ``(game_id, player)`` -> ``address`` (or NULL)
and ``sealed`` (or NULL).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import sqlalchemy as sa
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from ..console.store import seat_tokens
from ..console.tokens import token_hash
from ..errors import ConfigError, KitError, Msg, shown
from ..i18n import N_
from .letter import address as checked_address

metadata = sa.MetaData()

mail_players = sa.Table(  # the schema is kit/console/migrations/versions/0005_mail_players.py
    "mail_players", metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("player", sa.String(100), primary_key=True),
    sa.Column("address", sa.String(254), nullable=True),
    sa.Column("sealed", sa.String(200), nullable=True),  # nonce + AES-GCM of the token, b64
)

PLAYER = "player"  # the seat kind whose tokens are sealed here
_KEY_INFO = b"kit.mail.book: player links"


def _key(gm_token: str) -> AESGCM:
    """The game's sealing key: an HMAC of the GM token (not its stored SHA-256)."""
    return AESGCM(hmac.digest(gm_token.encode("utf-8", "surrogatepass"), _KEY_INFO, "sha256"))


def _bound(game_id: str, player: str) -> bytes:
    return f"{game_id}\x1f{player}".encode("utf-8", "surrogatepass")


def seal(gm_token: str, game_id: str, player: str, token: str) -> str:
    """``token`` sealed for ``player`` of ``game_id`` under the GM token."""
    nonce = secrets.token_bytes(12)
    box = _key(gm_token).encrypt(nonce, token.encode("ascii"), _bound(game_id, player))
    return base64.urlsafe_b64encode(nonce + box).decode("ascii")


def unseal(gm_token: str, game_id: str, player: str, sealed: str) -> str | None:
    """The token ``seal`` sealed, or None (another GM token, game or player, or damaged)."""
    try:
        raw = base64.urlsafe_b64decode(sealed.encode("ascii"))
        return _key(gm_token).decrypt(raw[:12], raw[12:], _bound(game_id, player)
                                      ).decode("ascii")
    except (InvalidTag, ValueError, UnicodeError):
        return None


@dataclass(frozen=True)
class Opener:
    """What a game master's request brings to open the links: the GM token and the address
    the players reach the console at (``http://host:port``, no trailing slash)."""

    gm_token: str
    base_url: str

    def link(self, game_id: str, token: str) -> str:
        return f"{self.base_url}/console/{game_id}/p/{token}"


def check_emails(given: object, players: Iterable[str] | None) -> tuple[dict[str, str],
                                                                       list[KitError]]:
    """``{"name": "address"}`` checked: each name one of ``players`` (None: the names are
    not known, the spec had problems of its own), each address one address; the addresses
    and every problem."""
    if given is None:
        return {}, []
    if not isinstance(given, Mapping):
        return {}, [ConfigError("emails", Msg(N_("give an object of name: e-mail address")))]
    known = None if players is None else list(players)
    if known == [] and given:
        return {}, [ConfigError("emails", Msg(N_(
            "this game's players have no links of their own to mail; leave out emails")))]
    out: dict[str, str] = {}
    problems: list[KitError] = []
    for name, text in given.items():
        if known is not None and name not in known:
            problems.append(ConfigError("emails", Msg(N_(
                "“%(name)s” is not a player of this game; the players are %(players)s"),
                name=str(name), players=", ".join(known))))
            continue
        try:
            out[str(name)] = checked_address("emails", text if isinstance(text, str) else "")
        except ConfigError:
            problems.append(ConfigError("emails", Msg(N_(
                "%(name)s: %(value)s is not one e-mail address (name@domain)"),
                name=str(name), value=shown(str(text)))))
    return out, problems


def save(conn: sa.Connection, game_id: str, gm_token: str, tokens: Mapping[str, str],
         addresses: Mapping[str, str]) -> None:
    """A new game's book, in ``conn``'s transaction: each player's sealed token and the
    addresses given."""
    rows = [{"game_id": game_id, "player": name, "address": addresses.get(name),
             "sealed": seal(gm_token, game_id, name, token)} for name, token in tokens.items()]
    if rows:
        conn.execute(mail_players.insert(), rows)


def reseal(conn: sa.Connection, game_id: str, gm_token: str, tokens: Mapping[str, str]) -> None:
    """Seal new tokens (a rotated player's link, or every one under a new GM token)."""
    for name, token in tokens.items():
        sealed = seal(gm_token, game_id, name, token)
        done = conn.execute(mail_players.update().where(
            mail_players.c.game_id == game_id, mail_players.c.player == name
        ).values(sealed=sealed))
        if done.rowcount == 0:
            conn.execute(mail_players.insert().values(game_id=game_id, player=name,
                                                      address=None, sealed=sealed))


def reseal_all(conn: sa.Connection, game_id: str, old_gm: str, new_gm: str) -> None:
    """Every sealed link of the game, sealed again under a rotated GM token."""
    rows = conn.execute(sa.select(mail_players.c.player, mail_players.c.sealed).where(
        mail_players.c.game_id == game_id, mail_players.c.sealed.is_not(None))).all()
    opened = {r.player: unseal(old_gm, game_id, r.player, r.sealed) for r in rows}
    reseal(conn, game_id, new_gm, {p: t for p, t in opened.items() if t is not None})


def set_address(conn: sa.Connection, game_id: str, player: str, address: str | None) -> None:
    """Give ``player`` an address, or remove theirs (None)."""
    done = conn.execute(mail_players.update().where(
        mail_players.c.game_id == game_id, mail_players.c.player == player
    ).values(address=address))
    if done.rowcount == 0:
        conn.execute(mail_players.insert().values(game_id=game_id, player=player,
                                                  address=address, sealed=None))


def addresses(conn: sa.Connection, game_id: str) -> dict[str, str]:
    """The players who have an address, and theirs."""
    rows = conn.execute(sa.select(mail_players.c.player, mail_players.c.address).where(
        mail_players.c.game_id == game_id, mail_players.c.address.is_not(None))).all()
    return {r.player: r.address for r in rows}


def links(conn: sa.Connection, game_id: str, opener: Opener) -> dict[str, str]:
    """Each player's link that the GM token opens and that is still their seat's."""
    rows = conn.execute(sa.select(mail_players.c.player, mail_players.c.sealed).where(
        mail_players.c.game_id == game_id, mail_players.c.sealed.is_not(None))).all()
    hashes = dict(conn.execute(sa.select(seat_tokens.c.seat, seat_tokens.c.token_hash).where(
        seat_tokens.c.game_id == game_id, seat_tokens.c.kind == PLAYER)).all())
    out = {}
    for row in rows:
        token = unseal(opener.gm_token, game_id, row.player, row.sealed)
        if token is not None and hmac.compare_digest(token_hash(token),
                                                      hashes.get(row.player, "")):
            out[row.player] = opener.link(game_id, token)
    return out


def fingerprint(address: str) -> str:
    """A short, stable stand-in for an address in a log line (never the address)."""
    return hashlib.sha256(address.encode()).hexdigest()[:8]
