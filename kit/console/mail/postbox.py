"""The console's mail to players: the address book, the letters a publish queues in its own
transaction, reminders to the players whose orders are not in, and drafts (``.eml`` and
``mailto:``) when no mail server is set.

What a letter says comes from the game's views only: the public view's log gives the turn's
shared report (the text ``kit report --format text --turn N`` prints), the player's own view
gives their slip (``"slips"``, by turn), the game master's view who is ``"missing"``. So a
player's letter holds exactly what that player's own page shows, never another's secret or
guesses. Links are opened from the address book with the game master's token (``book``).
When the game master asks for PDFs (``book.attach_pdf``), a turn letter names the turn's
shared report and the player's own slip, which ``report_files`` fetches through the console's
render line as the letter is sent. The outbox keeps a queued letter's links sealed under the
server's mail key (``kit.mail.seal``), whatever the letter's kind.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ...errors import ConfigError, KitError, Msg, Problems
from ...game import ConsoleGame
from ...game.refusals import NotFound
from ...i18n import N_
from ...mail.letter import Letter, draft, mailto
from ...mail.outbox import (
    FAILED,
    NOT_MADE,
    QUEUED,
    SENT,
    Files,
    Key,
    NotReady,
    SenderThread,
    Titles,
    outbox,
    queue_all,
    reason,
)
from ...mail.seal import env_key
from ...mail.smtp import MailError
from .. import engine as rules_engine
from ..report_render import BeingMade, NotMade
from ..report_render import Queued as RenderQueued
from ..store import Missing
from . import book
from .book import Opener
from .letters import INVITATION, RECEIPT, RECEIPTS, Ending, Turned, reminder, turn_letter

log = logging.getLogger("kit.mail")

REPORT, REMINDER = "report", "reminder"  # the outbox kinds of a player's letters
MAIL_CLIENT = "mail"  # the render line's client the letters' PDFs are made for
SHARED = "public"  # the viewer whose report files every player may get (the console's)


@dataclass(frozen=True)
class Queued:
    """What a publish or a reminder did: the players whose letter was queued now, and those
    whose letter was queued before (a second press, another server)."""

    queued: tuple[str, ...]
    before: tuple[str, ...]


@dataclass(frozen=True)
class Failed:
    """A letter that will not go out: to whom, which (``kind``: report, reminder, receipt or
    invitation; ``turn``: the turn it is about, None for an invitation) and why."""

    player: str
    kind: str
    turn: int | None
    reason: Msg


def kind_of(kind: str, turn: int) -> tuple[str, int | None]:
    """An outbox row's kind and turn as a reader names them: the receipts of a turn are all
    ``receipt``; an invitation's number counts invitations, not turns."""
    if kind.startswith(RECEIPT):
        return RECEIPTS, turn
    return kind, None if kind == INVITATION else turn


def shared_report(game: ConsoleGame, facts: Mapping[str, Any], state: Any, turn: int) -> str:
    """The turn's report as the public view gives it, as text."""
    log = game.public_view(state, facts).log
    if not log:
        return ""
    data = {k: v for k, v in log.items() if k != "published"}
    return rules_engine.text(data, str(facts["lang"]), turn=turn)


def ending(public: Mapping[str, Any]) -> Ending | None:
    """The end as the public view says it (``over``, ``winners``, and ``secrets`` if the game
    reveals them), or None while the game goes on."""
    if public.get("over") is not True or not public.get("winners"):
        return None
    secrets = public.get("secrets") or {}
    return Ending(tuple(public["winners"]), tuple(secrets.items()))


def slip_of(game: ConsoleGame, facts: Mapping[str, Any], state: Any, player: str,
            turn: int) -> str:
    """The player's own slip of ``turn``, as their view gives it ('' if it gives none)."""
    slips = game.player_view(state, facts, player).data.get("slips") or {}
    return str(slips.get(str(turn), ""))


