"""What a game is given (a validated ``KitConfig``) and what it provides (a ``GameSpec``: its
kit, its log for ``kit report``, and its part of the game-night console, ``ConsoleGame``)."""

from __future__ import annotations

import dataclasses
import enum
import functools
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ConfigError, KitError, Msg, Problems, Quote, shown
from .i18n import N_, Words, words
from .options import Option

if TYPE_CHECKING:
    from .plan import KitPlan


@dataclass(frozen=True)
class KitConfig:
    """A validated kit request. Build steps read it and never change it."""

    game: str
    players: int
    names: tuple[str, ...]  # empty when the host gave only a count
    paper: str
    range: tuple[int, int]
    custom_range: bool
    settings: object = field(default=None)  # the game's own options (its ``Settings``)
    title: str = ""
    date: str = ""
    out: str = "build"
    tables: int | None = None  # as asked for; ``sizes`` holds the seating that resulted
    shuffle: int | None = None
    sizes: tuple[int, ...] = ()  # players at each table; one entry for a single table
    table: int = 0  # 0: the whole party; 1..table_count: one table of it
    party: str = ""  # a batch party's name, used as its folder name
    lang: str = "en"  # the language of every page
    large_print: bool = False  # rules and instructions at 12 pt or more, bigger boxes

    @property
    def table_count(self) -> int:
        return max(1, len(self.sizes))

    @property
    def table_label(self) -> str:
        """"Table 2 of 3" for one table of a split party, else empty."""
        if not self.table:
            return ""
        return self.words.gettext("Table %(table)s of %(tables)s", table=self.table,
                                  tables=self.table_count)

    @property
    def folder_name(self) -> str:
        """``lowest-unique-9p-letter-fr``; a kit with names, a title, a date or a seating seed
        adds a slug of the title and a short digest of those four, so it never replaces the
        count-only kit (or another party's) of the same size."""
        if self.party:
            return self.party
        name = f"{self.game}-{self.players}p-{self.paper}"
        if self.tables is not None and self.table_count > 1:
            name += f"-{self.table_count}tables"
        if self.custom_range:
            name += f"-range{self.range[0]}-{self.range[1]}"
        if self.lang != "en":
            name += f"-{self.lang}"
        if self.large_print:
            name += "-large"
        if self.names or self.title or self.date or self.shuffle is not None:
            import hashlib
            import json
            import re
            import unicodedata

            plain = unicodedata.normalize("NFKD", self.title).encode("ascii", "ignore")
            slug = re.sub(r"[^a-z0-9]+", "-", plain.decode().lower()).strip("-")[:30]
            personal = json.dumps([list(self.names), self.title, self.date, self.shuffle],
                                  ensure_ascii=True)
            digest = hashlib.sha256(personal.encode("ascii")).hexdigest()[:6]
            name += "".join(f"-{part}" for part in (slug.strip("-"), digest) if part)
        return name

    @property
    def words(self) -> Words:
        """The kit's language: its words and formats."""
        return words(self.lang)

    @property
    def range_text(self) -> str:
        return self.words.gettext("%(lo)s to %(hi)s", lo=self.range[0], hi=self.range[1])


@dataclass(frozen=True)
class GameReport:
    """How ``kit report`` handles a game's log: read it, lay it out, or print it as text."""

    parse: Callable[..., object]  # TOML data (, strict=True) -> a checked log; Problems
    # log, config (, turn=N, amendments=(...)) -> the report folder's plan
    plan: Callable[..., KitPlan]
    text: Callable[..., str]  # log, language (, turn=N) -> Markdown
    # The log below is the game's own type, as ``parse`` returns it.
    csv: Callable[[Any], str] | None = None  # log -> CSV text (``--format csv``)
    # Games reported turn by turn (``--turn N``, published turns): the turns a log reports,
    # each turn's snapshot (``kit.published``), and the one-line summary of a turn.
    turns: Callable[[Any], int] | None = None
    snapshots: Callable[[Any], Mapping[int, Mapping]] | None = None
    summary: Callable[[Any, int, Words], str] | None = None
    # a turn's private slips as text (log, words, turn, player=None: that player's alone);
    # a game with them takes ``player=`` in ``plan`` too (that player's own slips alone)
    slips: Callable[..., str] | None = None
    strict: bool = False  # ``parse`` takes ``strict=True`` (house rulings become errors)
    # (TOML data, an earlier result of it or None) -> ``parse``'s check, kept as a running
    # state: resumed from the earlier one, checking a log one turn longer costs that turn
    resume: Callable[[Any, Any], object] | None = None


