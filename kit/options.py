"""Kit options: each is declared once, with a parameter type that owns its parsing and limits.

A parameter type (as in click) turns a raw value — a TOML value or the text of a flag — into a
checked value, or raises a ``ConfigError`` that names the field and what it accepts. A wrong
type is an error, never coerced: ``title = ["a", "b"]`` is refused, not printed as a list.
The options every kit takes are here; each game declares its own beside its planner, and
the config loader, the command line, the web form and the README table all read them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .errors import ConfigError, Msg, Quote, quoted, shown
from .i18n import DEFAULT as DEFAULT_LANGUAGE
from .i18n import LANGUAGES, N_
from .names import LookAlikes, look_alike_msg
from .paper import PAPERS

NAME_MAX = 24  # characters in a player's name
TITLE_MAX = 60
DATE_MAX = 40
MAX_PLAYERS = 1200  # per build: 100 tables of 12; a real party never comes near
MAX_TABLES = 100
RANGE_MAX = 999  # three digits fit every box on every page

# ASCII digits only ("３" is not a number); ten of them, so 2147483647 (the shuffle seed's top)
_INT = re.compile(r"\s*([+-]?[0-9]{1,10})\s*")

T = TypeVar("T")


def kind_of(value: object) -> str:
    """How a TOML value's type reads in an error message."""
    names = {bool: "true/false", int: "a whole number", float: "a decimal number",
             str: "text", list: "a list", dict: "a table"}
    for kind, name in names.items():
        if isinstance(value, kind):
            return name
    return type(value).__name__


class ParamType(Generic[T]):
    """Parses and checks one option's raw value into a ``T``."""

    @property
    def describe(self) -> str:
        """What it accepts, for help and errors."""
        return "a value"

    def convert(self, key: str, value: object) -> T:
        raise NotImplementedError

    def fail(self, key: str, value: object) -> ConfigError:
        got: Quote | str
        if isinstance(value, str):
            got = Quote(value)  # “…” on the command line, the page language's marks on a page
        elif isinstance(value, bool | int | float):
            got = str(value).lower() if isinstance(value, bool) else str(value)
        else:
            got = kind_of(value)
        return ConfigError(key, Msg(N_("must be %(accepts)s; got %(got)s"),
                                    accepts=self.accepts(), got=got))

    def accepts(self) -> str | Msg:
        """``describe`` as a message (translated where shown)."""
        return self.describe


@dataclass(frozen=True)
class IntRange(ParamType[int]):
    lo: int
    hi: int

    @property
    def describe(self) -> str:
        return f"a whole number from {self.lo} to {self.hi}"

    def accepts(self) -> Msg:
        return Msg(N_("a whole number from %(lo)s to %(hi)s"), lo=self.lo, hi=self.hi)

    def convert(self, key: str, value: object) -> int:
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and (match := _INT.fullmatch(value)):
            number = int(match[1])
        if number is None or not self.lo <= number <= self.hi:
            raise self.fail(key, value)
        return number


@dataclass(frozen=True)
class Choice(ParamType[str]):
    choices: tuple[str, ...]
    noun: str = ""  # "paper size": how an unknown value is named in the error

    @property
    def describe(self) -> str:
        return " or ".join(self.choices) if len(self.choices) <= 2 else (
            "one of: " + ", ".join(self.choices))

    def convert(self, key: str, value: object) -> str:
        if isinstance(value, str) and value.strip().lower() in self.choices:
            return value.strip().lower()
        if isinstance(value, str):
            raise ConfigError(key, Msg(N_("unknown %(noun)s “%(got)s”; choose %(choices)s"),
                                       noun=self.noun or key, got=quoted(value),
                                       choices=self.describe))
        raise self.fail(key, value)


@dataclass(frozen=True)
class Flag(ParamType[bool]):
    describe = "true or false"

    def convert(self, key: str, value: object) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no",
                                                                  "on", "off"):
            return value.strip().lower() in ("true", "yes", "on")
        raise self.fail(key, value)


