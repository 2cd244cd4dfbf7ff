"""``kit report`` for any game with a game log: check it, write its report folder, or say it
as text or CSV. The command line and the console both call these, so their files agree.

A game log is the dict ``tomllib`` gives for the TOML file. Every problem of a log is raised at
once (``kit.errors.Problems``). The report folder is named after the log's ``title`` (or the
file name), keeps files a user put there, and records the reports of published turns
(``kit.published``): a log change that would alter one is refused unless amended.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import read_text
from .errors import ConfigError, shown_path
from .game import GameReport, GameSpec, KitConfig
from .i18n import DEFAULT, words
from .published import check_published, read_record, record_bytes, recorded_amendments
from .registry import GAMES, game_spec
from .tomlhelp import explain
from .tomlhelp import loads as loads_toml

if TYPE_CHECKING:
    from .cache import RenderCache
    from .prose import Renderer

FOLDER_MAX = 40  # characters of the name a report folder takes from the title or file name
SUFFIX = "-reports"
_checked: tuple[tuple[bool, str], object] | None = None  # the last log checked (check_log)


ISOLATED = re.compile("\u2068([^\u2068\u2069]*)\u2069")  # a name in FSI ... PDI marks


def plain_text(text: str) -> str:
    """Text for a terminal or an email: the invisible direction marks around a name dropped
    where the name has no right-to-left letter (many terminals draw them as boxes), kept
    around a Hebrew or Arabic name, which needs them to keep its place in the line."""
    def unmark(found: re.Match) -> str:
        name = found[1]
        rtl = any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in name)
        return found[0] if rtl else name

    return ISOLATED.sub(unmark, text)


def _spec(data: Mapping) -> tuple[GameSpec, GameReport[Any]]:
    """The game a log names, if it has reports."""
    if not isinstance(data, Mapping):
        raise ConfigError("game", "the game log must be a TOML table")
    name = data.get("game")
    spec = game_spec(name) if isinstance(name, str) and name in GAMES else None
    report = spec.report_part() if spec is not None else None
    if spec is None or report is None:
        takes = [n for n, g in GAMES.items() if g.report is not None]
        raise ConfigError("game", f"a game log names its game: game = \"{takes[0]}\" (games "
                          f"with reports: {', '.join(takes)})")
    return spec, report


def load_log(path: str | Path) -> tuple[dict, str]:
    """A game log file: its data and its text (the text lets errors name their lines); a
    TOML mistake is one error naming the line, the column and the usual trap."""
    text = read_text(path, "log")
    try:
        return loads_toml(text), text  # nesting and digits capped: a TOMLDecodeError
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("log", f"{shown_path(path)} is not valid TOML: "
                          f"{explain(text, str(exc))}") from None


def check_log(data: Mapping, *, strict: bool = False, source: str | None = None) -> object:
    """The game's checked log; every problem of ``data`` at once. ``strict``: the house
    rulings are errors instead (for games that have them). ``source``: the TOML text
    ``data`` was read from, for games whose errors name the line."""
    spec, report = _spec(data)
    if strict and not report.strict:
        raise ConfigError("strict", f"{spec.title} logs have no house rulings to make strict; "
                          "leave --strict out")
    # One run checks the same log for the files and again for the summary line: the last
    # log checked is kept, by its content (repr), never by identity (a caller may edit a dict).
    global _checked
    key = (strict, repr(data))
    last = _checked  # read once: another thread (the console's server) may replace it
    if last is not None and last[0] == key:
        return last[1]
    log = report.parse(data, source=source, strict=strict)
    _checked = (key, log)
    return log


def resume_log(data: Mapping, kept: object = None) -> object:
    """``check_log``'s check of ``data`` as the game's running state: resumed from ``kept``
    (an earlier result of this function for the same game), a log that differs from it in
    its last turns costs those turns. Games without a resumable check are checked whole
    (the result is then ``check_log``'s)."""
    _spec_, report = _spec(data)
    if report.resume is None:
        return check_log(data)
    return report.resume(data, kept)


def slug(text: str) -> str:
    """A folder-safe name: letters and digits of any script kept, every other run of
    characters one "-"; at most 40 characters."""
    return re.sub(r"[\W_]+", "-", text).strip("-")[:FOLDER_MAX].strip("-")


def report_folder(data: object, log_path: str | Path | None = None) -> str:
    """The report folder's name: the log's ``title``, else its file name, then "-reports"
    ("Friday night.toml" -> "Friday-night-reports"); "game-reports" when neither has a
    letter or digit."""
    title = data.get("title") if isinstance(data, Mapping) else None
    for source in (title if isinstance(title, str) else "",
                   Path(log_path).stem if log_path else ""):
        name = slug(source)
        if name:
            return name + SUFFIX
    return "game" + SUFFIX


def _turn(report: GameReport[Any], log: object, turn: int | None) -> None:
    if turn is None:
        return
    if report.by_turn is None:
        raise ConfigError("turn", "this game's reports are not turn by turn; leave --turn out")
    played = report.by_turn.turns(log)
    if not 1 <= turn <= played:
        where = f"turns 1 to {played}" if played else "no turns yet"
        raise ConfigError("turn", f"{turn} is not a turn of this log; it reports {where}")


def _published(data: Mapping, report: GameReport[Any], log: object, folder: Path,
               amend: bool) -> tuple[dict | None, tuple]:
    """The folder's new record of published turns and every amendment it holds (None: the
    game or the log keeps no record)."""
    published = data.get("published")
    if report.by_turn is None:
        if published is not None:
            raise ConfigError("published", "this game's reports are not turn by turn; "
                              "leave published out")
        return None, ()
    record = read_record(folder)
    if published is None:
        return (record if record["turns"] else None), recorded_amendments(record)
    snapshots = report.by_turn.snapshots(log)
    if published > len(snapshots):
        raise ConfigError("published", f"{published} turns handed out, but the log reports "
                          f"{len(snapshots)}; published counts the turns whose reports the "
                          "players have")
    record, _new = check_published(record, snapshots, published, amend)
    return record, recorded_amendments(record)


def write_reports(data: Mapping, *, out: Path, folder: str, paper: str = "a4",
                  lang: str = DEFAULT, turn: int | None = None, strict: bool = False,
                  amend: bool = False, cache: RenderCache | None = None,
                  renderer: Renderer | None = None,
                  source: str | None = None, player: str | None = None) -> list[Path]:
    """Write the report folder ``out/folder`` (or, with ``turn``, only that turn's files into
    it) and return the files written; nothing is written when a problem is found.
    ``player``: that player's own files alone (their slips; no shared report, no record),
    for a game whose reports have them (``TurnReports.slips``)."""
    from .build import build, plan_recipe
    from .paper import paper as paper_size

    log = check_log(data, strict=strict, source=source)
    spec, report = _spec(data)
    _turn(report, log, turn)
    by_turn = report.by_turn
    if player is not None and (by_turn is None or by_turn.slips is None):
        raise ConfigError("player", "this game's reports have no player's own files")
    sheet = paper_size(paper)
    record, amendments = _published(data, report, log, out / folder, amend)
    config = KitConfig(game=spec.name, players=0, names=(), paper=sheet.name, range=(1, 1),
                       custom_range=False, out=str(out), party=folder, lang=lang)
    if by_turn is None:
        recipe = plan_recipe(report.plan(log, config), config)
    else:
        recipe = plan_recipe(by_turn.plan(log, config, turn=turn, amendments=amendments,
                                          player=player), config)
    if turn is not None and by_turn is not None and player is None:
        recipe.files[f"turn-{turn}.md"] = plain_text(
            by_turn.text(log, words(lang), turn)).encode()
    if turn is not None and by_turn is not None and by_turn.slips is not None:  # GM only, like
        # the slips' PDF: one block per player (or only theirs)
        recipe.files[f"slips-turn-{turn}.md"] = plain_text(
            by_turn.slips(log, words(lang), turn, player)).encode()
    if record is not None and player is None:
        recipe.files["published.json"] = record_bytes(record)
    return build([], cache, recipes=[recipe], renderer=renderer,
                 keep="all" if turn is not None else "foreign")


def turn_summary(data: Mapping, turn: int, *, lang: str = DEFAULT, pages: int = 0,
                 strict: bool = False, source: str | None = None) -> str:
    """``--turn N``'s line: the turn, its pages, then the winner or next turn's allowances."""
    log = check_log(data, strict=strict, source=source)
    _spec_, report = _spec(data)
    _turn(report, log, turn)
    say = words(lang)
    head = say.ngettext("Turn %(turn)s: %(num)s page", "Turn %(turn)s: %(num)s pages", pages,
                        turn=turn)
    rest = plain_text(report.by_turn.summary(log, turn, say)) if report.by_turn else ""
    return f"{head}{say.semicolon}{rest}" if rest else head


def report_text(data: Mapping, *, lang: str = DEFAULT, turn: int | None = None,
                strict: bool = False, source: str | None = None) -> str:
    """``--format text``: the reports as Markdown (only ``turn``'s, when given)."""
    log = check_log(data, strict=strict, source=source)
    _spec_, report = _spec(data)
    _turn(report, log, turn)
    if turn is None or report.by_turn is None:  # _turn refused a turn of a game without
        return plain_text(report.text(log, words(lang)))
    return plain_text(report.by_turn.text(log, words(lang), turn))


def report_csv(data: Mapping, *, strict: bool = False, source: str | None = None) -> str:
    """``--format csv``: the game's rows for a spreadsheet (What's My Number?: one row per
    guess and answer; Lowest Unique Number: one per player and round)."""
    log = check_log(data, strict=strict, source=source)
    spec, report = _spec(data)
    if report.csv is None:
        raise ConfigError("format", f"{spec.title} logs have no CSV yet; use --format text")
    return report.csv(log)
