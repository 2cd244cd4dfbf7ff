"""Benchmark of the game-night console against a live ``kit serve`` on loopback.

Starts ``python -m kit serve`` on 127.0.0.1 on a free port with a temporary SQLite database
(or ``--database URL``, e.g. a PostgreSQL one), then measures over HTTP:

  turn        a 12-player What's My Number? turn: POST all 12 players' orders, then POST
              publish (one sample = both requests), turn after turn (the log grows)
  turn-each   the same turn entered player by player (12 POSTs) then published
  public      GET public.json of a 36-player Lowest Unique Number party (3 tables of 12)
  standings   GET the big-screen standings page of that party
  screen      a 36-player party's 5 rounds on the big screen (each table's reveal, the podium)
              and the public page (its charts of the night): the first GET, then warm
  concurrent  20 game masters at once (threads), each running their own game: errors must be 0
  player      a 12-player game played through the players' own links: each player POSTs
              their orders with their token (one sample per post), then GETs me.json
  players     20 players of one game posting their orders at once (threads, 3 posts
              each, the last one replacing the first): errors must be 0
  healthz     GET /healthz: what any request costs over this server and transport
  --night     a 36-player, 30-turn night instead (``bench/night.py``): each turn entered and
              published (the last 10: a new turn on a grown game), public.json, the
              standings, the public page, report.txt, 12 standings screens polling
  in_process  the same turn and public view through ``Console`` directly (no HTTP): the
              console's own share of each figure

With ``--big``, instead: two What's My Number? games imported (through ``Console.import_log`` on
the server's database: their logs are past the API's 64 KB body), a 36-player 30-turn night and
a 100-player 200-turn one, each with its last turn open; for each, the GM page (first and warm),
the public page and the big screen with their charts (first and warm), one player's orders
entered into the open turn, ``public.json``, and a player's own post, page and ``me.json`` (each
after a post, so made anew); then a 9,000-guess row posted to a new game (refused: it must be
answered in well under 1 s), and the server's peak memory (``VmHWM``). ``--postgres`` runs it
(or ``--night``) on a throwaway PostgreSQL cluster (``tests/support/console_db.py``).

    python bench/console.py                  # targets: turn p95 <= 300 ms, standings <= 50 ms,
                                             # player post <= 150 ms, me.json <= 50 ms
    python bench/console.py --turns 30 --gms 20 --database postgresql://...
    python bench/console.py --big [--postgres]   # GM page <= 1 s, entry <= 300 ms, <= 1 GB,
                                                 # a chart page of 100 x 200 <= 300 ms
    python bench/console.py --night [--postgres]  # public.json, standings <= 50 ms, page and
                                                  # new turn <= 300 ms, polled page <= 300 ms
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # never anything but loopback
PLAYERS = [f"P{n:02d}" for n in range(1, 13)]
SECRETS = {p: 500 + 7 * i for i, p in enumerate(PLAYERS)}  # never guessed below: no hits


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def ms(values: list[float]) -> dict[str, float]:
    cut = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 else \
        [values[0]] * 99
    return {"n": len(values), "p50": round(cut[49] * 1000, 1), "p95": round(cut[94] * 1000, 1),
            "max": round(max(values) * 1000, 1)}


def orders(turn: int, player: int) -> list[int]:
    """Two guesses that hit nobody (the secrets sit at 500 and above)."""
    return [1 + (turn * 13 + player * 3) % 400, 1 + (turn * 29 + player * 5) % 400]


def new_game(client: httpx.Client) -> tuple[str, dict[str, str]]:
    made = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                           "secrets": SECRETS, "range": "1-600"})
    made.raise_for_status()
    game = made.json()
    return game["id"], {"Authorization": f"Bearer {game['gm_token']}"}


def play_turns(client: httpx.Client, turns: int, each: bool) -> list[float]:
    """Seconds per turn (enter every player's orders, then publish)."""
    game, gm = new_game(client)
    took = []
    for turn in range(1, turns + 1):
        start = time.perf_counter()
        batches = ([{p: orders(turn, i)} for i, p in enumerate(PLAYERS)] if each else
                   [{p: orders(turn, i) for i, p in enumerate(PLAYERS)}])
        for batch in batches:
            client.post(f"/api/games/{game}/turns", json={"orders": batch},
                        headers=gm).raise_for_status()
        client.post(f"/api/games/{game}/turns/{turn}/publish", headers=gm).raise_for_status()
        took.append(time.perf_counter() - start)
    return took


def player_turns(client: httpx.Client, turns: int) -> tuple[list[float], list[float]]:
    """Seconds per player's post and per me.json GET, the players sending their own orders
    turn after turn (the GM publishes each turn)."""
    made = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                           "secrets": SECRETS, "range": "1-600"})
    if made.status_code != 201:
        raise SystemExit(f"the party was refused: {made.text}")
    game = made.json()
    gm = {"Authorization": f"Bearer {game['gm_token']}"}
    posts, reads = [], []
    for turn in range(1, turns + 1):
        for i, player in enumerate(PLAYERS):
            own = {"Authorization": f"Bearer {game['player_tokens'][player]}"}
            start = time.perf_counter()
            client.post(f"/api/games/{game['id']}/orders", headers=own,
                        json={"guesses": orders(turn, i)}).raise_for_status()
            posts.append(time.perf_counter() - start)
            start = time.perf_counter()
            client.get(f"/api/games/{game['id']}/me.json", headers=own).raise_for_status()
            reads.append(time.perf_counter() - start)
        client.post(f"/api/games/{game['id']}/turns/{turn}/publish",
                    headers=gm).raise_for_status()
    return posts, reads


