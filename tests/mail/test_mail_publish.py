"""Players' letters: a publish queues one per player with an address, sent through a real SMTP
server on loopback (aiosmtpd), on SQLite and PostgreSQL.

Each letter carries its player's working link, their own slip and the turn's report, and no
other player's secret or guesses (every letter scanned); two servers on one database send each
letter once; a server killed with SIGKILL right after the publish commits loses none; a failing
server is retried; reminders go to the missing with an address, once a turn; without a mail
server the GM gets ``mailto:`` links and ``.eml`` drafts (API and page); addresses are checked,
changed and removed; a link sealed under the GM token opens with it only.
"""

from __future__ import annotations

import email
import email.policy
import os
import re
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from urllib.parse import unquote

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install '.[test]'")

import sqlalchemy as sa  # noqa: E402
from support.helpers import ROOT, plain  # noqa: E402
from support.mail_server import Server, drain  # noqa: E402

from kit.console import sealed_links as sealed  # noqa: E402
from kit.console.mail import book  # noqa: E402
from kit.console.mail.book import Opener  # noqa: E402
from kit.console.mail.postbox import game_titles  # noqa: E402
from kit.console.service import Console, open_console  # noqa: E402
from kit.console.tokens import token_hash  # noqa: E402
from kit.db.engine import database_url as database_url_of  # noqa: E402
from kit.errors import Problems  # noqa: E402
from kit.mail.outbox import Policy, Sender, SenderThread, outbox  # noqa: E402
from kit.mail.smtp import SmtpServer  # noqa: E402

FROM = "game-master@example.org"
FAST = Policy(lease_s=30.0, first_retry_s=0.05, max_retry_s=0.2, attempts=5)
BASE = "http://192.168.1.20:8000"
SECRETS = {"Ann": 417, "Bob": 538, "Cy": 629, "Dee": 746, "Eve": 853}
ORDERS = {"Ann": [291, 538], "Bob": [304], "Cy": [702, 388], "Eve": [465]}  # Dee: none
EMAILS = {"Ann": "ann@example.org", "Bob": "bob@example.org", "Cy": "cy@example.org",
          "Dee": "dee@example.org"}  # Eve: no address
SPEC = {"game": "whats-my-number", "players": list(SECRETS), "secrets": SECRETS,
        "range": "100-999", "emails": EMAILS}


def sender(console: Console, server: Server) -> Sender:
    return Sender(console.store.engine, SmtpServer.parse(server.url()), FROM, FAST)


def attach(console: Console, server: Server) -> Sender:
    """The console queues letters as ``kit serve --smtp`` does; the test sends them."""
    made = sender(console, server)
    console.mail.attach(SenderThread(made))  # never started: ``drain`` sends
    return made


def rows(console: Console) -> list:
    with console.store.engine.connect() as conn:
        return conn.execute(sa.select(outbox).order_by(outbox.c.player)).all()


def play_turn(console: Console, game_id: str, gm_token: str) -> None:
    console.enter(game_id, "orders", {"orders": ORDERS}, {})
    console.enter(game_id, "publish", {}, {"turn": 1}, opener=Opener(gm_token, BASE))


def by_player(server: Server) -> dict[str, email.message.EmailMessage]:
    out = {}
    for message in server.inbox.messages:
        name = message["To"].split("@")[0].capitalize()
        assert name not in out, f"{name} got two letters"
        out[name] = message
    return out


