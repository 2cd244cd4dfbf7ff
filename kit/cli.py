"""The command line: the only place that turns ``KitError`` into ``Error: ...`` and exit codes.

Every flag of ``kit build`` comes from the option declarations (``kit.options.COMMON`` and each
game's own), so a new option is a flag, a config key and a form field at once.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import re
import sys
import time
from collections.abc import Callable, Container, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from . import __version__
from .config import check_keys, load_toml, resolve
from .errors import ConfigError, KitError, escaped
from .game import KitConfig
from .helptext import COMMAND_HELP, DOCS, HelpFormatter, epilog
from .i18n import DEFAULT as DEFAULT_LANGUAGE
from .i18n import LANGUAGES
from .options import MAX_PLAYERS, Flag, Option
from .output import check_out
from .paper import PAPERS
from .registry import GAMES, all_options

if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID

    from .cache import RenderCache
    from .prose import Renderer

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C
MAX_PARTIES = 50  # parties in one batch config
MAX_BATCH_PLAYERS = 2 * MAX_PLAYERS  # players over all the parties of a batch
ERROR_MAX = 400  # characters of an error line
FORMATS = ("files", "text", "csv")  # kit report --format
NO_CACHE = ("render every prose page afresh: do not read or write the render cache "
            "(KIT_CACHE_DIR, else the user cache folder)")


class UsageError(KitError):
    """Arguments argparse could not read."""


class _Parser(argparse.ArgumentParser):
    """Usage errors are ``KitError``s (one ``Error:`` line, exit 2); help at a fixed width
    when ``help_width`` is set (the generated reference, ``kit.clidoc``)."""

    help_width: int | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def _get_formatter(self) -> argparse.HelpFormatter:
        make: Callable[..., argparse.HelpFormatter] = self.formatter_class  # takes width too
        return make(prog=self.prog, width=self.help_width)

    def error(self, message: str) -> NoReturn:
        raise UsageError("arguments", f"{message}; see '{self.prog} --help'")


def _default_text(option: Option) -> str:
    if isinstance(option.type, Flag):
        return "off"
    return "" if option.default in (None, "", ()) else str(option.default)


def add_build(sub: argparse._SubParsersAction) -> None:
    build = sub.add_parser(
        "build", help="build kit folders (player kit and host answers, PDF and HTML)",
        description="Build a kit. With no GAME (and no --config), builds the default kit of "
        "every game on every paper size. Flags override values from --config. Prints the path "
        "of each PDF and HTML file written, one per line (the fonts/ files and .kit-files "
        "are not listed), and on stderr the sheets of paper each PDF takes, with a warning "
        "for a file over 100 sheets.",
        epilog=epilog(("kit build lowest-unique --players 9 --lang fr --paper letter",
                       "kit build whats-my-number --names Ann,Bob,Cy,Dee --turns 6"),
                      "games: " + ", ".join(f"{name} ({spec.title})"
                                            for name, spec in GAMES.items()),
                      f"Full documentation: {DOCS} (docs/tutorials/first-party.md, "
                      "docs/reference/config.md)."),
    )
    build.add_argument("game", nargs="?", metavar="GAME",
                       help=f"one of: {', '.join(GAMES)} (default: every game)")
    build.add_argument("--config", metavar="FILE", help="a TOML config file (keys as below, "
                       "with underscores)")
    for option, games in all_options():
        default = _default_text(option)
        only = f" [{', '.join(games)} only]" if games else ""
        text = option.help + only + (f" (default: {default})" if default else "")
        if isinstance(option.type, Flag):
            build.add_argument(option.flag, dest=option.key, default=None,
                               action=argparse.BooleanOptionalAction, help=text)
        else:
            build.add_argument(option.flag, dest=option.key, default=None,
                               metavar=option.metavar, help=text)
    build.add_argument("--no-cache", dest="cache", action="store_false", help=NO_CACHE)
    build.add_argument("--json", action="store_true",
                       help="print a JSON manifest of what was written instead of the paths")


def add_report(sub: argparse._SubParsersAction) -> None:
    report = sub.add_parser(
        "report", help="fill in the reports of a played game from its game log",
        description="Read a game log (TOML): What's My Number? turn reports, a GM-only "
        "register and private slips, or Lowest Unique Number tallies, score sheets and party "
        "standings, as PDF and HTML into a report folder, or as Markdown tables with "
        "--format text.",
        epilog=epilog(("kit report friday.toml --turn 4", "kit report party.toml --format csv"),
                      f"Full documentation: {DOCS} (docs/how-to/game-logs.md, the log format "
                      "in docs/reference/log-format.md)."))
    report.add_argument("log", metavar="GAME_LOG", help="the game log, a TOML file")
    report.add_argument("--format", choices=FORMATS, default="files",
                        metavar="|".join(FORMATS),
                        help="files: PDF and HTML into --out; text: Markdown on stdout; csv: "
                        "one row per guess and answer (or per player and round) on stdout "
                        "(default: files)")
    report.add_argument("--turn", type=int, metavar="N",
                        help="only turn N: writes turn-N.pdf, turn-N.html and turn-N.md and "
                        "prints a one-line summary (with --format text: only that turn)")
    report.add_argument("--strict", action="store_true",
                        help="make every house ruling an error (extra or out-of-range guesses, "
                        "lists missing players, players without orders)")
    report.add_argument("--amend", action="store_true",
                        help="accept a log change that alters a report already handed out "
                        "(published = N): an erratum is printed and recorded")
    report.add_argument("--paper", default="a4", metavar="|".join(PAPERS),
                        help="paper size (default: a4)")
    report.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=tuple(LANGUAGES),
                        metavar="|".join(LANGUAGES),
                        help="language of the reports: " + ", ".join(
                            f"{code} ({name})" for code, name in LANGUAGES.items())
                        + f" (default: {DEFAULT_LANGUAGE})")
    report.add_argument("--out", default="build", metavar="DIR",
                        help="folder the report folder is written into (default: build)")
    report.add_argument("--no-cache", dest="cache", action="store_false", help=NO_CACHE)


def parser(full: Container[str | None] = tuple(COMMAND_HELP)) -> argparse.ArgumentParser:
    """The ``kit`` parser, with every command in full (the generated reference) or only the
    server-side commands in ``full`` (the one about to run): the others are listed by name and
    help line alone, so that ``kit build`` or ``kit --help`` imports none of their modules."""
    top = _Parser(prog="kit", description="Print-ready kits (PDF and HTML) for secret-number "
                  "party games, their filled reports, and a game-night console in the browser.",
                  epilog=epilog(("kit build lowest-unique --players 9 --lang fr --paper letter",
                                 "kit serve --host 0.0.0.0 --database party.sqlite3"),
                                "'kit COMMAND --help' describes each command. Full "
                                f"documentation: {DOCS} (start at docs/README.md; every "
                                "command's help: docs/reference/cli.md)."))
    top.add_argument("--version", action="version", version=f"kit {__version__}")
    sub = top.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    add_build(sub)
    add_report(sub)
    for name in COMMAND_HELP:
        if name in full:
            _add_server_side(name, sub)
        else:
            sub.add_parser(name, help=COMMAND_HELP[name], add_help=False)
    return top


def _add_server_side(name: str, sub: argparse._SubParsersAction) -> None:
    """The full parser of a server-side command (``kit.helptext.COMMAND_HELP``)."""
    if name == "site":
        from .site.commands import add_commands

        add_commands(sub)
    elif name == "serve":
        from .serve.commands import add_command

        add_command(sub)
    else:
        from .mail.commands import add_mail

        add_mail(sub)


PARTY_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


def _party_configs(raw: dict[str, object], parties: object, flags: dict[str, object],
                   source: str) -> list[KitConfig]:
    if not isinstance(parties, list) or not parties or not all(
            isinstance(p, dict) for p in parties):
        raise ConfigError("party", f"must be one or more [[party]] tables in {source}")
    if len(parties) > MAX_PARTIES:
        raise ConfigError("party", f"{len(parties)} parties in {source}; one batch builds at "
                          f"most {MAX_PARTIES}")
    configs = []
    seen: dict[str, int] = {}
    total = 0
    for number, party in enumerate(parties, start=1):
        party = dict(party)
        name = party.pop("name", None)
        where = f"party {number} in {source}"
        if not isinstance(name, str) or not PARTY_NAME.fullmatch(name):
            shown_name = escaped(repr(name))[:60]
            raise ConfigError("party", f"{where} needs a name of 1 to 40 letters, digits, '-', "
                              f"'_' or '.', starting with a letter or digit; got {shown_name}")
        if name.casefold() in seen:
            raise ConfigError("party", f"the name {name!r} is used by parties "
                              f"{seen[name.casefold()]} and {number}; every party needs its own "
                              "name (it names the party's folder)")
        seen[name.casefold()] = number
        check_keys(party, where)
        merged = merge(merge(raw, party), flags)
        config = replace(resolve(merged, where), party=name)
        total += config.players
        if total > MAX_BATCH_PLAYERS:
            raise ConfigError("party", f"the parties of {source} seat more than "
                              f"{MAX_BATCH_PLAYERS} players; build them in several batches")
        configs.append(config)
    return configs


def configs_from_args(args: argparse.Namespace) -> list[KitConfig]:
    """Merge the config file (if any) with flags, flags winning, and validate every kit.

    A file with ``[[party]]`` tables is a batch: top-level keys are defaults for every party,
    each party names its own folder with ``name``. A file names its game (or each party does).
    """
    flags = {o.key: getattr(args, o.key) for o, _ in all_options()
             if getattr(args, o.key) is not None}
    if args.game is not None:
        flags["game"] = args.game
    if not args.config:
        return expand_defaults(merge({}, flags), "the command line")
    raw = load_toml(args.config)
    source = escaped(str(args.config))
    parties = raw.pop("party", None)
    check_keys(raw, source)
    if parties is not None:
        return _party_configs(raw, parties, flags, source)
    return [resolve(merge(raw, flags), source)]


def merge(base: dict[str, object], over: dict[str, object]) -> dict[str, object]:
    """``over`` wins; a head count or names in ``over`` replace both in ``base``."""
    merged = dict(base)
    if "players" in over or "names" in over:
        merged.pop("players", None)
        merged.pop("names", None)
    merged.update(over)
    return merged


def expand_defaults(raw: dict[str, object], source: str) -> list[KitConfig]:
    """One game: that kit. No game: the default kit of every game, on every paper unless set."""
    if "game" in raw:
        return [resolve(raw, source)]
    raw = dict(raw)
    papers = [raw.pop("paper")] if "paper" in raw else list(PAPERS)
    return [resolve({**raw, "game": game, "paper": p}, source) for game in GAMES for p in papers]


def manifest(paths: list[Path], configs: list[KitConfig]) -> list[dict[str, object]]:
    from pypdf import PdfReader

    kits = []
    for config in configs:
        folder = Path(config.out) / config.folder_name
        files = []
        for path in (p for p in paths if p.parent == folder):
            data = path.read_bytes()
            entry: dict[str, object] = {"path": str(path), "bytes": len(data),
                                        "sha256": hashlib.sha256(data).hexdigest()}
            if path.suffix == ".pdf":
                entry["pages"] = len(PdfReader(path).pages)
            files.append(entry)
        kits.append({"folder": str(folder), "game": config.game, "players": config.players,
                     "names": list(config.names), "paper": config.paper,
                     "range": list(config.range), "files": files})
    return kits


def cache_for(args: argparse.Namespace) -> RenderCache | None:
    """The persistent render cache, unless ``--no-cache`` was given."""
    from .cache import default_cache

    return default_cache() if getattr(args, "cache", True) else None


def run_report(args: argparse.Namespace, renderer: Renderer | None = None) -> int:
    """``kit report``: read a game log, then write its filled reports or print them."""
    from .report import (
        load_log,
        report_csv,
        report_folder,
        report_text,
        turn_summary,
        write_reports,
    )

    if args.format != "files" and renderer is not None:
        renderer.stop()  # text and CSV go to stdout: no page to render
    data, text = load_log(args.log)
    if args.format == "csv":
        print(report_csv(data, strict=args.strict, source=text), end="")
        return 0
    if args.format == "text":
        print(report_text(data, lang=args.lang, turn=args.turn, strict=args.strict,
                          source=text), end="")
        return 0
    out = check_out(args.out)
    paths = write_reports(data, out=out, folder=report_folder(data, args.log),
                          paper=args.paper, lang=args.lang, turn=args.turn,
                          strict=args.strict, amend=args.amend, cache=cache_for(args),
                          renderer=renderer, source=text)
    if args.turn is None:
        for path in paths:
            print(path)
        return 0
    from pypdf import PdfReader

    pdf = next(path for path in paths if path.name == f"turn-{args.turn}.pdf")
    print(turn_summary(data, args.turn, lang=args.lang, pages=len(PdfReader(pdf).pages),
                       strict=args.strict, source=text) + f" ({pdf})")
    return 0


class Progress:
    """A progress bar on stderr, only on a terminal and only once a build passes one second."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.bar: tuple[RichProgress, TaskID] | None = None  # the bar and its one task

    def __enter__(self) -> Progress:
        return self

    def update(self, done: int, total: int) -> None:
        if self.bar is None:
            if not sys.stderr.isatty() or time.monotonic() - self.start < 1.0 or done >= total:
                return
            from rich.console import Console
            from rich.progress import Progress as RichProgress

            bar = RichProgress(console=Console(stderr=True), transient=True)
            bar.start()
            self.bar = (bar, bar.add_task("Rendering pages", total=total))
        bar, task = self.bar
        bar.update(task, completed=done, total=total)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar[0].stop()


