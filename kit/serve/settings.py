"""What ``kit serve`` was asked for, checked: one frozen value from the flags to the server."""

from __future__ import annotations

from dataclasses import dataclass

from ..mail.commands import MailSetup


@dataclass(frozen=True)
class ServeSettings:
    """The checked flags of ``kit serve`` (``commands.run_command`` builds it)."""

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 2
    queue: int | None = None  # renders that may wait; None: the render line's own default
    cache_mb: int = 256
    prewarm: bool = True
    games: tuple[str, ...] | None = None  # ready-made kits: these games only (None: all)
    players: tuple[int, ...] | None = None
    papers: tuple[str, ...] | None = None
    database: str | None = None  # a SQLite path or postgresql:// URL; None: the default
    allowed_hosts: tuple[str, ...] = ()  # Host names besides the listening address's
    forwarded_allow_ips: tuple[str, ...] = ()  # proxies trusted to name the client
    mail: MailSetup | None = None
    public_url: str | None = None
