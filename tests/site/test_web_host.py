"""The host's path through the web pages (issue 18, items 1-9), in-process with Starlette's
TestClient: the player kit first, settings URLs, split parties explained, errors a host
understands, the result page's confirmation, the phone chooser, paper by region, PDFs that open
in the browser, and every language's ready-made kits prewarmed.

Real renders (thread executor) where the page shows what a kit holds; a fake render where only
the order of things matters. The same points in Chromium at both viewports:
``test_web_host_browser.py``.
"""

from __future__ import annotations

import io
import re
import time
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("httpx", reason="the web extra is not installed: pip install '.[web]'")

from PIL import Image  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from kit.cache import RenderCache  # noqa: E402
from kit.config import resolve  # noqa: E402
from kit.errors import ConfigError, KitError, Msg, Problems  # noqa: E402
from kit.i18n import LANGUAGES, Words, words  # noqa: E402
from kit.output import KitFiles  # noqa: E402
from kit.serve import app as web_app  # noqa: E402
from kit.server.templates import human_size  # noqa: E402
from kit.site import pages  # noqa: E402
from kit.site.kits import DocumentInfo, Rendered, ready_configs  # noqa: E402

LUN = "lowest-unique"
WMN = "whats-my-number"


def png(shade: int) -> bytes:
    out = io.BytesIO()
    Image.new("L", (8, 11), shade).save(out, format="PNG")
    return out.getvalue()


PLAYER_PNG, HOST_PNG = png(250), png(10)


def fake_render(config, preview_pages=1):
    """A kit whose host answers come first in file order, as the alphabet lists them."""
    files = {"host-answers.pdf": b"%PDF-1.7 host", "host-answers.html": b"<p>host",
             "player-kit.pdf": b"%PDF-1.7 player", "player-kit.html": b"<p>player"}
    documents = (DocumentInfo("host-answers", 3, 2048, True),
                 DocumentInfo("player-kit", 9, 4096, True))
    return Rendered(config, KitFiles(config.folder_name, files), documents,
                    {"host-answers-1.png": HOST_PNG, "player-kit-1.png": PLAYER_PNG})


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return RenderCache(tmp_path_factory.mktemp("host-cache"))


@pytest.fixture(scope="module")
def client(store):
    app = web_app.create_app(executor="thread", workers=2, prewarm=False, games=[LUN, WMN],
                             players=[4], papers=["a4"], store=store, per_client=1000)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def stub(tmp_path_factory):
    app = web_app.create_app(executor="thread", workers=1, prewarm=False, render=fake_render,
                             games=[LUN], players=[4, 8], papers=None,
                             store=RenderCache(tmp_path_factory.mktemp("stub")), per_client=1000)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def made(client, values: dict[str, str], query: str = ""):
    """Submit the form and follow its result address until the kit is ready."""
    response = client.post("/custom" + query, data=values, follow_redirects=False)
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    deadline = time.monotonic() + 120  # a bound on the wait, not a timing check
    while True:
        page = client.get(location)
        if page.status_code != 202 or time.monotonic() > deadline:
            return location, page
        time.sleep(0.05)


def field_error(html: str, key: str) -> str:
    found = re.search(rf'id="f-{key}-error">(.*?)</p>', html, re.S)
    text = unescape(re.sub(r"<[^>]+>", "", found[1])).strip() if found else ""
    return text.removeprefix("Error: ")  # read out by screen readers, hidden on screen


def summary(html: str) -> list[str]:
    box = re.search(r'<div class="error-summary".*?</ul>', html, re.S)
    assert box, "no error summary"
    return [unescape(re.sub(r"<[^>]+>", "", item)).strip()
            for item in re.findall(r"<li>(.*?)</li>", box[0], re.S)]


# --- 1. the player kit first -------------------------------------------------------------------

def test_first_thumb_is_the_player_kit_whatever_the_file_order():
    config = resolve({"game": LUN, "players": 4})
    assert fake_render(config).first_thumb == PLAYER_PNG


