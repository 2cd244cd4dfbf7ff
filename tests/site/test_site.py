"""The static download site (``kit.site.static``): which kits, and a small site built through
``kit site``."""

from __future__ import annotations

import io
import json
import re
import shutil
from html.parser import HTMLParser
from urllib.parse import unquote, urlparse

import pytest
from pypdf import PdfReader

from kit import cli
from kit.errors import KitError
from kit.i18n import LANGUAGES, words
from kit.paper import PAPERS, paper_label
from kit.registry import GAMES
from kit.site import kits, static

FIRST = next(iter(GAMES.values()))


def test_ready_kits_cover_every_registered_game_count_and_paper():
    configs = kits.ready_configs()
    # ready-made: Lowest Unique Number for 3 to 12 players, What's My Number? for 4 to 12,
    # on both papers
    expected = {(name, n, p) for name, low in (("lowest-unique", 3), ("whats-my-number", 4))
                for n in range(low, 13) for p in ("a4", "letter")}
    assert {(c.game, c.players, c.paper) for c in configs} == expected
    assert len({c.folder_name for c in configs}) == len(configs)
    assert all(not c.names and not c.custom_range for c in configs)


def test_ready_kit_filters():
    configs = kits.ready_configs([FIRST.name], [FIRST.min_players, 99], ["letter"])
    assert [(c.game, c.players, c.paper) for c in configs] == [
        (FIRST.name, FIRST.min_players, "letter")]
    with pytest.raises(KitError) as exc:
        kits.ready_configs(["no-such-game"])
    assert exc.value.field == "game"
    with pytest.raises(KitError) as exc:
        kits.ready_configs(players=[0])
    assert exc.value.field == "players"
    with pytest.raises(KitError):
        kits.ready_configs(papers=["a3"])


class Page(HTMLParser):
    """Collects what the checks below need from one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[dict[str, str | None]] = []
        self.images: list[dict[str, str | None]] = []
        self.headings: list[int] = []
        self.html_lang: str | None = None
        self.stylesheets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "a":
            self.links.append(a)
        elif tag == "img":
            self.images.append(a)
        elif tag == "html":
            self.html_lang = a.get("lang")
        elif tag == "link" and a.get("rel") == "stylesheet":
            self.stylesheets.append(a["href"] or "")
        elif re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Two kits (one game, its smallest table, both papers) through the real command."""
    out = tmp_path_factory.mktemp("site") / "site"
    code = cli.main(["site", "--out", str(out), "--games", FIRST.name,
                     "--players", str(FIRST.min_players), "--jobs", "2"])
    assert code == 0
    return out


def test_site_links_are_relative_and_every_file_exists(built):
    index = built / "index.html"
    page = Page()
    page.feed(index.read_text(encoding="utf-8"))
    targets = [a["href"] for a in page.links] + [i["src"] for i in page.images]
    targets += page.stylesheets
    for target in targets:
        assert target
        parsed = urlparse(target)
        assert not parsed.scheme and not parsed.netloc, target  # works offline, from file://
        if parsed.path:
            assert (built / unquote(parsed.path)).is_file(), target
    pdf_links = [a for a in page.links if (a["href"] or "").endswith(".pdf")]
    html_links = [a for a in page.links if (a["href"] or "").endswith(".html")
                  and "kits/" in (a["href"] or "")]
    assert len(pdf_links) >= 2 * len(PAPERS) and html_links
    opened = {a["href"] for a in pdf_links if not a.get("download")}
    saved = {a["href"] for a in pdf_links if a.get("download")}
    assert opened == saved  # every PDF opens in the browser, and a link beside saves it
    css = (built / "site.css").read_text()
    assert "@media print" in css and "http" not in css


