"""A live room: phones and big screens each holding an event stream while the game master
publishes.

Starts ``python -m kit serve`` on 127.0.0.1 (loopback only; ``--servers N`` on N ports, one
database: ``--database``, else a new SQLite file), makes a What's My Number? game of
``--players`` players through the API, then opens ``--phones`` player streams
(``/console/ID/p/TOKEN/events``, as a player's page follows the game; phone ``i`` is player
``i % players``) from loopback addresses, ``--per-address`` phones behind each one as a party
behind one Wi-Fi router (127.0.3.1, 127.0.3.2, ...), and ``--screens`` big screens holding the
public stream from 127.0.4.1. Phone ``i`` holds its stream on server ``i % N`` (round robin).

Each page is loaded before its stream opens, as a browser does. Then the game master (on the
first server) enters and publishes ``--publishes`` turns, each
once every stream heard the last, then as many again while, as the pages do when they hear a
publish, each phone fetches its player page and each screen ``public.json`` (on the next
server in turn), at a random moment of the event's ``spread_ms`` past its first tenth, as the
page's script does. For each publish it measures the time from the publish's answer to each stream's
``published`` event, each page's answer time, and the time from the event to the answer.
Last, with every stream still open and nobody acting, once the servers went quiet (the
publishes' report files are made in the background), the CPU time they use over ``--idle``
seconds (utime + stime of each server's process tree, from /proc).

Prints, and with ``--json`` as JSON: publish-to-stream p50/p95/max, the pages' p50/p95/max,
errors (must be 0), every server's peak RSS (summed) and the idle CPU. Every wait is bounded.

    python bench/streams.py                               # 300 phones, 12 screens, SQLite
    python bench/streams.py --servers 2 --database postgresql://postgres@127.0.0.1:5432/kit
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # never anything but loopback
SCREENS_AT = "127.0.4.1"
WAIT_S = 60.0  # a bound on any one wait (a stream's event, a server's start)
TICK_S = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    """A free TCP port on loopback."""
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def tree(pid: int) -> list[int]:
    """``pid`` and its children (render workers), from /proc."""
    found = [pid]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
    return found


def rss_kb(pid: int) -> int:
    """The summed RSS of ``pid``'s tree."""
    total = 0
    for each in tree(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def cpu_s(pid: int) -> float:
    """The CPU seconds (user + system) ``pid``'s tree has used."""
    ticks = 0
    for each in tree(pid):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
    return ticks / TICK_S


class Peak(threading.Thread):
    """The peak RSS of a server's tree, and of its own process, sampled every 0.2 s."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.kb, self.own_kb, self.stopped = pid, 0, 0, threading.Event()

    def run(self) -> None:
        """Sample until stopped."""
        while not self.stopped.is_set():
            self.kb = max(self.kb, rss_kb(self.pid))
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        self.own_kb = max(self.own_kb, int(line.split()[1]))
            self.stopped.wait(0.2)


def percentile(values: list[float], q: int) -> float:
    """The ``q``th percentile of ``values`` (inclusive method)."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


@dataclass
class Follower:
    """One held stream: when each ``published`` event arrived (monotonic seconds)."""

    address: str
    port: int
    path: str
    published: list[float] = field(default_factory=list)
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    heard: asyncio.Event = field(default_factory=asyncio.Event)
    error: str = ""


async def _head(reader: asyncio.StreamReader) -> bool:
    """The answer's head read; whether it is 200 and chunked."""
    status = (await reader.readline()).split()
    chunked = False
    while (line := await reader.readline()) not in (b"\r\n", b""):
        chunked |= line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower()
    return len(status) > 1 and status[1] == b"200" and chunked


async def _events(reader: asyncio.StreamReader):  # noqa: ANN202
    """The events of a chunked ``text/event-stream`` body, as they come: each one's name and
    its data's ``spread_ms`` (0 when it has none)."""
    buffer = b""
    while size := int((await reader.readline()).split(b";")[0] or b"0", 16):
        buffer += (await reader.readexactly(size + 2))[:-2]
        buffer = buffer.replace(b"\r\n", b"\n")
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            name, spread = "", 0
            for line in block.split(b"\n"):
                if line.startswith(b"event:"):
                    name = line[6:].strip().decode()
                elif line.startswith(b"data:") and line[5:].strip().startswith(b"{"):
                    spread = int(json.loads(line[5:]).get("spread_ms", 0))
            if name:
                yield name, spread


async def follow(one: Follower, on_published) -> None:  # noqa: ANN001
    """Hold ``one``'s stream until cancelled; each ``published`` calls ``on_published``."""
    try:
        reader, writer = await asyncio.open_connection(HOST, one.port, local_addr=(one.address, 0))
    except OSError as exc:
        one.error = f"connect: {exc}"
        one.opened.set()
        return
    try:
        writer.write(f"GET {one.path} HTTP/1.1\r\nHost: {HOST}:{one.port}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        if not await _head(reader):
            one.error = "not a 200 chunked stream"
            return
        async for name, spread in _events(reader):
            if name == "published":
                one.published.append(time.monotonic())
                one.heard.set()
                on_published(one, spread)
            one.opened.set()
        one.error = "the stream ended"
    except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
        one.error = f"{type(exc).__name__}"
    finally:
        one.opened.set()
        writer.close()


class Room:
    """The servers' ports, the game, the streams and what was measured."""

    def __init__(self, ports: list[int], args: argparse.Namespace) -> None:
        self.ports, self.args = ports, args
        self.followers: list[Follower] = []
        self.pages: dict[str, list[float]] = {}
        self.shown: dict[str, list[float]] = {}  # from the event to the page's answer
        self.errors: list[str] = []
        self.fetches: list[asyncio.Task] = []
        self._clients: dict[tuple[str, int], httpx.AsyncClient] = {}
        self._turn = 0  # pages in turn over the servers
        self.fetching = False  # whether a page fetches itself again when it hears a publish

    def client(self, address: str, port: int) -> httpx.AsyncClient:
        """A pool of connections from ``address`` to a server, as a party's browsers."""
        key = (address, port)
        if key not in self._clients:
            self._clients[key] = httpx.AsyncClient(
                base_url=f"http://{HOST}:{port}", timeout=WAIT_S,
                # a browser drops an idle connection before the server's 5 s keep-alive ends
                transport=httpx.AsyncHTTPTransport(local_address=address, limits=httpx.Limits(
                    max_connections=64, keepalive_expiry=3)))
        return self._clients[key]

    async def close(self) -> None:
        """Every pool closed."""
        for each in self._clients.values():
            await each.aclose()

    async def fetch(self, kind: str, address: str, path: str, spread_ms: int = 0,
                    timed: bool = True) -> None:
        """One page fetched from ``address`` (the next server in turn), at a random moment of
        ``spread_ms`` past its first tenth, as the page's script does; ``timed``: from the
        request and from the event."""
        heard = time.monotonic()
        await asyncio.sleep(random.uniform(0.1, 1.0) * spread_ms / 1000)
        self._turn += 1
        started = time.monotonic()
        try:  # the body as sent: a phone, not this machine, would unpack it
            client = self.client(address, self.ports[self._turn % len(self.ports)])
            async with client.stream("GET", path) as answer:
                async for _ in answer.aiter_raw():
                    pass
        except httpx.HTTPError as exc:
            self.errors.append(f"{kind}: {type(exc).__name__}")
            return
        if timed:
            self.pages.setdefault(kind, []).append((time.monotonic() - started) * 1000)
            self.shown.setdefault(kind, []).append((time.monotonic() - heard) * 1000)
        if answer.status_code != 200:
            self.errors.append(f"{kind}: {answer.status_code}")

    @staticmethod
    def page(one: Follower) -> tuple[str, str]:
        """What the page holding ``one``'s stream fetches: its kind and path."""
        kind = "public.json" if one.address == SCREENS_AT else "player page"
        path = one.path.removesuffix("/events") if kind == "player page" else \
            one.path.replace("/console/", "/api/games/").replace("/events", "/public.json")
        return kind, path

    def on_published(self, one: Follower, spread_ms: int) -> None:
        """What a page does when it hears a publish: fetch itself again (within the event's
        ``spread_ms``)."""
        if not self.fetching:
            return
        kind, path = self.page(one)
        self.fetches.append(asyncio.create_task(self.fetch(kind, one.address, path, spread_ms)))


def phone_address(number: int, per_address: int) -> str:
    """The loopback address phone ``number`` connects from: a router's, shared."""
    return f"127.0.3.{number // per_address + 1}"


async def make_game(room: Room) -> dict:
    """A What's My Number? game of ``--players`` players, made on the first server."""
    players = [f"P{n:03d}" for n in range(room.args.players)]
    answer = await room.client(HOST, room.ports[0]).post("/api/games", json={
        "game": "whats-my-number", "players": players, "range": "1-999",
        "secrets": {p: 100 + n for n, p in enumerate(players)}})
    if answer.status_code != 201:
        raise SystemExit(f"the game was not made: {answer.status_code} {answer.text[:300]}")
    return answer.json()


async def open_streams(room: Room, game: dict) -> list[asyncio.Task]:
    """Every phone's and screen's page loaded, then its stream opened, as a browser does, 50
    at a time; each has said where the game stands (or failed) when this returns."""
    tokens = list(game["player_tokens"].values())
    args, ports = room.args, room.ports
    for number in range(args.phones):
        room.followers.append(Follower(
            phone_address(number, args.per_address), ports[number % len(ports)],
            f"/console/{game['id']}/p/{tokens[number % len(tokens)]}/events"))
    for number in range(args.screens):
        room.followers.append(Follower(SCREENS_AT, ports[number % len(ports)],
                                       f"/console/{game['id']}/events"))
    tasks = []
    for start in range(0, len(room.followers), 50):
        batch = room.followers[start:start + 50]
        await asyncio.gather(*(room.fetch(room.page(one)[0], one.address, room.page(one)[1],
                                          timed=False) for one in batch))
        tasks += [asyncio.create_task(follow(one, room.on_published)) for one in batch]
        await asyncio.wait_for(asyncio.gather(*(one.opened.wait() for one in batch)), WAIT_S)
    room.errors += [f"stream: {one.error}" for one in room.followers if one.error]
    return tasks


async def publish(room: Room, game: dict, turn: int) -> tuple[list[float], int]:
    """Turn ``turn``'s orders entered and published; the delays (ms) from the publish's
    answer to each stream's ``published`` event, and how many streams never heard it."""
    gm = room.client(HOST, room.ports[0])
    headers = {"Authorization": f"Bearer {game['gm_token']}"}
    orders = {p: [(37 * n + 11 * turn) % 999 + 1] for n, p in enumerate(game["player_tokens"])}
    entered = await gm.post(f"/api/games/{game['id']}/turns", json={"orders": orders},
                            headers=headers)
    done = await gm.post(f"/api/games/{game['id']}/turns/{turn}/publish", headers=headers)
    answered = time.monotonic()
    if entered.status_code != 201 or done.status_code != 200:
        room.errors.append(f"publish {turn}: {entered.status_code} {done.status_code}")
    deadline = answered + WAIT_S
    while time.monotonic() < deadline and any(len(one.published) < turn
                                              for one in room.followers if not one.error):
        await asyncio.sleep(0.05)
    delays = [max(0.0, one.published[turn - 1] - answered) * 1000
              for one in room.followers if len(one.published) >= turn]
    fetches, room.fetches = room.fetches, []
    await asyncio.gather(*fetches)
    return delays, len(room.followers) - len(delays)


async def settle(pids: list[int]) -> float:
    """Seconds until the servers' trees go quiet: two seconds in a row of less than 0.05 s
    of CPU each (a publish's report files are made in the background); at most 120 s."""
    started, quiet = time.monotonic(), 0
    while quiet < 2 and time.monotonic() - started < 120:
        before = sum(cpu_s(pid) for pid in pids)
        await asyncio.sleep(1)
        quiet = quiet + 1 if sum(cpu_s(pid) for pid in pids) - before < 0.05 else 0
    return time.monotonic() - started


async def idle_cpu(pids: list[int], seconds: float) -> float:
    """The CPU seconds the servers use over ``seconds`` while nobody acts."""
    before = sum(cpu_s(pid) for pid in pids)
    await asyncio.sleep(seconds)
    return sum(cpu_s(pid) for pid in pids) - before


def stats(values: list[float]) -> dict[str, float]:
    """Count, p50, p95 and max of ``values``, rounded."""
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50": round(percentile(values, 50)),
            "p95": round(percentile(values, 95)), "max": round(max(values))}


async def run(ports: list[int], pids: list[int], args: argparse.Namespace) -> dict:
    """The room on the running servers: the game, the streams, the publishes, the idle
    CPU; what was measured."""
    room = Room(ports, args)
    try:
        game = await make_game(room)
        tasks = await open_streams(room, game)
        delays: dict[str, list[float]] = {"quiet": [], "fetching": []}
        missed = 0
        for turn in range(1, 2 * args.publishes + 1):
            room.fetching = turn > args.publishes  # first the streams alone, then the pages
            heard, lost = await publish(room, game, turn)
            delays["fetching" if room.fetching else "quiet"] += heard
            missed += lost
            await asyncio.sleep(1)
        settled = await settle(pids)  # the last pages answered: nobody acts from here
        idle = await idle_cpu(pids, args.idle)
        still = sum(1 for one in room.followers if not one.error)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        await room.close()
    return {"servers": len(ports), "phones": args.phones, "screens": args.screens,
            "players": args.players, "phones_per_address": args.per_address,
            "publishes": args.publishes, "streams_open_at_end": still,
            "publish_to_stream_ms": stats(delays["quiet"]),
            "publish_to_stream_while_pages_fetch_ms": stats(delays["fetching"]),
            "streams_missing_a_publish": missed,
            "pages_ms": {kind: stats(v) for kind, v in room.pages.items()},
            "event_to_page_ms": {kind: stats(v) for kind, v in room.shown.items()},
            "idle_cpu_s": round(idle, 3), "idle_s": args.idle,
            "quiet_after_s": round(settled, 1),
            "errors": len(room.errors), "error_samples": room.errors[:5]}


def start_servers(count: int, database: str, scratch: Path) -> tuple[list[int], list]:
    """``count`` servers on one database; their ports and processes, each answering."""
    ports = [free_port() for _ in range(count)]
    env = {**os.environ, "KIT_CACHE_DIR": str(scratch / "cache")}
    procs = []
    for port in ports:
        log = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed with its process)
        procs.append((subprocess.Popen(
            [sys.executable, "-m", "kit", "serve", "--host", HOST, "--port", str(port),
             "--workers", "1", "--no-prewarm", "--games", "lowest-unique", "--players", "4",
             "--paper", "a4", "--database", database],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log), log))
    for port, (_, log) in zip(ports, procs, strict=True):
        for _ in range(int(WAIT_S * 10)):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://{HOST}:{port}/healthz", timeout=2).status_code == 200:
                    break
            time.sleep(0.1)
        else:
            stop(procs)
            log.seek(0)
            raise SystemExit("a server did not start: " + log.read()[-2000:])
    return ports, procs


