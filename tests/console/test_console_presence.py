"""Where each seat's page is, across servers on one database (``kit.console.presence``), on
SQLite and PostgreSQL: a phone following the game through one server is "here now" on the
host's page of another, "last seen" once it closed, "never opened" before; the signs are
written at most once a minute per seat (a fake clock, no sleeps), a held stream's heartbeat
writes its sign again, and on PostgreSQL the game master's stream on one server hears a phone's
stream opening on the other."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sse_starlette", reason="the console's streams need the web extra")

import httpx  # noqa: E402
import sqlalchemy as sa  # noqa: E402
from support.helpers import served  # noqa: E402
from test_console_events import Stream  # noqa: E402

from kit.console.presence import HERE_S, WRITE_EVERY_S  # noqa: E402
from kit.console.service import Console, open_console  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SPEC = {"game": "whats-my-number", "players": PLAYERS,
        "secrets": {"Ann": 417, "Bob": 523, "Cy": 608, "Dee": 719}, "range": "1-999"}
WAIT_S = 30  # a bound on waiting for what should come at once (never a timing)


class Clock:
    """A fake clock: seconds since the epoch, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def writes(console: Console) -> Iterator[list[dict]]:
    """The parameters of every ``UPDATE seat_tokens`` the console's engine sends."""
    seen: list[dict] = []

    def spy(conn, cursor, statement, parameters, context, many) -> None:  # noqa: ANN001
        if statement.lstrip().upper().startswith("UPDATE SEAT_TOKENS"):
            seen.append(parameters)

    sa.event.listen(console.store.engine, "before_cursor_execute", spy)
    yield seen
    sa.event.remove(console.store.engine, "before_cursor_execute", spy)


def test_a_seat_is_written_at_most_once_a_minute(console: Console,
                                                 writes: list[dict]) -> None:
    game = console.create_game(SPEC).id
    clock = console.presence.clock = Clock()
    presence = console.presence
    for _ in range(12):  # a heartbeat every 5 s for a minute less a breath
        presence.streaming(game, "player:Ann")
        presence.requested(game, "player:Ann")  # and her page's requests meanwhile
        clock.now += (WRITE_EVERY_S - 1) / 12
    presence.settled()
    assert len(writes) == 1 and not presence.stream_due(game, "player:Ann")
    clock.now += 1
    assert presence.stream_due(game, "player:Ann")
    presence.streaming(game, "player:Ann")
    assert len(writes) == 2
    seen = console.presence.seats(game)
    assert seen["player:Ann"].here and seen["player:Ann"].last_seen == clock.now
    assert not seen["player:Bob"].here and seen["player:Bob"].last_seen is None

    presence.closed(game, "player:Ann")
    presence.closed(game, "player:Ann")  # told twice: written once
    assert len(writes) == 3
    closed_at = clock.now
    clock.now += 5
    ann = console.presence.seats(game)["player:Ann"]
    assert not ann.here and ann.last_seen == closed_at
    presence.streaming(game, "player:Ann")  # a phone back after a blip: here again at once
    assert len(writes) == 4 and console.presence.seats(game)["player:Ann"].here

    presence.requested(game, "player:Bob")
    presence.requested(game, "player:Bob")
    # a request's sign is this server's at once, and written behind it
    assert console.presence.seats(game)["player:Bob"].last_seen == clock.now
    presence.settled()
    assert len(writes) == 5
    assert console.presence.seats(game)["player:Bob"].last_seen == clock.now


def test_a_stream_whose_server_died_stops_counting(console: Console, console_url: str,
                                                   tmp_path: Path) -> None:
    game = console.create_game(SPEC).id
    clock = console.presence.clock = Clock()
    console.presence.streaming(game, "player:Cy")  # then the server dies: no closing
    other = open_console(console_url, tmp_path / "other-files")
    try:
        other.presence.clock = clock
        assert other.presence.seats(game)["player:Cy"].here
        clock.now += HERE_S + 1
        cy = other.presence.seats(game)["player:Cy"]
        assert not cy.here and cy.last_seen == clock.now - HERE_S - 1
    finally:
        other.close()


def row_of(page: str, name: str) -> str:
    """The text of the players' board's row of ``name`` on the host's page."""
    board = page[page.index(">Their page<"):]  # the column of presence
    found = re.search(rf'<th scope="row">{name}</th>(.*?)</tr>', board, re.S)
    assert found, f"no row of {name} on the page"
    return re.sub(r"<[^>]+>", " ", found.group(1))