def test_index_cards_list_the_player_kit_first_and_mark_the_host_file(stub):
    config = ready_configs([LUN], [4], ["a4"])[0]
    assert stub.get(f"/kits/{config.folder_name}/player-kit.pdf").status_code == 200
    html = stub.get("/").text
    card = re.search(rf'<li class="kit">\s*<h4 id="kit-{config.folder_name}">.*?</li>\s*</ul>',
                     html, re.S)[0]
    links = re.findall(r'<a class="pdf" href="[^"]*/([\w-]+)\.pdf"', card)
    assert links == ["player-kit", "host-answers"]
    thumb = re.search(r'<a class="thumb-link" href="([^"]+)"><img[^>]*alt="([^"]+)"', card)
    assert thumb[1].endswith("/player-kit.pdf") and "Player kit" in thumb[2]
    assert stub.get(f"/thumbs/{config.folder_name}.png").content == PLAYER_PNG
    host = re.search(r'<li class="host-only">.*?</li>', card, re.S)[0]
    assert "host-answers.pdf" in host and "Host only: keep away from the players" in host


def test_download_names_differ_when_the_contents_differ():
    ready = resolve({"game": LUN, "players": 9, "paper": "letter", "lang": "es"})
    assert pages.download_base(ready) == ready.folder_name  # a ready-made kit keeps its name
    a = resolve({"game": LUN, "players": 9, "paper": "letter", "lang": "es",
                 "title": "Smith Family Night!"})
    b = resolve({"game": LUN, "players": 9, "paper": "letter", "lang": "es",
                 "title": "Club night"})
    c = resolve({"game": WMN, "players": 12, "turns": 10})
    names = [pages.download_base(x) for x in (a, b, c)]
    assert names[0].startswith("lowest-unique-9p-letter-es-smith-family-night-")
    assert len(set(names)) == 3 and names[2] != resolve({"game": WMN, "players": 12}).folder_name
    assert all(re.fullmatch(r"[a-z0-9-]+", n) for n in names)


# --- 2. settings that stay ------------------------------------------------------------------

def test_a_settings_url_fills_the_form_in(client):
    page = client.get("/custom?game=lowest-unique&names=Ann,Bob,Cy&paper=letter"
                      "&title=Club+night&rounds=7&cooperative=true&format=zip")
    html = page.text
    assert page.status_code == 200
    assert re.search(r'<textarea id="f-names"[^>]*>Ann\nBob\nCy</textarea>', html)
    assert re.search(r'<option value="letter" selected>', html)
    assert 'id="f-title" name="title" value="Club night"' in html
    assert re.search(r'id="f-rounds" name="rounds" value="7"', html)
    assert re.search(r'id="f-cooperative" name="cooperative" value="true" checked', html)
    assert re.search(r'id="f-format-zip" name="format" value="zip" checked', html)
    assert "autocomplete=\"off\"" not in html  # Back restores what was typed


def test_settings_url_round_trips_a_config():
    # (a comma separates names in the form, as on the command line: no name holds one)
    config = resolve({"game": LUN, "names": ["Ann", "Bob Jr.", "Cy", "Dee"], "paper": "letter",
                      "title": "Night", "date": "5 Dec", "range": "1-20", "rounds": "7",
                      "shuffle": "4", "lang": "de", "host_plays": True})
    query = pages.settings_query(pages.config_values(config))
    values = pages.values_from_query({k: v[0] for k, v in parse_qs(query).items()})
    assert pages.check(values) == config


def test_result_page_edit_link_and_language_switch_keep_the_settings(client):
    values = {"game": LUN, "names": "Ann\nBob\nCy", "title": "Club night", "rounds": "7",
              "format": "player-kit"}
    location, page = made(client, values)
    assert page.status_code == 200
    query = parse_qs(urlsplit(location).query)
    assert query["names"] == ["Ann,Bob,Cy"] and query["title"] == ["Club night"]
    edit = unescape(re.search(r'<a href="(/custom\?[^"]+)">Edit these settings', page.text)[1])
    form = client.get(edit).text
    assert re.search(r">Ann\nBob\nCy</textarea>", form) and 'value="Club night"' in form
    assert re.search(r'id="f-rounds" name="rounds" value="7"', form)
    switch = [unescape(h) for h in re.findall(r'<a href="([^"]+)" hreflang="fr"', form)]
    french = client.get("/custom" + switch[0]).text
    assert '<html lang="fr">' in french and re.search(r">Ann\nBob\nCy</textarea>", french)
    # the result page's language menu keeps its address; its edit link keeps the page language
    switch = unescape(re.search(r'<a href="([^"]+)" hreflang="de"', page.text)[1])
    assert "get=player-kit" in switch and "title=Club" in switch and switch.endswith("&lang=de")
    german = client.get(urlsplit(location).path + switch)
    assert '<html lang="de">' in german.text
    edit = unescape(re.search(r'<a href="(/custom\?[^"]+)">', german.text.split(
        'class="actions"')[1])[1])
    assert parse_qs(urlsplit(edit).query)["ui"] == ["de"]
    assert parse_qs(urlsplit(edit).query)["lang"] == ["en"]  # the kit stays English
    assert '<html lang="de">' in client.get(edit).text


