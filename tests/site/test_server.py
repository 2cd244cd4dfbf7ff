"""The custom-kit web app (``kit.serve.app``), in-process through Starlette's TestClient (renders
run in threads).

Slow parts are shared: one app builds a handful of real kits; everything about bad input and
load runs against apps whose render step is a stub, so hundreds of requests take a second.
"""

from __future__ import annotations

import contextlib
import io
import re
import socket
import threading
import time
import warnings
import zipfile
from html import unescape

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 but still drives httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pypdf import PdfReader  # noqa: E402

import kit.prose  # noqa: E402
from kit import cli  # noqa: E402
from kit.cache import RenderCache  # noqa: E402
from kit.config import resolve  # noqa: E402
from kit.errors import KitError  # noqa: E402
from kit.fonts import FONT_FILES  # noqa: E402
from kit.i18n import LANGUAGES, words  # noqa: E402
from kit.options import Flag  # noqa: E402
from kit.output import KitFiles  # noqa: E402
from kit.registry import GAMES, all_options  # noqa: E402
from kit.resources import asset_root, fonts_dir, templates_dir  # noqa: E402
from kit.serve import app as web_app  # noqa: E402
from kit.server import http, language  # noqa: E402
from kit.site import kits, pages  # noqa: E402
from kit.site.kits import Rendered, ready_configs  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

FIRST = next(iter(GAMES.values()))  # tests never name a game: the registry decides
OPTIONS = [option for option, _ in all_options()]
GAMES_OF = {option.key: games for option, games in all_options()}
SMALL = max(FIRST.min_players, 3)


def names_for(count: int, extra: str = "") -> list[str]:
    return [f"Player {i}{extra}" for i in range(1, count + 1)]


def form(**values: str) -> dict[str, str]:
    return {"game": FIRST.name, "format": "zip", **values}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A render cache of this module's own: nothing kept by other runs is loaded."""
    return RenderCache(tmp_path_factory.mktemp("render-cache"))


@pytest.fixture(scope="module")
def app(store):
    return web_app.create_app(executor="thread", workers=2, prewarm=False, games=[FIRST.name],
                              players=[SMALL], papers=["a4"], store=store)


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def submit(client, values: dict[str, str]):
    return client.post("/custom", data=values, follow_redirects=False)


def wait_ready(client, location: str, seconds: float = 60):
    """The result page once the kit is made: until then its address answers 202, "being
    made" (the page reloads itself in a browser)."""
    deadline = time.monotonic() + seconds
    while True:
        page = client.get(location)
        if page.status_code != 202 or time.monotonic() > deadline:
            return page
        time.sleep(0.05)


# --- pages -------------------------------------------------------------------------------------

def test_index_lists_ready_kits_and_a_field_per_option(client):
    page = client.get("/")
    assert page.status_code == 200
    html = page.text
    for config in ready_configs([FIRST.name], [SMALL], ["a4"]):
        assert f"kits/{config.folder_name}/" in html
    for name, spec in GAMES.items():  # every registered game is offered
        assert f'<option value="{name}"' in html
        assert spec.title in unescape(html)
    for option in OPTIONS:  # new options show up by themselves (tables, when it exists)
        if option.key != "out":
            assert f'name="{option.key}"' in html, option.key
    assert ('name="tables"' in html) == ("tables" in GAMES_OF)
    assert 'name="out"' not in html  # the server decides where files go
    assert 'id="f-range-warning"' not in html  # the warning shows once a range is given
    assert 'id="f-range-warning"' in client.get("/custom?game=lowest-unique&range=1-20").text
    for tag in re.findall(r"<(?:input|select|textarea)\b[^>]*>", html):
        if 'type="radio"' in tag:
            continue
        ident = re.search(r'id="([^"]+)"', tag)[1]
        assert f'<label for="{ident}">' in html, tag


def test_security_headers_on_every_page(client):
    for path in ("/", "/custom", "/site.css", "/healthz", "/no-such-page"):
        response = client.get(path)
        assert response.headers["x-content-type-options"] == "nosniff", path
        assert "default-src 'none'" in response.headers["content-security-policy"], path
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["referrer-policy"] == "no-referrer"
    assert client.get("/no-such-page").status_code == 404


# --- a custom kit, end to end --------------------------------------------------------------

