"""What the console keeps of its answers: views and public answers made once per game, version
and viewer, bounded in bytes; one maker per key however many ask at once; ETags and 304s.

- ``AnswerCache``: an LRU of immutable values (a version's view never changes), each with its
  size in bytes, each made once however many ask (``once``); past ``limit`` bytes the least
  recently used go first. A value larger than a
  quarter of the limit is not kept (it would flush everything else for one answer).
- ``Flights``: single flight in threads: the first caller of a key makes the value, the others
  wait for it and share it (or its error).
- ``public_version``: the version everyone may see, from the journal: it moves only with an
  entry that changes what the public sees (a publish or an amendment; in a game without
  publishing, every entry), so ``public.json`` and its ETag say nothing of unpublished entries.
- ``etag``: a strong ETag of the parts an answer is made from (``pages.base.conditional``
  answers a 304 when the request's ``If-None-Match`` holds it).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

from ..game import ConsoleGame, View
from .store import Row

# the console's views and public answers, in all: a quarter of it holds one answer as big as
# a 100-player, 200-turn game's public view or public.json (about 20 MB each)
KEPT_BYTES = 128 * 1024 * 1024

T = TypeVar("T")


@dataclass(frozen=True)
class Made:
    """An answer's bytes as made, whether they may be kept, and whether they say that report
    files are being made (then whoever serves them sees that the render goes on)."""

    body: bytes
    keep: bool = True
    making: bool = False


class AnswerCache:
    """Values by key, at most ``limit`` bytes in all (least recently used dropped first)."""

    def __init__(self, limit: int = KEPT_BYTES) -> None:
        self.limit = limit
        self.bytes = 0
        self._values: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        self._flights = Flights()

    def once(self, key: Hashable, make: Callable[[], tuple[T, int | None]]) -> T:
        """The value kept under ``key``, else the value ``make()`` gives with its size in
        bytes (None: not kept), made once however many ask at once (``Flights``). A key
        names a version, so its value never goes stale: the streams of a game woken by one
        append share one look, 300 phones one page each."""
        found = self.get(key)
        if found is not None:
            return found

        def made() -> T:
            value, size = make()
            if size is not None:
                self.put(key, value, size)
            return value

        return self._flights.run(key, made)

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            found = self._values.get(key)
            if found is None:
                return None
            self._values.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        """Keep ``value`` (``size`` bytes), dropping the least recently used past the limit."""
        if size > self.limit // 4:
            return
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._values[key] = (value, size)
            self.bytes += size
            while self.bytes > self.limit:
                _, (_, dropped) = self._values.popitem(last=False)
                self.bytes -= dropped


class Flights:
    """One maker per key at a time: callers of a key being made wait for its result."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._making: dict[Hashable, Future] = {}

    def run(self, key: Hashable, make: Callable[[], T]) -> T:
        with self._lock:
            running = self._making.get(key)
            mine = running is None
            if running is None:
                running = self._making[key] = Future()
        if not mine:
            return running.result()
        try:
            running.set_result(make())
        except BaseException as exc:
            running.set_exception(exc)
            raise
        finally:
            with self._lock:
                self._making.pop(key, None)
        return running.result()


def view_size(view: View) -> int:
    """About how many bytes a view holds: its data and log as JSON."""
    return len(json.dumps([view.data, view.log], default=str)) + 200


def public_version(game: ConsoleGame, rows: Iterable[Row]) -> int:
    """The version everyone may see: the number of entries that changed the public view (a
    game that publishes: its publishing entries; one that does not: every entry)."""
    publishing = {e.kind for e in game.entries if e.publishes}
    if not publishing:  # the journal's version: the last seq (replaced rows leave gaps)
        return max((row.seq for row in rows), default=0)
    # the game's creation counts, so the first public version is 1, as the journal's
    return sum(1 for i, row in enumerate(rows) if i == 0 or row.kind in publishing)


def etag(*parts: object) -> str:
    """A strong ETag of the things an answer is made from."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest()[:32]
    return f'"{digest}"'