def test_site_is_navigable_and_labelled(built):
    page = Page()
    page.feed((built / "index.html").read_text(encoding="utf-8"))
    assert page.html_lang == "en"
    assert page.headings[0] == 1 and page.headings.count(1) == 1
    assert all(b - a <= 1 for a, b in zip(page.headings, page.headings[1:], strict=False))
    assert page.links[0]["href"] == "#main"  # skip link first in the tab order
    for image in page.images:
        assert image.get("alt") and image.get("width") and image.get("height")


def test_each_kit_has_a_first_page_thumbnail_and_true_page_counts(built):
    html = (built / "index.html").read_text(encoding="utf-8")
    for config in kits.ready_configs([FIRST.name], [FIRST.min_players]):
        folder = built / "kits" / config.folder_name
        thumb = built / "thumbs" / f"{config.folder_name}.png"
        assert thumb.read_bytes().startswith(b"\x89PNG")
        width = int.from_bytes(thumb.read_bytes()[16:20], "big")
        assert width == kits.THUMB_WIDTH_PX
        for pdf in sorted(folder.glob("*.pdf")):
            pages = len(PdfReader(pdf).pages)
            link = f'kits/{config.folder_name}/{pdf.name}"'
            assert link in html
            after = html[html.index(link):]
            assert re.search(rf"{pages} pages?\b", after[:1200]), pdf.name
        assert (folder / "fonts").is_dir()


def test_kit_folders_are_what_build_files_makes(built):
    from kit.build import build_files
    from kit.output import MANIFEST

    (config,) = kits.ready_configs([FIRST.name], [FIRST.min_players], ["a4"])
    expected = build_files(config)
    folder = built / "kits" / config.folder_name
    written = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
    assert written == set(expected.files) | {MANIFEST}  # and the list of what the kit wrote
    for name in expected.files:
        if name.endswith(".html") or name.startswith("fonts/"):
            assert (folder / name).read_bytes() == expected.files[name]


def test_thumbnails_without_pypdfium2_use_pdftoppm(built, monkeypatch):
    if shutil.which("pdftoppm") is None:
        pytest.skip("poppler-utils (pdftoppm) is not installed; pypdfium2 is the main route")
    pdf = next((built / "kits").rglob("*.pdf")).read_bytes()
    (png,) = kits._pdftoppm_thumbnails(pdf, 200, 1)
    assert png.startswith(b"\x89PNG")
    assert abs(int.from_bytes(png[16:20], "big") - 200) <= 1


def test_a_failed_kit_leaves_no_index(tmp_path, monkeypatch):
    def failing(config, preview_pages=1, store=None):
        raise KitError("layout", "too tall")

    monkeypatch.setattr(static, "render_kit", failing)
    configs = kits.ready_configs([FIRST.name], [FIRST.min_players], ["a4"])
    with pytest.raises(KitError, match="layout: .*too tall"):
        static.build_site(tmp_path, configs)
    assert not (tmp_path / "index.html").exists()


def test_cli_errors_for_site(capsys):
    assert cli.main(["site", "--games", "no-such-game", "--out", "/tmp/kit-never"]) == 2
    assert "Error: game: unknown game “no-such-game”" in capsys.readouterr().err
    assert cli.main(["site", "--players", "x"]) == 2
    assert "Error: arguments:" in capsys.readouterr().err


def test_thumbnails_of_the_first_pages(built):
    pdf = max((built / "kits").rglob("*.pdf"), key=lambda p: len(PdfReader(p).pages))
    pngs = kits.pdf_thumbnails(pdf.read_bytes(), 100, 2)
    assert len(pngs) == 2 and all(p.startswith(b"\x89PNG") for p in pngs)
    assert kits.pdf_thumbnails(pdf.read_bytes(), 100, 999)[-1]  # never past the last page
    assert len(kits.pdf_thumbnails(pdf.read_bytes(), 100, 999)) == len(PdfReader(pdf).pages)


def test_document_labels_come_from_file_names_only():
    assert kits.document_label("player-kit") == "Player kit"
    assert kits.document_label("player-kit-table-2") == "Player kit table 2"


