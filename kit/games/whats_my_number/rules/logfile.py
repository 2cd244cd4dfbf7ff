"""Read a What's My Number? game log (the dict ``tomllib`` gives for the TOML file).

Every problem of a log is found in one pass and raised at once (``kit.errors.Problems``; a
single problem is raised as itself). Player names in orders, lists and secrets match the
``players`` list exactly, or after Unicode NFC and case-folding when that names one player
only; a name that matches nobody suggests the nearest player ("did you mean Fay?").
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ....errors import ConfigError, GameLogError, KitError, Msg, Problems
from ....i18n import N_
from ....options import parse_range
from .engine import play
from .model import (
    MAX_LOG_TURNS,
    NAME,
    TOP_LEVEL_KEYS,
    GameLog,
    Guesses,
    GuessList,
    Orders,
    check_players,
    check_range,
    check_secrets,
    default_range,
    is_int,
    join,
    order_field,
    show,
    turn_field,
)

TURN_FIELD = re.compile(r"turn (\d+)")
TITLE_MAX = 80  # a log's title names its report folder and heads its pages


def name_key(name: str) -> str:
    """What two spellings of one name share: NFC, then case-folded."""
    return unicodedata.normalize("NFC", name).casefold()


class Names:
    """The players' names, and how a typed name finds one of them."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = tuple(players)
        keys: dict[str, list[str]] = {}
        for label in self.players:
            keys.setdefault(name_key(label), []).append(label)
        # Only a key that names one player matches loosely; "Ann" and "ann" both playing
        # means each must be typed exactly.
        self.loose = {key: labels[0] for key, labels in keys.items() if len(labels) == 1}

    def match(self, name: str) -> str | None:
        """The player ``name`` means, or None."""
        if name in self.players:
            return name
        return self.loose.get(name_key(name))

    def unknown(self, name: str) -> Msg:
        """The message for a name that is nobody: the nearest player, then every player."""
        near = difflib.get_close_matches(name_key(name), list(self.loose), n=1, cutoff=0.6)
        if near:
            return Msg(N_("%(name)s is not a player; did you mean %(near)s? players are "
                          "%(players)s"), name=show(name), near=self.loose[near[0]],
                       players=join(self.players))
        return Msg(N_("%(name)s is not a player; players are %(players)s"), name=show(name),
                   players=join(self.players))


def parse_game_log(data: Mapping[str, Any], *, strict: bool = False,
                   source: str | None = None) -> GameLog:
    """Validate a game log loaded from TOML and return it; every problem is raised at once.
    (``source``, the TOML text, is accepted like other games' parsers; errors here name the
    turn and player, which find the line.)

    The whole log is replayed (``engine.play``), so a log that comes back is known to follow
    the rules, with the house rulings applied (or, with ``strict``, none needed).
    """
    problems: list[KitError] = []
    head = read_header(data, problems)
    turns = read_turns(data.get("turn", []), head.names, problems)
    if not head.ok:
        _raise(problems)
    log = GameLog(players=head.names.players, range=head.range, secrets=head.secrets,
                  turns=turns, title=head.title)
    # The orders that could be read are played even when others could not, so that rule
    # breaks are found in the same run; every problem then goes out in turn order.
    _collect(problems, play, log, strict=strict)
    _raise(sorted(problems, key=_turn_of))
    return log


@dataclass(frozen=True)
class Header:
    """A log's setup as read: the players' names, the range, the secrets, and whether the
    header had no problem (turns are read even when it had some)."""

    names: Names
    range: tuple[int, int]
    secrets: Mapping[str, int]
    ok: bool
    title: str = ""  # the game's title (checked by ``_check_header``), printed on its reports


def read_header(data: object, problems: list[KitError]) -> Header:
    """The log's header, its problems added to ``problems``; raises them at once when the
    players cannot be read (nothing else can be checked without them)."""
    if not isinstance(data, Mapping):
        raise ConfigError("game", Msg(N_("the game log must be a TOML table")))
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            problems.append(ConfigError(str(key), Msg(N_("unknown key; allowed keys are "
                                                         "%(keys)s"), keys=join(TOP_LEVEL_KEYS))))
    game = data.get("game")
    if game != NAME:
        problems.append(ConfigError("game", Msg(N_('missing; this kind of game log needs '
                                                   'game = "%(name)s"'), name=NAME)
                                    if game is None else
                                    Msg(N_('is %(got)s; this kind of game log needs '
                                           'game = "%(name)s"'), got=show(game), name=NAME)))
    _check_header(data, problems)
    if "players" not in data:
        problems.append(ConfigError("players", Msg(N_('missing; list the players like '
                                                      'players = ["A", "B", "C", "D"]'))))
        _raise(problems)
    players = _collect(problems, check_players, data["players"])
    if players is None:
        _raise(problems)
    bounds = _collect(problems, _bounds, data, len(players)) or default_range(len(players))
    names = Names(players)
    secrets = _secrets(data.get("secrets", {}), names, bounds, problems)
    title = data.get("title")
    return Header(names, bounds, secrets, not problems, title if isinstance(title, str) else "")