def test_a_publish_sends_each_player_with_an_address_one_letter_of_their_own(
        console: Console, smtp_server: Server) -> None:
    made = attach(console, smtp_server)
    created = console.create_game(SPEC)
    play_turn(console, created.id, created.gm_token)
    assert [r.player for r in rows(console)] == ["Ann", "Bob", "Cy", "Dee"]  # before any send
    drain(made)
    letters = by_player(smtp_server)
    assert sorted(letters) == ["Ann", "Bob", "Cy", "Dee"]  # Eve has no address
    tokens = created.tokens("player")
    for name, message in letters.items():
        body = message.get_body(("plain",)).get_content()
        assert message["Subject"] == "Game night: turn 1 report"
        link = f"{BASE}/console/{created.id}/p/{tokens[name]}"
        assert link in body
        token = re.search(r"/p/([\w-]+)", body)[1]
        assert console.player_of(created.id, token) == name  # the link opens their seat
        assert "Your slip (for you alone)" in body and "Turn 1 report" in body
        for number in ORDERS.get(name, []):  # their own guesses, on their slip
            assert f"({number})" in body
        mine = {SECRETS[name], *ORDERS.get(name, [])}
        others = {SECRETS[p] for p in SECRETS if p != name} | {
            n for p, guesses in ORDERS.items() if p != name for n in guesses}
        leaked = {n for n in others - mine if re.search(rf"\b{n}\b", body)}
        assert leaked == set(), f"{name}'s letter shows {leaked}"
    assert "No orders: Dee" in letters["Dee"].get_body(("plain",)).get_content()


@pytest.mark.parametrize(("title", "shown"), [
    ("Friday Quiz", "Friday Quiz"),
    ("ليلة الألعاب (٣)", "ليلة الألعاب (٣)"),  # right to left, encoded as RFC 2047 words
    ("", "number-party-kit"),
])
def test_each_letter_comes_from_its_game_s_name(
        console: Console, smtp_server: Server, title: str, shown: str) -> None:
    made = Sender(console.store.engine, SmtpServer.parse(smtp_server.url()), FROM, FAST,
                  titles=game_titles(console))
    console.mail.attach(SenderThread(made))  # never started: ``drain`` sends
    created = console.create_game({**SPEC, "title": title})
    play_turn(console, created.id, created.gm_token)
    drain(made)
    assert len(smtp_server.inbox.messages) == 4
    for message in smtp_server.inbox.messages:
        raw = message.as_bytes()
        header = raw[:raw.index(b"\r\n\r\n")] if b"\r\n\r\n" in raw else raw
        assert header.isascii()  # the name is encoded, never raw UTF-8 in a header
        [sender] = message["From"].addresses
        assert (sender.display_name, sender.addr_spec) == (shown, FROM)


def test_the_gm_page_says_where_the_turn_letters_stand(
        client, console: Console, smtp_server: Server) -> None:  # noqa: ANN001
    made = attach(console, smtp_server)
    created = console.create_game(SPEC)
    client.get(f"/console/{created.id}/gm/{created.gm_token}")  # the GM cookie

    def said() -> str:
        page = client.get(f"/console/{created.id}/gm").text
        found = re.search(r'<ul class="status" id="mail-letters">(.*?)</ul>', page, re.S)
        return " ".join(plain(re.sub(r"<[^>]+>", " ", found[1])).split()) if found else ""

    assert said() == ""  # nothing published, nothing queued
    play_turn(console, created.id, created.gm_token)
    assert said() == ("Turn 1 letters still to go out (reload the page to see them leave): "
                      "Ann, Bob, Cy and Dee.")
    smtp_server.inbox.fail_next, smtp_server.inbox.failure = 1, "550 5.1.1 No such user"
    drain(made)
    failed = [r.player for r in rows(console) if r.state == "failed"]
    assert len(failed) == 1
    sent = [p for p in EMAILS if p not in failed]
    assert said() == (f"Turn 1 letters sent to {', '.join(sent[:-1])} and {sent[-1]}. "
                      "Turn 1 letters not sent (why: under “Letters not sent”): "
                      f"{failed[0]}.")


def test_two_servers_on_one_database_send_each_letter_once(
        console_url: str, tmp_path: Path, smtp_server: Server) -> None:
    first = open_console(console_url, tmp_path / "files1")
    second = open_console(console_url, tmp_path / "files2")
    try:
        senders = [attach(first, smtp_server), attach(second, smtp_server)]
        created = first.create_game(SPEC)
        first.enter(created.id, "orders", {"orders": ORDERS}, {})
        opener = Opener(created.gm_token, BASE)
        published, refused = [], []

        def publish(console: Console) -> None:  # both servers publish turn 1 at once
            try:
                console.enter(created.id, "publish", {}, {"turn": 1}, opener=opener)
                published.append(console)
            except Problems:
                refused.append(console)

        threads = [threading.Thread(target=publish, args=(c,)) for c in (first, second)]
        threads += [threading.Thread(target=drain, args=(s,)) for s in senders]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        for made in senders:
            drain(made)
        assert len(published) >= 1
        assert sorted(by_player(smtp_server)) == ["Ann", "Bob", "Cy", "Dee"]  # once each
        assert len(smtp_server.inbox.ids()) == len(set(smtp_server.inbox.ids())) == 4
    finally:
        first.close()
        second.close()


