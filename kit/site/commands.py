"""``kit site``: its flags, checked before any work, and what it runs; the flags ``kit serve``
shares with it (``filters``, ``whole``, ``name_list``).

``kit.cli`` adds this subcommand (``add_commands``) and hands it over (``run_command``); this
module imports no web dependency until a command runs, so ``kit build`` never needs them.
Every number flag is read by a ``kit.options`` parameter type, so a bad one is the CLI's usual
one-line error before anything starts: ``Error: port: must be a whole number from 1 to 65535;
got 99999``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time

from ..helptext import COMMAND_HELP, DOCS, epilog
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import LANGUAGES
from ..options import IntRange
from ..paper import PAPERS
from ..server.limits import WORKERS
from .kits import READY_MAX_PLAYERS, ready_configs

JOBS = WORKERS
DEFAULT_WORKERS = min(os.cpu_count() or 1, 4)


def whole(kind: IntRange, key: str, text: str) -> int:
    """A number flag through its parameter type; a number is quoted in the error as a number
    (``got 99999``), anything else as text (``got 'http'``)."""
    number = re.fullmatch(r"\s*[+-]?[0-9]{1,30}\s*", text)
    return kind.convert(key, int(text) if number else text)


def _int_list(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of whole "
                                         "numbers") from None


def name_list(text: str) -> list[str]:
    """A comma-separated flag's names, blanks dropped."""
    return [part.strip() for part in text.split(",") if part.strip()]


def filters(parser: argparse.ArgumentParser) -> None:
    """``--games``, ``--players`` and ``--paper``: which ready-made kits."""
    parser.add_argument("--games", type=name_list, metavar="A,B",
                        help="only these games (default: every registered game)")
    parser.add_argument("--players", type=_int_list, metavar="N,M",
                        help=f"only these player counts (default: every allowed count up to "
                        f"{READY_MAX_PLAYERS})")
    parser.add_argument("--paper", type=name_list, metavar="|".join(PAPERS),
                        help="only these paper sizes (default: all)")


def site_languages(text: str) -> list[str]:
    """``--lang``: ``all`` (every language) or a comma-separated list, repeats dropped; an
    unknown code is ``resolve``'s error (``Error: lang: unknown language``)."""
    names = [name.lower() for name in name_list(text)]
    if not names:
        raise argparse.ArgumentTypeError("give a language, a comma-separated list of "
                                         "them, or all")
    return list(LANGUAGES) if "all" in names else list(dict.fromkeys(names))


def _add_site(sub: argparse._SubParsersAction) -> None:
    site = sub.add_parser("site", help=COMMAND_HELP["site"],
                          description="Build every ready-made kit (each game, each allowed "
                          f"player count up to {READY_MAX_PLAYERS}, each paper size) with a "
                          "thumbnail, and an index.html linking them all, in one language or "
                          "several (each language's index with a switch to the others). Works "
                          "offline. Needs the web extra.",
                          epilog=epilog(("kit site --out build/site",
                                         "kit site --lang all --players 4,6,8 --paper a4"),
                                        f"Full documentation: {DOCS} "
                                        "(docs/how-to/download-site.md)."))
    site.add_argument("--out", default="build/site", metavar="DIR",
                      help="folder to write the site into (default: build/site)")
    site.add_argument("--jobs", default=str(DEFAULT_WORKERS), metavar="N",
                      help=f"kits rendered at once, in worker processes ({JOBS.lo} to "
                      f"{JOBS.hi}; default: CPU count, at most 4)")
    site.add_argument("--lang", default=DEFAULT_LANGUAGE, type=site_languages,
                      metavar="XX[,YY]|all",
                      help="languages of the site and its kits: "
                      f"{', '.join(f'{code} ({name})' for code, name in LANGUAGES.items())}, "
                      "a comma-separated list, or all; with several, English (else the first "
                      "given) is DIR/index.html and each other one DIR/XX/index.html "
                      f"(default: {DEFAULT_LANGUAGE})")
    filters(site)
    site.add_argument("--json", action="store_true", help="print a JSON summary")


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add the ``site`` subcommand to the ``kit`` parser."""
    _add_site(sub)


def run_site(args: argparse.Namespace) -> int:
    from ..cache import default_cache
    from ..output import check_out
    from .static import build_site, root_language

    jobs = whole(JOBS, "jobs", args.jobs)
    configs = ready_configs(args.games, args.players, args.paper, langs=args.lang)
    langs = list(dict.fromkeys(c.lang for c in configs))  # as ``resolve`` read them
    lang = root_language(langs)
    out = check_out(args.out)
    start = time.monotonic()
    index = build_site(out, configs, jobs=jobs, progress=None if args.json else print,
                       store=default_cache(), lang=lang)
    seconds = time.monotonic() - start
    if args.json:
        print(json.dumps({"index": str(index), "lang": lang, "langs": langs,
                          "kits": [c.folder_name for c in configs],
                          "seconds": round(seconds, 1)}, indent=2))
    else:
        print(index)
        kits = "1 kit" if len(configs) == 1 else f"{len(configs)} kits"
        print(f"{kits} in {seconds:.1f} s", file=sys.stderr)
    return 0


def run_command(args: argparse.Namespace) -> int:
    """Run ``kit site``; ``KitError`` propagates to the CLI."""
    return run_site(args)
