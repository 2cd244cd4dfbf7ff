"""Load test of ``kit serve``: N concurrent clients asking for custom and cached kits.

Starts ``python -m kit serve`` on 127.0.0.1 (loopback only) on a free port, runs a bounded number
of requests with a time cap, stops the server, and prints requests per second, p50/p95 latency
per kind of request, errors (must be 0), 503s (load shed, retried after Retry-After) and the
server's peak memory (the server process plus its render workers, sampled from /proc).
Each client connects from its own loopback address (127.0.1.N): the server's limits are per
client address.

    python bench/load.py                       # 8 clients x 12 requests
    python bench/load.py --clients 16 --requests 20 --workers 2
    python bench/load.py --burst 100           # 100 clients, 100 different kits at once
    python bench/load.py --servers 2 --database postgresql://postgres@127.0.0.1:5432/kit
                                               # two servers, one database, one cache folder

With ``--servers N`` the bench starts N servers on N ports with one database (``--database``,
else a new SQLite file) and one render cache folder (``KIT_CACHE_DIR``, inherited), and each
client sends each request to the next server in turn (``RoundRobin``: a reverse proxy without
sticky sessions), so a kit's form, its "being made" reloads and its files reach different
servers.

A custom kit's form is answered at once with its result address, which says "being made" (202)
until the kit is ready; a client reloads it every ``--poll`` seconds (a browser's page reloads
itself every 2 s, the default). A new kit's latency is from sending the form to its result page.

Kinds of request, mixed per client:
  new      POST a custom kit nobody asked for before (a render), then fetch its PDF
  cached   POST the same custom kit as everyone else (rendered once, then from the cache)
  ready    GET a ready-made kit's PDF (rendered on first ask, then from the cache)
  index    GET the index page
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
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
sys.path.insert(0, str(ROOT))

from kit.registry import GAMES  # noqa: E402
from kit.site.kits import ready_configs  # noqa: E402

HOST = "127.0.0.1"  # never anything but loopback


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    tree, todo = [], [pid]
    while todo:
        current = todo.pop()
        tree.append(current)
        todo += children.get(current, [])
    return tree


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class MemorySampler(threading.Thread):
    """Peak of the summed RSS of the server and its workers, every 50 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak_kb, self.peak_procs = pid, 0, 0
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            tree = process_tree(self.pid)
            total = sum(rss_kb(p) for p in tree)
            if total > self.peak_kb:
                self.peak_kb, self.peak_procs = total, len(tree)
            self.stopped.wait(0.05)


class Stats:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = {}
        self.errors: list[str] = []
        self.shed = 0
        self.requests = 0


async def request(client: httpx.AsyncClient, stats: Stats, kind: str, method: str, url: str,
                  deadline: float, **kwargs) -> httpx.Response | None:
    """One request; 503 is retried after Retry-After (counted as shed, not as an error)."""
    while True:
        start = time.monotonic()
        try:
            response = await client.request(method, url, **kwargs)
        except httpx.HTTPError as exc:
            stats.errors.append(f"{kind} {url}: {type(exc).__name__}: {exc}")
            return None
        stats.requests += 1
        if response.status_code == 503 and time.monotonic() < deadline:
            stats.shed += 1
            await asyncio.sleep(float(response.headers.get("retry-after", "1")))
            continue
        stats.latency.setdefault(kind, []).append(time.monotonic() - start)
        return response


def check(stats: Stats, kind: str, response: httpx.Response | None, status: int,
          starts: bytes = b"") -> bool:
    if response is None:
        return False
    if response.status_code != status or not response.content.startswith(starts):
        stats.errors.append(f"{kind} {response.request.url}: {response.status_code} "
                            f"{response.text[:120]!r}")
        return False
    return True


def custom_form(game: str, names: list[str]) -> dict[str, str]:
    return {"game": game, "names": "\n".join(names), "paper": "a4", "format": "zip"}


def client_address(number: int) -> str:
    """Client ``number``'s own loopback address (the server counts its limits per address)."""
    return f"127.0.1.{number + 1}"


