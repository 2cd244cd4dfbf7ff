"""What's My Number? (a game by Allan Stagg, 2000): the rules engine, with no rendering and no I/O.

Every player holds a secret whole number. Each turn a player either makes guesses, answered per
player column with H (that player's number is higher), L (lower), ✓ (equal) or X (no
information), or submits a list naming a number for every other player, answered only with how
many entries are correct. The first player to identify every other player's number wins.

Decisions the reference leaves open, made here and covered by the tests:

* Two players may hold the same number. A guess is answered per column independently, so one
  guess can hit two players at once, and each hit counts (toward the win and the bonus).
* A "hit" is a secret number newly identified by a guess. Guessing a number the guesser has
  already identified shows X in that column and is not a hit again.
* Allowance: 2 guesses, plus one for every hit in the player's previous turn. A player who made
  no orders (or a list) last turn has 2. Fewer guesses than allowed is fine, but at least 1.
* Lists may be submitted in any turn, including the first. A list never identifies anyone, even
  when it is fully correct (a correct list wins the game outright instead).
* Several winners in one turn: correct lists beat guesses. Among guessers, the one whose last
  needed hit came at the earliest guess position of that turn wins (position 1 = guess 1,
  2 = guess 2, 3 and up = bonus guesses in order); players tied on position share the win.
* Turns after the winning turn must be empty; an empty trailing turn is skipped, not reported.

Typical use: ``play(parse_game_log(tomllib.load(f)))`` and ``format_report_markdown(...)`` per
turn report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from ...errors import SHOWN_MAX, ConfigError, GameLogError, escaped
from ...i18n import N_
from ...options import parse_range

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

TOP_LEVEL_KEYS = ("game", "players", "range", "secrets", "turn")

# Strict "LO-HI": ASCII digits only (``\d`` would also accept other scripts' digits), no signs.


# --- small helpers -------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    # bool is a subclass of int, but ``true`` is never a number in a game log.
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: object) -> str:
    """A bad value the way the user typed it in TOML: escaped, and short, for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + escaped(value if len(value) <= SHOWN_MAX else value[:SHOWN_MAX] + "…") + '"'
    text = escaped(repr(value))
    return text if len(text) <= SHOWN_MAX else text[:SHOWN_MAX] + "…"


def _join(labels: Sequence[str]) -> str:
    return ", ".join(labels)


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {plural or word + 's'}"


def _order_field(turn: int, label: str) -> str:
    return f"turn {turn}, player {label}"


# --- setup ---------------------------------------------------------------------------------------


def default_range(players: int) -> tuple[int, int]:
    """The range the rules suggest: 1 to 10 x (players - 1), e.g. 1-50 for six players."""
    if not _is_int(players) or players < MIN_PLAYERS:
        raise ConfigError(
            "players", f"{_show(players)} players; {TITLE} needs at least {MIN_PLAYERS}"
        )
    return (1, 10 * (players - 1))


def player_labels(count: int) -> list[str]:
    """Spreadsheet-style labels: A ... Z, then AA, AB, ... (bijective base 26)."""
    if not _is_int(count) or count < 0:
        raise ConfigError("players", f"{_show(count)} is not a player count (0 or more)")
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
    if not _is_int(hits_last_turn) or hits_last_turn < 0:
        raise ValueError(f"hits_last_turn must be a whole number >= 0, not {hits_last_turn!r}")
    return BASE_GUESSES + hits_last_turn


def _check_players(players: object) -> tuple[str, ...]:
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise ConfigError(
            "players", f'must be a list of labels like ["A", "B", "C", "D"], not {_show(players)}'
        )
    if len(players) > MAX_LOG_PLAYERS:
        raise ConfigError("players", f"{len(players)} players listed; a game log takes at most "
                          f"{MAX_LOG_PLAYERS}")
    for label in players:
        _check_label(label)
    seen: set[str] = set()
    for label in players:
        if label in seen:
            raise ConfigError("players", f'"{label}" is listed twice; player labels must be unique')
        seen.add(label)
    if len(players) < MIN_PLAYERS:
        raise ConfigError(
            "players",
            f"{_plural(len(players), 'player')} listed; {TITLE} needs at least {MIN_PLAYERS}",
        )
    return tuple(players)


def _check_label(label: object) -> None:
    allowed = f"labels are 1 to {MAX_LABEL_LENGTH} characters, like A or Alice"
    if not isinstance(label, str):
        raise ConfigError("players", f"{_show(label)} is not a label; {allowed}")
    if not label.strip():
        raise ConfigError("players", f"an empty label is not allowed; {allowed}")
    if len(label) > MAX_LABEL_LENGTH:
        raise ConfigError("players", f'"{label}" is {len(label)} characters long; {allowed}')
    if label != label.strip():
        raise ConfigError("players", f'"{label}" starts or ends with a space; {allowed}')
    # A "|" or a line break would break the turn-report table the label is printed in.
    if "|" in label or any(not char.isprintable() for char in label):
        raise ConfigError(
            "players", f'"{label}" contains "|" or a control character; {allowed}, without those'
        )


