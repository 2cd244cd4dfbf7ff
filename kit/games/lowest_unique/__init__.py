"""Lowest Unique Number: the game as one package.

Four folders by role: ``rules/`` (pure scoring, and the game log ``kit report`` reads and the
console builds: ``log``, with ``checks`` and ``lines`` finding every problem and its line),
``sheets/`` (the printed kit), ``report/`` (the report folder, text and CSV) and ``console/``
(its part of the game-night console); ``options`` (its own settings) and ``templates/`` (its
prose pages) sit beside them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ...game import GameSpec, KitConfig
from . import options, rules

if TYPE_CHECKING:
    from ...plan import KitPlan


# The planner and the report code load when a kit of this game is made or reported, not
# whenever the games are listed (every command lists them).
def _plan(config: KitConfig) -> KitPlan:
    from .planner import plan

    return plan(config)


def _check_config(config: KitConfig) -> None:
    from .planner import check_config

    check_config(config)


GAME = GameSpec(
    name=rules.NAME,
    title=rules.TITLE,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    default_players=8,
    default_range=lambda players: rules.DEFAULT_RANGE,
    plan=_plan,
    options=options.OPTIONS,
    settings=options.Settings,
    check_config=_check_config,
    templates=Path(__file__).parent / "templates",
    console=f"{__name__}.console:CONSOLE",  # imported when the console asks for it
    report=f"{__name__}.report.reports:REPORT",
)
