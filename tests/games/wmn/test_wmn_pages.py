"""What's My Number? report pages for a live game: the house rulings on the rules sheet and the
GM card; the turn report's closing lines (no orders, rulings, next turn's allowances, why the
winner won); marked void and ignored guesses and partial lists; the GM register's record of
rulings and amendments; private slips; the erratum; PDF bookmarks and HTML anchors.

Texts are read back from the PDFs (pypdf; pdfplumber to cut a page of slips into its slips);
the shared 7-player, 4-turn log (tests/data/wmn-7p-4t.toml) has every ruling.
"""

from __future__ import annotations

import io
import re
import shutil
import tomllib
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader
from support.helpers import ROOT, build_kit, plain, texts

from kit.build import finish, plan_recipe
from kit.cli import main
from kit.game import KitConfig
from kit.games.whats_my_number import rules
from kit.games.whats_my_number.report.slips import slip_lines
from kit.i18n import LANGUAGES, words
from kit.layout.model import text
from kit.plan import Document, Form, KitPlan, Page

LOG = ROOT / "tests" / "data" / "wmn-7p-4t.toml"
MM = 72 / 25.4

# Every secret above 10, so that no position, count, turn or allowance on a slip can equal one:
# a secret's number on a slip can only come from the slip's own player.
SECRETS_LOG = """\
game = "whats-my-number"
players = ["Ann", "Bob", "Cy", "Dee", "Eve"]
range = "1-90"
[secrets]
Ann = 23
Bob = 47
Cy = 31
Dee = 58
Eve = 64
[[turn]]
Ann = [47, 12]
Bob = [23, 31, 80]
Cy = { list = { Ann = 23, Bob = 40, Dee = 58 } }
Dee = [95, 64]
[[turn]]
Ann = [31, 58, 64]
Bob = [58, 64]
Cy = [23, 47]
Eve = [11, 12]
"""


def outline(path: Path) -> list[tuple[str, int]]:
    reader = PdfReader(path)
    return [(item.title, reader.get_destination_page_number(item)) for item in reader.outline]


def anchors(path: Path) -> list[str]:
    return re.findall(r'<section id="([^"]+)"', path.read_text(encoding="utf-8"))


def report_folder(log_text: str, out: Path, *argv: str) -> Path:
    log = out / "game.toml"
    log.write_text(log_text, encoding="utf-8")
    assert main(["report", str(log), "--out", str(out / "reports"), *argv]) == 0
    (folder,) = [p for p in (out / "reports").iterdir() if p.is_dir()]
    return folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return report_folder(LOG.read_text(encoding="utf-8"), tmp_path_factory.mktemp("wmn7"))


@pytest.fixture(scope="module")
def reports(folder: Path) -> list[str]:
    return [plain(t) for t in texts(folder / "turn-reports.pdf")]


# --- bookmarks and anchors, the mechanism ---------------------------------------------------------


def plan_with_marks(marks: list[tuple[str | None, str | None]]) -> KitPlan:
    pages = tuple(Page(f"Page {i}", Form(tuple(text(20, 40, f"Body {i}", 12))),
                       bookmark=bookmark, anchor=anchor)
                  for i, (bookmark, anchor) in enumerate(marks, start=1))
    return KitPlan("marks", "Game", (Document("doc", "Doc", pages),), "banner")


def draw_plan(plan: KitPlan) -> dict[str, bytes]:
    config = KitConfig(game=rules.NAME, players=0, names=(), paper="a4", range=(1, 1),
                       custom_range=False, out="", party="marks", lang="en")
    return finish(plan_recipe(plan, config), {}).files


def test_bookmarks_open_their_pages_and_anchors_name_their_sections() -> None:
    files = draw_plan(plan_with_marks([("First", "one"), (None, None), ("Third", "three")]))
    reader = PdfReader(io.BytesIO(files["doc.pdf"]))
    assert [(o.title, reader.get_destination_page_number(o)) for o in reader.outline] == [
        ("First", 0), ("Third", 2)]
    assert reader.trailer["/Root"]["/PageMode"] == "/UseOutlines"
    html = files["doc.html"].decode()
    assert re.findall(r'<section id="([^"]+)"', html) == ["one", "three"]
    assert html.count("<section ") == 3
    assert draw_plan(plan_with_marks([("First", "one"), (None, None), ("Third", "three")])
                     )["doc.pdf"] == files["doc.pdf"]  # the same bytes again


