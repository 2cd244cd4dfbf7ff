"""E-mail through a real SMTP server on loopback (aiosmtpd), the outbox on SQLite and PostgreSQL.

Delivery with its headers and body; a server answering 451 then recovering (retried, delivered
once); two senders on one database (each message once); a sender killed with SIGKILL after
queueing, and one killed between the server's 250 and its mark (the resend is the same
message); STARTTLS and TLS with a certificate of a test authority; the password in no log line,
error or repr; ``kit mail test`` and the ``.eml`` / ``mailto:`` drafts.
"""

from __future__ import annotations

import email
import email.policy
import logging
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install '.[test]'")

import sqlalchemy as sa  # noqa: E402
from support.helpers import ROOT  # noqa: E402
from support.mail_server import PASSWORD, USER, Server, drain  # noqa: E402

from kit.cli import main  # noqa: E402
from kit.db.engine import database_url, make_engine  # noqa: E402
from kit.errors import ConfigError  # noqa: E402
from kit.mail.letter import Letter, draft, mailto  # noqa: E402
from kit.mail.outbox import (  # noqa: E402
    Key,
    Policy,
    Sender,
    SenderThread,
    entry,
    outbox,
    queue,
    queue_all,
)
from kit.mail.smtp import MailError, SmtpServer  # noqa: E402

# aiosmtpd warns of a login without TLS on loopback, which smtp:// allows there and we test
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
FROM = "game-master@example.org"
FAST = Policy(lease_s=30.0, first_retry_s=0.05, max_retry_s=0.2, attempts=5)


def put(engine: sa.Engine, key: Key, letter: Letter) -> bool:
    with engine.connect().execution_options(write=True) as conn, conn.begin():
        return queue(conn, key, letter)


def letter_for(name: str, turn: int = 1) -> Letter:
    return Letter(f"{name.lower()}@example.org", f"Turn {turn}: your report",
                  f"Hello {name},\nturn {turn}: 3 guesses, 2 allowed. Zoë says hi.\n")


# --- the URL ------------------------------------------------------------------------------------

def test_the_three_schemes_their_ports_and_a_login_kept_out_of_repr() -> None:
    plain = SmtpServer.parse("smtp://relay.lan")
    assert (plain.scheme, plain.host, plain.port, plain.username) == ("smtp", "relay.lan", 25,
                                                                       None)
    tls = SmtpServer.parse("smtps://gm%40example.org:p%3Ass@mail.example.org")
    assert (tls.port, tls.username, tls.password) == (465, "gm@example.org", "p:ss")
    start = SmtpServer.parse("submission://u:secret@mail.example.org:2525")
    assert (start.scheme, start.port) == ("submission", 2525)
    assert "secret" not in repr(start) and "secret" not in start.label
    assert start.label == "submission://mail.example.org:2525"


@pytest.mark.parametrize(("url", "says"), [
    ("http://u:hunter2@mail.example.org", "the scheme must be one of smtp://, submission://, "
     "smtps://"),
    ("smtp://u:hunter2@mail.example.org", "would travel unencrypted"),
    ("smtps://u@mail.example.org", "give both a user name and a password"),
    ("smtps://u:hunter2@mail.example.org/inbox?starttls=1", "no path, query or fragment"),
    ("smtps://u:hunter2@", "names no host"),
    ("smtps://u:hunter2@mail.example.org:99999", "not an SMTP URL"),
])
def test_a_bad_url_is_named_without_its_password(url: str, says: str) -> None:
    with pytest.raises(ConfigError) as caught:
        SmtpServer.parse(url)
    assert caught.value.field == "smtp"
    assert says in str(caught.value)
    assert "hunter2" not in str(caught.value)


# --- delivery -----------------------------------------------------------------------------------

