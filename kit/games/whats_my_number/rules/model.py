"""What's My Number?: the data of a game log and of its turn reports, and the game's setup.

No rules are applied here (``engine``) and no log is read (``logfile``): these are the frozen
records both hand around, plus the small checks every one of them needs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, TypeGuard

from ....errors import SHOWN_MAX, ConfigError, GameLogError, Msg, Problems, escaped, ngettext
from ....i18n import N_
from ....options import parse_range

NAME = "whats-my-number"
TITLE = N_("What's My Number?")  # translated where shown (``people.title``)
AUTHOR = "Allan Stagg"
YEAR = 2000
# The credit names the game, its author and its year (``people.credit``): the author's name and
# the year are placeholders, so every language keeps them.
CREDIT = N_("%(game)s — a game by %(author)s (%(year)s)")
MIN_PLAYERS = 4
BASE_GUESSES = 2
MAX_LABEL_LENGTH = 24
# Caps of a game log: far past any real game, small enough that a report stays quick.
MAX_LOG_PLAYERS = 100
MAX_LOG_TURNS = 200
MAX_NUMBER = 999  # three digits fit every box on every page

HIGHER = "H"
LOWER = "L"
HIT = "✓"
NO_INFO = "X"
NO_ANSWER = ""  # every cell of a void or ignored guess: it gets no answers
# a line of the slip left blank before a later guess (a log's "" in the guesses): it keeps the
# later guesses' places (the tie rule counts places) and makes no row of the report
BLANK = ""

TOP_LEVEL_KEYS = ("game", "title", "players", "range", "secrets", "published", "turn")


# --- small helpers -------------------------------------------------------------------------------


def is_int(value: object) -> TypeGuard[int]:
    # bool is a subclass of int, but ``true`` is never a number in a game log.
    return isinstance(value, int) and not isinstance(value, bool)


def show(value: object) -> str:
    """A bad value the way the user typed it in TOML: escaped, and short, for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + escaped(value if len(value) <= SHOWN_MAX else value[:SHOWN_MAX] + "…") + '"'
    text = escaped(repr(value))
    return text if len(text) <= SHOWN_MAX else text[:SHOWN_MAX] + "…"


def join(labels: Sequence[str]) -> str:
    return ", ".join(labels)


def order_field(turn: int, label: str) -> Msg:
    """The field of a player's orders: "turn 3, player Eve" (a page says it in its language)."""
    return Msg(N_("turn %(turn)s, player %(player)s"), turn=turn, player=label)


def turn_field(turn: int) -> Msg:
    """The field of a whole turn: "turn 3"."""
    return Msg(N_("turn %(turn)s"), turn=turn)


def needs_players(count: object) -> Msg:
    """"... players; What's My Number? needs at least 4" (``count``: a Msg or shown text)."""
    return Msg(N_("%(count)s; %(game)s needs at least %(min)s"), count=count, game=Msg(TITLE),
               min=MIN_PLAYERS)


# --- setup ---------------------------------------------------------------------------------------


def default_range(players: int) -> tuple[int, int]:
    """The range the rules suggest: 1 to 10 x (players - 1), e.g. 1-50 for six players."""
    if not is_int(players) or players < MIN_PLAYERS:
        raise ConfigError("players", needs_players(
            Msg(N_("%(count)s players"), count=show(players))))
    return (1, 10 * (players - 1))


def player_labels(count: int) -> list[str]:
    """Spreadsheet-style labels: A ... Z, then AA, AB, ... (bijective base 26)."""
    if not is_int(count) or count < 0:
        raise ConfigError("players", Msg(N_("%(got)s is not a player count (0 or more)"),
                                         got=show(count)))
    labels = []
    for index in range(1, count + 1):
        label = ""
        while index:
            index, rest = divmod(index - 1, 26)
            label = chr(ord("A") + rest) + label
        labels.append(label)
    return labels


def allowed_guesses(hits_last_turn: int) -> int:
    """Guesses a player may make this turn: 2, plus one bonus per hit in their previous turn."""
    if not is_int(hits_last_turn) or hits_last_turn < 0:
        raise ValueError(f"hits_last_turn must be a whole number >= 0, not {hits_last_turn!r}")
    return BASE_GUESSES + hits_last_turn


def check_players(players: object) -> tuple[str, ...]:
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise ConfigError("players", Msg(N_(
            'must be a list of labels like ["A", "B", "C", "D"], not %(got)s'), got=show(players)))
    if len(players) > MAX_LOG_PLAYERS:
        raise ConfigError("players", Msg(N_("%(count)s players listed; a game log takes at most "
                                            "%(max)s"), count=len(players), max=MAX_LOG_PLAYERS))
    for label in players:
        check_label(label)
    seen: set[str] = set()
    for label in players:
        if label in seen:
            raise ConfigError("players", Msg(N_('"%(label)s" is listed twice; player labels must '
                                                'be unique'), label=label))
        seen.add(label)
    if len(players) < MIN_PLAYERS:
        raise ConfigError("players", needs_players(ngettext(
            "%(num)s player listed", "%(num)s players listed", len(players))))
    return tuple(players)


