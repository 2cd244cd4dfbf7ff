"""Names and numbers inside sentences, in every language: French never writes "de Émile" (a
name stands where it needs no elided word), Russian never puts a name where it would need a
case ending (it stands as a subject or a label, in the nominative), and the host's tally of a
Lowest Unique Number round joins its numbers with the language's list separator ("1 ; 4"),
never a comma that reads as a decimal mark. Checked on the catalogs (every sentence shape) and
on the console's pages and report files as a French game master gets them.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from support.helpers import catalog_strings, texts

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")

from starlette.testclient import TestClient  # noqa: E402

# the placeholders that carry players' names (or lists of them) in the kit's sentences
NAME = (r"%\((?:name|names|player|players|winners|winner|missing|idle|finishers|orders|who|"
        r"first|second|target|other|others|known|near|guess)\)s")
# French words that elide before a vowel ("de Anne" must be "d'Anne"): a name never follows one
ELIDING = re.compile(r"(?<![\w’'])(?:de|que|le|la|ne|se|jusque|lorsque|puisque)\s+(?:<\w+>)?"
                     + NAME, re.I)
# vowel-initial names, as a French party has them
VOWEL_NAMES = ["Anne", "Émile", "Hugo", "Odile", "Bruno", "Chloé", "Denis"]
ELIDED_WRONG = re.compile(r"(?<![\w’'])(?:de|que|le|la)\s+(?:Anne|Émile|Hugo|Odile)\b", re.I)


def page_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())  # no-break spaces too


@pytest.fixture
def site(make_site):
    """The console's pages and API behind a test client that keeps the GM cookie."""
    _, app = make_site()
    return TestClient(app, follow_redirects=False)


def gm_of(client: TestClient, game: dict) -> dict[str, str]:
    client.get(f"/console/{game['id']}/gm/{game['gm_token']}")  # sets the GM cookie
    return {"Authorization": f"Bearer {game['gm_token']}"}


# --- French: no "de" before a name -------------------------------------------------------------

def test_no_french_sentence_puts_an_eliding_word_before_a_name() -> None:
    bad = [(msgid, s) for msgid, s in catalog_strings("fr") if ELIDING.search(s)]
    assert not bad, bad[:3]


def test_a_french_game_masters_pages_and_reports_never_write_de_before_a_vowel(site) -> None:
    client = site
    secrets = dict(zip(VOWEL_NAMES, (17, 42, 8, 55, 29, 36, 3), strict=True))
    game = client.post("/api/games", json={"game": "whats-my-number", "players": VOWEL_NAMES,
                                           "secrets": secrets, "range": "1-60",
                                           "lang": "fr"}).json()
    gm = gm_of(client, game)
    orders = {"Anne": [20, 30], "Hugo": [10, 70], "Odile": [5, 45, 9],
              "Bruno": {"list": {"Anne": 17, "Hugo": 8}}, "Chloé": [25], "Denis": [1, 2]}
    entered = client.post(f"/api/games/{game['id']}/turns", json={"orders": orders}, headers=gm)
    assert entered.status_code == 201, entered.text
    assert client.post(f"/api/games/{game['id']}/turns/1/publish", headers=gm).status_code == 200
    seen = {}
    for path in ("gm", ""):
        answer = client.get(f"/console/{game['id']}{'/' + path if path else ''}?lang=fr")
        assert answer.status_code == 200
        seen[path or "public"] = page_text(answer.text)
    for name in ("turn-reports.pdf", "private-slips.pdf", "gm-register.pdf"):
        answer = client.get(f"/console/{game['id']}/files/{name}")
        assert answer.status_code == 200, name
        seen[name] = " ".join(texts(answer.content))
    seen["report.txt"] = client.get(f"/console/{game['id']}/files/report.txt").text
    assert "Aucun ordre : Émile" in seen["public"] and "Aucun ordre" in seen["gm"]
    assert "Bruno, liste" in seen["turn-reports.pdf"] + seen["report.txt"]
    # the text report's list row: the French dash between the row and its count, not " - "
    assert re.search(r"\| Bruno, liste \(partielle\) — 2 bonnes réponses", seen["report.txt"])
    assert "il manque" in seen["private-slips.pdf"].lower()  # Bruno's list leaves players out
    for where, text in seen.items():
        assert not ELIDED_WRONG.search(text), (where, ELIDED_WRONG.search(text)[0])