@dataclass(frozen=True)
class GameSpec:
    """A registered game: its limits, its rule-given range, and its page planner."""

    name: str
    title: str
    min_players: int
    max_players: int | None  # per table (or the kit's limit, when it does not split)
    default_players: int
    default_range: Callable[[int], tuple[int, int]]
    plan: Callable[[KitConfig], KitPlan]
    options: tuple[Option, ...] = ()  # the game's own options, beside kit.options.COMMON
    settings: Callable[..., object] = dict  # builds KitConfig.settings from those options
    check_config: Callable[[KitConfig], None] = lambda config: None
    # True: a party over max_players sits at several tables by itself. False: the rules set no
    # cap, so a big group stays one game unless the host asks for --tables explicitly.
    splits_large_parties: bool = True
    players_note: str = ""  # why the limits are what they are, when the rules do not say
    templates: Path | None = None  # the game's own templates, named "<package>/<file>"
    report: GameReport | None = None  # its game log, when ``kit report`` takes one
    console: ConsoleGame | None = None  # its game-night console part, when it has one

    @property
    def package(self) -> str:
        """The name its templates go by: "lowest_unique" for "lowest-unique"."""
        return self.name.replace("-", "_")

    def check_players(self, players: int | None, given: object = None) -> None:
        """Raise the game's own message unless ``players`` is a count it allows."""
        top = self.max_players
        if players is None or players < self.min_players or (top is not None and players > top):
            got = str(players) if players is not None else Quote(str(given))
            game, lo = Msg(self.title), self.min_players
            if self.players_note:
                raise ConfigError("players", Msg(N_("%(game)s kits are made for %(lo)s to "
                                                    "%(hi)s players (%(note)s); got %(got)s"),
                                                 game=game, lo=lo, hi=top or lo, got=got,
                                                 note=Msg(self.players_note)))
            if top is None:
                raise ConfigError("players", Msg(N_("%(game)s needs at least %(lo)s players; "
                                                    "got %(got)s"), game=game, lo=lo, got=got))
            raise ConfigError("players", Msg(N_("%(game)s needs %(lo)s to %(hi)s players per "
                                                "table; got %(got)s"),
                                             game=game, lo=lo, hi=top, got=got))


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
class EntryKind:
    """One kind of journal entry a game takes, with its place in the JSON API."""

    kind: str  # its name in the journal ("orders", "round", ...)
    # its API route under /api/games/{id}/ ("turns", "tables/{table:int}/rounds")
    path: str
    # the API's JSON body and path parameters -> the journal payload, matched against the state
    # (names spelt as the game's, the turn or round filled in); raises Problems
    payload: Callable[[Any, Mapping[str, Any], Mapping[str, Any]], dict[str, Any]]
    # (state before, state after, payload, recorded) -> the API's answer
    answer: Callable[[Any, Any, Mapping[str, Any], bool], dict[str, Any]]
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
    show: Callable[..., list[dict[str, Any]]]
    # (values, words) -> a Form-like object: ``spec`` for ``create``, ``problems``, ``ok``
    read: Callable[..., Any]


@dataclass
class FormRead:
    """A game master's form post, read by the game: the entry it makes, or its problems."""

    kind: str  # the entry it posts ("orders", "publish", ...)
    body: dict[str, Any] = field(default_factory=dict)  # as the JSON API's body
    params: dict[str, Any] = field(default_factory=dict)  # as the API's path parameters
    form: Any = None  # the game's own reading of it (its problems, shown by ``gm_page``)
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
class SeatSheet:
    """A PDF of the game's that the game master prints with each seat's current link on it
    (a QR code and the address): made on a GM request only, from the links the GM token
    opens (``kit.console.sealed_links``), at ``/console/{id}/gm/sheets/{file}``."""

    kind: str  # the seats whose links it carries ("table")
    label: str  # msgid: its link on the GM page
    # (the game's state, facts, each seat's link by seat name) -> the PDF
    make: Callable[[Any, Mapping[str, Any], Mapping[str, str]], bytes]


@dataclass(frozen=True)
class GmPage:
    """What a game's game master page is: a template of the game's and its context."""

    template: str  # a file of the game's templates/console/, found by the game's name
    context: dict[str, Any]


