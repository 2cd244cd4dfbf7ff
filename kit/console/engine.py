"""The console's only door to the rules: the same functions ``kit report`` uses, so the
console's checks and report files are those of the command line. Nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..cache import default_cache
from ..errors import KitError, Problems
from ..report import check_log, report_folder, report_text, resume_log, write_reports


def check(data: Mapping[str, Any]) -> object:
    """The checked log (the engine's object); every problem raised as ``Problems``."""
    return _problems(check_log, data)


def resume(data: Mapping[str, Any], kept: object = None) -> object:
    """``check`` as the engine's running state (``kit.report.resume_log``): resumed from
    ``kept``, an earlier result for the same game, it costs what changed since."""
    return _problems(resume_log, data, kept)


def _problems(checker: Callable[..., object], *args: object) -> object:
    """``checker(*args)``, its problems raised as ``Problems``."""
    try:
        return checker(*args)
    except Problems:
        raise
    except KitError as exc:
        raise Problems([exc]) from None


def write(data: Mapping[str, Any], *, out: Path, folder: str, paper: str, lang: str,
          turn: int | None = None, player: str | None = None) -> list[Path]:
    """Write the report files of ``data`` into ``out/folder``: what ``kit report`` writes
    (with ``turn``, what ``kit report --turn N`` writes: that turn's files only; with
    ``player``, that player's own files alone)."""
    return write_reports(data, out=out, folder=folder, paper=paper, lang=lang, turn=turn,
                         cache=default_cache(), player=player)


def folder_name(data: Mapping[str, Any]) -> str:
    """The report folder ``kit report game.toml`` makes for ``data`` (from its title)."""
    return report_folder(data, "game.toml")


def text(data: Mapping[str, Any], lang: str, turn: int | None = None) -> str:
    """``kit report --format text`` of ``data`` (``turn``: with ``--turn N``)."""
    return report_text(data, lang=lang, turn=turn)