class Postbox:
    """The mail of one console's database; sends through a ``SenderThread`` once attached
    (``kit serve --smtp``), else offers drafts."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sender: SenderThread | None = None
        # KIT_MAIL_KEY, checked as the console opens (a server refuses to start on a bad
        # one); None: the key file of the data folder, made when a letter is first queued
        self.mail_key = env_key()

    def attach(self, sender: SenderThread) -> None:
        """Letters go out through ``sender`` (woken after each commit that queues some)."""
        self._sender = sender

    @property
    def sending(self) -> bool:
        """Whether a mail server is set: letters are queued, not offered as drafts."""
        return self._sender is not None

    def wake(self) -> None:
        if self._sender is not None:
            self._sender.wake()

    def _writer(self) -> sa.Connection:
        return self.engine.connect().execution_options(write=True)

    # --- the address book ------------------------------------------------------------------

    def addresses(self, game_id: str) -> dict[str, str]:
        with self.engine.connect() as conn:
            return book.addresses(conn, game_id)

    def set_address(self, game_id: str, players: Sequence[str], player: str,
                    text: str | None) -> str | None:
        """Give ``player`` the address ``text``, or remove theirs (None or ''); the address
        kept. Problems name the field and say why."""
        problems: list[KitError] = []
        if player not in players:
            problems.append(ConfigError("player", Msg(N_(
                "“%(name)s” is not a player of this game; the players are %(players)s"),
                name=player, players=", ".join(players))))
        checked = None
        if text:
            found, bad = book.check_emails({player: text.strip()}, None)
            checked, problems = found.get(player), problems + bad
        if problems:
            raise Problems(problems)
        with self._writer() as conn, conn.begin():
            book.set_address(conn, game_id, player, checked)
        return checked

    def links(self, game_id: str, opener: Opener) -> dict[str, str]:
        with self.engine.connect() as conn:
            return book.links(conn, game_id, opener)

    def attach_pdf(self, game_id: str) -> bool:
        """Whether the game's turn letters carry the turn's report and the player's own
        slip as PDF."""
        with self.engine.connect() as conn:
            return book.attach_pdf(conn, game_id)

    def set_attach_pdf(self, game_id: str, on: bool) -> None:
        """Ask for PDFs on the turn letters queued from now on, or for none."""
        with self._writer() as conn, conn.begin():
            book.set_attach_pdf(conn, game_id, on)

    def receipts(self, game_id: str) -> bool:
        """Whether a player's own post of orders queues them a receipt."""
        with self.engine.connect() as conn:
            return book.receipts(conn, game_id)

    def set_receipts(self, game_id: str, on: bool) -> None:
        """Ask for a receipt of each player's own post of orders from now on, or for none."""
        with self._writer() as conn, conn.begin():
            book.set_receipts(conn, game_id, on)

    def turn_mail(self, game_id: str, turn: int) -> dict[str, list[str]]:
        """Where the letters of published turn ``turn`` stand: the players whose letter is
        ``queued`` (still to go out), ``sent`` or ``failed``."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(outbox.c.player, outbox.c.state).where(
                outbox.c.game_id == game_id, outbox.c.turn == turn,
                outbox.c.kind == REPORT)).all()
        found: dict[str, list[str]] = {QUEUED: [], SENT: [], FAILED: []}
        for player, state in rows:
            found.setdefault(state, []).append(player)
        return found

    def failed(self, game_id: str) -> list[Failed]:
        """The game's letters that will not go out, newest first, each with its reason; a
        failed invitation no longer once a later one to the player is queued or sent."""
        later = outbox.alias("later")
        invited_again = sa.exists().where(
            later.c.game_id == outbox.c.game_id, later.c.player == outbox.c.player,
            later.c.kind == INVITATION, later.c.turn > outbox.c.turn, later.c.state != FAILED)
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(
                outbox.c.player, outbox.c.kind, outbox.c.turn, outbox.c.error).where(
                outbox.c.game_id == game_id, outbox.c.state == FAILED,
                sa.not_(sa.and_(outbox.c.kind == INVITATION, invited_again))).order_by(
                outbox.c.created.desc(), outbox.c.player, outbox.c.kind)).all()
        return [Failed(player, *kind_of(kind, turn), reason(error))
                for player, kind, turn, error in rows]

    # --- a publish ------------------------------------------------------------------------

    def turn_letters(self, game_id: str, game: ConsoleGame, facts: Mapping[str, Any],
                     state: Any, turn: int, opener: Opener | None) -> list[tuple[Key, Letter]]:
        """The letters of published turn ``turn`` (``state``: after the publish) to each
        player with an address."""
        with self.engine.connect() as conn:
            to = book.addresses(conn, game_id)
            links = book.links(conn, game_id, opener) if opener and to else {}
            files = pdf_names(game, turn) if to and book.attach_pdf(conn, game_id) else ()
        if not to:
            return []
        report = shared_report(game, facts, state, turn)
        slips = game.turn_slips(state, facts, turn) if game.turn_slips else {
            player: slip_of(game, facts, state, player, turn) for player in to}
        title, lang = str(facts.get("title", "")), str(facts["lang"])
        end = ending(game.public_view(state, facts).data)
        return [(Key(game_id, player, turn, REPORT), dataclasses.replace(turn_letter(
            Turned(player, address, slips.get(player, ""), links.get(player)),
            title=title, lang=lang, turn=turn, report=report, ending=end), attach=files))
            for player, address in sorted(to.items())]

    def queue_in(self, letters: Sequence[tuple[Key, Letter]]
                 ) -> Callable[[sa.Connection], object] | None:
        """What queues ``letters`` in the caller's transaction (None: nothing to queue)."""
        if not letters:
            return None
        return lambda conn: queue_all(conn, letters, mail_key=self.mail_key)

    # --- reminders and drafts ------------------------------------------------------------

    def remind(self, game_id: str, gm: Mapping[str, Any], facts: Mapping[str, Any],
               opener: Opener) -> Queued:
        """Queue a reminder to each player the GM view says is ``missing`` for the open turn
        and who has an address; one per player and turn (a second press queues none)."""
        letters = self.reminders(game_id, gm, facts, opener)
        if not letters:
            return Queued((), ())
        with self._writer() as conn, conn.begin():
            done = queue_all(conn, letters, time.time(), mail_key=self.mail_key)
        self.wake()
        names = [(key.player, key.ident in done) for key, _ in letters]
        return Queued(tuple(n for n, now in names if now), tuple(n for n, now in names
                                                                 if not now))

    def reminders(self, game_id: str, gm: Mapping[str, Any], facts: Mapping[str, Any],
                  opener: Opener) -> list[tuple[Key, Letter]]:
        """The reminders of the open turn, one to each missing player with an address."""
        turn = int(gm.get("published", 0)) + 1
        with self.engine.connect() as conn:
            to = book.addresses(conn, game_id)
            links = book.links(conn, game_id, opener)
        title, lang = str(facts.get("title", "")), str(facts["lang"])
        deadline = gm.get("deadline")
        return [(Key(game_id, player, turn, REMINDER), reminder(
            player, to[player], links.get(player), title=title, lang=lang, turn=turn,
            deadline=str(deadline) if deadline else None))
            for player in gm.get("missing", []) if player in to]


