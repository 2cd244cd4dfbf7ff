"""Tagged PDFs: every kit file carries a structure tree that poppler reads back, the prose pages'
elements in the order of their HTML (the host card's first column before its second), the
chrome of a prose page as an artifact, and each drawn page as one element of its words."""

from __future__ import annotations

import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pypdf import PdfReader
from support.helpers import build_kit

pytestmark = pytest.mark.skipif(
    subprocess.run(["which", "pdfinfo"], capture_output=True).returncode != 0,
    reason="pdfinfo (poppler-utils) is not installed")

STRUCT_LINE = re.compile(r'^( *)(?:"(.*)"|(\w+))')


@pytest.fixture(scope="module")
def wmn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kit(tmp_path_factory.mktemp("wmn"), "whats-my-number", "--players", "5")


@pytest.fixture(scope="module")
def split(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kit(tmp_path_factory.mktemp("split"), "lowest-unique", "--players", "10",
                     "--tables", "2")


def pdfinfo(pdf: Path, *flags: str) -> str:
    return subprocess.run(["pdfinfo", *flags, str(pdf)], capture_output=True, text=True,
                          check=True).stdout


def structure(pdf: Path) -> list[tuple[int, str, str]]:
    """The structure tree as poppler reads it: (depth, element type or "", text) in order."""
    out = []
    for line in pdfinfo(pdf, "-struct-text").splitlines():
        match = STRUCT_LINE.match(line)
        if match:
            text, kind = match.group(2), match.group(3)
            out.append((len(match.group(1)) // 2, kind or "", text or ""))
    return out


def element_texts(tree: list[tuple[int, str, str]], kinds: set[str]) -> list[str]:
    """The text of each element of ``kinds``, in tree order."""
    found = []
    for i, (depth, kind, _) in enumerate(tree):
        if kind in kinds:
            words = []
            for inner_depth, _, text in tree[i + 1:]:
                if inner_depth <= depth:
                    break
                words.append(text)
            found.append(" ".join(w for w in words if w).strip())
    return found


class ColumnHeadings(HTMLParser):
    """The headings of the HTML's first page, by column (0: above the columns)."""

    def __init__(self) -> None:
        super().__init__()
        self.sections = self.depth = self.column = 0
        self.col_depth: int | None = None
        self.heading: list[str] | None = None
        self.by_column: dict[int, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.sections += tag == "section"
        if tag == "div":
            self.depth += 1
            if ("class", "col") in attrs and self.sections == 1:
                self.column, self.col_depth = self.column + 1, self.depth
        if tag in ("h1", "h2") and self.sections == 1:
            self.heading = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "div":
            if self.depth == self.col_depth:
                self.col_depth = None
            self.depth -= 1
        if tag in ("h1", "h2") and self.heading is not None:
            column = self.column if self.col_depth is not None else 0
            self.by_column.setdefault(column, []).append(" ".join("".join(self.heading).split()))
            self.heading = None

    def handle_data(self, data: str) -> None:
        if self.heading is not None:
            self.heading.append(data)


def test_every_pdf_of_a_kit_is_tagged(lun_a4: Path, wmn: Path, split: Path) -> None:
    pdfs = sorted([*lun_a4.glob("*.pdf"), *wmn.glob("*.pdf"), *split.glob("*.pdf")])
    assert len(pdfs) == 8
    for pdf in pdfs:
        assert re.search(r"^Tagged:\s+yes$", pdfinfo(pdf), re.M), pdf.name


def test_the_host_card_reads_its_first_column_before_its_second(lun_a4: Path) -> None:
    parser = ColumnHeadings()
    parser.feed((lun_a4 / "host-answers.html").read_text(encoding="utf-8"))
    columns = parser.by_column
    assert sorted(columns) == [0, 1, 2] and columns[1] and columns[2]
    headings = element_texts(structure(lun_a4 / "host-answers.pdf"), {"H1", "H2"})
    card = headings[:len(columns[0] + columns[1] + columns[2])]
    assert card == columns[0] + columns[1] + columns[2]
    assert card[:2] == ["Host card", "Before play"]
    # the paragraphs and list items of the first column, too, come before the second's
    words = [text for _, _, text in structure(lun_a4 / "host-answers.pdf") if text]
    first = words.index("Before play")
    second = words.index(columns[2][0])
    assert first < next(i for i, w in enumerate(words) if "20-second count" in w) < second
    assert any("Discussion between rounds" in w for w in words[first:second])


def test_the_chrome_of_a_prose_page_is_an_artifact(lun_a4: Path) -> None:
    pdf = lun_a4 / "host-answers.pdf"
    printed = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                             check=True).stdout
    assert "page 1 of 3" in printed
    tagged = " ".join(text for _, _, text in structure(pdf))
    assert "page 1 of" not in tagged and "Host card" in tagged


def test_a_drawn_page_is_one_element_of_its_words(wmn: Path) -> None:
    pdf = wmn / "player-kit.pdf"
    tree = structure(pdf)
    assert tree[0] == (0, "Document", "")
    tops = [kind for depth, kind, _ in tree if depth == 1]
    reader = PdfReader(pdf)
    drawn = [n for n, page in enumerate(reader.pages)
             if b"/Div <</MCID 0>> BDC" in page.get_contents().get_data()]
    assert drawn and tops == ["Sect"] * drawn[0] + ["Div"] * len(drawn)
    texts = element_texts(tree, {"Div"})[-len(drawn):]
    for n, text in zip(drawn, texts, strict=True):
        assert f"page {n + 1} of {len(reader.pages)}" in text
    assert "Deduction sheet · A" in " ".join(texts)


def test_every_marked_content_belongs_to_an_element_of_its_page(wmn: Path, split: Path) -> None:
    for pdf in [*wmn.glob("*.pdf"), *split.glob("*.pdf")]:
        reader = PdfReader(pdf)
        root = reader.root_object
        assert root["/MarkInfo"]["/Marked"].value is True
        nums = root["/StructTreeRoot"]["/ParentTree"]["/Nums"]
        owners = dict(zip(nums[0::2], nums[1::2], strict=True))
        assert root["/StructTreeRoot"]["/ParentTreeNextKey"] == len(reader.pages)
        for number, page in enumerate(reader.pages):
            mcids = {int(m) for m in re.findall(rb"/MCID (\d+)",
                                                  page.get_contents().get_data())}
            elements = owners[page["/StructParents"]]
            assert mcids and len(elements) == len(mcids) == max(mcids) + 1, (pdf.name, number)
            for element in elements:
                assert element.get_object().raw_get("/Pg") == page.indirect_reference