# --- Russian: a name never stands where it would need a case ending ----------------------------

# prepositions and words that govern a case ("для Вера", "у Вера", "в списке Вера", "игрока
# Вера", "нет Денис"): a name after one of them would need an ending the kit cannot give it
GOVERNING = re.compile(r"(?<!\w)(?:для|у|от|к|ко|с|со|о|об|в|во|на|по|без|из|за|при|про|через|"
                       r"между|игрока|игроку|игроком|игроков|игрокам|список|списка|списке|"
                       r"число|числа|нет|называют|называет|находит|находят|чем)\s+(?:<\w+>)?"
                       + NAME, re.I)


def test_no_russian_sentence_puts_a_name_where_it_needs_a_case_ending() -> None:
    bad = [(msgid, s) for msgid, s in catalog_strings("ru") if GOVERNING.search(s)]
    assert not bad, bad[:3]


def test_no_german_sentence_gives_a_name_a_genitive_ending() -> None:
    bad = [(msgid, s) for msgid, s in catalog_strings("de") if re.search(NAME + r"(?:s\b|’|')", s)]
    assert not bad, bad[:3]


def test_a_russian_partial_list_names_its_players_in_the_nominative(site) -> None:
    client = site
    names = ["Вера", "Денис", "Егор", "Жанна", "Аня"]
    game = client.post("/api/games", json={"game": "whats-my-number", "players": names,
                                           "secrets": dict(zip(names, (5, 9, 14, 22, 30),
                                                               strict=True)),
                                           "range": "1-40", "lang": "ru"}).json()
    gm = gm_of(client, game)
    orders = {"Вера": {"list": {"Аня": 30}}, "Аня": [3, 99]}
    assert client.post(f"/api/games/{game['id']}/turns", json={"orders": orders},
                       headers=gm).status_code == 201
    open_turn = page_text(client.get(f"/console/{game['id']}/gm?lang=ru").text)
    assert ("Вера сдаёт неполный список (не названы: Денис, Егор и Жанна)" in open_turn)
    assert client.post(f"/api/games/{game['id']}/turns/1/publish", headers=gm).status_code == 200
    report = " ".join(texts(client.get(f"/console/{game['id']}/files/turn-reports.pdf").content))
    assert "Вера, список" in report and "Хода нет: Денис, Егор и Жанна" in report
    assert "Решение: Вера сдаёт список, в котором не названы: Денис, Егор и Жанна" in report
    assert "Решение: Аня, попытка 2 — вне диапазона" in report
    slips = " ".join(texts(client.get(f"/console/{game['id']}/files/private-slips.pdf").content))
    assert "В вашем списке не названы: Денис, Егор и Жанна." in slips
    public = page_text(client.get(f"/console/{game['id']}?lang=ru").text)
    assert "Хода нет: Денис, Егор и Жанна" in public
    for text in (open_turn, report, slips, public):
        # ("Хода нет" heads a column: the next cell is a name, not the sentence's object)
        assert not re.search(r"(?<!\w)(?:игрока|списке|(?<!Хода )нет|для|у) "
                             r"(?:Вера|Денис|Егор|Жанна|Аня)\b", text)


# --- the host's tally: the language's list separator -------------------------------------------

def test_a_french_hosts_tally_reads_numbers_apart_not_as_decimals(site) -> None:
    client = site
    party = client.post("/api/games", json={"game": "lowest-unique", "lang": "fr",
                                            "tables": [["Anne", "Bruno", "Chloé", "Denis"]],
                                            "rounds": 3}).json()
    gm = gm_of(client, party)
    choices = {"Anne": 4, "Bruno": 1, "Chloé": 4, "Denis": "pass"}
    entered = client.post(f"/api/games/{party['id']}/tables/1/rounds",
                          json={"choices": choices}, headers=gm)
    assert entered.status_code == 201, entered.text
    html = client.get(f"/console/{party['id']}/gm?lang=fr").text
    tally = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", html))
    assert tally["Choix triés"] == "1\u00a0; 4\u00a0; 4 (1 joueur a passé)", tally
    assert tally["Annulés"] == "4" and tally["Nombres uniques"] == "1"
    assert "1, 4" not in page_text(html)


