"""``kit serve``'s guard and render line, in-process (Starlette's TestClient; renders are stubs
in threads): origins and hosts, headers on every answer (a 500 too), 405's ``Allow``, a minimal
``/healthz``, 404s that render nothing, failures that are not remembered, the page budget,
random result ids that say nothing about other clients, the fair line per client, and custom
kits kept 10 minutes whatever others ask. ``test_web_security_server.py`` does the same
against a real server over real sockets."""

from __future__ import annotations

import logging
import threading
import time
import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 but still drives httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kit.cache import RenderCache  # noqa: E402
from kit.config import resolve  # noqa: E402
from kit.errors import LayoutError, RenderError  # noqa: E402
from kit.output import KitFiles  # noqa: E402
from kit.registry import GAMES  # noqa: E402
from kit.serve import app as web_app  # noqa: E402
from kit.server import guard, share  # noqa: E402
from kit.server.http import SECURITY_HEADERS, HTTPProblem, problem_answer  # noqa: E402
from kit.server.pool import Busy  # noqa: E402
from kit.site import kit_cache, kits  # noqa: E402
from kit.site.kits import Rendered, ready_configs  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

FIRST = next(iter(GAMES.values()))
SMALL = max(FIRST.min_players, 3)
LOW = FIRST.min_players


def stub(config, preview_pages=1):
    return Rendered(config, KitFiles(config.folder_name, {"player-kit.pdf": b"%PDF-1.7 x" * 50}),
                    (), {})


