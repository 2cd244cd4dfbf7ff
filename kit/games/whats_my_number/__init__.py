"""What's My Number? (a game by Allan Stagg, 2000): the game as one package.

Four folders by role: ``rules/`` (the pure engine, its game log and its check, no rendering),
``sheets/`` (the printed kit), ``report/`` (the filled reports of ``kit report``) and
``console/`` (its part of the game-night console); ``options`` (its own settings) and
``templates/`` (its prose pages) sit beside them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...game import GameReport, GameSpec
from . import options, planner, rules
from .report import report_plan


def _resume(data: Mapping[str, Any], kept: object = None) -> object:
    """The engine's running check of a log (``console.record.resume``), imported when first
    used: importing it here would load the whole console part with every kit build."""
    from .console.record import resume

    return resume(data, kept)


GAME = GameSpec(
    name=rules.NAME,
    title=rules.TITLE,
    min_players=rules.MIN_PLAYERS,
    max_players=options.MAX_PLAYERS,
    default_players=6,
    default_range=rules.default_range,
    plan=planner.plan,
    options=options.OPTIONS,
    settings=options.Settings,
    check_config=planner.check_config,
    splits_large_parties=False,  # the rules set no cap: a big group stays one game
    players_note="the game needs at least 4; the upper limit is the kit's, the rules set none",
    templates=Path(__file__).parent / "templates",
    console=f"{__name__}.console:CONSOLE",  # imported when the console asks for it
    report=GameReport(parse=rules.parse_game_log, plan=report_plan.plan_report,
                      text=report_plan.text_report, csv=report_plan.csv_text,
                      turns=report_plan.turn_count, snapshots=report_plan.turn_snapshots,
                      summary=report_plan.summary, slips=report_plan.slips_text,
                      strict=True, resume=_resume),
)
