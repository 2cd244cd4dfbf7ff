"""What a game provides: a ``GameSpec`` (its limits, its kit's planner, its options) and a
``GameReport`` (its log for ``kit report``)."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from ..errors import ConfigError, Msg, Quote
from ..i18n import N_, Words
from ..options import Option
from .config import KitConfig
from .console import ConsoleGame

if TYPE_CHECKING:
    from ..plan import KitPlan
    from ..published import Amendment


L = TypeVar("L")  # a game's checked log, as its ``parse`` returns it
L_out = TypeVar("L_out", covariant=True)
L_in = TypeVar("L_in", contravariant=True)


class ParseLog(Protocol[L_out]):
    """TOML data -> the game's checked log, or ``Problems`` naming every problem (``source``:
    the TOML text, so a problem names its line; ``strict``: the house rulings are errors)."""

    def __call__(self, data: Mapping[str, Any], *, source: str | None = None,
                 strict: bool = False) -> L_out: ...


class PlanTurns(Protocol[L_in]):
    """log, config -> the report folder's plan: every turn, or only ``turn``'s files; with the
    ``amendments`` recorded to published turns; ``player``: that player's own slips alone."""

    def __call__(self, log: L_in, config: KitConfig, *, turn: int | None = None,
                  amendments: Sequence[Amendment] = (), player: str | None = None
                  ) -> KitPlan: ...


class TextTurns(Protocol[L_in]):
    """log, language -> the reports as Markdown (only ``turn``'s, when given)."""

    def __call__(self, log: L_in, words: Words, turn: int | None = None) -> str: ...


class TurnSlips(Protocol[L_in]):
    """log, language, turn -> that turn's private slips as text, a block per player (or only
    ``player``'s)."""

    def __call__(self, log: L_in, words: Words, turn: int, player: str | None = None
                 ) -> str: ...


@dataclass(frozen=True)
class TurnReports(Generic[L]):
    """The reports of a game reported turn by turn (``kit report --turn N``, published
    turns): each replaces the whole-game hook of the same name."""

    plan: PlanTurns[L]
    text: TextTurns[L]
    turns: Callable[[L], int]  # the turns the log reports
    snapshots: Callable[[L], Mapping[int, Mapping[str, Any]]]  # each turn (``kit.published``)
    summary: Callable[[L, int, Words], str]  # the one-line summary of a turn
    slips: TurnSlips[L] | None = None  # a turn's private slips, when the game has them


@dataclass(frozen=True)
class GameReport(Generic[L]):
    """How ``kit report`` handles a game's log: read it, lay it out, or print it as text."""

    parse: ParseLog[L]
    plan: Callable[[L, KitConfig], KitPlan]  # log, config -> the report folder's plan
    text: Callable[[L, Words], str]  # log, language -> Markdown
    csv: Callable[[L], str] | None = None  # log -> CSV text (``--format csv``)
    by_turn: TurnReports[L] | None = None  # a game reported turn by turn
    strict: bool = False  # the game has house rulings that ``strict`` makes errors
    # (TOML data, an earlier result of it or None) -> ``parse``'s check, kept as a running
    # state: resumed from the earlier one, checking a log one turn longer costs that turn
    resume: Callable[[Mapping[str, Any], Any], object] | None = None


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
    # (Any: the registry holds games of every log type; each game's hooks agree on its own)
    report: GameReport[Any] | str | None = None
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

    def report_part(self) -> GameReport[Any] | None:
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
def _report_at(where: str) -> GameReport[Any]:
    """The ``GameReport`` named by "package.module:NAME"."""
    found = _imported(where)
    if not isinstance(found, GameReport):
        raise TypeError(f"{where} is not a GameReport")
    return found
