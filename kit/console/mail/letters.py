"""What the console's letters to players say, in the game's language: a published turn's letter
(the player's link, their own slip, the turn's shared report), the reminder to a player
whose orders are not in, and the receipt of a player's own orders. The texts come from the
game's views (``kit.console.mail.postbox``); this module only puts them in order and words
the lines around them."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ...i18n import N_, words
from ...mail.letter import Letter

INVITATION = "invitation"  # the outbox kind of an invitation
RECEIPT = "receipt-"  # the outbox kinds of a turn's receipts: receipt-1, receipt-2 ...
RECEIPTS = "receipt"  # how a reader names any of them
RULE = "-" * 32
ISOLATED = re.compile("[\u2066\u2067\u2068]([^\u2066-\u2069]*)\u2069")  # a name in its marks


def _plain(text: str) -> str:
    """``text`` without the direction marks around names that need none: mail programs that
    do not hide them show stray marks, and a search for "Bob H" fails. A name holding a
    right-to-left letter keeps them, so its sentence still reads in order."""
    def unmarked(found: re.Match[str]) -> str:
        rtl = any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in found[1])
        return found[0] if rtl else found[1]

    return ISOLATED.sub(unmarked, text)


@dataclass(frozen=True)
class Turned:
    """One player's part of a published turn: their slip and link (None: not known)."""

    player: str
    to: str
    slip: str
    link: str | None


def _name(title: str, lang: str) -> str:
    return title or words(lang).gettext(N_("Game night"))


def _link_line(link: str | None, lang: str) -> str:
    w = words(lang)
    if link is None:  # a rotated link, or one the GM token could not open
        return w.gettext(N_("Your page: the link on your secret-number slip."))
    return w.gettext(N_("Your page (orders, slips and reports): %(link)s"), link=link)


@dataclass(frozen=True)
class Ending:
    """The end of a game as its public view says it: the winners and what it reveals then
    (each player's secret number, in player order; none for a game without)."""

    winners: tuple[str, ...]
    secrets: tuple[tuple[str, object], ...] = ()


def turn_letter(part: Turned, *, title: str, lang: str, turn: int, report: str,
                ending: Ending | None = None) -> Letter:
    """The letter of published turn ``turn`` to one player: only their own slip, and the
    report every player gets; on the last turn (``ending``), who won first, in the subject
    too, and every secret number after the report."""
    w = words(lang)
    game = _name(title, lang)
    subject = w.gettext(N_("%(game)s: turn %(turn)s report"), game=game, turn=turn)
    lines = [w.gettext(N_("Hello %(player)s, the game master has published turn %(turn)s."),
                       player=part.player, turn=turn)]
    if ending is not None:
        won = w.ngettext("%(names)s wins", "%(names)s share the win",
                         len(ending.winners), names=w.join(list(ending.winners)))
        subject = w.gettext(N_("%(game)s: %(won)s (turn %(turn)s)"), game=game, won=won,
                            turn=turn)
        lines.append(w.gettext(N_("You won!")) if part.player in ending.winners else
                     w.gettext(N_("The game is over: %(won)s."), won=won))
    lines += ["", _link_line(part.link, lang), ""]
    if part.slip:
        lines += [RULE, w.gettext(N_("Your slip (for you alone)")), RULE,
                  _plain(part.slip.strip()), ""]
    lines += [RULE, w.gettext(N_("Turn %(turn)s report (every player gets it)"), turn=turn),
              RULE, _plain(report.strip()), ""]
    if ending is not None and ending.secrets:
        lines += [RULE, w.gettext(N_("Secret numbers")), RULE,
                  *(f"{name}: {number}" for name, number in ending.secrets), ""]
    return Letter(part.to, subject[:200], "\n".join(lines))


def reminder(player: str, to: str, link: str | None, *, title: str, lang: str, turn: int,
             deadline: str | None) -> Letter:
    """A short reminder to a player whose orders for ``turn`` are not in."""
    w = words(lang)
    subject = w.gettext(N_("%(game)s: your orders for turn %(turn)s"), game=_name(title, lang),
                        turn=turn)
    lines = [w.gettext(N_("Hello %(player)s, the game master has no orders from you for turn "
                          "%(turn)s yet."), player=player, turn=turn)]
    if deadline:
        lines.append(w.gettext(N_("The deadline is %(deadline)s."), deadline=deadline))
    lines += ["", _link_line(link, lang), ""]
    return Letter(to, subject[:200], "\n".join(lines))


@dataclass(frozen=True)
class Invitation:
    """What one player's invitation says of them: their link (None: not known), whether their
    page asks them for a secret number before turn 1, and the room code another phone joins
    with at ``join`` (None: joining is closed or the game is over)."""

    player: str
    to: str
    link: str | None
    choosing: bool
    code: str | None = None
    join: str | None = None


def invitation(part: Invitation, *, title: str, rules: str, lang: str) -> Letter:
    """A player's invitation to a new game (``rules``: the game's own name, a msgid): their
    own link, what to do before turn 1 and the public room code; never another's link."""
    w = words(lang)
    game = _name(title, lang)
    subject = w.gettext(N_("%(game)s: your invitation"), game=game)
    lines = [w.gettext(N_("Hello %(player)s, you are invited to “%(game)s” (%(rules)s)."),
                       player=part.player, game=game, rules=w.gettext(rules)), ""]
    if part.link is None:
        lines.append(_link_line(None, lang))
    else:
        lines.append(w.gettext(N_("Your own page (keep the link to yourself: it is your seat "
                                  "in the game): %(link)s"), link=part.link))
    lines += ["", w.gettext(N_("Before turn 1, open your page and choose your secret number: "
                               "turn 1 begins once every player has one.")) if part.choosing
              else w.gettext(N_("Before turn 1, open your page: you send your orders there, "
                                "and it shows each turn’s report once it is published."))]
    if part.code and part.join:
        lines += ["", w.gettext(N_("On another phone: open %(address)s and type the room code "
                                   "%(code)s; the host then admits it."),
                                address=part.join, code=part.code)]
    return Letter(part.to, subject[:200], "\n".join(lines) + "\n")


@dataclass(frozen=True)
class Receipt:
    """What one player's receipt says of them: the open turn, the line saying their orders
    as received, the rulings those will get (their page's words) and their own link."""

    player: str
    to: str
    turn: int
    received: str
    rulings: tuple[str, ...]
    link: str


def receipt(part: Receipt, *, title: str, lang: str) -> Letter:
    """The letter saying a player's orders for ``part.turn`` were received: what their page
    echoes of them, and their own link; nothing of another player."""
    w = words(lang)
    subject = w.gettext(N_("%(game)s: your orders for turn %(turn)s were received"),
                        game=_name(title, lang), turn=part.turn)
    lines = [w.gettext(N_("Hello %(player)s, the game master has your orders for turn "
                          "%(turn)s."), player=part.player, turn=part.turn), "",
             _plain(part.received)]
    if part.rulings:
        lines += ["", *(f"- {_plain(line)}" for line in part.rulings)]
    lines += ["", w.gettext(N_("To change them before the turn is published, send them again "
                               "from your page: %(link)s"), link=part.link), ""]
    return Letter(part.to, subject[:200], "\n".join(lines))
