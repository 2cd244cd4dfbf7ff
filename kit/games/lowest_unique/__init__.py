"""Lowest Unique Number: the game as one package.

Four folders by role: ``rules/`` (pure scoring, and the game log ``kit report`` reads and the
console builds: ``log``, with ``checks`` and ``lines`` finding every problem and its line),
``sheets/`` (the printed kit), ``report/`` (the report folder, text and CSV) and ``console/``
(its part of the game-night console); ``options`` (its own settings) and ``templates/`` (its
prose pages) sit beside them.
"""

from __future__ import annotations

from pathlib import Path

from ...game import GameReport, GameSpec
from . import options, planner, rules
from .report import reports
from .rules import log

GAME = GameSpec(
    name=rules.NAME,
    title=rules.TITLE,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    default_players=8,
    default_range=lambda players: rules.DEFAULT_RANGE,
    plan=planner.plan,
    options=options.OPTIONS,
    settings=options.Settings,
    check_config=planner.check_config,
    templates=Path(__file__).parent / "templates",
    console=f"{__name__}.console:CONSOLE",  # imported when the console asks for it
    report=GameReport(parse=log.parse_party_log, plan=reports.plan_report,
                      text=reports.text_report, csv=reports.csv_report),
)
