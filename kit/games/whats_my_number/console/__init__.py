"""What's My Number?'s part of the game-night console, as ``kit.game.ConsoleGame`` declares it:
``create`` (a new game, an imported log), ``state`` (the state, its entries and its three
views), ``player`` and ``player_page`` (a player's own link), ``start`` (the start page's form,
the public board), ``pages`` (the game master's grid) and ``slips`` (what is printed and mailed
to each player); the pages are ``templates/console/``."""

from __future__ import annotations

from ....game import ConsoleGame
from ....i18n import N_
from . import (
               choosing,
               create,
               limits,
               pages,
               player,
               player_page,
               report_pages,
               slips,
               start,
               state,
)

CONSOLE = ConsoleGame(
    spec_keys=create.SPEC_KEYS,
    create=create.create,
    imported=create.imported,
    entries=state.ENTRIES + player.ENTRIES + choosing.ENTRIES,
    apply=state.apply,
    export=state.export,
    gm_view=state.gm_view,
    public_view=state.public_view,
    player_view=player.player_view,
    start=start.START,
    gm_page=pages.gm_page,
    forms=pages.FORMS,
    board=start.board,
    report_names={"turn-reports": N_("Turn reports"), "erratum": N_("Erratum"),
                  "private-slips": N_("Private slips for each player"),
                  "gm-register": N_("Game master register")},
    first_report="turn-reports.pdf",
    private_reports=state.PRIVATE_FILES,
    token_seats=create.token_seats,
    limits=limits.log_limits,
    player_page=player_page.player_page,
    player_files=True,
    player_form=player_page.player_form,
    player_text=player_page.player_text,
    player_echo=player_page.player_echo,
    link_sheet=slips.link_sheet,
    turn_slips=slips.turn_slips,
    report_pages=report_pages.report_pages,
)
