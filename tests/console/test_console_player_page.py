"""A player's own page (SQLite and PostgreSQL), without script: this turn's allowance, the
echo of the orders received with their rulings, every problem at once, a stale form's 409
with its entry kept, the slips after a publish, a wrong link, and no page or text that holds
another player's secret or guesses."""

from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402

from kit.console.quota import POSTS_PER_MINUTE  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SECRETS = {"Ann": 17, "Bob": 42, "Cy": 8, "Dee": 55, "Eve": 29}
ORDERS = {"Ann": {"g1": "33", "g2": "63", "g3": "5"}, "Bob": {"g1": "44", "g2": "21"},
          "Cy": {"send": "list", "l0": "18", "l1": "41"}, "Dee": {"g1": "9"},
          "Eve": {"g1": "11", "g2": "12"}}


def text(page: str) -> str:
    """The page's main text, tags removed."""
    main = page[page.index("<main"):page.index("</main>")]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", main)))


@pytest.fixture
def game(client: TestClient) -> dict:
    answer = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                             "secrets": SECRETS, "range": "1-60"})
    assert answer.status_code == 201, answer.text
    return answer.json()


def page_of(game: dict, player: str) -> str:
    return f"/console/{game['id']}/p/{game['player_tokens'][player]}"


def send(client: TestClient, game: dict, player: str, values: dict, **kw):
    return client.post(page_of(game, player), data={"turn": "1", "send": "guesses", **values},
                       **kw)


def test_the_page_shows_the_allowance_and_echoes_the_rulings(client: TestClient,
                                                            game: dict) -> None:
    first = client.get(page_of(game, "Ann"))
    assert first.status_code == 200
    # works without script: the one script is the live pages' file, which only follows the game
    assert re.findall(r"<script[^>]*>", first.text) == ['<script src="/console/live.js" defer>']
    assert f'data-events="{page_of(game, "Ann")}/events"' in first.text
    assert "script-src 'self'; connect-src 'self'" in first.headers["content-security-policy"]
    seen = text(first.text)
    assert "Numbers from 1 to 60" in seen
    assert "Turn 1: you may make 2 guesses" in seen and "Your secret number: 17" in seen
    assert "No orders received from you yet this turn." in seen
    assert 'id="g3"' in first.text and "Guess 3 (over your allowance: it will be ignored)" \
        in seen
    sent = send(client, game, "Ann", ORDERS["Ann"], follow_redirects=False)
    assert sent.status_code == 303
    assert sent.headers["location"] == page_of(game, "Ann") + "?sent=1#received"
    seen = text(client.get(sent.headers["location"]).text)
    assert "Your orders were received." in seen
    # a reloaded echo of another turn, or of nothing sent, says nothing it cannot stand by
    other = text(client.get(page_of(game, "Ann") + "?sent=2").text)
    assert "Your orders were received." not in other
    unsent = text(client.get(page_of(game, "Bob") + "?sent=1").text)
    assert "Your orders were received." not in unsent
    assert "No orders received from you yet this turn." in unsent
    assert re.search(r"Received at \d\d:\d\d, sent by you: 33, 63, 5", seen), seen
    assert "3 guesses, 2 allowed: guess 3 will be ignored" in seen
    assert "63 is outside 1 to 60: void" in seen
    listed = send(client, game, "Cy", {"send": "list", "l0": "18"}, follow_redirects=True)
    assert "your list leaves out Cy" not in text(listed.text)
    assert "your list leaves out Bob, Dee, Eve: its right numbers count, but it cannot win" \
        in text(listed.text)


def test_every_problem_at_once_and_nothing_saved(client: TestClient, game: dict) -> None:
    bad = send(client, game, "Bob", {"g1": "", "g2": "5O", "g3": "x"})
    assert bad.status_code == 422
    seen = text(bad.text)
    assert "2 problems to fix" in seen  # an empty box is a place kept, not a problem
    assert "Guess 2: “5O” is not a whole number." in seen and 'href="#g2"' in bad.text
    # each refused box says so itself, for a screen reader following the link
    assert re.search(r'id="g2"[^>]*aria-invalid="true" aria-describedby="g2-problem"', bad.text)
    assert re.search(r'<p class="field-problem" id="g2-problem">Guess 2: “5O”', bad.text)
    assert not re.search(r'id="g1"[^>]*aria-invalid', bad.text)
    assert "Guess 3: “x” is not a whole number." in seen and 'href="#g3"' in bad.text
    empty = send(client, game, "Bob", {"g1": " ", "g2": ""})
    assert empty.status_code == 422 and "Write at least one guess." in text(empty.text)
    bad = send(client, game, "Bob", {"send": "list", "l0": "70", "l2": "x"})
    assert bad.status_code == 422
    seen = text(bad.text)
    assert "Dee: x is not a whole number" in seen
    assert "the list gives Ann 70, outside the range 1 to 60" in seen  # the engine's, too
    assert "No orders received from you yet this turn." in seen


