"""PDFs on the turn letters: when the game master asks for them (the e-mail section's box, or
``PUT /api/games/ID/mail``), each player's letter of a published turn carries that turn's
shared report and their own slip as PDF, made by the console's render line (the public's
``turn-N.pdf``, the player's own ``slips-turn-N.pdf``), sent through a real SMTP server on
loopback. Each attachment is read back: the slip is that player's alone, no letter carries
another player's secret or guesses; without the ask, letters carry none."""

from __future__ import annotations

import email.message
import io
import re

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install '.[test]'")

import sqlalchemy as sa  # noqa: E402
from pypdf import PdfReader  # noqa: E402
from support.helpers import writes_number  # noqa: E402
from support.mail_server import Server, drain  # noqa: E402

from kit.console.mail.book import Opener  # noqa: E402
from kit.console.mail.postbox import report_files  # noqa: E402
from kit.console.service import Console  # noqa: E402
from kit.mail.letter import as_bytes  # noqa: E402
from kit.mail.outbox import Policy, Sender, SenderThread, outbox  # noqa: E402
from kit.mail.smtp import SmtpServer  # noqa: E402

FROM = "game-master@example.org"
FAST = Policy(lease_s=30.0, first_retry_s=0.05, max_retry_s=0.2, attempts=5)
BASE = "http://192.168.1.20:8000"
SECRETS = {"Ann": 417, "Bob": 538, "Cy": 629, "Dee": 746}
ORDERS = {"Ann": [291, 538], "Bob": [304, 305], "Cy": [702, 388],
          "Dee": {"list": {"Ann": 471, "Bob": 583}}}
EMAILS = {p: f"{p.lower()}@example.org" for p in ("Ann", "Bob", "Cy")}  # Dee: no address
SPEC = {"game": "whats-my-number", "players": list(SECRETS), "secrets": SECRETS,
        "range": "100-999", "emails": EMAILS}


def sending(console: Console, server: Server) -> Sender:
    """The console queues letters as ``kit serve --smtp`` does, and its sender fetches their
    PDFs as that server's does; the test sends them (``drain``)."""
    made = Sender(console.store.engine, SmtpServer.parse(server.url()), FROM, FAST,
                  files=report_files(console))
    console.mail.attach(SenderThread(made))  # never started
    return made


def publish(console: Console, game_id: str, gm_token: str) -> None:
    console.enter(game_id, "orders", {"orders": ORDERS}, {})
    console.enter(game_id, "publish", {}, {"turn": 1}, opener=Opener(gm_token, BASE))


def by_player(server: Server) -> dict[str, email.message.EmailMessage]:
    return {m["To"].split("@")[0].capitalize(): m for m in server.inbox.messages}


