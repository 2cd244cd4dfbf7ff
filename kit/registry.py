"""The registry of games: the only place that lists them; everything else looks up by name."""

from __future__ import annotations

from .errors import ConfigError
from .game import GameSpec
from .pages import lowest_unique, whats_my_number

GAMES: dict[str, GameSpec] = {
    spec.name: spec for spec in (lowest_unique.SPEC, whats_my_number.SPEC)
}


def game_spec(name: str) -> GameSpec:
    try:
        return GAMES[name]
    except KeyError:
        raise ConfigError(
            "game", f"unknown game {name!r}; choose one of: {', '.join(GAMES)}"
        ) from None
