"""A party behind one Wi-Fi router: every phone, and the game master, come from one address.

Starts ``python -m kit serve`` on 127.0.0.1 (loopback only) on a free port with a new SQLite
file, makes a What's My Number? game through the API and publishes its first turn, then:

1. ``--short`` requests in a row from the party's address, each on a new connection (a script
   calling curl once per request): all must be answered.
2. ``--phones`` phones, each one keep-alive connection from the party's address (127.0.2.1),
   open the standings page and poll ``public.json`` every ``--poll`` seconds, as the standings
   page does, for ``--seconds``. Meanwhile the game master, from the same address with the
   game's token, enters and publishes a turn every 3 s, and a client on another address
   (127.0.2.2) loads the public page every 0.5 s.

Prints, and with ``--json`` as JSON: the short connections answered; the polls sent and
answered, the phones never answered, errors (must be 0) and p50/p95/max per kind of request;
the game master's refusals (must be 0: a valid token is never throttled); the server's peak
memory. Every loop is bounded in count and time.

    python bench/party.py                     # 100 phones, 30 s
    python bench/party.py --phones 200 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # never anything but loopback
PARTY = "127.0.2.1"  # the router's address: every phone and the game master
OTHER = "127.0.2.2"  # someone elsewhere
PLAYERS = [f"P{n:02d}" for n in range(1, 13)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def rss_kb(pid: int) -> int:
    """The summed RSS of ``pid`` and its children (render workers), from /proc."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = Path(f"/proc/{entry}/stat").read_text()
            if int(entry) != pid and int(stat.rsplit(")", 1)[1].split()[1]) != pid:
                continue
            for line in Path(f"/proc/{entry}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


class Peak(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.kb, self.stopped = pid, 0, threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            self.kb = max(self.kb, rss_kb(self.pid))
            self.stopped.wait(0.2)


class Stats:
    def __init__(self) -> None:
        self.ms: dict[str, list[float]] = {}
        self.errors: list[str] = []
        self.statuses: dict[str, dict[int, int]] = {}

    def add(self, kind: str, started: float, status: int) -> None:
        self.ms.setdefault(kind, []).append((time.monotonic() - started) * 1000)
        counts = self.statuses.setdefault(kind, {})
        counts[status] = counts.get(status, 0) + 1


def percentile(values: list[float], q: int) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def client(address: str, base: str, **options: object) -> httpx.AsyncClient:
    """A client with one keep-alive connection from ``address``."""
    transport = httpx.AsyncHTTPTransport(local_address=address,
                                         limits=httpx.Limits(max_connections=1))
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=30, **options)


async def timed(stats: Stats, kind: str, http: httpx.AsyncClient, method: str, url: str,
                **kwargs: object) -> httpx.Response | None:
    started = time.monotonic()
    try:
        answer = await http.request(method, url, **kwargs)
    except httpx.HTTPError as exc:
        stats.errors.append(f"{kind} {url}: {type(exc).__name__}")
        return None
    stats.add(kind, started, answer.status_code)
    if answer.status_code >= 400:
        stats.errors.append(f"{kind} {url}: {answer.status_code} {answer.text[:80]!r}")
    return answer


async def phone(number: int, base: str, game: str, args, stats: Stats, end: float,
                served: set[int]) -> None:
    await asyncio.sleep(args.poll * number / args.phones)  # phones join over one poll
    async with client(PARTY, base) as http:
        if await timed(stats, "standings page", http, "GET", f"/console/{game}/standings"):
            served.add(number)
        while time.monotonic() < end:
            await timed(stats, "public.json poll", http, "GET", f"/api/games/{game}/public.json")
            await asyncio.sleep(args.poll)


async def game_master(base: str, made: dict, stats: Stats, end: float) -> None:
    headers = {"Authorization": f"Bearer {made['gm_token']}"}
    async with client(PARTY, base, headers=headers) as http:
        turn = 2
        while time.monotonic() < end and turn < 30:
            orders = {p: [(17 * n + 5 * turn) % 900 + 1] for n, p in enumerate(PLAYERS)}
            await timed(stats, "GM enters a turn", http, "POST", f"/api/games/{made['id']}/turns",
                        json={"orders": orders})
            await timed(stats, "GM publishes", http, "POST",
                        f"/api/games/{made['id']}/turns/{turn}/publish")
            turn += 1
            await asyncio.sleep(3)


async def elsewhere(base: str, game: str, stats: Stats, end: float) -> None:
    async with client(OTHER, base) as http:
        while time.monotonic() < end:
            await timed(stats, "another client's page", http, "GET", f"/console/{game}")
            await asyncio.sleep(0.5)


async def short_connections(base: str, count: int, stats: Stats) -> int:
    """``count`` requests in a row, each on a new connection from the party's address."""
    answered = 0
    for _ in range(count):
        async with client(PARTY, base) as http:
            answer = await timed(stats, "short connection", http, "GET", "/healthz")
            answered += answer is not None and answer.status_code == 200
    return answered


async def party(base: str, args) -> dict[str, object]:
    stats = Stats()
    async with client(PARTY, base) as http:
        made = (await http.post("/api/games", json={
            "game": "whats-my-number", "players": PLAYERS, "range": "1-999",
            "secrets": {p: 500 + 7 * n for n, p in enumerate(PLAYERS)}})).json()
        gm = {"Authorization": f"Bearer {made['gm_token']}"}
        orders = {p: [n + 1] for n, p in enumerate(PLAYERS)}
        await http.post(f"/api/games/{made['id']}/turns", json={"orders": orders}, headers=gm)
        await http.post(f"/api/games/{made['id']}/turns/1/publish", headers=gm)
    short = await short_connections(base, args.short, stats)
    served: set[int] = set()
    started = time.monotonic()
    end = started + args.seconds
    await asyncio.gather(*(phone(n, base, made["id"], args, stats, end, served)
                           for n in range(args.phones)),
                         game_master(base, made, stats, end), elsewhere(base, made["id"], stats,
                                                                        end))
    return {
        "phones": args.phones, "seconds": round(time.monotonic() - started, 1),
        "poll_s": args.poll, "short_connections": f"{short}/{args.short} answered",
        "phones_never_answered": args.phones - len(served),
        "latency_ms": {kind: {"n": len(v), "p50": round(percentile(v, 50)),
                              "p95": round(percentile(v, 95)), "max": round(max(v))}
                       for kind, v in stats.ms.items()},
        "statuses": {kind: dict(sorted(c.items())) for kind, c in stats.statuses.items()},
        "errors": len(stats.errors), "error_samples": stats.errors[:5],
    }


def server_statuses(log: str) -> dict[str, int]:
    """How often the server answered each status, from its access log (a head Hypercorn
    itself refuses, as malformed, has no line there)."""
    counts: dict[str, int] = {}
    for match in re.finditer(r'" (\d{3}) \d+ \d+ms$', log, re.M):
        counts[match[1]] = counts.get(match[1], 0) + 1
    return dict(sorted(counts.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--poll", type=float, default=2.0, help="seconds between polls")
    parser.add_argument("--short", type=int, default=45, help="short connections in a row")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    if not 1 <= args.phones <= 300 or not 1 <= args.seconds <= 120 or not (
            0.5 <= args.poll <= 10) or not 0 <= args.short <= 1000:
        parser.error("keep it bounded: 1-300 phones, 1-120 s, polls of 0.5 to 10 s, at most "
                     "1000 short connections")
    port = free_port()
    base = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory(prefix="kit-party-") as scratch, \
            tempfile.TemporaryFile("w+") as log:
        env = {**os.environ, "KIT_CACHE_DIR": str(Path(scratch) / "cache")}
        server = subprocess.Popen(
            [sys.executable, "-m", "kit", "serve", "--host", HOST, "--port", str(port),
             "--workers", "1", "--no-prewarm", "--games", "lowest-unique", "--players", "4",
             "--paper", "a4", "--database", str(Path(scratch) / "console.sqlite3")],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
        peak = Peak(server.pid)
        peak.start()
        try:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                        break
                time.sleep(0.1)
            else:
                log.seek(0)
                raise SystemExit("the server did not start: " + log.read()[-2000:])
            result = asyncio.run(party(base, args))
        finally:
            server.terminate()
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
            peak.stopped.set()
            peak.join()
            log.seek(0)
            server_log = log.read()
    result["server_peak_rss_mb"] = round(peak.kb / 1024, 1)
    result["server_statuses"] = server_statuses(server_log)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{result['phones']} phones behind one address, polling every "
              f"{result['poll_s']} s for {result['seconds']} s; short connections in a row: "
              f"{result['short_connections']}; phones never answered: "
              f"{result['phones_never_answered']}")
        print(f"{'kind':<24}{'n':>6}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}  statuses")
        for kind, row in result["latency_ms"].items():
            print(f"{kind:<24}{row['n']:>6}{row['p50']:>9}{row['p95']:>9}{row['max']:>9}  "
                  f"{result['statuses'][kind]}")
        print(f"errors: {result['errors']}")
        for sample in result["error_samples"]:
            print("  ", sample)
        print(f"server peak memory: {result['server_peak_rss_mb']} MB RSS; its answers: "
              f"{result['server_statuses']}")
    return 1 if result["errors"] or result["phones_never_answered"] else 0


if __name__ == "__main__":
    sys.exit(main())
