"""The console's event streams over a real server (SQLite and PostgreSQL): the public stream
hears a publish, every stream carries only what its viewer may see (every event of every kind
of token scanned for other players' secrets, guesses and links), a resumed stream catches up
once, wrong tokens are refused as elsewhere, and on PostgreSQL an append made through another
server reaches a stream (LISTEN/NOTIFY)."""

from __future__ import annotations

import json
import queue
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sse_starlette", reason="the console's streams need the web extra")

import httpx  # noqa: E402
from support.helpers import served  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SECRETS = {"Ann": 417, "Bob": 523, "Cy": 608, "Dee": 719}
GUESSES = {"Ann": [111, 112], "Bob": [221, 222], "Cy": [331, 332], "Dee": [441, 442]}
WAIT_S = 30  # a bound on waiting for an event that should come at once (never a timing)


class Stream:
    """One event stream read in a thread; its events, parsed, in a queue."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.events: queue.Queue[dict[str, str]] = queue.Queue()
        self.raw: list[str] = []
        self.status = 0
        self.content_type = ""
        self._opened = threading.Event()
        self._response: httpx.Response | None = None
        self._client = httpx.Client(timeout=httpx.Timeout(WAIT_S, read=None))
        threading.Thread(target=self._read, args=(url, headers or {}), daemon=True).start()
        assert self._opened.wait(WAIT_S), "the stream did not answer"

    def _read(self, url: str, headers: dict[str, str]) -> None:
        try:
            with self._client.stream("GET", url, headers=headers) as response:
                self._response = response
                self.status = response.status_code
                self.content_type = response.headers.get("content-type", "")
                self._opened.set()
                if response.status_code != 200:
                    return
                event: dict[str, str] = {}
                for line in response.iter_lines():
                    self.raw.append(line)
                    if not line:
                        if "data" in event:
                            self.events.put(event)
                        event = {}
                    elif not line.startswith(":"):
                        key, _, value = line.partition(":")
                        event[key] = value.removeprefix(" ")
        except (httpx.HTTPError, RuntimeError):
            pass  # closed by the test
        finally:
            self._opened.set()

    def next(self) -> dict[str, str]:
        return self.events.get(timeout=WAIT_S)

    def close(self) -> None:
        if self._response is not None:
            self._response.close()
        self._client.close()


@pytest.fixture
def base(console) -> Iterator[str]:
    from support.console_db import console_app

    app = console_app()
    app.state.console = console
    with served(app) as url:
        yield url


@pytest.fixture
def game(base: str) -> dict:
    answer = httpx.post(f"{base}/api/games", json={
        "game": "whats-my-number", "players": PLAYERS, "secrets": SECRETS, "range": "1-999"})
    assert answer.status_code == 201, answer.text
    return answer.json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def gm(base: str, game: dict, path: str, body: dict | None = None) -> httpx.Response:
    answer = httpx.post(f"{base}/api/games/{game['id']}/{path}", json=body or {},
                        headers=bearer(game["gm_token"]))
    assert answer.status_code in (200, 201), answer.text
    return answer


def orders(base: str, game: dict, player: str) -> None:
    answer = httpx.post(f"{base}/api/games/{game['id']}/orders",
                        json={"guesses": GUESSES[player]},
                        headers=bearer(game["player_tokens"][player]))
    assert answer.status_code == 201, answer.text


def has(number: int, text: str) -> bool:
    return re.search(rf"(?<![\d.]){number}(?![\d.])", text) is not None


def test_the_public_stream_hears_a_publish(base: str, game: dict) -> None:
    stream = Stream(f"{base}/api/games/{game['id']}/events")
    try:
        assert (stream.status, stream.content_type.split(";")[0]) == (200, "text/event-stream")
        first = stream.next()
        assert (first["event"], first["id"]) == ("version", "1")
        assert json.loads(first["data"])["version"] == 1
        for player in PLAYERS:  # the public sees no unpublished post: no event
            orders(base, game, player)
        gm(base, game, "turns/1/close")
        gm(base, game, "turns/1/publish")
        published = stream.next()
        assert published["event"] == "published"
        assert json.loads(published["data"])["published"] == 1
        assert published["id"] == str(json.loads(published["data"])["version"]) == "2"
        assert stream.events.empty()
    finally:
        stream.close()


def _streams(base: str, game: dict) -> dict[str, Stream]:
    """A stream for every viewer, by the API's bearer and by each page's address."""
    gid, tokens = game["id"], game["player_tokens"]
    streams = {"public": Stream(f"{base}/api/games/{gid}/events"),
               "public page": Stream(f"{base}/console/{gid}/events"),
               "gm": Stream(f"{base}/api/games/{gid}/events", bearer(game["gm_token"]))}
    for name, token in tokens.items():
        streams[name] = Stream(f"{base}/api/games/{gid}/events", bearer(token))
        streams[f"{name} page"] = Stream(f"{base}/console/{gid}/p/{token}/events")
    for stream in streams.values():
        assert stream.next()["event"] == "version"  # following: nothing falls between
    return streams


def test_every_stream_carries_only_what_its_viewer_may_see(base: str, game: dict) -> None:
    streams = _streams(base, game)
    try:
        for player in PLAYERS:
            orders(base, game, player)
        gm(base, game, "turns/1/close")
        gm(base, game, "turns/1/publish")
        for stream in streams.values():  # read until each has heard the publish
            while stream.next()["event"] != "published":
                pass
        # the GM heard every entry; a player their own post, the close and the publish
        gm_events = [e for e in streams["gm"].raw if e.startswith("event:")]
        # the players' pages opened after the GM's stream: it heard them come ("seen")
        assert "event: seen" in gm_events
        assert [e for e in gm_events if e != "event: seen"] == [
            "event: version", *["event: entered"] * 5, "event: published"]
        assert [e for e in streams["Ann"].raw if e.startswith("event:")] == [
            "event: version", "event: entered", "event: entered", "event: published"]
        tokens = [game["gm_token"], *game["player_tokens"].values()]
        for name, stream in streams.items():
            text = "\n".join(stream.raw)
            assert not [t for t in tokens if t in text], name
            me = name.removesuffix(" page")
            others = [p for p in PLAYERS if p != me]
            assert not [p for p in others if has(SECRETS[p], text)], name
            assert not [g for p in others for g in GUESSES[p] if has(g, text)], name
        assert has(SECRETS["Ann"], "\n".join(streams["Ann"].raw))  # their own, from their view
    finally:
        for stream in streams.values():
            stream.close()


def test_the_game_master_hears_a_phone_asking_to_join_and_no_one_else_does(
        base: str, game: dict) -> None:
    streams = _streams(base, game)
    try:
        state = httpx.get(f"{base}/api/games/{game['id']}/state.json",
                          headers=bearer(game["gm_token"])).json()
        asked = httpx.post(f"{base}/api/join", json={"code": state["join_code"], "name": "Cy"})
        secret = asked.json()["request"]
        joined = streams["gm"].next()
        while joined["event"] == "seen":  # the players' pages opening their streams
            joined = streams["gm"].next()
        assert joined["event"] == "joined" and json.loads(joined["data"]) == {"waiting": ["Cy"]}
        [waiting] = [j for j in httpx.get(f"{base}/api/games/{game['id']}/state.json",
                                          headers=bearer(game["gm_token"])).json()["joins"]]
        gm(base, game, f"joins/{waiting['request']}/admit")
        admitted = streams["gm"].next()
        while admitted["event"] == "seen":
            admitted = streams["gm"].next()
        assert json.loads(admitted["data"]) == {"waiting": []}
        gm(base, game, "turns/1/close")
        gm(base, game, "turns/1/publish")
        for name, stream in streams.items():  # read until each has heard the publish
            while stream.next()["event"] != "published":
                pass
            text = "\n".join(stream.raw)
            assert secret not in text and waiting["request"] not in text, name
            assert not [t for t in game["player_tokens"].values() if t in text], name
            assert name == "gm" or "joined" not in text, name
    finally:
        for stream in streams.values():
            stream.close()


def test_a_resumed_stream_catches_up_once(base: str, game: dict, console) -> None:
    gid = game["id"]
    for player in PLAYERS:
        orders(base, game, player)
    gm(base, game, "turns/1/close")
    gm(base, game, "turns/1/publish")  # the public version is now 2
    behind = Stream(f"{base}/api/games/{gid}/events", {"Last-Event-ID": "1"})
    current = Stream(f"{base}/api/games/{gid}/events?version=7", bearer(game["gm_token"]))
    try:
        caught_up = behind.next()  # the public version moved from 1 to 2: one event
        assert (caught_up["event"], caught_up["id"]) == ("version", "2")
        while console.store.events.streams() < 2:  # the GM's is following, silently: at 7 still
            threading.Event().wait(0.01)
        assert current.events.empty()
        orders(base, game, "Ann")  # turn 2's
        heard = current.next()
        assert (heard["event"], heard["id"]) == ("entered", "8")
        assert behind.events.empty() and "event: entered" not in behind.raw
    finally:
        behind.close()
        current.close()


def test_wrong_tokens_are_refused_as_elsewhere(base: str, game: dict) -> None:
    gid = game["id"]
    assert httpx.get(f"{base}/console/{gid}/p/{'x' * 43}/events").status_code == 404
    assert httpx.get(f"{base}/console/{gid}/t/{'x' * 43}/events").status_code == 404
    assert httpx.get(f"{base}/console/{'0' * 32}/events").status_code == 404
    assert httpx.get(f"{base}/console/{gid}/gm/events").status_code == 403
    wrong = httpx.get(f"{base}/api/games/{gid}/events", headers=bearer("x" * 43))
    assert wrong.status_code == 403 and wrong.json()["errors"][0]["field"] == "authorization"
    unknown = httpx.get(f"{base}/api/games/{'0' * 32}/events")
    assert unknown.status_code == 404 and unknown.json()["errors"][0]["field"] == "game"
    bad = httpx.get(f"{base}/api/games/{gid}/events", headers={"Last-Event-ID": "soon"})
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "version"


@pytest.mark.parametrize("console_url", ["postgresql"], indirect=True)
def test_an_append_on_another_server_reaches_the_stream(console_url: str, tmp_path: Path,
                                                        base: str, game: dict) -> None:
    """PostgreSQL only: one SQLite file is one server's, its appends are in process."""
    from kit.console.service import open_console

    other = open_console(console_url, tmp_path / "other-files")  # a second server
    stream = Stream(f"{base}/api/games/{game['id']}/events", bearer(game["gm_token"]))
    try:
        assert stream.next()["event"] == "version"
        other.enter(game["id"], "sent", {"guesses": GUESSES["Ann"]}, {"player": "Ann"})
        heard = stream.next()
        assert (heard["event"], heard["id"]) == ("entered", "2")
    finally:
        stream.close()
        other.close()


