"""``kit site`` and ``kit serve``: their flags, checked before any work, and what they run.

``kit.cli`` adds these subcommands (``add_commands``) and hands them over (``run_command``);
this module imports no web dependency until a command runs, so ``kit build`` never needs them.
Every number flag is read by a ``kit.options`` parameter type, so a bad one is the CLI's usual
one-line error before anything starts: ``Error: port: must be a whole number from 1 to 65535;
got 99999``.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import json
import os
import re
import sys
import time
from urllib.parse import urlsplit

from ..errors import ConfigError
from ..helptext import DOCS, epilog
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import LANGUAGES
from ..mail.commands import add_mail_flags, mail_setup
from ..options import IntRange
from ..paper import PAPERS
from .kits import READY_MAX_PLAYERS, ready_configs
from .limits import CACHE_MB, PORT, QUEUE, WORKERS

# the third-party modules of the web extra that kit serve imports (pyproject.toml, [web])
WEB_EXTRA_MODULES = ("starlette", "sqlalchemy", "alembic", "filelock", "itsdangerous", "hypercorn")

JOBS = WORKERS
DEFAULT_WORKERS = min(os.cpu_count() or 1, 4)
HOST_NAME = re.compile(r"\*|[A-Za-z0-9][A-Za-z0-9.-]{0,252}|\[?[0-9A-Fa-f:.]{2,45}\]?")


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


def _name_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=_name_list, metavar="A,B",
                        help="only these games (default: every registered game)")
    parser.add_argument("--players", type=_int_list, metavar="N,M",
                        help=f"only these player counts (default: every allowed count up to "
                        f"{READY_MAX_PLAYERS})")
    parser.add_argument("--paper", type=_name_list, metavar="|".join(PAPERS),
                        help="only these paper sizes (default: all)")


def _add_site(sub: argparse._SubParsersAction) -> None:
    site = sub.add_parser("site", help="write the static download site of ready-made kits",
                          description="Build every ready-made kit (each game, each allowed "
                          f"player count up to {READY_MAX_PLAYERS}, each paper size) with a "
                          "thumbnail, and an index.html linking them all, in one language. "
                          "Works offline. Needs the web extra.",
                          epilog=epilog(("kit site --out build/site",
                                         "kit site --lang fr --players 4,6,8 --paper a4"),
                                        f"Full documentation: {DOCS} "
                                        "(docs/how-to/download-site.md)."))
    site.add_argument("--out", default="build/site", metavar="DIR",
                      help="folder to write the site into (default: build/site)")
    site.add_argument("--jobs", default=str(DEFAULT_WORKERS), metavar="N",
                      help=f"kits rendered at once, in worker processes ({JOBS.lo} to "
                      f"{JOBS.hi}; default: CPU count, at most 4)")
    site.add_argument("--lang", default=DEFAULT_LANGUAGE, metavar="|".join(LANGUAGES),
                      help="language of the site and its kits: "
                      f"{', '.join(f'{code} ({name})' for code, name in LANGUAGES.items())} "
                      f"(default: {DEFAULT_LANGUAGE})")
    _filters(site)
    site.add_argument("--json", action="store_true", help="print a JSON summary")


def _add_serve(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="serve the download page, a custom-kit form and the "
                           "game-night console at /console",
                           description="Serve the download page of ready-made kits, a form "
                           "that builds a custom kit (names, paper, rounds, variants) on "
                           "demand, and the game-night console at /console: the game master "
                           "enters each turn or round, players follow on their phones, the "
                           "standings go on a projector. Needs the web extra.",
                           epilog=epilog(("kit serve --host 0.0.0.0 --no-prewarm --database "
                                          "party.sqlite3",
                                          "kit serve --port 8080 --prewarm"),
                                         f"Full documentation: {DOCS} "
                                         "(docs/tutorials/game-night.md, "
                                         "docs/how-to/download-site.md, docs/how-to/deploy.md)."))
    serve.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                       help="address to listen on: 0.0.0.0 (or ::) lets phones and other "
                       "machines on the same network reach it (default: 127.0.0.1, this "
                       "machine only)")
    serve.add_argument("--port", default="8000", metavar="PORT",
                       help=f"port, {PORT.lo} to {PORT.hi} (default: 8000)")
    serve.add_argument("--workers", default=str(DEFAULT_WORKERS), metavar="N",
                       help=f"kits rendered at once, in worker processes ({WORKERS.lo} to "
                       f"{WORKERS.hi}; default: CPU count, at most 4)")
    serve.add_argument("--queue", default=None, metavar="N",
                       help="renders allowed to wait for a worker before new ones get 503 "
                       f"({QUEUE.lo} to {QUEUE.hi}; default: 100)")
    serve.add_argument("--allowed-host", dest="allowed_hosts", action="append", default=[],
                       type=_name_list, metavar="NAME[,NAME]",
                       help="a host name (or address) browsers reach this server by; other "
                       "Host headers get 400 (default: 127.0.0.1, localhost, ::1 and the "
                       "--host address). Repeatable")
    serve.add_argument("--forwarded-allow-ips", default="", metavar="IP[,NET]",
                       help="reverse proxies trusted to name the client in X-Forwarded-For "
                       "(addresses or networks, e.g. 127.0.0.1 or 10.0.0.0/8; default: none, "
                       "the client is the connection's peer)")
    serve.add_argument("--public-url", default=None, metavar="URL",
                       help="the address players reach this server by, for the links and "
                       "codes a game hands out (behind a proxy: https://games.example.org); "
                       "default: the address the game master's request came in on")
    serve.add_argument("--cache-mb", default="256", metavar="MB",
                       help="memory for built kits, least recently used dropped first "
                       f"({CACHE_MB.lo} to {CACHE_MB.hi}; default: 256)")
    serve.add_argument("--database", default=None, metavar="PATH_OR_URL",
                       help="the game-night console's store: a SQLite file or a postgresql:// URL "
                       "(default: KIT_DATABASE_URL, else console.sqlite3 in the user data folder)")
    add_mail_flags(serve)  # the outbox's messages go out through it
    serve.add_argument("--prewarm", action=argparse.BooleanOptionalAction, default=False,
                       help="render every language's ready-made kits in the background at "
                       "start, behind visitors' requests: for a public download site (minutes "
                       "of CPU and about 0.7 GB on a 2-core machine; default: off, each is "
                       "rendered when first asked for and kept in the render cache)")
    _filters(serve)


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add the ``site`` and ``serve`` subcommands to the ``kit`` parser."""
    _add_site(sub)
    _add_serve(sub)


