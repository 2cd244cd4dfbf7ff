"""What ``kit serve`` keeps of the kits it made: the built kits in memory (``KitCache``) and
the random ids their result pages are found by (``Tickets``).

- ``KitCache`` holds built kits by config key, bounded in bytes, least recently used first; a
  custom kit is kept at least ``KEEP_S`` (10 minutes) after it is made, whatever others ask
  (``full_for`` then tells the render line to wait instead), and one client's kept kits may
  fill a quarter of it. English ready-made kits (the prewarmed ones) are pinned.
- ``Tickets``: a custom kit's result URL is a random id mapped to its config key, so nobody can
  compute it from a config; one id per client and kit, at most ``MAX_TICKETS``.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from ..config import KitConfig
from ..errors import KitError
from .kits import Rendered

KEEP_S = 600.0  # a custom kit stays at least this long after it is made
CLIENT_SHARE = 4  # one client's kept kits may fill 1/4 of the cache; past that it waits
MAX_TICKETS = 20000  # result ids remembered (about 200 bytes each)


class Full(Exception):
    """Every remembered result id is younger than ``KEEP_S``: no new one now."""


# --- the in-memory cache ----------------------------------------------------------------------

@dataclass
class Entry:
    rendered: Rendered
    pinned: bool = False  # ready-made kits stay; custom kits are evicted least recently used
    zip: bytes | None = None
    keep_until: float = 0.0  # a custom kit is not evicted before this (monotonic seconds)
    seconds: float = 0.0  # how long its render took
    client: str = ""  # whose request made it

    @property
    def nbytes(self) -> int:
        return self.rendered.nbytes + (len(self.zip) if self.zip else 0)

    def kept(self, now: float) -> bool:
        return self.pinned or self.keep_until > now


class KitCache:
    """Built kits by config key, bounded in bytes; least recently used go first, but never a
    pinned one or a custom kit inside its ``KEEP_S``."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: str) -> Entry | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def put(self, key: str, entry: Entry) -> None:
        with self._lock:
            old = self._entries.get(key)
            if old is not None:
                entry.pinned = entry.pinned or old.pinned
                entry.keep_until = max(entry.keep_until, old.keep_until)
            self._entries[key] = entry
            self._entries.move_to_end(key)
            self._evict()

    def keep(self, key: str, until: float) -> None:
        """Keep ``key`` at least until ``until`` (monotonic seconds)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                entry.keep_until = max(entry.keep_until, until)

    def set_zip(self, key: str, data: bytes) -> None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry.zip is None:
                entry.zip = data
                self._evict()

    def _evict(self) -> None:
        total = sum(e.nbytes for e in self._entries.values())
        now = time.monotonic()
        for key in list(self._entries):
            if total <= self.max_bytes:
                break
            entry = self._entries[key]
            if not entry.kept(now):
                total -= entry.nbytes
                del self._entries[key]

    def full_for(self, client: str | None = None) -> float:
        """0 when kits may be added (for ``client``: within its share, a quarter of the cache);
        else the seconds until the first kept kit (the client's) may go."""
        with self._lock:
            now = time.monotonic()
            kept = [e for e in self._entries.values() if e.kept(now)]
            if client is not None:
                kept = [e for e in kept if e.client == client and not e.pinned]
            limit = self.max_bytes // (CLIENT_SHARE if client is not None else 1)
            if sum(e.nbytes for e in kept) < limit:
                return 0.0
            ends = [e.keep_until - now for e in kept if not e.pinned]
            return max(min(ends, default=KEEP_S), 1.0)

    def stats(self) -> dict[str, int]:
        with self._lock:
            return {"kits": len(self._entries), "hits": self.hits, "misses": self.misses,
                    "bytes": sum(e.nbytes for e in self._entries.values())}


# --- result ids ------------------------------------------------------------------------------

@dataclass(eq=False)
class Ticket:
    """A custom kit asked for by one client, found by a random id."""

    key: str
    config: KitConfig
    client: str
    created: float
    borrowed: bool  # made for another client: shown after as long as its render took
    error: KitError | None = None


class Tickets:
    """Random result ids -> tickets; one id per client and kit; at most ``MAX_TICKETS``, the
    oldest past ``KEEP_S`` dropped first (a full set of younger ones refuses new ids)."""

    def __init__(self, limit: int = MAX_TICKETS) -> None:
        self.limit = limit
        self._by_id: OrderedDict[str, Ticket] = OrderedDict()
        self._by_client: dict[tuple[str, str], str] = {}
        self._lock = threading.Lock()

    def get(self, ident: str) -> Ticket | None:
        with self._lock:
            return self._by_id.get(ident)

    def find(self, client: str, key: str) -> str | None:
        with self._lock:
            return self._by_client.get((client, key))

    def add(self, ticket: Ticket) -> str:
        with self._lock:
            while len(self._by_id) >= self.limit:
                ident, oldest = next(iter(self._by_id.items()))
                if time.monotonic() - oldest.created < KEEP_S:
                    raise Full
                del self._by_id[ident]
                self._by_client.pop((oldest.client, oldest.key), None)
            ident = secrets.token_urlsafe(16)
            self._by_id[ident] = ticket
            self._by_client[(ticket.client, ticket.key)] = ident
            return ident

    def failed(self, key: str, error: KitError) -> None:
        """Tell the tickets of ``key`` its render failed (an error not remembered by key)."""
        with self._lock:
            for ticket in self._by_id.values():
                if ticket.key == key:
                    ticket.error = error

    def shared_entry(self, config: KitConfig, key: str) -> Entry | None:
        """The kit of ``config`` another server made, into memory (``shared``); None here."""
        return None

    def elsewhere(self, key: str) -> str | None:
        """The client another server is making ``key``'s kit for, if one is (``shared``)."""
        return None

    def ended(self, key: str, seconds: float | None) -> None:
        """A render of ``key`` ended (``seconds`` None: it failed); ``shared.SharedTickets``
        tells the other servers."""

    def __len__(self) -> int:
        return len(self._by_id)