def test_an_empty_box_keeps_its_place_as_in_the_gm_grid(client: TestClient,
                                                        game: dict) -> None:
    from kit.games.whats_my_number.console.grid import read_grid
    from kit.i18n import words

    posted = {"g1": "33", "g2": "", "g3": "5"}
    sent = send(client, game, "Ann", posted, follow_redirects=True)
    assert sent.status_code == 200, text(sent.text)
    seen = text(sent.text)
    assert re.search(r"sent by you: 33, —, 5", seen), seen
    assert "guess 3 will be ignored" in seen  # the third stays the third
    assert "An empty box keeps its guess’s place" in seen
    gm = {"Authorization": f"Bearer {game['gm_token']}"}
    turn = client.get(f"/api/games/{game['id']}/state.json", headers=gm).json()
    grid = read_grid({f"g0_{k}": v for k, v in (("1", "33"), ("2", ""), ("3", "5"))},
                     ["Ann"], {"Ann": 2}, {}, words("en"))
    assert grid.ok and grid.orders == {"Ann": [33, "", 5]}
    assert [33, "", 5] in [v for v in _values(turn)], turn


def _values(data):
    """Every value nested in ``data``."""
    if isinstance(data, dict):
        for v in data.values():
            yield v
            yield from _values(v)
    elif isinstance(data, list):
        for v in data:
            yield from _values(v)


def me_orders(client: TestClient, game: dict, player: str) -> object:
    token = game["player_tokens"][player]
    return client.get(f"/api/games/{game['id']}/me.json",
                      headers={"Authorization": f"Bearer {token}"}).json()["orders"]


def test_a_stale_form_gets_409_with_its_entry_kept(client: TestClient, game: dict) -> None:
    gm = {"Authorization": f"Bearer {game['gm_token']}"}
    assert client.post(f"/api/games/{game['id']}/turns/1/close", headers=gm).status_code == 200
    closed = send(client, game, "Dee", {"g1": "38"})
    assert closed.status_code == 409
    assert "turn 1 is closed: the game master takes no more changes" in text(closed.text)
    assert "What you sent: 38" in text(closed.text)
    assert "This turn is closed" in text(client.get(page_of(game, "Dee")).text)
    client.post(f"/api/games/{game['id']}/turns/1/reopen", headers=gm)
    client.post(f"/api/games/{game['id']}/turns/1/publish", headers=gm)
    stale = send(client, game, "Dee", {"g1": "38"})
    assert stale.status_code == 409
    assert "your orders were for turn 1, which is over; turn 2 is open" in text(stale.text)
    assert 'name="g1" value="38"' in stale.text
    garbled = send(client, game, "Dee", {"turn": "x", "g1": "38"})  # not a way past the check
    assert garbled.status_code == 422
    assert "must be a whole number (the turn your orders are for)" in text(garbled.text)
    assert me_orders(client, game, "Dee") is None  # nothing was recorded for turn 2


def test_a_wrong_or_replaced_link_opens_nothing(client: TestClient, game: dict) -> None:
    assert client.get(f"/console/{game['id']}/p/{game['gm_token']}").status_code == 404
    gm = {"Authorization": f"Bearer {game['gm_token']}"}
    old = page_of(game, "Eve")
    new = client.post(f"/api/games/{game['id']}/players/Eve/rotate", headers=gm).json()
    assert client.get(old).status_code == 404
    assert send(client, {**game, "player_tokens": {"Eve": "x"}}, "Eve", {"g1": "3"}
                ).status_code == 404
    assert client.get(new["link"].replace("http://testserver", "")).status_code == 200


def test_no_page_holds_another_players_secret_or_guesses(client: TestClient,
                                                        game: dict) -> None:
    gm = {"Authorization": f"Bearer {game['gm_token']}"}
    for player, values in ORDERS.items():
        assert send(client, game, player, values, follow_redirects=False).status_code == 303
    assert client.post(f"/api/games/{game['id']}/turns/1/publish", headers=gm).status_code == 200
    send(client, {**game}, "Ann", {"turn": "2", "g1": "47"})  # unpublished, Ann's own
    for player in PLAYERS:
        page = client.get(page_of(game, player)).text
        own_text = re.sub(r"\b\d\d:\d\d\b", "",
                          client.get(page_of(game, player) + "/report.txt").text)
        seen = re.sub(r"\b\d\d:\d\d\b", "", text(page))  # "Received at 18:29": a time
        assert f"{player} · turn 1 · private" in seen.replace("\u2068", "").replace("\u2069", "")
        for other in PLAYERS:
            if other == player:
                continue
            for number in [SECRETS[other], *(int(v) for k, v in ORDERS[other].items()
                                             if k != "send")]:
                for where, body in (("page", seen), ("text", own_text)):
                    if number in (SECRETS[player],):
                        continue  # one's own secret may be the same number
                    assert not re.search(rf"(?<![\d.]){number}(?![\d.])", body), \
                        (player, other, number, where)
        if player != "Ann":
            assert "47" not in seen and "47" not in own_text


