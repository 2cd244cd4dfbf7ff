"""A game's part of the game-night console, ``ConsoleGame``, and the parts it is made of."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from ..errors import KitError, Msg
from ..i18n import Words
from .start_form import Form

# Facts, payloads and views are JSON data, whose values are any JSON value: Any, as json.loads
# gives them.
Facts = Mapping[str, Any]  # what every page shows of a game: players, range, tables, ...
Payload = Mapping[str, Any]  # a journal entry's own data
Json = dict[str, Any]  # an answer, a log, a template's context
S = TypeVar("S")  # a game's state, as its ``apply`` makes it
S_in = TypeVar("S_in", contravariant=True)  # the same, as a hook takes it

# --- the console part: how the game-night console keeps, checks and shows a game ------------
#
# A game night is a journal of entries (``create`` first, then the game's own kinds, and
# ``undo``). The console replays it into the game's state, one entry at a time: ``apply`` takes
# the previous state (None before ``create``) and one entry, and returns a new state without
# changing the old one, so a state per journal version can be kept and an entry costs only
# itself. The game decides, in its three views and nowhere else, what the game master, the
# public and one player may see; every page, JSON answer and report file is made from a view.


@dataclass(frozen=True)
class View:
    """What one viewer may see of a state: the only thing their pages and answers reach."""

    data: Mapping[str, Any]  # JSON-ready: public.json, state.json, a player's answer
    # the log this viewer's report files and text are made from (None: no reports yet)
    log: Mapping[str, Any] | None = None
    # words of report file names this viewer may not fetch: the console sets them from the
    # game's ``private_reports`` for every viewer but the game master
    hidden: tuple[str, ...] = ()


@dataclass(frozen=True)
class EntryKind(Generic[S]):
    """One kind of journal entry a game takes, with its place in the JSON API."""

    kind: str  # its name in the journal ("orders", "round", ...)
    # its API route under /api/games/{id}/ ("turns", "tables/{table:int}/rounds")
    path: str
    # the API's JSON body and path parameters -> the journal payload, matched against the state
    # (names spelt as the game's, the turn or round filled in); raises Problems
    payload: Callable[[S, Payload, Mapping[str, Any]], Json]
    # (state before, state after, payload, recorded) -> the API's answer
    answer: Answer[S]
    said: Callable[[Mapping[str, Any]], Msg]  # the entry in one line, never a secret
    status: int = 201  # the API's status for an accepted entry
    undoable: bool = False  # ``undo`` may take it back
    closes: bool = False  # after it, nothing before it can be undone (a published turn)
    publishes: bool = False  # it changes what was handed out (the published record)
    # recorded only when the request says "confirm": true; before, the answer (recorded
    # False) says what it would change
    confirm: bool = False
    # who may post it: "gm" (the game master's token), or a seat kind whose own token may
    # ("player": the API's /api/games/{id}/{path} with a player's token, the seat's name
    # given to ``payload`` as the path parameter "player")
    by: tuple[str, ...] = ("gm",)
    # ``answer`` also takes ``checked=``: the engine's check of the state after
    # (``kit.report.resume_log``), so that it need not play the game again
    reads_check: bool = False
    # for an entry both the game master and a seat post at one path: the path parameter that
    # must name the poster's own seat ("table": table 2's token posts tables/2/... only); the
    # seat is then given to ``payload`` as the parameter "seat", (kind, name)
    seat_param: str | None = None
    # the key of what one entry of this kind sets whole (one player's orders of the open
    # turn), or None for an entry that sets more: an entry with a key replaces, in the
    # journal, the earlier ones of its kind with that key which nothing of another kind
    # follows since the last closing entry, so that reposts cost one row, not one per post.
    # Its ``apply`` must not need the rows it replaces: the payload carries what it reads
    # of them.
    replaces: Callable[[Payload], Hashable | None] | None = None


@dataclass(frozen=True)
class StartForm:
    """A game's form on the console's start page; its fields are read by ``read``."""

    key: str  # the form's id and address (/console/new/<key>)
    title: str  # msgids: the section's heading, intro, legend and button
    intro: str
    legend: str
    button: str
    fields: tuple[str, ...]  # the names of its fields, in page order
    # (values, problems, words, language) -> the fields the template shows
    show: Callable[[Mapping[str, str], Mapping[str, list[str]], Words, str], list[Json]]
    # (values, words) -> the form read: ``spec`` for ``create``, ``problems``, ``ok``
    read: Callable[[Mapping[str, str], Words], Form]


@dataclass
class FormRead:
    """A game master's form post, read by the game: the entry it makes, or its problems."""

    kind: str  # the entry it posts ("orders", "publish", ...)
    body: dict[str, Any] = field(default_factory=dict)  # as the JSON API's body
    params: dict[str, Any] = field(default_factory=dict)  # as the API's path parameters
    form: object = None  # the game's own reading of it (its problems, shown by ``gm_page``)
    values: Mapping[str, str] = field(default_factory=dict)  # the post, as typed
    ok: Callable[[], bool] = lambda: True  # no problem found (asked again after ``absorb``)
    done: str = "saved=1"  # the GM page's query once it is saved ("published=2#reports")
    unchanged: str = ""  # set: nothing to save; the GM page's query that says so
    sent: list[str] = field(default_factory=list)  # what it held, one line a player
    # the console's refusal (words) put beside the boxes; None: said on a short page
    absorb: Callable[[KitError, Words], None] | None = None
    again: Mapping[str, str] | None = None  # the post to apply again on a newer version
    # with the form's own problems: the entry of its sound rows, checked (not recorded) so
    # the console's problems are shown with the form's, every one at once
    sound: dict[str, Any] | None = None
    then: FormRead | None = None  # an entry made once this one is recorded (publish after save)


