"""The last letter of a What's My Number? game whose players chose their own secret numbers,
sent through a real SMTP server on loopback (aiosmtpd), on SQLite and PostgreSQL: its subject
says who won, its first line "You won!" to the winner, and it reveals every secret number;
the letters before it reveal none of another player's."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install '.[test]'")

from support.mail_server import Server, drain  # noqa: E402

from kit.console.mail.book import Opener  # noqa: E402
from kit.console.service import Console  # noqa: E402
from kit.mail.outbox import Policy, Sender, SenderThread  # noqa: E402
from kit.mail.smtp import SmtpServer  # noqa: E402

FAST = Policy(lease_s=30.0, first_retry_s=0.05, max_retry_s=0.2, attempts=5)
BASE = "http://192.168.1.20:8000"
CHOSEN = {"Ann": 417, "Bob": 538, "Cy": 629, "Dee": 538, "דנה": 700}  # two may hold one number
EMAILS = {"Ann": "ann@example.org", "Bob": "bob@example.org", "Cy": "cy@example.org",
          "Dee": "dee@example.org", "דנה": "dana@example.org"}
PLAYER_OF = {address: name for name, address in EMAILS.items()}
MARKS = re.compile("[\u2066-\u2069]")  # direction marks: only around a right-to-left name


def letters(server: Server) -> dict[str, str]:
    """Each player's letters so far, subject and body, by player; the inbox emptied. Each is
    from the game's name and has its HTML part (tables as tables, links to follow)."""
    out: dict[str, str] = {}
    for message in server.inbox.messages:
        name = PLAYER_OF[message["To"]]
        html = message.get_body(("html",)).get_content()
        assert "<table" in html and '<a href="http://192.168.1.20:8000/console/' in html
        body = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
        out[name] = f"{message['Subject']}\n{body}"
    server.inbox.messages.clear()
    return out


def test_the_last_letter_says_who_won_and_reveals_every_secret(
        console: Console, smtp_server: Server) -> None:
    made = Sender(console.store.engine, SmtpServer.parse(smtp_server.url()),
                  "gm@example.org", FAST)
    console.mail.attach(SenderThread(made))  # never started: ``drain`` sends
    game = console.create_game({"game": "whats-my-number", "players": list(CHOSEN),
                                "secrets": "players", "range": "100-999",
                                "title": "Friday WMN", "emails": EMAILS})
    opener = Opener(game.gm_token, BASE)
    for player, number in CHOSEN.items():
        console.enter(game.id, "secret", {"secret": number}, {"player": player})
    console.enter(game.id, "orders", {"orders": {"Ann": [538, 100]}}, {})
    console.enter(game.id, "publish", {}, {"turn": 1}, opener=opener)
    drain(made)
    first = letters(smtp_server)
    assert sorted(first) == sorted(CHOSEN)
    for name, text in first.items():
        assert text.startswith("Friday WMN: turn 1 report\n"), name
        others = {CHOSEN[p] for p in CHOSEN if p != name} - {CHOSEN[name]}
        if name == "Ann":
            others -= {538}  # her own guess
        assert not [n for n in others if re.search(rf"\b{n}\b", text)], name
        assert "Secret numbers" not in text
        assert not MARKS.search(text.replace("\u2068דנה\u2069", "")), name
    # no-break spaces join each name to its answer
    assert "Guess 1 (538): Bob\xa0✓ · Cy\xa0H · Dee\xa0✓ · \u2068דנה\u2069\xa0H" in first["Ann"]
    console.enter(game.id, "orders", {"orders": {"Bob": {"list": {
        "Ann": 417, "Cy": 629, "Dee": 538, "דנה": 700}}}}, {})
    console.enter(game.id, "publish", {}, {"turn": 2}, opener=opener)
    drain(made)
    last = letters(smtp_server)
    assert sorted(last) == sorted(CHOSEN)
    for name, text in last.items():
        subject, _, body = text.partition("\n")
        assert subject == "Friday WMN: Bob wins (turn 2)", name
        second = body.splitlines()[1]
        assert second == ("You won!" if name == "Bob" else "The game is over: Bob wins."), name
        assert "Bob wins in turn 2, by a fully correct list." in body
        revealed = body.rpartition("Secret numbers\n")[2]
        assert [line for line in revealed.splitlines() if ": " in line] == [
            "Ann: 417", "Bob: 538", "Cy: 629", "Dee: 538", "דנה: 700"], name