def test_the_hub_tells_which_seats_have_a_page_open() -> None:
    import asyncio
    import concurrent.futures

    from kit.console.events import Hub

    async def play() -> None:
        hub = Hub()
        gm = hub.watch("g", gm=True)
        assert hub.presence("g") == (0, {})
        ann = hub.watch("g", seat="player:Ann")
        again = hub.watch("g", seat="player:Ann")  # the same link on a second phone
        hub.arrived(ann)
        await asyncio.wait_for(gm.woken.wait(), 30)  # the GM's stream is told
        assert hub.presence("g")[1] == {"player:Ann": "here"}
        hub.drop(ann)
        assert hub.presence("g")[1] == {"player:Ann": "here"}  # one phone still holds it
        before = time.time()
        hub.drop(again)
        comings, seen = hub.presence("g")
        assert comings == 4 and isinstance(seen["player:Ann"], float)
        assert seen["player:Ann"] >= before
        hub.drop(again)  # dropped twice: counted once
        assert hub.presence("g")[0] == 4
        hub.drop(gm)
        assert hub.streams() == 0

    # a loop of its own in a thread of its own: a browser test before it on this worker may
    # have left its event loop running in this thread
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play()).result()


def test_a_pages_stream_says_within_what_time_the_page_asks(base: str,
                                                                  game: dict) -> None:
    from kit.console.stream import SCREEN_SHARE, SPREAD_PER_STREAM_MS

    gid = game["id"]
    pages = {name: Stream(f"{base}/console/{gid}/p/{token}/events")
             for name, token in game["player_tokens"].items()}
    others = {"public page": Stream(f"{base}/console/{gid}/events"),
              "Ann by the API": Stream(f"{base}/api/games/{gid}/events",
                                       bearer(game["player_tokens"]["Ann"])),
              "gm": Stream(f"{base}/api/games/{gid}/events", bearer(game["gm_token"]))}
    try:
        for stream in [*pages.values(), *others.values()]:
            assert stream.next()["event"] == "version"
        for player in PLAYERS:
            orders(base, game, player)
        gm(base, game, "turns/1/close")
        gm(base, game, "turns/1/publish")
        for name, stream in {**pages, **others}.items():
            while (event := stream.next())["event"] != "published":
                pass
            said = json.loads(event["data"])
            if name in pages:  # four pages of seats follow the game here
                assert said["spread_ms"] == 4 * SPREAD_PER_STREAM_MS, name
            elif name == "public page":  # a big screen: its answers are made once for all
                assert said["spread_ms"] == int(4 * SPREAD_PER_STREAM_MS * SCREEN_SHARE) > 0
            else:  # the game master and a program fetch at once
                assert "spread_ms" not in said, name
    finally:
        for stream in [*pages.values(), *others.values()]:
            stream.close()


