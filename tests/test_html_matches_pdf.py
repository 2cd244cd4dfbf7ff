"""The HTML kit printed by Chromium against our PDF: one layout model, so the same pages.

For every form page type (slips, tally, score sheet, seating list and table stamp; the What's
My Number? slips, order forms, deduction sheets, register and turn-report grids, portrait and
landscape; both games' ``kit report`` pages): the same page count, the same words on each form
page, and every box edge and cut line within 0.5 mm. Prose pages must match in count and keep
their chrome (header rule, ruler) in place.
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from helpers import REFERENCE_LOG_TURN_1

from kit.build import finish, plan_kit, plan_recipe
from kit.cache import default_cache
from kit.config import resolve
from kit.game import KitConfig
from kit.output import write_kits
from kit.paper import FOOTER_MM, HEADER_MM, MARGIN_MM
from kit.prose import render as render_prose
from kit.registry import game_spec

pytestmark = pytest.mark.slow


MM = 72 / 25.4
TOLERANCE_MM = 0.5

KITS = {
    "lu-split-named": {"game": "lowest-unique",
                       "names": [f"Guest {i:02d}" for i in range(25)], "title": "Club night"},
    "wmn-6-named": {"game": "whats-my-number", "names": ["Ann", "Bartholomew Fitzgerald",
                                                         "Cy", "Dee", "Eve", "Fay"]},
    "wmn-21-letter": {"game": "whats-my-number", "players": 21, "paper": "letter", "turns": 1},
}
LUN_LOG = """\
game = "lowest-unique"
rounds = 1
[[table]]
players = ["Ann", "Bob", "Cy"]
[[table.round]]
Ann = 1
Bob = 1
Cy = 2
[[table]]
players = ["Dee", "Eve", "Fay"]
[[table.round]]
Dee = 3
Eve = 4
Fay = "pass"
"""


def report_recipe(text: str, out: Path):
    import tomllib

    data = tomllib.loads(text)
    spec = game_spec(data["game"])
    log = spec.report.parse(data)
    config = KitConfig(game=spec.name, players=0, names=(), paper="a4", range=(1, 1),
                       custom_range=False, out=str(out), party=f"{spec.package}-reports")
    return plan_recipe(spec.report.plan(log, config), config)


@pytest.fixture(scope="module")
def kits(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, dict[str, list[bool]]]]:
    """Each kit written to disk, with which pages of each PDF are form pages."""
    out = tmp_path_factory.mktemp("html-vs-pdf")
    recipes = [plan_kit(resolve(raw)) for raw in KITS.values()]
    recipes += [report_recipe(REFERENCE_LOG_TURN_1, out), report_recipe(LUN_LOG, out)]
    store = default_cache()
    built = []
    for recipe in recipes:
        files = finish(recipe, render_prose(recipe.jobs(), store))
        write_kits([(out, files)])
        forms = {}
        for drawing in recipe.drawings:
            is_form = [sheet.prose is None for sheet in drawing.sheets]
            forms.update({name: [is_form[i] for i in indices]
                          for name, (_, indices) in drawing.cuts.items()})
            if drawing.whole is not None:
                forms[drawing.whole[0]] = is_form
        built.append((out / recipe.folder, forms))
    return built


def segments(page: pdfplumber.page.Page) -> list[tuple[str, float, float, float]]:
    """Axis-parallel rules as (orientation, position, start, end) in mm, however drawn.

    A stroked path gives its segments. A thin filled shape counts as the rule along its middle
    (Chromium prints each dash of a dashed line as a filled shape); the dashes of one line then
    merge into the line, as our PDF draws it.
    """
    out = []
    for obj in page.lines + page.rects + page.curves:
        if obj.get("fill") and not obj.get("stroke"):
            out.append(_filled(obj))
            continue
        points = []
        for command in obj.get("path") or []:
            if command[0] == "m":
                points = [command[1]]
            elif command[0] == "l":
                points.append(command[1])
                (x0, y0), (x1, y1) = points[-2], points[-1]
                out.append(_segment(x0, y0, x1, y1))
            elif command[0] == "h" and len(points) > 1:
                (x0, y0), (x1, y1) = points[-1], points[0]
                out.append(_segment(x0, y0, x1, y1))
    return merge([s for s in out if s is not None])


def _filled(obj: dict):
    width, height = (obj["x1"] - obj["x0"]) / MM, (obj["bottom"] - obj["top"]) / MM
    if height <= 1.0 < width or (height <= 1.0 and width > height):
        return ("h", (obj["top"] + obj["bottom"]) / 2 / MM, obj["x0"] / MM, obj["x1"] / MM)
    if width <= 1.0 and height > width:
        return ("v", (obj["x0"] + obj["x1"]) / 2 / MM, obj["top"] / MM, obj["bottom"] / MM)
    return None


def _segment(x0: float, y0: float, x1: float, y1: float):
    if abs(y0 - y1) < 0.05 and abs(x0 - x1) > 0.05:
        return ("h", y0 / MM, min(x0, x1) / MM, max(x0, x1) / MM)
    if abs(x0 - x1) < 0.05 and abs(y0 - y1) > 0.05:
        return ("v", x0 / MM, min(y0, y1) / MM, max(y0, y1) / MM)
    return None


def merge(found: list[tuple[str, float, float, float]], gap: float = 1.3
          ) -> list[tuple[str, float, float, float]]:
    """Collinear pieces no more than ``gap`` mm apart (dashes, shared edges) as one rule."""
    lines: list[list[tuple[str, float, float, float]]] = []  # pieces on one line
    for piece in sorted(found, key=lambda s: (s[0], s[1])):
        if lines and lines[-1][0][0] == piece[0] and abs(lines[-1][0][1] - piece[1]) <= 0.15:
            lines[-1].append(piece)
        else:
            lines.append([piece])
    out: list[tuple[str, float, float, float]] = []
    for pieces in lines:
        kind, pos = pieces[0][0], pieces[0][1]
        start = end = None
        for _, _, a, b in sorted(pieces, key=lambda s: s[2]):
            if start is not None and a <= end + gap:
                end = max(end, b)
                continue
            if start is not None:
                out.append((kind, pos, start, end))
            start, end = a, b
        out.append((kind, pos, start, end))
    return out


def unmatched(ours: list, theirs: list) -> list:
    """Our segments with no counterpart within the tolerance (position and both ends)."""
    missing = []
    for kind, pos, start, end in ours:
        if not any(k == kind and abs(p - pos) <= TOLERANCE_MM and abs(s - start) <= TOLERANCE_MM
                   and abs(e - end) <= TOLERANCE_MM for k, p, s, e in theirs):
            missing.append((kind, round(pos, 2), round(start, 2), round(end, 2)))
    return missing


def chrome(found: list, page: pdfplumber.page.Page) -> list:
    """The rules of the header and footer bands (outside the body frame)."""
    top = MARGIN_MM + HEADER_MM
    bottom = page.height / MM - MARGIN_MM - FOOTER_MM
    return [s for s in found if (s[0] == "h" and not top <= s[1] <= bottom)
            or (s[0] == "v" and (s[3] <= top or s[2] >= bottom))]


def words(page: pdfplumber.page.Page) -> Counter:
    return Counter(w["text"] for w in page.extract_words(keep_blank_chars=False))


def pdf_pairs(kits) -> list[tuple[str, Path, list[bool]]]:
    pairs = []
    for folder, forms in kits:
        for name, form_pages in forms.items():
            html = folder / name.replace(".pdf", ".html")
            if html.exists():
                pairs.append((f"{folder.name}/{name}", folder / name, form_pages))
    return pairs


def test_every_form_page_type_is_covered(kits) -> None:
    names = {name for _, forms in kits for name in forms}
    assert {"player-kit-table-1.pdf", "host-answers.pdf", "player-kit.pdf", "turn-reports.pdf",
            "gm-register.pdf", "results.pdf"} <= names


def test_chromium_prints_the_same_pages(kits, chromium_printer) -> None:
    problems = []
    for label, pdf, form_pages in pdf_pairs(kits):
        printed = chromium_printer.print_pdf(pdf.with_suffix(".html"))
        with pdfplumber.open(pdf) as ours, pdfplumber.open(io.BytesIO(printed)) as theirs:
            if len(ours.pages) != len(theirs.pages):
                problems.append(f"{label}: {len(ours.pages)} pages, Chromium "
                                f"{len(theirs.pages)}")
                continue
            for number, (a, b, is_form) in enumerate(zip(ours.pages, theirs.pages, form_pages,
                                                         strict=True), start=1):
                mine, other = segments(a), segments(b)
                if not is_form:  # prose is laid out by two engines: compare its chrome only
                    mine, other = chrome(mine, a), chrome(other, a)
                missing = unmatched(mine, other) + unmatched(other, mine)
                if missing:
                    problems.append(f"{label} page {number}: {len(missing)} edges differ, e.g. "
                                    f"{missing[:3]}")
                if is_form and words(a) != words(b):
                    diff = (words(a) - words(b)) + (words(b) - words(a))
                    problems.append(f"{label} page {number}: words differ: "
                                    f"{list(diff.items())[:6]}")
    assert not problems, "\n".join(problems)
