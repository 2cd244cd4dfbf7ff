"""The registry of games: the only place that lists them; everything else looks them up here."""

from __future__ import annotations

from pathlib import Path

from .errors import ConfigError, Msg, quoted
from .game import GameSpec
from .games import lowest_unique, whats_my_number
from .i18n import N_
from .options import COMMON, Option

GAMES: dict[str, GameSpec] = {game.name: game for game in (lowest_unique.GAME,
                                                           whats_my_number.GAME)}


def game_spec(name: str) -> GameSpec:
    try:
        return GAMES[name]
    except KeyError:
        raise ConfigError("game", Msg(N_("unknown game “%(got)s”; choose one of: %(games)s"),
                                      got=quoted(name), games=", ".join(GAMES))) from None


def template_folders() -> dict[str, Path]:
    """Each registered game's own templates folder by its package name, read when asked for
    (so a game registered later is found too)."""
    return {g.package: g.templates for g in GAMES.values() if g.templates is not None}


def all_options() -> list[tuple[Option, tuple[str, ...]]]:
    """Every option once, with the games it belongs to (empty: every game)."""
    found: dict[str, tuple[Option, list[str]]] = {o.key: (o, []) for o in COMMON}
    for name, spec in GAMES.items():
        for option in spec.options:
            found.setdefault(option.key, (option, []))[1].append(name)
    return [(option, tuple(games)) for option, games in found.values()]


def options_table() -> str:
    """The README's config reference, from the declarations (a test keeps them in step)."""
    rows = ["| key | default | accepts | meaning |", "| --- | --- | --- | --- |",
            "| `game` | (required in a file) | " + " or ".join(f"`{g}`" for g in GAMES)
            + " | which game the kit is for |"]
    for option, games in all_options():
        default = option.default
        shown_default = ("off" if isinstance(default, bool) and not default else
                         "none" if default in (None, "", ()) else f"`{default}`")
        only = f" ({', '.join(games)} only)" if games else ""
        rows.append(f"| `{option.key}` | {shown_default} | {option.type.describe} | "
                    f"{option.help}{only} |")
    return "\n".join(rows) + "\n"