@dataclass(frozen=True)
class SeatSheet(Generic[S]):
    """A PDF of the game's that the game master prints with each seat's current link on it
    (a QR code and the address): made on a GM request only, from the links the GM token
    opens (``kit.console.sealed_links``), at ``/console/{id}/gm/sheets/{file}``."""

    kind: str  # the seats whose links it carries ("table")
    label: str  # msgid: its link on the GM page
    # (the game's state, facts, each seat's link by seat name) -> the PDF
    make: Callable[[S, Facts, Mapping[str, str]], bytes]


@dataclass(frozen=True)
class GmPage:
    """What a game's game master page is: a template of the game's and its context."""

    template: str  # a file of the game's templates/console/, found by the game's name
    context: Json


class Answer(Protocol[S_in]):
    """An entry's API answer: (state before, state after, payload, recorded) -> the answer;
    with ``EntryKind.reads_check``, also ``checked=``: the engine's check of the state after."""

    def __call__(self, before: S_in, after: S_in, payload: Payload, recorded: bool, /
                 ) -> Json: ...


class PageHook(Protocol):
    """A game master's or a table's page: (the GM view's data, words, query, the posted form
    read or None) -> its template and context."""

    def __call__(self, seen: Facts, w: Words, query: Mapping[str, str],
                 posted: FormRead | None = None, /) -> GmPage: ...


class TablePage(Protocol):
    """A table's scorer's page: (the GM view's data, the table's name, words, query, the posted
    form read or None) -> its template and context, showing that table alone."""

    def __call__(self, seen: Facts, table: str, w: Words, query: Mapping[str, str],
                 posted: FormRead | None = None, /) -> GmPage: ...


class PlayerPage(Protocol):
    """A player's own page: (the player's view data, words, query, the posted form read or
    None, the console's refusal text, own= the address of their own files) -> its template
    and context."""

    def __call__(self, data: Facts, w: Words, query: Mapping[str, str],
                 posted: FormRead | None, refusal: str, /, *, own: str) -> GmPage: ...


# A form of a page: (values as typed, the view data the page shows, words) -> the entry it makes
FormReader = Callable[[Mapping[str, str], Facts, Words], FormRead]