def test_pages_without_bookmarks_make_no_outline() -> None:
    files = draw_plan(plan_with_marks([(None, None), (None, None)]))
    reader = PdfReader(io.BytesIO(files["doc.pdf"]))
    assert reader.outline == []
    assert reader.trailer["/Root"].get("/PageMode") != "/UseOutlines"
    assert "<section id=" not in files["doc.html"].decode()


def test_every_turn_has_a_bookmark_and_an_anchor(folder: Path) -> None:
    assert outline(folder / "turn-reports.pdf") == [(f"Turn {n}", n - 1) for n in range(1, 5)]
    assert anchors(folder / "turn-reports.html") == [f"turn-{n}" for n in range(1, 5)]
    assert outline(folder / "private-slips.pdf") == [(f"Turn {n} slips", n - 1)
                                                      for n in range(1, 5)]
    assert anchors(folder / "private-slips.html") == [f"slips-turn-{n}" for n in range(1, 5)]


def test_a_turn_over_several_pages_has_one_bookmark_on_its_first(tmp_path: Path) -> None:
    players = [f"P{i:02d}" for i in range(1, 41)]  # 40 columns: split over landscape pages
    secrets = "\n".join(f"{p} = {10 + i}" for i, p in enumerate(players))
    log = (f'game = "whats-my-number"\nplayers = {players!r}\n[secrets]\n{secrets}\n'
           "[[turn]]\nP01 = [12, 13]\n[[turn]]\nP02 = [14]\n").replace("'", '"')
    folder = report_folder(log, tmp_path)
    reader = PdfReader(folder / "turn-reports.pdf")
    pages = len(reader.pages)
    assert pages >= 4
    marks = outline(folder / "turn-reports.pdf")
    assert [title for title, _ in marks] == ["Turn 1", "Turn 2"]
    assert marks[0][1] == 0 and 0 < marks[1][1] < pages
    assert "Turn 2 report" in reader.pages[marks[1][1]].extract_text()
    assert "Turn 1 report" in reader.pages[marks[1][1] - 1].extract_text()


# --- the turn report ------------------------------------------------------------------------------


def test_no_orders_and_next_turn_lines(reports: list[str]) -> None:
    assert "Next turn: Bob 3 guesses, Eve 4, everyone else 2" in reports[0]
    assert "No orders: Cy Next turn: Bob 4 guesses, Dee 4, Eve 3, Fay 4, Gus 3, everyone " \
           "else 2" in reports[1]
    assert "No orders" not in reports[0] + reports[2] + reports[3]
    assert "Next turn: Ann 4 guesses, Bob 4, Cy 4, Dee 5, Eve 3, Gus 5, everyone else 2" \
        in reports[2]
    assert "Next turn" not in reports[3]  # the game is over


def test_void_and_ignored_guesses_and_partial_lists_are_marked(reports: list[str]) -> None:
    assert "Cy 3 (ignored) no answers: beyond the allowance" in reports[0]
    assert "(ignored) a guess beyond the allowance: no answers" in reports[0]
    assert "Ruling: Cy was allowed 2 guesses; guess 3 is ignored." in reports[0]
    assert "(void)" not in reports[0] and "(partial)" not in reports[0]
    turn3 = reports[2]
    assert "Eve 3 (void) no answers: outside the range" in turn3
    assert "Fay List (partial) 5 correct of 5 listed; cannot win." in turn3
    assert "Gus 4 (ignored) no answers: beyond the allowance" in turn3
    assert ("(void) a guess outside the range: it keeps its place, no answers · (ignored) a "
            "guess beyond the allowance: no answers · (partial) a list that does not name "
            "every other player: it cannot win") in turn3
    for note in ("Ruling: Eve’s guess 3 is outside the range 1 to 60: void, no answers; later "
                 "guesses keep their places.",
                 "Ruling: Fay’s list does not name Gus: only its count is given, and it cannot "
                 "win.",
                 "Ruling: Gus was allowed 3 guesses; guess 4 is ignored."):
        assert note in turn3
    assert "63" not in turn3 and "(8)" not in turn3  # guessed numbers stay private


