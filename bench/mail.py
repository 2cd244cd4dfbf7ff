"""Benchmark of the mail outbox: queueing a turn's messages, and sending them on loopback.

  queue   a 12-player turn's report messages queued in one transaction (what a publish adds
          to its own commit), turn after turn (the table grows)
  send    one sender draining the queued messages through a real SMTP server on 127.0.0.1
          (aiosmtpd, from the [test] extra): messages per second, one SMTP session a round
  two     two senders (two engines, as two servers) draining another batch at once: the same
          figure, and every message delivered exactly once
  publish a 12-player What's My Number? turn published through the console, every player with
          an address: the publish and its 12 letters (each player's link, slip and the turn's
          report, built from the game's views) in one commit; beside it the same publish
          with no address, and the letters then sent

    python bench/mail.py                          # targets: queue p95 <= 50 ms,
                                                  # publish with e-mail p95 <= 300 ms
    python bench/mail.py --turns 50 --database postgresql://...
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kit.db.engine import database_url, make_engine, migrate  # noqa: E402
from kit.mail.letter import Letter  # noqa: E402
from kit.mail.outbox import Key, Policy, Sender, queue_all  # noqa: E402
from kit.mail.smtp import SmtpServer  # noqa: E402

PLAYERS = [f"P{n:02d}" for n in range(1, 13)]
BODY = "Turn report\n" + "P01 guessed 17, 33: higher, lower.\n" * 60  # a report's length


class Inbox:
    """The SMTP server's handler: counts what it accepts, by Message-ID."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: ANN001, N802
        import email

        message = email.message_from_bytes(envelope.content)
        with self.lock:
            self.ids.append(message["Message-ID"])
        return "250 OK"


def ms(values: list[float]) -> dict[str, float]:
    cut = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 \
        else [values[0]] * 99
    return {"p50_ms": round(cut[49] * 1000, 2), "p95_ms": round(cut[94] * 1000, 2)}


def queue_turns(engine, game: str, turns: int) -> list[float]:  # noqa: ANN001
    times = []
    for turn in range(1, turns + 1):
        start = time.perf_counter()
        with engine.connect().execution_options(write=True) as conn, conn.begin():
            queue_all(conn, [(Key(game, player, turn, "report"),
                              Letter(f"{player.lower()}@example.org", f"Turn {turn}", BODY))
                             for player in PLAYERS])
        times.append(time.perf_counter() - start)
    return times


def publish_turns(url: str, files: Path, turns: int, server: SmtpServer,
                  emails: bool) -> tuple[list[float], int]:
    """Each turn: every player's orders, then the publish, timed; the letters it queued."""
    import random

    from kit.console.mail.book import Opener
    from kit.console.service import open_console
    from kit.mail.outbox import SenderThread, outbox

    console = open_console(url, files)
    try:
        console.mail.attach(SenderThread(Sender(console.store.engine, server,
                                                "gm@example.org", Policy())))  # not started
        spec = {"game": "whats-my-number", "players": PLAYERS, "title": "Bench night"}
        if emails:
            spec["emails"] = {p: f"{p.lower()}@example.org" for p in PLAYERS}
        created = console.create_game(spec)
        opener = Opener(created.gm_token, "http://192.168.1.20:8000")
        draw = random.Random(7)
        high = console.state(created.id).facts["range"][1]
        times = []
        for turn in range(1, turns + 1):
            state = console.state(created.id)
            if state.view.data.get("winners"):
                break
            allowance = state.view.data.get("next_allowance") or {}
            orders = {p: draw.sample(range(1, high + 1), int(allowance.get(p, 2)))
                      for p in PLAYERS}
            console.enter(created.id, "orders", {"orders": orders}, {})
            start = time.perf_counter()
            console.enter(created.id, "publish", {}, {"turn": turn}, opener=opener)
            times.append(time.perf_counter() - start)
        with console.store.engine.connect() as conn:
            import sqlalchemy as sa

            letters = conn.execute(sa.select(sa.func.count()).select_from(outbox).where(
                outbox.c.game_id == created.id)).scalar()
        return times, int(letters or 0)
    finally:
        console.close()


def drain(senders: list[Sender]) -> float:
    start = time.perf_counter()
    threads = [threading.Thread(target=lambda s=s: [s.run_once() for _ in range(3)])
               for s in senders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--publish-turns", type=int, default=8,
                        help="turns of the published 12-player game (default: 8)")
    parser.add_argument("--database", default=None, help="default: a temporary SQLite file")
    args = parser.parse_args()
    from aiosmtpd.controller import Controller

    folder = tempfile.TemporaryDirectory()
    url = args.database or str(Path(folder.name) / "bench.sqlite3")
    engine = make_engine(database_url(url))
    migrate(engine)
    inbox = Inbox()
    with socket.socket() as probe:  # a free port (aiosmtpd cannot take port 0)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    server = SmtpServer.parse(f"smtp://127.0.0.1:{port}")
    game = f"bench{int(time.time())}"
    try:
        plain, _ = publish_turns(url, Path(folder.name) / "files", args.publish_turns, server,
                                 emails=False)
        mailed, letters = publish_turns(url, Path(folder.name) / "files", args.publish_turns,
                                        server, emails=True)
        before = len(inbox.ids)
        drain([Sender(engine, server, "gm@example.org", Policy())])
        letters_sent = len(inbox.ids) - before
        queued = queue_turns(engine, game, args.turns)
        one = Sender(engine, server, "gm@example.org", Policy())
        send_s = drain([one])
        sent = len(inbox.ids) - letters_sent
        queue_turns(engine, game + "b", args.turns)
        other = make_engine(database_url(url))
        two_s = drain([one, Sender(other, server, "gm@example.org", Policy())])
        other.dispose()
    finally:
        controller.stop()
        engine.dispose()
        folder.cleanup()
    total = len(PLAYERS) * args.turns
    result = {
        "publish_12_players": {"without_email": ms(plain), "with_email": ms(mailed),
                               "turns": len(mailed), "letters_queued": letters,
                               "letters_sent": letters_sent},
        "queue_12_messages": ms(queued),
        "send": {"messages": sent, "seconds": round(send_s, 2),
                 "per_second": round(sent / send_s, 1)},
        "two_senders": {"messages": len(inbox.ids) - sent - letters_sent,
                        "seconds": round(two_s, 2),
                        "per_second": round((len(inbox.ids) - sent - letters_sent) / two_s, 1),
                        "each_once": len(set(inbox.ids)) == len(inbox.ids)
                        == 2 * total + letters_sent},
        "database": "postgresql" if args.database and "postgres" in args.database
        else "sqlite",
    }
    print(json.dumps(result, indent=2))
    ok = result["queue_12_messages"]["p95_ms"] <= 50 and sent == total \
        and result["two_senders"]["each_once"] \
        and result["publish_12_players"]["with_email"]["p95_ms"] <= 300 \
        and letters == letters_sent == len(PLAYERS) * len(mailed)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
