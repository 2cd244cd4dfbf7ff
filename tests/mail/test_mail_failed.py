"""Letters that will not go out are shown to the host with why, on SQLite and PostgreSQL.

A server whose ``KIT_MAIL_KEY`` is not the one the letters were sealed under fails every
letter; a real SMTP server (aiosmtpd) that refuses one fails that one. The game master's page
lists each failed letter (player, which letter, why) in the page's language, and the GM's
``GET /api/games/ID/mail`` the same as ``"failed"``; neither holds a token.
"""

from __future__ import annotations

import base64
import os
import re

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install '.[test]'")

from support.helpers import plain  # noqa: E402
from support.mail_server import Server, drain  # noqa: E402

from kit.console.mail.book import Opener  # noqa: E402
from kit.console.mail.invitations import invite  # noqa: E402
from kit.console.service import Console  # noqa: E402
from kit.mail.outbox import Policy, Sender, SenderThread, reason  # noqa: E402
from kit.mail.seal import KEY_ENV  # noqa: E402
from kit.mail.smtp import SmtpServer  # noqa: E402

BASE = "http://192.168.1.20:8000"
SECRETS = {"Ann": 417, "Bob": 538, "Cy": 629, "Dee": 746}
EMAILS = {"Ann": "ann@example.org", "Bob": "bob@example.org"}  # Cy, Dee: none
SPEC = {"game": "whats-my-number", "players": list(SECRETS), "secrets": SECRETS,
        "range": "100-999", "emails": EMAILS}
FAST = Policy(first_retry_s=0.05, max_retry_s=0.1, attempts=3)
KEY_CHANGED = ("the mail key has changed since this letter was queued: its links do not open "
               "under this server’s key (KIT_MAIL_KEY or mail.key)")


def failed_table(client, game_id: str, query: str = "") -> list[tuple[str, ...]]:  # noqa: ANN001
    """The rows of the GM page's "Letters not sent" table, as text."""
    page = client.get(f"/console/{game_id}/gm{query}").text
    found = re.search(r'<table class="mail" id="mail-failed">(.*?)</table>', page, re.S)
    assert found is not None, "no table of letters not sent"
    # white space folded, a no-break space kept (French puts one before a colon)
    return [tuple(re.sub(r"[ \t\r\n]+", " ", plain(re.sub(r"<[^>]+>", " ", cell))).strip()
                  for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S))
            for row in re.findall(r"<tr>(.*?)</tr>", found[1], re.S)]


def test_a_changed_mail_key_fails_each_letter_and_the_host_sees_why(
        client, console: Console, smtp_server: Server,  # noqa: ANN001
        monkeypatch: pytest.MonkeyPatch) -> None:
    server = SmtpServer.parse(smtp_server.url())
    console.mail.attach(SenderThread(Sender(console.store.engine, server, "gm@example.org",
                                            FAST)))  # never started: letters are queued
    created = console.create_game(SPEC)
    opener = Opener(created.gm_token, BASE)
    assert invite(console, created.id, opener).queued == ("Ann", "Bob")
    console.enter(created.id, "orders", {"orders": {"Ann": [291], "Bob": [304]}}, {})
    console.enter(created.id, "publish", {}, {"turn": 1}, opener=opener)
    # the letters were sealed under the console's key; this server starts with another
    monkeypatch.setenv(KEY_ENV, base64.b64encode(os.urandom(32)).decode())
    drain(Sender(console.store.engine, server, "gm@example.org", FAST))
    assert smtp_server.inbox.messages == []
    client.get(f"/console/{created.id}/gm/{created.gm_token}")  # the GM cookie
    assert failed_table(client, created.id) == [
        ("Player", "Message", "Reason"),
        ("Ann", "Turn 1 letter", KEY_CHANGED), ("Bob", "Turn 1 letter", KEY_CHANGED),
        ("Ann", "Invitation", KEY_CHANGED), ("Bob", "Invitation", KEY_CHANGED)]
    french = failed_table(client, created.id, "?lang=fr")
    assert french[1] == ("Ann", "Lettre du tour 1", "la clé de messagerie a changé depuis la "
                         "mise en file de cette lettre\u00a0: ses liens ne s’ouvrent pas avec "
                         "la clé de ce serveur (KIT_MAIL_KEY ou mail.key)")
    answer = client.get(f"/api/games/{created.id}/mail",
                        headers={"Authorization": f"Bearer {created.gm_token}"})
    assert answer.status_code == 200
    assert answer.json()["failed"] == [
        {"player": "Ann", "kind": "report", "turn": 1, "reason": KEY_CHANGED},
        {"player": "Bob", "kind": "report", "turn": 1, "reason": KEY_CHANGED},
        {"player": "Ann", "kind": "invitation", "turn": None, "reason": KEY_CHANGED},
        {"player": "Bob", "kind": "invitation", "turn": None, "reason": KEY_CHANGED}]
    page = client.get(f"/console/{created.id}/gm").text
    section = page[page.index('id="mail-failed"'):page.index("</table>",
                                                              page.index('id="mail-failed"'))]
    tokens = [created.gm_token, *created.tokens("player").values()]
    assert [t for t in tokens if t in section or t in answer.text] == []


def test_a_refusal_by_the_mail_server_is_shown_with_its_reply_code(
        client, console: Console, smtp_server: Server) -> None:  # noqa: ANN001
    sender = Sender(console.store.engine, SmtpServer.parse(smtp_server.url()),
                    "gm@example.org", FAST)
    console.mail.attach(SenderThread(sender))  # never started: ``drain`` sends
    created = console.create_game(SPEC)
    assert invite(console, created.id, Opener(created.gm_token, BASE)).queued == ("Ann", "Bob")
    smtp_server.inbox.fail_next, smtp_server.inbox.failure = 1, "550 5.1.1 No such user"
    drain(sender)
    assert len(smtp_server.inbox.messages) == 1  # the other invitation went out
    client.get(f"/console/{created.id}/gm/{created.gm_token}")
    [head, row] = failed_table(client, created.id)
    assert row[1:] == ("Invitation", "the mail server did not take it: "
                       f"smtp://127.0.0.1:{smtp_server.port} refused the message (550)")
    assert row[0] in EMAILS and "No such user" not in str(row)  # the code, not the text
    # invited again, and this time it goes out: the failed one is no longer listed
    again = invite(console, created.id, Opener(created.gm_token, BASE))
    assert again.queued == (row[0],)
    drain(sender)
    assert len(smtp_server.inbox.messages) == 2
    assert 'id="mail-failed"' not in client.get(f"/console/{created.id}/gm").text
    assert console.mail.failed(created.id) == []


@pytest.mark.parametrize(("error", "said"), [
    ("no answer from the mail server in 10 tries", "no answer from the mail server in 10 tries"),
    ("no answer from the mail server in 1 tries", "no answer from the mail server in 1 try"),
    ("attachments not made", "its PDFs could not be made"),
    ("attachment turn-2.pdf not made", "its PDFs could not be made"),
    ("attachments being made", "its PDFs could not be made"),
    ("cannot reach smtp://mail.example.org:25 (TimeoutError)",
     "the mail server did not take it: cannot reach smtp://mail.example.org:25 (TimeoutError)"),
])
def test_each_reason_a_sender_records_is_said_as_a_sentence(error: str, said: str) -> None:
    assert str(reason(error)) == said