def players_at_once(base: str, count: int, posts: int = 3) -> dict[str, object]:
    """``count`` players of one game posting their orders at once, ``posts`` times each."""
    names = [f"Q{n:02d}" for n in range(1, count + 1)]
    with httpx.Client(base_url=base, timeout=60) as client:
        made = client.post("/api/games", json={"game": "whats-my-number", "players": names,
                                               "range": f"1-{10 * count}"})
        made.raise_for_status()
    game = made.json()
    errors: list[str] = []
    samples: list[float] = []
    lock = threading.Lock()
    ready = threading.Barrier(count)

    def one(index: int, player: str) -> None:
        own = {"Authorization": f"Bearer {game['player_tokens'][player]}"}
        try:
            with httpx.Client(base_url=base, timeout=60) as client:
                ready.wait(30)
                for post in range(posts):
                    start = time.perf_counter()
                    answer = client.post(f"/api/games/{game['id']}/orders", headers=own,
                                         json={"guesses": [1 + (index + post) % 9, 2]})
                    answer.raise_for_status()
                    with lock:
                        samples.append(time.perf_counter() - start)
        except Exception as exc:  # noqa: BLE001  (counted, reported)
            with lock:
                errors.append(f"{type(exc).__name__}: {exc}"[:200])

    threads = [threading.Thread(target=one, args=(i, p)) for i, p in enumerate(names)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)
    with httpx.Client(base_url=base, timeout=60) as client:
        state = client.get(f"/api/games/{game['id']}/state.json",
                           headers={"Authorization": f"Bearer {game['gm_token']}"}).json()
    return {"players": count, "posts_each": posts, "errors": len(errors),
            "error_samples": errors[:3], "received": len(state["received"]),
            "post_ms": ms(samples) if samples else None}