def check_label(label: object) -> None:
    allowed = Msg(N_("labels are 1 to %(max)s characters, like A or Alice"),
                  max=MAX_LABEL_LENGTH)
    if not isinstance(label, str):
        raise ConfigError("players", Msg(N_("%(got)s is not a label; %(allowed)s"),
                                         got=show(label), allowed=allowed))
    if not label.strip():
        raise ConfigError("players", Msg(N_("an empty label is not allowed; %(allowed)s"),
                                         allowed=allowed))
    if len(label) > MAX_LABEL_LENGTH:
        raise ConfigError("players", Msg(N_('"%(label)s" is %(length)s characters long; '
                                            '%(allowed)s'), label=label, length=len(label),
                                         allowed=allowed))
    if label != label.strip():
        raise ConfigError("players", Msg(N_('"%(label)s" starts or ends with a space; '
                                            '%(allowed)s'), label=label, allowed=allowed))
    # A "|" or a line break would break the turn-report table the label is printed in.
    if "|" in label or any(not char.isprintable() for char in label):
        raise ConfigError("players", Msg(N_('"%(label)s" contains "|" or a control character; '
                                            '%(allowed)s, without those'), label=label,
                                         allowed=allowed))


def check_range(bounds: tuple[int, int], players: int) -> None:
    """A range (read by ``kit.options.parse_range``) must hold a number for every player."""
    lo, hi = bounds
    size = hi - lo + 1
    if size < players:
        lo_default, hi_default = default_range(players)
        raise ConfigError("range", Msg(N_(
            "%(lo)s-%(hi)s holds %(size)s, but %(players)s players need at least %(players)s, "
            "so the highest number must be at least %(least)s (the default for %(players)s "
            "players is %(lo_default)s-%(hi_default)s)"), lo=lo, hi=hi,
            size=ngettext("%(num)s number", "%(num)s numbers", size), players=players,
            least=lo + players - 1, lo_default=lo_default, hi_default=hi_default))


# --- the game log --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Guesses:
    """A player's guesses for one turn, in the order made; ``BLANK`` for a line left blank
    before a later guess (it keeps their places)."""

    numbers: tuple[int | str, ...]

    def as_written(self) -> tuple[int | str, ...]:
        """The lines up to the last one written (blank ones after it say nothing)."""
        written = self.written()
        return self.numbers[: written[-1][0]] if written else ()

    def written(self) -> list[tuple[int, int | str]]:
        """(place, guess) of every line written, blank ones left out."""
        return [(index, guess) for index, guess in enumerate(self.numbers, start=1)
                if guess != BLANK]

    def __post_init__(self) -> None:
        object.__setattr__(self, "numbers", tuple(self.numbers))


@dataclass(frozen=True)
class GuessList:
    """A player's list: one number for every other player (label -> number)."""

    entries: Mapping[str, int]

    def __post_init__(self) -> None:
        # Copy, so that a caller mutating their dict cannot change a frozen log.
        object.__setattr__(self, "entries", MappingProxyType(dict(self.entries)))


Orders = Guesses | GuessList


@dataclass(frozen=True)
class GameLog:
    """A whole game: who plays, the range, the secrets and every turn's orders.

    Construction checks the players, range and secrets; the turns are checked by :func:`play`,
    because whether orders are legal depends on what happened in earlier turns.
    """

    players: tuple[str, ...]
    range: tuple[int, int]
    secrets: Mapping[str, int]
    turns: tuple[Mapping[str, Orders], ...] = ()
    title: str = ""  # the game's own title ("Friday night"), printed on every report page

    def __post_init__(self) -> None:
        players = check_players(self.players)
        object.__setattr__(self, "players", players)
        given: object = self.range  # a pair, or as a log file gives it (a list, "LO-HI")
        bounds = parse_range("range", list(given) if isinstance(given, tuple) else given)
        check_range(bounds, len(players))
        object.__setattr__(self, "range", bounds)
        object.__setattr__(self, "secrets", check_secrets(self.secrets, players, bounds))
        object.__setattr__(
            self, "turns", tuple(MappingProxyType(dict(orders)) for orders in self.turns)
        )


