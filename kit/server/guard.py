"""The guard around ``kit serve``: what every request passes before the app sees it, and what
every answer carries on its way out.

``Guard`` is the outermost ASGI layer (``app.KitApp`` puts it outside Starlette's own error
middleware, so a 500 gets the same headers as a 200). In order:

1. **Client address.** The peer's IP, or, when the peer is one of ``--forwarded-allow-ips``
   (a reverse proxy), the right-most address of ``X-Forwarded-For`` that is not itself a
   trusted proxy. A client that is not a trusted proxy cannot choose its address. The result is
   ``scope["client"]``: the per-client limits of the render queue (``pool``) count by it. Such a
   proxy's ``X-Forwarded-Proto`` (``https`` or ``http``) is also the request's scheme, so the
   links the console builds, its cookie's ``Secure`` and the same-origin checks follow the
   site the browser sees.
2. **Host.** A ``Host`` the server does not serve (``--allowed-host``; loopback names and the
   address the connection came in on by default) is 400: a page on ``evil.example`` that
   rebinds its name to 127.0.0.1 cannot read our answers. (Starlette's
   ``TrustedHostMiddleware`` cuts ``[::1]:8000`` at the first colon and answers in plain
   English; this check parses IPv6 literals and answers with our page.)
3. **Head.** A query over 8 KB is 414, more than 100 headers or 16 KB of them is 431, a
   request with both ``Content-Length`` and ``Transfer-Encoding`` is 400 (two framings that
   a proxy and we could read differently).
4. **Origin.** A state-changing method (POST, PUT, PATCH, DELETE) from another site is 403:
   ``Sec-Fetch-Site`` (set by the browser, a page cannot forge it) must be ``same-origin`` or
   ``none``; without it, an ``Origin`` must be this server's own. A request with neither (curl,
   a script with a bearer token) passes: it is not a browser a site could steer.
5. **Writes.** At most ``MAX_WRITES`` state-changing requests are worked on at once; the next
   wait on the event loop (holding no thread) up to ``WRITE_WAIT_S``, then 503 with
   ``Retry-After``. A locked database then holds a few of the server's threads, never all of
   them: pages and reads of other games go on.
6. **Body deadline.** The whole body must arrive within 10 s of the request (``BodyTimeout``,
   which the app answers with 408); an answer sent before the body was read whole says
   ``Connection: close``, so a trickled body never keeps the connection.
7. **Wrong tokens.** The console tells the guard of each wrong game-master token it was given
   (a wrong ``/gm/<token>`` link, bearer or cookie: ``refuse_wrong_token``); past
   ``MAX_WRONG_TOKENS`` of them in a minute, the client's next wrong one is 429 instead of
   403. Nothing else counts (not the guard's own cross-site refusals, not a page asked for
   without the cookie), and a request whose token is right is never refused by it: a page of
   another site cannot lock the game master out, and neither can a player on the same Wi-Fi.
8. **Answers.** Every answer gets the security headers it does not set itself (CSP, nosniff,
   frame-ancestors, Referrer-Policy, ...), an answer on the console's and the API's paths
   ``Cache-Control: no-store`` unless it says otherwise, and one access-log line: client,
   method, path with any ``/gm/<token>`` segment redacted and the query's values dropped,
   status, bytes, time. Headers are never logged (so no ``Authorization``). The guard's own
   refusals are JSON on the API's paths (``/api/``), a page elsewhere.

Connections come before any of this. ``share.ClientShareListener`` is the listening socket: it
accepts at most ``MAX_CONNECTIONS_PER_CLIENT`` open connections from one address (trusted
proxies excepted), so a client's hundreds of sockets leave room for everyone else, while a
party of 100 phones behind one Wi-Fi router (one address) all get in. Past the share, a new
connection takes the place of that address's oldest one still without a whole request head,
else it is closed at once: a guest trickling heads from the party's address cannot shut the
other phones there out. An event stream (``STREAM_PATH``) counts apart: a client holds at most
``MAX_STREAMS_PER_CLIENT`` of them (``StreamShare``; past it a 503), and the listener lets it that
many more connections, so 300 phones behind one router each keep a stream open and still load
their pages. A connection stops counting the moment it is closed; the ASGI server (Hypercorn,
``app.serve``) closes one whose client has gone at once, and one that has not sent a whole
request head within its ``keep_alive_timeout``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import math
import re
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Iterable
from urllib.parse import parse_qs, urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import N_
from .http import SECURITY_HEADERS, HTTPProblem, problem_answer
from .language import negotiate

access_log = logging.getLogger("kit.web.access")

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
BODY_TIMEOUT_S = 10.0
MAX_QUERY = 8 * 1024
MAX_HEADERS = 100
MAX_HEADER_BYTES = 16 * 1024
# a party behind one Wi-Fi router is one address: 100 phones, each with a connection or two
# (a browser opens up to 6 to a host while a page loads, and closes the spare ones)
MAX_CONNECTIONS_PER_CLIENT = 256
# a party's event streams (``/events``) behind one address: 300 phones and a dozen screens,
# each holding one for the whole night; counted apart from its connections for requests
MAX_STREAMS_PER_CLIENT = 512
STREAM_PATH = re.compile(r"/(api/games/[^/]+|console/[^/]+(/gm|/[pt]/[^/]+)?)/events")
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
PRIVATE_PATHS = ("/console", "/api/")  # the console's answers: never kept by a cache
MAX_WRONG_TOKENS = 20  # wrong game-master tokens per client per minute; then 429 for the rest
WRONG_TOKEN_WINDOW_S = 60.0
WRONG_TOKENS = "kit.wrong_tokens"  # the scope key the console finds the counter under
MAX_WRITES = 8  # state-changing requests worked on at once (of the server's 40 threads)
WRITE_WAIT_S = 5.0  # how long the next one waits for its turn before 503
RETRY_S = 5
# a GM's, a player's or a table scorer's link
_GM_SEGMENT = re.compile(r"(/gm/|/console/[^/?#]+/[pt]/)[^/?#]+")


class BodyTimeout(Exception):
    """The request body did not arrive whole within ``BODY_TIMEOUT_S`` (the app answers 408)."""


def redact_path(path: str, query: bytes = b"") -> str:
    """A path for the log: a GM or player token segment redacted, the query's values
    dropped."""
    shown = _GM_SEGMENT.sub(r"\1[redacted]", path)
    if query:
        keys = [part.split(b"=", 1)[0].decode("latin-1")[:40] for part in query.split(b"&")[:20]]
        shown += "?" + "&".join(f"{k}=" for k in keys)
    return shown


def split_host(value: str) -> str | None:
    """The host name of a ``Host`` header or an origin's netloc, lower case, port dropped;
    IPv6 literals without brackets. None when it does not parse."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        rest = value[end + 1:]
        if end < 0 or (rest and not re.fullmatch(r":[0-9]{1,5}", rest)):
            return None
        return value[1:end]
    name, _, port = value.partition(":")
    if not name or (port and not port.isdigit()) or not re.fullmatch(r"[a-z0-9.-]+", name):
        return None
    return name


