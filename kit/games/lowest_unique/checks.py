"""The checks of a Lowest Unique Number log that gather problems instead of stopping at one.

``Found`` collects every problem with its line; ``check_players`` reads a table's player
list; ``check_choices`` reads one round's choices, matching names after NFC and case-folding
and suggesting the nearest player for a name that does not sit at the table.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...errors import GameLogError, KitError, Problems, shown
from ...options import NAME_MAX
from .lines import Block
from .rules import MAX_PLAYERS, MIN_PLAYERS, PASS


class Found:
    """Problems found so far, each with the line it points at (0: none)."""

    def __init__(self) -> None:
        self.found: list[tuple[int, int, KitError]] = []

    def add(self, kind: type[KitError], where: str, line: int | None, message: str) -> None:
        """Record a problem; its field starts with ``line N`` when the line is known."""
        field = f"line {line}, {where}" if line else where
        self.found.append((line or 0, len(self.found), kind(field, message)))

    def raise_any(self) -> None:
        """Raise every problem so far, in the order of their lines in the file."""
        if self.found:
            raise Problems([problem for _, _, problem in sorted(self.found,
                                                                key=lambda f: f[:2])])


@dataclass(frozen=True)
class Entry:
    """A logged round before its choices are checked: where it is and what it holds."""

    table: int
    number: int
    raw: object  # the choices: a mapping of name to number or "pass"
    block: Block | None  # its place in the TOML text, when known
    inside: str | None  # the key holding the choices ("choices"), or None: the block itself
    label: str  # how to name it without a line, e.g. "[[round]] #4"

    @property
    def line(self) -> int | None:
        return self.block.line if self.block else None

    @property
    def place(self) -> str:
        """"line 12" when known, else its label."""
        return f"line {self.block.line}" if self.block else self.label

    def key_line(self, name: str) -> int | None:
        return self.block.key_line(name, self.inside) if self.block else None


def clean(name: str) -> str:
    """A name as the log means it: NFC, inner runs of whitespace made one space."""
    return unicodedata.normalize("NFC", " ".join(name.split()))


def check_players(where: str, line: int | None, raw: object, seen: dict[str, int],
                  number: int, found: Found) -> tuple[str, ...] | None:
    """A table's players, or None (with the problems recorded) when the list is broken."""
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        found.add(GameLogError, where, line, 'players must be a list of names, like players = '
                  '["Ann", "Bob", "Cy"]')
        return None
    ok = True
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        found.add(GameLogError, where, line, f"{len(raw)} players; a table seats {MIN_PLAYERS} "
                  f"to {MAX_PLAYERS}")
        ok = False
    players = []
    for item in raw:
        name = clean(item)
        if not 1 <= len(name) <= NAME_MAX:
            found.add(GameLogError, where, line, f"the name {shown(item)} needs 1 to "
                      f"{NAME_MAX} characters")
            ok = False
            continue
        if name.casefold() in seen:
            other = seen[name.casefold()]
            at = "this table" if other == number else f"tables {other} and {number}"
            found.add(GameLogError, where, line, f"{shown(name)} is listed twice ({at}); give "
                      "every player a different name")
            ok = False
            continue
        seen[name.casefold()] = number
        players.append(name)
    return tuple(players) if ok else None


def nearest(name: str, players: Sequence[str]) -> str | None:
    """The player whose name is closest to ``name`` (a typo), if any is close enough."""
    folded = {p.casefold(): p for p in players}
    close = difflib.get_close_matches(name.casefold(), list(folded), n=1, cutoff=0.6)
    return folded[close[0]] if close else None


def _value(value: object, bounds: tuple[int, int] | None) -> int | None | str:
    """The choice, or ``"bad"``."""
    if isinstance(value, str) and value.strip().lower() == PASS:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and (
            bounds is None or bounds[0] <= value <= bounds[1]):
        return value
    return "bad"


