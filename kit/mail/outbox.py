"""The outbox: messages queued in the game's database, sent by whichever server claims them.

A message is a row of ``outbox`` (migration ``0003``), unique per (game, player, turn, kind):
``queue`` inserts it in the caller's transaction (the one that publishes the turn, say), and a
second ``queue`` of the same key, by this server or another, changes nothing. So a message is
queued exactly once, and once its transaction is committed it is on disk: a server killed
right after (``kill -9``) loses nothing, the next one to start sends it.

Sending (``Sender``): a server claims one due row with a lease (``UPDATE ... WHERE state =
'queued' AND due <= now AND lease <= now AND attempts < Policy.attempts``: on both databases
one claimer wins, the others update no row) and renews that lease every third of
``Policy.lease_s`` for as long as its SMTP session for the row is alive, however long the mail
server takes (up to RFC 5321's timeouts, ``kit.mail.smtp.Timeouts``). The lease's token
(``owner``) is checked by every UPDATE a sender makes under its claim, so a sender whose lease
ran out (a database it could not reach to renew) changes nothing of a row another sender now
holds. One fact overrides the lease: the server's 250. A row the server took is marked sent
whoever holds it, so a row another sender claimed meanwhile is not sent once more after it.

A server that dies holding a lease holds it at most ``Policy.lease_s``; then another claims
the row. The one window left, between the server's 250 reply and our mark, can give a second
delivery after a crash: it is the same message (the ``Message-ID`` is made from the row's key
and its ``Date`` from the row), so mail programs and servers that drop duplicates by id drop
it. A failing server (a 4xx reply, no connection, no reply in time) defers the row with
exponential back-off; a 5xx reply, or ``Policy.attempts`` tries, marks it failed, with the
reason (a reply code, never a password or the server's text) in ``error``: also a row whose
last try ended with its sender's lease (a crash), which no claim takes again. A row sent or
failed keeps no body: a letter's body holds its player's link, a key to their seat.

No link is ever kept in clear (``kit.mail.seal``): a queued row's body has a mark where each
link goes and ``sealed`` holds the links, sealed under the server's mail key, which the
database does not hold; the sender opens them as it sends. A row whose links do not open
under this server's key (another ``KIT_MAIL_KEY``, a key file lost) is failed with that
reason, never sent with a broken link.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import smtplib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ..errors import Msg, ngettext
from ..i18n import N_
from .letter import NAME, Letter, compose
from .seal import MailKey, open_links, seal_links, server_key
from .smtp import MailError, SmtpServer, send

log = logging.getLogger("kit.mail")

metadata = sa.MetaData()

outbox = sa.Table(  # the schema is kit/db/migrations/versions/0003_outbox.py
    "outbox", metadata,
    sa.Column("id", sa.String(32), primary_key=True),  # Key.ident: the key's hash
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("player", sa.String(100), nullable=False),
    sa.Column("turn", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("recipient", sa.String(254), nullable=False),
    sa.Column("subject", sa.String(200), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),  # wall clock; the message's Date
    sa.Column("state", sa.String(10), nullable=False),  # queued, sent, failed
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("due", sa.Float, nullable=False),  # the next try, wall clock
    sa.Column("owner", sa.String(32), nullable=False),  # the claim holding the lease
    sa.Column("lease", sa.Float, nullable=False),  # wall-clock end of the lease; 0: none
    sa.Column("sent", sa.Float, nullable=True),
    sa.Column("error", sa.String(200), nullable=True),
    sa.Column("attach", sa.String(200), nullable=True),  # 0007: report files, one a line
    sa.Column("sealed", sa.Text, nullable=True),  # 0009: the body's links, sealed (seal.py)
    sa.UniqueConstraint("game_id", "player", "turn", "kind", name="outbox_once"),
)

QUEUED, SENT, FAILED = "queued", "sent", "failed"
DROPPED = ""  # the body of a sent or failed row: a letter's body holds its player's link
# what a sent or failed row keeps of its letter's text and links: nothing
DROP: dict[str, object] = {"body": DROPPED, "sealed": None}
UNOPENED = "its links do not open under this server's mail key (KIT_MAIL_KEY or mail.key)"
GAVE_UP = "no answer from the mail server in {tries} tries"
BEING_MADE = "attachments being made"  # (kept by a row whose last try's sender died)
NOT_MADE = "attachments not made"


@dataclass(frozen=True)
class Key:
    """What makes a message one: its game, player, turn and kind (``report``, ``reminder``)."""

    game_id: str
    player: str
    turn: int
    kind: str

    @property
    def bound(self) -> str:
        """The key as one text: what a letter's sealed links are bound to."""
        return "\x1f".join((self.game_id, self.player, str(self.turn), self.kind))

    @property
    def ident(self) -> str:
        """The row's id: a hash of the key, the same on every server."""
        return hashlib.sha256(self.bound.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def reason(error: str | None) -> Msg:
    """Why a failed row was not sent (its ``error``), as the host reads it: ours in their
    language, a mail server's reply code and what it refused as the sender recorded it."""
    error = error or ""
    if error == UNOPENED:
        return Msg(N_("the mail key has changed since this letter was queued: its links do not "
                      "open under this server’s key (KIT_MAIL_KEY or mail.key)"))
    tries = re.fullmatch(GAVE_UP.format(tries=r"(\d+)"), error)
    if tries:
        return ngettext("no answer from the mail server in %(num)s try",
                        "no answer from the mail server in %(num)s tries", int(tries[1]))
    # (a row failed before NOT_MADE named the file: "attachment turn-2.pdf not made")
    if error in (NOT_MADE, BEING_MADE) or re.fullmatch(r"attachment \S+ not made", error):
        return Msg(N_("its PDFs could not be made"))
    return Msg(N_("the mail server did not take it: %(reply)s"), reply=error or "?")


def message_id(ident: str, sender: str) -> str:
    """The ``Message-ID`` of row ``ident`` sent from ``sender``: a resend has the same."""
    domain = sender.rpartition("@")[2] or "localhost"
    return f"<{ident}.kit@{domain}>"


def queue(conn: sa.Connection, key: Key, letter: Letter, now: float | None = None, *,
          mail_key: MailKey | None = None) -> bool:
    """Queue ``letter`` under ``key`` in ``conn``'s transaction; False if the key was queued
    before (then nothing changes)."""
    return bool(queue_all(conn, [(key, letter)], now, mail_key=mail_key))


def queue_all(conn: sa.Connection, letters: Sequence[tuple[Key, Letter]],
              now: float | None = None, *, mail_key: MailKey | None = None) -> set[str]:
    """Queue every ``(key, letter)`` in ``conn``'s transaction, in one statement (a turn's
    messages as its publish commits); the ids of the rows queued now (not queued before).
    Each body's links are sealed under ``mail_key`` (default: the server's, ``server_key``)."""
    if not letters:
        return set()
    now = time.time() if now is None else now
    sealing = mail_key if mail_key is not None else server_key(conn.engine.url)
    rows = []
    for key, letter in letters:
        body, sealed = seal_links(sealing, key.bound, letter.body)
        rows.append({"id": key.ident, "game_id": key.game_id, "player": key.player,
                     "turn": key.turn, "kind": key.kind, "recipient": letter.to,
                     "subject": letter.subject, "body": body, "sealed": sealed,
                     "created": now, "state": QUEUED, "attempts": 0, "due": now, "owner": "",
                     "lease": 0.0, "sent": None, "error": None,
                     "attach": "\n".join(letter.attach) or None})
    from sqlalchemy.dialects import postgresql, sqlite

    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    done = conn.execute(dialect.insert(outbox).values(rows).on_conflict_do_nothing()
                        .returning(outbox.c.id))
    return set(done.scalars())


def replace_queued(conn: sa.Connection, key: Key, letter: Letter, now: float | None = None,
                   *, mail_key: MailKey | None = None) -> bool:
    """Put ``letter`` in place of the one queued under ``key``, in ``conn``'s transaction, its
    links sealed as ``queue_all`` seals them; False (nothing changed) unless the row is still
    queued and no sender holds its lease: a letter being sent is never changed under it."""
    now = time.time() if now is None else now
    sealing = mail_key if mail_key is not None else server_key(conn.engine.url)
    body, sealed = seal_links(sealing, key.bound, letter.body)
    done = conn.execute(outbox.update().where(
        outbox.c.id == key.ident, outbox.c.state == QUEUED, outbox.c.lease <= now).values(
        recipient=letter.to, subject=letter.subject, body=body, sealed=sealed, created=now,
        due=now, attach="\n".join(letter.attach) or None))
    return done.rowcount == 1


@dataclass(frozen=True)
class Entry:
    """A row as a caller sees it: where the message stands."""

    ident: str
    state: str
    attempts: int
    due: float
    sent: float | None
    error: str | None


def entry(engine: Engine, ident: str) -> Entry | None:
    """Row ``ident``'s state, or None."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(outbox).where(outbox.c.id == ident)).first()
    return None if row is None else Entry(row.id, row.state, row.attempts, row.due, row.sent,
                                          row.error)


@dataclass(frozen=True)
class Policy:
    """How the sender waits: a claim's lease, the back-off after a failure (doubling from
    ``first_retry_s`` up to ``max_retry_s``) and the tries before a message is failed."""

    lease_s: float = 120.0  # renewed every third of it while the row's session is alive
    first_retry_s: float = 30.0
    max_retry_s: float = 3600.0
    attempts: int = 10  # 30 s, 1, 2, 4 ... min, then hourly: about 5 hours in all

    def retry_after(self, attempts: int) -> float:
        """Seconds to wait after the ``attempts``-th failed try."""
        return min(self.first_retry_s * 2 ** max(0, attempts - 1), self.max_retry_s)


@dataclass(frozen=True)
class Claimed:
    """A row this sender holds the lease of."""

    ident: str
    token: str
    attempts: int
    letter: Letter
    created: float
    game_id: str = ""
    player: str = ""


class NotReady(Exception):
    """A letter's attachments are still being made: the letter waits ``first_retry_s`` (a
    try of its own) while the round goes on with the next, the server not taken as failing."""


# (game id, player, file names) -> the files, by name; raises NotReady while being made
Files = Callable[[str, str, Sequence[str]], Sequence[tuple[str, bytes]]]


# game id -> the game's name, shown as the sender of its letters ('': none)
Titles = Callable[[str], str]


class Sender:
    """Sends the outbox of one database through one SMTP server, as ``mail_from``, shown as
    the letter's game's name (``titles``), else as ``name``, else as ``letter.NAME``."""

    def __init__(self, engine: Engine, server: SmtpServer, mail_from: str,
                 policy: Policy = Policy(), clock: Callable[[], float] = time.time,
                 files: Files | None = None, mail_key: MailKey | None = None, *,
                 name: str = "", titles: Titles | None = None) -> None:
        self.engine = engine
        self.name = name or NAME
        self.titles = titles
        # what opens the letters' links (default: the server's key, ``server_key``)
        self.mail_key = mail_key if mail_key is not None else server_key(engine.url)
        self.files = files  # what fetches a letter's attachments (None: sent without)
        self.server = server
        self.mail_from = mail_from
        self.policy = policy
        self.clock = clock

    def _writer(self) -> sa.Connection:
        # on SQLite a BEGIN IMMEDIATE (kit.console.store): claims go one at a time
        return self.engine.connect().execution_options(write=True)

    def claim(self, only: str | None = None) -> Claimed | None:
        """Take the lease of one due row (``only``: that row), or None if none is free. Rows
        whose last try ended with its lease are failed first: they are at the try limit."""
        now = self.clock()
        free = sa.and_(outbox.c.state == QUEUED, outbox.c.due <= now, outbox.c.lease <= now)
        if only is not None:
            free = sa.and_(free, outbox.c.id == only)
        token = secrets.token_hex(16)
        with self._writer() as conn, conn.begin():
            self._give_up(conn, free)
            free = sa.and_(free, outbox.c.attempts < self.policy.attempts)
            candidates = conn.execute(sa.select(outbox.c.id).where(free)
                                      .order_by(outbox.c.due, outbox.c.id).limit(8)).scalars()
            for ident in list(candidates):
                won = conn.execute(outbox.update().where(outbox.c.id == ident, free).values(
                    owner=token, lease=now + self.policy.lease_s,
                    attempts=outbox.c.attempts + 1))
                if won.rowcount == 1:
                    row = conn.execute(sa.select(outbox).where(outbox.c.id == ident)).one()
                    letter = self._opened(conn, row)
                    if letter is not None:
                        return Claimed(ident, token, row.attempts, letter, row.created,
                                       row.game_id, row.player)
        return None

    def _opened(self, conn: sa.Connection, row: sa.Row[Any]) -> Letter | None:
        """The letter of a row just claimed, its links put back; None when they do not open
        under this server's key: then the row is failed, with the reason, in ``conn``."""
        body = row.body
        if row.sealed is not None:
            key = Key(row.game_id, row.player, row.turn, row.kind)
            body = open_links(self.mail_key, key.bound, row.body, row.sealed)
            if body is None:
                conn.execute(outbox.update().where(outbox.c.id == row.id).values(
                    state=FAILED, owner="", lease=0.0, error=UNOPENED, **DROP))
                log.error("mail: message %s failed: %s", row.id, UNOPENED)
                return None
        return Letter(row.recipient, row.subject, body,
                      tuple(row.attach.split("\n")) if row.attach else ())

    def _give_up(self, conn: sa.Connection, free: sa.ColumnElement[bool]) -> None:
        """Fail the free rows that had all their tries (the last one's sender died or lost its
        lease), keeping the last reason given, if any."""
        limit = self.policy.attempts
        spent = conn.execute(outbox.update().where(free, outbox.c.attempts >= limit).values(
            state=FAILED, owner="", lease=0.0, **DROP, error=sa.func.coalesce(
                outbox.c.error, GAVE_UP.format(tries=limit)))
            .returning(outbox.c.id)).scalars().all()
        for ident in spent:
            log.error("mail: message %s failed for good after %d tries", ident, limit)

    def renew(self, claimed: Claimed) -> bool:
        """Extend a claimed row's lease by ``Policy.lease_s`` from now; False if it is no longer
        this claim's (then nothing changed)."""
        with self._writer() as conn, conn.begin():
            done = conn.execute(outbox.update().where(
                outbox.c.id == claimed.ident, outbox.c.owner == claimed.token,
                outbox.c.state == QUEUED).values(lease=self.clock() + self.policy.lease_s))
        return done.rowcount == 1

    def holding(self, claimed: Claimed) -> Renewal:
        """A context in which the claimed row's lease is renewed (an SMTP session for it)."""
        return Renewal(self, claimed)

    def message(self, claimed: Claimed) -> EmailMessage:
        """The message of a claimed row: the same bytes on every try and every server (its
        attachments are the report files of the game's version when sent); NotReady while
        they are being made."""
        names = claimed.letter.attach
        files = self.files(claimed.game_id, claimed.player, names) \
            if names and self.files is not None else ()
        title = self.titles(claimed.game_id) if self.titles and claimed.game_id else ""
        return compose(claimed.letter, self.mail_from, name=title or self.name,
                       message_id=message_id(claimed.ident, self.mail_from),
                       date=claimed.created, files=files)

    def wait(self, claimed: Claimed) -> None:
        """Try a claimed row again shortly: its attachments are being made."""
        if claimed.attempts < self.policy.attempts:
            self._finish(claimed, due=self.clock() + self.policy.first_retry_s,
                         error=BEING_MADE)
        else:
            self._finish(claimed, state=FAILED, error=NOT_MADE)

    def _finish(self, claimed: Claimed, **values: object) -> bool:
        if values.get("state") in (SENT, FAILED):
            values.update(DROP)  # no more use: the text and links of a player's letter
        with self._writer() as conn, conn.begin():
            done = conn.execute(outbox.update().where(
                outbox.c.id == claimed.ident, outbox.c.owner == claimed.token).values(
                owner="", lease=0.0, **values))
        return done.rowcount == 1

    def sent(self, claimed: Claimed) -> None:
        """Mark a claimed row sent: the server's 250 holds even if the lease was lost (another
        sender then finds the row sent and sends it no more)."""
        if self._finish(claimed, state=SENT, sent=self.clock(), error=None):
            log.info("mail: message %s sent (try %d)", claimed.ident, claimed.attempts)
            return
        with self._writer() as conn, conn.begin():
            conn.execute(outbox.update().where(outbox.c.id == claimed.ident,
                                               outbox.c.state != SENT).values(
                state=SENT, sent=self.clock(), error=None, owner="", lease=0.0, **DROP))
        log.warning("mail: message %s sent (try %d) after its lease ran out", claimed.ident,
                    claimed.attempts)

    def failed(self, claimed: Claimed, error: MailError) -> None:
        """Defer a claimed row after ``error``, or fail it for good (a refusal, or the last
        try)."""
        reason = error.reason[:200]
        if error.transient and claimed.attempts < self.policy.attempts:
            wait = self.policy.retry_after(claimed.attempts)
            self._finish(claimed, due=self.clock() + wait, error=reason)
            log.warning("mail: message %s not sent (try %d): %s; next try in %.0f s",
                        claimed.ident, claimed.attempts, reason, wait)
        else:
            self._finish(claimed, state=FAILED, error=reason)
            log.error("mail: message %s failed for good after %d tries: %s", claimed.ident,
                      claimed.attempts, reason)

    def run_once(self, only: str | None = None, stop: threading.Event | None = None) -> int:
        """Send every due row (``only``: that row) until none is left, the server fails or
        ``stop`` is set; returns how many were sent. One SMTP session for the round."""
        session: smtplib.SMTP | None = None
        count = 0
        try:
            while stop is None or not stop.is_set():
                claimed = self.claim(only)
                if claimed is None:
                    break
                try:
                    message = self.message(claimed)
                except NotReady:  # the next letter may be ready: this one waits a little
                    self.wait(claimed)
                    continue
                except MailError as exc:  # its files cannot be made: the letter, not the server
                    self.failed(claimed, exc)
                    continue
                try:
                    with self.holding(claimed):  # however long the server takes to answer
                        if session is None:
                            session = self.server.connect()
                        send(session, message, self.server.label)
                except MailError as exc:
                    self.failed(claimed, exc)
                    if exc.transient:  # the server is failing: the next round tries again
                        break
                    continue
                self.sent(claimed)
                count += 1
        finally:
            if session is not None:
                _quit(session)
        return count