KILLED = textwrap.dedent("""
    import os, signal, sys
    from kit.console.service import open_console
    from kit.console.mail.book import Opener
    from kit.mail.outbox import Sender, SenderThread
    from kit.mail.smtp import SmtpServer

    console = open_console(sys.argv[1], None)
    sender = Sender(console.store.engine, SmtpServer.parse(sys.argv[2]), "gm@example.org")
    console.mail.attach(SenderThread(sender))  # never started: killed before any send
    game, token = sys.argv[3], sys.argv[4]
    console.enter(game, "publish", {}, {"turn": 1}, opener=Opener(token, sys.argv[5]))
    os.kill(os.getpid(), signal.SIGKILL)  # right after the commit, before the sender runs
""")


def test_a_server_killed_between_the_publish_and_the_send_loses_no_letter(
        console: Console, console_url: str, smtp_server: Server) -> None:
    created = console.create_game(SPEC)
    console.enter(created.id, "orders", {"orders": ORDERS}, {})
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run([sys.executable, "-c", KILLED, console_url, smtp_server.url(),
                           created.id, created.gm_token, BASE], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == -9, done.stderr
    assert smtp_server.inbox.messages == []
    assert console.state(created.id).view.data["published"] == 1
    assert len(rows(console)) == 4  # committed with the publish
    drain(sender(console, smtp_server))  # the next server to start sends them
    assert sorted(by_player(smtp_server)) == ["Ann", "Bob", "Cy", "Dee"]


def test_a_failing_server_is_retried_and_each_letter_arrives_once(
        console: Console, smtp_server: Server) -> None:
    made = attach(console, smtp_server)
    created = console.create_game(SPEC)
    smtp_server.inbox.fail_next = 3  # 451 three times
    play_turn(console, created.id, created.gm_token)
    drain(made)
    assert smtp_server.inbox.refused == 3
    assert sorted(by_player(smtp_server)) == ["Ann", "Bob", "Cy", "Dee"]
    assert {r.state for r in rows(console)} == {"sent"}
    assert max(r.attempts for r in rows(console)) >= 2


def test_remind_the_missing_goes_once_a_turn_to_those_with_an_address(
        console: Console, smtp_server: Server) -> None:
    from kit.console.mail.postbox import remind

    made = attach(console, smtp_server)
    created = console.create_game(SPEC)
    console.enter(created.id, "orders", {"orders": {"Ann": [291], "Bob": [304]}}, {})
    opener = Opener(created.gm_token, BASE)
    answer = remind(console, created.id, opener)
    assert answer["turn"] == 1
    assert answer["missing"] == ["Cy", "Dee", "Eve"]
    assert answer["queued"] == ["Cy", "Dee"] and answer["without_address"] == ["Eve"]
    assert remind(console, created.id, opener)["before"] == ["Cy", "Dee"]  # a second press
    drain(made)
    letters = by_player(smtp_server)
    assert sorted(letters) == ["Cy", "Dee"]
    tokens = created.tokens("player")
    body = letters["Cy"].get_body(("plain",)).get_content()
    assert letters["Cy"]["Subject"] == "Game night: your orders for turn 1"
    assert "no orders from you for turn 1" in body
    assert f"{BASE}/console/{created.id}/p/{tokens['Cy']}" in body


def test_without_a_mail_server_a_publish_queues_nothing_and_the_gm_has_drafts(
        client, console: Console) -> None:  # noqa: ANN001
    created = console.create_game(SPEC)
    headers = {"authorization": f"Bearer {created.gm_token}"}
    assert client.post(f"/api/games/{created.id}/turns", json={"orders": ORDERS},
                       headers=headers).status_code == 201
    reminders = client.post(f"/api/games/{created.id}/remind", headers=headers).json()
    assert sorted(reminders["drafts"]) == ["Dee"]
    assert reminders["drafts"]["Dee"]["mailto"].startswith("mailto:dee@example.org?subject=")
    assert client.post(f"/api/games/{created.id}/turns/1/publish",
                       headers=headers).status_code == 200
    assert rows(console) == []
    draft = client.get(f"/api/games/{created.id}/drafts/Ann.eml", headers=headers)
    assert draft.status_code == 200 and draft.headers["content-type"] == "message/rfc822"
    parsed = email.message_from_bytes(draft.content, policy=email.policy.default)
    assert parsed["To"] == "ann@example.org" and parsed["X-Unsent"] == "1"
    base = str(client.base_url).rstrip("/")
    assert f"{base}/console/{created.id}/p/{created.tokens('player')['Ann']}" in \
        parsed.get_body(("plain",)).get_content()
    assert client.get(f"/api/games/{created.id}/drafts/Eve.eml",
                      headers=headers).status_code == 404  # no address
    assert client.get(f"/api/games/{created.id}/drafts/Ann.eml").status_code == 401
    player = {"authorization": f"Bearer {created.tokens('player')['Ann']}"}
    assert client.get(f"/api/games/{created.id}/drafts/Ann.eml",
                      headers=player).status_code == 403  # a player's token is no GM's
    client.get(f"/console/{created.id}/gm/{created.gm_token}")  # the GM cookie
    page = client.get(f"/console/{created.id}/gm").text
    links = [unquote(link) for link in re.findall(r'href="(mailto:[^"]+)"', page)]
    # turn 1's letter and turn 2's reminder (nobody's orders are in yet) for each address
    assert [link.split("&amp;")[0] for link in links] == [
        f"mailto:{a}?subject=Game night: {s}" for a in EMAILS.values()
        for s in ("turn 1 report", "your orders for turn 2")]
    assert f'/console/{created.id}/mail/Bob.eml?kind=report' in page


def test_addresses_are_checked_changed_and_removed(client, console: Console) -> None:  # noqa: ANN001
    refused = client.post("/api/games", json={**SPEC, "emails": {"Ann": "not an address",
                                                                 "Zed": "zed@example.org"}})
    assert refused.status_code == 422
    assert [e["text"] for e in refused.json()["errors"]] == [
        "emails: Ann: 'not an address' is not one e-mail address (name@domain)",
        "emails: “Zed” is not a player of this game; the players are Ann, Bob, Cy, Dee, Eve"]
    created = console.create_game(SPEC)
    headers = {"authorization": f"Bearer {created.gm_token}"}
    path = f"/api/games/{created.id}/emails"
    assert client.put(f"{path}/Eve", json={"address": "eve@example.org"},
                      headers=headers).json() == {"player": "Eve", "address": "eve@example.org"}
    assert client.delete(f"{path}/Ann", headers=headers).json() == {"player": "Ann",
                                                                    "address": None}
    bad = client.put(f"{path}/Bob", json={"address": "bob@"}, headers=headers)
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "emails"
    assert client.put(f"{path}/Zed", json={"address": "z@example.org"},
                      headers=headers).status_code == 422
    assert client.get(path, headers=headers).json() == {
        "emails": {"Bob": "bob@example.org", "Cy": "cy@example.org", "Dee": "dee@example.org",
                   "Eve": "eve@example.org"}, "sending": False, "attach_pdf": False,
        "receipts": False, "failed": []}
    player = {"authorization": f"Bearer {created.tokens('player')['Bob']}"}
    assert client.get(path, headers=player).status_code == 403


def test_a_sealed_link_opens_with_the_gm_token_only(console: Console) -> None:
    created = console.create_game(SPEC)
    with console.store.engine.connect() as conn:
        stored = conn.execute(sa.select(sealed.sealed_links)).all()
        assert len(stored) == 5
        tokens = created.tokens("player")
        dump = " ".join(str(tuple(r)) for r in stored)
        assert not any(t in dump for t in tokens.values())  # no token in the clear
        assert book.links(conn, created.id, Opener(created.gm_token, BASE)) == {
            n: f"{BASE}/console/{created.id}/p/{t}" for n, t in tokens.items()}
        assert book.links(conn, created.id, Opener(tokens["Ann"], BASE)) == {}
    box = sealed.seal("gm", "g1", ("player", "Ann"), "tok")
    assert sealed.unseal("gm", "g1", ("player", "Ann"), box) == "tok"
    assert sealed.unseal("gm", "g1", ("player", "Bob"), box) is None  # bound to its player
    assert sealed.unseal("gm", "g1", ("table", "Ann"), box) is None  # and to its seat's kind
    assert sealed.unseal("other", "g1", ("player", "Ann"), box) is None


def test_the_gm_s_slips_carry_each_player_s_link_as_a_code_that_reads_back(
        client, console: Console) -> None:  # noqa: ANN001
    from support.helpers import decoded
    from support.print_lint import lint_pdf

    made = client.post("/api/games", json={**SPEC, "lang": "fr"}).json()
    headers = {"authorization": f"Bearer {made['gm_token']}"}
    pdf = client.get(f"/api/games/{made['id']}/slips.pdf", headers=headers)
    assert pdf.status_code == 200 and pdf.headers["cache-control"] == "no-store"
    assert decoded(pdf.content) == sorted(made["player_links"].values())
    assert lint_pdf(pdf.content, "console slips fr") == []
    player = {"authorization": f"Bearer {made['player_tokens']['Ann']}"}
    assert client.get(f"/api/games/{made['id']}/slips.pdf", headers=player).status_code == 403
    client.get(made["gm_url"])  # the GM cookie: the page's link gives the same file
    page = client.get(f"/console/{made['id']}/gm").text
    assert f'href="/console/{made["id"]}/mail/slips.pdf"' in page
    assert client.get(f"/console/{made['id']}/mail/slips.pdf").content == pdf.content


def test_rotated_links_are_the_ones_the_letters_and_slips_carry(client, console: Console
                                                                 ) -> None:  # noqa: ANN001
    made = client.post("/api/games", json=SPEC).json()
    game, gm = made["id"], {"authorization": f"Bearer {made['gm_token']}"}
    new_ann = client.post(f"/api/games/{game}/players/Ann/rotate", headers=gm).json()
    new_gm = client.post(f"/api/games/{game}/rotate", headers=gm).json()["token"]
    base = str(client.base_url).rstrip("/")
    with console.store.engine.connect() as conn:
        opened = book.links(conn, game, Opener(new_gm, base))
        assert book.links(conn, game, Opener(made["gm_token"], base)) == {}  # the old GM's
    assert opened == {**made["player_links"], "Ann": new_ann["link"]}


def test_links_sealed_before_the_seats_table_still_open_after_its_migration(tmp_path: Path
                                                                           ) -> None:
    from alembic import command
    from alembic.config import Config

    import kit.db
    from kit.db.engine import make_engine, migrate

    url = database_url_of(str(tmp_path / "old.db"))
    engine = make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(kit.db.__file__).with_name(
        "migrations")))
    with engine.connect() as conn, conn.begin():  # a database as the links were sealed in
        config.attributes["connection"] = conn
        command.upgrade(config, "0005")
        conn.execute(sa.text("INSERT INTO games VALUES ('g1', 'whats-my-number', '{}', 'h', 1, "
                             "0)"))
        conn.execute(sa.text("INSERT INTO seat_tokens VALUES ('g1', 'player', 'Ann', :h)"),
                     {"h": token_hash("ann-token")})
        conn.execute(sa.text("INSERT INTO mail_players VALUES ('g1', 'Ann', 'a@example.org', "
                             ":s)"), {"s": sealed.seal("gm", "g1", ("player", "Ann"),
                                                       "ann-token")})
    migrate(engine)
    with engine.connect() as conn:
        assert book.links(conn, "g1", Opener("gm", BASE)) == {
            "Ann": f"{BASE}/console/g1/p/ann-token"}
        assert book.addresses(conn, "g1") == {"Ann": "a@example.org"}
        assert conn.execute(sa.text("SELECT sealed FROM mail_players")).scalars().all() == [
            None]  # the link is kept once, sealed in its new place
    engine.dispose()
