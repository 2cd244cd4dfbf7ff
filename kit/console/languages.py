"""Each game's own language, read once: a game's pages speak it to a visitor whose languages
are none of ours (its mail and reports always do)."""

from __future__ import annotations

from .store import Missing, Store

MAX_KNOWN = 10_000  # games whose language is kept in memory


class GameLanguages:
    """A game's language never changes once made, so it is read from the store once."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: dict[str, str] = {}

    def of(self, game_id: str) -> str | None:
        """The language the game was made in; None for no such game."""
        known = self._known.get(game_id)
        if known is None:
            try:
                known = str(self.store.game(game_id).public["lang"])
            except Missing:
                return None
            if len(self._known) >= MAX_KNOWN:
                self._known.clear()  # a bound, not a cache policy: one read a game again
            self._known[game_id] = known
        return known
