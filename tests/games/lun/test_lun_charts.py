"""Lowest Unique Number's charts of the night: the bars (how many chose each number, the
cancelled numbers, the winning single) and each player's points over the rounds, read back
from the public page's text equivalent and from the results PDF that ``kit report`` writes
from the same log, against the rules engine; ranges grouped into bins; the console's report
file byte-identical to ``kit report``'s."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from html import unescape
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.helpers import plain

from kit.cli import main
from kit.games.lowest_unique.report.charts import Points, bins, chart_pages, points_chart
from kit.games.lowest_unique.rules import tally
from kit.games.lowest_unique.rules.log import PartyLog, Table, scored_round
from kit.i18n import words
from kit.layout.model import Line, Text, text_width
from kit.paper import paper

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402
from support.helpers import check_export_matches_kit_report  # noqa: E402

from kit.console.service import Console  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lee"]
ROW = re.compile(r'<tr><th scope="row">([^<]*)</th><td>(\d+)</td><td>(\w*)</td></tr>')


def test_ranges_are_grouped_into_round_bins() -> None:
    assert bins(1, 10) == [(n, n) for n in range(1, 11)]
    assert bins(1, 20) == [(n, n) for n in range(1, 21)]
    assert bins(1, 21)[:2] == [(1, 2), (3, 4)] and bins(1, 21)[-1] == (21, 21)
    assert bins(1, 999)[:2] == [(1, 50), (51, 100)] and bins(1, 999)[-1] == (951, 999)
    assert len(bins(1, 999)) == 20 and len(bins(5, 104)) == 20


def test_the_points_lines_show_their_dashes_and_stay_off_the_axis() -> None:
    """Both backends draw square ends, half a line's width past each dash: every dashed line
    still shows gaps, and no line's ink reaches the axis or more than 0.5 mm past its end
    (a printout's dashes are filled shapes, ink and all)."""
    lines = [Points(f"P{n}", (1, 1, 2), (1, 3)) for n in range(3)] + [
        Points(f"Q{n}", (0, 1, 1), (2,)) for n in range(3)]
    items = [i for i in points_chart(0.0, 0.0, 170.0, 45.0, lines, words("en"))
             if isinstance(i, Line)]
    axis = min(i.x1 for i in items if i.x1 == i.x2)
    end = max(i.x2 for i in items if i.y1 == i.y2 and not i.dash and i.width == 0.4)
    drawn = [i for i in items if i.width > 0.4 or i.dash]
    assert {(i.dash, i.width) for i in drawn} == {
        ((), 0.8), ((1.2, 1.4), 0.4), ((0.2, 1.2), 0.4), ((1.2, 1.8), 0.8), ((0.2, 1.8), 0.8)}
    for i in drawn:
        assert not i.dash or round(i.dash[1] - i.width, 3) >= 0.8  # the gap the ink leaves
        assert axis <= min(i.x1, i.x2) - i.width / 2 and max(i.x1, i.x2) + i.width / 2 <= end
    rises = [i for i in drawn if i.x1 == i.x2]
    assert rises and all(i.x1 - i.width / 2 > axis + 1 for i in rises)


def test_a_long_night_puts_its_rounds_on_a_page_of_their_own() -> None:
    """36 players, 12 rounds: the points chart and its sentence leave no room for the rounds'
    rows, which go to a second page; the names at the lines' ends stay inside the page."""
    names = [f"Player {n:02d} Longname" for n in range(36)]
    tables = tuple(Table(t + 1, tuple(names[t * 12:t * 12 + 12]), tuple(
        scored_round(r, tuple((p, (i * 7 + r * 3 + t) % 10 + 1) for i, p in enumerate(
            names[t * 12:t * 12 + 12]))) for r in range(1, 13))) for t in range(3))
    body = paper("a4").body
    first, rounds = chart_pages(body, PartyLog((1, 10), 12, tables), words("en"))
    said = [i.text for i in first if isinstance(i, Text)]
    assert "Points after each round" in said and not any(t.startswith("Round ") for t in said)
    assert [i.text for i in rounds if isinstance(i, Text) and i.text.startswith("Round ")] == [
        f"Round {n}" for n in range(1, 13)]
    named = [i for i in first if isinstance(i, Text) and "Longname" in i.text]
    assert any(" +" in i.text for i in named)  # a line's end: the names that fit, the rest counted
    assert all(i.x + text_width(i.text, i.size) <= body.x + body.w for i in named)
    texts = [i for i in first if isinstance(i, Text)]
    assert "Numbers that won:" in re.sub(r"\s+", " ", " ".join(i.text for i in texts))
    assert all(i.x + text_width(i.text, i.size) <= body.x + body.w + 0.01 for i in texts)


def test_many_winning_numbers_wrap_inside_the_page() -> None:
    """36 rounds won by 36 numbers of 1 to 999: the line of the numbers that won wraps under
    the party's heading instead of running off the page."""
    tables = tuple(Table(t + 1, tuple(NAMES), tuple(
        scored_round(r, tuple((p, (t * 12 + r) * 20 + i) for i, p in enumerate(NAMES)))
        for r in range(1, 13))) for t in range(3))
    body = paper("letter").body
    first = chart_pages(body, PartyLog((1, 999), 12, tables), words("en"))[0]
    texts = [i for i in first if isinstance(i, Text)]
    said = re.sub(r"\s+", " ", " ".join(i.text for i in texts))
    assert "Numbers that won: 20 (1 round), 40 (1 round)," in said
    assert all(i.x + text_width(i.text, i.size) <= body.x + body.w + 0.01 for i in texts)


def play(client: TestClient, choices: dict, number_range: str = "1-10") -> tuple[dict, str]:
    made = client.post("/api/games", json={"game": "lowest-unique", "range": number_range,
                                           "tables": [list(choices)], "rounds": 1})
    assert made.status_code == 201, made.text
    game = made.json()
    answer = client.post(f"/api/games/{game['id']}/tables/1/rounds", json={"choices": choices},
                         headers={"Authorization": f"Bearer {game['gm_token']}"})
    assert answer.status_code == 201, answer.text
    return game, client.get(f"/console/{game['id']}").text


def charts(html: str) -> list[list[tuple[str, int, str]]]:
    """Each chart's text equivalent: (numbers, how many chose them, result) per bar."""
    return [[(unescape(n), int(c), s) for n, c, s in ROW.findall(table)]
            for table in re.findall(r'<table class="visually-hidden chart-data">.*?</table>',
                                    html, re.S)]


def expected(choices: dict) -> list[tuple[str, int, str]]:
    t = tally(choices)
    counts = Counter(t.choices)
    return [(str(n), counts[n], "won" if n == t.winning_number else
             "cancelled" if n in t.cancelled else "") for n in range(1, 11)]


def pdf_bars(pdf: Path) -> dict[str, int]:
    """The first chart of the chart page (the last page) read back by pdftotext: each label
    of its base row, and the count printed above it (a bar of none has no count)."""
    found = subprocess.run(["pdftotext", "-bbox", "-f", "0", str(pdf), "-"], check=True,
                           capture_output=True, text=True).stdout
    page = found.rsplit("<page ", 1)[1]
    words = [(float(a), float(b), float(c), float(d), unescape(w)) for a, b, c, d, w in
             re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                        r"([^<]*)<", page)]
    party = next(y for _, y, _, _, w in words if w == "party")
    start = next(y for _, y, _, _, w in words if y >= party and w.startswith("won"))
    rows = sorted({round(y, 1) for _, y, _, _, w in words if y > start and w == "10"})
    labels = [(x0 + x1) / 2 for x0, y, x1, _, w in words if round(y, 1) == rows[0]]
    names = [w for _, y, _, _, w in words if round(y, 1) == rows[0]]
    out = dict.fromkeys(names, 0)
    for x0, y, x1, _, w in words:
        if start < y < rows[0] - 1 and w.isdigit():
            at = min(range(len(labels)), key=lambda i: abs(labels[i] - (x0 + x1) / 2))
            out[names[at]] = int(w)
    return out


