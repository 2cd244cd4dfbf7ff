"""What's My Number? (a game by Allan Stagg, 2000): the game as one package.

Four folders by role: ``rules/`` (the pure engine, its game log and its check, no rendering),
``sheets/`` (the printed kit), ``report/`` (the filled reports of ``kit report``) and
``console/`` (its part of the game-night console); ``options`` (its own settings) and
``templates/`` (its prose pages) sit beside them.
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
    max_players=options.MAX_PLAYERS,
    default_players=6,
    default_range=rules.default_range,
    plan=_plan,
    options=options.OPTIONS,
    settings=options.Settings,
    check_config=_check_config,
    splits_large_parties=False,  # the rules set no cap: a big group stays one game
    players_note="the game needs at least 4; the upper limit is the kit's, the rules set none",
    templates=Path(__file__).parent / "templates",
    console=f"{__name__}.console:CONSOLE",  # imported when the console asks for it
    report=f"{__name__}.report.report_plan:REPORT",
)
