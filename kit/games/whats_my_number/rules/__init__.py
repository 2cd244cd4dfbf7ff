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
* House rulings (``engine``): extra guesses are ignored, out-of-range guesses are void (keeping
  their slot), a list missing players counts only its listed numbers and cannot win, a missing
  entry is "no orders"; ``strict`` makes each an error.
* Lists may be submitted in any turn, including the first. A list never identifies anyone, even
  when it is fully correct (a correct list wins the game outright instead).
* Several winners in one turn: correct lists beat guesses. Among guessers, the one whose last
  needed hit came at the earliest guess position of that turn wins (position 1 = guess 1,
  2 = guess 2, 3 and up = bonus guesses in order); players tied on position share the win.
* Turns after the winning turn must be empty; an empty trailing turn is skipped, not reported.

The engine is split: ``model`` (the records and setup checks), ``engine`` (``play``),
``logfile`` (``parse_game_log``), ``checking`` (a log's check resumed turn by turn) and
``labels`` (player labels no answer mark can be mistaken for); this package gathers the first
three under one name. Typical use: ``play(parse_game_log(tomllib.load(f)))`` and
``format_report_markdown(...)`` per turn report.
"""

from __future__ import annotations

from collections.abc import Sequence

from .engine import finishers, play
from .logfile import Names, name_key, parse_game_log
from .model import (
    AUTHOR,
    BASE_GUESSES,
    BLANK,
    CREDIT,
    HIGHER,
    HIT,
    LOWER,
    MAX_LABEL_LENGTH,
    MAX_LOG_PLAYERS,
    MAX_LOG_TURNS,
    MAX_NUMBER,
    MIN_PLAYERS,
    NAME,
    NO_ANSWER,
    NO_INFO,
    TITLE,
    TOP_LEVEL_KEYS,
    YEAR,
    Finisher,
    GameLog,
    GameResult,
    Guesses,
    GuessList,
    GuessRow,
    GuessStatus,
    Identification,
    ListRow,
    Orders,
    Row,
    Ruling,
    RulingKind,
    TurnReport,
    WinReason,
    allowed_guesses,
    check_range,
    default_range,
    player_labels,
)

__all__ = [
    "AUTHOR", "BASE_GUESSES", "BLANK", "CREDIT", "HIGHER", "HIT", "LOWER", "MAX_LABEL_LENGTH",
    "MAX_LOG_PLAYERS", "MAX_LOG_TURNS", "MAX_NUMBER", "MIN_PLAYERS", "NAME", "NO_ANSWER",
    "NO_INFO", "TITLE", "TOP_LEVEL_KEYS", "YEAR", "Finisher", "GameLog", "GameResult",
    "GuessList", "GuessRow", "GuessStatus", "Guesses", "Identification", "ListRow", "Names",
    "Orders", "Row", "Ruling", "RulingKind", "TurnReport", "WinReason", "allowed_guesses",
    "check_range", "default_range", "finishers", "format_report_markdown",
    "name_key", "parse_game_log", "play", "player_labels",
]


def format_report_markdown(report: TurnReport, players: Sequence[str]) -> str:
    """The reference turn-report table, one line per row, ending with a newline.

    The reference's layout, plus the Markdown delimiter row (``|---|---|...|``, one ``---``
    per column) under the header, so that Markdown renders it as a table. A void or ignored
    guess says so in its first cell and leaves the others empty.
    """
    lines = ["| Guess | " + " | ".join(players) + " |", "|" + "---|" * (len(players) + 1)]
    for row in report.rows:
        if isinstance(row, GuessRow):
            if len(row.cells) != len(players):
                raise ValueError(f"row has {len(row.cells)} cells for {len(players)} players")
            mark = "" if row.status == "ok" else f" ({row.status})"
            lines.append(f"| {row.player} {row.index}{mark} | " + " | ".join(row.cells) + " |")
        else:
            lines.append(f"| {row.player} List - {row.correct} correct. |" + " |" * len(players))
    return "\n".join(lines) + "\n"