def test_result_page_offers_one_pair_edit_or_start_again(client):
    location, page = made(client, {"game": LUN, "names": "Ann\nBob\nCy", "format": "zip"})
    text = unescape(re.sub(r"<[^>]+>", " ", page.text))
    assert text.count("Edit these settings") == 1
    assert "Make another custom kit" not in text
    again = re.findall(r'<a href="([^"]+)">Start again with an empty form</a>', page.text)
    assert len(again) == 1 and urlsplit(unescape(again[0])).path == "/custom"
    blank = client.get(unescape(again[0])).text
    assert re.search(r"></textarea>", blank) and "Ann" not in blank
    german = client.get(urlsplit(location).path + "?" + urlsplit(location).query + "&lang=de")
    again = re.findall(r'<a href="([^"]+)">[^<]*</a></p>', german.text.split(
        'class="actions"')[1])[-1]
    assert '<html lang="de">' in client.get(unescape(again)).text


def test_an_expired_kit_gives_the_form_back_filled_in(client):
    page = client.get("/custom/AAAAAAAAAAAAAAAAAAAAAA?get=player-kit&game=lowest-unique"
                      "&names=Ann,Bob,Cy&title=Gone")
    assert page.status_code == 404
    assert "no longer kept" in page.text
    assert re.search(r">Ann\nBob\nCy</textarea>", page.text) and 'value="Gone"' in page.text


def test_errors_keep_the_settings_in_the_language_links(client):
    bad = client.post("/custom", data={"game": LUN, "names": "Ann\nBob\nAnn", "title": "T"})
    links = [unescape(h) for h in re.findall(r'<a href="([^"]+)" hreflang', bad.text)]
    assert all("names=Ann%2CBob%2CAnn" in h or "names=Ann,Bob,Ann" in unescape(h)
               or "Ann" in h for h in links)
    german = client.get("/custom" + links[2]).text
    assert '<html lang="de">' in german and re.search(r">Ann\nBob\nAnn</textarea>", german)


# --- 3. split parties explained ----------------------------------------------------------------

def test_the_form_explains_the_split_before_submit(client):
    html = client.get("/custom").text
    textarea = re.search(r'<textarea id="f-names"[^>]*aria-describedby="([^"]+)"', html)
    assert "f-names-notes" in textarea[1].split()
    note = re.search(r'id="f-names-notes">(.*?)</div>', html, re.S)[1]
    assert "3 to 12 players at a table" in note and "7 and 6" in note


def test_a_split_party_result_says_how_many_tables_who_sits_where_and_what_to_print(client):
    names = [f"Guest {i}" for i in range(1, 14)]
    _, page = made(client, {"game": LUN, "names": "\n".join(names), "format": "player-kit"})
    html = unescape(page.text)
    assert page.status_code == 200
    assert "2 tables" in html and "seats 3 to 12 players at a table" in html
    assert "13 players sit at 2 tables of 7 and 6 players" in html
    joined = words("en").join  # the language's list: "Guest 1, ..., Guest 6 and Guest 7"
    assert "Table 1</strong>: " + joined(names[:7]) in html
    assert "Table 2</strong>: " + joined(names[7:]) in html
    assert "Print All tables once" in re.sub(r"<[^>]+>", "", html)
    primary = re.findall(r'<a class="open primary" href="([^"]+)"', page.text)
    assert len(primary) == 1 and primary[0].endswith("/all-tables.pdf")
    assert client.get(primary[0]).content.startswith(b"%PDF")
    # each table's kit is downloadable but not previewed again (all tables holds its pages)
    assert "player-kit-table-1.pdf" in page.text and 'id="preview-player-kit-table-1"' not in html


# --- 4. errors a host understands ------------------------------------------------------------

