"""A game's address book: each player's e-mail address (optional), and their private link
opened from the game's sealed links (``kit.console.sealed_links``) with the game master's token.

A letter must carry the player's link, yet the console keeps only a hash of a player's token:
a GM request (a publish, a reminder, the drafts, the slips) brings the GM token and so opens
the links; a leaked database opens none, and a link made again since is never mailed.

Table ``mail_players`` (migration ``0005``): ``(game_id, player)`` -> ``address`` (or NULL);
its ``sealed`` column is empty since migration ``0006`` moved the links to ``sealed_links``.
``mail_games`` (``0007``): whether the game's turn letters carry PDFs; (``0010``) whether a
player's own post of orders gets a receipt.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import sqlalchemy as sa

from ...errors import ConfigError, KitError, Msg, shown
from ...i18n import N_
from ...mail.letter import address as checked_address
from .. import sealed_links
from ..tokens import SEAT_LINKS

metadata = sa.MetaData()

mail_players = sa.Table(  # the schema is kit/db/migrations/versions/0005_mail_players.py
    "mail_players", metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("player", sa.String(100), primary_key=True),
    sa.Column("address", sa.String(254), nullable=True),
)

mail_games = sa.Table(  # the schema is kit/db/migrations/versions/0007_mail_attach.py
    "mail_games", metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("attach_pdf", sa.Boolean, nullable=False, default=False),
    sa.Column("receipts", sa.Boolean, nullable=False, default=False),
)

PLAYER = sealed_links.PLAYER  # the seat kind whose links a letter carries


@dataclass(frozen=True)
class Opener:
    """What a game master's request brings to open the links: the GM token and the address
    the players reach the console at (``http://host:port``, no trailing slash)."""

    gm_token: str
    base_url: str

    def link(self, game_id: str, token: str, kind: str = PLAYER) -> str:
        """The link of a seat of ``kind`` (a player's own page, a table's scorer's)."""
        return f"{self.base_url}/console/{game_id}/{SEAT_LINKS[kind]}/{token}"


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


def save(conn: sa.Connection, game_id: str, addresses: Mapping[str, str]) -> None:
    """A new game's book, in ``conn``'s transaction: the players' addresses given."""
    rows = [{"game_id": game_id, "player": name, "address": address}
            for name, address in addresses.items()]
    if rows:
        conn.execute(mail_players.insert(), rows)


def set_address(conn: sa.Connection, game_id: str, player: str, address: str | None) -> None:
    """Give ``player`` an address, or remove theirs (None)."""
    done = conn.execute(mail_players.update().where(
        mail_players.c.game_id == game_id, mail_players.c.player == player
    ).values(address=address))
    if done.rowcount == 0:
        conn.execute(mail_players.insert().values(game_id=game_id, player=player,
                                                  address=address))


def addresses(conn: sa.Connection, game_id: str) -> dict[str, str]:
    """The players who have an address, and theirs."""
    rows = conn.execute(sa.select(mail_players.c.player, mail_players.c.address).where(
        mail_players.c.game_id == game_id, mail_players.c.address.is_not(None))).all()
    return {r.player: r.address for r in rows}


def attach_pdf(conn: sa.Connection, game_id: str) -> bool:
    """Whether the game master asked for the turn letters to carry PDFs."""
    return bool(conn.execute(sa.select(mail_games.c.attach_pdf).where(
        mail_games.c.game_id == game_id)).scalar())


def set_attach_pdf(conn: sa.Connection, game_id: str, on: bool) -> None:
    """Ask for PDFs on the game's turn letters queued from now on, or for none."""
    done = conn.execute(mail_games.update().where(mail_games.c.game_id == game_id)
                        .values(attach_pdf=on))
    if done.rowcount == 0:
        conn.execute(mail_games.insert().values(game_id=game_id, attach_pdf=on))


def receipts(conn: sa.Connection, game_id: str) -> bool:
    """Whether the game master asked for a receipt of each player's own post of orders."""
    return bool(conn.execute(sa.select(mail_games.c.receipts).where(
        mail_games.c.game_id == game_id)).scalar())


def set_receipts(conn: sa.Connection, game_id: str, on: bool) -> None:
    """Ask for a receipt of each player's own post of orders from now on, or for none."""
    done = conn.execute(mail_games.update().where(mail_games.c.game_id == game_id)
                        .values(receipts=on))
    if done.rowcount == 0:
        conn.execute(mail_games.insert().values(game_id=game_id, receipts=on))


def links(conn: sa.Connection, game_id: str, opener: Opener) -> dict[str, str]:
    """Each player's link that the GM token opens and that is still their seat's."""
    return {name: opener.link(game_id, token) for (_, name), token
            in sealed_links.opened(conn, game_id, opener.gm_token, PLAYER).items()}