def printable_text(key: str, what: str | Msg, text: str, limit: int) -> str:
    """Text printed on pages: NFC, no control characters, glyphs our fonts have, a length cap.

    The zero-width (non-)joiner is the one format character allowed: Persian and Indic names
    need it, and the fonts check it only sits inside a script that uses it.
    """
    from .fonts import JOINERS, printable

    text = unicodedata.normalize("NFC", text)
    bad = [ch for ch in text if unicodedata.category(ch)[0] == "C" and ch not in JOINERS]
    if bad:
        raise ConfigError(key, f"{what} contains a control character ({shown(bad[0])}); use "
                          "printable text only")
    if len(text) > limit:
        raise ConfigError(key, Msg(N_("%(what)s has %(count)s characters; at most %(max)s fit: "
                                      "shorten it"), what=what, count=len(text), max=limit))
    missing = printable(text)
    if missing:
        raise ConfigError(key, f"{what} uses characters no bundled font can print "
                          f"({shown(missing, 20)}); the fonts cover Latin, Greek, Cyrillic, "
                          "Hebrew, Arabic, Devanagari, Thai, Chinese, Japanese and Korean")
    return text


@dataclass(frozen=True)
class Text(ParamType[str]):
    limit: int

    @property
    def describe(self) -> str:
        return f"text of at most {self.limit} characters"

    def convert(self, key: str, value: object) -> str:
        if not isinstance(value, str):
            raise self.fail(key, value)
        return printable_text(key, Msg(N_("the text")), " ".join(value.split()), self.limit)


def split_names(text: str) -> list[str]:
    """Names typed in a form: one per line or comma-separated (both may mix), blanks dropped."""
    return [n.strip() for line in text.splitlines() for n in line.split(",") if n.strip()]


@dataclass(frozen=True)
class Names(ParamType[tuple[str, ...]]):
    """Player names: a list (TOML) or comma-separated text (a flag); all different, and no
    two that look alike (``kit.names``)."""

    most: int = MAX_PLAYERS
    limit: int = NAME_MAX

    @property
    def describe(self) -> str:
        return f"a list of up to {self.most} names of 1 to {self.limit} characters"

    def convert(self, key: str, value: object) -> tuple[str, ...]:
        if isinstance(value, str):
            if not value.strip():
                raise ConfigError(key, "is empty; give one or more names separated by commas")
            items: Sequence[object] = value.split(",")
        elif isinstance(value, list | tuple):
            items = value
        else:
            raise self.fail(key, value)
        if len(items) > self.most:
            raise ConfigError(key, f"{len(items)} names given; at most {self.most} fit one build")
        names: list[str] = []
        seen: dict[str, int] = {}
        alike = LookAlikes()  # compares only names of one skeleton: 1,200 names stay cheap
        for i, item in enumerate(items, start=1):
            if not isinstance(item, str):
                raise ConfigError(key, f"name {i} must be text; got {kind_of(item)}")
            name = unicodedata.normalize("NFC", " ".join(item.split()))
            if not name:
                raise ConfigError(key, f"name {i} is empty; each name needs 1 to {self.limit} "
                                  "characters")
            printable_text(key, Msg(N_("name %(number)s, “%(name)s”,"), number=i,
                                    name=quoted(name, 30)), name, self.limit)
            folded = name.casefold()
            if folded in seen:
                raise ConfigError(key, Msg(N_("“%(name)s” is given twice (names %(first)s and "
                                              "%(second)s); every player needs a different name, "
                                              "e.g. add an initial"), name=quoted(name),
                                           first=seen[folded], second=i))
            earlier = alike.like(name)
            if earlier is not None:
                raise ConfigError(key, look_alike_msg(earlier, name))
            seen[folded] = i
            alike.add(name)
            names.append(name)
        return tuple(names)


RANGE_FORMAT = f"two whole numbers LO-HI with 1 <= LO < HI <= {RANGE_MAX}, e.g. 1-20"


