"""The game-night console's service: games kept as journals, checked by the one engine.

Used by the JSON API (``kit.console.api``) and the HTML pages alike, for any game the registry
gives a console part (``kit.game.ConsoleGame``). A game's state is its journal replayed by the
game's own ``apply`` (``journal.replay``), kept in memory and stepped forward by the entries
since (``state_cache``); each candidate entry is checked by the engine ``kit report`` uses
(``engine.check``). What a viewer sees is the game's view of a state (game master, public, one
player), cached by game, version and viewer. Every state-changing call takes the journal version
the caller saw (``None``: whatever is current); a stale one raises ``Conflict`` with the
entries since, and changes nothing."""

from __future__ import annotations

import json
import os
import secrets as random_source
import time
import tomllib
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Any

import tomli_w

from ..cache import STAGING, default_folder, private_folder, sweep_staging
from ..db.engine import database_url, make_engine, migrate
from ..errors import ConfigError, GameLogError, KitError, Msg, Problems
from ..game import EntryKind, FormRead, View
from ..game.refusals import Conflict, NotFound
from ..i18n import N_
from ..tomlhelp import explained
from ..tomlhelp import loads as loads_toml
from . import engine, sealed_links, state_cache
from .answer_cache import KEPT_BYTES, AnswerCache, Made, etag, public_version, view_size
from .journal import UNDO, Played, describe, replaced, said, step
from .languages import GameLanguages
from .mail import book
from .mail.postbox import Postbox
from .presence import Presence
from .quota import GameQuota, SeatPace
from .report_files import NO_FILE, amended, file_turn, served_path, text_report
from .report_files import report_folder as files_folder
from .report_render import BeingMade, NotMade, Queued, ReportFolders
from .results import Answer, Created, Entered, FormPosted, GameState, Loaded
from .specs import check_new_game, console_of, games_limits, import_entries, unknown_entry
from .state_cache import BUDGET_BYTES, GameCache
from .store import GameRow, Missing, Row, Stale, Store
from .tokens import new_game_id, new_token, token_hash, token_matches

IMPORT_MAX_CHARS = 1_000_000  # an imported log's text (a 100-player, 200-turn night is 400 KB)
RETRIES = 30  # an append without a version retries this often on a race, then reports 409
NO_GAME = Msg(N_("there is no game with that id"))
GM = "gm"
PUBLIC = "public"


