"""Config loading and validation: raw values (TOML file, flags) -> one frozen ``KitConfig``.

Every check names the field and the allowed values. Nothing here guesses: a bad value is an
error, never quietly replaced by a default.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from .errors import ConfigError
from .options import NAME_MAX, OPTIONS, OPTIONS_BY_KEY, PAPERS, TITLE_MAX
from .paper import paper as paper_by_name
from .resources import font_path
from .tables import deal, table_sizes

RANGE_MAX = 999  # three digits fit every box on every page


@dataclass(frozen=True)
class KitConfig:
    """A validated kit request. Build steps read it and never change it."""

    game: str
    players: int
    names: tuple[str, ...]  # empty when the host gave only a count
    paper: str
    range: tuple[int, int]
    custom_range: bool
    title: str = ""
    date: str = ""
    out: str = "build"
    rounds: int = 5
    spare_slips: int | None = None  # per table; None: one round's worth (see ``spares``)
    tables: int | None = None  # as asked for; ``sizes`` holds the seating that resulted
    shuffle: int | None = None
    sizes: tuple[int, ...] = ()  # players at each table; one entry for a single table
    table: int = 0  # 0: the whole party; 1..table_count: one table of it
    party: str = ""  # a batch party's name, used as its folder name
    cooperative: bool = False
    sudden_death_announced: bool = False
    host_plays: bool = False
    turns: int = 8

    @property
    def spares(self) -> int:
        """Spare slips for this table: as configured, or one round's worth."""
        return self.players if self.spare_slips is None else self.spare_slips

    @property
    def table_count(self) -> int:
        return max(1, len(self.sizes))

    @property
    def table_label(self) -> str:
        """"Table 2 of 3" for one table of a split party, else empty."""
        return f"Table {self.table} of {self.table_count}" if self.table else ""

    @property
    def folder_name(self) -> str:
        if self.party:
            return self.party
        name = f"{self.game}-{self.players}p-{self.paper}"
        if self.tables is not None and self.table_count > 1:
            name += f"-{self.table_count}tables"
        if self.custom_range:
            name += f"-range{self.range[0]}-{self.range[1]}"
        return name

    @property
    def range_text(self) -> str:
        return f"{self.range[0]} to {self.range[1]}"


def load_toml(path: str | Path) -> dict[str, object]:
    """Read a config file; a missing or malformed file is a ``config`` error."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("config", f"cannot read {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError("config", f"cannot read {path}: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("config", f"{path} is not valid TOML: {exc}") from None


def check_keys(raw: Mapping[str, object], source: str) -> None:
    allowed = [o.key for o in OPTIONS if o.key != "out"] + ["out"]
    for key in raw:
        if key not in OPTIONS_BY_KEY:
            raise ConfigError(
                "config", f"unknown key {key!r} in {source}; allowed keys: {', '.join(allowed)}"
            )


def parse_int(key: str, value: object, lo: int, hi: int) -> int:
    """A whole number in [lo, hi], from TOML (int) or a flag (text)."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,9}\s*", value):
        number = int(value)
    if number is None or not lo <= number <= hi:
        raise ConfigError(key, f"must be a whole number from {lo} to {hi}; got {value!r}")
    return number


