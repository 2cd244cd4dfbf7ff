"""The game master's e-mail section in Chromium (Playwright), with ``kit serve --smtp`` running
as a process of its own and a real SMTP server on loopback (aiosmtpd, ``mail_server``).

A 5-player What's My Number? game is made through the JSON API, three players with an
address, who each get one invitation with their own link. On the GM page the game master gives
Dee an address, changes Bob's, presses "Send invitations" (which invites those two alone),
ticks the box that attaches the PDFs, enters every player's orders in the grid and publishes
turn 1: the server gets exactly one letter per player with an address (Eve has none), to that
address, with that player's own slip, the turn's report, their link and the two PDFs, read back with
pypdf (the slip PDF holds its player's own guesses, never another player's secret or
guesses); the e-mail section then says to whom the turn's letters were sent. On turn 2
"Remind the missing" sends one reminder to each player with an address whose orders are not
in; a second press queues none. The page's notices are checked in its own words.
"""

from __future__ import annotations

import email.message
import io
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from support.helpers import require_browser, stop, writes_number

pytestmark = pytest.mark.slow

require_browser()
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install '.[test]'")

import httpx  # noqa: E402
from playwright.sync_api import Locator, Page  # noqa: E402
from pypdf import PdfReader  # noqa: E402
from support.console_db import free_port  # noqa: E402
from support.helpers import kit_serve  # noqa: E402
from support.mail_server import Server  # noqa: E402
from test_console_browser import api, browser, fill_grid, gm_login, open_page  # noqa: E402, F401

from kit.console.mail.letters import RULE  # noqa: E402

FROM = "game-master@example.org"
SECRETS = {"Ann": 417, "Bob": 538, "Cy": 629, "Dee": 746, "Eve": 853}
PLAYERS = list(SECRETS)
EMAILS = {"Ann": "ann@example.org", "Bob": "bob@example.org", "Cy": "cy@example.org"}
GIVEN = {"Dee": "dee@example.net", "Bob": "bob.new@example.net"}  # typed on the page
ADDRESSES = {**EMAILS, **GIVEN}  # Eve: none
ORDERS = {"Ann": [291, 333], "Bob": [304, 477], "Cy": [702, 388], "Dee": [155, 266],
          "Eve": [911, 820]}  # no guess is another player's secret
WAIT_S = 45.0  # a bound on each wait; a working run needs a few seconds


def wait_until(ready: Callable[[], bool], what: Callable[[], str], seconds: float = WAIT_S
               ) -> None:
    """Poll ``ready`` until it holds; past ``seconds``, fail saying ``what`` was seen."""
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds:.0f} s: {what()}")
        time.sleep(0.05)


