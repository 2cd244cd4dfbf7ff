"""Free text is data, never markup: a title, a date, names and log labels that look like HTML
come out escaped in kit HTML, report HTML and the SVG drawn into it, and verbatim in the PDF's
text and metadata. Turning autoescape off anywhere fails these tests."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from pypdf import PdfReader
from support.helpers import build_kit, plain, texts

from kit.cli import main

TITLE = "</title><script>alert(1)</script>"
DATE = "<marquee>5 Dec</marquee>"
NAMES = ("<blink>Ann</blink>", 'Bob & "Cy"', "<s>Dee</s>", "Eve")
FOREIGN_TAGS = {"script", "blink", "marquee", "s"}


class _Tags(HTMLParser):
    """Every start tag of a document, and its text with entities resolved."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.titles: list[str] = []
        self.text: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.add(tag)
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._in_title:
            self.titles.append(data)


def parsed(path: Path) -> _Tags:
    tags = _Tags()
    tags.feed(path.read_text(encoding="utf-8"))
    return tags


def check_html(path: Path, *expected: str) -> None:
    tags = parsed(path)
    assert not tags.tags & FOREIGN_TAGS, f"{path.name}: markup from user text became tags"
    text = plain("".join(tags.text))
    for value in expected:
        assert value in text, f"{path.name}: {value!r} is not shown as text"


@pytest.fixture(scope="module")
def lun_kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kit(tmp_path_factory.mktemp("escape-lun"), "lowest-unique", "--names",
                     ",".join(NAMES), "--title", TITLE, "--date", DATE)


@pytest.fixture(scope="module")
def wmn_kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kit(tmp_path_factory.mktemp("escape-wmn"), "whats-my-number", "--names",
                     ",".join(NAMES), "--title", TITLE, "--date", DATE, "--turns", "1")


@pytest.mark.parametrize("kit", ["lun_kit", "wmn_kit"])
def test_kit_html_escapes_title_date_and_names(kit: str, request: pytest.FixtureRequest) -> None:
    folder = request.getfixturevalue(kit)
    for name in ("player-kit.html", "host-answers.html"):
        check_html(folder / name, TITLE, DATE, *NAMES)
        tags = parsed(folder / name)
        assert len(tags.titles) == 1 and TITLE in tags.titles[0]


@pytest.mark.parametrize("kit", ["lun_kit", "wmn_kit"])
def test_pdf_text_and_metadata_keep_free_text_verbatim(kit: str,
                                                        request: pytest.FixtureRequest) -> None:
    folder = request.getfixturevalue(kit)
    pdf = folder / "player-kit.pdf"
    meta = PdfReader(pdf).metadata
    assert TITLE in meta.title and TITLE in meta.subject
    words = plain(" ".join(texts(pdf)))
    for value in (TITLE, DATE, NAMES[0], NAMES[1]):
        assert value in words


def test_svg_text_in_the_html_is_escaped(lun_kit: Path) -> None:
    html = (lun_kit / "player-kit.html").read_text(encoding="utf-8")
    assert "<svg" in html and "&lt;blink&gt;Ann&lt;/blink&gt;" in html
    assert "<blink>" not in html and "<script>" not in html


WMN_LOG = """game = "whats-my-number"
players = ["<blink>A</blink>", "B&C", "<s>D</s>", "E"]
range = "1-30"

[secrets]
"<blink>A</blink>" = 3
"B&C" = 10
"<s>D</s>" = 20
E = 30

[[turn]]
"<blink>A</blink>" = [10, 20]
"""

LUN_LOG = """game = "lowest-unique"
rounds = 1

[[table]]
players = ["<blink>Ann</blink>", "Bob & Cy", "<s>Dee</s>"]

[[table.round]]
"<blink>Ann</blink>" = 1
"Bob & Cy" = 2
"<s>Dee</s>" = 2
"""


@pytest.mark.parametrize("log, labels", [(WMN_LOG, ("<blink>A</blink>", "B&C", "<s>D</s>")),
                                         (LUN_LOG, ("<blink>Ann</blink>", "Bob & Cy"))])
def test_report_html_escapes_log_labels(tmp_path: Path, log: str, labels: tuple[str, ...]
                                        ) -> None:
    path = tmp_path / "escape.toml"
    path.write_text(log, encoding="utf-8")
    assert main(["report", str(path), "--out", str(tmp_path / "out")]) == 0
    pages = sorted((tmp_path / "out").rglob("*.html"))
    assert pages
    for page in pages:
        check_html(page)
    assert any(all(label in plain("".join(parsed(p).text)) for label in labels) for p in pages)
