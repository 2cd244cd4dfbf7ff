"""Problems said once, in every language: the engine's and the service's problems are
``kit.errors.Msg``s, so a French console page shows them in French beside their field (the
field's words too: "tour 1, joueur Dee"), while ``kit report`` prints the same problems' English
``Error:`` lines, byte for byte as before.

The French words below stand in for the translators' (the catalogs are filled after these
messages are extracted): they are added to the French catalog for these tests only.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")

from starlette.testclient import TestClient  # noqa: E402

import kit.i18n  # noqa: E402
from kit.cli import main  # noqa: E402
from kit.console.pages import auth as guard  # noqa: E402
from kit.errors import GameLogError, Msg  # noqa: E402
from kit.games.whats_my_number.console.grid import Grid, absorb  # noqa: E402
from kit.games.whats_my_number.rules.logfile import parse_game_log  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
FRENCH = {
    "turn %(turn)s, player %(player)s": "tour %(turn)s, joueur %(player)s",
    "the list gives %(name)s %(got)s, outside the range %(lo)s to %(hi)s":
        "la liste donne %(got)s à %(name)s, hors de l’intervalle %(lo)s à %(hi)s",
    "%(field)s: %(message)s": "%(field)s\u00a0: %(message)s",
    "%(lo)s-%(hi)s holds %(size)s, but %(players)s players need at least %(players)s, so the "
    "highest number must be at least %(least)s (the default for %(players)s players is "
    "%(lo_default)s-%(hi_default)s)":
        "%(lo)s-%(hi)s ne contient que %(size)s pour %(players)s joueurs : le plus grand nombre "
        "doit être au moins %(least)s (par défaut : %(lo_default)s-%(hi_default)s)",
}
FRENCH_PLURALS = {("%(num)s number", "%(num)s numbers"): ("%(num)s nombre", "%(num)s nombres")}


class WithTestWords:
    """The French catalog, plus the words above."""

    def __init__(self, real) -> None:
        self.real = real

    def gettext(self, message: str) -> str:
        return FRENCH.get(message) or self.real.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = FRENCH_PLURALS.get((singular, plural))
        return (forms[0] if n < 2 else forms[1]) if forms else self.real.ngettext(singular,
                                                                                plural, n)

    def __getattr__(self, name: str):
        return getattr(self.real, name)


@pytest.fixture
def french(monkeypatch):
    real = kit.i18n._translations
    monkeypatch.setattr(kit.i18n, "_translations",
                        lambda lang: WithTestWords(real(lang)) if lang == "fr" else real(lang))


@pytest.fixture
def console(make_site):
    service, app = make_site()
    return service, TestClient(app, follow_redirects=False)


def text_of(html: str, element_id: str) -> str:
    """The text of the element with ``element_id`` (a problem box), tags dropped."""
    found = re.search(rf'<div class="field-error" id="{element_id}">(.*?)</div>', html, re.S)
    assert found, f"no problem box {element_id}"
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found[1])).split())


def test_a_french_grid_shows_the_engines_problem_in_french_on_its_players_row(french, console):
    service, client = console
    made = service.create_game({"game": "whats-my-number", "players": PLAYERS, "range": "1-30"})
    assert client.get(f"/console/{made.id}/gm/{made.gm_token}").status_code == 303
    version = service.state(made.id).version
    # Dee lists Bob's number as 99: the engine refuses it (outside the range), on Dee's row.
    posted = client.post(f"/console/{made.id}/gm/turn", headers={"accept-language": "fr"},
                         data={"csrf": guard.csrf_token(made.id, made.gm_token),
                               "version": str(version), "t3": "1", "l3_0": "5", "l3_1": "99",
                               "l3_2": "7"})
    assert posted.status_code == 422
    assert posted.headers["content-language"] == "fr"
    box = text_of(posted.text, "err-3")
    assert "la liste donne 99 à Bob, hors de l’intervalle 1 à 30" in box
    assert "outside the range" not in posted.text
    assert re.search(r'<tr id="row-3"[^>]* class="has-error', posted.text)
    assert service.state(made.id).version == version  # nothing was entered


def test_an_english_grid_says_the_same_problem_as_the_command_line(console):
    service, client = console
    made = service.create_game({"game": "whats-my-number", "players": PLAYERS, "range": "1-30"})
    client.get(f"/console/{made.id}/gm/{made.gm_token}")
    posted = client.post(f"/console/{made.id}/gm/turn", headers={"accept-language": "en"},
                         data={"csrf": guard.csrf_token(made.id, made.gm_token),
                               "version": str(service.state(made.id).version), "t3": "1",
                               "l3_0": "5", "l3_1": "99", "l3_2": "7"})
    assert posted.status_code == 422
    assert text_of(posted.text, "err-3") == ("Error: the list gives Bob 99, outside the range "
                                             "1 to 30")


def test_a_french_start_form_shows_the_range_problem_in_french_beside_the_range(french,
                                                                                console):
    _, client = console
    page = client.post("/console/new/wmn", headers={"accept-language": "fr"},
                       data={"names": "\n".join(PLAYERS), "range": "1-3", "draw": "random",
                             "lang": "fr", "paper": "a4"})
    assert page.status_code == 422
    box = text_of(page.text, "wmn-range-error")
    assert "1-3 ne contient que 3 nombres pour 4 joueurs" in box, box
    assert "holds" not in page.text


def test_a_problem_said_in_french_is_the_command_lines_english_line(french, tmp_path,
                                                                     capsys):
    log = ('game = "whats-my-number"\nplayers = ["Ann", "Bob", "Cy", "Dee"]\nrange = "1-30"\n'
           "[secrets]\nAnn = 5\nBob = 6\nCy = 7\nDee = 8\n"
           "[[turn]]\nAnn = [1, 2]\nBob = [3, 4]\nCy = [5, 6]\n"
           "Dee = { list = { Ann = 5, Bob = 99, Cy = 7 } }\n")
    path = Path(tmp_path / "game.toml")
    path.write_text(log, encoding="utf-8")
    code = main(["report", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert (code, err) == (2, "Error: turn 1, player Dee: the list gives Bob 99, outside the "
                              "range 1 to 30\n")
    assert not (tmp_path / "out").exists()
    import tomllib

    with pytest.raises(GameLogError) as raised:
        parse_game_log(tomllib.loads(log))
    problem = raised.value
    assert isinstance(problem.said, Msg) and isinstance(problem.place, Msg)
    french_words = kit.i18n.Words("fr")
    assert problem.where(french_words) == "tour 1, joueur Dee"
    assert problem.text(french_words) == "la liste donne 99 à Bob, hors de l’intervalle 1 à 30"
    grid = Grid()
    absorb(grid, problem, PLAYERS, french_words)
    assert grid.rows == {3: ["la liste donne 99 à Bob, hors de l’intervalle 1 à 30"]}


def test_a_problem_line_names_its_field_in_any_language() -> None:
    from kit.errors import GameLogError
    from kit.game import said
    from kit.i18n import words

    problem = GameLogError("undo", "nothing to undo")
    assert said.line(problem, None) == "undo: nothing to undo"
    for lang in ("en", "fr", "de", "es", "ru"):  # gettext's own parameters never clash
        assert said.line(problem, words(lang)).endswith("nothing to undo")


def test_the_409_page_says_what_changed_in_the_pages_language(french, console, monkeypatch):
    from kit.console.service import Conflict

    monkeypatch.setitem(FRENCH, "turn %(turn)s: orders for %(names)s",
                        "tour %(turn)s\u00a0: ordres de %(names)s")
    service, client = console
    made = service.create_game({"game": "whats-my-number", "players": PLAYERS, "range": "1-30"})
    client.get(f"/console/{made.id}/gm/{made.gm_token}")
    seen = service.state(made.id).version
    # another window
    service.enter(made.id, "orders", {"orders": {"Ann": [1, 2], "Cy": [3, 4]}}, version=seen)
    stale = client.post(f"/console/{made.id}/gm/turn", headers={"accept-language": "fr"},
                        data={"csrf": guard.csrf_token(made.id, made.gm_token),
                              "version": str(seen), "n1": "1"})
    assert stale.status_code == 409
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", stale.text)).split())
    assert "tour 1 : ordres de Ann, Cy" in text  # (split() took the no-break space)
    assert "orders for" not in text
    with pytest.raises(Conflict) as raised:  # the service's own 409: English for the API ...
        service.enter(made.id, "publish", {}, {"turn": 1}, version=seen)
    assert raised.value.changes[0]["text"] == "turn 1: orders for Ann, Cy"
    said = raised.value.changes_said[0]  # ... and the same line for a page in its language
    assert said.text(kit.i18n.Words("fr")) == "tour 1\u00a0: ordres de Ann, Cy"


@pytest.fixture
def fresh_templates(french, monkeypatch):
    """Templates made again with the test's French words (they keep their catalog; Jinja
    asks for ``ugettext`` first)."""
    from kit.server import templates

    monkeypatch.setattr(WithTestWords, "ugettext", WithTestWords.gettext, raising=False)
    monkeypatch.setattr(WithTestWords, "ungettext", WithTestWords.ngettext, raising=False)
    templates.site_environment.cache_clear()
    yield
    templates.site_environment.cache_clear()


def test_a_french_error_summary_puts_the_space_before_the_colon(fresh_templates, console,
                                                                monkeypatch):
    monkeypatch.setitem(FRENCH, "%(name)s: %(problem)s", "%(name)s\u00a0: %(problem)s")
    service, client = console
    made = service.create_game({"game": "whats-my-number", "players": PLAYERS, "range": "1-30"})
    client.get(f"/console/{made.id}/gm/{made.gm_token}")
    posted = client.post(f"/console/{made.id}/gm/turn", headers={"accept-language": "fr"},
                         data={"csrf": guard.csrf_token(made.id, made.gm_token),
                               "version": str(service.state(made.id).version), "t3": "1",
                               "l3_0": "5", "l3_1": "99", "l3_2": "7"})
    summary = re.search(r'<div class="error-summary".*?</ul>', posted.text, re.S)[0]
    assert ('<a href="#l3_1">Dee\u00a0: la liste donne 99 à Bob, hors de l’intervalle 1 à 30'
            '</a>') in unescape(summary)