@dataclass(frozen=True)
class ConsoleGame(Generic[S]):
    """A game's console part: how it is created, the entries it takes, its state and views."""

    spec_keys: frozenset[str]  # the keys a new game's spec takes (beside lang, paper, title)
    # (spec, facts, random, problems) -> the log's header; adds every problem found to
    # ``problems`` and the facts every page shows (players, range, tables, ...) to ``facts``
    create: Callable[[Payload, dict[str, Any], random.Random, list[KitError]], Json]
    # (an engine-checked log, facts) -> the journal entries [(kind, payload)] reproducing it
    imported: Callable[[Payload, dict[str, Any]], list[tuple[str, Json]]]
    entries: tuple[EntryKind[S], ...]
    # (previous state or None, facts, kind, payload) -> the new state; never changes the old
    apply: Callable[[S | None, Facts, str, Payload], S]
    export: Callable[[S], Json]  # the whole log, as ``kit report`` reads it
    gm_view: Callable[[S, Facts], View]
    public_view: Callable[[S, Facts], View]
    player_view: Callable[[S, Facts, str], View]  # one player's (by name)
    # the pages: the start form, the GM page and its forms (by action), the public board
    start: StartForm
    gm_page: PageHook
    forms: Mapping[str, FormReader]
    # the public view's data -> the context of the game's ``board.html`` (the standings, on the
    # public page and the big screen) and ``public.html`` (the rest of the public page, if any)
    board: Callable[[Facts, Words], Json]
    report_names: Mapping[str, str]  # a report file's stem -> its label (msgid), in page order
    first_report: str  # the report file whose folder lists the others
    # whether the report files are made on demand only (they change with every entry)
    named_reports: tuple[str, ...] = ()
    # words of the report file names only the game master may fetch: every other view's
    # ``hidden``, and what a page that lists the files reads (no view made to know them)
    private_reports: tuple[str, ...] = ()
    # facts -> the seats that get their own link (a token each), as (kind, name): ("player",
    # "Ann") opens that player's view; None: no seat has a link
    token_seats: Callable[[Mapping[str, Any]], Sequence[tuple[str, str]]] | None = None
    # an imported log -> the console's caps it breaks (a row's guesses, a game's size),
    # checked before the engine reads it
    limits: Callable[[Payload], list[KitError]] | None = None
    # a player's own page (their link): (the player's view data, words, query, the posted
    # form read or None, the console's refusal text, own= the address of their own files,
    # ``.../p/TOKEN/files/``, or '' without ``player_files``) -> its template and context;
    # the form it posts: (values, the player's view data, words) -> the entry it makes; the
    # player's view as text (their reports and slips, for ``.../p/TOKEN/report.txt``)
    player_page: PlayerPage | None = None
    # whether a player's link serves their own slip of each handed-out turn as PDF
    # (``.../p/TOKEN/files/slips-turn-N.pdf``: the game's report ``plan`` and ``slips`` take
    # ``player=``, that player's own slips alone)
    player_files: bool = False
    player_form: FormReader | None = None
    player_text: Callable[[Facts, Words], str] | None = None
    # (the entry kind a player posted, their view data after it, words) -> what their page
    # echoes of the open turn's orders: the line saying them as received and the rulings
    # they will get, for the receipt letter; None: that post has no orders to acknowledge
    player_echo: Callable[[str, Facts, Words], tuple[str, list[str]] | None] | None = None
    # a table's scorer's page (its link, /console/ID/t/TOKEN): (the GM view's data, the
    # table's name, words, query, the posted form read or None) -> its template and context,
    # showing that table alone; its forms: action -> (values, the GM view's data, words) -> the
    # entry it makes, posted with the table's seat (``EntryKind.seat_param``)
    table_page: TablePage | None = None
    table_forms: Mapping[str, FormReader] = field(default_factory=dict)
    # facts and each player's link by name -> a PDF the game master prints and hands out
    # (a card for each player with their link as a QR code); None: no such sheet
    link_sheet: Callable[[Facts, Mapping[str, str]], bytes] | None = None
    # more sheets with the seats' links, by file name ("tally-sheets.pdf": a table's tally
    # sheet with its scorer's link)
    seat_sheets: Mapping[str, SeatSheet[S]] = field(default_factory=dict)
    # (state, facts, turn) -> each player's own part of a published turn, as their view says
    # it (a letter's slip), for all players at once; None: each player's view's "slips"
    turn_slips: Callable[[S, Facts, int], Mapping[str, str]] | None = None
    # (a view's log, the turn or None for the whole folder, the player whose own files alone
    # it holds or None) -> about how many pages its report folder has, known before it is
    # rendered (the render line's page budget); None: 0
    report_pages: Callable[[Facts, int | None, str | None], int] | None = None

    def entry(self, kind: str) -> EntryKind[S] | None:
        """The entry of that kind, if the game takes it."""
        return next((e for e in self.entries if e.kind == kind), None)