def test_every_error_at_once_beside_its_field(client):
    response = client.post("/custom", data={"game": LUN, "players": "0", "range": "5-3",
                                            "names": "Ann\nBob\nAnn", "title": "x" * 61})
    assert response.status_code == 422
    html = response.text
    items = summary(html)
    assert [item.split(":")[0] for item in items] == [
        "Number of players", "Player names", "Custom number range", "Event title"]
    assert "4 problems" in html
    for key in ("players", "names", "range", "title"):
        assert re.search(rf'id="f-{key}"[^>]*aria-invalid="true"', html), key
        assert field_error(html, key), key
    assert field_error(html, "title") == "the text has 61 characters; at most 60 fit: shorten it"
    assert "maxlength" not in html  # nothing is cut silently
    text = unescape(re.sub(r"<[^>]+>", " ", html))
    assert "lowest-unique needs" not in text and "'" not in " ".join(items)
    assert "command line" not in text and "kit build" not in text


@pytest.mark.parametrize(("values", "key", "message"), [
    ({"players": "9.5"}, "players", "Lowest Unique Number kits made here are for 3 to 120 "
     "players (more than 12 play at separate tables); got “9.5”"),
    ({"players": "200"}, "players", "Lowest Unique Number kits made here are for up to 120 "
     "players; got “200”. For a bigger party, make one kit for each group of up to 120 players"),
    ({"names": "\n".join(f"P{i}" for i in range(13)), "tables": "1"}, "tables",
     "13 players need 2 to 4 tables of 3 to 12 players; got 1 (or leave it empty)"),
    ({"range": "5-3"}, "range", "5-3 cannot be used: give the lowest and the highest number, "
     "e.g. 1-20, the lowest at least 1 and the highest above it, at most 999"),
])
def test_messages_in_the_hosts_words(client, values, key, message):
    response = client.post("/custom", data={"game": LUN, **values})
    assert response.status_code == 422
    assert field_error(response.text, key) == message


def test_names_typed_with_commas_are_several_players_and_their_error_is_beside_names(client):
    ok = pages.check({"game": LUN, "names": "Ann, Bob, Cy\nDee"})
    assert ok.names == ("Ann", "Bob", "Cy", "Dee")
    response = client.post("/custom", data={"game": WMN, "names": "Ann, Bob, Cy"})
    assert response.status_code == 422
    assert field_error(response.text, "names").endswith("got 3")
    assert field_error(response.text, "players") == ""
    assert 'id="f-players" aria-invalid' not in response.text
    help_text = unescape(re.sub(r"<[^>]+>", "", response.text))
    assert "Names separated by new lines or commas" in help_text


@pytest.mark.parametrize(("lang", "marks"), [("es", "«x»"), ("ru", "«x»"), ("de", "„x“"),
                                            ("en", "“x”")])
def test_a_value_in_an_error_is_quoted_as_the_page_language_quotes(client, lang, marks):
    response = client.post(f"/custom?lang={lang}", data={"game": LUN, "range": "x"})
    message = field_error(response.text, "range")
    assert marks in message, message
    if lang != "en":
        assert "“x”" not in message
    with pytest.raises(KitError) as english:  # the command line keeps its own marks
        resolve({"game": LUN, "range": "x"})
    assert str(english.value).startswith("range: “x” is not a range")


def test_another_games_setting_names_the_game_not_its_id(client):
    response = client.post("/custom", data={"game": WMN, "rounds": "3"})
    message = field_error(response.text, "rounds")
    assert message.startswith("is not a setting of What's My Number? kits")
    assert "whats-my-number" not in message


def test_errors_use_the_page_languages_labels(client):
    response = client.post("/custom?lang=de", data={"game": LUN, "range": "5-3"})
    w = words("de")
    assert summary(response.text)[0].startswith(w.gettext("Custom number range") + ": ")
    assert w.gettext("Custom number range") != "Custom number range"
    with pytest.raises(KitError) as english:  # the command line's message, defined once ...
        resolve({"game": LUN, "range": "5-3"})
    german = field_error(response.text, "range").removeprefix("Fehler: ")
    assert german == english.value.text(w) != english.value.message  # ... said in German