def parse_bool(key: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no"):
        return value.lower() in ("true", "yes")
    raise ConfigError(key, f"must be true or false; got {value!r}")


def parse_range(value: object) -> tuple[int, int]:
    """``"LO-HI"`` or ``[LO, HI]`` with 1 <= LO < HI <= 999."""
    allowed = f"give two whole numbers LO-HI with 1 <= LO < HI <= {RANGE_MAX}, e.g. 1-20"
    lo = hi = None
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(-?\d{1,6})\s*-\s*(-?\d{1,6})\s*", value)
        if match:
            lo, hi = int(match[1]), int(match[2])
    elif (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        lo, hi = value
    if lo is None or hi is None:
        raise ConfigError("range", f"{value!r} is not a range; {allowed}")
    if lo < 1 or hi > RANGE_MAX or lo >= hi:
        raise ConfigError("range", f"{lo}-{hi} is not allowed; {allowed}")
    return lo, hi


@cache
def printable_characters() -> frozenset[int]:
    """Code points that both the regular and bold text faces can draw."""
    from fontTools.ttLib import TTFont  # WeasyPrint depends on fontTools already

    faces = ("AtkinsonHyperlegible-Regular.ttf", "AtkinsonHyperlegible-Bold.ttf")
    maps = [set(TTFont(font_path(f), lazy=True).getBestCmap()) for f in faces]
    return frozenset(maps[0] & maps[1])


def check_text(key: str, what: str, text: str, limit: int) -> str:
    """Free text printed on pages: no control characters, glyphs the fonts have, a length cap."""
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise ConfigError(key, f"{what} contains a control character; use printable text only")
    if len(text) > limit:
        raise ConfigError(key, f"{what} has {len(text)} characters; at most {limit} fit")
    missing = sorted({ch for ch in text if ord(ch) not in printable_characters()})
    if missing:
        raise ConfigError(
            key, f"{what} uses characters the kit's font cannot print ({''.join(missing)}); "
            "use Latin-script letters, digits and punctuation"
        )
    return text


def parse_names(value: object) -> tuple[str, ...]:
    """Comma-separated text (a flag) or a list of strings (TOML); unique, 1-24 characters."""
    if isinstance(value, str):
        items: list[object] = value.split(",")
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise ConfigError("names", f"must be a list of names; got {value!r}")
    names: list[str] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(items, start=1):
        if not isinstance(item, str):
            raise ConfigError("names", f"name {i} must be text; got {item!r}")
        name = " ".join(item.split())
        if not name:
            raise ConfigError("names", f"name {i} is empty; each name needs 1 to {NAME_MAX} "
                              "characters")
        check_text("names", f"name {i} {name[:30]!r}", name, NAME_MAX)
        folded = name.casefold()
        if folded in seen:
            raise ConfigError("names", f"{name!r} is given twice (names {seen[folded]} and {i}); "
                              "every player needs a different name")
        seen[folded] = i
        names.append(name)
    return tuple(names)


def resolve(raw: Mapping[str, object], source: str = "the config") -> KitConfig:
    """Validate raw settings (file values already merged with flags) into a ``KitConfig``."""
    # The registry imports the page planners, which import this module: import it late.
    from .registry import GAMES, game_spec

    check_keys(raw, source)
    if raw.get("game") in (None, ""):
        raise ConfigError("game", f"no game given; choose one of: {', '.join(GAMES)}")
    spec = game_spec(str(raw["game"]))
    for key in raw:
        option = OPTIONS_BY_KEY[key]
        if option.games and spec.name not in option.games:
            own = [o.key for o in OPTIONS if spec.name in o.games]
            raise ConfigError(
                key, f"is not an option of {spec.name} (its own options: {', '.join(own)})"
            )

    names = parse_names(raw["names"]) if raw.get("names") not in (None, "", []) else ()
    if names:
        players = len(names)
        if raw.get("players") is not None and parse_int(
            "players", raw["players"], 1, 100_000
        ) != players:
            raise ConfigError("players", f"{raw['players']} does not match the {players} names "
                              "given; give a count or names, or make them agree")
    elif raw.get("players") is not None:
        try:
            players = parse_int("players", raw["players"], 1, 100_000)
        except ConfigError:
            spec.check_players(None, raw["players"])  # the game's message: the counts allowed
            raise
    else:
        players = spec.default_players
    tables = None if raw.get("tables") is None else parse_int("tables", raw["tables"], 1, 1000)
    if tables is None and not (spec.splits_large_parties and spec.max_players is not None
                               and players > spec.max_players):
        spec.check_players(players)
        sizes = [players]
    else:
        sizes = table_sizes(players, spec.min_players, spec.max_players, tables)
    shuffle = None if raw.get("shuffle") is None else parse_int("shuffle", raw["shuffle"], 0,
                                                                 2**31 - 1)
    if shuffle is not None and not names:
        raise ConfigError("shuffle", "only seats named players; give names, or leave it out")

    paper_name = raw.get("paper", OPTIONS_BY_KEY["paper"].default)
    if not isinstance(paper_name, str) or paper_name.lower() not in PAPERS:
        paper_by_name(str(paper_name))  # raises the one paper error message
    custom = raw.get("range") not in (None, "")
    number_range = parse_range(raw["range"]) if custom else spec.default_range(players)

    def get(key: str) -> object:
        return raw.get(key, OPTIONS_BY_KEY[key].default)

    config = KitConfig(
        game=spec.name,
        players=players,
        names=names,
        paper=str(paper_name).lower(),
        range=number_range,
        custom_range=custom,
        title=check_text("title", "the title", str(get("title")), TITLE_MAX),
        date=check_text("date", "the date", str(get("date")), 40),
        out=str(get("out")),
        rounds=parse_int("rounds", get("rounds"), 1, 12),
        cooperative=parse_bool("cooperative", get("cooperative")),
        sudden_death_announced=parse_bool("sudden_death_announced",
                                          get("sudden_death_announced")),
        host_plays=parse_bool("host_plays", get("host_plays")),
        turns=parse_int("turns", get("turns"), 1, 30),
        tables=tables,
        shuffle=shuffle,
        sizes=tuple(sizes),
    )
    spare = raw.get("spare_slips")
    if spare is not None:
        config = replace(config, spare_slips=parse_int("spare_slips", spare, 0, 3 * min(sizes)))
    spec.check_config(config)
    return config


def seat(config: KitConfig) -> list[KitConfig]:
    """One config per table of a split party (the config itself when it is one table)."""
    if config.table_count == 1:
        return [config]
    seated = deal(config.names, config.sizes, config.shuffle) if config.names else [
        () for _ in config.sizes]
    return [
        replace(config, players=size, names=tuple(names), table=i)
        for i, (size, names) in enumerate(zip(config.sizes, seated, strict=True), start=1)
    ]