def party(client: httpx.Client, rounds: int) -> str:
    """A 36-player party, 3 tables of 12, ``rounds`` rounds entered at every table."""
    names = [[f"T{t}P{n:02d}" for n in range(1, 13)] for t in range(1, 4)]
    made = client.post("/api/games", json={"game": "lowest-unique", "tables": names,
                                           "rounds": max(rounds, 1), "range": "1-20"})
    if made.status_code != 201:
        raise SystemExit(f"the party was refused: {made.text}")
    game = made.json()
    gm = {"Authorization": f"Bearer {game['gm_token']}"}
    for number in range(rounds):
        for table, seated in enumerate(names, start=1):
            choices = {p: 1 + (i * 7 + number * 3 + table) % 20 for i, p in enumerate(seated)}
            client.post(f"/api/games/{game['id']}/tables/{table}/rounds",
                        json={"choices": choices}, headers=gm).raise_for_status()
    return game["id"]


def big_screen(client: httpx.Client, gets: int) -> dict[str, object]:
    """The big screen and the public page of a finished 36-player 5-round party: each
    page's first GET (made at this version) and then warm."""
    game = party(client, 5)
    out: dict[str, object] = {}
    for name, url in (("standings", f"/console/{game}/standings"),
                      ("public_page", f"/console/{game}")):
        out[f"{name}_first_ms"] = round(timed_gets(client, url, 1)[0] * 1000, 1)
        out[f"{name}_warm_ms"] = ms(timed_gets(client, url, gets))
    return out


def timed_gets(client: httpx.Client, url: str, count: int) -> list[float]:
    took = []
    for _ in range(count):
        start = time.perf_counter()
        client.get(url).raise_for_status()
        took.append(time.perf_counter() - start)
    return took


def concurrent(base: str, gms: int, turns: int) -> dict[str, object]:
    """``gms`` game masters at once, each entering and publishing ``turns`` turns."""
    errors: list[str] = []
    samples: list[float] = []
    lock = threading.Lock()

    def one() -> None:
        try:
            with httpx.Client(base_url=base, timeout=60) as client:
                took = play_turns(client, turns, each=False)
            with lock:
                samples.extend(took)
        except Exception as exc:  # noqa: BLE001  (counted, reported)
            with lock:
                errors.append(f"{type(exc).__name__}: {exc}"[:200])

    start = time.perf_counter()
    threads = [threading.Thread(target=one) for _ in range(gms)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)
    return {"game_masters": gms, "turns_each": turns, "errors": len(errors),
            "error_samples": errors[:3], "seconds": round(time.perf_counter() - start, 1),
            "turn_ms": ms(samples) if samples else None}


def in_process(folder: Path, database: str | None, turns: int, gets: int) -> dict[str, object]:
    """The console's own cost: a 12-player turn entered and published, and the public view
    of the 36-player party, called on ``Console`` directly."""
    sys.path.insert(0, str(ROOT))
    from kit.console.service import open_console

    console = open_console(database or str(folder / "in-process.sqlite3"), folder / "files")
    try:
        game = console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                    "secrets": SECRETS, "range": "1-600"}).id
        took = []
        for turn in range(1, turns + 1):
            start = time.perf_counter()
            console.enter(game, "orders",
                          {"orders": {p: orders(turn, i) for i, p in enumerate(PLAYERS)}})
            console.enter(game, "publish", {}, {"turn": turn})
            took.append(time.perf_counter() - start)
        names = [[f"T{t}P{n:02d}" for n in range(1, 13)] for t in range(1, 4)]
        party_id = console.create_game({"game": "lowest-unique", "tables": names, "rounds": 4,
                                        "range": "1-20"}).id
        for number in range(4):
            for table, seated in enumerate(names, start=1):
                console.enter(party_id, "round", {"choices": {
                    p: 1 + (i * 7 + number * 3 + table) % 20 for i, p in enumerate(seated)}},
                    {"table": table})
        views = []
        for _ in range(gets):
            start = time.perf_counter()
            console.public_state(party_id)
            views.append(time.perf_counter() - start)
    finally:
        console.close()
    return {"turn_12_players_ms": ms(took), "public_state_36_players_ms": ms(views)}