# --- answer letters and player labels in one language --------------------------------------------

@pytest.mark.parametrize("page_lang", ["de", "en", "es", "ru"])
def test_a_french_games_report_keeps_its_letters_on_a_page_in_another_language(site, page_lang
                                                                               ) -> None:
    """A French 14-player game's labels skip the French answer letters (S, I, X) but keep H, L
    and N; its report on a German (or English...) page must not answer in H/N beside them."""
    from kit.games.whats_my_number.sheets.people import answers, labels
    from kit.i18n import words

    client = site
    game = client.post("/api/games", json={"game": "whats-my-number", "players": 14,
                                           "lang": "fr"}).json()
    gm = gm_of(client, game)
    players = labels(14, words("fr"))
    assert {"H", "L", "N"} <= set(players)  # the case the page got wrong
    orders = {p: [1 + i, 30 + i] for i, p in enumerate(players)}
    assert client.post(f"/api/games/{game['id']}/turns", json={"orders": orders},
                       headers=gm).status_code == 201
    assert client.post(f"/api/games/{game['id']}/turns/1/publish", headers=gm).status_code == 200
    french = set(answers(words("fr")).values())
    for path in (f"/console/{game['id']}/gm", f"/console/{game['id']}"):
        html = client.get(f"{path}?lang={page_lang}").text
        table = re.search(r'<table class="report">(.*?)</table>', html, re.S)
        assert table, path
        cells = {c for c in re.findall(r"<td>([^<]*)</td>", table[1]) if c and not c.isdigit()}
        assert cells and cells <= french, (path, cells - french)
        assert not cells & set(players)


# --- the GM register's header fits in every language --------------------------------------------

@pytest.mark.parametrize("lang", ["en", "fr", "de", "es", "ru"])
def test_the_gm_registers_header_is_printed_whole(site, lang: str) -> None:
    from kit.games.whats_my_number.report.gm_register import register_header
    from kit.i18n import words

    client = site
    game = client.post("/api/games", json={"game": "whats-my-number", "lang": lang,
                                           "players": ["Anne", "Bruno", "Chloé", "Denis"]}
                       ).json()
    gm = gm_of(client, game)
    assert client.post(f"/api/games/{game['id']}/turns", json={"orders": {"Anne": [3, 4]}},
                       headers=gm).status_code == 201
    assert client.post(f"/api/games/{game['id']}/turns/1/publish", headers=gm).status_code == 200
    pages = texts(client.get(f"/console/{game['id']}/files/gm-register.pdf").content)
    text = " ".join(pages)
    assert "…" not in pages[0]
    for caption in register_header(words(lang)):
        assert all(part in text for part in caption.split()), (lang, caption)


# --- the erratum shows what a reader can see ------------------------------------------------------

def test_a_french_erratum_says_a_removed_row_once_and_never_dash_to_dash(site) -> None:
    from kit.games.whats_my_number.console.pages import amend_lines
    from kit.i18n import words

    client = site
    players = ["Anne", "Bruno", "Chloé", "Denis"]
    game = client.post("/api/games", json={"game": "whats-my-number", "players": players,
                                           "secrets": {"Anne": 3, "Bruno": 5, "Chloé": 7,
                                                       "Denis": 9},
                                           "range": "1-30", "lang": "fr"}).json()
    gm = gm_of(client, game)
    turns = f"/api/games/{game['id']}/turns"
    assert client.post(turns, json={"orders": {"Anne": [5, 6, 9]}}, headers=gm).status_code == 201
    assert client.post(f"{turns}/1/publish", headers=gm).status_code == 200
    checked = client.post(f"{turns}/1/amend", json={"orders": {"Anne": [5, 6]}}, headers=gm)
    assert checked.status_code == 200, checked.text
    changes = checked.json()["changes"]
    assert sum(c["row"] == "Anne 3" for c in changes) == 5  # its status and its four cells
    lines = amend_lines(changes, words("de"), words("fr"))  # a German page, a French game
    assert lines == ["Zug 1, Zeile Anne 3, Spalte ganze Zeile: (ignoré) → Zeile entfällt"]
    assert client.post(f"{turns}/1/amend", json={"orders": {"Anne": [5, 6]}, "confirm": True},
                       headers=gm).status_code == 200
    erratum = " ".join(texts(client.get(f"/console/{game['id']}/files/erratum.pdf").content))
    assert "Anne 3 ligne entière (ignoré) ligne supprimée" in erratum
    register = " ".join(texts(client.get(f"/console/{game['id']}/files/gm-register.pdf").content))
    assert "Anne 3, ligne entière : (ignoré) → ligne supprimée" in register
    assert "— → —" not in register