def report_pdf(client: TestClient, game: dict, folder: Path) -> Path:
    log = client.get(f"/api/games/{game['id']}/log.toml",
                     headers={"Authorization": f"Bearer {game['gm_token']}"}).text
    (folder / "party.toml").write_text(log, encoding="utf-8")
    assert main(["report", str(folder / "party.toml"), "--out", str(folder / "out")]) == 0
    return next((folder / "out").glob("*/results.pdf"))


RULES_ONE = {"Ann": 1, "Bob": 1, "Cy": 2, "Dee": 3, "Eve": 3, "Fay": 8}


def test_the_rules_example_in_the_charts_of_the_page_and_the_pdf(
        client: TestClient, console: Console, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    game, html = play(client, RULES_ONE)
    party, first = charts(html)
    assert party == first == expected(RULES_ONE)
    assert [s for _, _, s in party[:3]] == ["cancelled", "won", "cancelled"]
    assert "Numbers that won: 2 (1 round)." in unescape(html)
    assert html.count('<svg class="chart"') == 3  # the party, round 1, the points
    pdf = report_pdf(client, game, tmp_path)
    capsys.readouterr()
    assert pdf_bars(pdf) == {str(n): c for n, c, _ in expected(RULES_ONE)}
    # the console's report files, chart page and all, are what kit report writes
    assert client.get(f"/console/{game['id']}/files/results.pdf").status_code == 200
    check_export_matches_kit_report(client, console, game, tmp_path, "game-reports")


def test_no_chart_before_the_first_round(client: TestClient) -> None:
    made = client.post("/api/games", json={"game": "lowest-unique", "tables": [NAMES[:3]]})
    html = client.get(f"/console/{made.json()['id']}").text
    assert 'class="chart' not in html and "The night in charts" not in html


def test_a_wide_range_is_charted_in_bins(client: TestClient) -> None:
    _, html = play(client, {"Ann": 3, "Bob": 49, "Cy": 49, "Dee": 998, "Eve": "pass"}, "1-999")
    party, _ = charts(html)
    assert len(party) == 20 and party[0] == ("1\u201350", 3, "won")
    assert party[-1] == ("951\u2013999", 1, "") and sum(c for _, c, _ in party) == 4


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(3, 12).flatmap(lambda n: st.lists(
    st.one_of(st.integers(1, 10), st.just("pass")), min_size=n, max_size=n)))
