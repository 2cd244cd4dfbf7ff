"""The command line: the only place that turns ``KitError`` into ``Error: ...`` and exit codes."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .config import KitConfig, load_toml, resolve
from .errors import KitError
from .options import OPTIONS, PAPERS

EXIT_USAGE = 2


class UsageError(KitError):
    """Arguments argparse could not read."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError("arguments", f"{message}; see '{self.prog} --help'")


def _default_text(option: object) -> str:
    from .options import Option

    assert isinstance(option, Option)
    if option.kind == "bool":
        return "off"
    if option.default in (None, "", ()):
        return ""
    return str(option.default)


def parser() -> argparse.ArgumentParser:
    from .registry import GAMES

    top = _Parser(prog="kit", description="Print-ready kits (PDF and HTML) for secret-number "
                  "party games.")
    top.add_argument("--version", action="version", version=f"kit {__version__}")
    sub = top.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    build = sub.add_parser(
        "build", help="build kit folders (player kit and host answers, PDF and HTML)",
        description="Build a kit. With no GAME (and no --config), builds the default kit of "
        "every game on every paper size. Flags override values from --config.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="games: " + ", ".join(f"{name} ({spec.title})" for name, spec in GAMES.items()),
    )
    build.add_argument("game", nargs="?", metavar="GAME",
                       help=f"one of: {', '.join(GAMES)} (default: every game)")
    build.add_argument("--config", metavar="FILE", help="a TOML config file (keys as below, "
                       "with underscores)")
    for option in OPTIONS:
        if option.key == "game":
            continue
        default = _default_text(option)
        only = f" [{', '.join(option.games)} only]" if option.games else ""
        text = option.help + only + (f" (default: {default})" if default else "")
        if option.kind == "bool":
            build.add_argument(option.flag, dest=option.key, default=None,
                               action=argparse.BooleanOptionalAction, help=text)
        elif option.kind == "choice" and option.choices:
            build.add_argument(option.flag, dest=option.key, default=None, metavar="|".join(
                option.choices), help=text)
        else:
            build.add_argument(option.flag, dest=option.key, default=None,
                               metavar=option.metavar, help=text)
    build.add_argument("--json", action="store_true",
                       help="print a JSON manifest of what was written instead of the paths")
    return top


def configs_from_args(args: argparse.Namespace) -> list[KitConfig]:
    """Merge the config file (if any) with flags, flags winning, and validate."""
    from .registry import GAMES

    flags = {o.key: getattr(args, o.key) for o in OPTIONS
             if o.key != "game" and getattr(args, o.key) is not None}
    if args.game is not None:
        flags["game"] = args.game
    raw: dict[str, object] = {}
    source = "the command line"
    if args.config:
        raw = load_toml(args.config)
        source = args.config
        from .config import check_keys

        check_keys(raw, source)
    if "players" in flags or "names" in flags:  # a head count or names on the command line
        raw.pop("players", None)  # replace the file's players and names together
        raw.pop("names", None)
    raw.update(flags)
    if "game" in raw:
        return [resolve(raw, source)]
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kit``; returns the exit code (0 ok, 2 bad input)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parser().parse_args(args_list)
        if args.command is None:
            parser().print_help()
            return EXIT_USAGE
        from .render import build

        configs = configs_from_args(args)
        paths = build(configs)
    except KitError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        print(json.dumps(manifest(paths, configs), indent=2))
    else:
        for path in paths:
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
