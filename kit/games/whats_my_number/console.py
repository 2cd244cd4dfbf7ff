"""What's My Number?'s part of the game-night console, as ``kit.game.ConsoleGame`` declares it:
``console_create`` (a new game, an imported log), ``console_state`` (the state, its entries
and its three views), ``console_start`` (the start page's form, the public board) and
``console_pages`` (the game master's grid); the pages are ``templates/console/``."""

from __future__ import annotations

from ...game import ConsoleGame
from ...i18n import N_
from . import (
    console_create,
    console_limits,
    console_pages,
    console_player,
    console_player_page,
    console_report_pages,
    console_slips,
    console_start,
    console_state,
)

CONSOLE = ConsoleGame(
    spec_keys=console_create.SPEC_KEYS,
    create=console_create.create,
    imported=console_create.imported,
    entries=console_state.ENTRIES + console_player.ENTRIES,
    apply=console_state.apply,
    export=console_state.export,
    gm_view=console_state.gm_view,
    public_view=console_state.public_view,
    player_view=console_player.player_view,
    start=console_start.START,
    gm_page=console_pages.gm_page,
    forms=console_pages.FORMS,
    board=console_start.board,
    report_names={"turn-reports": N_("Turn reports"), "erratum": N_("Erratum"),
                  "private-slips": N_("Private slips for each player"),
                  "gm-register": N_("Game master register")},
    first_report="turn-reports.pdf",
    private_reports=console_state.PRIVATE_FILES,
    token_seats=console_create.token_seats,
    limits=console_limits.log_limits,
    player_page=console_player_page.player_page,
    player_files=True,
    player_form=console_player_page.player_form,
    player_text=console_player_page.player_text,
    link_sheet=console_slips.link_sheet,
    turn_slips=console_slips.turn_slips,
    report_pages=console_report_pages.report_pages,
)
