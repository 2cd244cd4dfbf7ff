"""Config loading and validation: raw values (TOML file, flags) -> one frozen ``KitConfig``.

Every check names the field and the allowed values. Nothing here guesses: a bad value is an
error, never quietly replaced by a default. The options every kit takes are in
``kit.options``; a game's own options are declared by the game and land in
``KitConfig.settings``, a frozen object of the game's making.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from .errors import ConfigError, Msg, shown, shown_path
from .game import GameSpec, KitConfig
from .i18n import N_
from .options import COMMON_BY_KEY, MAX_PLAYERS, NAMES, PLAYERS, RANGE, SHUFFLE, TABLES, Option
from .registry import GAMES, game_spec
from .tables import deal, table_sizes
from .tomlhelp import loads as loads_toml

CONFIG_MAX_BYTES = 256 * 1024  # a config or game log; the largest real one is a few KB

T = TypeVar("T")


def read_text(path: str | Path, what: str = "config") -> str:
    """A config file or game log as text, read with a size limit: never a whole disk."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(CONFIG_MAX_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError(what, f"cannot read {shown_path(path)}: no such file") from None
    except IsADirectoryError:
        raise ConfigError(what, f"cannot read {shown_path(path)}: it is a folder") from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ConfigError(what, f"cannot read {shown_path(path)}: {reason}") from None
    if len(data) > CONFIG_MAX_BYTES:
        raise ConfigError(what, f"{shown_path(path)} is larger than {CONFIG_MAX_BYTES // 1024} "
                          "KB; a real one is a few KB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(what, f"{shown_path(path)} is not UTF-8 text") from None


def load_toml(path: str | Path, what: str = "config") -> dict[str, object]:
    """Read a TOML file; a missing, oversized or malformed file is an error of ``what``."""
    text = read_text(path, what)
    try:
        return loads_toml(text)  # nesting and digits capped: a TOMLDecodeError
    except tomllib.TOMLDecodeError as exc:
        from .tomlhelp import explain  # line and column, and the usual trap in plain words

        raise ConfigError(what, f"{shown_path(path)} is not valid TOML: "
                          f"{explain(text, str(exc))}") from None


def allowed_keys(spec: GameSpec | None = None) -> list[str]:
    games = [spec] if spec else list(GAMES.values())
    own = [o.key for g in games for o in g.options]
    return ["game", *COMMON_BY_KEY, *dict.fromkeys(own)]


def check_keys(raw: Mapping[str, object], source: str) -> None:
    allowed = allowed_keys()
    for key in raw:
        if key not in allowed:
            raise ConfigError("config", f"unknown key {shown(str(key))} in {source}; allowed "
                              f"keys: {', '.join(allowed)}")


def _game(raw: Mapping[str, object]) -> GameSpec:
    game = raw.get("game")
    if game is None:
        raise ConfigError("game", f"no game given; choose one of: {', '.join(GAMES)}")
    if not isinstance(game, str):
        raise ConfigError("game", f"must be text naming a game ({', '.join(GAMES)}); got "
                          f"{type(game).__name__}")
    return game_spec(game.strip())


def _given(raw: Mapping[str, object], option: Option[T]) -> T | None:
    """``option``'s checked value; None when the settings leave it out."""
    value = raw.get(option.key)
    return None if value is None else option.convert(value)


def _players(spec: GameSpec, raw: Mapping[str, object], names: tuple[str, ...]) -> int:
    given = raw.get("players")
    if names:
        if given is not None and PLAYERS.convert(given) != len(names):
            raise ConfigError("players", f"{given} does not match the {len(names)} names "
                              "given; give a count or names, or make them agree")
        return len(names)
    if given is None:
        return spec.default_players
    try:
        return PLAYERS.convert(given)
    except ConfigError:
        if isinstance(given, int | str) and not isinstance(given, bool):
            spec.check_players(None, given)  # the game's message: the counts allowed
        raise


def _seating(spec: GameSpec, raw: Mapping[str, object], players: int
             ) -> tuple[int | None, list[int]]:
    tables = _given(raw, TABLES)
    if tables is None and not (spec.splits_large_parties and spec.max_players is not None
                               and players > spec.max_players):
        spec.check_players(players)
        return None, [players]
    return tables, table_sizes(players, spec.min_players, spec.max_players, tables)


def resolve(raw: Mapping[str, object], source: str = "the config") -> KitConfig:
    """Validate raw settings (file values already merged with flags) into a ``KitConfig``."""
    check_keys(raw, source)
    spec = _game(raw)
    own = {o.key for o in spec.options}
    for key in raw:
        if key not in own and key not in COMMON_BY_KEY and key != "game":
            raise ConfigError(key, Msg(N_("is not a setting of %(game)s kits (its own: "
                                          "%(own)s); leave it out"), game=Msg(spec.title),
                                       own=", ".join(sorted(own)) or "none"))

    def value(key: str) -> object:
        option = COMMON_BY_KEY[key]
        return option.convert(raw[key]) if raw.get(key) is not None else option.default

    names = _given(raw, NAMES) or ()
    players = _players(spec, raw, names)
    tables, sizes = _seating(spec, raw, players)
    shuffle = _given(raw, SHUFFLE)
    if shuffle is not None and not names:
        raise ConfigError("shuffle", Msg(N_("only seats named players; give names, or leave "
                                            "it out")))
    custom = raw.get("range") is not None
    settings = spec.settings(**{o.key: o.convert(raw[o.key]) if raw.get(o.key) is not None
                                else o.default for o in spec.options})
    config = KitConfig(
        game=spec.name,
        players=players,
        names=names,
        paper=str(value("paper")),
        range=_given(raw, RANGE) or spec.default_range(players),
        custom_range=custom,
        settings=settings,
        title=str(value("title")),
        date=str(value("date")),
        out=str(value("out")),
        lang=str(value("lang")),
        large_print=bool(value("large_print")),
        tables=tables,
        shuffle=shuffle,
        sizes=tuple(sizes),
    )
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


__all__ = ["KitConfig", "MAX_PLAYERS", "check_keys", "load_toml", "resolve", "seat"]