def test_the_winning_turn_explains_why_the_list_wins(reports: list[str]) -> None:
    assert ("Fay wins in turn 4, by a fully correct list. Finished this turn: Fay by a fully "
            "correct list, Bob with guess 1, Dee with guess 2 and Eve with guess 3. A fully "
            "correct list beats guesses.") in reports[3]
    assert "Finished this turn" not in " ".join(reports[:3])


def test_tie_explanations(tmp_path: Path) -> None:
    """Guessers only: the earliest place wins; equal places share."""
    head = ('game = "whats-my-number"\nplayers = ["A", "B", "C", "D"]\n[secrets]\n'
            "A = 11\nB = 12\nC = 13\nD = 14\n")
    turns = ("[[turn]]\nA = [12, 13]\nB = [11, 13]\nC = [11, 12]\n"
             "[[turn]]\nA = [14]\nB = [30, 14]\nC = [14]\n")
    reports = [plain(t) for t in texts(report_folder(head + turns, tmp_path)
                                       / "turn-reports.pdf")]
    assert ("A and C share the win in turn 2, by identifying every other number. Finished this "
            "turn: A with guess 1, B with guess 2 and C with guess 1. The earliest guess that "
            "found a player’s last number wins; equal places share the win.") in reports[1]


def test_closing_lines_that_do_not_fit_go_on_a_page_of_their_own(tmp_path: Path) -> None:
    """Thirty players each send a void first guess and a third guess beyond their two: sixty
    ruling notes, more than a page holds beside the table; they go on after it."""
    players = [f"Player{i:02d}" for i in range(1, 31)]
    secrets = "\n".join(f"{p} = {100 + i}" for i, p in enumerate(players))
    guesses = "\n".join(f"{p} = [300, 5, 6]" for p in players)
    log = (f'game = "whats-my-number"\nplayers = {players!r}\nrange = "1-290"\n'
           f"[secrets]\n{secrets}\n[[turn]]\n{guesses}\n").replace("'", '"')
    pages = [plain(t) for t in texts(report_folder(log, tmp_path) / "turn-reports.pdf")]
    assert len(pages) >= 3
    assert [re.search(r"Turn 1 report \((\d+) of (\d+)\)", p).groups() for p in pages] == [
        (str(n), str(len(pages))) for n in range(1, len(pages) + 1)]
    assert sum(p.count("Ruling: ") for p in pages) == 60
    for player in players:
        assert sum(p.count(f"Ruling: {player}’s guess 1 is outside") for p in pages) == 1
        assert sum(p.count(f"Ruling: {player} was allowed 2 guesses") for p in pages) == 1
    last = pages[-1]
    assert "Ruling: " in last and "Guess Player01" not in last  # notes only: no table
    assert "Next turn: everyone 2 guesses" in last
    assert sum(p.count("Next turn:") for p in pages) == 1


# --- the GM register ------------------------------------------------------------------------------


def test_register_records_rulings_and_why_the_winner_won(folder: Path) -> None:
    register = plain(" ".join(texts(folder / "gm-register.pdf")))
    assert "Finished this turn: Fay by a fully correct list, Bob with guess 1" in register
    assert "Rulings applied Turn What was decided" in register
    for entry in ("1 Ruling: Cy was allowed 2 guesses; guess 3 is ignored.",
                  "2 No orders: Cy",
                  "3 Ruling: Gus was allowed 3 guesses; guess 4 is ignored."):
        assert entry in register
    assert "3 Fay 5 (partial)" in register  # the lists submitted
    assert "Amendments" not in register
    assert outline(folder / "gm-register.pdf") == [("Secret register", 0)]
    assert anchors(folder / "gm-register.html") == ["register"]


