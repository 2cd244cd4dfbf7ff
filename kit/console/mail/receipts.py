"""Receipts: when the game master asks for them (``book.receipts``) and a mail server is set,
a player's own post of orders, from their page or the API, queues them a letter saying the
turn, the orders as received and the rulings they will get, in their page's words
(``ConsoleGame.player_echo``), and their own link: the one their post came with, so no GM
token is needed and no other player's link is ever opened. A game master's entry sends none.

One receipt stands per player and turn. A repost before the sender takes the receipt puts
the new letter in place of the queued one (``outbox.replace_queued``); once it is sent, or
while a sender holds it, a repost queues another. The outbox is unique per (game, player,
turn, kind), so a turn's receipts are told apart by kind: ``receipt-1``, ``receipt-2`` ...,
their ``turn`` the game's turn, which the row then still names (and its Message-ID differs).
"""

from __future__ import annotations

import logging
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError

from ...i18n import words
from ...mail.letter import Letter
from ...mail.outbox import QUEUED, Key, outbox, queue_all, replace_queued
from ...mail.seal import MailKey
from ..specs import console_of
from . import book
from .letters import RECEIPT, Receipt, receipt

log = logging.getLogger("kit.console")


def receipt_letter(console: Any, game_id: str, player: str, kind: str,
                   link: str) -> tuple[int, Letter] | None:
    """The receipt of ``player``'s post of entry ``kind`` and its turn, as their view says
    it now; None when receipts are off, the player has no address or the post no orders."""
    with console.store.engine.connect() as conn:
        if not book.receipts(conn, game_id):
            return None
        to = book.addresses(conn, game_id).get(player)
    if to is None:
        return None
    loaded = console.load(game_id)
    echo = console_of(loaded.row.kind).player_echo
    lang = str(loaded.facts["lang"])
    data = console.view(game_id, f"player:{player}", loaded).data
    said = echo(kind, data, words(lang)) if echo is not None else None
    if said is None or not isinstance(data.get("turn"), int):
        return None
    part = Receipt(player, to, data["turn"], said[0], tuple(said[1]), link)
    return data["turn"], receipt(part, title=str(loaded.facts.get("title", "")), lang=lang)


def _numbers(conn: sa.Connection, game_id: str, player: str, turn: int,
             now: float) -> tuple[int, int | None]:
    """The highest receipt number of the player's turn so far (0: none), and the number of
    the one still queued that no sender holds (None: none)."""
    rows = conn.execute(sa.select(outbox.c.kind, outbox.c.state, outbox.c.lease).where(
        outbox.c.game_id == game_id, outbox.c.player == player, outbox.c.turn == turn,
        outbox.c.kind.startswith(RECEIPT))).all()
    numbers = {int(kind[len(RECEIPT):]): (state, lease) for kind, state, lease in rows}
    free = [n for n, (state, lease) in numbers.items() if state == QUEUED and lease <= now]
    return max(numbers, default=0), max(free, default=None)


def _put(conn: sa.Connection, game_id: str, player: str, turn: int, letter: Letter,
         mail_key: MailKey | None) -> bool:
    """Put the receipt in place of the queued one no sender holds, else queue the next; False
    when another post of the player queued that one first (then try again)."""
    now = time.time()
    last, free = _numbers(conn, game_id, player, turn, now)
    if free is not None and replace_queued(
            conn, Key(game_id, player, turn, f"{RECEIPT}{free}"), letter, now,
            mail_key=mail_key):
        return True
    return bool(queue_all(conn, [(Key(game_id, player, turn, f"{RECEIPT}{last + 1}"),
                                  letter)], now, mail_key=mail_key))


def acknowledge(console: Any, game_id: str, player: str, kind: str, link: str) -> bool:
    """Queue (or put in place of the queued one) the receipt of ``player``'s own post of
    entry ``kind``; False when none is due. The post is recorded already: a database that
    refuses the receipt is logged, never the post's failure."""
    if not console.mail.sending:
        return False
    try:
        made = receipt_letter(console, game_id, player, kind, link)
        if made is None:
            return False
        done = False
        for _ in range(3):  # two posts of one player at once: the later one replaces
            with console.store.engine.connect().execution_options(write=True) as conn, \
                    conn.begin():
                done = _put(conn, game_id, player, made[0], made[1], console.mail.mail_key)
            if done:
                break
    except SQLAlchemyError:
        log.exception("mail: the receipt of %s in game %s was not queued", player, game_id)
        return False
    console.mail.wake()
    return done
