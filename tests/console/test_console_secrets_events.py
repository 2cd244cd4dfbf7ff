"""The event streams of a game whose players choose their secret numbers (SQLite and
PostgreSQL): before the end no stream of any kind of token carries another player's number,
the game master's says who has chosen and never a number; the last publish's events say the
game is over, who won and how, and every secret number."""

from __future__ import annotations

import json

import httpx
import pytest

pytest.importorskip("sse_starlette", reason="the console's streams need the web extra")

import test_console_events as events  # noqa: E402
from test_console_events import Stream, bearer, has  # noqa: E402

base = events.base  # the served console, as the event tests have it

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
CHOSEN = {"Ann": 417, "Bob": 523, "Cy": 608, "Dee": 719}


def post(base: str, game: dict, path: str, body: dict, token: str) -> None:
    answer = httpx.post(f"{base}/api/games/{game['id']}/{path}", json=body,
                        headers=bearer(token))
    assert answer.status_code in (200, 201), answer.text


def test_streams_keep_the_secrets_until_the_end(base: str) -> None:
    made = httpx.post(f"{base}/api/games", json={
        "game": "whats-my-number", "players": PLAYERS, "secrets": "players", "range": "1-999"})
    assert made.status_code == 201, made.text
    game = made.json()
    gid, tokens = game["id"], game["player_tokens"]
    streams = {"public": Stream(f"{base}/api/games/{gid}/events"),
               "gm": Stream(f"{base}/api/games/{gid}/events", bearer(game["gm_token"]))}
    streams.update({p: Stream(f"{base}/console/{gid}/p/{t}/events") for p, t in tokens.items()})
    try:
        for stream in streams.values():
            assert stream.next()["event"] == "version"
        for player, number in CHOSEN.items():
            post(base, game, "secret", {"secret": number}, tokens[player])
        gm_heard = [json.loads(streams["gm"].next()["data"]) for _ in PLAYERS]
        assert gm_heard[-1]["secrets_by"] == "players"
        ann = json.loads(streams["Ann"].next()["data"])  # her own choice
        assert (ann["secret"], ann["choosing"]) == (417, False)
        post(base, game, "turns", {"orders": {"Ann": [1, 2]}}, game["gm_token"])
        post(base, game, "turns/1/publish", {}, game["gm_token"])
        post(base, game, "turns", {"orders": {"Bob": {"list": {
            "Ann": 417, "Cy": 608, "Dee": 719}}}}, game["gm_token"])
        post(base, game, "turns/2/publish", {}, game["gm_token"])
        ends = {}
        for name, stream in streams.items():
            event = stream.next()
            while json.loads(event["data"]).get("published") != 2:
                event = stream.next()
            ends[name] = json.loads(event["data"])
        for name, stream in streams.items():  # everything heard before the end
            before = "\n".join(stream.raw).rpartition("event: published")[0]
            before = before.rpartition("event:")[0] if name == "gm" else before
            others = [p for p in PLAYERS if p != name]
            if name != "gm":
                assert not [p for p in others if has(CHOSEN[p], before)], name
            assert not [t for t in [game["gm_token"], *tokens.values()]
                        if t in "\n".join(stream.raw)], name
        for name, end in ends.items():
            assert (end["over"], end["winners"], end["won_by"], end["secrets"]) == (
                True, ["Bob"], "list", CHOSEN), name
    finally:
        for stream in streams.values():
            stream.close()