@dataclass(frozen=True)
class ConsoleGame:
    """A game's console part: how it is created, the entries it takes, its state and views."""

    spec_keys: frozenset[str]  # the keys a new game's spec takes (beside lang, paper, title)
    # (spec, facts, random, problems) -> the log's header; adds every problem found to
    # ``problems`` and the facts every page shows (players, range, tables, ...) to ``facts``
    create: Callable[..., dict[str, Any]]
    # (an engine-checked log, facts) -> the journal entries [(kind, payload)] reproducing it
    imported: Callable[..., list[tuple[str, dict[str, Any]]]]
    entries: tuple[EntryKind, ...]
    # (previous state or None, facts, kind, payload) -> the new state; never changes the old
    apply: Callable[[Any, Mapping[str, Any], str, Mapping[str, Any]], Any]
    export: Callable[[Any], dict[str, Any]]  # the whole log, as ``kit report`` reads it
    gm_view: Callable[[Any, Mapping[str, Any]], View]
    public_view: Callable[[Any, Mapping[str, Any]], View]
    player_view: Callable[[Any, Mapping[str, Any], str], View]  # one player's (by name)
    # the pages: the start form, the GM page (view, words, query, posted form) and its forms
    # (action -> (values, GM view, words) -> a form read), the public board's template
    start: StartForm
    gm_page: Callable[..., GmPage]
    forms: Mapping[str, Callable[..., Any]]
    # the public view's data -> the context of the game's ``board.html`` (the standings, on the
    # public page and the big screen) and ``public.html`` (the rest of the public page, if any)
    board: Callable[[Mapping[str, Any], Words], dict[str, Any]]
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
    limits: Callable[[Mapping[str, Any]], list[KitError]] | None = None
    # a player's own page (their link): (the player's view data, words, query, the posted
    # form read or None, the console's refusal text, own= the address of their own files,
    # ``.../p/TOKEN/files/``, or '' without ``player_files``) -> its template and context;
    # the form it posts: (values, the player's view data, words) -> the entry it makes; the
    # player's view as text (their reports and slips, for ``.../p/TOKEN/report.txt``)
    player_page: Callable[..., GmPage] | None = None
    # whether a player's link serves their own slip of each handed-out turn as PDF
    # (``.../p/TOKEN/files/slips-turn-N.pdf``: the game's report ``plan`` and ``slips`` take
    # ``player=``, that player's own slips alone)
    player_files: bool = False
    player_form: Callable[..., FormRead] | None = None
    player_text: Callable[[Mapping[str, Any], Words], str] | None = None
    # a table's scorer's page (its link, /console/ID/t/TOKEN): (the GM view's data, the
    # table's name, words, query, the posted form read or None) -> its template and context,
    # showing that table alone; its forms: action -> (values, the GM view's data, words) -> the
    # entry it makes, posted with the table's seat (``EntryKind.seat_param``)
    table_page: Callable[..., GmPage] | None = None
    table_forms: Mapping[str, Callable[..., FormRead]] = field(default_factory=dict)
    # facts and each player's link by name -> a PDF the game master prints and hands out
    # (the secret-number slips, each with its player's link as a QR code); None: no such sheet
    link_sheet: Callable[[Mapping[str, Any], Mapping[str, str]], bytes] | None = None
    # more sheets with the seats' links, by file name ("tally-sheets.pdf": a table's tally
    # sheet with its scorer's link)
    seat_sheets: Mapping[str, SeatSheet] = field(default_factory=dict)
    # (state, facts, turn) -> each player's own part of a published turn, as their view says
    # it (a letter's slip), for all players at once; None: each player's view's "slips"
    turn_slips: Callable[[Any, Mapping[str, Any], int], Mapping[str, str]] | None = None
    # (a view's log, the turn or None for the whole folder, the player whose own files alone
    # it holds or None) -> about how many pages its report folder has, known before it is
    # rendered (the render line's page budget); None: 0
    report_pages: Callable[[Mapping[str, Any], int | None, str | None], int] | None = None

    def entry(self, kind: str) -> EntryKind | None:
        """The entry of that kind, if the game takes it."""
        return next((e for e in self.entries if e.kind == kind), None)


def name_problem(field: str, name: str) -> KitError | None:
    """A player's name that would print wrong or spoof others: one holding a control, format
    (bidi override, zero-width) or unassigned character; None when it is fine."""
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        return ConfigError(field, Msg(N_(
            "%(name)s holds a control, direction or zero-width character; a name is "
            "printable text only"), name=shown(name)))
    return None


def one_of(choices: Sequence[str], got: object) -> Msg:
    """"must be one of: en, fr; got 'xx'"."""
    return Msg(N_("must be one of: %(choices)s; got %(got)s"), choices=", ".join(choices),
               got=shown(str(got)))


def match_names(given: object, names: Sequence[str], field: str, *,
                allow_none: bool = False, problems: list[KitError] | None = None
                ) -> dict[str, Any]:
    """``given`` with its keys spelt as the game's names (case and spacing ignored). Unknown
    names are left as typed, for the engine to name (with its suggestions)."""
    if not isinstance(given, Mapping):
        error = ConfigError(field, Msg(N_("give an object of name: value")))
        if problems is not None:
            problems.append(error)
            return {}
        raise Problems([error])
    folded = {" ".join(n.split()).casefold(): n for n in names}
    out: dict[str, Any] = {}
    for key, value in given.items():
        name = folded.get(" ".join(str(key).split()).casefold(), str(key))
        if value is None and not allow_none:
            continue
        out[name] = value
    return out


_PLAIN = frozenset({str, int, float, bool, type(None)})
_SHOWN = ("tally",)  # computed properties worth showing, when a value has them


@functools.cache
def _shape(kind: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A dataclass type's field names and the computed properties shown beside them (looked
    up once per type: a big game's public view converts a hundred thousand values)."""
    return (tuple(f.name for f in dataclasses.fields(kind)),
            tuple(name for name in _SHOWN if isinstance(getattr(kind, name, None), property)))


def to_json(value: Any) -> Any:
    """An engine value (dataclasses, mappings, tuples) as plain JSON data."""
    kind: type = type(value)
    if kind in _PLAIN:  # most values are these exactly (a subclass, an IntEnum say, is not)
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names, shown = _shape(kind)
        out = {name: to_json(getattr(value, name)) for name in names}
        for name in shown:
            out[name] = to_json(getattr(value, name))
        return out
    if isinstance(value, enum.Enum):
        return value.value
    if kind is dict or isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json(v) for v in value]
    if isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