def test_a_queued_message_is_delivered_with_its_headers_and_body(
        engine: sa.Engine, smtp_server: Server) -> None:
    key = Key("g1", "Zoë", 3, "report")
    assert put(engine, key, letter_for("Zoe", 3))
    assert not put(engine, key, letter_for("Zoe", 3))  # the same key again: nothing changes
    sender = Sender(engine, SmtpServer.parse(smtp_server.url()), FROM, FAST)
    assert sender.run_once() == 1
    assert sender.run_once() == 0
    [message] = smtp_server.inbox.messages
    assert smtp_server.inbox.envelopes == [(FROM, ["zoe@example.org"])]
    assert message["From"] == f"number-party-kit <{FROM}>" and message["To"] == "zoe@example.org"
    assert message["Subject"] == "Turn 3: your report"
    assert message["Message-ID"] == f"<{key.ident}.kit@example.org>"
    assert message["Auto-Submitted"] == "auto-generated"
    assert email.utils.parsedate_to_datetime(message["Date"]).year >= 2024
    assert message.get_body(("plain",)).get_content().replace("\r\n", "\n") == (
        "Hello Zoe,\nturn 3: 3 guesses, 2 allowed. Zoë says hi.\n")
    done = entry(engine, key.ident)
    assert done is not None and (done.state, done.attempts) == ("sent", 1)


def test_a_turn_s_messages_are_queued_in_one_statement_each_key_once(
        engine: sa.Engine) -> None:
    keys = [Key("g1", name, 2, "report") for name in ("Ann", "Bob", "Cy")]
    put(engine, keys[0], letter_for("Ann", 2))
    with engine.connect().execution_options(write=True) as conn, conn.begin():
        fresh = queue_all(conn, [(key, letter_for(key.player, 2)) for key in keys])
    assert fresh == {keys[1].ident, keys[2].ident}
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(outbox)).scalar() == 3


def test_a_failing_server_is_retried_with_back_off_and_delivers_once(
        engine: sa.Engine, smtp_server: Server, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="kit.mail")
    smtp_server.inbox.fail_next = 3
    key = Key("g1", "Ann", 1, "report")
    put(engine, key, letter_for("Ann"))
    now = [time.time()]  # the sender's clock, moved by hand
    policy = Policy(lease_s=120, first_retry_s=30, max_retry_s=3600, attempts=5)
    sender = Sender(engine, SmtpServer.parse(smtp_server.url()), FROM, policy,
                    clock=lambda: now[0])
    tries = []
    for wait in (30, 60, 120):
        assert sender.run_once() == 0
        waiting = entry(engine, key.ident)
        assert waiting is not None and waiting.state == "queued"
        assert waiting.error == f"{sender.server.label} refused the message (451)"
        assert waiting.due == pytest.approx(now[0] + wait)  # 30 s, then doubled
        tries.append(waiting.attempts)
        now[0] += wait - 1
        assert sender.run_once() == 0  # not before its back-off
        now[0] += 1
    assert tries == [1, 2, 3] and smtp_server.inbox.refused == 3
    assert sender.run_once() == 1
    assert sender.run_once() == 0
    assert smtp_server.inbox.ids() == [f"<{key.ident}.kit@example.org>"]
    done = entry(engine, key.ident)
    assert done is not None and (done.state, done.attempts, done.error) == ("sent", 4, None)
    waits = [r.getMessage() for r in caplog.records if "next try in" in r.getMessage()]
    assert [w.rsplit("next try in ", 1)[1] for w in waits] == ["30 s", "60 s", "120 s"]


def test_the_last_try_fails_the_message_for_good(engine: sa.Engine,
                                                  smtp_server: Server) -> None:
    smtp_server.inbox.fail_next = 10
    key = Key("g1", "Ann", 1, "report")
    put(engine, key, letter_for("Ann"))
    drain(Sender(engine, SmtpServer.parse(smtp_server.url()), FROM,
                 Policy(first_retry_s=0.01, max_retry_s=0.01, attempts=3)))
    done = entry(engine, key.ident)
    assert done is not None and (done.state, done.attempts) == ("failed", 3)
    assert smtp_server.inbox.refused == 3 and smtp_server.inbox.messages == []


def test_back_off_doubles_up_to_its_ceiling() -> None:
    policy = Policy(first_retry_s=30, max_retry_s=3600)
    assert [policy.retry_after(n) for n in (1, 2, 3, 4, 8, 9)] == [30, 60, 120, 240, 3600, 3600]


