"""The address a game's links carry: ``kit serve --public-url`` when given, else the address
the game master's request came in on, never loopback while the server listens on the
network; and ``--public-url`` refused unless it is an http or https address without a path."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402

from kit.console import addressing  # noqa: E402


def request(host: str, public_url: str | None = None, listen: str | None = None) -> Request:
    app = Starlette()
    app.state.public_url, app.state.listen_host = public_url, listen
    scope = {"type": "http", "app": app, "scheme": "http", "server": (host, 8000),
             "path": "/api/games", "headers": [(b"host", f"{host}:8000".encode())]}
    return Request(scope)


def test_public_url_wins() -> None:
    assert addressing.base_url(request("127.0.0.1", "https://games.example.org", "0.0.0.0")
                               ) == "https://games.example.org"


def test_the_request_address_when_it_is_reachable() -> None:
    assert addressing.base_url(request("192.168.1.20")) == "http://192.168.1.20:8000"
    assert addressing.base_url(request("127.0.0.1", listen="127.0.0.1")) == \
        "http://127.0.0.1:8000"  # a console on this machine alone: loopback is right


def test_never_loopback_while_listening_on_the_network(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.setattr(addressing, "network_addresses", lambda: ["192.168.1.20"])
    for host in ("127.0.0.1", "localhost"):
        assert addressing.base_url(request(host, listen="0.0.0.0")) == \
            "http://192.168.1.20:8000"


@pytest.mark.parametrize("given", ["ftp://games.example.org", "https://", "games.example.org",
                                   "https://games.example.org/kit", "https://a.org/?x=1",
                                   "https://user@a.org"])
def test_a_bad_public_url_is_refused_before_any_work(given: str) -> None:
    result = subprocess.run([sys.executable, "-m", "kit", "serve", "--public-url", given],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("Error: public_url: must be an "
                                                             "address like"), result.stderr
