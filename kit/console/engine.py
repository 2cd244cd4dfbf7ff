"""The console's only door to the rules: the same functions ``kit report`` uses.

``kit.report`` (check_log / write_reports) is the one engine; while a checkout lacks it, the
game's own ``GameSpec.report`` parser and the report build of ``kit report`` are called
instead (the very code ``kit report`` runs). Nothing here decides a rule.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import KitError, Problems


def check(data: Mapping[str, Any]) -> object:
    """The checked log (the engine's object); every problem raised as ``Problems``."""
    try:
        try:
            from ..report import check_log
        except ImportError:
            from ..registry import game_spec

            return game_spec(str(data.get("game"))).report.parse(data)
        return check_log(data)
    except Problems:
        raise
    except KitError as exc:
        raise Problems([exc]) from None


def wmn_result(checked: object) -> Any:
    """What's My Number?'s played game (``GameResult``: turns, winners, ...) of a checked log."""
    from ..games.whats_my_number import rules

    if isinstance(checked, rules.GameLog):
        return rules.play(checked)
    for name in ("result", "played"):
        if hasattr(checked, name):
            return getattr(checked, name)
    return checked


def write(data: Mapping[str, Any], *, out: Path, folder: str, paper: str, lang: str) -> list[Path]:
    """Write the report files of ``data`` into ``out/folder``: what ``kit report`` writes."""
    try:
        from ..report import write_reports
    except ImportError:
        return _write_fallback(data, out=out, folder=folder, paper=paper, lang=lang)
    return write_reports(data, out=out, folder=folder, paper=paper, lang=lang, cache=_cache())


def folder_name(data: Mapping[str, Any], default: str) -> str:
    """The report folder ``kit report game.toml`` makes for ``data`` (from its title)."""
    try:
        from ..report import report_folder
    except ImportError:
        return default
    return report_folder(data, "game.toml")


def _cache():
    from ..cache import default_cache

    return default_cache()


def _write_fallback(data: Mapping[str, Any], *, out: Path, folder: str, paper: str,
                    lang: str) -> list[Path]:
    from ..build import build, plan_recipe
    from ..game import KitConfig
    from ..paper import paper as paper_of
    from ..registry import game_spec

    spec = game_spec(str(data["game"]))
    log = check(data)
    config = KitConfig(game=spec.name, players=0, names=(), paper=paper_of(paper).name,
                       range=(1, 1), custom_range=False, out=str(out), party=folder, lang=lang)
    recipe = plan_recipe(spec.report.plan(log, config), config)
    return list(build([], _cache(), recipes=[recipe], workers=0))


def to_json(value: Any) -> Any:
    """An engine value (dataclasses, mappings, tuples) as plain JSON data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
        for name in ("tally",):  # computed properties worth showing, when a value has them
            if hasattr(type(value), name) and isinstance(getattr(type(value), name), property):
                out[name] = to_json(getattr(value, name))
        return out
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