def test_a_refusal_fails_the_message_for_good_and_the_next_goes_on(
        engine: sa.Engine, smtp_server: Server) -> None:
    smtp_server.inbox.fail_next, smtp_server.inbox.failure = 1, "550 5.1.1 No such user"
    first, second = Key("g1", "Ann", 1, "report"), Key("g1", "Bob", 1, "report")
    put(engine, first, letter_for("Ann"))
    put(engine, second, letter_for("Bob"))
    sender = Sender(engine, SmtpServer.parse(smtp_server.url()), FROM, FAST)
    assert sender.run_once() == 1
    failed, sent = entry(engine, first.ident), entry(engine, second.ident)
    assert failed is not None and failed.state == "failed" and "(550)" in (failed.error or "")
    assert sent is not None and sent.state == "sent"
    assert sender.run_once() == 0 and len(smtp_server.inbox.messages) == 1


def test_an_unreachable_server_defers_the_message(engine: sa.Engine) -> None:
    from support.console_db import free_port

    key = Key("g1", "Ann", 1, "report")
    put(engine, key, letter_for("Ann"))
    sender = Sender(engine, SmtpServer.parse(f"smtp://127.0.0.1:{free_port()}"), FROM, FAST)
    assert sender.run_once() == 0
    waiting = entry(engine, key.ident)
    assert waiting is not None and waiting.state == "queued"
    assert waiting.error == f"cannot reach {sender.server.label} (ConnectionRefusedError)"


def test_two_senders_on_one_database_deliver_each_message_once(
        console_url: str, engine: sa.Engine, smtp_server: Server) -> None:
    keys = [Key("g1", f"P{n}", turn, "report") for n in range(12) for turn in (1, 2, 3)]
    for key in keys:
        put(engine, key, letter_for(key.player, key.turn))
    other = make_engine(database_url(console_url))  # a second server's engine
    senders = [Sender(e, SmtpServer.parse(smtp_server.url()), FROM, FAST)
               for e in (engine, other)]
    counts: list[int] = []
    start = threading.Barrier(2)

    def work(sender: Sender) -> None:
        start.wait()
        counts.append(sum(sender.run_once() for _ in range(3)))

    threads = [threading.Thread(target=work, args=(s,)) for s in senders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    other.dispose()
    ids = smtp_server.inbox.ids()
    assert sorted(ids) == sorted(f"<{k.ident}.kit@example.org>" for k in keys)
    assert sum(counts) == len(keys)


def test_the_sender_thread_sends_when_woken_and_stops_cleanly(
        engine: sa.Engine, smtp_server: Server) -> None:
    thread = SenderThread(Sender(engine, SmtpServer.parse(smtp_server.url()), FROM, FAST),
                          every_s=60)
    thread.start()
    put(engine, Key("g1", "Ann", 1, "report"), letter_for("Ann"))
    thread.wake()
    deadline = time.monotonic() + 10
    while not smtp_server.inbox.messages and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(smtp_server.inbox.messages) == 1
    assert thread.stop(10)


# --- crashes ------------------------------------------------------------------------------------

CHILD = textwrap.dedent("""
    import os, signal, sys
    from kit.db.engine import database_url, make_engine, migrate
    from kit.mail.letter import Letter
    from kit.mail.outbox import Key, Policy, Sender, queue
    from kit.mail.smtp import SmtpServer

    url, smtp, when = sys.argv[1:]
    engine = make_engine(database_url(url))
    migrate(engine)
    with engine.connect().execution_options(write=True) as conn, conn.begin():
        queue(conn, Key("g1", "Ann", 1, "report"),
              Letter("ann@example.org", "Turn 1", "Hello Ann\\n"))
    if when == "queued":  # committed, not sent
        os.kill(os.getpid(), signal.SIGKILL)
    sender = Sender(engine, SmtpServer.parse(smtp), "gm@example.org", Policy(lease_s=0.5))
    sender.sent = lambda claimed: os.kill(os.getpid(), signal.SIGKILL)  # after the 250
    sender.run_once()
""")


def killed_child(console_url: str, smtp: str, when: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, console_url, smtp, when], env=env,
                          capture_output=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()[-2000:]


@pytest.mark.parametrize("when", ["queued", "after the 250"])
def test_a_sender_killed_loses_nothing_and_a_resend_is_the_same_message(
        console_url: str, engine: sa.Engine, smtp_server: Server, when: str) -> None:
    killed_child(console_url, smtp_server.url(), when)
    key = Key("g1", "Ann", 1, "report")
    before = len(smtp_server.inbox.messages)
    assert before == (0 if when == "queued" else 1)
    sender = Sender(engine, SmtpServer.parse(smtp_server.url()), "gm@example.org", FAST)
    time.sleep(0.6)  # the dead sender's lease runs out
    assert sender.run_once() == 1
    assert sender.run_once() == 0
    messages = smtp_server.inbox.messages
    assert len(messages) == before + 1
    assert {m["Message-ID"] for m in messages} == {f"<{key.ident}.kit@example.org>"}
    assert len({m.as_bytes() for m in messages}) == 1  # byte for byte the same message
    done = entry(engine, key.ident)
    assert done is not None and done.state == "sent"


# --- TLS and the password -----------------------------------------------------------------------

@pytest.fixture
def authority(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    trustme = pytest.importorskip("trustme", reason="trustme is not installed: pip install "
                                  "'.[test]'")
    ca = trustme.CA()
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "ca.pem"))
    return ca