def pdf_names(game: ConsoleGame, turn: int) -> tuple[str, ...]:
    """The PDFs a turn letter carries when the game master asks for them: the turn's shared
    report, and the player's own slip if the game's player links serve one."""
    return (f"turn-{turn}.pdf",) + ((f"slips-turn-{turn}.pdf",) if game.player_files else ())


def report_files(console: Any, wait_s: float = 60.0) -> Files:
    """What fetches a letter's PDFs for the sender, through the console's render line: the
    shared report as the public may fetch it, the slip from the player's own folder (their
    slips alone). A render still going on after ``wait_s`` raises ``NotReady``; a file that
    cannot be made fails the letter for good."""

    def one(game_id: str, player: str, name: str) -> bytes:
        read = (partial(console.read_own, game_id, name, player, MAIL_CLIENT)
                if name.startswith("slips-") else
                partial(console.read_report, game_id, name, SHARED, MAIL_CLIENT))
        for _ in range(2):
            try:
                return bytes(read().body)
            except BeingMade as making:
                with contextlib.suppress(Exception):  # a failed render: read says so
                    making.future.result(timeout=wait_s)
            except RenderQueued:
                raise NotReady(name) from None
            except (NotFound, NotMade):
                log.error("mail: the attachment %s could not be made", name)
                raise MailError(NOT_MADE, transient=False) from None
        raise NotReady(name)

    def files(game_id: str, player: str, names: Sequence[str]) -> list[tuple[str, bytes]]:
        return [(name, one(game_id, player, name)) for name in names]

    return files


