"""One hostile guest at a party: a slowloris from the party's own address, and one player's
link reposting orders in a loop.

Starts ``python -m kit serve`` on 127.0.0.1 (loopback only) on a free port with a new SQLite
file (the code of the folder ``PYTHONPATH`` names: run it against two checkouts to compare),
makes a What's My Number? game, then:

1. ``--loris`` seconds of 300 sockets from the party's address (127.0.3.1), each trickling a
   request head a header line a second and reopened when closed, while another phone on that
   address and one on another address (127.0.3.2) each poll ``me.json``, one new connection
   every 0.3 s: answered and failed per phone, p50 and p95.
2. 30 calls before and after ``--reposts`` posts of one player's orders, back to back on one
   connection: another player's post, ``me.json`` and the GM page, p50 each; the reposts'
   statuses; the journal rows after.

With ``--in-process``, instead: ``--reposts`` posts of one player's orders entered through
``Console`` directly (the pace of a player's link is the HTTP layer's, so every one is
entered, as over a long night), then 30 of another player's posts and of the GM's state
(what the GM page shows), p50 each, and the journal rows after.

    python bench/crowd.py                         # 15 s of slowloris, 3,000 reposts
    python bench/crowd.py --in-process            # 3,000 reposts, all entered
    cd /tmp && PYTHONPATH=/path/to/other/checkout python /path/to/bench/crowd.py --json

(``python -m kit`` puts the current folder first on the module path: run it from a folder
with no ``kit`` in it to compare checkouts.)
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import sqlalchemy as sa

HOST, PARTY, OTHER = "127.0.0.1", "127.0.3.1", "127.0.3.2"  # never anything but loopback
PLAYERS = ["Ann", "Bob", "Cy", *(f"P{n:02d}" for n in range(1, 21))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def ms(values: list[float], q: float) -> int:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000) if ordered else 0


async def trickle(port: int, path: str, stop: asyncio.Event, opened: list[int]) -> None:
    while not stop.is_set():
        try:
            _, writer = await asyncio.open_connection(HOST, port, local_addr=(PARTY, 0))
            opened[0] += 1
            writer.write(f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\n".encode())
            for _ in range(60):
                if stop.is_set():
                    break
                await writer.drain()
                await asyncio.sleep(1)
                writer.write(b"X-a: b\r\n")
            writer.close()
        except OSError:
            await asyncio.sleep(0.2)


async def phone(base: str, game: dict, name: str, source: str, stop: asyncio.Event) -> dict:
    counts: collections.Counter[str] = collections.Counter()
    took: list[float] = []
    headers = {"Authorization": "Bearer " + game["player_tokens"][name]}
    while not stop.is_set():
        start = time.perf_counter()
        try:
            transport = httpx.AsyncHTTPTransport(local_address=source)
            async with httpx.AsyncClient(base_url=base, timeout=10, transport=transport) as c:
                answer = await c.get(f"/api/games/{game['id']}/me.json", headers=headers)
                counts[str(answer.status_code)] += 1
        except httpx.HTTPError as exc:
            counts[type(exc).__name__] += 1
        took.append(time.perf_counter() - start)
        await asyncio.sleep(0.3)
    return {"answers": dict(counts), "p50_ms": ms(took, 0.5), "p95_ms": ms(took, 0.95)}


async def loris(base: str, port: int, game: dict, seconds: float) -> dict:
    stop, opened = asyncio.Event(), [0]
    path = f"/console/{game['id']}/p/{game['player_tokens']['Ann']}"
    holders = [asyncio.create_task(trickle(port, path, stop, opened)) for _ in range(300)]
    await asyncio.sleep(3)
    phones = [asyncio.create_task(phone(base, game, "Bob", PARTY, stop)),
              asyncio.create_task(phone(base, game, "Cy", OTHER, stop))]
    await asyncio.sleep(seconds)
    stop.set()
    same, other = await asyncio.gather(*phones)
    await asyncio.gather(*holders)
    return {"loris_connections": opened[0], "phone_same_address": same,
            "phone_other_address": other}


def calls(base: str, game: dict, others: list[str]) -> dict:
    """30 of each call, one after another, the posts spread over ``others`` (each under the
    pace of a player's link): p50 in ms."""
    took: dict[str, list[float]] = {"other_post": [], "me_json": [], "gm_page": []}
    with httpx.Client(base_url=base, timeout=60) as c:
        c.get(game["gm_url"])  # the GM link sets the page's cookie
        for n in range(30):
            seat = {"Authorization": "Bearer " + game["player_tokens"][others[n % len(others)]]}
            for kind, method, path, body in (
                    ("other_post", "POST", "orders", {"guesses": [n + 1]}),
                    ("me_json", "GET", "me.json", None),
                    ("gm_page", "GET", None, None)):
                url = f"/api/games/{game['id']}/{path}" if path else f"/console/{game['id']}/gm"
                start = time.perf_counter()
                answer = c.request(method, url, json=body, headers=seat if path else None)
                took[kind].append(time.perf_counter() - start)
                assert answer.status_code in (200, 201), (kind, answer.status_code)
    return {kind: round(statistics.median(values) * 1000) for kind, values in took.items()}


def reposts(base: str, game: dict, count: int, database: Path) -> dict:
    before = calls(base, game, [f"P{n:02d}" for n in range(1, 11)])
    ann = {"Authorization": "Bearer " + game["player_tokens"]["Ann"]}
    statuses: collections.Counter[int] = collections.Counter()
    with httpx.Client(base_url=base, timeout=60) as c:
        for n in range(count):
            statuses[c.post(f"/api/games/{game['id']}/orders", json={"guesses": [n % 99 + 1]},
                            headers=ann).status_code] += 1
    after = calls(base, game, [f"P{n:02d}" for n in range(11, 21)])
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT count(*) FROM journal WHERE game_id = ?",
                          (game["id"],)).fetchone()[0]
    return {"reposts": dict(statuses), "before_ms": before, "after_ms": after,
            "journal_rows": rows}