def run_build(args: argparse.Namespace, renderer: Renderer | None = None) -> int:
    """``kit build``: write the kits, print their folders and what they take to print."""
    from .build import build
    from .sheets import paper_lines

    configs = [replace(c, out=str(check_out(c.out))) for c in configs_from_args(args)]
    with Progress() as progress:
        paths = build(configs, cache_for(args), progress=progress.update, renderer=renderer)
    if args.json:
        print(json.dumps(manifest(paths, configs), indent=2))
    else:
        for path in paths:
            print(path)
    # on stderr: the paths on stdout stay one a line for scripts
    for line in paper_lines(paths, configs):
        print(line, file=sys.stderr)
    return 0


def error_line(exc: KitError) -> str:
    """One line, whatever the message holds: control characters escaped, length capped."""
    line = escaped(str(exc))
    return "Error: " + (line if len(line) <= ERROR_MAX else line[:ERROR_MAX] + "…")


def commands(top: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subcommands of ``top`` (none for a command without any), by name, in the order of
    its ``--help``."""
    found: dict[str, argparse.ArgumentParser] = {}
    for action in top._actions:  # at most one: argparse allows one set of subcommands
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def _command_word(args: Sequence[str]) -> str | None:
    """The command ``args`` name (their first word that is not a flag), if any."""
    return next((a for a in args if not a.startswith("-")), None)


def check_command(top: argparse.ArgumentParser, args: Sequence[str]) -> None:
    """A mistyped command is an error naming the nearest one (``kit buidl``: build), before
    argparse answers with the whole list."""
    given = _command_word(args)
    names = list(commands(top))
    if given is None or given in names:
        return
    close = difflib.get_close_matches(given, names, n=1, cutoff=0.5)
    hint = f"did you mean {close[0]}? " if close else ""
    raise UsageError("arguments", f"unknown command “{escaped(given)[:40]}”; {hint}commands "
                     f"are {', '.join(names)}; see 'kit --help'")


def main(argv: Sequence[str] | None = None, renderer: Renderer | None = None) -> int:
    """Run ``kit``; returns the exit code (0 ok, 2 bad input, 130 interrupted). ``renderer``:
    the prose renderer ``kit.entry`` started for a build or a report, if any."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        top = parser(full=(_command_word(args_list),))
        check_command(top, args_list)
        args = top.parse_args(args_list)
        if args.command is None:
            raise UsageError("arguments", "give a command: build, report, site, serve or "
                             "mail; see 'kit --help'")
        if args.command == "report":
            return run_report(args, renderer)
        if args.command == "mail":
            from .mail.commands import run_mail

            return run_mail(args)
        if args.command == "site":
            from .site.commands import run_command

            return run_command(args)
        if args.command == "serve":
            from .serve.commands import run_command as run_serve

            return run_serve(args)
        return run_build(args, renderer)
    except KitError as exc:
        for problem in getattr(exc, "problems", (exc,)):
            print(error_line(problem), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:  # Ctrl-C: one line, the shell's code for it, no traceback
        print("Interrupted.", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