class Console:
    """The console over one store; thread-safe (each call is its own transaction)."""

    def __init__(self, store: Store, files: Path, kept_bytes: int = BUDGET_BYTES) -> None:
        self.store = store
        self.files = files
        self.kept = GameCache(kept_bytes)
        self.quota, self.pace = GameQuota(), SeatPace()  # games an hour, posts a minute
        self.answers = AnswerCache(KEPT_BYTES)  # views and public answers, by version: never stale
        self.folders = ReportFolders(files)
        self._kinds: dict[str, str] = {}  # each game's kind, read once
        self.mail = Postbox(store.engine)  # players' letters: queued on publish, or drafts
        self.sealed = sealed_links.SealedLinks(store.engine)  # seats' links, for the GM
        self.languages = GameLanguages(store)  # each game's own, for its pages
        self.presence = Presence(store)  # where each seat's page is, for every server

    # --- games -------------------------------------------------------------------------------

    @property
    def stored_locally(self) -> bool:
        """Whether the games are kept in a SQLite file on the computer running the console
        (not in a PostgreSQL server that may be elsewhere)."""
        return self.store.engine.dialect.name == "sqlite"

    def create_game(self, spec: Mapping[str, Any], client: str | None = None) -> Created:
        """A new game from an API/form spec (``specs.check_new_game``; ``"emails"``: the
        players' addresses, ``kit.console.mail.book``); raises Problems. ``client``: the address
        asking (its games an hour are capped, ``quota``)."""
        given = spec.get("emails")
        rest = {k: v for k, v in spec.items() if k != "emails"}
        try:
            kind, facts, log = check_new_game(rest, random_source.SystemRandom())
        except Problems as exc:  # the addresses' problems too, every one at once
            raise Problems([*exc.problems, *book.check_emails(given, None)[1]]) from None
        emails, bad = book.check_emails(given, self._player_seats(kind, facts))
        if bad:
            raise Problems(bad)
        engine.check(log)
        self.quota.take(client)
        return self._insert(kind, facts, [("create", {"log": log})], emails)

    @staticmethod
    def _player_seats(kind: str, facts: Mapping[str, Any]) -> list[str]:
        named = console_of(kind).token_seats
        return [name for k, name in (named(facts) if named else ()) if k == book.PLAYER]

    def import_log(self, toml_text: str, *, lang: str | None = None,
                   paper: str | None = None, client: str | None = None) -> Created:
        """A new game whose journal reproduces the TOML log (turns, publishes, rounds); its
        pages and reports in ``lang`` on ``paper`` (default: English, A4). Its size and the
        game's caps (``ConsoleGame.limits``) are checked before the engine reads it."""
        if len(toml_text) > IMPORT_MAX_CHARS:
            raise Problems([ConfigError("log", Msg(N_(
                "the log has %(count)s characters; the console imports at most %(max)s"),
                count=len(toml_text), max=IMPORT_MAX_CHARS))])
        try:
            data = loads_toml(toml_text)  # too deep or too long: a TOMLDecodeError too
        except tomllib.TOMLDecodeError as exc:
            explanation = explained(toml_text, str(exc))  # line, column and the usual trap
            raise Problems([ConfigError("log", Msg(N_("not valid TOML: %(error)s"),
                                                   error=explanation))]) from None
        caps = games_limits(data)
        if caps:
            raise Problems(caps)
        engine.check(data)
        kind, facts, entries = import_entries(data, {"lang": lang, "paper": paper})
        self.quota.take(client)
        return self._insert(kind, facts, entries)

    def _insert(self, kind: str, facts: dict[str, Any],
                entries: list[tuple[str, dict[str, Any]]],
                emails: Mapping[str, str] | None = None) -> Created:
        token = new_token()
        game_id = new_game_id()
        named = console_of(kind).token_seats
        seats = {seat: new_token() for seat in (named(facts) if named else ())}
        version = self.store.create(  # the seats' links sealed, so the GM opens them again
            game_id, kind, facts, token_hash(token), entries,
            {seat: token_hash(t) for seat, t in seats.items()}, also=sealed_links.sealing(
                game_id, token, seats, lambda conn: book.save(conn, game_id, emails or {})))
        return Created(game_id, token, version, seats)

    def authorize(self, game_id: str, token: str | None) -> bool:
        """Whether ``token`` is the game's GM token (hash compare, constant time)."""
        return token_matches(token, self._row(game_id).gm_hash)

    def seat_of(self, game_id: str, token: str | None) -> tuple[str, str] | None:
        """The seat (kind, name) whose token ``token`` is, or None. Looked up by the token's
        SHA-256: a timing tells nothing of a token that was never stored."""
        if not token:
            return None
        seat = self.store.seat_of(game_id, token_hash(token))
        if seat is not None:  # a request of the seat's page or JSON: seen (once a minute)
            self.presence.requested(game_id, f"{seat[0]}:{seat[1]}")
        return seat

    def player_of(self, game_id: str, token: str | None) -> str | None:
        """The player whose token ``token`` is, or None."""
        seat = self.seat_of(game_id, token)
        return seat[1] if seat and seat[0] == "player" else None

    def exists(self, game_id: str) -> bool:
        try:
            self._row(game_id)
        except NotFound:
            return False
        return True

    def game_row(self, game_id: str) -> GameRow:
        """The game's row as stored now: its journal version, which a page kept per version
        is keyed by, and which the calls it makes next may be given (one read, not one each).
        """
        return self._row(game_id)

    def kind(self, game_id: str) -> str:
        """The game's name (its registry key; a game's never changes, so it is kept)."""
        kind = self._kinds.get(game_id)
        if kind is None:
            kind = self._kinds[game_id] = self._row(game_id).kind
        return kind

    def language_of(self, game_id: str) -> str | None:
        """The language the game was made in; None for no such game."""
        return self.languages.of(game_id)

    def _row(self, game_id: str) -> GameRow:
        try:
            return self.store.game(game_id)
        except Missing:
            raise NotFound("game", NO_GAME) from None

    def load(self, game_id: str) -> Loaded:
        """The game and its state at the stored version: the kept state, stepped forward by
        the entries since (``state_cache.load``), after asking the store for the version."""
        try:
            now = state_cache.load(self.kept, game_id, console_of, self._row(game_id),
                            self.store.since, self.store.load)
        except Missing:
            raise NotFound("game", NO_GAME) from None
        return Loaded(now.row, now.rows, console_of(now.row.kind), now.played, now.checked)

    # --- what each viewer sees -----------------------------------------------------------------

    def view(self, game_id: str, who: str = PUBLIC, loaded: Loaded | None = None,
             row: GameRow | None = None) -> View:
        """A viewer's view of the game's current state: ``"gm"``, ``"public"`` or
        ``"player:<name>"``. Kept per game, journal version and viewer (a lookup needs only
        the game's row, ``row`` when the caller just read it); made once however many ask at
        once."""
        version = loaded.row.version if loaded is not None else \
            (row or self._row(game_id)).version

        def make() -> tuple[View, None]:  # (kept under the version it was made of)
            now = loaded or self.load(game_id)
            # the public view moves with the public version only: an entry the public does
            # not see (a player's post) finds it made, and its size (writing out a 100-player
            # game's public view to weigh it cost 0.3 s a post)
            public = ("public view", game_id, public_version(now.game, now.rows)) \
                if who == PUBLIC else None
            made = self.answers.get(public) if public is not None else None
            if made is None:
                view = self._make_view(now, who)  # of the version loaded (newer, maybe)
                made = (view, view_size(view))
                if public is not None:
                    self.answers.put(public, made, 200)  # the view itself is weighed below
            self.answers.put((game_id, now.row.version, who), made[0], made[1])
            return made[0], None

        return self.answers.once((game_id, version, who), make)

    @staticmethod
    def _make_view(loaded: Loaded, who: str) -> View:
        game, state, facts = loaded.game, loaded.played.state, loaded.facts
        if who == GM:
            view = game.gm_view(state, facts)
        elif who.startswith("player:"):
            view = game.player_view(state, facts, who.partition(":")[2])
        else:
            view = game.public_view(state, facts)
        # the public's and a player's version move only with what everyone may see, so they
        # count no unpublished entry (a player learns nothing of others' posts from it; what
        # the player's own entries change, their answers' ETag says); the GM's is the journal's
        version = loaded.row.version if who == GM else public_version(game, loaded.rows)
        head = {"id": loaded.row.id, "game": loaded.row.kind, "title": facts.get("title", ""),
                "lang": facts["lang"], "version": version}
        # what a viewer may not fetch: the game's private reports, for all but the GM
        hidden = () if who == GM else game.private_reports
        return View({**head, **view.data}, view.log, hidden)

    def answer(self, game_id: str, what: Hashable, make: Callable[[View], bytes | Made],
               who: str = PUBLIC, row: GameRow | None = None) -> Answer:
        """An answer made from ``who``'s view (``make``: its bytes), kept per game, the
        viewer's version and ``what`` (the answer's kind, language, ...) unless ``make`` says
        not to; its ETag names them (``row``: as ``view``)."""
        view = self.view(game_id, who, row=row)

        def made() -> tuple[Answer, int | None]:
            result = make(view)
            result = result if isinstance(result, Made) else Made(result)
            return Answer(result.body, etag(game_id, view.data["version"], who, what,
                                            result.keep), result.making), \
                len(result.body) + 200 if result.keep else None

        return self.answers.once(("answer", game_id, view.data["version"], who, what), made)

    def state(self, game_id: str) -> GameState:
        """The game master's view and the journal."""
        return self._state(self.load(game_id))

    def _state(self, loaded: Loaded) -> GameState:
        game_id, rows, game = loaded.row.id, loaded.rows, loaded.game
        return GameState(
            id=loaded.row.id, kind=loaded.row.kind, version=loaded.row.version,
            facts=loaded.facts, view=self.view(game_id, GM, loaded),
            entries=tuple({"version": r.seq, "kind": r.kind, "text": describe(game, r),
                           "at": r.at} for r in rows),
            journal=tuple((r.seq, said(game, r)) for r in rows),
            last_entry=loaded.undoable())

    def public_state(self, game_id: str) -> dict[str, Any]:
        """What public.json returns: the public view's data."""
        return dict(self.view(game_id, PUBLIC).data)

    def public_json(self, game_id: str) -> Answer:
        """``public.json``'s bytes and ETag, made once per public version."""
        return self.answer(game_id, "public.json", lambda view: json.dumps(
            view.data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode())

    def version_json(self, game_id: str) -> Answer:
        """``{"version"}``: the public version alone (what a polling screen asks first)."""
        return self.answer(game_id, "version.json", lambda view: json.dumps(
            {"version": view.data["version"]}).encode())

    def player_state(self, game_id: str, player: str, row: GameRow | None = None
                     ) -> dict[str, Any]:
        """What one player may see: the player view's data (``row``: as ``view``)."""
        return dict(self.view(game_id, f"player:{player}", row=row).data)

    # --- entries -----------------------------------------------------------------------------

    def _append(self, game_id: str, version: int | None,
                build: Callable[[Loaded], tuple[str, dict[str, Any]]],
                opener: book.Opener | None = None, first: Loaded | None = None
                ) -> tuple[int, Loaded, Played, dict[str, Any], object]:
        """Check and append one entry. ``build(loaded)`` returns its kind and payload; the
        state it makes is checked by the engine first (its running check is kept beside the
        game). The rows it replaces (``journal.replaced``: a player's earlier post) are
        deleted in its transaction. Stale versions raise ``Conflict``. An entry that
        publishes a turn queues its letters in the same transaction. ``first``: the game as
        the caller loaded it (a retry loads it again)."""
        for attempt in range(RETRIES):
            loaded = first if first is not None and attempt == 0 else self.load(game_id)
            if version is not None and version != loaded.row.version:
                raise self._conflict(loaded, version, loaded.row.version)
            kind, payload = build(loaded)
            after, checked = self._candidate(loaded, kind, payload)
            letters = self._letters(loaded, after, kind, payload, opener)
            gone = replaced(loaded.game, loaded.played, Row(after.version, kind, payload, 0.0))
            try:
                new = self.store.append(game_id, loaded.row.version, kind, payload,
                                        also=self.mail.queue_in(letters), replaces=gone)
            except Stale as stale:
                if version is not None:
                    raise self._conflict(loaded, version, stale.current) from None
                # no version given: check again on the newer state, after a short random
                # pause so that racing writers spread out
                time.sleep(random_source.SystemRandom().uniform(0, 0.002 * (attempt + 1)))
                continue
            self.kept.note_checked(game_id, loaded.row.version, checked)
            if letters:
                self.mail.wake()
            return new, loaded, after, payload, checked
        raise self._conflict(loaded, loaded.row.version, self._row(game_id).version)

    def _letters(self, loaded: Loaded, after: Played, kind: str, payload: Mapping[str, Any],
                 opener: book.Opener | None) -> list[Any]:
        """The players' letters of a turn this entry publishes (with a mail server)."""
        entry = loaded.game.entry(kind)
        turn = payload.get("turn")
        if entry is None or not entry.closes or not isinstance(turn, int) \
                or not self.mail.sending:
            return []
        return self.mail.turn_letters(loaded.row.id, loaded.game, loaded.facts, after.state,
                                      turn, opener)

    @staticmethod
    def _candidate(loaded: Loaded, kind: str, payload: dict[str, Any]
                   ) -> tuple[Played, object]:
        """The state one more entry makes and the engine's check of it, resumed from the
        kept one (raises its Problems)."""
        row = Row(loaded.row.version + 1, kind, payload, time.time())
        after = step(loaded.game, loaded.facts, loaded.played, row)
        return after, engine.resume(loaded.game.export(after.state), loaded.checked)

    def _conflict(self, loaded: Loaded, seen: int, current: int) -> Conflict:
        rows = self.store.since(loaded.row.id, seen)
        changes = [{"version": r.seq, "kind": r.kind, "text": describe(loaded.game, r)}
                   for r in rows]
        return Conflict(current, changes, [said(loaded.game, r) for r in rows])

    def _entry(self, loaded: Loaded, kind: str) -> EntryKind:
        entry = loaded.game.entry(kind)
        if entry is None:
            raise unknown_entry(loaded.row.kind, kind)
        return entry

    def entry_at(self, game_id: str, path: str) -> tuple[str, int]:
        """The kind and API status of the game's entry at API ``path``; Problems when the
        game takes no such entry."""
        loaded = self.load(game_id)
        entry = next((e for e in loaded.game.entries if e.path == path), None)
        if entry is None:
            raise unknown_entry(loaded.row.kind, path)
        return entry.kind, entry.status

    def enter(self, game_id: str, kind: str, body: Mapping[str, Any],
              params: Mapping[str, Any] | None = None, *, version: int | None = None,
              opener: book.Opener | None = None, loaded: Loaded | None = None) -> Entered:
        """One entry of the game's ``kind`` from the API's body and path parameters. An entry
        that needs confirming and is not confirmed is checked and answered, not recorded.
        ``opener``: the GM's token and address, so a publish's letters carry links;
        ``loaded``: the game as the caller loaded it."""
        params = params or {}
        loaded = loaded if loaded is not None else self.load(game_id)
        entry = self._entry(loaded, kind)
        if entry.confirm and body.get("confirm") is not True:
            if version is not None and version != loaded.row.version:
                raise self._conflict(loaded, version, loaded.row.version)
            payload = entry.payload(loaded.played.state, body, params)
            after, checked = self._candidate(loaded, kind, payload)
            answer = entry.answer(loaded.played.state, after.state, payload, False,
                                  **({"checked": checked} if entry.reads_check else {}))
            return Entered(loaded.row.version, answer, recorded=False)

        def build(now: Loaded) -> tuple[str, dict[str, Any]]:
            return kind, self._entry(now, kind).payload(now.played.state, body, params)

        new, before, after, payload, checked = self._append(game_id, version, build, opener,
                                                            loaded)
        return Entered(new, entry.answer(before.played.state, after.state, payload, True,
                                         **({"checked": checked} if entry.reads_check else {})))

    def check(self, game_id: str, kind: str, body: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> None:
        """Check an entry against the game as it is, recording nothing: raises the game's
        problems (a form shows them beside its own, every problem at once)."""
        loaded = self.load(game_id)
        payload = self._entry(loaded, kind).payload(loaded.played.state, body, params or {})
        self._candidate(loaded, kind, payload)

    def undo(self, game_id: str, *, version: int | None = None,
             loaded: Loaded | None = None) -> Entered:
        """Take back the last undoable entry (one of the open turn, or the last round);
        ``loaded``: the game as the caller loaded it."""

        def build(loaded: Loaded) -> tuple[str, dict[str, Any]]:
            last = loaded.played.undoable(loaded.game)
            if last is None:
                raise Problems([GameLogError("undo", Msg(N_(
                    "nothing to undo: no entry since the last publish")))])
            return UNDO, {"undoes": last.seq}

        new = self._append(game_id, version, build, first=loaded)[0]
        return Entered(new, {})

    def post_form(self, game_id: str, read: Callable[[GameState], FormRead | None],
                  version: int | None, opener: book.Opener | None = None) -> FormPosted:
        """A game master's form post on the game loaded once: ``read`` reads the post against
        the GM's state (None: undo), then its entry is made on the ``version`` the page showed
        (``None``: whatever is current). A stale version, or the console's refusal, is
        answered in the result, not raised."""
        loaded = self.load(game_id)
        state = self._state(loaded)
        form = read(state)
        seen = state.checked_against(loaded.game, version)
        if seen is not None and seen != state.version:
            # checked before the form is read against entries it never saw
            missed = [what for at, what in state.journal if at > seen]
            return FormPosted(state, form, conflict=Conflict(state.version, [], missed))
        if form is not None and (form.unchanged or not form.ok()):
            return FormPosted(state, form)
        try:
            if form is None:
                entered = self.undo(game_id, version=seen, loaded=loaded)
            else:
                entered = self.enter(game_id, form.kind, form.body, form.params, version=seen,
                                     opener=opener, loaded=loaded)
        except Conflict as conflict:
            return FormPosted(state, form, conflict=conflict)
        except NotFound:
            raise
        except KitError as error:
            return FormPosted(state, form, refused=error)
        return FormPosted(state, form, entered=entered)

    # --- files -------------------------------------------------------------------------------

    def export_log(self, game_id: str) -> str:
        """The game as a TOML log (``published = N`` included) that ``kit report`` reads."""
        loaded = self.load(game_id)
        return tomli_w.dumps(loaded.game.export(loaded.played.state))

    def report_folder(self, game_id: str, who: str = GM, client: str = "",
                      turn: int | None = None, row: GameRow | None = None) -> Path:
        """The made report folder of ``who``'s view (``turn``: that turn's alone); raises
        ``BeingMade`` while it is being made (its render started, or joined, for ``client``),
        ``NotFound`` when the view has no such reports, ``NotMade`` when they cannot be made.
        ``row``: the game's row, when the caller just read it."""
        row = row or self._row(game_id)
        view = self.view(game_id, who, row=row)
        # (named by a digest of the view's log: worked out once per version, viewer and turn)
        target = self.answers.once(("report folder", game_id, row.version, who, turn),
                                   lambda: (files_folder(self.files, row, view, who, turn), 200))
        if target.is_dir():
            self.folders.ensure(target, view.log or {}, row, None, who, view.data["version"])
            return target
        if (running := self.folders.running(target)) is not None:
            raise BeingMade(running)
        loaded = self.load(game_id)  # the journal, for what was handed out (the erratum)
        view = self.view(game_id, who, loaded)
        target = files_folder(self.files, loaded.row, view, who, turn)
        running = self.folders.ensure(
            target, view.log or {}, loaded.row,
            loaded.rows if amended(loaded.row, loaded.rows) else None, who,
            view.data["version"], client, turn)
        if running is not None:
            raise BeingMade(running)
        return target

    def report_state(self, game_id: str, who: str = GM) -> str:
        """Where ``who``'s report folder stands, never starting its render: ``made``,
        ``failed``, ``pending`` (being made, or not asked for yet) or ``none`` (no reports)."""
        view = self.view(game_id, who)
        if view.log is None:
            return "none"
        return self.folders.state(files_folder(self.files, self._row(game_id), view, who))

    def report_listing(self, game_id: str, who: str = GM, client: str = "",
                       row: GameRow | None = None) -> list[str] | None:
        """The report folder's file names (the documents, not their fonts); None while it is
        being made (its render started); [] when there is nothing to make."""
        try:
            target = self.report_folder(game_id, who, client, row=row)
        except (BeingMade, Queued):  # (queued: the page says so, and asks again)
            return None
        except (NotFound, NotMade):
            return []
        return sorted(p.name for p in target.iterdir() if p.is_file())

    def read_report(self, game_id: str, name: str, who: str = GM, client: str = "") -> Answer:
        """The bytes of report file ``name`` as ``who`` may see it, and its ETag (the
        content's); ``BeingMade`` while it is being made, ``NotFound`` when there is no such
        file or ``who`` may not fetch it."""
        if any(word in name for word in self.view(game_id, who).hidden):
            raise NotFound("file", NO_FILE)
        for _ in range(3):  # the folder may be pruned by another server as we read it
            target = self.report_folder(game_id, who, client, file_turn(name))
            body = self.folders.read(target, name)
            if body is not None:
                return Answer(body, etag(target.relative_to(self.files), name))
        raise NotFound("file", NO_FILE)

    def read_own(self, game_id: str, name: str, player: str, client: str = "") -> Answer:
        """The bytes of one turn's file ``name`` of ``player``'s own folder (it holds their
        own files alone: ``report_files.own_player``), and its ETag; ``BeingMade`` while it is being
        made, ``NotFound`` for a name of no turn handed out, or not in that folder."""
        turn = file_turn(name)
        if turn is None:
            raise NotFound("file", NO_FILE)
        for _ in range(3):  # the folder may be pruned by another server as we read it
            target = self.report_folder(game_id, f"player:{player}", client, turn)
            body = self.folders.read(target, name)
            if body is not None:
                return Answer(body, etag(target.relative_to(self.files), name))
        raise NotFound("file", NO_FILE)

    def report_file(self, game_id: str, name: str, who: str = GM) -> Path:
        """A report file of the game as ``who`` may see it (``name`` inside the report
        folder), waiting for its render if need be; NotFound when it has no such file or
        ``who`` may not fetch it."""
        if any(word in name for word in self.view(game_id, who).hidden):
            raise NotFound("file", NO_FILE)
        while True:
            try:
                return served_path(self.report_folder(game_id, who, turn=file_turn(name)), name)
            except BeingMade as making:
                making.future.result()

    def report_text(self, game_id: str, who: str = PUBLIC, files: str = "") -> Answer:
        """The reports ``who`` may see as text for an email (``files``: where the erratum
        is), and its ETag; made once per version."""
        return self.answer(game_id, ("report.txt", files), lambda view: text_report(
            view, str(view.data["lang"]), files).encode(), who)

    def close(self) -> None:
        self.presence.close()  # (its last signs written first)
        self.store.close()


def open_console(database: str | None = None, files: Path | None = None) -> Console:
    """The console on ``database`` (a SQLite path, a ``postgresql://`` URL, or the default
    file in the user data folder), schema migrated to the newest version. ``files`` holds
    rendered report files, made again from the database whenever missing (default:
    ``console-files`` in the render cache folder)."""
    url = database_url(database or os.environ.get("KIT_DATABASE_URL"))
    engine_ = make_engine(url)
    try:
        migrate(engine_)
    except Exception as exc:  # never echo the URL: it may hold a password
        engine_.dispose()
        raise ConfigError("database", f"cannot open the console database "
                          f"({type(exc).__name__})") from None
    # beside the render cache (KIT_CACHE_DIR: a volume servers may share); private: it holds
    # the GM registers and slips; renders a killed server left half done are swept
    files = private_folder(files if files is not None else default_folder() / "console-files")
    sweep_staging(files.glob(f"*/{STAGING}*"))
    return Console(Store(engine_), files)
