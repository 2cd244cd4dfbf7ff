"""Each letter once, however slow the mail server: the outbox's lease, try limit and timeouts,
through a real SMTP server on loopback (aiosmtpd), the outbox on SQLite and PostgreSQL.

A session longer than the lease with two senders delivers once (the lease is renewed while the
session is alive); the try limit ends the retries, also of a row whose sender lost its lease;
a sender whose lease ran out changes nothing of a row another sender holds, but its server's
250 marks the row sent; each reply has a deadline of its own (RFC 5321), so a server trickling
its greeting is given up on while a slow end of DATA is waited for; a reminder and the letter
of the same turn are two messages. Leases and timeouts are made short through their
parameters, never waited out.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install '.[test]'")

import sqlalchemy as sa  # noqa: E402
from support.console_db import free_port  # noqa: E402
from support.mail_server import Server, drain, trickle_greeting  # noqa: E402

from kit.mail.letter import Letter  # noqa: E402
from kit.mail.outbox import Key, Policy, Sender, entry, outbox, queue  # noqa: E402
from kit.mail.smtp import MailError, SmtpServer, Timeouts  # noqa: E402

FROM = "game-master@example.org"
KEY = Key("g1", "Ann", 1, "report")
LETTER = Letter("ann@example.org", "Turn 1: your report", "Hello Ann,\nturn 1.\n")


def put(engine: sa.Engine, key: Key = KEY, letter: Letter = LETTER) -> None:
    with engine.connect().execution_options(write=True) as conn, conn.begin():
        assert queue(conn, key, letter)


def row(engine: sa.Engine) -> sa.Row:
    with engine.connect() as conn:
        return conn.execute(sa.select(outbox).where(outbox.c.id == KEY.ident)).one()


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = time.time() + 1  # after the rows were queued

    def __call__(self) -> float:
        return self.now


def test_a_session_longer_than_the_lease_with_two_senders_delivers_once(
        engine: sa.Engine, smtp_server: Server) -> None:
    put(engine)
    # three leases long; a lease of a second, renewed every third of it, so that a busy
    # machine's late renewal is not taken for a sender that died
    smtp_server.inbox.stall = 3.0
    policy = Policy(lease_s=1.0, first_retry_s=0.05, max_retry_s=0.1, attempts=5)
    server = SmtpServer.parse(smtp_server.url())
    first, second = Sender(engine, server, FROM, policy), Sender(engine, server, FROM, policy)
    slow = threading.Thread(target=first.run_once)
    slow.start()
    while not row(engine).owner:  # the first sender holds the row
        time.sleep(0.01)
    tries = 0
    while slow.is_alive():  # the second sender tries all along the first one's session
        second.run_once()
        tries += 1
        time.sleep(0.05)
    slow.join()
    drain(second)
    assert tries > 3  # the second sender had its chances
    assert len(smtp_server.inbox.messages) == 1
    done = row(engine)
    assert (done.state, done.attempts, done.owner, done.lease) == ("sent", 1, "", 0.0)


def test_the_try_limit_ends_the_retries_of_a_row_whose_senders_die(engine: sa.Engine) -> None:
    put(engine)
    clock = Clock()
    sender = Sender(engine, SmtpServer.parse("smtp://127.0.0.1:1"), FROM,
                    Policy(lease_s=10.0, attempts=3), clock=clock)
    for attempt in (1, 2, 3):  # each claim's sender dies: its lease runs out
        claimed = sender.claim()
        assert claimed is not None and claimed.attempts == attempt
        clock.now += 11
    assert sender.claim() is None
    done = row(engine)
    assert (done.state, done.attempts, done.owner) == ("failed", 3, "")
    assert done.error == "no answer from the mail server in 3 tries"


def test_a_server_that_never_answers_the_end_of_data_fails_the_letter_at_the_try_limit(
        engine: sa.Engine, smtp_server: Server) -> None:
    put(engine)
    smtp_server.inbox.stall = 2.0
    quick = Timeouts(greeting=5.0, command=5.0, data_start=5.0, data_block=5.0, data_end=0.3)
    server = replace(SmtpServer.parse(smtp_server.url()), timeouts=quick)
    sender = Sender(engine, server, FROM, Policy(lease_s=30.0, first_retry_s=0.01,
                                                 max_retry_s=0.01, attempts=2))
    drain(sender)
    done = row(engine)
    assert (done.state, done.attempts) == ("failed", 2)
    assert done.error == f"cannot reach {server.label} (TimeoutError)"


def test_a_sender_whose_lease_ran_out_changes_nothing_of_a_row_another_holds(
        engine: sa.Engine) -> None:
    put(engine)
    clock = Clock()
    server = SmtpServer.parse("smtp://127.0.0.1:1")
    policy = Policy(lease_s=10.0, first_retry_s=30.0, attempts=5)
    late, holder = (Sender(engine, server, FROM, policy, clock=clock) for _ in range(2))
    stale = late.claim()
    clock.now += 11  # its lease ran out (a database it could not reach to renew it)
    held = holder.claim()
    assert stale is not None and held is not None and held.attempts == 2
    before = row(engine)
    assert not late.renew(stale)
    late.failed(stale, MailError("cannot reach it", transient=True))
    late.failed(stale, MailError("refused (550)", transient=False))
    late.wait(stale)
    assert row(engine) == before
    assert holder.renew(held)  # the holder's own lease is renewed
    assert row(engine).lease == clock.now + 10.0


def test_the_servers_250_marks_the_row_sent_even_after_the_lease_was_lost(
        engine: sa.Engine) -> None:
    put(engine)
    clock = Clock()
    server = SmtpServer.parse("smtp://127.0.0.1:1")
    late, holder = (Sender(engine, server, FROM, Policy(lease_s=10.0), clock=clock)
                    for _ in range(2))
    stale = late.claim()
    clock.now += 11
    held = holder.claim()
    assert stale is not None and held is not None
    late.sent(stale)  # the server took it: nobody sends it again
    assert (row(engine).state, row(engine).owner) == ("sent", "")
    holder.failed(held, MailError("cannot reach it", transient=True))
    assert row(engine).state == "sent"
    assert holder.claim() is None


def test_each_reply_has_a_deadline_of_its_own_not_each_read() -> None:
    port, stop = free_port(), threading.Event()
    serving = threading.Thread(target=trickle_greeting, args=(port, stop, 0.05), daemon=True)
    serving.start()
    try:
        quick = Timeouts(greeting=0.5, command=0.5, data_start=0.5, data_block=0.5,
                         data_end=0.5)
        server = replace(SmtpServer.parse(f"smtp://127.0.0.1:{port}"), timeouts=quick)
        with pytest.raises(MailError) as caught:
            server.check()  # the 86-byte greeting takes 4 s; each byte comes within 50 ms
        assert caught.value.transient
        assert caught.value.reason == f"cannot reach {server.label} (TimeoutError)"
    finally:
        stop.set()
        serving.join()


def test_the_end_of_data_is_waited_for_longer_than_a_command(
        engine: sa.Engine, smtp_server: Server) -> None:
    put(engine)
    smtp_server.inbox.stall = 1.0  # a content filter: longer than a command may take
    quick = Timeouts(greeting=0.5, command=0.5, data_start=0.5, data_block=0.5, data_end=10.0)
    server = replace(SmtpServer.parse(smtp_server.url()), timeouts=quick)
    sender = Sender(engine, server, FROM, Policy(attempts=1))
    assert sender.run_once() == 1
    assert len(smtp_server.inbox.messages) == 1
    assert entry(engine, KEY.ident).state == "sent"


def test_a_reminder_and_the_letter_of_one_turn_are_two_messages(
        engine: sa.Engine, smtp_server: Server) -> None:
    reminder = Letter("ann@example.org", "Turn 2: your orders", "Hello Ann, turn 2?\n")
    report = Letter("ann@example.org", "Turn 2: your report", "Hello Ann, turn 2.\n")
    put(engine, Key("g1", "Ann", 2, "reminder"), reminder)
    put(engine, Key("g1", "Ann", 2, "report"), report)
    drain(Sender(engine, SmtpServer.parse(smtp_server.url()), FROM, Policy()))
    got = smtp_server.inbox.messages
    assert sorted(m["Subject"] for m in got) == ["Turn 2: your orders", "Turn 2: your report"]
    assert len({m["Message-ID"] for m in got}) == 2