def test_register_bookmarks_the_rulings_where_they_start(tmp_path: Path) -> None:
    players = [f"Player{i:02d}" for i in range(1, 31)]
    secrets = "\n".join(f"{p} = {100 + i}" for i, p in enumerate(players))
    guesses = "\n".join(f"{p} = [300, 5, 6]" for p in players)
    log = (f'game = "whats-my-number"\nplayers = {players!r}\nrange = "1-290"\n'
           f"[secrets]\n{secrets}\n[[turn]]\n{guesses}\n").replace("'", '"')
    folder = report_folder(log, tmp_path)
    marks = outline(folder / "gm-register.pdf")
    assert [title for title, _ in marks] == ["Secret register", "Rulings applied"]
    start = marks[1][1]
    pages = [plain(t) for t in texts(folder / "gm-register.pdf")]
    assert start >= 1 and "Rulings applied Turn" in pages[start]
    assert "Rulings applied" not in " ".join(pages[:start])
    assert "Rulings applied (continued)" in pages[-1]
    assert anchors(folder / "gm-register.html") == ["register", "rulings"]


# --- private slips --------------------------------------------------------------------------------


def slip_texts(pdf: Path) -> list[str]:
    """Every slip's text, cut out of its page along the cut lines (0.35 mm rules)."""
    found = []
    with pdfplumber.open(pdf) as document:
        for page in document.pages:
            cuts = [line for line in page.lines if round(line["linewidth"] / MM, 2) == 0.35]
            rows = sorted({round(line["top"], 1) for line in cuts
                           if abs(line["top"] - line["bottom"]) < 0.1})
            columns = sorted({round(line["x0"], 1) for line in cuts
                              if abs(line["x0"] - line["x1"]) < 0.1})
            for top, bottom in zip(rows, rows[1:], strict=False):
                for left, right in zip(columns, columns[1:], strict=False):
                    slip = page.crop((left, top, right, bottom)).extract_text()
                    if slip.strip():
                        found.append(plain(" ".join(slip.split())))
    return found


def test_a_slip_per_player_and_turn(folder: Path) -> None:
    slips = slip_texts(folder / "private-slips.pdf")
    titles = [slip.split(" · private")[0] for slip in slips]
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
    assert titles == [f"{p} · turn {t}" for t in range(1, 5) for p in players]
    by_title = dict(zip(titles, slips, strict=True))
    cy1 = by_title["Cy · turn 1"]
    assert "Orders received: guesses 20, 40, 10." in cy1  # as written, the ignored one too
    assert "You were allowed 2 guesses: guess 3 (10) is ignored." in cy1
    assert "Guess 3 (10): no answers: beyond the allowance (ignored)" in cy1
    assert cy1.endswith("Next turn you may make 2 guesses.")
    cy2 = by_title["Cy · turn 2"]
    assert "Orders received: none." in cy2
    assert "No orders from you arrived this turn; orders that arrive late count for the next " \
           "turn." in cy2
    eve3 = by_title["Eve · turn 3"]
    assert "Guess 3 (63) is outside the range 1 to 60: void, no answers" in eve3
    assert "Guess 1 (55): Ann X · Bob X · Cy X · Dee ✓ · Fay L · Gus L" in eve3
    assert eve3.endswith("Next turn you may make 3 guesses.")
    fay3 = by_title["Fay · turn 3"]
    assert "Your list does not name Gus: it gets only its count and cannot win." in fay3
    assert "Your list: 5 correct of 5 listed; cannot win." in fay3
    assert "Fay wins in turn 4, by a fully correct list." in by_title["Bob · turn 4"]
    assert "Next turn" not in by_title["Bob · turn 4"]


def numbers_in(content: str) -> set[int]:
    return {int(n) for n in re.findall(r"\d+", content)}


def own_numbers(order: rules.Orders | None) -> set[int]:
    if isinstance(order, rules.Guesses):
        return set(order.numbers)
    if isinstance(order, rules.GuessList):
        return set(order.entries.values())
    return set()


def test_no_slip_shows_another_players_secret(tmp_path: Path) -> None:
    """A secret's number appears on a slip only where its player wrote it (a hit, a list)."""
    folder = report_folder(SECRETS_LOG, tmp_path)
    log = rules.parse_game_log(tomllib.loads(SECRETS_LOG))
    result = rules.play(log)
    slips = slip_texts(folder / "private-slips.pdf")
    assert len(slips) == len(log.players) * len(result.turns)
    checked = 0
    for report in result.turns:
        for player in log.players:
            (slip,) = [s for s in slips if s.startswith(f"{player} · turn {report.number} ")]
            drawn = " ".join(t for t, _ in slip_lines(log, report, player, words("en")))
            own = own_numbers(log.turns[report.number - 1].get(player))
            for other, secret in log.secrets.items():
                if other != player and secret not in own:
                    assert secret not in numbers_in(slip), (player, report.number, other)
                    assert secret not in numbers_in(plain(drawn)), (player, other)
                    checked += 1
    assert checked > 20
    # and the test would see one: Bob's turn-1 slip shows 23 because Bob guessed it
    assert 23 in numbers_in([s for s in slips if s.startswith("Bob · turn 1 ")][0])


