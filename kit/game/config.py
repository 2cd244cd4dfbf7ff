"""What a game is given: a validated ``KitConfig``, which build steps read and never change."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..i18n import Words, words


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
