"""No key in the database, while the letters wait or once they are out, and seat tokens bound
to their game, on SQLite and PostgreSQL.

After invitations, a reminder and a publish with e-mail, every letter delivered through a real
SMTP server (aiosmtpd), each letter holds its own player's token alone, and every column of
every table is read and searched for every token the game handed out (the GM's, each
player's); a player's token of game 1 on game 2, where a player has the same name, is answered
as a wrong token is.

While letters wait in the outbox, every cell of every table and the SQLite file's bytes (and
its ``-wal``) hold no token either: a letter's links are sealed under the server's mail key
(``kit.mail.seal``). The letters delivered are the very letters made, each link opening its
player's page; a row sealed under another key fails with the reason and sends nothing; the key
file is made 0600 and kept across restarts, ``KIT_MAIL_KEY`` wins over it, and a malformed one
stops ``kit serve`` at start.
"""

from __future__ import annotations

import base64
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install '.[test]'")

import sqlalchemy as sa  # noqa: E402
from support.console_db import free_port  # noqa: E402
from support.mail_server import Server, drain  # noqa: E402

from kit.console.mail.book import Opener  # noqa: E402
from kit.console.mail.invitations import invite  # noqa: E402
from kit.console.mail.postbox import REMINDER, REPORT, letters_now, remind  # noqa: E402
from kit.console.service import Console, open_console  # noqa: E402
from kit.db.engine import database_url  # noqa: E402
from kit.errors import ConfigError  # noqa: E402
from kit.mail.outbox import UNOPENED, Policy, Sender, SenderThread, outbox  # noqa: E402
from kit.mail.seal import KEY_ENV, KEY_FILE, MailKey, key_folder, server_key  # noqa: E402
from kit.mail.smtp import SmtpServer  # noqa: E402

BASE = "http://192.168.1.20:8000"
SECRETS = {"Ann": 417, "Bob": 538, "Cy": 629, "Dee": 746}  # Dee: no address
EMAILS = {"Ann": "ann@example.org", "Bob": "bob@example.org", "Cy": "cy@example.org"}
SPEC = {"game": "whats-my-number", "players": list(SECRETS), "secrets": SECRETS,
        "range": "100-999", "emails": EMAILS}
FAST = Policy(first_retry_s=0.05, max_retry_s=0.1)
TABLES = {"game": "lowest-unique", "tables": [["Eve", "Fay", "Gus"], ["Hal", "Ivy", "Jo"]]}


def every_value(engine: sa.Engine) -> list[tuple[str, str, str]]:
    """(table, column, value as text) of every cell of every table of the database."""
    found = []
    tables = sa.MetaData()
    tables.reflect(engine)
    with engine.connect() as conn:
        for table in tables.sorted_tables:
            for row in conn.execute(sa.select(table)).mappings():
                found += [(table.name, column, value.decode("latin-1")
                           if isinstance(value, bytes) else str(value))
                          for column, value in row.items() if value is not None]
    return found


def test_no_token_is_left_in_any_table_once_the_letters_are_out(
        console: Console, smtp_server: Server) -> None:
    sender = Sender(console.store.engine, SmtpServer.parse(smtp_server.url()),
                    "game-master@example.org", Policy(first_retry_s=0.05, max_retry_s=0.1))
    console.mail.attach(SenderThread(sender))  # never started: ``drain`` sends
    created = console.create_game(SPEC)
    opener = Opener(created.gm_token, BASE)
    assert invite(console, created.id, opener).queued == ("Ann", "Bob", "Cy")
    console.enter(created.id, "orders", {"orders": {"Ann": [291]}}, {})
    assert remind(console, created.id, opener)["queued"] == ["Bob", "Cy"]
    console.enter(created.id, "orders", {"orders": {"Bob": [304], "Cy": [702]}}, {})
    console.enter(created.id, "publish", {}, {"turn": 1}, opener=opener)
    drain(sender)
    tokens = {"gm": created.gm_token, **created.tokens("player")}
    letters = [(m["To"], m.get_body(("plain",)).get_content()
                + m.get_body(("html",)).get_content())
               for m in smtp_server.inbox.messages]  # both parts of each letter
    assert len(letters) == 8  # three invitations, two reminders, three turn letters
    for name in ("Ann", "Bob", "Cy"):  # an invitation and a turn letter each; a reminder
        assert sum(tokens[name] in body for _, body in letters) == (2 if name == "Ann" else 3)
    held = {(to, who) for to, body in letters for who, token in tokens.items()
            if token in body}  # each letter holds its own player's token alone
    assert held == {(EMAILS[name], name) for name in EMAILS}
    invited = [body for m, (_, body) in zip(smtp_server.inbox.messages, letters, strict=True)
               if m["Subject"] == "Game night: your invitation"]
    assert len(invited) == 3
    words = [re.sub(r"https?://\S+", "", body) for body in invited]  # a token holds digits
    assert [n for text in words for n in SECRETS.values() if re.search(rf"\b{n}\b", text)] == []
    with console.store.engine.connect() as conn:
        states = conn.execute(sa.select(outbox.c.kind, outbox.c.state)).all()
    assert sorted(states) == [("invitation", "sent")] * 3 + [("reminder", "sent")] * 2 + [
        ("report", "sent")] * 3
    cells = every_value(console.store.engine)
    assert any(table == "outbox" for table, _, _ in cells)  # the scan reads the outbox
    leaked = {(who, table, column) for table, column, value in cells
              for who, token in tokens.items() if token in value}
    assert leaked == set()


