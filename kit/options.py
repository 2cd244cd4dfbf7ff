"""The one table of kit options: names, defaults and help, shared by the config loader and CLI.

An option with ``games`` set belongs to those games only; giving it for another game is an error
rather than something silently ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

from .games.lowest_unique import NAME as LUN
from .games.whats_my_number import NAME as WMN


@dataclass(frozen=True)
class Option:
    """One config key (``snake_case``) and its command-line flag (``--kebab-case``)."""

    key: str
    kind: str  # "int", "str", "bool", "names", "range", "choice"
    default: object
    help: str
    choices: tuple[str, ...] = ()
    games: tuple[str, ...] = ()  # empty: every game
    metavar: str | None = None

    @property
    def flag(self) -> str:
        return "--" + self.key.replace("_", "-")


PAPERS = ("a4", "letter")
NAME_MAX = 24
TITLE_MAX = 60

# Defaults that depend on the game or the player count are None here and computed by the game.
OPTIONS: tuple[Option, ...] = (
    Option("game", "choice", None, "which game the kit is for"),
    Option("players", "int", None, "number of players at the table (default: the game's own)",
           metavar="N"),
    Option("names", "names", (), "player names, comma-separated on the command line "
           f"(1 to {NAME_MAX} characters each); sets the player count", metavar="A,B,C"),
    Option("paper", "choice", "a4", "paper size", choices=PAPERS),
    Option("range", "range", None, "an announced custom number range LO-HI, printed on every "
           "player page (default: the game's rule)", metavar="LO-HI"),
    Option("title", "str", "", f"event title printed small on every page (up to {TITLE_MAX} "
           "characters)", metavar="TEXT"),
    Option("date", "str", "", "event date printed small on every page, as you write it",
           metavar="TEXT"),
    Option("tables", "int", None, "split the party over exactly this many tables (default: "
           "the fewest that fit, for games with a per-table limit)", metavar="K"),
    Option("shuffle", "int", None, "seat the named players at tables in a shuffled order, "
           "repeatable with the same SEED (default: in the order given)", metavar="SEED"),
    Option("out", "str", "build", "folder the kit folders are written into", metavar="DIR"),
    Option("rounds", "int", 5, "rounds in the game (1 to 12)", games=(LUN,),
           metavar="N"),
    Option("spare_slips", "int", None, "spare slips for replayed rounds, 0 to three rounds' "
           "worth (default: one round's worth, one per player)", games=(LUN,),
           metavar="N"),
    Option("cooperative", "bool", False, "print the cooperative variant (no scores; aim for "
           "exactly one single each round)", games=(LUN,)),
    Option("sudden_death_announced", "bool", False, "a sudden-death round was announced before "
           "round one: print its rule", games=(LUN,)),
    Option("host_plays", "bool", False, "the host plays too: print how the host locks their own "
           "slip first", games=(LUN,)),
    Option("turns", "int", 8, "turns to print order forms and report grids for (1 to 30)",
           games=(WMN,), metavar="N"),
)

OPTIONS_BY_KEY = {o.key: o for o in OPTIONS}