def wait_for(check, what: str) -> None:  # noqa: ANN001
    """Until ``check()`` is true (a close is written after its stream has gone)."""
    deadline = time.monotonic() + WAIT_S
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture
def two_servers(console: Console, console_url: str, tmp_path: Path
                ) -> Iterator[tuple[str, str, Console]]:
    """Two servers on one database: the console's, and a second one's; their base URLs."""
    from support.console_db import console_app

    other = open_console(console_url, tmp_path / "other-files")
    first, second = console_app(), console_app()
    first.state.console, second.state.console = console, other
    try:
        with served(first) as a, served(second) as b:
            yield a, b, other
    finally:
        other.close()


def test_a_phone_on_one_server_is_here_now_on_the_host_page_of_another(
        console: Console, two_servers: tuple[str, str, Console]) -> None:
    a, b, _ = two_servers
    made = httpx.post(f"{a}/api/games", json=SPEC)
    assert made.status_code == 201, made.text
    game = made.json()
    token = game["player_tokens"]["Ann"]
    with httpx.Client(base_url=a, follow_redirects=True, timeout=WAIT_S) as host:
        def page() -> str:
            answer = host.get(f"/console/{game['id']}/gm")
            assert answer.status_code == 200
            return answer.text

        assert host.get(f"/console/{game['id']}/gm/{game['gm_token']}").status_code == 200
        assert "never opened" in row_of(page(), "Ann")
        assert httpx.get(f"{b}/console/{game['id']}/p/{token}").status_code == 200
        assert re.search(r"last seen \d\d:\d\d", row_of(page(), "Ann"))

        stream = Stream(f"{b}/console/{game['id']}/p/{token}/events")
        try:
            assert stream.next()["event"] == "version"  # open, its sign written before
            assert console.store.events.streams() == 0  # nothing held on the host's server
            assert "here now" in row_of(page(), "Ann")
            assert "never opened" in row_of(page(), "Bob")
            state = httpx.get(f"{a}/api/games/{game['id']}/state.json",
                              headers={"Authorization": f"Bearer {game['gm_token']}"}).json()
            by_name = {s["name"]: s for s in state["presence"]}
            assert by_name["Ann"]["seat"] == "player" and by_name["Ann"]["state"] == "here"
            assert by_name["Bob"] == {"seat": "player", "name": "Bob", "state": "never",
                                      "last_seen": None}
        finally:
            stream.close()
        wait_for(lambda: re.search(r"last seen \d\d:\d\d", row_of(page(), "Ann")),
                 "the closed stream is not 'last seen' on the other server")


@pytest.mark.parametrize("console_url", ["postgresql"], indirect=True)
def test_the_host_stream_hears_a_phone_on_another_server(
        console_url: str, two_servers: tuple[str, str, Console]) -> None:
    """PostgreSQL only: on SQLite every stream of a database is one server's."""
    a, b, _ = two_servers
    game = httpx.post(f"{a}/api/games", json=SPEC).json()
    host = Stream(f"{a}/api/games/{game['id']}/events",
                  {"Authorization": f"Bearer {game['gm_token']}"})
    try:
        assert host.next()["event"] == "version"
        phone = Stream(f"{b}/console/{game['id']}/p/{game['player_tokens']['Dee']}/events")
        try:
            assert phone.next()["event"] == "version"
            assert host.next()["event"] == "seen"
        finally:
            phone.close()
        assert host.next()["event"] == "seen"  # and its closing
    finally:
        host.close()


def test_a_held_stream_keeps_its_seat_here_by_its_heartbeat(
        console: Console, two_servers: tuple[str, str, Console],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from kit.console import stream

    monkeypatch.setattr(stream, "HEARTBEAT_S", 0.2)  # a heartbeat every 0.2 s, not 15 s
    a, b, other = two_servers
    clock = console.presence.clock = other.presence.clock = Clock()
    game = httpx.post(f"{a}/api/games", json=SPEC).json()
    phone = Stream(f"{b}/console/{game['id']}/p/{game['player_tokens']['Bob']}/events")
    try:
        assert phone.next()["event"] == "version"
        assert console.presence.seats(game["id"])["player:Bob"].here
        clock.now += HERE_S + 1  # two minutes on: only a heartbeat's write keeps Bob here
        wait_for(lambda: console.presence.seats(game["id"])["player:Bob"].here,
                 "no heartbeat wrote the held stream's sign again")
        assert console.presence.seats(game["id"])["player:Bob"].last_seen == clock.now
    finally:
        phone.close()
