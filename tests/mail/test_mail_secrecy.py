"""No key in the database once the letters are out, and seat tokens bound to their game, on
SQLite and PostgreSQL.

After a reminder and a publish with e-mail, every letter delivered through a real SMTP server
(aiosmtpd), every column of every table is read and searched for every token the game
handed out (the GM's, each player's); a player's token of game 1 on game 2, where a player has
the same name, is answered as a wrong token is.
"""

from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install '.[test]'")

import sqlalchemy as sa  # noqa: E402
from support.mail_server import Server, drain  # noqa: E402

from kit.console.mail.book import Opener  # noqa: E402
from kit.console.mail.postbox import remind  # noqa: E402
from kit.console.service import Console  # noqa: E402
from kit.mail.outbox import Policy, Sender, SenderThread, outbox  # noqa: E402
from kit.mail.smtp import SmtpServer  # noqa: E402

BASE = "http://192.168.1.20:8000"
SECRETS = {"Ann": 417, "Bob": 538, "Cy": 629, "Dee": 746}  # Dee: no address
EMAILS = {"Ann": "ann@example.org", "Bob": "bob@example.org", "Cy": "cy@example.org"}
SPEC = {"game": "whats-my-number", "players": list(SECRETS), "secrets": SECRETS,
        "range": "100-999", "emails": EMAILS}


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
    console.enter(created.id, "orders", {"orders": {"Ann": [291]}}, {})
    assert remind(console, created.id, opener)["queued"] == ["Bob", "Cy"]
    console.enter(created.id, "orders", {"orders": {"Bob": [304], "Cy": [702]}}, {})
    console.enter(created.id, "publish", {}, {"turn": 1}, opener=opener)
    drain(sender)
    tokens = {"gm": created.gm_token, **created.tokens("player")}
    letters = [m.get_body(("plain",)).get_content() + m.get_body(("html",)).get_content()
               for m in smtp_server.inbox.messages]  # both parts of each letter
    assert len(letters) == 5  # two reminders and three turn letters, each with its link
    for name in ("Bob", "Cy"):
        assert sum(tokens[name] in body for body in letters) == 2
    with console.store.engine.connect() as conn:
        states = conn.execute(sa.select(outbox.c.kind, outbox.c.state)).all()
    assert sorted(states) == [("reminder", "sent")] * 2 + [("report", "sent")] * 3
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
