"""Receipts of a player's orders, sent through a real SMTP server on loopback: off by default
(none), on (the e-mail section's box, or ``PUT /api/games/ID/mail``) a player's own post,
from their page or the API, gives them one letter with the turn, the orders as received,
the rulings they will get and their own link; a repost before the sender runs replaces the
queued receipt, one after it was sent (or while a sender holds it) gets a second; the game
master's entry gets none; no letter holds another player's link, orders or secret."""

from __future__ import annotations

import email.message
import re

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install '.[test]'")

import sqlalchemy as sa  # noqa: E402
from support.mail_server import Server, drain  # noqa: E402

from kit.console.service import Console  # noqa: E402
from kit.mail.outbox import QUEUED, Policy, Sender, SenderThread, outbox  # noqa: E402
from kit.mail.smtp import SmtpServer  # noqa: E402

FROM = "game-master@example.org"
FAST = Policy(lease_s=30.0, first_retry_s=0.05, max_retry_s=0.2, attempts=5)
SECRETS = {"Ann": 417, "Bob": 538, "Cy": 629, "Dee": 746}
EMAILS = {"Ann": "ann@example.org", "Bob": "bob@example.org"}  # Cy, Dee: no address
SPEC = {"game": "whats-my-number", "players": list(SECRETS), "secrets": SECRETS,
        "range": "100-999", "emails": EMAILS}


def sending(console: Console, server: Server) -> Sender:
    """The console queues letters as ``kit serve --smtp`` does; the test sends them."""
    made = Sender(console.store.engine, SmtpServer.parse(server.url()), FROM, FAST)
    console.mail.attach(SenderThread(made))  # never started
    return made


def page_post(client, game_id: str, token: str, guesses: list[int]):  # noqa: ANN001, ANN201
    values = {f"g{i}": str(n) for i, n in enumerate(guesses, 1)}
    return client.post(f"/console/{game_id}/p/{token}",
                       data={"turn": "1", "send": "guesses", **values}, follow_redirects=False)


def api_post(client, game_id: str, token: str, body: dict):  # noqa: ANN001, ANN201
    return client.post(f"/api/games/{game_id}/orders", json=body,
                       headers={"authorization": f"Bearer {token}"})


def body_of(message: email.message.EmailMessage) -> str:
    return str(message.get_body(("plain",)).get_content())


@pytest.fixture
def game(console: Console, smtp_server: Server):  # noqa: ANN201
    """A game with receipts asked for, its sender, and its players' tokens."""
    made = sending(console, smtp_server)
    created = console.create_game(SPEC)
    console.mail.set_receipts(created.id, True)
    return created, made


def test_receipts_are_off_by_default_and_none_is_sent(
        client, console: Console, smtp_server: Server) -> None:  # noqa: ANN001
    made = sending(console, smtp_server)
    created = console.create_game(SPEC)
    assert console.mail.receipts(created.id) is False
    tokens = created.tokens("player")
    assert page_post(client, created.id, tokens["Ann"], [291, 538]).status_code == 303
    assert api_post(client, created.id, tokens["Bob"], {"guesses": [304]}).status_code == 201
    drain(made)
    assert smtp_server.inbox.messages == []


def test_a_post_from_the_page_gives_one_letter_with_the_orders_and_own_link(
        client, console: Console, smtp_server: Server, game) -> None:  # noqa: ANN001
    created, made = game
    tokens = created.tokens("player")
    assert page_post(client, created.id, tokens["Ann"], [291, 291]).status_code == 303
    drain(made)
    [letter] = smtp_server.inbox.messages
    text = body_of(letter)
    assert letter["To"] == "ann@example.org"
    assert letter["Subject"] == "Game night: your orders for turn 1 were received"
    assert "Hello Ann, the game master has your orders for turn 1." in text
    assert re.search(r"Received at \d\d:\d\d, sent by you: 291, 291", text), text
    page = client.get(f"/console/{created.id}/p/{tokens['Ann']}").text
    rulings = [line[2:] for line in text.splitlines() if line.startswith("- ")]
    assert rulings == ["291 is guessed twice: the second tells you nothing new"]
    assert all(ruling in page for ruling in rulings)  # the page's own words
    assert f"/console/{created.id}/p/{tokens['Ann']}" in text
    for other in ("Bob", "Cy"):
        assert tokens[other] not in text
    assert created.gm_token not in text
    assert not any(str(n) in text for name, n in SECRETS.items() if name != "Ann")