def in_process(count: int) -> dict:
    """``count`` reposts entered through ``Console``, then another player's post and the GM's
    state, 30 of each: p50 in ms, and the journal rows after."""
    from kit.console.service import open_console
    from kit.console.store import journal

    with tempfile.TemporaryDirectory() as folder:
        console = open_console(str(Path(folder) / "console.sqlite3"), Path(folder) / "files")
        try:
            game = console.create_game({"game": "whats-my-number", "players": PLAYERS}).id

            def post(player: str, guesses: list[int]) -> None:
                console.enter(game, "sent", {"guesses": guesses}, {"player": player})

            took: dict[str, list[float]] = {"other_post": [], "gm_state": []}
            for n in range(count):
                post("Ann", [n % 99 + 1])
            for n in range(30):
                start = time.perf_counter()
                post(f"P{n % 20 + 1:02d}", [n + 1])
                took["other_post"].append(time.perf_counter() - start)
                start = time.perf_counter()
                console.state(game)
                took["gm_state"].append(time.perf_counter() - start)
            with console.store.engine.connect() as conn:
                rows = conn.execute(sa.select(sa.func.count()).select_from(journal)
                                    .where(journal.c.game_id == game)).scalar()
        finally:
            console.close()
    return {"reposts": count, "journal_rows": rows,
            **{kind: round(statistics.median(v) * 1000, 1) for kind, v in took.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loris", type=float, default=15.0, help="seconds of slowloris")
    parser.add_argument("--reposts", type=int, default=3000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--in-process", action="store_true",
                        help="reposts through Console, every one entered (no server)")
    args = parser.parse_args()
    if args.in_process:
        print(json.dumps(in_process(args.reposts), indent=None if args.json else 2))
        return
    with tempfile.TemporaryDirectory() as folder:
        port, database = free_port(), Path(folder) / "console.sqlite3"
        base = f"http://{HOST}:{port}"
        server = subprocess.Popen(
            [sys.executable, "-m", "kit", "serve", "--host", HOST, "--port", str(port),
             "--workers", "1", "--no-prewarm", "--database", str(database)],
            env={**os.environ, "KIT_CACHE_DIR": str(Path(folder) / "cache")},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):  # bounded: 60 s to start
                try:
                    if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.2)
            made = httpx.post(base + "/api/games", json={"game": "whats-my-number",
                                                         "players": PLAYERS}, timeout=30)
            game = made.json()
            found = {"loris": asyncio.run(loris(base, port, game, args.loris)),
                     **reposts(base, game, args.reposts, database)}
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(json.dumps(found, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
