"""``kit serve`` as a real process on loopback, attacked over real sockets: idle and trickling
connections are closed within 10 s, one client's sockets past its share leave room for another
(127.0.0.2), a guest trickling heads cannot shut out another phone on its own address, a
trickled body gets 408, foreign hosts and cross-site posts are refused, only a trusted proxy
names the client (and its scheme), the access log shows no token, short connections in a row
are all answered, wrong tokens never lock out the right one, and lenient heads are refused.
Every loop is bounded in count and time."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("hypercorn", reason="the web extra is not installed: pip install '.[web]'")

from support.helpers import stop  # noqa: E402

from kit.console.pages import auth as guard  # noqa: E402
from kit.registry import GAMES  # noqa: E402
from kit.server.guard import MAX_CONNECTIONS_PER_CLIENT  # noqa: E402

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FIRST = next(iter(GAMES.values()))
SMALL = max(FIRST.min_players, 3)
PROXY = "127.0.0.5"  # --forwarded-allow-ips
DROPPED_WITHIN_S = 10.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A ``kit serve`` process; yields (port, path of its stderr)."""
    folder = tmp_path_factory.mktemp("serve")
    port, err = free_port(), folder / "stderr.txt"
    env = {**os.environ, "KIT_CACHE_DIR": str(folder / "cache")}
    env.pop("KIT_HEALTH_TOKEN", None)
    with open(err, "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "kit", "serve", "--port", str(port), "--workers", "1",
             "--no-prewarm", "--games", FIRST.name, "--players", str(SMALL), "--paper", "a4",
             "--allowed-host", "kits.test", "--forwarded-allow-ips", PROXY,
             "--database", str(folder / "console.sqlite3")],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=sink)
    try:
        deadline = time.monotonic() + 60
        while not answer(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")[0]:
            assert process.poll() is None and time.monotonic() < deadline, err.read_text()
            time.sleep(0.2)
        yield port, err
    finally:
        stop(process)


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=5,
                                    source_address=(source, 0))


def answer(port: int, head: str, source: str = "127.0.0.1", body: bytes = b"",
           ) -> tuple[int, dict[str, str], bytes]:
    """One request on a new connection; (status, headers, body), status 0 if none came."""
    try:
        with connect(port, source) as sock:
            sock.sendall(head.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n").encode()
                         + body)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError:
        return 0, {}, b""
    head_bytes, _, payload = data.partition(b"\r\n\r\n")
    lines = head_bytes.decode("latin-1").split("\r\n")
    if not lines[0].startswith("HTTP/1.1 "):
        return 0, {}, b""
    pairs = [line.split(": ", 1) for line in lines[1:] if ": " in line]
    headers: dict[str, str] = {}
    for name, value in pairs:  # several Set-Cookie lines: one per line of the value
        key = name.lower()
        headers[key] = f"{headers[key]}\n{value}" if key in headers else value
    return int(lines[0].split()[1]), headers, payload


def closed(sock: socket.socket) -> bool:
    """Whether the server has closed this connection (without waiting)."""
    sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def all_closed(socks: list[socket.socket], give_up: float) -> bool:
    """Whether the server closes every socket (waiting at most ``give_up`` seconds: a bound
    for a server that never would, not a measure of how fast it does)."""
    end = time.monotonic() + give_up
    while any(not closed(s) for s in socks) and time.monotonic() < end:
        time.sleep(0.25)
    return all(closed(s) for s in socks)