# --- German after a semicolon, the host's link, the TOML parser's words ---------------------------

def test_the_turn_summary_in_german_goes_on_in_lower_case_after_its_semicolons() -> None:
    import tomllib

    from support.helpers import ROOT

    from kit.games.whats_my_number.report.report_plan import summary
    from kit.games.whats_my_number.rules.logfile import parse_game_log
    from kit.i18n import words

    data = tomllib.loads((ROOT / "tests" / "data" / "wmn-7p-4t.toml").read_text("utf-8"))
    log = parse_game_log(data)
    assert summary(log, 2, words("de")).startswith("nichts abgegeben: Cy; nächster Zug: ")
    assert summary(log, 2, words("en")).startswith("No orders: Cy; Next turn: ")  # as it was
    assert words("de").after_semicolon("Nichts abgegeben") == "nichts abgegeben"


def test_a_lowest_unique_number_page_speaks_of_the_hosts_link(site) -> None:
    client = site
    for lang, host, master in (("fr", "lien de l’animateur", "maître du jeu"),
                               ("es", "enlace del anfitrión", "director de juego"),
                               ("en", "host link", "game master")):
        party = client.post("/api/games", json={"game": "lowest-unique", "lang": lang,
                                                "tables": [["Anne", "Bruno", "Chloé"]]}).json()
        gm_of(client, party)
        html = client.get(f"/console/{party['id']}/gm?lang={lang}").text
        links = page_text(re.search(r'<details class="game-links".*?</details>\s*</details>',
                                    html, re.S)[0])
        assert host in links.lower() and master not in links.lower(), (lang, links)


def test_the_toml_parsers_english_is_marked_as_technical_in_french() -> None:
    import tomllib

    from kit.i18n import words
    from kit.tomlhelp import explained

    text = 'players = ["A", "B"\n'
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        said = explained(text, str(error))
    french = said.text(words("fr"))
    assert re.match(r"ligne \d+, colonne \d+\u00a0: ", french), french
    assert "(message technique, en anglais\u00a0: " in french
    assert "(TOML: " in str(said)  # the command line's English line is as it was


# --- a game's own language -------------------------------------------------------------------

@pytest.mark.parametrize(("header", "expected"), [
    (None, "fr"),  # a phone that names no language
    ("ja, ko;q=0.8", "fr"),  # none of ours
    ("*", "fr"),  # any
    ("en-US,en;q=0.9", "en"),  # the phone's own, when it is one of ours
    ("de-CH", "de"),
])
def test_a_games_pages_speak_its_language_when_the_phone_speaks_none_of_ours(
        site, header: str | None, expected: str) -> None:
    game = site.post("/api/games", json={"game": "whats-my-number", "lang": "fr",
                                         "players": ["Ann", "Bob", "Cy", "Dee"],
                                         "secrets": {"Ann": 3, "Bob": 9, "Cy": 14, "Dee": 22}}
                     ).json()
    token = game["player_links"]["Ann"].rsplit("/", 1)[1]
    headers = {} if header is None else {"Accept-Language": header}
    for path in ("", f"/p/{token}", "/standings"):
        page = site.get(f"/console/{game['id']}{path}", headers=headers)
        assert page.status_code == 200, path
        assert f'<html lang="{expected}"' in page.text, path
    chosen = site.get(f"/console/{game['id']}?lang=es", headers=headers)
    assert '<html lang="es"' in chosen.text  # a language chosen on the page wins
    start = site.get("/console", headers=headers).text  # no game: the site's own default
    assert f'<html lang="{expected if expected != "fr" else "en"}"' in start
