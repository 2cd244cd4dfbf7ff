"""Bodies a parser cannot take: deeply nested JSON or TOML, integers past Python's digit limit,
``NaN``. The console's API, its import (API and start page) and ``kit report`` answer each with
a clear refusal (422, or exit 2 with one ``Error:`` line), never a 500 or a traceback."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from kit.cli import main  # noqa: E402
from kit.server.http import TOO_DEEP_JSON, TOO_LONG_JSON  # noqa: E402
from kit.tomlhelp import MAX_NESTING  # noqa: E402

DEEP = 3000
LONG = "1" * 4400
LOG = 'game = "whats-my-number"\nplayers = ["A", "B", "C", "D"]\nrange = "1-40"\n' \
      "[secrets]\nA = 1\nB = 2\nC = 3\nD = 4\n"


def errors(answer) -> list[str]:
    return [e["message"] for e in answer.json()["errors"]]


@pytest.mark.parametrize(("body", "status", "message"), [
    ("[" * 30000 + "]" * 30000, 422, TOO_DEEP_JSON),  # 60 KB: json's recursion limit
    ('{"game": ' + "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1) + "}", 422, TOO_DEEP_JSON),
    ('{"game": "whats-my-number", "players": ' + LONG + "}", 422, TOO_LONG_JSON),
    ('{"game": "whats-my-number", "players": NaN}', 422, "NaN is not a number JSON allows"),
    ('{"game": ', 400, "the body is not valid JSON"),
], ids=["deep", "past-the-cap", "digits", "nan", "broken"])
def test_json_bodies_past_the_parsers_limits_are_refused_clearly(client, body, status,
                                                                 message):
    answer = client.post("/api/games", content=body.encode(),
                         headers={"Content-Type": "application/json"})
    assert answer.status_code == status and errors(answer) == [message]


@pytest.mark.parametrize(("log", "message"), [
    ("x = " + "[" * DEEP + "]" * DEEP, "lists or tables are nested more than 32 levels deep"),
    ("x = " + "{a = " * 400 + "1" + "}" * 400,
     "lists or tables are nested more than 32 levels deep"),
    (LOG.replace('"1-40"', LONG), "a number has more than 4300 digits"),
    (LOG + "[[turn]]\nA = [" + LONG + "]\n", "a number has more than 4300 digits"),
], ids=["deep-lists", "deep-tables", "digits-range", "digits-guess"])
def test_toml_logs_past_the_parsers_limits_are_a_422_on_the_api_and_the_page(client, log,
                                                                            message):
    answer = client.post("/api/games/import", content=log.encode(),
                         headers={"Content-Type": "application/toml"})
    assert answer.status_code == 422
    assert errors(answer) == [f"not valid TOML: {message}"]
    page = client.post("/console/new/import", data={"log": log})
    assert page.status_code == 422 and message in page.text
    french = client.post("/console/new/import?lang=fr", data={"log": log})
    assert french.status_code == 422 and message not in french.text  # said in French


@pytest.mark.parametrize("text", ["x = " + "[" * DEEP + "]" * DEEP,
                                  'game = "whats-my-number"\nrange = ' + LONG],
                         ids=["deep", "digits"])
def test_kit_report_refuses_them_in_one_line(tmp_path, capsys, text):
    log = tmp_path / "game.toml"
    log.write_text(text, encoding="utf-8")
    assert main(["report", str(log), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("Error: log: ") and "not valid TOML" in err[0]
    assert not (tmp_path / "out").exists()