def stop(procs: list) -> None:
    """The servers stopped (killed after 20 s) and their logs closed."""
    for proc, _ in procs:
        proc.terminate()
    for proc, log in procs:
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def report(result: dict) -> None:
    """The result as a short table."""
    print(f"{result['servers']} server(s); {result['phones']} phones ({result['players']} "
          f"players, {result['phones_per_address']} phones an address) and "
          f"{result['screens']} big screens holding streams; {result['publishes']} publishes "
          f"quiet, as many with the pages fetching; streams open at the end: "
          f"{result['streams_open_at_end']}")
    print(f"{'':<32}{'n':>6}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}")
    rows = {"publish -> every stream": result["publish_to_stream_ms"],
            "the same, pages fetching": result["publish_to_stream_while_pages_fetch_ms"], **{
        f"{kind} (while it happens)": row for kind, row in result["pages_ms"].items()}, **{
        f"{kind}: event to answer": row for kind, row in result["event_to_page_ms"].items()}}
    for kind, row in rows.items():
        print(f"{kind:<32}{row['n']:>6}{row.get('p50', '-'):>9}{row.get('p95', '-'):>9}"
              f"{row.get('max', '-'):>9}")
    print(f"streams that missed a publish: {result['streams_missing_a_publish']}; errors: "
          f"{result['errors']} {result['error_samples']}")
    print(f"servers' peak memory: {result['server_peak_rss_mb']} MB RSS (the server "
          f"processes alone: {result['server_process_peak_rss_mb']} MB); CPU while nobody "
          f"acts: {result['idle_cpu_s']} s over {result['idle_s']} s (quiet "
          f"{result['quiet_after_s']} s after the last page)")


