"""The page plan: what a kit contains, as plain data, before any HTML or PDF exists.

A page's body is either a ``Form`` (items of the layout model, in mm: slips, sheets, grids,
reports, whose count grows with players, rounds, turns or tables) or ``Prose`` (a Jinja2
template rendered by WeasyPrint: rules sheets, cards and examples, a fixed few per kit).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from .i18n import Words
from .layout.model import Items


@dataclass(frozen=True)
class Form:
    """A body drawn from the layout model (coordinates on the page, in mm)."""

    items: Items


@dataclass(frozen=True)
class Prose:
    """A body written in HTML: ``template`` filled with ``context`` (as ``p``)."""

    template: str
    context: Mapping[str, object] = field(default_factory=dict)
    columns: int = 1  # 2: its template splits its text in two columns or halves (``part``)
    part: int = 0  # 0: the whole page; 1 or 2: that half alone, on a page of its own


@dataclass(frozen=True)
class Page:
    """One printed page: its label (in the header and the print guide) and its body."""

    label: str
    body: Form | Prose
    audience: str = "player"  # "player" pages carry the scale ruler; "host" pages say host only
    landscape: bool = False  # turned sideways (e.g. a wide turn-report grid)
    # Where a reader jumps to: an entry of the PDF's outline (bookmarks) that opens at this
    # page ("Turn 3", "Table 2", "Standings"), and the id of the page's section in the HTML
    # ("turn-3": a link to file.html#turn-3 opens there). Each is optional and independent.
    bookmark: str | None = None
    anchor: str | None = None


@dataclass(frozen=True)
class Document:
    """One output file pair (``<stem>.pdf`` and ``<stem>.html``)."""

    stem: str
    title: str
    pages: tuple[Page, ...]
    # printed on one side only: its pages are cut apart (slips, order forms), so a duplex
    # printer must not put two of them back to back
    one_sided: bool = False

    @property
    def audience(self) -> str:
        """"host" when every page is for the host (one file per party), else "player"."""
        return "host" if all(p.audience == "host" for p in self.pages) else "player"


@dataclass(frozen=True)
class KitPlan:
    """Everything a kit folder will hold."""

    folder: str
    game_title: str
    documents: tuple[Document, ...]
    banner: str  # the range and limits line shown on player pages
    styles: tuple[str, ...] = ()  # extra CSS templates for this game's prose, after print.css
    lang: str = "en"  # the language every page is written in
    host_notice: str = ""  # the line on every host page ("HOST ONLY — ..."), in the language
    title: str = ""  # the game's own title (a report log's), when the configuration has none
    large_print: bool = False  # prose never shrunk below its large-print sizes


LARGE_PRINT_CSS = "large_print.css"


def in_large_print(plan: KitPlan) -> KitPlan:
    """``plan`` with its prose at 12 pt or more: the large-print styles, no shrink, and each
    two-column prose page as two pages of one column (at 12 pt a page holds about half)."""
    words = Words(plan.lang)
    documents = tuple(replace(d, pages=printed_pages(d.pages, True, words))
                      for d in plan.documents)
    return replace(plan, documents=documents, styles=(*plan.styles, LARGE_PRINT_CSS),
                   large_print=True)


def printed_pages(pages: Sequence[Page], large_print: bool, words: Words) -> tuple[Page, ...]:
    """``pages`` as the kit prints them: in large print each two-column prose page as two (a
    page that gives page numbers counts with these)."""
    if not large_print:
        return tuple(pages)
    return tuple(p for page in pages for p in _one_column(page, words))


def _one_column(page: Page, words: Words) -> tuple[Page, ...]:
    if not isinstance(page.body, Prose) or page.body.columns != 2:
        return (page,)
    return tuple(replace(page, label=words.gettext("%(page)s, part %(part)s of %(parts)s",
                                                   page=page.label, part=part, parts=2),
                         body=replace(page.body, part=part),
                         bookmark=page.bookmark if part == 1 else None,
                         anchor=page.anchor if part == 1 else None)
                 for part in (1, 2))


def kit_plan(folder: str, title: str, banner: str, player_pages: Sequence[Page],
             host_pages: Sequence[Page], styles: tuple[str, ...] = (),
             words: Words | None = None, game_master: bool = False) -> KitPlan:
    """The usual kit: a player file and a separate host file.

    The one who runs the game is the host (Lowest Unique Number) or, with ``game_master``, the
    game master (What's My Number?): two roles with their own words in every language.
    """
    words = words or Words()
    if game_master:
        host_title = words.gettext("%(game)s — game master’s file", game=title)
        notice = words.gettext("GAME MASTER ONLY — keep these pages away from the players.")
    else:
        host_title = words.gettext("%(game)s — host answers", game=title)
        notice = words.gettext("HOST ONLY — keep these pages away from the players.")
    return KitPlan(
        folder=folder,
        game_title=title,
        banner=banner,
        documents=(
            Document("player-kit", words.gettext("%(game)s — player kit", game=title),
                     tuple(player_pages), one_sided=True),
            Document("host-answers", host_title, tuple(host_pages)),
        ),
        styles=styles,
        lang=words.lang,
        host_notice=notice,
    )