class Gate:
    """A render that waits until released, and notes the order kits started in."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started: list[int] = []

    def __call__(self, config, preview_pages=1):
        self.started.append(config.players)
        assert self.release.wait(30)
        return stub(config)


def make_app(tmp_path, render=stub, **options):
    options = {"executor": "thread", "workers": 1, "prewarm": False,
               "database": str(tmp_path / "console.sqlite3"), **options}  # not the user's
    return web_app.create_app(render=render, games=[FIRST.name], players=[SMALL],
                              papers=["a4"], store=RenderCache(tmp_path / "cache"), **options)


def form(**values: str) -> dict[str, str]:
    return {"game": FIRST.name, "format": "zip", **values}


def wait_ready(client, location: str, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while (page := client.get(location)).status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.02)
    return page


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(tmp_path), raise_server_exceptions=False) as c:
        yield c


# --- origins and hosts -------------------------------------------------------------------------

@pytest.mark.parametrize(("headers", "status"), [
    ({"Origin": "https://evil.example"}, 403),
    ({"Origin": "null"}, 403),
    ({"Origin": "http://testserver:8080"}, 403),  # another port is another origin
    ({"Sec-Fetch-Site": "cross-site"}, 403),
    ({"Sec-Fetch-Site": "same-site", "Origin": "http://testserver"}, 403),
    ({"Origin": "http://testserver"}, 303),
    ({"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"}, 303),
    ({}, 303),  # curl, a script: no browser a site could steer
])
def test_cross_site_posts_are_refused_and_render_nothing(client, headers, status):
    response = client.post("/custom", data=form(), headers=headers, follow_redirects=False)
    assert response.status_code == status
    assert client.app.state.service.pool.started == (1 if status == 303 else 0)
    if status == 403:
        assert "Cross-site request refused" in response.text


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example",
                                  "", "[::1", "a b"])
def test_an_unknown_host_is_400(client, host):
    response = client.get("/", headers={"Host": host})
    assert response.status_code == 400
    assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("host", ["testserver", "127.0.0.1:8000", "localhost", "[::1]:8000"])
def test_loopback_names_are_served(client, host):
    assert client.get("/healthz", headers={"Host": host}).status_code == 200


def test_allowed_hosts_are_configurable(tmp_path):
    app = make_app(tmp_path, allowed_hosts=["kits.example.org"])
    with TestClient(app, base_url="http://kits.example.org") as c:
        assert c.get("/healthz").status_code == 200
        assert c.get("/healthz", headers={"Host": "testserver"}).status_code == 400


def test_no_absolute_redirect_from_the_host_header(client):
    response = client.get("/custom/", follow_redirects=False)
    assert response.status_code == 404 and "location" not in response.headers
    posted = client.post("/custom", data=form(), follow_redirects=False)
    assert posted.headers["location"].startswith("/custom/")  # a path, never a host


def test_heads_too_large_are_refused(client):
    assert client.get("/?" + "a=b&" * 3000).status_code == 414
    many = {f"x-h{i}": "v" for i in range(120)}
    assert client.get("/", headers=many).status_code == 431


# --- answers -------------------------------------------------------------------------------------

def broken(config, preview_pages=1):
    raise RuntimeError("a bug")


def test_every_answer_carries_the_security_headers_a_500_too(tmp_path):
    (ready,) = ready_configs([FIRST.name], [SMALL], ["a4"])
    with TestClient(make_app(tmp_path, render=broken), raise_server_exceptions=False) as c:
        answers = {
            500: c.get(f"/kits/{ready.folder_name}/player-kit.pdf"),
            405: c.delete("/"), 404: c.get("/nowhere"), 400: c.get("/", headers={"Host": "x.y"}),
            403: c.post("/custom", data=form(), headers={"Origin": "https://x.y"}),
            415: c.post("/custom", content=b"{}", headers={"content-type": "application/json"}),
            200: c.get("/"), 303: c.post("/custom", data=form(), follow_redirects=False)}
        for status, response in answers.items():
            assert response.status_code == status
            for name, value in SECURITY_HEADERS.items():
                assert response.headers[name] == value, (status, name)
        assert "a bug" not in answers[500].text


def test_405_says_what_is_allowed(client):
    response = client.put("/custom")
    assert response.status_code == 405
    assert {m.strip() for m in response.headers["allow"].split(",")} == {"GET", "HEAD", "POST"}
    assert {m.strip() for m in client.delete("/").headers["allow"].split(",")} == {"GET", "HEAD"}


def test_healthz_says_only_ok_unless_asked_by_this_machine_or_the_token(client, monkeypatch):
    assert client.get("/healthz").json() == {"status": "ok"}  # the test client is not loopback
    monkeypatch.setenv("KIT_HEALTH_TOKEN", "s3cret-token")
    assert client.get("/healthz", headers={"Authorization": "Bearer wrong"}).json() == {
        "status": "ok"}
    details = client.get("/healthz", headers={"Authorization": "Bearer s3cret-token"}).json()
    assert details["status"] == "ok" and details["pool"]["workers"] == 1


def test_a_missing_file_of_an_unbuilt_ready_kit_is_404_without_a_render(client):
    (ready,) = ready_configs([FIRST.name], [SMALL], ["a4"])
    for path in ("no-such-file", "player-kit.exe", "thumbs/player-kit.pdf", "../etc/passwd",
                 "fonts/../x", "nobody-1.png"):
        assert client.get(f"/kits/{ready.folder_name}/{path}").status_code == 404, path
    assert client.app.state.service.pool.started == 0
    assert client.get(f"/kits/{ready.folder_name}/player-kit.pdf").status_code == 200
    assert client.app.state.service.pool.started == 1


class FailsOnce:
    """A render that fails with ``error`` the first time, then works."""

    def __init__(self, error: Exception) -> None:
        self.error, self.calls = error, 0

    def __call__(self, config, preview_pages=1):
        self.calls += 1
        if self.calls == 1:
            raise self.error
        return stub(config)


def test_a_transient_render_failure_is_not_remembered(tmp_path):
    render = FailsOnce(RenderError("disk", "no space left on the device"))
    with TestClient(make_app(tmp_path, render=render), raise_server_exceptions=False) as c:
        first = c.post("/custom", data=form(), follow_redirects=False)
        page = wait_ready(c, first.headers["location"])
        assert page.status_code == 422 and "no space left on the device" in page.text
        again = c.post("/custom", data=form(), follow_redirects=False)
        assert again.headers["location"] != first.headers["location"]  # a new try
        assert wait_ready(c, again.headers["location"]).status_code == 200
        assert render.calls == 2


def test_a_layout_failure_is_remembered(tmp_path):
    render = FailsOnce(LayoutError("paper", "the page is too small"))
    with TestClient(make_app(tmp_path, render=render), raise_server_exceptions=False) as c:
        first = c.post("/custom", data=form(), follow_redirects=False)
        assert wait_ready(c, first.headers["location"]).status_code == 422
        again = c.post("/custom", data=form(), follow_redirects=False)
        assert again.status_code == 422 and "the page is too small" in again.text
        assert render.calls == 1


def test_the_largest_shuffle_seed_the_form_offers_is_accepted(client):
    names = "\n".join(f"Guest {i}" for i in range(SMALL))
    response = client.post("/custom", data=form(names=names, shuffle="2147483647"),
                           follow_redirects=False)
    assert response.status_code == 303, response.text


def test_the_page_budget_is_counted_before_drawing_and_named(tmp_path, monkeypatch):
    drawn = []
    monkeypatch.setattr("kit.build.finish", lambda *a, **k: drawn.append(a))
    config = resolve({"game": FIRST.name, "players": SMALL})
    with pytest.raises(Exception) as refused:
        kits.render_kit(config, max_pages=1)
    assert type(refused.value).__name__ == "ConfigError" and drawn == []
    assert "a kit made here may have at most 1" in str(refused.value)
    pages = int(str(refused.value).split("would have ")[1].split(" ")[0])
    app = make_app(tmp_path, render=lambda c, p=1: kits.render_kit(c, p, max_pages=pages - 1))
    with TestClient(app, raise_server_exceptions=False) as c:
        posted = c.post("/custom", data=form(players=str(SMALL)), follow_redirects=False)
        page = wait_ready(c, posted.headers["location"])
        assert page.status_code == 422
        assert f"may have at most {pages - 1}" in page.text and 'id="f-players-error"' in page.text


# --- keys ---------------------------------------------------------------------------------------

def test_result_ids_are_random_and_per_client(tmp_path):
    app = make_app(tmp_path)
    config = resolve({"game": FIRST.name, "players": SMALL, "lang": "en"})
    with TestClient(app) as one, TestClient(app, client=("10.0.0.2", 1)) as two:
        a = one.post("/custom", data=form(players=str(SMALL)), follow_redirects=False)
        b = two.post("/custom", data=form(players=str(SMALL)), follow_redirects=False)
        ident_a, ident_b = (r.headers["location"].split("/")[2].split("?")[0] for r in (a, b))
        assert ident_a != ident_b and len(ident_a) == 22
        assert kits.config_key(config) not in (ident_a, ident_b)
        assert "x-kit-cache" not in a.headers and "x-kit-cache" not in b.headers
        assert one.get(f"/custom/{kits.config_key(config)}").status_code == 404
        assert wait_ready(one, a.headers["location"]).status_code == 200
        assert app.state.service.pool.started == 1  # one render for both


def test_a_kit_another_client_made_shows_after_its_render_time(tmp_path):
    service = make_app(tmp_path).state.service
    config = resolve({"game": FIRST.name, "players": SMALL})
    key = kits.config_key(config)
    service.cache.put(key, kit_cache.Entry(stub(config), keep_until=time.monotonic() + 600,
                                      seconds=60.0, client="10.0.0.9"))
    theirs = service.order(config, "10.0.0.2")
    mine = service.order(config, "10.0.0.9")
    assert service.status(theirs).state == "waiting"  # like a render, not at once
    assert service.status(mine).state == "ready"
    service.tickets.get(theirs).created -= 61
    assert service.status(theirs).state == "ready"


# --- the fair line ------------------------------------------------------------------------------

def test_one_client_delays_another_by_at_most_one_render(tmp_path):
    gate = Gate()
    app = make_app(tmp_path, render=gate, per_client=3)
    service, line = app.state.service, app.state.service.pool
    with TestClient(app) as greedy, TestClient(app, client=("10.0.0.2", 1)) as host:
        for n in (LOW, LOW + 1, LOW + 2):
            assert greedy.post("/custom", data=form(players=str(n)),
                               follow_redirects=False).status_code == 303
        too_many = greedy.post("/custom", data=form(players=str(LOW + 3)),
                               follow_redirects=False)
        assert too_many.status_code == 429 and too_many.headers["retry-after"].isdigit()
        mine = host.post("/custom", data=form(players=str(LOW + 4)), follow_redirects=False)
        ident = mine.headers["location"].split("/")[2].split("?")[0]
        assert service.status(ident).place == 1  # next, before the greedy client's others
        assert "Place in line: 1." in host.get(mine.headers["location"]).text
        gate.release.set()
        assert wait_ready(host, mine.headers["location"]).status_code == 200
    assert gate.started[:2] == [LOW, LOW + 4]
    assert line.active == 0


def test_a_kit_being_made_is_waited_for_briefly_before_being_made_is_shown(tmp_path,
                                                                          monkeypatch):
    from kit.site import routes

    monkeypatch.setattr(routes, "SETTLE_S", 20.0)  # generous: the release comes at 0.2 s
    gate = Gate()
    with TestClient(make_app(tmp_path, render=gate)) as c:
        posted = c.post("/custom", data=form(), follow_redirects=False)
        assert posted.status_code == 303 and not gate.release.is_set()  # before its kit
        threading.Timer(0.2, gate.release.set).start()
        assert c.get(posted.headers["location"]).status_code == 200  # no "being made" page


def test_past_the_bounded_line_new_kits_get_503_with_retry_after(tmp_path):
    gate = Gate()
    app = make_app(tmp_path, render=gate, queue=2, per_client=1)
    clients = [TestClient(app, client=(f"10.0.0.{n}", 1)) for n in range(1, 5)]
    try:
        statuses = [c.post("/custom", data=form(players=str(LOW + n)),
                           follow_redirects=False) for n, c in enumerate(clients)]
        assert [r.status_code for r in statuses] == [303, 303, 303, 503]
        assert statuses[3].headers["retry-after"].isdigit()
    finally:
        gate.release.set()
        for c in clients:
            c.close()
        app.state.service.pool.shutdown()


def test_custom_kits_are_kept_ten_minutes_whatever_others_ask(tmp_path):
    service = make_app(tmp_path, cache_mb=16).state.service
    cache = service.cache
    cache.max_bytes = 900
    made = resolve({"game": FIRST.name, "players": LOW})
    cache.put("mine", kit_cache.Entry(stub(made), keep_until=time.monotonic() + kit_cache.KEEP_S))
    for n in range(5):  # others' kits: two kits are over the cap
        cache.put(f"other{n}", kit_cache.Entry(stub(made)))
    assert cache.get("mine") is not None
    cache.put("theirs", kit_cache.Entry(stub(made), keep_until=time.monotonic() + kit_cache.KEEP_S))
    assert cache.full_for() > 60  # kept kits fill it: new renders wait, none is dropped
    with pytest.raises(Busy) as busy:
        service.order(resolve({"game": FIRST.name, "players": LOW + 1}), "10.0.0.3")
    assert busy.value.status == 503 and busy.value.retry_after > 60
    cache.get("mine").keep_until = time.monotonic() - 1
    cache.put("later", kit_cache.Entry(stub(made)))
    assert cache.get("mine") is None and cache.get("theirs") is not None


def test_one_client_keeps_at_most_a_quarter_of_the_memory(tmp_path):
    gate = Gate()
    service = make_app(tmp_path, render=gate).state.service
    service.cache.max_bytes = 2000  # a stub kit is 500 bytes: a quarter
    made = resolve({"game": FIRST.name, "players": LOW})
    service.cache.put("greedy", kit_cache.Entry(stub(made), client="10.0.0.7",
                                           keep_until=time.monotonic() + kit_cache.KEEP_S))
    other = resolve({"game": FIRST.name, "players": LOW + 1})
    with pytest.raises(Busy) as busy:
        service.order(other, "10.0.0.7")
    assert busy.value.status == 429 and 60 < busy.value.retry_after <= kit_cache.KEEP_S
    assert service.order(other, "10.0.0.8")  # another client is not held back
    gate.release.set()
    service.pool.shutdown()


# --- the client's address and the log ------------------------------------------------------------

def test_the_client_is_the_forwarded_address_only_from_a_trusted_proxy():
    proxies = guard.TrustedProxies(["127.0.0.1", "10.0.0.0/8"])

    def scope(peer: str, forwarded: str) -> dict:
        return {"client": (peer, 1), "headers": [(b"x-forwarded-for", forwarded.encode())]}

    assert proxies.client(scope("127.0.0.1", "203.0.113.7")) == "203.0.113.7"
    assert proxies.client(scope("127.0.0.1", "1.2.3.4, 203.0.113.7, 10.1.2.3")) == "203.0.113.7"
    assert proxies.client(scope("198.51.100.1", "203.0.113.7")) == "198.51.100.1"  # not a proxy
    assert proxies.client(scope("127.0.0.1", "not an address")) == "127.0.0.1"
    assert guard.TrustedProxies().client(scope("127.0.0.1", "203.0.113.7")) == "127.0.0.1"


def test_the_access_log_never_shows_tokens(client, caplog):
    caplog.set_level(logging.INFO, logger="kit.web.access")
    client.get("/console/g1/gm/TOPSECRETTOKEN?x=1", headers={"Authorization": "Bearer BEARERTOK"})
    client.get("/custom/abc?names=Ann,Bob&token=QUERYTOKEN")
    client.get("/console/g1/p/PLAYERTOKEN", headers={"Authorization": "Bearer PLAYERBEARER"})
    lines = [r.getMessage() for r in caplog.records if r.name == "kit.web.access"]
    assert any("/console/g1/gm/[redacted]?x=" in line for line in lines), lines
    assert any("/custom/abc?names=&token=" in line for line in lines), lines
    assert any("/console/g1/p/[redacted]" in line for line in lines), lines
    for secret in ("TOPSECRETTOKEN", "BEARERTOK", "QUERYTOKEN", "Ann", "Bearer", "PLAYERTOKEN",
                   "PLAYERBEARER"):
        assert not any(secret in line for line in lines), secret


# --- the command line ---------------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "message"), [
    (["--forwarded-allow-ips", "10.0.0.0/8,proxy"],
     "forwarded_allow_ips: must be IP addresses or networks; got 'proxy'"),
    (["--allowed-host", "evil.example/x"],
     "allowed_host: must be a host name or address; got 'evil.example/x'"),
])
def test_bad_security_flags_are_one_line_errors(argv, message, capsys, monkeypatch):
    from kit import cli

    started = []
    monkeypatch.setattr(web_app, "serve", started.append)
    assert cli.main(["serve", *argv]) == cli.EXIT_USAGE
    assert capsys.readouterr().err == f"Error: {message}\n"
    assert started == []


def test_security_flags_reach_the_server(capsys, monkeypatch):
    from kit import cli

    started = []
    monkeypatch.setattr(web_app, "serve", started.append)
    assert cli.main(["serve", "--allowed-host", "kits.example.org,192.168.1.5",
                     "--allowed-host", "[::1]", "--forwarded-allow-ips", "127.0.0.1,10.0.0.0/8",
                     "--no-prewarm"]) == 0
    (settings,) = started
    assert settings.allowed_hosts == ("kits.example.org", "192.168.1.5", "[::1]")
    assert settings.forwarded_allow_ips == ("127.0.0.1", "10.0.0.0/8")
    assert settings.queue is None  # the line's default: 100 waiting renders
    assert web_app.allowed_host_names("0.0.0.0", settings.allowed_hosts) == [
        "127.0.0.1", "localhost", "::1", "kits.example.org", "192.168.1.5"]
    assert "192.168.1.9" in web_app.allowed_host_names("192.168.1.9")


def test_the_address_a_connection_came_in_on_is_a_host_we_serve():
    def scope(host: str, server: str) -> dict:
        return {"type": "http", "method": "GET", "query_string": b"",
                "server": (server, 8000), "headers": [(b"host", host.encode())]}

    hosts = frozenset(guard.LOOPBACK_HOSTS)
    assert guard.check_request(scope("192.168.1.5:8000", "192.168.1.5"), hosts) is None
    assert guard.check_request(scope("192.168.1.6:8000", "192.168.1.5"), hosts).status == 400
    assert guard.check_request(scope("rebound.example", "192.168.1.5"), hosts).status == 400
    assert guard.check_request(scope("localhost:8000", "192.168.1.5"), hosts) is None


def test_a_client_gets_its_connection_places_back_closed_or_dropped():
    import gc
    import socket

    listener = share.listen("127.0.0.1", 0, share=2)
    listener.setblocking(True)
    port = listener.getsockname()[1]
    try:
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
        first, _ = listener.accept()
        second, _ = listener.accept()
        assert listener.open == {"127.0.0.1": 2}
        for client in clients[:2]:  # both send whole heads
            client.sendall(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        assert first.recv(100).endswith(b"\r\n\r\n")
        assert second.recv(100).endswith(b"\r\n\r\n")
        listener.settimeout(0.5)
        with pytest.raises(OSError):  # the third is past the share: closed, nothing to accept
            listener.accept()
        assert listener.refused == 1
        first.close()
        del second
        gc.collect()
        assert listener.open == {}
    finally:
        for sock in clients:
            sock.close()
        listener.close()


def test_past_the_share_the_oldest_connection_without_a_whole_head_makes_way():
    import socket

    listener = share.listen("127.0.0.1", 0, share=2)
    listener.setblocking(True)
    port = listener.getsockname()[1]
    clients = []
    try:
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
        first, _ = listener.accept()
        second, _ = listener.accept()
        clients[1].sendall(b"GET / HTTP/1.1\r\nHost: a\r\n\r")
        assert second.recv(100).endswith(b"\r")
        clients[1].sendall(b"\n")  # the end of the head split over two reads
        assert second.recv(100) == b"\n"
        clients.append(socket.create_connection(("127.0.0.1", port)))
        third, _ = listener.accept()  # takes the place of the first: no head yet
        assert (listener.open, listener.evicted, listener.refused) == ({"127.0.0.1": 2}, 1, 0)
        assert clients[0].recv(1) == b""  # ended by the server
        third.recv_into(bytearray(0))
        clients.append(socket.create_connection(("127.0.0.1", port)))
        fourth, _ = listener.accept()  # the third makes way; the second has sent its head
        assert clients[2].recv(1) == b"" and clients[1].getpeername()
        third.close()
        first.close()
        fourth.close()
        second.close()
        assert listener.open == {} and listener.unheard == {}
    finally:
        for sock in clients:
            sock.close()
        listener.close()


def test_wrong_tokens_from_one_client_are_slowed_to_twenty_a_minute():
    from starlette.responses import PlainTextResponse

    async def api(scope, receive, send):  # a token-guarded path that says every token is wrong
        if scope["path"].startswith("/api/"):
            try:
                guard.refuse_wrong_token(scope)
            except HTTPProblem as problem:
                await problem_answer(scope, problem)(scope, receive, send)
                return
            await PlainTextResponse("x", status_code=403)(scope, receive, send)
            return
        await PlainTextResponse("x", status_code=403 if "gm" in scope["path"] else 200)(
            scope, receive, send)

    app = guard.Guard(api, allowed_hosts=["testserver"])
    one, two = TestClient(app), TestClient(app, client=("10.0.0.2", 1))  # no lifespan to run
    answers = [one.get("/api/games/g1/log.toml").status_code for _ in range(21)]
    assert answers == [403] * guard.MAX_WRONG_TOKENS + [429]
    refused = one.get("/api/games/g1/log.toml")
    assert refused.status_code == 429 and 0 < int(refused.headers["retry-after"]) <= 60
    assert refused.json()["errors"][0]["field"] == "authorization"  # JSON on the API
    assert one.get("/elsewhere").status_code == 200  # the rest of the site still answers
    assert one.get("/console/g1/gm").status_code == 403  # a 403 the console did not count
    assert two.get("/api/games/g1/log.toml").status_code == 403  # another client is not
    wrong = guard.WrongTokens(limit=2, window=60)
    wrong.note("a", 0.0)
    wrong.note("a", 1.0)
    assert wrong.wait("a", 30.0) == 30.0 and wrong.wait("a", 61.0) == 0.0


def test_only_the_consoles_wrong_tokens_count_never_other_refusals():
    """403s the console did not call wrong tokens (a cross-site post, a page without its
    cookie) leave the counter alone; without a guard in front nothing is counted."""
    from starlette.responses import PlainTextResponse

    async def refusing(scope, receive, send):
        await PlainTextResponse("no", status_code=403)(scope, receive, send)

    app = guard.Guard(refusing, allowed_hosts=["testserver"])
    client = TestClient(app)
    for _ in range(guard.MAX_WRONG_TOKENS + 5):
        assert client.post("/console/new/wmn", headers={"sec-fetch-site": "cross-site"}
                           ).status_code == 403
        assert client.get("/console/g1/gm").status_code == 403
    assert app.wrong_tokens.wait("testclient", time.monotonic()) == 0.0
    guard.refuse_wrong_token({"type": "http", "client": ("10.0.0.9", 1)})  # no guard: no-op


def test_the_guards_own_refusals_speak_the_requests_language():
    async def never(scope, receive, send):  # the guard answers before the app
        raise AssertionError("reached the app")

    client = TestClient(guard.Guard(never, allowed_hosts=["testserver"]))
    foreign = client.get("/", headers={"host": "evil.example", "accept-language": "fr"})
    assert foreign.status_code == 400 and foreign.headers["content-language"] == "fr"
    assert "Nom d’hôte inconnu" in foreign.text
    posted = client.post("/console/new/wmn?lang=de", headers={"sec-fetch-site": "cross-site"})
    assert posted.status_code == 403 and posted.headers["content-language"] == "de"
    api = client.post("/api/games", headers={"sec-fetch-site": "cross-site"})
    assert api.status_code == 403 and api.json()["errors"][0]["field"] == "request"