def run_site(args: argparse.Namespace) -> int:
    from ..cache import default_cache
    from ..output import check_out
    from .site import build_site

    jobs = whole(JOBS, "jobs", args.jobs)
    configs = ready_configs(args.games, args.players, args.paper, langs=[args.lang])
    lang = configs[0].lang  # as ``resolve`` read it: one of LANGUAGES
    out = check_out(args.out)
    start = time.monotonic()
    index = build_site(out, configs, jobs=jobs, progress=None if args.json else print,
                       store=default_cache(), lang=lang)
    seconds = time.monotonic() - start
    if args.json:
        print(json.dumps({"index": str(index), "lang": lang,
                          "kits": [c.folder_name for c in configs],
                          "seconds": round(seconds, 1)}, indent=2))
    else:
        print(index)
        kits = "1 kit" if len(configs) == 1 else f"{len(configs)} kits"
        print(f"{kits} in {seconds:.1f} s", file=sys.stderr)
    return 0


def _public_url(given: str | None) -> str | None:
    """``--public-url``: http or https, a host, no path, query or fragment."""
    if given is None:
        return None
    parts = urlsplit(given)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in (
            "", "/") or parts.query or parts.fragment or parts.username:
        raise ConfigError("public_url", "must be an address like https://games.example.org or "
                          f"http://192.168.1.20:8000 (http or https, no path); got {given!r}")
    return f"{parts.scheme}://{parts.netloc}"


def run_serve(args: argparse.Namespace) -> int:
    port = whole(PORT, "port", args.port)
    workers = whole(WORKERS, "workers", args.workers)
    queue = None if args.queue is None else whole(QUEUE, "queue", args.queue)
    cache_mb = whole(CACHE_MB, "cache_mb", args.cache_mb)
    ready_configs(args.games, args.players, args.paper)  # filter errors before binding a port
    hosts = [name for names in args.allowed_hosts for name in names]
    for name in hosts:
        if not HOST_NAME.fullmatch(name):
            raise ConfigError("allowed_host", f"must be a host name or address; got {name!r}")
    proxies = _name_list(args.forwarded_allow_ips)
    for entry in proxies:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ConfigError("forwarded_allow_ips", "must be IP addresses or networks; got "
                              f"{entry!r}") from None
    public_url = _public_url(args.public_url)
    if public_url is not None:
        hosts.append(urlsplit(public_url).hostname or "")
    mail = mail_setup(args)  # its server is checked once started (kit.mail.commands)
    missing = [name for name in WEB_EXTRA_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise ConfigError("serve", f"needs the web extra ({', '.join(missing)} missing): "
                          "pip install 'number-party-kit[web]' (from the source folder: pip "
                          "install '.[web]'; with pipx: pipx install --force '.[web]')")
    from .app import serve
    serve(host=args.host, port=port, workers=workers, queue=queue, cache_mb=cache_mb,
          prewarm=args.prewarm, games=args.games, players=args.players, papers=args.paper,
          database=args.database, allowed_hosts=hosts, forwarded_allow_ips=proxies,
          mail=mail, public_url=public_url)
    return 0


def run_command(args: argparse.Namespace) -> int:
    """Dispatch ``kit site`` / ``kit serve``; ``KitError`` propagates to the CLI."""
    return run_site(args) if args.command == "site" else run_serve(args)