class RoundRobin(httpx.AsyncBaseTransport):
    """Each request to the next server's port in turn, as a reverse proxy without sticky
    sessions sends them."""

    def __init__(self, ports: list[int], first: int, **options: object) -> None:
        self.inner = httpx.AsyncHTTPTransport(**options)
        self.ports = itertools.islice(itertools.cycle(ports), first % len(ports), None)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        port = next(self.ports)
        request.url = request.url.copy_with(port=port)
        request.headers["Host"] = f"{HOST}:{port}"
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


PORTS: list[int] = []  # the servers' ports (``run``); more than one: clients take turns


def transport_for(number: int) -> httpx.AsyncBaseTransport:
    """Client ``number``'s connections: from its own address, to one server or each in turn."""
    if len(PORTS) > 1:
        return RoundRobin(PORTS, number, local_address=client_address(number))
    return httpx.AsyncHTTPTransport(local_address=client_address(number))


async def custom_kit(client: httpx.AsyncClient, stats: Stats, kind: str, form: dict[str, str],
                     deadline: float, poll: float) -> None:
    """Send the form, reload its result address until the kit is ready, fetch its first PDF;
    the time to the result page is the ``kind``'s latency."""
    start = time.monotonic()
    posted = await request(client, stats, kind + "-form", "POST", "/custom", deadline, data=form)
    if not check(stats, kind, posted, 303):
        return
    location = posted.headers["location"]
    while True:
        page = await request(client, stats, kind + "-page", "GET", location, deadline)
        if page is None or page.status_code != 202 or time.monotonic() > deadline:
            break
        await asyncio.sleep(poll)
    if not check(stats, kind, page, 200):
        return
    stats.latency.setdefault(kind, []).append(time.monotonic() - start)
    pdf = re.search(r'href="(/custom/[\w-]+/[\w-]+\.pdf)"', page.text)
    if pdf is None or not pdf[1].startswith(location.split("?")[0]):
        stats.errors.append(f"{kind}: no PDF link on the result page")
        return
    check(stats, kind, await request(client, stats, kind + "-file", "GET", pdf[1], deadline),
          200, b"%PDF")


async def client_run(number: int, base: str, args, stats: Stats, deadline: float,
                     ready: list[tuple[str, str]]) -> None:
    games = list(GAMES.values())
    rng = random.Random(number)
    kinds = ["new"] * args.new + ["cached"] * args.cached + ["ready"] * args.ready + [
        "index"] * args.index
    transport = transport_for(number)
    async with httpx.AsyncClient(base_url=base, timeout=180, follow_redirects=False,
                                 transport=transport) as client:
        for i in range(args.requests):
            if time.monotonic() > deadline:
                stats.errors.append(f"client {number}: stopped at the time cap")
                return
            kind = rng.choice(kinds)
            spec = games[(number + i) % len(games)]
            size = max(spec.min_players, 4)
            if kind == "index":
                check(stats, kind, await request(client, stats, kind, "GET", "/", deadline), 200)
            elif kind == "ready":
                folder, stem = ready[(number + i) % len(ready)]
                check(stats, kind, await request(client, stats, kind, "GET",
                                                 f"/kits/{folder}/{stem}.pdf", deadline),
                      200, b"%PDF")
            else:
                tag = f"C{number}R{i}" if kind == "new" else "Same"
                names = [f"{tag} P{j}" for j in range(1, size + 1)]
                await custom_kit(client, stats, kind, custom_form(spec.name, names), deadline,
                                 args.poll)


async def burst_run(number: int, base: str, args, stats: Stats, deadline: float) -> None:
    """One client of ``--burst``: one new custom kit, all clients at the same moment."""
    spec = list(GAMES.values())[number % len(GAMES)]
    names = [f"Burst{number} P{j}" for j in range(1, max(spec.min_players, 4) + 1)]
    transport = transport_for(number)
    async with httpx.AsyncClient(base_url=base, timeout=180, follow_redirects=False,
                                 transport=transport) as client:
        await custom_kit(client, stats, "new", custom_form(spec.name, names), deadline,
                         args.poll)