def test_starttls_with_a_login_delivers_and_no_log_shows_the_password(
        engine: sa.Engine, authority, caplog: pytest.LogCaptureFixture) -> None:  # noqa: ANN001
    import ssl

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(context)
    server = Server(login=True, tls_context=context)
    caplog.set_level(logging.DEBUG)
    try:
        url = server.url("submission", login=True)
        put(engine, Key("g1", "Ann", 1, "report"), letter_for("Ann"))
        sender = Sender(engine, SmtpServer.parse(url), FROM, FAST)
        assert sender.run_once() == 1
        assert len(server.inbox.messages) == 1
        wrong = SmtpServer.parse(url.replace("word", "wrung"))
        with pytest.raises(MailError) as caught:
            wrong.check()
        assert str(caught.value) == f"{wrong.label} refused the user name or password (535)"
    finally:
        server.stop()
    ours = [r.getMessage() for r in caplog.records if r.name.startswith(("kit", "sqlalchemy"))]
    assert ours and not any(PASSWORD in line or USER in line for line in ours)


def test_submission_refuses_a_server_without_starttls(smtp_server: Server) -> None:
    url = smtp_server.url("submission")
    with pytest.raises(MailError) as caught:
        SmtpServer.parse(url).check()
    assert str(caught.value) == f"{SmtpServer.parse(url).label} does not offer STARTTLS"
    assert not caught.value.transient


def test_smtps_checks_the_certificate(authority, tmp_path: Path,  # noqa: ANN001
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import ssl

    from aiosmtpd.controller import Controller
    from support.console_db import free_port
    from support.mail_server import Inbox

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(context)
    inbox, port = Inbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port, ssl_context=context)
    controller.start()
    try:
        server = SmtpServer.parse(f"smtps://127.0.0.1:{port}")
        server.check()
        monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "none.pem"))  # no authority known
        with pytest.raises(MailError) as caught:
            server.check()
        assert "its TLS certificate is not trusted" in str(caught.value)
    finally:
        controller.stop()


# --- drafts and the command ---------------------------------------------------------------------

def test_an_eml_draft_and_a_mailto_link_carry_the_letter() -> None:
    letter = letter_for("Zoe")
    data = draft(letter, FROM)
    assert data == draft(letter, FROM) and b"\r\n" in data  # the same bytes, CRLF lines
    message = email.message_from_bytes(data, policy=email.policy.default)
    assert (message["To"], message["From"], message["X-Unsent"]) == (
        "zoe@example.org", FROM, "1")
    assert message.get_body(("plain",)).get_content().replace("\r\n", "\n") == letter.body
    assert "From" not in email.message_from_bytes(draft(letter), policy=email.policy.default)
    link = urlsplit(mailto(letter))
    query = parse_qs(link.query)
    assert (link.scheme, unquote(link.path)) == ("mailto", "zoe@example.org")
    assert query["subject"] == [letter.subject]
    assert query["body"] == [letter.body.replace("\n", "\r\n")]


@pytest.mark.parametrize(("to", "says"), [
    ("ann", "must be one e-mail address (name@domain); got 'ann'"),
    ("ann@example.org\r\nBcc: all@example.org", "must be one e-mail address"),
    ("a@b.org, c@d.org", "must be one e-mail address"),
])
def test_a_bad_address_is_refused(to: str, says: str) -> None:
    with pytest.raises(ConfigError) as caught:
        Letter(to, "Hi", "body")
    assert caught.value.field == "to" and says in str(caught.value)


