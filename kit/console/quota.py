"""How many games one client may create in an hour (the API and the start page alike): a new
game costs a journal, a kept state and report files, so one address cannot fill the server.

Counted in memory, per server, over a sliding hour; a client is the address the guard settled
(a trusted proxy's client, or the peer). A refusal is a 422 naming ``game``, in the page's
language, and changes nothing.

``SeatPace``: how often a player's link may have its post entered, a few times a minute.
Every entry is a journal row and a new state for every reader, so one token posting in a loop
would slow every other player's page and the game master's; a person correcting their orders
never comes near the limit.

Counted in memory, per server, over a sliding minute, per game and seat; only posts that were
entered count (a refused one, a typo say, costs nothing). Past the limit the post is refused
with ``TooFast`` (429 with ``Retry-After``), in the page's language, and nothing changes. The
game master is never counted.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from typing import Any

from ..errors import ConfigError, KitError, Msg, Problems
from ..i18n import N_

GAMES_PER_HOUR = 30  # a game night's tables and a few restarts, from one address
WINDOW_S = 3600.0
CLIENTS_KEPT = 10_000  # addresses remembered; the oldest forgotten first


class GameQuota:
    """Games created per client over the last hour; thread-safe."""

    def __init__(self, per_hour: int = GAMES_PER_HOUR, window: float = WINDOW_S) -> None:
        self.per_hour = per_hour
        self.window = window
        self._made: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def take(self, client: str | None, now: float | None = None) -> None:
        """Count one new game for ``client`` (None or "": not counted, e.g. in-process
        callers), or raise Problems when it made ``per_hour`` in the last hour."""
        if not client:
            return
        now = time.monotonic() if now is None else now
        with self._lock:
            made = self._made.pop(client, deque())
            while made and made[0] <= now - self.window:
                made.popleft()
            self._made[client] = made  # most recent last: the oldest clients go first
            if len(made) >= self.per_hour:
                minutes = max(1, math.ceil((made[0] + self.window - now) / 60))
                raise Problems([ConfigError("game", Msg(N_(
                    "this address made %(count)s games in the last hour; the console makes at "
                    "most %(max)s an hour for one address: try again in %(minutes)s minutes"),
                    count=len(made), max=self.per_hour, minutes=minutes))])
            made.append(now)
            while len(self._made) > CLIENTS_KEPT:
                del self._made[next(iter(self._made))]


POSTS_PER_MINUTE = 6
PACE_WINDOW_S = 60.0
SEATS_KEPT = 10_000  # seats remembered; the least recently posting forgotten first

Seat = tuple[str, str, str]  # (game id, kind of seat, name)


class TooFast(KitError):
    """A seat's post past ``POSTS_PER_MINUTE`` (429): ``retry_after`` is in whole seconds."""

    def __init__(self, count: int, retry_after: int) -> None:
        super().__init__("orders", Msg(N_(
            "%(count)s posts from your link in the last minute; wait %(seconds)s seconds, "
            "then send again (your last orders are kept)"), count=count, seconds=retry_after))
        self.count, self.retry_after = count, retry_after

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.count, self.retry_after))


class SeatPace:
    """Entered posts per seat over the last minute; thread-safe."""

    def __init__(self, per_minute: int = POSTS_PER_MINUTE, window: float = PACE_WINDOW_S) -> None:
        self.per_minute, self.window = per_minute, window
        self._posted: dict[Seat, deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, seat: Seat, now: float | None = None) -> None:
        """Raise ``TooFast`` when ``seat`` had ``per_minute`` posts entered in the window."""
        now = time.monotonic() if now is None else now
        with self._lock:
            posted = self._recent(seat, now)
            if len(posted) >= self.per_minute:
                raise TooFast(len(posted), max(1, math.ceil(posted[0] + self.window - now)))

    def note(self, seat: Seat, now: float | None = None) -> None:
        """Count one entered post of ``seat``."""
        now = time.monotonic() if now is None else now
        with self._lock:
            self._recent(seat, now).append(now)
            while len(self._posted) > SEATS_KEPT:
                del self._posted[next(iter(self._posted))]

    def _recent(self, seat: Seat, now: float) -> deque[float]:
        """``seat``'s posts still in the window (under the lock), moved to the newest end."""
        posted = self._posted.pop(seat, deque())
        while posted and posted[0] <= now - self.window:
            posted.popleft()
        self._posted[seat] = posted
        return posted