class StreamShare:
    """The event streams each client address holds (at most ``share``); the listener lets a
    client that many more connections (``ClientShareListener``). Any thread."""

    def __init__(self, share: int = MAX_STREAMS_PER_CLIENT) -> None:
        self.share = share
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, client: str) -> bool:
        """One more stream for ``client``; False when its share is full."""
        with self._lock:
            count = self._held.get(client, 0)
            if count >= self.share:
                return False
            self._held[client] = count + 1
            return True

    def give_back(self, client: str) -> None:
        with self._lock:
            left = self._held.get(client, 1) - 1
            if left > 0:
                self._held[client] = left
            else:
                self._held.pop(client, None)

    def held(self, client: str) -> int:
        with self._lock:
            return self._held.get(client, 0)


class WrongTokens:
    """Each client's recent wrong game-master tokens: past ``limit`` in ``window`` seconds its
    next wrong one is refused with 429 (token guessing; a 256-bit token is out of reach anyway,
    but a wrong link should not be a free loop). Used on the event loop only (the console's
    handlers, not their threads); at most ``clients`` kept."""

    def __init__(self, limit: int = MAX_WRONG_TOKENS, window: float = WRONG_TOKEN_WINDOW_S,
                 clients: int = 10000) -> None:
        self.limit, self.window, self.clients = limit, window, clients
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()

    def wait(self, client: str, now: float) -> float:
        """Seconds ``client`` must wait before asking again; 0 if it need not."""
        times = self._seen.get(client)
        while times and times[0] <= now - self.window:
            times.popleft()
        if times is not None and not times:
            del self._seen[client]
        return times[0] + self.window - now if times and len(times) >= self.limit else 0.0

    def note(self, client: str, now: float) -> None:
        times = self._seen.setdefault(client, deque(maxlen=self.limit))
        times.append(now)
        self._seen.move_to_end(client)
        while len(self._seen) > self.clients:
            self._seen.popitem(last=False)


