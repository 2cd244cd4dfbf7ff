"""Lowest Unique Number's part of the game-night console, as ``kit.game.ConsoleGame`` declares
it: ``console_state`` (a new party, its state, its entry and its three views),
``console_start`` (the start page's form, the public boards), ``console_host`` (the host's
per-table rounds) and ``console_sheets`` (the tally sheets with each table's link); the pages
are ``templates/console/``."""

from __future__ import annotations

from ...game import ConsoleGame, SeatSheet
from ...i18n import N_
from . import console_host, console_sheets, console_start, console_state

CONSOLE = ConsoleGame(
    spec_keys=console_state.SPEC_KEYS,
    create=console_state.create,
    imported=console_state.imported,
    entries=console_state.ENTRIES,
    apply=console_state.apply,
    export=console_state.export,
    gm_view=console_state.gm_view,
    public_view=console_state.public_view,
    player_view=console_state.player_view,
    start=console_start.START,
    gm_page=console_host.gm_page,
    forms=console_host.FORMS,
    board=console_start.board,
    report_names={"results": N_("Results")},
    first_report="results.pdf",
    named_reports=("results.html", "results.pdf"),  # they change with every round
    limits=console_state.log_limits,
    token_seats=console_state.token_seats,
    table_page=console_host.table_page,
    table_forms=console_host.TABLE_FORMS,
    seat_sheets={"tally-sheets.pdf": SeatSheet("table", console_sheets.SHEET,
                                               console_sheets.tally_sheets)},
)