def test_a_message_is_defined_once_and_said_in_each_language():
    class Upper(Words):  # a catalog that translates every message
        def gettext(self, message, **values):
            return super().gettext(message, **values).upper()

    error = ConfigError("rounds", Msg("must be %(what)s; got %(got)s",
                                      what=Msg("a whole number from %(lo)s to %(hi)s", lo=1,
                                               hi=12), got="“0”"))
    assert str(error) == "rounds: must be a whole number from 1 to 12; got “0”"  # the CLI line
    assert error.text(Upper("en")) == "MUST BE A WHOLE NUMBER FROM 1 TO 12; GOT “0”"
    again = pickle_round_trip(error)
    assert again.said == error.said and str(again) == str(error)
    with pytest.raises(Problems) as found:
        pages.check({"game": LUN, "players": "x", "rounds": "0"})
    assert [p.field for p in found.value.problems] == ["players", "rounds"]
    assert all(isinstance(p, KitError) and p.said is not None for p in found.value.problems)


def pickle_round_trip(error):
    import pickle

    return pickle.loads(pickle.dumps(error))


# --- 5. the result page confirms every option -----------------------------------------------

def settings_rows(html: str) -> dict[str, str]:
    box = re.search(r'<dl class="summary">(.*?)</dl>', html, re.S)[1]
    return {unescape(t): unescape(d) for t, d in
            re.findall(r"<dt>(.*?)</dt><dd[^>]*>(.*?)</dd>", box)}


def test_result_page_confirms_every_option(client):
    _, page = made(client, {"game": LUN, "players": "5", "rounds": "3", "cooperative": "true",
                            "range": "1-20", "lang": "fr", "date": "5 Dec"})
    rows = settings_rows(page.text)
    assert rows["Rounds"] == "3" and rows["Cooperative"] == "Yes"
    assert rows["Host plays"] == "No" and rows["Sudden death announced"] == "No"
    assert rows["Tables"] == "1" and rows["Numbers"] == "1 to 20 (custom range)"
    assert rows["Language"] == "Français" and rows["Event date"] == "5 Dec"
    assert rows["Players"].startswith("5 ")
    _, wmn = made(client, {"game": WMN, "players": "6", "turns": "10"})
    rows = settings_rows(wmn.text)
    assert rows["Turns"] == "10" and rows["Numbers"] == "1 to 50"


def test_preview_pages_open_large(client):
    _, page = made(client, {"game": LUN, "players": "4"})
    links = re.findall(r'<li><a href="([^"]+)"><img class="thumb"', page.text)
    assert links and all(re.search(r"\.pdf#page=\d+$", h) for h in links)
    assert links[0].endswith("/player-kit.pdf#page=1")  # the player kit first


# --- 6. phones: a chooser at the top ------------------------------------------------------------

def test_index_starts_with_a_game_paper_players_chooser(stub):
    html = stub.get("/").text
    chooser = re.search(r'<nav class="chooser".*?</nav>', html, re.S)[0]
    assert html.index('class="chooser"') < html.index('<section class="game"')
    for config in ready_configs([LUN], [4, 8], None):
        assert f'href="#kit-{config.folder_name}"' in chooser
        assert f'id="kit-{config.folder_name}"' in html


# --- 7. paper by region ---------------------------------------------------------------------

@pytest.mark.parametrize(("header", "paper"), [
    ("en-US,en;q=0.9", "letter"), ("es-MX", "letter"), ("fr-CA,fr;q=0.8", "letter"),
    ("en-PH", "letter"), ("en-GB,en;q=0.9", "a4"), ("de-DE", "a4"), ("fr", "a4"), (None, "a4"),
    ("en;q=0.9, en-US;q=0.8", "letter"),
])
def test_regional_paper(header, paper):
    assert pages.regional_paper(header) == paper


def test_letter_first_and_preselected_for_us_hosts(stub):
    us = stub.get("/", headers={"accept-language": "en-US,en;q=0.9"}).text
    assert us.index('id="lowest-unique-letter"') < us.index('id="lowest-unique-a4"')
    assert re.search(r'<option value="letter" selected>', us)
    assert re.search(r'<option value="letter" selected>',
                     stub.get("/custom", headers={"accept-language": "es-MX"}).text)
    uk = stub.get("/", headers={"accept-language": "en-GB"}).text
    assert uk.index('id="lowest-unique-a4"') < uk.index('id="lowest-unique-letter"')
    assert re.search(r'<option value="a4" selected>', uk)


# --- 8. open, then print ------------------------------------------------------------------------