def _turn_of(problem: KitError) -> int:
    """The turn a problem is in (0 for the log's header): the order problems are shown in."""
    found = TURN_FIELD.match(problem.field)
    return int(found[1]) if found else 0


def _raise(problems: Sequence[KitError]) -> None:
    if len(problems) == 1:
        raise problems[0]
    if problems:
        raise Problems(list(problems))


def _collect(problems: list[KitError], check: Any, *args: Any, **kwargs: Any) -> Any:
    """``check(*args)``, or None with its error added to ``problems``."""
    try:
        return check(*args, **kwargs)
    except Problems as exc:
        problems += exc.problems
    except KitError as exc:
        problems.append(exc)
    return None


def _check_header(data: Mapping[str, Any], problems: list[KitError]) -> None:
    """``title`` (text) and ``published`` (a turn count)."""
    title = data.get("title")
    if title is not None and (not isinstance(title, str) or not title.strip()
                              or len(title) > TITLE_MAX or not title.isprintable()):
        problems.append(ConfigError("title", Msg(N_('%(got)s is not a title; give one line of '
                                                    '1 to %(max)s characters, like "Friday '
                                                    'night"'), got=show(title), max=TITLE_MAX)))
    published = data.get("published")
    if published is not None and (not is_int(published) or published < 0):
        problems.append(ConfigError("published", Msg(N_(
            "%(got)s is not a turn number; say how many turns' reports were handed out, like "
            "published = 3"), got=show(published))))


def _bounds(data: Mapping[str, Any], players: int) -> tuple[int, int] | None:
    if "range" not in data:
        return None
    bounds = parse_range("range", data["range"])
    check_range(bounds, players)
    return bounds


def _secrets(raw: object, names: Names, bounds: tuple[int, int], problems: list[KitError]
             ) -> Mapping[str, int]:
    if not isinstance(raw, Mapping):
        problems.append(ConfigError("secrets", Msg(N_("must be a table like [secrets] A = 12, "
                                                      "not %(got)s"), got=show(raw))))
        return {}
    secrets: dict[str, object] = {}
    for name, value in raw.items():
        label = names.match(name)
        if label is None:
            problems.append(GameLogError(f"secrets.{name}", names.unknown(name)))
        elif label in secrets:
            problems.append(GameLogError(f"secrets.{label}", Msg(N_(
                "given twice (as %(name)s too); give each secret once"), name=show(name))))
        else:
            secrets[label] = value
    checked = _collect(problems, check_secrets, secrets, names.players, bounds, True)
    return {} if checked is None else checked


def read_turns(raw: object, names: Names, problems: list[KitError], first: int = 1
               ) -> tuple[Mapping[str, Orders], ...]:
    """The turns of a log (``raw``: its ``turn`` tables from turn ``first`` on), read; their
    problems added to ``problems``."""
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        problems.append(ConfigError("turn", Msg(N_("turns must be [[turn]] tables, one per "
                                                   "turn"))))
        return ()
    if len(raw) + first - 1 > MAX_LOG_TURNS:
        problems.append(ConfigError("turn", Msg(N_("%(count)s turns logged; a game log takes "
                                                   "at most %(max)s"), count=len(raw) + first - 1,
                                                max=MAX_LOG_TURNS)))
        return ()
    return tuple(_turn(number, orders, names, problems)
                 for number, orders in enumerate(raw, start=first))


def _turn(number: int, raw: object, names: Names, problems: list[KitError]
          ) -> Mapping[str, Orders]:
    if not isinstance(raw, Mapping):
        problems.append(GameLogError(turn_field(number), Msg(N_(
            "must be a [[turn]] table of orders, one per player"))))
        return {}
    orders: dict[str, Orders] = {}
    for name, value in raw.items():
        label = names.match(name)
        if label is None:
            problems.append(GameLogError(order_field(number, name), names.unknown(name)))
            continue
        if label in orders:
            problems.append(GameLogError(order_field(number, label), Msg(N_(
                "orders given twice (also as %(name)s); keep one entry a turn"),
                name=show(name))))
            continue
        parsed = _orders(number, label, value, names, problems)
        if parsed is not None:
            orders[label] = parsed
    return orders


def _orders(number: int, label: str, value: object, names: Names, problems: list[KitError]
            ) -> Orders | None:
    if isinstance(value, (list, tuple)):
        return Guesses(tuple(value))
    if isinstance(value, Mapping) and set(value) == {"list"} and isinstance(value["list"],
                                                                             Mapping):
        entries: dict[str, Any] = {}  # the numbers as the log gives them: play checks them
        for name, number_given in value["list"].items():
            target = names.match(name)
            if target is None:
                problems.append(GameLogError(order_field(number, label), Msg(N_(
                    "the list names %(problem)s"), problem=names.unknown(name))))
            elif target in entries:
                problems.append(GameLogError(order_field(number, label), Msg(N_(
                    "the list names %(name)s twice; name each player once"), name=target)))
            else:
                entries[target] = number_given
        return GuessList(entries)
    problems.append(GameLogError(
        order_field(number, label),
        Msg(N_("%(got)s is not orders; give guesses like [17, 33] or a list like "
               "{ list = { A = 12, B = 30 } }"), got=show(value))))
    return None