def server_times(log: str) -> dict[str, list[float]]:
    """Milliseconds the server spent on each form and each result page, from its access log
    (the client's figures also hold the time the bench's own process waited for the CPU)."""
    found: dict[str, list[float]] = {"form": [], "page": []}
    for method, path, ms in re.findall(r'"(POST|GET) (/custom[^" ]*)" \d+ \d+ (\d+)ms', log):
        if method == "POST":
            found["form"].append(float(ms))
        elif path.count("/") == 2:
            found["page"].append(float(ms))
    return found


def percentile(values: list[float], q: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


async def run(args) -> dict[str, object]:
    PORTS[:] = [free_port() for _ in range(args.servers)]
    base = f"http://{HOST}:{PORTS[0]}"
    ready_cfgs = ready_configs(players=[max(s.min_players, 4) for s in GAMES.values()],
                               papers=["a4"])
    ready_games = ",".join(GAMES)
    players = ",".join(str(c.players) for c in ready_cfgs)
    command = [sys.executable, "-m", "kit", "serve", "--host", HOST,
               "--workers", str(args.workers), "--no-prewarm", "--games", ready_games,
               "--players", players, "--paper", "a4"]
    if args.queue is not None:
        command += ["--queue", str(args.queue)]
    scratch = tempfile.TemporaryDirectory(prefix="kit-load-")  # several servers' own SQLite
    database = args.database or (str(Path(scratch.name) / "console.sqlite3")
                                 if args.servers > 1 else None)
    if database:
        command += ["--database", database]
    # the servers' logs (an access line per request) go to files: a pipe nobody reads fills
    # closed in the finally below
    log_files = [tempfile.TemporaryFile("w+") for _ in PORTS]  # noqa: SIM115
    procs = [subprocess.Popen([*command, "--port", str(port)], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=log_file, text=True)
             for port, log_file in zip(PORTS, log_files, strict=True)]
    samplers = [MemorySampler(proc.pid) for proc in procs]
    for sampler in samplers:
        sampler.start()
    try:
        async with httpx.AsyncClient(timeout=5) as probe:
            for port, log_file in zip(PORTS, log_files, strict=True):
                for _ in range(300):
                    with contextlib.suppress(httpx.HTTPError):
                        if (await probe.get(f"http://{HOST}:{port}/healthz")).status_code \
                                == 200:
                            break
                    await asyncio.sleep(0.1)
                else:
                    log_file.seek(0)
                    raise SystemExit("the server did not start: " + log_file.read()[-2000:])
            index = (await probe.get(base + "/")).text
        ready = sorted(set(re.findall(r'href="/kits/([\w-]+)/([\w-]+)\.pdf"', index)))
        stats = Stats()
        start = time.monotonic()
        deadline = start + args.time_cap
        if args.burst:
            await asyncio.gather(*(burst_run(n, base, args, stats, deadline)
                                   for n in range(args.burst)))
        else:
            await asyncio.gather(*(client_run(n, base, args, stats, deadline, ready)
                                   for n in range(args.clients)))
        elapsed = time.monotonic() - start
        async with httpx.AsyncClient(timeout=5) as probe:
            healths = [(await probe.get(f"http://{HOST}:{port}/healthz")).json()
                       for port in PORTS]
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        for sampler in samplers:
            sampler.stopped.set()
            sampler.join()
        server_ms: dict[str, list[float]] = {}
        for log_file in log_files:
            log_file.seek(0)
            for kind, values in server_times(log_file.read()).items():
                server_ms.setdefault(kind, []).extend(values)
            log_file.close()
        scratch.cleanup()
    health = healths[0]
    everything = [x for values in stats.latency.values() for x in values]
    return {
        "clients": args.burst or args.clients,
        "requests_per_client": 1 if args.burst else args.requests,
        "render_workers": args.workers, "http_requests": stats.requests,
        "seconds": round(elapsed, 1), "requests_per_second": round(stats.requests / elapsed, 2),
        "latency_ms": {kind: {"n": len(v), "p50": round(percentile(v, 50) * 1000),
                              "p95": round(percentile(v, 95) * 1000),
                              "max": round(max(v) * 1000)}
                       for kind, v in sorted({**stats.latency, "all": everything}.items()) if v},
        "errors": len(stats.errors), "error_samples": stats.errors[:5],
        "shed_503_then_retried": stats.shed,
        "server_side_ms": {kind: {"n": len(v), "p50": round(percentile(v, 50)),
                                  "p95": round(percentile(v, 95))}
                           for kind, v in server_ms.items() if v},
        "server": health, "servers": healths,
        # several servers: the sum of each one's peak
        "server_peak_rss_mb": round(sum(s.peak_kb for s in samplers) / 1024, 1),
        "server_processes_at_peak": sum(s.peak_procs for s in samplers),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=12, help="per client")
    parser.add_argument("--workers", type=int, default=2, help="server render workers")
    parser.add_argument("--queue", type=int, default=None, help="server queue (default 2x)")
    parser.add_argument("--time-cap", type=float, default=420, help="seconds, then stop")
    parser.add_argument("--new", type=int, default=2, help="weight of new custom kits")
    parser.add_argument("--cached", type=int, default=4, help="weight of cached custom kits")
    parser.add_argument("--ready", type=int, default=3, help="weight of ready-made kits")
    parser.add_argument("--index", type=int, default=2, help="weight of index pages")
    parser.add_argument("--burst", type=int, default=0,
                        help="instead: this many clients, each one new kit, all at once")
    parser.add_argument("--poll", type=float, default=2.0,
                        help="seconds between reloads of a 'being made' page (default: 2, "
                        "as the page itself)")
    parser.add_argument("--servers", type=int, default=1,
                        help="servers on as many ports, one database and one render cache "
                        "folder; clients send each request to the next (default 1)")
    parser.add_argument("--database", default=None, metavar="PATH_OR_URL",
                        help="the servers' database (default: a new SQLite file for several "
                        "servers; the server's own default for one)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    if not 1 <= args.clients <= 64 or not 1 <= args.requests <= 200 or not (
            0 <= args.burst <= 100) or not 0.1 <= args.poll <= 5 or not 1 <= args.servers <= 4:
        parser.error("keep it bounded: 1-64 clients, 1-200 requests each, a burst of at most "
                     "100, polls of 0.1 to 5 s, 1 to 4 servers")
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{result['clients']} clients x {result['requests_per_client']} requests, "
              f"{result['render_workers']} render workers: {result['http_requests']} HTTP "
              f"requests in {result['seconds']} s = {result['requests_per_second']} req/s")
        print(f"{'kind':<14}{'n':>5}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}")
        for kind, row in result["latency_ms"].items():
            print(f"{kind:<14}{row['n']:>5}{row['p50']:>9}{row['p95']:>9}{row['max']:>9}")
        for kind, row in result["server_side_ms"].items():
            print(f"server side, {kind}: n={row['n']} p50 {row['p50']} ms, p95 {row['p95']} ms")
        print(f"errors: {result['errors']}  503s (retried after Retry-After): "
              f"{result['shed_503_then_retried']}")
        for sample in result["error_samples"]:
            print("  ", sample)
        for number, health in enumerate(result["servers"], start=1):
            pool, cache = health["pool"], health["cache"]
            assert pool and cache, "the bench asks /healthz from loopback: it shows the figures"
            name = "server" if len(result["servers"]) == 1 else f"server {number}"
            print(f"{name}: {pool['started']} renders, cache {cache['kits']} kits "
                  f"({cache['bytes'] / 1e6:.1f} MB), {cache['hits']} hits / "
                  f"{cache['misses']} misses")
        print(f"server peak memory: {result['server_peak_rss_mb']} MB RSS "
              f"({result['server_processes_at_peak']} processes: server + render workers)")
    return 1 if result["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
