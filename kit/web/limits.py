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
