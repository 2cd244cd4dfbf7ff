"""``kit serve``: its flags, checked before any work (a bad one is the CLI's one-line error
before a port is bound), and the server it starts. Like ``kit.site.commands``, this module
imports no web dependency until the command runs."""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import re
from urllib.parse import urlsplit

from ..errors import ConfigError
from ..helptext import COMMAND_HELP, DOCS, epilog
from ..mail.commands import add_mail_flags, mail_setup
from ..server.limits import CACHE_MB, PORT, QUEUE, WORKERS
from ..site.commands import DEFAULT_WORKERS, filters, name_list, whole
from ..site.kits import ready_configs
from .settings import ServeSettings

# the third-party modules of the web extra that kit serve imports (pyproject.toml, [web])
WEB_EXTRA_MODULES = ("starlette", "sqlalchemy", "alembic", "filelock", "itsdangerous", "hypercorn")

HOST_NAME = re.compile(r"\*|[A-Za-z0-9][A-Za-z0-9.-]{0,252}|\[?[0-9A-Fa-f:.]{2,45}\]?")


def add_command(sub: argparse._SubParsersAction) -> None:
    """Add the ``serve`` subcommand to the ``kit`` parser."""
    serve = sub.add_parser("serve", help=COMMAND_HELP["serve"],
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
                       type=name_list, metavar="NAME[,NAME]",
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
    filters(serve)


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


def run_command(args: argparse.Namespace) -> int:
    """Check every flag, then serve until interrupted; ``KitError`` propagates to the CLI."""
    port = whole(PORT, "port", args.port)
    workers = whole(WORKERS, "workers", args.workers)
    queue = None if args.queue is None else whole(QUEUE, "queue", args.queue)
    cache_mb = whole(CACHE_MB, "cache_mb", args.cache_mb)
    ready_configs(args.games, args.players, args.paper)  # filter errors before binding a port
    hosts = [name for names in args.allowed_hosts for name in names]
    for name in hosts:
        if not HOST_NAME.fullmatch(name):
            raise ConfigError("allowed_host", f"must be a host name or address; got {name!r}")
    proxies = name_list(args.forwarded_allow_ips)
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

    def listed(values: list | None) -> tuple | None:
        return None if values is None else tuple(values)

    serve(ServeSettings(host=args.host, port=port, workers=workers, queue=queue,
                        cache_mb=cache_mb, prewarm=args.prewarm, games=listed(args.games),
                        players=listed(args.players), papers=listed(args.paper),
                        database=args.database, allowed_hosts=tuple(hosts),
                        forwarded_allow_ips=tuple(proxies), mail=mail, public_url=public_url))
    return 0