def test_idle_and_trickling_connections_do_not_starve_another_client(server):
    port, _ = server
    held = []
    try:
        for n in range(MAX_CONNECTIONS_PER_CLIENT + 100):  # half silent, half half a head
            sock = connect(port)
            if n % 2:
                with contextlib.suppress(OSError):
                    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            held.append(sock)
        time.sleep(0.5)
        still_open = [s for s in held if not closed(s)]
        assert len(still_open) == MAX_CONNECTIONS_PER_CLIENT  # one client's share, no more
        status, _, _ = answer(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                              source="127.0.0.2")
        assert status == 200  # another client is answered at once
        status, _, page = answer(port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                                 source="127.0.0.2")
        assert status == 200 and b"<html" in page
        trickler = connect(port, "127.0.0.3")
        trickler.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        dropped = False
        for _ in range(int(4 * DROPPED_WITHIN_S)):  # a line a second: the head never ends
            time.sleep(1)
            try:
                trickler.sendall(b"X-Slow: 1\r\n")
            except OSError:
                dropped = True
                break
        assert dropped or all_closed([trickler], DROPPED_WITHIN_S)  # sending kept it open
        assert all_closed(still_open, 4 * DROPPED_WITHIN_S)
    finally:
        for sock in held:
            sock.close()


def test_a_guest_trickling_heads_cannot_shut_out_the_party_on_its_address(server):
    """Slowloris from the party's one address: past the share, the oldest connections still
    without a whole head make way, so another phone there gets every answer."""
    port, _ = server
    party = "127.0.3.1"
    loris: list[socket.socket] = []
    statuses = []
    try:
        for _ in range(20):
            loris = [s for s in loris if not closed(s)]
            while len(loris) < MAX_CONNECTIONS_PER_CLIENT + 20:  # the share and more, half heads
                sock = connect(port, party)
                with contextlib.suppress(OSError):
                    sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
                loris.append(sock)
            status, _, body = answer(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                                     source=party)
            statuses.append(status)
        assert statuses == [200] * 20
        still_open = [s for s in loris if not closed(s)]
        assert len(still_open) <= MAX_CONNECTIONS_PER_CLIENT  # the share held
    finally:
        for sock in loris:
            sock.close()


@pytest.mark.parametrize("pace", ["stall", "trickle"])
def test_a_slow_body_gets_408_and_the_connection_closed(server, pace):
    port, _ = server
    body = f"game={FIRST.name}&players={SMALL}".encode()
    sock = connect(port, "127.0.0.4")
    sock.sendall(b"POST /custom HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                 b"application/x-www-form-urlencoded\r\nContent-Length: "
                 + str(len(body)).encode() + b"\r\n\r\n" + body[:3])
    give_up, sent, data = time.monotonic() + 4 * DROPPED_WITHIN_S, 3, b""  # never answered
    sock.settimeout(1)
    while time.monotonic() < give_up:
        if pace == "trickle" and sent < len(body) - 1:
            with contextlib.suppress(OSError):
                sock.sendall(body[sent:sent + 1])
            sent += 1
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    sock.close()
    assert data.startswith(b"HTTP/1.1 408"), data[:80]  # answered, before the body ended
    assert b"connection: close" in data.lower()