class Renewal:
    """Renews a claimed row's lease every third of ``Policy.lease_s`` in a thread of its own,
    from entering the context to leaving it."""

    def __init__(self, sender: Sender, claimed: Claimed) -> None:
        self.sender = sender
        self.claimed = claimed
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kit-mail-lease", daemon=True)

    def __enter__(self) -> Renewal:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def _run(self) -> None:
        every = self.sender.policy.lease_s / 3
        while not self._done.wait(every):
            try:
                kept = self.sender.renew(self.claimed)
            except Exception:  # a database hiccup: the next renewal may pass, the lease lasts
                log.exception("mail: the lease of message %s could not be renewed",
                              self.claimed.ident)
                continue
            if not kept:
                log.warning("mail: message %s lost its lease while being sent",
                            self.claimed.ident)
                return


def _quit(session: smtplib.SMTP) -> None:
    try:
        session.quit()
    except (smtplib.SMTPException, OSError):
        session.close()


class SenderThread:
    """``Sender.run_once`` in a background thread: every ``every_s`` seconds, and at once when
    woken (a message was queued here); ``stop`` lets a message being sent finish."""

    def __init__(self, sender: Sender, every_s: float = 5.0) -> None:
        self.sender = sender
        self.every_s = every_s
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kit-mail", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        """Look at the outbox now rather than at the next tick."""
        self._wake.set()

    def stop(self, timeout: float | None = None) -> bool:
        """Stop after the message being sent (if any); whether the thread has ended."""
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.sender.run_once(stop=self._stop)
            except Exception:  # a database hiccup: log it, try again at the next tick
                log.exception("mail: the outbox could not be read")
            self._wake.wait(self.every_s)
            self._wake.clear()