def big_log(players: int, turns: int) -> str:
    """A What's My Number? log of ``players`` x ``turns``, two guesses a player a turn and no
    hit (secrets 500 and up, guesses below 400), every turn but the last published."""
    names = [f"P{n:03d}" for n in range(1, players + 1)]
    lines = ['game = "whats-my-number"', f"players = {json.dumps(names)}", 'range = "1-999"',
             f"published = {turns - 1}", "", "[secrets]"]
    lines += [f"{name} = {500 + i}" for i, name in enumerate(names)]
    for turn in range(1, turns + 1):
        lines += ["", "[[turn]]"]
        lines += [f"{name} = {orders(turn, i)}" for i, name in enumerate(names)
                  if turn < turns or i > 0]
    return "\n".join(lines) + "\n"


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory (``VmHWM``), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


TIMEOUT_S = 120.0  # a --big request past this is reported as timed out (the server goes on)


def timed(call) -> float | None:  # noqa: ANN001
    """Seconds ``call`` took, or None when it timed out."""
    start = time.perf_counter()
    try:
        call()
    except httpx.TimeoutException:
        return None
    return time.perf_counter() - start


def ms_or_timeout(values: list[float | None]) -> dict[str, object]:
    done = [v for v in values if v is not None]
    return {**(ms(done) if done else {}), "timed_out": len(values) - len(done)}


def big_game(client: httpx.Client, console, players: int, turns: int, gets: int  # noqa: ANN001
             ) -> dict[str, object]:
    """GM page, an entry, ``public.json`` and the chart pages (the public page, the big
    screen) of an imported ``players`` x ``turns`` game."""
    start = time.perf_counter()
    made = console.import_log(big_log(players, turns))
    imported = time.perf_counter() - start
    client.cookies.clear()
    client.get(f"/console/{made.id}/gm/{made.gm_token}")  # 303, with the GM's cookie
    gm_page = f"/console/{made.id}/gm"
    first = timed(lambda: client.get(gm_page, timeout=TIMEOUT_S).raise_for_status())
    warm = [timed(lambda: client.get(gm_page, timeout=TIMEOUT_S).raise_for_status())
            for _ in range(5 if first is not None else 1)]
    gm = {"Authorization": f"Bearer {made.gm_token}"}
    body = {"orders": {"P001": [7, 9]}}
    entries = [timed(lambda: client.post(f"/api/games/{made.id}/turns", json=body, headers=gm,
                                         timeout=TIMEOUT_S).raise_for_status())
               for _ in range(gets)]
    public = [timed(lambda: client.get(f"/api/games/{made.id}/public.json",
                                       timeout=TIMEOUT_S).raise_for_status())
              for _ in range(gets)]
    charts = {}  # the pages with the night's charts (the race, the grid): first, then warm
    for name, url in (("public_page", f"/console/{made.id}"),
                      ("standings", f"/console/{made.id}/standings")):
        charts[f"{name}_first_ms"] = ms_or_timeout([timed(
            lambda url=url: client.get(url, timeout=TIMEOUT_S).raise_for_status())])
        charts[f"{name}_ms"] = ms_or_timeout([timed(
            lambda url=url: client.get(url, timeout=TIMEOUT_S).raise_for_status())
            for _ in range(gets)])
    return {"id": made.id, "import_s": round(imported, 2), **charts,
            "gm_page_first_ms": None if first is None else round(first * 1000, 1),
            "gm_page_ms": ms_or_timeout(warm), "entry_ms": ms_or_timeout(entries),
            "public_json_ms": ms_or_timeout(public),
            **big_player(client, made, gets)}