def refuse_wrong_token(scope: Scope) -> None:
    """Count a wrong game-master token (a wrong ``/gm/<token>`` link, bearer or cookie) given by
    this request's client; raises the 429 to answer instead of the 403 once the client is past
    ``MAX_WRONG_TOKENS`` a minute. Without a ``Guard`` in front (the console's routes alone, in
    tests) nothing is counted."""
    counter = scope.get(WRONG_TOKENS)
    if not isinstance(counter, WrongTokens):
        return
    client, now = (scope.get("client") or ("", 0))[0] or "", time.monotonic()
    wait = counter.wait(client, now)
    counter.note(client, now)
    if wait:
        raise HTTPProblem(429, N_("Too many wrong links"), N_(
            "Too many wrong game links or tokens came from your address. Please wait a "
            "minute."), {"Retry-After": str(math.ceil(wait))}, field="authorization")


class TrustedProxies:
    """Which peers may say who the client is (``X-Forwarded-For``): IPs or networks."""

    def __init__(self, entries: Iterable[str] = ()) -> None:
        self.networks = [ipaddress.ip_network(e.strip(), strict=False)
                         for e in entries if e.strip()]

    def trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def client(self, scope: Scope) -> str:
        """The client's address: the peer's, or the forwarded one from a trusted proxy."""
        peer = (scope.get("client") or ("", 0))[0] or ""
        if not self.networks or not self.trusted(peer):
            return peer
        forwarded = b",".join(v for k, v in scope["headers"] if k == b"x-forwarded-for")
        hops = [h.strip() for h in forwarded.decode("latin-1").split(",") if h.strip()]
        for hop in reversed(hops):  # the right-most one our own proxies did not add
            if not self.trusted(hop):
                try:
                    return str(ipaddress.ip_address(hop))
                except ValueError:
                    return peer  # garbage from the proxy's own client: count the proxy
        return hops[0] if hops else peer

    def scheme(self, scope: Scope) -> str:
        """The scheme the client used: a trusted proxy's ``X-Forwarded-Proto`` (``http`` or
        ``https``), else the connection's own."""
        peer = (scope.get("client") or ("", 0))[0] or ""
        own = str(scope.get("scheme", "http"))
        if not self.networks or not self.trusted(peer):
            return own
        said = [v for k, v in scope["headers"] if k == b"x-forwarded-proto"]
        value = said[-1].decode("latin-1").strip().lower() if len(said) == 1 else ""
        return value if value in ("http", "https") else own


def _headers(scope: Scope) -> dict[bytes, bytes]:
    return {k: v for k, v in scope["headers"]}


