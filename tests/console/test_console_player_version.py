"""A player's version and ETag say only what that player may see: another player's post
changes neither, a publish moves both, the player's own post changes the ETag, and a 304
answers a player who holds the current one."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from test_console_player_api import bearer, game, gm, send  # noqa: E402, F401


def _me(client, game: dict, player: str, tag: str | None = None):  # noqa: ANN001, ANN202, F811
    headers = bearer(game["player_tokens"][player])
    if tag is not None:
        headers["If-None-Match"] = tag
    return client.get(f"/api/games/{game['id']}/me.json", headers=headers)


def test_another_players_post_leaves_a_players_version_and_etag(client, game) -> None:  # noqa: F811
    first = _me(client, game, "Ann")
    assert first.status_code == 200 and first.headers["cache-control"] == "private, no-cache"
    version, tag = first.json()["version"], first.headers["etag"]
    answer = send(client, game, "Bob", [12])  # another player posts
    assert answer["version"] == version  # Bob's answer names no journal count either
    again = _me(client, game, "Ann", tag)
    assert again.status_code == 304 and again.headers["etag"] == tag
    assert _me(client, game, "Ann").json()["version"] == version
    send(client, game, "Ann", [15])  # her own post: what she sees changed
    own = _me(client, game, "Ann", tag)
    assert own.status_code == 200 and own.headers["etag"] != tag
    assert own.json()["version"] == version
    published = gm(client, game, "turns/1/publish")
    assert published.status_code == 200, published.text
    after = _me(client, game, "Ann", own.headers["etag"])
    assert after.status_code == 200 and after.json()["version"] > version