def misplaced(entry: Entry, seats: Mapping[str, int], found: Found) -> bool:
    """True, with one problem recorded, when every name of a round sits at one other table:
    the round was logged under the wrong table (an older-form round appended at the end of the
    file belongs to the last [[table]]). Such a round takes no place in the table's rounds."""
    raw, where = entry.raw, f"table {entry.table}, round {entry.number}"
    if not isinstance(raw, Mapping):
        return False
    homes = {seats.get(clean(str(key)).casefold()) for key in raw}
    if len(raw) < 2 or len(homes) != 1:
        return False
    (home,) = homes
    if home is None or home == entry.table:
        return False
    if entry.inside is None:
        found.add(GameLogError, where, entry.line, f"these are the players of table {home}; a "
                  "[[table.round]] belongs to the [[table]] above it, so log this round as a "
                  f"[[round]] with table = {home} and its round number")
    else:
        found.add(GameLogError, where, entry.line, f"these are the players of table {home}, "
                  f"not of table {entry.table}; check table = {entry.table}")
    return True


def _unknown(name: str, players: Sequence[str], seats: Mapping[str, int]) -> tuple[str, str | None]:
    """What to say of a name that does not sit at this table, and the player it probably
    meant (a typo of one of them)."""
    home = seats.get(name.casefold())
    if home is not None:
        return f"{shown(name)} sits at table {home}, not at this table", None
    guess = nearest(name, players)
    hint = f"did you mean {guess}?" if guess else f"its players are {', '.join(players)}"
    return f"{shown(name)} does not sit at this table; {hint}", guess


def _names(entry: Entry, where: str, raw: Mapping[object, object], players: Sequence[str],
           seats: Mapping[str, int], found: Found) -> tuple[dict[str, object], set[str]]:
    """Each player's value by the player's own name, and the players a typo probably meant."""
    by_fold = {p.casefold(): p for p in players}
    given: dict[str, object] = {}
    spelled: dict[str, str] = {}
    meant: set[str] = set()
    for key, value in raw.items():
        name = clean(str(key))
        player = by_fold.get(name.casefold())
        line = entry.key_line(str(key))
        if player is None:
            message, guess = _unknown(name, players, seats)
            found.add(GameLogError, where, line, message)
            if guess:
                meant.add(guess)
        elif player in given:
            found.add(GameLogError, where, line, f"{shown(spelled[player])} and {shown(name)} "
                      f"both name {player}; give each player once")
        else:
            given[player], spelled[player] = value, name
    return given, meant


def check_choices(entry: Entry, players: Sequence[str], bounds: tuple[int, int] | None,
                  found: Found, seats: Mapping[str, int] | None = None,
                  ) -> tuple[tuple[str, int | None], ...] | None:
    """One round's choices in the table's player order, or None when something is wrong.
    ``seats``: every player's table (by case-folded name), to say where a stray name sits."""
    seats = seats or {}
    where = f"table {entry.table}, round {entry.number}"
    raw = entry.raw
    if not isinstance(raw, Mapping):
        what = ("choices must be an inline table, like choices = { Ann = 3, Dee = \"pass\" }"
                if entry.inside else "must be a [[table.round]] table of choices, one per player")
        found.add(GameLogError, where, entry.key_line(entry.inside or ""), what)
        return None
    before = len(found.found)
    given, meant = _names(entry, where, raw, players, seats, found)
    missing = [p for p in players if p not in given and p not in meant]
    if missing:
        found.add(GameLogError, where, entry.line, f"no choice for {', '.join(missing)}; every "
                  f'player writes a number or "{PASS}" in every round')
    lo, hi = bounds or (None, None)
    span = f"from {lo} to {hi}" if bounds else ""
    for player, value in given.items():
        if _value(value, bounds) == "bad":
            got = shown(value) if isinstance(value, str) else shown(str(value))
            found.add(GameLogError, where, entry.key_line(str(_key_of(raw, player))),
                      f"{shown(player)} wrote {got}; give a whole number {span}".rstrip()
                      + f', or "{PASS}"')
    if len(found.found) > before:
        return None
    return tuple((p, _value(given[p], bounds)) for p in players)  # type: ignore[misc]


def _key_of(raw: Mapping[object, object], player: str) -> object:
    """The key the log used for ``player`` (any case or spacing)."""
    return next((k for k in raw if clean(str(k)).casefold() == player.casefold()), player)