def test_the_games_title_heads_every_report_slip_and_register_page(folder: Path,
                                                                   tmp_path: Path) -> None:
    """The log's title ("Friday night") on every page of every file, as a kit's title is;
    and in each HTML file's title."""
    turn = report_folder(LOG.read_text(encoding="utf-8"), tmp_path, "--turn", "2")
    files = [*(folder / f"{name}.pdf" for name in ("turn-reports", "gm-register",
                                                    "private-slips")),
             turn / "turn-2.pdf", turn / "slips-turn-2.pdf"]
    for pdf in files:
        pages = texts(pdf)
        assert pages and all("Friday night" in page for page in pages), pdf.name
        html = pdf.with_suffix(".html").read_text(encoding="utf-8")
        assert re.search(r"<title>[^<]*· Friday night</title>", html), pdf.name


def test_turn_option_writes_that_turns_slips(tmp_path: Path) -> None:
    folder = report_folder(LOG.read_text(encoding="utf-8"), tmp_path, "--turn", "3")
    assert outline(folder / "slips-turn-3.pdf") == [("Turn 3 slips", 0)]
    slips = slip_texts(folder / "slips-turn-3.pdf")
    assert [s.split(" · private")[0] for s in slips] == [
        f"{p} · turn 3" for p in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")]
    assert outline(folder / "turn-3.pdf") == [("Turn 3", 0)]


# --- amendments: the erratum ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def amended(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every turn published; then Ann's second-turn guess 10 is corrected to 8 (a hit on Cy)."""
    out = tmp_path_factory.mktemp("amended")
    original = LOG.read_text(encoding="utf-8").replace("published = 0", "published = 4")
    report_folder(original, out)
    corrected = original.replace("Ann = [10, 45]", "Ann = [8, 45]")
    assert corrected != original
    (out / "game.toml").write_text(corrected, encoding="utf-8")
    assert main(["report", str(out / "game.toml"), "--out", str(out / "reports")]) == 2
    return report_folder(corrected, out, "--amend")


def test_erratum_lists_every_changed_cell_and_allowance(amended: Path) -> None:
    pages = [plain(t) for t in texts(amended / "erratum.pdf")]
    assert outline(amended / "erratum.pdf") == [("Erratum, turn 2", 0), ("Erratum, turn 3", 1),
                                               ("Erratum, turn 4", 2)]
    assert anchors(amended / "erratum.html") == ["erratum-1", "erratum-2", "erratum-3"]
    turn2 = pages[0]
    assert "Erratum: turn 2 report" in turn2
    assert "Row Column As printed Now Ann 1 Cy L ✓ Ann 2 Cy L X" in turn2
    assert "Guesses next turn Ann: 2 → 3 guesses next turn" in turn2
    assert "Ann 1 Cy H X Ann 2 Cy L X" in pages[1]
    assert "Guesses next turn" not in pages[1]
    # turn 4 won the game: its changed allowance (Ann 4 -> 3) has no next turn to go to
    assert "Erratum: turn 4 report" in pages[2] and "Ann 1 Cy ✓ X" in pages[2]
    assert "Guesses next turn" not in pages[2] and "→ 3 guesses" not in pages[2]


def test_the_same_log_gives_the_same_bytes(amended: Path, tmp_path: Path) -> None:
    """Slips, erratum, register and reports: a second folder from the same log and record is
    byte for byte the first."""
    again = tmp_path / "again"
    again.mkdir()
    for name in ("game.toml", "reports"):
        source = amended.parents[1] / name
        if source.is_dir():
            shutil.copytree(source, again / name)
        else:
            shutil.copy(source, again / name)
    assert main(["report", str(again / "game.toml"), "--out", str(again / "reports")]) == 0
    copy = again / "reports" / amended.name
    names = sorted(p.name for p in amended.iterdir() if p.suffix in (".pdf", ".html"))
    assert {"private-slips.pdf", "erratum.pdf", "gm-register.pdf"} <= set(names)
    for name in names:
        assert (copy / name).read_bytes() == (amended / name).read_bytes(), name


def test_a_turn_amended_twice_has_one_erratum_page_with_the_net_change(tmp_path: Path) -> None:
    """Turn 2 corrected, then corrected again (Ann's second guess now finds Bob): the erratum
    has one page per turn, each cell as first handed out and as it is now; the register keeps
    both corrections."""
    original = LOG.read_text(encoding="utf-8").replace("published = 0", "published = 4")
    report_folder(original, tmp_path)
    once = original.replace("Ann = [10, 45]", "Ann = [8, 45]")
    report_folder(once, tmp_path, "--amend")
    twice = report_folder(once.replace("Ann = [8, 45]", "Ann = [8, 42]"), tmp_path, "--amend")
    turns = [title for title, _page in outline(twice / "erratum.pdf")]
    assert turns == ["Erratum, turn 2", "Erratum, turn 3", "Erratum, turn 4"]
    turn2 = plain(texts(twice / "erratum.pdf")[0])
    # the first correction's cell (L as printed), and the second's (L as printed, not as
    # the first erratum said)
    assert "Ann 1 Cy L ✓" in turn2 and "Ann 2 Bob L ✓" in turn2
    assert "Guesses next turn Ann: 2 → 4 guesses next turn" in turn2  # 2 hits: net 2 -> 4
    assert "→ 3 guesses" not in turn2  # the first correction's allowance, since changed
    register = plain(" ".join(texts(twice / "gm-register.pdf")))
    assert "2 Next turn, Ann: 2 → 3" in register and "2 Next turn, Ann: 3 → 4" in register


def test_a_correction_taken_back_says_the_copy_is_right_again(tmp_path: Path) -> None:
    original = LOG.read_text(encoding="utf-8").replace("published = 0", "published = 2")
    report_folder(original, tmp_path)
    report_folder(original.replace("Ann = [10, 45]", "Ann = [8, 45]"), tmp_path, "--amend")
    back = report_folder(original, tmp_path, "--amend")
    (page,) = [plain(t) for t in texts(back / "erratum.pdf")]
    assert "Friday night" in page  # the game's title, as on every report
    assert ("After its corrections the turn 2 report is again as it was handed out: your copy "
            "is right.") in page
    assert "As printed" not in page


def test_register_lists_the_amendments(amended: Path) -> None:
    register = plain(" ".join(texts(amended / "gm-register.pdf")))
    assert "Amendments of published turns" in register
    for change in ("2 Ann 1, Cy: L → ✓", "2 Next turn, Ann: 2 → 3", "3 Ann 1, Cy: H → X"):
        assert change in register


# --- the house rulings on the rules sheet and the GM card -----------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_house_rulings_on_the_rules_sheet_and_the_gm_card(tmp_path: Path, lang: str) -> None:
    """In every language, on Letter (the shorter page): the rulings are on both one-page
    prose pages, which still fit (a page that cannot fit fails the build)."""
    folder = build_kit(tmp_path, rules.NAME, "--players", "13", "--range", "1-200", "--turns",
                       "1", "--paper", "letter", "--lang", lang)
    _ = words(lang).gettext
    player, host = texts(folder / "player-kit.pdf"), texts(folder / "host-answers.pdf")
    rules_sheet, card = plain(player[0]), plain(host[0])
    heading = _("House rulings")
    assert heading in rules_sheet and heading in card
    assert _("Rules") in rules_sheet and _("Reading the turn report") in plain(player[1])
    assert "kit report --strict" in card
    if lang == "en":
        for words_ in ("the extra ones are ignored, the last written first",
                       "is void: no answers, but it keeps its place",
                       "gets its count only and cannot win",
                       "a late form counts for the next turn"):
            assert words_ in rules_sheet
        for words_ in ("Extra guesses are ignored, the last written first",
                       "keeps its place (the tie rule counts places)",
                       "cannot win", "late orders count for the next turn",
                       "makes each an error instead",
                       "write “(void)” or “(ignored)” across the row"):
            assert words_ in card
        legend = plain(player[1])
        assert "Under the table" in legend and "private slip" in legend