def check_range(bounds: tuple[int, int], players: int) -> None:
    """A range (read by ``kit.options.parse_range``) must hold a number for every player."""
    lo, hi = bounds
    size = hi - lo + 1
    if size < players:
        lo_default, hi_default = default_range(players)
        raise ConfigError(
            "range",
            f"{lo}-{hi} holds {_plural(size, 'number')}, but {players} players need at least "
            f"{players}, so the highest number must be at least {lo + players - 1} (the default "
            f"for {players} players is {lo_default}-{hi_default})",
        )


# --- the game log --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Guesses:
    """A player's guesses for one turn, in the order made."""

    numbers: tuple[int, ...]

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

    def __post_init__(self) -> None:
        players = _check_players(self.players)
        object.__setattr__(self, "players", players)
        bounds = parse_range("range", list(self.range) if isinstance(self.range, tuple)
                             else self.range)
        check_range(bounds, len(players))
        object.__setattr__(self, "range", bounds)
        object.__setattr__(self, "secrets", _check_secrets(self.secrets, players, bounds))
        object.__setattr__(
            self, "turns", tuple(MappingProxyType(dict(orders)) for orders in self.turns)
        )


def _check_secrets(
    secrets: Mapping[str, object], players: tuple[str, ...], bounds: tuple[int, int]
) -> Mapping[str, int]:
    lo, hi = bounds
    allowed = f"secrets are whole numbers from {lo} to {hi}"
    for label in secrets:
        if label not in players:
            raise GameLogError(
                f"secrets.{label}", f"{label} is not a player; players are {_join(players)}"
            )
    checked: dict[str, int] = {}
    for label in players:
        if label not in secrets:
            raise GameLogError(f"secrets.{label}", f"no secret number given; {allowed}")
        value = secrets[label]
        if not _is_int(value):
            raise GameLogError(
                f"secrets.{label}", f"{_show(value)} is not a whole number; {allowed}"
            )
        if not lo <= value <= hi:
            raise GameLogError(
                f"secrets.{label}", f"{value} is outside the range {lo} to {hi}; {allowed}"
            )
        checked[label] = value
    return MappingProxyType(checked)


def parse_game_log(data: Mapping[str, Any]) -> GameLog:
    """Validate a game log loaded from TOML (``tomllib`` output) and return it.

    The whole log is replayed, so a log that comes back is known to follow the rules.
    """
    if not isinstance(data, Mapping):
        raise ConfigError("game", "the game log must be a TOML table")
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            raise ConfigError(key, f"unknown key; allowed keys are {_join(TOP_LEVEL_KEYS)}")
    game = data.get("game")
    if game != NAME:
        shown = "missing" if game is None else f"is {_show(game)}"
        raise ConfigError("game", f'{shown}; this kind of game log needs game = "{NAME}"')

    if "players" not in data:
        raise ConfigError(
            "players", 'missing; list the players like players = ["A", "B", "C", "D"]'
        )
    players = _check_players(data["players"])

    if "range" in data:
        bounds = parse_range("range", data["range"])
        check_range(bounds, len(players))
    else:
        bounds = default_range(len(players))

    secrets = data.get("secrets", {})
    if not isinstance(secrets, Mapping):
        raise ConfigError("secrets", f"must be a table like [secrets] A = 12, not {_show(secrets)}")

    raw_turns = data.get("turn", [])
    if isinstance(raw_turns, (str, bytes)) or not isinstance(raw_turns, Sequence):
        raise ConfigError("turn", "turns must be [[turn]] tables, one per turn")
    if len(raw_turns) > MAX_LOG_TURNS:
        raise ConfigError("turn", f"{len(raw_turns)} turns logged; a game log takes at most "
                          f"{MAX_LOG_TURNS}")
    turns = tuple(_parse_turn(number, raw) for number, raw in enumerate(raw_turns, start=1))

    log = GameLog(players=players, range=bounds, secrets=secrets, turns=turns)
    play(log)
    return log


def _parse_turn(number: int, raw: object) -> Mapping[str, Orders]:
    if not isinstance(raw, Mapping):
        raise GameLogError(f"turn {number}", "must be a [[turn]] table of orders, one per player")
    return {label: _parse_orders(number, label, value) for label, value in raw.items()}