def test_a_second_site_reads_the_kept_kits_and_prose_pages(built, render_cache, tmp_path,
                                                           monkeypatch):
    from kit.cache import RenderCache

    def refuse(*args, **kwargs):
        raise AssertionError("a kept kit was rendered again")

    monkeypatch.setattr(static, "render_kit", refuse)
    configs = kits.ready_configs([FIRST.name], [FIRST.min_players])
    store = RenderCache(render_cache)
    again = static.build_site(tmp_path / "again", configs, store=store).parent
    written = sorted(p.relative_to(built) for p in built.rglob("*") if p.is_file())
    assert written == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for rel in written:
        assert (again / rel).read_bytes() == (built / rel).read_bytes(), rel
    kept = [path.read_bytes()[:4] for _, _, path in store.entries()]
    assert kept.count(b"%sca") >= 1  # prose pages (their scale, then the PDF), cached by the first
    assert sum(1 for head in kept if head == b"PK\x03\x04") == len(configs)  # the kits


def test_site_in_another_language(tmp_path, capsys):
    """``kit site --lang de``: the index and the ready-made kits in German."""
    out = tmp_path / "site"
    code = cli.main(["site", "--out", str(out), "--games", FIRST.name, "--players",
                     str(FIRST.min_players), "--paper", "a4", "--lang", "de", "--jobs", "1",
                     "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["lang"] == "de"
    (config,) = kits.ready_configs([FIRST.name], [FIRST.min_players], ["a4"], langs=["de"])
    assert config.lang == "de" and summary["kits"] == [config.folder_name]
    assert config.folder_name.endswith("-de")
    page = Page()
    page.feed((out / "index.html").read_text(encoding="utf-8"))
    assert page.html_lang == "de"
    assert any(f"kits/{config.folder_name}/" in (a["href"] or "") for a in page.links)
    for html in (out / "kits" / config.folder_name).glob("*.html"):
        assert '<html lang="de"' in html.read_text(encoding="utf-8"), html.name
    assert "nav class=\"languages\"" not in (out / "index.html").read_text(encoding="utf-8")


def test_site_language_errors(capsys):
    assert cli.main(["site", "--lang", "xx", "--out", "/tmp/kit-never"]) == 2
    assert capsys.readouterr().err.startswith("Error: lang: unknown language “xx”")


class Links(HTMLParser):
    """Every address one page links or loads, its ids, its language switch and alternates."""

    def __init__(self) -> None:
        super().__init__()
        self.html_lang: str | None = None
        self.targets: list[str] = []
        self.ids: set[str] = set()
        self.switch: list[dict[str, str | None]] = []
        self.alternates: list[tuple[str | None, str | None]] = []
        self._in_switch = False
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.html_lang = a.get("lang")
        if a.get("id"):
            self.ids.add(str(a["id"]))
        if tag == "nav" and a.get("class") == "languages":
            self._in_switch = True
        if tag == "link" and a.get("rel") == "alternate":
            self.alternates.append((a.get("hreflang"), a.get("href")))
        elif tag == "a" and self._in_switch:
            self.switch.append(a)
        for name in ("href", "src"):
            if a.get(name):
                self.targets.append(str(a[name]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self._in_switch = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _read(path) -> Links:
    page = Links()
    page.feed(path.read_text(encoding="utf-8"))
    return page


@pytest.fixture(scope="module")
def every_language(tmp_path_factory, render_cache):
    """One kit (one game, its smallest table, US Letter) in every language, through the CLI."""
    out = tmp_path_factory.mktemp("site") / "site"
    with pytest.MonkeyPatch.context() as patch:
        summary = io.StringIO()
        patch.setattr("sys.stdout", summary)
        code = cli.main(["site", "--out", str(out), "--games", FIRST.name, "--players",
                         str(FIRST.min_players), "--paper", "letter", "--lang", "all",
                         "--jobs", "2", "--json"])
    assert code == 0
    return out, json.loads(summary.getvalue())


def test_every_language_has_its_index(every_language):
    out, summary = every_language
    assert summary["langs"] == list(LANGUAGES) and summary["lang"] == "en"
    assert summary["index"] == str(out / "index.html")
    pages = {lang: out / ("index.html" if lang == "en" else f"{lang}/index.html")
             for lang in LANGUAGES}
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("index.html")) == sorted(
        p.relative_to(out).as_posix() for p in pages.values())
    for lang, path in pages.items():
        page = _read(path)
        assert page.html_lang == lang
        (config,) = kits.ready_configs([FIRST.name], [FIRST.min_players], ["letter"],
                                       langs=[lang])
        kit_links = {found[1] for t in page.targets
                     if (found := re.match(r"(?:\.\./)?kits/([^/]+)/", t))}
        assert kit_links == {config.folder_name}  # the page's own language's kit only
        text = " ".join(" ".join(page.text).split())
        w = words(lang)
        for message in ("Print-ready party game kits", "Ready-made kits"):
            assert w.gettext(message) in text, (lang, message)
        assert paper_label("letter", w) in text  # the paper named in the page's language
    french = " ".join(_read(pages["fr"]).text)
    assert "Print-ready party game kits" not in french and "Player kit" not in french
    assert paper_label("letter", words("ru")) != "US Letter"  # so the check above can fail


def test_every_index_switches_to_the_same_page_in_each_language(every_language):
    out, _ = every_language
    for path in out.rglob("index.html"):
        page = _read(path)
        switch = [(a["hreflang"], a["lang"], a.get("aria-current")) for a in page.switch]
        assert switch == [(c, c, "true" if c == page.html_lang else None) for c in LANGUAGES]
        # each link goes to the index in its language
        assert [_lang_of(path, a["href"]) for a in page.switch] == list(LANGUAGES)
        assert [code for code, _ in page.alternates] == [*LANGUAGES, "x-default"]
        for code, href in page.alternates:
            assert _lang_of(path, href) == ("en" if code == "x-default" else code), (path, href)


def _lang_of(page, href: str) -> str | None:
    """The language of the page ``href`` leads to from ``page``."""
    return _read((page.parent / href).resolve()).html_lang


def test_no_dead_links_in_the_site(every_language):
    out, _ = every_language
    checked = 0
    for path in out.rglob("*.html"):
        if "kits" in path.relative_to(out).parts:
            continue  # the kits' own pages: the kit tests follow theirs
        page = _read(path)
        for target in page.targets:
            address, _, fragment = target.partition("#")
            assert not urlparse(address).scheme, target  # nothing from elsewhere
            file = (path.parent / unquote(address)).resolve() if address else path
            assert file.is_file() and file.is_relative_to(out.resolve()), (path, target)
            if fragment and file.suffix == ".html":
                assert fragment in _read(file).ids, (path, target)
            checked += 1
    assert checked > 5 * 10


def test_several_languages_root_the_first_without_english(tmp_path):
    assert static.root_language(["de", "fr"]) == "de"
    assert static.root_language(["ru", "en"]) == "en"
    assert static.index_paths(["ru", "en", "de"], "en") == {
        "en": "index.html", "ru": "ru/index.html", "de": "de/index.html"}
    links, alternates = static.language_switch({"de": "index.html", "fr": "fr/index.html"},
                                               "fr/index.html")
    assert [(x["href"], x["current"]) for x in links] == [("../index.html", False),
                                                         ("../fr/index.html", True)]
    assert alternates[-1] == {"code": "x-default", "href": "../index.html"}


@pytest.mark.parametrize(("lang", "error"), [
    ("fr,xx", "Error: lang: unknown language “xx”"),
    (" , ", "Error: arguments: argument --lang: give a language, a comma-separated list of "
            "them, or all; see 'kit site --help'"),
])
def test_site_language_list_errors(capsys, lang, error):
    assert cli.main(["site", "--lang", lang, "--out", "/tmp/kit-never"]) == 2
    assert capsys.readouterr().err.splitlines()[0].startswith(error)
