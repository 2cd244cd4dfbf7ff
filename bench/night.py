"""A big night at the console, against a live ``kit serve`` on loopback (``bench/console.py
--night`` runs it; its server and helpers are that script's).

A 36-player, 30-turn What's My Number? game entered and published through the API (each turn
timed: its orders POSTed for all 36 players, then the publish POST; the last 10 turns are the
bar's "a new turn entered and published" on a game that already has 20 to 29), then:
``public.json``, the big-screen standings and the public page (first view, then warm),
``report.txt``; then 12 standings screens polling as their page's script does (the address its
script fetches, every 2 s, sending back the ETag it got; the page again when the version moved)
for ``--poll-seconds``, while the game master enters and publishes a new turn every 10 s and
another client reads another game's public page every 0.25 s."""

from __future__ import annotations

import re
import threading
import time

import httpx
from console import ms, party, timed_gets

BIG = [f"B{n:02d}" for n in range(1, 37)]


LAST_TURNS = 10  # the turns reported as "a new turn" on the grown game
TURN_EVERY_S = 10.0  # while the screens poll, a new turn this often
VERSION = re.compile(r'id="board" data-version="([^"]*)"')


def night_game(client: httpx.Client) -> tuple[str, dict[str, str]]:
    """A new 36-player game: its id and the game master's header."""
    made = client.post("/api/games", json={
        "game": "whats-my-number", "players": BIG, "range": "1-400",
        "secrets": {p: 40 + 10 * i for i, p in enumerate(BIG)}})
    made.raise_for_status()
    game = made.json()
    return game["id"], {"Authorization": f"Bearer {game['gm_token']}"}


def new_turn(client: httpx.Client, game: str, gm: dict[str, str], turn: int) -> float:
    """Turn ``turn``'s two guesses a player entered (one POST), then published: seconds."""
    start = time.perf_counter()
    guesses = {p: [1 + (turn * 13 + i * 3) % 39, 1 + (turn * 29 + i * 5) % 39]
               for i, p in enumerate(BIG)}
    client.post(f"/api/games/{game}/turns", json={"orders": guesses},
                headers=gm).raise_for_status()
    client.post(f"/api/games/{game}/turns/{turn}/publish", headers=gm).raise_for_status()
    return time.perf_counter() - start


def poller(base: str, game: str, until: float, samples: list[float],
           swaps: list[float]) -> None:
    """One standings screen: what its page's script fetches (the first ``fetch("...")`` of
    the page), every 2 s, with the page's own conditional fetch when the browser would; when
    the version moved, the page again (conditional on the page's ETag), as its script does."""
    with httpx.Client(base_url=base, timeout=120) as client:
        page = client.get(f"/console/{game}/standings")
        page.raise_for_status()
        found = re.search(r'fetch\("([^"]+)"', page.text)
        url = found.group(1) if found else f"/console/{game}/standings"
        shown = VERSION.search(page.text)
        board, page_tag, tag = shown.group(1) if shown else "", page.headers.get("etag", ""), ""
        while time.monotonic() < until:
            start = time.perf_counter()
            answer = client.get(url, headers={"if-none-match": tag} if tag else {})
            tag = answer.headers.get("etag", "")
            samples.append(time.perf_counter() - start)
            if answer.status_code == 200 and url.endswith("version.json") \
                    and str(answer.json()["version"]) != board:
                again = time.perf_counter()
                page = client.get(f"/console/{game}/standings",
                                  headers={"if-none-match": page_tag} if page_tag else {})
                swaps.append(time.perf_counter() - again)
                if page.status_code == 200:
                    shown = VERSION.search(page.text)
                    board, page_tag = shown.group(1) if shown else "", page.headers.get("etag", "")
            time.sleep(max(0.0, 2.0 - (time.perf_counter() - start)))


def public_answers(client: httpx.Client, game: str, gets: int) -> dict[str, object]:
    """The grown game's public answers, each first view apart from its warm ones."""
    first = timed_gets(client, f"/console/{game}", 1)
    standings_first = timed_gets(client, f"/console/{game}/standings", 1)
    return {
        "public_json_bytes": len(client.get(f"/api/games/{game}/public.json").content),
        "public_page_first_ms": ms(first),
        "public_page_warm_ms": ms(timed_gets(client, f"/console/{game}", gets)),
        "public_json_warm_ms": ms(timed_gets(client, f"/api/games/{game}/public.json", gets)),
        "standings_first_ms": ms(standings_first),
        "standings_warm_ms": ms(timed_gets(client, f"/console/{game}/standings", gets)),
        "report_txt_ms": ms(timed_gets(client, f"/console/{game}/files/report.txt",
                                       max(3, gets // 10)))}


def game_master(base: str, game: str, gm: dict[str, str], first: int, until: float,
                took: list[float]) -> None:
    """A new turn every ``TURN_EVERY_S`` while the screens poll, from turn ``first``."""
    turn = first
    with httpx.Client(base_url=base, timeout=120) as client:
        while time.monotonic() + TURN_EVERY_S / 2 < until:
            time.sleep(TURN_EVERY_S / 2)
            took.append(new_turn(client, game, gm, turn))
            turn += 1
            time.sleep(TURN_EVERY_S / 2)


def big_night(base: str, turns: int, gets: int, seconds: float) -> dict[str, object]:
    """The 36-player game's turns and public answers, then 12 screens polling while the game
    master publishes new turns and another client reads another game's public page."""
    with httpx.Client(base_url=base, timeout=300) as client:
        start = time.perf_counter()
        game, gm = night_game(client)
        took = [new_turn(client, game, gm, turn) for turn in range(1, turns + 1)]
        result: dict[str, object] = {
            "players": len(BIG), "turns": turns,
            "setup_s": round(time.perf_counter() - start, 1),
            "turn_ms": ms(took), "new_turn_ms": ms(took[-LAST_TURNS:]),
            **public_answers(client, game, gets)}
        other = party(client, 2)
        client.get(f"/console/{other}").raise_for_status()
    polls: list[float] = []
    swaps: list[float] = []
    published: list[float] = []
    until = time.monotonic() + seconds
    screens = [threading.Thread(target=poller, args=(base, game, until, polls, swaps))
               for _ in range(12)]
    screens.append(threading.Thread(target=game_master,
                                    args=(base, game, gm, turns + 1, until, published)))
    for screen in screens:
        screen.start()
    victim = []
    with httpx.Client(base_url=base, timeout=120) as client:
        while time.monotonic() < until:
            victim.extend(timed_gets(client, f"/console/{other}", 1))
            time.sleep(0.25)
    for screen in screens:
        screen.join(180)
    result.update({"poll_ms": ms(polls) if polls else None,
                   "screen_swap_ms": ms(swaps) if swaps else None,
                   "new_turn_while_polled_ms": ms(published) if published else None,
                   "other_page_while_polled_ms": ms(victim)})
    return result