def _parse_orders(number: int, label: str, value: object) -> Orders:
    if isinstance(value, (list, tuple)):
        return Guesses(tuple(value))
    if isinstance(value, Mapping) and set(value) == {"list"} and isinstance(value["list"], Mapping):
        return GuessList(value["list"])
    raise GameLogError(
        _order_field(number, label),
        f"{_show(value)} is not orders; give guesses like [17, 33] "
        "or a list like { list = { A = 12, B = 30 } }",
    )


# --- turn reports --------------------------------------------------------------------------------


@dataclass(frozen=True)
class GuessRow:
    """One guess and its answer in every player column (player order)."""

    player: str
    index: int  # 1-based position of the guess within the player's turn
    number: int
    cells: tuple[str, ...]
    bonus: bool  # True for guesses beyond the base two


@dataclass(frozen=True)
class ListRow:
    """A submitted list, answered only with how many entries are correct."""

    player: str
    correct: int


Row = GuessRow | ListRow
WinReason = Literal["list", "guesses"]


@dataclass(frozen=True)
class TurnReport:
    """What the GM tells the players after one turn."""

    number: int  # turns count from 1
    rows: tuple[Row, ...]  # in player order; players without orders have no rows
    hits: Mapping[str, int]  # every player: secrets newly identified by guesses this turn
    allowance: Mapping[str, int]  # every player: guesses they were allowed this turn
    winners: tuple[str, ...] = ()
    reason: WinReason | None = None


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


def answer_guess(guess: int, secret: int) -> str:
    """The cell for one column: how that player's secret compares with the guess."""
    if secret > guess:
        return HIGHER
    if secret < guess:
        return LOWER
    return HIT


def play(log: GameLog) -> GameResult:
    """Replay every turn of ``log`` under the rules and report each one.

    Raises GameLogError for the first order (in turn order, then player order) that breaks the
    rules.
    """
    players = log.players
    identified: dict[str, dict[str, Identification]] = {label: {} for label in players}
    hits_last = dict.fromkeys(players, 0)
    reports: list[TurnReport] = []
    winners: tuple[str, ...] = ()
    winning_turn: int | None = None
    reason: WinReason | None = None

    for number, orders in enumerate(log.turns, start=1):
        if winning_turn is not None:
            if orders:
                raise GameLogError(
                    f"turn {number}",
                    f"the game was won in turn {winning_turn} by {_join(winners)}; "
                    "no orders are allowed after that",
                )
            continue
        report = _play_turn(log, number, orders, identified, hits_last)
        reports.append(report)
        hits_last = dict(report.hits)
        if report.winners:
            winners, winning_turn, reason = report.winners, number, report.reason

    return GameResult(
        players=players,
        turns=tuple(reports),
        winners=winners,
        winning_turn=winning_turn,
        reason=reason,
        identified=MappingProxyType(
            {
                label: MappingProxyType(
                    {target: found[target] for target in players if target in found}
                )
                for label, found in identified.items()
            }
        ),
        next_allowance=MappingProxyType(
            {label: allowed_guesses(hits_last[label]) for label in players}
        ),
    )


def _guess_rows(log: GameLog, number: int, label: str, order: Guesses,
                found: dict[str, Identification]) -> tuple[list[GuessRow], int, int | None]:
    """Answer a player's guesses: the rows, the hits made, and the position of the guess
    that found their last number (None if they have not found everyone)."""
    players = log.players
    rows: list[GuessRow] = []
    hits = 0
    completed = None
    for index, guess in enumerate(order.numbers, start=1):
        cells = []
        newly_hit = []
        for target in players:
            # No information on one's own number or on numbers already identified.
            if target == label or target in found:
                cells.append(NO_INFO)
                continue
            cell = answer_guess(guess, log.secrets[target])
            cells.append(cell)
            if cell == HIT:
                newly_hit.append(target)
        # Record hits only after the whole row, so a guess matching two players answers ✓ in
        # both columns and counts two hits.
        for target in newly_hit:
            found[target] = Identification(turn=number, guess=index)
        hits += len(newly_hit)
        if newly_hit and len(found) == len(players) - 1:
            completed = index
        rows.append(GuessRow(player=label, index=index, number=guess, cells=tuple(cells),
                             bonus=index > BASE_GUESSES))
    return rows, hits, completed


def _winners(players: Sequence[str], correct_lists: list[str], completed_at: dict[str, int]
             ) -> tuple[tuple[str, ...], WinReason | None]:
    """Same-turn winners: correct lists beat guesses; among guessers the earliest guess
    position of the last needed hit wins, equal positions share."""
    if correct_lists:
        return tuple(correct_lists), "list"
    if completed_at:
        earliest = min(completed_at.values())
        return tuple(label for label in players if completed_at.get(label) == earliest), \
            "guesses"
    return (), None


