"""The page plan: what a kit contains, as plain data, before any HTML exists."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .errors import ConfigError

if TYPE_CHECKING:
    from .config import KitConfig


@dataclass(frozen=True)
class Page:
    """One printed page: which template draws it and the data it shows."""

    template: str
    label: str  # e.g. "Slips 2 of 6"; printed in the footer and used in the print guide
    context: Mapping[str, object] = field(default_factory=dict)
    audience: str = "player"  # "player" pages carry the scale ruler; "host" pages say host only
    headed: bool = True  # slip pages give the header's room to the slips
    landscape: bool = False  # turned sideways (e.g. a wide turn-report grid)


@dataclass(frozen=True)
class Document:
    """One output file pair (``<stem>.pdf`` and ``<stem>.html``)."""

    stem: str
    title: str
    pages: tuple[Page, ...]

    @property
    def audience(self) -> str:
        """"host" when every page is for the host (one file per party), else "player"."""
        return "host" if all(p.audience == "host" for p in self.pages) else "player"


@dataclass(frozen=True)
class KitPlan:
    """Everything a kit folder will hold."""

    folder: str
    game_title: str
    documents: tuple[Document, ...]
    banner: str  # the range and limits line shown large on player pages
    styles: tuple[str, ...] = ()  # extra CSS templates for this game, after print.css


def kit_plan(config: KitConfig, title: str, banner: str, player_pages: Sequence[Page],
             host_pages: Sequence[Page], styles: tuple[str, ...] = ()) -> KitPlan:
    """The usual kit: a player file and a separate host file."""
    return KitPlan(
        folder=config.folder_name,
        game_title=title,
        banner=banner,
        documents=(
            Document("player-kit", f"{title} — player kit", tuple(player_pages)),
            Document("host-answers", f"{title} — host answers", tuple(host_pages)),
        ),
        styles=styles,
    )


@dataclass(frozen=True)
class GameSpec:
    """A registered game: its limits, its rule-given range, and its page planner."""

    name: str
    title: str
    min_players: int
    max_players: int | None  # per table (or the kit's limit, when it does not split)
    default_players: int
    default_range: Callable[[int], tuple[int, int]]
    plan: Callable[[KitConfig], KitPlan]
    check_config: Callable[[KitConfig], None] = lambda config: None
    # True: a party over max_players sits at several tables by itself. False: the rules set no
    # cap, so a big group stays one game unless the host asks for --tables explicitly.
    splits_large_parties: bool = True

    def check_players(self, players: int | None, given: object = None) -> None:
        """Raise the game's own message unless ``players`` is a count it allows."""
        top = self.max_players
        if players is None or players < self.min_players or (top is not None and players > top):
            allowed = (f"{self.min_players} to {top}" if top is not None
                       else f"at least {self.min_players}")
            more = " per table" if top is not None else ""
            raise ConfigError(
                "players", f"{self.name} needs {allowed} players{more}; "
                f"got {players if players is not None else repr(given)}"
            )