@pytest.fixture(scope="module")
def custom_kit(client, app):
    names = names_for(SMALL - 1) + ["<b>Bo</b> & Co"]
    values = form(names="\r\n".join(names) + "\r\n", paper="letter", title="Quiz <night>")
    started = app.state.service.pool.started
    first = submit(client, values)
    assert first.status_code == 303, first.text
    assert "x-kit-cache" not in first.headers  # whether it was built before is not said
    assert app.state.service.pool.started == started + 1
    assert wait_ready(client, first.headers["location"]).status_code == 200
    return values, names, first.headers["location"]


def test_custom_kit_result_page_preview_and_downloads(client, custom_kit):
    _, names, location = custom_kit
    assert re.match(r"/custom/[\w-]{22}\?get=zip&", location)  # a random id, not the config's
    page = client.get(location)
    assert page.status_code == 200
    assert "<b>Bo</b> & Co" in unescape(page.text) and "<b>Bo</b>" not in page.text
    assert "Quiz <night>" in unescape(page.text) and "<night>" not in page.text
    thumbs = re.findall(r'<img class="thumb" src="([^"]+)"', page.text)
    assert thumbs
    image = client.get(thumbs[0])
    assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
    assert 'http-equiv="refresh"' not in page.text  # a reload downloads nothing again
    primary = re.findall(r'<a class="([^"]*)primary" href="([^"]+)"', page.text)
    assert [href for _, href in primary] == [f"/custom/{location.split('/')[2].split('?')[0]}"
                                             "/kit.zip"]  # the zip, as chosen

    key = location.split("/")[2].split("?")[0]
    archive = client.get(f"/custom/{key}/kit.zip")
    assert archive.status_code == 200
    assert archive.headers["content-type"] == "application/zip"
    folder = zipfile.ZipFile(io.BytesIO(archive.content)).namelist()[0].split("/")[0]
    assert archive.headers["content-disposition"] == f'attachment; filename="{folder}.zip"'
    assert all(ch.isalnum() or ch == "-" for ch in folder)  # no user text but a plain slug
    pdfs = [n for n in zipfile.ZipFile(io.BytesIO(archive.content)).namelist()
            if n.endswith(".pdf") and n.count("/") == 1]
    assert pdfs
    first_pdf = pdfs[0].split("/")[1]
    response = client.get(f"/custom/{key}/{first_pdf}")
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-disposition"].startswith("inline")  # opens to print
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    for name in names:
        assert name in text, name
    html_doc = client.get(f"/custom/{key}/{first_pdf.removesuffix('.pdf')}.html")
    assert html_doc.status_code == 200
    assert html_doc.headers["content-security-policy"] == http.KIT_CSP
    assert "&lt;b&gt;Bo&lt;/b&gt;" in html_doc.text


def test_repeated_request_is_served_from_the_cache(client, app, custom_kit):
    values, _, location = custom_kit
    started = app.state.service.pool.started
    again = submit(client, values)
    assert again.status_code == 303
    assert "x-kit-cache" not in again.headers
    assert again.headers["location"] == location  # the same client's id for the same kit
    assert app.state.service.pool.started == started  # nothing rendered again


def test_cache_key_is_the_normalized_config():
    a = resolve({"game": FIRST.name, "names": names_for(SMALL)})
    b = resolve({"game": FIRST.name, "names": "  ,".join(names_for(SMALL)).replace(",", ", ")})
    c = resolve({"game": FIRST.name, "names": names_for(SMALL), "paper": "letter"})
    assert kits.config_key(a) == kits.config_key(b) != kits.config_key(c)