def test_the_page_speaks_the_players_language(client: TestClient, game: dict) -> None:
    page = client.get(page_of(game, "Bob") + "?lang=fr")
    assert page.status_code == 200 and 'lang="fr"' in page.text
    assert "Tour 1 : vous pouvez faire 2 essais" in text(page.text)
    refused = client.post(page_of(game, "Bob") + "?lang=fr",
                          data={"turn": "1", "send": "guesses", "g1": "abc"})
    assert "Essai 1 : « abc » n’est pas un nombre entier." in text(refused.text)


def test_a_form_posted_past_the_pace_gets_429_saying_when_to_send_again(
        client: TestClient, game: dict) -> None:
    for n in range(POSTS_PER_MINUTE):
        assert send(client, game, "Bob", {"g1": str(10 + n)},
                    follow_redirects=False).status_code == 303
    fast = client.post(page_of(game, "Bob") + "?lang=fr",
                       data={"turn": "1", "send": "guesses", "g1": "99"})
    assert fast.status_code == 429 and 1 <= int(fast.headers["retry-after"]) <= 60
    wait = fast.headers["retry-after"]
    assert (f"{POSTS_PER_MINUTE} envois depuis votre lien dans la dernière minute ; attendez "
            f"{wait} secondes, puis envoyez de nouveau (vos derniers ordres sont gardés)"
            ) in text(fast.text).replace("\u202f", " ").replace("\u00a0", " ")
    assert 'name="g1" value="99"' in fast.text  # what was typed is kept on the page
    assert me_orders(client, game, "Bob") == [10 + POSTS_PER_MINUTE - 1]


def test_a_post_says_which_orders_it_replaced(client: TestClient, game: dict) -> None:
    """The same link on two phones: the later post says what it replaced and when; the
    player's data holds only their own earlier orders, and only the latest."""
    first = text(send(client, game, "Ann", {"g1": "45", "g2": "2"},
                      follow_redirects=True).text)
    assert "Your orders were received." in first and "replaced" not in first
    listed = {"send": "list", "l0": "12", "l1": "27", "l2": "4", "l3": "40"}
    second = text(send(client, game, "Ann", listed, follow_redirects=True).text)
    assert re.search(r"Your orders were received\. They replaced the ones you sent at "
                     r"\d\d:\d\d: 45, 2\.", second), second
    third = text(send(client, game, "Ann", {"g1": "7"}, follow_redirects=True).text)
    assert re.search(r"They replaced the ones you sent at \d\d:\d\d: list: Bob 12, Cy 27, "
                     r"Dee 4, Eve 40\.", third), third
    assert "45, 2" not in third  # the latest replaced only
    gm = {"Authorization": f"Bearer {game['gm_token']}"}
    client.post(f"/api/games/{game['id']}/turns", json={"orders": {"Bob": [30, 31]}},
                headers=gm)
    bob = text(send(client, game, "Bob", {"g1": "8"}, follow_redirects=True).text)
    assert "They replaced the ones the game master entered: 30, 31." in bob
    others = client.get(page_of(game, "Cy")).text  # nothing of Ann's or Bob's on Cy's page
    assert "45, 2" not in others and "30, 31" not in others


def test_the_plain_page_is_kept_compressed_until_the_game_moves(client: TestClient, game: dict,
                                                                console) -> None:
    url = page_of(game, "Ann")
    packed = client.get(url, headers={"accept-encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.headers["vary"] == "accept-language, cookie, accept-encoding"
    assert int(packed.headers["content-length"]) < len(packed.content)  # as sent: smaller
    plain = client.get(url, headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text == packed.text
    assert plain.headers["content-security-policy"] == packed.headers["content-security-policy"]
    kept = [key for key in console.answers._values if key[0] == "player page"]
    assert len(kept) == 1 and kept[0][3] == "Ann" and kept[0][4] == url
    # the page moves with the journal: Ann's own post shows at once, and so does Bob's
    # (it changes nothing of what Ann sees, but a new version is a new page)
    assert send(client, game, "Ann", ORDERS["Ann"], follow_redirects=False).status_code == 303
    after = text(client.get(url).text)
    assert "No orders received from you yet this turn." not in after
    assert "33, 63, 5" in after
    # an echo of a post (?sent=...) is made for its request, never kept
    echoed = client.get(url + "?sent=guesses")
    assert echoed.status_code == 200
    assert not [k for k in console.answers._values if k[0] == "player page"
                and k[6] != ""]  # (the kept ones are plain: no ?lang= either)
    french = client.get(url + "?lang=fr")
    assert french.headers["content-language"] == "fr" and '<html lang="fr"' in french.text
    assert re.search(r"\b33\b\D+\b63\b\D+\b5\b", text(french.text))  # her orders
    # the game master's own pages hold a cookie's secrets: never compressed (BREACH)
    link = client.get(f"/console/{game['id']}/gm/{game['gm_token']}", follow_redirects=False)
    assert link.status_code in (302, 303)
    gm = client.get(f"/console/{game['id']}/gm", headers={"accept-encoding": "gzip"})
    assert gm.status_code == 200 and "content-encoding" not in gm.headers
