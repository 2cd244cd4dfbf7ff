"""What a game is given (a validated ``KitConfig``) and what it provides (a ``GameSpec``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ConfigError, Msg, Quote
from .i18n import N_, Words, words
from .options import Option

if TYPE_CHECKING:
    from .plan import KitPlan


@dataclass(frozen=True)
class KitConfig:
    """A validated kit request. Build steps read it and never change it."""

    game: str
    players: int
    names: tuple[str, ...]  # empty when the host gave only a count
    paper: str
    range: tuple[int, int]
    custom_range: bool
    settings: object = field(default=None)  # the game's own options (its ``Settings``)
    title: str = ""
    date: str = ""
    out: str = "build"
    tables: int | None = None  # as asked for; ``sizes`` holds the seating that resulted
    shuffle: int | None = None
    sizes: tuple[int, ...] = ()  # players at each table; one entry for a single table
    table: int = 0  # 0: the whole party; 1..table_count: one table of it
    party: str = ""  # a batch party's name, used as its folder name
    lang: str = "en"  # the language of every page

    @property
    def table_count(self) -> int:
        return max(1, len(self.sizes))

    @property
    def table_label(self) -> str:
        """"Table 2 of 3" for one table of a split party, else empty."""
        if not self.table:
            return ""
        return self.words.gettext("Table %(table)s of %(tables)s", table=self.table,
                                  tables=self.table_count)

    @property
    def folder_name(self) -> str:
        if self.party:
            return self.party
        name = f"{self.game}-{self.players}p-{self.paper}"
        if self.tables is not None and self.table_count > 1:
            name += f"-{self.table_count}tables"
        if self.custom_range:
            name += f"-range{self.range[0]}-{self.range[1]}"
        if self.lang != "en":
            name += f"-{self.lang}"
        return name

    @property
    def words(self) -> Words:
        """The kit's language: its words and formats."""
        return words(self.lang)

    @property
    def range_text(self) -> str:
        return self.words.gettext("%(lo)s to %(hi)s", lo=self.range[0], hi=self.range[1])


@dataclass(frozen=True)
class GameReport:
    """How ``kit report`` handles a game's log: read it, lay it out, or print it as text."""

    parse: Callable[..., object]  # TOML data (, strict=True) -> a checked log; Problems
    # log, config (, turn=N, amendments=(...)) -> the report folder's plan
    plan: Callable[..., KitPlan]
    text: Callable[..., str]  # log, language (, turn=N) -> Markdown
    # The log below is the game's own type, as ``parse`` returns it.
    csv: Callable[[Any], str] | None = None  # log -> CSV text (``--format csv``)
    # Games reported turn by turn (``--turn N``, published turns): the turns a log reports,
    # each turn's snapshot (``kit.published``), and the one-line summary of a turn.
    turns: Callable[[Any], int] | None = None
    snapshots: Callable[[Any], Mapping[int, Mapping]] | None = None
    summary: Callable[[Any, int, Words], str] | None = None
    slips: Callable[[Any, Words, int], str] | None = None  # a turn's private slips as text
    strict: bool = False  # ``parse`` takes ``strict=True`` (house rulings become errors)


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
    options: tuple[Option, ...] = ()  # the game's own options, beside kit.options.COMMON
    settings: Callable[..., object] = dict  # builds KitConfig.settings from those options
    check_config: Callable[[KitConfig], None] = lambda config: None
    # True: a party over max_players sits at several tables by itself. False: the rules set no
    # cap, so a big group stays one game unless the host asks for --tables explicitly.
    splits_large_parties: bool = True
    players_note: str = ""  # why the limits are what they are, when the rules do not say
    templates: Path | None = None  # the game's own templates, named "<package>/<file>"
    report: GameReport | None = None  # its game log, when ``kit report`` takes one

    @property
    def package(self) -> str:
        """The name its templates go by: "lowest_unique" for "lowest-unique"."""
        return self.name.replace("-", "_")

    def check_players(self, players: int | None, given: object = None) -> None:
        """Raise the game's own message unless ``players`` is a count it allows."""
        top = self.max_players
        if players is None or players < self.min_players or (top is not None and players > top):
            got = str(players) if players is not None else Quote(str(given))
            game, lo = Msg(self.title), self.min_players
            if self.players_note:
                raise ConfigError("players", Msg(N_("%(game)s kits are made for %(lo)s to "
                                                    "%(hi)s players (%(note)s); got %(got)s"),
                                                 game=game, lo=lo, hi=top or lo, got=got,
                                                 note=Msg(self.players_note)))
            if top is None:
                raise ConfigError("players", Msg(N_("%(game)s needs at least %(lo)s players; "
                                                    "got %(got)s"), game=game, lo=lo, got=got))
            raise ConfigError("players", Msg(N_("%(game)s needs %(lo)s to %(hi)s players per "
                                                "table; got %(got)s"),
                                             game=game, lo=lo, hi=top, got=got))