def test_ready_kit_built_on_demand_then_thumbnail_on_index(client):
    (config,) = ready_configs([FIRST.name], [SMALL], ["a4"])
    assert client.get(f"/thumbs/{config.folder_name}.png").status_code == 404  # not built yet
    pdf = client.get(f"/kits/{config.folder_name}/{_first_stem(client, config)}.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    thumb = client.get(f"/thumbs/{config.folder_name}.png")
    assert thumb.status_code == 200 and thumb.content.startswith(b"\x89PNG")
    assert f'src="/thumbs/{config.folder_name}.png"' in client.get("/").text
    assert client.get(f"/kits/{config.folder_name}/fonts/{FONT_FILES[0]}"
                      ).status_code == 200


def _first_stem(client, config) -> str:
    return re.search(rf'kits/{config.folder_name}/([\w-]+)\.pdf', client.get("/").text)[1]


# --- bad input: the CLI's words, next to the field, 4xx -------------------------------------

def cli_error(argv: list[str], capsys) -> str:
    """What ``kit build`` prints for the same input (it stops before rendering anything)."""
    capsys.readouterr()
    assert cli.main(["build", "--out", "/tmp/kit-never-written", *argv]) == cli.EXIT_USAGE
    err = capsys.readouterr().err.strip()
    assert err.startswith("Error: ")
    return err.removeprefix("Error: ")


CASES = [  # form values, the same input as `kit build` flags
    ({"game": ""}, [""]),
    ({"game": "no-such-game"}, ["no-such-game"]),
    ({"players": "99999999999999"}, ["--players", "99999999999999"]),
    ({"players": "-3"}, ["--players=-3"]),
    ({"players": "1"}, ["--players", "1"]),
    ({"names": "Ann\nBo\nAnn"}, ["--names", "Ann,Bo,Ann"]),
    ({"names": "Ann\nB\x07o\nCy"}, ["--names", "Ann,B\x07o,Cy"]),
    ({"names": "Ann\nBo\n" + "x" * 200}, ["--names", "Ann,Bo," + "x" * 200]),
    ({"range": "20-5"}, ["--range", "20-5"]),
    ({"range": "1-100000000"}, ["--range", "1-100000000"]),
    ({"title": "<script>alert(1)</script>" * 4}, ["--title", "<script>alert(1)</script>" * 4]),
    ({"title": "bell\x07here"}, ["--title", "bell\x07here"]),  # a tab is only a space
    ({"paper": "a3"}, ["--paper", "a3"]),
]


@pytest.mark.parametrize(("values", "argv"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_errors_use_the_cli_words_next_to_the_field(client, capsys, values, argv):
    game = values.get("game", FIRST.name)
    if "game" not in values:
        argv = [FIRST.name, *argv]
    expected = cli_error(argv, capsys)
    response = submit(client, form(**{**values, "game": game}))
    assert response.status_code == 422
    html = unescape(response.text)
    field, message = expected.split(": ", 1)
    if field == "players":  # the web form says its own limits (up to 120, split over tables)
        message = f"{FIRST.title} kits made here are for "
    label = pages.field_label(field, words("en"))
    assert f"{label}: {message}" in html  # the summary: "<label>: <message>", the CLI's words
    if f'name="{field}"' in response.text:  # a form field: the message sits next to it
        block = re.search(rf'id="f-{field}-error">(.*?)</p>', response.text, re.S)
        assert block and message in unescape(block[1])
        assert re.search(rf'id="f-{field}"[^>]*aria-invalid="true"', response.text)
    assert "<script>alert" not in response.text


def test_an_option_of_another_game_changed_from_its_default_is_an_error(client):
    other = [o for o in OPTIONS if GAMES_OF[o.key] and FIRST.name not in GAMES_OF[o.key]]
    if not other:
        pytest.skip("every option belongs to every game")
    option = other[0]
    value = "true" if isinstance(option.type, Flag) else "3"
    response = submit(client, form(**{option.key: value}))
    assert response.status_code == 422
    with pytest.raises(KitError) as exc:
        resolve({"game": FIRST.name, option.key: value})
    assert exc.value.message in unescape(response.text)
    untouched = {o.key: str(o.default) for o in other
                 if not isinstance(o.type, Flag) and o.default}
    response = submit(client, form(players="x", **untouched))
    assert response.status_code == 422  # about players; untouched options are left alone
    assert "is not an option" not in response.text and 'id="f-players-error"' in response.text


def test_ten_thousand_names_is_a_field_error(client):
    response = submit(client, form(names="\n".join(f"P{i}" for i in range(10_000))))
    assert response.status_code == 422
    assert 'id="f-players-error"' in response.text or 'id="f-names-error"' in response.text


@pytest.mark.parametrize("players", ["100000", "121"])  # the web's cap is 120 players
def test_huge_parties_are_refused_before_rendering(client, app, players):
    started = app.state.service.pool.started
    response = submit(client, form(players=players))
    assert response.status_code == 422
    assert app.state.service.pool.started == started


def test_malformed_requests_get_4xx_never_500(client):
    post = client.post
    assert post("/custom", content=b"{}", headers={"content-type": "application/json"}
                ).status_code == 415
    assert post("/custom", content=b"", headers={"content-type": "multipart/form-data"}
                ).status_code == 415
    big = b"names=" + b"A" * (http.MAX_BODY + 10)
    assert post("/custom", content=big,
                headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 413

    def chunks():  # no Content-Length: the limit is enforced while reading
        for _ in range(http.MAX_BODY // 4096 + 5):
            yield b"A" * 4096

    assert post("/custom", content=chunks(),
                headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 413
    urlencoded = {"content-type": "application/x-www-form-urlencoded"}
    assert post("/custom", content=b"game=%FF%FE", headers=urlencoded).status_code == 400
    assert post("/custom", content=b"game=\xff", headers=urlencoded).status_code == 400
    assert post("/custom", content=b"&".join(b"f%d=1" % i for i in range(500)),
                headers=urlencoded).status_code == 400
    assert post("/custom", content=b"", headers=urlencoded).status_code == 422  # no game
    assert client.put("/custom").status_code == 405
    for path in ("/custom/0123456789abcdef0123456789abcdef", "/custom/x/kit.zip",
                 "/kits/no-such-kit/player-kit.pdf", "/kits/../../pyproject.toml",
                 "/kits/%2e%2e/%2e%2e/etc/passwd", "/fonts/..%2fpyproject.toml",
                 "/thumbs/nothing.png"):
        assert client.get(path).status_code == 404, path


def test_bad_format_choice_is_a_field_error(client):
    response = submit(client, form(format="../../etc/passwd"))
    assert response.status_code == 422
    assert 'id="f-format-error"' in response.text


# --- a stub render: fuzzing and load behaviour without WeasyPrint -----------------------------

def fake_render(config, preview_pages=1):
    pdf = b"%PDF-1.7 stub"
    return Rendered(config, KitFiles(config.folder_name, {"player-kit.pdf": pdf}),
                    (), {})


class Gate:
    """A render that waits until released, to hold pool places."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def __call__(self, config, preview_pages=1):
        self.release.wait(30)
        return fake_render(config, preview_pages)


@pytest.fixture(scope="module")
def stub_client(tmp_path_factory):
    # instant renders, hundreds of forms from one client: no per-client cap in the way here
    app = web_app.create_app(executor="thread", workers=2, prewarm=False, render=fake_render,
                             games=[FIRST.name], players=[SMALL], papers=["a4"],
                             store=RenderCache(tmp_path_factory.mktemp("stub-cache")),
                             per_client=1000)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


field_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)),
                     max_size=40)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(values=st.dictionaries(st.sampled_from([o.key for o in OPTIONS] + ["format", "junk"]),
                              field_text | st.sampled_from(["", "0", "8", "1-20", "true", "a4"]),
                              max_size=8),
       game=st.sampled_from([*GAMES, "", "x"]))
def test_any_form_input_gets_a_page_never_a_500(stub_client, values, game):
    response = stub_client.post("/custom", data={**values, "game": game},
                                follow_redirects=False)
    assert response.status_code in (303, 422), (values, response.status_code)
    assert response.headers["x-content-type-options"] == "nosniff"


def test_forms_wait_in_line_and_past_the_bounded_queue_get_503(tmp_path):
    gate = Gate()
    app = web_app.create_app(executor="thread", workers=1, queue=1, prewarm=False, render=gate,
                             games=[FIRST.name], players=[SMALL], papers=["a4"],
                             store=RenderCache(tmp_path), per_client=10)
    pool = app.state.service.pool
    with TestClient(app, raise_server_exceptions=False) as client:
        low = FIRST.min_players
        first, second = (submit(client, form(players=str(n))) for n in (low, low + 1))
        assert (first.status_code, second.status_code) == (303, 303)  # at once, not rendered
        assert (pool.active, pool.queued) == (2, 1)  # one rendering, one waiting: queue full
        waiting = client.get(second.headers["location"])
        assert waiting.status_code == 202 and "Place in line: 1." in waiting.text
        assert waiting.headers["refresh"] == "2"  # reloads itself, no script needed
        assert "It is being made now." in client.get(first.headers["location"]).text
        busy = submit(client, form(players=str(low + 2)))
        assert busy.status_code == 503
        assert busy.headers["retry-after"].isdigit()
        assert client.get("/").status_code == 200  # the event loop still answers at once
        joiner = submit(client, form(players=str(low)))  # the same kit: joins its render
        assert joiner.status_code == 303
        assert pool.shed == 1 and pool.started == 1
        gate.release.set()
        for response in (first, second, joiner):
            assert wait_ready(client, response.headers["location"]).status_code == 200
        assert pool.active == 0 and pool.started == 2


# --- WeasyPrint reads only our own templates and fonts ----------------------------------------

def test_asset_fetcher_refuses_network_and_other_files():
    refusals = kit.prose._Refusals()
    fetcher = kit.prose.url_fetcher(refusals)
    refused = [
        "http://127.0.0.1:9/x",
        "https://example.invalid/font.ttf",
        "file:///etc/passwd",
        (asset_root() / "pyproject.toml").as_uri(),  # in the project, but not templates/fonts
        templates_dir().as_uri() + "/../pyproject.toml",
        "file://remote.invalid" + (fonts_dir() / FONT_FILES[0]).as_posix(),
        "data:text/plain,hello",
    ]
    for url in refused:
        with pytest.raises(ValueError, match="refused"):
            fetcher.fetch(url)
    assert refusals.urls == refused
    allowed = kit.prose._Refusals()
    fetcher = kit.prose.url_fetcher(allowed)
    fetcher.fetch((fonts_dir() / FONT_FILES[0]).as_uri())
    fetcher.fetch((templates_dir() / "print.css").as_uri())
    assert allowed.urls == []


@pytest.fixture
def loopback_listener():
    """A TCP listener on 127.0.0.1 that counts every connection made to it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.settimeout(0.2)
    hits: list[bytes] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(1)
                with contextlib.suppress(OSError):
                    hits.append(conn.recv(1024))

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield sock.getsockname()[1], hits
    stop.set()
    thread.join(2)
    sock.close()


def test_markup_in_names_and_titles_fetches_nothing(tmp_path, monkeypatch, loopback_listener):
    port, hits = loopback_listener
    fetchers: list[kit.prose._Refusals] = []
    real = kit.prose.url_fetcher

    def recording(refused):
        fetchers.append(refused)
        return real(refused)

    monkeypatch.setattr(kit.prose, "url_fetcher", recording)
    app = web_app.create_app(executor="thread", workers=1, prewarm=False, games=[FIRST.name],
                             players=[SMALL], papers=["a4"], store=RenderCache(tmp_path))
    with TestClient(app, raise_server_exceptions=False) as client:
        _fetch_nothing(client, port)
    assert fetchers, "the kit was not rendered in this process"
    assert all(f.urls == [] for f in fetchers), [f.urls for f in fetchers]
    assert hits == []  # nothing reached the loopback listener


def _fetch_nothing(client, port: int) -> None:
    names = ["<img src=x>", "<b>Bo</b>", "file:///etc/passwd",
             *names_for(max(0, SMALL - 3))]
    for title in (f'<img src="http://127.0.0.1:{port}/x">', "file:///etc/passwd"):
        response = submit(client, form(names="\n".join(names), title=title, paper="a4"))
        assert response.status_code == 303, response.text
        key = response.headers["location"].split("/")[2].split("?")[0]
        page = wait_ready(client, f"/custom/{key}")
        assert title in unescape(page.text) and '<img src="http' not in page.text
        pdfs = re.findall(rf'/custom/{key}/([\w-]+)\.pdf', page.text)
        text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(
            client.get(f"/custom/{key}/{pdfs[0]}.pdf").content)).pages)
        for name in names[:3]:
            assert name in text  # printed literally, as text
        html = client.get(f"/custom/{key}/{pdfs[0]}.html").text
        assert "<img src=x>" not in html and "&lt;img src=x&gt;" in html
    time.sleep(0.3)


def test_download_names_never_carry_user_text():
    key = "0123456789abcdef0123456789abcdef"
    for config in ready_configs():
        assert kits.download_name(config.folder_name, key) == config.folder_name
    for odd in ('x"; filename="evil.sh', "../../etc", "Quiz Night", "a/b", "", "é"):
        assert kits.download_name(odd, key) == "kit-0123456789ab"


# --- languages: the page's from ?lang or Accept-Language, the kit's from the form ------------

@pytest.mark.parametrize(("query", "header", "expected"), [
    (None, None, ("en", False)),
    (None, "", ("en", False)),
    (None, "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", ("fr", False)),
    (None, "en-US,en;q=0.9,fr;q=0.8", ("en", False)),
    (None, "ja, ko;q=0.9, de;q=0.5, es;q=0.6", ("es", False)),  # best q among ours
    (None, "de;q=0.5, RU;q=0.5", ("de", False)),  # equal q: the first given
    (None, "fr;q=0, es;q=0.1", ("es", False)),  # q=0: not acceptable
    (None, "ja", ("en", False)),  # none of ours: English
    (None, "ja, *;q=0.1", ("en", False)),
    (None, "fr;q=abc, \x00, ;;, de-DE-1996", ("de", False)),  # malformed entries skipped
    ("de", "fr", ("de", True)),  # ?lang wins over the header
    ("RU", None, ("ru", True)),
    ("xx", "fr", ("fr", False)),  # not one of ours: as if not given
    ("", "es", ("es", False)),
])
def test_page_language_negotiation(query, header, expected):
    assert language.negotiate(query, header) == expected


def _html_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)">', html)[1]


def _switcher(html: str) -> list[tuple[str, str, str]]:
    nav = re.search(r'<nav class="languages"[^>]*>(.*?)</nav>', html, re.S)
    assert nav, "no language switcher"
    return re.findall(r'<a href="([^"]+)" hreflang="([^"]+)" lang="([^"]+)"', nav[1])


def test_accept_language_picks_the_index_language_and_its_kits(stub_client):
    page = stub_client.get("/", headers={"accept-language": "fr-CH, fr;q=0.9, en;q=0.5"})
    assert page.status_code == 200
    assert _html_lang(page.text) == "fr"
    assert page.headers["content-language"] == "fr"
    assert "accept-language" in page.headers["vary"].lower()
    french = words("fr")
    for text in ("Make a custom kit", "Ready-made kits", "Preview being prepared"):
        assert french.gettext(text) in unescape(page.text)  # French once the catalog exists
    (kit_fr,) = ready_configs([FIRST.name], [SMALL], ["a4"], langs=["fr"])
    (kit_en,) = ready_configs([FIRST.name], [SMALL], ["a4"])
    assert kit_fr.folder_name.endswith("-fr")
    assert f"kits/{kit_fr.folder_name}/" in page.text  # the ready-made kits in French
    assert f"kits/{kit_en.folder_name}/" not in page.text
    selected = re.search(r'<select id="f-lang" name="lang"[^>]*>(.*?)</select>', page.text, re.S)
    assert selected, "no kit language select"
    options = re.findall(r'<option value="(\w+)" lang="\w+"( selected)?>([^<]+)</option>',
                         selected[1])
    assert [(v, n) for v, _, n in options] == list(LANGUAGES.items())  # named in themselves
    assert [v for v, chosen, _ in options if chosen] == ["fr"]  # the page language first
    english = stub_client.get("/")
    assert _html_lang(english.text) == "en" and f"kits/{kit_en.folder_name}/" in english.text


@pytest.mark.parametrize(("header", "lang"), [("fr", "fr"), ("xx", "en"),
                                              ("de-AT;q=0.4, xx, ru;q=0.9", "ru"), (None, "en")])
def test_the_served_root_speaks_the_visitors_language(stub_client, header, lang):
    headers = {"accept-language": header} if header is not None else {}
    page = stub_client.get("/", headers=headers)
    assert page.status_code == 200 and _html_lang(page.text) == lang
    assert "accept-language" in page.headers["vary"].lower()
    assert words(lang).gettext("Print-ready party game kits") in unescape(page.text)
    alternates = re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">',
                            page.text)
    assert alternates == [*((c, f"/?lang={c}") for c in LANGUAGES), ("x-default", "/")]
    for code, href in alternates[:-1]:  # each answers in its language, whatever the header
        assert _html_lang(stub_client.get(unescape(href), headers=headers).text) == code


def test_every_page_has_a_language_switcher(stub_client):
    bad = stub_client.post("/custom?lang=de", data=form(range="20-5"))
    for response in (stub_client.get("/?lang=es"), stub_client.get("/custom?lang=es"),
                     stub_client.get("/no-such-page?lang=es"), bad):
        links = _switcher(response.text)
        assert [(code, same) for _, code, same in links] == [(c, c) for c in LANGUAGES]
        if response is not bad:
            assert [href for href, _, _ in links] == [f"?lang={c}" for c in LANGUAGES]
    # on a form, the switcher keeps what was typed (its settings URL)
    hrefs = [unescape(href) for href, _, _ in _switcher(bad.text)]
    assert all("range=20-5" in h and h.endswith(f"&lang={c}")
               for h, c in zip(hrefs, LANGUAGES, strict=True))
    assert re.search(r'hreflang="es" lang="es" aria-current="true"',
                     stub_client.get("/?lang=es").text)
    assert _html_lang(stub_client.get("/no-such-page?lang=es").text) == "es"
    assert bad.status_code == 422 and _html_lang(bad.text) == "de"
    assert 'action="/custom?lang=de"' in bad.text  # a chosen language is carried on
    assert re.search(r'class="brand"><a href="/\?lang=de"', bad.text)


def test_the_form_builds_the_kit_in_the_chosen_language(stub_client):
    service = stub_client.app.state.service
    # the form's lang select (what a browser sends) ...
    response = submit(stub_client, form(lang="de"))
    assert response.status_code == 303
    key = response.headers["location"].split("/")[2].split("?")[0]
    config = service.tickets.get(key).config
    assert config.lang == "de" and config.folder_name.endswith("-de")
    # ... and, when a request leaves it out, the page language: here from ?lang=de
    response = stub_client.post("/custom?lang=de", data=form(), follow_redirects=False)
    assert response.status_code == 303
    location = response.headers["location"]
    assert "lang=de" in location.split("?")[1].split("&")
    assert location.split("?")[0].endswith(key)
    result = wait_ready(stub_client, location)
    assert _html_lang(result.text) == "de"
    assert '<dd lang="de">Deutsch</dd>' in result.text
    response = submit(stub_client, form())  # no language anywhere: English, as before
    config = service.tickets.get(response.headers["location"].split("/")[2].split("?")[0]
                                 ).config
    assert config.lang == "en" and not config.folder_name.endswith("-en")
    response = submit(stub_client, form(lang="xx"))  # the CLI's words, next to the field
    assert response.status_code == 422
    assert re.search(r'id="f-lang-error">.*unknown language', response.text, re.S)


def test_ready_kits_of_every_language_are_prewarmed_english_first_and_kept(tmp_path):
    store = RenderCache(tmp_path)
    app = web_app.create_app(executor="thread", workers=1, prewarm=True, render=fake_render,
                             games=[FIRST.name], players=[SMALL], papers=["a4"], store=store)
    (english,) = ready_configs([FIRST.name], [SMALL], ["a4"])
    (russian,) = ready_configs([FIRST.name], [SMALL], ["a4"], langs=["ru"])
    every = ready_configs([FIRST.name], [SMALL], ["a4"], langs=list(LANGUAGES))
    service = app.state.service
    with TestClient(app) as client:
        assert client.get(f"/kits/{english.folder_name}/player-kit.pdf").status_code == 200
        deadline = time.monotonic() + 60  # a bound on the wait, not a timing check
        while (any(service.cache.get(kits.config_key(c)) is None for c in every)
               and time.monotonic() < deadline):
            time.sleep(0.05)
        assert service.pool.started == len(every)  # each language's kit, once, unasked
        assert client.get(f"/kits/{russian.folder_name}/player-kit.pdf").status_code == 200
        assert service.pool.started == len(every)
    again = web_app.create_app(executor="thread", workers=1, prewarm=False, render=fake_render,
                               games=[FIRST.name], players=[SMALL], papers=["a4"], store=store)
    with TestClient(again) as client:
        assert client.get(f"/kits/{russian.folder_name}/player-kit.pdf").status_code == 200
        assert again.state.service.pool.started == 0  # from the persistent cache
