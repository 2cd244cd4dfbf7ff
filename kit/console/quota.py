"""How many games one client may create in an hour (the API and the start page alike): a new
game costs a journal, a kept state and report files, so one address cannot fill the server.

Counted in memory, per server, over a sliding hour; a client is the address the guard settled
(a trusted proxy's client, or the peer). A refusal is a 422 naming ``game``, in the page's
language, and changes nothing.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque

from ..errors import ConfigError, Msg, Problems
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
