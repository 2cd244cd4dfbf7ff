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
from typing import Literal

from ....errors import GameLogError, KitError, Msg, Problems, shown
from ....i18n import N_
from ....names import LookAlikes, look_alike_msg
from ....options import NAME_MAX
from . import MAX_PLAYERS, MIN_PLAYERS, PASS
from .lines import Block


class Found:
    """Problems found so far, each with the line it points at (0: none)."""

    def __init__(self) -> None:
        self.found: list[tuple[int, int, KitError]] = []

    def add(self, kind: type[KitError], where: str | Msg, line: int | None,
            message: str | Msg) -> None:
        """Record a problem; its field starts with ``line N`` when the line is known."""
        field = Msg(N_("line %(line)s, %(where)s"), line=str(line), where=where) if line \
            else where
        self.found.append((line or 0, len(self.found), kind(field, message)))

    def raise_any(self) -> None:
        """Raise every problem so far, in the order of their lines in the file."""
        if self.found:
            raise Problems([problem for _, _, problem in sorted(self.found,
                                                                key=lambda f: f[:2])])


def table_field(table: int) -> Msg:
    """A table's field: "table 2" (a page says it in its language)."""
    return Msg(N_("table %(table)s"), table=table)


def round_field(table: int, number: int, tiebreak: bool = False) -> Msg:
    """A round's field: "table 2, round 3" (a tie-break round: "table 2, tie-break 1")."""
    if tiebreak:
        return Msg(N_("table %(table)s, tie-break %(round)s"), table=table, round=number)
    return Msg(N_("table %(table)s, round %(round)s"), table=table, round=number)


@dataclass(frozen=True)
class Entry:
    """A logged round before its choices are checked: where it is and what it holds."""

    table: int
    number: int
    raw: object  # the choices: a mapping of name to number or "pass"
    block: Block | None  # its place in the TOML text, when known
    inside: str | None  # the key holding the choices ("choices"), or None: the block itself
    label: str  # how to name it without a line, e.g. "[[round]] #4"
    tiebreak: bool = False  # a [[tiebreak]]: its number counts the table's tie-break rounds

    @property
    def field(self) -> Msg:
        """The field its problems name: "table 2, round 3" or "table 2, tie-break 1"."""
        return round_field(self.table, self.number, self.tiebreak)

    @property
    def line(self) -> int | None:
        return self.block.line if self.block else None

    @property
    def place(self) -> str | Msg:
        """"line 12" when known, else its label."""
        return Msg(N_("line %(line)s"), line=str(self.block.line)) if self.block else self.label

    def key_line(self, name: str) -> int | None:
        return self.block.key_line(name, self.inside) if self.block else None


def clean(name: str) -> str:
    """A name as the log means it: NFC, inner runs of whitespace made one space."""
    return unicodedata.normalize("NFC", " ".join(name.split()))


def check_players(where: str | Msg, line: int | None, raw: object, seen: dict[str, int],
                  number: int, found: Found, alike: LookAlikes) -> tuple[str, ...] | None:
    """A table's players, or None (with the problems recorded) when the list is broken;
    ``alike`` holds the names of ``seen`` (case folded), and gets this table's."""
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        found.add(GameLogError, where, line, Msg(N_('players must be a list of names, like '
                                                    'players = ["Ann", "Bob", "Cy"]')))
        return None
    ok = True
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        found.add(GameLogError, where, line, Msg(N_("%(count)s players; a table seats %(lo)s to "
                                                    "%(hi)s"), count=len(raw), lo=MIN_PLAYERS,
                                                 hi=MAX_PLAYERS))
        ok = False
    players: list[str] = []
    for item in raw:
        name = clean(item)
        if not 1 <= len(name) <= NAME_MAX:
            found.add(GameLogError, where, line, Msg(N_("the name %(name)s needs 1 to %(max)s "
                                                        "characters"), name=shown(item),
                                                     max=NAME_MAX))
            ok = False
            continue
        if name.casefold() in seen:
            other = seen[name.casefold()]
            at = Msg(N_("this table")) if other == number else Msg(
                N_("tables %(first)s and %(second)s"), first=other, second=number)
            found.add(GameLogError, where, line, Msg(N_("%(name)s is listed twice (%(at)s); give "
                                                        "every player a different name"),
                                                     name=shown(name), at=at))
            ok = False
            continue
        earlier = alike.like(name)
        if earlier is not None:  # ``seen`` holds names case folded: this table's as given
            shown_as = next((p for p in players if p.casefold() == earlier), earlier)
            found.add(GameLogError, where, line, look_alike_msg(shown_as, name))
            ok = False
            continue
        seen[name.casefold()] = number
        alike.add(name.casefold())
        players.append(name)
    return tuple(players) if ok else None


