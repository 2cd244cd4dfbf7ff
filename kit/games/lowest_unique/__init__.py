"""Lowest Unique Number: the game as one package.

``rules`` (pure scoring), ``options`` (its own settings), ``planner`` and ``forms`` (its
pages), ``log`` (the game log ``kit report`` reads and the console builds; ``checks`` and
``lines`` find every problem and its line), ``reports`` (the report folder, text and CSV),
``templates/`` (its prose pages).
"""

from __future__ import annotations

from pathlib import Path

from ...game import GameReport, GameSpec
from . import console, log, options, planner, reports, rules

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
    console=console.CONSOLE,
    report=GameReport(parse=log.parse_party_log, plan=reports.plan_report,
                      text=reports.text_report, csv=reports.csv_report),
)
