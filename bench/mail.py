"""Benchmark of the mail outbox: queueing a turn's messages, and sending them on loopback.

  queue   a 12-player turn's report messages queued in one transaction (what a publish adds
          to its own commit), turn after turn (the table grows)
  send    one sender draining the queued messages through a real SMTP server on 127.0.0.1
          (aiosmtpd, from the [test] extra): messages per second, one SMTP session a round
  two     two senders (two engines, as two servers) draining another batch at once: the same
          figure, and every message delivered exactly once

    python bench/mail.py                          # target: queue p95 <= 50 ms
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

from kit.console.store import database_url, make_engine, migrate  # noqa: E402
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
        queued = queue_turns(engine, game, args.turns)
        one = Sender(engine, server, "gm@example.org", Policy())
        send_s = drain([one])
        sent = len(inbox.ids)
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
        "queue_12_messages": ms(queued),
        "send": {"messages": sent, "seconds": round(send_s, 2),
                 "per_second": round(sent / send_s, 1)},
        "two_senders": {"messages": len(inbox.ids) - sent, "seconds": round(two_s, 2),
                        "per_second": round((len(inbox.ids) - sent) / two_s, 1),
                        "each_once": len(set(inbox.ids)) == len(inbox.ids) == 2 * total},
        "database": "postgresql" if args.database and "postgres" in args.database
        else "sqlite",
    }
    print(json.dumps(result, indent=2))
    ok = result["queue_12_messages"]["p95_ms"] <= 50 and sent == total \
        and result["two_senders"]["each_once"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