def test_a_player_token_of_another_game_opens_nothing_here(
        client, console: Console) -> None:  # noqa: ANN001
    first, second = console.create_game(SPEC), console.create_game(SPEC)
    theirs = first.tokens("player")["Ann"]  # Ann plays both games
    wrong = "x" * len(theirs)

    def answers(token: str) -> list[tuple[int, str]]:
        page = client.get(f"/console/{second.id}/p/{token}")
        me = client.get(f"/api/games/{second.id}/me.json",
                        headers={"authorization": f"Bearer {token}"})
        return [(page.status_code, page.text), (me.status_code, me.text)]

    assert client.get(f"/console/{first.id}/p/{theirs}").status_code == 200  # a live token
    assert answers(theirs) == answers(wrong)
    assert [status for status, _ in answers(theirs)] == [404, 403]


def queue_letters(console: Console, sender: Sender) -> tuple[str, dict[str, str], Opener]:
    """A game with e-mail whose turn 1 is published and whose turn 2 reminders are queued,
    none sent, beside a game with tables; its id, every token of both games, its opener."""
    console.mail.attach(SenderThread(sender))  # never started: the test sends, if it does
    created, tables = console.create_game(SPEC), console.create_game(TABLES)
    opener = Opener(created.gm_token, BASE)
    console.enter(created.id, "orders", {"orders": {"Ann": [291], "Bob": [304], "Cy": [702]}},
                  {})
    console.enter(created.id, "publish", {}, {"turn": 1}, opener=opener)
    assert remind(console, created.id, opener)["queued"] == ["Ann", "Bob", "Cy"]
    tokens = {"gm": created.gm_token, "tables gm": tables.gm_token,
              **{f"{kind} {name}": token for made in (created, tables)
                 for (kind, name), token in made.seat_tokens.items()}}
    assert {"player Ann", "player Dee", "table 1", "table 2"} <= set(tokens)
    return created.id, tokens, opener


def sqlite_bytes(console_url: str) -> bytes:
    """The SQLite file and its write-ahead log, as they are on disk ('' on PostgreSQL)."""
    if "://" in console_url:
        return b""
    files = [Path(console_url), Path(f"{console_url}-wal")]
    assert files[1].exists()  # the log holds the last writes: it is read too
    return b"".join(path.read_bytes() for path in files)


def test_no_token_is_in_the_database_while_letters_wait_to_be_sent(
        client, console: Console, console_url: str,  # noqa: ANN001
        smtp_server: Server) -> None:
    sender = Sender(console.store.engine, SmtpServer.parse(smtp_server.url()),
                    "game-master@example.org", FAST)
    game_id, tokens, opener = queue_letters(console, sender)
    with console.store.engine.connect() as conn:
        waiting = conn.execute(sa.select(outbox).order_by(outbox.c.kind, outbox.c.player)).all()
    assert [(r.kind, r.player, r.state) for r in waiting] == [
        *((REMINDER, p, "queued") for p in EMAILS), *((REPORT, p, "queued") for p in EMAILS)]
    assert all(r.sealed and "http" not in r.body and "\x1f0\x1f" in r.body for r in waiting)
    cells = every_value(console.store.engine)
    leaked = {(who, table, column) for table, column, value in cells
              for who, token in tokens.items() if token in value}
    assert leaked == set()
    raw = sqlite_bytes(console_url)
    assert {who for who, token in tokens.items() if token.encode() in raw} == set()
    # the letters made now, as the game master's drafts would be: what the players must get
    made = {(key.kind, letter.to): letter.body for kind in (REPORT, REMINDER)
            for key, letter in letters_now(console, game_id, kind, opener)}
    drain(sender)
    got = {(("report" if "report" in m["Subject"] else "reminder"), m["To"]): m
           for m in smtp_server.inbox.messages}
    assert sorted(got) == sorted(made)
    for (kind, to), message in got.items():
        text = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
        assert text.rstrip("\n") == made[kind, to].rstrip("\n")  # word for word, link too
        name = to.split("@")[0].capitalize()
        link = f"{BASE}/console/{game_id}/p/{tokens['player ' + name]}"
        assert link in text and link in message.get_body(("html",)).get_content()
        page = client.get(link.removeprefix(BASE))
        assert page.status_code == 200
        assert str(SECRETS[name]) in page.text  # their own page: their secret number
        assert not any(str(n) in page.text for p, n in SECRETS.items() if p != name)


