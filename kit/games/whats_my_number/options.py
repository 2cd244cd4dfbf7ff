"""What's My Number?'s own options: declared once for the config, the flags and the form."""

from __future__ import annotations

from dataclasses import dataclass

from ...game import KitConfig
from ...options import IntRange, Option

MAX_PLAYERS = 30  # the kit's cap, not the rules' (they set none)
MAX_TURNS = 30


@dataclass(frozen=True)
class Settings:
    """The game's own options, as ``KitConfig.settings``."""

    turns: int = 8


OPTIONS = (Option("turns", IntRange(1, MAX_TURNS), 8, "turns to print order forms and "
                  f"report grids for (1 to {MAX_TURNS})", "N"),)


def turns(config: KitConfig) -> int:
    assert isinstance(config.settings, Settings)
    return config.settings.turns
