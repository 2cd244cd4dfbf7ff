"""What the console's service answers: a new game, a public answer as sent, an entry made, a
game loaded, the game master's state, and a GM form post's outcome. Plain frozen data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..errors import KitError, Msg
from ..game import ConsoleGame, FormRead, View
from ..game.refusals import Conflict
from ..server.packing import pack
from .journal import Played
from .store import GameRow, Row


@dataclass(frozen=True)
class Created:
    """A new game: its id, the GM token and the seats' tokens by (kind, name) (shown once,
    never stored) and the journal version."""

    id: str
    gm_token: str
    version: int
    seat_tokens: dict[tuple[str, str], str] = field(default_factory=dict)

    def tokens(self, kind: str) -> dict[str, str]:
        """The tokens of one kind of seat, by name (``"player"``: each player's)."""
        return {name: token for (k, name), token in self.seat_tokens.items() if k == kind}


@dataclass(frozen=True)
class Answer:
    """A public answer as sent: its bytes and its ETag; ``making``: it says that report files
    are being made."""

    body: bytes
    etag: str
    making: bool = False

    @cached_property
    def gzipped(self) -> bytes:
        """The body gzip-compressed, once (``kit.server.packing``): a kept answer is sent
        compressed to every client that takes it."""
        return pack(self.body)


@dataclass(frozen=True)
class Entered:
    """What an accepted entry did: the new version, the game's answer, and whether it was
    recorded (an entry that needs confirming is only previewed without)."""

    version: int
    answer: dict[str, Any]
    recorded: bool = True


@dataclass(frozen=True)
class Loaded:
    """A game as stored, and its state replayed."""

    row: GameRow
    rows: Sequence[Row]
    game: ConsoleGame
    played: Played
    checked: object = None  # the engine's running check of a state near it (engine.check)

    @property
    def facts(self) -> dict[str, Any]:
        return self.row.public

    def undoable(self) -> dict[str, Any] | None:
        """The entry ``undo`` would take back (kind, and its turn or table and round)."""
        last = self.played.undoable(self.game)
        if last is None:
            return None
        keys = ("turn", "table", "round")
        return {"kind": last.kind, **{k: last.payload[k] for k in keys if k in last.payload}}


@dataclass(frozen=True)
class GameState:
    """What the game master's pages and ``state.json`` are made from: the GM view, and the
    journal (for stale forms and undo)."""

    id: str
    kind: str
    version: int
    facts: Mapping[str, Any]
    view: View
    entries: tuple[dict[str, Any], ...]  # the journal, described (English: the API's)
    journal: tuple[tuple[int, Msg], ...]  # (version, what it did) for pages
    last_entry: dict[str, Any] | None  # what undo takes back: its kind and payload's numbers

    @property
    def lang(self) -> str:
        return str(self.facts["lang"])

    def checked_against(self, game: ConsoleGame, version: int | None) -> int | None:
        """The version a GM form loaded at ``version`` is checked against: entries that only
        the players' own links made since (their own rows) do not make it stale."""
        if version is None or version >= self.version:
            return version
        since = [e for e in self.entries if e["version"] > version]
        if all((entry := game.entry(e["kind"])) is not None and "gm" not in entry.by
               for e in since):
            return None
        return version

    def seen(self) -> dict[str, Any]:
        """The GM view's data with the game's facts, as the game's GM page reads it."""
        return {**self.view.data, "id": self.id, "game": self.kind, "version": self.version,
                "title": self.facts.get("title", ""), "lang": self.lang,
                "paper": self.facts["paper"], "last_entry": self.last_entry}


@dataclass(frozen=True)
class FormPosted:
    """A game master's form post, on the game loaded once: the state it was read against, the
    form as read (None: undo), and what came of it: the entry, the conflict with a newer
    version, or the console's refusal (none of the three: nothing was entered)."""

    state: GameState
    form: FormRead | None
    entered: Entered | None = None
    conflict: Conflict | None = None
    refused: KitError | None = None