def test_a_letter_sealed_under_another_key_fails_with_the_reason_and_is_not_sent(
        console: Console, smtp_server: Server) -> None:
    server = SmtpServer.parse(smtp_server.url())
    queue_letters(console, Sender(console.store.engine, server, "gm@example.org", FAST))
    other = Sender(console.store.engine, server, "gm@example.org", FAST,
                   mail_key=MailKey(os.urandom(32)))
    drain(other)
    assert smtp_server.inbox.messages == []
    with console.store.engine.connect() as conn:
        done = conn.execute(sa.select(outbox.c.state, outbox.c.error, outbox.c.body,
                                      outbox.c.sealed)).all()
    assert len(done) == 6
    assert set(done) == {("failed", UNOPENED, "", None)}
    assert "mail key" in UNOPENED and "KIT_MAIL_KEY" in UNOPENED


def test_the_key_file_is_private_and_kept_across_restarts_and_the_variable_wins(
        tmp_path: Path, smtp_server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    database = tmp_path / "night" / "console.sqlite3"
    url = database_url(str(database))
    first = open_console(str(database), tmp_path / "files")
    try:
        assert not (database.parent / KEY_FILE).exists()  # made when first needed
        queue_letters(first, Sender(first.store.engine, SmtpServer.parse(smtp_server.url()),
                                    "gm@example.org", FAST))
    finally:
        first.close()
    key_file = database.parent / KEY_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    kept = key_file.read_bytes()
    again = open_console(str(database), tmp_path / "files")  # a restart
    try:
        drain(Sender(again.store.engine, SmtpServer.parse(smtp_server.url()), "gm@example.org",
                     FAST))
        assert len(smtp_server.inbox.messages) == 6  # sealed before, opened after
        assert all(re.search(r"/p/[\w-]{20,}", m.get_body(("plain",)).get_content())
                   for m in smtp_server.inbox.messages)
    finally:
        again.close()
    assert key_file.read_bytes() == kept
    assert server_key(url).raw == base64.b64decode(kept)
    given = os.urandom(32)
    monkeypatch.setenv(KEY_ENV, base64.b64encode(given).decode())
    assert server_key(url).raw == given != base64.b64decode(kept)
    assert key_file.read_bytes() == kept
    on_postgresql = database_url("postgresql://kit@db.internal/kit")
    assert key_folder(on_postgresql) == Path(os.environ["XDG_DATA_HOME"]) / "number-party-kit"
    monkeypatch.delenv(KEY_ENV)
    key_file.write_text("damaged\n")
    with pytest.raises(ConfigError) as refused:
        server_key(url)
    assert str(refused.value).startswith(f"mail key file {key_file}: must be 32 random bytes")


@pytest.mark.parametrize("value", ["not-a-key", base64.b64encode(b"short").decode(), ""])
def test_a_malformed_key_variable_stops_the_server_at_start(tmp_path: Path, value: str) -> None:
    environment = {**os.environ, "KIT_CACHE_DIR": str(tmp_path / "cache"), KEY_ENV: value}
    done = subprocess.run([sys.executable, "-m", "kit", "serve", "--port", str(free_port()),
                           "--no-prewarm", "--database", str(tmp_path / "c.sqlite3")],
                          capture_output=True, text=True, env=environment, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        f"Error: {KEY_ENV}: must be 32 random bytes in base64 (44 characters); make one with: "
        "python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())'")
    assert not (tmp_path / KEY_FILE).exists()


def test_links_come_back_where_they_were_and_a_mark_in_a_letter_is_refused() -> None:
    from kit.mail.seal import open_links, seal_links

    key = MailKey(os.urandom(32))
    body = "Page: https://x.example/console/g/p/AbC-_9.\nAgain (http://h:80/a?b=1&c=2)\nend"
    cut, sealed = seal_links(key, "g\x1fAnn\x1f1\x1freport", body)
    assert sealed is not None and "http" not in cut and "AbC" not in sealed
    assert open_links(key, "g\x1fAnn\x1f1\x1freport", cut, sealed) == body
    assert open_links(key, "g\x1fBob\x1f1\x1freport", cut, sealed) is None  # bound to Ann
    assert seal_links(key, "b", "no link here") == ("no link here", None)
    with pytest.raises(ConfigError) as refused:
        seal_links(key, "b", "a\x1fb")
    assert str(refused.value) == "body: must not hold the control character U+001F"


def test_the_outbox_migrated_is_the_outbox_declared(engine: sa.Engine) -> None:
    found = {c["name"]: c["nullable"] for c in sa.inspect(engine).get_columns("outbox")}
    assert found == {c.name: c.nullable for c in outbox.columns}
    assert found["sealed"] is True