def test_pdfs_open_inline_with_a_save_link_beside(client):
    form = client.get("/custom").text
    assert re.search(r'id="f-format-player-kit" name="format" value="player-kit" checked', form)
    location, page = made(client, {"game": LUN, "players": "4"})
    assert "get=player-kit" in location
    primary = re.search(r'<a class="open primary" href="([^"]+)">', page.text)[1]
    assert primary.endswith("/player-kit.pdf")
    response = client.get(primary)
    assert response.headers["content-disposition"].startswith("inline; filename=")
    save = re.search(rf'<a class="save" href="{re.escape(primary)}" download="([^"]+)"',
                     page.text)
    assert save and save[1].endswith("-player-kit.pdf")
    assert 'http-equiv="refresh"' not in page.text  # nothing downloads by itself
    zip_link = re.search(r'href="([^"]+/kit\.zip)" download="[^"]+\.zip"', page.text)
    assert zip_link and client.get(zip_link[1]).headers["content-disposition"].startswith(
        "attachment")


# --- 9. every language's ready-made kits, prewarmed behind requests -----------------------------

def test_every_language_gets_thumbnails_and_sizes(tmp_path):
    app = web_app.create_app(executor="thread", workers=1, prewarm=True, render=fake_render,
                             games=[LUN], players=[4], papers=["a4"],
                             store=RenderCache(tmp_path))
    every = ready_configs([LUN], [4], ["a4"], langs=list(LANGUAGES))
    service = app.state.service
    with TestClient(app) as client:
        deadline = time.monotonic() + 60  # a bound on the wait, not a timing check
        while (any(service.cache.get(pages.config_key(c)) is None for c in every)
               and time.monotonic() < deadline):
            time.sleep(0.05)
        for config in every:
            page = client.get(f"/?lang={config.lang}").text
            assert f'src="/thumbs/{config.folder_name}.png"' in page, config.lang
            assert "Preview being prepared" not in unescape(page)
            size = human_size(4096, words(config.lang))  # the player kit's size
            assert size in unescape(page), config.lang
    assert service.pool.started == len(every)


def test_a_card_keeps_its_sizes_and_thumbnail_once_its_kit_leaves_memory():
    config = ready_configs([LUN], [5], ["letter"], langs=["de"])[0]
    cards: dict = {}  # one server's memory of its cards
    planned = pages.kit_card(config, None, cards)
    assert planned.thumb is None and all(d.pdf_bytes is None for d in planned.documents)
    pages.kit_card(config, fake_render(config), cards)  # shown once while in memory
    assert pages.kit_card(config, None, {}).thumb is None  # another server never saw it
    card = pages.kit_card(config, None, cards)  # later, dropped from memory: the same card
    assert card.thumb == pages.thumb_url(config)
    assert [d.pdf_bytes for d in card.documents] == [2048, 4096]


def test_shuffle_is_a_checkbox_that_keeps_its_seed(client):
    fresh = client.get("/custom").text
    assert re.search(r'<input type="checkbox" id="f-shuffle" name="shuffle" value="1"'
                     r'(?! checked)', fresh)
    assert '<label for="f-shuffle">Shuffle the seating</label>' in fresh
    kept = client.get("/custom?game=lowest-unique&names=A1,B2,C3,D4&shuffle=7").text
    assert re.search(r'id="f-shuffle" name="shuffle" value="7" checked', kept)
    assert "SEED" not in fresh


def test_settings_too_long_for_a_url_are_edited_through_a_form(client):
    names = [f"Участник номер {i:03d}" for i in range(1, 121)]  # about 17 KB as a query
    location, page = made(client, {"game": LUN, "names": "\n".join(names), "title": "Big"})
    assert len(urlsplit(location).query) < 8 * 1024  # under the server's query cap
    assert page.status_code == 200 and "names=" not in location and "title=Big" in location
    form = re.search(r'<form class="actions" method="post" action="/custom[^"]*">(.*?)</form>',
                     page.text, re.S)[1]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))
    assert fields["edit"] == "1" and unescape(fields["names"]).splitlines() == names
    again = client.post("/custom", data={k: unescape(v) for k, v in fields.items()})
    assert again.status_code == 200  # the form, filled in, not a new kit
    assert re.search(r'<textarea id="f-names"[^>]*>' + re.escape("\n".join(names)), again.text)