def check_secrets(secrets: Mapping[str, object], players: tuple[str, ...],
                  bounds: tuple[int, int], every: bool = False) -> Mapping[str, int]:
    """The secrets, checked: one whole number in the range for every player. ``every``:
    raise every problem at once (``Problems``), not just the first."""
    lo, hi = bounds
    allowed = Msg(N_("secrets are whole numbers from %(lo)s to %(hi)s"), lo=lo, hi=hi)
    problems = [GameLogError(f"secrets.{label}", Msg(N_("%(name)s is not a player; players are "
                                                       "%(players)s"), name=label,
                                                    players=join(players)))
                for label in secrets if label not in players]
    checked: dict[str, int] = {}
    for label in players:
        value = secrets.get(label)
        if label not in secrets:
            problems.append(GameLogError(f"secrets.{label}", Msg(N_(
                "no secret number given; %(allowed)s"), allowed=allowed)))
        elif not is_int(value):
            problems.append(GameLogError(f"secrets.{label}", Msg(N_(
                "%(got)s is not a whole number; %(allowed)s"), got=show(value), allowed=allowed)))
        elif not lo <= value <= hi:
            problems.append(GameLogError(f"secrets.{label}", Msg(N_(
                "%(got)s is outside the range %(lo)s to %(hi)s; %(allowed)s"), got=value, lo=lo,
                hi=hi, allowed=allowed)))
        else:
            checked[label] = value
        if problems and not every:
            raise problems[0]
    if len(problems) > 1:
        raise Problems(problems)
    if problems:
        raise problems[0]
    return MappingProxyType(checked)


# --- turn reports --------------------------------------------------------------------------------

GuessStatus = Literal["ok", "void", "ignored"]
RulingKind = Literal["extra-guesses", "out-of-range", "partial-list", "no-orders"]
WinReason = Literal["list", "guesses"]


@dataclass(frozen=True)
class GuessRow:
    """One guess and its answer in every player column (player order).

    ``status`` is "ok"; "void" for a guess outside the range (it used its slot, so later
    guesses keep their positions, but it gets no answers: every cell is ``NO_ANSWER``); or
    "ignored" for a guess beyond the player's allowance (no answers either).
    """

    player: str
    index: int  # 1-based position of the guess within the player's turn
    number: int
    cells: tuple[str, ...]
    bonus: bool  # True for answered-slot guesses beyond the base two (within the allowance)
    status: GuessStatus = "ok"


@dataclass(frozen=True)
class ListRow:
    """A submitted list, answered only with how many entries are correct.

    ``partial``: the list does not name every other player; it is answered with how many of
    the listed numbers are right, and cannot win.
    """

    player: str
    correct: int
    partial: bool = False
    listed: int = 0  # how many players the list names (0: not recorded, a full list)


Row = GuessRow | ListRow


@dataclass(frozen=True)
class Ruling:
    """A house ruling applied to one player's orders in one turn (never silent).

    * "extra-guesses": ``numbers``/``positions`` are the guesses ignored, ``allowed`` the
      allowance;
    * "out-of-range": ``numbers``/``positions`` are the void guesses;
    * "partial-list": ``missing`` names the players the list leaves out;
    * "no-orders": no entry this turn (the report's "No orders" line).
    """

    turn: int
    player: str
    kind: RulingKind
    numbers: tuple[int, ...] = ()
    positions: tuple[int, ...] = ()
    allowed: int = 0
    missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class Finisher:
    """A player who identified every other number this turn, and whether that won.

    ``by`` "list" (a fully correct list: ``position`` None) or "guesses" (``position`` the
    guess position of the last hit). Lists beat guesses; the earliest position wins; equal
    positions share.
    """

    player: str
    by: WinReason
    position: int | None
    won: bool


@dataclass(frozen=True)
class TurnReport:
    """What the GM tells the players after one turn."""

    number: int  # turns count from 1
    rows: tuple[Row, ...]  # in player order; players without orders have no rows
    hits: Mapping[str, int]  # every player: secrets newly identified by guesses this turn
    allowance: Mapping[str, int]  # every player: guesses they were allowed this turn
    winners: tuple[str, ...] = ()
    reason: WinReason | None = None
    no_orders: tuple[str, ...] = ()  # players with no entry this turn, in player order
    next_allowance: Mapping[str, int] = field(default_factory=dict)  # every player, next turn
    rulings: tuple[Ruling, ...] = ()  # in player order
    finishers: tuple[Finisher, ...] = ()  # on a winning turn: everyone who finished


@dataclass(frozen=True)
class Identification:
    """When a player identified someone's number: the turn, and the guess's position in it."""

    turn: int
    guess: int


@dataclass(frozen=True)
class GameResult:
    """Every turn's report, the outcome, and the GM's secret register."""

    players: tuple[str, ...]
    turns: tuple[TurnReport, ...]
    winners: tuple[str, ...]
    winning_turn: int | None
    reason: WinReason | None
    # identified[player][target]: when player identified target's number, in player order
    identified: Mapping[str, Mapping[str, Identification]]
    # allowance for the turn after the last one played (meaningful while nobody has won)
    next_allowance: Mapping[str, int] = field(default_factory=dict)

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        """Every ruling of the game, turn by turn (the register's record)."""
        return tuple(ruling for report in self.turns for ruling in report.rulings)
