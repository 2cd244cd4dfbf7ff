"""The translation catalogs: up to date with the code and templates, complete, and well formed.

The template (kit/locale/messages.pot) must list exactly what ``pybabel extract`` finds today;
every language's catalog must translate every message (all plural forms), with no fuzzy
entries and the same placeholders as the English.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po
from support.helpers import ROOT, catalog_strings

from kit.i18n import CATALOGS, DEFAULT, LANGUAGES, catalog_path, words

POT = CATALOGS / "messages.pot"
TRANSLATED = [lang for lang in LANGUAGES if lang != DEFAULT]


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-c", "from babel.messages.frontend import main; main()",
                    *args], cwd=ROOT, check=True, capture_output=True)


def ids(catalog) -> set:
    return {m.id if isinstance(m.id, str) else tuple(m.id) for m in catalog if m.id}


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("pot") / "messages.pot"
    pybabel("extract", "-F", "babel.cfg", "-k", "N_", "--no-location", "-o", str(out), ".")
    with open(out, "rb") as handle:
        return read_po(handle)


def test_the_template_is_up_to_date(extracted) -> None:
    with open(POT, "rb") as handle:
        committed = read_po(handle)
    assert ids(committed) == ids(extracted), (
        "kit/locale/messages.pot is out of date: run the pybabel commands in kit/i18n.py")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: str, extracted) -> None:
    with open(catalog_path(lang), "rb") as handle:
        catalog = read_po(handle, locale=lang)
    missing = ids(extracted) - ids(catalog)
    assert not missing, (f"{lang}: {len(missing)} messages missing, e.g. "
                         f"{sorted(missing, key=str)[:3]}")  # plural ids are tuples
    problems = []
    for message in catalog:
        if not message.id:
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            problems.append(f"untranslated: {message.id!r}")
    for message, errors in catalog.check():
        problems += [f"{message.id!r}: {error}" for error in errors]
    assert not problems, f"{lang}: " + "; ".join(problems[:5])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_gnu_msgfmt_and_babel_compile_the_catalog(lang: str, tmp_path) -> None:
    """Translators' tools (GNU gettext) must read the catalogs as Babel does: no obsolete
    entries (an obsolete copy of an active msgid is a fatal duplicate for msgfmt) and the
    same placeholders in every plural form."""
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "GNU msgfmt is missing: install the gettext package (.ci/run does)"
    checked = subprocess.run([msgfmt, "--check", "--statistics", "-o", str(tmp_path / "gnu.mo"),
                              str(catalog_path(lang))], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert "fatal" not in checked.stderr and " translated message" in checked.stderr
    assert "untranslated" not in checked.stderr and "fuzzy" not in checked.stderr
    with open(catalog_path(lang), "rb") as handle:
        catalog = read_po(handle, locale=lang)
    assert not catalog.obsolete, (f"{lang}: {len(catalog.obsolete)} obsolete entries: run "
                                  "pybabel update with --ignore-obsolete")
    pybabel("compile", "-l", lang, "-i", str(catalog_path(lang)),
            "-o", str(tmp_path / "babel.mo"), "--statistics")
    assert (tmp_path / "gnu.mo").stat().st_size > 0 and (tmp_path / "babel.mo").stat().st_size > 0


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_language_is_really_used(lang: str) -> None:
    text = words(lang).gettext("Score sheet")
    assert text and text != "Score sheet"
    assert words(lang).ngettext("%(num)s player", "%(num)s players", 3) != "3 players"


TRANS_BLOCK = re.compile(r"\{%-?\s*trans\b(?P<args>.*?)-?%\}(?P<body>.*?)\{%-?\s*endtrans",
                         re.S)


def test_plurals_follow_their_count() -> None:
    """Jinja2 picks a plural form by the block's first value unless ``pluralize`` names one;
    with a real catalog a text value there fails (``Plural value must be an integer``)."""
    wrong = []
    for template in sorted([*ROOT.glob("templates/**/*.html"),
                            *ROOT.glob("kit/games/*/templates/**/*.html")]):
        for block in TRANS_BLOCK.finditer(template.read_text(encoding="utf-8")):
            plural = re.search(r"\{%-?\s*pluralize\s*(\w*)", block["body"])
            if plural is None:
                continue
            first = block["args"].split("=", 1)[0].strip()
            if (plural[1] or first) != "count":
                wrong.append(f"{template.relative_to(ROOT)}: {block['args'].strip()}")
    assert wrong == [], "write {% pluralize count %}: " + "; ".join(wrong)


# --- answer letters and player labels ----------------------------------------------------------

@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_player_label_reads_as_an_answer(lang: str) -> None:
    from kit.game import KitConfig
    from kit.games.whats_my_number.rules.labels import LOOKALIKE
    from kit.games.whats_my_number.sheets import people

    w = words(lang)
    marks = set(people.answers(w).values())
    looks = {LOOKALIKE.get(mark, mark) for mark in marks}
    for count in (8, 12, 13, 26, 30, 100):
        labels = people.labels(count, w)
        assert len(set(labels)) == count
        assert not any(label in marks | looks or set(label) & (marks | looks)
                       for label in labels), (lang, count, labels)
    # the kit's grids, forms and registers take their letters from here
    config = KitConfig("whats-my-number", 13, (), "a4", (1, 120), False, lang=lang)
    assert [p.letter for p in people.people(config)] == people.labels(13, w)
    if lang == "en":  # the reference's H, L and X stay; players H and L are gone
        assert people.labels(12, w)[-5:] == ["I", "J", "K", "M", "N"]


# --- formats that follow the language ----------------------------------------------------------

@pytest.mark.parametrize("lang", TRANSLATED)
def test_percent_signs_follow_the_language(lang: str) -> None:
    # Babel writes 1.00 % with a no-break space in these languages; the catalogs must agree
    assert words(lang).percent(0.01) == "1,00\u00a0%"
    bad = [s for _, s in catalog_strings(lang) if re.search(r"\d ?%(?!\()", s)]
    assert not bad, bad[:3]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_game_titles_inside_sentences_are_quoted(lang: str) -> None:
    start, end = words(lang).quote("|").split("|")
    inside = [(msgid, s) for msgid, s in catalog_strings(lang)
              if re.search(r"%\(games?\)s", msgid) and not re.match(r"%\(game\)s —", msgid)
              and not msgid.startswith("%(game)s:") and "%(game)s " in msgid + " "]
    assert inside
    bad = [s for _, s in inside if not re.search(re.escape(start) + r"%\(games?\)s"
                                                 + re.escape(end), s)]
    assert not bad, bad[:3]


def test_lists_of_numbers_cannot_read_as_decimals() -> None:
    assert words("en").numbers([1, 1, 2, 3, 3, 8], compact=True) == "1,1,2,3,3,8"
    assert words("en").numbers([1, 2]) == "1, 2"
    for lang in TRANSLATED:  # the comma is the decimal mark
        assert "," not in words(lang).numbers([1, 1, 2, 3, 3, 8])
        assert words(lang).numbers([1, 1, 2], compact=True) == "1 1 2"
    assert words("fr").numbers([1, 2]) == "1\u00a0; 2"
    assert words("de").semicolon == "; " and words("fr").semicolon == "\u00a0; "


def test_no_capital_after_a_colon_where_the_language_has_none() -> None:
    assert words("fr").after_colon("Le plus petit nombre unique gagne") == \
        "le plus petit nombre unique gagne"
    assert words("ru").after_colon("Очко получает А") == "очко получает А"
    assert words("de").after_colon("Sieht nach Gleichstand aus") == "Sieht nach Gleichstand aus"
    assert words("en").after_colon("No winner") == "No winner"
    assert words("fr").after_colon("<bdi>Ann</bdi> marque") == "<bdi>Ann</bdi> marque"


def test_the_host_and_the_game_master_have_their_own_words() -> None:
    from kit.plan import kit_plan

    for lang in ("en", "fr", "es"):  # German (Spielleitung) and Russian (ведущий) share one
        w = words(lang)
        host = kit_plan("f", "T", "", (), (), words=w)
        master = kit_plan("f", "T", "", (), (), words=w, game_master=True)
        assert host.host_notice != master.host_notice, lang
        assert host.documents[1].title != master.documents[1].title, lang
    assert "GAME MASTER ONLY" in kit_plan("f", "T", "", (), (), game_master=True).host_notice
    fr = words("fr")
    assert "MJ" in kit_plan("f", "T", "", (), (), words=fr, game_master=True).host_notice
    assert "ANIMATEUR" in kit_plan("f", "T", "", (), (), words=fr).host_notice


# --- compiled catalogs ----------------------------------------------------------------------------

def test_a_compiled_catalog_never_answers_for_an_edited_one(tmp_path, monkeypatch) -> None:
    """The wheel's build compiles each catalog beside it; a catalog edited since is read from
    its .po (not the older compiled file), and compiling again replaces the older file."""
    import kit.i18n as i18n

    locale = tmp_path / "locale"
    shutil.copytree(CATALOGS, locale, ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setattr(i18n, "CATALOGS", locale)
    i18n._translations.cache_clear()
    try:
        first = i18n.compile_catalogs()
        assert sorted(p.parent.parent.name for p in first) == sorted(TRANSLATED)
        assert words("fr").gettext("Rules") == "Règles"
        po = catalog_path("fr")
        po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Règles"',
                                                             'msgstr "Les règles"', 1),
                      encoding="utf-8")
        i18n._translations.cache_clear()
        assert words("fr").gettext("Rules") == "Les règles"  # not the compiled "Règles"
        again = i18n.compile_catalogs()
        fr = [p for p in again if p.parent.parent.name == "fr"]
        assert fr != [p for p in first if p.parent.parent.name == "fr"]
        assert sorted(p.name for p in po.parent.glob("*.mo")) == [fr[0].name]
    finally:
        i18n._translations.cache_clear()