def test_two_quick_posts_give_one_letter_with_the_latest_orders(
        client, console: Console, smtp_server: Server, game) -> None:  # noqa: ANN001
    created, made = game
    token = created.tokens("player")["Bob"]
    assert api_post(client, created.id, token, {"guesses": [304, 305]}).status_code == 201
    assert page_post(client, created.id, token, [306, 307]).status_code == 303
    with console.store.engine.connect() as conn:
        rows = conn.execute(sa.select(outbox.c.kind, outbox.c.state, outbox.c.body,
                                      outbox.c.sealed)).all()
    [(kind, state, body, sealed)] = rows
    assert (kind, state) == ("receipt-1", QUEUED)
    assert "306, 307" in body and token not in body and sealed  # the new link sealed too
    drain(made)
    [letter] = smtp_server.inbox.messages
    text = body_of(letter)
    assert letter["To"] == "bob@example.org"
    assert "sent by you: 306, 307" in text and "304" not in text and "305" not in text


def test_a_post_after_the_receipt_was_sent_gives_a_second_letter(
        client, console: Console, smtp_server: Server, game) -> None:  # noqa: ANN001
    created, made = game
    token = created.tokens("player")["Ann"]
    assert api_post(client, created.id, token, {"guesses": [291]}).status_code == 201
    drain(made)
    assert api_post(client, created.id, token, {"guesses": [292, 293]}).status_code == 201
    drain(made)
    first, second = smtp_server.inbox.messages
    assert "sent by you: 291" in body_of(first)
    assert "sent by you: 292, 293" in body_of(second) and "291" not in body_of(second)
    assert first["Message-ID"] != second["Message-ID"]


def test_a_receipt_a_sender_holds_is_not_changed_and_a_repost_queues_another(
        client, console: Console, smtp_server: Server, game) -> None:  # noqa: ANN001
    created, made = game
    token = created.tokens("player")["Ann"]
    api_post(client, created.id, token, {"guesses": [291]})
    held = made.claim()
    assert held is not None and "sent by you: 291" in held.letter.body
    api_post(client, created.id, token, {"guesses": [295]})
    with console.store.engine.connect() as conn:
        kinds = conn.execute(sa.select(outbox.c.kind).order_by(outbox.c.kind)).scalars().all()
        body = conn.execute(sa.select(outbox.c.body).where(outbox.c.id == held.ident)).scalar()
    assert kinds == ["receipt-1", "receipt-2"]
    assert "sent by you: 291" in body  # the held row kept the letter being sent


def test_the_game_masters_entry_and_a_player_without_address_get_none(
        client, console: Console, smtp_server: Server, game) -> None:  # noqa: ANN001
    created, made = game
    gm = {"authorization": f"Bearer {created.gm_token}"}
    assert client.post(f"/api/games/{created.id}/turns", json={"orders": {"Ann": [291]}},
                       headers=gm).status_code == 201
    assert api_post(client, created.id, created.tokens("player")["Cy"],
                    {"guesses": [300]}).status_code == 201
    drain(made)
    assert smtp_server.inbox.messages == []


def test_the_gm_switches_receipts_by_api_and_on_the_page(
        client, console: Console, smtp_server: Server) -> None:  # noqa: ANN001
    sending(console, smtp_server)
    created = console.create_game(SPEC)
    gm = {"authorization": f"Bearer {created.gm_token}"}
    path = f"/api/games/{created.id}/mail"
    player = {"authorization": f"Bearer {created.tokens('player')['Ann']}"}
    assert client.put(path, json={"receipts": True}, headers=player).status_code == 403
    refused = client.put(path, json={"receipts": "yes"}, headers=gm)
    assert refused.status_code == 422 and refused.json()["errors"][0]["field"] == "receipts"
    unknown = client.put(path, json={"receipt": True}, headers=gm)
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["field"] == "receipt"
    assert console.mail.receipts(created.id) is False
    answer = client.put(path, json={"receipts": True}, headers=gm).json()
    assert answer["receipts"] is True and answer["attach_pdf"] is False
    assert client.get(f"/api/games/{created.id}/emails", headers=gm).json()["receipts"] is True
    client.get(f"/console/{created.id}/gm/{created.gm_token}")  # the GM cookie
    page = client.get(f"/console/{created.id}/gm").text
    assert 'name="receipts" value="1" checked>' in page
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)[1]
    refused = client.post(f"/console/{created.id}/mail/receipts", data={"csrf": "x"},
                          follow_redirects=False)
    assert refused.status_code == 403 and console.mail.receipts(created.id) is True
    done = client.post(f"/console/{created.id}/mail/receipts", data={"csrf": csrf},
                       follow_redirects=False)
    assert done.status_code == 303 and console.mail.receipts(created.id) is False
    page = client.get(done.headers["location"]).text
    assert 'name="receipts" value="1">' in page and "Orders will get no receipt" in page
