"""What ``kit serve`` and ``create_app`` accept, as parameter types: their errors read like the
CLI's other option errors ("workers: must be a whole number from 1 to 64; got 0").

A module of its own so that ``kit build`` (whose parser lists ``kit serve``) loads no server
code.
"""

from __future__ import annotations

from ..options import IntRange

WORKERS = IntRange(1, 64)
QUEUE = IntRange(0, 1000)
CACHE_MB = IntRange(16, 65536)
PORT = IntRange(1, 65535)

# A kit asked for on the web may have at most this many pages (about 4 s of one worker; the
# biggest allowed request had 3,294): counted by the planner before anything is drawn.
WEB_MAX_PAGES = 800