def text_of(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return " ".join(" ".join(page.extract_text() or "" for page in reader.pages).split())


def has(number: int, text: str) -> bool:
    """Whether ``number`` is written in ``text`` (not as part of a longer number or an id)."""
    return writes_number(number, text)


def numbers_of(player: str) -> set[int]:
    order = ORDERS[player]
    return set(order["list"].values()) if isinstance(order, dict) else set(order)


def test_asked_for_each_letter_carries_the_turn_report_and_the_players_own_slip(
        console: Console, smtp_server: Server) -> None:
    made = sending(console, smtp_server)
    created = console.create_game(SPEC)
    console.mail.set_attach_pdf(created.id, True)
    publish(console, created.id, created.gm_token)
    with console.store.engine.connect() as conn:
        assert set(conn.execute(sa.select(outbox.c.attach)).scalars()) == {
            "turn-1.pdf\nslips-turn-1.pdf"}
    drain(made)
    letters = by_player(smtp_server)
    assert sorted(letters) == ["Ann", "Bob", "Cy"]
    shared = console.read_report(created.id, "turn-1.pdf", "public").body
    for name, message in letters.items():
        files = {part.get_filename(): part for part in message.iter_attachments()}
        assert sorted(files) == ["slips-turn-1.pdf", "turn-1.pdf"], name
        assert {part.get_content_type() for part in files.values()} == {"application/pdf"}
        report = files["turn-1.pdf"].get_content()
        assert report == shared  # the public's file, the one the player's page links
        slip = files["slips-turn-1.pdf"].get_content()
        assert slip == console.read_own(created.id, "slips-turn-1.pdf", name).body
        slip_text, report_text = text_of(slip), text_of(report)
        assert f"{name} · turn 1 · private" in slip_text and f"for {name} alone" in slip_text
        assert all(has(n, slip_text) for n in numbers_of(name)), name
        mine = {SECRETS[name], *numbers_of(name)}
        for other in SECRETS:
            if other == name:
                continue
            assert f"{other} · turn" not in slip_text, (name, other)
            theirs = ({SECRETS[other]} | numbers_of(other)) - mine
            for text in (slip_text, report_text):
                assert not any(has(n, text) for n in theirs), (name, other)
        assert "Your slip (for you alone)" in message.get_body().get_content()  # the text too


def test_the_same_letter_is_the_same_message_with_its_pdfs(
        console: Console, smtp_server: Server) -> None:
    made = sending(console, smtp_server)
    created = console.create_game(SPEC)
    console.mail.set_attach_pdf(created.id, True)
    publish(console, created.id, created.gm_token)
    claimed = made.claim()
    assert claimed is not None and claimed.letter.attach == ("turn-1.pdf", "slips-turn-1.pdf")
    first, again = as_bytes(made.message(claimed)), as_bytes(made.message(claimed))
    assert first == again and b"application/pdf" in first


def test_not_asked_letters_carry_no_pdf_and_the_gm_asks_by_api(
        client, console: Console, smtp_server: Server) -> None:  # noqa: ANN001
    made = sending(console, smtp_server)
    created = console.create_game(SPEC)
    gm = {"authorization": f"Bearer {created.gm_token}"}
    path = f"/api/games/{created.id}/mail"
    assert client.get(f"/api/games/{created.id}/emails", headers=gm).json()["attach_pdf"] \
        is False
    publish(console, created.id, created.gm_token)
    drain(made)
    assert all(not list(m.iter_attachments()) for m in smtp_server.inbox.messages)
    assert len(smtp_server.inbox.messages) == 3
    player = {"authorization": f"Bearer {created.tokens('player')['Ann']}"}
    assert client.put(path, json={"attach_pdf": True}, headers=player).status_code == 403
    assert client.put(path, json={"attach_pdf": "yes"}, headers=gm).status_code == 422
    assert console.mail.attach_pdf(created.id) is False
    assert client.put(path, json={"attach_pdf": True}, headers=gm).json()["attach_pdf"] is True
    assert console.mail.attach_pdf(created.id) is True
    console.enter(created.id, "orders", {"orders": {"Ann": [292], "Bob": [306]}}, {})
    console.enter(created.id, "publish", {}, {"turn": 2},
                  opener=Opener(created.gm_token, BASE))
    drain(made)
    second = [m for m in smtp_server.inbox.messages if "turn 2" in m["Subject"]]
    assert len(second) == 3 and all(
        sorted(p.get_filename() for p in m.iter_attachments())
        == ["slips-turn-2.pdf", "turn-2.pdf"] for m in second)


def test_the_gm_page_box_asks_for_pdfs_with_a_mail_server(
        client, console: Console, smtp_server: Server) -> None:  # noqa: ANN001
    sending(console, smtp_server)
    created = console.create_game(SPEC)
    client.get(f"/console/{created.id}/gm/{created.gm_token}")  # the GM cookie
    page = client.get(f"/console/{created.id}/gm").text
    assert 'id="mail-attach"' in page and 'name="attach" value="1">' in page  # not checked
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)[1]
    done = client.post(f"/console/{created.id}/mail/attach", data={"csrf": csrf, "attach": "1"},
                       follow_redirects=False)
    assert done.status_code == 303 and console.mail.attach_pdf(created.id) is True
    page = client.get(done.headers["location"]).text
    assert 'name="attach" value="1" checked>' in page
    assert "Each turn letter will carry the turn’s report" in page
    refused = client.post(f"/console/{created.id}/mail/attach", data={"csrf": "x"},
                          follow_redirects=False)
    assert refused.status_code == 403 and console.mail.attach_pdf(created.id) is True
    client.post(f"/console/{created.id}/mail/attach", data={"csrf": csrf})
    assert console.mail.attach_pdf(created.id) is False


def test_a_letter_whose_pdfs_are_being_made_waits_and_one_that_cannot_be_made_fails(
        console: Console, smtp_server: Server) -> None:
    from kit.mail.outbox import NotReady
    from kit.mail.smtp import MailError

    asked: list[str] = []

    def files(game_id: str, player: str, names):  # noqa: ANN001, ANN202
        asked.append(player)
        if player == "Cy":
            raise MailError("attachment turn-1.pdf not made", transient=False)
        if asked.count(player) == 1:  # the first try: still being made
            raise NotReady(player)
        return [(n, b"%PDF-1.4 " + player.encode()) for n in names]

    made = Sender(console.store.engine, SmtpServer.parse(smtp_server.url()), FROM, FAST,
                  files=files)
    console.mail.attach(SenderThread(made))
    created = console.create_game(SPEC)
    console.mail.set_attach_pdf(created.id, True)
    publish(console, created.id, created.gm_token)
    drain(made)
    letters = by_player(smtp_server)
    assert sorted(letters) == ["Ann", "Bob"] and asked.count("Ann") == 2
    assert [p.get_content() for p in letters["Bob"].iter_attachments()] == [b"%PDF-1.4 Bob"] * 2
    with console.store.engine.connect() as conn:
        states = dict(conn.execute(sa.select(outbox.c.player, outbox.c.state)).all())
        error = conn.execute(sa.select(outbox.c.error).where(outbox.c.player == "Cy")).scalar()
    assert states == {"Ann": "sent", "Bob": "sent", "Cy": "failed"}
    assert error == "attachment turn-1.pdf not made"
