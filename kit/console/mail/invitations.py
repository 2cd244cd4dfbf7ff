"""Invitations: one letter to each player with an address when a game is made (and from the
host's "Send invitations"), before any turn is published, with the player's own link, what to
do before turn 1 and the game's public room code.

Each goes through the outbox under a kind of its own, ``invitation``, whose ``turn`` is the
invitation's number for that player (0 the first, 1 after the address changed, ...): a player
has one invitation standing (queued or sent) to their current address at most, and a second
press, or a second server, queues none. A player whose address changed since, or whose
invitation failed, gets a new one. What a letter says of the game comes from the player's own
view (``"choosing"``: their page asks for their secret number), so it never holds another
player's link or secret; the room code is the one the host's page shows anyone in the room.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError

from ...mail.letter import Letter
from ...mail.outbox import QUEUED, SENT, Key, outbox, queue_all
from ...registry import GAMES
from .. import join_desk
from ..results import Created
from . import book
from .book import Opener
from .letters import INVITATION, Invitation, invitation

log = logging.getLogger("kit.console")

STANDING = (QUEUED, SENT)  # an invitation in these states needs no other to the same address


@dataclass(frozen=True)
class Invited:
    """What a round of invitations did: the players invited now, those whose invitation to
    their current address was queued or sent before, and those without an address."""

    queued: tuple[str, ...]
    before: tuple[str, ...]
    without_address: tuple[str, ...]


def sent_before(conn: sa.Connection, game_id: str) -> dict[str, list[tuple[int, str, str]]]:
    """Each player's invitations so far: (number, address, state), by player."""
    rows = conn.execute(sa.select(outbox.c.player, outbox.c.turn, outbox.c.recipient,
                                  outbox.c.state).where(
        outbox.c.game_id == game_id, outbox.c.kind == INVITATION)).all()
    found: dict[str, list[tuple[int, str, str]]] = {}
    for player, number, to, state in rows:
        found.setdefault(player, []).append((number, to, state))
    return found


def _next(earlier: list[tuple[int, str, str]], address: str) -> int | None:
    """The number of a player's next invitation to ``address``; None when one to it stands."""
    if any(to == address and state in STANDING for _, to, state in earlier):
        return None
    return max((number for number, _, _ in earlier), default=-1) + 1


def _room(console: Any, game_id: str, opener: Opener, over: bool) -> tuple[str | None, str]:
    """The room code a phone joins with (None: joining closed, or the game over) and the
    address it opens."""
    if over:
        return None, ""
    desk = join_desk.desks(console).ensure_desk(game_id, opener.gm_token)
    if not desk.open or desk.code is None:
        return None, ""
    return desk.code, f"{opener.base_url}/join/{desk.code}"


def letters(console: Any, game_id: str, opener: Opener
            ) -> tuple[list[tuple[Key, Letter]], list[str], list[str]]:
    """The invitations due now (each player with an address and none standing to it), the
    players with one standing, and the players without an address."""
    players = join_desk.players(console, game_id)
    with console.store.engine.connect() as conn:
        to = book.addresses(conn, game_id)
        earlier = sent_before(conn, game_id)
    due = {p: n for p in players if p in to
           and (n := _next(earlier.get(p, []), to[p])) is not None}
    before = [p for p in players if p in to and p not in due]
    without = [p for p in players if p not in to]
    if not due:
        return [], before, without
    loaded = console.load(game_id)
    over = bool(console.view(game_id, "gm", loaded).data.get("winners"))
    code, join = _room(console, game_id, opener, over)
    links = console.mail.links(game_id, opener)
    facts: Mapping[str, Any] = loaded.facts
    title, lang = str(facts.get("title", "")), str(facts["lang"])
    rules = GAMES[loaded.row.kind].title
    made = []
    for player, number in due.items():
        own = console.view(game_id, f"player:{player}", loaded).data
        part = Invitation(player, to[player], links.get(player), own.get("choosing") is True,
                          code, join)
        made.append((Key(game_id, player, number, INVITATION),
                     invitation(part, title=title, rules=rules, lang=lang)))
    return made, before, without


def invite(console: Any, game_id: str, opener: Opener) -> Invited:
    """Queue an invitation to each player with an address and none standing to it (the
    caller checked that a mail server is set); one per player and address, whoever presses."""
    due, before, without = letters(console, game_id, opener)
    if not due:
        return Invited((), tuple(before), tuple(without))
    with console.store.engine.connect().execution_options(write=True) as conn, conn.begin():
        done = queue_all(conn, due, time.time())
    console.mail.wake()
    now = [key.player for key, _ in due if key.ident in done]
    late = [key.player for key, _ in due if key.ident not in done]  # another press won
    order = {p: i for i, p in enumerate(join_desk.players(console, game_id))}
    return Invited(tuple(now), tuple(sorted([*before, *late], key=order.__getitem__)),
                   tuple(without))


def invite_new(console: Any, created: Created, base_url: str) -> Invited | None:
    """The invitations of a game just made (``base_url``: the address its players reach the
    console at), queued when a mail server is set and its players have links of their own;
    None otherwise. A database that refuses them leaves none queued, and is logged: the
    game is made, and its answer holds the GM token, shown once; the host's "Send
    invitations" queues them later."""
    if not console.mail.sending or not created.tokens(book.PLAYER):
        return None
    try:
        return invite(console, created.id, Opener(created.gm_token, base_url))
    except SQLAlchemyError:
        log.exception("mail: the invitations of game %s were not queued", created.id)
        return Invited((), (), ())