def big_player(client: httpx.Client, made, gets: int) -> dict[str, object]:  # noqa: ANN001
    """A player's page, ``me.json`` and post (``P002``, whose orders are in) on an imported game;
    each post a new version, so each page and ``me.json`` after it is made anew."""
    token = made.seat_tokens[("player", "P002")]
    page, me, post, size = [], [], [], {}
    for n in range(gets):
        answer = client.post(f"/api/games/{made.id}/orders", timeout=TIMEOUT_S,
                             json={"guesses": [11, 20 + n]},
                             headers={"Authorization": f"Bearer {token}"})
        post.append(answer.elapsed.total_seconds())
        start = time.perf_counter()
        body = client.get(f"/console/{made.id}/p/{token}", timeout=TIMEOUT_S).content
        page.append(time.perf_counter() - start)
        start = time.perf_counter()
        data = client.get(f"/api/games/{made.id}/me.json", timeout=TIMEOUT_S,
                          headers={"Authorization": f"Bearer {token}"}).content
        me.append(time.perf_counter() - start)
        size = {"player_page_kb": round(len(body) / 1024), "me_json_kb": round(len(data) / 1024)}
    return {"player_post_ms": ms(post), "player_page_ms": ms(page), "me_json_ms": ms(me), **size}


def big(database: str | None, folder: Path, gets: int) -> dict[str, object]:
    """The ``--big`` cases on ``database`` (default: a SQLite file in ``folder``)."""
    sys.path.insert(0, str(ROOT))
    from kit.console.service import open_console

    database = database or str(folder / "big.sqlite3")
    os.environ["KIT_CACHE_DIR"] = str(folder / "cache")
    proc, base = start_server(database, folder / "cache")
    console = open_console(database)
    result: dict[str, object] = {}
    try:
        with httpx.Client(base_url=base, timeout=600) as client:
            for players, turns in ((36, 30), (100, 200)):
                result[f"game_{players}x{turns}"] = big_game(client, console, players, turns,
                                                             gets)
            game, gm = new_game(client)
            start = time.perf_counter()
            answer = client.post(f"/api/games/{game}/turns", headers=gm, timeout=TIMEOUT_S,
                                 json={"orders": {PLAYERS[0]: list(range(1, 9001))}})
            result["row_9000_guesses"] = {"status": answer.status_code,
                                          "ms": round((time.perf_counter() - start) * 1000, 1)}
        result["server_peak_rss_mb"] = peak_rss_mb(proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
    try:  # the console's own share of an entry, with no render running beside it
        game_id = result["game_100x200"]["id"]  # type: ignore[index]
        took = [timed(lambda n=n: console.enter(game_id, "orders",
                                                {"orders": {"P001": [7, 10 + n]}}))
                for n in range(gets)]
        result["in_process_entry_100x200_ms"] = ms_or_timeout(took)
    finally:
        console.close()
    return result


def postgres_cluster():  # noqa: ANN201
    """A started throwaway PostgreSQL cluster (the tests' ``Cluster``) and a database on it."""
    sys.path.insert(0, str(ROOT / "tests"))
    from support.console_db import Cluster, new_database

    cluster = Cluster()
    cluster.start()
    return cluster, new_database(cluster.url)


@contextlib.contextmanager
def chosen_database(args: argparse.Namespace) -> Iterator[tuple[str | None, str]]:
    """The database URL to run on (None: a SQLite file of the run's own) and its name in the
    figures: a throwaway PostgreSQL cluster with ``--postgres``, stopped afterwards."""
    if not args.postgres:
        yield args.database, "sqlite" if args.database is None else "given URL"
        return
    cluster, database = postgres_cluster()
    try:
        yield database, "postgresql"
    finally:
        cluster.stop()


def start_server(database: str, cache: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "KIT_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "kit", "serve", "--host", HOST, "--port",
                             str(port), "--database", database, "--workers", "1",
                             "--no-prewarm", "--games", "lowest-unique", "--players", "3",
                             "--paper", "a4"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    base = f"http://{HOST}:{port}"
    for _ in range(600):
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=30, help="turns of the 12-player game")
    parser.add_argument("--gets", type=int, default=200, help="GETs of public.json and page")
    parser.add_argument("--gms", type=int, default=20, help="game masters at once")
    parser.add_argument("--gm-turns", type=int, default=5, help="turns per game master")
    parser.add_argument("--database", default=None, help="default: a temporary SQLite file")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument("--big", action="store_true", help="the imported 36x30 and 100x200 "
                        "games and the 9,000-guess row instead")
    parser.add_argument("--postgres", action="store_true", help="with --big or --night: on a "
                        "throwaway PostgreSQL cluster (tests/support/console_db.py)")
    parser.add_argument("--night", action="store_true", help="the 36-player, 30-turn night "
                        "instead (bench/night.py): public answers, 12 standings screens polling")
    parser.add_argument("--poll-seconds", type=float, default=60.0,
                        help="with --night: how long the 12 standings screens poll")
    args = parser.parse_args()
    if args.big:
        return run_big(args)
    if args.night:
        return run_night(args)
    with tempfile.TemporaryDirectory(prefix="kit-console-bench-") as folder:
        database = args.database or str(Path(folder) / "console.sqlite3")
        proc, base = start_server(database, Path(folder) / "cache")
        try:
            with httpx.Client(base_url=base, timeout=60) as client:
                turn = play_turns(client, args.turns, each=False)
                each = play_turns(client, min(args.turns, 10), each=True)
                game = party(client, 4)
                public = timed_gets(client, f"/api/games/{game}/public.json", args.gets)
                standings = timed_gets(client, f"/console/{game}/standings", args.gets)
                screen = big_screen(client, args.gets)
                health = timed_gets(client, "/healthz", args.gets)
                posts, reads = player_turns(client, min(args.turns, 10))
            crowd = concurrent(base, args.gms, args.gm_turns)
            players = players_at_once(base, args.gms)
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        own = in_process(Path(folder), args.database, args.turns, args.gets)
    result = {"database": "sqlite" if args.database is None else "given URL",
              "turn_12_players_ms": ms(turn), "turn_player_by_player_ms": ms(each),
              "public_json_36_players_ms": ms(public), "standings_page_ms": ms(standings),
              "screen_36_players_5_rounds": screen,
              "player_post_ms": ms(posts), "me_json_ms": ms(reads),
              "players_at_once": players,
              "concurrent": crowd, "healthz_ms": ms(health), "in_process": own}
    print(json.dumps(result, indent=2))
    if not args.json:
        ok = (result["turn_12_players_ms"]["p95"] <= 300
              and result["standings_page_ms"]["p95"] <= 50 and crowd["errors"] == 0
              and screen["standings_warm_ms"]["p95"] <= 100
              and result["player_post_ms"]["p95"] <= 150 and result["me_json_ms"]["p95"] <= 50
              and players["errors"] == 0 and players["received"] == players["players"])
        print("targets (turn p95 <= 300 ms, standings p95 <= 50 ms, the 5-round big screen "
              "p95 <= 100 ms, player post p95 <= 150 ms, me.json p95 <= 50 ms, no errors):",
              "met" if ok else "NOT met", file=sys.stderr)
    return 0 if crowd["errors"] == 0 and players["errors"] == 0 else 1


def run_big(args: argparse.Namespace) -> int:
    """``--big``: print the figures (targets: GM page <= 1 s, entry <= 300 ms, <= 1 GB)."""
    with chosen_database(args) as (database, named), \
            tempfile.TemporaryDirectory(prefix="kit-console-bench-") as folder:
        result = big(database, Path(folder), min(args.gets, 20))
    result["database"] = named
    print(json.dumps(result, indent=2))
    return 0


def run_night(args: argparse.Namespace) -> int:
    """``--night``: print the figures (targets: public.json and standings p95 <= 50 ms warm,
    the public page <= 300 ms, a new turn entered and published <= 300 ms, another client's
    page p95 <= 300 ms while 12 screens poll)."""
    from night import big_night

    with chosen_database(args) as (given, named), \
            tempfile.TemporaryDirectory(prefix="kit-console-bench-") as folder:
        database = given or str(Path(folder) / "console.sqlite3")
        proc, base = start_server(database, Path(folder) / "cache")
        try:
            result = big_night(base, args.turns, max(10, args.gets // 10), args.poll_seconds)
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
    result["database"] = named
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