def test_random_rounds_in_the_charts_of_the_page_and_the_pdf(client: TestClient,
                                                             tmp_path_factory, picks) -> None:
    choices = dict(zip(NAMES, picks, strict=False))
    game, html = play(client, choices)
    party, first = charts(html)
    assert party == first == expected(choices)
    pdf = report_pdf(client, game, tmp_path_factory.mktemp("report"))
    assert pdf_bars(pdf) == {str(n): c for n, c, _ in expected(choices)}
    t = tally(choices)
    text = plain(subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                                capture_output=True, text=True).stdout)
    if t.winner:
        assert f"Numbers that won: {t.winning_number} (1 round)." in text
        assert f"{t.winner} ({t.winning_number})" in text  # the tally's winner
    else:
        assert "No number has won a round yet." in text


POINTS = re.compile(r'<tr><th scope="row"><bdi>([^<]*)</bdi></th><td>(\d+)</td>'
                    r'<td>([^<]*)</td></tr>')


def points_table(html: str) -> dict[str, tuple[int, str]]:
    """The points chart's text equivalent: each player's points and the rounds they won."""
    table = re.search(r'<table class="visually-hidden points-data">.*?</table>', html, re.S)
    assert table is not None
    return {unescape(p): (int(n), unescape(won)) for p, n, won in POINTS.findall(table[0])}


def test_each_players_points_over_the_rounds(client: TestClient, console: Console,
                                             tmp_path: Path) -> None:
    """Two tables, three rounds at the first and one at the second: the points chart's rows
    are the engine's running totals, on the page, in the PDF, and in the console's files."""
    first, second = ["Ann", "Bob", "Cy", "Zoë"], ["Dee", "Eve", "Fay"]
    made = client.post("/api/games", json={"game": "lowest-unique", "tables": [first, second],
                                           "rounds": 3})
    game = made.json()
    auth = {"Authorization": f"Bearer {game['gm_token']}"}
    rounds = [(1, {"Ann": 1, "Bob": 1, "Cy": 2, "Zoë": 3}),
              (1, {"Ann": 2, "Bob": 2, "Cy": 3, "Zoë": 3}),
              (1, {"Ann": 4, "Bob": 1, "Cy": 4, "Zoë": 5}),
              (2, {"Dee": 5, "Eve": 5, "Fay": 6})]
    won: dict[str, list[int]] = {p: [] for p in first + second}
    played = Counter[int]()
    for table, choices in rounds:
        answer = client.post(f"/api/games/{game['id']}/tables/{table}/rounds",
                             json={"choices": choices}, headers=auth)
        assert answer.status_code == 201, answer.text
        played[table] += 1
        if (winner := tally(choices).winner) is not None:
            won[winner].append(played[table])
    assert won == {"Ann": [], "Bob": [3], "Cy": [1], "Zoë": [], "Dee": [], "Eve": [],
                   "Fay": [1]}
    html = client.get(f"/console/{game['id']}").text
    assert points_table(html) == {
        p: (len(n), ", ".join(map(str, n)) or "\u2014") for p, n in won.items()}
    assert "Points after each round" in html
    assert "Bob, Cy, Fay" in html  # the lines ending on one point share a label
    pdf = report_pdf(client, game, tmp_path)
    text = plain(subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                                capture_output=True, text=True).stdout)
    chart_page = text.rsplit("The night in charts", 1)[1]
    assert "Points after each round" in chart_page
    assert "Bob, Cy, Fay" in chart_page and "Ann, Zoë, Dee +1" in chart_page
    # its text equivalent: the engine's winners, most points first, then those without
    assert ("Points: Bob 1 (round 3), Cy 1 (round 1) and Fay 1 (round 1). "
            "No point: Ann, Zoë, Dee and Eve.") in " ".join(chart_page.split())
    check_export_matches_kit_report(client, console, game, tmp_path, "game-reports")