def check_request(scope: Scope, hosts: frozenset[str]) -> HTTPProblem | None:
    """The first guard rule this request breaks, as the problem to answer; None if none."""
    headers = scope["headers"]
    if len(headers) > MAX_HEADERS or sum(len(k) + len(v) for k, v in headers) > MAX_HEADER_BYTES:
        return HTTPProblem(431, N_("Request headers too large"),
                           N_("The request carried too many or too long headers."))
    if len(scope.get("query_string", b"")) > MAX_QUERY:
        return HTTPProblem(414, N_("Address too long"), N_("The address of this request is "
                                                           "too long."))
    named = _headers(scope)
    if b"transfer-encoding" in named and b"content-length" in named:
        return HTTPProblem(400, N_("Unreadable request"),
                           N_("The request said its length in two ways at once."))
    host = split_host(named.get(b"host", b"").decode("latin-1"))
    # the address this connection came in on is ours too (a LAN client of --host 0.0.0.0);
    # a rebinding page has a name of its own, never our address
    here = str((scope.get("server") or ("",))[0] or "").lower()
    if host is None or ("*" not in hosts and host not in hosts and host != here):
        return HTTPProblem(400, N_("Unknown host"),
                           N_("This server does not answer for that host name."))
    if scope["method"] in UNSAFE_METHODS and not same_origin(named, scope.get("scheme", "http")):
        return HTTPProblem(403, N_("Cross-site request refused"),
                           N_("Forms of this site can only be sent from its own pages."))
    return None


def same_origin(headers: dict[bytes, bytes], scheme: str = "http") -> bool:
    """Whether a state-changing request comes from our own pages (or from no browser);
    ``scheme``: the one the client used (``TrustedProxies.scheme``)."""
    site = headers.get(b"sec-fetch-site")
    if site is not None:
        return site.strip().lower() in (b"same-origin", b"none")
    origin = headers.get(b"origin")
    if origin is None:
        return True  # curl, scripts: no browser can be made to send this
    parts = urlsplit(origin.decode("latin-1").strip())
    own = headers.get(b"host", b"").decode("latin-1").strip().lower()
    default = {"http": ":80", "https": ":443"}.get(parts.scheme, "")
    netloc = parts.netloc.lower()
    return (bool(netloc) and parts.scheme == scheme
            and netloc.removesuffix(default) == own.removesuffix(default))


def _has_body(scope: Scope) -> bool:
    named = _headers(scope)
    length = named.get(b"content-length", b"0").strip()
    return b"transfer-encoding" in named or not length.isdigit() or int(length) > 0


