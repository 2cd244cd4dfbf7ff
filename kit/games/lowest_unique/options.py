"""Lowest Unique Number's own options: declared once for the config, the flags and the form."""

from __future__ import annotations

from dataclasses import dataclass

from ...game import KitConfig
from ...options import Flag, IntRange, Option
from . import rules

MAX_ROUNDS = 12  # every round's row must fit the tally and the score sheet


@dataclass(frozen=True)
class Settings:
    """The game's own options, as ``KitConfig.settings``."""

    rounds: int = rules.DEFAULT_ROUNDS
    spare_slips: int | None = None  # per table; None: one round's worth (see ``spares``)
    cooperative: bool = False
    sudden_death_announced: bool = False
    host_plays: bool = False


OPTIONS = (
    Option("rounds", IntRange(1, MAX_ROUNDS), rules.DEFAULT_ROUNDS,
           f"rounds in the game (1 to {MAX_ROUNDS})", "N"),
    Option("spare_slips", IntRange(0, 3 * rules.MAX_PLAYERS), None, "spare slips for replayed "
           "rounds, 0 to three rounds' worth (default: one round's worth, one per player)", "N"),
    Option("cooperative", Flag(), False, "print the cooperative variant (no scores; aim for "
           "exactly one single each round)"),
    Option("sudden_death_announced", Flag(), False, "a sudden-death round was announced "
           "before round one: print its rule"),
    Option("host_plays", Flag(), False, "the host plays too: print how the host locks their "
           "own slip first"),
)


def settings(config: KitConfig) -> Settings:
    assert isinstance(config.settings, Settings)
    return config.settings


def spares(config: KitConfig) -> int:
    """Spare slips for this table: as configured, or one round's worth."""
    given = settings(config).spare_slips
    return config.players if given is None else given
