"""What a game provides: a ``GameSpec`` (its limits, its kit's planner, its options) and a
``GameReport`` (its log for ``kit report``)."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError, Msg, Quote
from ..i18n import N_, Words
from ..options import Option
from .config import KitConfig
from .console import ConsoleGame

if TYPE_CHECKING:
    from ..plan import KitPlan


@dataclass(frozen=True)
class GameReport:
    """How ``kit report`` handles a game's log: read it, lay it out, or print it as text."""

    # These hooks take the game's own log type, and keywords that only some games take (a game
    # reported turn by turn takes ``turn=``): loose callables until the turn-reported hooks
    # are a typed group of their own.
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
    # a turn's private slips as text (log, words, turn, player=None: that player's alone);
    # a game with them takes ``player=`` in ``plan`` too (that player's own slips alone)
    slips: Callable[..., str] | None = None
    strict: bool = False  # ``parse`` takes ``strict=True`` (house rulings become errors)
    # (TOML data, an earlier result of it or None) -> ``parse``'s check, kept as a running
    # state: resumed from the earlier one, checking a log one turn longer costs that turn
    resume: Callable[[Any, Any], object] | None = None


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
    # builds KitConfig.settings from those options, as keywords only known at run time
    settings: Callable[..., object] = dict
    check_config: Callable[[KitConfig], None] = lambda config: None
    # True: a party over max_players sits at several tables by itself. False: the rules set no
    # cap, so a big group stays one game unless the host asks for --tables explicitly.
    splits_large_parties: bool = True
    players_note: str = ""  # why the limits are what they are, when the rules do not say
    templates: Path | None = None  # the game's own templates, named "<package>/<file>"
    # its game log, when ``kit report`` takes one: the ``GameReport``, or where it is
    # ("package.module:NAME"), imported when a report is first asked for
    report: GameReport | str | None = None
    # its game-night console part, when it has one: the ``ConsoleGame``, or where it is
    # ("package.module:NAME"), imported when the console first asks (never by ``kit build``)
    console: ConsoleGame | str | None = None

    @property
    def package(self) -> str:
        """The name its templates go by: "lowest_unique" for "lowest-unique"."""
        return self.name.replace("-", "_")

    def console_part(self) -> ConsoleGame | None:
        """Its console part, imported on first use when ``console`` says where it is."""
        return _console_at(self.console) if isinstance(self.console, str) else self.console

    def report_part(self) -> GameReport | None:
        """How ``kit report`` reads its log, imported on first use when ``report`` says where
        it is."""
        return _report_at(self.report) if isinstance(self.report, str) else self.report

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


def _imported(where: str) -> object:
    """The object named by "package.module:NAME"."""
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name, None)


@functools.cache
def _console_at(where: str) -> ConsoleGame:
    """The ``ConsoleGame`` named by "package.module:NAME"."""
    found = _imported(where)
    if not isinstance(found, ConsoleGame):
        raise TypeError(f"{where} is not a ConsoleGame")
    return found


@functools.cache
def _report_at(where: str) -> GameReport:
    """The ``GameReport`` named by "package.module:NAME"."""
    found = _imported(where)
    if not isinstance(found, GameReport):
        raise TypeError(f"{where} is not a GameReport")
    return found