def parse_range(key: str, value: object) -> tuple[int, int]:
    """The one grammar of a number range: ``"LO-HI"`` (or ``[LO, HI]`` in TOML) with
    1 <= LO < HI <= 999, for the ``--range`` option and the games' logs alike."""
    lo = hi = None
    if isinstance(value, str):
        if not value.strip():
            raise ConfigError(key, f"is empty; give {RANGE_FORMAT}")
        match = re.fullmatch(r"\s*(-?[0-9]{1,6})\s*-\s*(-?[0-9]{1,6})\s*", value)
        if match:
            lo, hi = int(match[1]), int(match[2])
    elif (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        lo, hi = value
    if lo is None or hi is None:
        got = Quote(value) if isinstance(value, str) else kind_of(value)
        raise ConfigError(key, Msg(N_("%(got)s is not a range: give the lowest and the highest "
                                      "number, e.g. 1-20"), got=got))
    if lo < 1 or hi > RANGE_MAX or lo >= hi:
        raise ConfigError(key, Msg(N_("%(lo)s-%(hi)s cannot be used: give the lowest and the "
                                      "highest number, e.g. 1-20, the lowest at least 1 and the "
                                      "highest above it, at most %(max)s"),
                                   lo=str(lo), hi=str(hi), max=RANGE_MAX))
    return lo, hi


@dataclass(frozen=True)
class NumberRange(ParamType[tuple[int, int]]):
    """An announced range, read by ``parse_range``."""

    describe = RANGE_FORMAT

    def convert(self, key: str, value: object) -> tuple[int, int]:
        return parse_range(key, value)


@dataclass(frozen=True)
class Folder(ParamType[str]):
    describe = "a folder path"

    def convert(self, key: str, value: object) -> str:
        if not isinstance(value, str):
            raise self.fail(key, value)
        if not value.strip():
            raise ConfigError(key, "is empty; give a folder, e.g. build")
        if "\0" in value:
            raise ConfigError(key, f"{shown(value)} holds a NUL character; give a plain folder "
                              "path")
        return value


@dataclass(frozen=True)
class Option(Generic[T]):
    """One config key (``snake_case``) and its command-line flag (``--kebab-case``)."""

    key: str
    type: ParamType[T]
    default: object
    help: str
    metavar: str | None = None

    @property
    def flag(self) -> str:
        return "--" + self.key.replace("_", "-")

    def convert(self, value: object) -> T:
        return self.type.convert(self.key, value)


# The options of every kit. ``game`` is chosen from the registry; defaults that depend on the
# game or the player count are None here and worked out by ``kit.config.resolve``.
PLAYERS = Option("players", IntRange(1, MAX_PLAYERS), None, "number of players (default: the "
                 "game's own)", "N")
NAMES = Option("names", Names(), (), "player names, comma-separated on the command line (1 to "
               f"{NAME_MAX} characters each, no two that look alike); sets the player count",
               "A,B,C")
RANGE = Option("range", NumberRange(), None, "an announced custom number range LO-HI, printed "
               "on every player page (default: the game's rule)", "LO-HI")
TABLES = Option("tables", IntRange(1, MAX_TABLES), None, "split the party over exactly this "
                "many tables (default: the fewest that fit, for games with a per-table limit)",
                "K")
SHUFFLE = Option("shuffle", IntRange(0, 2**31 - 1), None, "seat the named players at tables "
                 "in a shuffled order, repeatable with the same SEED (default: in the order "
                 "given)", "SEED")
COMMON: tuple[Option[Any], ...] = (
    PLAYERS,
    NAMES,
    Option("paper", Choice(PAPERS, "paper size"), "a4", "paper size", "|".join(PAPERS)),
    RANGE,
    Option("title", Text(TITLE_MAX), "", f"event title printed small on every page (up to "
           f"{TITLE_MAX} characters)", "TEXT"),
    Option("date", Text(DATE_MAX), "", "event date printed small on every page, as you write "
           f"it (up to {DATE_MAX} characters)", "TEXT"),
    TABLES,
    SHUFFLE,
    Option("lang", Choice(tuple(LANGUAGES), "language"), DEFAULT_LANGUAGE, "language of every "
           f"page: {', '.join(f'{code} ({name})' for code, name in LANGUAGES.items())}",
           "|".join(LANGUAGES)),
    Option("large_print", Flag(), False, "large print: rules and instructions at 12 pt or "
           "more, bigger boxes, fewer slips a page"),
    Option("out", Folder(), "build", "folder the kit folders are written into", "DIR"),
)

COMMON_BY_KEY = {o.key: o for o in COMMON}