def test_hosts_and_origins_over_real_sockets(server):
    port, _ = server
    assert answer(port, "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n")[0] == 400
    assert answer(port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n")[0] == 200
    assert answer(port, "GET / HTTP/1.1\r\nHost: kits.test\r\n\r\n")[0] == 200  # --allowed-host
    body = f"game={FIRST.name}&title=Origin".encode()
    post = (f"POST /custom HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/"
            f"x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n")
    status, _, _ = answer(port, post + "Origin: https://evil.example\r\n\r\n", body=body)
    assert status == 403
    status, headers, _ = answer(port, post + f"Origin: http://127.0.0.1:{port}\r\n\r\n",
                                body=body)
    assert status == 303 and headers["location"].startswith("/custom/")
    status, headers, page = answer(port, f"GET {headers['location']} HTTP/1.1\r\n"
                                   "Host: 127.0.0.1\r\n\r\n")
    assert status in (200, 202) and headers["x-content-type-options"] == "nosniff"
    assert "x-kit-cache" not in headers


def health(port: int, source: str, forwarded: str = "") -> dict:
    extra = f"X-Forwarded-For: {forwarded}\r\n" if forwarded else ""
    status, _, body = answer(port, f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n",
                             source=source)
    assert status == 200
    return json.loads(body)


def test_only_a_trusted_proxy_names_the_client(server):
    port, _ = server
    assert "pool" in health(port, "127.0.0.2")  # this machine sees the figures
    assert "pool" in health(port, "127.0.0.2", "203.0.113.9")  # not a proxy: ignored
    assert health(port, PROXY, "203.0.113.9") == {"status": "ok"}  # a remote client


def test_the_access_log_shows_no_token(server):
    port, err = server
    answer(port, "GET /console/game1/gm/TOPSECRETTOKEN HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 "Authorization: Bearer SECRETBEARER\r\n\r\n")
    deadline = time.monotonic() + 5
    while "/console/game1/gm/" not in err.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    log = err.read_text()
    assert "/console/game1/gm/[redacted]" in log
    assert "TOPSECRETTOKEN" not in log and "SECRETBEARER" not in log


def test_a_trusted_proxy_has_no_connection_share(server):
    port, _ = server
    through_proxy = [connect(port, PROXY) for _ in range(MAX_CONNECTIONS_PER_CLIENT + 8)]
    try:
        time.sleep(0.5)
        assert not any(closed(s) for s in through_proxy)  # each carries many clients
    finally:
        for sock in through_proxy:
            sock.close()


def test_the_server_times_out_heads_not_silent_waits():
    from kit.serve.app import server_config

    config = server_config()
    assert 0 < config.keep_alive_timeout <= DROPPED_WITHIN_S  # a head within it, or closed
    # a client waits silently while its ready-made kit is in line: no read timeout may cut it
    assert config.read_timeout is None
    assert config.include_server_header is False and config.accesslog is None


def test_short_connections_in_a_row_are_all_answered(server):
    """A script opening a connection per call (the README's curl session): each closed
    connection gives its place back at once, so more calls in a row than an address's share
    are all answered."""
    port, _ = server
    source = "127.0.0.6"
    statuses = [answer(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", source)[0]
                for _ in range(45)]
    assert statuses == [200] * 45
    more = [answer(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", source)[0]
            for _ in range(MAX_CONNECTIONS_PER_CLIENT + 20)]
    assert more == [200] * (MAX_CONNECTIONS_PER_CLIENT + 20)


def api(port: int, method: str, path: str, source: str = "127.0.0.1", body: object = None,
        headers: str = "") -> tuple[int, dict[str, str], bytes]:
    data = json.dumps(body).encode() if body is not None else b""
    kind = "Content-Type: application/json\r\n" if body is not None else ""
    return answer(port, f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{kind}"
                        f"Content-Length: {len(data)}\r\n{headers}\r\n", source, data)


NEW_GAME = {"game": "whats-my-number", "players": 5}


def test_wrong_tokens_never_lock_out_the_right_one_or_the_public(server):
    port, _ = server
    source = "127.0.0.7"
    status, _, body = api(port, "POST", "/api/games", source, NEW_GAME)
    assert status == 201
    made = json.loads(body)
    game, token = made["id"], made["gm_token"]
    wrong = [answer(port, f"GET /console/{game}/gm/{'x' * 43} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    "\r\n", source)[0] for _ in range(25)]
    assert wrong[:20] == [403] * 20 and set(wrong[20:]) == {429}
    bearer = [api(port, "GET", f"/api/games/{game}/state.json", source,
                  headers="Authorization: Bearer wrong\r\n")[0] for _ in range(2)]
    assert bearer == [429, 429]
    # the same address, with the right token, and everyone's public pages: never throttled
    status, headers, _ = answer(port, f"GET /console/{game}/gm/{token} HTTP/1.1\r\n"
                                "Host: 127.0.0.1\r\n\r\n", source)
    assert status == 303 and headers["cache-control"] == "no-store"
    assert api(port, "GET", f"/api/games/{game}/state.json", source,
               headers=f"Authorization: Bearer {token}\r\n")[0] == 200
    for path in (f"/console/{game}", f"/console/{game}/standings",
                 f"/api/games/{game}/public.json"):
        assert answer(port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", source)[0] == 200
    # a page asked for without the cookie is a 403, and counts nothing
    assert answer(port, f"GET /console/{game}/gm HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                  "127.0.0.8")[0] == 403


def test_behind_the_tls_proxy_links_are_https_and_the_cookie_secure(server):
    port, _ = server
    through = "X-Forwarded-For: 203.0.113.20\r\nX-Forwarded-Proto: https\r\n"
    site = "Origin: https://kits.test\r\nSec-Fetch-Site: same-origin\r\n"
    data = json.dumps(NEW_GAME).encode()
    head = ("POST /api/games HTTP/1.1\r\nHost: kits.test\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n")
    status, _, body = answer(port, head + through + site + "\r\n", PROXY, data)
    assert status == 201, body  # a same-origin post of the HTTPS site passes
    made = json.loads(body)
    assert made["gm_url"].startswith("https://kits.test/console/")
    assert made["public_url"].startswith("https://kits.test/console/")
    link = made["gm_url"].removeprefix("https://kits.test")
    status, headers, _ = answer(port, f"GET {link} HTTP/1.1\r\nHost: kits.test\r\n{through}\r\n",
                                PROXY)
    cookies = headers["set-cookie"].splitlines()  # the GM's, and the games this browser holds
    assert status == 303 and len(cookies) == 2
    assert all("; secure" in line.lower() for line in cookies)
    (cookie,) = [line.split(";", 1)[0] for line in cookies
                 if line.startswith(f"{guard.COOKIE}=")]
    status, _, page = answer(port, f"GET /console/{made['id']}/gm HTTP/1.1\r\nHost: kits.test"
                             f"\r\nCookie: {cookie}\r\n{through}\r\n", PROXY)
    assert status == 200  # the GM page shows the link to keep as https:// too
    assert f"https://kits.test/console/{made['id']}/gm/".encode() in page
    assert b"http://kits.test" not in page
    # without Sec-Fetch-Site, the Origin decides: the http:// one is another origin
    plain = "Origin: http://kits.test\r\n"
    assert answer(port, head + through + plain + "\r\n", PROXY, data)[0] == 403
    # the header counts only from the proxy: a client cannot say it came over HTTPS
    status, _, body = answer(port, "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             f"Content-Type: application/json\r\nContent-Length: {len(data)}"
                             "\r\nX-Forwarded-Proto: https\r\n\r\n", "127.0.0.9", data)
    assert status == 201 and json.loads(body)["gm_url"].startswith("http://127.0.0.1")
    status, headers, _ = answer(port, f"GET {link} HTTP/1.1\r\nHost: kits.test\r\n\r\n",
                                "127.0.0.9")
    assert status == 303 and "secure" not in headers["set-cookie"].lower()  # neither cookie


@pytest.mark.parametrize("head", [
    "GET /healthz HTTP/1.1\nHost: 127.0.0.1\n\n",  # bare line feeds
    "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\nX-A: 1\r\n\r\n",  # one of them
    "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Folded: a\r\n b\r\n\r\n",  # obs-fold
    "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Folded: a\r\n\tb\r\n\r\n",
], ids=["bare-lf", "one-bare-lf", "fold-space", "fold-tab"])
def test_lenient_heads_are_refused(server, head):
    """A head a proxy in front could read otherwise is 400, and the connection closed."""
    port, _ = server
    with connect(port) as sock:
        sock.sendall(head.encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    assert data.startswith(b"HTTP/1.1 400"), data[:60]


def test_two_framings_at_once_are_refused(server):
    port, _ = server
    status, _, _ = answer(port, "POST /custom HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4"
                          "\r\nTransfer-Encoding: chunked\r\n\r\n", body=b"0\r\n\r\n")
    assert status == 400
    strict = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    assert answer(port, strict)[0] == 200