def main() -> int:
    """Parse the flags, run the room, print; 1 on an error or a missed publish."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--screens", type=int, default=12)
    parser.add_argument("--players", type=int, default=100, help="players of the game")
    parser.add_argument("--per-address", type=int, default=100, help="phones behind one address")
    parser.add_argument("--publishes", type=int, default=3,
                        help="publishes with the pages quiet, then as many with them fetching")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle CPU measured")
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--database", default=None, metavar="PATH_OR_URL",
                        help="the servers' database (default: a new SQLite file)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    if not (1 <= args.phones <= 600 and 0 <= args.screens <= 50 and 4 <= args.players <= 100
            and 1 <= args.per_address <= 500 and 1 <= args.publishes <= 20
            and 1 <= args.idle <= 60 and 1 <= args.servers <= 4):
        parser.error("keep it bounded: 1-600 phones, 0-50 screens, 4-100 players, 1-500 "
                     "phones an address, 1-20 publishes, 1-60 idle seconds, 1-4 servers")
    with tempfile.TemporaryDirectory(prefix="kit-streams-") as scratch:
        database = args.database or str(Path(scratch) / "console.sqlite3")
        ports, procs = start_servers(args.servers, database, Path(scratch))
        peaks = [Peak(proc.pid) for proc, _ in procs]
        for peak in peaks:
            peak.start()
        try:
            result = asyncio.run(run(ports, [proc.pid for proc, _ in procs], args))
        finally:
            stop(procs)
            for peak in peaks:
                peak.stopped.set()
                peak.join()
    result["server_peak_rss_mb"] = round(sum(p.kb for p in peaks) / 1024, 1)
    result["server_process_peak_rss_mb"] = round(sum(p.own_kb for p in peaks) / 1024, 1)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        report(result)
    return 1 if result["errors"] or result["streams_missing_a_publish"] else 0


if __name__ == "__main__":
    sys.exit(main())
