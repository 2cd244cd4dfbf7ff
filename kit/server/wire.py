"""What ``kit serve`` changes in how its HTTP server reads connections (Hypercorn 0.18, h11).

Three things the servers do not offer as settings, each done here once, at start, by
``app.serve`` (never on import: tests serving the app otherwise see the libraries as they
are):

- ``close_when_clients_leave``: a connection whose client has closed it is closed at once,
  not when its keep-alive timer fires 5 s later; its place in its address's share
  (``share.ClientShareListener``) comes back with it.
- ``strict_heads``: a request head with a bare line feed for a line end, or a header folded
  over two lines (obsolete line folding), is 400. h11 reads both, as RFC 9112 allows; a proxy
  in front that reads them differently would see other requests than we do (request
  smuggling), so we take the other choice the RFC gives.
- ``open_files_limit``: the open-files limit raised towards the hard limit, for the sockets of
  ``guard.MAX_CONNECTIONS_PER_CLIENT`` per address.

Hypercorn is pinned below 0.19 (``pyproject.toml``); ``tests/server/test_web_security_server.py``
fails if either library changes under these.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator


def close_when_clients_leave() -> None:
    """Make Hypercorn close a connection as soon as its client has closed it.

    Hypercorn (0.18) keeps such a socket (in CLOSE-WAIT) until the connection's keep-alive timer
    fires, 5 s later: it waits for that timer before it closes. The connection's place in its
    address's share (``share.ClientShareListener``) is given back only when the socket is
    closed, so 32 short connections in a row, as a script opening one per call makes, filled
    the share for 5 s. ``worker_serve`` makes its connections from ``run.TCPServer``, so this
    one name is replaced, by a subclass that stops the timer when the client has gone (a
    request still running finishes first, as before).
    """
    from hypercorn.asyncio import run
    from hypercorn.asyncio.tcp_server import TCPServer

    class ClosingTCPServer(TCPServer):
        """Hypercorn's connection, closed without waiting once its client closed it."""

        async def _read_data(self) -> None:
            await super()._read_data()
            await self.idle_task.stop()  # the client is gone: nothing more can come

    if run.TCPServer is TCPServer:
        run.TCPServer = ClosingTCPServer  # type: ignore[misc]


def open_files_limit(wanted: int = 65536) -> int:
    """Raise this process's limit of open files towards ``wanted`` (as far as the hard limit
    allows): every connection is one, and each address may hold
    ``guard.MAX_CONNECTIONS_PER_CLIENT``. Returns the limit now in force."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return soft




def strict_heads() -> None:
    """Make h11 refuse bare line feeds and folded header lines in request heads (400).

    h11 (0.16) splits a head on ``\n`` and drops a ``\r`` before it, and joins a line that
    starts with a space or tab to the one before. Its reader of header lines
    (``_readers._obsolete_line_fold``) and its head splitter
    (``ReceiveBuffer.maybe_extract_lines``) are wrapped: each raises h11's
    ``LocalProtocolError``, which h11 answers with 400 and Hypercorn then closes.
    """
    import h11
    from h11 import _readers, _receivebuffer

    if getattr(_readers, "_kit_strict", False):
        return
    extract = _receivebuffer.ReceiveBuffer.maybe_extract_lines

    def no_folding(lines: Iterable[bytes]) -> Iterator[bytes]:
        for line in lines:
            if line[:1] in (b" ", b"\t"):
                raise h11.LocalProtocolError("folded header line (obsolete line folding)")
            yield line

    def crlf_lines(self: _receivebuffer.ReceiveBuffer) -> list[bytearray] | None:
        before = bytes(self)
        lines = extract(self)
        if lines is not None:
            head = before[: len(before) - len(self)]
            if head.count(b"\n") != head.count(b"\r\n"):
                raise h11.LocalProtocolError("a line of the request head ends without CR")
        return lines

    _readers._obsolete_line_fold = no_folding
    _receivebuffer.ReceiveBuffer.maybe_extract_lines = crlf_lines  # type: ignore[method-assign]
    _readers._kit_strict = True  # type: ignore[attr-defined]
