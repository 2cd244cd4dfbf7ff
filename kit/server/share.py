"""The listening socket of ``kit serve`` and each client address's share of its connections
(``MAX_CONNECTIONS_PER_CLIENT``): what ``guard``'s own docstring calls the connections that come
before any request."""

from __future__ import annotations

import contextlib
import socket
import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

from .guard import MAX_CONNECTIONS_PER_CLIENT, StreamShare, TrustedProxies

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer


class _ClientSocket(socket.socket):
    """An accepted connection that gives its place back to its client's share when closed,
    and says (``heard``) when its first whole request head has arrived."""

    def __init__(self, *args: object, release: Callable[[], None] | None = None,
                 heard: Callable[[], None] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._release, self._heard, self._tail = release, heard, b""

    def recv(self, bufsize: int, flags: int = 0) -> bytes:
        data = super().recv(bufsize, flags)
        if self._heard is not None:
            self._watch(data)
        return data

    def recv_into(self, buffer: WriteableBuffer, nbytes: int = 0, flags: int = 0) -> int:
        size = super().recv_into(buffer, nbytes, flags)
        if self._heard is not None:
            self._watch(bytes(memoryview(buffer)[:size]))
        return size

    def _watch(self, data: bytes) -> None:
        seen = self._tail + data
        if b"\r\n\r\n" in seen:
            heard, self._heard = self._heard, None
            if heard is not None:
                heard()
        else:
            self._tail = seen[-3:]  # an end of head split over two reads is still found

    def close(self) -> None:
        self._give_back()
        super().close()

    def __del__(self) -> None:  # dropped unclosed: the place must not be lost for good
        self._give_back()
        finalize = getattr(super(), "__del__", None)  # the C socket's, not in the stubs
        if finalize is not None:
            finalize()

    def _give_back(self) -> None:
        release, self._release = getattr(self, "_release", None), None
        self._heard = None
        if release is not None:
            release()

    def evict(self) -> None:
        """Give the place back now and end the connection; its transport closes it."""
        self._give_back()
        with contextlib.suppress(OSError):
            self.shutdown(socket.SHUT_RDWR)


class ClientShareListener(socket.socket):
    """A listening socket that accepts at most ``share`` open connections per client address.

    The event loop calls ``accept`` when connections are waiting. One past its client's share
    takes the place of that client's oldest connection that has not yet sent a whole request
    head (a trickled head: slowloris), which is ended; when every one of them has, it is closed
    at once and the next one is tried (the loop sees ``BlockingIOError`` when none is left).
    So a hostile guest behind a party's one address can only fill the share with requests
    the server is answering, and the other phones there still get in. Trusted proxies
    (``proxies``) have no share: each carries many clients.
    """

    def __init__(self, family: int = socket.AF_INET, type: int = socket.SOCK_STREAM,
                 proto: int = 0, fileno: int | None = None, *,
                 share: int = MAX_CONNECTIONS_PER_CLIENT,
                 proxies: TrustedProxies | None = None,
                 streams: StreamShare | None = None) -> None:
        super().__init__(family, type, proto, fileno)
        self.share, self.proxies = share, proxies or TrustedProxies()
        self.streams = streams or StreamShare()
        self.open: dict[str, int] = {}
        # per address, its connections still without a whole head, oldest first
        self.unheard: dict[str, dict[int, weakref.ref[_ClientSocket]]] = {}
        self.refused = self.evicted = 0
        self._serial = 0
        self._lock = threading.RLock()

    def accept(self) -> tuple[socket.socket, object]:
        while True:
            fd, address = self._accept()  # type: ignore[attr-defined]
            host = address[0] if isinstance(address, tuple) else ""
            with self._lock:
                if self._admit(host):
                    break
                self.refused += 1
            socket.socket(self.family, self.type, self.proto, fileno=fd).close()
        with self._lock:
            self._serial += 1
            serial = self._serial
            conn = _ClientSocket(self.family, self.type, self.proto, fileno=fd,
                                 release=lambda: self._release(host, serial),
                                 heard=lambda: self._heard(host, serial))
            self.unheard.setdefault(host, {})[serial] = weakref.ref(conn)
        if socket.getdefaulttimeout() is None and self.gettimeout():
            conn.setblocking(True)
        return conn, address

    def _admit(self, host: str) -> bool:
        """Take a place for one more connection of ``host`` (under the lock): a free one, or
        the one of its oldest connection still without a whole head."""
        # a connection holding an event stream counts in the streams' share instead
        if self.open.get(host, 0) >= self.share + self.streams.held(host) \
                and not self.proxies.trusted(host):
            waiting = self.unheard.get(host, {})
            oldest = next((ref() for ref in waiting.values() if ref() is not None), None)
            if oldest is None:
                return False
            oldest.evict()  # gives its place back through _release
            self.evicted += 1
        self.open[host] = self.open.get(host, 0) + 1
        return True

    def _heard(self, host: str, serial: int) -> None:
        with self._lock:
            self._forget(host, serial)

    def _forget(self, host: str, serial: int) -> None:
        waiting = self.unheard.get(host)
        if waiting is not None:
            waiting.pop(serial, None)
            if not waiting:
                del self.unheard[host]

    def _release(self, host: str, serial: int) -> None:
        with self._lock:
            self._forget(host, serial)
            left = self.open.get(host, 1) - 1
            if left > 0:
                self.open[host] = left
            else:
                self.open.pop(host, None)


def listen(host: str, port: int, share: int = MAX_CONNECTIONS_PER_CLIENT,
           proxies: TrustedProxies | None = None, backlog: int = 1024,
           streams: StreamShare | None = None) -> ClientShareListener:
    """A bound, listening ``ClientShareListener`` on ``host:port`` (``streams``: the
    ``Guard``'s, whose streams count apart)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets of that protocol; without
    # it every answer waits ~40 ms for the client's delayed ACK
    sock = ClientShareListener(family, proto=socket.IPPROTO_TCP, share=share, proxies=proxies,
                               streams=streams)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(backlog)
    sock.setblocking(False)
    return sock