@pytest.fixture(scope="module")
def smtp() -> Iterator[Server]:
    server = Server()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def mail_console(smtp: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``kit serve --smtp`` on a free port with a SQLite database of its own; its base URL."""
    folder = tmp_path_factory.mktemp("mail-console")
    port = free_port()
    process = kit_serve(folder, port, "--database", str(folder / "console.sqlite3"),
                        "--smtp", smtp.url(), "--mail-from", FROM)
    output: list[bytes] = []
    reader = threading.Thread(target=lambda: output.extend(process.stdout or []), daemon=True)
    reader.start()  # read its output as it comes, so a full pipe never blocks it
    base = f"http://127.0.0.1:{port}"

    def healthy() -> bool:
        assert process.poll() is None, b"".join(output).decode()[-2000:]
        try:
            return httpx.get(f"{base}/healthz", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_until(healthy, lambda: "kit serve did not answer /healthz\n"
                   + b"".join(output).decode()[-2000:], 90)
        yield base
    finally:
        stop(process)
        reader.join(10)


def letters(smtp: Server) -> list[email.message.EmailMessage]:
    """Every letter the server has received so far."""
    with smtp.inbox.lock:
        return list(smtp.inbox.messages)


def received(smtp: Server, count: int, kind: str) -> list[email.message.EmailMessage]:
    """Wait until ``count`` letters whose subject says ``kind`` are in; exactly those."""
    def those() -> list[email.message.EmailMessage]:
        return [m for m in letters(smtp) if kind in m["Subject"]]

    wait_until(lambda: len(those()) >= count,
               lambda: f"{len(those())} of {count} letters ({kind!r}) received; all: "
               f"{[(m['To'], m['Subject']) for m in letters(smtp)]}")
    return those()


def pdf_text(data: bytes) -> str:
    """A PDF's text, its spaces and line ends made single spaces."""
    reader = PdfReader(io.BytesIO(data))
    return " ".join(" ".join(p.extract_text() or "" for p in reader.pages).split())


def plain(text: str) -> str:
    """``text`` without the marks that isolate each name's direction, and with plain line
    ends."""
    return re.sub("[\u2066-\u2069]", "", text).replace("\r\n", "\n")


def numbers_of(player: str) -> set[int]:
    """The numbers only ``player`` and the game master know: their secret, their guesses."""
    return {SECRETS[player], *ORDERS[player]}


def notice(page: Page) -> str:
    """What the e-mail section's notice says."""
    return page.locator("#mail p.notice").inner_text()


def letters_said(page: Page, reload: bool = True) -> str:
    """What the e-mail section says of the published turn's letters (after a reload)."""
    if reload:
        page.reload()
    shown = page.locator("#mail-letters")
    return plain(shown.inner_text()).strip() if shown.count() else ""


def press(page: Page, button: Locator, lands: str) -> None:
    """Press ``button`` and wait for the page it posts to; its address must match ``lands``
    (a wrong landing fails at once, saying where it went)."""
    with page.expect_navigation():
        button.click()
    assert re.search(lands, page.url), f"{page.url} is not {lands}"


def give_address(page: Page, player: str, address: str) -> None:
    """Type ``player``'s address in their row of the e-mail section and press its Save."""
    page.get_by_label(f"E-mail address of {player}", exact=True).fill(address)
    row = page.locator("#mail tbody tr", has=page.locator(f"th:text-is('{player}')"))
    press(page, row.get_by_role("button", name="Save"), r"\?address=1.*#mail$")
    assert notice(page) == "Address saved."


def check_turn_letter(name: str, message: email.message.EmailMessage, made: dict[str, Any],
                      report_txt: str, report_pdf: bytes) -> None:
    """One player's turn 1 letter: their address, slip, link, the report, the two PDFs."""
    assert message["To"] == ADDRESSES[name]
    assert message["From"] == f"number-party-kit <{FROM}>"  # a game without a title
    assert message["Subject"] == "Game night: turn 1 report"
    body = plain(message.get_body(preferencelist=("plain",)).get_content())
    assert f"Hello {name}, the game master has published turn 1." in body
    assert made["player_links"][name] in body  # their own link, not another's
    assert not any(link in body for p, link in made["player_links"].items() if p != name)
    slip, report = body.split("Turn 1 report (every player gets it)")
    assert "Your slip (for you alone)" in slip
    guesses = ", ".join(map(str, ORDERS[name]))
    assert f"{name} · turn 1 · private\nOrders received: guesses {guesses}." \
        in slip, slip  # their own slip, their own guesses
    assert report.split(RULE)[-1].strip() == report_txt.strip()  # the public's report
    files = {part.get_filename(): part.get_content() for part in message.iter_attachments()}
    assert sorted(files) == ["slips-turn-1.pdf", "turn-1.pdf"], (name, sorted(files))
    assert files["turn-1.pdf"] == report_pdf  # the report the public page links
    slip_pdf, report_text = pdf_text(files["slips-turn-1.pdf"]), pdf_text(files["turn-1.pdf"])
    assert f"{name} · turn 1 · private" in slip_pdf, slip_pdf[:300]
    assert all(writes_number(n, slip_pdf) for n in ORDERS[name]), (name, slip_pdf[:300])
    for other in PLAYERS:
        if other == name:
            continue
        assert f"{other} · turn" not in slip_pdf, (name, other)
        for text in (body, slip_pdf, report_text):
            leaked = {n for n in numbers_of(other) - numbers_of(name) if writes_number(n, text)}
            assert not leaked, f"{name}'s letter shows {other}'s {leaked}"


@pytest.fixture
def page(browser) -> Iterator[Page]:  # noqa: F811
    """A 1280x800 page; no script error, CSP violation or missing file on it."""
    page = open_page(browser)
    yield page
    problems = page.problems  # type: ignore[attr-defined]
    page.context.close()
    assert problems == [], problems


def test_the_gm_mails_a_turn_with_pdfs_and_reminds_the_missing(page: Page, mail_console: str,
                                                                smtp: Server) -> None:
    base = mail_console
    status, made = api(base, "/api/games", {
        "game": "whats-my-number", "players": PLAYERS, "secrets": SECRETS,
        "range": "100-999", "emails": EMAILS})
    assert status == 201, made
    assert made["invited"] == ["Ann", "Bob", "Cy"]
    game_id = made["id"]
    invited = received(smtp, len(EMAILS), "your invitation")
    assert sorted(m["To"] for m in invited) == sorted(EMAILS.values())
    for message in invited:
        name = next(p for p, a in EMAILS.items() if a == message["To"])
        assert made["player_links"][name] in message.get_body(("plain",)).get_content()
    gm_login(page, base, game_id, made["gm_token"])
    section = page.locator("#mail")
    assert "each player with an address gets one message: their link, their own slip and " \
        "the turn’s report" in section.inner_text()
    assert page.get_by_label("E-mail address of Ann", exact=True).input_value() == EMAILS["Ann"]
    assert page.get_by_label("E-mail address of Dee", exact=True).input_value() == ""
    for player, address in GIVEN.items():
        give_address(page, player, address)
    assert {p: page.get_by_label(f"E-mail address of {p}", exact=True).input_value()
            for p in PLAYERS} == {**ADDRESSES, "Eve": ""}
    box = page.get_by_label("Attach the turn’s report and the player’s own slip as PDF")
    assert not box.is_checked()
    box.check()
    press(page, page.locator("#mail form", has=box).get_by_role("button", name="Save"),
          r"\?attach=1.*#mail$")
    assert notice(page) == ("Each turn letter will carry the turn’s report and the player’s "
                            "own slip as PDF.")
    assert page.get_by_label("Attach the turn’s report and the player’s own slip as PDF"
                             ).is_checked()
    press(page, page.get_by_role("button", name="Send invitations"), r"\?invited=2.*#mail$")
    assert notice(page) == "Invitations queued for 2 players."  # Dee's, and Bob's new address
    invited = received(smtp, len(EMAILS) + 2, "your invitation")
    assert sorted(m["To"] for m in invited[len(EMAILS):]) == sorted(GIVEN.values())
    assert len(letters(smtp)) == len(invited)  # nothing else goes out before a publish

    fill_grid(page, ORDERS, PLAYERS)
    press(page, page.get_by_role("button", name="Publish turn 1"), r"\?published=1")
    assert page.inner_text("#grid p.notice-ok") == "Turn 1 is published: its report is below."
    first = received(smtp, len(ADDRESSES), "turn 1 report")
    assert sorted(m["To"] for m in first) == sorted(ADDRESSES.values())  # one each; not Eve
    files = f"{base}/console/{game_id}/files"
    report_txt = page.request.get(f"{files}/report.txt").text()
    report_pdf = page.request.get(f"{files}/turn-1.pdf").body()
    by_address = {m["To"]: m for m in first}
    for name, address in ADDRESSES.items():
        check_turn_letter(name, by_address[address], made, report_txt, report_pdf)
    assert EMAILS["Bob"] not in {m["To"] for m in first}  # his old address: an invitation only
    assert letters_said(page, reload=False).startswith("Turn 1 letters ")  # queued or sent
    wait_until(lambda: letters_said(page) == "Turn 1 letters sent to Ann, Bob, Cy and Dee.",
               lambda: f"the page says {letters_said(page, reload=False)!r}")

    fill_grid(page, {"Ann": [292]}, PLAYERS)  # turn 2: only Ann's orders are in
    press(page, page.get_by_role("button", name="Save entries"), r"\?saved=1")
    assert ("A short reminder to each player with an address whose orders are not in: Bob, "
            "Cy, Dee and Eve.") in plain(section.inner_text())
    press(page, page.get_by_role("button", name="Remind the missing"), r"\?reminded=3.*#mail$")
    assert notice(page) == "Reminders queued for 3 players."
    reminders = received(smtp, 3, "your orders for turn 2")
    assert sorted(m["To"] for m in reminders) == sorted(ADDRESSES[p] for p in ("Bob", "Cy",
                                                                               "Dee"))
    for message in reminders:
        name = next(p for p, a in ADDRESSES.items() if a == message["To"])
        body = message.get_body(("plain",)).get_content()
        assert f"Hello {name}, the game master has no orders from you for turn 2 yet." in body
        assert made["player_links"][name] in body
        assert not list(message.iter_attachments())
    press(page, page.get_by_role("button", name="Remind the missing"), r"\?reminded=0.*#mail$")
    assert notice(page) == "Reminders queued for 0 players."  # one reminder a turn
    assert len(letters(smtp)) == len(EMAILS) + len(GIVEN) + len(ADDRESSES) + 3


def test_wait_until_fails_with_what_it_saw() -> None:
    """The bounded wait gives up with a message, never loops for ever."""
    with pytest.raises(AssertionError, match="not within 0 s: 2 of 3"):
        wait_until(lambda: False, lambda: "2 of 3", 0.1)