class Guard:
    """The outermost ASGI layer of ``kit serve`` (see the module's docstring)."""

    def __init__(self, app: ASGIApp, *, allowed_hosts: Iterable[str] = LOOPBACK_HOSTS,
                 proxies: TrustedProxies | None = None, writes: int = MAX_WRITES,
                 write_wait: float = WRITE_WAIT_S, streams: StreamShare | None = None) -> None:
        self.app = app
        self.streams = streams or StreamShare()
        self.hosts = frozenset(h.strip().lower().strip("[]") for h in allowed_hosts)
        self.proxies = proxies or TrustedProxies()
        self.wrong_tokens = WrongTokens()
        self.write_places, self.write_wait = writes, write_wait
        self._writes: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.monotonic()
        scope["scheme"] = self.proxies.scheme(scope)  # before the client is rewritten
        client = self.proxies.client(scope)
        scope["client"] = (client, (scope.get("client") or ("", 0))[1])
        scope[WRONG_TOKENS] = self.wrong_tokens
        answer = {"status": 0, "bytes": 0}
        body = {"done": not _has_body(scope)}
        private = scope["path"].startswith(PRIVATE_PATHS)

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                message = {**message, "headers": _with_headers(
                    message.get("headers", []), close=not body["done"], no_store=private)}
            elif message["type"] == "http.response.body":
                answer["bytes"] += len(message.get("body", b""))
            await send(message)

        async def receive_timed() -> Message:
            if body["done"]:
                return await receive()
            remaining = start + BODY_TIMEOUT_S - time.monotonic()
            try:
                async with asyncio.timeout(max(remaining, 0.0)):
                    message = await receive()
            except TimeoutError:
                raise BodyTimeout from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                body["done"] = True
            return message

        try:
            problem = check_request(scope, self.hosts)
            if problem is not None:
                await problem_answer(scope, problem, page_language(scope))(
                    scope, receive_timed, send_guarded)
            elif scope["method"] in UNSAFE_METHODS:
                await self._write(scope, receive_timed, send_guarded, body["done"])
            elif STREAM_PATH.fullmatch(scope["path"]):
                await self._stream(scope, receive_timed, send_guarded, client)
            else:
                await self.app(scope, receive_timed, send_guarded)
        finally:
            access_log.info('%s "%s %s" %d %d %.0fms', client or "-", scope["method"],
                            redact_path(scope["path"], scope.get("query_string", b"")),
                            answer["status"], answer["bytes"],
                            (time.monotonic() - start) * 1000)

    async def _write(self, scope: Scope, receive: Receive, send: Send, read: bool) -> None:
        """A state-changing request, holding one of the ``MAX_WRITES`` places from the moment
        its body is whole (``read``: it has none) to its answer; a place not free within
        ``write_wait`` is a 503. A body still arriving holds no place: a client trickling
        eight bodies cannot stop everyone's changes."""
        writes, held = self._places(), False

        async def take() -> None:
            nonlocal held
            try:
                async with asyncio.timeout(self.write_wait):
                    await writes.acquire()
            except TimeoutError:
                raise busy_problem() from None  # the app answers it (JSON on the API)
            held = True

        async def receive_then_take() -> Message:
            message = await receive()
            if not held and not (message["type"] == "http.request"
                                 and message.get("more_body", False)):
                await take()
            return message

        try:
            if read:
                try:
                    await take()
                except HTTPProblem as problem:
                    await problem_answer(scope, problem, page_language(scope))(
                        scope, receive, send)
                    return
            await self.app(scope, receive if read else receive_then_take, send)
        finally:
            if held:
                writes.release()

    async def _stream(self, scope: Scope, receive: Receive, send: Send, client: str) -> None:
        """An event stream, held in the client's share of streams for as long as it is open;
        past it a 503 with ``Retry-After`` (the browser's ``EventSource`` tries again)."""
        if not self.streams.take(client):
            await problem_answer(scope, busy_problem(), page_language(scope))(
                scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.streams.give_back(client)

    def _places(self) -> asyncio.Semaphore:
        """The places for changes, of the running event loop (one per server; tests may run
        the app on several loops in turn)."""
        loop = asyncio.get_running_loop()
        if self._writes is None or self._writes[0] is not loop:
            self._writes = (loop, asyncio.Semaphore(self.write_places))
        return self._writes[1]


def page_language(scope: Scope) -> str:
    """The language of the guard's own pages: ``?lang=``, else ``Accept-Language``, as the
    site's (``language.negotiate``)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")[:MAX_QUERY])
    header = _headers(scope).get(b"accept-language", b"").decode("latin-1")
    return negotiate((query.get("lang") or [None])[0], header)[0]


def busy_problem() -> HTTPProblem:
    """The 503 of a server that cannot save or read just now (a locked or full database, or
    every place for a change taken); the client may try again shortly."""
    return HTTPProblem(503, N_("Please try again in a moment"), N_(
        "The server could not save or read this just now (its database is busy or full). "
        "Nothing was changed. Please try again in a few seconds."),
        {"Retry-After": str(RETRY_S)}, field="database")


def _with_headers(headers: Iterable[tuple[bytes, bytes]], close: bool,
                  no_store: bool = False) -> list[tuple[bytes, bytes]]:
    """The answer's headers plus the security headers it does not set itself; ``close`` adds
    ``Connection: close`` (the body was not read whole), ``no_store`` a ``Cache-Control:
    no-store`` unless the answer has its own."""
    headers = list(headers)
    present = {k.decode("latin-1").lower() for k, _ in headers}
    for name, value in SECURITY_HEADERS.items():
        if name not in present:
            headers.append((name.encode("latin-1"), value.encode("latin-1")))
    if no_store and "cache-control" not in present:
        headers.append((b"cache-control", b"no-store"))
    if close and "connection" not in present:
        headers.append((b"connection", b"close"))
    return headers
