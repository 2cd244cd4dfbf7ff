"""Answers sent compressed (``kit.server.packing``): what a request's ``Accept-Encoding``
takes, the same bytes for the same body, and ``Vary`` said once."""

from __future__ import annotations

import gzip

import pytest

pytest.importorskip("starlette", reason="the server needs the web extra")

from starlette.requests import Request  # noqa: E402
from starlette.responses import Response  # noqa: E402

from kit.server.packing import accepts_gzip, encoded, pack, packed_tag, unpack, vary  # noqa: E402


def request(accept: str | None) -> Request:
    headers = [] if accept is None else [(b"accept-encoding", accept.encode())]
    return Request({"type": "http", "method": "GET", "path": "/", "headers": headers})


@pytest.mark.parametrize(("accept", "takes"), [
    ("gzip, deflate, br", True),
    ("GZIP", True),
    ("deflate;q=1, gzip;q=0.5", True),
    ("x-gzip", True),
    ("*", True),
    ("gzip;q=0", False),
    ("gzip;q=0.000", False),
    ("gzip;q=high", False),  # a malformed quality takes nothing
    ("*;q=0", False),
    ("gzip;q=0, *", False),  # named: its own quality counts, not the star's
    ("deflate, br", False),
    ("identity", False),
    ("", False),
    (None, False),
])
def test_what_accept_encoding_takes(accept: str | None, takes: bool) -> None:
    assert accepts_gzip(request(accept)) is takes


def test_a_body_packs_to_the_same_bytes_every_time() -> None:
    body = ("<p>Ann 45 H</p>\n" * 5000).encode()
    packed = pack(body)
    assert packed == pack(body)  # no time stamp: a kept answer is byte-identical
    assert unpack(packed) == gzip.decompress(packed) == body
    assert len(packed) < len(body) // 20


def test_the_packed_form_is_sent_only_to_who_takes_it() -> None:
    body = b"<p>" + b"standings " * 1000 + b"</p>"

    def build(data: bytes) -> Response:
        return Response(data, headers={"vary": "accept-language, cookie"})

    packed = encoded(request("gzip"), lambda: body, lambda: pack(body), build)
    assert packed.headers["content-encoding"] == "gzip"
    assert gzip.decompress(packed.body) == body
    assert int(packed.headers["content-length"]) == len(packed.body)
    assert packed.headers["vary"] == "accept-language, cookie, accept-encoding"
    plain = encoded(request("br"), lambda: body, lambda: pack(body), build)
    assert "content-encoding" not in plain.headers and plain.body == body
    assert plain.headers["vary"] == "accept-language, cookie, accept-encoding"


def test_vary_names_accept_encoding_once_and_tags_differ() -> None:
    assert vary({"vary": "Accept-Encoding"}) == "Accept-Encoding"
    assert vary({}) == "accept-encoding"
    assert packed_tag('"abc"') == '"abc-gzip"' != '"abc"'
