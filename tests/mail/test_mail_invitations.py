"""Invitations: a game made with players' addresses sends each of them one letter before turn
1, through a real SMTP server on loopback (aiosmtpd), on SQLite and PostgreSQL.

Each invitation carries its player's own working link (opened against the app), the room code
the host's page shows (which opens the join page) and what to do before turn 1, in both the
text and the HTML part, and no other player's link or secret. "Send invitations" (page and
API) sends one only to a player with no invitation to their current address; without a mail
server nothing is queued and the page says why.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install '.[test]'")

import sqlalchemy as sa  # noqa: E402
from support.helpers import plain  # noqa: E402
from support.mail_server import Server, drain  # noqa: E402

from kit.console import join_desk  # noqa: E402
from kit.console.service import Console  # noqa: E402
from kit.mail.outbox import Policy, Sender, SenderThread, outbox  # noqa: E402
from kit.mail.smtp import SmtpServer  # noqa: E402

BASE = "http://testserver"  # the address the test client's requests come in on
FAST = Policy(lease_s=30.0, first_retry_s=0.05, max_retry_s=0.2, attempts=5)
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
EMAILS = {"Ann": "ann@example.org", "Bob": "bob@example.org", "Cy": "cy@example.org"}
SPEC = {"game": "whats-my-number", "players": PLAYERS, "secrets": "players",
        "range": "100-999", "title": "Friday night", "emails": EMAILS}
SAME_SITE = {"origin": BASE}


def attach(console: Console, server: Server) -> Sender:
    """The console queues letters as ``kit serve --smtp`` does; the test sends them."""
    made = Sender(console.store.engine, SmtpServer.parse(server.url()), "gm@example.org", FAST)
    console.mail.attach(SenderThread(made))  # never started: ``drain`` sends
    return made


def invitations(server: Server) -> dict[str, tuple[str, str, str]]:
    """Each invitation received, by address: (subject, text part, HTML part)."""
    found: dict[str, tuple[str, str, str]] = {}
    for message in server.inbox.messages:
        assert message["To"] not in found, f"{message['To']} got two letters"
        found[message["To"]] = (message["Subject"], message.get_body(("plain",)).get_content(),
                                 message.get_body(("html",)).get_content())
    return found


def kinds(console: Console) -> list[tuple[str, int, str, str]]:
    with console.store.engine.connect() as conn:
        return sorted(conn.execute(sa.select(outbox.c.player, outbox.c.turn, outbox.c.kind,
                                             outbox.c.recipient)).all())


def gm_page(client, game_id: str, gm_token: str) -> str:  # noqa: ANN001
    client.get(f"/console/{game_id}/gm/{gm_token}")  # the GM cookie
    return client.get(f"/console/{game_id}/gm").text


def press(client, game_id: str, page: str):  # noqa: ANN001, ANN201
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    return client.post(f"/console/{game_id}/mail/invitations", data={"csrf": csrf},
                       headers=SAME_SITE, follow_redirects=False)


def test_a_new_game_sends_each_player_with_an_address_one_invitation(
        client, console: Console, smtp_server: Server) -> None:  # noqa: ANN001
    sender = attach(console, smtp_server)
    made = client.post("/api/games", json=SPEC, headers=SAME_SITE)
    assert made.status_code == 201, made.text
    answer = made.json()
    assert answer["invited"] == ["Ann", "Bob", "Cy"]  # Dee has no address
    game_id, links = answer["id"], answer["player_links"]
    drain(sender)
    got = invitations(smtp_server)
    assert sorted(got) == sorted(EMAILS.values())
    code = join_desk.desks(console).desk(game_id, answer["gm_token"]).code
    assert code and f"<strong>{code}</strong>" in client.get(
        f"/console/{game_id}/gm/{answer['gm_token']}").text  # the code the host shows
    for name, address in EMAILS.items():
        subject, text, html = got[address]
        assert subject == "Friday night: your invitation"
        assert text.splitlines() == [
            f"Hello {name}, you are invited to “Friday night” (What's My Number?).",
            "",
            "Your own page (keep the link to yourself: it is your seat in the game): "
            f"{links[name]}",
            "",
            "Before turn 1, open your page and choose your secret number: turn 1 begins once "
            "every player has one.",
            "",
            f"On another phone: open {BASE}/join/{code} and type the room code {code}; the "
            "host then admits it."]
        assert f'<a href="{links[name]}">' in html and code in html
        others = [links[p] for p in PLAYERS if p != name] + [answer["gm_token"]]
        assert [o for o in others if o in text or o in html] == []
        token = links[name].rpartition("/")[2]
        assert console.player_of(game_id, token) == name
        own = client.get(links[name].removeprefix(BASE))  # the link opens their own page
        assert own.status_code == 200 and name in own.text
    assert 'value="Dee"' in client.get(f"/join/{code}").text  # the join address works
    assert kinds(console) == [(name, 0, "invitation", address) for name, address
                              in EMAILS.items()]
    again = client.post(f"/api/games/{game_id}/mail/invitations", headers={
        **SAME_SITE, "authorization": f"Bearer {answer['gm_token']}"})
    assert (again.status_code, again.json()) == (200, {
        "queued": [], "before": ["Ann", "Bob", "Cy"], "without_address": ["Dee"]})
    drain(sender)
    assert len(smtp_server.inbox.messages) == 3  # exactly one each


def test_the_button_invites_only_a_player_whose_address_changed(
        client, console: Console, smtp_server: Server) -> None:  # noqa: ANN001
    sender = attach(console, smtp_server)
    made = client.post("/console/new/wmn", data={
        "names": "\n".join(PLAYERS), "range": "100-999", "draw": "random",
        "emails": "\n".join(f"{p} = {a}" for p, a in EMAILS.items())}, headers=SAME_SITE,
        follow_redirects=False)
    assert made.status_code == 303 and "&invited=3" in made.headers["location"]
    game_id = re.search(r"/console/([\w-]+)/gm", made.headers["location"]).group(1)
    page = client.get(made.headers["location"], follow_redirects=True).text
    assert "Invitations queued for 3 players." in page
    drain(sender)
    first = invitations(smtp_server)
    assert sorted(first) == sorted(EMAILS.values())
    assert "Before turn 1, open your page: you send your orders there" in first[EMAILS["Ann"]][1]
    smtp_server.inbox.messages.clear()
    gm = {**SAME_SITE, "authorization": "Bearer " + re.search(
        r"/gm/([\w-]+)", made.headers["location"]).group(1)}
    assert client.put(f"/api/games/{game_id}/emails/Bob", json={"address": "bob@example.net"},
                      headers=gm).status_code == 200
    page = client.get(f"/console/{game_id}/gm").text
    assert "Send invitations" in page
    pressed = press(client, game_id, page)
    assert pressed.status_code == 303
    assert pressed.headers["location"] == f"/console/{game_id}/gm?invited=1#mail"
    said = client.get(pressed.headers["location"]).text
    assert '<p class="notice" role="status">Invitation queued for 1 player.</p>' in said
    drain(sender)
    assert list(invitations(smtp_server)) == ["bob@example.net"]
    assert [row for row in kinds(console) if row[0] == "Bob"] == [
        ("Bob", 0, "invitation", "bob@example.org"), ("Bob", 1, "invitation", "bob@example.net")]
    assert press(client, game_id, said).headers["location"] == \
        f"/console/{game_id}/gm?invited=0#mail"
    drain(sender)
    assert len(smtp_server.inbox.messages) == 1


def test_without_a_mail_server_nothing_is_queued_and_the_page_says_why(
        client, console: Console) -> None:  # noqa: ANN001
    made = client.post("/api/games", json=SPEC, headers=SAME_SITE).json()
    assert "invited" not in made
    page = gm_page(client, made["id"], made["gm_token"])
    assert ("Invitations go out by e-mail only, and no mail server is set (kit serve --smtp): "
            "hand each player their link, or the room code, instead.") in plain(page)
    assert "Send invitations" not in page
    refused = press(client, made["id"], page)
    assert refused.status_code == 409 and "no mail server is set" in plain(refused.text)
    gm = {**SAME_SITE, "authorization": f"Bearer {made['gm_token']}"}
    answer = client.post(f"/api/games/{made['id']}/mail/invitations", headers=gm)
    assert (answer.status_code, answer.json()) == (409, {"errors": [{
        "field": "mail",
        "message": "no mail server is set (kit serve --smtp): invitations go out by e-mail "
                   "only",
        "text": "mail: no mail server is set (kit serve --smtp): invitations go out by "
                "e-mail only"}]})
    assert kinds(console) == []


def test_the_invitations_call_is_the_game_masters_alone(
        client, console: Console, smtp_server: Server) -> None:  # noqa: ANN001
    attach(console, smtp_server)
    made = client.post("/api/games", json=SPEC, headers=SAME_SITE).json()
    path = f"/api/games/{made['id']}/mail/invitations"
    player = made["player_tokens"]["Ann"]
    answers = [client.post(path, headers=SAME_SITE),
               client.post(path, headers={**SAME_SITE, "authorization": f"Bearer {player}"}),
               client.post("/api/games/nosuchgame/mail/invitations", headers={
                   **SAME_SITE, "authorization": f"Bearer {made['gm_token']}"}),
               client.post(path, headers={"origin": "http://elsewhere.example",
                                          "authorization": f"Bearer {made['gm_token']}"})]
    assert [(a.status_code, a.json()["errors"][0]["field"]) for a in answers] == [
        (401, "authorization"), (403, "authorization"), (404, "game"), (403, "origin")]
    assert [r[2] for r in kinds(console)] == ["invitation"] * 3  # the creation's alone


def test_an_invitation_is_in_the_game_s_language(client, console: Console,
                                                 smtp_server: Server) -> None:  # noqa: ANN001
    sender = attach(console, smtp_server)
    made = client.post("/api/games", json={**SPEC, "lang": "fr", "emails": {
        "Ann": EMAILS["Ann"]}}, headers=SAME_SITE).json()
    drain(sender)
    (subject, text, _), = invitations(smtp_server).values()
    code = join_desk.desks(console).desk(made["id"], made["gm_token"]).code
    nb = "\u00a0"  # French puts a no-break space before : ; ? and inside « »
    assert subject == f"Friday night{nb}: votre invitation"
    assert text.splitlines() == [
        f"Bonjour Ann, vous êtes invité à «{nb}Friday night{nb}» (Quel est mon nombre{nb}?).",
        "",
        f"Votre page à vous (gardez le lien pour vous{nb}: c’est votre place dans la partie)"
        f"{nb}: " + made["player_links"]["Ann"],
        "",
        f"Avant le tour 1, ouvrez votre page et choisissez votre nombre secret{nb}: le tour 1 "
        "commence quand chaque joueur a le sien.",
        "",
        f"Sur un autre téléphone{nb}: ouvrez {BASE}/join/{code} et tapez le code de salle "
        f"{code}{nb}; l’hôte l’admet ensuite."]


REFUSE = {  # a database that refuses every new outbox row, as a full disk would
    "sqlite": ["CREATE TRIGGER refuse_mail BEFORE INSERT ON outbox "
               "BEGIN SELECT RAISE(ABORT, 'disk full'); END"],
    "postgresql": ["CREATE FUNCTION refuse_mail() RETURNS trigger AS $$ BEGIN "
                   "RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql",
                   "CREATE TRIGGER refuse_mail BEFORE INSERT ON outbox FOR EACH ROW "
                   "EXECUTE FUNCTION refuse_mail()"]}


def test_a_new_game_whose_invitations_are_refused_still_answers_its_links(
        client, console: Console, smtp_server: Server, caplog) -> None:  # noqa: ANN001
    sender = attach(console, smtp_server)
    engine = console.store.engine
    with engine.connect().execution_options(write=True) as conn, conn.begin():
        for statement in REFUSE[engine.dialect.name]:
            conn.execute(sa.text(statement))
    made = client.post("/api/games", json=SPEC, headers=SAME_SITE)
    assert made.status_code == 201 and made.json()["invited"] == []
    answer = made.json()
    assert f"mail: the invitations of game {answer['id']} were not queued" in caplog.text
    with engine.connect().execution_options(write=True) as conn, conn.begin():
        conn.execute(sa.text("DROP TRIGGER refuse_mail" + (
            " ON outbox" if engine.dialect.name == "postgresql" else "")))
    pressed = client.post(f"/api/games/{answer['id']}/mail/invitations", headers={
        **SAME_SITE, "authorization": f"Bearer {answer['gm_token']}"})
    assert pressed.json()["queued"] == ["Ann", "Bob", "Cy"]  # the GM token still works
    drain(sender)
    assert sorted(invitations(smtp_server)) == sorted(EMAILS.values())