def nearest(name: str, players: Sequence[str]) -> str | None:
    """The player whose name is closest to ``name`` (a typo), if any is close enough."""
    folded = {p.casefold(): p for p in players}
    close = difflib.get_close_matches(name.casefold(), list(folded), n=1, cutoff=0.6)
    return folded[close[0]] if close else None


def _value(value: object, bounds: tuple[int, int] | None) -> int | None | Literal["bad"]:
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
    raw, where = entry.raw, entry.field
    if not isinstance(raw, Mapping):
        return False
    homes = {seats.get(clean(str(key)).casefold()) for key in raw}
    if len(raw) < 2 or len(homes) != 1:
        return False
    (home,) = homes
    if home is None or home == entry.table:
        return False
    if entry.inside is None:
        found.add(GameLogError, where, entry.line, Msg(N_(
            "these are the players of table %(home)s; a [[table.round]] belongs to the "
            "[[table]] above it, so log this round as a [[round]] with table = %(home)s and its "
            "round number"), home=home))
    else:
        found.add(GameLogError, where, entry.line, Msg(N_(
            "these are the players of table %(home)s, not of table %(table)s; check table = "
            "%(table)s"), home=home, table=entry.table))
    return True


def _unknown(name: str, players: Sequence[str], seats: Mapping[str, int]) -> tuple[Msg, str | None]:
    """What to say of a name that does not sit at this table, and the player it probably
    meant (a typo of one of them)."""
    home = seats.get(name.casefold())
    if home is not None:
        return Msg(N_("%(name)s sits at table %(home)s, not at this table"), name=shown(name),
                   home=home), None
    guess = nearest(name, players)
    if guess:
        return Msg(N_("%(name)s does not sit at this table; did you mean %(guess)s?"),
                   name=shown(name), guess=guess), guess
    return Msg(N_("%(name)s does not sit at this table; its players are %(players)s"),
               name=shown(name), players=", ".join(players)), guess


def _names(entry: Entry, where: Msg, raw: Mapping[object, object], players: Sequence[str],
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
            found.add(GameLogError, where, line, Msg(N_("%(first)s and %(second)s both name "
                                                        "%(player)s; give each player once"),
                                                     first=shown(spelled[player]),
                                                     second=shown(name), player=player))
        else:
            given[player], spelled[player] = value, name
    return given, meant


def check_choices(entry: Entry, players: Sequence[str], bounds: tuple[int, int] | None,
                  found: Found, seats: Mapping[str, int] | None = None,
                  ) -> tuple[tuple[str, int | None], ...] | None:
    """One round's choices in the table's player order, or None when something is wrong.
    ``seats``: every player's table (by case-folded name), to say where a stray name sits."""
    seats = seats or {}
    where = entry.field
    raw = entry.raw
    if not isinstance(raw, Mapping):
        what = (Msg(N_('choices must be an inline table, like choices = { Ann = 3, Dee = "pass" }'))
                if entry.inside else
                Msg(N_("must be a [[table.round]] table of choices, one per player")))
        found.add(GameLogError, where, entry.key_line(entry.inside or ""), what)
        return None
    before = len(found.found)
    given, meant = _names(entry, where, raw, players, seats, found)
    missing = [p for p in players if p not in given and p not in meant]
    if missing:
        found.add(GameLogError, where, entry.line, Msg(N_(
            'no choice for %(names)s; every player writes a number or "%(pass)s" in every round'),
            names=", ".join(missing), **{"pass": PASS}))
    choices: dict[str, int | None] = {}
    for player, value in given.items():
        choice = _value(value, bounds)
        if choice != "bad":
            choices[player] = choice
        else:
            got = shown(value) if isinstance(value, str) else shown(str(value))
            found.add(GameLogError, where, entry.key_line(str(_key_of(raw, player))), Msg(N_(
                '%(player)s wrote %(got)s; give a whole number from %(lo)s to %(hi)s, or '
                '"%(pass)s"'), player=shown(player), got=got, lo=bounds[0], hi=bounds[1],
                **{"pass": PASS}) if bounds else Msg(N_(
                    '%(player)s wrote %(got)s; give a whole number, or "%(pass)s"'),
                    player=shown(player), got=got, **{"pass": PASS}))
    if len(found.found) > before:
        return None
    return tuple((p, choices[p]) for p in players)


def _key_of(raw: Mapping[object, object], player: str) -> object:
    """The key the log used for ``player`` (any case or spacing)."""
    return next((k for k in raw if clean(str(k)).casefold() == player.casefold()), player)