def test_kit_mail_test_sends_through_the_outbox(
        console_url: str, engine: sa.Engine, smtp_server: Server,
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["mail", "test", "--to", "me@example.org", "--smtp", smtp_server.url(),
                 "--mail-from", FROM, "--database", console_url, "--lang", "fr"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert err == f"sent to me@example.org through smtp://127.0.0.1:{smtp_server.port} " \
                  f"as {FROM}\n"
    [message] = smtp_server.inbox.messages
    assert message["Subject"] == "Console de soirée jeux\u00a0: message d’essai"
    with engine.connect() as conn:
        assert conn.execute(sa.select(outbox.c.kind, outbox.c.state)).all() == [("test", "sent")]


def test_kit_mail_test_shows_the_name_given_with_the_sender_s_address(
        console_url: str, engine: sa.Engine, smtp_server: Server,
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["mail", "test", "--to", "me@example.org", "--smtp", smtp_server.url(),
                 "--mail-from", f"Soirée Quiz <{FROM}>", "--database", console_url])
    assert code == 0, capsys.readouterr().err
    [message] = smtp_server.inbox.messages
    assert smtp_server.inbox.envelopes == [(FROM, ["me@example.org"])]
    [sender] = message["From"].addresses
    assert (sender.display_name, sender.addr_spec) == ("Soirée Quiz", FROM)


def test_kit_mail_test_reports_a_refusal_once_and_leaves_nothing_to_resend(
        console_url: str, engine: sa.Engine, smtp_server: Server,
        capsys: pytest.CaptureFixture[str]) -> None:
    smtp_server.inbox.fail_next = 1
    code = main(["mail", "test", "--to", "me@example.org", "--smtp", smtp_server.url(),
                 "--mail-from", FROM, "--database", console_url])
    assert code == 2
    assert capsys.readouterr().err == (f"Error: smtp: smtp://127.0.0.1:{smtp_server.port} "
                                       "refused the message (451)\n")
    with engine.connect() as conn:
        assert conn.execute(sa.select(outbox.c.state)).scalars().all() == ["failed"]


def test_kit_mail_test_without_a_server_writes_a_draft(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("KIT_SMTP_URL", raising=False)
    eml = tmp_path / "test.eml"
    assert main(["mail", "test", "--to", "me@example.org", "--eml", str(eml)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == str(eml) and out[1].startswith("mailto:me@example.org?subject=")
    message = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    assert message["Subject"] == "Game-night console: test message"
    assert "written as a draft" in message.get_body(("plain",)).get_content()


@pytest.mark.parametrize(("argv", "line"), [
    (["--smtp", "smtp://127.0.0.1:1"], "Error: mail_from: give the address messages come from, "
     "e.g. --mail-from game-master@example.org"),
    (["--mail-from", FROM], "Error: mail_from: needs a mail server: give --smtp URL or set "
     "KIT_SMTP_URL"),
    ([], "Error: smtp: give a mail server (--smtp URL or KIT_SMTP_URL), or --eml FILE to write "
     "the test message as a draft"),
    (["--smtp", "smtps://u:hunter2@127.0.0.1:1", "--mail-from", "nobody"],
     "Error: mail_from: must be one e-mail address (name@domain); got 'nobody'"),
    (["--smtp", "smtp://127.0.0.1:1", "--mail-from", "Quiz <gm@example.org>, b@example.org"],
     "Error: mail_from: must be one e-mail address (name@domain), or a name and one address "
     "(Quiz Night <name@domain>); got 'Quiz <gm@example.org>, b@example.org'"),
    (["--smtp", "smtp://127.0.0.1:1", "--mail-from", f"{'Q' * 101} <gm@example.org>"],
     "Error: mail_from: the name before the address must be printable text of at most 100 "
     f"characters; got '{'Q' * 60}…'"),
])
def test_kit_mail_test_errors_are_one_line(argv: list[str], line: str,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("KIT_SMTP_URL", raising=False)
    assert main(["mail", "test", "--to", "me@example.org", *argv]) == 2
    assert capsys.readouterr().err == line + "\n"
