"""What the console prints and mails to each player of a What's My Number? game: the kit's
secret-number slips (``number_slips``), each with its player's private link as a QR code and
address on its flap (made on a game master's request only: the links are opened with the GM
token, ``kit.mail.book``; never stored), and a published turn's private slip of each player
for their letter (the text their own view gives, ``slips.slip_lines``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....i18n import N_, words
from ....layout.pdf import PdfPage, draw
from ....paper import paper
from .. import rules
from ..report.slips import slip_lines
from ..sheets import number_slips
from ..sheets.people import Person, labels
from .state import Turns, handed_out, play

SHEET = N_("Secret-number slips with each player’s link")


def link_sheet(facts: Mapping[str, Any], links: Mapping[str, str]) -> bytes:
    """The slips of every player of ``facts`` as a PDF; a player in ``links`` gets theirs."""
    w = words(str(facts["lang"]))
    sheet = paper(str(facts["paper"]))
    names = list(facts["players"])
    people = [Person(i, letter, "" if name == letter else name)  # a count's labels: once
              for i, (letter, name) in enumerate(zip(labels(len(names), w), names,
                                                     strict=True))]
    low, high = facts["range"]
    pages = number_slips.slip_pages(sheet, people, (int(low), int(high)), w, links)
    title = w.gettext(SHEET)
    return draw([PdfPage(sheet.width_mm, sheet.height_mm, (), tuple(items))
                 for _label, items in pages], title, w.lang)


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