def _play_turn(
    log: GameLog,
    number: int,
    orders: Mapping[str, Orders],
    identified: dict[str, dict[str, Identification]],
    hits_last: Mapping[str, int],
) -> TurnReport:
    """Play one turn, updating ``identified`` in place, and return its report."""
    players = log.players
    for label in orders:
        if label not in players:
            raise GameLogError(
                _order_field(number, label),
                f"{label} is not a player; players are {_join(players)}",
            )
    allowance = {label: allowed_guesses(hits_last[label]) for label in players}
    hits = dict.fromkeys(players, 0)
    rows: list[Row] = []
    correct_lists: list[str] = []
    completed_at: dict[str, int] = {}  # guessers who found their last number: guess position

    for label in players:
        order = orders.get(label)
        if order is None:
            continue
        if isinstance(order, Guesses):
            _check_guesses(log, number, label, order, allowance[label], hits_last[label])
            made, hits[label], completed = _guess_rows(log, number, label, order,
                                                       identified[label])
            rows += made
            if completed is not None:
                completed_at[label] = completed
        elif isinstance(order, GuessList):
            _check_list(log, number, label, order)
            # A list only ever reveals a count, so it identifies nobody.
            correct = sum(
                1 for target, value in order.entries.items() if log.secrets[target] == value
            )
            rows.append(ListRow(player=label, correct=correct))
            if correct == len(players) - 1:
                correct_lists.append(label)
        else:
            raise GameLogError(
                _order_field(number, label),
                f"{_show(order)} is not orders; give guesses or a list",
            )
    winners, reason = _winners(players, correct_lists, completed_at)
    return TurnReport(
        number=number,
        rows=tuple(rows),
        hits=MappingProxyType(hits),
        allowance=MappingProxyType(allowance),
        winners=winners,
        reason=reason,
    )


def _check_guesses(
    log: GameLog, number: int, label: str, order: Guesses, allowed: int, hits_last: int
) -> None:
    where = _order_field(number, label)
    because = f"{allowed} {'is' if allowed == 1 else 'are'} allowed this turn " + (
        f"({BASE_GUESSES} + {_plural(hits_last, 'hit')} last turn)"
    )
    count = len(order.numbers)
    if count == 0:
        raise GameLogError(
            where, f"no guesses; make 1 to {allowed} guesses ({because}), or submit a list"
        )
    if count > allowed:
        raise GameLogError(where, f"{_plural(count, 'guess', 'guesses')}, but {because}")
    lo, hi = log.range
    for index, guess in enumerate(order.numbers, start=1):
        if not _is_int(guess):
            raise GameLogError(
                where,
                f"guess {index} is {_show(guess)}, not a whole number; "
                f"guesses are whole numbers from {lo} to {hi}",
            )
        if not lo <= guess <= hi:
            raise GameLogError(where, f"guess {guess} is outside the range {lo} to {hi}")


def _check_list(log: GameLog, number: int, label: str, order: GuessList) -> None:
    where = _order_field(number, label)
    others = tuple(target for target in log.players if target != label)
    rule = f"a list names every other player exactly once ({_join(others)})"
    for target in order.entries:
        if target == label:
            raise GameLogError(where, f"the list names {label}, the player's own label; {rule}")
        if target not in log.players:
            raise GameLogError(where, f"the list names {target}, who is not a player; {rule}")
    missing = [target for target in others if target not in order.entries]
    if missing:
        raise GameLogError(where, f"the list is missing {_join(missing)}; {rule}")
    lo, hi = log.range
    for target in others:
        value = order.entries[target]
        if not _is_int(value):
            raise GameLogError(
                where,
                f"the list gives {target} {_show(value)}, not a whole number; "
                f"numbers are from {lo} to {hi}",
            )
        if not lo <= value <= hi:
            raise GameLogError(
                where, f"the list gives {target} {value}, outside the range {lo} to {hi}"
            )


# --- the printed report --------------------------------------------------------------------------


def format_report_markdown(report: TurnReport, players: Sequence[str]) -> str:
    """The reference turn-report table, one line per row, ending with a newline.

    The reference's layout, plus the Markdown delimiter row (``|---|---|...|``, one ``---``
    per column) under the header, so that Markdown renders it as a table.
    """
    lines = ["| Guess | " + " | ".join(players) + " |", "|" + "---|" * (len(players) + 1)]
    for row in report.rows:
        if isinstance(row, GuessRow):
            if len(row.cells) != len(players):
                raise ValueError(f"row has {len(row.cells)} cells for {len(players)} players")
            lines.append(f"| {row.player} {row.index} | " + " | ".join(row.cells) + " |")
        else:
            lines.append(f"| {row.player} List - {row.correct} correct. |" + " |" * len(players))
    return "\n".join(lines) + "\n"
