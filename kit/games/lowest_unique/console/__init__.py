"""Lowest Unique Number's part of the game-night console, as ``kit.game.ConsoleGame`` declares
it: ``state`` (a new party, its state, its entry and its three views), ``start`` (the start
page's form, the public boards), ``host`` (the host's per-table rounds) and ``tally_sheets``
(the tally sheets with each table's link); the pages are ``templates/console/``."""

from __future__ import annotations

from ....game import ConsoleGame, SeatSheet
from ....i18n import N_
from . import host, start, state, tally_sheets

CONSOLE = ConsoleGame(
    spec_keys=state.SPEC_KEYS,
    create=state.create,
    imported=state.imported,
    entries=state.ENTRIES,
    apply=state.apply,
    export=state.export,
    gm_view=state.gm_view,
    public_view=state.public_view,
    player_view=state.player_view,
    start=start.START,
    gm_page=host.gm_page,
    forms=host.FORMS,
    board=start.board,
    report_names={"results": N_("Results")},
    first_report="results.pdf",
    named_reports=("results.html", "results.pdf"),  # they change with every round
    limits=state.log_limits,
    token_seats=state.token_seats,
    table_page=host.table_page,
    table_forms=host.TABLE_FORMS,
    seat_sheets={"tally-sheets.pdf": SeatSheet("table", tally_sheets.SHEET,
                                               tally_sheets.tally_sheets)},
)
