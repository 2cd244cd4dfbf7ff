"""The players' links given to the game master on creation: every player's link on the first
GM page, and later behind the GM cookie, and as cards to print (QR codes), all without
making new links."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from kit.console.tokens import token_hash


@pytest.fixture
def site(make_site):
    console, app = make_site()
    return console, TestClient(app, follow_redirects=False)


def _made(site):
    console, client = site
    made = client.post("/console/new/wmn", data={"names": "Ann\nBob\nCy\nDee", "range": "1-30",
                                                 "draw": "random"})
    assert made.status_code == 303
    opened = client.get(made.headers["location"])
    assert opened.headers["location"].endswith("/gm?new=1")
    game_id = re.search(r"/console/([\w-]+)/gm", made.headers["location"]).group(1)
    return console, client, game_id


def _player_links(html: str, game_id: str) -> dict[str, str]:
    part = html.partition('<details class="player-links"')[2].partition("</details>")[0]
    return dict(re.findall(rf"<dt>(\w+)</dt><dd><a href=\"http://testserver/console/"
                           rf"{game_id}/p/([\w-]+)\"", part))


def test_the_first_gm_page_gives_every_players_working_link(site):
    console, client, game_id = _made(site)
    first = client.get(f"/console/{game_id}/gm?new=1").text
    assert '<details class="player-links" open>' in first
    links = _player_links(first, game_id)
    assert sorted(links) == ["Ann", "Bob", "Cy", "Dee"]
    for name, token in links.items():  # each is that player's seat, and opens their page
        assert console.store.seat_of(game_id, token_hash(token)) == ("player", name)
        assert client.get(f"/console/{game_id}/p/{token}").status_code == 200
    assert "The links use the address http://testserver." in first
    assert f'href="/console/{game_id}/gm/links"' in first
    assert f'href="/console/{game_id}/mail/slips.pdf"' in first
    later = client.get(f"/console/{game_id}/gm").text  # the same links, closed, not rotated
    assert '<details class="player-links">' in later
    assert _player_links(later, game_id) == links


def test_the_cards_carry_the_current_links_and_their_qr_without_rotating(site):
    from kit.console.pages.links import qr_svg

    _, client, game_id = _made(site)
    links = _player_links(client.get(f"/console/{game_id}/gm").text, game_id)
    cards = client.get(f"/console/{game_id}/gm/links")
    assert cards.status_code == 200 and cards.headers["cache-control"] == "no-store"
    for name, token in links.items():
        link = f"http://testserver/console/{game_id}/p/{token}"
        assert f'<h2>{name}</h2>' in cards.text and str(qr_svg(link)) in cards.text
    assert "stop working" not in cards.text
    assert _player_links(client.get(f"/console/{game_id}/gm").text, game_id) == links
    client.cookies.clear()
    refused = client.get(f"/console/{game_id}/gm/links")
    assert refused.status_code == 403 and "/p/" not in refused.text


def test_a_rotated_link_replaces_the_old_one_on_the_page(site):
    _, client, game_id = _made(site)
    page = client.get(f"/console/{game_id}/gm").text
    before = _player_links(page, game_id)
    assert before["Bob"] in client.get(f"/console/{game_id}/p/{before['Bob']}").text  # kept
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    done = client.post(f"/console/{game_id}/gm/links", data={"csrf": csrf, "seat": "player:Bob"},
                       headers={"origin": "http://testserver"})
    assert done.status_code == 200
    after = _player_links(client.get(f"/console/{game_id}/gm").text, game_id)
    assert after["Ann"] == before["Ann"] and after["Bob"] != before["Bob"]
    assert after["Bob"] in done.text
    # Bob's page at the same version, by his new link: made for that link, not the old one's
    bob = client.get(f"/console/{game_id}/p/{after['Bob']}").text
    assert after["Bob"] in bob and before["Bob"] not in bob
    assert client.get(f"/console/{game_id}/p/{before['Bob']}").status_code == 404


def test_a_new_gm_link_still_opens_the_players_links(site):
    _, client, game_id = _made(site)
    page = client.get(f"/console/{game_id}/gm").text
    before = _player_links(page, game_id)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    done = client.post(f"/console/{game_id}/gm/links", data={"csrf": csrf, "seat": "gm"},
                       headers={"origin": "http://testserver"})
    assert done.status_code == 200
    assert _player_links(client.get(f"/console/{game_id}/gm").text, game_id) == before
