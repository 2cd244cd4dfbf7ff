"""What the console prints and mails to each player of a What's My Number? game: each player's
card with their private link as a QR code and address (``player_cards``), beside their
secret-number slip when the players choose their own numbers (made on a game master's request
only: the links are opened with the GM token, ``kit.console.mail.book``; never stored), and a
published turn's private slip of each player for their letter (the text their own view gives,
``slips.slip_lines``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....i18n import N_, words
from ....layout.pdf import PdfPage, draw
from ....paper import paper
from .. import rules
from ..report.slips import slip_lines
from ..sheets import player_cards
from ..sheets.people import Person, labels
from .create import CHOSEN_BY_PLAYERS
from .state import Turns, handed_out, play

SHEET = N_("Secret-number slips with each player’s link")
CARDS = N_("Each player’s card with their link")


def secrets_known(facts: Mapping[str, Any]) -> bool:
    """Whether the console holds every secret from the start (drawn, or typed by the game
    master), so that no player writes one on paper."""
    return facts.get("secrets_by") != CHOSEN_BY_PLAYERS


def link_sheet(facts: Mapping[str, Any], links: Mapping[str, str]) -> bytes:
    """Each player of ``facts``: their card to keep with their link in ``links`` (by name),
    and their slip to hand over when they choose their own number, as a PDF."""
    w = words(str(facts["lang"]))
    sheet = paper(str(facts["paper"]))
    names = list(facts["players"])
    players = [(Person(i, letter, "" if name == letter else name), links.get(name))
               # a count's labels are printed once, as the letter
               for i, (letter, name) in enumerate(zip(labels(len(names), w), names,
                                                      strict=True))]
    low, high = facts["range"]
    known = secrets_known(facts)
    pages = player_cards.card_pages(sheet, players, (int(low), int(high)), known, w)
    title = w.gettext(CARDS if known else SHEET)
    return draw([PdfPage(sheet.width_mm, sheet.height_mm, (), tuple(items))
                 for items in pages], title, w.lang)


def turn_slips(state: Turns, facts: Mapping[str, Any], turn: int) -> dict[str, str]:
    """Each player's own slip of handed-out turn ``turn``, as their view's ``"slips"`` gives
    it: the game played once for every letter of a publish, not once a player."""
    data = handed_out(state)
    if not 1 <= turn <= state.published:
        return {}
    result = play(data)
    if turn > len(result.turns):
        return {}
    log = rules.parse_game_log({k: v for k, v in data.items() if k != "published"})
    w = words(str(facts.get("lang", "en")))
    report = result.turns[turn - 1]
    return {player: "\n".join(text for text, _ in slip_lines(log, report, player, w))
            for player in state.players}