def test_the_spread_grows_with_the_room_and_stops_at_its_most() -> None:
    import asyncio
    import concurrent.futures

    from kit.console.events import Hub
    from kit.console.stream import SPREAD_MOST_MS, SPREAD_PER_STREAM_MS, spread_ms

    async def play() -> None:
        hub = Hub()
        screens = [hub.watch("g") for _ in range(50)]  # screens are no seats: they count not
        assert spread_ms(hub, "g") == 0
        phones = [hub.watch("g", seat=f"player:P{n % 100}") for n in range(40)]
        assert spread_ms(hub, "g") == 40 * SPREAD_PER_STREAM_MS
        phones += [hub.watch("g", seat=f"player:P{n % 100}") for n in range(400)]
        assert spread_ms(hub, "g") == SPREAD_MOST_MS == 3000
        assert spread_ms(hub, "g", 0.1) == 300
        assert spread_ms(hub, "another game") == 0
        for waiter in [*screens, *phones]:
            hub.drop(waiter)
        assert spread_ms(hub, "g") == 0

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play()).result()


def test_streams_woken_by_one_append_share_one_look(base: str, game: dict, console,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from kit.console.stream import _what_changed

    for player in PLAYERS:
        orders(base, game, player)
    gm(base, game, "turns/1/close")
    gm(base, game, "turns/1/publish")
    now = console.game_row(game["id"]).version  # the publish's; the close's before it
    loads = []
    load = console.load
    monkeypatch.setattr(console, "load", lambda game_id: loads.append(game_id) or load(game_id))
    seen = {who: _what_changed(console, game["id"], who, now - 1, now)
            for who in ["public", "gm", *[f"player:{p}" for p in PLAYERS]]}
    assert len(loads) == 1  # (without the version it was woken with: one each)
    assert {name for _, _, name in seen.values()} == {"published"}
    assert {version for _, version, _ in seen.values()} == {now}
    assert has(SECRETS["Ann"], json.dumps(seen["player:Ann"][0].data))
    assert not has(SECRETS["Ann"], json.dumps(seen["player:Bob"][0].data))
    _what_changed(console, game["id"], "public", now - 1, 0)  # told no version: its own look
    assert len(loads) == 2