def game_titles(console: Any) -> Titles:
    """What names each letter's sender for the outbox: its game's title ('' for none, or
    for a game no longer there)."""

    def title(game_id: str) -> str:
        try:
            return str(console.store.game(game_id).public.get("title") or "")
        except Missing:
            return ""

    return title


def drafts(letters: Sequence[tuple[Key, Letter]]) -> dict[str, dict[str, Any]]:
    """Each letter as the GM sends it by hand: its ``mailto:`` link and ``.eml`` bytes."""
    return {key.player: {"to": letter.to, "mailto": mailto(letter), "eml": draft(letter)}
            for key, letter in letters}


def letters_now(console: Any, game_id: str, kind: str, opener: Opener
                ) -> list[tuple[Key, Letter]]:
    """The letters of ``kind`` the game is at now: the last published turn's (``report``)
    or the open turn's reminders (``reminder``), to each player with an address."""
    loaded = console.load(game_id)
    gm = console.view(game_id, "gm", loaded).data
    if kind == REPORT:
        turn = int(gm.get("published", 0))
        if not turn:
            return []
        return console.mail.turn_letters(game_id, loaded.game, loaded.facts,
                                         loaded.played.state, turn, opener)
    return console.mail.reminders(game_id, gm, loaded.facts, opener)


def remind(console: Any, game_id: str, opener: Opener) -> dict[str, Any]:
    """``Remind the missing``: with a mail server, the reminders queued (each player and turn
    once); without, a ``mailto:`` draft for each. Players without an address are named."""
    loaded = console.load(game_id)
    gm = console.view(game_id, "gm", loaded).data
    turn = int(gm.get("published", 0)) + 1
    missing = list(gm.get("missing", []))
    have = console.mail.addresses(game_id)
    answer: dict[str, Any] = {"turn": turn, "missing": missing,
                              "without_address": [p for p in missing if p not in have]}
    if console.mail.sending:
        done = console.mail.remind(game_id, gm, loaded.facts, opener)
        answer.update(queued=list(done.queued), before=list(done.before))
    else:
        letters = console.mail.reminders(game_id, gm, loaded.facts, opener)
        answer["drafts"] = {p: {"to": d["to"], "mailto": d["mailto"]}
                            for p, d in drafts(letters).items()}
    return answer


def link_slips(console: Any, game_id: str, opener: Opener) -> bytes | None:
    """The game's sheet of players' links (``ConsoleGame.link_sheet``: What's My Number?'s
    secret-number slips with QR codes) as a PDF, links opened with the GM token; None when
    the game has none."""
    loaded = console.load(game_id)
    sheet = loaded.game.link_sheet
    if sheet is None:
        return None
    return sheet(loaded.facts, console.mail.links(game_id, opener))
